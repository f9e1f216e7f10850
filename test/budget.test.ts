/**
 * A node budget is a cap: no search and no preset expands more nodes than it was given, the
 * takeovers of a deal that looks lost included (the prover beside the rollout once it stalls
 * used to get the rest of the budget while the rollout kept its own share as well).
 */
import { describe, expect, it } from 'vitest';
import { BOOK, dealFromNumber, parseRules } from '../src/game/index.js';
import { type Preset, PRESETS, Solver } from '../src/solver/index.js';
import { STALL_AT_ONCE, TAKE_OVER_AT_ONCE } from './solver-shared.js';

const PRESET_CASES: [string, string | Preset][] = [
  ...Object.keys(PRESETS).map((name): [string, string] => [name, name]),
  ['portfolio, prover at once', TAKE_OVER_AT_ONCE],
  ['portfolio, prover beside the stalled rollout', STALL_AT_ONCE],
];

describe('a node budget is a cap', () => {
  // Book deals that no search decides within these budgets (so every search runs to its cap),
  // and a small deal under each kind of second deal.
  const full = [465, 1539, 30];
  it.each(PRESET_CASES)('preset %s never expands more nodes than its budget', (_name, preset) => {
    const solver = new Solver();
    for (const n of full) {
      for (const maxNodes of [50_000, 400_000]) {
        const r = solver.solvePreset(dealFromNumber(n), BOOK, preset, { maxNodes });
        expect(r.nodes, `deal ${n} at ${maxNodes}`).toBeLessThanOrEqual(maxNodes);
        expect(r.verdict === 'unknown' ? r.limit : 'decided', `deal ${n} at ${maxNodes}`).not.toBe('time');
      }
    }
  });

  it.each(['dfs', 'best', 'rollout', 'beam'] as const)('search %s never expands more nodes than its budget', (search) => {
    const solver = new Solver();
    for (const rules of [BOOK, parseRules('second-deal=none')]) {
      for (const n of full) {
        const r = solver.solve(dealFromNumber(n), rules, { search, maxNodes: 30_000 });
        expect(r.nodes, `deal ${n}`).toBeLessThanOrEqual(30_000);
      }
    }
  });

  it('the stalled rollout and the prover share what is left, and a takeover happens', () => {
    const solver = new Solver();
    const r = solver.solvePreset(dealFromNumber(465), BOOK, STALL_AT_ONCE, { maxNodes: 400_000 });
    expect(solver.takeovers).toBe(1);
    expect(r.verdict).toBe('unknown');
    // Both searches ran to their caps: the whole budget is used, within a look-ahead's worth.
    expect(r.nodes).toBeGreaterThan(380_000);
    expect(r.nodes).toBeLessThanOrEqual(400_000);
  });
});
