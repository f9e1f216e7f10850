// WasteBound (src/solver/wastebound.ts): it never calls a position lost that a line wins.
import { describe, expect, it } from 'vitest';
import { Game, dealFromNumber, parseRules, parseSize } from '../src/game/index.js';
import { WasteBound } from '../src/solver/wastebound.js';
import { Solver } from '../src/solver/index.js';
import { referenceSolve } from './reference.js';
import { GENEROUS, NO_SECOND_DEAL } from './solver-shared.js';

describe('WasteBound', () => {
  it('never calls a position on a winning line lost (three buildings, 600 small deals)', () => {
    // A bound that cut a position from which the solution goes on to win would be unsound;
    // every position of every solution found without the bound must pass it.
    const size = parseSize('1x7 3x2');
    const solver = new Solver();
    let positions = 0;
    let wins = 0;
    for (const variant of NO_SECOND_DEAL) {
      const rules = parseRules(variant);
      for (let n = 0; n < 200; n++) {
        const deal = dealFromNumber(n, size);
        const r = solver.solve(deal, rules, { ...GENEROUS, wasteBound: false });
        if (r.verdict !== 'won') continue;
        wins++;
        const g = new Game(deal, rules);
        const bound = new WasteBound(g);
        expect(bound.lost(), `deal ${n} ${variant}: the deal itself`).toBe(false);
        r.moves!.forEach((m, i) => {
          g.apply(m);
          positions++;
          expect(bound.lost(), `deal ${n} ${variant}: after move ${i + 1}`).toBe(false);
        });
      }
    }
    expect(wins).toBeGreaterThan(100);
    expect(positions).toBeGreaterThan(2000);
  });

  it('proves a hopeless waste lost, and is off under the second deal', () => {
    // 1x6 2x2, no second deal, building=none: find a deal the reference calls unsolvable on
    // which the bound fires at the first draw that leaves a blocked waste.
    const size = parseSize('1x6 2x2');
    const rules = parseRules('second-deal=none building=none');
    const solver = new Solver();
    let fired = 0;
    for (let n = 0; n < 60; n++) {
      const deal = dealFromNumber(n, size);
      const r = solver.solve(deal, rules, { ...GENEROUS, wasteBound: true });
      if (solver.prunedWaste > 0) {
        fired++;
        expect(r.verdict, `deal ${n}`).toBe(referenceSolve(deal, rules).verdict);
      }
    }
    expect(fired).toBeGreaterThan(10);
    expect(new WasteBound(new Game(dealFromNumber(0, size), parseRules('building=none'))).enabled).toBe(false);
  });
});
