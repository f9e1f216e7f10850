import { type Game } from '../game/state.js';

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
 * If R cannot get every pile card past the buffer, neither can the real game.
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
 * The end of the first deal (stock empty, before the redeal) is tested too: the pile will be
 * the waste less the cards still taken off its top before the redeal, and R first takes off as
 * many as can come off (see `popWaste`), then runs the rest as the pile. On book deal 9 this
 * cuts more than half of the positions with the stock dealt out, before the search enumerates
 * the ways to end the first deal. (An earlier phase-1 version that also freed the stock still
 * to come and parked waste cards in the buffer cut almost nothing: too loose.)
 */
export class PileBound {
  private readonly home = new Int8Array(64);
  private readonly layout = new Int8Array(64);
  private readonly buffer = new Int8Array(64);
  /** Layout copies that R has sent home (see `goesHome`). */
  private readonly homeLayout = new Int8Array(64);
  /** First deal (popWaste): pair bases covered, cards put into spaces, layout copies of each card. */
  private readonly covered = new Int8Array(64);
  private readonly spaceCards = new Int8Array(64);
  private readonly copies = new Int8Array(64);
  private bufferCount = 0;
  /** emptiedHome() as last counted, or -1 when a card has since got its first copy home. */
  private emptied = -1;
  private readonly dealt: Uint8Array;
  private readonly rows: number;
  readonly enabled: boolean;

  constructor(private readonly g: Game) {
    this.rows = g.deal.size.rows;
    this.dealt = new Uint8Array(g.columns * this.rows);
    for (let c = 0; c < g.columns; c++) for (let r = 0; r < this.rows; r++) this.dealt[c * this.rows + r] = g.deal.columns[c]![r]!;
    this.enabled = g.secondDeal && g.building !== 2;
  }

  /** True when the position is proven lost (false means "not proven"). */
  lost(): boolean {
    const g = this.g;
    if (!this.enabled) return false;
    // The buffer never holds more than the row and the pile still to come: if that fits in the
    // slots every column gives, nothing can overflow.
    const fixedSlots = g.privileged + (g.building === 1 ? g.columns : 0);
    let first: number;
    let end: number;
    if (g.phase === 2) {
      if (g.privLen + g.wasteLen - g.pileNext <= fixedSlots) return false;
      first = g.pileNext;
      end = g.wasteLen;
    } else {
      if (g.stockPtr < g.stockSize || g.wasteLen <= fixedSlots) return false;
      first = 0;
    }
    const home = this.home;
    const layout = this.layout;
    const buffer = this.buffer;
    const packs = g.packs;
    home.fill(0);
    layout.fill(0);
    buffer.fill(0);
    this.homeLayout.fill(0);
    for (let s = 0; s < 4; s++)
      for (let k = 0; k < packs; k++) {
        const top = g.found[s * packs + k]!;
        for (let r = 1; r <= top; r++) home[(s << 4) | r]!++;
      }
    const h = g.height;
    for (let c = 0; c < g.columns; c++) for (let i = 0; i < g.len[c]!; i++) layout[g.cols[c * h + i]!]!++;
    this.bufferCount = 0;
    if (g.phase === 2) {
      for (let i = 0; i < g.privLen; i++) buffer[g.stockCards[g.priv[i]!]!]!++;
      this.bufferCount = g.privLen;
    }
    for (let s = 0; s < 4; s++) this.sweep(s, 1);
    // emptiedHome() changes only when a card gets its first copy home (see `homeOne`).
    this.emptied = -1;
    if (g.phase === 1) {
      end = this.popWaste();
      if (end <= fixedSlots) return false;
    }
    for (let i = first; i < end!; i++) {
      const card = g.stockCards[g.waste[i]!]!;
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
    if ((r === 1 ? this.g.packs : this.home[card - 1]!) > this.home[card]!) {
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

  /**
   * First deal, stock empty: the waste cards that can still come off the top before the redeal.
   * Each must go home, onto a pair (a copy of the next card up of its suit in the layout, or
   * one that came off into a space, not yet covered) or into a space (a column that is empty,
   * or all of whose cards are home in R or could be paired away). These counts are optimistic
   * (any layout copy, wherever it lies), and R takes off as many as they allow, a card home
   * whenever it can, on a pair before a space: taking off more only shortens the pile from its
   * end and frees the cards taken (the test is monotone in this). A card taken off is a free
   * layout card in R from then on. Returns the number of waste cards left: the pile, in order.
   */
  private popWaste(): number {
    const g = this.g;
    const pairs = g.building === 1;
    const covered = this.covered;
    const spaceCards = this.spaceCards;
    const copies = this.copies;
    covered.fill(0);
    spaceCards.fill(0);
    copies.set(this.layout);
    for (let s = 0; s < 64; s++) copies[s]! += this.homeLayout[s]!;
    let spacesUsed = 0;
    let spaces = -1;
    let i = g.wasteLen - 1;
    for (; i >= 0; i--) {
      const card = g.stockCards[g.waste[i]!]!;
      if (this.goesHome(card)) {
        spaces = -1;
        continue;
      }
      if (pairs && (card & 15) < g.ranks && copies[card + 1]! + spaceCards[card + 1]! > covered[card + 1]!) {
        covered[card + 1]!++;
        this.layout[card]!++;
        continue;
      }
      if (spaces < 0) spaces = this.spaces();
      if (spacesUsed < spaces) {
        spacesUsed++;
        spaceCards[card]!++;
        this.layout[card]!++;
        continue;
      }
      break;
    }
    return i + 1;
  }

  /** Columns that can be empty before the redeal, counted optimistically (see popWaste). */
  private spaces(): number {
    const g = this.g;
    const h = g.height;
    const pairs = g.building === 1;
    let n = 0;
    for (let c = 0; c < g.columns; c++) {
      let ok = true;
      for (let i = 0; i < g.len[c]! && ok; i++) {
        const card = g.cols[c * h + i]!;
        if (this.home[card]! > 0) continue;
        if (pairs && (card & 15) < g.ranks && this.copies[card + 1]! > 0) continue;
        ok = false;
      }
      if (ok) n++;
    }
    return n;
  }

  /** Sends home, in rank order from `from`, every waiting card of suit s that a foundation takes. */
  private sweep(s: number, from: number): void {
    for (let r = from; r <= this.g.ranks; r++) {
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
    for (let r = from; r <= this.g.ranks; r++) if (!this.take((s << 4) | r)) return;
  }

  /** Sends home every waiting copy of `card` that a foundation takes, the row's first; true if any moved. */
  private take(card: number): boolean {
    const home = this.home;
    const r = card & 15;
    const packs = this.g.packs;
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
    for (let c = 0; c < this.g.columns; c++) {
      let all = true;
      for (let r = 0; r < rows && all; r++) if (this.home[this.dealt[c * rows + r]!] === 0) all = false;
      if (all) n++;
    }
    return n;
  }
}
