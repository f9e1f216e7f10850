/**
 * The win-rate estimator end to end (src/experiment/winrate.ts, `limited experiment winrate`) on
 * small decks: phase 1 is the batch of the same options, the sample is exactly the undecided
 * deals of lowest priority (drawn again here with seedrandom), phase 2 solves just those at the
 * long budget, the estimate is twoPhase of the files' verdicts, implications between rows are
 * the reference's truth, and both phases resume.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { type Rules, type Tactics, FULL_SIZE, NO_RESTRICTION, dealFromNumber, parseRules, parseSize } from '../src/game/index.js';
import { solveSpec } from '../src/batch/job.js';
import { runBatch } from '../src/batch/run.js';
import { readMeta } from '../src/batch/sidecar.js';
import { type Bounds, moments, stratified, twoPhase } from '../src/experiment/estimate.js';
import { parseCsvLine } from '../src/batch/csv.js';
import { LOST as LOST_CODE, WON as WON_CODE } from '../src/experiment/implications.js';
import { type EstimatorRow, firstAllocation, growAllocation, homeStratum, priority, provePass, readVerdicts, runEstimator } from '../src/experiment/winrate.js';
import { expectUsageError, resultRows, runCli, withTempDir } from './cli-helpers.js';
import { referenceSolve } from './reference.js';

let dir = '';
withTempDir('limited-winrate-', (d) => (dir = d));

const SIZE = parseSize('1x8 4x3');
const quiet = (): void => undefined;

function row(name: string, rules: Rules, tactics: Tactics, count: number, short: number, long: number, baseline?: string, size = SIZE): EstimatorRow {
  const restricted = tactics.pairing !== 'always' || tactics.spaces !== 'eager' ? { tactics } : {};
  return {
    name,
    rules,
    tactics,
    size,
    range: { from: 1, count },
    phase1: solveSpec('v1', rules, size, { preset: 'portfolio', maxNodes: short, ...restricted }),
    phase2: solveSpec('v1', rules, size, { preset: 'portfolio', maxNodes: long, ...restricted }),
    file1: join(dir, `${name}.phase1.csv`),
    file2: join(dir, `${name}.phase2.csv`),
    ...(baseline ? { baseline } : {}),
  };
}

describe('priority', () => {
  it('is seedrandom of the seed and the deal, the same on every call, different between seeds', () => {
    expect(priority('s', 7)).toBe(seedrandom('winrate:s:7')());
    expect(priority('s', 7)).toBe(priority('s', 7));
    expect(priority('s', 7)).not.toBe(priority('t', 7));
  });
});

describe('runEstimator, one row', () => {
  it('phase 1 is the batch; the sample is the undecided deals of lowest priority; the estimate is twoPhase of the files', async () => {
    const book = parseRules('book');
    const r = row('book', book, NO_RESTRICTION, 300, 300, 200_000);
    const res = await runEstimator({ rows: [r], sample: 25, seed: 'test', workers: 2, progress: false, command: 'test', note: quiet, label: 'test' });
    expect(res.status).toBe('done');

    // Phase 1 is a batch of the same job: the same rows (but the time) as one run by hand.
    const plain = join(dir, 'plain.csv');
    await runBatch({ spec: r.phase1, range: r.range, shard: null, out: plain, workers: 1, progress: false, command: 'test', note: quiet });
    expect(resultRows(r.file1).rows).toEqual(resultRows(plain).rows);

    // The sample, drawn again: the 25 undecided deals of lowest priority.
    const v1 = (await readVerdicts(r.file1, r.phase1, r.range)).verdicts;
    const undecided = [...Array(300).keys()].map((i) => i + 1).filter((d) => v1[d - 1] !== WON_CODE && v1[d - 1] !== LOST_CODE);
    expect(undecided.length).toBeGreaterThan(25);
    const rng = (d: number): number => seedrandom(`winrate:test:${d}`)();
    const sample = [...undecided].sort((a, b) => rng(a) - rng(b)).slice(0, 25).sort((a, b) => a - b);
    expect(readMeta(r.file2)!.deals).toEqual(sample);
    const v2 = await readVerdicts(r.file2, r.phase2, r.range);
    expect(v2.count).toBe(25);

    // The estimate from the files' verdicts.
    const decided = [...Array(300).keys()].filter((i) => v1[i] === WON_CODE || v1[i] === LOST_CODE).map((i) => (v1[i] === WON_CODE ? 1 : 0));
    const bounds = sample.map((d) => (v2.verdicts[d - 1] === WON_CODE ? { lo: 1, hi: 1 } : v2.verdicts[d - 1] === LOST_CODE ? { lo: 0, hi: 0 } : { lo: 0, hi: 1 }));
    const want = twoPhase({ decided: moments(decided), undecided: undecided.length, sample: bounds, kind: 'rate' });
    expect(res.lines).toHaveLength(1);
    expect(res.lines[0]!.estimate).toEqual(want);
    expect(res.lines[0]!.phase1.won + res.lines[0]!.phase1.lost + res.lines[0]!.phase1.unknown).toBe(300);
    // The long budget decides most of the sample on a deck this small, and proves its truth: the reference agrees.
    expect(res.lines[0]!.settled).toBeGreaterThan(15);
    for (const d of sample) {
      const v = v2.verdicts[d - 1];
      if (v === WON_CODE || v === LOST_CODE) expect(referenceSolve(dealFromNumber(d, SIZE), book).verdict).toBe(v === WON_CODE ? 'won' : 'unsolvable');
    }

    // Run again: both phases are complete, nothing is solved, the same estimate.
    const sessions = [readMeta(r.file1)!.sessions.length, readMeta(r.file2)!.sessions.length];
    const again = await runEstimator({ rows: [r], sample: 25, seed: 'test', workers: 2, progress: false, command: 'test', note: quiet, label: 'test' });
    expect(again.lines[0]!.estimate).toEqual(want);
    expect([readMeta(r.file1)!.sessions.length, readMeta(r.file2)!.sessions.length]).toEqual(sessions);

    // Another seed draws another sample, which the phase-2 file refuses (it would mix two samples).
    await expect(runEstimator({ rows: [r], sample: 25, seed: 'other', workers: 1, progress: false, command: 'test', note: quiet, label: 'test' })).rejects.toThrow(
      /made with the deals sampled a list of 25 deals/,
    );

    // A larger sample of the same seed holds the smaller one: the file grows, its rows stay.
    const before = resultRows(r.file2).rows;
    const notes: string[] = [];
    const grown = await runEstimator({ rows: [r], sample: 30, seed: 'test', workers: 1, progress: false, command: 'test', note: (t) => notes.push(t), label: 'test' });
    expect(grown.status).toBe('done');
    const sample30 = [...undecided].sort((a, b) => rng(a) - rng(b)).slice(0, 30).sort((a, b) => a - b);
    expect(readMeta(r.file2)!.deals).toEqual(sample30);
    expect(readMeta(r.file2)!.complete).toBe(true);
    const after = resultRows(r.file2).rows;
    expect(after).toHaveLength(30);
    for (const row of before) expect(after).toContainEqual(row);
    expect(notes.some((t) => /the sample grows from 25 to 30 deals/.test(t))).toBe(true);
    expect(grown.lines[0]!.estimate.sampled).toBe(30);
  });
});

describe('runEstimator, the prover\'s pass of phase 2', () => {
  it('solves exactly the sampled deals the long budget left unknown, with the prove preset; its verdicts are the reference truth; it resumes', async () => {
    const book = parseRules('book');
    const base = row('proved', book, NO_RESTRICTION, 200, 300, 1_000);
    const prove = provePass(book, SIZE, 300_000, 512, {}, join(dir, 'proved.phase2-prove.csv'));
    const r: EstimatorRow = { ...base, prove };
    const res = await runEstimator({ rows: [r], sample: 30, seed: 'prove', workers: 2, progress: false, command: 'test', note: quiet, label: 'test' });
    expect(res.status).toBe('done');
    const sample = readMeta(r.file2)!.deals!;
    const v2 = (await readVerdicts(r.file2, r.phase2, r.range)).verdicts;
    const left = sample.filter((d) => v2[d - 1] !== WON_CODE && v2[d - 1] !== LOST_CODE);
    expect(left.length).toBeGreaterThan(5);
    expect(readMeta(prove.file)!.deals).toEqual(left);
    expect(readMeta(prove.file)!.job.method).toBe('preset=prove');
    const v3 = (await readVerdicts(prove.file, prove.spec, r.range)).verdicts;
    // On a deck this small the prover settles every deal the portfolio's 1,000 nodes did not, as the reference says.
    for (const d of left) {
      expect(v3[d - 1] === WON_CODE || v3[d - 1] === LOST_CODE, `deal ${d}`).toBe(true);
      expect(referenceSolve(dealFromNumber(d, SIZE), book).verdict).toBe(v3[d - 1] === WON_CODE ? 'won' : 'unsolvable');
    }
    const line = res.lines[0]!;
    expect(line.settled).toBe(line.estimate.sampled);
    expect(line.estimate.stillUndecided).toBe(0);
    // Without the pass the same files give a wider estimate: the deals it settled count both ways.
    const without = await runEstimator({ rows: [base], sample: 30, seed: 'prove', workers: 1, progress: false, command: 'test', note: quiet, label: 'test', run: false });
    expect(without.lines[0]!.estimate.stillUndecided).toBe(left.length);
    expect(without.lines[0]!.estimate.ciHigh - without.lines[0]!.estimate.ciLow).toBeGreaterThan(line.estimate.ciHigh - line.estimate.ciLow);
    // Run again: nothing is solved, the same estimate.
    const sessions = readMeta(prove.file)!.sessions.length;
    const again = await runEstimator({ rows: [r], sample: 30, seed: 'prove', workers: 1, progress: false, command: 'test', note: quiet, label: 'test' });
    expect(again.lines[0]!.estimate).toEqual(line.estimate);
    expect(readMeta(prove.file)!.sessions.length).toBe(sessions);
  });
});

describe('runEstimator, rows with implications', () => {
  it('verdicts carry between the free game and its restrictions; every phase-2 verdict is the reference truth, and every interval holds the truth of its deals', async () => {
    const book = parseRules('book');
    const never: Tactics = { pairing: 'never', spaces: 'eager' };
    const hold: Tactics = { pairing: 'always', spaces: 'hold' };
    const none = parseRules('second-deal=none');
    // A deck whose every game the reference solves at once, and a phase-1 budget so small that
    // many deals are left to the implications and to phase 2.
    const small = parseSize('1x6 2x2');
    const rows = [
      row('free', book, NO_RESTRICTION, 100, 300, 300_000, undefined, small),
      row('pairing-never', book, never, 70, 300, 300_000, 'free', small),
      row('spaces-hold', book, hold, 70, 300, 300_000, 'free', small),
      row('second-deal-none', none, NO_RESTRICTION, 70, 300, 300_000, 'free', small),
    ];
    const res = await runEstimator({ rows, sample: 15, seed: 'rows', workers: 2, progress: false, command: 'test', note: quiet, label: 'test' });
    expect(res.status).toBe('done');
    const names = res.lines.map((l) => (l.kind === 'rate' ? l.row : `${l.row}-${l.baseline}`));
    expect(names).toEqual(['free', 'pairing-never', 'spaces-hold', 'second-deal-none', 'pairing-never-free', 'spaces-hold-free', 'second-deal-none-free']);

    // The truth of each row on each deal, by the reference.
    const truth = (r: EstimatorRow, d: number): number => (referenceSolve(dealFromNumber(d, small), r.rules, undefined, r.tactics).verdict === 'won' ? 1 : 0);
    const truths = rows.map((r) => Array.from({ length: r.range.count }, (_, i) => truth(r, i + 1)));
    // Some verdict carried: a restricted win climbing to the free game, a free loss falling to a restriction.
    expect(res.lines[0]!.implied).toBeGreaterThan(0);
    expect(res.lines.filter((l) => l.kind === 'difference').some((l) => l.implied > 0)).toBe(true);
    for (const l of res.lines) {
      const e = l.estimate;
      expect(e.low).toBeLessThanOrEqual(e.high + 1e-12);
      const r = rows.findIndex((x) => x.name === l.row);
      const b = rows.findIndex((x) => x.name === l.baseline);
      // The truth's share (of these deals) lies between the two estimates' sample-free bounds
      // when the sample is the whole stratum; here it must at least lie in the interval.
      const values = truths[r]!.map((y, i) => (l.kind === 'rate' ? y : y - truths[b]![i]!));
      const mean = values.reduce((a, v) => a + v, 0) / values.length;
      expect(mean).toBeGreaterThanOrEqual(e.ciLow - 1e-12);
      expect(mean).toBeLessThanOrEqual(e.ciHigh + 1e-12);
      // A restriction never wins more than the free game.
      if (l.kind === 'difference' && l.row !== 'second-deal-none') expect(e.low).toBeLessThanOrEqual(0);
    }
    // Every phase-2 verdict is the reference's.
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      if (!existsSync(r.file2)) continue;
      const v = (await readVerdicts(r.file2, r.phase2, r.range)).verdicts;
      for (const d of readMeta(r.file2)!.deals!) {
        if (v[d - 1] === WON_CODE) expect(truths[i]![d - 1], `${r.name} deal ${d}`).toBe(1);
        if (v[d - 1] === LOST_CODE) expect(truths[i]![d - 1], `${r.name} deal ${d}`).toBe(0);
      }
    }
  });
});

/** A results file's rows by deal: verdict, best_home, limit, nodes and ms. */
function rowsByDeal(file: string): Map<number, { verdict: string; home: number; limit: string; nodes: number; ms: number }> {
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
  const h = parseCsvLine(lines[0]!);
  const at = (c: string): number => h.indexOf(c);
  const m = new Map<number, { verdict: string; home: number; limit: string; nodes: number; ms: number }>();
  for (const l of lines.slice(1)) {
    const f = parseCsvLine(l);
    m.set(Number(f[0]), { verdict: f[at('verdict')]!, home: Number(f[at('best_home')]), limit: f[at('limit')]!, nodes: Number(f[at('nodes')]), ms: Number(f[at('ms')]) });
  }
  return m;
}

describe('runEstimator, stratified phase 2 with a target width, against brute force', () => {
  // A deck on which the portfolio decides every deal at 2,000,000 nodes (the truth), and 300
  // nodes leave about 150 of 400 undecided, with best cards home from 2 to 23 of 24.
  const SMALL = parseSize('1x6 5x3');
  const book = parseRules('book');
  const W = 0.12;

  it('strata by best home, a sample that grows where the variance is until the width is reached; it covers the truth; it resumes; the same rule over many seeds covers the truth of the 400 deals', async () => {
    const truthFile = join(dir, 'bf-truth.csv');
    const range = { from: 1, count: 400 };
    await runBatch({ spec: solveSpec('v1', book, SMALL, { preset: 'portfolio', maxNodes: 2_000_000 }), range, shard: null, out: truthFile, workers: 2, progress: false, command: 'test', note: quiet });
    const truthRows = rowsByDeal(truthFile);
    expect([...truthRows.values()].every((r) => r.verdict !== 'unknown')).toBe(true);
    const truth = (d: number): number => (truthRows.get(d)!.verdict === 'won' ? 1 : 0);
    const trueRate = [...truthRows.keys()].reduce((a, d) => a + truth(d), 0) / 400;

    const r = row('bf', book, NO_RESTRICTION, 400, 300, 2_000_000, undefined, SMALL);
    const cfg = { rows: [r], sample: 12, seed: 'bf', strata: 'home' as const, targetWidth: W, maxSample: 120, workers: 2, progress: false, command: 'test', note: quiet, label: 'test' };
    const res = await runEstimator(cfg);
    expect(res.status).toBe('done');
    const e = res.lines[0]!.estimate;
    expect(res.phase2!.rounds).toBeGreaterThan(1);
    expect(res.phase2!.stopped).toBe('width');
    expect(e.ciHigh - e.ciLow).toBeLessThanOrEqual(W);
    expect(e.ciLow).toBeLessThanOrEqual(trueRate);
    expect(e.ciHigh).toBeGreaterThanOrEqual(trueRate);

    // The strata, drawn again from phase 1's rows: each stratum's sample is its first n_h
    // deals by priority, at least 2 (or all it has); phase 2's file holds exactly their union,
    // and its verdicts are the truth.
    const p1 = rowsByDeal(r.file1);
    const groups = new Map<number, { label: string; deals: number[] }>();
    for (const [d, f] of p1) {
      if (f.verdict !== 'unknown') continue;
      const s = homeStratum(f.home, f.limit, 24);
      if (!groups.has(s.key)) groups.set(s.key, { label: s.label, deals: [] });
      groups.get(s.key)!.deals.push(d);
    }
    const strata = [...groups.entries()].sort((a, b) => a[0] - b[0]).map(([, g]) => ({ label: g.label, deals: g.deals.sort((a, b) => priority('bf', a) - priority('bf', b)) }));
    expect(strata.map((s) => s.label)).toEqual(e.strata!.map((s) => s.label));
    expect(strata.length).toBeGreaterThanOrEqual(3);
    const n = e.strata!.map((s) => s.sampled);
    strata.forEach((s, h) => expect(n[h]).toBeGreaterThanOrEqual(Math.min(2, s.deals.length)));
    const sample = strata.flatMap((s, h) => s.deals.slice(0, n[h])).sort((a, b) => a - b);
    expect(readMeta(r.file2)!.deals).toEqual(sample);
    const v2 = rowsByDeal(r.file2);
    for (const d of sample) expect(v2.get(d)!.verdict, `deal ${d}`).toBe(truthRows.get(d)!.verdict);
    // The sample grew past the first round's 12 deals, and stopped short of --max-sample.
    expect(e.sampled).toBeGreaterThan(12);
    expect(e.sampled).toBeLessThan(120);

    // Run again: every round is replayed from the files, nothing is solved, the same estimate.
    const sessions = readMeta(r.file2)!.sessions.length;
    const again = await runEstimator(cfg);
    expect(again.lines[0]!.estimate).toEqual(e);
    expect(again.phase2).toEqual(res.phase2);
    expect(readMeta(r.file2)!.sessions.length).toBe(sessions);
    // Reading only (what a report of the files does) gives it too.
    expect((await runEstimator({ ...cfg, run: false })).lines[0]!.estimate).toEqual(e);

    // The same rule over 150 seeds, phase 2 read from the truth (what it gives here; a deal's
    // cost its nodes, as the estimator counts it, from phase 2's file or else the truth's): the
    // interval covers the share won of these 400 deals in at least 95 % of them, and for this
    // run's seed it draws the sample the run drew.
    const decided = moments([...p1.entries()].filter(([, f]) => f.verdict !== 'unknown').map(([, f]) => (f.verdict === 'won' ? 1 : 0)));
    const point = (d: number): Bounds => ({ lo: truth(d), hi: truth(d) });
    const rule = (seed: string): { e: ReturnType<typeof stratified>; n: number[] } => {
      const ranked = strata.map((s) => [...s.deals].sort((a, b) => priority(seed, a) - priority(seed, b) || a - b));
      let k = firstAllocation(ranked.map((s) => s.length), 12, 'rate');
      const estimate = (): ReturnType<typeof stratified> =>
        stratified({ decided, strata: ranked.map((s, h) => ({ undecided: s.length, sample: s.slice(0, k[h]).map(point), label: strata[h]!.label })), kind: 'rate' });
      let est = estimate();
      while (est.ciHigh - est.ciLow > W) {
        const g = growAllocation(ranked.map((s, h) => ({ size: s.length, sample: s.slice(0, k[h]).map(point), costs: s.slice(0, k[h]).map((d) => v2.get(d)?.nodes ?? truthRows.get(d)!.nodes) })), 'rate', 120, Infinity);
        if (!g) break;
        k = g.n;
        est = estimate();
      }
      return { e: est, n: k };
    };
    expect(rule('bf').n).toEqual(n);
    let covered = 0;
    for (let i = 0; i < 150; i++) {
      const x = rule(`seed ${i}`).e;
      if (x.ciLow <= trueRate && trueRate <= x.ciHigh) covered++;
    }
    expect(covered / 150).toBeGreaterThanOrEqual(0.95);
  });
});

describe('limited experiment winrate', () => {
  it('a small run: the headline, the files, --json, and a second run that resumes', () => {
    const out = join(dir, 'cli');
    const args = ['experiment', 'winrate', '--size', '1x8,4x3', '--count', '120', '--max-nodes', '300', '--sample', '10', '--long-nodes', '200000', '--workers', '2', '--out-dir', out, '--no-progress'];
    const r = runCli(args);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^Limited \(book rules, size 1x8 4x3\) is won with perfect information in \d+\.\d-\d+\.\d % of deals \(95 % interval; 120 deals, \d+\.\d % still undecided/);
    for (const f of ['winrate.md', 'winrate.json', 'phase1.csv', 'phase1.meta.json', 'phase2.csv', 'phase2.meta.json']) expect(existsSync(join(out, f)), f).toBe(true);
    const md = readFileSync(join(out, 'winrate.md'), 'utf8');
    expect(md).toMatch(/## Method/);
    expect(md).toMatch(/Cochran/);
    // Strata by best home (the default): a table of them, and the round that drew the sample.
    expect(md).toMatch(/## Strata of phase 2/);
    expect(md).toMatch(/\| \*\*book\*\* \| best home /);
    expect(md).toMatch(/- phase 2: 1 round, .* stopped: one round \(no target width\)/);
    const j = runCli([...args, '--json']);
    expect(j.status, j.stderr).toBe(0);
    const doc = JSON.parse(j.stdout) as { format: string; estimates: { estimate: { deals: number; sampled: number } }[] };
    expect(doc.format).toBe('limited-winrate/1');
    expect(doc.estimates[0]!.estimate.deals).toBe(120);
    expect(doc.estimates[0]!.estimate.sampled).toBeLessThanOrEqual(10);
    expect(j.stderr).toMatch(/resuming .*phase1\.csv: 120 of 120 deals already done/);
  });

  it('--prove-nodes: the prover\'s pass writes phase2-prove.csv, and the report names it', () => {
    const out = join(dir, 'cli-prove');
    const args = ['experiment', 'winrate', '--size', '1x8,4x3', '--count', '120', '--max-nodes', '300', '--sample', '10', '--long-nodes', '1000', '--prove-nodes', '300000', '--long-memory', '256', '--workers', '2', '--out-dir', out, '--no-progress', '--json'];
    const r = runCli(args);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { phase2: string; rows: { fileProve: string | null }[]; estimates: { estimate: { stillUndecided: number } }[] };
    expect(doc.phase2).toBe('preset portfolio, 1000 nodes a deal, 256 MB; the deals it leaves unknown then by the prover (preset prove), 300000 nodes a deal');
    expect(doc.rows[0]!.fileProve).toBe(join(out, 'phase2-prove.csv'));
    expect(existsSync(join(out, 'phase2-prove.csv'))).toBe(true);
    expect(doc.estimates[0]!.estimate.stillUndecided).toBe(0);
    // Not the command line's words: the phase's own and the file list of its game.
    const md = readFileSync(join(out, 'winrate.md'), 'utf8');
    expect(md).toContain('then by the prover (preset prove), 300000 nodes a deal');
    const games = md.split('\n').find((l) => l.startsWith('- **book**:'));
    expect(games).toContain(`files ${['phase1.csv', 'phase2.csv', 'phase2-prove.csv'].map((f) => join(out, f)).join(', ')}`);
    expectUsageError(runCli([...args.slice(0, 2), '--prove-nodes', '0']), /--prove-nodes must be a whole number >= 1/);
  });

  it('bad options are one line, exit 2', () => {
    expectUsageError(runCli(['experiment', 'winrate', '--count', '0']), /--count must be a whole number >= 1/);
    expectUsageError(runCli(['experiment', 'winrate', '--sample', 'x']), /--sample/);
    expectUsageError(runCli(['experiment', 'winrate', '--rules', 'book pysol']), /two presets/);
    expectUsageError(runCli(['experiment', 'winrate', '--pairing', 'sometimes']), /pairing/);
    expectUsageError(runCli(['experiment', 'winrate', '--long-seconds', '-1']), /--long-seconds/);
    expectUsageError(runCli(['experiment', 'winrate', '--bogus']), /unknown option/);
    expectUsageError(runCli(['experiment', 'winrate', '--strata', 'cards']), /--strata must be none or home, not 'cards'/);
    expectUsageError(runCli(['experiment', 'winrate', '--target-width', '2']), /--target-width needs a budget/);
    expectUsageError(runCli(['experiment', 'winrate', '--target-width', '0', '--max-sample', '50']), /--target-width must be/);
    expectUsageError(runCli(['experiment', 'winrate', '--max-sample', '50']), /--max-sample bounds how far --target-width grows the sample/);
    expectUsageError(runCli(['experiment', 'winrate', '--target-width', '2', '--max-sample', '20', '--sample', '30']), /--max-sample 20 is smaller than the first round's --sample 30/);
    expectUsageError(runCli(['experiment', 'tactics', '--max-hours', '1']), /--max-hours bounds how far --target-width grows/);
  });

  it('--help names the method and an example that runs in minutes', () => {
    const r = runCli(['experiment', 'winrate', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Cochran/);
    expect(r.stdout).toMatch(/--long-nodes/);
    expect(FULL_SIZE.columns).toBe(12);
  });
});
