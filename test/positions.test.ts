/**
 * Solving from the middle of a game (`from`: moves from the deal): the solver's verdict on the
 * position those moves reach must be the exhaustive reference search's from that position, and a
 * win's moves must go on from there (the verifier replays the moves given and them to a win).
 */
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { type PackedMove, GEN_ALL, Game, MAX_MOVES, dealFromNumber, parseRules, parseSize, verifyMoves } from '../src/game/index.js';
import { Solver } from '../src/solver/index.js';
import { RULE_VARIANTS } from './helpers.js';
import { referenceSearch } from './reference.js';

/** Moves of a random line from the deal, at most `length` (fewer when the game ends first). */
function randomLine(g: Game, length: number, rng: () => number): PackedMove[] {
  const buf = new Int32Array(MAX_MOVES);
  const line: PackedMove[] = [];
  for (let i = 0; i < length && !g.isWon(); i++) {
    const n = g.generate(buf, GEN_ALL);
    if (n === 0) break;
    const m = buf[Math.floor(rng() * n)]!;
    g.apply(m);
    line.push(m);
  }
  return line;
}

describe('solving from a position', () => {
  const size = parseSize('1x5 4x3');
  for (const text of RULE_VARIANTS) {
    it(`gives the reference's verdict from positions in the middle of games (${text})`, () => {
      const rules = parseRules(text);
      const rng = seedrandom(`positions ${text}`);
      const solver = new Solver();
      const counts = { won: 0, unsolvable: 0 };
      for (let n = 1; n <= 40; n++) {
        const deal = dealFromNumber(n, size);
        const g = new Game(deal, rules);
        const from = randomLine(g, 1 + Math.floor(rng() * 12), rng);
        const ref = referenceSearch(g).won ? 'won' : 'unsolvable';
        for (const r of [solver.solve(deal, rules, { maxNodes: 2_000_000 }, from), solver.solvePreset(deal, rules, 'portfolio', { maxNodes: 2_000_000 }, from)]) {
          expect(r.verdict, `deal ${n} after ${from.length} moves`).toBe(ref);
          if (r.verdict === 'won') {
            // The moves go on from the position: played after `from`, they win; `from` alone does not (unless it won already).
            expect(verifyMoves(deal, rules, [...from, ...r.moves!]).won).toBe(true);
            if (!g.isWon()) expect(r.moves!.length).toBeGreaterThan(0);
          }
        }
        counts[ref]++;
      }
      // Both verdicts are met, so the check can fail either way.
      expect(counts.won).toBeGreaterThan(0);
      expect(counts.unsolvable).toBeGreaterThan(0);
    });
  }

  it('refuses a line with a move that is not legal', () => {
    const deal = dealFromNumber(1, size);
    const rules = parseRules('book');
    const g = new Game(deal, rules);
    const buf = new Int32Array(MAX_MOVES);
    const n = g.generate(buf, GEN_ALL);
    const legal = new Set(buf.subarray(0, n));
    let illegal = 0;
    while (legal.has(illegal)) illegal++;
    expect(() => new Solver().solve(deal, rules, {}, [illegal])).toThrow(/move 1 of the moves given is not legal/);
  });
});
