/**
 * Groups of refuted positions for waste dominance (dominance.ts) and pile nogoods (nogoods.ts): an
 * open-addressing table from a group's key to its index, and for each group the head of the
 * caller's list of entries (-1: none). A group's key is a position's packed key (`words` words)
 * with its bits below `from` cleared, and one word more of the caller's. Typed arrays only;
 * nothing allocated per lookup once grown.
 */
export class Groups {
  /** Each group's first entry (the caller's index), -1 when none; indexed by group. */
  head: Int32Array;
  private keys: Uint32Array;
  private count = 0;
  /** Slot -> group + 1 (0: empty). */
  private slots: Int32Array;
  private mask: number;
  private readonly width: number;
  private readonly scratch: Uint32Array;

  constructor(
    private readonly words: number,
    private readonly from: number,
  ) {
    this.width = words + 1;
    this.scratch = new Uint32Array(this.width);
    this.keys = new Uint32Array(1024 * this.width);
    this.head = new Int32Array(1024);
    this.slots = new Int32Array(2048);
    this.mask = 2047;
  }

  clear(): void {
    this.slots.fill(0);
    this.count = 0;
  }

  /**
   * The group of the position whose key is keys[off..off + words), with `extra` beside it: its
   * index, or -1 (with `make`, a new group with no entry).
   */
  find(keys: Uint32Array, off: number, extra: number, make: boolean): number {
    const w = this.width;
    const k = this.scratch;
    const full = this.from >>> 5;
    for (let i = 0; i < this.words; i++) k[i] = i < full ? 0 : keys[off + i]!;
    if ((this.from & 31) !== 0) k[full] = k[full]! & ~((1 << (this.from & 31)) - 1);
    k[this.words] = extra;
    let s = hashWords(k, 0, w) & this.mask;
    for (;;) {
      const v = this.slots[s]!;
      if (v === 0) break;
      const at = (v - 1) * w;
      let same = true;
      for (let i = 0; i < w; i++) {
        if (this.keys[at + i] !== k[i]) {
          same = false;
          break;
        }
      }
      if (same) return v - 1;
      s = (s + 1) & this.mask;
    }
    if (!make) return -1;
    const gi = this.count++;
    if ((gi + 1) * w > this.keys.length) {
      this.keys = grown(this.keys);
      this.head = grown(this.head);
    }
    for (let i = 0; i < w; i++) this.keys[gi * w + i] = k[i]!;
    this.head[gi] = -1;
    this.slots[s] = gi + 1;
    if (this.count * 2 > this.mask) this.rehash();
    return gi;
  }

  private rehash(): void {
    const w = this.width;
    const size = (this.mask + 1) * 2;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    for (let gi = 0; gi < this.count; gi++) {
      let s = hashWords(this.keys, gi * w, w) & this.mask;
      while (this.slots[s] !== 0) s = (s + 1) & this.mask;
      this.slots[s] = gi + 1;
    }
  }
}

/** The words a[at..at+n) mixed into one 32-bit hash. */
export function hashWords(a: Uint32Array, at: number, n: number): number {
  let h = 0x9e3779b9 | 0;
  for (let i = 0; i < n; i++) h = Math.imul(h ^ a[at + i]!, 0x85ebca6b) ^ (h >>> 13);
  return h ^ (h >>> 16);
}

/** A copy of `a` twice as long. */
export function grown<T extends Uint32Array | Int32Array | Uint8Array>(a: T): T {
  const b = new (a.constructor as new (length: number) => T)(a.length * 2);
  b.set(a);
  return b;
}
