import { type Rules } from '../game/rules.js';
import { type Game } from '../game/state.js';
import { type Tactics, NO_RESTRICTION } from '../game/tactics.js';

/** `LockBound.check` answers: the position is lost; not proven; or the test gave up (a space may appear). */
export const LOCK_LOST = 1;
export const LOCK_OPEN = 0;
export const LOCK_SPACES = 2;

/**
 * A sound test that a position is lost, in the first deal as well as the second, that keeps the
 * columns' order: "which card blocks which" (building=pairs or none, while no space has been
 * made). Asked at the root, it proves some full-size book deals lost in microseconds; it proves
 * nothing on most deals, because a space may appear (below).
 *
 * A card leaves its column (or the waste, or the privileged row) only by going home, as a pair
 * onto an exposed dealt card of its suit one rank higher (a *target*: a pair's covering card
 * never takes one), or into a space. Until the first space, a card with no target is stuck until
 * a copy of the card below it is home, and so are the cards above it in its column and under it
 * in the waste. The relaxed game L plays the rest of the deal with these locks and nothing else:
 *   - a card is *released* (it may leave whenever it likes, at no cost) when it is an ace, when
 *     some foundation could take it (more copies of the card below it are home in L than copies
 *     of the card itself were home in the position: those stay home), or, unless it is a pair's
 *     cover, when a copy of its target has come free in L in another column. Before the first
 *     space, targets only ever leave the layout, so this over-counts the real targets;
 *   - a column's card is free (it goes home whenever a foundation takes it) once every card
 *     below it is released; a released card from the waste or the row is free at once;
 *   - the stock is drawn in order onto the waste, a stack whose top leaves when released;
 *   - in the second deal the pile comes in order, and a pile card that is not released waits in
 *     the privileged row, which holds `privileged` cards (the fifth card has to go home or make a
 *     pair at once, and cannot unless it is released);
 *   - free cards go home greedily (in L, a card home only ever helps).
 * By induction over the draws and then the pile cards: at each of these points, every real line
 * has no more copies of any card home than L, no card free that L has not freed, a waste holding
 * every card of L's (the real top leaves only when released, and L takes each released top at
 * once), and, in the second deal, every card that waits in L waiting in its row. So when L needs
 * more than `privileged` cards waiting, or ends with a card not home, the real game is lost.
 *
 * The relaxed game of the fifth card (`Game.freeFifth`) is relaxed by L as well: L never uses rule
 * 7's condition (a released pile card leaves whenever it likes, the fifth card included), so the
 * induction holds for its lines too, and the prover may cut its positions by L.
 *
 * Twins: a card counts as released as soon as a foundation could take it, even when L sent its
 * twin there first; a real line may have sent this copy instead and kept the twin back.
 *
 * Spaces: a space takes any card, which unlocks everything. A column is emptied only when every
 * card in it has left, so the first real space comes no earlier than the first point at which L
 * sees a column all of whose cards are released. L gives up there (LOCK_SPACES), and at once on a
 * position with an empty column. A card placed in a space is a one-card column like any other
 * (it takes a pair; it leaves home, as a pair, or into a space): L plays it as one. L gives up
 * under building=suit, where any card can move onto a run (the test is off).
 *
 * Tactics (src/game/tactics.ts), when the solver plays the smaller game of a player who keeps
 * to them, make L stricter, and each is a restriction of the real moves, so L stays a
 * relaxation: under pairing `never` no card is released by a target; under `cautious` only by
 * a target that is the last card of its column (a dealt card of the top row; a pair onto a
 * longer column is allowed only when the cover could go home at once, and then it is released
 * anyway); under spaces `never` no card ever goes into a space, so L never gives up on that
 * account (an empty column is only a hole), and under `hold` (or with no second deal, where
 * `hold` is `never`) not in the first deal, so L gives up only when the second deal starts with
 * a column that could be emptied by then.
 *
 * Checked like the other bounds (test/lockbound.test.ts): no position on a winning line of a small
 * deal is ever called lost, and every search with it gives the exhaustive reference's verdicts.
 */
/** LockBound decides nothing under building=suit, where any card can move onto a run. */
export function lockBoundApplies(rules: Rules): boolean {
  return rules.building !== 'suit';
}

export class LockBound {
  private readonly home = new Int8Array(64);
  /** Copies of each card home in the position asked about: they stay home in every line. */
  private readonly homeAtStart = new Int8Array(64);
  private readonly free = new Int8Array(64);
  private readonly target = new Int8Array(64);
  /** The same, counting only dealt cards of the top row (the last card of their column). */
  private readonly topTarget = new Int8Array(64);
  private readonly wait = new Int8Array(64);
  /** The index of the card at which each column's free part stops (-1: all free). */
  private readonly stop: Int8Array;
  /** For each card, the columns (a bit each) whose free part stops at a copy of it. */
  private readonly stopAt = new Uint16Array(64);
  /**
   * L's waste in the first deal, as stock positions: the bottom `baseLen` of the real waste,
   * read where they lie (`g.waste`), then `waste[0 .. wasteLen)`, those L has drawn and kept.
   */
  private baseLen = 0;
  private readonly waste: Uint8Array;
  private wasteLen = 0;
  private waiting = 0;
  /** Cards home in L (all of `home`). */
  private homeN = 0;
  /** The tactics of the check under way: targets (0 none, 1 top-row cards only, 2 all), and when spaces count. */
  private targets = 2;
  /** 0: a space may take a card now; 1: not before the second deal; 2: never. */
  private noSpaces = 0;
  /** A column could be emptied (spaces held until the second deal). */
  private emptied = false;
  /**
   * Cards whose release may have changed (a copy of the card below went home, or a copy of the
   * card above became a target) since `settle` last looked: a stack, emptied by `settle`. One
   * entry per card sent home (at most 104) and per dealt card that becomes a target (at most
   * 16 columns x 7 rows) in one check, so 256 entries always do.
   */
  private readonly changed = new Uint8Array(256);
  private changedLen = 0;
  /**
   * After a check in the first deal: how many of the stock's next cards L drew, one after
   * another from the first, without releasing them, when L's first settle had taken no card off
   * the waste (else 0). For k up to this count, the position after k draws from this one gets
   * the same answer, and its own count is this one's less k: a caller may skip those checks
   * (depth-first search does, `DepthFirst.run`).
   *
   * Why: L's run from the position after one draw differs from this one's only in that the card
   * drawn lies on the waste from the start. The columns and the foundations are the same, so its
   * first settle can take every step this one's took (none of which took a waste card off), and
   * no more: releases only grow as L goes on, so a card not released at the end of this first
   * settle (the drawn card, which L here found not released when it drew it) is released at no
   * point of it, and the card drawn, staying on the waste, hides the waste below it. So that
   * settle ends where this run stood after drawing the card, and from there the two runs draw
   * the same cards in the same state: the same answer, even where it gives up. Checked along
   * random first-deal lines (test/lockbound.test.ts, "keptDraws"), and by the depth-first tests,
   * whose pinned node counts with LockBound at every position did not move with the skip.
   */
  keptDraws = 0;
  /**
   * After a check in the second deal that answered LOCK_LOST: the waste index (exclusive) of the
   * last pile card L looked at, so that the answer is the same for every pile that begins with
   * the same cards (L takes the pile in order, and its state before a card depends on the columns,
   * the foundations, the row and the cards before it only). g.wasteLen when L ran to the end.
   * For pile nogoods (nogoods.ts).
   */
  readTo = 0;
  private stoppedAt = 0;
  readonly enabled: boolean;

  constructor(private readonly g: Game) {
    this.stop = new Int8Array(g.columns);
    this.waste = new Uint8Array(g.stockSize + 1);
    this.enabled = lockBoundApplies(g.rules);
  }

  /** True when the position is proven lost (false: not proven), for a player keeping to `tactics`. */
  lost(tactics: Tactics = NO_RESTRICTION): boolean {
    return this.check(tactics) === LOCK_LOST;
  }

  /**
   * LOCK_LOST when the position is proven lost, else LOCK_OPEN or LOCK_SPACES (not proven), for
   * a player keeping to `tactics` (as restrictions: see the class comment).
   */
  check(tactics: Tactics = NO_RESTRICTION): number {
    const g = this.g;
    this.keptDraws = 0;
    this.readTo = g.wasteLen;
    if (!this.enabled) return LOCK_OPEN;
    this.targets = g.building !== 1 || tactics.pairing === 'never' ? 0 : tactics.pairing === 'cautious' ? 1 : 2;
    this.noSpaces = tactics.spaces === 'never' || (tactics.spaces === 'hold' && !g.secondDeal) ? 2 : tactics.spaces === 'hold' && g.phase === 1 ? 1 : 0;
    // An empty column that may take a card: give up (first, as it is cheap: depth-first search
    // asks at every position with `lockBoundEvery`). A card placed in a space is a column like
    // any other (class comment).
    if (this.noSpaces === 0 && g.firstSpace() >= 0) return LOCK_SPACES;
    this.emptied = false;
    this.changedLen = 0;
    const home = this.home;
    const free = this.free;
    const target = this.target;
    free.fill(0);
    target.fill(0);
    if (this.targets === 1) this.topTarget.fill(0);
    this.wait.fill(0);
    this.stopAt.fill(0);
    this.waiting = 0;
    this.baseLen = 0;
    this.wasteLen = 0;
    g.homeCounts(home);
    this.homeAtStart.set(home);
    this.homeN = g.home;
    for (let c = 0; c < g.columns; c++) this.stop[c] = g.len[c]!;
    for (let c = 0; c < g.columns; c++) if (this.advance(c) && this.spaceMayCome()) return LOCK_SPACES;
    const stockCards = g.stockCards;
    if (g.phase === 1) {
      this.baseLen = g.wasteLen;
      if (this.settle()) return LOCK_SPACES;
      // Counting `keptDraws` while no waste card has left and no card drawn was released.
      let counting = this.baseLen === g.wasteLen;
      for (let p = g.stockPtr; p < g.stockSize; p++) {
        const card = stockCards[p]!;
        this.waste[this.wasteLen++] = p;
        // L stood still before this draw (settle plays all it can). A card that is not
        // released stays on the waste and changes nothing else: L stands still again.
        if (this.released(card, false)) {
          counting = false;
          if (this.settle()) return LOCK_SPACES;
        } else if (counting) this.keptDraws++;
      }
      // Spaces held through the first deal may take cards once a real line redeals, which it
      // may do even when L's waste is empty (the real waste holds more).
      if (this.noSpaces === 1) {
        if (this.emptied) return LOCK_SPACES;
        this.noSpaces = 0;
      }
      // The redeal: the waste, first card discarded first, is the pile (no longer a waste
      // to take cards off).
      if (g.secondDeal) {
        const base = this.baseLen;
        const kept = this.wasteLen;
        this.baseLen = 0;
        this.wasteLen = 0;
        let r = this.pile(g.waste, 0, base);
        if (r === LOCK_OPEN) r = this.pile(this.waste, 0, kept);
        if (r !== LOCK_OPEN) return r;
      }
    } else {
      // The row as it stands, then the pile, in the order they came off it.
      if (this.settle()) return LOCK_SPACES;
      let r = this.pile(g.priv, 0, g.privLen);
      if (r === LOCK_OPEN) {
        r = this.pile(g.waste, g.pileNext, g.wasteLen);
        if (r === LOCK_LOST) this.readTo = this.stoppedAt + 1;
      } else this.readTo = g.pileNext;
      if (r !== LOCK_OPEN) return r;
    }
    return this.homeN < g.total ? LOCK_LOST : LOCK_OPEN;
  }

  /** `pileCard` for the cards at the stock positions `at[from .. to)`, in order, while it answers LOCK_OPEN (`stoppedAt`: where it stopped). */
  private pile(at: Uint8Array, from: number, to: number): number {
    const stockCards = this.g.stockCards;
    for (let i = from; i < to; i++) {
      const r = this.pileCard(stockCards[at[i]!]!);
      if (r !== LOCK_OPEN) {
        this.stoppedAt = i;
        return r;
      }
    }
    return LOCK_OPEN;
  }

  /**
   * The second deal's next card comes to the row, L playing all it can after it: LOCK_LOST
   * when the row overflows, LOCK_SPACES when L gives up, else LOCK_OPEN. (Cards already in
   * the row, which come first, never overflow it: at most `privileged` of them.)
   */
  private pileCard(card: number): number {
    // As for a draw: a card that is not released waits in the row and changes nothing else.
    if (!this.released(card, false)) {
      if (this.waiting >= this.g.privileged) return LOCK_LOST;
      this.wait[card]!++;
      this.waiting++;
      return LOCK_OPEN;
    }
    this.freeCard(card, 1);
    return this.settle() ? LOCK_SPACES : LOCK_OPEN;
  }

  /**
   * A column could be emptied now: true when a space may then take a card (give up); with
   * spaces held until the second deal, noted for the redeal.
   */
  private spaceMayCome(): boolean {
    if (this.noSpaces === 0) return true;
    this.emptied = true;
    return false;
  }

  /**
   * Released: an ace, a foundation could take it, or (not a pair's cover) a target has come
   * free in another column than `col` (-1: the card is not in a column).
   */
  private released(card: number, cover: boolean, col: number = -1): boolean {
    const r = card & 15;
    if (r === 1 || this.home[card - 1]! > this.homeAtStart[card]!) return true;
    if (cover || this.targets === 0 || r === this.g.ranks) return false;
    if (this.targets === 1) return this.topTarget[card + 1]! > 0;
    let n = this.target[card + 1]!;
    if (n > 0 && col >= 0) {
      // Targets in the card's own column lie below it: they must be gone before it can move.
      // (A top-row target never lies below a card of its column.)
      const g = this.g;
      const base = col * g.height;
      for (let i = Math.max(this.stop[col]!, 0) + 1; i < g.orig[col]!; i++) if (g.cols[base + i] === card + 1) n--;
    }
    return n > 0;
  }

  /**
   * Frees the cards of column c from its stop upwards while the card at the stop is released
   * (the card at the stop is free: every card below it is); true when the whole column is
   * released (a space may come: give up).
   */
  private advance(c: number): boolean {
    const g = this.g;
    const base = c * g.height;
    const cover = Math.max(g.orig[c]!, 1);
    let i = this.stop[c]!;
    if (i < g.len[c]!) {
      // The card at the stop was counted free when it was reached.
      const card = g.cols[base + i]!;
      if (!this.released(card, i >= cover, c)) return false;
      this.stopAt[card]! &= ~(1 << c);
    }
    for (;;) {
      i--;
      if (i < 0) {
        this.stop[c] = -1;
        return true;
      }
      const card = g.cols[base + i]!;
      this.freeCard(card, 1);
      // A dealt card that comes free is a target for the card below it in its suit (a
      // pair's cover never takes a pair).
      if (i < cover) {
        this.target[card]!++;
        if (i === 0 && this.targets === 1) this.topTarget[card]!++;
        this.changed[this.changedLen++] = card - 1;
      }
      this.stop[c] = i;
      if (!this.released(card, i >= cover, c)) {
        this.stopAt[card]! |= 1 << c;
        return false;
      }
    }
  }

  /**
   * `n` copies of `card` come free: they go home as soon as a foundation takes them, and so do
   * the free cards above them in their suit that this lets go.
   *
   * A released card that cannot go home yet is kept free rather than home: when a foundation
   * takes it, it goes. Its twin may have gone home first from somewhere else (the real line
   * may have sent this copy instead); the foundations are then the same, and the twin's old
   * place is empty in L, so L is no worse off.
   */
  private freeCard(card: number, n: number): void {
    const home = this.home;
    const free = this.free;
    free[card]! += n;
    const packs = this.g.packs;
    const ranks = this.g.ranks;
    for (let c = card; ; c++) {
      const r = c & 15;
      const before = home[c]!;
      while (free[c]! > 0 && (r === 1 ? packs : home[c - 1]!) > home[c]!) {
        free[c]!--;
        home[c]!++;
      }
      if (home[c] === before) return;
      this.homeN += home[c]! - before;
      if (r === ranks) return;
      this.changed[this.changedLen++] = c + 1;
    }
  }

  /** L's waste top (0: the waste is empty). */
  private wasteTop(): number {
    const g = this.g;
    if (this.wasteLen > 0) return g.stockCards[this.waste[this.wasteLen - 1]!]!;
    return this.baseLen > 0 ? g.stockCards[g.waste[this.baseLen - 1]!]! : 0;
  }

  /** Takes released cards off the waste's top. */
  private clearWaste(): void {
    for (;;) {
      const card = this.wasteTop();
      if (card === 0 || !this.released(card, false)) return;
      if (this.wasteLen > 0) this.wasteLen--;
      else this.baseLen--;
      this.freeCard(card, 1);
    }
  }

  /**
   * Plays everything L can: released waste tops leave, waiting cards that are now released
   * leave the row, free cards go home (`freeCard`), locked column cards come free; until
   * nothing moves. True when a column is wholly released (give up).
   *
   * A card's release depends only on how many copies of the card below are home and on the
   * targets: so only the waste's top (which may be new) and the places holding a card whose
   * release may have changed (`changed`) are looked at again, which reaches the same fixpoint
   * as looking at every place until nothing moves, in a fraction of the time.
   */
  private settle(): boolean {
    this.clearWaste();
    while (this.changedLen > 0) {
      const card = this.changed[--this.changedLen]!;
      if (card !== 0 && this.wasteTop() === card) this.clearWaste();
      const w = this.wait[card]!;
      if (w > 0 && this.released(card, false)) {
        this.wait[card] = 0;
        this.waiting -= w;
        this.freeCard(card, w);
      }
      for (let m = this.stopAt[card]!; m !== 0; m &= m - 1) {
        if (this.advance(31 - Math.clz32(m & -m)) && this.spaceMayCome()) return true;
      }
    }
    return false;
  }
}
