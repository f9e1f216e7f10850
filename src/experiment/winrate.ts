/**
 * The win-rate estimator: how often a game can be won with perfect information, to within an
 * interval that holds whatever the deals no budget decided turn out to be.
 *
 * Each row is a game (rules and the tactics kept to) over a range of deals. Phase 1 solves every
 * deal of every row at a short budget (a batch: ROW's phase-1 CSV). Verdicts then carry between
 * rows where one game is a subgame of another (implications.ts). For each estimate — a row's win
 * rate, and a row's difference from its baseline on the same deals — the deals still undecided
 * form one stratum, and phase 2 solves a simple random sample of them at a long budget: the
 * first n of them in the order of a seeded random priority of each deal (the same priority for
 * every estimate, so that the samples overlap and share their solves). Each row's phase-2 deals
 * are one more batch with a deal list (ROW's phase-2 CSV), so both phases resume like any batch;
 * where a row has a prover's pass, the sampled deals still unknown after it are one more (ROW's
 * phase-2 prove CSV): the portfolio finds most wins, the prover most proofs, and a verdict is a
 * verdict, so the pass only settles more of a sample that phase 1 alone drew.
 * The rows' phase 2 runs in the matrix's order, free game first: a loss it proves falls to every
 * restricted row below it, and the deals that settles are not solved again. estimate.ts turns
 * the verdicts into estimates and intervals.
 */
import { existsSync } from 'node:fs';
import seedrandom from 'seedrandom';
import { type Rules, type Size, type Tactics, UserError, formatRules } from '../game/index.js';
import { type SolveRequest } from '../solver/index.js';
import { type JobSpec, solveSpec } from '../batch/job.js';
import { forEachRow } from '../batch/rows.js';
import { type DealRange, formatRange, rangeLast } from '../batch/range.js';
import { readMeta } from '../batch/sidecar.js';
import { runDifference } from '../batch/difference.js';
import { type BatchOutcome, runBatch } from '../batch/run.js';
import { type Bounds, type Estimate, moments, twoPhase } from './estimate.js';
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

export interface EstimatorConfig {
  readonly rows: readonly EstimatorRow[];
  /** Phase-2 sample size of each estimate (0: no phase 2). */
  readonly sample: number;
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

export interface EstimatorOutcome {
  readonly status: 'done' | 'interrupted';
  readonly signal?: NodeJS.Signals;
  readonly lines: readonly EstimateLine[];
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
  readonly from: number;
  readonly pairs: [number, number][];

  constructor(readonly rows: readonly EstimatorRow[]) {
    const all = rows[0]!.range;
    this.from = all.from;
    this.known = rows.map(() => new Uint8Array(all.count));
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

/** The undecided deals of a target after phase 1, and its sample: the first `n` of them by priority. */
function sampleOf(table: Table, t: Target, n: number, seed: string): { undecided: number[]; sample: number[] } {
  const undecided: number[] = [];
  for (let d = t.range.from; d <= rangeLast(t.range); d++) {
    const b = table.bounds(t, d);
    if (b.lo !== b.hi) undecided.push(d);
  }
  if (n <= 0) return { undecided, sample: [] };
  const ranked = undecided.map((d) => ({ d, p: priority(seed, d) })).sort((a, b) => a.p - b.p || a.d - b.d);
  return { undecided, sample: ranked.slice(0, n).map((x) => x.d).sort((a, b) => a - b) };
}

/** Is a row's phase-2 file (or its prover's pass's) there and finished, with these deals and its job? */
function phaseDone(row: EstimatorRow, file: string, spec: JobSpec, deals: readonly number[]): boolean {
  const meta = readMeta(file);
  return meta !== null && meta.complete && existsSync(file) && runDifference(meta, { job: spec, range: row.range, shard: null, deals }) === null;
}

async function readPhase(row: EstimatorRow, file: string, spec: JobSpec, table: Table, r: number, deals?: readonly number[]): Promise<void> {
  const meta = readMeta(file);
  const here = { job: spec, range: row.range, shard: null, ...(deals ? { deals } : {}) };
  if (!meta || !meta.complete) throw new Error(`internal: ${file} is not finished`);
  const d = runDifference(meta, here);
  if (d) throw new UserError(`${file} was made with ${d.option} ${d.a}, not ${d.b}: give the options that made it, or another directory`);
  const v = (await readVerdicts(file, spec, row.range)).verdicts;
  const known = table.known[r]!;
  const off = row.range.from - table.from;
  for (let i = 0; i < v.length; i++) if (v[i] !== UNKNOWN) known[off + i] = v[i]!;
}

/**
 * Runs both phases (each resumes what an earlier run left) and returns the estimates. A row's
 * phase 2 needs every earlier row's, so an interruption stops the whole run; running the same
 * command again goes on where it stopped.
 */
export async function runEstimator(cfg: EstimatorConfig): Promise<EstimatorOutcome> {
  const note = cfg.note ?? ((t: string) => process.stderr.write(t + '\n'));
  const { rows } = cfg;
  const targets = targetsOf(rows);
  const batch = (row: EstimatorRow, phase: string, spec: JobSpec, out: string, deals?: readonly number[]): Promise<BatchOutcome> =>
    runBatch({
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
    });
  const interrupted = (o: BatchOutcome): EstimatorOutcome => ({ status: 'interrupted', signal: o.signal!, lines: [] });

  const running = cfg.run !== false;
  // Phase 1: every deal of every row at the short budget.
  for (const row of rows) {
    if (!running) continue;
    note(`${cfg.label}: ${row.name}: phase 1, deals ${formatRange(row.range)} -> ${row.file1}`);
    const o = await batch(row, 'phase 1', row.phase1, row.file1);
    if (o.status === 'interrupted') return interrupted(o);
  }
  const table = new Table(rows);
  for (let r = 0; r < rows.length; r++) await readPhase(rows[r]!, rows[r]!.file1, rows[r]!.phase1, table, r);
  const all = rows[0]!.range;
  const phase1Known = table.known.map((k) => k.slice());
  for (let d = all.from; d <= rangeLast(all); d++) table.closeDeal(d);
  // The strata and samples are fixed now, by phase 1 alone.
  const plans = targets.map((t) => ({ t, ...sampleOf(table, t, cfg.sample, cfg.seed) }));
  const afterPhase1 = table.known.map((k) => k.slice());

  // Phase 2: each row solves the sampled deals whose value needs its verdict and is not known yet.
  for (let r = 0; r < rows.length && cfg.sample > 0; r++) {
    const row = rows[r]!;
    const wanted = new Set<number>();
    for (const p of plans) if (p.t.row === r || p.t.baseline === r) for (const d of p.sample) if (table.get(r, d) === UNKNOWN) wanted.add(d);
    const deals = [...wanted].sort((a, b) => a - b);
    if (deals.length === 0) {
      if (running) note(`${cfg.label}: ${row.name}: phase 2 has nothing to solve`);
      continue;
    }
    const passes = [{ phase: 'phase 2', spec: row.phase2, file: row.file2 }, ...(row.prove ? [{ phase: 'phase 2 prover', ...row.prove }] : [])];
    let done = true;
    for (const [k, p] of passes.entries()) {
      // The prover's pass takes the sampled deals that the long budget left unknown.
      const these = k === 0 ? deals : deals.filter((d) => table.get(r, d) === UNKNOWN);
      if (these.length === 0) break;
      if (running) {
        note(`${cfg.label}: ${row.name}: ${p.phase}, ${these.length} sampled deal${these.length === 1 ? '' : 's'} -> ${p.file}`);
        const o = await batch(row, p.phase, p.spec, p.file, these);
        if (o.status === 'interrupted') return interrupted(o);
      } else if (!phaseDone(row, p.file, p.spec, these)) {
        done = false;
        break;
      }
      await readPhase(row, p.file, p.spec, table, r, these);
      for (const d of these) table.closeDeal(d);
    }
    if (!done) break;
  }

  const lines: EstimateLine[] = plans.map(({ t, undecided, sample }) => {
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
    const bounds = sample.map((d) => table.bounds(t, d));
    const settled = bounds.filter((b) => b.lo === b.hi).length;
    const estimate = twoPhase({
      decided: moments(decided),
      undecided: undecided.length,
      // Before phase 2 (no sample) every undecided deal stands with its bounds: a census of them.
      sample: cfg.sample > 0 ? bounds : undecided.map((d) => table.bounds(t, d)),
      kind: t.baseline === null ? 'rate' : 'difference',
    });
    return {
      row: rows[t.row]!.name,
      ...(t.baseline !== null ? { baseline: rows[t.baseline]!.name } : {}),
      kind: t.baseline === null ? 'rate' : 'difference',
      range: t.range,
      estimate,
      phase1: { won, lost, unknown },
      implied,
      settled,
    };
  });
  return { status: 'done', lines };
}

/** A row's words: `book`, `book, pairing never`. */
export function gameWords(rules: Rules, tactics: Tactics): string {
  const t: string[] = [];
  if (tactics.pairing !== 'always') t.push(`pairing ${tactics.pairing}`);
  if (tactics.spaces !== 'eager') t.push(`spaces ${tactics.spaces}`);
  return [formatRules(rules), ...t].join(', ');
}
