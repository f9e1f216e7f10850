import { DST_FOUNDATION, type Game, type PackedMove, SRC_DRAW, SRC_WASTE } from '../game/state.js';

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
 * - **No `weights` property**: the built-in ones carry one, and a search that finds it scores
 *   children from it instead of calling the function (`ChildScores`).
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
export type Heuristic = ((g: Game) => number) & {
  /** Set on the built-in ones (`linear`): the score is this weighted sum of the features, and the searches score children incrementally (`ChildScores`). */
  readonly weights?: Weights;
};

/** A heuristic's weights for the features: cards home, `blocked`, `spaces`, `dealtLeft` and `waiting`. */
export interface Weights {
  readonly home: number;
  readonly blocked: number;
  readonly spaces: number;
  readonly dealtLeft: number;
  readonly waiting: number;
}

/** A built-in heuristic: `f`, written out for reading, with the weights it sums (a test checks that they agree). */
function linear(f: (g: Game) => number, weights: Weights): Heuristic {
  return Object.assign(f, { weights });
}

/** A search uses a heuristic's value floored and clamped to a whole number in [-SCORE_MAX, SCORE_MAX] (searches/tree-search.ts `score`). */
export const SCORE_MAX = 2 ** 20;

/** Cards home, nothing else. */
export const home = linear((g) => g.home, { home: 1, blocked: 0, spaces: 0, dealtLeft: 0, waiting: 0 });

/**
 * Cards home, less the cards that lie above (are blocked by) a lower card of their own suit in
 * the same column: such a card can only go home after that lower card has left the column, so
 * it has to be moved off it first. A column is walked from its top-row card up, keeping the
 * lowest rank of each suit seen so far (`lowest`, module scratch: no allocation per call).
 */
export const buried = linear((g) => 4 * g.home - 3 * blocked(g), { home: 4, blocked: -3, spaces: 0, dealtLeft: 0, waiting: 0 });

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
export const mobility = linear((g) => 4 * g.home + 3 * spaces(g) - dealtLeft(g), { home: 4, blocked: 0, spaces: 3, dealtLeft: -1, waiting: 0 });

/** The default: `buried` plus a small weight for spaces and the dealt cards already cleared. */
export const blend = linear((g) => buried(g) + 2 * spaces(g) - dealtLeft(g), { home: 4, blocked: -3, spaces: 2, dealtLeft: -1, waiting: 0 });

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
export const waste = linear((g) => buried(g) + 2 * spaces(g) - 2 * waiting(g), { home: 4, blocked: -3, spaces: 2, dealtLeft: 0, waiting: -2 });

/** `waste` with spaces worth twice as much. */
export const wasteSpaces = linear((g) => buried(g) + 4 * spaces(g) - 2 * waiting(g), { home: 4, blocked: -3, spaces: 4, dealtLeft: 0, waiting: -2 });

/** `waste` that also counts the dealt cards still in their columns against the position. */
export const wasteDealt = linear((g) => buried(g) + 2 * spaces(g) - 2 * waiting(g) - dealtLeft(g), { home: 4, blocked: -3, spaces: 2, dealtLeft: -1, waiting: -2 });

/** `waste` with the waiting cards weighed more heavily. */
export const wasteHeavy = linear((g) => buried(g) + 2 * spaces(g) - 3 * waiting(g), { home: 4, blocked: -3, spaces: 2, dealtLeft: 0, waiting: -3 });

/**
 * For games with no second deal (`pysol`), where the waste is a stack for good: every card
 * drawn must come off its top again, so a card waiting there weighs more than a card home
 * gains (5 against 4). `wasteDealt` with the waiting cards weighed 5 instead of 2.
 */
export const wasteStack = linear((g) => buried(g) + 2 * spaces(g) - 5 * waiting(g) - dealtLeft(g), { home: 4, blocked: -3, spaces: 2, dealtLeft: -1, waiting: -5 });

export const HEURISTICS: Readonly<Record<string, Heuristic>> = {
  blend, home, buried, mobility, waste, wasteSpaces, wasteDealt, wasteHeavy, wasteStack,
};

/**
 * The scores of one position's children, for best-first and beam search. With a built-in
 * heuristic (`weights`) `blocked` is not walked again for each child: a move takes one card off
 * the top of a column or puts one on, and whether a card is blocked depends only on the cards
 * under it, so a child's count is its parent's, less one if the card moved was blocked where it
 * lay, plus one if it is blocked where it goes. The parent's count is walked once (`parent`), or
 * given when the search kept it from the move that made the parent (beam search does). A
 * heuristic without weights (a user's) is called as it is.
 *
 * The other features change as simply with a move of one card (`before`), so a child of such a
 * move is scored from its parent without being played:
 * - cards home: one more when the card goes to a foundation;
 * - spaces: one more when it was the last card of its column, one fewer when it fills one;
 * - dealt cards left: one fewer when it was a dealt card (a column's `orig` cards are its
 *   lowest: its top is dealt when all its cards are);
 * - waiting cards: one fewer when it comes from the waste, the privileged row or the pile (the
 *   next pile card takes a privileged card's place, or the row shrinks when the pile is out).
 */
export class ChildScores {
  private total = 0;
  /** The `blocked` count of the last child scored (0 when the heuristic has no weight for it). */
  blocked = 0;
  /** The cards home of the last child scored by `before`. */
  home = 0;
  /** Whether `before` may score the children of the position given to `parent` (the heuristic has weights). */
  direct = false;
  /** The parent's features, for `before`. */
  private pHome = 0;
  private pSpaces = 0;
  private pDealt = 0;
  private pWaiting = 0;

  /** The position whose children come next (`g` standing on it), with heuristic h; `known`, its `blocked` count if known (else -1). */
  parent(g: Game, h: Heuristic, known: number): void {
    const w = h.weights;
    this.direct = w !== undefined;
    if (w === undefined) return;
    if (w.blocked !== 0) this.total = known >= 0 ? known : blocked(g);
    this.pHome = g.home;
    this.pSpaces = spaces(g);
    this.pDealt = dealtLeft(g);
    this.pWaiting = waiting(g);
  }

  /** h of the child that move m leads to from the position given to `parent`; `g` stands on the child. */
  child(g: Game, h: Heuristic, m: PackedMove): number {
    const w = h.weights;
    if (w === undefined) {
      this.blocked = 0;
      return h(g);
    }
    let v = w.home * g.home + w.spaces * spaces(g) + w.dealtLeft * dealtLeft(g) + w.waiting * waiting(g);
    let b = 0;
    const src = m & 63;
    if (w.blocked !== 0) {
      b = this.total;
      if (src < SRC_DRAW) {
        const card = m >>> 12;
        const dst = (m >> 6) & 63;
        // From a column: it lay on top of the cards left there. Onto a column: on top of the ones before.
        if (src < SRC_WASTE && lowerUnder(g, src, card, g.len[src]!)) b--;
        if (dst < SRC_WASTE && lowerUnder(g, dst, card, g.len[dst]! - 1)) b++;
      }
      v += w.blocked * b;
    }
    this.blocked = b;
    return v;
  }

  /**
   * h of the child that move m leads to, with `g` still on the parent given to `parent`: only
   * when `direct`, and m moves one card (its source below SRC_DRAW: not a draw or the redeal).
   * Sets `home` and `blocked` to the child's.
   */
  before(g: Game, h: Heuristic, m: PackedMove): number {
    const w = h.weights!;
    const src = m & 63;
    const dst = (m >> 6) & 63;
    const card = m >>> 12;
    let sp = this.pSpaces;
    let dealt = this.pDealt;
    let wait = this.pWaiting;
    let b = w.blocked !== 0 ? this.total : 0;
    if (src < SRC_WASTE) {
      const l = g.len[src]!;
      if (g.orig[src] === l) dealt--;
      if (l === 1) sp++;
      if (w.blocked !== 0 && lowerUnder(g, src, card, l - 1)) b--;
    } else wait--;
    let home = this.pHome;
    if (dst === DST_FOUNDATION) home++;
    else {
      const l = g.len[dst]!;
      if (l === 0) sp--;
      if (w.blocked !== 0 && lowerUnder(g, dst, card, l)) b++;
    }
    this.home = home;
    this.blocked = b;
    return w.home * home + w.spaces * sp + w.dealtLeft * dealt + w.waiting * wait + w.blocked * b;
  }
}

/** Whether the first n cards of column c hold a card of `card`'s suit and a lower rank. */
function lowerUnder(g: Game, c: number, card: number, n: number): boolean {
  const cols = g.cols;
  const base = c * g.height;
  const s = card >> 4;
  const r = card & 15;
  for (let i = 0; i < n; i++) {
    const x = cols[base + i]!;
    if (x >> 4 === s && (x & 15) < r) return true;
  }
  return false;
}
