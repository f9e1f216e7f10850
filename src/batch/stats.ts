/**
 * Statistics of a batch: Wilson score intervals and the summary of a results file
 * (verdict counts, the win rate with its 95 % interval, node and time statistics), and the
 * paired difference of two win rates on the same deals (Newcombe's interval).
 */

/** z for a two-sided 95 % interval: the 0.975 quantile of the standard normal distribution. */
export const Z95 = 1.959963984540054;

/**
 * Lower end of the Wilson score interval for `k` successes in `n` trials:
 *   (p + z²/2n − z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n),  p = k/n.
 * 0 for n = 0 (nothing is known).
 */
export function wilsonLow(k: number, n: number, z: number = Z95): number {
  if (n <= 0) return 0;
  const p = k / n;
  const z2 = z * z;
  const v = (p + z2 / (2 * n) - z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return Math.min(1, Math.max(0, v));
}

/** Upper end of the Wilson score interval (see wilsonLow); 1 for n = 0. */
export function wilsonHigh(k: number, n: number, z: number = Z95): number {
  if (n <= 0) return 1;
  const p = k / n;
  const z2 = z * z;
  const v = (p + z2 / (2 * n) + z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return Math.min(1, Math.max(0, v));
}

/**
 * The win-rate interval of a batch: unknown deals count as lost for the lower end and as won
 * for the upper end, so the interval holds whatever the unknown deals turn out to be:
 * [wilsonLow(won, n), wilsonHigh(won + unknown, n)].
 */
export function winInterval(won: number, unknown: number, n: number, z: number = Z95): { low: number; high: number } {
  return { low: wilsonLow(won, n, z), high: wilsonHigh(won + unknown, n, z) };
}

/** Mean, median, 90th percentile, max and total of a list of numbers (percentiles linearly interpolated). */
export interface Distribution {
  readonly mean: number;
  readonly median: number;
  readonly p90: number;
  readonly max: number;
  readonly total: number;
}

/** Percentile q (0..1) of sorted values, linear interpolation between closest ranks (numpy's default). */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

export function distribution(values: Float64Array): Distribution {
  const n = values.length;
  if (n === 0) return { mean: 0, median: 0, p90: 0, max: 0, total: 0 };
  const sorted = Float64Array.from(values).sort();
  let total = 0;
  for (let i = 0; i < n; i++) total += sorted[i]!;
  return { mean: total / n, median: percentile(sorted, 0.5), p90: percentile(sorted, 0.9), max: sorted[n - 1]!, total };
}

/** The figures of one deal that the summary needs. */
export interface DealFigures {
  readonly verdict: string;
  readonly limit: string;
  readonly nodes: number;
  readonly ms: number;
}

export interface Counts {
  deals: number;
  won: number;
  /** Proven lost by the solver. */
  unsolvable: number;
  /** A blind player's lost game (not a proof: the deal may still be winnable). */
  lost: number;
  unknown: number;
  /** Unknown deals by the limit that ran out ('nodes', 'time', 'memory', ...). */
  unknownByLimit: Record<string, number>;
}

export interface WinRate {
  /** won / (won + unsolvable + lost): the rate among decided deals (a player decides every deal); null when none is decided. */
  readonly point: number | null;
  /** won / deals: the share of deals won (unknown counted as lost). */
  readonly wonShare: number | null;
  /** Wilson 95 %: low = wilsonLow(won, n), high = wilsonHigh(won + unknown, n). */
  readonly low: number;
  readonly high: number;
  readonly confidence: 0.95;
}

export interface Summary extends Counts {
  readonly winRate: WinRate;
  /** Nodes expanded per deal. */
  readonly nodes: Distribution;
  /** Milliseconds per deal (the solver's own clock). */
  readonly ms: Distribution;
}

export function emptyCounts(): Counts {
  return { deals: 0, won: 0, unsolvable: 0, lost: 0, unknown: 0, unknownByLimit: {} };
}

export function addCount(c: Counts, verdict: string, limit: string): void {
  c.deals++;
  if (verdict === 'won') c.won++;
  else if (verdict === 'unsolvable') c.unsolvable++;
  else if (verdict === 'lost') c.lost++;
  else {
    c.unknown++;
    const l = limit === '' ? 'other' : limit;
    c.unknownByLimit[l] = (c.unknownByLimit[l] ?? 0) + 1;
  }
}

export function winRate(c: Counts): WinRate {
  const decided = c.won + c.unsolvable + c.lost;
  const { low, high } = winInterval(c.won, c.unknown, c.deals);
  return {
    point: decided > 0 ? c.won / decided : null,
    wonShare: c.deals > 0 ? c.won / c.deals : null,
    low,
    high,
    confidence: 0.95,
  };
}

export function summarize(rows: readonly DealFigures[]): Summary {
  const c = emptyCounts();
  const nodes = new Float64Array(rows.length);
  const ms = new Float64Array(rows.length);
  rows.forEach((r, i) => {
    addCount(c, r.verdict, r.limit);
    nodes[i] = r.nodes;
    ms[i] = r.ms;
  });
  return { ...c, winRate: winRate(c), nodes: distribution(nodes), ms: distribution(ms) };
}

/**
 * Two runs on the same deals, deal by deal: `a` deals won by both, `b` won by the first only,
 * `c` by the second only, `d` by neither (a 2x2 table of paired outcomes).
 */
export interface PairedCounts {
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
}

/**
 * The difference of two win rates measured on the same deals, p1 − p2 = (b − c) / n, with
 * Newcombe's hybrid score interval for paired proportions (Newcombe 1998, "Improved confidence
 * intervals for the difference between binomial proportions based on paired data", method 10):
 * it combines the Wilson intervals [l1, u1] of p1 and [l2, u2] of p2 with the correlation φ of
 * the pairs,
 *   low  = θ − sqrt((p1 − l1)² − 2φ (p1 − l1)(u2 − p2) + (u2 − p2)²)
 *   high = θ + sqrt((u1 − p1)² − 2φ (u1 − p1)(p2 − l2) + (p2 − l2)²)
 *   φ = C / sqrt((a+b)(c+d)(a+c)(b+d))   (0 when a margin is empty),
 * where C = ad − bc with Newcombe's continuity correction: ad − bc − n/2 when ad − bc > n/2,
 * 0 when 0 <= ad − bc <= n/2 (as in Altman et al., "Statistics with confidence", 2000). Without
 * it, two runs that agree on every deal at a rate of one half get an interval of width 0.
 * Unlike the plain normal interval of the per-deal differences, it stays sensible for small
 * samples and for rates near 0 or 1 (b = c = 0 still gives an interval of some width); for
 * large samples the two agree. The pairing makes it much narrower than the difference of two
 * independent samples when the runs win mostly the same deals.
 */
export function pairedDifference(t: PairedCounts, z: number = Z95): { diff: number; low: number; high: number } {
  const { a, b, c, d } = t;
  const n = a + b + c + d;
  if (n === 0) return { diff: 0, low: -1, high: 1 };
  const p1 = (a + b) / n;
  const p2 = (a + c) / n;
  const l1 = wilsonLow(a + b, n, z);
  const u1 = wilsonHigh(a + b, n, z);
  const l2 = wilsonLow(a + c, n, z);
  const u2 = wilsonHigh(a + c, n, z);
  const den = Math.sqrt((a + b) * (c + d) * (a + c) * (b + d));
  const cross = a * d - b * c;
  const corrected = cross > n / 2 ? cross - n / 2 : cross < 0 ? cross : 0;
  const phi = den > 0 ? corrected / den : 0;
  const theta = p1 - p2;
  const dl = Math.sqrt(Math.max(0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2));
  const dh = Math.sqrt(Math.max(0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2));
  return { diff: theta, low: Math.max(-1, theta - dl), high: Math.min(1, theta + dh) };
}
