// The look-ahead the rollout runs from each candidate (src/solver/lookahead.ts): a won line that
// replays, the most of its measure over every position the game can reach, and PileBound asked
// at its root only.
import { describe, expect, it } from 'vitest';
import { Game, GEN_ALL, MAX_MOVES, dealFromNumber, parseRules, parseSize, verifyMoves } from '../src/game/index.js';
import { spaces, waiting } from '../src/solver/heuristics.js';
import { PileBound } from '../src/solver/bound.js';
import { KeyPacker } from '../src/solver/key.js';
import { LOOK_LOST, LOOK_UNKNOWN, LOOK_WON, Lookahead } from '../src/solver/lookahead.js';
import { randomPlayout } from './solver-shared.js';

/**
 * Every position reachable from `g`'s (a plain walk over every legal move, by snapshot): the
 * most cards home, for each pair of weights [w, s] the most of `home - w * waiting + s * spaces`,
 * and whether a win is among them.
 */
function reachable(g: Game, weights: readonly (readonly [number, number])[]): { home: number; value: number[]; won: boolean } {
  const seen = new Set<string>();
  let home = 0;
  const value = weights.map(() => -Infinity);
  let won = false;
  const visit = (): void => {
    const snap = g.snapshot();
    if (seen.has(snap)) return;
    seen.add(snap);
    home = Math.max(home, g.home);
    for (let i = 0; i < weights.length; i++) {
      const [w, s] = weights[i]!;
      value[i] = Math.max(value[i]!, g.home - w * waiting(g) + s * spaces(g));
    }
    if (g.isWon()) won = true;
    const moves = new Int32Array(MAX_MOVES);
    const k = g.generate(moves, GEN_ALL);
    for (let i = 0; i < k; i++) {
      g.apply(moves[i]!);
      visit();
      g.undo();
    }
  };
  visit();
  return { home, value, won };
}

describe('Lookahead', () => {
  it('a won look-ahead hands back its line, which wins from where it started; the game is left as it was', () => {
    // From positions part-way through random legal playouts (seeded), on decks small enough
    // that the look-ahead often wins: its winLine, played from that position, must win, and
    // the search must leave the game exactly where it was.
    let wins = 0;
    let others = 0;
    const look = new Lookahead();
    for (const [sizeText, variant] of [['1x6 5x3', 'book'], ['1x5 4x3', 'building=suit'], ['1x7 3x2', 'second-deal=none']] as const) {
      const rules = parseRules(variant);
      for (let n = 0; n < 60; n++) {
        const deal = dealFromNumber(n, parseSize(sizeText));
        const g = new Game(deal, rules);
        const packer = new KeyPacker(g);
        const bound = new PileBound(g);
        randomPlayout(g, n * 7919 + 1, 12, (m) => g.apply(m));
        const before = g.history();
        const r = look.search(g, packer, bound, false, 5_000, null, n);
        expect(g.history(), `${sizeText} ${variant} deal ${n}`).toEqual(before);
        if (r !== LOOK_WON) {
          expect(look.winLine).toEqual([]);
          others++;
          continue;
        }
        wins++;
        const v = verifyMoves(deal, rules, [...before, ...look.winLine]);
        expect(v.won, `${sizeText} ${variant} deal ${n}: ${v.error?.reason ?? 'stops short'}`).toBe(true);
      }
    }
    expect(wins).toBeGreaterThan(30);
    expect(others).toBeGreaterThan(5);
  });

  it('waitWeight w, spaceWeight s: bestValue is the most of home - w * waiting + s * spaces over every position the game can reach', () => {
    // On lost small deals with no second deal (no PileBound) an exhausted look-ahead has seen a
    // position of each value the game can reach: its reductions (draw discipline, first space
    // only, no lone card into a space) only reorder moves or swap columns, which leaves home,
    // waiting and spaces as they are. The reference is a plain walk over every legal move.
    const look = new Lookahead();
    // [0, 0]: bestValue is bestHome.
    const weights = [[0, 0], [1, 0], [3, 0], [1, 1], [0, 2]] as const;
    let compared = 0;
    let won = 0;
    for (const sizeText of ['1x4 3x3', '1x3 3x3']) {
      for (const variant of ['second-deal=none', 'second-deal=none building=suit', 'second-deal=none building=none']) {
        const rules = parseRules(variant);
        for (let n = 0; n < 30; n++) {
          const what = `${sizeText} ${variant} deal ${n}`;
          const g = new Game(dealFromNumber(n, parseSize(sizeText)), rules);
          const packer = new KeyPacker(g);
          const all = reachable(g, weights);
          for (let i = 0; i < weights.length; i++) {
            [look.waitWeight, look.spaceWeight] = weights[i]!;
            const r = look.search(g, packer, null, false, 1_000_000, null, 0);
            if (all.won) {
              expect(r, what).toBe(LOOK_WON);
              won++;
              continue;
            }
            expect(r, what).toBe(LOOK_LOST);
            expect([look.bestValue, look.bestHome], `${what} w ${weights[i]}`).toEqual([all.value[i], all.home]);
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(150);
    expect(won).toBeGreaterThan(150);
    look.waitWeight = 0;
    look.spaceWeight = 0;
  });

  it('with pruneInside false (the rollout) it asks PileBound at its root only: the same answers, never fewer nodes, more where the bound cuts inside', () => {
    // PileBound is sound, so cutting inside changes no exhausted answer, and with the same move
    // order the search without the cuts visits every position the search with them does.
    let compared = 0;
    let more = 0;
    let rootLost = 0;
    const inner = new Lookahead();
    const outer = new Lookahead();
    for (const sizeText of ['1x7 3x2', '1x6 5x3']) {
      const rules = parseRules('book');
      for (let n = 0; n < 250; n++) {
        const g = new Game(dealFromNumber(n, parseSize(sizeText)), rules);
        const packer = new KeyPacker(g);
        const bound = new PileBound(g);
        randomPlayout(g, n * 104_729 + 3, 6, (m) => g.apply(m));
        const a = inner.search(g, packer, bound, false, 200_000, null, 0, true);
        const b = outer.search(g, packer, bound, false, 200_000, null, 0, false);
        if (bound.lost()) {
          rootLost++;
          expect([a, b, inner.nodes, outer.nodes]).toEqual([LOOK_LOST, LOOK_LOST, 1, 1]);
          continue;
        }
        if (a === LOOK_UNKNOWN || b === LOOK_UNKNOWN) continue;
        compared++;
        expect(b, `${sizeText} deal ${n}`).toBe(a);
        expect(outer.nodes, `${sizeText} deal ${n}`).toBeGreaterThanOrEqual(inner.nodes);
        if (outer.nodes > inner.nodes) more++;
      }
    }
    expect(compared).toBeGreaterThan(300);
    expect(more, 'the bound cuts inside some look-aheads').toBeGreaterThan(10);
    expect(rootLost + compared).toBeGreaterThan(300);
  });
});
