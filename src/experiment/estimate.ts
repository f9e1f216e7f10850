/**
 * The win-rate estimator's statistics: two-phase sampling for stratification (Cochran,
 * "Sampling Techniques", 3rd ed., sections 12.2 and 5.6), with the deals no budget decided
 * counted both ways.
 *
 * Phase 1 solves each of N deals (a random sample of all deals: deal numbers are) at a short
 * budget. The deals it decides are one stratum, known deal by deal; the U deals it leaves
 * unknown are split into strata h by what phase 1 saw of them (winrate.ts: the cards it got home,
 * the budget that ran out), U_h deals each, and phase 2 solves a simple random sample of n_h of
 * each stratum at a long budget. Each deal has a value y (1 won, 0 lost; for an effect, the
 * difference of two rows' values, -1, 0 or 1) known only to lie within bounds [lo, hi]: a point
 * for a decided deal, [0, 1] (or wider, for a difference) for one still unknown. The estimate of
 * the mean of y is
 *
 *   Ŷ = (S + Σ_h U_h·ȳ_h) / N,   S the sum over the decided deals, ȳ_h the mean over stratum h's sample,
 *
 * computed twice, with every deal at its lower bound and at its upper bound: whatever the
 * unknown deals are, the truth's estimate lies between the two. Its variance (Cochran 12.4 with
 * the first phase drawn from an unbounded population, the decided stratum a census):
 *
 *   V = s²/N + Σ_h (U_h/N)² · s_h² · (1/n_h − 1/U_h),
 *
 * s² the variance of y over all deals (the decided stratum's, each sample's, and the spread
 * between their means, each weighted by its share), s_h² stratum h's sample variance. The 95 %
 * interval runs from the lower estimate less its margin to the upper estimate plus its margin.
 * For a rate the margin is Wilson's at the effective sample size Ŷ(1 − Ŷ)/V (so that it stays
 * inside [0, 1] and keeps its width near 0 and 1); for a difference it is z·√V. Each sample's
 * term uses Agresti and Coull's adjusted share for a rate, Agresti and Caffo's pseudo-deals for
 * a difference (as does s²: `samplingVariance`), and their sum is widened by Student's t at
 * Satterthwaite's effective degrees of freedom (with one stratum, n − 1): a small sample's
 * variance is itself uncertain. With n_h = U_h (every unknown deal of the stratum solved again,
 * or before phase 2 every unknown deal with its bounds) its term is 0; before phase 2 the
 * interval of a rate is then the batch's, Wilson with unknown counted as lost, then as won.
 * With one stratum this is the unstratified estimate (`twoPhase`) the estimator made before.
 *
 * `allocate` divides a sample among strata (Neyman's allocation, with costs, as integers).
 * test/estimate.test.ts checks the formulas by hand and the coverage by simulation.
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
  /** A stratified estimate's strata (`stratified`; not `twoPhase`'s one). */
  readonly strata?: readonly StratumEstimate[];
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

/** One stratum of the undecided deals: its size and its sample, each sampled deal with its bounds. */
export interface Stratum {
  /** Deals phase 1 left undecided in this stratum (U_h). */
  readonly undecided: number;
  /** A simple random sample of them (n_h, at least one when U_h > 0), each with its bounds after phase 2. */
  readonly sample: readonly Bounds[];
  /** What the stratum is (`best home 31-45`), for reports. */
  readonly label?: string;
}

export interface StratifiedInput {
  readonly decided: TwoPhaseInput['decided'];
  readonly strata: readonly Stratum[];
  readonly kind: 'rate' | 'difference';
}

/** What one stratum's sample says, for reports: its size, sample, and mean with the undecided deals counted each way. */
export interface StratumEstimate {
  readonly label: string;
  readonly undecided: number;
  readonly sampled: number;
  readonly stillUndecided: number;
  readonly meanLow: number;
  readonly meanHigh: number;
}

/** Agresti and Caffo's paired pseudo-deals about a mean m: half a deal at -1, half at +1, one at 0. */
const pseudo = (mean: number): number => 0.5 * (-1 - mean) ** 2 + 0.5 * (1 - mean) ** 2 + mean * mean;

/**
 * The variance a sample's term uses (per deal): for a rate that of Agresti and Coull's adjusted
 * share (z²/2 wins and z²/2 losses added), for a difference with Agresti and Caffo's
 * pseudo-deals. Never 0: a small sample of all wins (or all losses, or equal differences) has a
 * plain variance of 0, which would claim its stratum known exactly. With no sample it is the
 * largest a value can have about 0.5 (a rate: 0.25) or 0 (a difference: 1), the prior that
 * `allocate` starts a stratum with.
 */
export function samplingVariance(values: readonly number[], kind: 'rate' | 'difference'): number {
  const z = Z95;
  const s = moments(values);
  const n = s.count;
  if (kind === 'rate') {
    const adjusted = (s.sum + (z * z) / 2) / (n + z * z);
    return adjusted * (1 - adjusted);
  }
  const mean = n > 0 ? s.sum / n : 0;
  return (Math.max(0, s.sumSquares - (s.sum * s.sum) / Math.max(1, n)) + pseudo(mean)) / (n + 1);
}

/**
 * One side of the estimate: the point and its variance, with the sampled deals at `pick` of
 * their bounds. The sampling term of each stratum is widened by Student's t at Satterthwaite's
 * effective degrees of freedom of their sum (with one stratum, n - 1, as before strata): each
 * stratum's variance is estimated from its n_h deals only.
 */
function side(input: StratifiedInput, pick: (b: Bounds) => number): { point: number; variance: number } {
  const { decided, strata } = input;
  const U = strata.reduce((a, s) => a + s.undecided, 0);
  const N = decided.count + U;
  if (N === 0) return { point: 0, variance: 0 };
  const parts = strata.map((s) => {
    const values = s.sample.map(pick);
    const m = moments(values);
    const n = m.count;
    const mean = n > 0 ? m.sum / n : 0;
    // The sample's variance (n - 1 denominator; 0 for one deal or none).
    const variance = n > 1 ? Math.max(0, (m.sumSquares - (m.sum * m.sum) / n) / (n - 1)) : 0;
    return { U: s.undecided, n, mean, variance, sampling: n > 0 ? samplingVariance(values, input.kind) : 0 };
  });
  const point = (decided.sum + parts.reduce((a, p) => a + p.U * p.mean, 0)) / N;
  // The variance of y over all deals: within each stratum, and between their means.
  const meanD = decided.count > 0 ? decided.sum / decided.count : 0;
  const varD = decided.count > 0 ? Math.max(0, decided.sumSquares / decided.count - meanD * meanD) : 0;
  const wD = decided.count / N;
  let spread = wD * varD + wD * (meanD - point) ** 2;
  for (const p of parts) spread += (p.U / N) * (p.variance + (p.mean - point) ** 2);
  const total = input.kind === 'rate' ? spread : (spread * N + pseudo(point)) / (N + 2);
  // Phase 2's terms (Cochran 5.6 within the undecided deals), and the degrees of freedom of their sum.
  let sampling = 0;
  let widened = 0;
  let dfDenominator = 0;
  let dfLeast = Infinity;
  for (const p of parts) {
    if (p.n === 0) continue;
    const w = p.U / N;
    const v = w * w * p.sampling * (1 / p.n - 1 / p.U);
    if (v <= 0) continue;
    // A stratum of one sampled deal has no degree of freedom: its term is taken as it is (the
    // allocation never leaves one; an unstratified sample of one was so taken before strata).
    if (p.n > 1) {
      widened += v;
      dfDenominator += (v * v) / (p.n - 1);
      dfLeast = Math.min(dfLeast, p.n - 1);
    } else sampling += v;
  }
  // Satterthwaite's degrees of freedom lie between the least stratum's and their sum; with one
  // stratum they are its n - 1 exactly (rounding kept from flooring them below it).
  const df = widened > 0 ? Math.max(dfLeast, (widened * widened) / dfDenominator) : 0;
  const t = widened > 0 ? studentT975(df) / Z95 : 1;
  const variance = total / N + sampling + widened * t * t;
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

/** The two-phase estimate of the mean value and its 95 % interval (see the module's comment): one stratum of undecided deals. */
export function twoPhase(input: TwoPhaseInput): Estimate {
  const { strata, ...rest } = stratified({ decided: input.decided, strata: [{ undecided: input.undecided, sample: input.sample }], kind: input.kind });
  void strata;
  return rest;
}

/**
 * The stratified two-phase estimate (see the module's comment): the undecided deals in strata
 * that phase 1 told apart, each with its own simple random sample. With one stratum it is
 * `twoPhase`.
 */
export function stratified(input: StratifiedInput): Estimate & { readonly strata: readonly StratumEstimate[] } {
  const z = Z95;
  for (const s of input.strata) {
    if (s.undecided > 0 && s.sample.length === 0) throw new Error('internal: undecided deals and no sample (pass them all, with their bounds, before phase 2)');
    if (s.sample.length > s.undecided) throw new Error('internal: a sample larger than the undecided deals');
  }
  const undecided = input.strata.reduce((a, s) => a + s.undecided, 0);
  const N = input.decided.count + undecided;
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
  const sample = input.strata.flatMap((s) => s.sample);
  const mean = (xs: readonly number[]): number => (xs.length > 0 ? xs.reduce((a, x) => a + x, 0) / xs.length : 0);
  return {
    deals: N,
    decided: input.decided.count,
    undecided,
    sampled: sample.length,
    stillUndecided: sample.filter((b) => b.lo !== b.hi).length,
    low: lo.point,
    high: hi.point,
    ciLow: Math.min(ciLow, lo.point),
    ciHigh: Math.max(ciHigh, hi.point),
    seLow: Math.sqrt(lo.variance),
    seHigh: Math.sqrt(hi.variance),
    strata: input.strata.map((s, i) => ({
      label: s.label ?? `stratum ${i + 1}`,
      undecided: s.undecided,
      sampled: s.sample.length,
      stillUndecided: s.sample.filter((b) => b.lo !== b.hi).length,
      meanLow: mean(s.sample.map((b) => b.lo)),
      meanHigh: mean(s.sample.map((b) => b.hi)),
    })),
  };
}

/** A stratum as `allocate` sees it: its size, its standard deviation (or its prior), the cost of a deal, and the deals it has. */
export interface AllocationStratum {
  readonly size: number;
  readonly sd: number;
  /** A sampled deal's cost (any unit; only ratios matter, and the budget's unit). */
  readonly cost: number;
  /** Deals it has already (the allocation never takes any away: a sample only grows). */
  readonly n: number;
}

/**
 * Neyman's allocation with costs (Cochran 5.5: n_h ∝ U_h·S_h/√c_h) in whole deals: each deal
 * added goes to the stratum where it cuts the sampling variance Σ U_h²·S_h²·(1/n_h − 1/U_h)
 * most per unit of cost, the greatest U_h·S_h/√(c_h·n_h·(n_h + 1)) (the priority values of
 * Wright, "The equivalence of Neyman optimum allocation for sampling and equal proportions for
 * apportioning the U.S. House of Representatives", The American Statistician 66, 2012). Every
 * stratum first gets `least` deals (or all it has: a stratum of two deals needs both for a
 * variance); then deals are added until there are `total` in all, every stratum is whole, or the
 * next deal would take the cost past `budget`. Ties go to the first stratum: the result depends
 * on its inputs only.
 */
export function allocate(strata: readonly AllocationStratum[], total: number, least = 2, budget = Infinity): number[] {
  const n = strata.map((s) => Math.min(s.size, Math.max(s.n, least)));
  let spent = strata.reduce((a, s, h) => a + (n[h]! - s.n) * s.cost, 0);
  let count = n.reduce((a, x) => a + x, 0);
  while (count < total) {
    let best = -1;
    let bestValue = -Infinity;
    strata.forEach((s, h) => {
      if (n[h]! >= s.size) return;
      const value = (s.size * s.sd) / Math.sqrt(Math.max(s.cost, 1e-12) * n[h]! * (n[h]! + 1));
      if (value > bestValue) {
        bestValue = value;
        best = h;
      }
    });
    if (best < 0 || spent + strata[best]!.cost > budget) break;
    n[best]!++;
    spent += strata[best]!.cost;
    count++;
  }
  return n;
}
