import { type Deal } from '../game/deal.js';
import { type Rules } from '../game/rules.js';
import { type PackedMove } from '../game/state.js';
import { shortenLine } from '../game/shorten.js';
import { verifyMoves } from '../game/verify.js';
import { SolutionError } from './result.js';

/**
 * A search's winning line from the position after `from`, shortened (shorten.ts) and replayed by
 * the verifier from the deal as `from` and it: every won result passes here before it is
 * returned. Throws SolutionError when it does not win (a solver bug).
 */
export function verifiedWin(deal: Deal, rules: Rules, line: readonly PackedMove[], from: readonly PackedMove[]): PackedMove[] {
  const moves = shortenLine(deal, rules, line, from);
  const check = verifyMoves(deal, rules, from.length === 0 ? moves : [...from, ...moves]);
  if (!check.won) throw new SolutionError(`solver produced a solution that does not verify: ${check.error ? `move ${check.error.index}: ${check.error.reason}` : 'stops short'}`);
  return moves;
}
