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
/** The integers `snapshot` keeps besides the arrays. */
const SCALARS = 11;
/** `event` answers. */
const EV_NEXT = 0;
const EV_END = 1;
const EV_OVERFLOW = 2;

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
   * 16 columns x 7 rows), and with spaces per card that may stand in one (at most 104) and
   * per card that is a target when spaces open (63) and per column (16), in one check, so 512
   * entries always do.
   */
  private readonly changed = new Uint8Array(512);
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
  readonly enabled: boolean;
  /**
   * L with spaces (`withSpaces`): how many of its relaxed positions one check may visit before
   * it gives up as plain L does (0: it is not tried; plain L's answer stands).
   */
  spaceNodes = 0;
  /** The last check with spaces ran out of `spaceNodes` (a bigger budget may decide it). */
  outOfNodes = false;
  /** What L with spaces did, counted over every check since the last reset (for benches). */
  readonly spaceStats = { checks: 0, lost: 0, outOfNodes: 0, nodes: 0, lostNodes: 0 };
  /** True while L with spaces runs (a column that could be emptied is a slot, not a give-up). */
  private spaceMode = false;
  /** A space may take a card from now on in L with spaces (see `openSpaces`). */
  private spaceOpen = false;
  /** Waste and row cards standing in a space in L with spaces, by card. */
  private readonly park = new Int8Array(64);
  /** Column cards standing in a space (already counted free, so not freed again on release). */
  private readonly parkCol = new Int8Array(64);
  /** Cards standing in spaces (`park` and `parkCol` together). */
  private parked = 0;
  /** Waste and row cards that have left (while no space was open): each may stand in a space. */
  private readonly goneCards = new Uint8Array(128);
  private goneLen = 0;
  /** In a first-deal check, L's pile after its redeal: `g.waste[0..pileBase)`, then `waste[0..pileKept)`. */
  private pileBase = 0;
  private pileKept = 0;
  /** The relaxed search's memory: one snapshot a level, the states seen, the nodes used. */
  private readonly snaps: Uint8Array[] = [];
  private readonly snapWords: Int32Array[] = [];
  private readonly snapSize: number;
  /**
   * The states seen, kept exactly: `memoWords` holds each state's words one after another,
   * `memoFirst` maps a hash to the last state stored with it, and `memoNext` chains the others.
   */
  private memoWords = new Int32Array(0);
  private memoNext = new Int32Array(0);
  private memoCount = 0;
  private readonly memoFirst = new Map<number, number>();
  private relaxedNodes = 0;
  /** Per level of the relaxed search: the columns' stops, the waste top's stock position, the card the event before it brought to the row (0: none). */
  private readonly stopCopies: Int8Array[] = [];
  private readonly topAt = new Int16Array(512);
  private readonly brought = new Uint8Array(512);

  constructor(private readonly g: Game) {
    this.stop = new Int8Array(g.columns);
    this.waste = new Uint8Array(g.stockSize + 1);
    this.enabled = lockBoundApplies(g.rules);
    this.snapSize = (7 * 64 + 128 + g.columns + this.waste.length + this.goneCards.length + SCALARS * 4 + 3) & ~3;
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
    this.outOfNodes = false;
    const r = this.plain(tactics);
    if (r !== LOCK_SPACES || this.spaceNodes <= 0) return r;
    const kept = this.keptDraws;
    const s = this.withSpaces(tactics);
    this.keptDraws = kept;
    return s;
  }

  /** Resets L to the position (`spaceMode`: L with spaces, else plain L). */
  private begin(tactics: Tactics, spaceMode: boolean): void {
    const g = this.g;
    this.targets = g.building !== 1 || tactics.pairing === 'never' ? 0 : tactics.pairing === 'cautious' ? 1 : 2;
    this.noSpaces = tactics.spaces === 'never' || (tactics.spaces === 'hold' && !g.secondDeal) ? 2 : tactics.spaces === 'hold' && g.phase === 1 ? 1 : 0;
    this.spaceMode = spaceMode;
    this.spaceOpen = false;
    this.parked = 0;
    this.goneLen = 0;
    this.park.fill(0);
    this.parkCol.fill(0);
    this.emptied = false;
    this.changedLen = 0;
    const home = this.home;
    this.free.fill(0);
    this.target.fill(0);
    this.topTarget.fill(0);
    this.wait.fill(0);
    this.stopAt.fill(0);
    this.waiting = 0;
    this.baseLen = 0;
    this.wasteLen = 0;
    g.homeCounts(home);
    this.homeAtStart.set(home);
    this.homeN = g.home;
    for (let c = 0; c < g.columns; c++) this.stop[c] = g.len[c]!;
  }

  /** Plain L: gives up (LOCK_SPACES) at the first point a column could be emptied. */
  private plain(tactics: Tactics): number {
    const g = this.g;
    this.keptDraws = 0;
    if (!this.enabled) return LOCK_OPEN;
    this.begin(tactics, false);
    // An empty column that may take a card: give up (first, as it is cheap: depth-first search
    // asks at every position with `lockBoundEvery`). A card placed in a space is a column like
    // any other (class comment).
    if (this.noSpaces === 0 && g.firstSpace() >= 0) return LOCK_SPACES;
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
      if (r === LOCK_OPEN) r = this.pile(g.waste, g.pileNext, g.wasteLen);
      if (r !== LOCK_OPEN) return r;
    }
    return this.homeN < g.total ? LOCK_LOST : LOCK_OPEN;
  }

  /** `pileCard` for the cards at the stock positions `at[from .. to)`, in order, while it answers LOCK_OPEN. */
  private pile(at: Uint8Array, from: number, to: number): number {
    const stockCards = this.g.stockCards;
    for (let i = from; i < to; i++) {
      const r = this.pileCard(stockCards[at[i]!]!);
      if (r !== LOCK_OPEN) return r;
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
    this.gone(card);
    this.freeCard(card, 1);
    return this.settle() ? LOCK_SPACES : LOCK_OPEN;
  }

  /**
   * A column could be emptied now: true when a space may then take a card (give up); with
   * spaces held until the second deal, noted for the redeal.
   */
  private spaceMayCome(): boolean {
    if (this.spaceMode) {
      // L with spaces goes on: the column is a slot (`slots`).
      if (this.noSpaces === 0 && !this.spaceOpen) this.openSpaces();
      return false;
    }
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
    // Once a space may take a card, any card that came free may stand alone in one.
    if (this.targets === 1) return (this.spaceOpen ? this.target : this.topTarget)[card + 1]! > 0;
    let n = this.target[card + 1]!;
    // Once a space may take a card, a target below the card in its own column may have moved
    // into one and still take it.
    if (n > 0 && col >= 0 && !this.spaceOpen) {
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
  private advance(c: number, parking = false): boolean {
    const g = this.g;
    const base = c * g.height;
    const cover = Math.max(g.orig[c]!, 1);
    let i = this.stop[c]!;
    if (i < g.len[c]!) {
      // The card at the stop was counted free when it was reached (`parking`: it goes into a space).
      const card = g.cols[base + i]!;
      if (!parking && !this.released(card, i >= cover, c)) return false;
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
      this.gone(card);
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
        this.gone(card);
        this.freeCard(card, w);
      }
      const p = this.park[card]!;
      if (p > 0 && this.released(card, false)) {
        this.park[card] = 0;
        this.parked -= p;
        this.freeCard(card, p);
      }
      // A column card in a space is free already (it went home when a foundation took it).
      const q = this.parkCol[card]!;
      if (q > 0 && this.released(card, false)) {
        this.parkCol[card] = 0;
        this.parked -= q;
      }
      for (let m = this.stopAt[card]!; m !== 0; m &= m - 1) {
        if (this.advance(31 - Math.clz32(m & -m)) && this.spaceMayCome()) return true;
      }
    }
    return false;
  }

  // ---- L with spaces -------------------------------------------------------------------

  /**
   * L with spaces: where plain L gives up because a column could be emptied, L goes on with
   * that column as a *slot*, and a search over the relaxed game's only choices (which card to
   * put into a space, and when) decides it: LOCK_LOST when no choice lets L get every card
   * home, else LOCK_SPACES (a relaxed line wins, or the search ran out of `spaceNodes`).
   *
   * The relaxed game is L with these moves added (building=pairs or none):
   *   - a column all of whose cards are released or stand in spaces is a slot (a real column is
   *     emptied only when each of its cards has gone home, as a pair, or into a space);
   *   - while fewer cards stand in spaces than there are slots, a free card that is not released
   *     (a column's card at its stop, not a pair's cover; the waste top; a card waiting in the
   *     row) may go into a space, at any point between two draws or pile cards, as often as the
   *     slots allow. It stands there until it is released; the cards it covered come free;
   *   - once a space may take a card, every card a space may hold is a target: waste and row
   *     cards that have left, or stand in a space, as well as the dealt cards that came free
   *     (a card in a space is a one-card column and takes a pair); and a target below a card in
   *     its own column counts, since it may have moved into a space.
   * A real line maps to a run of this game as to a run of L (class comment): a real space is a
   * column emptied, so a slot in L; a real card in a space stands in one in L until L releases
   * it, which is no later than it leaves the space really; and every card the line pairs onto a
   * card in a space is released in L by the target rule above. So when no run of the relaxed
   * game gets every card home, the real position is lost.
   *
   * The search is depth-first over the events (draws, the redeal, pile cards), trying at each
   * every card that may go into a space, with the relaxed states seen kept exactly (a state
   * seen again loses as it lost before: the game has no cycles, every step draws or fills a
   * space).
   */
  private withSpaces(tactics: Tactics): number {
    const g = this.g;
    const st = this.spaceStats;
    st.checks++;
    this.begin(tactics, true);
    for (let c = 0; c < g.columns; c++) if (this.advance(c)) this.spaceMayCome();
    if (g.phase === 1) this.baseLen = g.wasteLen;
    this.settle();
    this.memoFirst.clear();
    this.memoCount = 0;
    this.relaxedNodes = 0;
    const win = this.relax(0, 0, -1);
    st.nodes += Math.min(this.relaxedNodes, this.spaceNodes);
    this.memoFirst.clear();
    this.outOfNodes = this.relaxedNodes > this.spaceNodes;
    if (this.outOfNodes) {
      st.outOfNodes++;
      return LOCK_SPACES;
    }
    if (win) return LOCK_SPACES;
    st.lost++;
    st.lostNodes += this.relaxedNodes;
    return LOCK_LOST;
  }

  /**
   * True when a relaxed line from here, at event `e`, gets every card home (or the nodes ran
   * out). `prev`: the level of the position just before the last event, when a space could
   * take a card there (else -1). A card that could have gone into a space there, and still
   * can, is not tried here: it could have gone just before the event, with the same slots,
   * and the event would then have found the same or more cards home (what the space frees
   * settles first), a waste that is the same stack or one with cards taken off, and a row no
   * fuller: in L, which only gains from cards leaving, a position no worse. So only cards that
   * the event brought (the card drawn or come to the row) or uncovered are tried.
   */
  private relax(e: number, depth: number, prev: number): boolean {
    if (++this.relaxedNodes > this.spaceNodes) return true;
    this.snapshot(depth, e);
    if (this.seenBefore(depth)) return false;
    const g = this.g;
    const cols = g.columns;
    const stops = this.stopsAt(depth);
    stops.set(this.stop);
    const topAt = this.wastePos();
    this.topAt[depth] = topAt;
    const open = this.spaceOpen && this.parked < this.slots();
    if (open) {
      const prevStops = prev >= 0 ? this.stopsAt(prev) : null;
      // Every column's stop card that is no pair's cover and covers a card (a lone card in a
      // space changes nothing: its column becomes the slot it takes).
      for (let c = 0; c < cols; c++) {
        const i = stops[c]!;
        if (i <= 0 || i >= Math.max(g.orig[c]!, 1) || (prevStops !== null && prevStops[c] === i)) continue;
        const card = g.cols[c * g.height + i]!;
        this.parkCol[card]!++;
        this.parked++;
        if (this.advance(c, true)) this.spaceMayCome();
        this.settle();
        if (this.relax(e, depth + 1, -1)) return true;
        this.restore(depth);
      }
      if (topAt >= 0 && (prev < 0 || this.topAt[prev] !== topAt)) {
        const top = g.stockCards[topAt]!;
        if (this.wasteLen > 0) this.wasteLen--;
        else this.baseLen--;
        this.toSpace(top);
        if (this.relax(e, depth + 1, -1)) return true;
        this.restore(depth);
      }
      if (this.waiting > 0) {
        for (let card = 1; card < 64; card++) {
          if (this.wait[card] === 0 || (prev >= 0 && card !== this.brought[depth])) continue;
          this.wait[card]!--;
          this.waiting--;
          this.toSpace(card);
          if (this.relax(e, depth + 1, -1)) return true;
          this.restore(depth);
        }
      }
    }
    this.brought[depth + 1] = 0;
    const r = this.event(e, depth + 1);
    if (r === EV_END) return this.homeN === g.total;
    if (r === EV_OVERFLOW) return false;
    return this.relax(e + 1, depth + 1, open ? depth : -1);
  }

  /** Level `depth`'s copy of the columns' stops. */
  private stopsAt(depth: number): Int8Array {
    let a = this.stopCopies[depth];
    if (a === undefined) {
      a = new Int8Array(this.g.columns);
      this.stopCopies[depth] = a;
    }
    return a;
  }

  /** The stock position of L's waste top (-1: the waste is empty). */
  private wastePos(): number {
    if (this.wasteLen > 0) return this.waste[this.wasteLen - 1]!;
    return this.baseLen > 0 ? this.g.waste[this.baseLen - 1]! : -1;
  }

  /** A waste or row card goes into a space. */
  private toSpace(card: number): void {
    this.gone(card);
    this.park[card]!++;
    this.parked++;
    this.settle();
  }

  /** Columns that could be emptied (L with spaces). */
  private slots(): number {
    let n = 0;
    for (let c = 0; c < this.g.columns; c++) if (this.stop[c] === -1) n++;
    return n;
  }

  /**
   * A waste or row card has left (in L with spaces): once a space may take a card, a card that
   * may stand in one is a target (and a top-row one under pairing `cautious`: alone in its
   * column).
   */
  private gone(card: number): void {
    if (!this.spaceMode) return;
    if (this.spaceOpen) this.addTarget(card);
    else if (this.goneLen < this.goneCards.length) this.goneCards[this.goneLen++] = card;
    else this.addTarget(card);
  }

  private addTarget(card: number): void {
    this.target[card]!++;
    this.changed[this.changedLen++] = card - 1;
  }

  /**
   * From now on a space may take a card: the cards that left the waste and the row become
   * targets, every target counts under pairing `cautious` (it may stand alone in a space), and
   * each column's stop card is looked at again (a target below it may now count).
   */
  private openSpaces(): void {
    this.spaceOpen = true;
    for (let i = 0; i < this.goneLen; i++) this.addTarget(this.goneCards[i]!);
    this.goneLen = 0;
    for (let card = 2; card < 64; card++) if (this.target[card]! > 0) this.changed[this.changedLen++] = card - 1;
    const g = this.g;
    for (let c = 0; c < g.columns; c++) {
      const i = this.stop[c]!;
      if (i >= 0) this.changed[this.changedLen++] = g.cols[c * g.height + i]!;
    }
  }

  /** Plays event `e` (a draw, the redeal, or a pile card) in L with spaces. */
  private event(e: number, level: number): number {
    const g = this.g;
    const stockCards = g.stockCards;
    let at: number;
    if (g.phase === 1) {
      const draws = g.stockSize - g.stockPtr;
      if (e < draws) {
        const p = g.stockPtr + e;
        this.waste[this.wasteLen++] = p;
        if (this.released(stockCards[p]!, false)) this.settle();
        return EV_NEXT;
      }
      if (!g.secondDeal) return EV_END;
      if (e === draws) {
        this.pileBase = this.baseLen;
        this.pileKept = this.wasteLen;
        this.baseLen = 0;
        this.wasteLen = 0;
        if (this.noSpaces === 1) {
          this.noSpaces = 0;
          if (this.slots() > 0) {
            this.openSpaces();
            this.settle();
          }
        }
        return EV_NEXT;
      }
      const j = e - draws - 1;
      if (j >= this.pileBase + this.pileKept) return EV_END;
      at = j < this.pileBase ? g.waste[j]! : this.waste[j - this.pileBase]!;
    } else {
      if (e < g.privLen) at = g.priv[e]!;
      else {
        const k = g.pileNext + e - g.privLen;
        if (k >= g.wasteLen) return EV_END;
        at = g.waste[k]!;
      }
    }
    const card = stockCards[at]!;
    if (!this.released(card, false)) this.brought[level] = card;
    return this.pileCard(card) === LOCK_LOST ? EV_OVERFLOW : EV_NEXT;
  }

  /** True when the state in `buf` was seen before in this check; else it is stored. */
  private seenBefore(depth: number): boolean {
    const w = this.snapWords[depth]!;
    const n = w.length;
    let h = 0x811c9dc5;
    for (let i = 0; i < n; i++) h = Math.imul(h ^ w[i]!, 0x01000193);
    const words = this.memoWords;
    const first = this.memoFirst.get(h);
    for (let k = first ?? -1; k >= 0; k = this.memoNext[k]!) {
      const o = k * n;
      let i = 0;
      while (i < n && words[o + i] === w[i]) i++;
      if (i === n) return true;
    }
    if ((this.memoCount + 1) * n > words.length) {
      const grown = new Int32Array(Math.max(64 * n, 2 * words.length));
      grown.set(words);
      this.memoWords = grown;
      const next = new Int32Array(grown.length / n);
      next.set(this.memoNext);
      this.memoNext = next;
    }
    this.memoWords.set(w, this.memoCount * n);
    this.memoNext[this.memoCount] = first ?? -1;
    this.memoFirst.set(h, this.memoCount++);
    return false;
  }

  /**
   * Saves L's state at event `e` into level `depth`'s buffer (also the state's key: the waste
   * and the list of cards gone past their ends are zero).
   */
  private snapshot(depth: number, e: number): void {
    let buf = this.snaps[depth];
    if (buf === undefined) {
      buf = new Uint8Array(this.snapSize);
      this.snaps[depth] = buf;
      this.snapWords[depth] = new Int32Array(buf.buffer);
    }
    let o = SCALARS * 4;
    for (const a of this.views()) {
      buf.set(a, o);
      o += a.length;
    }
    // Past their ends the waste (the pile after L's redeal) and the list are never read.
    o -= this.goneCards.length;
    buf.fill(0, o + this.goneLen, o + this.goneCards.length);
    o -= this.waste.length;
    buf.fill(0, o + Math.max(this.wasteLen, this.pileKept), o + this.waste.length);
    const sc = this.snapWords[depth]!;
    sc[0] = this.baseLen;
    sc[1] = this.wasteLen;
    sc[2] = this.waiting;
    sc[3] = this.parked;
    sc[4] = this.homeN;
    sc[5] = this.noSpaces;
    sc[6] = this.spaceOpen ? 1 : 0;
    sc[7] = this.pileBase;
    sc[8] = this.pileKept;
    sc[9] = this.goneLen;
    sc[10] = e;
  }

  private restore(depth: number): void {
    const buf = this.snaps[depth]!;
    let o = SCALARS * 4;
    for (const a of this.views()) {
      a.set(buf.subarray(o, o + a.length));
      o += a.length;
    }
    const sc = this.snapWords[depth]!;
    this.baseLen = sc[0]!;
    this.wasteLen = sc[1]!;
    this.waiting = sc[2]!;
    this.parked = sc[3]!;
    this.homeN = sc[4]!;
    this.noSpaces = sc[5]!;
    this.spaceOpen = sc[6] === 1;
    this.pileBase = sc[7]!;
    this.pileKept = sc[8]!;
    this.goneLen = sc[9]!;
    this.changedLen = 0;
  }

  private viewList: Uint8Array[] | null = null;
  /** The arrays of L's state, as bytes. */
  private views(): Uint8Array[] {
    if (this.viewList === null) {
      const b = (a: Int8Array | Uint16Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
      this.viewList = [b(this.home), b(this.free), b(this.target), b(this.topTarget), b(this.wait), b(this.park), b(this.parkCol), b(this.stopAt), b(this.stop), this.waste, this.goneCards];
    }
    return this.viewList;
  }
}
