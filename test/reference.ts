/**
 * A reference solver for the tests only: plain exhaustive depth-first search over every legal
 * move (`generate` with GEN_ALL), remembering the positions already searched by their full
 * `snapshot()` text (column order and foundations exactly as they are). No pruning, no
 * symmetry, no draw discipline, no move ordering: it relies on nothing but the engine's rules.
 *
 * Meant for small deck sizes. It keeps a cap on the positions it stores and throws when the
 * cap is passed, so a test can never hang or run out of memory silently.
 */
import { type Deal, type PackedMove, type Rules, GEN_ALL, Game, MAX_MOVES } from '../src/game/index.js';
import { type Tactics, allowedByTactics } from '../src/game/tactics.js';

export interface ReferenceResult {
  readonly verdict: 'won' | 'unsolvable';
  /** Positions stored (distinct snapshots searched). */
  readonly states: number;
  /** A winning line when won (the moves of the first win found), else null. */
  readonly moves: PackedMove[] | null;
}

export class ReferenceLimitError extends Error {
  override readonly name = 'ReferenceLimitError';
}

export const REFERENCE_MAX_STATES = 3_000_000;

/** `tactics`: only the moves a player keeping to them may make (src/game/tactics.ts), as the solver restricts itself. */
export function referenceSolve(deal: Deal, rules: Rules, maxStates = REFERENCE_MAX_STATES, tactics?: Tactics): ReferenceResult {
  const game = new Game(deal, rules);
  const { won, states } = referenceSearch(game, maxStates, tactics);
  return { verdict: won ? 'won' : 'unsolvable', states, moves: won ? game.history() : null };
}

/**
 * The same exhaustive search from the position `game` stands in (any position of a line):
 * when won, the winning moves are left applied; otherwise the game is back where it was.
 */
export function referenceSearch(game: Game, maxStates = REFERENCE_MAX_STATES, tactics?: Tactics): { won: boolean; states: number } {
  const seen = new Set<string>();

  // Returns true when a win is reachable from the current position.
  const search = (): boolean => {
    if (game.isWon()) return true;
    const snap = game.snapshot();
    if (seen.has(snap)) return false;
    seen.add(snap);
    if (seen.size > maxStates) throw new ReferenceLimitError(`reference search passed ${maxStates} positions`);
    const buf = new Int32Array(MAX_MOVES);
    const n = game.generate(buf, GEN_ALL);
    for (let i = 0; i < n; i++) {
      if (tactics && !allowedByTactics(game, buf[i]!, tactics)) continue;
      game.apply(buf[i]!);
      const won = search();
      if (won) return true; // leave the winning line applied: game.history() is the solution
      game.undo();
    }
    return false;
  };

  const won = search();
  return { won, states: seen.size };
}

/**
 * For the checks of a cut (a reduction says the position `game` stands in is lost): when the
 * reference wins from it, `what` and the move count are added to `wrong` and the game is put back.
 */
export function noteIfWon(game: Game, what: string, wrong: string[]): void {
  const h = game.histLen;
  if (referenceSearch(game, REFERENCE_MAX_STATES).won) {
    wrong.push(`${what}: a won position cut after ${h >> 1} moves`);
    while (game.histLen > h) game.undo();
  }
}
