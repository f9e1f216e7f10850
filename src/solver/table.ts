import { hashKey } from './key.js';
import { type MemoryBudget } from './memory.js';

/**
 * Transposition table: an append-only store of exact packed keys (state ids are their order of
 * insertion and never move) and an open-addressing index over it (linear probing).
 *
 * An index word holds `id + 1` in its low 27 bits (0 = empty slot) and 5 more bits of the key's
 * hash, so that most probes of other keys are turned away without reading the store. A match is
 * always confirmed on the full key: an `unsolvable` verdict never rests on a hash collision.
 *
 * Memory per stored state: 4 * words (key) + 4 / load (index). The index grows as the signature
 * table does, by a half or a third (`slotsAfter`: 32, 48, 64, 96, ... slots), so its load stays
 * between 0.5 and 0.75: 5.3 to 8 bytes a state, where doubling let it fall to 0.375 (10.7).
 * `bytesPerState()` reports the figure for the states stored.
 *
 * The arrays never take more than `maxBytes` (the memory cap, `--max-memory`): the table is
 * sized within it and grows only as far as it allows, so the states stored times
 * `bytesPerState()` never exceed it either. A cap too small for the smallest index (MIN_SLOTS
 * slots: 128 bytes) and one key makes a table that stores nothing (every insert is FULL).
 */
export const FULL = -2;

/**
 * What the solver reports of any table, the exact TranspositionTable (below) or the
 * SignatureTable (sigtable.ts): its states, its bytes, and the bytes per state.
 */
export interface TableStats {
  readonly size: number;
  bytes(): number;
  bytesPerState(): number;
}
/**
 * A table of exact keys, as depth-first search uses one: `insert` answers a new id (>= 0), a
 * negative number other than FULL for a key already there (TranspositionTable: `-(id + 3)`), or
 * FULL. Any search that ends exhausted on one has proved its
 * verdict: a match is always a match of the whole key.
 */
export interface ExactTable extends TableStats {
  insert(src: Uint32Array, off: number): number;
}

/** An exact table whose keys can be read back (a depth-first search going on with signatures takes them all). */
export interface KeyedTable extends ExactTable {
  forEachKey(visit: (key: Uint32Array, off: number) => boolean): boolean;
  /** Empties the table, keeping its arrays. */
  clear(): void;
}

/** Most a table fills its index (or its slots) before it grows. */
export const MAX_LOAD = 0.75;
const ID_BITS = 27;
const ID_MASK = (1 << ID_BITS) - 1;
/** Most states one table holds (ids fit in 27 bits). */
export const MAX_STATES = ID_MASK - 1;
/** Largest table sized up front; beyond it the table grows by doubling. */
export const PRESIZE_STATES = 1 << 21;
/** Room for at least this many states in the smallest table. */
export const MIN_STATES = 16;
/**
 * Slots of the smallest index (or signature table): room for MIN_STATES at MAX_LOAD, a power of
 * two. `bytesPerState()` counts at least this index, so no table with a state has a smaller one.
 */
export const MIN_SLOTS = 32;
/** The most slots an index or a signature table takes: every size is then a 32-bit integer. */
export const MAX_SLOTS = 2 ** 30;
/**
 * The index of a table whose cap cannot hold the smallest one (and one key): a single empty
 * slot, shared, and never written, since such a table has no room for a key (insert returns
 * FULL before it writes).
 */
const NO_INDEX = new Uint32Array(1);

export class TranspositionTable implements ExactTable {
  store: Uint32Array;
  private index: Uint32Array;
  /** Slots of the index (a size of `slotsAfter`'s sequence), and how a hash's home slot is found among them (`resize`, `home`). */
  private cap = 1;
  private mul = 0;
  private shift = 0;
  size = 0;

  /**
   * @param words key size in 32-bit words
   * @param maxBytes memory cap for the key store and the index together
   * @param expectedStates how many states to make room for at once (capped)
   * @param budget a budget shared with other tables (memory.ts) that the arrays are taken from
   *   as well: the table then grows only while both the cap and the budget allow
   */
  constructor(
    readonly words: number,
    readonly maxBytes: number,
    expectedStates = 1 << 14,
    readonly budget: MemoryBudget | null = null,
  ) {
    const perState = 4 * words + 4 / MAX_LOAD;
    const limit = Math.min(maxBytes, budget ? budget.free : Infinity);
    let cap = indexSlotsFor(Math.max(MIN_STATES, Math.min(expectedStates, PRESIZE_STATES, Math.floor(limit / perState))));
    // The index is rounded up from the states that fit, so it alone may pass the cap: take the
    // largest size that leaves room for a key, and give the store what is left (up to the
    // index's load). A table sized well within its cap gets the arrays it always got.
    if (cap * 4 + 4 * words > limit) cap = slotsWithin((limit - 4 * words) / 4);
    const room = Math.floor((limit - cap * 4) / (4 * words));
    if (room < 1) {
      this.store = new Uint32Array(0);
      this.index = NO_INDEX;
      return;
    }
    const states = Math.min(Math.floor(cap * MAX_LOAD), room);
    budget?.take(states * 4 * words + cap * 4);
    this.store = new Uint32Array(states * words);
    this.index = new Uint32Array(cap);
    this.resize(cap);
  }

  /** Gives the arrays' bytes back to the budget (the table is not used after). */
  release(): void {
    this.budget?.give(this.bytes());
    this.store = new Uint32Array(0);
    this.index = NO_INDEX;
    this.size = 0;
  }

  /**
   * Sets the index to `cap` slots, m 2^j with m 2 or 3 (`slotsAfter`; at most 3 2^26, which
   * holds MAX_STATES at MAX_LOAD, so j <= 26): a hash's home slot is then floor(x m / 2^(27 - j))
   * for x its low 27 bits, below m 2^j. The high 5 bits, which the index keeps beside the id,
   * play no part in it, so keys that crowd one stretch of the index still differ there.
   */
  private resize(cap: number): void {
    this.cap = cap;
    this.mul = homeMul(cap);
    this.shift = homeShift(cap, ID_BITS);
  }

  /** The home slot of a hash (`resize`): x m < 3 2^27, so imul's product is exact. */
  private home(hash: number): number {
    return Math.imul(hash & ID_MASK, this.mul) >>> this.shift;
  }

  /** Bytes the table's arrays take now (none for a table with no room: NO_INDEX is shared). */
  bytes(): number {
    return this.store.byteLength + (this.index === NO_INDEX ? 0 : this.index.byteLength);
  }

  /**
   * Bytes per stored state: the used part of the store, plus the index
   * that these states need: the one a table grown from its smallest size has (the smallest
   * size of the sequence that holds them, and at least MIN_STATES, at a load of at most 0.75).
   * A table sized up front for a bigger search, or reused from one (`clear` keeps its arrays),
   * has a larger index than that; counting it would charge the allocation to the states, and a
   * short search would seem to take hundreds of bytes a state. `bytes()` is the allocation.
   */
  bytesPerState(): number {
    if (this.size === 0) return 0;
    return (this.size * 4 * this.words + 4 * indexSlotsFor(Math.max(this.size, MIN_STATES))) / this.size;
  }

  /** Empties the table, keeping its arrays. Cheap when few states were stored. */
  clear(): void {
    if (this.size * 8 < this.index.length) {
      const W = this.words;
      const cap = this.cap;
      for (let id = 0; id < this.size; id++) {
        let i = this.home(hashKey(this.store, id * W, W));
        while ((this.index[i]! & ID_MASK) !== id + 1) i = i + 1 === cap ? 0 : i + 1;
        this.index[i] = 0;
      }
    } else this.index.fill(0);
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
    const hash = hashKey(src, off, W);
    const tag = (hash >>> ID_BITS) << ID_BITS;
    const cap = this.cap;
    let i = this.home(hash);
    for (;;) {
      const e = index[i]!;
      if (e === 0) break;
      if (((e ^ tag) >>> ID_BITS) === 0) {
        const base = ((e & ID_MASK) - 1) * W;
        let k = 0;
        while (k < W && store[base + k] === src[off + k]) k++;
        if (k === W) return -((e & ID_MASK) - 1 + 3);
      }
      i = i + 1 === cap ? 0 : i + 1;
    }
    const id = this.size;
    if ((id + 1) * W > store.length || id + 1 > index.length * MAX_LOAD) {
      if (!this.grow()) return FULL;
      return this.insert(src, off);
    }
    for (let k = 0; k < W; k++) store[id * W + k] = src[off + k]!;
    index[i] = (tag | (id + 1)) >>> 0;
    this.size = id + 1;
    return id;
  }

  /** Id of a key, or -1. */
  find(src: Uint32Array, off: number): number {
    const W = this.words;
    const store = this.store;
    const hash = hashKey(src, off, W);
    const cap = this.cap;
    let i = this.home(hash);
    for (;;) {
      const e = this.index[i]!;
      if (e === 0) return -1;
      if (e >>> ID_BITS === hash >>> ID_BITS) {
        const base = ((e & ID_MASK) - 1) * W;
        let k = 0;
        while (k < W && store[base + k] === src[off + k]) k++;
        if (k === W) return (e & ID_MASK) - 1;
      }
      i = i + 1 === cap ? 0 : i + 1;
    }
  }

  private grow(): boolean {
    const W = this.words;
    if (this.size + 1 > MAX_STATES || this.index === NO_INDEX) return false;
    const needStore = this.size + 1 > this.store.length / W;
    const needIndex = this.size + 1 > this.index.length * MAX_LOAD;
    const newCap = needIndex ? slotsAfter(this.index.length) : this.index.length;
    // The store doubles, or takes what the cap leaves beside the index when that is less (but
    // more than it holds); the index grows (`slotsAfter`) or the table is full.
    let newStates = this.store.length / W;
    if (needStore) newStates = Math.min(newStates * 2, Math.floor((this.maxBytes - newCap * 4) / (4 * W)));
    if (newCap > MAX_SLOTS || newStates <= this.size || newStates * 4 * W + newCap * 4 > this.maxBytes) return false;
    // A budget gives the new arrays while the old ones are still held, and takes the old back after.
    const taken = (needStore ? newStates * 4 * W : 0) + (needIndex ? newCap * 4 : 0);
    if (this.budget && !this.budget.take(taken)) return false;
    const given = (needStore ? this.store.byteLength : 0) + (needIndex ? this.index.byteLength : 0);
    if (needStore) {
      const s = new Uint32Array(newStates * W);
      s.set(this.store);
      this.store = s;
    }
    if (needIndex) {
      this.index = new Uint32Array(newCap);
      this.resize(newCap);
      for (let id = 0; id < this.size; id++) {
        const hash = hashKey(this.store, id * W, W);
        let i = this.home(hash);
        while (this.index[i] !== 0) i = i + 1 === newCap ? 0 : i + 1;
        this.index[i] = (((hash >>> ID_BITS) << ID_BITS) | (id + 1)) >>> 0;
      }
    }
    this.budget?.give(given);
    return true;
  }

  /** Calls `visit` with every key stored (in `store`), until it returns false; false then. */
  forEachKey(visit: (key: Uint32Array, off: number) => boolean): boolean {
    for (let id = 0; id < this.size; id++) if (!visit(this.store, id * this.words)) return false;
    return true;
  }
}

/**
 * The next size of an index or a signature table: half as many slots again from a power of two,
 * a third again from three times one, so every size is 2^k or 3 2^k. From MIN_SLOTS (32): 48,
 * 64, 96, 128, 192, ...
 */
export function slotsAfter(cap: number): number {
  return (cap & (cap - 1)) === 0 ? cap + (cap >>> 1) : cap + ((cap / 3) | 0);
}

/** For a size of the sequence, m 2^j (`slotsAfter`): m, 2 or 3, the factor a home slot is scaled by. */
export function homeMul(cap: number): number {
  return (cap & (cap - 1)) === 0 ? 2 : 3;
}

/**
 * For a size of the sequence, m 2^j: the shift, bits - j, that takes x m, for x of `bits` bits,
 * to a home slot floor(x m / 2^(bits - j)) below m 2^j (j <= bits).
 */
export function homeShift(cap: number, bits: number): number {
  return bits - (31 - Math.clz32((cap / homeMul(cap)) | 0));
}

/**
 * Slots of the smallest size of the sequence (MIN_SLOTS, then `slotsAfter`) that holds `states`
 * at a load of at most MAX_LOAD, or `most` (a size of the sequence) when that is smaller.
 */
export function indexSlotsFor(states: number, most = MAX_SLOTS): number {
  let cap = MIN_SLOTS;
  while (cap * MAX_LOAD < states && cap < most) cap = slotsAfter(cap);
  return cap;
}

/** The largest size of the sequence of at most `slots` slots; MIN_SLOTS when none is. */
export function slotsWithin(slots: number): number {
  let cap = MIN_SLOTS;
  while (slotsAfter(cap) <= slots) cap = slotsAfter(cap);
  return cap;
}
