/**
 * Deal ranges, shards and chunks.
 *
 * A range is `count` consecutive deal numbers from `from`. Shard I of N (1-based) is the I-th of
 * N contiguous blocks of nearly equal size (the first `count mod N` blocks have one deal more):
 * shards are disjoint, cover the range, and a shard's results file holds one block — so
 * `limited merge` can check for gaps and overlaps by the blocks' ends alone. (Deal numbers say
 * nothing about difficulty, so contiguous blocks balance as well as interleaving would.)
 *
 * Within a run, the deals still to do are cut into chunks of at most K deals, handed to the
 * workers one chunk at a time.
 */
import { UserError, shown } from '../game/index.js';

export interface DealRange {
  readonly from: number;
  readonly count: number;
}

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

/** The last deal of a (non-empty) range. */
export const rangeLast = (r: DealRange): number => r.from + r.count - 1;

/** `1-2000`, or `none` for an empty range. */
export function formatRange(r: DealRange): string {
  return r.count === 0 ? 'none' : r.count === 1 ? String(r.from) : `${r.from}-${rangeLast(r)}`;
}

/** The part of `range` that shard I/N takes: the I-th contiguous block. */
export function shardPart(range: DealRange, shard: Shard | null): DealRange {
  if (!shard) return range;
  const base = Math.floor(range.count / shard.count);
  const rem = range.count % shard.count;
  const i = shard.index - 1;
  return { from: range.from + i * base + Math.min(i, rem), count: base + (i < rem ? 1 : 0) };
}

export const MAX_SHARDS = 1_000_000;

/** Parses `--shard I/N` (1 <= I <= N). Throws UserError. */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) throw new UserError(`--shard must be I/N (shard I of N, 1 <= I <= N), e.g. 2/10, not '${shown(text)}'`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS) throw new UserError(`--shard ${shown(text)}: N must be 1 to ${MAX_SHARDS}`);
  if (index < 1 || index > count) throw new UserError(`--shard ${shown(text)}: I must be 1 to ${count} (shards are numbered from 1)`);
  return { index, count };
}

function envInt(env: Record<string, string | undefined>, name: string): number | undefined {
  const v = env[name];
  if (v === undefined || v.trim() === '') return undefined;
  if (!/^\s*-?\d+\s*$/.test(v)) throw new UserError(`${name}='${shown(v)}' is not a whole number`);
  return Number(v);
}

/**
 * The shard to run: `--shard I/N` when given; else from a Slurm job array
 * (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT, and SLURM_ARRAY_TASK_MIN / _STEP when set, so
 * that arrays numbered from 0 or from 1 both work); else from a Kubernetes Indexed Job
 * (JOB_COMPLETION_INDEX, 0-based, with `--shards N`); else none. `from` says where it came from.
 */
export function chooseShard(
  shardOpt: string | undefined,
  shardsOpt: number | undefined,
  env: Record<string, string | undefined>,
): { shard: Shard | null; from: string } {
  if (shardOpt !== undefined) {
    const s = parseShard(shardOpt);
    if (shardsOpt !== undefined && shardsOpt !== s.count) throw new UserError(`--shard ${shardOpt} disagrees with --shards ${shardsOpt}`);
    return { shard: s, from: '--shard' };
  }
  const taskId = envInt(env, 'SLURM_ARRAY_TASK_ID');
  if (taskId !== undefined) {
    const count = envInt(env, 'SLURM_ARRAY_TASK_COUNT');
    if (count === undefined) throw new UserError('SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: give --shard I/N');
    if (count < 1) throw new UserError(`SLURM_ARRAY_TASK_COUNT=${count}: an array has at least one task (it must be >= 1): give --shard I/N`);
    const min = envInt(env, 'SLURM_ARRAY_TASK_MIN') ?? 0;
    const step = envInt(env, 'SLURM_ARRAY_TASK_STEP') ?? 1;
    const offset = taskId - min;
    const i = step > 0 && offset % step === 0 ? offset / step : -1;
    if (i < 0 || i >= count)
      throw new UserError(
        `cannot tell the shard of Slurm array task ${taskId} (SLURM_ARRAY_TASK_MIN=${shown(env['SLURM_ARRAY_TASK_MIN'] ?? 'unset')}, ` +
          `STEP=${shown(env['SLURM_ARRAY_TASK_STEP'] ?? 'unset')}, COUNT=${count}): use a range like --array=0-${count - 1}, or give --shard I/N`,
      );
    if (shardsOpt !== undefined && shardsOpt !== count)
      throw new UserError(`--shards ${shardsOpt} disagrees with the Slurm array's ${count} tasks (SLURM_ARRAY_TASK_COUNT)`);
    return { shard: { index: i + 1, count }, from: `Slurm array task ${taskId}` };
  }
  const jci = envInt(env, 'JOB_COMPLETION_INDEX');
  if (jci !== undefined) {
    if (shardsOpt === undefined) throw new UserError('JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job): give --shards N, the Job\'s completions');
    if (jci < 0 || jci >= shardsOpt) throw new UserError(`JOB_COMPLETION_INDEX=${jci} is not below --shards ${shardsOpt}`);
    return { shard: { index: jci + 1, count: shardsOpt }, from: `JOB_COMPLETION_INDEX ${jci}` };
  }
  if (shardsOpt !== undefined)
    throw new UserError('--shards N picks the shard from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job), which is not set: give --shard I/N to choose a shard by hand');
  return { shard: null, from: '' };
}

/** `shard-03-of-10`: what a sharded run adds to its file name. */
export function shardTag(s: Shard): string {
  const w = String(s.count).length;
  return `shard-${String(s.index).padStart(w, '0')}-of-${s.count}`;
}

// ---------------------------------------------------------------------------------------
// Done sets and chunks

/** A set of deal numbers within a range, one bit each. */
export class DealSet {
  private readonly bits: Uint32Array;
  size = 0;
  constructor(readonly range: DealRange) {
    this.bits = new Uint32Array(Math.ceil(range.count / 32));
  }

  has(n: number): boolean {
    const i = n - this.range.from;
    if (i < 0 || i >= this.range.count) return false;
    return (this.bits[i >>> 5]! & (1 << (i & 31))) !== 0;
  }

  /** Adds n; false if it was already there. n must be in the range. */
  add(n: number): boolean {
    const i = n - this.range.from;
    const w = i >>> 5;
    const b = 1 << (i & 31);
    if ((this.bits[w]! & b) !== 0) return false;
    this.bits[w] = this.bits[w]! | b;
    this.size++;
    return true;
  }

  /** The first deal not in the set, or null. */
  firstMissing(): number | null {
    for (let i = 0; i < this.range.count; i++) if ((this.bits[i >>> 5]! & (1 << (i & 31))) === 0) return this.range.from + i;
    return null;
  }

  /** The deals not in the set as ranges (at most `max` of them). */
  missingRanges(max = Infinity): DealRange[] {
    const out: DealRange[] = [];
    let start = -1;
    for (let i = 0; i <= this.range.count; i++) {
      const missing = i < this.range.count && (this.bits[i >>> 5]! & (1 << (i & 31))) === 0;
      if (missing && start < 0) start = i;
      else if (!missing && start >= 0) {
        out.push({ from: this.range.from + start, count: i - start });
        start = -1;
        if (out.length >= max) break;
      }
    }
    return out;
  }
}

/** The deals of `deals` not in `done`, in order, in chunks of at most `k`. */
export function* chunks(deals: Iterable<number>, done: DealSet, k: number): Generator<number[]> {
  let chunk: number[] = [];
  for (const n of deals) {
    if (done.has(n)) continue;
    chunk.push(n);
    if (chunk.length >= k) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** A default chunk size: about 20 chunks per worker, from 1 to 32 deals (small chunks lose little to a kill). */
export function defaultChunk(todo: number, workers: number): number {
  return Math.max(1, Math.min(32, Math.ceil(todo / (workers * 20))));
}
