/**
 * The win-rate estimator: how often a game can be won with perfect information, to within an
 * interval that holds whatever the deals no budget decided turn out to be.
 *
 * Each row is a game (rules and the tactics kept to) over a range of deals. Phase 1 solves every
 * deal of every row at a short budget (a batch: ROW's phase-1 CSV). Verdicts then carry between
 * rows where one game is a subgame of another (implications.ts). For each estimate — a row's win
 * rate, and a row's difference from its baseline on the same deals — the deals still undecided
 * are split into strata by what phase 1 saw of them (`strata`: none, one stratum; or `home`, the
 * cards phase 1 got home and the budget that ran out), and phase 2 solves a simple random sample
 * of each stratum at a long budget: a stratum's first n_h deals in the order of a seeded random
 * priority of each deal (the same priority for every estimate, so that the samples overlap and
 * share their solves). The first round's sample is --sample deals, shared among the strata in
 * proportion to their sizes; with a target width, more rounds follow, each adding deals where
 * they narrow the interval most per core-second (Neyman's allocation with the costs phase 2
 * has measured, estimate.ts `allocate`), until every interval is that narrow or a budget is
 * spent. Each row's phase-2 deals are one more batch with a deal list (ROW's phase-2 CSV) that
 * grows from round to round, so both phases resume like any batch; where a row has a prover's
 * pass, the sampled deals still unknown after it are one more (ROW's phase-2 prove CSV): the
 * portfolio finds most wins, the prover most proofs, and a verdict is a verdict, so the pass only
 * settles more of a sample that phase 1 alone drew.
 * The rows' phase 2 runs in the matrix's order, free game first: a loss it proves falls to every
 * restricted row below it, and the deals that settles are not solved again. estimate.ts turns
 * the verdicts into estimates and intervals.
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeDir } from '../util/fileio.js';
import seedrandom from 'seedrandom';
import { type Rules, type Size, type Tactics, UserError, deckCount, formatRules } from '../game/index.js';
import { type SolveRequest } from '../solver/index.js';
import { type JobSpec, solveSpec } from '../batch/job.js';
import { forEachRow } from '../batch/rows.js';
import { type DealRange, formatRange, rangeLast } from '../batch/range.js';
import { readMeta } from '../batch/sidecar.js';
import { runDifference } from '../batch/difference.js';
import { type BatchConfig, type BatchOutcome, isSubList, runBatch } from '../batch/run.js';
import { type ClusterTask, type SharedJob, collectDeals, dealFile, isComplete, mergeOnce, shardFile, shareJobs } from './cluster.js';
import { type RowFields } from '../batch/rows.js';
import { type Bounds, type Estimate, type Stratum, allocate, moments, samplingVariance, stratified, twoPhase } from './estimate.js';
import { type Known, LOST, UNKNOWN, WON, close, subgamePairs } from './implications.js';

/** One game of the estimator over its deals. */
export interface EstimatorRow {
  /** `free`, `pairing-never`, `rules-privileged-2`: the row's name in reports. */
  readonly name: string;
  readonly rules: Rules;
  readonly tactics: Tactics;
  readonly size: Size;
  /** Phase 1's deals (a row's range lies within the first row's). */
  readonly range: DealRange;
  /** Phase 1's and phase 2's jobs: the same game, a short and a long budget. */
  readonly phase1: JobSpec;
  readonly phase2: JobSpec;
  readonly file1: string;
  readonly file2: string;
  /**
   * The prover's pass of phase 2 (none: no pass): the sampled deals the long budget left unknown
   * are solved again with this job (the `prove` preset), into this file.
   */
  readonly prove?: { readonly spec: JobSpec; readonly file: string };
  /** The row this one's difference is taken from (undefined: none). */
  readonly baseline?: string;
}

/** How phase 2 splits the undecided deals: `none`, one stratum; `home`, by phase 1's best cards home and the budget that ran out. */
export type StrataKind = 'none' | 'home';
export const STRATA_KINDS: readonly StrataKind[] = ['none', 'home'];

export interface EstimatorConfig {
  readonly rows: readonly EstimatorRow[];
  /** Phase-2 sample size of each estimate in the first round (0: no phase 2). */
  readonly sample: number;
  /** The strata of phase 2 (default none: one simple random sample of the undecided deals). */
  readonly strata?: StrataKind;
  /**
   * Grow each estimate's sample in rounds until its 95 % interval is at most this wide (a
   * fraction: 0.02 for 2 points), or a budget below is spent (none: one round of `sample`).
   */
  readonly targetWidth?: number;
  /** The most deals an estimate's sample grows to. */
  readonly maxSample?: number;
  /** The solver seconds phase 2 may take (its files' ms column, summed) before the sample stops growing. */
  readonly maxSeconds?: number;
  /** Keep a certificate of every decided deal of every file (src/batch/certs.ts). */
  readonly certificates?: boolean;
  /**
   * This process is a task of a cluster job (cluster.ts): phase 1 in shards and phase 2 a deal
   * at a time, shared with the other tasks through the files; task 1 collects them at the end.
   */
  readonly cluster?: ClusterTask;
  /** The seed of the deals' priority. */
  readonly seed: string;
  readonly workers: number;
  readonly progress: boolean;
  readonly command: string;
  readonly note?: (text: string) => void;
  /** What the progress line and notes are headed with (`experiment winrate`). */
  readonly label: string;
  /**
   * false: run no batch, only read what the files hold (phase 1 must be finished). A row's
   * phase-2 deals are known only once every row before it has finished its phase 2, so from the
   * first row whose phase 2 (or its prover's pass) is not finished on, the sampled deals keep
   * their phase-1 verdicts (counted both ways).
   */
  readonly run?: boolean;
}

/** What an estimate rests on, deal counts by how each was decided. */
export interface EstimateLine {
  /** The row, and for a difference its baseline. */
  readonly row: string;
  readonly baseline?: string;
  readonly kind: 'rate' | 'difference';
  readonly range: DealRange;
  readonly estimate: Estimate;
  /** Phase-1 verdicts on these deals (for a difference: the row's). */
  readonly phase1: { readonly won: number; readonly lost: number; readonly unknown: number };
  /** Deals whose value phase-1 verdicts of other rows settled (implications). */
  readonly implied: number;
  /** Of the sample: values phase 2 settled. */
  readonly settled: number;
}

/** Why phase 2's sample stopped growing. */
export type StopReason = 'one round' | 'width' | 'sample' | 'budget' | 'whole' | 'unfinished';

/** How phase 2 went: its rounds, why its sample stopped growing, and the solver time its files hold. */
export interface Phase2Report {
  readonly strata: StrataKind;
  readonly rounds: number;
  readonly stopped: StopReason;
  /** Seconds of the solver (the ms column) over every phase-2 file's sampled deals. */
  readonly seconds: number;
  readonly targetWidth?: number;
  readonly maxSample?: number;
  readonly maxSeconds?: number;
}

export interface EstimatorOutcome {
  readonly status: 'done' | 'interrupted';
  readonly signal?: NodeJS.Signals;
  readonly lines: readonly EstimateLine[];
  readonly phase2?: Phase2Report;
}

/** A row's prover's pass of phase 2: the `prove` preset at a node budget, in a memory cap, into `file`. */
export function provePass(rules: Rules, size: Size, nodes: number, memory: number, restricted: { readonly tactics?: Tactics }, file: string): { spec: JobSpec; file: string } {
  const solver: SolveRequest = { preset: 'prove', maxNodes: nodes, maxMemoryMB: memory, ...restricted };
  return { spec: solveSpec('v1', rules, size, solver), file };
}

/** A deal's random priority in [0, 1): the sample of an estimate is its undecided deals of lowest priority. */
export function priority(seed: string, deal: number): number {
  return seedrandom(`winrate:${seed}:${deal}`)();
}

/** Deal verdicts over a range: UNKNOWN (also: not there), WON or LOST, one byte a deal. */
export type Verdicts = Uint8Array;

/**
 * A finished results file's verdicts by deal (index deal − range.from), each row checked as
 * resume checks it. `into` gathers several files; a deal twice is an error.
 */
export async function readVerdicts(file: string, spec: JobSpec, range: DealRange, into?: Verdicts, seen?: Uint8Array): Promise<{ verdicts: Verdicts; count: number }> {
  const verdicts = into ?? new Uint8Array(range.count);
  const count = await forEachRow(file, spec, range, seen ?? new Uint8Array(range.count), (i, verdict) => {
    verdicts[i] = verdict === 'won' ? WON : verdict === 'unsolvable' ? LOST : UNKNOWN;
  });
  return { verdicts, count };
}

/** What phase 1 saw of a row's deals: best cards home and the budget that ran out (0 none or nodes, 1 time, 2 memory), by deal − range.from. */
interface Seen {
  readonly home: Uint16Array;
  readonly limit: Uint8Array;
}

const LIMIT_CODE: Readonly<Record<string, number>> = { time: 1, memory: 2 };

/** The strata's bounds on best cards home, for a full deck of 104 cards: up to 30, 31-45, 46-60, over 60 (a smaller deck's in proportion). */
const HOME_EDGES = [30, 45, 60];

/** The stratum of a deal phase 1 left undecided, from what it saw: its key (for the order of strata) and its words. */
export function homeStratum(home: number, limit: string, cards: number): { key: number; label: string } {
  const edges = HOME_EDGES.map((e) => Math.round((e * cards) / 104));
  let band = edges.findIndex((e) => home <= e);
  if (band < 0) band = edges.length;
  const words = band === 0 ? `best home ≤${edges[0]}` : band === edges.length ? `best home >${edges[edges.length - 1]}` : `best home ${edges[band - 1]! + 1}-${edges[band]}`;
  const code = LIMIT_CODE[limit] ?? 0;
  return { key: band * 4 + code, label: code === 0 ? words : `${words}, out of ${limit}` };
}

/** The estimates the rows ask for: each row's rate, and each row's difference from its baseline. */
interface Target {
  readonly row: number;
  readonly baseline: number | null;
  readonly range: DealRange;
}

function targetsOf(rows: readonly EstimatorRow[]): Target[] {
  const t: Target[] = rows.map((r, i) => ({ row: i, baseline: null, range: r.range }));
  rows.forEach((r, i) => {
    if (r.baseline === undefined || r.baseline === r.name) return;
    const b = rows.findIndex((x) => x.name === r.baseline);
    if (b < 0) throw new Error(`internal: row ${r.name}'s baseline ${r.baseline} is not a row`);
    const base = rows[b]!.range;
    if (r.range.from < base.from || rangeLast(r.range) > rangeLast(base)) throw new Error(`internal: row ${r.name}'s deals are not within its baseline's`);
    t.push({ row: i, baseline: b, range: r.range });
  });
  return t;
}

/**
 * What is known of every row's verdict on each deal of the first row's range (the widest: every
 * row's range lies within it): phase-1 verdicts, phase-2 verdicts where given, then closed under
 * the implications.
 */
class Table {
  /** known[row][deal − from]. */
  readonly known: Uint8Array[];
  /** What phase 1 saw of each row's deals (seen[row], by deal − the row's range.from). */
  readonly seen: Seen[];
  /** The verdicts of phase 1 alone, before the implications (set once phase 1 is read). */
  phase1: Uint8Array[] | null = null;
  readonly from: number;
  readonly pairs: [number, number][];

  constructor(readonly rows: readonly EstimatorRow[]) {
    const all = rows[0]!.range;
    this.from = all.from;
    this.known = rows.map(() => new Uint8Array(all.count));
    this.seen = rows.map((r) => ({ home: new Uint16Array(r.range.count), limit: new Uint8Array(r.range.count) }));
    this.pairs = subgamePairs(rows.map((r) => ({ rules: r.rules, tactics: r.tactics })));
    for (const r of rows) if (r.range.from < all.from || rangeLast(r.range) > rangeLast(all)) throw new Error(`internal: row ${r.name}'s deals are not within the first row's`);
  }

  has(row: number, deal: number): boolean {
    const r = this.rows[row]!.range;
    return deal >= r.from && deal <= rangeLast(r);
  }

  /** Closes one deal under the implications; a contradiction is a solver bug. */
  closeDeal(deal: number): void {
    const i = deal - this.from;
    const k = this.known.map((v) => v[i]! as Known);
    const present = this.rows.map((_, r) => this.has(r, deal));
    if (!close(k, this.pairs, present))
      throw new Error(`internal: the rows' verdicts on deal ${deal} contradict each other (${this.rows.map((r, j) => `${r.name} ${k[j]}`).join(', ')}): a win under a subgame, a loss above it`);
    k.forEach((v, r) => (this.known[r]![i] = v));
  }

  get(row: number, deal: number, known: readonly Uint8Array[] = this.known): Known {
    return known[row]![deal - this.from]! as Known;
  }

  /**
   * A deal's value for a target as bounds: a rate's 0 or 1; a difference of two rows' values,
   * with the implications between them. `known`: the verdicts to go by (default: all known now).
   */
  bounds(t: Target, deal: number, known: readonly Uint8Array[] = this.known): Bounds {
    const values = (k: Known): number[] => (k === WON ? [1] : k === LOST ? [0] : [0, 1]);
    const ys = values(this.get(t.row, deal, known));
    if (t.baseline === null) return { lo: ys[0]!, hi: ys[ys.length - 1]! };
    const sub = this.pairs.some(([a, b]) => a === t.row && b === t.baseline);
    const sup = this.pairs.some(([a, b]) => a === t.baseline && b === t.row);
    let lo = Infinity;
    let hi = -Infinity;
    for (const y of ys)
      for (const x of values(this.get(t.baseline, deal, known))) {
        if ((sub && y > x) || (sup && x > y)) continue;
        lo = Math.min(lo, y - x);
        hi = Math.max(hi, y - x);
      }
    return { lo, hi };
  }
}

/** An estimate's phase 2: its undecided deals after phase 1, in strata, each ranked by priority, and how many of each are sampled. */
interface Plan {
  readonly t: Target;
  readonly undecided: readonly number[];
  readonly strata: readonly { readonly label: string; readonly deals: readonly number[] }[];
  /** n_h: the stratum's first n_h deals are its sample. */
  n: number[];
}

/** The undecided deals of a target after phase 1, in its strata (fixed by phase 1 alone), each stratum's deals in the order of their priority. */
function planOf(table: Table, t: Target, kind: StrataKind, seed: string): Plan {
  const undecided: number[] = [];
  for (let d = t.range.from; d <= rangeLast(t.range); d++) {
    const b = table.bounds(t, d);
    if (b.lo !== b.hi) undecided.push(d);
  }
  const groups = new Map<number, { label: string; deals: { d: number; p: number }[] }>();
  for (const d of undecided) {
    let key = 0;
    let label = 'all undecided deals';
    if (kind === 'home') {
      // A difference's deal by the row's phase 1 when it left the deal unknown, else by the baseline's.
      const r = t.baseline === null || table.phase1![t.row]![d - table.from] === UNKNOWN ? t.row : t.baseline;
      const row = table.rows[r]!;
      const i = d - row.range.from;
      const s = homeStratum(table.seen[r]!.home[i]!, ['', 'time', 'memory'][table.seen[r]!.limit[i]!]!, deckCount(row.size));
      key = s.key;
      label = s.label;
    }
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { label, deals: [] }));
    g.deals.push({ d, p: priority(seed, d) });
  }
  const strata = [...groups.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([, g]) => ({ label: g.label, deals: g.deals.sort((a, b) => a.p - b.p || a.d - b.d).map((x) => x.d) }));
  return { t, undecided, strata, n: strata.map(() => 0) };
}

/** A plan's sample: each stratum's first n_h deals, in increasing order. */
const sampleOf = (p: Plan): number[] => p.strata.flatMap((s, h) => s.deals.slice(0, p.n[h])).sort((a, b) => a - b);

/**
 * The first round's allocation of `sample` deals among strata of these sizes: one stratum takes
 * its first `sample` deals (as before strata); several share them in proportion to their sizes
 * (Neyman's allocation with every stratum at the prior variance and equal costs), at least
 * LEAST each.
 */
export function firstAllocation(sizes: readonly number[], sample: number, kind: 'rate' | 'difference'): number[] {
  if (sample <= 0) return sizes.map(() => 0);
  if (sizes.length === 1) return [Math.min(sample, sizes[0]!)];
  const prior = Math.sqrt(samplingVariance([], kind));
  return allocate(sizes.map((size) => ({ size, sd: prior, cost: 1, n: 0 })), sample);
}

/** How much each round's sample grows (before the allocation and the caps): by half. */
export const GROWTH = 1.5;
/** The least deals a stratum's sample has (or all it has): two give it a variance. */
export const LEAST = 2;

/**
 * A stratum as the next round's allocation sees it: its size, its sample's bounds, and each
 * sampled deal's cost (any unit, the budget's; the estimator counts nodes).
 */
export interface GrowthStratum {
  readonly size: number;
  readonly sample: readonly Bounds[];
  readonly costs: readonly number[];
}

/**
 * The next round's allocation (null: it does not grow): the sample grows by GROWTH (at least a
 * deal; at most `maxSample` deals, or the undecided deals), each deal added where it narrows the
 * interval most per unit of cost (`allocate`): each stratum's standard deviation from its sample
 * (the larger of its two sides: still undecided deals counted as lost, and as won), and its
 * deals' mean cost; a stratum with no sample has the prior variance and the estimate's mean
 * cost. No deal is added past `budget` (in the costs' unit).
 */
export function growAllocation(strata: readonly GrowthStratum[], kind: 'rate' | 'difference', maxSample: number, budget: number): { n: number[]; cost: number } | null {
  const total = strata.reduce((a, s) => a + s.sample.length, 0);
  const cap = Math.min(maxSample, strata.reduce((a, s) => a + s.size, 0));
  if (total >= cap) return null;
  const next = Math.min(cap, Math.max(total + 1, Math.ceil(total * GROWTH)));
  const all = strata.flatMap((s) => s.costs);
  const meanCost = all.length > 0 ? all.reduce((a, x) => a + x, 0) / all.length : 1;
  const input = strata.map((s) => ({
    size: s.size,
    sd: Math.sqrt(Math.max(samplingVariance(s.sample.map((b) => b.lo), kind), samplingVariance(s.sample.map((b) => b.hi), kind))),
    cost: s.costs.length > 0 ? s.costs.reduce((a, x) => a + x, 0) / s.costs.length : meanCost,
    n: s.sample.length,
  }));
  const n = allocate(input, next, LEAST, budget);
  if (n.every((x, h) => x === input[h]!.n)) return null;
  return { n, cost: n.reduce((a, x, h) => a + (x - input[h]!.n) * input[h]!.cost, 0) };
}

/**
 * A row's phase-2 file (or its prover's pass's) already holds `deals` and more: a later round's
 * list, from a run that went further before this one replayed its rounds. Its rows of these
 * deals are there (each round finished before the next began), so they are only read.
 */
function heldByLater(row: EstimatorRow, file: string, spec: JobSpec, deals: readonly number[]): boolean {
  const meta = readMeta(file);
  if (!meta?.deals || meta.deals.length <= deals.length || !isSubList(deals, meta.deals)) return false;
  return runDifference({ ...meta, deals: [...deals] }, { job: spec, range: row.range, shard: null, deals }) === null;
}

/** Is a row's phase-2 file (or its prover's pass's) there and finished with these deals (or a later round's), and its job? */
function phaseDone(row: EstimatorRow, file: string, spec: JobSpec, deals: readonly number[]): boolean {
  if (heldByLater(row, file, spec, deals)) return true;
  const meta = readMeta(file);
  return meta !== null && meta.complete && existsSync(file) && runDifference(meta, { job: spec, range: row.range, shard: null, deals }) === null;
}

/** The verdicts of a finished phase-1 file, and what phase 1 saw of each deal. */
async function readPhase1(row: EstimatorRow, table: Table, r: number): Promise<void> {
  const file = row.file1;
  checkFinished(row, file, row.phase1);
  const known = table.known[r]!;
  const off = row.range.from - table.from;
  const seen = table.seen[r]!;
  await forEachRow(file, row.phase1, row.range, new Uint8Array(row.range.count), (i, verdict, _line, _deal, f: RowFields) => {
    known[off + i] = verdict === 'won' ? WON : verdict === 'unsolvable' ? LOST : UNKNOWN;
    seen.home[i] = f.bestHome;
    seen.limit[i] = LIMIT_CODE[f.limit] ?? 0;
  });
}

function checkFinished(row: EstimatorRow, file: string, spec: JobSpec, deals?: readonly number[] | 'some'): void {
  const meta = readMeta(file);
  if (!meta) throw new Error(`internal: ${file} is not finished`);
  if (deals === 'some') {
    // A file that holds these deals among others: its job and range only (readPhase finds the rows).
    if (!meta.complete) throw new Error(`internal: ${file} is not finished`);
    const d = runDifference({ ...meta, deals: undefined }, { job: spec, range: row.range, shard: null });
    if (d) throw new UserError(`${file} was made with ${d.option} ${d.a}, not ${d.b}: give the options that made it, or another directory`);
    return;
  }
  let asIf = meta;
  // A later round's file holds these deals and more: compared as if it held these (readPhase
  // then checks that their rows are there).
  if (deals && meta.deals && meta.deals.length > deals.length && isSubList(deals, meta.deals)) asIf = { ...meta, deals: [...deals] };
  else if (!meta.complete) throw new Error(`internal: ${file} is not finished`);
  const d = runDifference(asIf, { job: spec, range: row.range, shard: null, ...(deals ? { deals } : {}) });
  if (d) throw new UserError(`${file} was made with ${d.option} ${d.a}, not ${d.b}: give the options that made it, or another directory`);
}

/** A phase-2 file's verdicts of `deals` (only those: a later round's deals wait for their round), and each deal's solver milliseconds. */
/** The deals a phase's file holds already, when it is of this job and range (a cluster's task solves only the others). */
function inPhaseFile(row: EstimatorRow, file: string, spec: JobSpec): Set<number> {
  const meta = readMeta(file);
  if (!meta?.complete || !meta.deals || runDifference({ ...meta, deals: undefined }, { job: spec, range: row.range, shard: null }) !== null) return new Set();
  return new Set(meta.deals);
}

/** A cluster's phase-2 verdicts: of `inFile` from the phase's file, of the others from their own files. */
async function readDeals(row: EstimatorRow, file: string, spec: JobSpec, table: Table, r: number, deals: readonly number[], inFile: ReadonlySet<number>, costs: Map<number, DealCost>): Promise<void> {
  const kept = deals.filter((d) => inFile.has(d));
  if (kept.length > 0) await readPhase(row, file, spec, table, r, kept, costs, true);
  for (const d of deals) if (!inFile.has(d)) await readPhase(row, dealFile(file, d), spec, table, r, [d], costs);
}

/** A phase-2 deal's solver time and nodes (its cost: nodes, the same on any machine; time, for the budget). */
interface DealCost {
  readonly ms: number;
  readonly nodes: number;
}

async function readPhase(row: EstimatorRow, file: string, spec: JobSpec, table: Table, r: number, deals: readonly number[], costs: Map<number, DealCost>, part = false): Promise<void> {
  // `part`: the file holds these deals among others (a cluster's collected file).
  checkFinished(row, file, spec, part ? 'some' : deals);
  const want = new Set(deals);
  const known = table.known[r]!;
  const off = row.range.from - table.from;
  let found = 0;
  await forEachRow(file, spec, row.range, new Uint8Array(row.range.count), (i, verdict, _line, deal, f: RowFields) => {
    if (!want.has(deal)) return;
    found++;
    if (verdict === 'won') known[off + i] = WON;
    else if (verdict === 'unsolvable') known[off + i] = LOST;
    costs.set(deal, { ms: f.ms, nodes: f.nodes });
  });
  if (found !== deals.length) throw new UserError(`${file} lacks ${deals.length - found} of the ${deals.length} deals of its sample: run the same command again to finish it`);
}

/**
 * Runs both phases (each resumes what an earlier run left) and returns the estimates. A row's
 * phase 2 needs every earlier row's, and a round every earlier round's, so an interruption stops
 * the whole run; running the same command again replays the rounds from the files (a round's
 * allocation depends only on the verdicts and times the earlier rounds wrote) and goes on where
 * it stopped.
 */
export async function runEstimator(cfg: EstimatorConfig): Promise<EstimatorOutcome> {
  const note = cfg.note ?? ((t: string) => process.stderr.write(t + '\n'));
  const { rows } = cfg;
  const strataKind = cfg.strata ?? 'none';
  const targets = targetsOf(rows);
  const batchConfig = (row: EstimatorRow, phase: string, spec: JobSpec, out: string, deals?: readonly number[]): BatchConfig => ({
    spec,
    range: row.range,
    shard: null,
    out,
    workers: cfg.workers,
    progress: cfg.progress,
    label: `${cfg.label} ${row.name} ${phase}`,
    command: cfg.command,
    note,
    ...(deals ? { deals } : {}),
    ...(cfg.certificates ? { certificates: true } : {}),
  });
  const batch = (row: EstimatorRow, phase: string, spec: JobSpec, out: string, deals?: readonly number[]): Promise<BatchOutcome> => runBatch(batchConfig(row, phase, spec, out, deals));
  const interrupted = (o: BatchOutcome): EstimatorOutcome => ({ status: 'interrupted', signal: o.signal!, lines: [] });

  const running = cfg.run !== false;
  // Phase 1: every deal of every row at the short budget.
  const task = cfg.cluster;
  const shared = async (jobs: readonly SharedJob[], slots: number): Promise<EstimatorOutcome | null> => {
    const o = await shareJobs(jobs, task!, slots);
    return o.status === 'interrupted' ? { status: 'interrupted', signal: o.signal, lines: [] } : null;
  };
  for (const row of rows) {
    if (!running) continue;
    // A task never runs a batch on a finished file: the others may be reading it.
    if (task && isComplete(row.file1)) continue;
    if (task) {
      // Shards of the range, this task's first; then any whose task is gone.
      note(`${cfg.label}: ${row.name}: phase 1, deals ${formatRange(row.range)} in ${task.count} shards (task ${task.index}/${task.count}, ${task.from}) -> ${shardFile(row.file1, { index: task.index, count: task.count })}`);
      const jobs = Array.from({ length: task.count }, (_, k): SharedJob => {
        const shard = { index: k + 1, count: task.count };
        const out = shardFile(row.file1, shard);
        return { file: out, run: () => runBatch({ ...batchConfig(row, 'phase 1', row.phase1, out), shard }) };
      });
      const stop = await shared(jobs, 1);
      if (stop) return stop;
      await mergeOnce(row.file1, task.count, cfg.command, task);
      continue;
    }
    note(`${cfg.label}: ${row.name}: phase 1, deals ${formatRange(row.range)} -> ${row.file1}`);
    const o = await batch(row, 'phase 1', row.phase1, row.file1);
    if (o.status === 'interrupted') return interrupted(o);
  }
  const table = new Table(rows);
  for (let r = 0; r < rows.length; r++) await readPhase1(rows[r]!, table, r);
  const all = rows[0]!.range;
  const phase1Known = table.known.map((k) => k.slice());
  table.phase1 = phase1Known;
  for (let d = all.from; d <= rangeLast(all); d++) table.closeDeal(d);
  // The strata are fixed now, by phase 1 alone; the first round's sample too.
  const kindOf = (t: Target): 'rate' | 'difference' => (t.baseline === null ? 'rate' : 'difference');
  const plans = targets.map((t) => planOf(table, t, strataKind, cfg.seed));
  for (const p of plans) p.n = firstAllocation(p.strata.map((s) => s.deals.length), cfg.sample, kindOf(p.t));
  const afterPhase1 = table.known.map((k) => k.slice());

  // Each row's deals of each pass, over the rounds so far (a file's list only grows), and each
  // deal's solver milliseconds there.
  const lists = rows.map(() => [new Set<number>(), new Set<number>()]);
  const times = rows.map(() => [new Map<number, DealCost>(), new Map<number, DealCost>()]);
  const total = (key: keyof DealCost): number => times.reduce((a, row) => a + row.reduce((b, m) => b + [...m.values()].reduce((c, x) => c + x[key], 0), 0), 0);
  const seconds = (): number => total('ms') / 1000;

  // Task 1's phase files to collect at the end (the last round's list of each wins).
  const collect: { file: string; spec: JobSpec; range: DealRange; deals: readonly number[] }[] = [];

  /** Phase 2's round: each row solves the sampled deals whose value needs its verdict and is not known yet. false: a file not finished (run: false). */
  const round = async (k: number): Promise<boolean | EstimatorOutcome> => {
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      for (const p of plans) if (p.t.row === r || p.t.baseline === r) for (const d of sampleOf(p)) if (table.get(r, d) === UNKNOWN) lists[r]![0]!.add(d);
      if (lists[r]![0]!.size === 0) {
        if (running && cfg.sample > 0 && k === 1) note(`${cfg.label}: ${row.name}: phase 2 has nothing to solve`);
        continue;
      }
      const passes = [{ phase: 'phase 2', spec: row.phase2, file: row.file2 }, ...(row.prove ? [{ phase: 'phase 2 prover', ...row.prove }] : [])];
      for (const [i, p] of passes.entries()) {
        // The prover's pass takes the sampled deals that the long budget left unknown.
        if (i === 1) for (const d of lists[r]![0]!) if (table.get(r, d) === UNKNOWN) lists[r]![1]!.add(d);
        const these = [...lists[r]![i]!].sort((a, b) => a - b);
        if (these.length === 0) break;
        if (heldByLater(row, p.file, p.spec, these)) {
          // A run that went further left it: read as it is.
        } else if (task && phaseDone(row, p.file, p.spec, these)) {
          // Finished: read as it is (a task runs no batch on a shared file that is finished).
        } else if (task && running) {
          // A task of one deal each, shared with the other tasks: the deals the phase's file
          // does not hold already (task 1 collected it, or a run on one machine made it).
          const inFile = inPhaseFile(row, p.file, p.spec);
          const todo = these.filter((d) => !inFile.has(d));
          note(`${cfg.label}: ${row.name}: ${p.phase}${k > 1 ? ` (round ${k})` : ''}, ${todo.length} sampled deal${todo.length === 1 ? '' : 's'} a task each (task ${task.index}/${task.count}) -> ${dealFile(p.file, todo[0] ?? 0).replace(/deal-\d+/, 'deal-D')}`);
          if (todo.length > 0) makeDir(dirname(dealFile(p.file, todo[0]!)), `results file '${dealFile(p.file, todo[0]!)}'`);
          const jobs = todo.map((d): SharedJob => {
            const out = dealFile(p.file, d);
            return { file: out, run: () => runBatch({ ...batchConfig(row, p.phase, p.spec, out, [d]), workers: 1, progress: false }) };
          });
          const stop = await shared(jobs, cfg.workers);
          if (stop) return stop;
          await readDeals(row, p.file, p.spec, table, r, these, inFile, times[r]![i]!);
          for (const d of these) table.closeDeal(d);
          collect.push({ file: p.file, spec: p.spec, range: row.range, deals: these });
          continue;
        } else if (running) {
          note(`${cfg.label}: ${row.name}: ${p.phase}${k > 1 ? ` (round ${k})` : ''}, ${these.length} sampled deal${these.length === 1 ? '' : 's'} -> ${p.file}`);
          const o = await batch(row, p.phase, p.spec, p.file, these);
          if (o.status === 'interrupted') return interrupted(o);
        } else if (!phaseDone(row, p.file, p.spec, these)) return false;
        await readPhase(row, p.file, p.spec, table, r, these, times[r]![i]!);
        for (const d of these) table.closeDeal(d);
      }
    }
    return true;
  };

  const linesOf = (): EstimateLine[] => plans.map((p) => lineOf(p));
  const lineOf = ({ t, undecided, strata, n }: Plan): EstimateLine => {
    const decided: number[] = [];
    const undecidedSet = new Set(undecided);
    let implied = 0;
    let won = 0;
    let lost = 0;
    let unknown = 0;
    for (let d = t.range.from; d <= rangeLast(t.range); d++) {
      const v1 = phase1Known[t.row]![d - all.from];
      v1 === WON ? won++ : v1 === LOST ? lost++ : unknown++;
      if (undecidedSet.has(d)) continue;
      // Decided after phase 1: its value from phase-1 verdicts and their implications.
      decided.push(table.bounds(t, d, afterPhase1).lo);
      if (t.baseline === null ? v1 === UNKNOWN : v1 === UNKNOWN || phase1Known[t.baseline]![d - all.from] === UNKNOWN) implied++;
    }
    const sampled = cfg.sample > 0;
    // Before phase 2 (no sample) every undecided deal stands with its bounds: a census of them.
    const parts: Stratum[] = strata.map((s, h) => ({
      undecided: s.deals.length,
      sample: (sampled ? s.deals.slice(0, n[h]) : s.deals).map((d) => table.bounds(t, d)),
      label: s.label,
    }));
    const input = { decided: moments(decided), kind: kindOf(t) };
    const estimate: Estimate =
      strataKind === 'none' ? twoPhase({ ...input, undecided: parts[0]?.undecided ?? 0, sample: parts[0]?.sample ?? [] }) : stratified({ ...input, strata: parts });
    const bounds = sampled ? sampleOf({ t, undecided, strata, n }).map((d) => table.bounds(t, d)) : [];
    return {
      row: rows[t.row]!.name,
      ...(t.baseline !== null ? { baseline: rows[t.baseline]!.name } : {}),
      kind: kindOf(t),
      range: t.range,
      estimate,
      phase1: { won, lost, unknown },
      implied,
      settled: bounds.filter((b) => b.lo === b.hi).length,
    };
  };

  /** The next round's allocation of each estimate still too wide (false: none grows). */
  const grow = (lines: readonly EstimateLine[]): boolean => {
    // Costs in nodes, so that the draws are the same on any machine (with node budgets); the
    // time budget left is turned into nodes at the rate phase 2 has gone so far.
    const rate = seconds() > 0 ? total('nodes') / seconds() : Infinity;
    let budget = cfg.maxSeconds !== undefined ? (cfg.maxSeconds - seconds()) * rate : Infinity;
    const cost = (d: number): number => times.reduce((a, row) => a + row.reduce((b, m) => b + (m.get(d)?.nodes ?? 0), 0), 0);
    let grew = false;
    plans.forEach((p, i) => {
      const e = lines[i]!.estimate;
      if (e.ciHigh - e.ciLow <= cfg.targetWidth!) return;
      const strata = p.strata.map((s, h) => {
        const deals = s.deals.slice(0, p.n[h]);
        return { size: s.deals.length, sample: deals.map((d) => table.bounds(p.t, d)), costs: deals.map(cost) };
      });
      const g = growAllocation(strata, kindOf(p.t), cfg.maxSample ?? Infinity, budget);
      if (!g) return;
      // The estimates share the budget: each takes what its added deals are expected to cost.
      budget -= g.cost;
      p.n = g.n;
      grew = true;
    });
    return grew;
  };

  let rounds = 0;
  let stopped: StopReason = 'one round';
  let lines: EstimateLine[];
  for (;;) {
    rounds++;
    const r = cfg.sample > 0 ? await round(rounds) : true;
    if (typeof r === 'object') return r;
    lines = linesOf();
    if (!r) {
      stopped = 'unfinished';
      break;
    }
    if (cfg.targetWidth === undefined || cfg.sample <= 0) break;
    if (lines.every((l) => l.estimate.ciHigh - l.estimate.ciLow <= cfg.targetWidth!)) {
      stopped = 'width';
      break;
    }
    if (cfg.maxSeconds !== undefined && seconds() >= cfg.maxSeconds) {
      stopped = 'budget';
      break;
    }
    if (!grow(lines)) {
      const whole = plans.every((p, i) => lines[i]!.estimate.ciHigh - lines[i]!.estimate.ciLow <= cfg.targetWidth! || p.n.every((x, h) => x >= p.strata[h]!.deals.length));
      const capped = plans.every((p, i) => lines[i]!.estimate.ciHigh - lines[i]!.estimate.ciLow <= cfg.targetWidth! || p.n.reduce((a, x) => a + x, 0) >= (cfg.maxSample ?? Infinity));
      stopped = whole ? 'whole' : capped ? 'sample' : 'budget';
      break;
    }
    if (running) note(`${cfg.label}: phase 2, round ${rounds + 1}: an interval is wider than ${(100 * cfg.targetWidth).toFixed(2)} points, the sample grows to ${plans.map((p) => p.n.reduce((a, x) => a + x, 0)).join(', ')} deals`);
  }
  if (task && task.index === 1 && running) {
    // Task 1 leaves the files as a run on one machine would: phase 2's deals collected.
    const last = new Map(collect.map((c) => [c.file, c]));
    for (const c of last.values()) collectDeals(c.file, c.spec, c.range, c.deals, cfg.command);
  }
  return {
    status: 'done',
    lines,
    phase2: {
      strata: strataKind,
      rounds,
      stopped,
      seconds: seconds(),
      ...(cfg.targetWidth !== undefined ? { targetWidth: cfg.targetWidth } : {}),
      ...(cfg.maxSample !== undefined ? { maxSample: cfg.maxSample } : {}),
      ...(cfg.maxSeconds !== undefined ? { maxSeconds: cfg.maxSeconds } : {}),
    },
  };
}

/** A row's words: `book`, `book, pairing never`. */
export function gameWords(rules: Rules, tactics: Tactics): string {
  const t: string[] = [];
  if (tactics.pairing !== 'always') t.push(`pairing ${tactics.pairing}`);
  if (tactics.spaces !== 'eager') t.push(`spaces ${tactics.spaces}`);
  return [formatRules(rules), ...t].join(', ');
}
