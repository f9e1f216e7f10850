import { type Tactics, allowedByTactics } from '../game/tactics.js';
import { type Game, DST_FOUNDATION, GEN_REDUCED, MAX_MOVES, SRC_DRAW, SRC_REDEAL, SRC_WASTE } from '../game/state.js';
import { type SolveOptions } from './options.js';

/** What `childMoves` needs of the options (the solver's, or the players' lookahead's). */
export type ChildMoveOptions = Pick<SolveOptions, 'reducedSpaces' | 'drawDiscipline' | 'safeMoves' | 'order'> & {
  readonly seed?: number;
  /** `SolveOptions.homeFirst` (not sound: a win-finder). */
  readonly homeFirst?: boolean;
};

/**
 * The move options as `childMoves` wants them: an object of one shape (the same properties in
 * the same order, every time), made once a search. `childMoves` reads them at every node, and
 * objects of many shapes (options merged from a preset's stage, copies) make that read
 * polymorphic and slower.
 */
export function moveOptions(o: ChildMoveOptions): ChildMoveOptions {
  return {
    reducedSpaces: o.reducedSpaces,
    drawDiscipline: o.drawDiscipline,
    safeMoves: o.safeMoves,
    order: o.order,
    seed: o.seed ?? 0,
    homeFirst: o.homeFirst === true,
  };
}

/**
 * The moves the search tries from the current position, written to `out` from `at`, in the
 * order to try them; returns the count.
 *
 * Draw discipline (sound): a draw changes only the stock and the waste, and a move that does
 * not involve the waste top changes neither, so in any winning line a draw followed by such
 * a move X can be swapped to X then the draw. X is legal before the draw: the waste top
 * before it was no ace (else the draw was illegal), layout aces are the same, and X needs
 * nothing from the waste. The draw is legal after X unless X freed a layout ace; then the
 * compulsory ace moves that follow X swap the same way. Repeating the swaps gives a winning
 * line in which every draw is followed by a draw, a move of the waste top, or the redeal,
 * so after a draw only those are tried. (The flag is part of the key.)
 */
export function childMoves(
  g: Game,
  gen: Int32Array,
  scores: Int32Array,
  out: Int32Array,
  at: number,
  justDrew: boolean,
  o: ChildMoveOptions,
  tactics: Tactics | null,
): number {
  const restrict = justDrew && o.drawDiscipline && g.phase === 1;
  const flags = o.reducedSpaces ? GEN_REDUCED : 0;
  const n = restrict ? g.generateWaste(gen, flags) : g.generate(gen, flags);
  let k = 0;
  const wasteFirst = o.order === 'waste';
  const seed = o.seed ?? 0;
  for (let i = 0; i < n; i++) {
    const m = gen[i]!;
    const src = m & 63;
    if (restrict && src !== SRC_WASTE && src !== SRC_DRAW && src !== SRC_REDEAL) continue;
    if (tactics && !allowedByTactics(g, m, tactics)) continue;
    const dst = (m >> 6) & 63;
    if (dst === DST_FOUNDATION && (o.homeFirst === true || (o.safeMoves && (!g.secondDeal || (g.freeFifth && tactics === null)) && isSafeHome(g, m >>> 12)))) {
      // (With `homeFirst`, any move home is played alone: not sound, see SolveOptions.)
      // Safe move (sound, second-deal=none only): X = (s, r) may go home and every foundation of
      // its suit stands at r-1 or higher, so both copies of (s, r-1) are home and no card can
      // ever be placed on X. Take a winning line from here that leaves X in play for a while:
      // play it with X home instead, skipping its moves of X. X never holds another card, so
      // every other move finds the same tops, and at least as many spaces; the foundations of
      // the suit differ only by X, so every move home still has its place — a second copy
      // X' could want X's foundation only if the other one stood at r-1, and then X' takes that
      // one. With no second deal there is no rule that a move can forbid (rule 7 is why this
      // is not used under second-deal=privileged). In the relaxed game of the fifth card
      // (`Game.freeFifth`) none either: this is waste dominance with X the one extra card
      // (dominance.ts; X may also be a column's, its column then exposes one card more in P),
      // there with no tactics. So a position with a safe move home is won if and only if the
      // position after it is: the move is played alone.
      out[at] = m;
      return 1;
    }
    // Move ordering (affects speed only, never the verdict).
    let s: number;
    if (dst === DST_FOUNDATION) s = 100;
    else if (src === SRC_DRAW) s = wasteFirst ? 50 : 20;
    else if (src === SRC_REDEAL) s = 1;
    else if (src < SRC_WASTE) {
      // Uncovering a dealt card or emptying a column is worth more.
      s = g.len[dst] === 0 ? 5 : g.orig[src] === g.len[src] ? 60 : 30;
    } else s = g.len[dst] === 0 ? 10 : wasteFirst ? 70 : 40;
    if (seed !== 0) s = s * 4096 + (Math.imul(m ^ seed, 0x9e3779b1) >>> 20);
    // Sorted by score, then generation order: one number (below 2^31; MAX_MOVES is a power of
    // two) holds both, so that the insertion sort moves one array; the moves are written after.
    s = s * MAX_MOVES + (MAX_MOVES - 1 - i);
    let j = k++;
    while (j > 0 && scores[j - 1]! < s) {
      scores[j] = scores[j - 1]!;
      j--;
    }
    scores[j] = s;
  }
  for (let j = 0; j < k; j++) out[at + j] = gen[MAX_MOVES - 1 - (scores[j]! & (MAX_MOVES - 1))]!;
  return k;
}

/** Every foundation of the card's suit stands at its rank - 1 or higher. */
function isSafeHome(g: Game, card: number): boolean {
  const f = (card >> 4) * g.packs;
  const want = (card & 15) - 1;
  for (let i = 0; i < g.packs; i++) if (g.found[f + i]! < want) return false;
  return true;
}
