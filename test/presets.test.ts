// Presets (src/solver/presets.ts, portfolio.ts): how their stages share the budgets under each
// kind of second deal, and the prover that takes over beside a stalled rollout.
import { describe, expect, it } from 'vitest';
import { type Rules, FULL_SIZE, BOOK, dealFromNumber, parseRules, parseSize } from '../src/game/index.js';
import { type Preset, type Stage, PRESETS, Solver } from '../src/solver/index.js';
import { pysolDeal } from '../src/game/pysol.js';
import { type SecondDeal } from '../src/game/rules.js';
import { STALL_AT_ONCE, checkWin, expectSameResult } from './solver-shared.js';

describe('stage shares', () => {
  it('a stage with no share of a node budget runs only under a time budget, and the other way round', () => {
    // Depth-first search has all of a node budget and none of the time; best-first search the
    // opposite. Each must give exactly what it gives alone.
    const both: Preset = {
      description: 'test: depth-first by nodes, best-first by time',
      options: {},
      stages: [
        { share: 1, timeShare: 0, options: { search: 'dfs' } },
        { share: 0, timeShare: 1, options: { search: 'best', heuristic: 'blend' } },
      ],
    };
    const solver = new Solver();
    const small = parseSize('1x6 5x3');
    let differ = 0;
    // Deals where the two differ (1, 3, 6 and 8 in nodes; 2 is proved lost at the root).
    for (const n of [1, 2, 3, 6, 8]) {
      const deal = dealFromNumber(n, small);
      const byNodes = solver.solvePreset(deal, BOOK, both, { maxNodes: 1_000_000 });
      const dfs = solver.solve(deal, BOOK, { search: 'dfs', maxNodes: 1_000_000 });
      expect([byNodes.verdict, byNodes.nodes, byNodes.moves], `deal ${n} by nodes`).toEqual([dfs.verdict, dfs.nodes, dfs.moves]);
      const byTime = solver.solvePreset(deal, BOOK, both, { maxNodes: Infinity, maxSeconds: 600 });
      const best = solver.solve(deal, BOOK, { search: 'best', heuristic: 'blend', maxNodes: Infinity, maxSeconds: 600 });
      expect([byTime.verdict, byTime.nodes, byTime.moves], `deal ${n} by time`).toEqual([best.verdict, best.nodes, best.moves]);
      if (best.nodes !== dfs.nodes) differ++;
    }
    expect(differ, 'the two searches tell apart').toBeGreaterThan(2);
    // A stage for one kind of second deal only: under other rules its share goes to the first
    // stage, which then runs alone here, by time as by nodes.
    const onlyUnder = (secondDeal: SecondDeal): Preset => ({
      ...both,
      stages: [
        { share: 1, timeShare: 0.5, options: { search: 'dfs' } },
        { ...both.stages[1]!, timeShare: 0.5, secondDeal },
      ],
    });
    const NO_SECOND = parseRules('second-deal=none');
    for (const [rules, preset, name] of [[NO_SECOND, onlyUnder('privileged'), 'privileged'], [BOOK, onlyUnder('none'), 'none']] as const) {
      for (const n of [0, 2, 3]) {
        const deal = dealFromNumber(n, small);
        const dfs = solver.solve(deal, rules, { search: 'dfs', maxNodes: Infinity, maxSeconds: 600 });
        const r = solver.solvePreset(deal, rules, preset, { maxNodes: Infinity, maxSeconds: 600 });
        expect([r.verdict, r.nodes, r.moves], `deal ${n}, a stage for second-deal=${name}`).toEqual([dfs.verdict, dfs.nodes, dfs.moves]);
      }
    }
    // The share goes to the first stage that runs, even when the preset's first stage does not:
    // here depth-first search gets the whole node budget, not half of it.
    const secondFirst: Preset = { ...both, stages: [{ ...both.stages[1]!, share: 0.5, secondDeal: 'none' }, { share: 0.5, options: { search: 'dfs' } }] };
    let needMoreThanHalf = 0;
    for (const n of [0, 2, 3, 5, 8]) {
      const deal = dealFromNumber(n, small);
      const full = solver.solve(deal, BOOK, { search: 'dfs', maxNodes: 1_000_000 });
      const budget = Math.max(1, 2 * full.nodes - 1);
      if (solver.solve(deal, BOOK, { search: 'dfs', maxNodes: Math.floor(budget / 2) }).verdict === 'unknown') needMoreThanHalf++;
      const dfs = solver.solve(deal, BOOK, { search: 'dfs', maxNodes: budget });
      const r = solver.solvePreset(deal, BOOK, secondFirst, { maxNodes: budget });
      expect([r.verdict, r.nodes, r.moves], `deal ${n}, the first stage not under these rules`).toEqual([dfs.verdict, dfs.nodes, dfs.moves]);
    }
    expect(needMoreThanHalf, 'deals that half the budget leaves unknown').toBeGreaterThan(2);
    // No stage for the budget given: an error, not an empty search.
    const nodesOnly: Preset = { ...both, stages: [both.stages[0]!] };
    expect(() => solver.solvePreset(dealFromNumber(0, small), BOOK, nodesOnly, { maxNodes: Infinity, maxSeconds: 1 })).toThrow(/no stage for a time budget/);
  });

  it("the portfolio's stages: one for each kind of second deal (best-first under book, beam with none), the same shares of the nodes and of the time", () => {
    const stages = PRESETS.portfolio!.stages;
    expect(stages.map((s) => s.options.search)).toEqual(['rollout', 'best', 'beam', 'dfs']);
    expect(stages.map((s) => s.options.heuristic)).toEqual([undefined, 'wasteDealt', 'wasteStack', undefined]);
    // The same shares of the nodes and of the time, so that a node budget and a time budget
    // divide the work alike; beam search holds the largest share (CHANGELOG has why).
    expect(stages.map((s) => s.share)).toEqual([0.2, 0.1, 0.5, 0.2]);
    expect(stages.map((s) => s.timeShare ?? s.share)).toEqual([0.2, 0.1, 0.5, 0.2]);
    expect(stages.map((s) => s.secondDeal)).toEqual([undefined, 'privileged', 'none', undefined]);
    // The rollout restarts its look-aheads on Luby's schedule, and weighs the waiting cards and
    // the spaces under rules with no second deal only.
    expect(stages[0]!.options).toEqual({ search: 'rollout', rolloutSchedule: 'luby', rolloutRestarts: 8 });
    const weighed = { rolloutWaiting: 1, rolloutSpaces: 1 };
    expect(stages.map((s) => s.under)).toEqual([{ none: weighed }, undefined, undefined, undefined]);
    // Under a node budget the portfolio is, node for node, the stages that run under the rules
    // (the rollout with the other kind's stage's share), with the rollout's options for the
    // rules' kind of second deal.
    const ruledStages = (rules: Rules, weigh: number): Preset => {
      let given = 0;
      for (const s of stages) if (s.secondDeal !== undefined && s.secondDeal !== rules.secondDeal) given += s.share;
      const rollout: Stage = { share: stages[0]!.share + given, options: { ...stages[0]!.options, ...(weigh ? weighed : {}) } };
      const own = stages.filter((s) => s.secondDeal === rules.secondDeal);
      expect(own.length, rules.secondDeal).toBe(1);
      return { ...PRESETS.portfolio!, stages: [rollout, ...own, stages[3]!] };
    };
    const solver = new Solver();
    const otherSearch = new Set<SecondDeal>();
    for (const [deal, rules, name] of [
      [dealFromNumber(1, FULL_SIZE), BOOK, 'book deal 1'],
      [dealFromNumber(8, FULL_SIZE), BOOK, 'book deal 8'],
      [dealFromNumber(30, FULL_SIZE), BOOK, 'book deal 30'],
      [pysolDeal(5), parseRules('pysol'), 'PySolFC game 5'],
      [pysolDeal(12), parseRules('pysol'), 'PySolFC game 12'],
    ] as const) {
      const a = solver.solvePreset(deal, rules, 'portfolio', { maxNodes: 100_000 });
      const w = rules.secondDeal === 'none' ? 1 : 0;
      expectSameResult(solver.solvePreset(deal, rules, ruledStages(rules, w), { maxNodes: 100_000 }), a, name);
      // The other measure is another search (on a won deal), so `under` is what made them equal.
      const b = solver.solvePreset(deal, rules, ruledStages(rules, 1 - w), { maxNodes: 100_000 });
      if (a.verdict === 'won' || b.verdict === 'won') {
        expect([b.verdict, b.nodes], name).not.toEqual([a.verdict, a.nodes]);
        otherSearch.add(rules.secondDeal);
      }
    }
    expect([...otherSearch].sort()).toEqual(['none', 'privileged']);
  });
});

describe('the prover beside a stalled rollout', () => {
  it('proves a lost deal the stages cannot, with the rollout still running, and wins a won deal', () => {
    const solver = new Solver();
    const before = solver.takeovers;
    // Book deal 3734 is lost: the stages alone do not prove it in 3 M nodes, the prover does.
    const stages = solver.solvePreset(dealFromNumber(3734, FULL_SIZE), BOOK, { ...STALL_AT_ONCE, looksLost: undefined }, { maxNodes: 3_000_000 });
    expect(stages.verdict).toBe('unknown');
    const r = solver.solvePreset(dealFromNumber(3734, FULL_SIZE), BOOK, STALL_AT_ONCE, { maxNodes: 3_000_000 });
    expect([r.verdict, r.proof]).toEqual(['unsolvable', 'search']);
    expect(solver.takeovers).toBe(before + 1);
    // Deal 1 is won; a takeover does not stop the rollout from winning it, and the line verifies.
    const w = solver.solvePreset(dealFromNumber(1, FULL_SIZE), BOOK, STALL_AT_ONCE, { maxNodes: 3_000_000 });
    expect(checkWin(dealFromNumber(1, FULL_SIZE), BOOK, w, 'deal 1')).toBeNull();
  });
});
