// Budgets: a search that runs out of nodes, time or memory answers unknown with the limit that
// ran out, never unsolvable.
import { describe, expect, it } from 'vitest';
import { FULL_SIZE, BOOK, dealFromNumber, parseRules, parseSize } from '../src/game/index.js';
import { Solver } from '../src/solver/index.js';
import { GENEROUS } from './solver-shared.js';

describe('budgets', () => {
  const full1 = dealFromNumber(1, FULL_SIZE);

  it('maxNodes: 10 on a full-size book deal gives unknown (nodes)', () => {
    for (const search of ['dfs', 'best'] as const) {
      const r = new Solver().solve(full1, BOOK, { search, maxNodes: 10 });
      expect(r.verdict, search).toBe('unknown');
      expect(r.limit, search).toBe('nodes');
      expect(r.nodes, search).toBeLessThanOrEqual(10);
      expect(r.moves, search).toBeNull();
    }
  });

  it('a tiny maxMemoryMB gives unknown (memory)', () => {
    // Deal 1 is not decided within 100,000 nodes by either search, so the table must grow
    // past its first allocation (16,384 states) and cannot.
    const deal = full1;
    for (const search of ['dfs', 'best'] as const) {
      const r = new Solver().solve(deal, BOOK, { search, maxMemoryMB: 0.01, maxNodes: 10_000_000 });
      expect(r.verdict, search).toBe('unknown');
      expect(r.limit, search).toBe('memory');
      expect(r.moves, search).toBeNull();
    }
  });

  it('the states stored times bytesPerState never exceed maxMemoryMB, for every search and the portfolio', () => {
    // The tables are sized within the cap and grow only as far as it allows. Before: deal 9,
    // depth-first at 1 MB, stopped at 49,152 states of 25.3 bytes (1.19 MB; its first table
    // took 1.19 MB), and best-first at 0.3 MB counted a page of its tree the cap had refused.
    // Deal 9 is not decided in 300,000 nodes, so the searches run into the cap or the nodes.
    const solver = new Solver();
    const deal = dealFromNumber(9, FULL_SIZE);
    const limits: string[] = [];
    for (const mb of [0.0001, 0.001, 0.01, 0.3, 1]) {
      for (const search of ['dfs', 'best', 'rollout', 'portfolio'] as const) {
        const o = { maxMemoryMB: mb, maxNodes: 300_000 };
        const r = search === 'portfolio' ? solver.solvePreset(deal, BOOK, 'portfolio', o) : solver.solve(deal, BOOK, { ...o, search });
        const what = `${search} at ${mb} MB: ${r.states} states of ${r.bytesPerState} bytes`;
        expect(r.states * r.bytesPerState, what).toBeLessThanOrEqual(mb * 2 ** 20);
        expect(r.verdict, what).toBe('unknown');
        limits.push(`${search} ${mb} ${r.limit}`);
      }
    }
    // A cap below every table's smallest size stops each search at once; depth-first search
    // fills 1 MB to the last key it has room for.
    for (const search of ['dfs', 'best', 'rollout', 'portfolio']) expect(limits).toContain(`${search} 0.0001 memory`);
    const dfs = solver.solve(deal, BOOK, { search: 'dfs', maxMemoryMB: 1, maxNodes: 300_000 });
    expect([dfs.limit, dfs.states * dfs.bytesPerState]).toEqual(['memory', 2 ** 20 - 12]);
  });

  it('maxSeconds: 0 gives unknown (time)', () => {
    const r = new Solver().solve(full1, BOOK, { maxSeconds: 0, maxNodes: 10_000_000 });
    expect(r.verdict).toBe('unknown');
    expect(r.limit).toBe('time');
  });

  it('a search cut short is never unsolvable', () => {
    // For each deal, every node budget below what the full search takes must give unknown
    // (nodes) or won, never unsolvable; unsolvable deals must give unknown. A budget is a hard
    // cap, and exactly the full search's count lets it finish.
    const size = parseSize('1x5 4x3');
    const solver = new Solver();
    let cuts = 0;
    for (const variant of ['book', 'privileged=1', 'building=suit']) {
      const rules = parseRules(variant);
      for (let n = 0; n < 12; n++) {
        const deal = dealFromNumber(n, size);
        for (const search of ['dfs', 'best'] as const) {
          const fullRun = solver.solve(deal, rules, { search, ...GENEROUS });
          expect(fullRun.verdict).not.toBe('unknown');
          const budgets = new Set<number>([1, 2, 3, 5, 8, 13, Math.floor(fullRun.nodes / 2), fullRun.nodes - 1, fullRun.nodes]);
          for (const maxNodes of budgets) {
            if (maxNodes < 1 || maxNodes > fullRun.nodes) continue;
            const r = solver.solve(deal, rules, { search, maxNodes });
            const what = `${variant} deal ${n} ${search} maxNodes ${maxNodes} (full search ${fullRun.nodes} nodes, ${fullRun.verdict})`;
            expect(r.nodes, what).toBeLessThanOrEqual(maxNodes);
            if (maxNodes === fullRun.nodes) {
              // A budget of exactly what the full search takes lets it finish.
              expect(r.verdict, what).toBe(fullRun.verdict);
              continue;
            }
            expect(r.verdict, what).not.toBe('unsolvable');
            if (r.verdict === 'unknown') {
              expect(r.limit, what).toBe('nodes');
              cuts++;
            } else expect(fullRun.verdict, what).toBe('won');
            if (fullRun.verdict === 'unsolvable' && maxNodes < fullRun.nodes) expect(r.verdict, what).toBe('unknown');
          }
        }
      }
    }
    expect(cuts).toBeGreaterThan(100);
  });
});
