import { hashKey } from './key.js';
import { type ExactTable, FULL, MAX_LOAD, MAX_STATES, MIN_SLOTS, homeMul, homeShift, slotsAfter } from './table.js';

/**
 * The transposition table of exact keys that several threads share (parallel.ts): one
 * SharedArrayBuffer, allocated once at its full size, which each thread wraps in a SharedTable
 * of its own. No growth and no locks.
 *
 * The same layout as TranspositionTable (table.ts): an append-only store of packed keys, `words`
 * 32-bit words each, ids in order of reservation; an open-addressing index (linear probing) of
 * 32-bit words holding `id + 1` in the low 27 bits (0: empty) and 5 more bits of the hash. A
 * match is always confirmed on the whole key, so a search exhausted on it has proved its verdict.
 *
 * Each thread takes ids in blocks of ID_BLOCK (`Atomics.add` on the header's counter), so that
 * the threads seldom touch the counter and each writes keys to rows of its own. An insert that
 * finds no match writes the key into the store at its thread's next id with plain writes, then
 * publishes it with `Atomics.compareExchange` of the empty slot it probed to. A reader that
 * `Atomics.load`s a published slot may read the key words: the compare-exchange that wrote the
 * slot follows the key's writes in its thread, and the load that sees its value synchronizes
 * with it, so the writes happen before the reads (the JS memory model's happens-before). A slot
 * is written once (0 to a value), so a probe sequence only ever gains entries: a key present
 * stays findable. A lost race (the slot taken in between) goes on probing from that slot with
 * the winner's entry, which may be the same key: then the insert answers "existing", and its
 * row, never published, takes the thread's next key. So each key is stored once, under the id
 * that was published.
 *
 * Capacity: the cap (bytes) is split between the index and the store so that the most states
 * fit at a load of at most MAX_LOAD; an insert past that answers FULL. The whole cap is
 * allocated at once (the operating system commits pages as they are first written: the store's
 * as it fills, the index's soon, since its slots are spread by the hash).
 */

/** The header: Int32 words before the index. */
const HEADER_WORDS = 4;
/** The header's counter of ids reserved. */
const COUNT = 0;
const ID_BITS = 27;
const ID_MASK = (1 << ID_BITS) - 1;
/** What `insert` answers a helper for a state it is to search although another thread stored it (any id >= 0 reads as new). */
export const HELP = 0x7fffffff;
/** Ids a thread takes from the counter at once. */
export const ID_BLOCK = 64;
/** The largest index: 3 2^26 slots hold MAX_STATES at MAX_LOAD, and keep a home slot's product in 32 bits (table.ts `resize`). */
const MOST_SLOTS = 3 * 2 ** 26;

/** How a SharedTable of `words`-word keys in `maxBytes` is laid out: its index slots and its capacity in states. */
export interface SharedLayout {
  readonly words: number;
  readonly slots: number;
  readonly capacity: number;
}

/**
 * The layout that holds the most states in `maxBytes` (the header apart), at most `most` of
 * them: the index is a size of table.ts's sequence (2^k or 3 2^k slots, MIN_SLOTS at least),
 * filled to MAX_LOAD at most. A cap too small for the smallest index and one key holds none.
 */
export function sharedLayout(words: number, maxBytes: number, most = MAX_STATES): SharedLayout {
  const limit = Math.min(most, MAX_STATES);
  let best: SharedLayout = { words, slots: MIN_SLOTS, capacity: 0 };
  for (let slots = MIN_SLOTS; slots <= MOST_SLOTS && slots * 4 < maxBytes; slots = slotsAfter(slots)) {
    // A state takes its key and a done bit (ample: 4 bytes a word of 32).
    const capacity = Math.max(0, Math.min(Math.floor(slots * MAX_LOAD), Math.floor((maxBytes - slots * 4 - 4) / (4 * words + 0.125)), limit));
    if (capacity > best.capacity) best = { words, slots, capacity };
    if (capacity >= limit) break;
  }
  return best;
}

/** Int32 words of the done bits (`SharedTable.finish`): one bit a state. */
function doneWords(capacity: number): number {
  return (capacity + 31) >>> 5;
}

/** Bytes of the SharedArrayBuffer for a layout: the header, the index, the store and the done bits. */
export function sharedBytes(l: SharedLayout): number {
  return 4 * (HEADER_WORDS + l.slots + l.capacity * l.words + doneWords(l.capacity));
}

/**
 * A state's key and its share of the index at the load the layout is sized for: what each of its
 * `capacity` states costs, so that states times this stay within the cap.
 */
export function layoutBytesPerState(l: SharedLayout): number {
  return l.capacity === 0 ? 0 : 4 * l.words + (4 * (l.slots + doneWords(l.capacity))) / l.capacity;
}

/** A new, empty buffer for a SharedTable of this layout (zero-filled: every slot empty). */
export function newSharedBuffer(l: SharedLayout): SharedArrayBuffer {
  return new SharedArrayBuffer(sharedBytes(l));
}

export class SharedTable implements ExactTable {
  readonly words: number;
  readonly slots: number;
  readonly capacity: number;
  private readonly header: Int32Array;
  private readonly index: Uint32Array;
  readonly store: Uint32Array;
  private readonly mul: number;
  private readonly shift: number;
  /** Keys this thread inserted (new ids it answered). */
  inserted = 0;
  /** This thread's next id, and the end of its block (`ID_BLOCK`). */
  private next = 0;
  private end = 0;
  /** One bit a state: set once the thread that stored it has expanded it to the end (`finish`). */
  private readonly done: Int32Array;
  /**
   * The states this thread stored that its search has not left yet, with their depths (a stack;
   * see `insert`), and how many there are.
   */
  private pathId = new Int32Array(1 << 12);
  private pathDepth = new Int32Array(1 << 12);
  private top = 0;
  /**
   * Helping (parallel.ts): an insert that finds a state some thread stored but has not finished
   * answers "new" (`HELP`), once a search (`entered`), so that this thread searches below it too.
   */
  helping = false;
  readonly entered = new Set<number>();

  /** Wraps `buffer` (from `newSharedBuffer` of the same layout, in this thread or another). */
  constructor(layout: SharedLayout, readonly buffer: SharedArrayBuffer) {
    if (buffer.byteLength !== sharedBytes(layout)) throw new Error(`shared table: a buffer of ${buffer.byteLength} bytes for a layout of ${sharedBytes(layout)}`);
    this.words = layout.words;
    this.slots = layout.slots;
    this.capacity = layout.capacity;
    this.header = new Int32Array(buffer, 0, HEADER_WORDS);
    this.index = new Uint32Array(buffer, 4 * HEADER_WORDS, layout.slots);
    this.store = new Uint32Array(buffer, 4 * (HEADER_WORDS + layout.slots), layout.capacity * layout.words);
    this.done = new Int32Array(buffer, 4 * (HEADER_WORDS + layout.slots + layout.capacity * layout.words), doneWords(layout.capacity));
    this.mul = homeMul(layout.slots);
    this.shift = homeShift(layout.slots, ID_BITS);
  }

  /** Ids taken by all threads, at most the capacity: the states stored and the rest of each thread's block. */
  get size(): number {
    return Math.min(Atomics.load(this.header, COUNT), this.capacity);
  }

  /** The whole buffer: it is allocated at once. */
  bytes(): number {
    return this.buffer.byteLength;
  }

  /** `layoutBytesPerState`: the index is allocated whole, and counted at the load it is sized for. */
  bytesPerState(): number {
    return layoutBytesPerState(this);
  }

  /**
   * Inserts the key src[off..off+words). Returns its new id (>= 0) when no thread had stored it,
   * `-(id + 3)` when one had, FULL when the table is full; when `helping`, HELP for a state
   * another thread stored and has not finished, the first time this search meets it.
   *
   * Depth-first search (dfs.ts) inserts the key of a position at depth d from offset d * words of
   * its path's keys, and asks about a child of depth d only once it has left every position
   * deeper than d - 1: so a state this thread stored at depth d or deeper is finished then (the
   * done bits are set late, never early, for a search that keeps to this). The done bits only
   * steer helpers; no verdict rests on them.
   */
  insert(src: Uint32Array, off: number): number {
    const depth = (off / this.words) | 0;
    if (this.top > 0 && this.pathDepth[this.top - 1]! >= depth) this.finishFrom(depth);
    const id = this.claim(src, off);
    if (id >= 0) {
      if (this.top === this.pathId.length) this.growPath();
      this.pathId[this.top] = id;
      this.pathDepth[this.top++] = depth;
      return id;
    }
    if (id === FULL || !this.helping) return id;
    const old = -id - 3;
    if (this.isDone(old) || this.entered.has(old)) return id;
    this.entered.add(old);
    return HELP;
  }

  /** Marks every state this thread stored that its search has left as of a child at `depth`. */
  private finishFrom(depth: number): void {
    while (this.top > 0 && this.pathDepth[this.top - 1]! >= depth) {
      const id = this.pathId[--this.top]!;
      Atomics.or(this.done, id >>> 5, 1 << (id & 31));
    }
  }

  /** The search has ended exhausted: every state this thread stored is finished. Starts a new search's bookkeeping. */
  finishAll(): void {
    this.finishFrom(0);
    this.entered.clear();
  }

  /** Whether the thread that stored state `id` has finished it (as far as the done bits say yet). */
  isDone(id: number): boolean {
    return (Atomics.load(this.done, id >>> 5) & (1 << (id & 31))) !== 0;
  }

  private growPath(): void {
    const ids = new Int32Array(this.pathId.length * 2);
    ids.set(this.pathId);
    this.pathId = ids;
    const depths = new Int32Array(this.pathDepth.length * 2);
    depths.set(this.pathDepth);
    this.pathDepth = depths;
  }

  /** The insert itself: a new id, an existing one as `-(id + 3)`, or FULL. */
  private claim(src: Uint32Array, off: number): number {
    const W = this.words;
    const store = this.store;
    const index = this.index;
    const hash = hashKey(src, off, W);
    const tag = (hash >>> ID_BITS) << ID_BITS;
    const slots = this.slots;
    let i = Math.imul(hash & ID_MASK, this.mul) >>> this.shift;
    let id = -1;
    for (;;) {
      let e = Atomics.load(index, i);
      if (e === 0) {
        if (id < 0) {
          if (this.next === this.end && !this.takeBlock()) return FULL;
          id = this.next;
          const base = id * W;
          for (let k = 0; k < W; k++) store[base + k] = src[off + k]!;
        }
        const entry = (tag | (id + 1)) >>> 0;
        e = Atomics.compareExchange(index, i, 0, entry);
        if (e === 0) {
          this.next++;
          this.inserted++;
          return id;
        }
        // Lost the race for this slot: e is the winner's entry, compared below.
      }
      if (((e ^ tag) >>> ID_BITS) === 0) {
        const base = ((e & ID_MASK) - 1) * W;
        let k = 0;
        while (k < W && store[base + k] === src[off + k]) k++;
        if (k === W) return -((e & ID_MASK) - 1 + 3);
      }
      i = i + 1 === slots ? 0 : i + 1;
    }
  }

  /** Takes the next block of ids; false when the table is full. */
  private takeBlock(): boolean {
    const start = Atomics.add(this.header, COUNT, ID_BLOCK);
    if (start >= this.capacity) return false;
    this.next = start;
    this.end = Math.min(start + ID_BLOCK, this.capacity);
    return true;
  }

  /** Id of a key, or -1. */
  find(src: Uint32Array, off: number): number {
    const W = this.words;
    const hash = hashKey(src, off, W);
    let i = Math.imul(hash & ID_MASK, this.mul) >>> this.shift;
    for (;;) {
      const e = Atomics.load(this.index, i);
      if (e === 0) return -1;
      if (e >>> ID_BITS === hash >>> ID_BITS) {
        const base = ((e & ID_MASK) - 1) * W;
        let k = 0;
        while (k < W && this.store[base + k] === src[off + k]) k++;
        if (k === W) return (e & ID_MASK) - 1;
      }
      i = i + 1 === this.slots ? 0 : i + 1;
    }
  }
}
