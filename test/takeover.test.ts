/**
 * When a deal looks lost the portfolio hands it to the prover: under tactics that make
 * LockBound stronger (pairing never or cautious, spaces never) once the rollout has expanded
 * 500,000 nodes whatever the cards home; in free play only when few cards are home.
 */
import { describe, expect, it } from 'vitest';
import { BOOK, dealFromNumber } from '../src/game/index.js';
import { PRESETS, Solver } from '../src/solver/index.js';

describe('the prover takes over a restricted deal', () => {
  it('deal 4 with spaces never: the prover takes over at 500,000 rollout nodes, with more than 20 cards home', () => {
    const solver = new Solver();
    const r = solver.solvePreset(dealFromNumber(4), BOOK, 'portfolio', { maxNodes: 1_000_000, tactics: { pairing: 'always', spaces: 'never' } });
    expect(r.bestHome).toBeGreaterThan(PRESETS.portfolio!.looksLost!.bestHomeAtMost);
    expect(solver.takeovers).toBe(1);
    expect(r.nodes).toBeLessThanOrEqual(1_000_000);
  });

  it.each([
    ['spaces hold', { pairing: 'always', spaces: 'hold' }],
    ['free play', { pairing: 'always', spaces: 'eager' }],
  ] as const)('not under %s while more than 20 cards are home', (_name, tactics) => {
    const solver = new Solver();
    const r = solver.solvePreset(dealFromNumber(4), BOOK, 'portfolio', { maxNodes: 1_000_000, tactics });
    if (r.verdict === 'unknown') expect(r.bestHome).toBeGreaterThan(PRESETS.portfolio!.looksLost!.bestHomeAtMost);
    expect(solver.takeovers).toBe(0);
  });
});
