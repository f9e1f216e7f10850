import { type Card } from '../game/cards.js';
import { type Rules, type Size } from '../game/rules.js';
import { type Tactics, allowedByTactics } from '../game/tactics.js';
import {
  type Game, type PackedMove, DST_FOUNDATION, MAX_MOVES, SRC_DRAW, SRC_FIFTH, SRC_PRIV, SRC_WASTE,
} from '../game/state.js';

/**
 * What a person at the table sees, and nothing more: the view a player decides from.
 *
 * The view holds its Game in a JavaScript private field (`#g`), unreachable from outside the
 * class at run time, and every accessor below reads only what lies face up or what a careful
 * player has seen and remembers:
 *   - the layout (all rows are dealt face up), the columns now, the foundations;
 *   - phase 1: the waste in order (every card turned was seen) and the COUNT of cards left in
 *     the stock — never the stock's order or its next card;
 *   - phase 2: the privileged row and the pile in order (the pile is the old waste turned over,
 *     so a player who remembered the waste knows it card by card; see PileMemory);
 *   - the legal moves, with `draw` stripped of the card it would turn (packed draw moves carry
 *     the card in bits 12+: the view clears them, so a draw reads `SRC_DRAW` and nothing else);
 *   - the moves played so far (`history`), each naming only cards that were face up.
 * No accessor reads a stock position at or beyond the stock pointer in phase 1; the test
 * "no peeking" in test/play.test.ts checks the consequence: two deals that differ only in the
 * undealt stock order get the same decisions until the first differing card is turned.
 *
 * Phase 2 and the fifth card (RULES.md rule 7), the choice made here:
 *   With the pile remembered (the default, 'remembered'), the fifth card is known before it is
 *   turned, so turning it blind is never a real decision: when it has a place its moves
 *   (`n>f`, `n>cK`) are listed in `moves` like any other, and when it has none, turning it
 *   would only end the game — the same as stopping. A person who kept track of the waste
 *   therefore never "turns and loses"; the view offers no blind turn.
 *   With 'forgotten' (a player who did not keep track: an extra knob, to measure what the
 *   memory is worth) the pile's order is hidden in phase 2 (only its length shows), the fifth
 *   card's moves are not listed, and `BLIND_FIFTH` is offered whenever rule 7 lets the fifth
 *   card be turned (phase 2, pile not empty, no ace free, no privileged card can move). The
 *   driver then turns it with `Game.blindTurn()`: 'lose' ends the game, 'play' shows the card
 *   face up (`fifthUp`) and the only moves offered are its moves — it is played at once.
 */
export type PileMemory = 'remembered' | 'forgotten';

/** Source code of the pseudo-move "turn the fifth card blind" (unused by the engine: 48..59 and 63 are). */
export const SRC_BLIND = 60;
/** The pseudo-move "turn the fifth card blind" (only under PileMemory 'forgotten', when offered). */
export const BLIND_FIFTH: PackedMove = SRC_BLIND;
/** The pseudo-move "stop here": the player plays on no more (the game ends as it stands). */
export const STOP: PackedMove = -1;

export interface ViewOptions {
  readonly pile?: PileMemory;
  /** A buffer of at least MAX_MOVES for the move list, to reuse across games. */
  readonly buffer?: Int32Array;
}

export class TableView {
  readonly #g: Game;
  #movesAt = -1;
  #count = 0;
  #fifthUp = false;
  /** The legal moves of the position, after `legalMoves()`: draws stripped of their card. */
  readonly moves: Int32Array;
  readonly pile: PileMemory;
  readonly size: Size;
  readonly rules: Rules;
  readonly columns: number;
  readonly rows: number;
  readonly packs: number;
  readonly ranks: number;
  /** Cards in the game (104 full size). */
  readonly total: number;
  /** Size of the privileged row (rule option). */
  readonly privileged: number;
  /** 0 none, 1 pairs, 2 suit. */
  readonly building: number;
  readonly secondDeal: boolean;
  /** Cards in the stock at the start (not their order). */
  readonly stockSize: number;
  /**
   * The layout as dealt (face up from the start): `dealt[c][r]`, row 0 on top. Valid for the
   * game in play only (a Driver rewrites these arrays for its next deal): copy to keep.
   */
  readonly dealt: readonly (readonly Card[])[];

  constructor(game: Game, opts: ViewOptions = {}) {
    this.#g = game;
    this.pile = opts.pile ?? 'remembered';
    const buf = opts.buffer;
    this.moves = buf && buf.length >= MAX_MOVES ? buf : new Int32Array(MAX_MOVES);
    this.size = game.deal.size;
    this.rules = game.rules;
    this.columns = game.columns;
    this.rows = game.deal.size.rows;
    this.packs = game.packs;
    this.ranks = game.ranks;
    this.total = game.total;
    this.privileged = game.privileged;
    this.building = game.building;
    this.secondDeal = game.secondDeal;
    this.stockSize = game.stockSize;
    this.dealt = game.deal.columns;
  }

  get phase(): number {
    return this.#g.phase;
  }
  /** Cards on the foundations. */
  get home(): number {
    return this.#g.home;
  }
  /** Moves played so far. */
  get moveNumber(): number {
    return this.#g.histLen >> 1;
  }
  isWon(): boolean {
    return this.#g.home === this.#g.total;
  }

  // --- the layout -------------------------------------------------------------------------
  /** Cards in column c. */
  len(c: number): number {
    return this.#g.len[c]!;
  }
  /** How many of column c's cards are still the ones dealt there (always the lowest ones). */
  dealtLeft(c: number): number {
    return this.#g.orig[c]!;
  }
  /** Card i of column c (0 = top row). */
  card(c: number, i: number): Card {
    const g = this.#g;
    return g.cols[c * g.height + i]!;
  }
  /** The exposed card of column c (0 when empty). */
  top(c: number): Card {
    return this.#g.top(c);
  }
  /** Is column c's exposed card the covering card of a pair (it may go only to a foundation)? */
  isPairTop(c: number): boolean {
    return this.#g.isPairTop(c);
  }
  firstSpace(): number {
    return this.#g.firstSpace();
  }

  // --- foundations ------------------------------------------------------------------------
  /** Top rank of foundation i (suit s: i = s * packs + k). */
  foundation(i: number): number {
    return this.#g.found[i]!;
  }
  canHome(card: Card): boolean {
    return this.#g.canHome(card);
  }

  // --- stock and waste (phase 1) ------------------------------------------------------------
  /** Cards left in the stock: a count, never which. */
  get stockLeft(): number {
    const g = this.#g;
    return g.phase === 1 ? g.stockSize - g.stockPtr : 0;
  }
  /** Cards in the waste (phase 1). */
  get wasteLen(): number {
    return this.#g.phase === 1 ? this.#g.wasteLen : 0;
  }
  /** Waste card i, 0 the oldest (phase 1): every one was seen when it was turned. */
  wasteCard(i: number): Card {
    const g = this.#g;
    if (g.phase !== 1 || i < 0 || i >= g.wasteLen) throw new RangeError(`no waste card ${i}`);
    return g.stockCards[g.waste[i]!]!;
  }
  /** The waste top (0 when none or in phase 2). */
  wasteTop(): Card {
    return this.#g.wasteTop();
  }

  // --- privileged row and pile (phase 2) ------------------------------------------------------
  get privLen(): number {
    return this.#g.phase === 2 ? this.#g.privLen : 0;
  }
  privCard(i: number): Card {
    const g = this.#g;
    if (g.phase !== 2 || i < 0 || i >= g.privLen) throw new RangeError(`no privileged card ${i}`);
    return g.stockCards[g.priv[i]!]!;
  }
  /** Cards left in the pile, the fifth card included (phase 2). */
  get pileLen(): number {
    const g = this.#g;
    return g.phase === 2 ? g.wasteLen - g.pileNext : 0;
  }
  /**
   * Pile card i, 0 the fifth card (phase 2). With the pile forgotten only the fifth card once
   * it has been turned face up can be read.
   */
  pileCard(i: number): Card {
    const g = this.#g;
    if (g.phase !== 2 || i < 0 || i >= g.wasteLen - g.pileNext) throw new RangeError(`no pile card ${i}`);
    if (this.pile === 'forgotten' && !(i === 0 && this.#fifthUp)) throw new RangeError('the pile was not remembered');
    return g.stockCards[g.waste[g.pileNext + i]!]!;
  }
  /** The fifth card when the player knows it (remembered pile, or turned face up), else 0. */
  fifthCard(): Card {
    const g = this.#g;
    if (g.phase !== 2 || g.pileNext >= g.wasteLen) return 0;
    if (this.pile === 'forgotten' && !this.#fifthUp) return 0;
    return g.stockCards[g.waste[g.pileNext]!]!;
  }
  /** The fifth card has been turned blind and waits to be played (PileMemory 'forgotten'). */
  get fifthUp(): boolean {
    return this.#fifthUp;
  }
  /**
   * Rule 7 lets the fifth card be turned now, and the player does not know it ('forgotten'):
   * `BLIND_FIFTH` is then among the moves. Decided from the visible position only.
   */
  get canTurnBlind(): boolean {
    const g = this.#g;
    return this.pile === 'forgotten' && !this.#fifthUp && g.phase === 2 && g.pileNext < g.wasteLen && !g.aceIsFree() && !g.privilegedCanMove();
  }
  /** Does some privileged card have a legal place (rule 7's condition)? */
  privilegedCanMove(): boolean {
    return this.#g.privilegedCanMove();
  }
  /** Is some ace free (then only ace moves are legal)? */
  aceIsFree(): boolean {
    return this.#g.aceIsFree();
  }

  // --- moves ------------------------------------------------------------------------------
  /**
   * Fills `moves` with the legal moves of the position as the player knows them and returns
   * their count (cached until the position changes). Draws carry no card; with the pile
   * forgotten the fifth card's moves are replaced by BLIND_FIFTH (or, once it is up, they are
   * the only moves).
   */
  legalMoves(): number {
    const g = this.#g;
    const at = g.histLen + (this.#fifthUp ? 1 : 0);
    if (at === this.#movesAt) return this.#count;
    const out = this.moves;
    let n = g.generate(out);
    if (g.phase === 1) {
      for (let i = n - 1; i >= 0; i--) if ((out[i]! & 63) === SRC_DRAW) out[i] = SRC_DRAW;
    } else if (this.pile === 'forgotten') {
      let k = 0;
      for (let i = 0; i < n; i++) {
        const m = out[i]!;
        if (((m & 63) === SRC_FIFTH) === this.#fifthUp) out[k++] = m;
      }
      n = k;
      if (this.canTurnBlind) out[n++] = BLIND_FIFTH;
    }
    this.#movesAt = at;
    this.#count = n;
    return n;
  }

  /** Is `m` among the legal moves (as listed by `legalMoves`)? */
  isLegal(m: PackedMove): boolean {
    const n = this.legalMoves();
    for (let i = 0; i < n; i++) if (this.moves[i] === m) return true;
    return false;
  }

  /** Does a legal move keep to the tactics (src/game/tactics.ts, as restrictions)? Reads only the visible position. */
  allows(m: PackedMove, t: Tactics): boolean {
    if (m === BLIND_FIFTH) return true;
    return allowedByTactics(this.#g, m, t);
  }

  /**
   * The moves played so far, oldest first; a draw names the card it turned (seen by then).
   * Allocates: not for hot loops.
   */
  history(): PackedMove[] {
    return this.#g.history();
  }

  /**
   * Counts, per card code, of the cards the player has not seen (or, with the pile forgotten,
   * does not know the place of): the whole deck less the columns, the foundations, the waste
   * (phase 1), the privileged row and (remembered) the pile (phase 2). Phase 1: exactly the
   * multiset of the stock, worked out from the visible cards. Writes `out[code]`
   * (length >= 64) and returns the total.
   */
  unseen(out: Int8Array | Uint8Array | Int32Array): number {
    const g = this.#g;
    out.fill(0);
    let total = 0;
    for (let s = 0; s < 4; s++)
      for (let r = 1; r <= g.ranks; r++) {
        out[(s << 4) | r] = g.packs;
        total += g.packs;
      }
    const h = g.height;
    for (let c = 0; c < g.columns; c++)
      for (let i = 0; i < g.len[c]!; i++) {
        out[g.cols[c * h + i]!]!--;
        total--;
      }
    for (let s = 0; s < 4; s++)
      for (let k = 0; k < g.packs; k++)
        for (let r = g.found[s * g.packs + k]!; r >= 1; r--) {
          out[(s << 4) | r]!--;
          total--;
        }
    if (g.phase === 1) {
      for (let i = 0; i < g.wasteLen; i++) {
        out[g.stockCards[g.waste[i]!]!]!--;
        total--;
      }
    } else {
      for (let i = 0; i < g.privLen; i++) {
        out[g.stockCards[g.priv[i]!]!]!--;
        total--;
      }
      const known = this.pile === 'remembered' ? g.wasteLen - g.pileNext : this.#fifthUp ? 1 : 0;
      for (let i = 0; i < known; i++) {
        out[g.stockCards[g.waste[g.pileNext + i]!]!]!--;
        total--;
      }
    }
    return total;
  }

  /** @internal The driver marks the fifth card turned face up (or played). */
  static setFifthUp(v: TableView, up: boolean): void {
    v.#fifthUp = up;
  }
}

/** The move with a draw's card stripped (what a view lists). */
export function stripDraw(m: PackedMove): PackedMove {
  return (m & 63) === SRC_DRAW ? SRC_DRAW : m;
}

/** Is `m` a move to a foundation? */
export const isHomeMove = (m: PackedMove): boolean => m >= 0 && ((m >> 6) & 63) === DST_FOUNDATION && (m & 63) < 60;

/** Re-exported source codes a player reads moves with. */
export { SRC_DRAW, SRC_FIFTH, SRC_PRIV, SRC_WASTE };
