// LockBound (src/solver/lockbound.ts): cards that block one another; it never calls a deal or
// a position lost that a line wins, and the searches that ask it keep their verdicts.
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import {
  Game, type Deal, type Rules, FULL_SIZE, BOOK, GEN_ALL, MAX_MOVES, SRC_DRAW, dealFromNumber, moveSrc, parseRules, parseSize,
} from '../src/game/index.js';
import { LOCK_LOST, LOCK_OPEN, LOCK_SPACES, LockBound } from '../src/solver/lockbound.js';
import { PRESETS, Solver } from '../src/solver/index.js';
import { type Tactics } from '../src/game/tactics.js';
import { referenceSearch } from './reference.js';
import { pysolDeal } from '../src/game/pysol.js';
import { GENEROUS, TAKE_OVER_AT_ONCE, randomPlayout } from './solver-shared.js';

/** The draw among the legal moves, or -1 (the stock is empty, or an ace must go up first). */
function legalDraw(g: Game, moves: Int32Array): number {
  const c = g.generate(moves, GEN_ALL);
  for (let i = 0; i < c; i++) if (moveSrc(moves[i]!) === SRC_DRAW) return moves[i]!;
  return -1;
}

describe('LockBound', () => {
  it('never calls a position on a winning line lost (small deals of six variants, and full-size wins)', () => {
    // Every position of every solution found without the bound must pass it, the deal included.
    const solver = new Solver();
    let positions = 0;
    let wins = 0;
    const check = (deal: Deal, rules: Rules, moves: readonly number[], what: string): void => {
      const g = new Game(deal, rules);
      const bound = new LockBound(g);
      expect(bound.lost(), `${what}: the deal itself`).toBe(false);
      moves.forEach((m, i) => {
        g.apply(m);
        positions++;
        expect(bound.lost(), `${what}: after move ${i + 1}`).toBe(false);
      });
      wins++;
    };
    const variants = ['book', 'building=none', 'privileged=1', 'privileged=3', 'second-deal=none', 'second-deal=none building=none'];
    for (const sizeText of ['1x6 5x3', '2x4 3x3', '1x7 3x2']) {
      const size = parseSize(sizeText);
      for (const variant of variants) {
        const rules = parseRules(variant);
        for (let n = 0; n < 40; n++) {
          const deal = dealFromNumber(n, size);
          const r = solver.solve(deal, rules, { ...GENEROUS, lockBound: false });
          if (r.verdict === 'won') check(deal, rules, r.moves!, `${sizeText} ${variant} deal ${n}`);
        }
      }
    }
    for (const n of [1, 3, 5, 7, 8]) {
      const deal = dealFromNumber(n, FULL_SIZE);
      const r = solver.solve(deal, BOOK, { search: 'rollout', maxNodes: 300_000, lockBound: false });
      expect(r.verdict, `full-size deal ${n}`).toBe('won');
      check(deal, BOOK, r.moves!, `full-size deal ${n}`);
    }
    expect(wins).toBeGreaterThan(400);
    expect(positions).toBeGreaterThan(20_000);
  });

  it('proves full-size book deals 15, 42, 72 and 88 lost before any search; deal 72 agrees with a search without it', () => {
    // Depth-first search proves these four (the only ones it proves among deals 1-100) with
    // 1.8 M to 9.3 M nodes; the bound does it at the root.
    const solver = new Solver();
    for (const n of [15, 42, 72, 88]) {
      const r = solver.solve(dealFromNumber(n, FULL_SIZE), BOOK, { maxNodes: 1000 });
      expect(r.verdict, `deal ${n}`).toBe('unsolvable');
      expect(r.proof, `deal ${n}`).toBe('locks');
      expect(r.nodes).toBe(0);
      // And so does the default preset.
      expect(solver.solvePreset(dealFromNumber(n, FULL_SIZE), BOOK, 'portfolio', { maxNodes: 1000 }).proof).toBe('locks');
    }
    // On exact keys alone: 1,755,444 nodes. By default the search goes on signatures after
    // 65,536 states, so its exhaustion is confirmed by the same search on exact keys: twice the
    // nodes, and with one node too few for that, unknown.
    const exact = solver.solve(dealFromNumber(72, FULL_SIZE), BOOK, { search: 'dfs', maxNodes: 4_000_000, lockBound: false, signaturesAfter: Infinity });
    expect([exact.verdict, exact.proof, exact.nodes, exact.states]).toEqual(['unsolvable', 'search', 1_755_444, 528_866]);
    const confirmed = solver.confirmations;
    const plain = solver.solve(dealFromNumber(72, FULL_SIZE), BOOK, { search: 'dfs', maxNodes: 4_000_000, lockBound: false });
    expect([plain.verdict, plain.proof, plain.nodes, plain.states]).toEqual(['unsolvable', 'search', 2 * 1_755_444, 528_866]);
    expect(solver.confirmations).toBe(confirmed + 1);
    const short = solver.solve(dealFromNumber(72, FULL_SIZE), BOOK, { search: 'dfs', maxNodes: 2 * 1_755_444 - 1, lockBound: false });
    expect([short.verdict, short.limit]).toEqual(['unknown', 'nodes']);
    // Won deals are not touched: the search runs as before.
    expect(new LockBound(new Game(dealFromNumber(1, FULL_SIZE), BOOK)).check()).toBe(LOCK_SPACES);
    // Golden: the book deals of 1-300 it proves lost (a change to the bound changes this list;
    // the rollout with 4 M nodes got at most 26 cards home on any of them).
    const proved: number[] = [];
    for (let n = 1; n <= 300; n++) if (new LockBound(new Game(dealFromNumber(n, FULL_SIZE), BOOK)).lost()) proved.push(n);
    expect(proved).toEqual([15, 42, 72, 88, 101, 141, 165, 245]);
  });

  it('keptDraws: after that many draws the answer is the same, with the count one less each draw', () => {
    // Depth-first search with LockBound at every position skips the checks this allows
    // (DepthFirst.run). Along random first-deal lines of small and full-size deals, under the
    // tactics too: from each position checked, the draws it counts (when they are legal) give
    // the same answer, each with a count one less.
    const rng = seedrandom('lockbound-kept-draws');
    const moves = new Int32Array(MAX_MOVES);
    const tacticsSets: Tactics[] = [
      { pairing: 'always', spaces: 'eager' }, { pairing: 'cautious', spaces: 'hold' }, { pairing: 'always', spaces: 'never' },
    ];
    let positions = 0;
    let followed = 0;
    for (const [sizeText, rulesText, count] of [['1x7 3x2', 'book', 60], ['2x4 3x3', 'building=none', 60], ['2x13 12x3', 'book', 12]] as const) {
      const size = parseSize(sizeText);
      const rules = parseRules(rulesText);
      for (let n = 0; n < count; n++) {
        const g = new Game(dealFromNumber(n, size), rules);
        const bound = new LockBound(g);
        while (g.phase === 1) {
          for (const t of tacticsSets) {
            const answer = bound.check(t);
            const kept = bound.keptDraws;
            positions++;
            let k = 0;
            while (k < kept) {
              const m = legalDraw(g, moves);
              if (m < 0) break;
              g.apply(m);
              k++;
              followed++;
              expect([bound.check(t), bound.keptDraws], `${sizeText} ${rulesText} deal ${n}, ${k} of ${kept} draws on`).toEqual([answer, kept - k]);
            }
            for (; k > 0; k--) g.undo();
          }
          const c = g.generate(moves, GEN_ALL);
          if (c === 0) break;
          g.apply(moves[Math.floor(rng() * c)]!);
        }
      }
    }
    expect(positions).toBeGreaterThan(3000);
    expect(followed).toBeGreaterThan(3000);
  });

  it('asked at every position (lockBoundEvery), it proves book deal 988 lost where the search without it cannot', () => {
    // LockBound gives up on the deal itself (a column may be emptied), but not on most of the
    // positions the search reaches: the cards a line has committed leave L far less room.
    const solver = new Solver();
    const deal = dealFromNumber(988, FULL_SIZE);
    expect(new LockBound(new Game(deal, BOOK)).check()).toBe(LOCK_SPACES);
    const exact = solver.solve(deal, BOOK, { search: 'dfs', maxNodes: 1_000_000, lockBoundEvery: true, signaturesAfter: Infinity });
    // (Its node counts are pinned in test/signature.test.ts.)
    expect([exact.verdict, exact.proof]).toEqual(['unsolvable', 'search']);
    expect(solver.prunedLock).toBeGreaterThan(0);
    // By default the search goes on signatures after 65,536 states, so the exhaustion is
    // confirmed on exact keys: twice the nodes.
    const confirmed = solver.solve(deal, BOOK, { search: 'dfs', maxNodes: 1_000_000, lockBoundEvery: true });
    expect([confirmed.verdict, confirmed.proof, confirmed.nodes]).toEqual(['unsolvable', 'search', 2 * exact.nodes]);
    // The prove preset asks it at every position, on exact keys, in the relaxed game of the fifth
    // card with waste dominance (test/dominance.test.ts) and pile nogoods (test/nogoods.test.ts),
    // where the proof takes no more nodes.
    const prove = solver.solvePreset(deal, BOOK, 'prove');
    const relaxed = solver.solve(deal, BOOK, {
      search: 'dfs', maxNodes: 1_000_000, lockBoundEvery: true, signaturesAfter: Infinity, freeFifth: true, wasteDominance: true, pileNogoods: true,
    });
    expect([prove.verdict, prove.proof, prove.nodes, prove.states]).toEqual(['unsolvable', 'search', relaxed.nodes, relaxed.states]);
    expect(relaxed.nodes).toBeLessThanOrEqual(exact.nodes);
    // The same budget without it is not enough (the search needs more than 15 M nodes).
    const plain = solver.solve(deal, BOOK, { search: 'dfs', maxNodes: 2 * exact.nodes });
    expect([plain.verdict, plain.limit, solver.prunedLock]).toEqual(['unknown', 'nodes', 0]);
  });

  it('the portfolio hands a deal that looks lost to depth-first search with it at every position', () => {
    // Deal 988: after 500,000 rollout nodes no search has got more than 20 cards home, so the
    // portfolio's prover (exact keys, LockBound at every position) runs on the rest of the
    // budget and proves the deal lost in the 327,417 nodes it takes alone (the test above).
    const solver = new Solver();
    const deal = dealFromNumber(988, FULL_SIZE);
    const took = solver.takeovers;
    const r = solver.solvePreset(deal, BOOK, 'portfolio', { maxNodes: 2_000_000 });
    expect([r.verdict, r.proof, solver.takeovers]).toEqual(['unsolvable', 'search', took + 1]);
    // The stages' nodes before it (the rollout's 500,000 and more, with the other stages'
    // shares beside them), then the prover's, as many as it takes alone.
    const alone = solver.solvePreset(deal, BOOK, 'prove');
    expect(r.nodes - alone.nodes).toBeGreaterThan(500_000);
    expect(r.nodes).toBeLessThanOrEqual(2_000_000);
    // Deterministic, and within the budget.
    expect(solver.solvePreset(deal, BOOK, 'portfolio', { maxNodes: 2_000_000 }).nodes).toBe(r.nodes);
    // Without the prover the stages cannot prove it with the same budget.
    const plain = solver.solvePreset(deal, BOOK, { ...PRESETS.portfolio!, looksLost: undefined }, { maxNodes: 2_000_000 });
    expect([plain.verdict, plain.limit, solver.takeovers]).toEqual(['unknown', 'nodes', took + 2]);
    // Under pysol LockBound does not apply, so the prover never takes over: with it set to take
    // over at once, the preset runs as without it.
    const game = pysolDeal(1);
    const PYSOL = parseRules('pysol');
    const a = solver.solvePreset(game, PYSOL, TAKE_OVER_AT_ONCE, { maxNodes: 20_000 });
    const b = solver.solvePreset(game, PYSOL, { ...PRESETS.portfolio!, looksLost: undefined }, { maxNodes: 20_000 });
    expect([a.verdict, a.nodes, solver.takeovers]).toEqual([b.verdict, b.nodes, took + 2]);
  });

  it('under tactics (a smaller game) it stays sound and proves more: restricted searches agree with it on and off', () => {
    // Pairing never / cautious and spaces never / hold restrict the player's moves, and the
    // bound reads them (no target, top-row targets only, no space ever, no space in the first
    // deal). Every position of a restricted winning line must pass it, and the restricted
    // complete search must give the same verdict with it as without it.
    const restrictions: Tactics[] = [
      { pairing: 'never', spaces: 'eager' }, { pairing: 'cautious', spaces: 'eager' }, { pairing: 'always', spaces: 'hold' },
      { pairing: 'always', spaces: 'never' }, { pairing: 'cautious', spaces: 'hold' }, { pairing: 'never', spaces: 'never' },
    ];
    const solver = new Solver();
    let positions = 0;
    let byLocks = 0;
    let unsolvable = 0;
    for (const sizeText of ['1x6 5x3', '2x4 3x3']) {
      const size = parseSize(sizeText);
      for (const variant of ['book', 'building=none', 'privileged=1', 'second-deal=none']) {
        const rules = parseRules(variant);
        for (const tactics of restrictions) {
          for (let n = 0; n < 25; n++) {
            const what = `${sizeText} ${variant} ${tactics.pairing}/${tactics.spaces} deal ${n}`;
            const deal = dealFromNumber(n, size);
            const plain = solver.solve(deal, rules, { ...GENEROUS, tactics, lockBound: false });
            const withLocks = solver.solve(deal, rules, { ...GENEROUS, tactics });
            expect(withLocks.verdict, what).toBe(plain.verdict);
            if (withLocks.proof === 'locks') byLocks++;
            if (plain.verdict === 'unsolvable') unsolvable++;
            if (plain.verdict !== 'won') continue;
            const g = new Game(deal, rules);
            const bound = new LockBound(g);
            plain.moves!.forEach((m, i) => {
              g.apply(m);
              positions++;
              expect(bound.check(tactics), `${what}: after move ${i + 1}`).not.toBe(LOCK_LOST);
            });
          }
        }
      }
    }
    expect(positions).toBeGreaterThan(10_000);
    expect(byLocks).toBeGreaterThan(unsolvable / 2);
    // Full size: spaces never proves most deals lost at once; the free game does not.
    let never = 0;
    for (let n = 1; n <= 20; n++) if (new LockBound(new Game(dealFromNumber(n, FULL_SIZE), BOOK)).lost({ pairing: 'always', spaces: 'never' })) never++;
    expect(never).toBeGreaterThan(5);
    expect(new LockBound(new Game(dealFromNumber(1, FULL_SIZE), BOOK)).lost()).toBe(false);
  });

  it('gives up while a column is empty, plays a card placed in a space as a column, and is off under building=suit', () => {
    // Random playouts on a small deck: never lost while a column is empty; once every space
    // has been filled, the check goes on (and proves some of those positions lost).
    const size = parseSize('1x6 5x3');
    let spaces = 0;
    let filled = 0;
    let filledLost = 0;
    for (let n = 0; n < 40; n++) {
      const g = new Game(dealFromNumber(n, size), BOOK);
      const bound = new LockBound(g);
      randomPlayout(g, n + 1, 200, (m) => {
        g.apply(m);
        let empty = false;
        let placed = false;
        for (let c = 0; c < g.columns; c++) {
          if (g.orig[c] === 0 && g.len[c] === 0) empty = true;
          if (g.orig[c] === 0 && g.len[c]! > 0) placed = true;
        }
        if (empty) {
          spaces++;
          expect(bound.check(), `deal ${n}`).toBe(LOCK_SPACES);
        } else if (placed) {
          filled++;
          if (bound.check() === LOCK_LOST) {
            // Proved lost: the exhaustive reference search from here agrees.
            filledLost++;
            expect(referenceSearch(g).won, `deal ${n}`).toBe(false);
          }
        }
      });
    }
    expect(spaces).toBeGreaterThan(100);
    expect(filled).toBeGreaterThan(100);
    expect(filledLost).toBeGreaterThan(0);
    const suit = new LockBound(new Game(dealFromNumber(15, FULL_SIZE), parseRules('building=suit')));
    expect(suit.enabled).toBe(false);
    expect(suit.check()).toBe(LOCK_OPEN);
  });
});
