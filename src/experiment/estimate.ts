/**
 * The win-rate estimator's statistics: two-phase sampling for stratification (Cochran,
 * "Sampling Techniques", 3rd ed., section 12.2), with the deals no budget decided counted both
 * ways.
 *
 * Phase 1 solves each of N deals (a random sample of all deals: deal numbers are) at a short
 * budget. The deals it decides are one stratum, known deal by deal; the U deals it leaves
 * unknown are the other, and phase 2 solves a simple random sample of n of them at a long
 * budget. Each deal has a value y (1 won, 0 lost; for an effect, the difference of two rows'
 * values, -1, 0 or 1) known only to lie within bounds [lo, hi]: a point for a decided deal,
 * [0, 1] (or wider, for a difference) for one still unknown. The estimate of the mean of y is
 *
 *   Ŷ = (S + U·ȳ) / N,   S the sum over the decided deals, ȳ the mean over the sample,
 *
 * computed twice, with every deal at its lower bound and at its upper bound: whatever the
 * unknown deals are, the truth's estimate lies between the two. Its variance (Cochran 12.4 with
 * the first phase drawn from an unbounded population, the decided stratum a census):
 *
 *   V = s²/N + (U/N)² · s_u² · (1/n − 1/U),
 *
 * s² the variance of y over all deals (the decided stratum's, the sample's, and the spread
 * between their means, each weighted by its share), s_u² the sample's variance (n − 1
 * denominator). The 95 % interval runs from the lower estimate less its margin to the upper
 * estimate plus its margin. For a rate the margin is Wilson's at the effective sample size
 * Ŷ(1 − Ŷ)/V (so that it stays inside [0, 1] and keeps its width near 0 and 1); for a
 * difference it is z·√V. The sample's term uses Agresti and Coull's adjusted share for a rate,
 * Agresti and Caffo's pseudo-deals for a difference (as does s²), and is widened by Student's t
 * at n − 1 degrees of freedom (see `side`): a small sample's variance is itself uncertain. With n = U (every unknown deal solved again, or before phase 2 every
 * unknown deal with its bounds) the second term is 0; before phase 2 the interval of a rate is
 * then the batch's, Wilson with unknown counted as lost, then as won. test/estimate.test.ts checks the formulas by hand and the
 * coverage by simulation.
 */
import { Z95 } from '../batch/stats.js';

/** What one deal's value is known to be: lo <= y <= hi. */
export interface Bounds {
  readonly lo: number;
  readonly hi: number;
}

export interface TwoPhaseInput {
  /** The values of the deals phase 1 decided (lo = hi), or their sum and sum of squares. */
  readonly decided: { readonly count: number; readonly sum: number; readonly sumSquares: number };
  /** Deals phase 1 left undecided. */
  readonly undecided: number;
  /** The phase-2 sample: a simple random sample of the undecided deals, each with its bounds after phase 2. */
  readonly sample: readonly Bounds[];
  /** `rate`: values in [0, 1], Wilson margins; `difference`: values in [-1, 1], normal margins. */
  readonly kind: 'rate' | 'difference';
}

export interface Estimate {
  /** Deals in phase 1. */
  readonly deals: number;
  readonly decided: number;
  readonly undecided: number;
  readonly sampled: number;
  /** Sampled deals phase 2 did not decide either (their bounds still apart). */
  readonly stillUndecided: number;
  /** The estimate with every unknown deal at its lower bound, and at its upper bound. */
  readonly low: number;
  readonly high: number;
  /** The 95 % interval: the lower estimate's lower margin, the upper estimate's upper margin. */
  readonly ciLow: number;
  readonly ciHigh: number;
  /** Standard errors of the two estimates. */
  readonly seLow: number;
  readonly seHigh: number;
}

/** Sum and sum of squares of a list of values. */
export function moments(values: Iterable<number>): { count: number; sum: number; sumSquares: number } {
  let count = 0;
  let sum = 0;
  let sumSquares = 0;
  for (const v of values) {
    count++;
    sum += v;
    sumSquares += v * v;
  }
  return { count, sum, sumSquares };
}

/** Student's t at 0.975 for 1 to 30 degrees of freedom (the tables). */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08,
  2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/**
 * The 0.975 quantile of Student's t at `df` degrees of freedom: the tables up to 30, then
 * Hill's expansion around the normal quantile (Abramowitz and Stegun 26.7.5; within 1e-4 there).
 */
export function studentT975(df: number): number {
  if (df < 1) throw new Error('internal: t with no degree of freedom');
  if (df <= 30) return T975[Math.floor(df) - 1]!;
  const z = Z95;
  const z2 = z * z;
  return z + (z * (z2 + 1)) / (4 * df) + (z * (5 * z2 * z2 + 16 * z2 + 3)) / (96 * df * df) + (z * (3 * z2 * z2 * z2 + 19 * z2 * z2 + 17 * z2 - 15)) / (384 * df * df * df);
}

/** One side of the estimate: the point and its variance, with the sampled deals at `side` of their bounds. */
function side(input: TwoPhaseInput, pick: (b: Bounds) => number): { point: number; variance: number } {
  const z = Z95;
  const { decided, undecided: U, sample } = input;
  const N = decided.count + U;
  if (N === 0) return { point: 0, variance: 0 };
  const n = sample.length;
  const s = moments(sample.map(pick));
  const meanU = n > 0 ? s.sum / n : 0;
  const point = (decided.sum + U * meanU) / N;
  // The sample's variance (n - 1 denominator; 0 for one deal or none). In the sampling term of a
  // rate, that of Agresti and Coull's adjusted share instead (z²/2 wins and z²/2 losses added): a
  // small sample of all wins (or all losses) has a plain variance of 0, which would claim its
  // stratum known exactly.
  const varU = n > 1 ? Math.max(0, (s.sumSquares - (s.sum * s.sum) / n) / (n - 1)) : 0;
  const adjusted = (s.sum + (z * z) / 2) / (n + z * z);
  // For a difference, Agresti and Caffo's paired adjustment: half a deal at -1, half at +1 and
  // one at 0 added (two deals in all), so that a sample (or a whole run) of equal differences
  // keeps some width.
  const pseudo = (mean: number): number => 0.5 * (-1 - mean) ** 2 + 0.5 * (1 - mean) ** 2 + mean * mean;
  const varSampling =
    input.kind === 'rate' ? adjusted * (1 - adjusted) : (Math.max(0, s.sumSquares - (s.sum * s.sum) / Math.max(1, n)) + pseudo(meanU)) / (n + 1);
  // The variance of y over all deals: within each stratum, and between their means.
  const meanD = decided.count > 0 ? decided.sum / decided.count : 0;
  const varD = decided.count > 0 ? Math.max(0, decided.sumSquares / decided.count - meanD * meanD) : 0;
  const wD = decided.count / N;
  const wU = U / N;
  const spread = wD * varD + wU * varU + wD * (meanD - point) ** 2 + wU * (meanU - point) ** 2;
  const total = input.kind === 'rate' ? spread : (spread * N + pseudo(point)) / (N + 2);
  // The sample's term is widened by Student's t over z at n - 1 degrees of freedom: its variance
  // is estimated from n deals only, and a small sample's estimate is itself uncertain.
  const t = n > 1 ? studentT975(n - 1) / Z95 : 1;
  const variance = total / N + (n > 0 ? wU * wU * varSampling * (1 / n - 1 / U) * t * t : 0);
  return { point, variance: Math.max(0, variance) };
}

/** Wilson's interval for k of n (k may be fractional). */
function wilson(k: number, n: number, z: number): { low: number; high: number } {
  if (n <= 0) return { low: 0, high: 1 };
  const p = k / n;
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const half = z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  const den = 1 + z2 / n;
  return { low: Math.max(0, (centre - half) / den), high: Math.min(1, (centre + half) / den) };
}

/** The two-phase estimate of the mean value and its 95 % interval (see the module's comment). */
export function twoPhase(input: TwoPhaseInput): Estimate {
  const z = Z95;
  if (input.undecided > 0 && input.sample.length === 0) throw new Error('internal: undecided deals and no sample (pass them all, with their bounds, before phase 2)');
  if (input.sample.length > input.undecided) throw new Error('internal: a sample larger than the undecided deals');
  const N = input.decided.count + input.undecided;
  const lo = side(input, (b) => b.lo);
  const hi = side(input, (b) => b.hi);
  let ciLow: number;
  let ciHigh: number;
  if (input.kind === 'rate') {
    // Wilson's interval at the effective sample size p(1 - p)/V; at a point of 0 or 1 (variance
    // 0) that of 0 or N of N deals.
    const effective = (p: number, v: number): number => (v > 0 && p > 0 && p < 1 ? (p * (1 - p)) / v : N);
    const nLow = effective(lo.point, lo.variance);
    const nHigh = effective(hi.point, hi.variance);
    ciLow = wilson(lo.point * nLow, nLow, z).low;
    ciHigh = wilson(hi.point * nHigh, nHigh, z).high;
  } else {
    ciLow = Math.max(-1, lo.point - z * Math.sqrt(lo.variance));
    ciHigh = Math.min(1, hi.point + z * Math.sqrt(hi.variance));
  }
  return {
    deals: N,
    decided: input.decided.count,
    undecided: input.undecided,
    sampled: input.sample.length,
    stillUndecided: input.sample.filter((b) => b.lo !== b.hi).length,
    low: lo.point,
    high: hi.point,
    ciLow: Math.min(ciLow, lo.point),
    ciHigh: Math.max(ciHigh, hi.point),
    seLow: Math.sqrt(lo.variance),
    seHigh: Math.sqrt(hi.variance),
  };
}
