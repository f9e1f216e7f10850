/**
 * The solver's packed state key (src/solver/key.ts) and transposition table (src/solver/table.ts):
 * pack/unpack round trips in every variant and size, canonical keys (refilled columns in any
 * order, the two foundations of a suit interchangeable), exact keys (different positions,
 * different keys), and the table's insert/find/growth/memory cap and its per-state figure.
 */
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import {
  type Deal, type Rules, FULL_SIZE, GEN_ALL, GEN_REDUCED, Game, MAX_MOVES, SRC_DRAW, SRC_FIFTH, SRC_PRIV, SRC_REDEAL, SRC_WASTE,
  dealFromNumber, moveSrc,
  parseRules, parseSize,
} from '../src/game/index.js';
import { KeyPacker, hashKey } from '../src/solver/key.js';
import { FULL, TranspositionTable, indexSlotsFor, slotsAfter } from '../src/solver/table.js';
import { SignatureTable, sigSlotsFor } from '../src/solver/sigtable.js';
import { RULE_VARIANTS, deal as makeDeal, playMoves, sortedCounts } from './helpers.js';

const VARIANTS = [
  ...RULE_VARIANTS,
  'privileged=5',
  'privileged=8',
  'building=suit privileged=2',
  'building=none privileged=8',
] as const;

/** Sizes from the smallest to the full game, with odd stock sizes (the last mask word shared with other bits) and 1 and 16 columns. */
const SIZES = ['1x2 2x1', '1x4 3x2', '2x3 3x2', '1x5 4x3', '1x6 5x3', '2x4 3x3', '2x4 4x2', '1x13 4x7', '2x13 1x1', '2x13 16x3', '2x13 12x3'] as const;

const keyText = (k: Uint32Array, off = 0, words = k.length): string => Array.from(k.subarray(off, off + words)).join(',');

function legal(g: Game, flags = GEN_ALL): number[] {
  const buf = new Int32Array(MAX_MOVES);
  return Array.from(buf.subarray(0, g.generate(buf, flags)));
}

/** The keys of the positions one move away (justDrew set after a draw, as the solver does), sorted. */
function childKeys(g: Game, packer: KeyPacker): string[] {
  const out: string[] = [];
  const k = new Uint32Array(packer.words);
  for (const m of legal(g)) {
    g.apply(m);
    packer.pack(k, 0, moveSrc(m) === SRC_DRAW);
    out.push(keyText(k));
    g.undo();
  }
  return out.sort();
}

/** Where the stock's cards are: phase 1 the pointer and the waste, phase 2 the row and the pile (stock positions, in order). */
function stockText(g: Game): string {
  const list = (a: Uint8Array, from: number, to: number): string => Array.from(a.subarray(from, to)).join(',');
  return g.phase === 1
    ? `stock from ${g.stockPtr}, waste ${list(g.waste, 0, g.wasteLen)}`
    : `row ${list(g.priv, 0, g.privLen)}, pile ${list(g.waste, g.pileNext, g.wasteLen)}`;
}

/**
 * Checks one position of `g` against a second game `g2` of the same deal (reused from position
 * to position, as the best-first search reuses its game): pack -> unpack -> pack. Returns the
 * problems found (empty when all is well).
 */
function roundTrip(g: Game, p: KeyPacker, g2: Game, p2: KeyPacker, justDrew: boolean): string[] {
  const W = p.words;
  const problems: string[] = [];
  const k1 = new Uint32Array(W);
  p.pack(k1, 0, justDrew);
  // Packing into a dirty buffer at an offset gives the same words.
  const dirty = new Uint32Array(W + 5).fill(0xffffffff);
  p.pack(dirty, 3, justDrew);
  if (keyText(dirty, 3, W) !== keyText(k1)) problems.push('pack at an offset into a dirty buffer differs');
  if (dirty[2] !== 0xffffffff || dirty[W + 3] !== 0xffffffff) problems.push('pack wrote outside its words');
  // The flag is part of the key.
  const other = new Uint32Array(W);
  p.pack(other, 0, !justDrew);
  if (keyText(other) === keyText(k1)) problems.push('justDrew does not change the key');
  // Unpack (from an offset) into the second game.
  const flag = p2.unpack(dirty, 3);
  if (flag !== justDrew) problems.push(`justDrew ${justDrew} unpacked as ${flag}`);
  const k2 = new Uint32Array(W);
  p2.pack(k2, 0, justDrew);
  if (keyText(k2) !== keyText(k1)) problems.push(`pack(unpack(key)) differs: ${keyText(k1)} -> ${keyText(k2)}`);
  if (!g2.columnMarksInSync()) problems.push("unpack left the columns' marks out of step with the columns");
  if (g2.home !== g.home) problems.push(`home ${g.home} unpacked as ${g2.home}`);
  if (g2.phase !== g.phase) problems.push(`phase ${g.phase} unpacked as ${g2.phase}`);
  if (g2.isWon() !== g.isWon()) problems.push('isWon differs');
  if (Array.from(g2.inPlayMask).join() !== Array.from(g.inPlayMask).join())
    problems.push(`inPlayMask ${Array.from(g.inPlayMask).join()} unpacked as ${Array.from(g2.inPlayMask).join()}`);
  if (JSON.stringify(sortedCounts(g2.cardCounts())) !== JSON.stringify(sortedCounts(g.cardCounts()))) problems.push('card counts differ');
  // The stock pointer and the waste (phase 1), the privileged row and the pile (phase 2), in
  // order: the key stores no pointer in phase 2, the row being the first positions in play.
  if (stockText(g2) !== stockText(g)) problems.push(`${stockText(g)} unpacked as ${stockText(g2)}`);
  const n1 = legal(g).length;
  const n2 = legal(g2).length;
  if (n1 !== n2) problems.push(`${n1} legal moves, unpacked ${n2}`);
  if (legal(g, GEN_REDUCED).length !== legal(g2, GEN_REDUCED).length) problems.push('GEN_REDUCED move counts differ');
  // The unpacked game plays like the original: the same positions one move away.
  const c1 = childKeys(g, p);
  const c2 = childKeys(g2, p2);
  if (c1.join(' ') !== c2.join(' ')) problems.push('the keys one move away differ');
  p2.pack(k2, 0, justDrew);
  if (keyText(k2) !== keyText(k1)) problems.push('apply/undo after unpack does not come back to the key');
  return problems;
}

/** A random move, biased toward draws and the redeal so that playouts reach the second deal. */
function pick(moves: number[], rng: () => number): number {
  const redeal = moves.find((m) => moveSrc(m) === SRC_REDEAL);
  if (redeal !== undefined && rng() < 0.5) return redeal;
  const draw = moves.find((m) => moveSrc(m) === SRC_DRAW);
  if (draw !== undefined && rng() < 0.4) return draw;
  return moves[Math.floor(rng() * moves.length)]!;
}

/**
 * Random playouts of a size in every variant (moves chosen by `pick`, so that they reach the
 * second deal): deals 0 and 1, two playouts each of up to 250 moves. `setup` is called once a
 * deal (what a check reuses from position to position), `visit` at every position reached with
 * where it is and the draw flag the solver packs there; `visit` leaves the game as it found it.
 */
function playouts<T>(
  sizeText: string, seedTag: string, setup: (g: Game, deal: Deal) => T,
  visit: (g: Game, ctx: T, where: string, justDrew: boolean) => void,
): void {
  const size = parseSize(sizeText);
  for (const variant of VARIANTS) {
    const rules = parseRules(variant);
    for (let n = 0; n < 2; n++) {
      const deal = dealFromNumber(n, size);
      const g = new Game(deal, rules);
      const ctx = setup(g, deal);
      for (let playout = 0; playout < 2; playout++) {
        const rng = seedrandom(`${seedTag}:${sizeText}:${variant}:${n}:${playout}`);
        g.reset();
        let justDrew = false;
        for (let step = 0; step < 250; step++) {
          visit(g, ctx, `${variant} deal ${n} playout ${playout} step ${step}`, justDrew);
          const moves = legal(g);
          if (moves.length === 0) break;
          const m = pick(moves, rng);
          g.apply(m);
          justDrew = moveSrc(m) === SRC_DRAW;
        }
      }
    }
  }
}

describe('pack / unpack round trip over random playouts', () => {
  for (const sizeText of SIZES) {
    it(`size ${sizeText}, every variant`, () => {
      const problems: string[] = [];
      let positions = 0;
      let phase2 = 0;
      playouts(
        sizeText, 'key',
        (g, deal) => {
          const g2 = new Game(deal, g.rules);
          return { p: new KeyPacker(g), g2, p2: new KeyPacker(g2) };
        },
        (g, { p, g2, p2 }, where, justDrew) => {
          positions++;
          if (g.phase === 2) phase2++;
          for (const flag of [justDrew, !justDrew]) for (const pr of roundTrip(g, p, g2, p2, flag)) problems.push(`${where} justDrew ${flag}: ${pr}`);
        },
      );
      expect(problems.length, `${problems.length} problems, first:\n${problems.slice(0, 10).join('\n')}`).toBe(0);
      expect(positions).toBeGreaterThan(100);
      expect(phase2, 'playouts reach the second deal').toBeGreaterThan(0);
    });
  }
});

describe('a child key made from its parent key (KeyPacker.child)', () => {
  for (const sizeText of SIZES) {
    it(`equals the packed key after every legal move of random playouts, size ${sizeText}, every variant`, () => {
      const problems: string[] = [];
      let made = 0;
      let packed = 0;
      const kinds = new Set<number>();
      playouts(
        sizeText, 'child',
        (g) => {
          const p = new KeyPacker(g);
          return { p, parent: new Uint32Array(p.words), child: new Uint32Array(p.words + 5), full: new Uint32Array(p.words) };
        },
        (g, { p, parent, child, full }, where, justDrew) => {
          const W = p.words;
          p.pack(parent, 0, justDrew);
          for (const m of legal(g)) {
            child.fill(0xffffffff);
            const ok = p.child(parent, 0, child, 3, m);
            g.apply(m);
            p.pack(full, 0, moveSrc(m) === SRC_DRAW);
            g.undo();
            if (!ok) {
              packed++;
              continue;
            }
            made++;
            kinds.add(moveSrc(m) < SRC_WASTE ? 0 : moveSrc(m));
            if (keyText(child, 3, W) !== keyText(full)) problems.push(`${where} move ${m}: ${keyText(child, 3, W)} != ${keyText(full)}`);
            if (child[2] !== 0xffffffff || child[W + 3] !== 0xffffffff) problems.push(`${where} move ${m}: child wrote outside its words`);
          }
        },
      );
      expect(problems.length, `${problems.length} problems, first:\n${problems.slice(0, 10).join('\n')}`).toBe(0);
      expect(made + packed).toBeGreaterThan(100);
      if (sizeText === '2x13 12x3') {
        // Both ways are taken, and the keys made cover every kind of move.
        expect(made).toBeGreaterThan(1000);
        expect(packed).toBeGreaterThan(100);
        for (const kind of [0, SRC_WASTE, SRC_PRIV, SRC_PRIV + 3, SRC_FIFTH, SRC_DRAW, SRC_REDEAL]) expect(kinds.has(kind), `move source ${kind}`).toBe(true);
      }
    });
  }
});

describe('signatures made without packing (KeyPacker.baseSig, childSig, keySig)', () => {
  for (const sizeText of SIZES) {
    it(`after every legal move of random playouts, the child's signature made from its parent's is the one made from the position and from its key, size ${sizeText}, every variant`, () => {
      const problems: string[] = [];
      let checked = 0;
      const kinds = new Set<number>();
      playouts(
        sizeText, 'childsig',
        (g) => {
          const p = new KeyPacker(g);
          return { p, full: new Uint32Array(p.words) };
        },
        (g, { p, full }, where) => {
          p.baseSig();
          const a = p.sigA;
          const b = p.sigB;
          for (const m of legal(g)) {
            p.childSig(a, b, m);
            const ca = p.sigA;
            const cb = p.sigB;
            const drew = moveSrc(m) === SRC_DRAW;
            g.apply(m);
            p.baseSig();
            const fa = p.sigA;
            const fb = p.sigB;
            p.pack(full, 0, drew);
            g.undo();
            checked++;
            kinds.add(moveSrc(m) < SRC_WASTE ? 0 : moveSrc(m));
            if (ca !== fa || cb !== fb) problems.push(`${where} move ${m}: childSig ${ca},${cb} != baseSig ${fa},${fb}`);
            p.keySig(full, 0, false);
            if (p.sigA !== fa || p.sigB !== fb) problems.push(`${where} move ${m}: keySig without the flag ${p.sigA},${p.sigB} != baseSig ${fa},${fb}`);
            p.keySig(full, 0, true);
            if (p.sigA !== p.flagA(fa, drew) || p.sigB !== p.flagB(fb, drew)) problems.push(`${where} move ${m}: keySig with the flag differs`);
          }
        },
      );
      expect(problems.length, `${problems.length} problems, first:\n${problems.slice(0, 10).join('\n')}`).toBe(0);
      expect(checked).toBeGreaterThan(100);
      if (sizeText === '2x13 12x3') {
        for (const kind of [0, SRC_WASTE, SRC_PRIV, SRC_PRIV + 3, SRC_FIFTH, SRC_DRAW, SRC_REDEAL]) expect(kinds.has(kind), `move source ${kind}`).toBe(true);
      }
    });
  }
});

/**
 * An independent description of a position up to the symmetries the key is meant to merge:
 * columns that still hold dealt cards by their index; the other columns (refilled or empty) as
 * a sorted list; the two foundations of each suit as a sorted pair; stock, waste, privileged
 * row and pile by stock positions; and the draw flag.
 */
function canonical(g: Game, justDrew: boolean): string {
  const dealt: string[] = [];
  const pool: string[] = [];
  for (let c = 0; c < g.columns; c++) {
    const cards = Array.from(g.cols.subarray(c * g.height, c * g.height + g.len[c]!)).join(',');
    if (g.orig[c]! > 0) dealt.push(`${c}:${g.orig[c]}:${cards}`);
    else pool.push(`[${cards}]`);
  }
  pool.sort();
  const found: string[] = [];
  for (let s = 0; s < 4; s++) found.push(Array.from(g.found.subarray(s * g.packs, (s + 1) * g.packs)).sort((a, b) => a - b).join(','));
  const rest =
    g.phase === 1
      ? `stock ${g.stockPtr} waste ${Array.from(g.waste.subarray(0, g.wasteLen)).join(',')}`
      : `row ${Array.from(g.priv.subarray(0, g.privLen)).join(',')} pile ${Array.from(g.waste.subarray(g.pileNext, g.wasteLen)).join(',')}`;
  return [dealt.join(' '), pool.join(''), found.join(' '), `phase ${g.phase}`, rest, justDrew ? 'drew' : ''].join(' | ');
}

describe('canonical and exact keys', () => {
  it('over the reachable positions of small deals, two keys are equal exactly when the positions are the same up to symmetry', () => {
    const problems: string[] = [];
    let positions = 0;
    let phase2 = 0;
    let merged = 0;
    for (const sizeText of ['1x4 3x2', '2x3 3x2', '1x5 4x3', '2x4 4x2']) {
      for (const variant of VARIANTS) {
        for (let n = 0; n < 2; n++) {
          const g = new Game(dealFromNumber(n, parseSize(sizeText)), parseRules(variant));
          const p = new KeyPacker(g);
          const k = new Uint32Array(p.words);
          const byKey = new Map<string, string>();
          const byCanon = new Map<string, string>();
          const bySig = new Map<string, string>();
          const seen = new Set<string>();
          const visit = (justDrew: boolean): void => {
            const snap = `${g.snapshot()}|${justDrew}`;
            if (seen.has(snap) || seen.size >= 3000) return;
            seen.add(snap);
            positions++;
            if (g.phase === 2) phase2++;
            p.pack(k, 0, justDrew);
            const key = keyText(k);
            const canon = canonical(g, justDrew);
            const a = byKey.get(key);
            const b = byCanon.get(canon);
            if (a !== undefined && a !== canon) problems.push(`${sizeText} ${variant} deal ${n}: one key for\n  ${a}\n  ${canon}`);
            if (b !== undefined && b !== key) problems.push(`${sizeText} ${variant} deal ${n}: two keys for ${canon}`);
            if (a === undefined) byKey.set(key, canon);
            else merged++;
            // The signature is a function of the key, and (no collision among so few) tells keys apart.
            p.baseSig();
            const sig = `${p.flagA(p.sigA, justDrew)},${p.flagB(p.sigB, justDrew)}`;
            const s0 = bySig.get(sig);
            if (s0 !== undefined && s0 !== key) problems.push(`${sizeText} ${variant} deal ${n}: one signature for two keys`);
            if (s0 === undefined) bySig.set(sig, key);
            if (a !== undefined && s0 === undefined) problems.push(`${sizeText} ${variant} deal ${n}: a key seen before with a new signature`);
            if (b === undefined) byCanon.set(canon, key);
            for (const m of legal(g)) {
              g.apply(m);
              visit(moveSrc(m) === SRC_DRAW);
              g.undo();
            }
          };
          visit(false);
        }
      }
    }
    expect(problems.length, `${problems.length} problems, first:\n${problems.slice(0, 6).join('\n')}`).toBe(0);
    expect(positions).toBeGreaterThan(10_000);
    expect(phase2, 'the second deal is reached').toBeGreaterThan(1000);
    expect(merged, 'some positions are merged by symmetry').toBeGreaterThan(100);
  });

  /*
   * Deal R (one pack A-5, five columns of two): c1 [2S AS], c2 [2H AH], c3 [3C 5S], c4 [4D 3H],
   * c5 [5C 4C]. The aces and deuces of c1 and c2 go up, emptying both; then 5S (from c3) and 3H
   * (from c4) fill them in either order.
   */
  const R = makeDeal('1x5 5x2', ['2S 2H 3C 4D 5C', 'AS AH 5S 3H 4C'], '3S 4S 4H 5H AD 2D 3D 5D AC 2C');
  const EMPTY_C1_C2 = ['c1>f AS', 'c2>f AH', 'c1>f 2S', 'c2>f 2H'];

  const keyOf = (g: Game, justDrew = false): string => {
    const p = new KeyPacker(g);
    const k = new Uint32Array(p.words);
    p.pack(k, 0, justDrew);
    return keyText(k);
  };
  const play = (deal: Deal, rules: Rules, moves: readonly string[]): Game => {
    const g = new Game(deal, rules);
    playMoves(g, moves);
    return g;
  };

  for (const variant of ['book', 'building=none', 'building=suit'] as const) {
    it(`refilled columns in either order give the same key (${variant})`, () => {
      const rules = parseRules(variant);
      const a1 = play(R, rules, [...EMPTY_C1_C2, 'c3>c1 5S', 'c4>c2 3H']);
      const b1 = play(R, rules, [...EMPTY_C1_C2, 'c4>c1 3H', 'c3>c2 5S']);
      expect(a1.snapshot()).not.toBe(b1.snapshot()); // c1 and c2 are swapped
      expect(keyOf(a1)).toBe(keyOf(b1));
      // Then the 5S goes up from whichever column holds it: one refilled column is empty again.
      const more = ['draw 3S', 'w>f 3S', 'draw 4S', 'w>f 4S'];
      const a2 = play(R, rules, [...EMPTY_C1_C2, 'c3>c1 5S', 'c4>c2 3H', ...more, 'c1>f 5S']);
      const b2 = play(R, rules, [...EMPTY_C1_C2, 'c4>c1 3H', 'c3>c2 5S', ...more, 'c2>f 5S']);
      expect(a2.snapshot()).not.toBe(b2.snapshot());
      expect(keyOf(a2)).toBe(keyOf(b2));
      // Genuinely different positions: other cards in the refilled columns, a draw, the flag.
      const c1 = play(R, rules, [...EMPTY_C1_C2, 'c3>c1 5S', 'c5>c2 4C']);
      const d1 = play(R, rules, [...EMPTY_C1_C2, 'c3>c1 5S']);
      const e1 = play(R, rules, [...EMPTY_C1_C2, 'c3>c1 5S', 'c4>c2 3H', 'draw 3S']);
      const keys = [keyOf(a1), keyOf(c1), keyOf(d1), keyOf(e1), keyOf(e1, true), keyOf(a1, true), keyOf(a2)];
      expect(new Set(keys).size).toBe(keys.length);
    });
  }

  /*
   * Deal F (two packs A-3, four columns of two): c1 [3S AS], c2 [3H AS], c3 [2H 2S], c4 [3D 3S].
   * Both aces of spades go up, then a 2S. The engine builds on the first foundation that takes a
   * card, so play always gives foundations (AS 2S, AS); the mirrored position (AS, AS 2S) is made
   * by hand: the key must not tell them apart.
   */
  const F = makeDeal('2x3 4x2', ['3S 3H 2H 3D', 'AS AS 2S 3S'], 'AH AH 2H 3H AD AD 2D 2D 3D AC AC 2C 2C 3C 3C 2S');

  it('the two foundations of a suit are interchangeable', () => {
    const first = play(F, parseRules('book'), ['c1>f AS', 'c2>f AS', 'c3>f 2S']);
    const order2 = play(F, parseRules('book'), ['c2>f AS', 'c1>f AS', 'c3>f 2S']);
    expect(Array.from(first.found.subarray(0, 2))).toEqual([2, 1]);
    expect(keyOf(order2)).toBe(keyOf(first));
    const mirrored = play(F, parseRules('book'), ['c1>f AS', 'c2>f AS', 'c3>f 2S']);
    mirrored.found[0] = 1;
    mirrored.found[1] = 2;
    mirrored.syncFoundations();
    expect(mirrored.snapshot()).not.toBe(first.snapshot());
    expect(keyOf(mirrored)).toBe(keyOf(first));
    expect(legal(mirrored).length).toBe(legal(first).length);
    // Both take a 3S (on whichever foundation holds the 2S), and still have equal keys.
    playMoves(first, ['c1>f 3S']);
    playMoves(mirrored, ['c1>f 3S']);
    expect(Array.from(mirrored.found.subarray(0, 2))).toEqual([1, 3]);
    expect(keyOf(mirrored)).toBe(keyOf(first));
    // A different position of the same deal: the other 3S up instead.
    const other = play(F, parseRules('book'), ['c1>f AS', 'c2>f AS', 'c3>f 2S', 'c4>f 3S']);
    expect(keyOf(other)).not.toBe(keyOf(first));
  });

  it('the end of the first deal and the start of the second have different keys', () => {
    // Deal: layout 2D 2C; the stock 2S 2H and the four aces. After all draws the waste is 2S 2H.
    const deal = makeDeal('1x2 2x1', ['2D 2C'], '2S 2H AS AH AD AC');
    const moves = ['draw 2S', 'draw 2H', 'draw AS', 'w>f AS', 'draw AH', 'w>f AH', 'draw AD', 'w>f AD', 'draw AC', 'w>f AC'];
    const end = play(deal, parseRules('book'), moves);
    const second = play(deal, parseRules('book'), [...moves, 'redeal']);
    expect(second.phase).toBe(2);
    expect(Array.from(end.inPlayMask)).toEqual(Array.from(second.inPlayMask));
    expect(keyOf(second)).not.toBe(keyOf(end));
  });
});

describe('key size', () => {
  it('the book full size packs into 5 words (20 bytes of key per state), pysol into 6', () => {
    // A change of the key layout changes these on purpose: update them and the memory figures.
    const book = new KeyPacker(new Game(dealFromNumber(1, FULL_SIZE), parseRules('book')));
    // A column: 3 x 2 (original cards left, cover or not) + 1 + 52 x 2 (empty, or bottom card
    // and cover) = 111 values; four columns to a group of 28 bits.
    expect([book.radix, book.groupSize, book.groupBits]).toEqual([111, 4, 28]);
    expect(book.bits).toBe(156); // 68 stock bits + the sentinel's + 3 flags + 3 x 28
    expect(book.words).toBe(5);
    expect(4 * book.words).toBe(20);
    const pysol = new KeyPacker(new Game(dealFromNumber(1, FULL_SIZE), parseRules('pysol')));
    // 3 x 14 + 1 + 52 x 14 = 771 values (runs of 0-13 cards); three columns to 29 bits.
    expect([pysol.radix, pysol.groupSize, pysol.groupBits]).toEqual([771, 3, 29]);
    expect(pysol.bits).toBe(188); // 68 + 1 + 3 + 4 x 29
    expect(pysol.words).toBe(6);
  });
});

/** Distinct random keys of `words` words, and some that differ from each other in one bit. */
function randomKeys(count: number, words: number, seed: string): Uint32Array[] {
  const rng = seedrandom(seed);
  const seen = new Set<string>();
  const out: Uint32Array[] = [];
  const add = (k: Uint32Array) => {
    const t = keyText(k);
    if (!seen.has(t)) {
      seen.add(t);
      out.push(k);
    }
  };
  add(new Uint32Array(words)); // all zeros
  for (let b = 0; b < words * 32 && out.length < count; b++) {
    const k = new Uint32Array(words);
    k[b >>> 5] = (1 << (b & 31)) >>> 0;
    add(k);
  }
  while (out.length < count) {
    const k = new Uint32Array(words);
    for (let i = 0; i < words; i++) k[i] = Math.floor(rng() * 2 ** 32);
    if (rng() < 0.3) k[0] = Math.floor(rng() * 64); // many keys alike in all but a few bits
    add(k);
  }
  return out;
}

describe('transposition table', () => {
  it('insert / find round trip, re-insert, growth', () => {
    const W = 3;
    const keys = randomKeys(60_000, W, 'table:false');
    const tt = new TranspositionTable(W, 1 << 30, 16);
    const startBytes = tt.bytes();
    keys.forEach((k, i) => {
      const id = tt.insert(k, 0);
      if (id !== i) expect(id, `insert ${i}`).toBe(i);
    });
    expect(tt.size).toBe(keys.length);
    expect(tt.bytes()).toBeGreaterThan(startBytes); // it grew
    // Every key is found at its id, re-inserting gives -(id + 3), and the store holds the key.
    let bad = 0;
    keys.forEach((k, i) => {
      if (tt.find(k, 0) !== i) bad++;
      if (tt.insert(k, 0) !== -(i + 3)) bad++;
      if (keyText(tt.store, i * W, W) !== keyText(k)) bad++;
    });
    expect(bad).toBe(0);
    expect(tt.size).toBe(keys.length);
    // Keys never inserted are not found; a key at an offset in a larger buffer is found.
    const idOf = new Map(keys.map((k, i) => [keyText(k), i] as const));
    let wrong = 0;
    for (const k of randomKeys(2000, W, 'absent')) if (tt.find(k, 0) !== (idOf.get(keyText(k)) ?? -1)) wrong++;
    expect(wrong).toBe(0);
    const buf = new Uint32Array(W + 10);
    buf.set(keys[12345]!, 7);
    expect(tt.find(buf, 7)).toBe(12345);
    expect(hashKey(buf, 7, W)).toBe(hashKey(keys[12345]!, 0, W));
    // bytesPerState: the used store per state plus the whole index, for this table grown from
    // its smallest size.
    const indexBytes = tt.bytes() - tt.store.byteLength;
    const perState = (tt.size * 4 * W + indexBytes) / tt.size;
    expect(tt.bytesPerState()).toBeCloseTo(perState, 9);
    // A table sized up front for many more states reports the same figure for the same states.
    const big = new TranspositionTable(W, 1 << 30, 1 << 20);
    for (const k of keys) big.insert(k, 0);
    expect(big.bytes()).toBeGreaterThan(tt.bytes());
    expect(big.bytesPerState()).toBeCloseTo(perState, 9);
    // clear() empties it; the same keys then get ids from 0 again.
    tt.clear();
    expect(tt.size).toBe(0);
    expect(tt.bytesPerState()).toBe(0);
    expect(tt.find(keys[5]!, 0)).toBe(-1);
    expect(tt.insert(keys[5]!, 0)).toBe(0);
    expect(tt.insert(keys[9]!, 0)).toBe(1);
    expect(tt.insert(keys[5]!, 0)).toBe(-3);
    // Reused after clear() for a few states, it keeps its big arrays, but the figure is that
    // of a fresh table holding those states: 4 * W bytes each plus the smallest index.
    for (let i = 0; i < 100; i++) tt.insert(keys[1000 + i]!, 0);
    const fresh = new TranspositionTable(W, 1 << 30, 16);
    for (let i = 0; i < tt.size; i++) fresh.insert(tt.store.subarray(i * W, i * W + W), 0);
    expect(fresh.size).toBe(tt.size);
    expect(tt.bytes()).toBeGreaterThan(10 * fresh.bytes());
    const freshIndex = fresh.bytes() - fresh.store.byteLength;
    expect(tt.bytesPerState()).toBeCloseTo((fresh.size * 4 * W + freshIndex) / fresh.size, 9);
  });

  it('returns FULL when the memory cap forbids growing, and keeps what it holds', () => {
    // Sized up front (1 << 16 states expected) or grown from the smallest size (16), the arrays
    // and the states times bytesPerState stay within the cap, small or large, a cap that is not
    // a power of two too (1 MB at 5 words held more than the cap: a 2^16-slot index and a store
    // filling it, 1.19 MB).
    for (const [words, maxBytes, expected] of [
      [4, 1000, 16],
      [4, 256 * 1024, 16],
      [6, 512 * 1024, 16],
      [5, 1 << 20, 1 << 16],
      [5, 1 << 20, 16],
      [5, 300_000, 1 << 16],
      [4, 1000, 1 << 16],
    ] as const) {
      const what = `words ${words} maxBytes ${maxBytes} expected ${expected}`;
      const tt = new TranspositionTable(words, maxBytes, expected);
      expect(tt.bytes(), what).toBeLessThanOrEqual(maxBytes);
      // More keys than the cap could hold at 4 * words bytes each.
      const keys = randomKeys(Math.ceil(maxBytes / (4 * words)) + 2, words, `full:${words}:${maxBytes}`);
      let fullAt = -1;
      for (let i = 0; i < keys.length; i++) {
        const id = tt.insert(keys[i]!, 0);
        if (id === FULL) {
          fullAt = i;
          break;
        }
        expect(id).toBe(i);
      }
      expect(fullAt, what).toBeGreaterThan(0);
      expect(tt.size).toBe(fullAt);
      expect(tt.insert(keys[fullAt]!, 0)).toBe(FULL); // still full
      expect(tt.insert(keys[fullAt - 1]!, 0)).toBe(-(fullAt - 1 + 3)); // a stored key is still found
      expect(tt.find(keys[0]!, 0)).toBe(0);
      expect(tt.size).toBe(fullAt);
      expect(tt.bytes(), what).toBeLessThanOrEqual(maxBytes);
      // The states' bytes only grow with them: at most the cap when full, so at most it before.
      expect(tt.size * tt.bytesPerState(), what).toBeLessThanOrEqual(maxBytes);
      // Full means full: the cap has no room for the next key (the index and store grown by what
      // they would need), so the table uses most of it.
      expect(tt.size * tt.bytesPerState(), what).toBeGreaterThan(maxBytes / 4);
    }
  });

  it('a cap below the smallest table (a 32-slot index and one key) stores nothing, in no array of its own', () => {
    for (const [words, maxBytes] of [[5, 0.5], [5, 100], [5, 128 + 19], [1, 131]] as const) {
      const tt = new TranspositionTable(words, maxBytes, 1 << 16);
      const keys = randomKeys(3, words, `none:${words}:${maxBytes}`);
      expect(tt.insert(keys[0]!, 0), `words ${words} maxBytes ${maxBytes}`).toBe(FULL);
      expect(tt.insert(keys[1]!, 0)).toBe(FULL);
      expect(tt.find(keys[0]!, 0)).toBe(-1);
      expect([tt.size, tt.bytes(), tt.bytesPerState()]).toEqual([0, 0, 0]);
      tt.clear();
      expect(tt.insert(keys[2]!, 0)).toBe(FULL);
    }
    // One byte more holds a key: 128 bytes of index and 20 of key.
    const one = new TranspositionTable(5, 128 + 20, 1 << 16);
    const keys = randomKeys(2, 5, 'one');
    expect(one.insert(keys[0]!, 0)).toBe(0);
    expect(one.insert(keys[1]!, 0)).toBe(FULL);
    expect([one.bytes(), one.size * one.bytesPerState()]).toEqual([148, 148]);
  });

  it('bytesPerState at the book full size: 20 bytes of key plus the index', () => {
    const g = new Game(dealFromNumber(1, FULL_SIZE), parseRules('book'));
    const p = new KeyPacker(g);
    const tt = new TranspositionTable(p.words, 1 << 30);
    const keys = randomKeys(50_000, p.words, 'book-bytes');
    for (const k of keys) tt.insert(k, 0);
    const indexBytes = tt.bytes() - tt.store.byteLength;
    expect(tt.bytesPerState()).toBeCloseTo(20 + indexBytes / tt.size, 9);
    // The index is 4 bytes a slot at a load of at most 0.75.
    expect(indexBytes / tt.size).toBeGreaterThanOrEqual(4 / 0.75);
  });

  it('the index grows by a half or a third: 32, 48, 64, 96, ... slots, 5.3 to 8 bytes a state', () => {
    const W = 5;
    const tt = new TranspositionTable(W, 1 << 30, 16);
    const sizes: number[] = [];
    let outside = 0;
    randomKeys(30_000, W, 'index-growth').forEach((k, i) => {
      tt.insert(k, 0);
      const index = tt.bytes() - tt.store.byteLength;
      if (sizes[sizes.length - 1] !== index / 4) sizes.push(index / 4);
      // From 16 states on (the smallest index has 32 slots, and is counted for 16 states at least).
      const perState = index / tt.size;
      if (i + 1 >= 16 && (perState < 4 / 0.75 || perState > 4 / 0.5)) outside++;
      if (tt.bytesPerState() !== (tt.size * 4 * W + index) / tt.size) outside++;
    });
    expect(outside).toBe(0);
    expect(sizes.slice(0, 8)).toEqual([32, 48, 64, 96, 128, 192, 256, 384]);
    expect(sizes.every((n, i) => i === 0 || n === slotsAfter(sizes[i - 1]!))).toBe(true);
    expect(sizes[sizes.length - 1]).toBe(indexSlotsFor(30_000));
    expect(indexSlotsFor(30_000)).toBe(49_152);
  });
});

/** Distinct random signatures (two 32-bit lanes; distinct in the 48 bits a table keeps). */
function randomSigs(count: number, seed: string): [number, number][] {
  const rng = seedrandom(seed);
  const seen = new Set<string>();
  const out: [number, number][] = [[0, 0]]; // all zeros, the empty slot's bits, too
  seen.add('0,0');
  while (out.length < count) {
    const a = rng.int32();
    const b = rng.int32();
    const t = `${a >>> 0},${b & 0xffff}`;
    if (seen.has(t)) continue;
    seen.add(t);
    out.push([a, b]);
  }
  return out;
}

describe('signature table (sigtable.ts)', () => {
  it('answers as a set does over 60,000 signatures, growing from its smallest size', () => {
    const sigs = randomSigs(60_000, 'sig');
    const sig = new SignatureTable(1 << 30, 16);
    const start = sig.bytes();
    let bad = 0;
    for (const [a, b] of sigs) if (sig.insert(a, b) < 0) bad++;
    expect(bad).toBe(0);
    expect(sig.size).toBe(sigs.length);
    expect(sig.bytes()).toBeGreaterThan(start); // it grew
    // Every one is there: found, and not new when inserted again (never FULL).
    for (const [a, b] of sigs) {
      if (sig.find(a, b) !== 0) bad++;
      const r = sig.insert(a, b);
      if (r >= 0 || r === FULL) bad++;
    }
    expect(bad).toBe(0);
    expect(sig.size).toBe(sigs.length);
    // Signatures never inserted are not found; bits beyond the 48 kept do not count.
    const stored = new Set(sigs.map(([a, b]) => `${a >>> 0},${b & 0xffff}`));
    for (const [a, b] of randomSigs(5000, 'sig-absent')) if ((sig.find(a, b) === 0) !== stored.has(`${a >>> 0},${b & 0xffff}`)) bad++;
    expect(bad).toBe(0);
    const [a, b] = sigs[4321]!;
    expect(sig.find(a, b ^ 0x10000)).toBe(0);
    expect(sig.insert(a, b ^ 0x7fff0000)).toBeLessThan(0);
  });

  it('takes 8 to 12 bytes a stored state: 6 bytes a slot at a load of 0.5 to 0.75', () => {
    const sigs = randomSigs(40_000, 'sig-bytes');
    const sig = new SignatureTable(1 << 30, 16);
    let outside = 0;
    sigs.forEach(([a, b], i) => {
      sig.insert(a, b);
      const bytes = sig.bytesPerState();
      // From 16 states on (the smallest table has 32 slots, and is counted for 16 states at least).
      if (i + 1 >= 16 && (bytes < 8 || bytes > 12)) outside++;
      // A table grown from its smallest size: the figure is its array per state.
      if (i % 997 === 0 && bytes !== sig.bytes() / sig.size) outside++;
    });
    expect(outside).toBe(0);
    // A table sized up front for many more states reports the figure of one grown to fit.
    const big = new SignatureTable(1 << 30, 1 << 20);
    for (const [a, b] of sigs) big.insert(a, b);
    expect(big.bytes()).toBeGreaterThan(sig.bytes());
    expect(big.bytesPerState()).toBe(sig.bytesPerState());
  });

  it('grows by a half or a third (32, 48, 64, 96, ... slots), each time the next state would pass a load of 0.75', () => {
    const sigs = randomSigs(2000, 'sig-grow');
    const sig = new SignatureTable(1 << 30, 16);
    const sizes = [sig.bytes() / 6];
    sigs.forEach(([a, b], i) => {
      const before = sig.bytes() / 6;
      sig.insert(a, b);
      const after = sig.bytes() / 6;
      if (after !== before) {
        sizes.push(after);
        // It grew for state i + 1, the first that the old size could not hold at 0.75.
        expect(i + 1).toBe(Math.floor(before * 0.75) + 1);
      }
    });
    expect(sizes).toEqual([32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072]);
    // So the load after a growth is 0.5 (from 2^k) or 0.5625 (from 3 2^k), never below 0.5.
    expect([sigSlotsFor(16, Infinity), sigSlotsFor(25, Infinity), sigSlotsFor(1152, Infinity), sigSlotsFor(1153, Infinity)]).toEqual([32, 48, 1536, 2048]);
    // Within a cap: the largest that fits, 0 when not even the smallest does.
    expect([sigSlotsFor(1e6, 300), sigSlotsFor(1e6, 287), sigSlotsFor(1e6, 191), sigSlotsFor(16, 191)]).toEqual([48, 32, 0, 0]);
    expect(sigSlotsFor(1e12, Infinity)).toBe(2 ** 30);
    // Every signature inserted is still found after the growths (the slots of a size not a power of two).
    let lost = 0;
    for (const [a, b] of sigs) if (sig.find(a, b) !== 0) lost++;
    expect(lost).toBe(0);
  });

  it('clear() empties it, whether it holds few states, many, or has grown', () => {
    const sigs = randomSigs(3000, 'sig-clear');
    for (const [expected, count] of [[4096, 100], [4096, 2000], [16, 100], [16, 2000]] as const) {
      const sig = new SignatureTable(1 << 30, expected);
      for (let round = 0; round < 3; round++) {
        const part = sigs.slice(round * 7, round * 7 + count);
        for (const [a, b] of part) expect(sig.insert(a, b)).toBeGreaterThanOrEqual(0);
        sig.clear();
        expect(sig.size).toBe(0);
        expect(sig.bytesPerState()).toBe(0);
        let left = 0;
        for (const [a, b] of sigs) if (sig.find(a, b) === 0) left++;
        expect(left, `expected ${expected}, ${count} signatures, round ${round}`).toBe(0);
      }
    }
  });

  it('returns FULL when the memory cap forbids growing, and keeps what it holds', () => {
    const sigs = randomSigs(200_000, 'sig-full');
    // Sized up front or grown from the smallest size, within the cap (a table sized up front for
    // 1 MB once took 1.5 MB: the slots for the states that fit, rounded up).
    for (const [maxBytes, expected] of [[256 * 1024, 16], [1 << 20, 1 << 21], [1 << 20, 16], [1000, 1 << 16], [192, 1 << 16]] as const) {
      const what = `maxBytes ${maxBytes} expected ${expected}`;
      const sig = new SignatureTable(maxBytes, expected);
      expect(sig.bytes(), what).toBeLessThanOrEqual(maxBytes);
      let fullAt = -1;
      for (let i = 0; i < sigs.length && fullAt < 0; i++) if (sig.insert(sigs[i]![0], sigs[i]![1]) === FULL) fullAt = i;
      expect(fullAt, what).toBeGreaterThan(0);
      expect(sig.size).toBe(fullAt);
      expect(sig.bytes(), what).toBeLessThanOrEqual(maxBytes);
      expect(sig.size * sig.bytesPerState(), what).toBeLessThanOrEqual(maxBytes); // and less before: it only grows
      expect(sig.size * sig.bytesPerState(), what).toBeGreaterThan(maxBytes / 2);
      expect(sig.insert(sigs[fullAt]![0], sigs[fullAt]![1])).toBe(FULL);
      expect(sig.find(sigs[0]![0], sigs[0]![1])).toBe(0);
      expect(sig.insert(sigs[fullAt - 1]![0], sigs[fullAt - 1]![1])).toBeLessThan(0);
    }
  });

  it('a cap below the smallest table (32 slots, 192 bytes) stores nothing, in no array of its own', () => {
    const sigs = randomSigs(3, 'sig-none');
    for (const maxBytes of [0.5, 96, 191]) {
      const sig = new SignatureTable(maxBytes, 1 << 16);
      expect(sig.insert(sigs[1]![0], sigs[1]![1]), `maxBytes ${maxBytes}`).toBe(FULL);
      expect(sig.find(sigs[1]![0], sigs[1]![1])).toBe(-1);
      expect([sig.size, sig.bytes(), sig.bytesPerState()]).toEqual([0, 0, 0]);
      sig.clear();
      expect(sig.insert(sigs[2]![0], sigs[2]![1])).toBe(FULL);
    }
  });

  it('addAll takes the signature of every key of an exact table, as baseSig makes it for each position', () => {
    // Positions of random playouts of book deal 3, packed into an exact table.
    const g = new Game(dealFromNumber(3, FULL_SIZE), parseRules('book'));
    const p = new KeyPacker(g);
    const k = new Uint32Array(p.words);
    const exact = new TranspositionTable(p.words, 1 << 30, 16);
    const inside: [number, number][] = [];
    const outside: [number, number][] = [];
    const rng = seedrandom('sig-add');
    for (let playout = 0; playout < 40; playout++) {
      g.reset();
      let drew = false;
      for (let step = 0; step < 200; step++) {
        p.pack(k, 0, drew);
        p.baseSig();
        const s: [number, number] = [p.flagA(p.sigA, drew), p.flagB(p.sigB, drew)];
        if (playout < 30) {
          exact.insert(k, 0);
          inside.push(s);
        } else if (exact.find(k, 0) < 0) outside.push(s);
        const moves = legal(g);
        if (moves.length === 0) break;
        const m = pick(moves, rng);
        g.apply(m);
        drew = moveSrc(m) === SRC_DRAW;
      }
    }
    expect(exact.size).toBeGreaterThan(1000);
    expect(outside.length).toBeGreaterThan(100);
    const sig = new SignatureTable(1 << 30, 16);
    expect(sig.addAll(exact, p)).toBe(true);
    expect(sig.size).toBe(exact.size);
    let bad = 0;
    for (const [a, b] of inside) if (sig.find(a, b) !== 0) bad++;
    for (const [a, b] of outside) if (sig.find(a, b) === 0) bad++;
    expect(bad).toBe(0);
    expect(new SignatureTable(1000, 16).addAll(exact, p)).toBe(false);
  });

  it('with fewer bits (tests only) distinct signatures share slots', () => {
    const sigs = randomSigs(1000, 'sig-weak');
    const weak = new SignatureTable(1 << 30, 16, 8);
    let fresh = 0;
    for (const [a, b] of sigs) if (weak.insert(a, b) >= 0) fresh++;
    expect(fresh).toBeLessThanOrEqual(256);
    expect(fresh).toBeGreaterThan(100);
    expect(() => new SignatureTable(1 << 30, 16, 0)).toThrow(RangeError);
    expect(() => new SignatureTable(1 << 30, 16, 49)).toThrow(RangeError);
  });
});
