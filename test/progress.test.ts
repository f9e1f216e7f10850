// Progress reports of a solve (Solver.onProgress, solveWith): watching a search does not change it.
import { describe, expect, it } from 'vitest';
import { BOOK, PYSOL, dealFromNumber, parseRules, parseSize, pysolDeal } from '../src/game/index.js';
import { type Progress, Solver } from '../src/solver/search.js';
import { solveWith } from '../src/cli/solver-api.js';

describe('progress while solving', () => {
  const cases = [
    { what: 'book deal 9, dfs (goes on signatures)', deal: dealFromNumber(9), rules: BOOK, opts: { search: 'dfs', maxNodes: 300_000 } },
    { what: 'book deal 1, dfs (won)', deal: dealFromNumber(1), rules: BOOK, opts: { search: 'dfs', maxNodes: 300_000 } },
    { what: 'book deal 9, best', deal: dealFromNumber(9), rules: BOOK, opts: { search: 'best', maxNodes: 200_000 } },
    { what: 'book deal 9, rollout', deal: dealFromNumber(9), rules: BOOK, opts: { search: 'rollout', maxNodes: 200_000 } },
    { what: 'PySolFC game 5, portfolio', deal: pysolDeal(5), rules: PYSOL, opts: { preset: 'portfolio', maxNodes: 300_000 } },
    { what: 'book deal 9, prove', deal: dealFromNumber(9), rules: BOOK, opts: { preset: 'prove', maxNodes: 200_000 } },
    { what: 'small deal, dfs (exhausted)', deal: dealFromNumber(3, parseSize('1x5 4x3')), rules: parseRules('building=none'), opts: { search: 'dfs', maxNodes: 100_000 } },
  ] as const;

  for (const c of cases) {
    it(`${c.what}: the same result watched or not, and the reports grow`, () => {
      const plain = solveWith(new Solver(), c.deal, c.rules, c.opts);
      const solver = new Solver();
      const seen: Progress[] = [];
      solver.onProgress = (p) => seen.push(p);
      const watched = solveWith(solver, c.deal, c.rules, c.opts);
      expect({ ...watched, seconds: 0 }).toEqual({ ...plain, seconds: 0 });
      if (plain.nodes > 70_000) expect(seen.length).toBeGreaterThan(0);
      for (let i = 1; i < seen.length; i++) expect(seen[i]!.nodes).toBeGreaterThanOrEqual(seen[i - 1]!.nodes);
      for (const p of seen) expect(p.nodes).toBeLessThanOrEqual(plain.nodes);
    });
  }
});
