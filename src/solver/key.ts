import { type Game, DST_FOUNDATION, SRC_DRAW, SRC_FIFTH, SRC_PRIV, SRC_REDEAL, SRC_WASTE } from '../game/state.js';

/**
 * The packed state key: an exact, canonical description of a position in a fixed number of
 * 32-bit words (`words`), with no strings and no BigInt.
 *
 * Layout, least significant bit first (S = stock size):
 *   bits 0 .. S      the stock positions still in play apart from the stock itself, copied word
 *                    for word from the engine's `inPlayMask`: phase 1 the waste, phase 2 the
 *                    privileged row and the pile. In phase 1 bit `stockPtr` is set as well (a
 *                    sentinel: the stock pointer is the highest bit set, and no waste position
 *                    is at or above it). In phase 2 no pointer is needed: the row is always the
 *                    first `privileged` positions in play (cards join it from the pile, whose
 *                    order is that of the positions, and the fifth card is played from the
 *                    pile, never from below the row), and the pile is the rest.
 *   1 bit            phase (0 first deal, 1 second)
 *   1 bit            justDrew: the solver's draw discipline (moves.ts) makes the moves of a
 *                    position depend on whether the last move was a draw
 *   1 bit            always 1, so that no key is all zeros
 *   the columns      one number x per column, written in groups of columns as the digits of a
 *                    mixed-radix number (radix R = the count of values x can take), each group
 *                    in `groupBits` bits: x = (o - 1) * (runMax + 1) + run when the column
 *                    still holds o > 0 of its original cards with a run of `run` cards above
 *                    them (a pair's covering card under pairs, a built run under suit
 *                    building; its cards follow from the original top card); otherwise x =
 *                    rows * (runMax + 1) + e, with the "pool" entry e = 0 for an empty column,
 *                    else 1 + (card index * (runMax + 1) + run length) of its bottom card and run.
 *                    Under book R = 6 + 105 = 111, four columns to a 28-bit group: 84 bits
 *                    for the twelve columns, where one field per column of the widest entry
 *                    took 108.
 *
 * Book: 68 + 1 + 3 + 84 = 156 bits, 5 words; pysol: 68 + 1 + 3 + 116 = 188 bits, 6 words.
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
  /** The bit where the columns start: bits below it are the stock positions in play and the four flag bits. */
  readonly columnsAt: number;
  /** Values a column's number takes, columns in a group, and bits a group takes. */
  readonly radix: number;
  readonly groupSize: number;
  readonly groupBits: number;
  private readonly runSpan: number;
  private readonly pool = new Int32Array(48);
  private readonly counts = new Int8Array(64);
  /** Bits of the last group (fewer columns when the groups do not divide the columns). */
  private readonly lastGroupBits: number;
  /** A column's number for its pool entry e is poolBase + e. */
  private readonly poolBase: number;
  /** The column numbers of a key being unpacked. */
  private readonly colValue = new Int32Array(48);
  /** A column that holds o > 0 dealt cards and l cards in all has the number dealtDigit[o << 5 | l]. */
  private readonly dealtDigit = new Int32Array(32 * 32);
  /** A pool entry is entryBase[bottom card] + the column's length. */
  private readonly entryBase = new Int32Array(64);
  /** For `child`: each column's weight in its group's number (radix ** digits after it), its group's bit offset and bits. */
  private readonly colWeight: Float64Array;
  private readonly colField: Int32Array;
  private readonly colFieldBits: Uint8Array;
  /**
   * Signatures (see `baseSig`): two 32-bit lanes each, lane 0 at even indices. zStock[(i * 256 +
   * v) * 2 + lane]: the stock positions 8i.. of byte value v; zPtr[p * 2 + lane]: the stock
   * pointer p in the first deal (p <= S), and p = S + 1 for the second deal; zColumn[(c * radix +
   * x) * 2 + lane]: column c with number x (a pool entry's value is the same for every column,
   * and an empty column's is 0); zFlag: the justDrew bit.
   */
  private readonly zStock: Int32Array;
  private readonly zPtr: Int32Array;
  private readonly zColumn: Int32Array;
  private readonly zFlag = new Int32Array(2);
  /** The signature's two lanes, written by `baseSig`, `childSig` and `keySig`. */
  sigA = 0;
  sigB = 0;

  constructor(private readonly g: Game) {
    const rows = g.deal.size.rows;
    const runMax = g.building === 0 ? 0 : g.building === 1 ? 1 : g.ranks;
    this.runSpan = runMax + 1;
    this.radix = rows * this.runSpan + 1 + g.ranks * 4 * this.runSpan;
    // As many columns a group as keep the group's number below 2^30.
    let k = 1;
    while (k < g.columns && this.radix ** (k + 1) <= 2 ** 30) k++;
    this.groupSize = k;
    this.groupBits = bitsFor(this.radix ** k - 1);
    const last = g.columns % k === 0 ? k : g.columns % k;
    this.lastGroupBits = bitsFor(this.radix ** last - 1);
    this.poolBase = rows * this.runSpan;
    const colBits = (Math.ceil(g.columns / k) - 1) * this.groupBits + this.lastGroupBits;
    this.columnsAt = g.stockSize + 4;
    this.bits = this.columnsAt + colBits;
    this.words = (this.bits + 31) >>> 5;
    for (let o = 1; o <= rows; o++) for (let l = o; l < 32; l++) this.dealtDigit[(o << 5) | l] = (o - 1) * this.runSpan + l - o;
    for (let card = 0; card < 64; card++) {
      const rank = card & 15;
      if (rank >= 1 && rank <= g.ranks) this.entryBase[card] = 1 + ((card >> 4) * g.ranks + rank - 1) * this.runSpan - 1;
    }
    this.colWeight = new Float64Array(g.columns);
    this.colField = new Int32Array(g.columns);
    this.colFieldBits = new Uint8Array(g.columns);
    for (let c = 0; c < g.columns; c++) {
      const group = Math.floor(c / k);
      const end = Math.min(g.columns, (group + 1) * k);
      this.colWeight[c] = this.radix ** (end - 1 - c);
      this.colField[c] = g.stockSize + 4 + group * this.groupBits;
      this.colFieldBits[c] = end - group * k === k ? this.groupBits : this.lastGroupBits;
    }
    // Signature tables: fixed pseudo-random words (the same in every run and process).
    const S = g.stockSize;
    const rnd = splitmix32(0x6c696d69);
    const bitZ = new Int32Array(S * 2);
    for (let i = 0; i < bitZ.length; i++) bitZ[i] = rnd();
    const bytes = (S + 7) >>> 3;
    this.zStock = new Int32Array(bytes * 256 * 2);
    for (let i = 0; i < bytes; i++) {
      for (let v = 0; v < 256; v++) {
        let a = 0;
        let b = 0;
        for (let j = 0; j < 8; j++) {
          const p = i * 8 + j;
          if ((v >> j) & 1 && p < S) {
            a = (a + bitZ[p * 2]!) | 0;
            b = (b + bitZ[p * 2 + 1]!) | 0;
          }
        }
        this.zStock[(i * 256 + v) * 2] = a;
        this.zStock[(i * 256 + v) * 2 + 1] = b;
      }
    }
    this.zPtr = new Int32Array((S + 2) * 2);
    for (let i = 0; i < this.zPtr.length; i++) this.zPtr[i] = rnd();
    const R = this.radix;
    this.zColumn = new Int32Array(g.columns * R * 2);
    const poolZ = new Int32Array((R - this.poolBase) * 2);
    for (let i = 2; i < poolZ.length; i++) poolZ[i] = rnd(); // entry 0, an empty column: 0
    for (let c = 0; c < g.columns; c++) {
      for (let x = 0; x < R; x++) {
        const i = (c * R + x) * 2;
        this.zColumn[i] = x < this.poolBase ? rnd() : poolZ[(x - this.poolBase) * 2]!;
        this.zColumn[i + 1] = x < this.poolBase ? rnd() : poolZ[(x - this.poolBase) * 2 + 1]!;
      }
    }
    this.zFlag[0] = rnd();
    this.zFlag[1] = rnd();
  }

  /*
   * Signatures: the 64 bits that a signature table (sigtable.ts) stores 48 of, made without
   * packing the key. Each is a function of the key (`keySig` makes it from one), so two positions
   * with one key have one signature: the sum, lane by lane modulo 2^32, of a fixed random word for
   * each stock position in play (read a byte of the mask at a time), one for the stock pointer
   * (or the second deal), one for each column's number in the key, and one for the justDrew
   * flag. A sum ignores the order of the pool entries, which the key sorts, and counts two equal
   * ones twice (a xor would cancel them). A move changes at most two columns' numbers and one
   * or two stock terms, so a child's signature is its parent's plus a few differences
   * (`childSig`), for every move, where `child` cannot make the key of a move from or to a pool
   * column. Two different positions share a signature when a combination of the random words
   * with small coefficients vanishes in both lanes: about one chance in 2^48 for the 48 bits kept.
   */

  /** The number column c has in the key when it holds o dealt cards and l in all. */
  private colNumber(c: number, o: number, l: number): number {
    if (o !== 0) return this.dealtDigit[(o << 5) | l]!;
    if (l === 0) return this.poolBase;
    return this.poolBase + this.entryBase[this.g.cols[c * this.g.height]!]! + l;
  }

  /** The signature of the game's position without its justDrew flag, into sigA and sigB. */
  baseSig(): void {
    const g = this.g;
    this.stockTerms(g.inPlayMask, 0);
    let a = this.sigA;
    let b = this.sigB;
    const p = (g.phase === 1 ? g.stockPtr : g.stockSize + 1) << 1;
    a = (a + this.zPtr[p]!) | 0;
    b = (b + this.zPtr[p + 1]!) | 0;
    const R = this.radix;
    const z = this.zColumn;
    for (let c = 0; c < g.columns; c++) {
      const i = (c * R + this.colNumber(c, g.orig[c]!, g.len[c]!)) << 1;
      a = (a + z[i]!) | 0;
      b = (b + z[i + 1]!) | 0;
    }
    this.sigA = a;
    this.sigB = b;
  }

  /**
   * The signature without its flag of the position that move `m` leads to, into sigA and sigB,
   * from the current position's (a, b, as `baseSig` made it). Called BEFORE the move is applied.
   */
  childSig(a: number, b: number, m: number): void {
    const g = this.g;
    const from = m & 63;
    const to = (m >> 6) & 63;
    const R = this.radix;
    const z = this.zColumn;
    if (from < SRC_WASTE) {
      const l = g.len[from]!;
      const o = g.orig[from]!;
      const i = (from * R + this.colNumber(from, o, l)) << 1;
      const j = (from * R + (o === l ? this.colNumber(from, o - 1, l - 1) : this.colNumber(from, o, l - 1))) << 1;
      a = (a + z[j]! - z[i]!) | 0;
      b = (b + z[j + 1]! - z[i + 1]!) | 0;
    }
    if (to !== DST_FOUNDATION && from !== SRC_DRAW && from !== SRC_REDEAL) {
      const l = g.len[to]!;
      const o = g.orig[to]!;
      const i = (to * R + this.colNumber(to, o, l)) << 1;
      const x = l === 0 ? this.poolBase + this.entryBase[m >>> 12]! + 1 : this.colNumber(to, o, l + 1);
      const j = (to * R + x) << 1;
      a = (a + z[j]! - z[i]!) | 0;
      b = (b + z[j + 1]! - z[i + 1]!) | 0;
    }
    const zp = this.zPtr;
    let p = -1;
    if (from === SRC_DRAW) {
      const q = g.stockPtr << 1;
      a = (a + zp[q + 2]! - zp[q]!) | 0;
      b = (b + zp[q + 3]! - zp[q + 1]!) | 0;
      // The drawn position joins the waste.
      const k = stockBit(g.stockPtr);
      a = (a + this.zStock[k]!) | 0;
      b = (b + this.zStock[k + 1]!) | 0;
    } else if (from === SRC_WASTE) p = g.waste[g.wasteLen - 1]!;
    else if (from === SRC_FIFTH) p = g.waste[g.pileNext]!;
    else if (from === SRC_REDEAL) {
      const q = g.stockSize << 1;
      a = (a + zp[q + 2]! - zp[q]!) | 0;
      b = (b + zp[q + 3]! - zp[q + 1]!) | 0;
    } else if (from >= SRC_PRIV) p = g.priv[from - SRC_PRIV]!;
    if (p >= 0) {
      const k = stockBit(p);
      a = (a - this.zStock[k]!) | 0;
      b = (b - this.zStock[k + 1]!) | 0;
    }
    this.sigA = a;
    this.sigB = b;
  }

  /**
   * The stock positions' terms of a signature, into sigA and sigB: the positions set among bits
   * 0 .. S-1 of words[off..] (the engine's mask, or a key, whose bits from S on are masked off).
   */
  private stockTerms(words: Uint32Array, off: number): void {
    const S = this.g.stockSize;
    const zs = this.zStock;
    let a = 0;
    let b = 0;
    const bytes = (S + 7) >>> 3;
    for (let i = 0; i < bytes; i++) {
      let v = (words[off + (i >>> 2)]! >>> ((i & 3) << 3)) & 255;
      if (i * 8 + 8 > S) v &= (1 << (S - i * 8)) - 1;
      const j = ((i << 8) | v) << 1;
      a = (a + zs[j]!) | 0;
      b = (b + zs[j + 1]!) | 0;
    }
    this.sigA = a;
    this.sigB = b;
  }

  /** Lane 0 (the one whose low bits pick a slot) of the signature with the justDrew flag. */
  flagA(a: number, justDrew: boolean): number {
    return justDrew ? (a + this.zFlag[0]!) | 0 : a;
  }

  flagB(b: number, justDrew: boolean): number {
    return justDrew ? (b + this.zFlag[1]!) | 0 : b;
  }

  /**
   * The signature of a packed key (key[off..]) into sigA and sigB: with its justDrew flag when
   * `withFlag`, else as `baseSig` would make it for that position.
   */
  keySig(key: Uint32Array, off: number, withFlag: boolean): void {
    const g = this.g;
    const S = g.stockSize;
    const zs = this.zStock;
    this.stockTerms(key, off);
    let a = this.sigA;
    let b = this.sigB;
    const head = get(key, off, S, 4);
    let ptr = S + 1;
    if ((head & 2) === 0) {
      // The first deal: the stock pointer is the sentinel; not a waste position.
      ptr = sentinel(key, off, S);
      if (ptr < S) {
        const k = stockBit(ptr);
        a = (a - zs[k]!) | 0;
        b = (b - zs[k + 1]!) | 0;
      }
    }
    a = (a + this.zPtr[ptr << 1]!) | 0;
    b = (b + this.zPtr[(ptr << 1) + 1]!) | 0;
    if (withFlag && (head & 4) !== 0) {
      a = (a + this.zFlag[0]!) | 0;
      b = (b + this.zFlag[1]!) | 0;
    }
    const R = this.radix;
    const z = this.zColumn;
    const vals = this.readColumns(key, off);
    for (let c = 0; c < g.columns; c++) {
      const i = (c * R + vals[c]!) << 1;
      a = (a + z[i]!) | 0;
      b = (b + z[i + 1]!) | 0;
    }
    this.sigA = a;
    this.sigB = b;
  }

  /**
   * The key of the position that move `m` leads to, written to out[oOff .. oOff + words) from
   * the key of the current position (src[sOff ..], as `pack` wrote it), without packing the
   * whole position. Called BEFORE the move is applied. Returns false, having written nothing
   * that counts, when the move takes a card from or to a column whose dealt cards are all gone
   * (or takes the last of them): such a column's number is a pool entry, and pool entries are
   * sorted across columns, so the caller packs the position after the move instead.
   *
   * What a move changes in the key (see the layout above): a draw sets bit stockPtr + 1 (the
   * new sentinel, or bit S when the stock is then empty; bit stockPtr, the old sentinel, is
   * now the waste position and stays set); a move of the waste top, a privileged card or the
   * fifth card clears that card's stock position; the redeal clears bit S and sets the phase
   * bit; the justDrew bit is that of the move; a card leaving a column that keeps a dealt card
   * takes 1 from its number (a run's card), or runSpan (a dealt card: one dealt card fewer, the
   * same run); a card paired or built onto a column that holds dealt cards adds 1 (its run).
   * A test checks it against `pack` on every move of random games of every variant, and the
   * search's node counts (the bench signature) are the same with it as without.
   */
  child(src: Uint32Array, sOff: number, out: Uint32Array, oOff: number, m: number): boolean {
    const g = this.g;
    const from = m & 63;
    const to = (m >> 6) & 63;
    let colDelta = 0;
    if (from < SRC_WASTE) {
      const l = g.len[from]!;
      const o = g.orig[from]!;
      if (o === 0 || (o === l && o === 1)) return false;
      colDelta = o === l ? -this.runSpan : -1;
    }
    // Draws and the redeal carry no destination (their dst field is 0).
    const toColumn = to !== DST_FOUNDATION && from !== SRC_DRAW && from !== SRC_REDEAL;
    if (toColumn && g.orig[to] === 0) return false;
    const W = this.words;
    for (let i = 0; i < W; i++) out[oOff + i] = src[sOff + i]!;
    const S = g.stockSize;
    let p = -1;
    if (from === SRC_DRAW) setBit(out, oOff, g.stockPtr + 1);
    else if (from === SRC_WASTE) p = g.waste[g.wasteLen - 1]!;
    else if (from === SRC_FIFTH) p = g.waste[g.pileNext]!;
    else if (from === SRC_REDEAL) {
      clearBit(out, oOff, S);
      setBit(out, oOff, S + 1);
    } else if (from >= SRC_PRIV) p = g.priv[from - SRC_PRIV]!;
    if (p >= 0) clearBit(out, oOff, p);
    if (from === SRC_DRAW) setBit(out, oOff, S + 2);
    else clearBit(out, oOff, S + 2);
    if (colDelta !== 0) addField(out, oOff, this.colField[from]!, this.colFieldBits[from]!, colDelta * this.colWeight[from]!);
    if (toColumn) addField(out, oOff, this.colField[to]!, this.colFieldBits[to]!, this.colWeight[to]!);
    return true;
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
    // The phase-1 sentinel at bit stockPtr: in a word already written or in `acc`; when the
    // stock is empty it is bit S, the first of the 4 bits below.
    const ptr = g.stockPtr;
    const phase1 = g.phase === 1;
    if (phase1 && ptr < S) {
      if (ptr >>> 5 < full) out[off + (ptr >>> 5)]! |= 1 << (ptr & 31);
      else acc |= 1 << (ptr & 31);
    }
    // Bit S, then phase, justDrew and the marker.
    const head = (phase1 ? (ptr === S ? 1 : 0) : 2) | (justDrew ? 4 : 0) | 8;
    acc |= head << bits;
    bits += 4;
    if (bits >= 32) {
      out[word++] = acc;
      bits -= 32;
      acc = bits === 0 ? 0 : head >>> (4 - bits);
    }
    const len = g.len;
    const orig = g.orig;
    const C = g.columns;
    const pool = this.pool;
    const poolBase = this.poolBase;
    // Pool entries, sorted descending (zeros, the empty columns, last).
    let np = 0;
    for (let c = 0; c < C; c++) {
      if (orig[c] !== 0) continue;
      const e = this.colNumber(c, 0, len[c]!) - poolBase;
      let j = np++;
      while (j > 0 && pool[j - 1]! < e) {
        pool[j] = pool[j - 1]!;
        j--;
      }
      pool[j] = e;
    }
    // The columns' numbers, a group at a time, the group's first column the highest digit.
    const R = this.radix;
    const G = this.groupSize;
    let k = 0;
    for (let c0 = 0; c0 < C; c0 += G) {
      const end = c0 + G < C ? c0 + G : C;
      let v = 0;
      for (let c = c0; c < end; c++) {
        const o = orig[c]!;
        v = Math.imul(v, R) + (o !== 0 ? this.colNumber(c, o, len[c]!) : poolBase + pool[k++]!);
      }
      const n = end - c0 === G ? this.groupBits : this.lastGroupBits;
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

  /** The columns' numbers of a key, into `colValue` (returned). */
  private readColumns(key: Uint32Array, off: number): Int32Array {
    const g = this.g;
    const R = this.radix;
    const G = this.groupSize;
    const vals = this.colValue;
    let pos = g.stockSize + 4;
    for (let c0 = 0; c0 < g.columns; c0 += G) {
      const end = Math.min(c0 + G, g.columns);
      const n = end - c0 === G ? this.groupBits : this.lastGroupBits;
      let v = get(key, off, pos, n);
      pos += n;
      // The group's last column is the lowest digit.
      for (let c = end - 1; c >= c0; c--) {
        const x = v % R;
        vals[c] = x;
        v = (v - x) / R;
      }
    }
    return vals;
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
    const runSpan = this.runSpan;
    const counts = this.counts;
    counts.fill(0);
    const S = g.stockSize;
    const head = get(key, off, S, 4);
    const phase2 = (head & 2) !== 0;
    const poolBase = this.poolBase;
    const vals = this.readColumns(key, off);
    for (let c = 0; c < g.columns; c++) {
      const x = vals[c]!;
      const dealt = deal.columns[c]!;
      let l = 0;
      let o = 0;
      if (x < poolBase) {
        o = ((x / runSpan) | 0) + 1;
        const run = x % runSpan;
        for (let i = 0; i < o; i++) {
          const card = dealt[i]!;
          g.cols[c * h + l++] = card;
          counts[card]!++;
        }
        let card = dealt[o - 1]!;
        for (let i = 0; i < run; i++) {
          card--;
          g.cols[c * h + l++] = card;
          counts[card]!++;
        }
      } else {
        const e = x - poolBase;
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
    // The mask: bits below S (the words also hold the sentinel and the rest of the key).
    const m = g.inPlayMask;
    for (let i = 0; i < m.length; i++) {
      const below = S - 32 * i; // bits of word i that lie below S
      m[i] = below <= 0 ? 0 : below >= 32 ? key[off + i]! : key[off + i]! & ((1 << below) - 1);
    }
    const stockCards = g.stockCards;
    if (!phase2) {
      // The sentinel (bit S when the stock is empty, else the highest bit of the mask): take
      // it out of the mask; the bits left are the waste's positions.
      let ptr = S;
      if (!bit(key, off, S)) {
        ptr = 0;
        for (let i = m.length - 1; i >= 0; i--) {
          if (m[i] !== 0) {
            ptr = 32 * i + 31 - Math.clz32(m[i]!);
            break;
          }
        }
      }
      if (ptr < S) m[ptr >>> 5]! &= ~(1 << (ptr & 31));
      g.phase = 1;
      g.stockPtr = ptr;
      let w = 0;
      for (let i = 0; i < m.length; i++) {
        for (let x = m[i]!; x !== 0; x &= x - 1) {
          const p = 32 * i + 31 - Math.clz32(x & -x);
          g.waste[w++] = p;
          counts[stockCards[p]!]!++;
        }
      }
      g.wasteLen = w;
      g.privLen = 0;
      g.pileNext = 0;
      for (let i = ptr; i < S; i++) counts[stockCards[i]!]!++;
    } else {
      g.phase = 2;
      g.stockPtr = S;
      let p = 0;
      let w = 0;
      for (let i = 0; i < m.length; i++) {
        for (let x = m[i]!; x !== 0; x &= x - 1) {
          const q = 32 * i + 31 - Math.clz32(x & -x);
          counts[stockCards[q]!]!++;
          if (p < g.privileged) g.priv[p++] = q;
          else g.waste[w++] = q;
        }
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
    g.syncFoundations();
    g.syncColumns();
    g.home = home;
    g.histLen = 0;
    return (head & 4) !== 0;
  }
}

/** The stock pointer of a first-deal key: its sentinel, the highest bit set at or below bit S. */
function sentinel(key: Uint32Array, off: number, S: number): number {
  let ptr = S;
  while (ptr > 0 && !bit(key, off, ptr)) ptr--;
  return ptr;
}

/** The index in KeyPacker's zStock of stock position p alone (its byte, with only p's bit set, lane 0). */
function stockBit(p: number): number {
  return (((p >>> 3) << 8) | (1 << (p & 7))) << 1;
}

/** A deterministic stream of pseudo-random 32-bit words (splitmix32). */
function splitmix32(seed: number): () => number {
  let x = seed | 0;
  return () => {
    x = (x + 0x9e3779b9) | 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return z ^ (z >>> 16);
  };
}

export function bitsFor(maxValue: number): number {
  let b = 0;
  while ((1 << b) <= maxValue) b++;
  return b;
}

function setBit(key: Uint32Array, off: number, pos: number): void {
  key[off + (pos >>> 5)]! |= 1 << (pos & 31);
}

function clearBit(key: Uint32Array, off: number, pos: number): void {
  key[off + (pos >>> 5)]! &= ~(1 << (pos & 31));
}

/** Adds `delta` to the field of `bits` bits (at most 30) at bit `pos`; the sum must fit the field. */
function addField(key: Uint32Array, off: number, pos: number, bits: number, delta: number): void {
  const v = get(key, off, pos, bits) + delta;
  const w = off + (pos >>> 5);
  const s = pos & 31;
  if (s + bits <= 32) {
    const mask = ((1 << bits) - 1) << s;
    key[w] = (key[w]! & ~mask) | ((v << s) & mask);
  } else {
    const low = 32 - s;
    key[w] = (key[w]! & ((1 << s) - 1)) | (v << s);
    key[w + 1] = (key[w + 1]! & ~((1 << (bits - low)) - 1)) | (v >>> low);
  }
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
