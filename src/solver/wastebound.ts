import { type Game } from '../game/state.js';

/**
 * A sound test that a position is lost under `second-deal=none`: "the waste cannot be
 * unwound".
 *
 * With no second deal the waste is a stack for good: a card leaves it only from the top, to a
 * foundation, onto a column (a pair's cover, or built down in suit) or into a space, and every
 * card must leave it for the deal to be won. We decide a relaxed game R in which
 *   - every layout card and every card still in the stock is free: it goes home as soon as a
 *     foundation of its suit takes it (column order and the draw order ignored: more moves);
 *   - the waste is taken off from the top, each card home if a foundation takes it, else parked
 *     on a base or in a space;
 *   - a base for card X is a copy of the next card up of its suit (X+1) that is not covered by
 *     another parked card. Every copy of X+1 that was in the layout or the stock at the start,
 *     or has come off the waste, counts as a base for good, even after it has gone home in R
 *     (more moves again: a real base may be buried, a cover, or home);
 *   - a space is used by one parked card until that card goes home. The spaces are bounded by
 *     the columns that can be emptied: a column all of whose cards are, in R, home or able to
 *     leave onto a base (a card that is not a king and has a base copy), or already empty.
 *     A card moved from one space into another empties nothing, so no other way makes one.
 * Every winning line of the real game maps to a run of R: its waste cards come off in the same
 * order, each to a place R allows at that point, since R's foundations are at least as high
 * (free cards go home at once), its bases and spaces at least as many. So if R gets stuck, the
 * real position is lost.
 *
 * R is decided greedily, which is exact for R: a card home keeps every option (its base copy
 * stays counted) and frees the base or space it sat on; a base is used before a space, since a
 * base for X serves only a copy of X while a space serves any card; a card in a space moves
 * onto a base as soon as one is free. Free cards go home as soon as they can, which could take
 * the place a waste twin needs later: then the twins swap (the waste card home, its twin free
 * again), which leaves the foundations as they were.
 *
 * Under `building=none` no card is placed on another, so there are no bases, only spaces.
 */
export class WasteBound {
  private readonly home = new Int8Array(64);
  private readonly free = new Int8Array(64);
  /** Free copies that R has sent home (see the swap in `lost`). */
  private readonly homeFree = new Int8Array(64);
  /** Base copies of each card (see above); never decreases during a run. */
  private readonly pool = new Int8Array(64);
  private readonly covered = new Int8Array(64);
  /** Cards parked on a base, and in a space, by card. */
  private readonly onBase = new Int8Array(64);
  private readonly onSpace = new Int8Array(64);
  private spacesUsed = 0;
  /** `spaces()` as last counted, and the home and pool counts it depends on changed since (-1). */
  private spacesKnown = -1;
  readonly enabled: boolean;

  constructor(private readonly g: Game) {
    this.enabled = !g.secondDeal;
  }

  /** True when the position is proven lost (false means "not proven"). */
  lost(): boolean {
    const g = this.g;
    if (!this.enabled || g.wasteLen === 0) return false;
    const { home, free, homeFree, pool, covered, onBase, onSpace } = this;
    const packs = g.packs;
    free.fill(0);
    homeFree.fill(0);
    covered.fill(0);
    onBase.fill(0);
    onSpace.fill(0);
    this.spacesUsed = 0;
    this.spacesKnown = -1;
    g.homeCounts(home);
    const h = g.height;
    for (let c = 0; c < g.columns; c++) for (let i = 0; i < g.len[c]!; i++) free[g.cols[c * h + i]!]!++;
    for (let i = g.stockPtr; i < g.stockSize; i++) free[g.stockCards[i]!]!++;
    const bases = g.building !== 0;
    if (bases) pool.set(free);
    else pool.fill(0);
    for (let s = 0; s < 4; s++) this.sweep(s, 1);
    for (let i = g.wasteLen - 1; i >= 0; i--) {
      const card = g.stockCards[g.waste[i]!]!;
      const r = card & 15;
      if (bases) {
        if (pool[card]!++ === 0) this.spacesKnown = -1;
        if (r > 1) this.relocate(card - 1);
      }
      if ((r === 1 ? packs : home[card - 1]!) > home[card]!) {
        if (home[card]!++ === 0) this.spacesKnown = -1;
        this.sweep(card >> 4, r);
        continue;
      }
      if (homeFree[card]! > 0) {
        // A free twin took the place this card needs: it goes home instead, and the twin is
        // free again (free cards wait at no cost), with the same foundations.
        homeFree[card]!--;
        free[card]!++;
        continue;
      }
      if (bases && r < g.ranks && pool[card + 1]! > covered[card + 1]!) {
        covered[card + 1]!++;
        onBase[card]!++;
        continue;
      }
      if (this.spacesKnown < 0) this.spacesKnown = this.spaces();
      if (this.spacesUsed < this.spacesKnown) {
        this.spacesUsed++;
        onSpace[card]!++;
        continue;
      }
      return true;
    }
    return false;
  }

  /** Sends home, in rank order from `from`, every free or parked card of suit s that a foundation takes. */
  private sweep(s: number, from: number): void {
    const { home, free, onBase, onSpace, covered } = this;
    const packs = this.g.packs;
    for (let r = from; r <= this.g.ranks; r++) {
      const card = (s << 4) | r;
      let moved = false;
      while ((r === 1 ? packs : home[card - 1]!) > home[card]!) {
        if (onBase[card]! > 0) {
          onBase[card]!--;
          covered[card + 1]!--;
          // Its base is free again: a twin waiting in a space may move onto it.
          this.relocate(card);
        } else if (onSpace[card]! > 0) {
          onSpace[card]!--;
          this.spacesUsed--;
        } else if (free[card]! > 0) {
          free[card]!--;
          this.homeFree[card]!++;
        } else break;
        if (home[card]!++ === 0) this.spacesKnown = -1;
        moved = true;
      }
      if (!moved && home[card] === 0) return;
    }
  }

  /**
   * Moves copies of `card` waiting in spaces onto free bases (copies of card+1), which frees
   * the spaces: a card in a space is an ordinary column card and may be placed on another.
   */
  private relocate(card: number): void {
    const { onSpace, onBase, pool, covered } = this;
    while (onSpace[card]! > 0 && pool[card + 1]! > covered[card + 1]!) {
      onSpace[card]!--;
      this.spacesUsed--;
      onBase[card]!++;
      covered[card + 1]!++;
    }
  }

  /** Columns that R can have empty: see the class comment. */
  private spaces(): number {
    const g = this.g;
    const h = g.height;
    const bases = g.building !== 0;
    let n = 0;
    for (let c = 0; c < g.columns; c++) {
      let ok = true;
      for (let i = 0; i < g.len[c]! && ok; i++) {
        const card = g.cols[c * h + i]!;
        if (this.home[card]! > 0) continue;
        if (bases && (card & 15) < g.ranks && this.pool[card + 1]! > 0) continue;
        ok = false;
      }
      if (ok) n++;
    }
    return n;
  }
}
