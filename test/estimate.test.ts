/**
 * The win-rate estimator's statistics (src/experiment/estimate.ts): the formulas against values
 * worked by hand, the batch's Wilson interval before phase 2, and the coverage of the interval
 * by simulation, where the truth is known.
 */
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { type Bounds, moments, studentT975, twoPhase } from '../src/experiment/estimate.js';
import { wilsonHigh, wilsonLow } from '../src/batch/stats.js';

describe('twoPhase: values worked by hand', () => {
  // 20 deals: 12 decided (9 won, 3 lost), 8 undecided, 4 of them sampled.
  const decided = moments([...Array<number>(9).fill(1), 0, 0, 0]);
  const point = (v: number): Bounds => ({ lo: v, hi: v });

  it('a rate: the sample (1, 1, 0, 1), every sampled deal decided', () => {
    // Ŷ = (9 + 8 * 3/4) / 20 = 0.75. The sample's variance s_u² = (3 * .0625 + .5625) / 3 = 0.25;
    // the decided deals' mean .75, variance .1875; weights .6 and .4.
    // s² = .6 * .1875 + .4 * .25 + 0 + 0 = .2125.
    // Sampling term: Agresti-Coull share q = (3 + 1.920729) / (4 + 3.841459) = 0.627527, q(1 - q) = 0.233737;
    // t at 3 degrees of freedom 3.182, (3.182 / 1.959964)² = 2.635750;
    // V = .2125 / 20 + .4² * .233737 * (1/4 - 1/8) * 2.635750 = .010625 + .012321 = .022946.
    // Effective n = .75 * .25 / .022946 = 8.171204; Wilson there: 0.41247 .. 0.92764.
    const e = twoPhase({ decided, undecided: 8, sample: [1, 1, 0, 1].map(point), kind: 'rate' });
    expect(e.low).toBeCloseTo(0.75, 12);
    expect(e.high).toBeCloseTo(0.75, 12);
    expect(e.seLow).toBeCloseTo(Math.sqrt(0.022946), 5);
    expect(e.ciLow).toBeCloseTo(0.41247, 4);
    expect(e.ciHigh).toBeCloseTo(0.92764, 4);
    expect(e.stillUndecided).toBe(0);
    expect([e.deals, e.decided, e.undecided, e.sampled]).toEqual([20, 12, 8, 4]);
  });

  it('a sampled deal still undecided counts as lost for the low end and as won for the high end', () => {
    // Low: the sample (1, 0, 0, 1): Ŷ = (9 + 4) / 20 = 0.65, s_u² = 1/3, q = 0.5;
    // s² = .6 * .1875 + .4 / 3 + .6 * (.75 - .65)² + .4 * (.5 - .65)² = .260833;
    // V = .260833 / 20 + .16 * .25 * .125 * 2.635750 = .026220; effective n 8.676445;
    // Wilson: 0.33576 .. High: the sample (1, 1, 0, 1), as above: 0.92764.
    const e = twoPhase({ decided, undecided: 8, sample: [point(1), { lo: 0, hi: 1 }, point(0), point(1)], kind: 'rate' });
    expect(e.low).toBeCloseTo(0.65, 12);
    expect(e.high).toBeCloseTo(0.75, 12);
    expect(e.ciLow).toBeCloseTo(0.33576, 4);
    expect(e.ciHigh).toBeCloseTo(0.92764, 4);
    expect(e.stillUndecided).toBe(1);
  });

  it('a difference: Agresti-Caffo pseudo-deals, normal margins, values from -1 to 1', () => {
    // 10 decided differences (seven 0, three -1), 6 undecided, 4 sampled (-1, 0, -1, 0).
    // Ŷ = (-3 + 6 * -.5) / 16 = -0.375; s_u² = 1/3; decided mean -.3, variance .21; weights .625, .375;
    // spread = .625 * .21 + .375 / 3 + .625 * (.075)² + .375 * (.125)² = .265625.
    // Pseudo-deals (half at -1, half at +1, one at 0) about the mean m add .5(-1-m)² + .5(1-m)² + m²:
    // 1.28125 at m = -.375, 1.5 at m = -.5. s² = (.265625 * 16 + 1.28125) / 18 = .307292;
    // sampling variance (1 + 1.5) / 5 = .5;
    // V = .307292 / 16 + .375² * .5 * (1/4 - 1/6) * 2.635750 = .019206 + .015444 = .034650;
    // margin 1.959964 * .186144 = .364835: -0.73984 .. -0.01016.
    const e = twoPhase({ decided: moments([0, 0, 0, -1, -1, 0, 0, 0, -1, 0]), undecided: 6, sample: [-1, 0, -1, 0].map(point), kind: 'difference' });
    expect(e.low).toBeCloseTo(-0.375, 12);
    expect(e.seLow).toBeCloseTo(Math.sqrt(0.03465), 5);
    expect(e.ciLow).toBeCloseTo(-0.73984, 4);
    expect(e.ciHigh).toBeCloseTo(-0.01016, 4);
  });

  it('a difference that is 0 on every deal still has an interval of some width', () => {
    const e = twoPhase({ decided: moments(Array<number>(200).fill(0)), undecided: 20, sample: Array.from({ length: 10 }, () => point(0)), kind: 'difference' });
    expect(e.low).toBe(0);
    expect(e.ciLow).toBeLessThan(-0.005);
    expect(e.ciHigh).toBeGreaterThan(0.005);
  });

  it('every undecided deal sampled and settled: no sampling term, the spread of all deals alone', () => {
    // 12 decided as above and all 8 undecided settled, 6 of them won: Ŷ = 15/20 = .75 in both strata,
    // so s² = .6 * .1875 + .4 * (8/7) * .1875 (the sample's variance with n - 1) and V = s² / 20.
    const e = twoPhase({ decided, undecided: 8, sample: [1, 1, 1, 0, 1, 1, 0, 1].map(point), kind: 'rate' });
    expect(e.low).toBeCloseTo(0.75, 12);
    expect(e.seLow).toBeCloseTo(Math.sqrt((0.6 * 0.1875 + 0.4 * (8 / 7) * 0.1875) / 20), 12);
  });

  it('before phase 2 (every undecided deal with its bounds) it is the batch interval: Wilson, unknown as lost, then as won', () => {
    for (const [won, lost, unknown] of [[543, 59, 1398], [0, 10, 0], [10, 0, 0], [3, 4, 5], [0, 0, 7]] as const) {
      const decided = moments([...Array<number>(won).fill(1), ...Array<number>(lost).fill(0)]);
      const sample: Bounds[] = Array.from({ length: unknown }, () => ({ lo: 0, hi: 1 }));
      const e = twoPhase({ decided, undecided: unknown, sample, kind: 'rate' });
      const n = won + lost + unknown;
      expect(e.ciLow).toBeCloseTo(wilsonLow(won, n), 10);
      expect(e.ciHigh).toBeCloseTo(wilsonHigh(won + unknown, n), 10);
      expect(e.low).toBeCloseTo(won / n, 12);
      expect(e.high).toBeCloseTo((won + unknown) / n, 12);
    }
  });

  it("Student's t: the tables up to 30 degrees of freedom, then an expansion that meets them", () => {
    expect(studentT975(1)).toBe(12.706);
    expect(studentT975(9)).toBe(2.262);
    expect(studentT975(30)).toBe(2.042);
    // Tables: 2.021 at 40, 2.000 at 60, 1.980 at 120.
    expect(studentT975(40)).toBeCloseTo(2.021, 3);
    expect(studentT975(60)).toBeCloseTo(2.0, 3);
    expect(studentT975(120)).toBeCloseTo(1.98, 3);
  });

  it('refuses undecided deals with no sample, and a sample larger than them', () => {
    expect(() => twoPhase({ decided: moments([1]), undecided: 3, sample: [], kind: 'rate' })).toThrow(/no sample/);
    expect(() => twoPhase({ decided: moments([1]), undecided: 1, sample: [{ lo: 1, hi: 1 }, { lo: 0, hi: 0 }], kind: 'rate' })).toThrow(/larger/);
  });
});

/**
 * A world where the truth is known: each deal is won with probability p. Phase 1 decides a won
 * deal with probability d1Won and a lost one with d1Lost (the undecided are not like the rest:
 * lost deals are harder to prove); phase 2 decides a sampled deal with probability d2 (else it
 * stays undecided, both ways). The interval must cover p in at least 95 % of worlds (less the
 * simulation's own error), and more when deals stay undecided.
 */
function coverage(p: number, N: number, n: number, d1Won: number, d1Lost: number, d2: number, worlds: number, seed: string): { covered: number; meanWidth: number } {
  const rng = seedrandom(seed);
  let covered = 0;
  let width = 0;
  for (let w = 0; w < worlds; w++) {
    const decided: number[] = [];
    const undecided: number[] = [];
    for (let i = 0; i < N; i++) {
      const y = rng() < p ? 1 : 0;
      if (rng() < (y ? d1Won : d1Lost)) decided.push(y);
      else undecided.push(y);
    }
    // A simple random sample of the undecided (a partial Fisher-Yates).
    const m = Math.min(n, undecided.length);
    for (let i = 0; i < m; i++) {
      const j = i + Math.floor(rng() * (undecided.length - i));
      [undecided[i], undecided[j]] = [undecided[j]!, undecided[i]!];
    }
    const sample: Bounds[] = undecided.slice(0, m).map((y) => (rng() < d2 ? { lo: y, hi: y } : { lo: 0, hi: 1 }));
    const e = twoPhase({ decided: moments(decided), undecided: undecided.length, sample: m > 0 ? sample : [], kind: 'rate' });
    if (e.ciLow <= p && p <= e.ciHigh) covered++;
    width += e.ciHigh - e.ciLow;
  }
  return { covered: covered / worlds, meanWidth: width / worlds };
}

describe('twoPhase: coverage where the truth is known (simulation)', () => {
  // 4000 worlds: the simulation's own standard error on a 95 % coverage is 0.34 points, so a
  // true coverage of 95 % reads above 94 % with near certainty.
  it.each([
    // p, N, n, phase 1 decides won / lost, phase 2 decides
    [0.85, 1000, 60, 0.95, 0.3, 1],
    [0.5, 400, 30, 0.8, 0.6, 1],
    [0.05, 1000, 40, 0.9, 0.95, 1],
    [0.97, 2000, 100, 0.99, 0.2, 1],
  ])('p=%f N=%i n=%i, phase 2 decides every sampled deal: the interval covers p in at least 94 worlds of 100', (p, N, n, a, b, d2) => {
    const c = coverage(p, N, n, a, b, d2, 4000, `cover ${p} ${N}`);
    expect(c.covered).toBeGreaterThanOrEqual(0.94);
  });

  it('with deals still undecided after phase 2, the interval covers more often and is wider by their share', () => {
    const all = coverage(0.85, 1000, 60, 0.95, 0.3, 1, 2000, 'residual');
    const some = coverage(0.85, 1000, 60, 0.95, 0.3, 0.6, 2000, 'residual');
    expect(some.covered).toBeGreaterThanOrEqual(all.covered);
    expect(some.covered).toBeGreaterThanOrEqual(0.97);
    // About 0.15 of the deals are undecided after phase 1, 0.4 of them after phase 2: 6 points.
    expect(some.meanWidth - all.meanWidth).toBeGreaterThan(0.04);
    expect(some.meanWidth - all.meanWidth).toBeLessThan(0.08);
  });

  it('a difference of two games on the same deals (the restricted game wins a subset): covers the true difference', () => {
    const rng = seedrandom('difference');
    const worlds = 3000;
    let covered = 0;
    const pFree = 0.8;
    const pKeep = 0.6; // a free win is also a restricted win with this probability: truth -0.32
    const truth = pFree * pKeep - pFree;
    for (let w = 0; w < worlds; w++) {
      const decided: number[] = [];
      const undecided: number[] = [];
      for (let i = 0; i < 800; i++) {
        const free = rng() < pFree ? 1 : 0;
        const kept = free && rng() < pKeep ? 1 : 0;
        const d = kept - free;
        // Phase 1 decides both games of most deals, fewer where the free game is won and the restricted lost.
        if (rng() < (d === -1 ? 0.5 : 0.85)) decided.push(d);
        else undecided.push(d);
      }
      const m = Math.min(50, undecided.length);
      for (let i = 0; i < m; i++) {
        const j = i + Math.floor(rng() * (undecided.length - i));
        [undecided[i], undecided[j]] = [undecided[j]!, undecided[i]!];
      }
      const sample = undecided.slice(0, m).map((d) => ({ lo: d, hi: d }));
      const e = twoPhase({ decided: moments(decided), undecided: undecided.length, sample, kind: 'difference' });
      if (e.ciLow <= truth && truth <= e.ciHigh) covered++;
    }
    expect(covered / worlds).toBeGreaterThanOrEqual(0.94);
  });

  it('a difference whose truth is 0 (a restriction that costs nothing on most deals): covered', () => {
    const rng = seedrandom('difference 0');
    const worlds = 3000;
    let covered = 0;
    // The restricted game loses a free win on one deal in 500: truth -0.002.
    const truth = -0.002;
    for (let w = 0; w < worlds; w++) {
      const decided: number[] = [];
      const undecided: number[] = [];
      for (let i = 0; i < 500; i++) {
        const d = rng() < 0.002 ? -1 : 0;
        if (rng() < 0.9) decided.push(d);
        else undecided.push(d);
      }
      const m = Math.min(20, undecided.length);
      const sample = undecided.slice(0, m).map((d) => ({ lo: d, hi: d }));
      const e = twoPhase({ decided: moments(decided), undecided: undecided.length, sample, kind: 'difference' });
      if (e.ciLow <= truth && truth <= e.ciHigh) covered++;
    }
    expect(covered / worlds).toBeGreaterThanOrEqual(0.94);
  });
});
