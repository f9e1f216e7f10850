import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatCard, makeCard, type Card } from '../src/game/cards.js';
import { checkDealCards, formatDealFile, type Deal } from '../src/game/deal.js';
import { UserError } from '../src/game/errors.js';
import { FULL_SIZE } from '../src/game/rules.js';
import {
  MersenneTwister,
  MsRandom,
  PysolMtRandom,
  formatPysolBoard,
  parsePysolGame,
  pysolDeal,
  pysolOrderedDeck,
  pysolShuffle,
} from '../src/game/pysol.js';
import { formatSolvitaireDeal } from '../src/game/solvitaire.js';

const cols = (d: Deal): string => d.columns.map((c, k) => `${k + 1}: ${c.map(formatCard).join(' ')}`).join('  ');
const stock = (d: Deal): string => d.stock.map(formatCard).join(' ');
const row = (d: Deal, r: number): string => d.columns.map((c) => formatCard(c[r - 1]!)).join(' ');

describe('PySolFC Limited (#228) goldens', () => {
  it('game 1 (Microsoft generator), pinned in full', () => {
    const d = pysolDeal('1');
    expect(d.source).toBe('pysol 1');
    expect(d.size).toEqual(FULL_SIZE);
    expect(d.rules).toBeUndefined();
    expect(cols(d)).toBe(
      '1: 3D 6C AC  2: 5H 6H 7C  3: JC TC 2H  4: KH 8D AD  5: 5S 4C 9H  6: 5H JS 8S  ' +
        '7: KC QC 7D  8: KC 4H 9S  9: 8D KD 8H  10: JD 2H JH  11: AS TD 4D  12: 8C 8S 2D',
    );
    // stock[0] is the card PySolFC turns to the waste at the start; then the talon in draw order.
    expect(stock(d)).toBe(
      '6H TH 8C 2S 3S 9C 7D 4S 8H TH AH JC 4H 7H QS QC 7C 3S QH 9S 2S QH 3C AS 4S KS 6D TD 9C 9D JS 4D 5C 6C ' +
        'AD JH 6S 3C JD TC AH QS 2C 9H 3H 7S 5C 9D KS 5D TS QD 7S 6D TS KD QD 7H 3D 2C KH 5D 3H 2D 4C 5S 6S AC',
    );
    expect(pysolDeal(1)).toEqual(d);
    expect(pysolDeal('ms1')).toEqual({ ...d, source: 'pysol ms1' });
  });

  it('game 123456 (Mersenne Twister), pinned in full', () => {
    const d = pysolDeal('123456');
    expect(d.source).toBe('pysol 123456');
    expect(cols(d)).toBe(
      '1: 6H 3C KC  2: 4H KD JD  3: 4C 8H TC  4: 5S 6C 7D  5: AC 7H KH  6: AS TS 7C  ' +
        '7: 8C 8D 9C  8: AH QH 7C  9: QC 7H QD  10: 9S 6S 6H  11: 7D 3D 2C  12: TD 4D TS',
    );
    expect(stock(d)).toBe(
      'KS 4S QS 5C 2D 2S 9H 8S 6D JS AC 2C 2H 6C 4S 9C KC 2D TD QS 3C JD 5D 4C 5S JS 5C JC 5H 2H AS AH 8C 8D ' +
        'AD 9H 9S 3H 9D KS 7S TC QH KD JH 3S 4H 2S TH 3D 3H 3S 6S JC KH QC 8H 7S TH JH QD AD 4D 9D 5D 8S 6D 5H',
    );
    expect(formatDealFile(d)).toBe(
      [
        'deal: pysol 123456',
        'size: 2x13 12x3',
        'row 1: 6H 4H 4C 5S AC AS 8C AH QC 9S 7D TD',
        'row 2: 3C KD 8H 6C 7H TS 8D QH 7H 6S 3D 4D',
        'row 3: KC JD TC 7D KH 7C 9C 7C QD 6H 2C TS',
        'stock: KS 4S QS 5C 2D 2S 9H 8S 6D JS AC 2C 2H 6C 4S 9C KC',
        '       2D TD QS 3C JD 5D 4C 5S JS 5C JC 5H 2H AS AH 8C 8D',
        '       AD 9H 9S 3H 9D KS 7S TC QH KD JH 3S 4H 2S TH 3D 3H',
        '       3S 6S JC KH QC 8H 7S TH JH QD AD 4D 9D 5D 8S 6D 5H',
        '',
      ].join('\n'),
    );
  });

  // Reference rows from Python 3.11's random.Random with PySolFC's randint/shuffle/deal order.
  it.each([
    ['32000', 'KH 9H TD 6D 3D 9C TH JS JS 6C 3C KD', 'KC 4C 5C TS TC 2H 7H QC 4D AH AS 8D', 'KC AS 7D JH 5H'],
    ['9007199254740991', 'TC TS 7S 2S KD 9D 4C 2D 5H TS 5S TD', '9D 8C AH 6S TH KH 8C 5H 9S KS 2C KH', 'KS 8H 4D 4D 8D'],
    ['100000000000000000000', '2C 4C 8C 7S KS 5S AH 5H JS 6S QS 9S', 'AC QS 7H TS KC 2C QH JS KH JD TH 9C', '7C 4D AS JD 8S'],
    ['ms40000', 'AS 6C AC AH 5D JC 5D 2S 7D KD 3H 9H', 'KC 7H 2S TD 9S TC TS 9D 8C JC TC 3H', 'TH AD AC 2D 2H'],
    ['ms2147483648', '8D 9C TD 6C JS 3S 7S QC 6S 8D 4H KD', 'QH 4D 4H QD TC 9S KC 6S 5C TS 7D 9D', '8C AH 2S 3H KS'],
    ['ms8589934591', 'JH QS TH 7H TC QD 9C 4C KD 6D 3H KC', '4S 2H 8C 8S TC QH TH TS QH 7C AH 4S', '2C 2S 9S AD AH'],
  ])('game %s: rows 1 and 3, first stock cards', (n, row1, row3, stock5) => {
    const d = pysolDeal(n);
    expect(d.source).toBe(`pysol ${n}`);
    expect(row(d, 1)).toBe(row1);
    expect(row(d, 3)).toBe(row3);
    expect(stock(d).slice(0, 14)).toBe(stock5);
  });
});

describe('parsePysolGame', () => {
  it('picks the generator as construct_random does', () => {
    expect(parsePysolGame('1')).toEqual({ generator: 'ms', number: 1, label: '1' });
    expect(parsePysolGame('31999')).toEqual({ generator: 'ms', number: 31999, label: '31999' });
    expect(parsePysolGame('32000')).toEqual({ generator: 'mt', number: 32000n, label: '32000' });
    expect(parsePysolGame(' #000123456 ')).toEqual({ generator: 'mt', number: 123456n, label: '123456' });
    expect(parsePysolGame('ms40000')).toEqual({ generator: 'ms', number: 40000, label: 'ms40000' });
    expect(parsePysolGame('MS7')).toEqual({ generator: 'ms', number: 7, label: 'ms7' });
    expect(parsePysolGame('ms8589934591')).toEqual({ generator: 'ms', number: 8589934591, label: 'ms8589934591' });
    expect(parsePysolGame('100000000000000000000').number).toBe(10n ** 20n);
  });

  const message = (t: string) =>
    `PySolFC game number '${t}' is not valid: use 1 to 100000000000000000000 or ms1 to ms8589934591`;
  it.each(['0', '-5', 'abc', 'ms0', 'ms8589934592', '100000000000000000001', '', '1.5', 'ms-3', '12 34'])(
    'refuses %j with a UserError naming the accepted forms',
    (t) => {
      expect(() => parsePysolGame(t)).toThrow(UserError);
      expect(() => parsePysolGame(t)).toThrow(message(t));
      expect(() => pysolDeal(t)).toThrow(message(t));
    },
  );
  it('refuses numbers that are not whole', () => {
    expect(() => pysolDeal(0)).toThrow(UserError);
    expect(() => pysolDeal(-5)).toThrow(message('-5'));
    expect(() => pysolDeal(1.5)).toThrow(UserError);
    expect(() => pysolDeal(2 ** 60)).toThrow(UserError);
  });
});

describe('MT19937', () => {
  it('matches the reference init_genrand(5489) outputs', () => {
    const mt = MersenneTwister.fromSeed(5489);
    expect([1, 2, 3, 4, 5].map(() => mt.nextUint32())).toEqual([3499211612, 581869302, 3890346734, 3586334585, 545404204]);
  });

  // Values from Python 3.11: random.Random(n).getrandbits(32) x3 and random.Random(n).random() x2.
  it.each([
    [123456n, [3460142176, 3624162059, 3410457496], [0.8056271362589, 0.7940590105180981]],
    [32000n, [1598467916, 3084624151, 3613492840], [0.3721723162993418, 0.8413318621630471]],
    [2n ** 40n + 5n, [2166296868, 2220160828, 1153647273], [0.5043802970418443, 0.2686044399723282]],
    [10n ** 20n, [78147056, 1939873431, 2326779150], [0.018195028987988637, 0.5417454887047259]],
    [2n ** 64n, [4198958755, 3158798261, 1593907883], [0.9776462743838505, 0.3711105964481608]],
  ])('seeds like Python random.Random(%s)', (seed, words, doubles) => {
    const mt = MersenneTwister.fromPythonInt(seed);
    expect(words.map(() => mt.nextUint32())).toEqual(words);
    const r = new PysolMtRandom(seed);
    expect(doubles.map(() => r.random())).toEqual(doubles);
  });
});

describe('Microsoft generator (LCRandom31) on FreeCell deals', () => {
  // PySolFC's FreeCell deal: one pack in PySolFC order, rearranged by pysol_cards' ms_rearrange
  // (52 cards only), shuffled, reversed, dealt round 8 columns. Columns printed one a line.
  const msDeck = (): Card[] => {
    const deck = pysolOrderedDeck(1);
    const ms: Card[] = [];
    for (let i = 0; i < 13; i++) for (const j of [0, 39, 26, 13]) ms.push(deck[i + j]!);
    return ms;
  };
  const freecell = (seed: number): string => {
    const cards = pysolShuffle(msDeck(), new MsRandom(seed)).reverse();
    const columns: string[][] = [[], [], [], [], [], [], [], []];
    cards.forEach((c, i) => columns[i % 8]!.push(formatCard(c)));
    return columns.map((c) => c.join(' ')).join('\n') + '\n';
  };

  it('reproduces the classic Microsoft FreeCell deal #1', () => {
    const rows: string[][] = [];
    const cards = pysolShuffle(msDeck(), new MsRandom(1)).reverse();
    for (let i = 0; i < 52; i += 8) rows.push(cards.slice(i, i + 8).map(formatCard));
    expect(rows[0]!.join(' ')).toBe('JD 2D 9H JC 5D 7H 7C 5H');
    expect(rows[1]!.join(' ')).toBe('KD KC 9S 5S AD QC KH 3H');
    expect(rows[5]!.join(' ')).toBe('6D 8S 8D QS 6C 3D 8C TC');
    expect(rows[6]!.join(' ')).toBe('6S 9C 2H 6H');
  });

  // Boards from PySolFC's tests/lib/pysol_tests/test_ms_deals.py.
  it.each([
    [24, '4C 2C 9C 8C QS 4S 2H\n5H QH 3C AC 3H 4H QD\nQC 9S 6H 9H 3S KS 3D\n5D 2S JC 5C JH 6D AS\n2D KD TH TC TD 8D\n7H JS KH TS KC 7C\nAH 5S 6S AD 8H JD\n7S 6C 7D 4D 8S 9D\n'],
    [123456, 'QD TC AS KC AH KH 6H\n6D TD 8D TH 7C 2H 9C\nAC AD 5C 5H 8C 9H 9D\nJS 8S 4D 4C 2S 7D 3C\n7H 7S 9S 2C JC 5S\n5D 3S 3D 3H KD JH\n6C QS 4S 2D KS TS\nJD QH 6S 4H QC 8H\n'],
    [100001, '5S AH 4H TD 4S JD JS\n3C 8C 4C AC JC AS QS\n7C QH 2D QD 8S 9D AD\nKS 7S 5H 3H TS 3S 5D\n9S 7H KC TH 8D 6S\n5C KD 9H 2H 2S 6D\n9C JH 8H 3D 4D QC\nKH 6H 6C TC 2C 7D\n'],
    [3000000000, '8D TS JS TD JH JD JC\n4D QS TH AD 4S TC 3C\n9H KH QH 4C 5C KD AS\n9D 5D 8S 4H KS 6S 9S\n6H 2S 7H 3D KC 2C\n9C 7C QC 7S QD 7D\n6C 3H 8H AC 6D 3S\n8C AH 2H 5H 2D 5S\n'],
    [6000000000, '2D 2C QS 8D KD 8C 4C\n3D AH 2H 4H TS 6H QD\n4D JS AD 6S JH JC JD\nKH 3H KS AS TC 5D AC\nTD 7C 9C 7H 3C 3S\nQH 9H 9D 5S 7S 6C\n5C 5H 2S KC 9S 4S\n6D QC 8S TH 7D 8H\n'],
  ])('ms%s', (seed, board) => {
    expect(freecell(seed)).toBe(board);
  });
});

describe('every deal is a whole double pack', () => {
  it.each(['1', '2', '617', '31999', '32000', '123456', '9007199254740991', '100000000000000000000', 'ms40000', 'ms2147483647', 'ms4294967296'])(
    'game %s',
    (n) => {
      const d = pysolDeal(n);
      expect(d.columns).toHaveLength(12);
      for (const c of d.columns) expect(c).toHaveLength(3);
      expect(d.stock).toHaveLength(68);
      checkDealCards(d);
      const counts = new Map<Card, number>();
      for (const c of [...d.columns.flat(), ...d.stock]) counts.set(c, (counts.get(c) ?? 0) + 1);
      expect(counts.size).toBe(52);
      for (let s = 0; s < 4; s++) for (let r = 1; r <= 13; r++) expect(counts.get(makeCard(s, r))).toBe(2);
    },
  );
});

describe('formatPysolBoard', () => {
  it('prints Talon, Waste, then one line per column from the top card down', () => {
    const text = formatPysolBoard(pysolDeal('1'));
    const lines = text.split('\n');
    expect(lines).toHaveLength(15); // Talon, Waste, 12 columns, and the final newline
    expect(lines[0]).toBe(
      'Talon: TH 8C 2S 3S 9C 7D 4S 8H TH AH JC 4H 7H QS QC 7C 3S QH 9S 2S QH 3C AS 4S KS 6D TD 9C 9D JS 4D 5C 6C ' +
        'AD JH 6S 3C JD TC AH QS 2C 9H 3H 7S 5C 9D KS 5D TS QD 7S 6D TS KD QD 7H 3D 2C KH 5D 3H 2D 4C 5S 6S AC',
    );
    expect(lines.slice(1).join('\n')).toBe(
      [
        'Waste: 6H',
        '3D 6C AC',
        '5H 6H 7C',
        'JC TC 2H',
        'KH 8D AD',
        '5S 4C 9H',
        '5H JS 8S',
        'KC QC 7D',
        'KC 4H 9S',
        '8D KD 8H',
        'JD 2H JH',
        'AS TD 4D',
        '8C 8S 2D',
        '',
      ].join('\n'),
    );
  });
});

describe("PySolFC's own code: 124 Limited games dealt by pysol_cards (test/fixtures/pysol)", () => {
  // limited-goldens.txt was written by test/fixtures/pysol/deal_pysol.py, which deals with
  // PySolFC's random module itself (the pysol_cards package PySolFC imports), not a port of it:
  // Microsoft games 1-60 and ms1 .. ms8589934591, the switch to the Mersenne Twister at 32000,
  // 10^20 - 1 and 10^20, and random numbers of both kinds.
  const lines = readFileSync(new URL('./fixtures/pysol/limited-goldens.txt', import.meta.url), 'utf8').trim().split('\n');
  it('every game deals the same columns and stock', () => {
    expect(lines.length).toBe(124);
    const wrong: string[] = [];
    for (const line of lines) {
      const [game, r1, r2, r3, st] = line.split('|') as [string, string, string, string, string];
      const d = pysolDeal(game);
      const mine = [row(d, 1), row(d, 2), row(d, 3), stock(d)].join('|');
      if (mine !== [r1, r2, r3, st].join('|')) wrong.push(`${game}:\n  PySolFC ${[r1, r2, r3, st].join('|')}\n  ours    ${mine}`);
    }
    expect(wrong).toEqual([]);
    // Both generators and both kinds of game number are in the file.
    expect(lines.some((l) => l.startsWith('31999|')) && lines.some((l) => l.startsWith('32000|'))).toBe(true);
    expect(lines.filter((l) => l.startsWith('ms')).length).toBeGreaterThan(10);
  });
});

describe("Solvitaire's deal JSON (limited deal --format solvitaire)", () => {
  it('columns top row first, the stock with the first card drawn last, tens as 10', () => {
    const d = pysolDeal(1);
    const j = JSON.parse(formatSolvitaireDeal(d)) as { 'tableau piles': string[][]; stock: string[] };
    expect(Object.keys(j)).toEqual(['tableau piles', 'stock']);
    expect(j['tableau piles'][0]).toEqual(['3D', '6C', 'AC']); // column 1: rows 1, 2, 3 (exposed last)
    expect(j['tableau piles'][2]).toEqual(['JC', '10C', '2H']);
    expect(j.stock).toHaveLength(68);
    expect(j.stock[67]).toBe('6H'); // the first card drawn (PySolFC's first waste card)
    expect(j.stock[0]).toBe('AC'); // the last
    const back = (x: string): string => x.replace(/^10/, 'T');
    expect(j['tableau piles'].map((col) => col.map(back).join(' '))).toEqual(d.columns.map((col) => col.map(formatCard).join(' ')));
    expect(j.stock.map(back).reverse()).toEqual(d.stock.map(formatCard));
  });
});
