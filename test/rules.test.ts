/**
 * Every rule and every (reading) of RULES.md, each on a small hand-made deal that shows a move
 * allowed and a neighbouring move refused — checked both in the move list of
 * `generate(GEN_ALL)` and by the replay verifier with its exact reason.
 */
import { describe, expect, it } from 'vitest';
import { BOOK, Game, PYSOL, formatCard, parseRules } from '../src/game/index.js';
import { Pos, deal } from './helpers.js';

const ACE_FREE = (aces: string) => `an ace is free (${aces}): while one is, only free aces may move, to the foundations`;
const COVERING = (card: string) => `${card} is the covering card of a pair: it may go only to a foundation`;
const ON_PAIR = (col: string, top: string) => `${col} holds a pair (${top} on top): nothing may be placed on a pair`;
const FIFTH_BLOCKED = 'the fifth card may be turned only when no privileged card can move (to a foundation, a pair or a space)';
const NONE_BUILD = (col: string, card: string) => `building=none: no card may be placed on a non-empty column (${col} holds ${card})`;

/** The privileged row as card texts, p1 first. */
const privRow = (g: Game): string[] => Array.from({ length: g.privLen }, (_, i) => formatCard(g.privCard(i)));
const fifth = (g: Game): string => (g.fifthCard() ? formatCard(g.fifthCard()) : '-');
const draws = (cards: string): string[] => cards.split(' ').map((c) => `draw ${c}`);

/*
 * Deal P (2 packs A-4, 4 columns of 2): columns c1 [4H 4S], c2 [4S 3S], c3 [AH 2S], c4 [3H 3S]
 * (bottom card exposed). Two 3S and two 4S to show where a covering card could otherwise go.
 */
const P = deal('2x4 4x2', ['4H 4S AH 3H', '4S 3S 2S 3S'], 'AS 2S AS 2H 2H 3H 4H AH 2D 2D 3D 3D 4D 4D AD AD AC AC 2C 2C 3C 3C 4C 4C');

describe('rule 2: pairing', () => {
  const start = new Pos(P);
  const paired = start.then('c2>c1 3S'); // c1 = 4H 4S 3S (a pair), c2 = 4S

  it('a free card pairs onto an exposed card of its suit one rank higher, and only there', () => {
    start.expectOnly('c2>c1 3S', 'c3>c2 2S', 'c3>c4 2S', 'c4>c1 3S', 'draw AS');
    start.expectRefused('c2>c4 3S', '3S cannot be placed on 3S (same suit, one rank lower only)');
    start.expectRefused('c1>c2 4S', '4S cannot be placed on 3S (same suit, one rank lower only)');
    start.expectRefused('c2>c2 3S', 'a card cannot move onto its own column');
  });

  it('nothing may be placed on a pair', () => {
    paired.expectRefused('c3>c1 2S', ON_PAIR('c1', '3S'));
    paired.expectAllowed('c3>c4 2S'); // the same card onto a 3S that is not covering a pair
    paired.expectOnly('c3>c4 2S', 'c4>c2 3S', 'draw AS');
  });

  it('the covering card may not go to another column', () => {
    // c2 now shows 4S, which would take a plain 3S (the other 3S may go there)
    paired.expectRefused('c1>c2 3S', COVERING('3S'));
    paired.expectAllowed('c4>c2 3S');
  });

  it('the covering card may not go into a space, while an exposed card may', () => {
    const space = paired.then('c3>c4 2S', 'c3>f AH'); // c3 empty; c4 = 3H 3S 2S (a pair)
    expect(space.game().len[2]).toBe(0);
    space.expectRefused('c1>c3 3S', COVERING('3S'));
    space.expectRefused('c4>c3 2S', COVERING('2S'));
    space.expectOnly('c2>c3 4S', 'draw AS');
  });

  it('the covering card may go to a foundation', () => {
    const p = paired.then('c3>c4 2S', 'c3>f AH', 'draw AS', 'w>f AS');
    p.expectOnly('c2>c3 4S', 'c4>f 2S', 'draw 2S');
    // c1's covering 3S may not go up yet: the spades stand at 1
    p.expectRefused('c1>f 3S', '3S cannot go to a foundation (the ♠ foundations are at AS and empty)');
  });

  it('(reading) once the covering card has gone up, the card under it is ordinary: it may move, receive a new pair, go up', () => {
    const freed = paired.then('c3>c4 2S', 'c3>f AH', 'draw AS', 'w>f AS', 'c4>f 2S'); // c4 = 3H 3S, plain again
    // c4's 3S may go up, pair onto c2's 4S, fill the space c3; c1's 3S still covers a pair: foundation only
    freed.expectOnly('c1>f 3S', 'c2>c3 4S', 'c4>f 3S', 'c4>c2 3S', 'c4>c3 3S', 'draw 2S');
    freed.expectRefused('c1>c3 3S', COVERING('3S'));
    freed.expectRefused('c1>c2 3S', COVERING('3S'));
    const withTwo = freed.then('draw 2S');
    withTwo.expectAllowed('w>c4 2S'); // a new pair on the freed card
    withTwo.expectRefused('w>c1 2S', ON_PAIR('c1', '3S'));
    const repaired = withTwo.then('w>c4 2S');
    repaired.expectRefused('c4>c3 2S', COVERING('2S')); // and the new pair is a pair like any other
    repaired.expectRefused('c4>f 2S', '2S cannot go to a foundation (the ♠ foundations are at 2S and empty)');
  });

  it('pairing is never compulsory', () => {
    // pairs are possible, and drawing instead is legal
    start.expectAllowed('draw AS');
    paired.then('draw AS', 'w>f AS').expectAllowed('draw 2S');
  });
});

describe('rule 3: filling a space', () => {
  const space = new Pos(P).then('c2>c1 3S', 'c3>c4 2S', 'c3>f AH'); // c3 empty

  it('spaces are never filled automatically', () => {
    expect(space.game().len[2]).toBe(0);
    expect(space.then('draw AS', 'w>f AS', 'draw 2S').game().len[2]).toBe(0);
  });

  it('the exposed card of another column may fill it (not the covering card of a pair)', () => {
    space.expectAllowed('c2>c3 4S');
    space.expectRefused('c1>c3 3S', COVERING('3S'));
  });

  it('the waste top may fill it', () => {
    const p = space.then('draw AS', 'w>f AS', 'draw 2S');
    p.expectAllowed('w>c3 2S');
    // the card then is an ordinary one-card column: it may move again, to a foundation or another space
    const filled = p.then('w>c3 2S');
    const g = filled.game();
    expect(g.len[2]).toBe(1);
    expect(g.isPairTop(2)).toBe(false);
    filled.expectAllowed('c3>f 2S');
  });
});

describe('rule 4: the waste top is playable to all three destinations', () => {
  const p = new Pos(P).then('c2>c1 3S', 'c3>c4 2S', 'c3>f AH'); // c3 empty, c4 = 3H 3S 2S

  it('to a foundation (an ace, then a two)', () => {
    const a = p.then('draw AS');
    a.expectAllowed('w>f AS');
    const two = a.then('w>f AS', 'draw 2S');
    two.expectAllowed('w>f 2S', 'w>c3 2S');
  });

  it('as a pair, and into a space; refused onto a pair and to a foundation not ready', () => {
    const q = p.then('draw AS', 'w>f AS', 'c4>f 2S', 'draw 2S'); // spades at 2 and 0, c4 = 3H 3S plain
    q.expectAllowed('w>c4 2S', 'w>c3 2S');
    q.expectRefused('w>f 2S', '2S cannot go to a foundation (the ♠ foundations are at 2S and empty)');
    q.expectRefused('w>c1 2S', ON_PAIR('c1', '3S'));
  });

  it('a card turned covers the waste: only the top is playable', () => {
    const q = p.then('draw AS', 'w>f AS', 'draw 2S', 'draw AS', 'w>f AS', 'draw 2H');
    // 2S is under 2H now: w>f moves 2H, and naming 2S is an error
    expect(q.verdict('w>c3 2S')).toBe("invalid: move 10 (line 10) 'w>c3 2S': the move moves 2H, not 2S");
    q.expectAllowed('w>c3 2H');
  });
});

/*
 * Deal C (1 pack A-5): c1 [2S 3S AS], c2 [2H 3H AH], c3 [2D AD 4C], c4 [3C 2C 5C], stock AC first.
 */
const C = deal('1x5 4x3', ['2S 2H 2D 3C', '3S 3H AD 2C', 'AS AH 4C 5C'], 'AC 3D 4S 5S 4H 5H 4D 5D');

describe('rule 1: compulsory aces (reading: while an ace is free only free-ace moves)', () => {
  const start = new Pos(C);

  it('while an ace is exposed, the only legal moves are free aces to the foundations', () => {
    start.expectOnly('c1>f AS', 'c2>f AH');
    start.expectRefused('c3>c4 4C', ACE_FREE('c1 AS, c2 AH'));
    start.expectRefused('draw AC', ACE_FREE('c1 AS, c2 AH'));
  });

  it('free aces go up in any order', () => {
    start.then('c2>f AH').expectOnly('c1>f AS');
    start.then('c1>f AS').expectOnly('c2>f AH');
  });

  it('aces higher in a column wait until the cards below them are gone', () => {
    const up = start.then('c1>f AS', 'c2>f AH');
    up.expectOnly('c3>c4 4C', 'draw AC');
    expect(up.legal().some((m) => m.endsWith(' AD'))).toBe(false);
    up.expectRefused('c3>f 4C', '4C cannot go to a foundation (the ♣ foundation is empty)');
    const exposed = up.then('c3>c4 4C'); // AD is exposed now: it must go up first
    exposed.expectOnly('c3>f AD');
    exposed.expectRefused('draw AC', ACE_FREE('c3 AD'));
  });

  it('an ace from the stock must go up before the next draw', () => {
    const p = start.then('c1>f AS', 'c2>f AH', 'c3>c4 4C', 'c3>f AD');
    p.expectOnly('c3>f 2D', 'draw AC');
    const drawn = p.then('draw AC');
    drawn.expectOnly('w>f AC');
    drawn.expectRefused('draw 3D', ACE_FREE('w AC'));
    drawn.expectRefused('c3>f 2D', ACE_FREE('w AC'));
    drawn.then('w>f AC').expectAllowed('draw 3D', 'c3>f 2D');
  });

  it('aces are compulsory under the other rule sets too (rule 1 is phase 1 of every variant)', () => {
    for (const rules of ['pysol', 'building=none', 'second-deal=none', 'privileged=1']) {
      const s = new Pos(C, rules);
      s.expectOnly('c1>f AS', 'c2>f AH');
      s.expectRefused('draw AC', ACE_FREE('c1 AS, c2 AH'));
    }
  });
});

/*
 * Deal R (1 pack A-5): the aces and twos are buried in rows 1-2, the fives exposed; the stock
 * holds the threes and fours, which pair onto the fives. RA plays its first drawn card; RB not.
 */
const R_ROWS = ['AS AH AD AC', '2S 2H 2D 2C', '5S 5H 5D 5C'];
const RA = deal('1x5 4x3', R_ROWS, '4S 3S 3H 4H 3D 4D 3C 4C');
const RB = deal('1x5 4x3', R_ROWS, '3S 4S 3H 4H 3D 4D 3C 4C');

describe('rule 5: the redeal', () => {
  const emptied = new Pos(RA).then('draw 4S', 'w>c1 4S', ...draws('3S 3H 4H 3D 4D 3C 4C'));

  it('is refused while the stock is not empty', () => {
    new Pos(RA).expectRefused('redeal', 'the stock is not empty (8 cards left)');
    new Pos(RA).then('draw 4S', 'w>c1 4S', ...draws('3S 3H 4H 3D 4D')).expectRefused('redeal', 'the stock is not empty (2 cards left)');
  });

  it('is allowed once the stock is empty and the waste is not; drawing is then over', () => {
    emptied.expectOnly('w>c4 4C', 'redeal');
    emptied.expectRefused('draw 4C', 'the stock is empty');
  });

  it('turns the waste over as it lies: p1 is the first card discarded that is still in the waste', () => {
    const g = emptied.then('redeal').game();
    expect(g.phase).toBe(2);
    // 4S was drawn first but went onto c1; 3S is the first discarded card still in the waste
    expect(privRow(g)).toEqual(['3S', '3H', '4H', '3D']);
    expect(fifth(g)).toBe('4D');
    // the rest of the pile in order, as the row refills
    const after = emptied.then('redeal', 'p3>c2 4H');
    expect(privRow(after.game())).toEqual(['3S', '3H', '3D', '4D']);
    expect(fifth(after.game())).toBe('3C');
    const after2 = after.then('p4>c3 4D');
    expect(privRow(after2.game())).toEqual(['3S', '3H', '3D', '3C']);
    expect(fifth(after2.game())).toBe('4C');
  });

  it('is refused when the waste is empty (every drawn card was played)', () => {
    // 1 pack A-4: the stock is the four threes, each pairs onto an exposed four
    const W = deal('1x4 4x3', ['AS AH AD AC', '2S 2H 2D 2C', '4S 4H 4D 4C'], '3S 3H 3D 3C');
    const before = new Pos(W).then('draw 3S', 'w>c1 3S', 'draw 3H', 'w>c2 3H', 'draw 3D', 'w>c3 3D', 'draw 3C');
    before.expectOnly('w>c4 3C', 'redeal');
    const empty = before.then('w>c4 3C');
    empty.expectRefused('redeal', 'the waste is empty');
    expect(empty.legal()).toEqual([]); // and nothing else moves: a dead end
    // the neighbouring redeal with one card in the waste gives a row of one privileged card
    const one = before.then('redeal');
    const g = one.game();
    expect(privRow(g)).toEqual(['3C']);
    expect(fifth(g)).toBe('-');
    one.expectOnly('p1>c4 3C');
    one.expectRefused('p2>c4 3C', 'there is no privileged card p2 (1 left)');
    one.expectRefused('n>f 3C', 'the pile is exhausted: there is no fifth card');
  });

  it('is refused under second-deal=none, where the waste top stays playable and the game ends when nothing moves', () => {
    const W = deal('1x4 4x3', ['AS AH AD AC', '2S 2H 2D 2C', '4S 4H 4D 4C'], '3S 3H 3D 3C');
    const p = new Pos(W, 'second-deal=none').then('draw 3S', 'w>c1 3S', 'draw 3H', 'draw 3D', 'draw 3C');
    p.expectOnly('w>c4 3C');
    p.expectRefused('redeal', 'there is no second deal under second-deal=none');
    const q = p.then('w>c4 3C', 'w>c3 3D', 'w>c2 3H'); // the waste stays playable after the stock
    expect(q.legal()).toEqual([]);
    expect(q.verdict()).toBe('invalid: the solution stops after 8 moves with 0 of 16 cards home');
    // with deal RA: nothing moves at the end of the stock but the waste top; no redeal
    const r = new Pos(RA, 'second-deal=none').then(...draws('4S 3S 3H 4H 3D 4D 3C 4C'));
    r.expectOnly('w>c4 4C');
    const over = r.then('w>c4 4C');
    expect(over.legal()).toEqual([]);
    over.expectRefused('redeal', 'there is no second deal under second-deal=none');
    over.expectRefused('w>f 3C', '3C cannot go to a foundation (the ♣ foundation is empty)');
  });

  it('phase-1 sources and moves are gone after the redeal; phase-2 ones do not exist before it', () => {
    const p2 = emptied.then('redeal');
    p2.expectRefused('draw', 'there is no drawing in the second deal');
    p2.expectRefused('w>f', 'there is no waste in the second deal');
    p2.expectRefused('redeal', 'the second deal has begun already');
    const p1 = new Pos(RA).then('draw 4S');
    p1.expectRefused('p1>c1 4S', 'there are no privileged cards before the redeal');
    p1.expectRefused('n>c1 4S', 'there is no fifth card before the redeal');
  });
});

describe('rule 6: the privileged cards', () => {
  const redealt = new Pos(RB).then(...draws('3S 4S 3H 4H 3D 4D 3C 4C'), 'redeal');

  it('are the first four cards of the pile, numbered p1-p4 in the order they came off it', () => {
    const g = redealt.game();
    expect(privRow(g)).toEqual(['3S', '4S', '3H', '4H']);
    expect(fifth(g)).toBe('3D');
    redealt.expectOnly('p2>c1 4S', 'p4>c2 4H');
    redealt.expectRefused('p1>c1 3S', '3S cannot be placed on 5S (same suit, one rank lower only)');
  });

  it('after p2 is played, p3 becomes p2, p4 becomes p3 and the next pile card becomes p4', () => {
    const after = redealt.then('p2>c1 4S');
    const g = after.game();
    expect(privRow(g)).toEqual(['3S', '3H', '4H', '3D']);
    expect(fifth(g)).toBe('4D');
    after.expectOnly('p3>c2 4H'); // the old p4
    after.expectRefused('p4>c2 4H', '3D cannot be placed on 5H (same suit, one rank lower only)');
    after.expectRefused('p1>c1 3S', ON_PAIR('c1', '4S'));
  });

  it('the row holds four cards while the pile lasts, then shrinks', () => {
    const a = redealt.then('p2>c1 4S', 'p3>c2 4H', 'p4>c3 4D');
    expect(privRow(a.game())).toEqual(['3S', '3H', '3D', '3C']);
    expect(fifth(a.game())).toBe('4C');
    const b = a.then('n>c4 4C'); // the pile is now exhausted
    expect(b.game().privLen).toBe(4);
    expect(fifth(b.game())).toBe('-');
  });
});

/*
 * Deal F (1 pack A-5): c1 [3S 2S AS] empties to the foundation, leaving a space; c2 [AH 2H 5S],
 * c3 [AD 2D 5H], c4 [AC 2C 5D]. After the redeal: p1-p4 = 3C 4C 5C 3H (no foundation, no pair:
 * a space is their only place), pile 4S 4H 3D 4D.
 */
const F = deal('1x5 4x3', ['3S AH AD AC', '2S 2H 2D 2C', 'AS 5S 5H 5D'], '3C 4C 5C 3H 4S 4H 3D 4D');

describe('rule 6 with spaces and rule 7: the fifth card', () => {
  const redealt = new Pos(F).then('c1>f AS', 'c1>f 2S', 'c1>f 3S', ...draws('3C 4C 5C 3H 4S 4H 3D 4D'), 'redeal');

  it('a privileged card may fill a space; the fifth card is refused while one can (even when a space is its only place)', () => {
    const g = redealt.game();
    expect(privRow(g)).toEqual(['3C', '4C', '5C', '3H']);
    expect(fifth(g)).toBe('4S');
    redealt.expectOnly('c2>c1 5S', 'c3>c1 5H', 'c4>c1 5D', 'p1>c1 3C', 'p2>c1 4C', 'p3>c1 5C', 'p4>c1 3H');
    redealt.expectRefused('n>f 4S', FIFTH_BLOCKED);
    redealt.expectRefused('n>c2 4S', FIFTH_BLOCKED);
    expect(g.blindTurn()).toBe('none');
  });

  it('a privileged card goes to a foundation or pairs onto an exposed card', () => {
    const p = redealt.then('p3>c1 5C'); // refill: 4S comes off the pile as p4
    expect(privRow(p.game())).toEqual(['3C', '4C', '3H', '4S']);
    p.expectAllowed('p2>c1 4C', 'p4>f 4S');
    p.expectRefused('p1>f 3C', '3C cannot go to a foundation (the ♣ foundation is empty)');
    p.expectRefused('n>f 4H', FIFTH_BLOCKED);
  });

  it('with no space and no privileged move the fifth card plays to a foundation or as a pair, the player\'s choice', () => {
    const p = redealt.then('c3>c1 5H'); // the space is filled from a column; c3 shows 2D
    const g = p.game();
    expect(g.blindTurn()).toBe('play');
    p.expectOnly('n>f 4S', 'n>c2 4S');
    const up = p.then('n>f 4S'); // the next card of the pile is the new fifth card
    expect(fifth(up.game())).toBe('4H');
    expect(privRow(up.game())).toEqual(['3C', '4C', '5C', '3H']); // the row is untouched
    up.expectOnly('c2>f 5S', 'n>c1 4H'); // pairs onto the 5H that filled the space
    expect(up.game().blindTurn()).toBe('play');
  });

  it('an unplayable fifth card loses (blind turn), and is no move for a player who sees it', () => {
    const p = redealt.then('c3>c1 5H', 'n>f 4S', 'n>c1 4H');
    const g = p.game();
    expect(fifth(g)).toBe('3D');
    expect(g.blindTurn()).toBe('lose');
    p.expectOnly('c2>f 5S');
    p.expectRefused('n>f 3D', '3D cannot go to a foundation (the ♦ foundation is empty)');
    p.expectRefused('n>c4 3D', '3D cannot be placed on 5D (same suit, one rank lower only)');
    // and once the only move is made the game is lost: nothing moves
    expect(p.then('c2>f 5S').legal()).toEqual([]);
  });

  it('(reading) the fifth card is reached only while no column is empty', () => {
    // at every position of this deal's phase 2 with a space, no n> move is listed
    const g = redealt.game();
    expect(g.firstSpace()).toBe(0);
    expect(redealt.legal().some((m) => m.startsWith('n>'))).toBe(false);
  });

  it('blind turn: none in phase 1, none while a privileged card can move, none when the pile is out', () => {
    expect(new Pos(F).game().blindTurn()).toBe('none');
    const rb = new Pos(RB).then(...draws('3S 4S 3H 4H 3D 4D 3C 4C'), 'redeal');
    expect(rb.game().blindTurn()).toBe('none'); // p2 and p4 can pair
    const out = rb.then('p2>c1 4S', 'p3>c2 4H', 'p4>c3 4D');
    expect(out.game().blindTurn()).toBe('play'); // 4C onto 5C
    out.expectOnly('n>c4 4C');
    const done = out.then('n>c4 4C');
    expect(done.game().blindTurn()).toBe('none');
    expect(done.legal()).toEqual([]); // dead end: generate returns 0
    expect(done.game().isWon()).toBe(false);
    expect(done.verdict()).toBe('invalid: the solution stops after 13 moves with 0 of 20 cards home');
  });
});

describe('privileged=N: the size of the row', () => {
  const drawn = draws('3S 4S 3H 4H 3D 4D 3C 4C');

  it('privileged=1', () => {
    const p = new Pos(RB, 'privileged=1').then(...drawn, 'redeal');
    const g = p.game();
    expect(privRow(g)).toEqual(['3S']);
    expect(fifth(g)).toBe('4S');
    expect(g.blindTurn()).toBe('play');
    p.expectOnly('n>c1 4S'); // p1 (3S) has no place, so the fifth card may be turned
    p.expectRefused('p2>c1 4S', 'there is no privileged card p2 (p1 to p1)');
    const q = p.then('n>c1 4S');
    expect(fifth(q.game())).toBe('3H');
    expect(q.game().blindTurn()).toBe('lose');
    expect(q.legal()).toEqual([]);
  });

  it('privileged=2', () => {
    const p = new Pos(RB, 'privileged=2').then(...drawn, 'redeal');
    expect(privRow(p.game())).toEqual(['3S', '4S']);
    expect(fifth(p.game())).toBe('3H');
    p.expectOnly('p2>c1 4S');
    p.expectRefused('n>c1 3H', FIFTH_BLOCKED);
    p.expectRefused('p3>c1 3H', 'there is no privileged card p3 (p1 to p2)');
    const q = p.then('p2>c1 4S');
    expect(privRow(q.game())).toEqual(['3S', '3H']);
    q.expectOnly('n>c2 4H');
  });

  it('privileged=8 takes the whole pile', () => {
    const p = new Pos(RB, 'privileged=8').then(...drawn, 'redeal');
    expect(privRow(p.game())).toEqual(['3S', '4S', '3H', '4H', '3D', '4D', '3C', '4C']);
    expect(fifth(p.game())).toBe('-');
    p.expectOnly('p2>c1 4S', 'p4>c2 4H', 'p6>c3 4D', 'p8>c4 4C');
  });
});

/*
 * Deal N (1 pack A-5): c1 [3S 2S AS] empties to the foundation; c2 [AH 2H 4S], c3 [AD 2D 5S],
 * c4 [AC 2C 4H].
 */
const N = deal('1x5 4x3', ['3S AH AD AC', '2S 2H 2D 2C', 'AS 4S 5S 4H'], '5H 3H 3D 4D 5D 3C 4C 5C');

describe('building=none', () => {
  it('no card may be placed on a non-empty column (pairs allow it)', () => {
    const none = new Pos(N, 'building=none').then('c1>f AS');
    none.expectOnly('c1>f 2S', 'draw 5H');
    none.expectRefused('c2>c3 4S', NONE_BUILD('c3', '5S'));
    new Pos(N).then('c1>f AS').expectOnly('c1>f 2S', 'c2>c3 4S', 'draw 5H');
  });

  it('spaces are still filled, from a column or the waste; the card filled is not built on', () => {
    const space = new Pos(N, 'building=none').then('c1>f AS', 'c1>f 2S', 'c1>f 3S');
    space.expectOnly('c2>f 4S', 'c2>c1 4S', 'c3>c1 5S', 'c4>c1 4H', 'draw 5H');
    const w = space.then('draw 5H');
    w.expectAllowed('w>c1 5H');
    const filled = w.then('w>c1 5H');
    filled.expectRefused('c4>c1 4H', NONE_BUILD('c1', '5H'));
    const three = filled.then('draw 3H');
    three.expectRefused('w>c4 3H', NONE_BUILD('c4', '4H'));
    // the same positions under book rules allow both
    const book = new Pos(N).then('c1>f AS', 'c1>f 2S', 'c1>f 3S', 'draw 5H', 'w>c1 5H');
    book.expectAllowed('c4>c1 4H');
    book.then('draw 3H').expectAllowed('w>c4 3H');
  });
});

/*
 * Deal S (1 pack A-5): c1 [2S AS 5S], c2 [2H AH 4S], c3 [2D AD 3S], c4 [3C 2C AC].
 * After c4 goes up and c2 moves away, c1 = 5S 4S, c2 and c4 are spaces.
 */
const S = deal('1x5 4x3', ['2S 2H 2D 3C', 'AS AH AD 2C', '5S 4S 3S AC'], '4H 5H 3H 4D 5D 3D 4C 5C');
const S_PREFIX = ['c4>f AC', 'c4>f 2C', 'c4>f 3C', 'c2>c1 4S', 'c2>f AH', 'c2>f 2H'];

describe('building=suit (Forty Thieves, and the pysol preset)', () => {
  const suit = new Pos(S, 'building=suit').then(...S_PREFIX);
  const pairs = new Pos(S, 'book').then(...S_PREFIX);

  it('pysol is building=suit second-deal=none', () => {
    expect(PYSOL).toEqual(parseRules('building=suit second-deal=none privileged=4'));
    expect(BOOK).toEqual(parseRules('building=pairs second-deal=privileged privileged=4'));
  });

  it('a card may be built onto a built column (refused on a pair)', () => {
    suit.expectAllowed('c3>c1 3S');
    pairs.expectRefused('c3>c1 3S', ON_PAIR('c1', '4S'));
    new Pos(S, 'pysol').then(...S_PREFIX).expectAllowed('c3>c1 3S');
  });

  it('the top card of a built column may move to another column or a space (refused for a covering card)', () => {
    suit.expectOnly('c1>c2 4S', 'c1>c4 4S', 'c3>c1 3S', 'c3>c2 3S', 'c3>c4 3S', 'draw 4H');
    pairs.expectRefused('c1>c2 4S', COVERING('4S'));
    const built = suit.then('c3>c1 3S', 'c3>f AD'); // c1 = 2S AS 5S 4S 3S
    built.expectAllowed('c1>c2 3S', 'c1>c4 3S');
    const moved = built.then('c1>c2 3S');
    moved.expectAllowed('c1>c4 4S', 'c2>c1 3S'); // and back again
  });

  it('building is down in suit only', () => {
    const p = suit.then('draw 4H', 'w>c2 4H');
    p.expectRefused('c3>c2 3S', '3S cannot be placed on 4H (same suit, one rank lower only)');
    p.expectRefused('c1>c2 4S', '4S cannot be placed on 4H (same suit, one rank lower only)');
    p.expectAllowed('c3>c1 3S');
  });
});

/*
 * Deal Win (1 pack A-5): everything goes up in order.
 */
const WIN = deal('1x5 4x3', ['3S 3H 3D 3C', '2S 2H 2D 2C', 'AS AH AD AC'], '4S 4H 4D 4C 5S 5H 5D 5C');
const WIN_MOVES = [
  'c1>f AS', 'c2>f AH', 'c3>f AD', 'c4>f AC',
  'c1>f 2S', 'c1>f 3S', 'c2>f 2H', 'c2>f 3H', 'c3>f 2D', 'c3>f 3D', 'c4>f 2C', 'c4>f 3C',
  'draw 4S', 'w>f 4S', 'draw 4H', 'w>f 4H', 'draw 4D', 'w>f 4D', 'draw 4C', 'w>f 4C',
  'draw 5S', 'w>f 5S', 'draw 5H', 'w>f 5H', 'draw 5D', 'w>f 5D', 'draw 5C', 'w>f 5C',
];

describe('the end: won and lost', () => {
  it('all cards on the foundations is a win; the verifier says so', () => {
    const p = new Pos(WIN);
    p.expectOnly('c1>f AS', 'c2>f AH', 'c3>f AD', 'c4>f AC');
    const won = p.then(...WIN_MOVES);
    const g = won.game();
    expect(g.isWon()).toBe(true);
    expect(g.home).toBe(20);
    expect(won.legal()).toEqual([]);
    expect(won.verdict()).toBe('valid: won in 28 moves');
    const almost = p.then(...WIN_MOVES.slice(0, -1));
    expect(almost.game().isWon()).toBe(false);
    expect(almost.verdict()).toBe('invalid: the solution stops after 27 moves with 19 of 20 cards home');
  });

  it('a solution may carry comments, blank lines and moves without their cards', () => {
    const text = ['# a comment', '', ...WIN_MOVES.map((m, i) => (i % 3 === 0 ? m.split(' ')[0]! : `${m}  # move ${i + 1}`))].join('\n');
    const r = new Pos(WIN).verdict(text);
    expect(r).toBe('valid: won in 28 moves');
  });

  it('a move naming the wrong card is refused', () => {
    const p = new Pos(WIN);
    expect(p.verdict('c1>f 2S')).toBe("invalid: move 1 (line 1) 'c1>f 2S': the move moves AS, not 2S");
    const q = p.then(...WIN_MOVES.slice(0, 12));
    expect(q.verdict('draw 5C')).toBe("invalid: move 13 (line 13) 'draw 5C': the card turned is 4S, not 5C");
    expect(q.verdict('c1>f')).toBe("invalid: move 13 (line 13) 'c1>f': column c1 is empty");
    expect(q.verdict('c13>f')).toBe("invalid: move 13 (line 13) 'c13>f': there is no column c13 (columns c1 to c4)");
    expect(q.verdict('draw 6S')).toBe("invalid: move 13 (line 13) 'draw 6S': '6S' is not a card");
    expect(q.verdict('w>w')).toBe("invalid: move 13 (line 13) 'w>w': 'w' is not a destination (f, c1..c4)");
    expect(q.verdict('redeal 5S')).toBe("invalid: move 13 (line 13) 'redeal 5S': 'redeal' moves no card");
  });

  it('a bad move is named by its number and by its line, which comments and blank lines push down', () => {
    // Five comment lines and a blank one, then the first move: line 7.
    const head = ['# deal', '# rules', '# size', '# found by', '# check with', ''];
    const p = new Pos(WIN);
    expect(p.verdict([...head, 'c1>f 2S'].join('\n'))).toBe("invalid: move 1 (line 7) 'c1>f 2S': the move moves AS, not 2S");
    // Moves with comments and blank lines among them, then a bad one: move 13, line 25. Moves
    // that cannot be read are counted as moves and named by their line too.
    const body = WIN_MOVES.slice(0, 12).flatMap((m, i) => (i % 2 === 0 ? [m] : ['', `${m}  # move ${i + 1}`]));
    for (const [bad, verdict] of [
      ['c1>f', "'c1>f': column c1 is empty"],
      ['foo', "'foo': 'foo' is not a move (draw, redeal, or SRC>DST such as c3>f)"],
      ['draw ZZ', "'draw ZZ': 'ZZ' is not a card"],
      ['c13>f', "'c13>f': there is no column c13 (columns c1 to c4)"],
      ['draw 4S extra', "'draw 4S extra': 'draw 4S extra' has more than a move and a card"],
      ['c1 > f', "'c1 > f': 'c1 > f' has more than a move and a card"],
    ] as const) {
      expect(p.verdict([...head, ...body, `  ${bad}  # the bad one`].join('\n')), bad).toBe(`invalid: move 13 (line 25) ${verdict}`);
    }
  });

  it('a dead end: generate returns 0 and the game is not won', () => {
    const W = deal('1x4 4x3', ['AS AH AD AC', '2S 2H 2D 2C', '4S 4H 4D 4C'], '3S 3H 3D 3C');
    const dead = new Pos(W).then('draw 3S', 'w>c1 3S', 'draw 3H', 'w>c2 3H', 'draw 3D', 'w>c3 3D', 'draw 3C', 'w>c4 3C');
    const g = dead.game();
    expect(g.generate(new Int32Array(512))).toBe(0);
    expect(g.isWon()).toBe(false);
  });
});
