import { type Game, type PackedMove, DST_FOUNDATION, SRC_REDEAL, SRC_WASTE } from '../game/state.js';

/**
 * A sound test that a second-deal position is lost: "the pile cannot get through".
 *
 * In phase 2 the pile comes in a fixed order, and a pile card that cannot go home has to wait
 * somewhere: in the privileged row (`privileged` places) or parked in the layout (as the
 * covering card of a pair or in a space). We solve a relaxed game R in which
 *   - every layout card is free: it goes home as soon as a foundation of its suit takes it
 *     (column order ignored: more moves than the real game);
 *   - a row or pile card may go home whenever a foundation takes it (even from deep in the
 *     row or as the fifth card when privileged cards could move: more moves again);
 *   - any card that waits goes into one buffer whose size is an upper bound of what the row
 *     and the layout can hold.
 * If R cannot get every pile card past the buffer, neither can the real game, nor the relaxed game
 * of the fifth card (`Game.freeFifth`): R never uses rule 7's condition, and a fifth card paired
 * while a privileged card could move waits in the layout, counted by the buffer like any other.
 *
 * The parking bound (building=pairs): a column that still holds dealt cards holds at most one
 * other card (a pair's cover: nothing goes on a pair), and a column whose dealt cards are gone
 * at most two (a card in the space and its cover). So with E columns emptied of their dealt
 * cards, the layout holds at most F <= C + E cards that were not dealt there. A column is
 * emptied of its dealt cards only when each of them is home or is itself one of those F cards
 * elsewhere (f_o of them), so E <= E_home + f_o, where E_home counts columns whose dealt cards
 * are all home. The cards parked from the pile are at most F - f_o <= C + E_home.
 * Under building=none no card goes on another, so F <= E and parked cards <= E_home.
 * E_home is taken optimistically: a column counts when each of its dealt cards has at least one
 * copy home. (Under building=suit runs can be stacked without limit, so the test is off.)
 *
 * R is decided by a greedy simulation: sending a card home never takes a move away in R (the
 * foundations only rise, and a card home leaves the buffer or the free layout), and a waiting
 * card home from the buffer rather than a twin from the layout keeps the buffer smaller with
 * the same foundations; when a pile card finds its place taken by a layout twin that R sent
 * home earlier, the two swap (see `goesHome`). So the pile is run through once, in order, with
 * everything that can go home sent home at once; it fails exactly when a card must wait and
 * the buffer is full.
 *
 * The same test at the end of the first deal was tried and dropped (docs/SOLVER.md, PileBound).
 */
export class PileBound {
  private readonly home = new Int8Array(64);
  private readonly layout = new Int8Array(64);
  private readonly buffer = new Int8Array(64);
  /** Layout copies that R has sent home (see `goesHome`). */
  private readonly homeLayout = new Int8Array(64);
  private bufferCount = 0;
  /** emptiedHome() as last counted, or -1 when a card has since got its first copy home. */
  private emptied = -1;
  private readonly dealt: Uint8Array;
  private readonly rows: number;
  /** The game's sizes, kept here for the inner loops. */
  private readonly packs: number;
  private readonly ranks: number;
  private readonly columns: number;
  /** The stock positions of each card (`packs` slots a card; -1 when the copy was dealt to the layout). */
  private readonly stockPos: Int16Array;
  readonly enabled: boolean;
  /**
   * Stop as soon as the cards still to come fit in the fixed slots (the answer is then "not
   * lost"). Only a test turns it off, to check that stopping gives the same answers.
   */
  stopEarly = true;

  constructor(private readonly g: Game) {
    this.rows = g.deal.size.rows;
    this.packs = g.packs;
    this.ranks = g.ranks;
    this.columns = g.columns;
    this.dealt = new Uint8Array(g.columns * this.rows);
    for (let c = 0; c < g.columns; c++) for (let r = 0; r < this.rows; r++) this.dealt[c * this.rows + r] = g.deal.columns[c]![r]!;
    this.enabled = g.secondDeal && g.building !== 2;
    this.stockPos = new Int16Array(64 * g.packs);
    this.restock();
  }

  /**
   * Reads the stock order again: for a game whose stock cards were changed after this bound
   * was made (the sampling player fills the unseen stock with a new guess for each sample).
   */
  restock(): void {
    const g = this.g;
    this.stockPos.fill(-1);
    for (let p = 0; p < g.stockSize; p++) {
      const slot = g.stockCards[p]! * g.packs;
      this.stockPos[this.stockPos[slot] === -1 ? slot : slot + 1] = p;
    }
  }

  /**
   * Can the move `m` turn the answer of `lost()` from "not lost" (the parent's, or it would
   * not have been expanded) to "lost"? R reads only the foundations, the multiset of layout
   * cards, the privileged row and the pile.
   * - A move from one column to another changes none of them.
   * - A privileged card played (home, as a pair or into a space) or the fifth card played: R
   *   from the parent sends that card home or keeps it waiting in the buffer, where in R from
   *   the child it is home or a free layout card; the card that joins the row is the one R
   *   from the parent takes off the pile first. So R from the child gets through whenever R
   *   from the parent does.
   * - A layout card X sent home: R from the child starts with the foundations higher and one
   *   free layout card fewer, which can only help every card but a copy of X itself (a copy
   *   of X now needs both copies of the card below it home). That matters only for a copy of
   *   X in the row or the pile, which has to get past the buffer; a copy in the layout is
   *   free and waits at no cost, and a copy home is home. So only then can the answer change.
   * - The redeal starts the second deal: R is asked for the first time.
   * Node counts are the same with or without this test (the bound never fires where it says
   * no: checked by the tests).
   */
  mayChange(m: PackedMove): boolean {
    const src = m & 63;
    if (src === SRC_REDEAL) return true;
    if (src >= SRC_WASTE || ((m >> 6) & 63) !== DST_FOUNDATION) return false;
    const slot = (m >>> 12) * this.g.packs;
    const mask = this.g.inPlayMask;
    for (let k = 0; k < this.g.packs; k++) {
      const p = this.stockPos[slot + k]!;
      if (p >= 0 && (mask[p >>> 5]! & (1 << (p & 31))) !== 0) return true;
    }
    return false;
  }

  /**
   * After `lost` answered true: the waste index (exclusive) of the pile card that could not get
   * through. R takes the pile in order, and its state before a card depends on the position's
   * columns, foundations and row and on the cards before it only, so every pile that begins with
   * these cards fails there too (pile nogoods: nogoods.ts).
   */
  readTo = 0;

  /** True when the position is proven lost (phase 2 only; false means "not proven"). */
  lost(): boolean {
    const g = this.g;
    if (!this.enabled) return false;
    // The buffer never holds more than the row and the pile still to come: if that fits in the
    // slots every column gives, nothing can overflow.
    const fixedSlots = g.privileged + (g.building === 1 ? g.columns : 0);
    if (g.phase !== 2 || g.privLen + g.wasteLen - g.pileNext <= fixedSlots) return false;
    const home = this.home;
    const layout = this.layout;
    const buffer = this.buffer;
    layout.fill(0);
    buffer.fill(0);
    this.homeLayout.fill(0);
    g.homeCounts(home);
    // The game's arrays in locals: read through `g` in the loops, they are loaded again at
    // every step (a store into a typed array may, for the compiler, have changed them).
    const h = g.height;
    const cols = g.cols;
    const len = g.len;
    const C = g.columns;
    const stockCards = g.stockCards;
    for (let c = 0; c < C; c++) {
      const from = c * h;
      const to = from + len[c]!;
      for (let i = from; i < to; i++) layout[cols[i]!]!++;
    }
    for (let i = 0; i < g.privLen; i++) buffer[stockCards[g.priv[i]!]!]!++;
    this.bufferCount = g.privLen;
    for (let s = 0; s < 4; s++) this.sweep(s, 1);
    // emptiedHome() changes only when a card gets its first copy home (see `homeOne`).
    this.emptied = -1;
    const waste = g.waste;
    const end = g.wasteLen;
    const stopEarly = this.stopEarly;
    for (let i = g.pileNext; i < end; i++) {
      // Each card still to come adds at most one to the buffer: when they all fit in the fixed
      // slots, none overflows (the same answer as going on; a call takes a fifth less time).
      if (stopEarly && this.bufferCount + end - i <= fixedSlots) return false;
      const card = stockCards[waste[i]!]!;
      if (this.goesHome(card)) continue;
      if (this.bufferCount < fixedSlots) {
        buffer[card]!++;
        this.bufferCount++;
        continue;
      }
      if (this.emptied < 0) this.emptied = this.emptiedHome();
      if (this.bufferCount < fixedSlots + this.emptied) {
        buffer[card]!++;
        this.bufferCount++;
        continue;
      }
      this.readTo = i + 1;
      return true;
    }
    return false;
  }

  /**
   * A card that comes off the pile (or the waste) goes home in R if a foundation takes it, or
   * if a twin from the layout took its place earlier in R: then the two swap (this card home,
   * the twin back in the free layout), which leaves the foundations as they were. Without the
   * swap R could be stricter than the real game, where the twin may simply have waited.
   */
  private goesHome(card: number): boolean {
    const r = card & 15;
    if ((r === 1 ? this.packs : this.home[card - 1]!) > this.home[card]!) {
      this.homeOne(card);
      // The suit was fully swept before, so only ranks above can move now, and each rank
      // only if the one below it did.
      this.climb(card >> 4, r + 1);
      return true;
    }
    if (this.homeLayout[card]! > 0) {
      this.homeLayout[card]!--;
      this.layout[card]!++;
      return true;
    }
    return false;
  }

  /** Sends home, in rank order from `from`, every waiting card of suit s that a foundation takes. */
  private sweep(s: number, from: number): void {
    for (let r = from; r <= this.ranks; r++) {
      const card = (s << 4) | r;
      if (!this.take(card) && this.home[card] === 0) return;
    }
  }

  /**
   * The same after one card of suit s went home, the suit having been swept before: rank r
   * can take a card only if rank r-1 has just gained one, so the climb stops at the first
   * rank where nothing moves. (Gives exactly what `sweep` would.)
   */
  private climb(s: number, from: number): void {
    for (let r = from; r <= this.ranks; r++) if (!this.take((s << 4) | r)) return;
  }

  /** Sends home every waiting copy of `card` that a foundation takes, the row's first; true if any moved. */
  private take(card: number): boolean {
    const home = this.home;
    const r = card & 15;
    const packs = this.packs;
    let moved = false;
    while ((r === 1 ? packs : home[card - 1]!) > home[card]!) {
      if (this.buffer[card]! > 0) {
        this.buffer[card]!--;
        this.bufferCount--;
      } else if (this.layout[card]! > 0) {
        this.layout[card]!--;
        this.homeLayout[card]!++;
      } else break;
      this.homeOne(card);
      moved = true;
    }
    return moved;
  }

  private homeOne(card: number): void {
    if (this.home[card]!++ === 0) this.emptied = -1;
  }

  /** Columns each of whose dealt cards has a copy home (optimistic E_home). */
  private emptiedHome(): number {
    const rows = this.rows;
    let n = 0;
    for (let c = 0; c < this.columns; c++) {
      let all = true;
      for (let r = 0; r < rows && all; r++) if (this.home[this.dealt[c * rows + r]!] === 0) all = false;
      if (all) n++;
    }
    return n;
  }
}
