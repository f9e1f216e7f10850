// LockBound with spaces (src/solver/lockbound.ts, `withSpaces`): where plain LockBound gives up
// because a column could be emptied, a search over which cards go into spaces decides the
// relaxed game. Every position it calls lost is lost by the exhaustive reference.
import { describe, expect, it } from 'vitest';
import { Game, dealFromNumber, parseRules, parseSize } from '../src/game/index.js';
import { type Tactics, NO_RESTRICTION, allowedByTactics } from '../src/game/tactics.js';
import { LOCK_LOST, LOCK_SPACES, LockBound } from '../src/solver/lockbound.js';
import { referenceSearch } from './reference.js';
import { randomPlayout } from './solver-shared.js';

describe('LockBound with spaces', () => {
  it('calls no position lost that the exhaustive reference wins (random positions of small deals, every variant, tactics)', () => {
    const tacticsList: Tactics[] = [NO_RESTRICTION, { pairing: 'cautious', spaces: 'eager' }, { pairing: 'always', spaces: 'hold' }, { pairing: 'never', spaces: 'eager' }];
    const variants = ['book', 'building=none', 'privileged=1', 'privileged=3', 'second-deal=none', 'second-deal=none building=none'];
    let gaveUp = 0;
    let proved = 0;
    let checked = 0;
    for (const sizeText of ['1x6 5x3', '2x4 3x3']) {
      const size = parseSize(sizeText);
      for (const variant of variants) {
        const rules = parseRules(variant);
        for (const tactics of tacticsList) {
          for (let n = 0; n < 3; n++) {
            const g = new Game(dealFromNumber(n, size), rules);
            const plain = new LockBound(g);
            const spaces = new LockBound(g);
            spaces.spaceNodes = 100_000;
            const what = `${sizeText} ${variant} ${tactics.pairing}/${tactics.spaces} deal ${n}`;
            randomPlayout(g, 7 * n + 3, 120, (m, step) => {
              if (!allowedByTactics(g, m, tactics)) return;
              g.apply(m);
              const p = plain.check(tactics);
              const s = spaces.check(tactics);
              checked++;
              if (p === LOCK_LOST) expect(s, `${what} step ${step}`).toBe(LOCK_LOST);
              if (p !== LOCK_SPACES) return;
              gaveUp++;
              if (s !== LOCK_LOST) return;
              proved++;
              expect(referenceSearch(g, 3_000_000, tactics).won, `${what} step ${step}: ${g.history().length} moves`).toBe(false);
            });
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(2_000);
    expect(gaveUp).toBeGreaterThan(500);
    expect(proved).toBeGreaterThan(gaveUp / 40);
  }, 600_000);
});
