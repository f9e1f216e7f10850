import { hashKey } from './key.js';

/**
 * Transposition table: an append-only store of exact packed keys (state ids are their order of
 * insertion and never move) and an open-addressing index over it (linear probing, an Int32Array
 * of `id + 1`, 0 = empty). For best-first search a parent id per state is kept as well.
 *
 * Full keys, never fingerprints: a hit is an exact match, so an `unsolvable` verdict never rests
 * on a hash collision.
 *
 * Memory per stored state: 4 * words (key) + 4 / load (index; load between 0.375 and 0.75)
 * + 4 (parent, best-first only). `bytesPerState()` reports the actual figure.
 */
export const FULL = -2;
const MAX_LOAD = 0.75;

export class TranspositionTable {
  store: Uint32Array;
  parents: Int32Array | null;
  private index: Int32Array;
  private mask: number;
  size = 0;

  constructor(
    readonly words: number,
    readonly maxBytes: number,
    readonly withParents: boolean,
    initialStates = 1 << 14,
  ) {
    this.store = new Uint32Array(initialStates * words);
    this.parents = withParents ? new Int32Array(initialStates) : null;
    let cap = 1 << 10;
    while (cap * MAX_LOAD < initialStates) cap *= 2;
    this.index = new Int32Array(cap);
    this.mask = cap - 1;
  }

  /** Bytes the table's arrays take now. */
  bytes(): number {
    return this.store.byteLength + this.index.byteLength + (this.parents ? this.parents.byteLength : 0);
  }

  /** Bytes per state at the current fill, counting only what is used in the store. */
  bytesPerState(): number {
    if (this.size === 0) return 0;
    return (this.size * (4 * this.words + (this.withParents ? 4 : 0)) + this.index.byteLength) / this.size;
  }

  clear(): void {
    this.index.fill(0);
    this.size = 0;
  }

  /**
   * Inserts the key src[off..off+words). Returns its new id (>= 0) when it was not there,
   * `-(id + 3)` when it was, FULL when the memory cap forbids growing.
   */
  insert(src: Uint32Array, off: number): number {
    const W = this.words;
    const store = this.store;
    const index = this.index;
    let i = hashKey(src, off, W) & this.mask;
    for (;;) {
      const e = index[i]!;
      if (e === 0) break;
      const base = (e - 1) * W;
      let k = 0;
      while (k < W && store[base + k] === src[off + k]) k++;
      if (k === W) return -(e - 1 + 3);
      i = (i + 1) & this.mask;
    }
    const id = this.size;
    if ((id + 1) * W > this.store.length || id + 1 > this.index.length * MAX_LOAD) {
      if (!this.grow()) return FULL;
      return this.insert(src, off);
    }
    const dst = this.store;
    for (let k = 0; k < W; k++) dst[id * W + k] = src[off + k]!;
    index[i] = id + 1;
    this.size = id + 1;
    return id;
  }

  /** Id of a key, or -1. */
  find(src: Uint32Array, off: number): number {
    const W = this.words;
    const store = this.store;
    let i = hashKey(src, off, W) & this.mask;
    for (;;) {
      const e = this.index[i]!;
      if (e === 0) return -1;
      const base = (e - 1) * W;
      let k = 0;
      while (k < W && store[base + k] === src[off + k]) k++;
      if (k === W) return e - 1;
      i = (i + 1) & this.mask;
    }
  }

  private grow(): boolean {
    const W = this.words;
    const needStore = this.size + 1 > this.store.length / W;
    const needIndex = this.size + 1 > this.index.length * MAX_LOAD;
    const newStates = needStore ? (this.store.length / W) * 2 : this.store.length / W;
    const newCap = needIndex ? this.index.length * 2 : this.index.length;
    const newBytes = newStates * 4 * W + newCap * 4 + (this.withParents ? newStates * 4 : 0);
    if (newBytes > this.maxBytes) return false;
    if (needStore) {
      const s = new Uint32Array(newStates * W);
      s.set(this.store);
      this.store = s;
      if (this.parents) {
        const p = new Int32Array(newStates);
        p.set(this.parents);
        this.parents = p;
      }
    }
    if (needIndex) {
      this.index = new Int32Array(newCap);
      this.mask = newCap - 1;
      for (let id = 0; id < this.size; id++) {
        let i = hashKey(this.store, id * W, W) & this.mask;
        while (this.index[i] !== 0) i = (i + 1) & this.mask;
        this.index[i] = id + 1;
      }
    }
    return true;
  }
}
