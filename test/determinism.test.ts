// The solver gives the same answer, node for node, with a fresh or a reused Solver, and run in
// one go or a slice at a time (as a preset runs its stages side by side).
import { describe, expect, it } from 'vitest';
import { type Rules, FULL_SIZE, BOOK, dealFromNumber, formatRules, parseRules, parseSize } from '../src/game/index.js';
import { type SolveOptions, type SolveResult, Solver } from '../src/solver/index.js';
import { GENEROUS, checkWin, expectSameResult } from './solver-shared.js';

describe('determinism', () => {
  const cases: [string, Rules, number[], Partial<SolveOptions>][] = [
    ['1x6 5x3', BOOK, [0, 2, 3, 4, 5, 7, 8, 9], { search: 'dfs' }],
    ['1x6 5x3', BOOK, [0, 2, 3, 4, 5, 7, 8, 9], { search: 'best', heuristic: 'blend' }],
    ['1x5 4x3', parseRules('building=suit'), [0, 1, 2, 3], { search: 'best', heuristic: 'mobility' }],
    ['2x13 12x3', BOOK, [1, 2], { search: 'dfs', maxNodes: 20_000 }],
    ['2x13 12x3', BOOK, [1, 2], { search: 'best', heuristic: 'blend', maxNodes: 20_000 }],
  ];
  it('the same deal twice, with a fresh and with a reused Solver, gives the same verdict, nodes and moves', () => {
    const reused = new Solver();
    // Warm the reused solver on other sizes and rules first.
    reused.solve(dealFromNumber(11, parseSize('2x4 4x2')), parseRules('second-deal=none'), GENEROUS);
    reused.solve(dealFromNumber(5, FULL_SIZE), BOOK, { maxNodes: 5000 });
    for (const [sizeText, rules, numbers, opts] of cases) {
      for (const n of numbers) {
        const deal = dealFromNumber(n, parseSize(sizeText));
        const o = { maxNodes: 1_000_000, ...opts };
        const a = new Solver().solve(deal, rules, o);
        const b = new Solver().solve(deal, rules, o);
        const c = reused.solve(deal, rules, o);
        const d = reused.solve(deal, rules, o);
        for (const x of [b, c, d]) expectSameResult(x, a, `${sizeText} deal ${n} ${JSON.stringify(opts)}`);
      }
    }
  });
});

describe('slices', () => {
  it('a search run a slice at a time gives what it gives in one go', () => {
    // Presets run their stages side by side in slices (Solver.start / step): a slice must end
    // and go on exactly where it was, for every kind of search.
    const cases: [string, Rules, number, Partial<SolveOptions>][] = [
      ['2x13 12x3', BOOK, 1, { search: 'dfs', maxNodes: 30_000 }],
      ['2x13 12x3', BOOK, 4, { search: 'dfs', maxNodes: 300_000 }],
      ['2x13 12x3', BOOK, 2, { search: 'best', heuristic: 'wasteDealt', maxNodes: 20_000 }],
      ['2x13 12x3', BOOK, 8, { search: 'rollout', maxNodes: 200_000 }],
      ['2x13 12x3', BOOK, 9, { search: 'rollout', maxNodes: 30_000 }],
      // Depth-first search going on signatures: the switch must come at the same node whether
      // a slice ends at that check or not (a slice of 1 ends at every check). Under
      // building=none deal 1390 is lost, and is proved after a confirmation on exact keys; book
      // deal 1 runs out of nodes on signatures (its bytes a state show it).
      ['2x13 12x3', parseRules('building=none'), 1390, { search: 'dfs', order: 'layout', signaturesAfter: 16_384, homeFirst: true, maxNodes: 40_000 }],
      ['2x13 12x3', BOOK, 1, { search: 'dfs', signaturesAfter: 4_096, maxNodes: 30_000 }],
      ['1x6 5x3', BOOK, 3, { search: 'dfs' }],
      ['1x6 5x3', BOOK, 5, { search: 'best', heuristic: 'blend' }],
    ];
    const sliced = new Solver();
    let slicedRuns = 0;
    for (const [sizeText, rules, n, o] of cases) {
      const deal = dealFromNumber(n, parseSize(sizeText));
      const whole = new Solver().solve(deal, rules, o);
      for (const slice of [1, 1000, 7777]) {
        const run = sliced.start(deal, rules, o);
        let r: SolveResult | null = null;
        let steps = 0;
        for (let until = slice; !r; until += slice, steps++) r = run.step(until);
        if (steps > 1) slicedRuns++;
        const what = `${sizeText} deal ${n} ${JSON.stringify(o)} slices of ${slice}`;
        expectSameResult(r, whole, what);
        expect(run.progress().nodes, what).toBe(whole.nodes);
        // The bytes a state tell which table a search ended on: a depth-first search that ran
        // out of nodes on exact keys has the same nodes and states as on signatures.
        expect(r.bytesPerState, what).toBe(whole.bytesPerState);
      }
    }
    // The slices really did cut the searches.
    expect(slicedRuns).toBeGreaterThan(10);
    // And the depth-first search of deal 1390 went on signatures (and was confirmed).
    const confirmed = new Solver();
    const [, none, , o1390] = cases.find(([, , n]) => n === 1390)!;
    const r1390 = confirmed.solve(dealFromNumber(1390, FULL_SIZE), none, o1390);
    expect([r1390.verdict, confirmed.confirmations]).toEqual(['unsolvable', 1]);
  });

  it('a preset whose stages run side by side is deterministic', () => {
    const reused = new Solver();
    for (const [rules, n] of [[BOOK, 1], [BOOK, 8], [parseRules('pysol'), 2]] as const) {
      const deal = dealFromNumber(n, FULL_SIZE);
      const a = new Solver().solvePreset(deal, rules, 'portfolio', { maxNodes: 60_000 });
      for (const x of [new Solver().solvePreset(deal, rules, 'portfolio', { maxNodes: 60_000 }), reused.solvePreset(deal, rules, 'portfolio', { maxNodes: 60_000 })]) {
        expectSameResult(x, a, `${formatRules(rules)} deal ${n}`);
      }
      // The node budget is a hard cap on the whole preset: each stage's share is one.
      expect(a.nodes).toBeLessThanOrEqual(60_000);
      if (a.verdict === 'won') expect(checkWin(deal, rules, a, `deal ${n}`)).toBeNull();
    }
  });
});
