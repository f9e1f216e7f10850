/**
 * An experiment as a cluster job: N tasks (a Slurm job array's, a Kubernetes Indexed Job's
 * pods) run the same command with `--task I/N` (or from SLURM_ARRAY_TASK_ID, or
 * JOB_COMPLETION_INDEX with `--tasks N`) on a file system they share, and share its work:
 *
 *   - phase 1 of each row: shard I of N first (`phase1.shard-I-of-N.csv`), then any other shard
 *     whose task is gone (its lock free or its lease run out: a dead task's shard is resumed);
 *   - phase 2 and the prover's pass: a task of one deal each (`tasks/phase2.deal-D.csv`, a batch
 *     of that deal alone), as many at a time as the task has workers, each deal taken by the
 *     first task to lock it;
 *   - a stage waits until every file of the stage before is complete (a row's phase 2 needs the
 *     rows before it, a round the rounds before it), polling; every task works out the same
 *     stages from the same files, so none needs to be told what the others do;
 *   - the first task to see every shard of a file complete merges them into the file (`phase1.csv`,
 *     a tactics row's CSV), under its lock; the others wait for it;
 *   - task 1, once everything is done, collects the deals' files into `phase2.csv` (and
 *     `phase2-prove.csv`) and writes the report.
 *
 * A task that dies loses at most its deals in flight: the others take its work once its lock
 * is free, and a task run again resumes. The files are the one-machine run's, so the same
 * command without `--task` reads them (and reports the same estimate).
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UserError } from '../game/index.js';
import { type CertLine, appendCerts, finishCerts, readCerts, removeCerts } from '../batch/certs.js';
import { loadResults, sortLines } from '../batch/csv.js';
import { writeAtomic } from '../util/fileio.js';
import { type JobSpec } from '../batch/job.js';
import { type Lock, LockHeldError, takeLock } from '../batch/lock.js';
import { gitCommit, machine, toolVersion } from '../batch/machine.js';
import { mergeParts, writeMerged } from '../batch/merge.js';
import { withTag } from '../batch/names.js';
import { type DealRange, type Shard, chooseShard, shardTag } from '../batch/range.js';
import { columnsOf, headerOf, rowFields } from '../batch/rows.js';
import { type BatchOutcome, summaryOf } from '../batch/run.js';
import { type Meta, META_FORMAT, readMeta, writeMeta, writeSummary } from '../batch/sidecar.js';

/** This process's task of a cluster job: task `index` of `count` (from 1). */
export interface ClusterTask {
  readonly index: number;
  readonly count: number;
  /** Where it came from (`--task`, `Slurm array task 3`, `JOB_COMPLETION_INDEX 2`), for messages. */
  readonly from: string;
  /** Milliseconds between looks at the others' files while this task has nothing to take. */
  readonly poll: number;
}

/** The default wait between looks: a few seconds, beside deals that take a minute. */
export const POLL_MS = 5000;

/**
 * The task of `--task I/N`, `--tasks N` with JOB_COMPLETION_INDEX, or a Slurm array's task (null:
 * none, a one-machine run). LIMITED_CLUSTER_POLL_MS sets the wait between looks (the tests').
 */
export function chooseTask(taskOpt: string | undefined, tasksOpt: number | undefined, env: Record<string, string | undefined>): ClusterTask | null {
  let chosen: { shard: Shard | null; from: string };
  try {
    chosen = chooseShard(taskOpt, tasksOpt, env);
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    // chooseShard's words are batch's: --shard and --shards here are --task and --tasks.
    throw new UserError(e.message.replace(/--shard\b/g, '--task').replace(/--shards\b/g, '--tasks').replace(/\bshard\b/g, 'task'));
  }
  if (!chosen.shard) return null;
  const poll = Number(env['LIMITED_CLUSTER_POLL_MS'] ?? POLL_MS);
  return { index: chosen.shard.index, count: chosen.shard.count, from: chosen.from === '--shard' ? '--task' : chosen.from, poll: Number.isFinite(poll) && poll > 0 ? poll : POLL_MS };
}

/** A shard's file of a phase-1 file: `phase1.shard-03-of-10.csv`. */
export const shardFile = (file: string, shard: Shard): string => withTag(file, shardTag(shard));

/** A deal's own file of a phase-2 file: `DIR/tasks/phase2.deal-465.csv`. */
export const dealFile = (file: string, deal: number): string => join(dirname(file), 'tasks', `${basename(file).replace(/\.csv$/i, '')}.deal-${deal}.csv`);

/** A file's sidecar says it is complete. */
export function isComplete(file: string): boolean {
  try {
    return readMeta(file)?.complete === true && existsSync(file);
  } catch {
    return false;
  }
}

/** Work shared with the job's other tasks: a file, and the batch that makes it (or resumes it). */
export interface SharedJob {
  readonly file: string;
  readonly run: () => Promise<BatchOutcome>;
}

const sleep = (ms: number): Promise<void> => new Promise((res) => setTimeout(res, ms));

/**
 * Works through jobs with the other tasks until every file is complete: `slots` at a time, from
 * this task's share onward (task I of N starts (I - 1)/N of the way along, so the tasks start
 * apart), each taken unless another task's live lock holds it. When every file left is another
 * task's, it waits `poll` ms and looks again.
 */
export async function shareJobs(jobs: readonly SharedJob[], task: ClusterTask, slots: number): Promise<{ status: 'done' } | { status: 'interrupted'; signal: NodeJS.Signals }> {
  for (;;) {
    const pending = jobs.filter((j) => !isComplete(j.file));
    if (pending.length === 0) return { status: 'done' };
    const start = Math.floor(((task.index - 1) * pending.length) / task.count);
    const order = [...pending.slice(start), ...pending.slice(0, start)];
    let next = 0;
    let took = 0;
    let signal: NodeJS.Signals | null = null;
    const slot = async (): Promise<void> => {
      while (signal === null && next < order.length) {
        const j = order[next++]!;
        if (isComplete(j.file)) continue;
        try {
          const o = await j.run();
          took++;
          if (o.status === 'interrupted') signal = o.signal!;
        } catch (e) {
          if (!(e instanceof LockHeldError)) throw e;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, slots) }, slot));
    if (signal !== null) return { status: 'interrupted', signal };
    if (took === 0) await sleep(task.poll);
  }
}

/**
 * The shards of `file`, once all are complete, merged into it by the first task to get there
 * (under the file's lock: the others wait for it, then read the merged file).
 */
export async function mergeOnce(file: string, count: number, command: string, task: ClusterTask): Promise<void> {
  for (;;) {
    if (isComplete(file)) return;
    let lock: Lock;
    try {
      lock = takeLock(file);
    } catch (e) {
      if (!(e instanceof LockHeldError)) throw e;
      await sleep(task.poll);
      continue;
    }
    try {
      mergeShards(file, count, command);
    } finally {
      lock.release();
    }
  }
}

/** The shards merged into `file` (with their certificates), as `limited merge` does; a `file` already complete is left as it is. */
export function mergeShards(file: string, count: number, command: string): void {
  if (isComplete(file)) return;
  const shards = Array.from({ length: count }, (_, i) => shardFile(file, { index: i + 1, count }));
  const merged = mergeParts(shards, file, command, true);
  const certs = shards.map(readCerts);
  const keep = certs.some((c) => c !== null);
  if (keep) collectCerts(file, certs, () => true);
  writeMerged(file, merged);
  if (keep) finishCerts(file, decidedOf(file, merged.meta.job));
}

/** The certificates of several files (of the deals `wanted`) as one file's FILE.certs, for `finishCerts` to check against its rows and keep. */
function collectCerts(file: string, parts: readonly (Map<number, CertLine> | null)[], wanted: (deal: number) => boolean): void {
  removeCerts(file);
  const lines: string[] = [];
  for (const p of parts) for (const c of p?.values() ?? []) if (wanted(c.deal)) lines.push(`${c.deal} ${c.verdict} ${c.words.join(' ')}\n`);
  appendCerts(file, lines);
}

/** A results file's decided deals and their verdicts. */
function decidedOf(file: string, spec: JobSpec): Map<number, string> {
  const m = new Map<number, string>();
  for (const f of rowFields(loadResults(file, false)!, spec)) if (f.verdict === 'won' || f.verdict === 'unsolvable') m.set(f.deal, f.verdict);
  return m;
}

/**
 * Task 1's last step for a phase-2 pass: the rows of `deals` (each from `file` when it holds it
 * already, else from the deal's own file) written as one complete batch file of that deal list,
 * with every part's sessions (its cost) and the certificates; as a one-machine run leaves it.
 */
export function collectDeals(file: string, spec: JobSpec, range: DealRange, deals: readonly number[], command: string): void {
  const meta = readMeta(file);
  const rf = meta ? loadResults(file, false) : null;
  const have = new Map<number, string>();
  if (meta && rf && meta.complete) for (const [i, f] of rowFields(rf, meta.job).entries()) have.set(f.deal, rf.lines[i]!);
  const lines: string[] = [];
  const parts: NonNullable<Meta['parts']> = [];
  const certs: (Map<number, CertLine> | null)[] = [];
  if (meta && have.size > 0) {
    parts.push({ file, part: meta.part, shard: null, commit: meta.commit, sessions: meta.parts ? meta.parts.flatMap((p) => p.sessions) : meta.sessions });
    certs.push(readCerts(file));
  }
  for (const d of deals) {
    const line = have.get(d);
    if (line !== undefined) {
      lines.push(line);
      continue;
    }
    const f = dealFile(file, d);
    const m = readMeta(f);
    const r = loadResults(f, false);
    if (!m || !m.complete || !r || r.lines.length !== 1) throw new UserError(`${f} is not a finished file of deal ${d}: run the same command again`);
    rowFields(r, spec);
    lines.push(r.lines[0]!);
    parts.push({ file: f, part: m.part, shard: null, commit: m.commit, sessions: m.sessions });
    certs.push(readCerts(f));
  }
  const mc = machine();
  const sessions = parts.flatMap((p) => p.sessions);
  const starts = sessions.map((s) => s.startedAt).sort();
  const ends = sessions.map((s) => s.endedAt ?? '').sort();
  const out: Meta = {
    format: META_FORMAT,
    tool: 'limited',
    version: toolVersion(),
    commit: gitCommit(),
    command,
    job: spec,
    range,
    shard: null,
    part: range,
    deals: [...deals],
    columns: [...columnsOf(spec)],
    startedAt: starts[0] ?? new Date().toISOString(),
    endedAt: ends[ends.length - 1] || null,
    complete: true,
    workers: 0,
    cores: mc.cores,
    cpu: mc.cpu,
    node: mc.node,
    host: mc.host,
    sessions: [],
    parts,
  };
  const keepCerts = certs.some((c) => c !== null);
  const wanted = new Set(deals);
  if (keepCerts) collectCerts(file, certs, (d) => wanted.has(d));
  writeAtomic(file, [headerOf(spec), ...sortLines(lines)].map((l) => l + '\n').join(''), 'results file');
  if (keepCerts) finishCerts(file, decidedOf(file, spec));
  writeMeta(file, out);
  writeSummary(file, summaryOf(file, out, true));
}
