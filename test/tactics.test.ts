import { describe, expect, it } from 'vitest';
import {
  type Tactics, Game, MAX_MOVES, SRC_DRAW, SRC_REDEAL, allowedByTactics, dealFromNumber, formatMove, parsePairing, parseRules, parseSize, parseSpaces,
} from '../src/game/index.js';
import { Solver } from '../src/solver/index.js';

const RESTRICTIONS: Tactics[] = [
  { pairing: 'never', spaces: 'eager' },
  { pairing: 'cautious', spaces: 'eager' },
  { pairing: 'always', spaces: 'hold' },
  { pairing: 'always', spaces: 'never' },
  { pairing: 'never', spaces: 'never' },
];

describe('tactics as solver restrictions', () => {
  it('a restricted search never wins a deal the free game loses, and its solutions keep to the restriction', () => {
    const solver = new Solver();
    const size = parseSize('1x6 5x3');
    const rules = parseRules('book');
    const wins: Record<string, number> = {};
    const buf = new Int32Array(MAX_MOVES);
    for (let d = 0; d < 60; d++) {
      const deal = dealFromNumber(d, size);
      const free = solver.solve(deal, rules, { maxNodes: 2e6 });
      expect(free.verdict).not.toBe('unknown');
      for (const t of RESTRICTIONS) {
        const r = solver.solve(deal, rules, { maxNodes: 2e6, tactics: t });
        expect(r.verdict).not.toBe('unknown');
        const name = `${t.pairing}/${t.spaces}`;
        if (r.verdict === 'won') {
          wins[name] = (wins[name] ?? 0) + 1;
          expect(free.verdict).toBe('won');
          const g = new Game(deal, rules);
          for (const m of r.moves!) {
            expect(allowedByTactics(g, m, t), `${name} deal ${d}: ${formatMove(m)}`).toBe(true);
            const n = g.generate(buf);
            expect(Array.from(buf.subarray(0, n))).toContain(m);
            g.apply(m);
          }
          expect(g.isWon()).toBe(true);
        }
      }
    }
    const freeWins = Array.from({ length: 60 }, (_, d) => solver.solve(dealFromNumber(d, size), rules, { maxNodes: 2e6 })).filter((r) => r.verdict === 'won').length;
    // Each restriction gives something up on this set, and pairing never gives up more than cautious.
    for (const t of RESTRICTIONS) expect(wins[`${t.pairing}/${t.spaces}`] ?? 0).toBeLessThanOrEqual(freeWins);
    expect(wins['never/eager'] ?? 0).toBeLessThan(freeWins);
    expect(wins['never/never'] ?? 0).toBeLessThanOrEqual(wins['never/eager'] ?? 0);
    expect(wins['cautious/eager'] ?? 0).toBeGreaterThanOrEqual(wins['never/eager'] ?? 0);
  });

  it('reads the knob values and refuses others in one line', () => {
    expect(parsePairing('Cautious')).toBe('cautious');
    expect(parseSpaces('hold')).toBe('hold');
    expect(() => parsePairing('sometimes')).toThrow("unknown pairing tactic 'sometimes' (always, cautious, never)");
    expect(() => parseSpaces('lazy')).toThrow("unknown spaces tactic 'lazy' (eager, hold, never)");
  });

  it('hold refuses spaces only in the first deal; cautious refuses pairs onto columns with cards above', () => {
    const g = new Game(dealFromNumber(3, parseSize('1x6 5x3')), parseRules('book'));
    const buf = new Int32Array(MAX_MOVES);
    let sawSpace = false;
    let sawCautious = false;
    for (let step = 0; step < 200 && !g.isWon(); step++) {
      const n = g.generate(buf);
      if (n === 0) break;
      for (let i = 0; i < n; i++) {
        const m = buf[i]!;
        const dst = (m >> 6) & 63;
        if ((m & 63) === SRC_DRAW || (m & 63) === SRC_REDEAL) continue;
        if (dst < 48 && g.len[dst] === 0) {
          sawSpace = true;
          expect(allowedByTactics(g, m, { pairing: 'always', spaces: 'hold' })).toBe(g.phase === 2);
          expect(allowedByTactics(g, m, { pairing: 'always', spaces: 'never' })).toBe(false);
        } else if (dst < 48) {
          expect(allowedByTactics(g, m, { pairing: 'never', spaces: 'eager' })).toBe(false);
          if (g.len[dst]! > 1 && !g.canHome(m >>> 12)) {
            sawCautious = true;
            expect(allowedByTactics(g, m, { pairing: 'cautious', spaces: 'eager' })).toBe(false);
          }
        }
      }
      g.apply(buf[(step * 7) % n]!);
    }
    expect(sawSpace).toBe(true);
    expect(sawCautious).toBe(true);
  });
});
