/**
 * Deal numbers, scheme v1 (RULES.md "Deal numbers"): golden deals written out in full. These
 * texts were produced by the engine AND checked against an independent re-implementation of the
 * scheme (seedrandom('limited:' + n), Fisher–Yates from the top, row-major layout). If one of
 * them changes, published deal numbers have changed meaning: that is a bug, not a test to update.
 */
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import {
  FULL_SIZE, MAX_DEAL_NUMBER, UserError, checkDealCards, dealFromNumber, dealFromOrder, formatCard, formatDealFile,
  orderedDeck, parseDealFile, parseDealNumber, parseRules, parseSize,
} from '../src/game/index.js';
import { countCards, sortedCounts } from './helpers.js';

const GOLDEN_0 = `deal: 0
size: 2x13 12x3
row 1: QC 4H 7C JS JC KD KH 8D 2H 3D AS 7S
row 2: 9H 8S 6S TC 6C 2S 6D 2S 3H 2D 9D AH
row 3: 9H JH 3S 4S 3S TD KD 7H AD 7D 9C QC
stock: JC 9S KC 2C 5H 7D TS 6C 4C QH TH 5C 8S 8H AC 6S 7C
       5D 3C 9C QD JD AH 3H AD JD KH 3D 4D QS KS 5C 8C QD
       5H QS 4H 5S 4C QH 9D 8H JS 6D 6H TH 7S 8D 6H 4D AS
       7H KC TD TS 4S KS 2H 8C TC AC 9S 2C 2D 5D JH 3C 5S
`;

const GOLDEN_1 = `deal: 1
size: 2x13 12x3
row 1: 9D 5S JC 2D 8S AH 8S 8H 6C TS 4C 6D
row 2: 5H 5D 3H 2H KS 6H KC 3S 2S 5C AH 5C
row 3: 8C QC 6S 5H KS 4D 4S KH TD 2C 4H 4S
stock: JH 9S KD QD 2S 8H 6C 4D JH 3S TC QH 8C 4C 3C 4H KD
       QS QH 7S 3D 9H 3C JC 9C KH 7D QC 9S 2H 3H 2D AC JS
       6S AD 6D TS TH 3D TC 7D 7H 5D 7C 9H 6H QS JD 8D AD
       AS QD 5S 2C KC 9D AS JD TH 8D 7C 7S 9C 7H TD JS AC
`;

const GOLDEN_MAX = `deal: 9007199254740991
size: 2x13 12x3
row 1: 2C JD AD 3H TD TS JC KD JH 5H JH QH
row 2: 4D KH QH 8C 4S 6S KS 4D 2H TH 6C 9H
row 3: 7S 4H KC AC TD 7D 9S 2D 3C 8S 7H 6S
stock: 2S TC 8H 9D 8C KH 9D 6H 9C AH 4S 3D 9C QD 7H JS AC
       6C 3S 2S 4H QS 8H 7C 3C AS QS JC TC KS 5H 8D QD JD
       7D QC 2H JS TS 5C 8S TH 7C AH 6D 2D 5D AD KD 5D 3D
       QC 5S 9S 3H 5C 4C 6D 9H 4C 3S 2C 7S KC 5S AS 6H 8D
`;

const GOLDEN_7_SMALL = `deal: 7
size: 1x5 4x3
row 1: 3D 5H 2H 2S
row 2: 4S 5S 4H AD
row 3: 3H AS 4C 5D
stock: 5C AH 2C 3C AC 3S 2D 4D
`;

describe('deal numbers, scheme v1: golden deals', () => {
  it('deal 0, full size', () => {
    expect(formatDealFile(dealFromNumber(0))).toBe(GOLDEN_0);
    expect(formatDealFile(dealFromNumber(0, FULL_SIZE))).toBe(GOLDEN_0);
  });

  it('deal 1, full size', () => {
    expect(formatDealFile(dealFromNumber(1))).toBe(GOLDEN_1);
  });

  it('deal 9007199254740991 (2^53 - 1, the largest), full size', () => {
    expect(MAX_DEAL_NUMBER).toBe(2 ** 53 - 1);
    expect(formatDealFile(dealFromNumber(9007199254740991))).toBe(GOLDEN_MAX);
    expect(formatDealFile(dealFromNumber(parseDealNumber('9007199254740991')))).toBe(GOLDEN_MAX);
  });

  it('deal 7, size 1x5 4x3', () => {
    expect(formatDealFile(dealFromNumber(7, parseSize('1x5 4x3')))).toBe(GOLDEN_7_SMALL);
  });

  it('golden texts read back as the same deals', () => {
    for (const [text, n, size] of [[GOLDEN_0, 0, '2x13 12x3'], [GOLDEN_1, 1, '2x13 12x3'], [GOLDEN_MAX, MAX_DEAL_NUMBER, '2x13 12x3'], [GOLDEN_7_SMALL, 7, '1x5 4x3']] as const) {
      const d = parseDealFile(text, 'golden');
      const e = dealFromNumber(n, parseSize(size));
      expect(d.columns).toEqual(e.columns);
      expect(d.stock).toEqual(e.stock);
      expect(d.size).toEqual(e.size);
      expect(d.source).toBe(String(n));
    }
  });
});

describe('deal numbers, scheme v1: the parts of the scheme', () => {
  it('the ordered deck is, per pack, suits S H D C and ranks A..last', () => {
    expect(orderedDeck(parseSize('1x5 4x3')).map(formatCard).join(' ')).toBe(
      'AS 2S 3S 4S 5S AH 2H 3H 4H 5H AD 2D 3D 4D 5D AC 2C 3C 4C 5C',
    );
    expect(orderedDeck(parseSize('2x2 2x2')).map(formatCard).join(' ')).toBe('AS 2S AH 2H AD 2D AC 2C AS 2S AH 2H AD 2D AC 2C');
    const full = orderedDeck(FULL_SIZE);
    expect(full.length).toBe(104);
    expect(full.slice(0, 13).map(formatCard).join(' ')).toBe('AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS');
    expect(full.slice(52)).toEqual(full.slice(0, 52));
  });

  it('card k goes to row floor(k/columns)+1, column (k mod columns)+1; the rest is the stock, first drawn first', () => {
    const size = parseSize('1x5 4x3');
    const d = dealFromOrder(orderedDeck(size), size);
    expect(formatDealFile(d)).toBe(`size: 1x5 4x3
row 1: AS 2S 3S 4S
row 2: 5S AH 2H 3H
row 3: 4H 5H AD 2D
stock: 3D 4D 5D AC 2C 3C 4C 5C
`);
  });

  it("the seed is 'limited:' + n: bare '1' and '11' give the same generator, but deals 1 and 11 differ", () => {
    // ARC4 repeats a short key: this is why the prefix exists
    const a = seedrandom('1');
    const b = seedrandom('11');
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
    const c = seedrandom('limited:1');
    const d = seedrandom('limited:11');
    expect(c()).not.toBe(d());
    expect(formatDealFile(dealFromNumber(1))).not.toBe(formatDealFile({ ...dealFromNumber(11), source: '1' }));
    expect(dealFromNumber(1).columns).not.toEqual(dealFromNumber(11).columns);
    // and the first Fisher–Yates swap of deal 1 uses the 'limited:1' generator
    const deck = orderedDeck(FULL_SIZE);
    const j = Math.floor(seedrandom('limited:1')() * 104);
    const last = deck[j]!; // card that lands in position 103: the last card of the stock
    const d1 = dealFromNumber(1);
    expect(d1.stock[d1.stock.length - 1]).toBe(last);
  });

  it('every numbered deal holds each card exactly as often as the packs do', () => {
    for (const s of ['2x13 12x3', '1x5 4x3', '2x4 4x2', '1x13 12x3', '2x13 16x6', '1x1 4x1']) {
      const size = parseSize(s);
      const want = sortedCounts(countCards(orderedDeck(size)));
      for (let n = 0; n < 20; n++) {
        const d = dealFromNumber(n, size);
        expect(() => checkDealCards(d)).not.toThrow();
        expect(sortedCounts(countCards([...d.columns.flat(), ...d.stock]))).toEqual(want);
        expect(d.columns.length).toBe(size.columns);
        for (const col of d.columns) expect(col.length).toBe(size.rows);
        expect(d.stock.length).toBe(size.packs * size.ranks * 4 - size.columns * size.rows);
      }
    }
  });

  it('deals are deterministic and distinct', () => {
    expect(dealFromNumber(12345)).toEqual(dealFromNumber(12345));
    const seen = new Set<string>();
    for (let n = 0; n < 200; n++) seen.add(formatDealFile({ ...dealFromNumber(n), source: undefined }));
    expect(seen.size).toBe(200);
  });
});

describe('parseDealNumber', () => {
  it('accepts whole numbers 0 .. 2^53-1', () => {
    expect(parseDealNumber('0')).toBe(0);
    expect(parseDealNumber('1234')).toBe(1234);
    expect(parseDealNumber(' 42 ')).toBe(42);
    expect(parseDealNumber('007')).toBe(7);
    expect(parseDealNumber('9007199254740991')).toBe(MAX_DEAL_NUMBER);
  });

  it('rejects -1, 1.5, abc, 2^53 and other non-numbers with a UserError', () => {
    for (const bad of ['-1', '1.5', 'abc', '9007199254740992', '', '1e3', '0x10', '+5', '12 3']) {
      expect(() => parseDealNumber(bad), bad).toThrow(UserError);
    }
    expect(() => parseDealNumber('-1')).toThrow("deal number '-1' is not a whole number from 0 to 9007199254740991");
    expect(() => parseDealNumber('1.5')).toThrow("deal number '1.5' is not a whole number from 0 to 9007199254740991");
    expect(() => parseDealNumber('abc')).toThrow("deal number 'abc' is not a whole number from 0 to 9007199254740991");
    expect(() => parseDealNumber('9007199254740992')).toThrow("deal number '9007199254740992' is too large (the largest is 9007199254740991)");
  });

  it('dealFromNumber refuses numbers outside the scheme', () => {
    for (const bad of [-1, 1.5, 2 ** 53, NaN, Infinity]) expect(() => dealFromNumber(bad), String(bad)).toThrow(UserError);
  });
});

describe('deal files round-trip', () => {
  it('formatDealFile then parseDealFile gives the same deal, for several sizes and rules', () => {
    const cases: [string, string | undefined][] = [
      ['2x13 12x3', undefined],
      ['2x13 12x3', 'pysol'],
      ['1x5 4x3', 'book'],
      ['1x6 5x3', 'building=none second-deal=none privileged=2'],
      ['2x4 4x2', 'privileged=8'],
      ['1x13 12x3', undefined],
      ['2x13 16x6', 'building=suit'],
      ['1x1 4x1', undefined],
      ['2x3 1x1', undefined],
    ];
    for (const [s, r] of cases) {
      for (const n of [0, 5, 99999]) {
        const d = dealFromNumber(n, parseSize(s));
        const rules = r === undefined ? undefined : parseRules(r);
        const text = formatDealFile(d, rules);
        const back = parseDealFile(text, 'round');
        expect(back.size).toEqual(d.size);
        expect(back.columns).toEqual(d.columns);
        expect(back.stock).toEqual(d.stock);
        expect(back.source).toBe(String(n));
        expect(back.rules).toEqual(rules);
        // and formatting again gives the same text
        expect(formatDealFile(back)).toBe(text);
      }
    }
  });
});
