/**
 * What the solver's test files share: the generous budget of the small-deal checks, the
 * portfolio whose prover takes over at once, the variants without a second deal, and the
 * independent check of a win.
 */
import { type Deal, type Rules, formatSolution, replay, verifyMoves, verifyText } from '../src/game/index.js';
import { type Preset, type SolveResult, PRESETS } from '../src/solver/index.js';

/**
 * Far more than any of these small deals needs (the most any configuration takes is about
 * 270,000 nodes, 2x4 3x3 deal 27 by depth-first search), so the solver must never answer
 * `unknown` here. Not larger: the search sizes its table from maxNodes.
 */
export const GENEROUS = { maxNodes: 2_000_000 } as const;

/** The portfolio with its `looksLost` search taking over at the first check: every deal looks lost. */
export const TAKE_OVER_AT_ONCE: Preset = { ...PRESETS.portfolio!, looksLost: { ...PRESETS.portfolio!.looksLost!, afterNodes: 0, bestHomeAtMost: Infinity } };

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
