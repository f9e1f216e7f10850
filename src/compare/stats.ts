/**
 * The figures of a benchmark: per heuristic (decided, won, unknown; nodes and milliseconds per
 * deal; nodes per second) and, because every heuristic searched the same deals, a paired
 * comparison of each heuristic with the first (the baseline).
 *
 * Paired comparison, deal by deal: a heuristic does better on a deal than the baseline when it
 * decided the deal and the baseline did not, or both decided it and it expanded fewer nodes;
 * worse the other way round; a tie when both left the deal unknown or both decided it with the
 * same nodes. The sign test asks whether "better" and "worse" are equally likely: an exact
 * two-sided binomial test of the better count among better + worse (ties left out) with p = 1/2.
 */
import { percentile } from '../batch/stats.js';

/** One search of one deal, as the benchmark keeps it. */
export interface BenchCell {
  readonly verdict: 'won' | 'unsolvable' | 'unknown';
  readonly nodes: number;
  readonly ms: number;
}

export const decided = (c: BenchCell): boolean => c.verdict !== 'unknown';

export interface Spread {
  readonly median: number;
  readonly mean: number;
  readonly p90: number;
}

function spread(values: number[]): Spread {
  if (values.length === 0) return { median: 0, mean: 0, p90: 0 };
  const s = Float64Array.from(values).sort();
  let t = 0;
  for (const v of s) t += v;
  return { median: percentile(s, 0.5), mean: t / s.length, p90: percentile(s, 0.9) };
}

/** The figures of one heuristic over all deals. */
export interface HeuristicSummary {
  readonly deals: number;
  readonly won: number;
  readonly unsolvable: number;
  readonly unknown: number;
  readonly decided: number;
  /** Over all deals (an unknown deal counts the nodes and time it spent: the budget). */
  readonly nodes: Spread;
  readonly ms: Spread;
  readonly totalNodes: number;
  readonly totalMs: number;
  /** All nodes over all seconds; null when no time was measured. */
  readonly nodesPerSecond: number | null;
}

export function summarizeCells(cells: readonly BenchCell[]): HeuristicSummary {
  let won = 0;
  let unsolvable = 0;
  let totalNodes = 0;
  let totalMs = 0;
  for (const c of cells) {
    if (c.verdict === 'won') won++;
    else if (c.verdict === 'unsolvable') unsolvable++;
    totalNodes += c.nodes;
    totalMs += c.ms;
  }
  const unknown = cells.length - won - unsolvable;
  return {
    deals: cells.length,
    won,
    unsolvable,
    unknown,
    decided: won + unsolvable,
    nodes: spread(cells.map((c) => c.nodes)),
    ms: spread(cells.map((c) => c.ms)),
    totalNodes,
    totalMs,
    nodesPerSecond: totalMs > 0 ? totalNodes / (totalMs / 1000) : null,
  };
}

/** A heuristic against the baseline, deal by deal. */
export interface Paired {
  /** Deals this heuristic decided and the baseline did not, and the other way round. */
  readonly onlyThis: number;
  readonly onlyBase: number;
  /** Deals both decided. */
  readonly both: number;
  /**
   * Median over the deals both decided of nodes(this) / nodes(baseline), leaving out those both
   * decided with no node at all (LockBound proved them lost before any search: they say nothing
   * of a heuristic); null when there are none. Below 1: this needs fewer.
   */
  readonly medianNodeRatio: number | null;
  /** Deals on which this did better, worse, the same (see the module's comment). */
  readonly better: number;
  readonly worse: number;
  readonly ties: number;
  /** Exact two-sided sign test of better against worse; 1 when there are none. */
  readonly p: number;
}

/** Compares `other` with `base`, deal by deal (the arrays are in the same deal order). */
export function pairedComparison(base: readonly BenchCell[], other: readonly BenchCell[]): Paired {
  if (base.length !== other.length) throw new Error(`internal: paired lists of ${base.length} and ${other.length} deals`);
  let onlyThis = 0;
  let onlyBase = 0;
  let better = 0;
  let worse = 0;
  let ties = 0;
  let both = 0;
  const ratios: number[] = [];
  for (let i = 0; i < base.length; i++) {
    const a = base[i]!;
    const b = other[i]!;
    const da = decided(a);
    const db = decided(b);
    if (db && !da) {
      onlyThis++;
      better++;
    } else if (da && !db) {
      onlyBase++;
      worse++;
    } else if (!da && !db) ties++;
    else {
      both++;
      if (a.nodes > 0 || b.nodes > 0) ratios.push(a.nodes > 0 ? b.nodes / a.nodes : Infinity);
      if (b.nodes < a.nodes) better++;
      else if (b.nodes > a.nodes) worse++;
      else ties++;
    }
  }
  const sorted = Float64Array.from(ratios).sort();
  return {
    onlyThis,
    onlyBase,
    both,
    medianNodeRatio: ratios.length > 0 ? percentile(sorted, 0.5) : null,
    better,
    worse,
    ties,
    p: signTest(better, worse),
  };
}

/**
 * Exact two-sided sign test: with n = a + b trials of a fair coin, the probability of a split at
 * least as uneven as a : b, i.e. min(1, 2 * P(X <= min(a, b))) for X ~ Binomial(n, 1/2).
 * Summed in logarithms, so any n works.
 */
export function signTest(a: number, b: number): number {
  const n = a + b;
  if (n === 0) return 1;
  const k = Math.min(a, b);
  // log C(n, i) built up from i = 0; each term is exp(log C(n, i) - n log 2).
  const ln2n = n * Math.LN2;
  let logC = 0;
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
    sum += Math.exp(logC - ln2n);
  }
  return Math.min(1, 2 * sum);
}

/**
 * The step curve of the chart: for each node budget x, how many deals were decided within x
 * nodes (sorted node counts of the decided deals). With a node budget and a deterministic
 * search this is exactly what a run at budget x would decide.
 */
export function decidedByNodes(cells: readonly BenchCell[]): number[] {
  return cells.filter(decided).map((c) => c.nodes).sort((x, y) => x - y);
}
