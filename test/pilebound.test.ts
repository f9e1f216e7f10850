// PileBound (src/solver/bound.ts): it never calls a second-deal position lost that a line wins.
import { describe, expect, it } from 'vitest';
import { Game, FULL_SIZE, BOOK, GEN_REDUCED, MAX_MOVES, dealFromNumber, parseRules, parseSize } from '../src/game/index.js';
import { PileBound } from '../src/solver/bound.js';
import { Solver } from '../src/solver/index.js';
import { GENEROUS, randomPlayout } from './solver-shared.js';

describe('PileBound', () => {
  it('never calls a position on a winning line lost (600 small deals)', () => {
    // Every position of every solution found without the bound must pass it.
    const solver = new Solver();
    let secondDeal = 0;
    for (const [sizeText, variant] of [['1x6 2x2', 'book'], ['1x7 3x2', 'book'], ['1x7 3x2', 'building=none']] as const) {
      const size = parseSize(sizeText);
      const rules = parseRules(variant);
      for (let n = 0; n < 200; n++) {
        const deal = dealFromNumber(n, size);
        const r = solver.solve(deal, rules, { ...GENEROUS, pileBound: false });
        if (r.verdict !== 'won') continue;
        const g = new Game(deal, rules);
        const bound = new PileBound(g);
        r.moves!.forEach((m, i) => {
          g.apply(m);
          if (g.phase === 2) secondDeal++;
          expect(bound.lost(), `${sizeText} ${variant} deal ${n}: after move ${i + 1}`).toBe(false);
        });
      }
    }
    expect(secondDeal).toBeGreaterThan(1000);
  });

  it('mayChange: a move it calls harmless never turns "not lost" into "lost" (random playouts)', () => {
    // The searches ask the bound only after moves for which mayChange(m) is true. So for every
    // move m with mayChange(m) false, a position that passes the bound must give a position
    // that passes it too. Random legal playouts (seeded) on decks that reach the second deal.
    let harmless = 0;
    let fired = 0;
    for (const [sizeText, variant, deals] of [
      ['1x6 5x3', 'book', 150], ['1x7 4x3', 'privileged=1', 150], ['2x5 5x3', 'privileged=2', 150], ['2x13 12x3', 'book', 40],
    ] as const) {
      const rules = parseRules(variant);
      for (let n = 0; n < deals; n++) {
        const deal = dealFromNumber(n, parseSize(sizeText));
        for (let play = 0; play < 10; play++) {
          const g = new Game(deal, rules);
          const bound = new PileBound(g);
          randomPlayout(g, n * 7919 + play * 104729 + 1, 400, (m, step) => {
            const before = bound.lost();
            g.apply(m);
            const after = bound.lost();
            if (after && !before) fired++;
            if (!before && !bound.mayChange(m)) {
              harmless++;
              expect(after, `${sizeText} ${variant} deal ${n} playout ${play} step ${step}`).toBe(false);
            }
          });
        }
      }
    }
    expect(harmless).toBeGreaterThan(10_000);
    // The bound does fire after other moves, so the test can see a difference.
    expect(fired).toBeGreaterThan(100);
  });

  it('stopEarly: stopping when the rest of the pile fits gives the answers of the whole walk (random playouts)', () => {
    // Small decks with one privileged card, where R runs short of room near the end of the
    // pile, and full-size book deals. (An exit three cards too early already gives other
    // answers on the first deck; at full size R overflows long before the pile's end.)
    let asked = 0;
    let lost = 0;
    for (const [sizeText, variant, deals] of [
      ['1x7 2x2', 'privileged=1', 400], ['1x8 3x2', 'privileged=1', 400], ['2x13 12x3', 'book', 100],
    ] as const) {
      const rules = parseRules(variant);
      for (let n = 0; n < deals; n++) {
        const g = new Game(dealFromNumber(n, parseSize(sizeText)), rules);
        const quick = new PileBound(g);
        const whole = new PileBound(g);
        whole.stopEarly = false;
        for (let play = 0; play < 10; play++) {
          g.reset();
          randomPlayout(g, n * 7919 + play * 104729 + 3, 600, (m, step) => {
            g.apply(m);
            if (g.phase !== 2) return;
            const a = quick.lost();
            const b = whole.lost();
            if (a !== b) expect(a, `${sizeText} ${variant} deal ${n} playout ${play} step ${step}`).toBe(b);
            asked++;
            if (b) lost++;
          });
        }
      }
    }
    expect(asked).toBeGreaterThan(25_000);
    expect(lost, 'positions proven lost').toBeGreaterThan(12_000);
  });

  it('restock: after the stock cards change (the sampling player), mayChange answers as a fresh bound does', () => {
    const rules = BOOK;
    let differs = 0;
    for (let n = 0; n < 30; n++) {
      const g = new Game(dealFromNumber(n, FULL_SIZE), rules);
      const bound = new PileBound(g);
      const stale = new PileBound(g);
      // Another stock order, as a sampling player's guess: reversed.
      g.stockCards.set(Uint8Array.from(g.stockCards).reverse());
      bound.restock();
      const fresh = new PileBound(g);
      const moves = new Int32Array(MAX_MOVES);
      for (let step = 0; step < 150; step++) {
        const k = g.generate(moves, GEN_REDUCED);
        if (k === 0) break;
        for (let i = 0; i < k; i++) {
          expect(bound.mayChange(moves[i]!), `deal ${n} step ${step}`).toBe(fresh.mayChange(moves[i]!));
          if (stale.mayChange(moves[i]!) !== fresh.mayChange(moves[i]!)) differs++;
        }
        g.apply(moves[(step * 7) % k]!);
      }
    }
    // Without restock the answers would differ: the test can tell.
    expect(differs).toBeGreaterThan(0);
  });
});
