// A solve run a step at a time (startSolve, the one entry; Solver.start, Solver.startPreset), as
// `limited solve` runs it to draw its progress and to stop on a signal: stepping does not change
// the search.
import { describe, expect, it } from 'vitest';
import { BOOK, PYSOL, dealFromNumber, parseRules, parseSize, pysolDeal } from '../src/game/index.js';
import { type Progress, type SearchRun, Solver, startSolve } from '../src/solver/index.js';

describe('a solve run in steps', () => {
  const cases = [
    { what: 'book deal 9, dfs (goes on signatures)', deal: dealFromNumber(9), rules: BOOK, opts: { search: 'dfs', maxNodes: 300_000 } },
    { what: 'book deal 1, dfs (won)', deal: dealFromNumber(1), rules: BOOK, opts: { search: 'dfs', maxNodes: 300_000 } },
    { what: 'book deal 9, best', deal: dealFromNumber(9), rules: BOOK, opts: { search: 'best', maxNodes: 200_000 } },
    { what: 'book deal 9, rollout', deal: dealFromNumber(9), rules: BOOK, opts: { search: 'rollout', maxNodes: 200_000 } },
    { what: 'PySolFC game 5, beam (won)', deal: pysolDeal(5), rules: PYSOL, opts: { search: 'beam', heuristic: 'wasteStack', maxNodes: 300_000 } },
    { what: 'book deal 9, beam (widens)', deal: dealFromNumber(9), rules: BOOK, opts: { search: 'beam', heuristic: 'wasteDealt', beamWidth: 4, maxNodes: 200_000 } },
    { what: 'PySolFC game 5, portfolio', deal: pysolDeal(5), rules: PYSOL, opts: { preset: 'portfolio', maxNodes: 300_000 } },
    { what: 'book deal 9, prove', deal: dealFromNumber(9), rules: BOOK, opts: { preset: 'prove', maxNodes: 200_000 } },
    // The stages run 722,550 nodes, then the prover takes over and proves the deal lost in
    // 327,417 more (test/lockbound.test.ts): steps before and after the takeover.
    { what: 'book deal 988, portfolio (the prover takes over)', deal: dealFromNumber(988), rules: BOOK, opts: { preset: 'portfolio', maxNodes: 2_000_000 } },
    { what: 'small deal, dfs (exhausted)', deal: dealFromNumber(3, parseSize('1x5 4x3')), rules: parseRules('building=none'), opts: { search: 'dfs', maxNodes: 100_000 } },
  ] as const;

  /** A case's solve, started: by the one entry, or by the engine's single search for what no request sets (a beam's first width). */
  const start = (c: (typeof cases)[number]): SearchRun =>
    'beamWidth' in c.opts ? new Solver().start(c.deal, c.rules, c.opts) : startSolve(new Solver(), c.deal, c.rules, c.opts);

  for (const c of cases) {
    it(`${c.what}: the same result in steps of 65,536 nodes as in one, and the figures grow`, () => {
      const plain = start(c).step(Infinity)!;
      const run = start(c);
      const seen: Progress[] = [];
      let res = null;
      for (let n = 1 << 16; !(res = run.step(n)); n += 1 << 16) {
        const p = run.progress();
        seen.push(p);
        // A step stops at its search's next check past its end (a preset, between two turns).
        expect(p.nodes).toBeGreaterThanOrEqual(n);
      }
      expect({ ...res, seconds: 0 }).toEqual({ ...plain, seconds: 0 });
      // Once ended, a run gives its result again, and its figures are the result's.
      expect(run.step(Infinity)).toBe(res);
      expect(run.progress()).toBe(res);
      expect(seen.length).toBeGreaterThanOrEqual(Math.floor(plain.nodes / (1 << 16)) - 1);
      for (let i = 1; i < seen.length; i++) expect(seen[i]!.nodes).toBeGreaterThan(seen[i - 1]!.nodes);
      for (const p of seen) expect(p.nodes).toBeLessThanOrEqual(plain.nodes);
    });
  }

  it('a preset that cannot run fails when started, not at its first step', () => {
    expect(() => new Solver().startPreset(dealFromNumber(1), BOOK, 'no-such-preset')).toThrow(/unknown preset 'no-such-preset'/);
  });
});
