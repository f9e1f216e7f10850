import { type MemoryBudget } from './memory.js';
import { type ExactTable, FULL, MAX_LOAD, MIN_SLOTS, TranspositionTable, homeMul, homeShift, indexSlotsFor, slotsAfter } from './table.js';

/** What `insert` answers for a key already there (ExactTable: negative, not FULL). */
const EXISTS = -3;
/** When the budget refuses to grow the pair slots, they fill up to this load before the table is full. */
const LAST_LOAD = 0.9;
/** Bytes a pair slot takes: two 32-bit ids. */
const PAIR_BYTES = 8;

/**
 * An exact table of packed keys (key.ts) that stores a position as a pair of ids: the id of its
 * stock part (bits 0 .. split of the key: the stock positions in play and the four flag bits)
 * and the id of its column part (the rest), each part kept once in a small exact table of its
 * own. This is the collapse compression of model checkers (Holzmann's SPIN): a search meets far
 * fewer distinct column parts and stock parts than positions (tens to hundreds of times fewer on
 * full book deals), so a position costs one pair slot, 8 bytes at a load of at most 0.75 (10.7
 * bytes), plus its share of the two part tables, against 20 bytes of key and 5.3-8 of index in
 * TranspositionTable. It is exact: the part tables compare whole parts, and the pair table whole
 * pairs, so a search exhausted on it has proved its verdict.
 *
 * Memory: every array is taken from `budget` before it is allocated (a growth holds the old and
 * the new pair slots for a moment, and takes both), and given back when let go (`release`). When
 * the budget has no room to grow the pair slots, they fill to a load of 0.9 before the table
 * answers FULL.
 */
export class CollapseTable implements ExactTable {
  private readonly stockTable: TranspositionTable;
  private readonly columnTable: TranspositionTable;
  /** Two words a slot: the stock part's id + 1 and the column part's id + 1; 0 and 0: empty. */
  private pairs: Uint32Array;
  private cap = 0;
  private mul = 0;
  private shift = 0;
  /** The parts of the key being inserted. */
  private readonly stockBuf: Uint32Array;
  private readonly columnBuf: Uint32Array;
  private readonly stockWords: number;
  private readonly columnWords: number;
  /** Words of the key wholly in the stock part, and the bits of the next one that are. */
  private readonly splitWord: number;
  private readonly splitBits: number;
  /** The last stock part and column part looked up, and their ids as a part table answers for a part already there (-(id + 3)). */
  private readonly lastStock: Uint32Array;
  private readonly lastColumn: Uint32Array;
  private lastStockId = NONE;
  private lastColumnId = NONE;
  size = 0;

  /**
   * @param words key size in 32-bit words
   * @param split the bit where the column part starts (the key's bits from there to `bits`)
   * @param bits the key's bits in all
   */
  constructor(
    readonly words: number,
    readonly split: number,
    readonly bits: number,
    readonly budget: MemoryBudget,
    expectedStates = 1 << 14,
  ) {
    this.stockWords = (split + 31) >>> 5;
    this.columnWords = (bits - split + 31) >>> 5;
    this.splitWord = split >>> 5;
    this.splitBits = split & 31;
    this.stockBuf = new Uint32Array(this.stockWords);
    this.columnBuf = new Uint32Array(this.columnWords);
    this.lastStock = new Uint32Array(this.stockWords);
    this.lastColumn = new Uint32Array(this.columnWords);
    this.stockTable = new TranspositionTable(this.stockWords, budget.cap, 1 << 10, budget);
    this.columnTable = new TranspositionTable(this.columnWords, budget.cap, 1 << 10, budget);
    let cap = indexSlotsFor(Math.max(MIN_SLOTS, Math.min(expectedStates, 1 << 21)));
    if (cap * PAIR_BYTES > budget.free) cap = MIN_SLOTS;
    this.pairs = budget.take(cap * PAIR_BYTES) ? new Uint32Array(cap * 2) : NO_PAIRS;
    if (this.pairs !== NO_PAIRS) this.resize(cap);
  }

  private resize(cap: number): void {
    this.cap = cap;
    this.mul = homeMul(cap);
    this.shift = homeShift(cap, 30);
  }

  private home(a: number, b: number): number {
    let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca6b);
    h ^= h >>> 15;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 13;
    return Math.imul(h >>> 2, this.mul) >>> this.shift;
  }

  /** The two parts of the key src[off ..] into stockBuf and columnBuf. */
  private split2(src: Uint32Array, off: number): void {
    const sw = this.splitWord;
    const sb = this.splitBits;
    const s = this.stockBuf;
    for (let i = 0; i < sw; i++) s[i] = src[off + i]!;
    if (sb !== 0) s[sw] = src[off + sw]! & ((1 << sb) - 1);
    const c = this.columnBuf;
    const last = off + this.words;
    for (let i = 0, w = off + sw; i < this.columnWords; i++, w++) {
      c[i] = sb === 0 ? src[w]! : (src[w]! >>> sb) | (w + 1 < last ? src[w + 1]! << (32 - sb) : 0);
    }
  }

  /** Inserts the key src[off .. off + words): its new id (>= 0), EXISTS when it was there, FULL when the budget forbids it. */
  insert(src: Uint32Array, off: number): number {
    if (this.pairs === NO_PAIRS) return FULL;
    this.split2(src, off);
    // Siblings in a search share a part with each other most of the time (a layout move keeps
    // the stock part, a draw or a waste card home the column part): the last of each is kept.
    let a = this.lastStockId;
    if (a === NONE || !same(this.stockBuf, this.lastStock, this.stockWords)) {
      a = this.stockTable.insert(this.stockBuf, 0);
      if (a === FULL) return FULL;
      this.lastStock.set(this.stockBuf);
      this.lastStockId = a < 0 ? a : -a - 3;
    }
    let b = this.lastColumnId;
    if (b === NONE || !same(this.columnBuf, this.lastColumn, this.columnWords)) {
      b = this.columnTable.insert(this.columnBuf, 0);
      if (b === FULL) return FULL;
      this.lastColumn.set(this.columnBuf);
      this.lastColumnId = b < 0 ? b : -b - 3;
    }
    // A part seen for the first time makes the pair new. (A part already there answers -(id + 3).)
    const seen = a < 0 && b < 0;
    a = (a < 0 ? -a - 3 : a) + 1;
    b = (b < 0 ? -b - 3 : b) + 1;
    if (seen && this.has(a, b)) return EXISTS;
    if (this.size + 1 > this.cap * MAX_LOAD && !this.grow() && this.size + 1 > this.cap * LAST_LOAD) return FULL;
    const p = this.pairs;
    const cap = this.cap;
    let i = this.home(a, b);
    while (p[2 * i] !== 0) i = i + 1 === cap ? 0 : i + 1;
    p[2 * i] = a;
    p[2 * i + 1] = b;
    return this.size++;
  }

  private has(a: number, b: number): boolean {
    const p = this.pairs;
    const cap = this.cap;
    for (let i = this.home(a, b); ; i = i + 1 === cap ? 0 : i + 1) {
      const x = p[2 * i]!;
      if (x === 0) return false;
      if (x === a && p[2 * i + 1] === b) return true;
    }
  }

  /** More pair slots (`slotsAfter`), taken from the budget with the old ones still held; false when it refuses. */
  private grow(): boolean {
    const cap = slotsAfter(this.cap);
    if (cap > MAX_PAIR_SLOTS || !this.budget.take(cap * PAIR_BYTES)) return false;
    const old = this.pairs;
    const p = new Uint32Array(cap * 2);
    this.resize(cap);
    for (let j = 0; j < old.length; j += 2) {
      const a = old[j]!;
      if (a === 0) continue;
      const b = old[j + 1]!;
      let i = this.home(a, b);
      while (p[2 * i] !== 0) i = i + 1 === cap ? 0 : i + 1;
      p[2 * i] = a;
      p[2 * i + 1] = b;
    }
    this.pairs = p;
    this.budget.give(old.byteLength);
    return true;
  }

  /** Empties the table, keeping its arrays. */
  clear(): void {
    if (this.size > 0) this.pairs.fill(0);
    this.lastStockId = this.lastColumnId = NONE;
    this.stockTable.clear();
    this.columnTable.clear();
    this.size = 0;
  }

  /** Gives every array's bytes back to the budget (the table is not used after). */
  release(): void {
    if (this.pairs !== NO_PAIRS) this.budget.give(this.pairs.byteLength);
    this.pairs = NO_PAIRS;
    this.lastStockId = this.lastColumnId = NONE;
    this.stockTable.release();
    this.columnTable.release();
    this.size = 0;
  }

  bytes(): number {
    return (this.pairs === NO_PAIRS ? 0 : this.pairs.byteLength) + this.stockTable.bytes() + this.columnTable.bytes();
  }

  /** Bytes per stored state: the pair slots these states need at a load of at most 0.75, and the part tables' states. */
  bytesPerState(): number {
    if (this.size === 0) return 0;
    const parts = this.stockTable.size * this.stockTable.bytesPerState() + this.columnTable.size * this.columnTable.bytesPerState();
    return (PAIR_BYTES * indexSlotsFor(Math.max(this.size, 16), MAX_PAIR_SLOTS) + parts) / this.size;
  }

  /** Distinct stock parts and column parts stored. */
  get parts(): { readonly stock: number; readonly columns: number } {
    return { stock: this.stockTable.size, columns: this.columnTable.size };
  }

  /** Calls `visit` with every key stored (in `out`, at 0), until it returns false; false then. */
  forEachKey(visit: (key: Uint32Array, off: number) => boolean): boolean {
    const out = new Uint32Array(this.words);
    const p = this.pairs;
    const sw = this.splitWord;
    const sb = this.splitBits;
    for (let j = 0; j < p.length; j += 2) {
      if (p[j] === 0) continue;
      const s = this.stockTable.store;
      const c = this.columnTable.store;
      const so = (p[j]! - 1) * this.stockWords;
      const co = (p[j + 1]! - 1) * this.columnWords;
      out.fill(0);
      for (let i = 0; i < this.stockWords; i++) out[i] = s[so + i]!;
      for (let i = 0; i < this.columnWords; i++) {
        const v = c[co + i]!;
        if (sb === 0) out[sw + i] = v;
        else {
          out[sw + i]! |= v << sb;
          if (sw + i + 1 < this.words) out[sw + i + 1] = v >>> (32 - sb);
        }
      }
      if (!visit(out, 0)) return false;
    }
    return true;
  }
}

/** The most pair slots: 2^30 (8 GiB; 805 million states at a load of 0.75, 966 million at 0.9), so that every index stays below 2^31. */
const MAX_PAIR_SLOTS = 2 ** 30;
const NO_PAIRS = new Uint32Array(2);
/** No part kept (`lastStockId`, `lastColumnId`). */
const NONE = 0;

function same(a: Uint32Array, b: Uint32Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}
