/**
 * The files of a batch: the results CSV (one row a deal), its sidecars FILE.meta.json (what
 * ran: options, range, shard, machine, sessions) and FILE.summary.json, and a lock file.
 *
 * Crash safety: rows are appended by the main thread only, a chunk's rows in one write
 * followed by fsync, so a kill leaves whole rows plus at most one torn last line (no newline),
 * which `loadResults` drops. The sidecars are written to a temporary file and renamed into
 * place, so they are always whole.
 */
import {
  accessSync, closeSync, constants, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, statSync, truncateSync,
  unlinkSync, writeFileSync, writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { UserError } from '../game/index.js';
import { type JobSpec } from './job.js';
import { type DealRange, type Shard } from './range.js';
import { type Summary } from './stats.js';

// ---------------------------------------------------------------------------------------
// Names

/** `results/run.csv` -> `results/run` (the stem the sidecars share). */
function stem(csv: string): string {
  return csv.toLowerCase().endsWith('.csv') ? csv.slice(0, -4) : csv;
}

export const metaPath = (csv: string): string => `${stem(csv)}.meta.json`;
export const summaryPath = (csv: string): string => `${stem(csv)}.summary.json`;
export const lockPath = (csv: string): string => `${csv}.lock`;
const tmpPath = (file: string): string => `${file}.tmp`;

/** Text as a part of a file name: lower case, each run of other characters than a-z, 0-9 and '.' one '-'. */
export function nameSlug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9.]+/g, '-').replace(/^-|-$/g, '');
}

/** `results/run.csv` + shard 3/10 -> `results/run.shard-03-of-10.csv`. */
export function withTag(csv: string, tag: string): string {
  return `${stem(csv)}.${tag}.csv`;
}

// ---------------------------------------------------------------------------------------
// Errors

const WRITE_ERRORS: Record<string, string> = {
  ENOENT: 'no such directory',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  EISDIR: 'it is a directory',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
};

/** An fs error as a one-line UserError naming the file; anything else is rethrown. */
export function fileError(e: unknown, action: string, file: string): never {
  const code = (e as NodeJS.ErrnoException)?.code;
  const why = code !== undefined ? WRITE_ERRORS[code] : undefined;
  if (why) throw new UserError(`cannot ${action} '${file}': ${why}`);
  throw e;
}

/**
 * An --out that names a file, its directories made as bench --out makes its own: refuses a
 * name that ends with '/' or is a directory (the lock and sidecars would go inside it, named
 * '.lock' and '.meta.json'), then makes the parent directories. A parent that cannot be made
 * is left for checkWritable to name.
 */
export function prepareOut(file: string, what = 'results file'): void {
  let isDir = false;
  try {
    isDir = statSync(file).isDirectory();
  } catch {
    // not there (or not reachable): checkWritable says why
  }
  if (/[/\\]$/.test(file) || isDir)
    throw new UserError(
      `--out '${file}' ${isDir ? 'is a directory' : "ends with '/'"}: --out names the ${what}, e.g. '${file.replace(/[/\\]+$/, '')}/run.csv'`,
    );
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch {
    // checkWritable says why
  }
}

/** Fails early when `file` cannot be created or appended to. */
export function checkWritable(file: string, what = 'results file'): void {
  const dir = dirname(file);
  let st;
  try {
    st = statSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`cannot write ${what} '${file}': no such directory '${dir}'`);
    if (code === 'ENOTDIR') throw new UserError(`cannot write ${what} '${file}': '${dir}' is not a directory`);
    fileError(e, `write ${what}`, file);
  }
  if (!st.isDirectory()) throw new UserError(`cannot write ${what} '${file}': '${dir}' is not a directory`);
  try {
    accessSync(dir, constants.W_OK);
  } catch (e) {
    fileError(e, `write ${what}`, file);
  }
  if (existsSync(file)) {
    if (statSync(file).isDirectory()) throw new UserError(`cannot write ${what} '${file}': it is a directory`);
    try {
      accessSync(file, constants.W_OK);
    } catch (e) {
      fileError(e, `write ${what}`, file);
    }
  }
}

// ---------------------------------------------------------------------------------------
// CSV

/** CSV text of records (csv-stringify), each ending with a newline. */
export function csvText(records: readonly (readonly (string | number)[])[]): string {
  return stringify(records as (string | number)[][], { eof: true, record_delimiter: 'unix' });
}

/** One CSV line (no newline) as its fields: RFC 4180 quoting ("" inside quotes). */
export function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let v = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new Error('unterminated quote');
        v += line.slice(i, q);
        if (line[q + 1] === '"') {
          v += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(v);
      if (i >= line.length) return out;
      if (line[i] !== ',') throw new Error(`',' expected after a quoted field`);
      i++;
    } else {
      const c = line.indexOf(',', i);
      if (c < 0) {
        out.push(line.slice(i));
        return out;
      }
      out.push(line.slice(i, c));
      i = c + 1;
    }
  }
}

/** A results CSV as read: its header and rows (lines without their newline), in file order. */
export interface ResultsFile {
  readonly file: string;
  readonly header: string;
  readonly lines: string[];
  /** Bytes of a torn last line (no newline) that were found after the last whole row. */
  readonly tornBytes: number;
}

/** The deal number of a row (its first field). */
export function lineDeal(line: string): number {
  const c = line.indexOf(',');
  const t = c < 0 ? line : line.slice(0, c);
  return /^\d+$/.test(t) ? Number(t) : NaN;
}

/**
 * Reads a results CSV. With `repair`, a torn last line (a row cut short by a kill: no
 * newline) is cut off the file itself. Null when the file does not exist.
 */
export function loadResults(file: string, repair: boolean): ResultsFile | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    if ((e as NodeJS.ErrnoException).code === 'EISDIR') throw new UserError(`cannot read results file '${file}': it is a directory`);
    throw e;
  }
  const end = text.lastIndexOf('\n') + 1;
  const tornBytes = Buffer.byteLength(text.slice(end));
  if (tornBytes > 0 && repair) {
    try {
      truncateSync(file, Buffer.byteLength(text.slice(0, end)));
    } catch (e) {
      fileError(e, 'repair results file', file);
    }
  }
  const all = text.slice(0, end).split('\n');
  all.pop(); // after the last newline
  const header = all.length > 0 ? all[0]! : '';
  const lines = all.slice(1).filter((l) => l !== '');
  lines.forEach((l, i) => {
    if (!Number.isSafeInteger(lineDeal(l))) throw new UserError(`${file}, line ${i + 2}: not a row of a batch (its first field is not a deal number)`);
  });
  return { file, header, lines, tornBytes };
}

/** Appends text to an existing file in one write and flushes it to the disk. */
export function appendDurable(file: string, text: string): void {
  let fd: number | undefined;
  try {
    // No O_CREAT: a file removed under a running batch is an error, not a new file without a header.
    fd = openSync(file, constants.O_WRONLY | constants.O_APPEND);
    const buf = Buffer.from(text, 'utf8');
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new UserError(`results file '${file}' was removed while the batch ran: stopped`);
    fileError(e, 'write results file', file);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Removes a results file and its sidecars (for a fresh start). */
export function removeResults(csv: string): void {
  for (const f of [csv, metaPath(csv), summaryPath(csv)]) {
    try {
      unlinkSync(f);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') fileError(e, 'remove', f);
    }
  }
}

/** Writes a file whole or not at all: a temporary file, flushed, renamed over the target. */
export function writeAtomic(file: string, text: string): void {
  const tmp = tmpPath(file);
  try {
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (e) {
    fileError(e, 'write', file);
  }
  try {
    const d = openSync(dirname(file), 'r');
    try {
      fsyncSync(d);
    } finally {
      closeSync(d);
    }
  } catch {
    // Not every file system lets a directory be flushed; the rename is done either way.
  }
}

/** The fields of a row the summary needs, by column name. */
export interface RowFields {
  readonly deal: number;
  readonly verdict: string;
  readonly limit: string;
  readonly nodes: number;
  readonly ms: number;
}

/** Parses the rows of a results file for the summary (a file without a `limit` column, a player's, has '' there). */
export function rowFields(rf: ResultsFile): RowFields[] {
  const cols = parseCsvLine(rf.header);
  const at = (name: string): number => {
    const i = cols.indexOf(name);
    if (i < 0) throw new UserError(`${rf.file}: the header has no column '${name}'`);
    return i;
  };
  const [d, v, n, m] = [at('deal'), at('verdict'), at('nodes'), at('ms')];
  const l = cols.indexOf('limit');
  return rf.lines.map((line, i) => {
    let f: string[];
    try {
      f = parseCsvLine(line);
    } catch (e) {
      throw new UserError(`${rf.file}, line ${i + 2}: ${(e as Error).message}`);
    }
    if (f.length !== cols.length) throw new UserError(`${rf.file}, line ${i + 2}: ${f.length} fields, the header has ${cols.length}`);
    return { deal: Number(f[d]), verdict: f[v]!, limit: l < 0 ? '' : f[l]!, nodes: Number(f[n]), ms: Number(f[m]) };
  });
}

/** Rows sorted by deal number. */
export function sortLines(lines: readonly string[]): string[] {
  return lines
    .map((l) => ({ l, d: lineDeal(l) }))
    .sort((a, b) => a.d - b.d)
    .map((x) => x.l);
}

/** Rewrites a results file with its rows sorted by deal (atomically). */
export function rewriteSorted(file: string, header: string, lines: readonly string[]): void {
  writeAtomic(file, [header, ...sortLines(lines)].map((l) => l + '\n').join(''));
}

/** A new results file holding the header only (flushed): `headerOf(spec)`. */
export function createResults(file: string, header: string): void {
  writeAtomic(file, header + '\n');
}

/** Leftovers of an interrupted atomic write. */
export function removeTemp(file: string): void {
  for (const f of [tmpPath(file), tmpPath(metaPath(file)), tmpPath(summaryPath(file))]) {
    try {
      unlinkSync(f);
    } catch {
      // none
    }
  }
}

// ---------------------------------------------------------------------------------------
// Sidecars

/** One run of the command on a file (a resumed file has several). */
export interface Session {
  startedAt: string;
  /** null while running, or when the run was killed. */
  endedAt: string | null;
  /** 'running' (or killed while running), 'done', 'interrupted' (SIGINT/SIGTERM), 'failed'. */
  status: 'running' | 'done' | 'interrupted' | 'failed';
  /** Deals this session finished, and its wall-clock seconds (updated every few seconds). */
  deals: number;
  seconds: number;
  workers: number;
  chunk: number;
  cores: number;
  cpu: string;
  node: string;
  host: string;
  platform: string;
  version: string;
  commit: string | null;
  command: string;
}

export const META_FORMAT = 'limited-batch/1';

export interface Meta {
  format: typeof META_FORMAT;
  tool: 'limited';
  version: string;
  commit: string | null;
  /** The command that made the file (the first session's). */
  command: string;
  job: JobSpec;
  /** The whole experiment's range, before sharding. */
  range: DealRange;
  shard: Shard | null;
  /** The deals of this file: the shard's block of the range (the range itself when not sharded). */
  part: DealRange;
  columns: string[];
  startedAt: string;
  endedAt: string | null;
  /** All deals of the part are in the file. */
  complete: boolean;
  /** The latest session's machine and pool. */
  workers: number;
  cores: number;
  cpu: string;
  node: string;
  host: string;
  sessions: Session[];
  /** A merged file: the parts it was made of. */
  parts?: { file: string; part: DealRange; shard: Shard | null; commit: string | null; sessions: Session[] }[];
}

export function readMeta(csv: string): Meta | null {
  const file = metaPath(csv);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  let m: Meta;
  try {
    m = JSON.parse(text) as Meta;
  } catch (e) {
    throw new UserError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  if (m === null || typeof m !== 'object' || m.format !== META_FORMAT)
    throw new UserError(`${file}: not the sidecar of a batch results file (no "format": "${META_FORMAT}")`);
  return m;
}

export function writeMeta(csv: string, meta: Meta): void {
  writeAtomic(metaPath(csv), JSON.stringify(meta, null, 2) + '\n');
}

export interface SummaryFile extends Summary {
  readonly file: string;
  readonly job: JobSpec;
  readonly range: DealRange;
  readonly shard: Shard | null;
  readonly part: DealRange;
  readonly complete: boolean;
  readonly speed: { readonly deals: number; readonly seconds: number; readonly dealsPerSecond: number | null; readonly note: string };
}

export function writeSummary(csv: string, s: SummaryFile): void {
  writeAtomic(summaryPath(csv), JSON.stringify(s, null, 2) + '\n');
}

// ---------------------------------------------------------------------------------------
// Lock

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the lock of a results file: refuses when another live process of this host holds it.
 * A lock left by a killed run (its process is gone), or by another host, is taken over (a
 * cluster job requeued on another node must be able to resume). Returns the release function.
 */
export function takeLock(csv: string): () => void {
  const file = lockPath(csv);
  const me = `${hostname()} ${process.pid}\n`;
  try {
    const old = readFileSync(file, 'utf8').trim().split(/\s+/);
    const pid = Number(old[1]);
    if (old[0] === hostname() && Number.isSafeInteger(pid) && pid !== process.pid && alive(pid))
      throw new UserError(`another batch (process ${pid}) is writing '${csv}': wait for it, or stop it first (its lock is ${basename(file)})`);
  } catch (e) {
    if (e instanceof UserError) throw e;
    // no lock, or unreadable: take it
  }
  try {
    writeFileSync(file, me);
  } catch (e) {
    fileError(e, 'write lock file', file);
  }
  return () => {
    try {
      if (readFileSync(file, 'utf8') === me) unlinkSync(file);
    } catch {
      // gone already
    }
  };
}
