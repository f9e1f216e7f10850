import { type Game } from '../game/state.js';

/**
 * A heuristic scores a position for best-first search: higher is more promising. The built-in
 * ones below and users' own (`limited bench --heuristics ./my-heuristic.js`: a compiled ES
 * module whose default export, or export `heuristic`, is such a function) are called alike.
 *
 * The contract:
 * - **Score**: an integer in [-2^20, 2^20]. Higher is expanded first; among equal scores the
 *   newest position comes first. The search packs the score and the state's id into one
 *   double (score * 2^27 + id), so a fraction, NaN or a larger number corrupts the search:
 *   round your score. (`limited bench` checks every score and stops with an error naming the
 *   module.)
 * - **Read only**: never call `apply`, `undo`, `generate` or `reset`, and never write to the
 *   arrays. The read-only methods may be used: `top(c)`, `wasteTop()`, `fifthCard()`,
 *   `privCard(i)`, `canHome(card)`, `isPairTop(c)`, `isWon()`, `firstSpace()`.
 * - **No allocation**: it runs once for every position generated (hundreds of thousands a
 *   second); no arrays, objects, closures or strings per call — keep scratch space at module
 *   level if you need it.
 * - **Deterministic**: the same position gives the same score (no randomness, no state carried
 *   from call to call), else node counts and the bench signature are not reproducible.
 *
 * What it may read from `g` (a `Game`, src/game/state.ts; cards are `suit * 16 + rank`, suit
 * `c >> 4` in the order S H D C, rank `c & 15` from 1 = ace to 13 = king):
 * - `columns`, `height`: the layout; column c holds `len[c]` cards at `cols[c * height + i]`,
 *   i = 0 the card dealt in the top row, i = len[c] - 1 the exposed card (`top(c)`, 0 if empty).
 *   `orig[c]` of them (always the lowest indices) are still the cards dealt there.
 * - `found[s * packs + k]`: the top rank on foundation k of suit s (0: empty); `home`: cards on
 *   the foundations, of `total`.
 * - `phase`: 1 in the first deal, 2 in the second (`secondDeal`: the rules have one).
 * - The stock: `stockCards[p]` is the card at stock position p (the deal's stock order: the
 *   solver knows it); `stockPtr` is the next position to draw, of `stockSize`.
 * - Phase 1: the waste is `waste[0 .. wasteLen)`, stock positions, increasing, the top last
 *   (`wasteTop()`). Phase 2: the privileged row is `priv[0 .. privLen)` (stock positions) and
 *   the pile still to come is `waste[pileNext .. wasteLen)`, the fifth card first (`fifthCard()`).
 * - The rules: `packs`, `ranks`, `building` (0 none, 1 pairs, 2 suit), `privileged`.
 */
export type Heuristic = (g: Game) => number;

/** A search uses a heuristic's value floored and clamped to a whole number in [-SCORE_MAX, SCORE_MAX] (search.ts `score`). */
export const SCORE_MAX = 2 ** 20;

/** Cards home, nothing else. */
export const home: Heuristic = (g) => g.home;

/**
 * Cards home, less the cards that lie above (are blocked by) a lower card of their own suit in
 * the same column: such a card can only go home after that lower card has left the column, so
 * it has to be moved off it first. A column is walked from its top-row card up, keeping the
 * lowest rank of each suit seen so far (`lowest`, module scratch: no allocation per call).
 *
 * Until session 23 this counted the reverse, the cards lying under a lower card of their suit
 * (a column built down, which is no block at all). Best-first search alone with `wasteStack`
 * under `pysol`, 600,000 nodes a game: PySolFC games 1-300, 240 won with the count the right
 * way round against 71; the 59 games of 1-1000 the portfolio left at five seconds
 * (results/solve), 16 against 2. Book deals 1-200 with `wasteDealt`, 300,000 nodes: 95 won
 * against 77.
 */
export const buried: Heuristic = (g) => 4 * g.home - 3 * blocked(g);

const lowest = new Int32Array(4);

/** The cards of the columns that lie above a lower card of their own suit (`buried`). */
export function blocked(g: Game): number {
  const h = g.height;
  const cols = g.cols;
  let n = 0;
  for (let c = 0; c < g.columns; c++) {
    const l = g.len[c]!;
    if (l < 2) continue;
    const base = c * h;
    lowest[0] = lowest[1] = lowest[2] = lowest[3] = 16;
    for (let i = 0; i < l; i++) {
      const x = cols[base + i]!;
      const s = x >> 4;
      const r = x & 15;
      if (lowest[s]! < r) n++;
      else lowest[s] = r;
    }
  }
  return n;
}

/** Empty columns. */
export function spaces(g: Game): number {
  let n = 0;
  for (let c = 0; c < g.columns; c++) if (g.len[c] === 0) n++;
  return n;
}

/** Dealt cards still in their columns. */
export function dealtLeft(g: Game): number {
  let n = 0;
  for (let c = 0; c < g.columns; c++) n += g.orig[c]!;
  return n;
}

/** Cards home, plus spaces and original cards uncovered: favours positions with room to move. */
export const mobility: Heuristic = (g) => 4 * g.home + 3 * spaces(g) - dealtLeft(g);

/** The default: `buried` plus a small weight for spaces and the dealt cards already cleared. */
export const blend: Heuristic = (g) => buried(g) + 2 * spaces(g) - dealtLeft(g);

/** Cards waiting in the waste, or in the pile and the privileged row. */
export function waiting(g: Game): number {
  return g.phase === 1 ? g.wasteLen : g.wasteLen - g.pileNext + g.privLen;
}

/**
 * The rollout's measure of a position (DepthFirst `bestValue`): cards home, less `waitWeight`
 * a waiting card, plus `spaceWeight` an empty column (`SolveOptions.rolloutWaiting`,
 * `rolloutSpaces`). With both weights 0 it is cards home.
 */
export function lookValue(g: Game, waitWeight: number, spaceWeight: number): number {
  const v = g.home - waitWeight * waiting(g);
  return spaceWeight === 0 ? v : v + spaceWeight * spaces(g);
}

/**
 * Cards home, less the cards waiting in the waste or the pile (each will have to get through
 * the privileged row in order), less blocked cards: for games with a second deal.
 */
export const waste: Heuristic = (g) => buried(g) + 2 * spaces(g) - 2 * waiting(g);

/** `waste` with spaces worth twice as much. */
export const wasteSpaces: Heuristic = (g) => buried(g) + 4 * spaces(g) - 2 * waiting(g);

/** `waste` that also counts the dealt cards still in their columns against the position. */
export const wasteDealt: Heuristic = (g) => buried(g) + 2 * spaces(g) - 2 * waiting(g) - dealtLeft(g);

/** `waste` with the waiting cards weighed more heavily. */
export const wasteHeavy: Heuristic = (g) => buried(g) + 2 * spaces(g) - 3 * waiting(g);

/**
 * For games with no second deal (`pysol`), where the waste is a stack for good: every card
 * drawn must come off its top again, so a card waiting there weighs more than a card home
 * gains (5 against 4). `wasteDealt` with the waiting cards weighed 5 instead of 2.
 * Session 19, best-first search alone at a second a game under `pysol`, on the 97 PySolFC games
 * of 1-1000 that the portfolio left undecided at five seconds (results/solve): waiting weighed
 * 2 (`wasteDealt`) won 3, weighed 5 won 21; `waste`, `wasteHeavy` (3) 4 and 8; `blend`, `home`,
 * `mobility` none. (Those runs counted `buried` the wrong way round; see there.)
 */
export const wasteStack: Heuristic = (g) => buried(g) + 2 * spaces(g) - 5 * waiting(g) - dealtLeft(g);

export const HEURISTICS: Readonly<Record<string, Heuristic>> = {
  blend, home, buried, mobility, waste, wasteSpaces, wasteDealt, wasteHeavy, wasteStack,
};
