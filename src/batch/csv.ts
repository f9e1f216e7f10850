/**
 * The results CSV as a file: its text (csv-stringify, and a reader of one RFC 4180 line), reading
 * it back with a torn last line found (and cut off), appending a chunk's rows durably, and the
 * final rewrite sorted by deal. What a row holds is rows.ts's.
 *
 * Crash safety: rows are appended by the main thread only, a chunk's rows in one write
 * followed by fsync, so a kill leaves whole rows plus at most one torn last line (no newline),
 * which `loadResults` drops.
 */
import { closeSync, constants, existsSync, fstatSync, fsyncSync, ftruncateSync, openSync, readdirSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { UserError } from '../game/index.js';
import { fileError, readRegular, writeAtomic, writeFully } from '../util/fileio.js';
import { metaPath, summaryPath, tmpPath } from './names.js';
import { certsGzPath, certsPath } from './certs.js';

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

/** A results CSV as read: its header and rows (lines without their line end), in file order. */
export interface ResultsFile {
  readonly file: string;
  /** '' for an empty file. */
  readonly header: string;
  readonly lines: string[];
  /** The line number in the file of each of `lines` (blank lines are skipped). */
  readonly lineNos: number[];
  /** Bytes of a torn last line (no newline) that were found after the last whole row. */
  readonly tornBytes: number;
}

/** A file's lines as read: a byte order mark dropped, CRLF line ends as LF (a file saved by a spreadsheet or an editor on Windows). */
export function textLines(text: string): string[] {
  return (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
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
  const text = readRegular(file, 'results file');
  if (text === null) return null;
  const end = text.lastIndexOf('\n') + 1;
  const tornBytes = Buffer.byteLength(text.slice(end));
  // A torn row has no line end at all: lines that end in CR alone are not torn, and not ours.
  if (text.slice(end).includes('\r')) throw new UserError(`${file}: its lines end in CR alone: give it LF (or CRLF) line ends`);
  if (tornBytes > 0 && repair) {
    try {
      truncateSync(file, Buffer.byteLength(text.slice(0, end)));
    } catch (e) {
      fileError(e, 'repair results file', file);
    }
  }
  const all = textLines(text.slice(0, end));
  all.pop(); // after the last newline
  const header = all.length > 0 ? all[0]! : '';
  const lines: string[] = [];
  const lineNos: number[] = [];
  for (let i = 1; i < all.length; i++) {
    const l = all[i]!;
    if (l === '') continue;
    if (!Number.isSafeInteger(lineDeal(l))) throw new UserError(`${file}, line ${i + 1}: not a row of a batch (its first field is not a deal number)`);
    lines.push(l);
    lineNos.push(i + 1);
  }
  return { file, header, lines, lineNos, tornBytes };
}

/**
 * The results file as the run that owns it made it: its size, and the identity (device and
 * inode) of the file it wrote itself. A run writes only into a file of its own making (see
 * `appendDurable`): that identity is the fencing token of its appends.
 */
export interface OwnFile {
  size: number;
  readonly dev: number;
  readonly ino: number;
}

/** `file` as a run has just made it (a new file: written whole and renamed into place). */
export function ownFile(file: string): OwnFile {
  const st = statSync(file);
  return { size: st.size, dev: st.dev, ino: st.ino };
}

/**
 * Appends text to the results file that this run made (`own`) and flushes it to the disk;
 * `own.size` grows. The fence: the file is opened, then `check` (the lock still this run's),
 * then the descriptor must be the very file this run made, of the size it left. A run that took
 * the file over made a new one first (renamed over the name), so a writer that stalled past its
 * lease — in its write, or anywhere after its check — writes into its own old file, which is no
 * longer the results file, and never into the new owner's. Bytes of another process in the file
 * are a UserError too, and nothing is written. When not every byte can be written (a full disk,
 * a quota), what was written of it is cut off again, so the file keeps whole rows only.
 */
export function appendDurable(file: string, text: string, own: OwnFile, check: () => void = () => undefined): void {
  let fd: number | undefined;
  let writing = false;
  const buf = Buffer.from(text, 'utf8');
  try {
    // No O_CREAT: a file removed under a running batch is an error, not a new file without a header.
    fd = openSync(file, constants.O_WRONLY | constants.O_APPEND);
    check();
    const st = fstatSync(fd);
    if (st.dev !== own.dev || st.ino !== own.ino)
      throw new UserError(`'${file}' is no longer the file this run made: another process replaced it (a second run on the same --out?)`);
    if (st.size !== own.size)
      throw new UserError(
        `'${file}' holds ${st.size > own.size ? `${st.size - own.size} bytes more` : `${own.size - st.size} bytes less`} than this run wrote: another process wrote it too (a second run on the same --out?)`,
      );
    stallForTest();
    writing = true;
    writeFully(fd, buf);
    fsyncSync(fd);
    own.size += buf.length;
  } catch (e) {
    if (e instanceof UserError) throw e;
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new UserError(`results file '${file}' was removed while the batch ran`);
    if (fd !== undefined && writing) {
      try {
        ftruncateSync(fd, own.size);
      } catch {
        // a torn last row then, which the next run cuts off
      }
    }
    fileError(e, 'write results file', file);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

let appends = 0;

/**
 * The test hook LIMITED_TEST_STALL=N:DIR: before the write of its Nth append, the process makes
 * DIR/stalled and waits, blocked as in a write to a hung file server (no timer, no renewal of
 * its lock runs), until DIR/go exists. test/batch-files.test.ts stalls a run past its lease so.
 */
function stallForTest(): void {
  const hook = process.env['LIMITED_TEST_STALL'];
  if (!hook || ++appends !== Number(hook.split(':')[0])) return;
  const dir = hook.slice(hook.indexOf(':') + 1);
  writeFileSync(join(dir, 'stalled'), `${process.pid}\n`);
  const nap = new Int32Array(new SharedArrayBuffer(4));
  while (!existsSync(join(dir, 'go'))) Atomics.wait(nap, 0, 0, 10);
}

/**
 * Gives a results file a new identity with the same whole rows: `header` and `lines` (in their
 * order) written to a new file renamed over it. A run does this before its first append to a
 * file it resumes (see `appendDurable`); a torn last row is left behind with the old file.
 */
export function remakeResults(file: string, header: string, lines: readonly string[]): void {
  writeAtomic(file, [header, ...lines].map((l) => l + '\n').join(''), 'results file');
}

/** Removes a results file and its sidecars and certificates (for a fresh start). */
export function removeResults(csv: string): void {
  for (const f of [csv, metaPath(csv), summaryPath(csv), certsPath(csv), certsGzPath(csv)]) {
    try {
      unlinkSync(f);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') fileError(e, 'remove', f);
    }
  }
}

/** Rows sorted by deal number. */
export function sortLines(lines: readonly string[]): string[] {
  return lines
    .map((l) => ({ l, d: lineDeal(l) }))
    .sort((a, b) => a.d - b.d)
    .map((x) => x.l);
}

/**
 * Rewrites a results file with its rows sorted by deal (atomically and durably: the old file
 * stays when the disk is full); `fence` is called just before the new file replaces it.
 */
export function rewriteSorted(file: string, header: string, lines: readonly string[], fence?: () => void): void {
  writeAtomic(file, [header, ...sortLines(lines)].map((l) => l + '\n').join(''), 'results file', { fence });
}

/** A new results file holding the header only (flushed): `headerOf(spec)`. */
export function createResults(file: string, header: string): void {
  writeAtomic(file, header + '\n', 'results file');
}

/**
 * Leftovers of interrupted atomic writes of a results file and its sidecars: each writer's
 * temporary file (`uniqueTmp`), and the one name that earlier versions used (`tmpPath`).
 */
export function removeTemp(file: string): void {
  for (const f of [file, metaPath(file), summaryPath(file)]) {
    const dir = dirname(f);
    const base = basename(f);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const n of names) {
      if (n !== basename(tmpPath(f)) && !(n.startsWith(`${base}.`) && /^\.[0-9a-f]{12}\.tmp$/.test(n.slice(base.length)))) continue;
      try {
        unlinkSync(join(dir, n));
      } catch {
        // gone
      }
    }
  }
}
