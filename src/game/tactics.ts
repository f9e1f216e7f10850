import { UserError } from './errors.js';
import { type Game, type PackedMove, DST_FOUNDATION, SRC_DRAW, SRC_REDEAL } from './state.js';

/**
 * The book's two tactics as named knobs, so that an experiment can say how much pairing and
 * filling spaces matter.
 *
 * pairing  always   pair whenever it is legal (a player's policy; no restriction for the solver)
 *          cautious never pair onto a column that still holds cards above its exposed card,
 *                   unless the covering card could go to a foundation at once
 *          never    never pair
 * spaces   eager    fill a space as soon as there is a candidate (no restriction for the solver)
 *          hold     never fill a space in the first deal: keep spaces for the privileged cards
 *          never    never fill a space
 *
 * The solver uses them as restrictions: its verdict is then "can the deal be won by a player
 * who never breaks the restriction", which measures what the tactic gives up.
 */
export type Pairing = 'always' | 'cautious' | 'never';
export type Spaces = 'eager' | 'hold' | 'never';

export interface Tactics {
  readonly pairing: Pairing;
  readonly spaces: Spaces;
}

export const NO_RESTRICTION: Tactics = { pairing: 'always', spaces: 'eager' };

const PAIRINGS: readonly Pairing[] = ['always', 'cautious', 'never'];
const SPACES: readonly Spaces[] = ['eager', 'hold', 'never'];

export function parsePairing(text: string): Pairing {
  const t = text.trim().toLowerCase();
  if (!(PAIRINGS as readonly string[]).includes(t)) throw new UserError(`unknown pairing tactic '${text}' (always, cautious, never)`);
  return t as Pairing;
}

export function parseSpaces(text: string): Spaces {
  const t = text.trim().toLowerCase();
  if (!(SPACES as readonly string[]).includes(t)) throw new UserError(`unknown spaces tactic '${text}' (eager, hold, never)`);
  return t as Spaces;
}

export function isRestricted(t: Tactics): boolean {
  return t.pairing !== 'always' || t.spaces !== 'eager';
}

/**
 * Does a legal move respect the tactics as restrictions? Pairing is a move onto a non-empty
 * column; filling a space, a move onto an empty one.
 */
export function allowedByTactics(g: Game, m: PackedMove, t: Tactics): boolean {
  const src = m & 63;
  const dst = (m >> 6) & 63;
  if (dst === DST_FOUNDATION || src === SRC_DRAW || src === SRC_REDEAL) return true;
  const len = g.len[dst]!;
  if (len === 0) {
    if (t.spaces === 'never') return false;
    if (t.spaces === 'hold' && g.phase === 1) return false;
    return true;
  }
  if (t.pairing === 'never') return false;
  if (t.pairing === 'cautious' && len > 1 && !g.canHome(m >>> 12)) return false;
  return true;
}
