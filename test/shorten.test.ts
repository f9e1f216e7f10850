// Shortening winning lines (src/game/shorten.ts): every line it returns still wins, it cuts the
// detours and round trips put into a winning line, and it leaves other rules' lines alone.
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import {
  type Deal, type PackedMove, type Rules, BOOK, DST_FOUNDATION, GEN_ALL, Game, MAX_MOVES, PYSOL, SRC_WASTE,
  dealFromNumber, parseRules, parseSize, pysolDeal, shortenLine, verifyMoves, withoutDetours, withoutRoundTrips,
} from '../src/game/index.js';
import { Solver } from '../src/solver/index.js';

const SUIT = parseRules('building=suit second-deal=none');

/** A won line of a small building=suit deal (the solver's, already shortened). */
function wonLines(count: number): { deal: Deal; rules: Rules; line: PackedMove[] }[] {
  const solver = new Solver();
  const size = parseSize('1x6 5x3');
  const out: { deal: Deal; rules: Rules; line: PackedMove[] }[] = [];
  for (let n = 1; out.length < count; n++) {
    const deal = dealFromNumber(n, size);
    const r = solver.solvePreset(deal, SUIT, 'portfolio', { maxNodes: 50_000 });
    if (r.verdict === 'won') out.push({ deal, rules: SUIT, line: [...r.moves!] });
  }
  return out;
}

/**
 * The line with a detour put in after move k: a card at a column's top moved to another column
 * (any legal such move), and that copy's next move made from there. Null when there is no such
 * move or the line no longer wins.
 */
function withDetour(deal: Deal, rules: Rules, line: readonly PackedMove[], k: number, rng: () => number): PackedMove[] | null {
  const g = new Game(deal, rules);
  for (let i = 0; i < k; i++) g.apply(line[i]!);
  const buf = new Int32Array(MAX_MOVES);
  const n = g.generate(buf, GEN_ALL);
  const side: number[] = [];
  for (let i = 0; i < n; i++) {
    const m = buf[i]!;
    // From a column or the waste top to a column (a detour the cut takes back either way).
    if ((m & 63) <= SRC_WASTE && ((m >> 6) & 63) !== DST_FOUNDATION) side.push(m);
  }
  if (side.length === 0) return null;
  const d = side[Math.floor(rng() * side.length)]!;
  const a = d & 63;
  const b = (d >> 6) & 63;
  const card = d >>> 12;
  const out = line.slice(0, k);
  out.push(d);
  let moved = false;
  for (let i = k; i < line.length; i++) {
    const m = line[i]!;
    if (!moved && m >>> 12 === card && (m & 63) === a) {
      moved = true;
      // From b now; if it went to b, the detour's move did that already.
      if (((m >> 6) & 63) !== b) out.push((m & ~63) | b);
    } else out.push(m);
  }
  return verifyMoves(deal, rules, out).won ? out : null;
}

describe('shortening winning lines', () => {
  const lines = wonLines(40);

  it('cuts a detour put into a won line, and every line it returns wins', () => {
    const rng = seedrandom('shorten');
    let tried = 0;
    let fromWaste = 0;
    for (const { deal, rules, line } of lines) {
      for (let t = 0; t < 5; t++) {
        const k = Math.floor(rng() * line.length);
        const longer = withDetour(deal, rules, line, k, rng);
        if (!longer || longer.length === line.length) continue; // no detour: the card only went earlier
        tried++;
        if ((longer[k]! & 63) === SRC_WASTE) fromWaste++;
        const short = shortenLine(deal, rules, longer);
        expect(verifyMoves(deal, rules, short).won).toBe(true);
        // The detour's extra move is gone (the solver's line has none of its own left to cut).
        expect(short.length).toBeLessThanOrEqual(line.length);
        expect(short.length).toBeLessThan(longer.length);
      }
    }
    expect(tried).toBeGreaterThan(50);
    expect(fromWaste).toBeGreaterThan(5);
  });

  it('cuts a round trip back to the same position', () => {
    const rng = seedrandom('trip');
    let tried = 0;
    for (const { deal, rules, line } of lines) {
      // A card taken to another column and straight back: the same position, two moves later.
      const g = new Game(deal, rules);
      const k = Math.floor(rng() * line.length);
      for (let i = 0; i < k; i++) g.apply(line[i]!);
      const buf = new Int32Array(MAX_MOVES);
      const n = g.generate(buf, GEN_ALL);
      for (let i = 0; i < n; i++) {
        const m = buf[i]!;
        const a = m & 63;
        const b = (m >> 6) & 63;
        // (Under building=suit a dealt card taken away and put back is the same position.)
        if (a >= SRC_WASTE || b === DST_FOUNDATION) continue;
        g.apply(m);
        const back = (m & ~(63 << 6) & ~63) | b | (a << 6);
        const legal = new Int32Array(MAX_MOVES);
        const l = g.generate(legal, GEN_ALL);
        g.undo();
        if (!legal.subarray(0, l).includes(back)) continue;
        const longer = [...line.slice(0, k), m, back, ...line.slice(k)];
        expect(verifyMoves(deal, rules, longer).won).toBe(true);
        expect(withoutRoundTrips(deal, rules, longer)).toEqual(line);
        tried++;
        break;
      }
    }
    expect(tried).toBeGreaterThan(10);
  });

  it('leaves a line with nothing to cut as it is', () => {
    for (const { deal, rules, line } of lines.slice(0, 10)) {
      expect(withoutDetours(deal, rules, line)).toEqual(line);
      expect(shortenLine(deal, rules, line)).toEqual(line);
    }
  });

  it('does not touch lines under pairs (book)', () => {
    const deal = dealFromNumber(1);
    const r = new Solver().solvePreset(deal, BOOK, 'portfolio', { maxNodes: 200_000 });
    expect(r.verdict).toBe('won');
    expect(shortenLine(deal, BOOK, r.moves!)).toEqual(r.moves);
  });

  it('PySolFC game 123456: the line the solver prints is already short (an audit once found 340 moves, 9S to and fro seven times)', () => {
    const deal = pysolDeal(123456);
    const r = new Solver().solvePreset(deal, PYSOL, 'portfolio', { maxNodes: 1_000_000 });
    expect(r.verdict).toBe('won');
    // Its length is pinned in test/signature.test.ts.
    expect(r.moves!.length).toBeLessThan(340);
    expect(shortenLine(deal, PYSOL, r.moves!)).toEqual(r.moves);
    expect(verifyMoves(deal, PYSOL, r.moves!).won).toBe(true);
  });
});
