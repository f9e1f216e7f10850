// The rollout (src/solver/searches/rollout.ts): its answers are won (a solution that verifies)
// or unknown, never a proof, and its schedules and measures keep to that.
import { describe, expect, it } from 'vitest';
import { type Deal, type Rules, FULL_SIZE, BOOK, dealFromNumber, deckCount, parseRules, parseSize } from '../src/game/index.js';
import { type SolveOptions, type SolveResult, Solver, lubyTerm } from '../src/solver/index.js';
import { referenceSolve } from './reference.js';
import { pysolDeal } from '../src/game/pysol.js';
import { checkWin, expectSameResult } from './solver-shared.js';

/**
 * A rollout's answer is won (a solution that verifies, of a deal the reference wins) or unknown:
 * true when won.
 */
function expectRolloutAnswer(deal: Deal, rules: Rules, r: SolveResult, what: string): boolean {
  if (r.verdict !== 'won') {
    expect(r.verdict, what).toBe('unknown');
    return false;
  }
  expect(checkWin(deal, rules, r, what)).toBeNull();
  // A win has every card home at best (the audit found 3 of 4 on size 1x1 1x1).
  expect(r.bestHome, what).toBe(deckCount(deal.size));
  expect(referenceSolve(deal, rules).verdict, what).toBe('won');
  return true;
}

const ROLLOUT_SMALL = { search: 'rollout', maxNodes: 20_000, lockBound: false } as const;

/**
 * The rollout with `opts` and with `against` (each over ROLLOUT_SMALL) on deals 0-39 of 1x6 5x3
 * with no second deal (building pairs and suit) and `book`: checks each answer of `opts`
 * (`expectRolloutAnswer`), calls `each` on every deal, and counts wins, unknowns and the deals
 * on which the two searches differ (nodes or verdict).
 */
function rolloutAgainst(
  solver: Solver, opts: Partial<SolveOptions>, against: Partial<SolveOptions>,
  each?: (deal: Deal, rules: Rules, n: number, what: string) => void,
): { won: number; unknown: number; other: number } {
  let won = 0;
  let unknown = 0;
  let other = 0;
  for (const variant of ['second-deal=none', 'second-deal=none building=suit', 'book']) {
    const size = parseSize('1x6 5x3');
    const rules = parseRules(variant);
    for (let n = 0; n < 40; n++) {
      const deal = dealFromNumber(n, size);
      const what = `1x6 5x3 ${variant} deal ${n}`;
      const r = solver.solve(deal, rules, { ...ROLLOUT_SMALL, ...opts });
      const b = solver.solve(deal, rules, { ...ROLLOUT_SMALL, ...against });
      expect(r.nodes, what).toBeLessThanOrEqual(20_000);
      if (r.nodes !== b.nodes || r.verdict !== b.verdict) other++;
      if (expectRolloutAnswer(deal, rules, r, what)) won++;
      else unknown++;
      each?.(deal, rules, n, what);
    }
  }
  return { won, unknown, other };
}

describe('rollout', () => {
  it('counts every card home at best when it wins, even when its last moves home came after its look-ahead (size 1x1 1x1)', () => {
    const deal = dealFromNumber(1, parseSize('1x1 1x1'));
    const r = new Solver().solve(deal, BOOK, ROLLOUT_SMALL);
    expect(r.verdict).toBe('won');
    expect(r.bestHome).toBe(4);
  });

  it('answers won (a verified solution) or unknown, never unsolvable, within its node budget', () => {
    // The rollout itself proves nothing; only LockBound, asked before any search, may (below).
    const solver = new Solver();
    let won = 0;
    let unknown = 0;
    let locks = 0;
    for (const [sizeText, variant] of [['1x6 5x3', 'book'], ['1x5 4x3', 'building=suit'], ['1x7 3x2', 'second-deal=none']] as const) {
      const size = parseSize(sizeText);
      const rules = parseRules(variant);
      for (let n = 0; n < 60; n++) {
        const deal = dealFromNumber(n, size);
        const r = solver.solve(deal, rules, { search: 'rollout', maxNodes: 20_000, lockBound: false });
        expect(r.nodes, `${sizeText} ${variant} deal ${n}`).toBeLessThanOrEqual(20_000);
        const withLocks = solver.solve(deal, rules, { search: 'rollout', maxNodes: 20_000 });
        if (withLocks.verdict === 'unsolvable') {
          locks++;
          expect(withLocks.proof).toBe('locks');
          expect(withLocks.nodes).toBe(0);
          expect(r.verdict, `${sizeText} ${variant} deal ${n}`).toBe('unknown');
        } else expectSameResult(withLocks, r, `${sizeText} ${variant} deal ${n}`);
        if (expectRolloutAnswer(deal, rules, r, `${sizeText} ${variant} deal ${n}`)) won++;
        else unknown++;
      }
    }
    // Both answers occur: wins are found, and lost deals stay unknown.
    expect(won).toBeGreaterThan(60);
    expect(unknown).toBeGreaterThan(10);
    expect(locks, 'deals LockBound proves lost before the rollout starts').toBeGreaterThan(5);
  });

  it('rolloutWaiting: still won (verified) or unknown, and another search where the waste fills', () => {
    // Look-aheads measured by cards home less the cards waiting: the candidates are chosen
    // otherwise, but a win is still a verified line of a winnable deal, and the rest unknown.
    const { won, unknown, other } = rolloutAgainst(new Solver(), { rolloutWaiting: 1 }, {});
    expect(won).toBeGreaterThan(40);
    expect(unknown).toBeGreaterThan(5);
    expect(other, 'deals on which the measure changes the search').toBeGreaterThan(10);
  });

  it('rolloutSpaces: still won (verified) or unknown, another search with rolloutWaiting, none without', () => {
    // The attempts that weigh the waiting cards weigh the spaces too; with no weight on the
    // waiting cards no attempt weighs anything, so the spaces' weight changes nothing.
    const solver = new Solver();
    const { won, unknown, other } = rolloutAgainst(solver, { rolloutWaiting: 1, rolloutSpaces: 1 }, { rolloutWaiting: 1 }, (deal, rules, n, what) => {
      if (n >= 10) return;
      const alone = solver.solve(deal, rules, { ...ROLLOUT_SMALL, rolloutSpaces: 1 });
      const plain = solver.solve(deal, rules, ROLLOUT_SMALL);
      expect([alone.verdict, alone.nodes, alone.moves], what).toEqual([plain.verdict, plain.nodes, plain.moves]);
    });
    expect(won).toBeGreaterThan(40);
    expect(unknown).toBeGreaterThan(5);
    expect(other, 'deals on which the spaces change the search').toBeGreaterThan(5);
  });

  it('lubyTerm is the Luby-Sinclair-Zuckerman sequence', () => {
    expect(Array.from({ length: 15 }, (_, i) => lubyTerm(i + 1))).toEqual([1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    // Its defining properties, further on: term 2^k - 1 is 2^(k-1); the terms before it, after
    // term 2^(k-1) - 1, repeat the sequence from its start; the first 2^k - 1 terms sum to
    // k 2^(k-1), each a power of two.
    for (let k = 1; k <= 12; k++) {
      const end = 2 ** k - 1;
      expect(lubyTerm(end)).toBe(2 ** (k - 1));
      let sum = 0;
      for (let i = 1; i <= end; i++) {
        const t = lubyTerm(i);
        expect(Math.log2(t) % 1).toBe(0);
        if (i > 2 ** (k - 1) - 1 && i < end) expect(t).toBe(lubyTerm(i - (2 ** (k - 1) - 1)));
        sum += t;
      }
      expect(sum).toBe(k * 2 ** (k - 1));
    }
  });

  it('rolloutSchedule luby: still won (verified) or unknown, and another search than doubling', () => {
    // In blocks of two attempts the look-ahead budget goes 25, 25, 50, 25, 25, 50, 100, ...
    // instead of 25, 50, 100, ...: from the third attempt on, other candidates may be chosen.
    // Full-size book deals 1-20 at 100,000 nodes (small deck sizes are mostly decided within
    // the first attempts, where the two schedules agree): luby wins 12, doubling 15, and the
    // search differs on 9 (deal 15 is proved lost at the root by both).
    const solver = new Solver();
    const rules = parseRules('book');
    let won = 0;
    let wonDoubling = 0;
    let other = 0;
    for (let n = 1; n <= 20; n++) {
      const deal = dealFromNumber(n, FULL_SIZE);
      const what = `book deal ${n}`;
      const opts = { search: 'rollout', maxNodes: 100_000, rolloutRestarts: 2 } as const;
      const r = solver.solve(deal, rules, { ...opts, rolloutSchedule: 'luby' });
      const doubling = solver.solve(deal, rules, opts);
      for (const x of [r, doubling]) {
        expect(x.nodes, what).toBeLessThanOrEqual(100_000);
        if (x.verdict === 'won') expect(checkWin(deal, rules, x, what)).toBeNull();
        // Deal 15 LockBound proves lost at the root, before either schedule plays.
        else if (n === 15) expect([x.verdict, x.proof, x.nodes], what).toEqual(['unsolvable', 'locks', 0]);
        else expect(x.verdict, what).toBe('unknown');
      }
      if (r.nodes !== doubling.nodes || r.verdict !== doubling.verdict) other++;
      if (r.verdict === 'won') won++;
      if (doubling.verdict === 'won') wonDoubling++;
    }
    expect([won, wonDoubling, other]).toEqual([12, 15, 9]);
  });

  it('never takes a candidate that LockBound proves lost (rolloutLockBound), and wins as before or sooner', () => {
    // Book deals 1-12 at 100,000 nodes: with the check, candidates are cut (1,495 in all) and
    // six deals take another path; each win verifies. Without it nothing is cut.
    const solver = new Solver();
    let cut = 0;
    let changed = 0;
    let wonWith = 0;
    let wonWithout = 0;
    for (let n = 1; n <= 12; n++) {
      const deal = dealFromNumber(n, FULL_SIZE);
      const on = solver.solve(deal, BOOK, { search: 'rollout', maxNodes: 100_000 });
      cut += solver.prunedLock;
      const off = solver.solve(deal, BOOK, { search: 'rollout', maxNodes: 100_000, rolloutLockBound: false });
      expect(solver.prunedLock, `deal ${n}`).toBe(0);
      for (const r of [on, off]) if (r.verdict === 'won') expect(checkWin(deal, BOOK, r, `deal ${n}`)).toBeNull();
      if (on.nodes !== off.nodes || on.verdict !== off.verdict) changed++;
      if (on.verdict === 'won') wonWith++;
      if (off.verdict === 'won') wonWithout++;
    }
    expect(cut).toBeGreaterThan(100);
    expect(changed).toBeGreaterThan(3);
    expect(wonWith).toBeGreaterThanOrEqual(wonWithout);
    // Where LockBound does not apply (building=suit) it changes nothing.
    const game = pysolDeal(3);
    const PYSOL = parseRules('pysol');
    const a = solver.solve(game, PYSOL, { search: 'rollout', maxNodes: 50_000 });
    expect(solver.prunedLock).toBe(0);
    expectSameResult(solver.solve(game, PYSOL, { search: 'rollout', maxNodes: 50_000, rolloutLockBound: false }), a, 'PySolFC game 3');
  });

  it('plays a forced move without a look-ahead, at one node', () => {
    // 1x4 4x2 deal 31: at every position of the rollout's line only one candidate is left to
    // take, so no look-ahead runs at all and each move costs one node (the nodes are the
    // moves). With a look-ahead at each forced move it took 100 nodes.
    const size = parseSize('1x4 4x2');
    const deal = dealFromNumber(31, size);
    const r = new Solver().solve(deal, BOOK, { search: 'rollout', maxNodes: 100_000 });
    expect(r.verdict).toBe('won');
    expect(r.nodes).toBe(r.moves!.length);
    expect(checkWin(deal, BOOK, r, '1x4 4x2 deal 31')).toBeNull();
    // A deal with choices still runs look-aheads: deal 1 is won in 26 nodes by a 27-move line
    // (two compulsory aces at one node each, then look-aheads).
    const one = new Solver().solve(dealFromNumber(1, size), BOOK, { search: 'rollout', maxNodes: 100_000 });
    expect([one.verdict, one.nodes, one.moves!.length]).toEqual(['won', 26, 27]);
  });

  it('is deterministic, and a full-size win is found and verified', () => {
    const a = new Solver().solve(dealFromNumber(8, FULL_SIZE), BOOK, { search: 'rollout', maxNodes: 200_000 });
    const b = new Solver().solve(dealFromNumber(8, FULL_SIZE), BOOK, { search: 'rollout', maxNodes: 200_000 });
    expect(a.verdict).toBe('won');
    expect(b.nodes).toBe(a.nodes);
    expect(b.moves).toEqual(a.moves);
    expect(checkWin(dealFromNumber(8, FULL_SIZE), BOOK, a, 'deal 8')).toBeNull();
  });
});
