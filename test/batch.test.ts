/**
 * `limited batch` and `limited merge`, end to end on the built CLI (dist/src/cli/main.js, which
 * `npm test` builds first): determinism across worker counts and shards, resume after a real
 * SIGKILL and after a torn last row, merge's checks, one-line errors; and the statistics
 * (Wilson intervals) and shard arithmetic as functions.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DealSet, chooseShard, chunks, shardPart } from '../src/batch/range.js';
import { csvText, parseCsvLine } from '../src/batch/csv.js';
import { playSpec, solveSpec } from '../src/batch/job.js';
import { type CompactRow, PLAY_HEADER, chunkText, compactRow, rowRecords } from '../src/batch/rows.js';
import { type BatchCliOptions, batchConfig } from '../src/cli/commands/batch.js';
import { pairedDifference, percentile, summarize, wilsonHigh, wilsonLow, winInterval } from '../src/batch/stats.js';
import { BOOK, PYSOL, parseSize } from '../src/game/index.js';
import { PROBE_MEGABYTES, chaseCycle, formatReadings, memoryLine, readNanoseconds } from '../src/batch/machine.js';

import { MAIN, ROOT, type Result, expectUsageError, killedSidecar, resultRows as rows, runCli, withTempDir } from './cli-helpers.js';

const cli = (args: string[], env: Record<string, string> = {}): Result => runCli(args, { env });

function ok(args: string[], env: Record<string, string> = {}): Result {
  const r = cli(args, env);
  expect(r.status, r.stderr).toBe(0);
  return r;
}


let dir: string;
const path = (name: string): string => join(dir, name);

function dealsOf(file: string): number[] {
  return readFileSync(file, 'utf8').split('\n').slice(1).filter((l) => l !== '').map((l) => Number(l.split(',')[0]));
}

// Small deals (one pack of A-6, five columns of three) with a small budget: a few hundred
// deals take well under a second, and the budget leaves some of them unknown.
const SMALL = ['--size', '1x6,5x3', '--preset', 'fast', '--max-nodes', '5000', '--no-progress'];
const RANGE = ['--from', '1', '--count', '300'];

withTempDir('limited-batch-', (d) => (dir = d));

describe('Wilson interval', () => {
  // Reference values: the roots of (1 + z²/n) p² − (2p̂ + z²/n) p + p̂² = 0 (the Wilson
  // interval as the solution of |p̂ − p| = z sqrt(p(1−p)/n)), computed apart with z = 1.959964.
  it.each([
    [0, 10, 0.0, 0.2775328],
    [5, 10, 0.2365931, 0.7634069],
    [50, 100, 0.4038315, 0.5961685],
    [10, 10, 0.7224672, 1.0],
    [1, 3, 0.0614919, 0.7923404],
    [823, 2000, 0.3901226, 0.4332167],
  ])('%i of %i', (k, n, low, high) => {
    expect(wilsonLow(k, n)).toBeCloseTo(low, 6);
    expect(wilsonHigh(k, n)).toBeCloseTo(high, 6);
  });

  it('knows nothing of nothing', () => {
    expect(wilsonLow(0, 0)).toBe(0);
    expect(wilsonHigh(0, 0)).toBe(1);
  });

  it('counts unknown as lost for the low end and as won for the high end', () => {
    // 3 won, 2 unknown, 5 unsolvable of 10: [wilsonLow(3, 10), wilsonHigh(5, 10)].
    const w = winInterval(3, 2, 10);
    expect(w.low).toBeCloseTo(wilsonLow(3, 10), 12);
    expect(w.high).toBeCloseTo(0.7634069, 6);
    const s = summarize([
      ...Array.from({ length: 3 }, () => ({ verdict: 'won', limit: '', nodes: 10, ms: 1 })),
      ...Array.from({ length: 2 }, () => ({ verdict: 'unknown', limit: 'nodes', nodes: 100, ms: 5 })),
      ...Array.from({ length: 5 }, () => ({ verdict: 'unsolvable', limit: '', nodes: 20, ms: 2 })),
    ]);
    expect(s).toMatchObject({ deals: 10, won: 3, unsolvable: 5, unknown: 2, unknownByLimit: { nodes: 2 } });
    expect(s.winRate.point).toBeCloseTo(3 / 8, 12);
    expect(s.winRate.low).toBeCloseTo(w.low, 12);
    expect(s.winRate.high).toBeCloseTo(w.high, 12);
    expect(s.nodes).toMatchObject({ max: 100, total: 330, mean: 33 });
    expect(s.nodes.median).toBe(20);
  });

  it('percentiles interpolate between ranks', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([0, 10], 0.9)).toBeCloseTo(9, 12);
    expect(percentile([7], 0.9)).toBe(7);
  });
});

describe('paired difference of two win rates (Newcombe)', () => {
  // Reference values computed apart (Python, the same formula: Wilson intervals of the two
  // margins, φ with Newcombe's continuity correction), a = both won, b = first only, c = second only.
  it.each([
    [14, 5, 0, 22, 0.1219512, 0.0114832, 0.2264927], // Altman et al. (2000), table 6.2
    [3, 0, 0, 3, 0.0, -0.2550602, 0.2550602],
    [30, 0, 0, 10, 0.0, -0.0641087, 0.0641087],
  ])('a=%i b=%i c=%i d=%i', (a, b, c, d, diff, low, high) => {
    const r = pairedDifference({ a, b, c, d });
    expect(r.diff).toBeCloseTo(diff, 6);
    expect(r.low).toBeCloseTo(low, 6);
    expect(r.high).toBeCloseTo(high, 6);
  });

  it('is antisymmetric, holds the point, and for large samples agrees with the normal interval of the per-deal differences', () => {
    const t = { a: 61_000, b: 9_000, c: 4_000, d: 926_000 };
    const r = pairedDifference(t);
    const s = pairedDifference({ a: t.a, b: t.c, c: t.b, d: t.d });
    expect(s.diff).toBeCloseTo(-r.diff, 12);
    expect(s.low).toBeCloseTo(-r.high, 12);
    expect(s.high).toBeCloseTo(-r.low, 12);
    expect(r.low).toBeLessThan(r.diff);
    expect(r.high).toBeGreaterThan(r.diff);
    const n = t.a + t.b + t.c + t.d;
    const mean = (t.b - t.c) / n;
    const sd = Math.sqrt(((t.b + t.c) / n - mean * mean) * (n / (n - 1)));
    const half = (1.959963984540054 * sd) / Math.sqrt(n);
    expect(r.low).toBeCloseTo(mean - half, 4);
    expect(r.high).toBeCloseTo(mean + half, 4);
  });
});

describe('shards and chunks', () => {
  it('shards are disjoint contiguous blocks covering the range', () => {
    for (const [from, count, n] of [[1, 300, 3], [0, 10, 4], [5, 3, 5], [2 ** 50, 1e9 + 7, 13]] as const) {
      let next = from;
      for (let i = 1; i <= n; i++) {
        const p = shardPart({ from, count }, { index: i, count: n });
        expect(p.from).toBe(next);
        expect(Math.abs(p.count - count / n)).toBeLessThan(1);
        next = p.from + p.count;
      }
      expect(next).toBe(from + count);
    }
  });

  it('picks its shard from Slurm (0- or 1-based) and from a Kubernetes Indexed Job', () => {
    expect(chooseShard(undefined, undefined, { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_COUNT: '4', SLURM_ARRAY_TASK_MIN: '0' }).shard).toEqual({ index: 1, count: 4 });
    expect(chooseShard(undefined, undefined, { SLURM_ARRAY_TASK_ID: '4', SLURM_ARRAY_TASK_COUNT: '4', SLURM_ARRAY_TASK_MIN: '1' }).shard).toEqual({ index: 4, count: 4 });
    expect(chooseShard(undefined, undefined, { SLURM_ARRAY_TASK_ID: '12', SLURM_ARRAY_TASK_COUNT: '3', SLURM_ARRAY_TASK_MIN: '10', SLURM_ARRAY_TASK_STEP: '2' }).shard).toEqual({ index: 2, count: 3 });
    expect(() => chooseShard(undefined, undefined, { SLURM_ARRAY_TASK_ID: '4', SLURM_ARRAY_TASK_COUNT: '4' })).toThrow(/--shard I\/N/);
    expect(chooseShard(undefined, 5, { JOB_COMPLETION_INDEX: '4' }).shard).toEqual({ index: 5, count: 5 });
    expect(() => chooseShard(undefined, undefined, { JOB_COMPLETION_INDEX: '0' })).toThrow(/--shards N/);
    expect(() => chooseShard(undefined, 3, {})).toThrow(/JOB_COMPLETION_INDEX/);
    // --shard wins over the environment.
    expect(chooseShard('2/7', undefined, { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_COUNT: '4' }).shard).toEqual({ index: 2, count: 7 });
    expect(chooseShard(undefined, undefined, {}).shard).toBeNull();
  });

  it('chunks skip the deals done', () => {
    const done = new DealSet({ from: 10, count: 10 });
    for (const d of [10, 11, 14, 19]) done.add(d);
    expect([...chunks(Array.from({ length: 10 }, (_, i) => 10 + i), done, 4)]).toEqual([[12, 13, 15, 16], [17, 18]]);
    expect(done.missingRanges()).toEqual([{ from: 12, count: 2 }, { from: 15, count: 4 }]);
  });
});

describe('limited batch', () => {
  it('writes one row a deal, the sidecars, and prints the summary', () => {
    const r = ok(['batch', ...RANGE, ...SMALL, '--workers', '2', '--out', path('w2.csv')]);
    expect(r.stdout).toMatch(/^deals +300$/m);
    expect(r.stdout).toMatch(/^95 % CI +\d+\.\d % to \d+\.\d % of all deals/m);
    // The win rate is the share of all deals won, as the interval is over all deals; the rate
    // among the decided deals comes after it under its own name.
    const n = (label: string): number => Number(new RegExp(`^${label} +(\\d+)`, 'm').exec(r.stdout)![1]);
    const [won, unsolvable] = [n('won'), n('unsolvable')];
    expect(r.stdout).toContain(`win rate     ${((100 * won) / 300).toFixed(1)} % of all 300 deals won`);
    expect(r.stdout).toContain(`decided      ${((100 * won) / (won + unsolvable)).toFixed(1)} % of the ${won + unsolvable} decided deals won`);
    const { header, rows: body } = rows(path('w2.csv'));
    expect(header).toBe('deal,source,rules,size,job,method,max_nodes,max_seconds,max_memory_mb,verdict,limit,nodes,states,solution_length,best_home,cards,ms');
    expect(body).toHaveLength(300);
    // The file is sorted by deal once complete.
    expect(dealsOf(path('w2.csv'))).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    const meta = JSON.parse(readFileSync(path('w2.meta.json'), 'utf8'));
    expect(meta).toMatchObject({
      format: 'limited-batch/1',
      tool: 'limited',
      job: { kind: 'solve', source: 'v1', rules: 'book', size: '1x6 5x3', method: 'preset=fast', budgets: { maxNodes: 5000, maxSeconds: null } },
      range: { from: 1, count: 300 },
      shard: null,
      complete: true,
      workers: 2,
    });
    expect(meta.sessions[0]).toMatchObject({ status: 'done', deals: 300, workers: 2 });
    for (const k of ['cpu', 'cores', 'node', 'startedAt', 'endedAt', 'version']) expect(meta[k], k).toBeTruthy();
    const summary = JSON.parse(readFileSync(path('w2.summary.json'), 'utf8'));
    expect(summary.deals).toBe(300);
    expect(summary.won + summary.unsolvable + summary.unknown).toBe(300);
    expect(summary.unknown).toBeGreaterThan(0); // the budget binds for some deals
    expect(summary.winRate.low).toBeCloseTo(wilsonLow(summary.won, 300), 12);
    expect(summary.winRate.high).toBeCloseTo(wilsonHigh(summary.won + summary.unknown, 300), 12);
    expect(r.stdout).toMatch(new RegExp(`^won +${summary.won} `, 'm'));
  });

  it('says one deal, one worker, in the singular', () => {
    const r = ok(['batch', '--from', '7', '--count', '1', ...SMALL, '--workers', '1', '--out', path('one.csv')]);
    expect(r.stderr).toMatch(/; 1 deal to do, 1 worker, chunks of 1$/m);
    expect(r.stdout).toMatch(/^win rate +\d+\.\d % of the 1 deal won/m);
    expect(r.stdout).toMatch(/\(1 deal in \d+\.\d s of wall-clock time, 1 worker\)$/m);
    // A count of one, not a rate such as "7.1 deals/s" (a digit or point before it).
    expect(r.stdout).not.toMatch(/(?<![\d.])1 deals\b/);
    expect(r.stdout).not.toMatch(/(?<![\d.])1 workers\b/);
  });

  it('accepts more --workers than cores, with a warning', () => {
    const many = String(availableParallelism() + 1);
    const r = ok(['batch', '--from', '1', '--count', '1', ...SMALL, '--workers', many, '--out', path('many-workers.csv')]);
    expect(r.stderr).toContain(`limited: warning: --workers ${many} is more than the ${availableParallelism()} core`);
    expect(ok(['batch', '--from', '1', '--count', '1', ...SMALL, '--workers', '1', '--out', path('one-worker.csv')]).stderr).not.toMatch(/warning/);
    // An error found before the run starts stays one line: the warning comes with the run.
    const refused = cli(['batch', '--from', '2', '--count', '1', ...SMALL, '--workers', many, '--out', path('many-workers.csv')]);
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
  });

  it("states --pysol-range's limits in its help (plain game numbers up to 2^53-1)", () => {
    const help = ok(['batch', '--help']).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--pysol-range <a-b> PySolFC game numbers A to B instead, 1 <= A <= B <= 9007199254740991 (plain game numbers: no ms ones;');
  });

  it('says where a Slurm shard comes from in its help', () => {
    const help = ok(['batch', '--help']).stdout;
    expect(help).toContain('the shard is taken from\nthe environment');
    expect(help).not.toMatch(/picked\s+itself/);
  });

  it('gives the same rows (but the timing) with 1 and 2 workers and any chunk size', () => {
    ok(['batch', ...RANGE, ...SMALL, '--workers', '1', '--out', path('w1.csv')]);
    ok(['batch', ...RANGE, ...SMALL, '--workers', '2', '--chunk', '1', '--out', path('w2c1.csv')]);
    const one = rows(path('w1.csv'));
    expect(rows(path('w2.csv'))).toEqual(one);
    expect(rows(path('w2c1.csv'))).toEqual(one);
  });

  it('gives the same rows in 3 shards merged as in one run', () => {
    for (const i of [1, 2, 3]) ok(['batch', ...RANGE, ...SMALL, '--shard', `${i}/3`, '--out', path('s.csv')]);
    for (const i of [1, 2, 3]) expect(existsSync(path(`s.shard-${i}-of-3.csv`))).toBe(true);
    expect(dealsOf(path('s.shard-2-of-3.csv'))).toEqual(Array.from({ length: 100 }, (_, i) => i + 101));
    const m = ok(['merge', path('s.shard-3-of-3.csv'), path('s.shard-1-of-3.csv'), path('s.shard-2-of-3.csv'), '--out', path('merged.csv')]);
    expect(rows(path('merged.csv'))).toEqual(rows(path('w1.csv')));
    expect(dealsOf(path('merged.csv'))).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    // The same summary as the single run, timing aside.
    const a = JSON.parse(readFileSync(path('merged.summary.json'), 'utf8'));
    const b = JSON.parse(readFileSync(path('w1.summary.json'), 'utf8'));
    for (const k of ['deals', 'won', 'unsolvable', 'unknown', 'unknownByLimit', 'winRate', 'nodes']) expect(a[k], k).toEqual(b[k]);
    expect(m.stdout).toMatch(/^deals +300$/m);
  });

  it('takes its shard from a Slurm array or a Kubernetes Indexed Job', () => {
    // Task 7 of an array 5-8 is the third of four.
    ok(['batch', ...RANGE, ...SMALL, '--out', path('slurm.csv')], { SLURM_ARRAY_TASK_ID: '7', SLURM_ARRAY_TASK_COUNT: '4', SLURM_ARRAY_TASK_MIN: '5' });
    expect(dealsOf(path('slurm.shard-3-of-4.csv'))).toEqual(Array.from({ length: 75 }, (_, i) => i + 151));
    ok(['batch', ...RANGE, ...SMALL, '--shards', '3', '--out', path('k8s.csv')], { JOB_COMPLETION_INDEX: '1' });
    expect(rows(path('k8s.shard-2-of-3.csv'))).toEqual(rows(path('s.shard-2-of-3.csv')));
  });

  it('resumes after a real SIGKILL: no row lost, none twice', async () => {
    // Full-size deals at a small budget, one deal a chunk: long enough to be killed midway.
    const args = ['batch', '--from', '1', '--count', '400', '--preset', 'fast', '--max-nodes', '3000', '--chunk', '1', '--workers', '2', '--no-progress'];
    ok([...args, '--out', path('whole.csv')]);
    const file = path('killed.csv');
    const child: ChildProcess = spawn(process.execPath, [MAIN, ...args, '--out', file], { cwd: ROOT, stdio: 'ignore' });
    const exited = new Promise<void>((res) => child.on('exit', () => res()));
    // Kill it once the file has a few rows (waiting up to a minute: a loaded machine is slow).
    for (let t = 0; t < 6000; t++) {
      await new Promise((res) => setTimeout(res, 10));
      if (existsSync(file) && readFileSync(file, 'utf8').split('\n').length > 30) break;
    }
    child.kill('SIGKILL');
    await exited;
    const before = dealsOf(file);
    expect(before.length).toBeGreaterThan(20);
    expect(before.length, 'the run was killed before it finished').toBeLessThan(400);
    expect(new Set(before).size).toBe(before.length);
    // An incomplete part cannot be merged.
    expectUsageError(cli(['merge', file]), /is incomplete: \d+ of 400 deals/);
    // The same command again finishes the work.
    const r = ok([...args, '--out', file]);
    expect(r.stderr).toMatch(/resuming .*killed\.csv: \d+ of 400 deals already done/);
    const after = dealsOf(file);
    expect(after).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    expect(rows(file)).toEqual(rows(path('whole.csv')));
    const meta = JSON.parse(readFileSync(path('killed.meta.json'), 'utf8'));
    expect(meta.sessions).toHaveLength(2);
    expect(meta.sessions[1].status).toBe('done');
    expect(meta.sessions[1].deals).toBe(400 - before.length);
    expect(JSON.parse(readFileSync(path('killed.summary.json'), 'utf8')).deals).toBe(400);
  });

  it('refuses a second run on a file another run is writing', async () => {
    const args = ['batch', '--from', '1', '--count', '400', '--preset', 'fast', '--max-nodes', '3000', '--chunk', '1', '--workers', '1', '--no-progress'];
    const file = path('busy.csv');
    const child: ChildProcess = spawn(process.execPath, [MAIN, ...args, '--out', file], { cwd: ROOT, stdio: 'ignore' });
    const exited = new Promise<void>((res) => child.on('exit', () => res()));
    try {
      for (let t = 0; t < 6000 && !(existsSync(file) && readFileSync(file, 'utf8').split('\n').length > 3); t++) await new Promise((res) => setTimeout(res, 10));
      expectUsageError(cli([...args, '--out', file]), new RegExp(`another batch \\(process ${child.pid}\\) is writing`));
      expect(existsSync(file)).toBe(true);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
  });

  it('drops a torn last row and redoes that deal', () => {
    const text = readFileSync(path('w1.csv'), 'utf8').split('\n');
    // Header and 120 whole rows, then half of the next row (no newline).
    writeFileSync(path('torn.csv'), text.slice(0, 121).join('\n') + '\n' + text[121]!.slice(0, 15));
    writeFileSync(path('torn.meta.json'), killedSidecar(readFileSync(path('w1.meta.json'), 'utf8'), text.slice(0, 121), 100));
    const r = ok(['batch', ...RANGE, ...SMALL, '--workers', '1', '--out', path('torn.csv')]);
    expect(r.stderr).toMatch(/dropped a torn last row/);
    expect(r.stderr).toMatch(/120 of 300 deals already done/);
    expect(rows(path('torn.csv'))).toEqual(rows(path('w1.csv')));
  });

  it('running the finished command again does nothing but print the summary', () => {
    const before = readFileSync(path('w1.csv'), 'utf8');
    const r = ok(['batch', ...RANGE, ...SMALL, '--workers', '1', '--out', path('w1.csv')]);
    expect(r.stderr).toMatch(/300 of 300 deals already done/);
    expect(r.stdout).toMatch(/^deals +300$/m);
    expect(readFileSync(path('w1.csv'), 'utf8')).toBe(before);
  });

  it('refuses to append with other options, naming the option', () => {
    expectUsageError(cli(['batch', ...RANGE, ...SMALL.map((a) => (a === '5000' ? '6000' : a)), '--out', path('w1.csv')]), /made with --max-nodes 5000, not 6000/);
    expectUsageError(cli(['batch', ...RANGE, ...SMALL, '--rules', 'pysol', '--out', path('w1.csv')]), /made with --rules book, not pysol/);
    expectUsageError(cli(['batch', ...SMALL, '--from', '1', '--count', '301', '--out', path('w1.csv')]), /made with --from\/--count 1-300, not 1-301/);
    expectUsageError(cli(['batch', ...RANGE, ...SMALL.map((a) => (a === '1x6,5x3' ? '1x5,4x3' : a)), '--out', path('w1.csv')]), /made with --size 1x6 5x3, not 1x5 4x3/);
    // A CSV that is not ours is left alone.
    writeFileSync(path('foreign.csv'), 'a,b\n1,2\n');
    expectUsageError(cli(['batch', ...RANGE, ...SMALL, '--out', path('foreign.csv')]), /has no sidecar/);
    expect(readFileSync(path('foreign.csv'), 'utf8')).toBe('a,b\n1,2\n');
    // A file of one line, with or without its newline, is not ours either (nor cut as a torn row).
    for (const text of ['my notes', 'my notes\n']) {
      writeFileSync(path('notes.csv'), text);
      expectUsageError(
        cli(['batch', '--from', '1', '--count', '3', ...SMALL, '--out', path('notes.csv')]),
        /'.*notes\.csv' exists but has no sidecar '.*notes\.meta\.json', so it is not a results file of limited batch: remove it or choose another --out$/,
      );
      expect(readFileSync(path('notes.csv'), 'utf8')).toBe(text);
      expect(existsSync(path('notes.meta.json'))).toBe(false);
    }
    // An empty file, or one with only this run's header (a run killed as it began), starts afresh.
    const header = readFileSync(path('w1.csv'), 'utf8').split('\n')[0]!;
    for (const text of ['', header + '\n']) {
      writeFileSync(path('begun.csv'), text);
      ok(['batch', '--from', '1', '--count', '3', ...SMALL, '--out', path('begun.csv')]);
      expect(dealsOf(path('begun.csv'))).toEqual([1, 2, 3]);
      for (const f of ['begun.csv', 'begun.meta.json', 'begun.summary.json']) rmSync(path(f));
    }
  });
});

describe('the default results file (no --out)', () => {
  it('names every choice but the budgets that is not the default, so that such runs do not meet', () => {
    const name = (o: BatchCliOptions): string => batchConfig({ from: '1', count: '20', ...o }, [], {}).out;
    expect(name({})).toBe('results/batch-1-20.csv');
    expect(name({ maxNodes: '5000' })).toBe('results/batch-1-20.csv');
    expect(name({ preset: 'fast' })).toBe('results/batch-fast-1-20.csv');
    expect(name({ search: 'best', heuristic: 'buried' })).toBe('results/batch-best-buried-1-20.csv');
    expect(name({ pairing: 'never' })).toBe('results/batch-pairing-never-1-20.csv');
    expect(name({ size: '1x5,4x3' })).toBe('results/batch-1x5-4x3-1-20.csv');
    expect(name({ rules: 'pysol' })).toBe('results/batch-pysol-1-20.csv');
    expect(name({ player: 'greedy' })).toBe('results/greedy-1-20.csv');
    expect(name({ player: 'greedy', pairing: 'cautious', spaces: 'hold' })).toBe('results/greedy-pairing-cautious-spaces-hold-1-20.csv');
    expect(name({ player: 'greedy', pile: 'forgotten' })).toBe('results/greedy-pile-forgotten-1-20.csv');
    expect(name({ player: 'sampling:samples=16,nodes=500' })).toBe('results/sampling-samples-16-nodes-500-1-20.csv');
    const pysol = (o: BatchCliOptions): string => batchConfig({ pysolRange: '1-20', ...o }, [], {}).out;
    expect(pysol({})).toBe('results/pysol-1-20.csv');
    expect(pysol({ player: 'greedy' })).toBe('results/greedy-pysol-1-20.csv');
    expect(pysol({ rules: 'book' })).toBe('results/pysol-book-1-20.csv');
  });
});

/** Rows of a player's results CSV as records by column name (ms left out). */
function playRecords(file: string): Record<string, string>[] {
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
  const header = parseCsvLine(lines[0]!);
  return lines.slice(1).map((l) => {
    const f = parseCsvLine(l);
    expect(f).toHaveLength(header.length);
    const r: Record<string, string> = {};
    header.forEach((h, i) => {
      if (h !== 'ms') r[h] = f[i]!;
    });
    return r;
  });
}

// The greedy player on small deals: 2,000 games take a few milliseconds a hundred.
const PLAY = ['--size', '1x6,5x3', '--player', 'greedy', '--no-progress'];
const PLAY_RANGE = ['--from', '1', '--count', '2000'];

describe('limited batch --player', () => {
  it('writes one row a game: won or lost, how it ended, the same rows with 1 and 2 workers and any chunk size', () => {
    const r = ok(['batch', ...PLAY_RANGE, ...PLAY, '--workers', '1', '--out', path('p1.csv')]);
    expect(r.stdout).toMatch(/play player=greedy pairing=always spaces=eager pile=remembered/);
    expect(r.stdout).toMatch(/^lost +\d+ /m);
    expect(r.stdout).not.toMatch(/unsolvable|unknown/);
    ok(['batch', ...PLAY_RANGE, ...PLAY, '--workers', '2', '--out', path('p2.csv')]);
    ok(['batch', ...PLAY_RANGE, ...PLAY, '--workers', '2', '--chunk', '7', '--out', path('p2c7.csv')]);
    expect(readFileSync(path('p1.csv'), 'utf8').split('\n')[0]).toBe(PLAY_HEADER);
    const one = rows(path('p1.csv'));
    expect(one.rows).toHaveLength(2000);
    expect(rows(path('p2.csv'))).toEqual(one);
    expect(rows(path('p2c7.csv'))).toEqual(one);
    const recs = playRecords(path('p1.csv'));
    let won = 0;
    for (const x of recs) {
      expect(['won', 'lost']).toContain(x['verdict']);
      expect(['won', 'stopped', 'blind', 'cap']).toContain(x['end']);
      expect(x['verdict'] === 'won').toBe(x['end'] === 'won');
      expect(x['verdict'] === 'won').toBe(x['home'] === '24');
      expect(x).toMatchObject({ source: 'v1', rules: 'book', size: '1x6 5x3', job: 'play', cards: '24', nodes: '0', turned_fifth_blind: '0' });
      expect(['0', '1']).toContain(x['redealt']);
      if (x['verdict'] === 'won') won++;
    }
    expect(won).toBeGreaterThan(100);
    expect(won).toBeLessThan(1900);
    const summary = JSON.parse(readFileSync(path('p1.summary.json'), 'utf8'));
    expect(summary).toMatchObject({ deals: 2000, won, lost: 2000 - won, unsolvable: 0, unknown: 0 });
    expect(summary.winRate.low).toBeCloseTo(wilsonLow(won, 2000), 12);
    expect(summary.winRate.high).toBeCloseTo(wilsonHigh(won, 2000), 12);
    const meta = JSON.parse(readFileSync(path('p1.meta.json'), 'utf8'));
    expect(meta.job).toMatchObject({ kind: 'play', player: { spec: 'greedy', tactics: { pairing: 'always', spaces: 'eager' }, pile: 'remembered' } });
    expect(meta.columns.join(',')).toBe(PLAY_HEADER);
  });

  it('plays each deal with its number as the seed: the sampling player gives the same rows with 1 and 2 workers', () => {
    const args = ['batch', '--from', '1', '--count', '24', '--size', '1x6,5x3', '--player', 'sampling:samples=2,nodes=200', '--no-progress'];
    ok([...args, '--workers', '1', '--out', path('sp1.csv')]);
    ok([...args, '--workers', '2', '--chunk', '1', '--out', path('sp2.csv')]);
    expect(rows(path('sp2.csv'))).toEqual(rows(path('sp1.csv')));
    // A player that searches reports its nodes.
    expect(playRecords(path('sp1.csv')).some((x) => Number(x['nodes']) > 0)).toBe(true);
    expect(playRecords(path('sp1.csv'))[0]!['method']).toBe('player=sampling:samples=2,nodes=200 pairing=always spaces=eager pile=remembered');
  });

  it('the knobs and the pile change the games; the pile forgotten turns the fifth card blind', () => {
    ok(['batch', ...PLAY_RANGE, ...PLAY, '--pairing', 'never', '--spaces', 'hold', '--out', path('pnh.csv')]);
    ok(['batch', ...PLAY_RANGE, ...PLAY, '--pile', 'forgotten', '--out', path('pf.csv')]);
    const base = playRecords(path('p1.csv'));
    const nh = playRecords(path('pnh.csv'));
    const forgot = playRecords(path('pf.csv'));
    expect(nh[0]!['method']).toBe('player=greedy pairing=never spaces=hold pile=remembered');
    expect(nh.filter((x, i) => x['verdict'] !== base[i]!['verdict']).length).toBeGreaterThan(0);
    expect(forgot.some((x) => Number(x['turned_fifth_blind']) > 0)).toBe(true);
    expect(forgot.some((x) => x['end'] === 'blind')).toBe(true);
  });

  it('resumes a partial run to the same rows', () => {
    const whole = readFileSync(path('p1.csv'), 'utf8').split('\n');
    // What a killed run leaves: some rows (not in order), a torn last line, a sidecar not complete.
    const kept = [whole[0]!, ...whole.slice(1, 2001).filter((_, i) => i % 3 !== 1), whole[1500]!.slice(0, 9)];
    writeFileSync(path('pr.csv'), kept.join('\n'));
    writeFileSync(path('pr.meta.json'), killedSidecar(readFileSync(path('p1.meta.json'), 'utf8'), kept.slice(0, -1), 1200));
    const r = ok(['batch', ...PLAY_RANGE, ...PLAY, '--workers', '2', '--out', path('pr.csv')]);
    expect(r.stderr).toMatch(/dropped a torn last row/);
    expect(r.stderr).toMatch(/resuming .*: 1333 of 2000 deals already done/);
    expect(rows(path('pr.csv'))).toEqual(rows(path('p1.csv')));
    expect(dealsOf(path('pr.csv'))).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
  });

  it('refuses to resume with another player, other knobs or another pile, naming the option', () => {
    const again = (extra: string[], player = 'greedy') =>
      cli(['batch', ...PLAY_RANGE, ...PLAY.map((a) => (a === 'greedy' ? player : a)), ...extra, '--out', path('p1.csv')]);
    expectUsageError(again(['--pairing', 'cautious']), /made with --pairing always, not cautious/);
    expectUsageError(again(['--spaces', 'never']), /made with --spaces eager, not never/);
    expectUsageError(again(['--pile', 'forgotten']), /made with --pile remembered, not forgotten/);
    expectUsageError(again([], 'sampling'), /made with --player greedy, not sampling/);
    // The solver on a player's file, and a player on the solver's.
    expectUsageError(cli(['batch', ...PLAY_RANGE, '--size', '1x6,5x3', '--no-progress', '--out', path('p1.csv')]), /made with the job \(solver or --player\) play, not solve/);
    expectUsageError(cli(['batch', ...RANGE, ...PLAY, '--out', path('w1.csv')]), /made with the job \(solver or --player\) solve, not play/);
  });

  it('shards of a player merge into the single run', () => {
    for (const i of [1, 2]) ok(['batch', ...PLAY_RANGE, ...PLAY, '--shard', `${i}/2`, '--out', path('ps.csv')]);
    const m = ok(['merge', path('ps.shard-1-of-2.csv'), path('ps.shard-2-of-2.csv'), '--out', path('pm.csv')]);
    expect(m.stdout).toMatch(/^lost +\d+ /m);
    expect(rows(path('pm.csv'))).toEqual(rows(path('p1.csv')));
    expect(JSON.parse(readFileSync(path('pm.summary.json'), 'utf8')).lost).toBe(JSON.parse(readFileSync(path('p1.summary.json'), 'utf8')).lost);
    // Not with a run of other knobs.
    expectUsageError(cli(['merge', path('ps.shard-1-of-2.csv'), path('pnh.csv')]), /in --pairing: never there, always here/);
  });
});

describe('the solver restricted by tactics (--pairing, --spaces)', () => {
  it('batch writes the restriction into the method and the sidecar, and refuses to mix it with the free game', () => {
    ok(['batch', ...RANGE, ...SMALL, '--pairing', 'never', '--out', path('never.csv')]);
    const meta = JSON.parse(readFileSync(path('never.meta.json'), 'utf8'));
    expect(meta.job).toMatchObject({ kind: 'solve', method: 'preset=fast pairing=never spaces=eager', solver: { tactics: { pairing: 'never', spaces: 'eager' } } });
    const never = JSON.parse(readFileSync(path('never.summary.json'), 'utf8'));
    const free = JSON.parse(readFileSync(path('w1.summary.json'), 'utf8'));
    // A smaller game: never more deals won than in the free game.
    expect(never.won).toBeLessThan(free.won);
    expectUsageError(cli(['batch', ...RANGE, ...SMALL, '--out', path('never.csv')]), /made with --pairing never, not always/);
    // The free game's spec is what it was before tactics existed: --pairing always --spaces eager resumes it.
    const r = ok(['batch', ...RANGE, ...SMALL, '--pairing', 'always', '--spaces', 'eager', '--out', path('w1.csv')]);
    expect(r.stderr).toMatch(/300 of 300 deals already done/);
  });

  it('solve takes --pairing and --spaces, and agrees with the batch row', () => {
    const rec = readFileSync(path('never.csv'), 'utf8').split('\n')[4]!.split(',');
    const r = ok(['solve', rec[0]!, '--size', '1x6,5x3', '--preset', 'fast', '--max-nodes', '5000', '--pairing', 'never', '--json']);
    const j = JSON.parse(r.stdout);
    expect(j.options.tactics).toEqual({ pairing: 'never', spaces: 'eager' });
    expect(j.verdict).toBe(rec[9]);
    expect(j.nodes).toBe(Number(rec[11]));
    expect(ok(['solve', '4', '--size', '1x5,4x3', '--spaces', 'hold']).stdout).toMatch(/restricted to pairing always, spaces hold/);
    expectUsageError(cli(['solve', '4', '--size', '1x5,4x3', '--pairing', 'maybe']), /--pairing: unknown pairing tactic 'maybe'/);
  });
});

describe('the CSV text of a chunk', () => {
  it('is what csv-stringify makes of the records, quoting included', () => {
    const small = parseSize('1x6 5x3');
    const specs = [
      playSpec('v1', BOOK, small, 'sampling:samples=2,nodes=200'),
      playSpec('v1', PYSOL, small, 'greedy', { pairing: 'cautious', spaces: 'never' }, 'forgotten'),
      solveSpec('v1', BOOK, small, { preset: 'fast', maxNodes: 100, tactics: { pairing: 'never', spaces: 'hold' } }),
    ];
    const play: CompactRow[] = [
      compactRow(7, { verdict: 'won', limit: '', nodes: 5, states: 0, solutionLength: 40, bestHome: 24, ms: 0.12345, play: { end: 'won', moves: 40, redealt: true, turnedFifthBlind: 0 } }),
      compactRow(3, { verdict: 'lost', limit: '', nodes: 0, states: 0, solutionLength: 0, bestHome: 9, ms: 1e-7, play: { end: 'blind', moves: 12, redealt: false, turnedFifthBlind: 2 } }),
    ];
    const solve: CompactRow[] = [
      compactRow(1, { verdict: 'unknown', limit: 'nodes', nodes: 100, states: 80, solutionLength: 0, bestHome: 3, ms: 2.5 }),
      compactRow(2, { verdict: 'unsolvable', limit: '', nodes: 17, states: 11, solutionLength: 0, bestHome: 4, ms: 0 }),
    ];
    for (const spec of specs) {
      const rs = spec.kind === 'play' ? play : solve;
      const text = chunkText(spec);
      expect(text(rs)).toBe(csvText(rs.map(rowRecords(spec))));
      expect(text(rs)).toBe(csvText(rs.map(rowRecords(spec)))); // the remembered quoting gives the same again
      expect(text([])).toBe('');
    }
    expect(chunkText(specs[0]!)(play)).toContain('"player=sampling:samples=2,nodes=200 pairing=always spaces=eager pile=remembered"');
  });
});

describe('limited merge refuses parts that do not fit', () => {
  it('overlapping parts', () => {
    expectUsageError(cli(['merge', path('s.shard-1-of-3.csv'), path('w1.csv')]), /overlap: deals 1-100 are in both/);
    expectUsageError(cli(['merge', path('w1.csv'), path('w2.csv')]), /overlap/);
    expectUsageError(cli(['merge', path('w1.csv'), path('w1.csv')]), /given twice/);
  });

  it('a missing shard, or a gap', () => {
    expectUsageError(cli(['merge', path('s.shard-1-of-3.csv'), path('s.shard-3-of-3.csv')]), /shard 2\/3 \(deals 101-200\) is missing/);
    expectUsageError(cli(['merge', path('s.shard-1-of-3.csv'), path('s.shard-2-of-3.csv')]), /shard 3\/3 \(deals 201-300\) is missing/);
    ok(['batch', '--from', '1', '--count', '50', ...SMALL, '--out', path('a.csv')]);
    ok(['batch', '--from', '61', '--count', '40', ...SMALL, '--out', path('b.csv')]);
    expectUsageError(cli(['merge', path('b.csv'), path('a.csv')]), /deals 51-60 are in none of the files/);
    ok(['batch', '--from', '52', '--count', '9', ...SMALL, '--out', path('c.csv')]);
    expectUsageError(cli(['merge', path('c.csv'), path('a.csv')]), /: deal 51 is in none of the files \(a gap between/);
    ok(['batch', '--from', '51', '--count', '10', ...SMALL, '--out', path('gap.csv')]);
    ok(['merge', path('b.csv'), path('gap.csv'), path('a.csv'), '--out', path('abc.csv')]);
    expect(rows(path('abc.csv')).rows).toEqual(rows(path('w1.csv')).rows.slice(0, 100));
  });

  it('parts of other options', () => {
    ok(['batch', '--from', '101', '--count', '20', ...SMALL.map((a) => (a === '5000' ? '4000' : a)), '--out', path('other.csv')]);
    expectUsageError(cli(['merge', path('abc.csv'), path('other.csv')]), /differs from .* in --max-nodes: 4000 there, 5000 here/);
  });

  it('files that are not results of batch', () => {
    expectUsageError(cli(['merge', path('foreign.csv')]), /has no sidecar/);
    expectUsageError(cli(['merge', path('nothing.csv')]), /no such file/);
    expectUsageError(cli(['merge', path('w1.csv'), '--out', path('w1.csv')]), /is one of the files to merge/);
  });

  it('an --out that exists (the CSV or a sidecar): refused, the file left as it was', () => {
    const shards = [1, 2, 3].map((i) => path(`s.shard-${i}-of-3.csv`));
    // Another experiment's results: w2.csv (a whole batch run with its sidecars).
    const before = ['w2.csv', 'w2.meta.json', 'w2.summary.json'].map((f) => readFileSync(path(f), 'utf8'));
    expectUsageError(cli(['merge', ...shards, '--out', path('w2.csv')]), /--out '.*w2\.csv' exists: give --force to replace it, or choose another --out$/);
    expect(['w2.csv', 'w2.meta.json', 'w2.summary.json'].map((f) => readFileSync(path(f), 'utf8'))).toEqual(before);
    // A merge done before is not written over either.
    expectUsageError(cli(['merge', ...shards, '--out', path('merged.csv')]), /--out '.*merged\.csv' exists/);
    // A sidecar alone is enough.
    writeFileSync(path('lone.summary.json'), '{}\n');
    expectUsageError(cli(['merge', ...shards, '--out', path('lone.csv')]), /'.*lone\.summary\.json' \(a sidecar of --out '.*lone\.csv'\) exists: give --force to replace it, or choose another --out$/);
    expect(existsSync(path('lone.csv'))).toBe(false);
  });
});

describe('one-line errors, exit 2', () => {
  it.each([
    [['--from', '1', '--count', '0'], /--count must be a whole number >= 1/],
    [['--count', '5'], /give the deals: --from A --count N/],
    [['--from', 'x', '--count', '5'], /--from: deal number 'x'/],
    [['--from', '1', '--count', '5', '--workers', '0'], /--workers must be a whole number >= 1/],
    [['--from', '1', '--count', '5', '--chunk', 'many'], /--chunk must be a whole number >= 1/],
    [['--from', '1', '--count', '5', '--shard', '4/3'], /--shard 4\/3: I must be 1 to 3/],
    [['--from', '1', '--count', '5', '--shard', 'half'], /--shard must be I\/N/],
    [['--from', '1', '--count', '5', '--shards', '3'], /JOB_COMPLETION_INDEX/],
    [['--from', '1', '--count', '5', '--player', 'chess'], /--player: unknown player 'chess' \(greedy, sampling\)/],
    [['--from', '1', '--count', '5', '--player', 'sampling:samples=0'], /--player 'sampling:samples=0': samples must be a whole number >= 1/],
    [['--from', '1', '--count', '5', '--player', 'greedy', '--preset', 'fast'], /--preset is an option of the solver, not of a player/],
    [['--from', '1', '--count', '5', '--player', 'greedy', '--max-nodes', '100'], /--max-nodes is an option of the solver/],
    [['--from', '1', '--count', '5', '--player', 'greedy', '--pile', 'lost'], /--pile must be remembered or forgotten, not 'lost'/],
    [['--from', '1', '--count', '5', '--player', 'sampling', '--pile', 'forgotten'], /the sampling player needs the pile remembered/],
    [['--from', '1', '--count', '5', '--pile', 'forgotten'], /--pile is a player's memory of the pile: add --player NAME/],
    [['--from', '1', '--count', '5', '--player', 'greedy', '--pairing', 'sometimes'], /--pairing: unknown pairing tactic 'sometimes' \(always, cautious, never\)/],
    [['--from', '1', '--count', '5', '--spaces', 'lazy'], /--spaces: unknown spaces tactic 'lazy' \(eager, hold, never\)/],
    [['--from', '1', '--count', '5', '--preset', 'nope'], /unknown --preset 'nope'/],
    [['--from', '1', '--count', '5', '--max-nodes', '-3'], /--max-nodes must be a whole number >= 1/],
    [['--from', '1', '--count', '5', '--rules', 'chess'], /--rules: unknown rules word 'chess'/],
    [['--from', '1', '--count', '5', '--size', '9x9'], /--size '9x9' is not of the form DxR,CxW \(packs x ranks, columns x rows\), e\.g\. '2x13,12x3'$/],
    [['--from', '1', '--count', '5', '--pysol-range', '1-5'], /either --pysol-range A-B or --from A --count N/],
    [['--pysol-range', '0-10'], /--pysol-range 0-10: need 1 <= A <= B/],
    [['--pysol-range', '1-10', '--size', '1x5,4x3'], /--size 1x5 4x3 disagrees with --pysol-range/],
    [['--from', '1', '--count', '5', '--bogus'], /unknown option '--bogus'/],
  ])('batch %j', (args, pattern) => {
    expectUsageError(cli(['batch', ...args]), pattern);
  });

  it('a range that ends just past the last deal number is refused before any work', () => {
    // 2^53 - 1 + 2 - 1 rounds back to 2^53 - 1 in doubles: the check must not add first.
    for (const extra of [[], ['--player', 'greedy']]) {
      const out = path('past-the-end.csv');
      const r = cli(['batch', '--from', '9007199254740991', '--count', '2', '--size', '1x5,4x3', ...extra, '--no-progress', '--out', out]);
      expectUsageError(r, /--from 9007199254740991 --count 2 goes past the last deal number 9007199254740991/);
      expect(existsSync(out)).toBe(false);
    }
  });

  it('start checks its options like batch', () => {
    expectUsageError(cli(['start', '--workers', '0']), /--workers must be a whole number >= 1/);
  });

  it('an --out inside a file, or a directory as --out', () => {
    writeFileSync(path('plain'), 'x');
    expectUsageError(cli(['batch', '--from', '1', '--count', '5', '--out', join(path('plain'), 'x.csv')]), /cannot write results file '.*x\.csv': '.*plain' is not a directory/);
    expectUsageError(cli(['batch', '--from', '1', '--count', '5', '--out', join(path('plain'), 'sub', 'x.csv')]), /cannot write results file '.*x\.csv': .*not a directory/);
    mkdirSync(path('adir.csv'));
    expectUsageError(cli(['batch', '--from', '1', '--count', '5', '--out', path('adir.csv')]), /--out '.*adir\.csv' is a directory: --out names the results file, e\.g\. '.*adir\.csv\/run\.csv'$/);
    expectUsageError(cli(['merge', path('w1.csv'), '--out', join(path('plain'), 'sub', 'm.csv')]), /cannot write merged file/);
  });

  it("makes --out's directories; refuses an --out that ends with '/' or is a directory, before any lock or work", () => {
    for (const name of ['made', 'made-too']) {
      const out = path(`${name}/`);
      expectUsageError(cli(['batch', '--from', '1', '--count', '3', ...SMALL, '--out', out]), new RegExp(`--out '.*${name}/' ends with '/': --out names the results file`));
      expect(existsSync(path(name))).toBe(false);
    }
    mkdirSync(path('dir1'));
    expectUsageError(cli(['batch', '--from', '1', '--count', '3', ...SMALL, '--out', path('dir1/')]), /--out '.*dir1\/' is a directory/);
    expect(existsSync(path('dir1/.lock'))).toBe(false);
    // A new directory (two levels) for the file, as bench --out makes its own; a shard's file goes there too.
    ok(['batch', '--from', '1', '--count', '3', ...SMALL, '--out', path('new/deeper/a.csv')]);
    expect(dealsOf(path('new/deeper/a.csv'))).toEqual([1, 2, 3]);
    ok(['batch', '--from', '1', '--count', '4', ...SMALL, '--shard', '1/2', '--out', path('new2/s.csv')]);
    expect(dealsOf(path('new2/s.shard-1-of-2.csv'))).toEqual([1, 2]);
    // merge the same.
    ok(['merge', path('new/deeper/a.csv'), '--out', path('merged-here/m.csv')]);
    expect(dealsOf(path('merged-here/m.csv'))).toEqual([1, 2, 3]);
    expectUsageError(cli(['merge', path('new/deeper/a.csv'), '--out', path('dir1')]), /--out '.*dir1' is a directory: --out names the merged file/);
  });

  it('a results file that lost its rows to corruption is named with its line', () => {
    writeFileSync(path('bad.csv'), readFileSync(path('w1.csv'), 'utf8') + 'garbage,row\n');
    writeFileSync(path('bad.meta.json'), readFileSync(path('w1.meta.json'), 'utf8'));
    expectUsageError(cli(['batch', ...RANGE, ...SMALL, '--out', path('bad.csv')]), /bad\.csv, line 302: not a row of a batch/);
  });
});

describe("the machine's memory probe (src/batch/machine.ts, the solve bench's memory line)", () => {
  it('the chain visits the first word of every 64-byte line once and comes back', () => {
    for (const mb of [1 / 64, 0.5, 1]) {
      const a = chaseCycle(mb);
      const lines = a.length / 16;
      expect(lines).toBe(Math.max(2, (mb * 1024 * 1024) / 64));
      const seen = new Uint8Array(lines);
      let p = 0;
      for (let i = 0; i < lines; i++) {
        expect(p % 16).toBe(0);
        expect(seen[p / 16]).toBe(0);
        seen[p / 16] = 1;
        p = a[p]!;
      }
      expect(p).toBe(0);
      // Not the lines in order: a random cycle (neighbours in memory are rarely neighbours in it).
      let next = 0;
      for (let i = 0; i < lines; i++) if (a[i * 16] === ((i + 1) % lines) * 16) next++;
      expect(next).toBeLessThan(lines / 8);
    }
    // The same order every time.
    expect(chaseCycle(0.25)).toEqual(chaseCycle(0.25));
  });

  it('a reading is a positive number of nanoseconds; the readings in words', () => {
    const ns = readNanoseconds(1, 1 << 12, 2);
    expect(Number.isFinite(ns)).toBe(true);
    expect(ns).toBeGreaterThan(0);
    expect(PROBE_MEGABYTES).toEqual([4, 16, 64]);
    expect(formatReadings([28.4, 150.6, 201])).toBe('28 ns in 4 MB, 151 ns in 16 MB, 201 ns in 64 MB');
    expect(memoryLine([28.4, 150.6, 201], [30, 149.5, 199], 'the run')).toBe('memory: a random read took 28 ns in 4 MB, 151 ns in 16 MB, 201 ns in 64 MB before the run, 30, 150, 199 ns after');
  });
});
