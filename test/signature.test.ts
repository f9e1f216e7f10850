/**
 * The search signature: the node counts, stored states and solution lengths of a few fixed
 * searches under node budgets, the same on every machine. They are the one place where the
 * suite pins how the solver searches, so that a change in its behaviour is seen here and
 * nowhere else: a commit that changes the search on purpose updates them together and says so
 * in CHANGELOG.md. Every other test asserts what a search must do (verdicts, replayed
 * solutions, budgets kept, two runs that must agree), not how many nodes it takes.
 */
import { describe, expect, it } from 'vitest';
import { BOOK, FULL_SIZE, PYSOL, dealFromNumber, parseRules, parseSize, pysolDeal, verifyMoves } from '../src/game/index.js';
import { Solver } from '../src/solver/index.js';

describe('search signature (node budgets: the same on every machine)', () => {
  const solver = new Solver();

  it('the default preset on full-size book deals 1-8 at 100,000 nodes: verdict, nodes, states, moves', () => {
    const got = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => {
      const deal = dealFromNumber(n, FULL_SIZE);
      const r = solver.solvePreset(deal, BOOK, 'portfolio', { maxNodes: 100_000 });
      expect(verifyMoves(deal, BOOK, r.moves!).won, `deal ${n}`).toBe(true);
      return [n, r.verdict, r.nodes, r.states, r.moves?.length ?? null];
    });
    expect(got).toEqual([
      [1, 'won', 23_341, 6_831, 213],
      [2, 'won', 47_662, 13_417, 213],
      [3, 'won', 79_262, 23_652, 208],
      [4, 'won', 15_030, 5_482, 199],
      [5, 'won', 10_973, 2_627, 209],
      [6, 'won', 81_482, 23_234, 197],
      [7, 'won', 10_602, 2_678, 203],
      [8, 'won', 9_424, 1_381, 207],
    ]);
  });

  it('proofs and single searches', () => {
    const prove = solver.solvePreset(dealFromNumber(988, FULL_SIZE), BOOK, 'prove');
    expect([prove.verdict, prove.nodes, prove.states]).toEqual(['unsolvable', 258_297, 73_693]);
    const none = solver.solvePreset(dealFromNumber(3, FULL_SIZE), parseRules('building=none'), 'portfolio', { maxNodes: 100_000 });
    expect([none.verdict, none.nodes]).toEqual(['unsolvable', 73_523]);
    const d185 = solver.solve(dealFromNumber(185, FULL_SIZE), BOOK, { search: 'dfs', maxNodes: 300_000, homeFirst: true });
    expect([d185.verdict, d185.nodes, d185.moves!.length]).toEqual(['won', 67_097, 207]);
    const rollout = solver.solve(dealFromNumber(31, parseSize('1x4 4x2')), BOOK, { search: 'rollout', maxNodes: 100_000 });
    expect([rollout.verdict, rollout.nodes]).toEqual(['won', 28]);
    const small = solver.solve(dealFromNumber(8, parseSize('2x4 3x3')), parseRules('second-deal=none'), { search: 'dfs', homeFirst: true, lockBound: false });
    expect([small.verdict, small.nodes]).toEqual(['won', 172 + 132]);
  });

  it('PySolFC game 123456 at 1,000,000 nodes: the line the solver prints', () => {
    const r = solver.solvePreset(pysolDeal(123456), PYSOL, 'portfolio', { maxNodes: 1_000_000 });
    expect([r.verdict, r.nodes, r.moves!.length]).toEqual(['won', 10_923, 262]);
  });
});

describe('bench signature', () => {
  it('total nodes of the default search over a fixed deal set', () => {
    // CHANGES ONLY ON PURPOSE: a change to move generation, ordering or pruning changes this
    // figure. When it does, put the new figure (and the old one) in the commit message.
    const BENCH_SIGNATURE = 252_566;
    const solver = new Solver();
    let total = 0;
    const verdicts = { won: 0, unsolvable: 0, unknown: 0 };
    const small = parseSize('1x6 5x3');
    for (let n = 1; n <= 200; n++) {
      const r = solver.solve(dealFromNumber(n, small), BOOK);
      total += r.nodes;
      verdicts[r.verdict]++;
    }
    for (let n = 1; n <= 3; n++) {
      const r = solver.solve(dealFromNumber(n, FULL_SIZE), BOOK, { maxNodes: 20_000 });
      total += r.nodes;
      verdicts[r.verdict]++;
    }
    console.log(`bench signature: ${total} nodes (won ${verdicts.won}, unsolvable ${verdicts.unsolvable}, unknown ${verdicts.unknown})`);
    expect(total).toBe(BENCH_SIGNATURE);
  });
});
