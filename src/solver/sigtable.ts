import { type KeyPacker } from './key.js';
import { type MemoryBudget } from './memory.js';
import { FULL, MAX_LOAD, MAX_SLOTS, MIN_SLOTS, MIN_STATES, PRESIZE_STATES, homeMul, homeShift, indexSlotsFor, slotsAfter, slotsWithin, type KeyedTable, type TableStats } from './table.js';

/**
 * A set of positions that stores a 48-bit signature of each position instead of its packed key:
 * an open-addressing table (linear probing) of 6-byte slots, nothing else. Depth-first search,
 * the rollout and its look-aheads only ask "seen before?", and this answers it with one read
 * where the exact table (table.ts) reads its index and then the stored key, a dependent second
 * read.
 *
 * The signature is made by the KeyPacker without packing the key (`baseSig`, `childSig`: an
 * additive hash over the key's parts, a child's made from its parent's by a few differences; see
 * key.ts), in two 32-bit lanes: the first lane's high bits pick the home slot (`resize`), and
 * the slot keeps all of it and 16 bits of the second. It is a function of the key (`keySig`
 * makes it from one), so positions with one key have one signature, and `addAll` can take over
 * an exact table.
 *
 * Memory per stored state: 6 bytes a slot / load, the load kept between 0.5 and 0.75 by growing
 * by a half or a third (`slotsAfter`): 8 to 12 bytes a state (`bytesPerState()`, checked by a
 * test), as the exact table's index grows (table.ts). Doubling would let the load fall to 0.375 (16 bytes
 * a state). Since a size need not be a power of two, a signature's home slot is found by two
 * multiplications and shifts, not a mask (`resize`). The slots never take more than `maxBytes` (the memory cap): the table is sized
 * within it and grows only while the cap allows. A cap below the smallest table (MIN_SLOTS
 * slots, 192 bytes) makes one that stores nothing (every insert is FULL).
 *
 * Two different positions can share a signature. The odds: about n^2 / 2^49 for n states, so
 * 0.2 pairs at 10 million states. Such a pair makes the search skip the second position as if
 * it were the first. That can hide a win, never make one (every win is replayed by the verifier
 * from the deal), so it can never make a wrong `won`; but a search that ends exhausted on this
 * table has not proved anything. The solver therefore never reports `unsolvable` from it: it
 * confirms the loss by a depth-first search on the exact table first (solver.ts).
 *
 * `bits` (default 48) keeps fewer bits: only for tests, which use a few bits to make collisions
 * common and check that no verdict depends on their absence.
 */
export class SignatureTable implements TableStats {
  /** Three 16-bit words a slot: the first lane's high and low halves, the second lane's low half; all zero = empty. */
  private slots: Uint16Array;
  /** Slots (a number of `slotsAfter`'s sequence), and how a signature's home slot is found among them (`resize`, `home`). */
  private cap = 0;
  private mul = 0;
  private shift = 0;
  private readonly hiMask: number;
  private readonly loMask: number;
  /** The slots of the first JOURNAL states inserted since the last clear, so that clearing a table that holds few (a look-ahead's) touches only those. */
  private readonly journal = new Int32Array(JOURNAL);
  private journaled = true;
  /** The signature `probe` made last, in the three words of a slot. */
  private sigA = 0;
  private sigB = 0;
  private sigC = 0;
  size = 0;

  /**
   * @param maxBytes memory cap for the slots
   * @param expectedStates how many states to make room for at once (capped)
   * @param bits signature bits kept, 1 to 48 (fewer only in tests)
   * @param budget a budget shared with other tables (memory.ts) that the slots are taken from as
   *   well: the table then grows only while both the cap and the budget allow
   */
  constructor(
    readonly maxBytes: number,
    expectedStates = 1 << 14,
    readonly bits = 48,
    readonly budget: MemoryBudget | null = null,
  ) {
    if (!(bits >= 1 && bits <= 48)) throw new RangeError(`signature bits must be 1 to 48, not ${bits}`);
    // The first lane's high bits: they pick the home slot (`resize`), so a few bits kept still spread.
    this.hiMask = bits >= 32 ? 0xffffffff : (0xffffffff - (2 ** (32 - bits) - 1)) >>> 0;
    this.loMask = bits > 32 ? 2 ** (bits - 32) - 1 : 0;
    const limit = Math.min(maxBytes, budget ? budget.free : Infinity);
    const states = Math.max(MIN_STATES, Math.min(expectedStates, PRESIZE_STATES, Math.floor((limit * MAX_LOAD) / SLOT_BYTES)));
    // The size for those states (rounded up in the sequence), or the largest below it that fits the cap.
    const cap = sigSlotsFor(states, limit);
    if (cap === 0) {
      this.slots = NO_SLOTS;
      return;
    }
    budget?.take(cap * SLOT_BYTES);
    this.slots = new Uint16Array(cap * 3);
    this.resize(cap);
  }

  /**
   * Sets the slots to `cap`, m 2^j with m 2 or 3 (`slotsAfter`): a signature's home slot is
   * then floor(x m / 2^(30 - j)) for x its first lane's high 30 bits (`probe`), below m 2^j.
   * The lanes are sums of random words (key.ts), so their high bits are as random as the low.
   */
  private resize(cap: number): void {
    this.cap = cap;
    this.mul = homeMul(cap);
    this.shift = homeShift(cap, 30);
  }

  /** The home slot of first lane h (unsigned): its high 30 bits scaled to [0, cap) (`resize`); imul's low 32 bits are the whole product, below 3 2^30. */
  private home(h: number): number {
    return Math.imul(h >>> 2, this.mul) >>> this.shift;
  }

  /** Bytes the table's array takes now (none for a table with no room: NO_SLOTS is shared). */
  bytes(): number {
    return this.slots === NO_SLOTS ? 0 : this.slots.byteLength;
  }

  /**
   * Bytes per stored state: the slots these states need in a table grown from its smallest size
   * (as the exact table counts its index; a table sized up front or reused has more).
   */
  bytesPerState(): number {
    if (this.size === 0) return 0;
    return (SLOT_BYTES * sigSlotsFor(Math.max(this.size, MIN_STATES), Infinity)) / this.size;
  }

  /** Empties the table, keeping its array. */
  clear(): void {
    if (this.size > JOURNAL || !this.journaled) this.slots.fill(0);
    else {
      const s = this.slots;
      for (let k = 0; k < this.size; k++) {
        const p = this.journal[k]! * 3;
        s[p] = 0;
        s[p + 1] = 0;
        s[p + 2] = 0;
      }
    }
    this.size = 0;
    this.journaled = true;
  }

  /**
   * Inserts the signature whose two 32-bit lanes are a and b (a KeyPacker's `sigA` and `sigB`,
   * justDrew flag included). Returns a new id (>= 0, the count before) when it was not there, a
   * negative number other than FULL when it was, FULL when the memory cap forbids growing.
   */
  insert(a: number, b: number): number {
    const i = this.probe(a, b);
    if (i < 0) return EXISTS;
    if (this.size + 1 > this.cap * MAX_LOAD) {
      if (!this.grow()) return FULL;
      return this.insert(a, b);
    }
    const p = i * 3;
    const s = this.slots;
    s[p] = this.sigA;
    s[p + 1] = this.sigB;
    s[p + 2] = this.sigC;
    if (this.size < JOURNAL) this.journal[this.size] = i;
    return this.size++;
  }

  /**
   * Inserts the signature of every key of an exact table (a depth-first search going on with
   * signatures), made by `packer` (`keySig`). Returns false when the memory cap forbids it.
   */
  addAll(t: KeyedTable, packer: KeyPacker): boolean {
    return t.forEachKey((key, off) => {
      packer.keySig(key, off, true);
      return this.insert(packer.sigA, packer.sigB) !== FULL;
    });
  }

  /** 0 when the signature is there, else -1. */
  find(a: number, b: number): number {
    return this.probe(a, b) < 0 ? 0 : -1;
  }

  /**
   * Keeps `bits` of the signature (sigA, sigB, sigC: the slot's three words) and looks for it:
   * returns the empty slot where it would go, or -1 when it is there.
   */
  private probe(sa: number, sb: number): number {
    let h = (sa & this.hiMask) >>> 0;
    const c = sb & this.loMask;
    if (h === 0 && c === 0) h = 1;
    const a = h >>> 16;
    const b = h & 0xffff;
    this.sigA = a;
    this.sigB = b;
    this.sigC = c;
    const s = this.slots;
    const cap = this.cap;
    for (let i = this.home(h); ; i = i + 1 === cap ? 0 : i + 1) {
      const p = i * 3;
      const x = s[p]!;
      const y = s[p + 1]!;
      const z = s[p + 2]!;
      if ((x | y | z) === 0) return i;
      if (x === a && y === b && z === c) return -1;
    }
  }

  /** Gives the slots' bytes back to the budget (the table is not used after). */
  release(): void {
    this.budget?.give(this.bytes());
    this.slots = NO_SLOTS;
    this.size = 0;
  }

  private grow(): boolean {
    const old = this.slots;
    const cap = slotsAfter(this.cap);
    if (cap > MAX_SLOTS || cap * SLOT_BYTES > this.maxBytes || old === NO_SLOTS) return false;
    // A budget gives the new slots while the old ones are still held, and takes the old back after.
    if (this.budget && !this.budget.take(cap * SLOT_BYTES)) return false;
    const s = new Uint16Array(cap * 3);
    this.resize(cap);
    for (let p = 0; p < old.length; p += 3) {
      const x = old[p]!;
      const y = old[p + 1]!;
      const z = old[p + 2]!;
      if ((x | y | z) === 0) continue;
      let i = this.home(((x << 16) | y) >>> 0);
      while ((s[i * 3]! | s[i * 3 + 1]! | s[i * 3 + 2]!) !== 0) i = i + 1 === cap ? 0 : i + 1;
      s[i * 3] = x;
      s[i * 3 + 1] = y;
      s[i * 3 + 2] = z;
    }
    this.slots = s;
    this.budget?.give(old.byteLength);
    this.journaled = false; // its slots moved
    return true;
  }
}

const SLOT_BYTES = 6;

/**
 * Slots of the smallest table of the sequence (MIN_SLOTS, then `slotsAfter`) that holds `states`
 * at a load of at most MAX_LOAD; or, when that takes more than `maxBytes`, the largest one of
 * the sequence that fits; 0 when not even MIN_SLOTS fits.
 */
export function sigSlotsFor(states: number, maxBytes: number): number {
  if (MIN_SLOTS * SLOT_BYTES > maxBytes) return 0;
  return indexSlotsFor(states, slotsWithin(Math.min(MAX_SLOTS, maxBytes / SLOT_BYTES)));
}

/**
 * The slots of a table whose cap cannot hold the smallest one: a single empty slot, shared, and
 * never written (insert finds no room and returns FULL before it writes; clear has nothing to
 * clear).
 */
const NO_SLOTS = new Uint16Array(3);
/** What `insert` returns for a signature already there. */
const EXISTS = -3;
/** States whose slots `clear` remembers. */
const JOURNAL = 512;
