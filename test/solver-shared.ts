/**
 * What the solver's test files share: the generous budget of the small-deal checks, the
 * portfolio whose prover takes over at once, the variants without a second deal, the
 * independent check of a win, two runs compared, and a seeded random playout.
 */
import { expect } from 'vitest';
import { type Deal, type Game, type Rules, GEN_REDUCED, MAX_MOVES, formatSolution, replay, verifyMoves, verifyText } from '../src/game/index.js';
import { type Preset, type SolveResult, PRESETS } from '../src/solver/index.js';

/**
 * Far more than any of these small deals needs (the most any configuration takes is about
 * 270,000 nodes, 2x4 3x3 deal 27 by depth-first search), so the solver must never answer
 * `unknown` here. Not larger: the search sizes its table from maxNodes.
 */
export const GENEROUS = { maxNodes: 2_000_000 } as const;

/** The portfolio with its `looksLost` search taking over at the first check: every deal looks lost. */
export const TAKE_OVER_AT_ONCE: Preset = { ...PRESETS.portfolio!, looksLost: { ...PRESETS.portfolio!.looksLost!, afterNodes: 0, bestHomeAtMost: Infinity } };

/**
 * The portfolio whose prover takes over beside the rollout (a quarter of the budget left to it)
 * as soon as the rollout's cards home stop rising: the other sign of a deal that looks lost.
 */
export const STALL_AT_ONCE: Preset = {
  ...PRESETS.portfolio!,
  looksLost: { ...PRESETS.portfolio!.looksLost!, bestHomeAtMost: -1, stall: { afterNodes: 0, keep: 0.25 } },
};

/** The variants without a second deal. */
export const NO_SECOND_DEAL = ['second-deal=none', 'second-deal=none building=none', 'second-deal=none building=suit'] as const;

/** The independent check of a win: the solution text through the replay verifier. */
export function checkWin(deal: Deal, rules: Rules, r: SolveResult, what: string): string | null {
  if (!r.moves) return `${what}: won without moves`;
  const text = formatSolution(r.moves);
  const verdict = verifyText(replay(deal, rules, text));
  if (verdict !== `valid: won in ${r.moves.length} moves`) return `${what}: solution does not verify: ${verdict}`;
  if (!verifyMoves(deal, rules, r.moves).won) return `${what}: verifyMoves does not win`;
  return null;
}

/**
 * Plays up to `steps` legal moves (GEN_REDUCED) picked by a seeded xorshift generator, handing
 * each to `play` (which must apply it) with its step number; stops early when no move is left.
 */
export function randomPlayout(g: Game, seed: number, steps: number, play: (m: number, step: number) => void): void {
  const moves = new Int32Array(MAX_MOVES);
  let x = seed >>> 0;
  for (let step = 0; step < steps; step++) {
    const k = g.generate(moves, GEN_REDUCED);
    if (k === 0) return;
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    play(moves[x % k]!, step);
  }
}

/** Two runs gave the same verdict, limit, nodes, states, best home and moves. */
export function expectSameResult(x: SolveResult, a: SolveResult, what: string): void {
  expect(x.verdict, what).toBe(a.verdict);
  expect(x.limit, what).toBe(a.limit);
  expect(x.nodes, what).toBe(a.nodes);
  expect(x.states, what).toBe(a.states);
  expect(x.bestHome, what).toBe(a.bestHome);
  expect(x.moves, what).toEqual(a.moves);
}
