import { type Game } from '../game/state.js';
import { Groups, grown } from './groups.js';
import { READ_ALL } from './nogoods.js';

/** A kept set whose refutation's reading of the pile is not known (or was all of it). */
export const NOT_READ = 255;

/**
 * Waste dominance (docs/SOLVER.md, "The relaxed fifth card and waste dominance"), under
 * `second-deal=none` and in the relaxed game of the fifth card (`Game.freeFifth`): a position Q is
 * lost when a refuted position P has the same layout, phase and stock pointer and every card in
 * play in P (on the waste, or in the second deal in the row and the pile) is in play in Q as well,
 * provided that for each extra card e of Q (home in P, in play in Q) P has both copies of the card
 * below e home, or both of e. (With both copies of e home, both of the card below are too: each
 * foundation holds one of each rank up to its top; so no card but an extra one is ever placed on
 * an extra card.)
 *
 * Why (a simulation: any winning line of Q is played from P). P is Q with the extra cards home.
 * Each move of Q is made in P as well, except a move of an extra card, which P skips, and a card
 * that Q pairs onto an extra card standing alone in a space, which P puts into that space (empty
 * in P): P's columns are Q's but for extra cards, which P does not have, and the cards paired on
 * them, which stand alone in P. A card Q moves that is not extra is in P, free there too, and
 * its destination is there (a column's exposed card in Q is exposed in P, a space of Q is a space
 * of P):
 *   - first deal: P's waste is Q's without the extra cards, so a waste top of Q's that is not
 *     extra is P's top;
 *   - second deal: P's row and pile, in order, are Q's without the extra cards, so a card k-th in
 *     Q's row-and-pile sequence is k-th or earlier in P's. A card of Q's row is in P's row; Q's
 *     fifth card is in P's row or is P's fifth card, and goes where Q sends it (a foundation or a
 *     pair: in the relaxed game the fifth card moves whenever it has a place, so no other move of
 *     P's can forbid it; under rule 7 one can, which is why this holds only in the relaxed game);
 *   - a redeal of Q's with every waste card extra: P, with no waste, skips it (its pile is empty).
 * A card y goes home in P when it does in Q: P has at least Q's copies of each card home, and
 * where P has y's twin home and Q does not, the condition on that extra twin leaves P both copies
 * of the card below y home. An ace free in P and not in Q (under an extra card of the waste, or
 * in P's row while Q's is still to come) is played home at once, as the rules make P do, and is
 * one more extra card (the condition holds for aces). When Q has every card home, so has P.
 *
 * Kept: for each group (the key with the in-play bits cleared: layout, phase, flags, and the stock
 * pointer beside it), the in-play sets of its refuted positions, newest first; a position that a
 * kept set dominates is not added (see `add`). Typed arrays, nothing allocated per node once
 * grown; at most `cap` sets (16 bytes each for the full game, plus the groups' keys).
 */
export class WasteDominance {
  /** Positions looked up, and those found dominated. */
  asked = 0;
  hits = 0;
  /** Waste sets kept. */
  entries = 0;
  private readonly g: Game;
  private readonly S: number;
  private readonly IW: number;
  /** The groups: the key with the in-play bits cleared, and the stock pointer. */
  private readonly groups: Groups;
  private sets: Uint32Array;
  private next: Int32Array;
  /**
   * For each kept set, in the second deal with pile nogoods: how many cards of its row and pile
   * (in order) its refutation read (nogoods.ts), NOT_READ when not known or all.
   */
  private reads: Uint8Array;
  /** The kept set that the last `dominated` answer rests on. */
  private matched = -1;
  /** The position's copies of each card home, once a lookup (`hcKnown`). */
  private readonly hc = new Int8Array(64);
  private hcKnown = false;
  private readonly extra = new Int8Array(64);

  constructor(
    readonly game: Game,
    words: number,
    /** Waste sets compared at most, a lookup. */
    private readonly scan = 256,
    /** Waste sets kept at most (then no more are added). */
    private readonly cap = 1 << 24,
  ) {
    this.g = game;
    this.S = game.stockSize;
    this.IW = (this.S + 31) >>> 5;
    this.groups = new Groups(words, this.S);
    this.sets = new Uint32Array(1024 * this.IW);
    this.next = new Int32Array(1024);
    this.reads = new Uint8Array(1024);
  }

  clear(): void {
    this.groups.clear();
    this.entries = 0;
    this.asked = 0;
    this.hits = 0;
  }

  /** The group of the game's position, whose key is keys[off..): its index, or -1 (with `make`, made). */
  private group(keys: Uint32Array, off: number, make: boolean): number {
    return this.groups.find(keys, off, this.g.phase === 1 ? this.g.stockPtr : this.S + 1, make);
  }

  /**
   * Records the game's position, key keys[off..), as refuted; `read`: in the second deal, the
   * cards of its row and pile, in order, that the refutation read (pile nogoods), else NOT_READ.
   */
  add(keys: Uint32Array, off: number, read = NOT_READ): void {
    if (this.entries >= this.cap) return;
    const gi = this.group(keys, off, true);
    // Not kept when a kept set dominates it: a position it would cut, that one cuts too (its
    // extra cards over the kept set are this position's extras, whose condition holds here and
    // holds the more with more cards home, and the extras over this one).
    if (this.dominating(gi)) return;
    const mask = this.g.inPlayMask;
    const IW = this.IW;
    const e = this.entries++;
    if ((e + 1) * IW > this.sets.length) {
      this.sets = grown(this.sets);
      this.next = grown(this.next);
      this.reads = grown(this.reads);
    }
    for (let i = 0; i < IW; i++) this.sets[e * IW + i] = mask[i]!;
    this.reads[e] = Math.min(read, NOT_READ);
    this.next[e] = this.groups.head[gi]!;
    this.groups.head[gi] = e;
  }

  /** Is the game's position, key keys[off..), lost by a refuted position it is no better than? */
  dominated(keys: Uint32Array, off: number): boolean {
    this.asked++;
    const gi = this.group(keys, off, false);
    if (gi < 0 || !this.dominating(gi)) return false;
    this.hits++;
    return true;
  }

  /** Does a kept set of group `gi` (among the newest `scan`) dominate the game's position? */
  private dominating(gi: number): boolean {
    const mask = this.g.inPlayMask;
    const IW = this.IW;
    this.hcKnown = false;
    let n = 0;
    for (let e = this.groups.head[gi]!; e >= 0 && n < this.scan; e = this.next[e]!, n++) {
      let sub = true;
      for (let i = 0; i < IW; i++) {
        if ((this.sets[e * IW + i]! & ~mask[i]!) !== 0) {
          sub = false;
          break;
        }
      }
      if (sub && this.twinsHold(e)) {
        this.matched = e;
        return true;
      }
    }
    return false;
  }

  /**
   * After `dominated` said yes (the game still at that position): the waste index (exclusive) up
   * to which that cut read the pile, for pile nogoods (nogoods.ts), or READ_ALL. Why: let P be the
   * refuted position of the matched set, whose refutation read its row and pile as far as its r-th
   * card, and Q this one. Any Q' with Q's columns, foundations, row and pile up to the card of Q's
   * that is P's r-th (Q's sequence without the extra cards is P's) is lost: Q' with the extra cards
   * home, P', has P's columns and foundations and begins its row and pile with P's first r cards,
   * so a nogood of P's cuts it; and P' is Q' with the extra cards home under the twin condition, so
   * it dominates Q'.
   */
  readOf(): number {
    const r = this.reads[this.matched]!;
    if (r === NOT_READ) return READ_ALL;
    const g = this.g;
    if (r === 0) return g.pileNext;
    const set = this.sets;
    const at = this.matched * this.IW;
    let seen = 0;
    for (let i = 0; i < g.privLen + g.wasteLen - g.pileNext; i++) {
      const p = i < g.privLen ? g.priv[i]! : g.waste[g.pileNext + i - g.privLen]!;
      if ((set[at + (p >>> 5)]! & (1 << (p & 31))) === 0) continue;
      if (++seen === r) return Math.max(g.pileNext, g.pileNext + i - g.privLen + 1);
    }
    return g.wasteLen;
  }

  /**
   * The condition on the extra cards (in play here, not in set e): in P (this position with
   * them home) each has both copies of the card below it home, or both copies of itself.
   */
  private twinsHold(e: number): boolean {
    const g = this.g;
    const IW = this.IW;
    const mask = g.inPlayMask;
    const ex = this.extra;
    ex.fill(0);
    let any = false;
    for (let i = 0; i < IW; i++) {
      let bits = mask[i]! & ~this.sets[e * IW + i]!;
      while (bits !== 0) {
        const b = 31 - Math.clz32(bits);
        bits ^= 1 << b;
        ex[g.stockCards[i * 32 + b]!]!++;
        any = true;
      }
    }
    if (!any || g.packs === 1) return true;
    if (!this.hcKnown) {
      g.homeCounts(this.hc);
      this.hcKnown = true;
    }
    for (let c = 0; c < 64; c++) {
      if (ex[c] === 0) continue;
      const below = (c & 15) === 1 ? g.packs : this.hc[c - 1]! + ex[c - 1]!;
      if (below < g.packs && this.hc[c]! + ex[c]! < g.packs) return false;
    }
    return true;
  }
}
