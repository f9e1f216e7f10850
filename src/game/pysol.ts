/**
 * PySolFC game numbers for "Limited" (PySolFC game #228: Forty Thieves with 12 columns of 3).
 *
 * Given a game number as typed in PySolFC's "Select game number" box, this module produces
 * exactly the cards PySolFC deals. What it carries over, as read in PySolFC's source
 * (shlomif/PySolFC and the `pysol_cards` package it imports, shlomif/pysol_cards):
 *
 * Choosing the generator (pysollib/pysolrandom.py, `construct_random`):
 * - `ms<digits>` picks the Microsoft generator `LCRandom31` for any seed
 *   1 <= n <= 2^33 - 1 (`LCRandom31.MAX_SEED = (1 << 33) - 1`; seed 0 is refused by its
 *   `setSeed`, which wants 1 <= seed).
 * - A plain number n with 0 <= n < 32000 also uses `LCRandom31(n)` (0 again refused);
 *   n >= 32000 uses `MTRandom(n)`, Python's `random.Random` seeded with the integer n.
 *   (PySolFC also strips spaces and `# - _ . ,` from a plain number before `int()`; we accept
 *   only digits, an optional leading `#` and surrounding spaces, so `-5` is an error here.)
 *
 * The Microsoft generator (pysol_cards/random.py, class `LCRandom31`):
 *   seedx = (seedx * 214013 + 2531011) & (2^33 - 1)           (the mask really is 33 bits)
 *   seed < 2^31:        value = (seedx >> 16) & 0x7fff
 *   2^31 <= seed < 2^32: value = ((seedx >> 16) & 0x7fff) | 0x8000
 *   seed >= 2^32:       seedx starts at seed - 2^32, value = ((seedx >> 16) & 0xffff) + 1
 *   randint(a, b) = a + value % (b + 1 - a)
 * Only bits 16..31 of seedx are ever read, so the 33-bit mask gives the same values as the
 * familiar mod 2^31 (or 2^32) of FreeCell.
 *
 * The Mersenne Twister (pysol_cards/random.py `MTRandom(RandomBase, random.Random)`):
 * Python's MT19937 seeded by `init_by_array` with |n| split into 32-bit words, least
 * significant first; `random()` = ((a >> 5) * 67108864 + (b >> 6)) / 2^53 from two outputs;
 * and, from pysol_cards/random_base.py `RandomBase.randint` (which comes first in the MRO),
 * randint(a, b) = a + int(random() * (b + 1 - a)) — not Python's own randint.
 *
 * The shuffle (pysol_cards/random_base.py `RandomBase.shuffle`, called from
 * pysollib/game/__init__.py `Game.shuffle`): for n from len-1 down to 1, j = randint(0, n),
 * swap cards n and j. `Game.shuffle` first applies `ms_rearrange` for LCRandom31, but that
 * function leaves any deck that is not 52 cards alone, so for Limited's 104 cards it does
 * nothing.
 *
 * The deck (pysollib/game/__init__.py `Game.createCards`, pysollib/util.py `SUITS`): for each
 * of the two packs, suits in PySolFC's order clubs, spades, hearts, diamonds (suit 0..3),
 * ranks ace to king.
 *
 * The deal (pysollib/games/fortythieves.py: `Limited(BusyAces)` with `DEAL = (0, 3)` and 12
 * rows; `FortyThieves.startGame`): the shuffled cards go onto the talon in order, so the
 * LAST card is the talon's top. Two `dealRow`s and then `_startAndDealRowAndCards` (one more
 * `dealRow` and one `dealCards`) deal three rows over columns 1..12, each card from the end,
 * and then one card to the waste. Later draws take the talon from the end as well. So with
 * the shuffled list L[0..103], column k (1-based) is L[104-k], L[92-k], L[80-k] from top to
 * bottom, the waste card is L[67], and the stock to draw is L[66], L[65], ..., L[0]. In other
 * words the REVERSED list is exactly what `dealFromOrder` expects, with the first waste card
 * as stock[0].
 */
import { type Card, formatCard, makeCard } from './cards.js';
import { type Deal, dealFromOrder } from './deal.js';
import { UserError, shown } from './errors.js';
import { FULL_SIZE } from './rules.js';

/** The largest seed PySolFC's Microsoft generator takes: `LCRandom31.MAX_SEED` = 2^33 - 1. */
export const PYSOL_MS_MAX = 2 ** 33 - 1;
/**
 * The largest plain game number we accept: PySolFC's `MTRandom.MAX_SEED` = 10^20 ("20
 * digits"), the range of the numbers PySolFC itself picks and steps through. (PySolFC's own
 * number box does not check an upper bound; the dealing code here would work for any size.)
 */
export const PYSOL_MAX: bigint = 10n ** 20n;
/** Plain numbers below this use the Microsoft generator (`0 <= seed < 32000` in construct_random). */
export const PYSOL_MS_BELOW = 32000;

export interface PysolGame {
  readonly generator: 'ms' | 'mt';
  /** The seed: a number for the Microsoft generator, a bigint for the Mersenne Twister. */
  readonly number: bigint | number;
  /** How PySolFC names the game: `123456`, `ms40000` (leading zeros and `#` dropped). */
  readonly label: string;
}

const ACCEPTED = `use 1 to ${PYSOL_MAX} or ms1 to ms${PYSOL_MS_MAX}`;

/**
 * Reads a PySolFC game number: digits (an optional leading `#`, as PySolFC shows numbers), or
 * `ms` and digits to force the Microsoft generator. Throws UserError for anything PySolFC
 * would refuse (0, ms0, ms above 2^33 - 1, not a number) and for negative numbers.
 */
export function parsePysolGame(text: string): PysolGame {
  const t = String(text).trim();
  const bad = (): never => {
    throw new UserError(`PySolFC game number '${shown(text)}' is not valid: ${ACCEPTED}`);
  };
  const ms = /^ms(\d+)$/i.exec(t);
  if (ms) {
    const n = BigInt(ms[1]!);
    if (n < 1n || n > BigInt(PYSOL_MS_MAX)) bad();
    return { generator: 'ms', number: Number(n), label: `ms${n}` };
  }
  const plain = /^#?(\d+)$/.exec(t);
  if (!plain) bad();
  const n = BigInt(plain![1]!);
  if (n < 1n || n > PYSOL_MAX) bad();
  if (n < BigInt(PYSOL_MS_BELOW)) return { generator: 'ms', number: Number(n), label: String(n) };
  return { generator: 'mt', number: n, label: String(n) };
}

/** A generator as PySolFC's dealing uses it: `randint(a, b)`, both ends included. */
export interface PysolRandom {
  randint(a: number, b: number): number;
}

const TWO_32 = 2 ** 32;
const TWO_33 = 2 ** 33;

/** PySolFC's Microsoft FreeCell generator `LCRandom31` (see the module comment). */
export class MsRandom implements PysolRandom {
  private seedx: number;
  constructor(private readonly seed: number) {
    if (!Number.isSafeInteger(seed) || seed < 1 || seed > PYSOL_MS_MAX) throw new RangeError(`ms seed ${seed} out of range`);
    this.seedx = seed < TWO_32 ? seed : seed - TWO_32;
  }
  private step(): void {
    // seedx < 2^33 and the multiplier < 2^18: the product stays below 2^53, exact in a double.
    this.seedx = (this.seedx * 214013 + 2531011) % TWO_33;
  }
  /** One value: 0..32767 for seeds below 2^31, 32768..65535 up to 2^32, 1..65536 above. */
  random(): number {
    this.step();
    const bits = Math.floor(this.seedx / 65536);
    if (this.seed < TWO_32) {
      const r = bits & 0x7fff;
      return this.seed < 2 ** 31 ? r : r | 0x8000;
    }
    return (bits & 0xffff) + 1;
  }
  randint(a: number, b: number): number {
    return a + (this.random() % (b + 1 - a));
  }
}

/** MT19937 as in CPython's `_randommodule.c`. */
export class MersenneTwister {
  private readonly mt = new Uint32Array(624);
  private mti = 625;

  /** `init_genrand(s)`: the reference seeding (seed 5489 is the reference default). */
  static fromSeed(s: number): MersenneTwister {
    const m = new MersenneTwister();
    m.initGenrand(s >>> 0);
    return m;
  }

  /** Python's `random.Random(n)` for an integer n: `init_by_array` of |n| in 32-bit words. */
  static fromPythonInt(n: bigint): MersenneTwister {
    let v = n < 0n ? -n : n;
    const key: number[] = [];
    while (v > 0n) {
      key.push(Number(v & 0xffffffffn));
      v >>= 32n;
    }
    if (key.length === 0) key.push(0);
    const m = new MersenneTwister();
    m.initByArray(key);
    return m;
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < 624; i++) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.mti = 624;
  }

  private initByArray(key: readonly number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(624, key.length); k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= 624) {
        mt[0] = mt[623]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = 623; k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= 624) {
        mt[0] = mt[623]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  /** The next 32-bit output (`genrand_uint32`). */
  nextUint32(): number {
    const mt = this.mt;
    if (this.mti >= 624) {
      for (let k = 0; k < 624; k++) {
        const y = (mt[k]! & 0x80000000) | (mt[(k + 1) % 624]! & 0x7fffffff);
        mt[k] = mt[(k + 397) % 624]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.mti = 0;
    }
    let y = mt[this.mti++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** Python's `random()`: 53 bits from two outputs. */
  random(): number {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }
}

/** PySolFC's `MTRandom`: Python's MT19937 with pysol_cards' `RandomBase.randint`. */
export class PysolMtRandom implements PysolRandom {
  private readonly mt: MersenneTwister;
  constructor(seed: bigint) {
    this.mt = MersenneTwister.fromPythonInt(seed);
  }
  random(): number {
    return this.mt.random();
  }
  randint(a: number, b: number): number {
    return a + Math.floor(this.random() * (b + 1 - a));
  }
}

/** The generator PySolFC uses for a parsed game number. */
export function pysolRandom(game: PysolGame): PysolRandom {
  return game.generator === 'ms' ? new MsRandom(Number(game.number)) : new PysolMtRandom(BigInt(game.number));
}

/** `RandomBase.shuffle`, in place: for n from len-1 down to 1, swap n with randint(0, n). */
export function pysolShuffle<T>(items: T[], rng: PysolRandom): T[] {
  for (let n = items.length - 1; n >= 1; n--) {
    const j = rng.randint(0, n);
    const t = items[n]!;
    items[n] = items[j]!;
    items[j] = t;
  }
  return items;
}

/** PySolFC's suit order C S H D as our suit numbers (S H D C = 0..3). */
const PYSOL_SUITS = [3, 0, 1, 2] as const;

/** PySolFC's ordered cards for `packs` packs: per pack, suits C S H D, ranks A..K. */
export function pysolOrderedDeck(packs: number): Card[] {
  const deck: Card[] = [];
  for (let p = 0; p < packs; p++) for (const s of PYSOL_SUITS) for (let r = 1; r <= 13; r++) deck.push(makeCard(s, r));
  return deck;
}

/**
 * The deal PySolFC makes for "Limited" with this game number (a string as typed, e.g.
 * `123456`, `ms40000`, or a whole number). `source` is `pysol <label>`.
 */
export function pysolDeal(text: string | number): Deal {
  if (typeof text === 'number' && !Number.isSafeInteger(text))
    throw new UserError(`PySolFC game number '${shown(String(text))}' is not valid: ${ACCEPTED}`);
  const game = parsePysolGame(String(text));
  const cards = pysolShuffle(pysolOrderedDeck(2), pysolRandom(game));
  // Everything is dealt from the end of the shuffled list (see the module comment).
  cards.reverse();
  return dealFromOrder(cards, FULL_SIZE, `pysol ${game.label}`);
}

/**
 * The deal as a board in the style of the boards pysol_cards prints for PySolFC deals
 * (`pysol_cards/deal_game.py`, `Board.gen_lines`) and of PySolFC's solver export (`pysollib/hint.py`, `BlackHoleSolver_Hint.calcBoardString`) use
 * for games with a talon, e.g. Gypsy or Golf:
 *
 *   Talon: TH 8C 2S ...       the stock still to be drawn, the next card first
 *   Waste: 6H                 the card dealt face up to the waste at the start
 *   3D 6C AC                  column 1, its top card (row 1) first, the exposed card last
 *   ...                       one line for each of the 12 columns
 *
 * Cards are rank `A 2-9 T J Q K` and suit `S H D C`, as in those tools. Neither tool has a
 * Forty Thieves board (fc-solve and black-hole-solver do not play it), so the `Waste:` line
 * is ours: pysol_cards puts no waste in a board. Like pysol_cards' `Board`, no
 * `Foundations:` line is printed while all foundations are empty, as they are after the deal.
 * For a deal of another size or source the same layout is used: `Talon:` is stock[1..],
 * `Waste:` stock[0].
 */
export function formatPysolBoard(deal: Deal): string {
  const lines: string[] = [];
  const [waste, ...talon] = deal.stock;
  lines.push(['Talon:', ...talon.map(formatCard)].join(' '));
  if (waste !== undefined) lines.push(`Waste: ${formatCard(waste)}`);
  for (const col of deal.columns) lines.push(col.map(formatCard).join(' '));
  return lines.join('\n') + '\n';
}
