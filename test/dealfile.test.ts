/**
 * Deal files (RULES.md "Deal files"): every kind of error names its line (`name:LINE:`, where
 * there is a line) and what is wrong; the accepted forms are accepted.
 */
import { describe, expect, it } from 'vitest';
import {
  type Deal, UserError, checkDealCards, dealFromNumber, formatCard, parseDealFile, parseRules, parseSize,
} from '../src/game/index.js';

/** A good 1x5 4x3 deal (deal 7), line by line: size on line 1, rows on 2-4, stock on 5. */
const GOOD = ['size: 1x5 4x3', 'row 1: 3D 5H 2H 2S', 'row 2: 4S 5S 4H AD', 'row 3: 3H AS 4C 5D', 'stock: 5C AH 2C 3C AC 3S 2D 4D'];

const text = (lines: readonly string[]) => lines.join('\n') + '\n';
/** GOOD with line `i` (0-based) replaced. */
const withLine = (i: number, line: string) => text(GOOD.map((l, k) => (k === i ? line : l)));

function errorOf(t: string, name = 'my.deal'): string {
  try {
    parseDealFile(t, name);
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as Error).message;
  }
  throw new Error('parseDealFile accepted a bad deal file:\n' + t);
}

describe('deal-file errors', () => {
  it('the good file parses (the base of the cases below)', () => {
    const d = parseDealFile(text(GOOD), 'my.deal');
    expect(d.columns).toEqual(dealFromNumber(7, parseSize('1x5 4x3')).columns);
  });

  it('wrong count of cards in a row', () => {
    expect(errorOf(withLine(2, 'row 2: 4S 5S 4H'))).toBe('my.deal:3: row 2 has 3 cards, expected 4');
    expect(errorOf(withLine(2, 'row 2: 4S 5S 4H AD 5C'))).toBe('my.deal:3: row 2 has 5 cards, expected 4');
    expect(errorOf(withLine(1, 'row 1:'))).toBe('my.deal:2: row 1 has 0 cards, expected 4');
  });

  it('wrong count of cards in the stock', () => {
    expect(errorOf(withLine(4, 'stock: 5C AH 2C 3C AC 3S 2D'))).toBe('my.deal:5: the stock has 7 cards, expected 8');
    expect(errorOf(withLine(4, 'stock: 5C AH 2C 3C AC 3S 2D 4D 4D'))).toBe('my.deal:5: the stock has 9 cards, expected 8');
    expect(errorOf(withLine(4, 'stock: 5C AH 2C 3C AC 3S 2D 4D 1'))).toBe('my.deal:5: the stock has 9 cards, expected 8');
  });

  it('stray text after the stock: line is named on its own line as an unknown card, not counted into the stock', () => {
    // The stock: line is line 5; a line after it that is no key line continues the stock.
    expect(errorOf(text([...GOOD, 'hello world']))).toBe("my.deal:6: unknown card 'hello' (a line after 'stock:' is read as more stock cards)");
    expect(errorOf(text([...GOOD.slice(0, 4), 'stock: 5C AH 2C 3C', 'AC 3S 2D ZZ']))).toBe(
      "my.deal:6: unknown card 'ZZ' (a line after 'stock:' is read as more stock cards)",
    );
    // An extra good card there keeps the count message, on the line that holds the card too many.
    expect(errorOf(text([...GOOD, '# more', '4D']))).toBe('my.deal:7: the stock has 9 cards, expected 8 (the stock begins on line 5; this line holds card 9)');
  });

  it('an unknown card', () => {
    expect(errorOf(withLine(2, 'row 2: 4S 5X 4H AD'))).toBe("my.deal:3: unknown card '5X'");
    expect(errorOf(withLine(4, 'stock: 5C AH 2C 3C AC 3S 2D ZZ'))).toBe("my.deal:5: unknown card 'ZZ'");
    expect(errorOf(withLine(3, 'row 3: 3H AS 4C 11D'))).toBe("my.deal:4: unknown card '11D'");
  });

  it("a card outside a small deck's ranks", () => {
    expect(errorOf(withLine(3, 'row 3: 3H AS 4C 6D'))).toBe("my.deal:4: card '6D' is not in a deck of ranks A-5 (size 1x5 4x3)");
    expect(errorOf(withLine(4, 'stock: 5C AH 2C 3C AC 3S 2D KD'))).toBe("my.deal:5: card 'KD' is not in a deck of ranks A-5 (size 1x5 4x3)");
  });

  it('a card appearing more times than the packs hold (names the line of the extra copy)', () => {
    // 5D replaced by a second 5C: the extra 5C is in the stock, line 5
    expect(errorOf(withLine(3, 'row 3: 3H AS 4C 5C'))).toBe('my.deal:5: card 5C appears more than once; the packs hold 1');
    // stock over several lines: the line of the extra copy is named
    const lines = [...GOOD.slice(0, 4), 'stock: 5C AH 2C 3C', '       AC 3S 2D 3C'];
    expect(errorOf(text(lines))).toBe('my.deal:6: card 3C appears more than once; the packs hold 1');
    // two packs: three copies is one too many
    const t = `size: 2x2 4x2\nrow 1: AS AS 2S 2S\nrow 2: AH AH 2H 2H\nstock: AS AD 2D 2D AC AC 2C 2C\n`;
    expect(errorOf(t)).toBe('my.deal:4: card AS appears more than 2 times; the packs hold 2');
  });

  it('a card appearing fewer times than the packs hold', () => {
    // in a file the count of cards is fixed, so a missing card always shows as an extra copy of another
    expect(errorOf(withLine(2, 'row 2: 4S 5S 4H 3H'))).toBe('my.deal:4: card 3H appears more than once; the packs hold 1');
    // checkDealCards (which parseDealFile runs last) names the missing card itself
    const d = dealFromNumber(7, parseSize('1x5 4x3'));
    const short: Deal = { ...d, stock: d.stock.slice(0, -1) };
    const missing = formatCard(d.stock[d.stock.length - 1]!);
    expect(missing).toBe('4D');
    expect(() => checkDealCards(short)).toThrow('card 4D appears 0 times; the packs hold 1');
    const two = dealFromNumber(7, parseSize('2x5 4x3'));
    const dropped = two.stock[0]!;
    const twoShort: Deal = { ...two, stock: two.stock.slice(1) };
    expect(() => checkDealCards(twoShort)).toThrow(`card ${formatCard(dropped)} appears 1 time; the packs hold 2`);
    expect(() => checkDealCards(two)).not.toThrow();
  });

  it('a row missing', () => {
    expect(errorOf(text(GOOD.filter((_, k) => k !== 2)))).toBe('my.deal: row 2 is missing');
    expect(errorOf(text(GOOD.filter((_, k) => k !== 3)))).toBe('my.deal: row 3 is missing');
  });

  it('a row repeated', () => {
    const lines = [...GOOD.slice(0, 3), 'row 2: 4S 5S 4H AD', ...GOOD.slice(3)];
    expect(errorOf(text(lines))).toBe('my.deal:4: row 2 repeated (first on line 3)');
  });

  it('a row outside the layout', () => {
    const lines = [...GOOD.slice(0, 4), 'row 4: 5C AH 2C 3C', 'stock: AC 3S 2D 4D'];
    expect(errorOf(text(lines))).toBe('my.deal:5: row 4 is outside the layout (rows 1 to 3, size on line 1)');
    expect(errorOf(withLine(1, 'row 0: 3D 5H 2H 2S'))).toBe('my.deal:2: row 0 is outside the layout (rows 1 to 3, size on line 1)');
    // without a size line, the full size has 3 rows
    const full = dealFromNumber(0);
    const rows = [0, 1, 2].map((r) => `row ${r + 1}: ${full.columns.map((c) => formatCard(c[r]!)).join(' ')}`);
    expect(errorOf(text([...rows, 'row 4: AS', `stock: ${full.stock.map(formatCard).join(' ')}`]))).toBe(
      'my.deal:4: row 4 is outside the layout (rows 1 to 3)',
    );
  });

  it('an unknown line', () => {
    expect(errorOf(withLine(0, 'hello world'))).toBe(
      "my.deal:1: unknown line 'hello world' (expected deal:, rules:, size:, row N: or stock:)",
    );
    expect(errorOf(text([...GOOD.slice(0, 2), 'colour: red', ...GOOD.slice(2)]))).toBe(
      "my.deal:3: unknown line 'colour: red' (expected deal:, rules:, size:, row N: or stock:)",
    );
    // bare cards are a stock continuation only right after the stock line
    expect(errorOf(text([GOOD[0]!, GOOD[1]!, '5C AH', ...GOOD.slice(2)]))).toBe(
      "my.deal:3: unknown line '5C AH' (expected deal:, rules:, size:, row N: or stock:)",
    );
    expect(errorOf(text([...GOOD.slice(0, 4), 'stock 1: 5C AH 2C 3C AC 3S 2D 4D']))).toBe("my.deal:5: unknown line 'stock 1: 5C AH 2C 3C AC 3S 2D 4D'");
    expect(errorOf(text([...GOOD.slice(0, 4), 'row: 5C']))).toBe("my.deal:5: 'row' needs a number, e.g. 'row 1:'");
    // the line quoted printable and short: control characters escaped, a long line cut
    expect(errorOf(withLine(0, 'bell\x07 and\ttab\x1b[31m'))).toBe(
      "my.deal:1: unknown line 'bell\\x07 and\\ttab\\x1b[31m' (expected deal:, rules:, size:, row N: or stock:)",
    );
    expect(errorOf(withLine(0, 'x'.repeat(5000)))).toBe(
      `my.deal:1: unknown line '${'x'.repeat(60)}... (5000 characters)' (expected deal:, rules:, size:, row N: or stock:)`,
    );
    expect(errorOf(withLine(3, 'row 3: \x01Z AS 4C 5D'))).toBe("my.deal:4: unknown card '\\x01Z'");
  });

  it('a bad rules: line', () => {
    expect(errorOf(text(['rules: bok', ...GOOD]))).toMatch(/^my\.deal:1: unknown rules word 'bok' \(presets: book, pysol;/);
    expect(errorOf(text(['rules: building=towers', ...GOOD]))).toBe("my.deal:1: unknown value 'towers' for building (pairs, none, suit)");
    expect(errorOf(text(['rules: privileged=9', ...GOOD]))).toBe("my.deal:1: privileged must be a whole number from 1 to 8, not '9'");
    expect(errorOf(text(['rules: second-deal=twice', ...GOOD]))).toBe("my.deal:1: unknown value 'twice' for second-deal (privileged, none)");
    expect(errorOf(text(['rules: colour=red', ...GOOD]))).toBe("my.deal:1: unknown rules option 'colour' (building, second-deal, privileged)");
    expect(errorOf(text(['rules:', ...GOOD]))).toBe('my.deal:1: empty rules: give a preset (book, pysol) or option=value words');
  });

  it('a bad size: line', () => {
    expect(errorOf(withLine(0, 'size: 1x5'))).toBe(
      "my.deal:1: size '1x5' is not of the form DxR CxW (packs x ranks, columns x rows), e.g. '2x13 12x3'",
    );
    expect(errorOf(withLine(0, 'size: 3x5 4x3'))).toBe("my.deal:1: size '3x5 4x3': packs must be 1 or 2");
    expect(errorOf(withLine(0, 'size: 1x14 4x3'))).toBe("my.deal:1: size '1x14 4x3': ranks must be 1 to 13");
    expect(errorOf(withLine(0, 'size: 1x5 5x5'))).toBe("my.deal:1: size '1x5 5x5': the layout needs 25 cards but the deck has 20");
  });

  it('a repeated header line, a missing stock', () => {
    expect(errorOf(text([...GOOD, 'size: 1x5 4x3']))).toBe("my.deal:6: 'size:' repeated (first on line 1)");
    expect(errorOf(text([...GOOD, 'stock: 5C']))).toBe("my.deal:6: 'stock:' repeated (first on line 5)");
    expect(errorOf(text(GOOD.slice(0, 4)))).toBe('my.deal: the stock: line is missing');
  });

  it('the default name is "deal file"', () => {
    expect(() => parseDealFile(withLine(0, 'hello'))).toThrow("deal file:1: unknown line 'hello'");
  });
});

describe('deal files accepted', () => {
  const want = dealFromNumber(7, parseSize('1x5 4x3'));

  it('comments, blank lines, trailing comments, CRLF line ends', () => {
    const t = [
      '# a deal for testing',
      '',
      'size: 1x5 4x3   # small',
      '   ',
      'row 1: 3D 5H 2H 2S',
      '# between rows',
      'row 2: 4S 5S 4H AD # trailing',
      'row 3: 3H AS 4C 5D',
      '',
      'stock: 5C AH 2C 3C AC 3S 2D 4D',
      '# the end',
    ].join('\r\n');
    const d = parseDealFile(t, 'x');
    expect(d.columns).toEqual(want.columns);
    expect(d.stock).toEqual(want.stock);
    expect(d.source).toBeUndefined();
    expect(d.rules).toBeUndefined();
  });

  it('a stock over several lines (also across comments and blank lines)', () => {
    const t = text([...GOOD.slice(0, 4), 'stock: 5C AH 2C', '  3C AC', '', '# more', '3S 2D 4D']);
    expect(parseDealFile(t, 'x').stock).toEqual(want.stock);
  });

  it('lines in any order, rows in any order', () => {
    const t = text([GOOD[4]!, GOOD[3]!, GOOD[1]!, GOOD[2]!, GOOD[0]!]);
    const d = parseDealFile(t, 'x');
    expect(d.columns).toEqual(want.columns);
    expect(d.stock).toEqual(want.stock);
  });

  it('10, suit symbols and lower case', () => {
    const full = dealFromNumber(0);
    // spades 10♠ / Q♠, hearts th / qh, diamonds 10D / QD, clubs 10♣ / q♣
    const fancy = (c: string): string => {
      const [r, s] = [c[0]!, c[1]!];
      if (s === 'S') return (r === 'T' ? '10' : r) + '♠';
      if (s === 'H') return c.toLowerCase();
      if (s === 'D') return (r === 'T' ? '10' : r) + 'D';
      return (r === 'T' ? '10' : r.toLowerCase()) + '♣';
    };
    const rows = [0, 1, 2].map((r) => `row ${r + 1}: ${full.columns.map((c) => fancy(formatCard(c[r]!))).join(' ')}`);
    const t = text([...rows, `stock: ${full.stock.map((c) => fancy(formatCard(c))).join(' ')}`]);
    for (const form of ['10♣', 'q♣', '10♠', 'th', 'qh', '10D']) expect(t).toContain(` ${form}`);
    const d = parseDealFile(t, 'x');
    expect(d.columns).toEqual(full.columns);
    expect(d.stock).toEqual(full.stock);
  });

  it('rules:, size: and deal: lines are honoured', () => {
    const t = text(['deal: pysol 123456', 'rules: building=suit second-deal=none privileged=2', ...GOOD]);
    const d = parseDealFile(t, 'x');
    expect(d.size).toEqual(parseSize('1x5 4x3'));
    expect(d.rules).toEqual({ building: 'suit', secondDeal: 'none', privileged: 2 });
    expect(d.source).toBe('pysol 123456');
    const p = parseDealFile(text(['rules: pysol', ...GOOD]), 'x');
    expect(p.rules).toEqual(parseRules('pysol'));
    const b = parseDealFile(text(['rules: book privileged=1', ...GOOD]), 'x');
    expect(b.rules).toEqual({ building: 'pairs', secondDeal: 'privileged', privileged: 1 });
  });

  it('without a size line the size is 2x13 12x3', () => {
    const full = dealFromNumber(1);
    const rows = [0, 1, 2].map((r) => `row ${r + 1}: ${full.columns.map((c) => formatCard(c[r]!)).join(' ')}`);
    const d = parseDealFile(text([...rows, `stock: ${full.stock.map(formatCard).join(' ')}`]), 'x');
    expect(d.size).toEqual({ packs: 2, ranks: 13, columns: 12, rows: 3 });
    expect(d.columns).toEqual(full.columns);
  });
});
