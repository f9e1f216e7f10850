/**
 * Batch benchmark: how well the worker pool scales, and what it costs per deal.
 *
 *   npm run bench:batch                        # = node dist/bench/batch.js (300 deals, fast, 20000 nodes)
 *   node dist/bench/batch.js --count 500 --max-nodes 50000 --reps 5
 *
 * The workload: deals 1..N of the book rules at full size, each solved by the solver preset
 * `--preset` (fast: one depth-first search) with a node budget `--max-nodes` — a cheap,
 * deterministic amount of work a deal. Measured, each `--reps` times (the best time counts, as
 * the machine may be shared):
 *   - in-process: the same deals solved one after another in this thread, with one Solver
 *     reused (what a worker does, without the pool, the files or the messages);
 *   - the batch runner (`runBatch`, as `limited batch` runs it: pool start, chunks, CSV rows
 *     appended and fsync'd, sidecars) with each worker count in `--workers` (default 1,2).
 * It prints deals per second for each, the scaling ratio (2 workers / 1 worker; the target is
 * 1.8 or better on a 2-core machine; "CPU cores used" shows whether the cores were free), the pool's overhead per deal (batch with 1 worker minus
 * in-process, per deal) and checks that every run gave the same rows (timing aside). Under the
 * machine it prints how long a random read of 4, 16 and 64 MB took before and after the runs
 * (`memoryReadings`, as bench/solve.js does): the deals a second follow it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Rules, FULL_SIZE, parseRules } from '../src/game/index.js';
import { type JobSpec, dealMaker, jobKind, solveSpec } from '../src/batch/job.js';
import { runBatch } from '../src/batch/run.js';
import { memoryLine, memoryReadings } from '../src/batch/machine.js';
import { benchArgs } from './args.js';

const USAGE = `usage: node dist/bench/batch.js [options]     (npm run bench:batch -- [options])

  --count N        deals 1..N (default 300)
  --preset P       solver preset (default fast)
  --max-nodes N    node budget a deal (default 20000)
  --rules R        rules (default book); full size always
  --workers LIST   worker counts to measure (default "1,2")
  --reps N         repetitions of each measurement; the best counts (default 3)
  -h, --help       this help
`;

const args = benchArgs('batch', USAGE, {
  count: { type: 'string', default: '300' },
  preset: { type: 'string', default: 'fast' },
  'max-nodes': { type: 'string', default: '20000' },
  rules: { type: 'string', default: 'book' },
  workers: { type: 'string', default: '1,2' },
  reps: { type: 'string', default: '3' },
}, { deals: '--count N' });
const values = args.values;
// Annotated, so that the compiler knows a call to it does not return.
const fail: (message: string) => never = args.fail;
const wholeNumber = (name: string): number => args.wholeNumber(name, String(values[name]));
const deals = wholeNumber('count');
const maxNodes = wholeNumber('max-nodes');
const reps = wholeNumber('reps');
const workerCounts = String(values.workers).split(',').map((w) => {
  if (!/^\d+$/.test(w.trim()) || Number(w) < 1) fail(`--workers must be a list of whole numbers >= 1, not '${String(values.workers)}'`);
  return Number(w);
});
let rules: Rules;
try {
  rules = parseRules(String(values.rules));
} catch (e) {
  fail(`--rules: ${(e as Error).message}`);
}
const preset = String(values.preset);
let spec: JobSpec;
try {
  spec = solveSpec('v1', rules, FULL_SIZE, { preset, maxNodes });
} catch (e) {
  fail((e as Error).message);
}

const command = `node dist/bench/batch.js --count ${deals} --preset ${preset} --max-nodes ${maxNodes} --rules ${String(values.rules)} --workers ${workerCounts.join(',')} --reps ${reps}`;
const cpu = cpus()[0]?.model.trim() ?? 'unknown';
const load0 = loadavg()[0]!;
// How fast this machine reads memory now (bench/solve.js prints the same line): a deal's
// search reads its table at random, so the deals a second follow it from day to day.
const memoryBefore = memoryReadings();

/** The deals solved in this thread, one Solver reused: seconds, and the rows' deterministic part. */
function inProcess(): { seconds: number; cores: number; rows: string[] } {
  const run = jobKind(spec.kind).create(spec);
  const deal = dealMaker(spec.source, FULL_SIZE);
  const rowsOut: string[] = [];
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let n = 1; n <= deals; n++) {
    const o = run(deal(n), rules, n);
    rowsOut.push(`${n},${o.verdict},${o.limit},${o.nodes},${o.states},${o.solutionLength},${o.bestHome}`);
  }
  const seconds = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  return { seconds, cores: (c.user + c.system) / 1e6 / seconds, rows: rowsOut };
}

/** `limited batch` with this many workers into a fresh temporary file: wall seconds and the rows. */
async function pooled(workers: number): Promise<{ seconds: number; cores: number; rows: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'limited-bench-batch-'));
  try {
    const out = join(dir, 'bench.csv');
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await runBatch({ spec, range: { from: 1, count: deals }, shard: null, out, workers, progress: false, command, note: () => undefined });
    const seconds = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    const lines = readFileSync(out, 'utf8').split('\n').slice(1).filter((l) => l !== '');
    // deal, ..., verdict(9), limit(10), nodes(11), states(12), solution_length(13), best_home(14)
    const rowsOut = lines.map((l) => {
      const f = l.split(',');
      return [f[0], f[9], f[10], f[11], f[12], f[13], f[14]].join(',');
    });
    return { seconds, cores: (c.user + c.system) / 1e6 / seconds, rows: rowsOut };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const progress = (t: string): void => {
  if (process.stderr.isTTY) process.stderr.write(`\r${t}\x1b[K`);
};

// Warm-up (untimed): JIT for the in-process solver.
progress('warming up');
{
  const warm = jobKind(spec.kind).create(spec);
  const deal = dealMaker(spec.source, FULL_SIZE);
  for (let n = 1; n <= Math.min(20, deals); n++) warm(deal(n), rules, n);
}

const results: { name: string; workers: number; best: number; cores: number; all: number[] }[] = [];
let reference: string[] | null = null;
let same = true;
const check = (rowsOut: string[]): void => {
  if (reference === null) reference = rowsOut;
  else if (reference.join('\n') !== rowsOut.join('\n')) same = false;
};

for (let r = 0; r < reps; r++) {
  progress(`in-process, rep ${r + 1}/${reps}`);
  const a = inProcess();
  check(a.rows);
  const entry = results.find((x) => x.name === 'in-process') ?? (results.push({ name: 'in-process', workers: 0, best: Infinity, cores: 0, all: [] }), results[results.length - 1]!);
  entry.all.push(a.seconds);
  if (a.seconds < entry.best) Object.assign(entry, { best: a.seconds, cores: a.cores });
  for (const w of workerCounts) {
    progress(`batch, ${w} worker${w === 1 ? '' : 's'}, rep ${r + 1}/${reps}`);
    const b = await pooled(w);
    check(b.rows);
    const name = `batch, ${w} worker${w === 1 ? '' : 's'}`;
    const e = results.find((x) => x.name === name) ?? (results.push({ name, workers: w, best: Infinity, cores: 0, all: [] }), results[results.length - 1]!);
    e.all.push(b.seconds);
    if (b.seconds < e.best) Object.assign(e, { best: b.seconds, cores: b.cores });
  }
}
if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');

const rate = (s: number): number => deals / s;
const lines: string[] = [];
lines.push(`# Batch benchmark`);
lines.push('');
lines.push(`command: \`${command}\``);
lines.push(`machine: ${cpu}, ${availableParallelism()} cores, Node ${process.version}, load average ${load0.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end`);
lines.push(memoryLine(memoryBefore, memoryReadings(), 'the runs'));
lines.push(`workload: deals 1-${deals}, rules ${spec.rules}, size ${spec.size}, ${spec.method}, max ${maxNodes} nodes a deal; best of ${reps}`);
lines.push('');
const cpuMs = (e: { best: number; cores: number }): number => ((e.best * e.cores) / deals) * 1000;
lines.push('| run | seconds (best) | deals/s | CPU cores used | CPU ms a deal | all runs (s) |');
lines.push('|---|---:|---:|---:|---:|---|');
for (const e of results)
  lines.push(
    `| ${e.name} | ${e.best.toFixed(3)} | ${rate(e.best).toFixed(1)} | ${e.cores.toFixed(2)} | ${cpuMs(e).toFixed(2)} | ${e.all.map((s) => s.toFixed(2)).join(', ')} |`,
  );
lines.push('');
lines.push('CPU cores used: CPU time of this process (all threads) over wall time; well under the worker count means other processes had the cores.');
lines.push('');
const inproc = results.find((e) => e.name === 'in-process')!;
const one = results.find((e) => e.workers === 1);
const two = results.find((e) => e.workers === 2);
if (one && two) {
  lines.push(`scaling: 2 workers / 1 worker = ${(rate(two.best) / rate(one.best)).toFixed(2)}x in deals per second (target >= 1.8 on 2 cores)`);
  if (two.cores < 1.8)
    lines.push(`  (the 2-worker run had only ${two.cores.toFixed(2)} cores: other processes held the rest, so this ratio is bounded by the CPU available, not by the pool)`);
  lines.push(`CPU per deal, 2 workers / 1 worker: ${(cpuMs(two) / cpuMs(one)).toFixed(2)}x (1.00 = no parallel overhead)`);
}
if (one) {
  const over = ((one.best - inproc.best) / deals) * 1000;
  const work = (inproc.best / deals) * 1000;
  lines.push(
    `pool overhead: ${over.toFixed(3)} ms a deal of wall time (batch with 1 worker ${((one.best / deals) * 1000).toFixed(3)} ms vs in-process ${work.toFixed(3)} ms a deal: ${((100 * over) / work).toFixed(1)} % of the work)`,
  );
  const overCpu = cpuMs(one) - cpuMs(inproc);
  lines.push(`pool overhead in CPU time: ${overCpu.toFixed(3)} ms a deal (${((100 * overCpu) / cpuMs(inproc)).toFixed(1)} % of the work)`);
}
if (two) lines.push(`2 workers vs in-process: ${(rate(two.best) / rate(inproc.best)).toFixed(2)}x`);
lines.push(`rows: ${same ? 'identical in every run (timing aside)' : 'DIFFERENT between runs (a determinism bug)'}`);
process.stdout.write(lines.join('\n') + '\n');
if (!same) process.exitCode = 1;
