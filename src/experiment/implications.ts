/**
 * Verdicts that carry from one game to another: when every line of game A is a line of game B
 * (A is a *subgame* of B), a deal won under A is won under B, and a deal proved lost under B is
 * lost under A.
 *
 * What makes A a subgame of B, under RULES.md (same deck size):
 * - Tactics are restrictions (src/game/tactics.ts `allowedByTactics` only removes legal moves,
 *   and never changes what is legal): pairing never ⊂ cautious ⊂ always, spaces never ⊂ hold ⊂
 *   eager, each knob on its own. The fifth card stays legal by the game's rule 7, whatever the
 *   player keeps to, so a restricted line is a line of the free game.
 * - `second-deal=none` ⊂ `second-deal=privileged` with the same building: phase 1 is the same
 *   game under both (the same moves, the same compulsory aces, the waste top playable after the
 *   stock ends), and the redeal is a choice the player need not make; the size of the privileged
 *   row plays no part in a game that never redeals. A line that never redeals is a line of both.
 * - Nothing else. More privileged cards, or more building (none → pairs → suit), give more moves
 *   to the privileged cards, and rule 7 then forbids the fifth card where the other game allows
 *   it: neither game contains the other.
 */
import { type Rules, type Tactics } from '../game/index.js';

const PAIRING_ORDER = { never: 0, cautious: 1, always: 2 } as const;
const SPACES_ORDER = { never: 0, hold: 1, eager: 2 } as const;

/** The part of a game that decides its lines: the rules and the tactics kept to (the size is the caller's to match). */
export interface Game {
  readonly rules: Rules;
  readonly tactics: Tactics;
}

/** Is every line of `a` a line of `b` (see the module's comment)? True for equal games. */
export function isSubgame(a: Game, b: Game): boolean {
  if (PAIRING_ORDER[a.tactics.pairing] > PAIRING_ORDER[b.tactics.pairing]) return false;
  if (SPACES_ORDER[a.tactics.spaces] > SPACES_ORDER[b.tactics.spaces]) return false;
  if (a.rules.building !== b.rules.building) return false;
  if (a.rules.secondDeal === 'none') return true;
  return b.rules.secondDeal === 'privileged' && a.rules.privileged === b.rules.privileged;
}

/** A deal's verdict in one game, as far as it is known. */
export const UNKNOWN = 0;
export const WON = 1;
export const LOST = 2;
export type Known = typeof UNKNOWN | typeof WON | typeof LOST;

/**
 * The subgame relation among a list of games, as pairs [a, b] (a a strict subgame of b, or an
 * equal game listed apart), for `close`.
 */
export function subgamePairs(games: readonly Game[]): [number, number][] {
  const pairs: [number, number][] = [];
  for (let a = 0; a < games.length; a++)
    for (let b = 0; b < games.length; b++) if (a !== b && isSubgame(games[a]!, games[b]!)) pairs.push([a, b]);
  return pairs;
}

/**
 * Fills in what the known verdicts of one deal imply for the others (in place): a win climbs
 * from a subgame to every game above it, a loss falls to every game below. `present[i]` false:
 * game i did not play this deal (its entry is left alone and implies nothing). The relation is
 * transitive, so one pass over the pairs suffices. Returns false when the verdicts contradict
 * each other (a win under a subgame and a loss above it): a solver bug.
 */
export function close(known: Known[], pairs: readonly (readonly [number, number])[], present?: readonly boolean[]): boolean {
  for (const [a, b] of pairs) {
    if (present && (!present[a] || !present[b])) continue;
    if (known[a] === WON) {
      if (known[b] === LOST) return false;
      known[b] = WON;
    }
    if (known[b] === LOST) {
      if (known[a] === WON) return false;
      known[a] = LOST;
    }
  }
  return true;
}
