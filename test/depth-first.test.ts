// Depth-first search (src/solver/dfs.ts): on signatures, as the portfolio's stage (exact keys
// first, moves home first), and the positions right after a draw that it does not store.
import { describe, expect, it } from 'vitest';
import { Game, type Deal, type Rules, FULL_SIZE, BOOK, dealFromNumber, parseRules, parseSize } from '../src/game/index.js';
import { PileBound } from '../src/solver/bound.js';
import { KeyPacker } from '../src/solver/key.js';
import { type Preset, PRESETS, Solver } from '../src/solver/index.js';
import { RULE_VARIANTS } from './helpers.js';
import { pysolDeal } from '../src/game/pysol.js';
import { DFS_LOST, DFS_WON, DepthFirst } from '../src/solver/dfs.js';
import { TranspositionTable } from '../src/solver/table.js';
import { checkWin } from './solver-shared.js';

describe('depth-first search on signatures', () => {
  it('at full size: the same search as on exact keys, in 8 to 12 bytes a state (exact keys: more)', () => {
    const solver = new Solver();
    for (const n of [1, 9]) {
      const opts = { search: 'dfs', maxNodes: 200_000 } as const;
      const sig = solver.solve(dealFromNumber(n, FULL_SIZE), BOOK, opts);
      const exact = solver.solve(dealFromNumber(n, FULL_SIZE), BOOK, { ...opts, signaturesAfter: Infinity });
      expect([sig.verdict, sig.nodes, sig.states, sig.bestHome], `deal ${n}`).toEqual([exact.verdict, exact.nodes, exact.states, exact.bestHome]);
      expect(sig.moves?.length ?? null).toBe(exact.moves?.length ?? null);
      if (sig.states > 1 << 16) {
        expect(sig.bytesPerState, `deal ${n}`).toBeGreaterThanOrEqual(8);
        expect(sig.bytesPerState, `deal ${n}`).toBeLessThanOrEqual(12);
        // A search that stays on exact keys stores them in the collapse table (collapse-table.ts).
        expect(exact.bytesPerState, `deal ${n}`).toBeGreaterThan(sig.bytesPerState);
      }
    }
    // Deal 9 is not decided in 200,000 nodes: it went on signatures.
    expect(solver.solve(dealFromNumber(9, FULL_SIZE), BOOK, { search: 'dfs', maxNodes: 200_000 }).states).toBeGreaterThan(1 << 16);
  });
});

describe("the portfolio's depth-first stage: exact states first, moves home first", () => {
  it('proves a small search on exact keys, with no confirmation (a small budget keeps its proofs)', () => {
    // Under building=none deal 3 is lost, and the depth-first stage exhausts it with a few
    // thousand states, within its fifth of 100,000 nodes. On signatures from the start, the
    // exhaustion would have to be confirmed on exact keys, at twice the nodes: over budget.
    const solver = new Solver();
    const NONE = parseRules('building=none');
    const deal = dealFromNumber(3, FULL_SIZE);
    const confirmed = solver.confirmations;
    const r = solver.solvePreset(deal, NONE, 'portfolio', { maxNodes: 100_000 });
    // (The stage's streamlined search, homeFirst, is exhausted first; the complete one proves.)
    expect([r.verdict, r.proof, solver.confirmations]).toEqual(['unsolvable', 'search', confirmed]);
    expect(r.nodes).toBeLessThan(100_000);
    const onSignatures: Preset = {
      ...PRESETS.portfolio!,
      stages: PRESETS.portfolio!.stages.map((s) => (s.options.search === 'dfs' ? { ...s, options: { ...s.options, signaturesAfter: 0 } } : s)),
    };
    const late = solver.solvePreset(deal, NONE, onSignatures, { maxNodes: 100_000 });
    expect([late.verdict, late.limit]).toEqual(['unknown', 'nodes']);
    // With enough nodes the confirmation gives the same verdict.
    expect(solver.solvePreset(deal, NONE, onSignatures, { maxNodes: 200_000 }).verdict).toBe('unsolvable');
  });

  it('homeFirst finds wins sooner on full-size book deals, and never lets an exhausted streamlined search stand as a proof', () => {
    const solver = new Solver();
    // Book deal 185: the portfolio leaves it undecided at one second (results/solve).
    const deal = dealFromNumber(185, FULL_SIZE);
    const r = solver.solve(deal, BOOK, { search: 'dfs', maxNodes: 300_000, homeFirst: true });
    expect(r.verdict).toBe('won');
    expect(checkWin(deal, BOOK, r, 'deal 185')).toBeNull();
    expect(solver.solve(deal, BOOK, { search: 'dfs', maxNodes: 300_000 }).verdict).toBe('unknown');
    // 2x4 3x3, second-deal=none, deal 8 is won, but only by a line that keeps a card out of a
    // foundation that would take it: the streamlined search alone is exhausted (172 nodes)...
    const small = dealFromNumber(8, parseSize('2x4 3x3'));
    const rules = parseRules('second-deal=none');
    const g = new Game(small, rules);
    const packer = new KeyPacker(g);
    const dfs = new DepthFirst();
    const streamlined = { reducedSpaces: true, drawDiscipline: true, safeMoves: true, order: 'layout', seed: 0, homeFirst: true } as const;
    dfs.begin(g, packer, new TranspositionTable(packer.words, 1 << 28, 1024), false, streamlined, null, new PileBound(g), null);
    expect(dfs.run(100_000, Infinity, Infinity)).toBe(DFS_LOST);
    // ...and the solver goes on with the complete search: won, in the nodes of both.
    const complete = solver.solve(small, rules, { search: 'dfs', lockBound: false });
    expect(complete.verdict).toBe('won');
    const both = solver.solve(small, rules, { search: 'dfs', homeFirst: true, lockBound: false });
    expect([both.verdict, both.nodes]).toEqual(['won', dfs.nodes + complete.nodes]);
    expect(checkWin(small, rules, both, '2x4 3x3 deal 8')).toBeNull();
  });
});

describe('positions right after a draw', () => {
  it('are never reached twice under the draw discipline: storing them or not, the same search', () => {
    const moves = { reducedSpaces: true, drawDiscipline: true, safeMoves: true, order: 'layout', seed: 0 } as const;
    const run = (deal: Deal, rules: Rules, maxNodes: number, storeDraws: boolean) => {
      const g = new Game(deal, rules);
      const packer = new KeyPacker(g);
      const tt = new TranspositionTable(packer.words, 1 << 30, 1024);
      const dfs = new DepthFirst();
      dfs.storeDraws = storeDraws;
      dfs.begin(g, packer, tt, false, moves, null, new PileBound(g), null);
      const code = dfs.run(maxNodes, Infinity, Infinity);
      return { code, nodes: dfs.nodes, bestHome: dfs.bestHome, line: code === DFS_WON ? g.history().join(',') : '', states: tt.size };
    };
    const cases: [Deal, Rules, number][] = [];
    for (const size of ['1x6 5x3', '2x4 3x3', '1x7 3x2'])
      for (const variant of RULE_VARIANTS) for (let n = 0; n < 25; n++) cases.push([dealFromNumber(n, parseSize(size)), parseRules(variant), 100_000]);
    for (const n of [1, 9]) cases.push([dealFromNumber(n, FULL_SIZE), BOOK, 100_000]);
    for (const n of [1, 5]) cases.push([pysolDeal(n), parseRules('pysol'), 100_000]);
    let bad = 0;
    let stored = 0;
    let skipped = 0;
    for (const [deal, rules, maxNodes] of cases) {
      const a = run(deal, rules, maxNodes, false);
      const b = run(deal, rules, maxNodes, true);
      if (a.code !== b.code || a.nodes !== b.nodes || a.bestHome !== b.bestHome || a.line !== b.line) bad++;
      stored += b.states;
      skipped += a.states;
    }
    expect(bad).toBe(0);
    // The draws were there to skip: at least a tenth of the positions.
    expect(skipped).toBeLessThan(stored * 0.9);
  });
});

describe('a guide line', () => {
  it('is tried first while the path follows it: another order\'s winning line given as the guide is walked straight down, and every verdict stays', () => {
    const layout = { reducedSpaces: true, drawDiscipline: true, safeMoves: true, order: 'layout', seed: 0 } as const;
    const run = (deal: Deal, rules: Rules, guide: number[] | null, seed = 0) => {
      const g = new Game(deal, rules);
      const packer = new KeyPacker(g);
      const dfs = new DepthFirst();
      dfs.guide = guide;
      dfs.begin(g, packer, new TranspositionTable(packer.words, 1 << 30, 1024), false, { ...layout, seed }, null, new PileBound(g), null);
      const code = dfs.run(2_000_000, Infinity, Infinity);
      return { code, nodes: dfs.nodes, line: code === DFS_WON ? g.history() : [] };
    };
    let guided = 0;
    let otherLine = 0;
    for (const size of ['1x6 5x3', '2x4 3x3'])
      for (const variant of RULE_VARIANTS)
        for (let n = 0; n < 12; n++) {
          const deal = dealFromNumber(n, parseSize(size));
          const rules = parseRules(variant);
          const plain = run(deal, rules, null);
          // The win a shuffled move order finds (seed), as the guide of the plain order.
          const other = run(deal, rules, null, 7919);
          expect(other.code, `${size} ${variant} deal ${n}`).toBe(plain.code);
          // A guide that leads nowhere (a line cut short) changes the order only.
          const half = run(deal, rules, other.line.slice(0, other.line.length >> 1));
          expect(half.code).toBe(plain.code);
          if (plain.code !== DFS_WON) continue;
          const straight = run(deal, rules, other.line);
          expect(straight.line).toEqual(other.line);
          expect(straight.nodes).toBeLessThanOrEqual(other.line.length + 1);
          guided++;
          if (other.line.join() !== plain.line.join()) otherLine++;
        }
    expect(guided).toBeGreaterThan(50);
    expect(otherLine).toBeGreaterThan(20);
  });
});
