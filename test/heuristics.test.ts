// The heuristics' scores (src/solver/heuristics.ts): what each one weighs.
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { Game, FULL_SIZE, BOOK, GEN_ALL, MAX_MOVES, SRC_DRAW, dealFromNumber, parseRules, parseSize } from '../src/game/index.js';
import { ChildScores, HEURISTICS, blocked, dealtLeft, spaces, waiting } from '../src/solver/heuristics.js';
import { Solver } from '../src/solver/index.js';
import { RULE_VARIANTS, deal as dealOf, playMoves } from './helpers.js';
import { pysolDeal } from '../src/game/pysol.js';
import { DST_FOUNDATION, SRC_FIFTH, SRC_WASTE } from '../src/game/state.js';

describe('heuristic scores', () => {
  it('wasteStack weighs a card waiting in the waste 5, wasteDealt 2, a card home 4 in both', () => {
    // Under pysol (no second deal): draw cards that go nowhere, and play one home.
    const g = new Game(pysolDeal(5), parseRules('pysol'));
    const moves = new Int32Array(MAX_MOVES);
    const { wasteStack, wasteDealt } = HEURISTICS as Record<string, (g: Game) => number>;
    let draws = 0;
    let homes = 0;
    for (let step = 0; step < 60 && (draws < 5 || homes < 1); step++) {
      const n = g.generate(moves);
      const before = [wasteStack!(g), wasteDealt!(g), g.home, g.wasteLen];
      // A move of the waste top home, else a draw, else (a free ace in the layout) the first move.
      let m = -1;
      for (let i = 0; i < n; i++) if ((moves[i]! & 63) === SRC_WASTE && ((moves[i]! >> 6) & 63) === DST_FOUNDATION) m = moves[i]!;
      if (m < 0) for (let i = 0; i < n; i++) if ((moves[i]! & 63) === SRC_DRAW) m = moves[i]!;
      if (m < 0 && n > 0) {
        g.apply(moves[0]!);
        continue;
      }
      if (m < 0) break;
      g.apply(m);
      if ((m & 63) === SRC_DRAW) {
        draws++;
        expect([wasteStack!(g) - before[0]!, wasteDealt!(g) - before[1]!], `draw ${step}`).toEqual([-5, -2]);
      } else {
        homes++;
        expect([g.home - before[2]!, g.wasteLen - before[3]!]).toEqual([1, -1]);
        // One card home (+4) and one fewer waiting; nothing else changes.
        expect([wasteStack!(g) - before[0]!, wasteDealt!(g) - before[1]!], `home ${step}`).toEqual([9, 6]);
      }
    }
    expect([draws >= 5, homes >= 1]).toEqual([true, true]);
  });

  it('buried counts the cards that lie above a lower card of their own suit, not those under one', () => {
    // Columns from the top row (deepest) to the exposed card:
    // c1 AS 5S 3S: 5S and 3S lie above AS (2); c2 5H AH 3H: 3H above AH (1);
    // c3 2D 4D 5D: 4D and 5D above 2D (2); c4 3C 2C AC, built down: none.
    const d = dealOf('1x5 4x3', ['AS 5H 2D 3C', '5S AH 4D 2C', '3S 3H 5D AC'], '2S 4S 2H 4H 3D AD 4C 5C');
    const g = new Game(d, BOOK);
    expect(g.home).toBe(0);
    expect(blocked(g)).toBe(5);
    expect(HEURISTICS.buried!(g)).toBe(-15);
    // AC home: c4 is 3C 2C, still no block; the others unchanged.
    playMoves(g, ['c4>f AC']);
    expect([g.home, blocked(g), HEURISTICS.buried!(g)]).toEqual([1, 5, 4 - 15]);
  });

  it('blocked agrees with a plain pairwise count along random games', () => {
    // The cards with a lower card of their suit deeper in the column (j < i: the blocked ones),
    // or, to show that the test tells the two apart, nearer the top (j > i).
    const plain = (g: Game, deeper: boolean): number => {
      let n = 0;
      for (let c = 0; c < g.columns; c++) {
        const l = g.len[c]!;
        for (let i = 0; i < l; i++) {
          const x = g.cols[c * g.height + i]!;
          for (let j = 0; j < l; j++) {
            const y = g.cols[c * g.height + j]!;
            if ((deeper ? j < i : j > i) && y >> 4 === x >> 4 && (y & 15) < (x & 15)) {
              n++;
              break;
            }
          }
        }
      }
      return n;
    };
    const rng = seedrandom('blocked');
    const moves = new Int32Array(MAX_MOVES);
    let positions = 0;
    let differ = 0;
    for (const [deal, rules] of [[pysolDeal(3), parseRules('pysol')], [dealFromNumber(4, FULL_SIZE), BOOK]] as const) {
      for (let run = 0; run < 5; run++) {
        const g = new Game(deal, rules);
        for (let step = 0; step < 300; step++) {
          const b = blocked(g);
          expect(b, `step ${step}`).toBe(plain(g, true));
          if (b !== plain(g, false)) differ++;
          positions++;
          const n = g.generate(moves, GEN_ALL);
          if (n === 0) break;
          g.apply(moves[Math.floor(rng() * n)]!);
        }
      }
    }
    expect(positions).toBeGreaterThan(1000);
    expect(differ, 'positions where the two counts differ').toBeGreaterThan(500);
  });

  it("ChildScores: each child's score is the heuristic's own value, its blocked count kept or counted, along random games", () => {
    const rng = seedrandom('child-scores');
    const moves = new Int32Array(MAX_MOVES);
    const scores = new ChildScores();
    const names = Object.keys(HEURISTICS);
    let children = 0;
    let changed = 0;
    let scoredBefore = 0;
    const sources = new Set<string>();
    const cases = [
      [pysolDeal(3), parseRules('pysol')],
      [dealFromNumber(4, FULL_SIZE), BOOK],
      ...RULE_VARIANTS.map((v) => [dealFromNumber(7, parseSize('1x6 5x3')), parseRules(v)] as const),
    ] as const;
    for (const [deal, rules] of cases) {
      const g = new Game(deal, rules);
      for (let step = 0; step < 250; step++) {
        const n = g.generate(moves, GEN_ALL);
        if (n === 0) break;
        const b = blocked(g);
        for (const name of names) {
          const h = HEURISTICS[name]!;
          const w = h.weights!;
          // The weights are the function's: the weighted sum of the features is its value.
          expect(w.home * g.home + w.blocked * b + w.spaces * spaces(g) + w.dealtLeft * dealtLeft(g) + w.waiting * waiting(g), name).toBe(h(g));
          // Half the time the parent's count is given (as beam search keeps it), else counted.
          scores.parent(g, h, step % 2 === 0 ? b : -1);
          expect(scores.direct).toBe(true);
          for (let i = 0; i < n; i++) {
            const m = moves[i]!;
            const src = m & 63;
            // A card's move is scored before it is played as well (beam and best-first search do).
            let before = Number.NaN;
            let beforeHome = -1;
            let beforeBlocked = -1;
            if (src < SRC_DRAW) {
              before = scores.before(g, h, m);
              beforeHome = scores.home;
              beforeBlocked = scores.blocked;
              sources.add(src < SRC_WASTE ? 'column' : src === SRC_WASTE ? 'waste' : src === SRC_FIFTH ? 'fifth' : 'privileged');
              const dst = (m >> 6) & 63;
              if (dst === DST_FOUNDATION) sources.add('to foundation');
              else if (g.len[dst] === 0) sources.add('to space');
              else sources.add('to column');
              if (src < SRC_WASTE && g.len[src] === 1) sources.add('empties');
            }
            g.apply(m);
            const v = scores.child(g, h, m);
            expect(v, `${name} step ${step} move ${i}`).toBe(h(g));
            if (src < SRC_DRAW) {
              expect(before, `${name} step ${step} move ${i}, scored before`).toBe(v);
              expect(beforeHome).toBe(g.home);
              expect(beforeBlocked).toBe(w.blocked !== 0 ? blocked(g) : 0);
              scoredBefore++;
            }
            if (w.blocked !== 0) {
              expect(scores.blocked).toBe(blocked(g));
              if (scores.blocked !== b) changed++;
            }
            children++;
            g.undo();
          }
        }
        g.apply(moves[Math.floor(rng() * n)]!);
      }
    }
    expect(children).toBeGreaterThan(20_000);
    expect(changed, "children whose blocked count is not their parent's").toBeGreaterThan(500);
    expect(scoredBefore).toBeGreaterThan(10_000);
    expect([...sources].sort()).toEqual(['column', 'empties', 'fifth', 'privileged', 'to column', 'to foundation', 'to space', 'waste']);
    // A heuristic without weights (a user's) is called as it is.
    const g = new Game(pysolDeal(3), parseRules('pysol'));
    const own = (x: Game): number => 7 * x.home - x.wasteLen;
    g.generate(moves, GEN_ALL);
    g.apply(moves[0]!);
    // A built-in one first, so that the count left behind is not 0.
    scores.parent(g, HEURISTICS.buried!, 7);
    scores.child(g, HEURISTICS.buried!, moves[0]!);
    expect(scores.blocked).toBeGreaterThan(0);
    scores.parent(g, own, -1);
    expect(scores.direct).toBe(false);
    expect(scores.child(g, own, moves[0]!)).toBe(own(g));
    expect(scores.blocked).toBe(0);
  });

  it('fractional, huge and NaN scores cannot corrupt best-first search', () => {
    const size = parseSize('1x5 4x3');
    const rules = parseRules('book');
    const solver = new Solver();
    const odd = [(g: Game) => g.home + 0.75, (g: Game) => g.home * 1e12, () => Number.NaN, (g: Game) => -g.home * 1e15];
    for (let d = 0; d < 30; d++) {
      const deal = dealFromNumber(d, size);
      const want = solver.solve(deal, rules, { search: 'dfs' }).verdict;
      for (const h of odd) {
        const r = solver.solve(deal, rules, { search: 'best', heuristic: h });
        expect(r.verdict, `deal ${d}`).toBe(want);
      }
    }
  });
});
