/**
 * A batch run: a piscina pool of workers over the deals of a range (or of one shard of it),
 * appending one CSV row a deal, resumable, with progress and a summary.
 *
 * Resume and crash safety: on start the results file is read, a torn last line (a kill in the
 * middle of a write) is cut off, and the deals already in it are skipped. The main thread alone
 * appends rows: a chunk's rows in one write, then fsync. A kill at any moment loses at most
 * the chunks in flight; no row is torn or written twice, and no deal is counted twice.
 *
 * Determinism: a deal's row depends only on the job spec and the deal number (each worker keeps
 * one Solver, whose table is emptied for every deal; or one player, reset with the deal number
 * as its seed), so with node budgets only the rows are the same — all columns but `ms` —
 * whatever the worker count, chunk size or sharding. A time budget (--max-seconds) makes them
 * depend on the machine and its load.
 *
 * Speed: the main thread only parses compact rows, turns them into CSV text and appends it, so
 * it keeps up with the greedy player on a few cores (tens of thousands of deals a second): the
 * play kind's chunks hold thousands of deals, and the CSV text of a chunk is made by
 * `chunkText`, which quotes the columns that are the same for every row once.
 */
import { existsSync } from 'node:fs';
import { UserError, plural } from '../game/index.js';
import { runDifference } from './difference.js';
import { type ResultsFile, appendDurable, createResults, lineDeal, loadResults, ownFile, remakeResults, removeResults, removeTemp, rewriteSorted, textLines } from './csv.js';
import { appendCerts, certsGzPath, certsPath, finishCerts, hasCerts } from './certs.js';
import { FileError, checkRegular, checkWritable, readRegular } from '../util/fileio.js';
import { type JobSpec, jobKind } from './job.js';
import { type Lock, takeLock } from './lock.js';
import { lockPath, metaPath, summaryPath } from './names.js';
import { type CompactRow, checkHeader, chunkText, columnsOf, headerOf, limitOf, rowFields, verdictOf } from './rows.js';
import { type Meta, type Session, type SummaryFile, META_FORMAT, emptyWithSidecar, readMeta, writeMeta, writeSummary } from './sidecar.js';
import { builtModule, gitCommit, machine, toolVersion } from './machine.js';
import { startPool } from './pool.js';
import { Progress } from './progress.js';
import { hashRows, proveRows, unhashedNote } from './rowhash.js';
import { type DealRange, type Shard, DealSet, chunks, defaultChunk, formatRange, rangeLast, shardPart } from './range.js';
import { addCount, emptyCounts, summarize } from './stats.js';
import { onStop } from '../util/stop.js';
import { type ChunkResult, type ChunkTask } from './worker.js';

const hasCertsGz = (out: string): boolean => existsSync(certsGzPath(out));

/** The most worker threads and the most deals in a chunk a run takes (`--workers`, `--chunk`, the library's options). */
export const MAX_WORKERS = 1024;
export const MAX_CHUNK = 1_000_000;

export interface BatchConfig {
  readonly spec: JobSpec;
  /** The whole experiment's range (before sharding). */
  readonly range: DealRange;
  readonly shard: Shard | null;
  /** The results CSV (for a shard, the shard's own file). */
  readonly out: string;
  readonly workers: number;
  /** Deals per chunk (default: see defaultChunk). */
  readonly chunk?: number;
  /** Progress on stderr (a bar on a terminal, a line every few seconds otherwise). */
  readonly progress: boolean;
  /** What the progress line is headed with (default `batch`; an experiment names its row). */
  readonly label?: string;
  /** The command line, for the sidecar. */
  readonly command: string;
  /** Start over: remove the results file and its sidecars first (under the lock). */
  readonly fresh?: boolean;
  /**
   * `--force`: a results file made with other options (or one that cannot be resumed) is
   * removed with its sidecars and the run starts over, instead of being refused. A file of the
   * same options is resumed all the same; a file that is not a batch's is refused even so.
   */
  readonly force?: boolean;
  /**
   * Only these deals of the range, in increasing order (a sample, such as the second phase of
   * the win-rate estimator draws): the file is complete when it holds them all. Not with a shard.
   */
  readonly deals?: readonly number[];
  /** Keep a certificate of each decided deal, FILE.certs.gz (certs.ts). */
  readonly certificates?: boolean;
  /** Where the shard came from (`--shard`, `Slurm array task 7`), for messages. */
  readonly shardFrom?: string;
  /** Notes for the user (stderr). */
  readonly note?: (text: string) => void;
  /** Called once the file is checked (resumable, options the same), before the work starts. */
  readonly onStart?: (info: { readonly resumed: number; readonly todo: number; readonly workers: number; readonly chunk: number }) => void;
}

export interface BatchOutcome {
  readonly status: 'done' | 'interrupted';
  readonly summary: SummaryFile;
  /** Deals found in the file at the start, and deals done by this run. */
  readonly resumed: number;
  readonly doneHere: number;
  readonly signal?: NodeJS.Signals;
}

/** A solution from the solver that fails to verify (a solver bug): the CLI exits 3. */
export class BatchSolverError extends Error {
  override readonly name = 'BatchSolverError';
}

/** The pool's worker, dist/src/batch/worker.js (through ../batch/: the bundled CLI, dist/src/cli/main.js, is at the same depth). */
export function workerFile(): string {
  return builtModule(new URL('../batch/worker.js', import.meta.url));
}

function sessionFor(cfg: BatchConfig, chunk: number): Session {
  const m = machine();
  return {
    startedAt: new Date().toISOString(),
    endedAt: null,
    status: 'running',
    deals: 0,
    seconds: 0,
    workers: cfg.workers,
    chunk,
    cores: m.cores,
    cpu: m.cpu,
    node: m.node,
    host: m.host,
    platform: m.platform,
    version: toolVersion(),
    commit: gitCommit(),
    command: cfg.command,
  };
}

/** The speed over the sessions that wrote a file: deals finished per wall-clock second. */
export function sessionSpeed(sessions: readonly Session[]): SummaryFile['speed'] {
  let deals = 0;
  let seconds = 0;
  for (const s of sessions) {
    deals += s.deals;
    seconds += s.seconds;
  }
  const n = sessions.length;
  const workers = [...new Set(sessions.map((s) => s.workers))].join('/');
  return {
    deals,
    seconds: Math.round(seconds * 1000) / 1000,
    dealsPerSecond: seconds > 0 ? deals / seconds : null,
    note: `${plural(deals, 'deal')} in ${seconds.toFixed(1)} s of wall-clock time, ${workers} worker${workers === '1' ? '' : 's'}${n > 1 ? `, over ${n} runs` : ''}`,
  };
}

/** The summary of a results file and its sidecar. */
export function summaryOf(file: string, meta: Meta, complete: boolean): SummaryFile {
  const rf = loadResults(file, false);
  const s = summarize(rf ? rowFields(rf, meta.job) : []);
  return {
    file,
    job: meta.job,
    range: meta.range,
    shard: meta.shard,
    part: meta.part,
    complete,
    ...s,
    speed: sessionSpeed(meta.parts ? meta.parts.flatMap((p) => p.sessions) : meta.sessions),
  };
}

export async function runBatch(cfg: BatchConfig): Promise<BatchOutcome> {
  const note = cfg.note ?? ((t: string) => process.stderr.write(t + '\n'));
  const part = shardPart(cfg.range, cfg.shard);
  if (cfg.deals) checkDealList(cfg.deals, part, cfg.shard);
  if (part.count > 2 ** 32) throw new UserError(`${part.count} deals in one run is too many: split the range with --shard I/N (at most 2^32 deals a run)`);
  const out = cfg.out;
  checkWritable(out);
  // The sidecars and the lock too: a device or a FIFO there is refused before it is read.
  checkRegular(metaPath(out), 'sidecar');
  checkRegular(summaryPath(out), 'sidecar');
  checkRegular(lockPath(out), 'lock file', 'read');
  const lock = takeLock(out);
  // While the lock is held a SIGINT or SIGTERM stops the run, with its sidecars written, instead
  // of ending the process (src/util/stop.ts); it stops the pool when one runs.
  const stop: Stop = { halt: () => undefined };
  const unwatch = onStop((s) => {
    if (stop.signal) return;
    stop.signal = s;
    stop.halt();
  });
  try {
    return await runLocked(cfg, part, note, lock, stop);
  } finally {
    unwatch();
    lock.release();
  }
}

/** The first SIGINT or SIGTERM of a run, and how it stops the pool. */
interface Stop {
  signal?: NodeJS.Signals;
  halt: () => void;
}

/**
 * A file at --out without a sidecar is not a batch's to resume or replace: refused unless it
 * is empty or holds only this run's header (a run killed as it began, between writing the
 * header and the sidecar). Checked before loadResults, which would cut a last line without a
 * newline ('my notes') as a torn row.
 */
export function refuseForeign(out: string, header: string): void {
  const text = readRegular(out, 'results file');
  if (text === null) return;
  // A header alone is this run's, whatever its line end (or a byte order mark).
  if (text !== '' && textLines(text).join('\n') !== header + '\n')
    throw new UserError(`'${out}' exists but has no sidecar '${metaPath(out)}', so it is not a results file of limited batch: remove it or choose another --out`);
}

/** A results file's decided deals and their verdicts (what its certificates must cover). */
function decidedOf(out: string, spec: JobSpec): Map<number, string> {
  const rf = loadResults(out, false);
  const m = new Map<number, string>();
  for (const f of rf ? rowFields(rf, spec) : []) if (f.verdict === 'won' || f.verdict === 'unsolvable') m.set(f.deal, f.verdict);
  return m;
}

/** A deal list must be increasing, within the range, and not sharded (an internal error: the estimator makes the lists). */
function checkDealList(deals: readonly number[], part: DealRange, shard: Shard | null): void {
  if (shard) throw new Error('internal: a batch of a deal list is not sharded');
  for (let i = 0; i < deals.length; i++) {
    const d = deals[i]!;
    if (!(d >= part.from && d <= rangeLast(part)) || (i > 0 && d <= deals[i - 1]!))
      throw new Error(`internal: deal list not increasing within ${formatRange(part)} at ${d}`);
  }
}

/** Whether increasing list `a` is a part of increasing list `b`. */
export function isSubList(a: readonly number[], b: readonly number[]): boolean {
  let j = 0;
  for (const x of a) {
    while (j < b.length && b[j]! < x) j++;
    if (j === b.length || b[j] !== x) return false;
  }
  return true;
}

/** The deals a run has to do: the list when it has one, else every deal of its part. */
function* dealsOf(part: DealRange, list: readonly number[] | undefined): Generator<number> {
  if (list) yield* list;
  else for (let i = 0; i < part.count; i++) yield part.from + i;
}

/**
 * How the file's sidecar `meta` differs from the run `cfg` (null: none). A sample may grow: a
 * file of a deal list resumes under a longer list that holds it.
 */
function metaDifference(meta: Meta, cfg: BatchConfig): ReturnType<typeof runDifference> {
  const here = { job: cfg.spec, range: cfg.range, shard: cfg.shard, ...(cfg.deals ? { deals: cfg.deals } : {}) };
  const grows = meta.deals !== undefined && cfg.deals !== undefined && isSubList(meta.deals, cfg.deals);
  return runDifference(grows ? { ...meta, deals: cfg.deals } : meta, here);
}

/** Could the run `cfg` resume `out`, whose sidecar is `meta`: the same options, and rows that can be read as this run's? */
function resumable(out: string, meta: Meta, cfg: BatchConfig): boolean {
  if (metaDifference(meta, cfg)) return false;
  const existing = loadResults(out, false);
  if (!existing) return true;
  if (existing.header === '') return false;
  try {
    checkHeader(out, existing.header, cfg.spec);
  } catch {
    return false;
  }
  return true;
}

async function runLocked(cfg: BatchConfig, part: DealRange, note: (t: string) => void, lock: Lock, stop: Stop): Promise<BatchOutcome> {
  const out = cfg.out;
  removeTemp(out);
  if (cfg.fresh) removeResults(out);
  const done = new DealSet(part);
  const counts = emptyCounts();
  let meta = readMeta(out);
  if (!meta) refuseForeign(out, headerOf(cfg.spec));
  // --force: what cannot be resumed with these options is removed before anything is read.
  if (cfg.force && meta && !resumable(out, meta, cfg)) {
    note(`limited: ${out} was made with other options: starting it over (--force)`);
    removeResults(out);
    meta = null;
  }
  // Read only: a run that resumes the file makes a new one of its whole rows (remakeResults).
  const existing = loadResults(out, false);
  let adopted: ResultsFile | null = null;
  const listed = cfg.deals ? new DealSet(part) : null;
  if (cfg.deals) for (const d of cfg.deals) listed!.add(d);
  const total = listed ? listed.size : part.count;
  // A file without rows and without a sidecar (a run killed as it began) starts afresh.
  if (existing && (existing.lines.length > 0 || meta)) {
    // refuseForeign has let through no rows without a sidecar.
    if (!meta) throw new Error(`internal: '${out}' has rows but no sidecar`);
    const d = metaDifference(meta, cfg);
    if (!d && meta.deals !== undefined && cfg.deals !== undefined && meta.deals.length < cfg.deals.length) note(`limited: ${out}: the sample grows from ${meta.deals!.length} to ${cfg.deals!.length} deals`);
    if (d)
      throw new UserError(
        `'${out}' was made with ${d.option} ${d.a}, not ${d.b}: to resume it give the same options; for a new experiment choose another --out (or give --force to start it over)`,
      );
    if (existing.header === '') throw new UserError(emptyWithSidecar(out, meta));
    try {
      checkHeader(out, existing.header, cfg.spec);
    } catch (e) {
      throw new UserError(`${(e as Error).message}: choose another --out`);
    }
    const fields = rowFields(existing, meta.job);
    fields.forEach((f, i) => {
      const line = existing.lineNos[i]!;
      if (f.deal < part.from || f.deal >= part.from + part.count || (listed && !listed.has(f.deal)))
        throw new UserError(`${out}, line ${line}: deal ${f.deal} is not among this run's deals ${listed ? `(a list of ${total} of ${formatRange(part)})` : formatRange(part)}`);
      if (!done.add(f.deal)) throw new UserError(`${out}, line ${line}: deal ${f.deal} is in the file twice`);
      addCount(counts, f.verdict, f.limit);
    });
    // A file keeps certificates of all its decided rows or of none.
    if (done.size > 0 && done.size < total && hasCerts(out) !== (cfg.certificates === true))
      throw new UserError(
        cfg.certificates
          ? `'${out}' was begun without certificates: its ${done.size} rows have none; choose another --out for a run with --certificates (or --force to start it over)`
          : `'${out}' keeps certificates of its rows (${hasCertsGz(out) ? certsGzPath(out) : certsPath(out)}): give --certificates to resume it`,
      );
    // The rows are those the sidecar's runs wrote (no fewer; the hash of those it names).
    if (!proveRows(out, existing, meta)) note(unhashedNote(out));
    if (existing.tornBytes > 0) note(`limited: dropped a torn last row (${existing.tornBytes} bytes) left by an interrupted run`);
    if (done.size > 0)
      note(`limited: resuming ${out}: ${done.size} of ${total} deals already done${done.size === total ? ' (all of them)' : ''}`);
    const commit = gitCommit();
    if (meta.commit !== commit)
      note(`limited: note: ${out} was started by commit ${meta.commit ?? 'unknown'}, this is ${commit ?? 'unknown'}; rows may differ if the solver changed`);
    adopted = existing;
  } else {
    createResults(out, headerOf(cfg.spec));
    meta = null;
  }

  const todo = total - done.size;
  const workers = Math.max(1, Math.min(cfg.workers, todo));
  const kind = jobKind(cfg.spec.kind);
  const chunk = cfg.chunk ?? (kind.chunk ? kind.chunk(cfg.spec, todo, workers) : defaultChunk(todo, workers));
  const session = sessionFor(cfg, chunk);
  const m = machine();
  const fresh: Meta = {
    format: META_FORMAT,
    tool: 'limited',
    version: session.version,
    commit: session.commit,
    command: cfg.command,
    job: cfg.spec,
    range: cfg.range,
    shard: cfg.shard,
    part,
    ...(cfg.deals ? { deals: [...cfg.deals] } : {}),
    columns: [...columnsOf(cfg.spec)],
    startedAt: session.startedAt,
    endedAt: null,
    complete: false,
    workers: cfg.workers,
    cores: m.cores,
    cpu: m.cpu,
    node: m.node,
    host: m.host,
    sessions: [],
  };
  // A finished file run again is only summarized: no new session.
  const idle = todo === 0 && meta !== null && meta.complete;
  // A run appends only to a file it made itself (the fence of appendDurable): one it resumes
  // is first remade, its whole rows in a new file renamed over it. A run that stalled past
  // its lease and wakes up then writes into the old file, never into this run's.
  if (adopted && todo > 0) remakeResults(out, adopted.header, adopted.lines);
  const own = ownFile(out);
  // The hash of the rows in the file, which every sidecar this run writes records (rowhash.ts).
  const hash = hashRows(adopted ? adopted.lines : []);
  /** Throws unless the file at `out` is still the one this run made, as it left it. */
  const checkOwn = (): void => {
    const now = ownFile(out);
    if (now.dev !== own.dev || now.ino !== own.ino || now.size !== own.size)
      throw new UserError(`'${out}' changed under this run: another process wrote it too (a second run on the same --out?)`);
  };
  const current: Meta = idle
    ? meta!
    : meta
      ? { ...meta, ...(cfg.deals ? { deals: [...cfg.deals] } : {}), endedAt: null, complete: false, workers: cfg.workers, cores: m.cores, cpu: m.cpu, node: m.node, host: m.host }
      : fresh;
  /** Writes the sidecar of this run, with the rows in the file and their hash. */
  const writeCurrent = (): void => {
    current.rows = hash.count;
    current.rowsHash = hash.hex;
    writeMeta(out, current, lock.check);
  };
  if (!idle) {
    current.sessions = [...current.sessions, session];
    writeCurrent();
  }
  cfg.onStart?.({ resumed: done.size, todo, workers, chunk });

  const t0 = performance.now();
  // Every write of a sidecar comes after a check of the lock: a run that lost it (stopped or
  // stalled past its lease) writes nothing more, and the sidecar stays the new owner's.
  const saveMeta = (): void => {
    session.seconds = Math.round(performance.now() - t0) / 1000;
    lock.check();
    writeCurrent();
  };
  const progress = new Progress(process.stderr, cfg.progress, undefined, cfg.label);
  const resumed = done.size;
  let doneHere = 0;
  const state = () => ({ done: done.size, total, doneHere, won: counts.won, unknown: counts.unknown });
  const text = chunkText(cfg.spec);
  let failure: ChunkResult['error'] | undefined;
  // A file that could not be written (a full disk): the run stops, and this is its error.
  let writeError: { readonly error: unknown } | undefined;

  if (todo > 0 && !stop.signal) {
    // A worker that dies between tasks: the run fails with its error (set once the run waits).
    let poolFailed: (e: Error) => void = () => undefined;
    const pool = startPool<ChunkTask, ChunkResult>({ filename: workerFile(), workers, onError: (e) => poolFailed(e) });
    const stopWriting = (e: unknown): void => {
      if (writeError) return;
      writeError = { error: e };
      void pool.stop();
    };
    const metaTimer = setInterval(() => {
      try {
        saveMeta();
      } catch (e) {
        stopWriting(e);
      }
    }, 10_000);
    metaTimer.unref();
    stop.halt = () => void pool.stop();
    if (process.stderr.isTTY) progress.update(state(), true);
    try {
      await new Promise<void>((resolve, reject) => {
        poolFailed = (e) => {
          void pool.stop();
          reject(e);
        };
        const it = chunks(dealsOf(part, cfg.deals), done, chunk);
        let inFlight = 0;
        let exhausted = false;
        const finish = (): void => {
          if (inFlight === 0 && (exhausted || stop.signal || failure || writeError)) resolve();
        };
        const take = (res: ChunkResult): void => {
          const rows: CompactRow[] = res.rows.filter((r) => !done.has(r[0]));
          if (rows.length > 0) {
            // The certificates first: a row is never on the disk without its own.
            if (cfg.certificates && res.certs) {
              lock.check();
              const these = new Set(rows.map((r) => r[0]));
              appendCerts(out, res.certs.filter((l) => these.has(Number(l.slice(0, l.indexOf(' '))))));
            }
            const chunkText = text(rows);
            appendDurable(out, chunkText, own, lock.check);
            hash.addText(chunkText);
            for (const r of rows) {
              done.add(r[0]);
              addCount(counts, verdictOf(r), limitOf(r));
            }
            doneHere += rows.length;
            session.deals = doneHere;
          }
          if (res.error && !failure) failure = res.error;
          progress.update(state());
        };
        const pump = (): void => {
          while (!stop.signal && !failure && !writeError && inFlight < workers * 2) {
            const next = it.next();
            if (next.done) {
              exhausted = true;
              break;
            }
            inFlight++;
            const task: ChunkTask = { spec: cfg.spec, deals: next.value, ...(cfg.certificates ? { certificates: true } : {}) };
            pool.run(task).then(
              (res: ChunkResult) => {
                inFlight--;
                if (!writeError) {
                  try {
                    take(res);
                  } catch (e) {
                    stopWriting(e);
                  }
                }
                pump();
              },
              (e: unknown) => {
                inFlight--;
                if (stop.signal || writeError) finish();
                else reject(e);
              },
            );
          }
          finish();
        };
        pump();
      });
    } finally {
      clearInterval(metaTimer);
      progress.finish(stop.signal || writeError ? undefined : state());
      await pool.stop();
    }
  }

  /** The lock lost: the run stops in one line, and writes nothing more. */
  const lostLock = (): never => {
    try {
      lock.check();
    } catch (e) {
      if (e instanceof UserError) throw new UserError(`${e.message}: stopped, writing nothing more${/ taken by /.test(e.message) ? " (the file is that run's now)" : ''}`);
      throw e;
    }
    throw new Error('internal: the lock is held');
  };
  if (idle) {
    // A run stopped between sorting the rows and writing the certificates' final file.
    if (!lock.held()) lostLock();
    if (cfg.certificates && existsSync(certsPath(out))) finishCerts(out, decidedOf(out, current.job));
    const summary = summaryOf(out, current, true);
    if (!lock.held()) lostLock();
    writeSummary(out, summary, lock.check);
    return { status: 'done', summary, resumed, doneHere };
  }
  session.seconds = Math.round(performance.now() - t0) / 1000;
  session.endedAt = new Date().toISOString();
  current.endedAt = session.endedAt;
  /** A write that failed (or found the file or its lock not this run's): the run stops, saying what is kept. */
  const failed = (e: unknown, kept: string, again: string): never => {
    if (!lock.held()) lostLock();
    session.status = 'failed';
    try {
      writeCurrent();
    } catch {
      // the same full disk, most likely: the sidecar says 'running', as after a kill
    }
    if (!(e instanceof UserError)) throw e;
    throw new UserError(`${e.message}: stopped; ${kept}: ${e instanceof FileError && e.noRoom ? 'make room and ' : ''}run the same command again to ${again}`);
  };
  if (writeError) failed(writeError.error, `${done.size} of ${total} deals are in ${out}`, 'resume');
  if (stop.signal || failure) {
    if (!lock.held()) lostLock();
    session.status = stop.signal ? 'interrupted' : 'failed';
    writeCurrent();
    const summary = summaryOf(out, current, false);
    writeSummary(out, summary, lock.check);
    if (failure) {
      throw new BatchSolverError(`deal ${failure.deal}: ${failure.message} (${failure.name}; ${done.size} of ${total} deals are in ${out})`);
    }
    return { status: 'interrupted', summary, resumed, doneHere, signal: stop.signal! };
  }
  // Complete: the rows sorted by deal, the sidecars final.
  const rf = loadResults(out, false)!;
  const missing = new DealSet(part);
  for (const l of rf.lines) missing.add(lineDeal(l));
  if (missing.size !== total) throw new Error(`internal: ${out} has ${missing.size} of ${total} deals after the run`);
  if (hash.count !== rf.lines.length) throw new Error(`internal: ${out} has ${rf.lines.length} rows, ${hash.count} of them hashed`);
  // The sorted file is on the disk (written, flushed, renamed, its directory flushed) before
  // the sidecar says complete: a crash or a full disk in between leaves it incomplete, and the
  // same command finishes it.
  try {
    const fence = (): void => {
      lock.check();
      checkOwn();
    };
    fence();
    // The sidecar hashes every row before they are sorted: it covers the first `rows` rows, and
    // a crash after the sort must find them all covered.
    writeCurrent();
    rewriteSorted(out, rf.header, rf.lines, fence);
    if (cfg.certificates) {
      // The sort made the file anew: only the lock is checked now.
      lock.check();
      finishCerts(out, decidedOf(out, current.job));
    }
  } catch (e) {
    failed(e, `all ${total} deals are in ${out}, unsorted, and its sidecar says it is incomplete`, 'finish it');
  }
  session.status = 'done';
  current.complete = true;
  const summary = summaryOf(out, current, true);
  if (!lock.held()) lostLock();
  writeCurrent();
  writeSummary(out, summary, lock.check);
  return { status: 'done', summary, resumed, doneHere };
}
