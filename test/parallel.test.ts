/**
 * One deal on several threads (src/solver/parallel.ts): its verdicts against the exhaustive
 * reference search on small deals of every rule variant, every win replayed by the verifier; on
 * one thread the prove preset's search in the real game node for node; its budgets, its stop, its bad input. The
 * threads run the built worker (dist/, which `npm test` builds first).
 */
import { describe, expect, it } from 'vitest';
import { type Deal, type Rules, FULL_SIZE, dealFromNumber, parseRules, parseSize, verifyMoves } from '../src/game/index.js';
import { Solver } from '../src/solver/index.js';
import { type ParallelResult, type ThreadEnd, SLICE, solveParallel, verdictOf } from '../src/solver/parallel.js';
import { RULE_VARIANTS } from './helpers.js';
import { referenceSolve } from './reference.js';
import { GENEROUS, checkWin } from './solver-shared.js';

/** Small tables: these deals store a few thousand states at most. */
const SMALL = { ...GENEROUS, maxMemoryMB: 16 };

/**
 * The deals cross-checked: numbers 0.. of each size, less those on which the reference search
 * needs more than 40,000 positions under some variant (the cross-check's own skip lists, in
 * test/crosscheck.long.test.ts).
 */
const PLANS = [
  { size: '1x5 4x3', count: 20, skip: [90, 110] },
  { size: '1x6 5x3', count: 12, skip: [1, 6, 12, 13, 36, 40, 42, 50, 55] },
] as const;

function dealsOf(plan: (typeof PLANS)[number]): Deal[] {
  const size = parseSize(plan.size);
  const deals: Deal[] = [];
  for (let n = 0; deals.length < plan.count; n++) if (!(plan.skip as readonly number[]).includes(n)) deals.push(dealFromNumber(n, size));
  return deals;
}

describe('solveParallel on two threads agrees with the exhaustive reference', () => {
  const seen = { won: 0, unsolvable: 0 };
  it.each(RULE_VARIANTS)('%s', async (variant) => {
    const rules = parseRules(variant);
    const wrong: string[] = [];
    for (const plan of PLANS) {
      for (const deal of dealsOf(plan)) {
        const what = `${plan.size} deal ${deal.source} ${variant}`;
        const ref = referenceSolve(deal, rules);
        const r = await solveParallel(deal, rules, SMALL, { threads: 2 });
        if (r.verdict !== ref.verdict) wrong.push(`${what}: ${r.verdict}, the reference says ${ref.verdict}`);
        if (r.verdict === 'won') {
          const bad = checkWin(deal, rules, r, what);
          if (bad) wrong.push(bad);
        }
        if (r.verdict !== 'unknown') seen[r.verdict]++;
      }
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  it('saw both verdicts', () => {
    expect(seen.won).toBeGreaterThan(20);
    expect(seen.unsolvable).toBeGreaterThan(20);
  });
});

/** The figures that must agree between two solves, moves as their count. */
const figures = (r: Pick<ParallelResult, 'verdict' | 'nodes' | 'states' | 'bestHome' | 'moves'>) => [r.verdict, r.nodes, r.states, r.bestHome, r.moves?.length ?? null];

describe('solveParallel on one thread', () => {
  it('is the prove preset\'s search in the real game (freeFifth, wasteDominance and pileNogoods off), node for node, on small deals and a full one', async () => {
    const solver = new Solver();
    const cases: [Deal, Rules][] = [];
    for (const variant of ['book', 'second-deal=none', 'building=suit'] as const) for (const deal of dealsOf(PLANS[1])) cases.push([deal, parseRules(variant)]);
    // Book deal 9876: proved lost in about 680,000 nodes.
    cases.push([dealFromNumber(9876, FULL_SIZE), parseRules('book')]);
    for (const [deal, rules] of cases) {
      const budget = { maxNodes: 5_000_000, maxMemoryMB: 256 };
      const one = await solveParallel(deal, rules, budget, { threads: 1 });
      // The threads share one table of the real game's positions: no relaxed game, no dominance,
      // no nogoods (a thread's refutation may rest on positions another thread is still searching).
      const preset = solver.solvePreset(deal, rules, 'prove', { ...budget, freeFifth: false, wasteDominance: false, pileNogoods: false });
      expect(figures(one), `deal ${deal.source} ${rules.secondDeal} ${rules.building}`).toEqual(figures(preset));
      expect(one.threads).toBe(1);
    }
  }, 300_000);
});

describe('solveParallel from a position', () => {
  it('solves from the moves given, as Solver.solve does, and its win goes on from there', async () => {
    const size = parseSize('1x6 5x3');
    const rules = parseRules('book');
    let checked = 0;
    for (let n = 0; n < 30 && checked < 4; n++) {
      const deal = dealFromNumber(n, size);
      const ref = referenceSolve(deal, rules);
      if (ref.verdict !== 'won') continue;
      // From a few moves into the reference's winning line: still won.
      const from = ref.moves!.slice(0, 5);
      const r = await solveParallel(deal, rules, SMALL, { threads: 2, from });
      expect(r.verdict).toBe('won');
      expect(verifyMoves(deal, rules, [...from, ...r.moves!]).won).toBe(true);
      expect(r.verdict).toBe(new Solver().solve(deal, rules, { ...SMALL, search: 'dfs' }, from).verdict);
      checked++;
    }
    expect(checked).toBe(4);
  }, 120_000);
});

describe('solveParallel budgets and stops', () => {
  // Book deal 3734: lost, about 2.2 M nodes for the prover, so every budget below runs out first.
  const deal = dealFromNumber(3734, FULL_SIZE);
  const rules = parseRules('book');

  it('--max-nodes is the total over the threads: unknown, within a slice a thread beside the first', async () => {
    const r = await solveParallel(deal, rules, { maxNodes: 30_000, maxMemoryMB: 64 }, { threads: 2 });
    expect([r.verdict, r.limit]).toEqual(['unknown', 'nodes']);
    expect(r.nodes).toBeGreaterThanOrEqual(30_000 - SLICE);
    expect(r.nodes).toBeLessThanOrEqual(30_000 + SLICE + 2048);
    expect(r.threadNodes.reduce((a, b) => a + b, 0)).toBe(r.nodes);
    expect(r.threadNodes).toHaveLength(2);
  }, 60_000);

  it('--max-memory is the shared table: unknown when it is full', async () => {
    const r = await solveParallel(deal, rules, { maxNodes: 5_000_000, maxMemoryMB: 0.5 }, { threads: 2 });
    expect([r.verdict, r.limit]).toEqual(['unknown', 'memory']);
    // 0.5 MB at about 26 bytes a state.
    expect(r.states).toBeGreaterThan(10_000);
    expect(r.states * r.bytesPerState).toBeLessThanOrEqual(0.5 * 1024 * 1024);
  }, 60_000);

  it('--max-seconds is one deadline for all threads', async () => {
    const r = await solveParallel(deal, rules, { maxNodes: Infinity, maxSeconds: 0.001, maxMemoryMB: 64 }, { threads: 2 });
    expect([r.verdict, r.limit]).toEqual(['unknown', 'time']);
  }, 60_000);

  it('a stop from outside stops every thread: unknown, interrupted, with the figures so far', async () => {
    const abort = new AbortController();
    const r = await solveParallel(deal, rules, { maxNodes: 100_000_000, maxMemoryMB: 256 }, {
      threads: 2,
      signal: abort.signal,
      onProgress: (p) => {
        if (p.nodes > 0) abort.abort();
      },
    });
    expect([r.verdict, r.limit, r.moves]).toEqual(['unknown', 'interrupted', null]);
    expect(r.nodes).toBeGreaterThan(0);
    expect(r.states).toBeGreaterThan(0);
  }, 60_000);

  it('refuses a thread count out of range and a search other than depth-first', async () => {
    for (const threads of [0, 65, 1.5]) await expect(solveParallel(deal, rules, {}, { threads })).rejects.toThrow(/threads must be a whole number/);
    await expect(solveParallel(deal, rules, { search: 'best' }, { threads: 2 })).rejects.toThrow(/depth-first/);
    await expect(solveParallel(deal, rules, {}, { threads: 1, rollout: true })).rejects.toThrow(/2 threads or more/);
  });
});

describe('solveParallel with the rollout beside the provers', () => {
  it('wins won deals and proves lost ones, the rollout stopped once the provers have ended', async () => {
    const size = parseSize('1x6 5x3');
    const seen = new Set<string>();
    for (const variant of ['book', 'second-deal=none'] as const) {
      const rules = parseRules(variant);
      for (let n = 0; n < 8; n++) {
        const deal = dealFromNumber(n, size);
        const r = await solveParallel(deal, rules, SMALL, { threads: 2, rollout: true });
        expect(r.verdict, `deal ${n} ${variant}`).toBe(referenceSolve(deal, rules).verdict);
        if (r.verdict === 'won') expect(checkWin(deal, rules, r, `deal ${n}`)).toBeNull();
        if (r.verdict !== 'unsolvable' || r.proof !== 'locks') expect(r.threadNodes).toHaveLength(2);
        seen.add(r.verdict);
      }
    }
    expect([...seen].sort()).toEqual(['unsolvable', 'won']);
  }, 120_000);
});

describe('the verdict of the threads', () => {
  /** Reports ending so; the first `provers` of them provers (or helpers), the rest the rollout. */
  const of = (ends: ThreadEnd[], provers = ends.length, aborted = false) =>
    verdictOf(ends.map((end, i) => ({ end, moves: end === 'won' ? [] : null, proves: i < provers })), aborted);

  it('is unsolvable only when every prover was exhausted', () => {
    expect(of(['lost', 'lost', 'lost'])).toEqual({ verdict: 'unsolvable', proof: 'search' });
    // One exhausted search proves nothing while another ran out or was stopped.
    expect(of(['lost', 'nodes'])).toEqual({ verdict: 'unknown', limit: 'nodes' });
    expect(of(['time', 'lost'])).toEqual({ verdict: 'unknown', limit: 'time' });
    expect(of(['lost', 'memory', 'lost'])).toEqual({ verdict: 'unknown', limit: 'memory' });
    expect(of(['lost', 'stopped'])).toEqual({ verdict: 'unknown', limit: 'interrupted' });
    expect(of(['nodes', 'lost'], 2, true)).toEqual({ verdict: 'unknown', limit: 'interrupted' });
    // The rollout decides nothing but a win; turned helper, its search counts like a prover's.
    expect(of(['lost', 'lost', 'stopped'], 2)).toEqual({ verdict: 'unsolvable', proof: 'search' });
    expect(of(['nodes', 'lost', 'won'], 2)).toEqual({ verdict: 'won', moves: [] });
    expect(of(['lost', 'lost', 'time'], 3)).toEqual({ verdict: 'unknown', limit: 'time' });
    expect(of(['lost', 'stopped'], 2)).toEqual({ verdict: 'unknown', limit: 'interrupted' });
    expect(of(['stopped', 'won'])).toEqual({ verdict: 'won', moves: [] });
  });
});

describe('solveParallel with the rollout on a full-size deal', () => {
  const rules = parseRules('book');
  it('wins a deal the rollout wins fast, and proves a lost one once the rollout has turned helper', async () => {
    // Book deal 3: the portfolio's rollout wins it in about 80,000 nodes, the prover alone not in 2 M.
    const won = await solveParallel(dealFromNumber(3, FULL_SIZE), rules, { maxNodes: 20_000_000, maxMemoryMB: 256 }, { threads: 2, rollout: true });
    expect(won.verdict).toBe('won');
    expect(checkWin(dealFromNumber(3, FULL_SIZE), rules, won, 'deal 3')).toBeNull();
    // Book deal 3734: lost; the rollout looks lost after 500,000 nodes and helps the prover.
    const lost = await solveParallel(dealFromNumber(3734, FULL_SIZE), rules, { maxNodes: 20_000_000, maxMemoryMB: 256 }, { threads: 2, rollout: true });
    expect([lost.verdict, lost.proof]).toEqual(['unsolvable', 'search']);
  }, 120_000);
});
