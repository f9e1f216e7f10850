import { type Game } from '../game/state.js';
import { Groups, grown } from './groups.js';

/** A refutation that read the whole position (the first deal, a transposition that no nogood explains): nothing to learn. */
export const READ_ALL = 1 << 16;

/**
 * Pile nogoods (docs/SOLVER.md, "Pile nogoods"): in the second deal, a refuted position whose
 * refutation looked only at the first k cards of its pile proves lost every position with the same
 * columns, the same foundations, the same row and the same first k pile cards, whatever the rest
 * of its pile.
 *
 * Why. A second-deal position's moves depend on its columns, foundations, row and fifth card (the
 * first pile card), and a move that takes a row card or the fifth card brings the next pile card up;
 * so a line that has taken j cards off the pile has read its first j + 1 and no more, and is
 * played alike from any position that agrees with this one up to there (the same cards, in the
 * same order; which copy of a twin it is does not matter). The depth-first search's refutation of
 * P is a tree of such lines whose leaves are dead ends (no move: the row and the fifth card are
 * read), cuts by LockBound or PileBound (each reads the pile in order and stops at the card where
 * it proves the loss: `readTo`), cuts by an earlier nogood (read as far as it), transpositions
 * (as far as a nogood the position matches, else all of it: then nothing is recorded) and
 * dominance cuts (as far as the dominating position's refutation read: dominance.ts `readOf`).
 * The search keeps, for each position on its path, the furthest pile card any of these
 * read (`DepthFirst`); when the position is refuted, every position Q that agrees with it to there
 * plays the same tree, with the same leaves: each leaf of Q's is lost for the reason P's was, by
 * induction over the order in which they were refuted. So Q is lost. The foundations being the
 * same, Q's cards in play are P's (the same columns), so the rest of Q's pile holds the same cards
 * as P's, in another order or as other copies. It holds in the real game and in the relaxed game of
 * the fifth card alike (rule 7's condition reads the row and the columns), and under tactics
 * (each reads the columns and the row).
 *
 * Kept: for each group (the columns of the key and the foundations), the prefixes (the row and
 * the first k pile cards, as cards) of its refuted positions, newest first, in one arena of 32-bit
 * words; a lookup compares at most `scan` of them. When the arena is full it is emptied and filled
 * again: forgetting a nogood never makes a search unsound.
 */
export class PileNogoods {
  /** Positions looked up, and those found lost (since the store was made: one solve). */
  asked = 0;
  hits = 0;
  /** Nogoods recorded (since the store was made, across emptyings). */
  added = 0;
  /** The pile cards a hit read: the matched nogood's k (`match`'s answer, kept for the caller). */
  k = 0;
  private readonly g: Game;
  /** The groups: the key's columns and the foundations. */
  private readonly groups: Groups;
  /** Records: [next record or -1, row length + k, the cards four to a word]. */
  private arena: Int32Array;
  private used = 0;

  constructor(
    readonly game: Game,
    words: number,
    /** The key's bit where the columns start (KeyPacker `columnsAt`). */
    columnsAt: number,
    /** Nogoods compared at most, a lookup. */
    private readonly scan = 64,
    /** Arena words at most (then it is emptied): 32 M words, 128 MB. */
    private readonly cap = 1 << 25,
  ) {
    this.g = game;
    this.groups = new Groups(words, columnsAt);
    this.arena = new Int32Array(1 << 16);
  }

  /**
   * Empties the store (the counts go on: a solve whose relaxed search gave way to the real game's
   * counts both; a new solve makes a new store, for its new game).
   */
  forget(): void {
    this.groups.clear();
    this.used = 0;
  }

  /**
   * The group of the game's position (key keys[off..)): the key's columns and the foundations'
   * tops (per suit, lower first: the two foundations of a suit are alike); its index, or -1 (with
   * `make`, made).
   */
  private group(keys: Uint32Array, off: number, make: boolean): number {
    const g = this.g;
    let f = 0;
    for (let s = 0; s < 4; s++) {
      const a = g.found[s * g.packs]!;
      const b = g.packs > 1 ? g.found[s * g.packs + 1]! : 0;
      f = (f << 8) | (a < b ? (a << 4) | b : (b << 4) | a);
    }
    return this.groups.find(keys, off, f, make);
  }

  /**
   * Records the game's position (second deal, key keys[off..)) as refuted by a search that read
   * its pile up to waste index `readTo` (exclusive; READ_ALL: nothing recorded).
   */
  add(keys: Uint32Array, off: number, readTo: number): void {
    const g = this.g;
    if (readTo >= READ_ALL) return;
    const n = readCards(g, readTo);
    const size = 2 + ((n + 3) >>> 2);
    if (this.used + size > this.cap) this.forget();
    const gi = this.group(keys, off, true);
    if (this.used + size > this.arena.length) this.arena = grown(this.arena);
    const r = this.used;
    this.used += size;
    const a = this.arena;
    a[r] = this.groups.head[gi]!;
    a[r + 1] = n;
    for (let i = 0; i < size - 2; i++) a[r + 2 + i] = 0;
    for (let i = 0; i < n; i++) a[r + 2 + (i >>> 2)]! |= this.card(i) << ((i & 3) << 3);
    this.groups.head[gi] = r;
    this.added++;
  }

  /** The i-th card of the row, then the pile, of the game's position. */
  private card(i: number): number {
    const g = this.g;
    return g.stockCards[i < g.privLen ? g.priv[i]! : g.waste[g.pileNext + i - g.privLen]!]!;
  }

  /**
   * Is the game's position (second deal, key keys[off..)) lost by a nogood? When it is, `k` is
   * the pile cards that nogood read (so the position's refutation read its pile up to waste index
   * pileNext + k). `count`: counted in `asked` and `hits` (not for a transposition's).
   */
  match(keys: Uint32Array, off: number, count = true): boolean {
    if (count) this.asked++;
    const gi = this.group(keys, off, false);
    if (gi < 0) return false;
    const g = this.g;
    const a = this.arena;
    const have = g.privLen + g.wasteLen - g.pileNext;
    let seen = 0;
    for (let r = this.groups.head[gi]!; r >= 0 && seen < this.scan; r = a[r]!, seen++) {
      const n = a[r + 1]!;
      if (n > have) continue;
      let same = true;
      for (let i = 0; i < n; i++) {
        if (((a[r + 2 + (i >>> 2)]! >>> ((i & 3) << 3)) & 255) !== this.card(i)) {
          same = false;
          break;
        }
      }
      if (same) {
        if (count) this.hits++;
        this.k = n - g.privLen;
        return true;
      }
    }
    return false;
  }
}

/**
 * The cards of its row and pile, in order, that a second-deal position's refutation read when it
 * read the pile up to waste index `readTo` (exclusive; below READ_ALL).
 */
export function readCards(g: Game, readTo: number): number {
  return g.privLen + Math.max(Math.min(readTo, g.wasteLen) - g.pileNext, 0);
}
