import { type Card, CARD_CODES } from './cards.js';
import { type Deal } from './deal.js';
import { type Rules, BOOK, MAX_COLUMNS } from './rules.js';

/*
 * Packed moves: one 32-bit integer, `src | dst << 6 | card << 12`.
 *   src: 0..47 a column, SRC_WASTE, SRC_PRIV + i (p1..p8), SRC_FIFTH, or the two moves
 *        that move no card from a place: SRC_DRAW (card = the card turned), SRC_REDEAL.
 *   dst: 0..47 a column (pair onto its exposed card, or fill it if empty), DST_FOUNDATION.
 * The public, textual form lives in notation.ts.
 */
export type PackedMove = number;
export const SRC_WASTE = 48;
export const SRC_PRIV = 49; // 49..56
export const SRC_FIFTH = 57;
export const SRC_DRAW = 58;
export const SRC_REDEAL = 59;
export const DST_FOUNDATION = 63;

export const moveSrc = (m: PackedMove): number => m & 63;
export const moveDst = (m: PackedMove): number => (m >> 6) & 63;
export const moveCard = (m: PackedMove): Card => m >>> 12;
export const packMove = (src: number, dst: number, card: Card): PackedMove => src | (dst << 6) | (card << 12);

/** Room for the legal moves of any position: (columns + waste + 8 privileged + fifth) x (columns + foundation) + 2. */
export const MAX_MOVES = 512;

/** Generation flags. */
export const GEN_ALL = 0;
/**
 * The solver's reduced generation, each sound (see solver notes in moves of this file):
 * a card goes into the first empty column only (all spaces are alike), and the only card of a
 * column never moves into a space (the position would be the same up to column order).
 */
export const GEN_REDUCED = 1;

/*
 * Undo records: two words a move, the move and an aux word:
 *   bits 0..3 the source column's count of original cards before the move,
 *   bits 4..10 the stock position of a waste / privileged card that moved,
 *   bit 11 a privileged card was replaced from the pile,
 *   bits 12..14 the foundation index a card went to.
 */

/**
 * The mutable position of one game. Cards are integers (cards.ts); every array is typed and
 * allocated once, in the constructor, so `generate`, `apply` and `undo` allocate nothing.
 *
 * Columns: `cols[c * height + i]`, i = 0 the top row card, `len[c]` cards; `orig[c]` of them are
 * still the cards dealt there (always the lowest indices). Under `building=pairs` a card above
 * the original cards, or above the first card of a refilled column, is the covering card of a
 * pair: `isPairTop(c)` is `len[c] > max(orig[c], 1)`.
 *
 * Stock and waste: the stock is `stockCards[stockPtr..]`; the waste is the stack `waste[0..wasteLen)`
 * of stock positions, increasing. In phase 2 the same array is the pile, first card discarded
 * first: the privileged row is `priv[0..privLen)` (stock positions, left to right) and the pile
 * still to come is `waste[pileNext..wasteLen)`; the fifth card is `waste[pileNext]`.
 */
export class Game {
  readonly deal: Deal;
  readonly rules: Rules;
  readonly columns: number;
  readonly height: number;
  readonly packs: number;
  readonly ranks: number;
  readonly total: number;
  readonly stockSize: number;
  /** 0 none, 1 pairs, 2 suit. */
  readonly building: number;
  readonly privileged: number;
  readonly secondDeal: boolean;

  readonly stockCards: Uint8Array;
  readonly cols: Uint8Array;
  readonly len: Uint8Array;
  readonly orig: Uint8Array;
  /** Top rank of each foundation, suit s at s*packs .. s*packs+packs-1. */
  readonly found: Uint8Array;
  /**
   * For each card code, how many foundations of its suit stand one rank below it (so it can go
   * home when this is not 0); kept by apply/undo, and by `syncFoundations` after `found` is set
   * by hand.
   */
  private readonly homeable = new Uint8Array(CARD_CODES + 1);
  /**
   * For each card code, how many copies of it are home (what the foundations' tops imply); kept
   * by apply/undo and `syncFoundations`, and copied out by `homeCounts`.
   */
  private readonly homeCnt = new Int8Array(CARD_CODES);
  home = 0;
  phase = 1;
  stockPtr = 0;
  readonly waste: Uint8Array;
  wasteLen = 0;
  readonly priv: Uint8Array;
  /**
   * Bit i set while stock position i is in the waste (phase 1) or in the privileged row or the
   * pile (phase 2); kept up to date by apply/undo so the solver's key can copy it.
   */
  readonly inPlayMask: Uint32Array;
  privLen = 0;
  pileNext = 0;
  private hist: Int32Array;
  histLen = 0;
  /**
   * The columns' marks, kept by apply/undo for the two columns a move touches (`unmark` before,
   * `mark` after; `syncColumns` after the columns are set by hand), so that `generate` makes
   * the layout's moves without working these out again:
   *   - `takes`: for each card code, the columns (a bit each) that expose it and take a card on
   *     it (a pair, or a build under building=suit);
   *   - `tops`: each column's exposed card (0: empty);
   *   - the columns that are empty, that expose an ace, whose exposed card is a pair's cover
   *     (it only goes home), and that hold one card.
   * Kept incrementally because rebuilding them at every `generate` was a large share of the
   * search's time.
   */
  private readonly takes = new Uint16Array(CARD_CODES + 1);
  private readonly tops = new Uint8Array(MAX_COLUMNS);
  private emptyCols = 0;
  private aceCols = 0;
  private coverCols = 0;
  private loneCols = 0;
  /** The first space, for `cardMoves` (set by `generate` and `generateWaste`). */
  private space = -1;
  /**
   * The solver's relaxed game (not a rule variant; off by default): the fifth card may be played
   * whenever it has a place (a foundation or a pair), even while a privileged card can move, so
   * rule 7's condition is dropped. Every legal move stays legal, so a position lost in the relaxed
   * game is lost (docs/SOLVER.md, "The relaxed fifth card and waste dominance").
   */
  freeFifth = false;

  constructor(deal: Deal, rules: Rules = deal.rules ?? BOOK) {
    const size = deal.size;
    this.deal = deal;
    this.rules = rules;
    this.columns = size.columns;
    this.packs = size.packs;
    this.ranks = size.ranks;
    this.height = size.rows + size.ranks + 1;
    this.total = size.packs * size.ranks * 4;
    this.stockSize = deal.stock.length;
    this.building = rules.building === 'pairs' ? 1 : rules.building === 'suit' ? 2 : 0;
    this.secondDeal = rules.secondDeal === 'privileged';
    this.privileged = rules.privileged;
    this.stockCards = Uint8Array.from(deal.stock);
    this.cols = new Uint8Array(this.columns * this.height);
    this.len = new Uint8Array(this.columns);
    this.orig = new Uint8Array(this.columns);
    this.found = new Uint8Array(4 * this.packs);
    this.waste = new Uint8Array(Math.max(1, this.stockSize));
    this.priv = new Uint8Array(8);
    this.inPlayMask = new Uint32Array(((this.stockSize + 31) >>> 5) + 1);
    this.hist = new Int32Array(1024);
    this.reset();
  }

  /**
   * The game after `moves` from the deal, that position the start of its history
   * (`forgetHistory`): a search from the middle of a game. Throws on a move that is not legal
   * in turn (callers check moves from users first, with the verifier's messages).
   */
  static after(deal: Deal, rules: Rules, moves: readonly PackedMove[]): Game {
    const g = new Game(deal, rules);
    if (moves.length === 0) return g;
    if (g.playLegal(moves, new Int32Array(MAX_MOVES)) < moves.length) throw new Error(`move ${g.moveCount + 1} of the moves given is not legal`);
    g.forgetHistory();
    return g;
  }

  /**
   * Plays `moves` in turn for as long as each is legal (`buf`: room for `generate`); returns how
   * many were played, `moves.length` when all were.
   */
  playLegal(moves: readonly PackedMove[], buf: Int32Array): number {
    for (let i = 0; i < moves.length; i++) {
      const m = moves[i]!;
      const n = this.generate(buf);
      let legal = false;
      for (let k = 0; k < n && !legal; k++) legal = buf[k] === m;
      if (!legal) return i;
      this.apply(m);
    }
    return moves.length;
  }

  /** Back to the deal's starting position. */
  reset(): void {
    const d = this.deal;
    for (let c = 0; c < this.columns; c++) {
      const col = d.columns[c]!;
      for (let i = 0; i < col.length; i++) this.cols[c * this.height + i] = col[i]!;
      this.len[c] = col.length;
      this.orig[c] = col.length;
    }
    this.syncColumns();
    this.found.fill(0);
    this.syncFoundations();
    this.home = 0;
    this.phase = 1;
    this.stockPtr = 0;
    this.wasteLen = 0;
    this.privLen = 0;
    this.pileNext = 0;
    this.inPlayMask.fill(0);
    this.histLen = 0;
  }

  get moveCount(): number {
    return this.histLen >> 1;
  }

  top(c: number): Card {
    const l = this.len[c]!;
    return l === 0 ? 0 : this.cols[c * this.height + l - 1]!;
  }

  isPairTop(c: number): boolean {
    const o = this.orig[c]!;
    return this.building === 1 && this.len[c]! > (o > 0 ? o : 1);
  }

  wasteTop(): Card {
    return this.phase === 1 && this.wasteLen > 0 ? this.stockCards[this.waste[this.wasteLen - 1]!]! : 0;
  }

  privCard(i: number): Card {
    return this.stockCards[this.priv[i]!]!;
  }

  /** The next card of the pile (the fifth card), or 0 when the pile is exhausted or in phase 1. */
  fifthCard(): Card {
    return this.phase === 2 && this.pileNext < this.wasteLen ? this.stockCards[this.waste[this.pileNext]!]! : 0;
  }

  /**
   * The card a move from `src` takes in this position (a packed move's card): a column's exposed
   * card, the waste top, a privileged card, the fifth card, the next stock card for a draw; 0
   * for the redeal, or where there is none.
   */
  cardAt(src: number): Card {
    if (src < SRC_WASTE) return this.top(src);
    if (src === SRC_WASTE) return this.wasteTop();
    if (src === SRC_FIFTH) return this.fifthCard();
    if (src === SRC_DRAW) return this.stockPtr < this.stockSize ? this.stockCards[this.stockPtr]! : 0;
    if (src === SRC_REDEAL) return 0;
    return this.privCard(src - SRC_PRIV);
  }

  canHome(card: Card): boolean {
    return this.homeable[card] !== 0;
  }

  /** Recomputes the columns' marks after `cols`, `len` or `orig` were set by hand. */
  syncColumns(): void {
    this.takes.fill(0);
    this.emptyCols = 0;
    this.aceCols = 0;
    this.coverCols = 0;
    this.loneCols = 0;
    for (let c = 0; c < this.columns; c++) this.mark(c);
  }

  /** True when the marks kept by apply/undo are those `syncColumns` would compute (for tests). */
  columnMarksInSync(): boolean {
    const takes = this.takes.slice();
    const tops = this.tops.slice();
    const masks = [this.emptyCols, this.aceCols, this.coverCols, this.loneCols];
    this.syncColumns();
    let same = masks.join() === [this.emptyCols, this.aceCols, this.coverCols, this.loneCols].join();
    for (let i = 0; i < tops.length; i++) if (tops[i] !== this.tops[i]) same = false;
    for (let i = 0; i < takes.length; i++) if (takes[i] !== this.takes[i]) same = false;
    return same;
  }

  /** Adds column c, as it stands, to the marks. */
  private mark(c: number): void {
    const bit = 1 << c;
    const card = this.top(c);
    this.tops[c] = card;
    if (card === 0) {
      this.emptyCols |= bit;
      return;
    }
    if ((card & 15) === 1) this.aceCols |= bit;
    if (this.len[c] === 1) this.loneCols |= bit;
    if (this.isPairTop(c)) this.coverCols |= bit;
    else if (this.building !== 0) this.takes[card]! |= bit;
  }

  /**
   * Takes column c, as it stands, out of the marks (before a move changes it). An empty column's
   * `tops` entry is 0, and `takes[0]` is never read (cards are 1 or more).
   */
  private unmark(c: number): void {
    const bit = ~(1 << c);
    this.emptyCols &= bit;
    this.aceCols &= bit;
    this.coverCols &= bit;
    this.loneCols &= bit;
    this.takes[this.tops[c]!]! &= bit;
  }

  /** Recomputes what `canHome` reads from `found` (call after setting `found` by hand). */
  syncFoundations(): void {
    const homeable = this.homeable;
    const cnt = this.homeCnt;
    homeable.fill(0);
    cnt.fill(0);
    for (let s = 0; s < 4; s++) {
      for (let k = 0; k < this.packs; k++) {
        const top = this.found[s * this.packs + k]!;
        if (top < this.ranks) homeable[(s << 4) | (top + 1)]!++;
        for (let r = 1; r <= top; r++) cnt[(s << 4) | r]!++;
      }
    }
  }

  /** Writes into `out[card]` how many copies of each card are home (what the foundations' tops imply). */
  homeCounts(out: Int8Array): void {
    out.set(this.homeCnt);
  }

  isWon(): boolean {
    return this.home === this.total;
  }

  /** A column that takes `card` as a pair (or a build under building=suit), or -1. `except` is skipped. */
  buildTarget(card: Card, except: number): number {
    const t = this.takes[card + 1]! & ~(except >= 0 ? 1 << except : 0);
    return t === 0 ? -1 : 31 - Math.clz32(t & -t);
  }

  firstSpace(): number {
    const e = this.emptyCols;
    return e === 0 ? -1 : 31 - Math.clz32(e & -e);
  }

  /** Rule 7's condition: does some privileged card have a legal place (foundation, pair, space)? */
  privilegedCanMove(): boolean {
    if (this.privLen === 0) return false;
    if (this.firstSpace() >= 0) return true;
    for (let i = 0; i < this.privLen; i++) {
      const card = this.stockCards[this.priv[i]!]!;
      if (this.canHome(card) || this.buildTarget(card, -1) >= 0) return true;
    }
    return false;
  }

  /**
   * Compulsory aces (RULES.md rule 1): writes the moves of free aces to the foundations and
   * returns how many; 0 when no ace is free.
   */
  private aceMoves(out: Int32Array): number {
    let n = 0;
    for (let m = this.aceCols; m !== 0; m &= m - 1) {
      const c = 31 - Math.clz32(m & -m);
      out[n++] = c | (DST_FOUNDATION << 6) | (this.tops[c]! << 12);
    }
    if (this.phase === 1) {
      if (this.wasteLen > 0) {
        const card = this.stockCards[this.waste[this.wasteLen - 1]!]!;
        if ((card & 15) === 1) out[n++] = SRC_WASTE | (DST_FOUNDATION << 6) | (card << 12);
      }
    } else {
      for (let i = 0; i < this.privLen; i++) {
        const card = this.stockCards[this.priv[i]!]!;
        if ((card & 15) === 1) out[n++] = (SRC_PRIV + i) | (DST_FOUNDATION << 6) | (card << 12);
      }
    }
    return n;
  }

  /** Is any ace free (so that only ace moves are legal)? */
  aceIsFree(): boolean {
    return this.aceCols !== 0 || this.freeAceOffLayout();
  }

  /**
   * Moves of one free card: to a foundation, onto another column, into a space. `col` is its
   * column or -1; `movable` false for the covering card of a pair (foundation only). Uses the
   * marks kept by apply/undo (`takes`) and the `space` that the caller set.
   */
  private cardMoves(out: Int32Array, n: number, src: number, card: Card, col: number, movable: boolean, lone: boolean, flags: number): number {
    const head = src | (card << 12);
    if (this.canHome(card)) out[n++] = head | (DST_FOUNDATION << 6);
    if (!movable) return n;
    let t = this.takes[card + 1]!;
    if (col >= 0) t &= ~(1 << col);
    while (t !== 0) {
      const d = 31 - Math.clz32(t & -t);
      out[n++] = head | (d << 6);
      t &= t - 1;
    }
    if (this.space >= 0) {
      if (flags === GEN_ALL) {
        for (let d = this.space; d < this.columns; d++) if (this.len[d] === 0) out[n++] = head | (d << 6);
      } else if (!lone) out[n++] = head | (this.space << 6);
    }
    return n;
  }

  /**
   * Writes the legal moves into `out` (at least MAX_MOVES long) and returns their count.
   * Order: columns' exposed cards, waste top, privileged cards (each: foundation, pairs,
   * space), then the fifth card, draw, redeal. With GEN_REDUCED only the first space is offered
   * and a column's only card is not offered a space.
   */
  generate(out: Int32Array, flags: number = GEN_ALL): number {
    // Compulsory aces (rule 1): while one is free, only ace moves.
    if (this.aceCols !== 0 || this.freeAceOffLayout()) return this.aceMoves(out);
    const C = this.columns;
    const tops = this.tops;
    const cover = this.coverCols;
    const lone = this.loneCols;
    const e = this.emptyCols;
    this.space = e === 0 ? -1 : 31 - Math.clz32(e & -e);
    let n = 0;
    for (let c = 0; c < C; c++) {
      const card = tops[c]!;
      if (card !== 0) n = this.cardMoves(out, n, c, card, c, ((cover >> c) & 1) === 0, ((lone >> c) & 1) !== 0, flags);
    }
    if (this.phase === 1) {
      if (this.wasteLen > 0) n = this.cardMoves(out, n, SRC_WASTE, this.stockCards[this.waste[this.wasteLen - 1]!]!, -1, true, false, flags);
      if (this.stockPtr < this.stockSize) out[n++] = SRC_DRAW | (this.stockCards[this.stockPtr]! << 12);
      else if (this.secondDeal && this.wasteLen > 0) out[n++] = SRC_REDEAL;
    } else {
      const before = n;
      for (let i = 0; i < this.privLen; i++) n = this.cardMoves(out, n, SRC_PRIV + i, this.stockCards[this.priv[i]!]!, -1, true, false, flags);
      // Rule 7: the fifth card only when no privileged card can move; it goes to a foundation or a pair.
      // (With flags=GEN_REDUCED the count of privileged moves is still exact about "some place exists",
      // since a space, when there is one, is always offered to a privileged card.)
      if ((n === before || this.freeFifth) && this.pileNext < this.wasteLen) {
        const card = this.stockCards[this.waste[this.pileNext]!]!;
        // Never into a space: under rule 7 there is none when the fifth card may move.
        const space = this.space;
        this.space = -1;
        n = this.cardMoves(out, n, SRC_FIFTH, card, -1, true, false, flags);
        this.space = space;
      }
    }
    return n;
  }

  /**
   * In the first deal, the moves of `generate(out, flags)` whose source is the waste top, a
   * draw or the redeal, in the same order, without making the layout's moves: all that the
   * solver's draw discipline keeps right after a draw (moves.ts), which is most first-deal
   * positions. A free ace in the layout leaves only ace moves, so none of these.
   */
  generateWaste(out: Int32Array, flags: number = GEN_ALL): number {
    const hasWaste = this.wasteLen > 0;
    const card = hasWaste ? this.stockCards[this.waste[this.wasteLen - 1]!]! : 0;
    if (hasWaste && (card & 15) === 1) {
      out[0] = SRC_WASTE | (DST_FOUNDATION << 6) | (card << 12);
      return 1;
    }
    if (this.aceCols !== 0) return 0;
    let n = 0;
    if (hasWaste) {
      const e = this.emptyCols;
      this.space = e === 0 ? -1 : 31 - Math.clz32(e & -e);
      n = this.cardMoves(out, 0, SRC_WASTE, card, -1, true, false, flags);
    }
    if (this.stockPtr < this.stockSize) out[n++] = SRC_DRAW | (this.stockCards[this.stockPtr]! << 12);
    else if (this.secondDeal && hasWaste) out[n++] = SRC_REDEAL;
    return n;
  }

  /** Is the waste top (phase 1) or a privileged card (phase 2) an ace? */
  private freeAceOffLayout(): boolean {
    if (this.phase === 1) return this.wasteLen > 0 && (this.stockCards[this.waste[this.wasteLen - 1]!]! & 15) === 1;
    for (let i = 0; i < this.privLen; i++) if ((this.stockCards[this.priv[i]!]! & 15) === 1) return true;
    return false;
  }

  /** Plays a legal packed move (no legality check: use `generate` or the verifier). */
  apply(m: PackedMove): void {
    const src = m & 63;
    const dst = (m >> 6) & 63;
    const card = m >>> 12;
    let aux = 0;
    if (src === SRC_DRAW) {
      const p = this.stockPtr++;
      this.waste[this.wasteLen++] = p;
      this.inPlayMask[p >>> 5]! |= 1 << (p & 31);
    } else if (src === SRC_REDEAL) {
      this.phase = 2;
      const k = this.wasteLen < this.privileged ? this.wasteLen : this.privileged;
      for (let i = 0; i < k; i++) this.priv[i] = this.waste[i]!;
      this.privLen = k;
      this.pileNext = k;
    } else {
      if (src < SRC_WASTE) {
        this.unmark(src);
        const l = --this.len[src]!;
        const o = this.orig[src]!;
        aux = o;
        if (o > l) this.orig[src] = l;
        this.mark(src);
      } else if (src === SRC_WASTE) {
        const p = this.waste[--this.wasteLen]!;
        aux = p << 4;
        this.inPlayMask[p >>> 5]! &= ~(1 << (p & 31));
      } else if (src === SRC_FIFTH) {
        const p = this.waste[this.pileNext++]!;
        this.inPlayMask[p >>> 5]! &= ~(1 << (p & 31));
      } else {
        const i = src - SRC_PRIV;
        const priv = this.priv;
        const p = priv[i]!;
        aux = p << 4;
        this.inPlayMask[p >>> 5]! &= ~(1 << (p & 31));
        const last = this.privLen - 1;
        for (let j = i; j < last; j++) priv[j] = priv[j + 1]!;
        this.privLen = last;
        if (this.pileNext < this.wasteLen) {
          priv[this.privLen++] = this.waste[this.pileNext++]!;
          aux |= 1 << 11;
        }
      }
      if (dst === DST_FOUNDATION) {
        let f = (card >> 4) * this.packs;
        if (this.found[f] !== (card & 15) - 1) f++;
        this.found[f] = card & 15;
        this.homeable[card]!--;
        if ((card & 15) < this.ranks) this.homeable[card + 1]!++;
        this.homeCnt[card]!++;
        this.home++;
        aux |= f << 12;
      } else {
        this.unmark(dst);
        this.cols[dst * this.height + this.len[dst]!++] = card;
        this.mark(dst);
      }
    }
    if (this.histLen + 2 > this.hist.length) {
      const bigger = new Int32Array(this.hist.length * 2);
      bigger.set(this.hist);
      this.hist = bigger;
    }
    this.hist[this.histLen++] = m;
    this.hist[this.histLen++] = aux;
  }

  /** Takes back the last move exactly. */
  undo(): void {
    const aux = this.hist[--this.histLen]!;
    const m = this.hist[--this.histLen]!;
    const src = m & 63;
    const dst = (m >> 6) & 63;
    const card = m >>> 12;
    if (src === SRC_DRAW) {
      this.wasteLen--;
      const p = --this.stockPtr;
      this.inPlayMask[p >>> 5]! &= ~(1 << (p & 31));
      return;
    }
    if (src === SRC_REDEAL) {
      this.phase = 1;
      this.privLen = 0;
      this.pileNext = 0;
      return;
    }
    if (dst === DST_FOUNDATION) {
      this.found[(aux >> 12) & 7]!--;
      this.homeable[card]!++;
      if ((card & 15) < this.ranks) this.homeable[card + 1]!--;
      this.homeCnt[card]!--;
      this.home--;
    } else {
      this.unmark(dst);
      this.len[dst]!--;
      this.mark(dst);
    }
    if (src < SRC_WASTE) {
      this.unmark(src);
      this.cols[src * this.height + this.len[src]!++] = card;
      this.orig[src] = aux & 15;
      this.mark(src);
    } else if (src === SRC_WASTE) {
      const p = (aux >> 4) & 127;
      this.waste[this.wasteLen++] = p;
      this.inPlayMask[p >>> 5]! |= 1 << (p & 31);
    } else if (src === SRC_FIFTH) {
      const p = this.waste[--this.pileNext]!;
      this.inPlayMask[p >>> 5]! |= 1 << (p & 31);
    } else {
      const i = src - SRC_PRIV;
      const priv = this.priv;
      if (aux & (1 << 11)) {
        this.privLen--;
        this.pileNext--;
      }
      for (let j = this.privLen; j > i; j--) priv[j] = priv[j - 1]!;
      const p = (aux >> 4) & 127;
      priv[i] = p;
      this.privLen++;
      this.inPlayMask[p >>> 5]! |= 1 << (p & 31);
    }
  }

  /**
   * Makes the current position the start of the history: `undo` goes no further back, and
   * `history()` starts here (a search from the middle of a game takes it as its root).
   */
  forgetHistory(): void {
    this.histLen = 0;
  }

  /** The packed moves played so far, oldest first (allocates: not for hot loops). */
  history(): PackedMove[] {
    const out: PackedMove[] = [];
    for (let i = 0; i < this.histLen; i += 2) out.push(this.hist[i]!);
    return out;
  }

  /**
   * What a player who does not know the pile may do when no privileged card can move (rule 7):
   * turn the fifth card blind. Returns 'none' when the fifth card may not be turned now,
   * 'lose' when the card turned has no place (the game is over), 'play' when it can be played
   * (its moves are the SRC_FIFTH moves of `generate`).
   */
  blindTurn(): 'none' | 'lose' | 'play' {
    if (this.phase !== 2 || this.pileNext >= this.wasteLen || this.aceIsFree() || this.privilegedCanMove()) return 'none';
    const card = this.stockCards[this.waste[this.pileNext]!]!;
    return this.canHome(card) || this.buildTarget(card, -1) >= 0 ? 'play' : 'lose';
  }

  /** Every card is in exactly one place: counts of each card code over all places (for tests). */
  cardCounts(): Map<Card, number> {
    const counts = new Map<Card, number>();
    const add = (c: Card) => counts.set(c, (counts.get(c) ?? 0) + 1);
    for (let c = 0; c < this.columns; c++) for (let i = 0; i < this.len[c]!; i++) add(this.cols[c * this.height + i]!);
    for (let s = 0; s < 4; s++) for (let k = 0; k < this.packs; k++) for (let r = 1; r <= this.found[s * this.packs + k]!; r++) add((s << 4) | r);
    if (this.phase === 1) {
      for (let i = 0; i < this.wasteLen; i++) add(this.stockCards[this.waste[i]!]!);
      for (let i = this.stockPtr; i < this.stockSize; i++) add(this.stockCards[i]!);
    } else {
      for (let i = 0; i < this.privLen; i++) add(this.stockCards[this.priv[i]!]!);
      for (let i = this.pileNext; i < this.wasteLen; i++) add(this.stockCards[this.waste[i]!]!);
    }
    return counts;
  }

  /** A snapshot of the whole position as a string (tests compare these around undo). */
  snapshot(): string {
    const cols: string[] = [];
    for (let c = 0; c < this.columns; c++) cols.push(`${Array.from(this.cols.subarray(c * this.height, c * this.height + this.len[c]!)).join(',')}/${this.orig[c]}`);
    return [
      cols.join(' '),
      Array.from(this.found).join(','),
      this.home,
      this.phase,
      this.stockPtr,
      Array.from(this.waste.subarray(0, this.wasteLen)).join(','),
      Array.from(this.priv.subarray(0, this.privLen)).join(','),
      this.pileNext,
    ].join('|');
  }
}
