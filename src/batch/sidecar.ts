/**
 * The sidecars of a results CSV: FILE.meta.json (what ran: the job, the range and shard, the
 * machine, one session a run of the command) and FILE.summary.json (the figures). Both are
 * written whole or not at all (writeAtomic), so they are always whole.
 */
import { MAX_DEAL_NUMBER, UserError, parseRules, parseSize, plural, shown } from '../game/index.js';
import { readRegular, writeAtomic } from '../util/fileio.js';
import { type JobSpec } from './job.js';
import { metaPath, summaryPath } from './names.js';
import { type DealRange, type Shard, MAX_SHARDS, formatRange, shardPart } from './range.js';
import { type Summary } from './stats.js';

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
  /** Only these deals of the part, increasing (a sample); absent: every deal of the part. */
  deals?: number[];
  columns: string[];
  startedAt: string;
  endedAt: string | null;
  /** All deals of the part are in the file. */
  complete: boolean;
  /**
   * The rows its runs had written when the sidecar was written, and their hash (rowhash.ts):
   * the first `rows` rows of the file must hash to `rowsHash`. Absent in the sidecars of
   * earlier versions (their rows are checked one by one only).
   */
  rows?: number;
  rowsHash?: string;
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

/** The sidecar of a results CSV, checked; null when there is none. A damaged one is a UserError naming the file and field. */
export function readMeta(csv: string): Meta | null {
  const file = metaPath(csv);
  const text = readRegular(file, 'sidecar');
  return text === null ? null : parseMeta(text, file);
}

/**
 * A sidecar's text as a Meta: every field the tool reads is checked (type, range, and that the
 * job's rules and size parse and the part is the shard's block of the range), so that a damaged
 * or hand-edited sidecar is one line naming its field, never a crash later.
 */
export function parseMeta(text: string, file: string): Meta {
  let m: unknown;
  try {
    m = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    throw new UserError(`${file}: not valid JSON (${shown((e as Error).message.replace(/\s+/g, ' '), 120)})`);
  }
  if (m === null || typeof m !== 'object' || (m as { format?: unknown }).format !== META_FORMAT)
    throw new UserError(`${file}: not the sidecar of a batch results file (no "format": "${META_FORMAT}")`);
  const c = new Shape(file);
  const meta = c.object(m, '');
  for (const k of ['version', 'command', 'startedAt'] as const) c.string(meta[k], k);
  for (const k of ['commit', 'endedAt'] as const) c.stringOrNull(meta[k], k);
  for (const k of ['tool', 'cpu', 'node', 'host'] as const) if (meta[k] !== undefined) c.string(meta[k], k);
  for (const k of ['workers', 'cores'] as const) if (meta[k] !== undefined) c.count(meta[k], k);
  c.boolean(meta['complete'], 'complete');
  if (meta['rows'] !== undefined || meta['rowsHash'] !== undefined) {
    c.count(meta['rows'], 'rows');
    if (typeof meta['rowsHash'] !== 'string' || !/^[0-9a-f]{16}$/.test(meta['rowsHash'])) c.bad('rowsHash', meta['rowsHash'], '16 hex digits (the hash of the rows)');
  }
  c.array(meta['columns'], 'columns').forEach((x, i) => c.string(x, `columns[${i}]`));
  checkJob(c, c.object(meta['job'], 'job'));
  const range = c.range(meta['range'], 'range');
  const shard = meta['shard'] === null ? null : c.shard(meta['shard'], 'shard');
  const part = c.range(meta['part'], 'part');
  const block = shardPart(range, shard);
  if (part.from !== block.from || part.count !== block.count)
    c.bad('part', meta['part'], `the deals ${formatRange(block)} of ${shard ? `shard ${shard.index}/${shard.count} of ` : ''}range ${formatRange(range)}`);
  if (meta['deals'] !== undefined) {
    let last = -1;
    c.array(meta['deals'], 'deals').forEach((d, i) => {
      const n = c.count(d, `deals[${i}]`);
      if (n <= last || n < part.from || n > part.from + part.count - 1) c.bad(`deals[${i}]`, d, `a deal of ${formatRange(part)} above ${last}`);
      last = n;
    });
    if (shard) c.bad('deals', meta['deals'], 'absent in a shard');
  }
  c.array(meta['sessions'], 'sessions').forEach((s, i) => checkSession(c, s, `sessions[${i}]`));
  if (meta['parts'] !== undefined)
    c.array(meta['parts'], 'parts').forEach((p, i) => {
      const o = c.object(p, `parts[${i}]`);
      c.string(o['file'], `parts[${i}].file`);
      c.range(o['part'], `parts[${i}].part`);
      if (o['shard'] !== null) c.shard(o['shard'], `parts[${i}].shard`);
      c.stringOrNull(o['commit'], `parts[${i}].commit`);
      c.array(o['sessions'], `parts[${i}].sessions`).forEach((s, k) => checkSession(c, s, `parts[${i}].sessions[${k}]`));
    });
  return m as Meta;
}

const STATUSES = ['running', 'done', 'interrupted', 'failed'];

function checkSession(c: Shape, v: unknown, path: string): void {
  const s = c.object(v, path);
  c.string(s['startedAt'], `${path}.startedAt`);
  c.stringOrNull(s['endedAt'], `${path}.endedAt`);
  if (!STATUSES.includes(s['status'] as string)) c.bad(`${path}.status`, s['status'], STATUSES.join(', '));
  c.number(s['deals'], `${path}.deals`);
  c.number(s['seconds'], `${path}.seconds`);
  c.count(s['workers'], `${path}.workers`);
}

function checkJob(c: Shape, j: Record<string, unknown>): void {
  if (j['kind'] !== 'solve' && j['kind'] !== 'play') c.bad('job.kind', j['kind'], "'solve' or 'play'");
  if (j['source'] !== 'v1' && j['source'] !== 'pysol') c.bad('job.source', j['source'], "'v1' or 'pysol'");
  for (const [k, parse] of [['rules', parseRules], ['size', parseSize]] as const) {
    const t = c.string(j[k], `job.${k}`);
    try {
      parse(t);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      c.bad(`job.${k}`, t, `${k} this version reads (${e.message})`);
    }
  }
  c.string(j['method'], 'job.method');
  const solver = c.object(j['solver'], 'job.solver');
  for (const k of ['preset', 'search', 'heuristic'] as const) if (solver[k] !== undefined) c.string(solver[k], `job.solver.${k}`);
  for (const k of ['maxNodes', 'maxSeconds', 'maxMemoryMB'] as const) if (solver[k] !== undefined) c.number(solver[k], `job.solver.${k}`);
  if (solver['tactics'] !== undefined) checkTactics(c, solver['tactics'], 'job.solver.tactics');
  const b = c.object(j['budgets'], 'job.budgets');
  c.number(b['maxNodes'], 'job.budgets.maxNodes');
  if (b['maxSeconds'] !== null) c.number(b['maxSeconds'], 'job.budgets.maxSeconds');
  c.number(b['maxMemoryMB'], 'job.budgets.maxMemoryMB');
  if (j['player'] !== undefined) {
    const p = c.object(j['player'], 'job.player');
    c.string(p['spec'], 'job.player.spec');
    checkTactics(c, p['tactics'], 'job.player.tactics');
    c.string(p['pile'], 'job.player.pile');
  }
  if (j['kind'] === 'play' && j['player'] === undefined) c.bad('job.player', undefined, 'the player of a play job');
  if (j['variants'] !== undefined) c.array(j['variants'], 'job.variants').forEach((v, i) => c.string(v, `job.variants[${i}]`));
}

function checkTactics(c: Shape, v: unknown, path: string): void {
  const t = c.object(v, path);
  c.string(t['pairing'], `${path}.pairing`);
  c.string(t['spaces'], `${path}.spaces`);
}

/** Type checks of a JSON document's fields, each failure a UserError naming the file and the field. */
class Shape {
  constructor(private readonly file: string) {}

  bad(path: string, v: unknown, want: string): never {
    const got = v === undefined ? 'missing' : shown(JSON.stringify(v) ?? String(v));
    throw new UserError(`${this.file}: "${path}" is ${got}, not ${want}`);
  }

  object(v: unknown, path: string): Record<string, unknown> {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) this.bad(path || 'the document', v, 'an object');
    return v as Record<string, unknown>;
  }

  array(v: unknown, path: string): unknown[] {
    if (!Array.isArray(v)) this.bad(path, v, 'a list');
    return v;
  }

  string(v: unknown, path: string): string {
    if (typeof v !== 'string') this.bad(path, v, 'a string');
    return v;
  }

  stringOrNull(v: unknown, path: string): void {
    if (v !== null && typeof v !== 'string') this.bad(path, v, 'a string or null');
  }

  boolean(v: unknown, path: string): void {
    if (typeof v !== 'boolean') this.bad(path, v, 'true or false');
  }

  number(v: unknown, path: string): number {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) this.bad(path, v, 'a number >= 0');
    return v;
  }

  count(v: unknown, path: string): number {
    if (!Number.isSafeInteger(v) || (v as number) < 0) this.bad(path, v, 'a whole number >= 0');
    return v as number;
  }

  range(v: unknown, path: string): DealRange {
    const r = this.object(v, path);
    const from = this.count(r['from'], `${path}.from`);
    const count = this.count(r['count'], `${path}.count`);
    if (count < 1) this.bad(`${path}.count`, count, 'a whole number >= 1');
    if (count - 1 > MAX_DEAL_NUMBER - from) this.bad(path, v, `a range of deal numbers up to ${MAX_DEAL_NUMBER}`);
    return { from, count };
  }

  shard(v: unknown, path: string): Shard {
    const s = this.object(v, path);
    const count = this.count(s['count'], `${path}.count`);
    const index = this.count(s['index'], `${path}.index`);
    if (count < 1 || count > MAX_SHARDS) this.bad(`${path}.count`, count, `a whole number from 1 to ${MAX_SHARDS}`);
    if (index < 1 || index > count) this.bad(`${path}.index`, index, `a whole number from 1 to ${count}`);
    return { index, count };
  }
}

/** A sidecar's text. */
export const metaText = (meta: Meta): string => JSON.stringify(meta, null, 2) + '\n';

/** Writes a results file's sidecar; `fence` (the lock's check) is called just before it replaces the old one. */
export function writeMeta(csv: string, meta: Meta, fence?: () => void): void {
  writeAtomic(metaPath(csv), metaText(meta), 'sidecar', { fence });
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

/** A summary file's text. */
export const summaryText = (s: SummaryFile): string => JSON.stringify(s, null, 2) + '\n';

export function writeSummary(csv: string, s: SummaryFile, fence?: () => void): void {
  writeAtomic(summaryPath(csv), summaryText(s), 'sidecar', { fence });
}

/** What an empty results file (not even its header) with a sidecar is: rows lost, which a run must not paper over. */
export function emptyWithSidecar(file: string, meta: Meta): string {
  const deals = (meta.parts ? meta.parts.flatMap((p) => p.sessions) : meta.sessions).reduce((a, s) => a + s.deals, 0);
  return (
    `'${file}' is empty (not even its header), but its sidecar '${metaPath(file)}' records ${plural(deals, 'deal')} done${meta.complete ? ' and the file complete' : ''}: ` +
    `its rows were lost (a copy cut short, a full disk, an editor); restore it, or remove it and its sidecars to start again`
  );
}
