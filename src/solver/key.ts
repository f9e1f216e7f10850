import { type Game } from '../game/state.js';

/**
 * The packed state key: an exact, canonical description of a position in a fixed number of
 * 32-bit words (`words`), with no strings and no BigInt.
 *
 * Layout, least significant bit first:
 *   bits 0 .. S-1    the stock positions still in play apart from the stock itself (S = stock
 *                    size): phase 1 the waste, phase 2 the privileged row and the pile; copied
 *                    word for word from the engine's `inPlayMask`
 *   7 bits           pointer: phase 1 the stock pointer; phase 2 the stock position of the
 *                    fifth card (S when the pile is exhausted). With the mask this gives the
 *                    stock, the waste in order, the privileged row (in-play positions below the
 *                    pointer) and the pile (those above), as RULES.md implies their order.
 *   1 bit            phase (0 first deal, 1 second)
 *   1 bit            justDrew: the solver's draw discipline (search.ts) makes the moves of a
 *                    position depend on whether the last move was a draw
 *   1 bit            always 1, so that no key is all zeros (the table's empty slot)
 *   per column c     its count `o` of original cards (origBits); then, when o > 0, the length
 *                    of the run above them (runBits: a pair's covering card under pairs, a
 *                    built run under suit building), which the original top card determines;
 *                    when o = 0, a "pool" entry (entryBits): 0 for an empty column, else
 *                    1 + (card index * (runMax + 1) + run length) of its bottom card and run.
 *
 * Canonical: the pool entries of columns whose original cards are all gone are sorted, so the
 * key ignores the order of such columns (columns are interchangeable); columns that still hold
 * original cards are told apart by those cards, so no other column permutation gives the same
 * position. The foundations are not stored at all: every card not in a column, the waste, the
 * row, the pile or the stock is home, and with the two foundations of a suit interchangeable
 * their tops follow from the count of each card home. Twin cards are the same integer
 * everywhere, so they are merged by construction.
 */
export class KeyPacker {
  readonly words: number;
  readonly bits: number;
  private readonly origBits: number;
  private readonly runBits: number;
  private readonly entryBits: number;
  private readonly runMax: number;
  private readonly maskWords: number;
  private readonly pool = new Int32Array(48);
  private readonly counts = new Int8Array(64);

  constructor(private readonly g: Game) {
    this.origBits = bitsFor(g.deal.size.rows);
    this.runMax = g.building === 0 ? 0 : g.building === 1 ? 1 : g.ranks;
    this.runBits = bitsFor(this.runMax);
    this.entryBits = bitsFor(g.ranks * 4 * (this.runMax + 1));
    this.maskWords = (g.stockSize + 31) >>> 5;
    this.bits = g.stockSize + 10 + g.columns * (this.origBits + Math.max(this.runBits, this.entryBits));
    this.words = (this.bits + 31) >>> 5;
  }

  /** Writes the key of the game's position into out[off .. off + words). */
  pack(out: Uint32Array, off: number, justDrew: boolean): void {
    const g = this.g;
    const W = this.words;
    const mask = g.inPlayMask;
    const S = g.stockSize;
    const full = S >>> 5;
    for (let i = 0; i < full; i++) out[off + i] = mask[i]!;
    // Bits are gathered in `acc` (its `bits` low bits are valid) and written a word at a time.
    let word = off + full;
    let bits = S & 31;
    let acc = bits === 0 ? 0 : mask[full]!;
    const ptr = g.phase === 1 ? g.stockPtr : g.pileNext < g.wasteLen ? g.waste[g.pileNext]! : S;
    const head = ptr | ((g.phase - 1) << 7) | (justDrew ? 256 : 0) | 512;
    acc |= head << bits;
    bits += 10;
    if (bits >= 32) {
      out[word++] = acc;
      bits -= 32;
      acc = bits === 0 ? 0 : head >>> (10 - bits);
    }
    const cols = g.cols;
    const len = g.len;
    const orig = g.orig;
    const C = g.columns;
    const h = g.height;
    const ranks = g.ranks;
    const runSpan = this.runMax + 1;
    const pool = this.pool;
    // Pool entries, sorted descending (zeros, the empty columns, last).
    let np = 0;
    for (let c = 0; c < C; c++) {
      if (orig[c] !== 0) continue;
      const l = len[c]!;
      let e = 0;
      if (l > 0) {
        const base = cols[c * h]!;
        e = 1 + ((base >> 4) * ranks + (base & 15) - 1) * runSpan + (l - 1);
      }
      let j = np++;
      while (j > 0 && pool[j - 1]! < e) {
        pool[j] = pool[j - 1]!;
        j--;
      }
      pool[j] = e;
    }
    let k = 0;
    const ob = this.origBits;
    const wOrig = ob + this.runBits;
    const wPool = ob + this.entryBits;
    for (let c = 0; c < C; c++) {
      const o = orig[c]!;
      let v: number;
      let n: number;
      if (o !== 0) {
        v = o | ((len[c]! - o) << ob);
        n = wOrig;
      } else {
        v = pool[k++]! << ob;
        n = wPool;
      }
      acc |= v << bits;
      bits += n;
      if (bits >= 32) {
        out[word++] = acc;
        bits -= 32;
        acc = bits === 0 ? 0 : v >>> (n - bits);
      }
    }
    if (bits > 0) out[word++] = acc;
    while (word < off + W) out[word++] = 0;
  }

  /**
   * Sets the game to the position of a key (columns with pool entries get them in sorted order).
   * The game's undo history is cleared. Returns the justDrew flag.
   */
  unpack(key: Uint32Array, off: number): boolean {
    const g = this.g;
    const deal = g.deal;
    const h = g.height;
    const ranks = g.ranks;
    const runSpan = this.runMax + 1;
    const counts = this.counts;
    counts.fill(0);
    const S = g.stockSize;
    const head = get(key, off, S, 10);
    const ptr = head & 127;
    const phase2 = (head & 128) !== 0;
    let pos = S + 10;
    for (let c = 0; c < g.columns; c++) {
      const o = get(key, off, pos, this.origBits);
      pos += this.origBits;
      const dealt = deal.columns[c]!;
      let l = 0;
      if (o !== 0) {
        for (let i = 0; i < o; i++) {
          const card = dealt[i]!;
          g.cols[c * h + l++] = card;
          counts[card]!++;
        }
        const run = get(key, off, pos, this.runBits);
        pos += this.runBits;
        let card = dealt[o - 1]!;
        for (let i = 0; i < run; i++) {
          card--;
          g.cols[c * h + l++] = card;
          counts[card]!++;
        }
      } else {
        const e = get(key, off, pos, this.entryBits);
        pos += this.entryBits;
        if (e !== 0) {
          const idx = ((e - 1) / runSpan) | 0;
          const run = (e - 1) % runSpan;
          let card = (((idx / ranks) | 0) << 4) | ((idx % ranks) + 1);
          g.cols[c * h + l++] = card;
          counts[card]!++;
          for (let i = 0; i < run; i++) {
            card--;
            g.cols[c * h + l++] = card;
            counts[card]!++;
          }
        }
      }
      g.len[c] = l;
      g.orig[c] = o;
    }
    // The last mask word also holds the pointer and column bits: keep only the bits below S.
    for (let i = 0; i < g.inPlayMask.length; i++) g.inPlayMask[i] = i < this.maskWords ? key[off + i]! : 0;
    if ((S & 31) !== 0) g.inPlayMask[this.maskWords - 1]! &= (1 << (S & 31)) - 1;
    if (!phase2) {
      g.phase = 1;
      g.stockPtr = ptr;
      let w = 0;
      for (let i = 0; i < ptr; i++) if (bit(key, off, i)) g.waste[w++] = i;
      g.wasteLen = w;
      g.privLen = 0;
      g.pileNext = 0;
      for (let i = 0; i < w; i++) counts[g.stockCards[g.waste[i]!]!]!++;
      for (let i = ptr; i < S; i++) counts[g.stockCards[i]!]!++;
    } else {
      g.phase = 2;
      g.stockPtr = S;
      let p = 0;
      let w = 0;
      for (let i = 0; i < S; i++) {
        if (!bit(key, off, i)) continue;
        counts[g.stockCards[i]!]!++;
        if (i < ptr) g.priv[p++] = i;
        else g.waste[w++] = i;
      }
      g.privLen = p;
      g.pileNext = 0;
      g.wasteLen = w;
    }
    // Foundations: what is not in play is home.
    let home = 0;
    const packs = g.packs;
    for (let s = 0; s < 4; s++) {
      let a = 0;
      let b = 0;
      for (let r = 1; r <= ranks; r++) {
        const homeCount = packs - counts[(s << 4) | r]!;
        if (homeCount >= 1 && a === r - 1) a = r;
        if (homeCount >= 2 && b === r - 1) b = r;
        home += homeCount;
      }
      g.found[s * packs] = a;
      if (packs === 2) g.found[s * packs + 1] = b;
    }
    g.home = home;
    g.histLen = 0;
    return (head & 256) !== 0;
  }
}

export function bitsFor(maxValue: number): number {
  let b = 0;
  while ((1 << b) <= maxValue) b++;
  return b;
}

function put(out: Uint32Array, off: number, pos: number, value: number, bits: number): number {
  if (bits === 0) return pos;
  const w = off + (pos >>> 5);
  const s = pos & 31;
  out[w]! |= value << s;
  if (s + bits > 32) out[w + 1]! |= value >>> (32 - s);
  return pos + bits;
}

function get(key: Uint32Array, off: number, pos: number, bits: number): number {
  if (bits === 0) return 0;
  const w = off + (pos >>> 5);
  const s = pos & 31;
  let v = key[w]! >>> s;
  if (s + bits > 32) v |= key[w + 1]! << (32 - s);
  return v & ((1 << bits) - 1);
}

function bit(key: Uint32Array, off: number, pos: number): boolean {
  return ((key[off + (pos >>> 5)]! >>> (pos & 31)) & 1) !== 0;
}

/** 32-bit hash of a key (murmur-style mixing, Math.imul only). */
export function hashKey(key: Uint32Array, off: number, words: number): number {
  let h = 0x811c9dc5 ^ words;
  for (let i = 0; i < words; i++) {
    let k = key[off + i]!;
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
