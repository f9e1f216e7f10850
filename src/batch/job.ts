/**
 * What a batch does to each deal: the job spec (everything that decides a deal's row, and so
 * must be the same for every part of an experiment), the job kinds, and the CSV row.
 *
 * A job kind turns a spec into a function that handles one deal. A worker creates it once per
 * spec and keeps it between chunks: the `solve` kind keeps one Solver, whose buffers and
 * transposition table are reused deal after deal. A later kind (`play`, the blind players of
 * src/play) registers itself in JOB_KINDS beside it.
 *
 * A kind may run several variants on each deal (`bench`, src/bench/job.ts: one search per
 * heuristic of `spec.variants`): its outcome then carries `variants`, and the worker sends one
 * row per variant, tagged with the variant's index. A kind that needs asynchronous set-up (the
 * bench kind import()s users' heuristic modules) does it in `prepare`, once per worker and spec.
 */
import {
  type Deal, type Rules, type Size, FULL_SIZE, deckCount, dealFromNumber, formatRules, formatSize, parseRules, parseSize,
  pysolDeal, sizeEqual,
} from '../game/index.js';
import { type SearchKind, type SolveOptions, type SolveResult, DEFAULT_OPTIONS, PRESETS, Solver } from '../solver/search.js';
import { BENCH_JOB } from '../bench/job.js';
import { solveOutcome } from './outcome.js';

/** Where the deal numbers come from: `v1` = this project's deal numbers (RULES.md), `pysol` = PySolFC game numbers. */
export type DealSourceKind = 'v1' | 'pysol';

/** The solver's options as given on the command line (only those given, plus the preset). */
export interface SolverSpec {
  readonly preset?: string;
  readonly search?: SearchKind;
  readonly heuristic?: string;
  readonly maxNodes?: number;
  readonly maxSeconds?: number;
  readonly maxMemoryMB?: number;
}

/** The budgets in force for each deal: the given options over the preset's over the solver's defaults. */
export interface Budgets {
  readonly maxNodes: number;
  /** null: no time budget. */
  readonly maxSeconds: number | null;
  readonly maxMemoryMB: number;
}

/** Everything that decides a deal's row. Two runs with equal specs give equal rows (timing aside) when no time budget binds. */
export interface JobSpec {
  /** The job kind: 'solve' (the perfect-information solver). */
  readonly kind: string;
  readonly source: DealSourceKind;
  /** formatRules of the rules. */
  readonly rules: string;
  /** formatSize of the deck size. */
  readonly size: string;
  /** What does the work, as one word list: `preset=fast`, `search=best heuristic=buried`. */
  readonly method: string;
  readonly solver: SolverSpec;
  readonly budgets: Budgets;
  /** Kinds with variants only (`bench`: the heuristics, built-in names or module file URLs). */
  readonly variants?: readonly string[];
}

/** What happened to one deal. */
export interface DealOutcome {
  readonly verdict: 'won' | 'unsolvable' | 'unknown';
  /** For unknown: the limit that ran out ('nodes', 'time', 'memory'); else ''. */
  readonly limit: string;
  readonly nodes: number;
  readonly states: number;
  /** Moves in the solution (won), else 0. */
  readonly solutionLength: number;
  /** Most cards home in any position searched. */
  readonly bestHome: number;
  /** Milliseconds the deal took (the solver's clock). */
  readonly ms: number;
  /** Kinds with variants only: one outcome per variant, in the spec's order (a row each). */
  readonly variants?: readonly DealOutcome[];
}

export interface JobKind {
  readonly name: string;
  /** Optional asynchronous set-up, awaited once per worker and spec before `create`. */
  prepare?(spec: JobSpec): Promise<void>;
  /**
   * Makes the function that handles one deal. Called once per worker and spec; the function
   * keeps its state (a Solver and its table) from one deal to the next.
   */
  create(spec: JobSpec): (deal: Deal, rules: Rules) => DealOutcome;
}

/** The perfect-information solver with the spec's options; one Solver reused for every deal. */
export const SOLVE_JOB: JobKind = {
  name: 'solve',
  create(spec) {
    const solver = new Solver();
    const { preset, ...rest } = spec.solver;
    const opts: Partial<SolveOptions> = rest;
    if (preset !== undefined) return (deal, rules) => solveOutcome(solver.solvePreset(deal, rules, preset, opts));
    return (deal, rules) => solveOutcome(solver.solve(deal, rules, opts));
  },
};

/** The job kinds by name. `play` (blind players) will join `solve` here. */
export const JOB_KINDS: Readonly<Record<string, JobKind>> = { solve: SOLVE_JOB, bench: BENCH_JOB };

export function jobKind(name: string): JobKind {
  const k = JOB_KINDS[name];
  if (!k) throw new Error(`unknown job kind '${name}' (kinds: ${Object.keys(JOB_KINDS).join(', ')})`);
  return k;
}

/** The function that deals deal number n of the spec's source and size. */
export function dealMaker(source: DealSourceKind, size: Size): (n: number) => Deal {
  if (source === 'pysol') {
    if (!sizeEqual(size, FULL_SIZE)) throw new Error(`PySolFC deals have size ${formatSize(FULL_SIZE)}, not ${formatSize(size)}`);
    return (n) => pysolDeal(n);
  }
  return (n) => dealFromNumber(n, size);
}

/** The spec for solving with these options (as `solveOptionsFromFlags` gives them). */
export function solveSpec(source: DealSourceKind, rules: Rules, size: Size, solver: SolverSpec): JobSpec {
  const preset = solver.preset !== undefined ? PRESETS[solver.preset] : undefined;
  if (solver.preset !== undefined && !preset) throw new Error(`unknown preset '${solver.preset}'`);
  const eff: SolveOptions = { ...DEFAULT_OPTIONS, ...(preset?.options ?? {}), ...solver };
  const method: string[] = [];
  if (solver.preset !== undefined) method.push(`preset=${solver.preset}`);
  if (solver.search !== undefined) method.push(`search=${solver.search}`);
  if (solver.heuristic !== undefined) method.push(`heuristic=${solver.heuristic}`);
  if (method.length === 0) method.push(`search=${eff.search}`);
  // A plain object with the keys in a fixed order (specs are compared as JSON).
  const given: { -readonly [K in keyof SolverSpec]: SolverSpec[K] } = {};
  for (const k of ['preset', 'search', 'heuristic', 'maxNodes', 'maxSeconds', 'maxMemoryMB'] as const)
    if (solver[k] !== undefined) (given as Record<string, unknown>)[k] = solver[k];
  return {
    kind: 'solve',
    source,
    rules: formatRules(rules),
    size: formatSize(size),
    method: method.join(' '),
    solver: given,
    budgets: {
      maxNodes: eff.maxNodes,
      maxSeconds: Number.isFinite(eff.maxSeconds) ? eff.maxSeconds : null,
      maxMemoryMB: eff.maxMemoryMB,
    },
  };
}

export function specRules(spec: JobSpec): Rules {
  return parseRules(spec.rules);
}

export function specSize(spec: JobSpec): Size {
  return parseSize(spec.size);
}

// ---------------------------------------------------------------------------------------
// Rows

/**
 * The CSV columns, in order. Every column but TIMING_COLUMNS is the same on any machine and
 * with any worker count or sharding, when no time budget binds.
 */
export const COLUMNS = [
  'deal', // the deal number (source v1) or PySolFC game number (source pysol)
  'source', // v1 | pysol
  'rules', // formatRules: book, pysol, or building=... second-deal=... privileged=...
  'size', // 2x13 12x3
  'job', // solve
  'method', // preset=fast, search=best heuristic=buried, ...
  'max_nodes', // the node budget in force
  'max_seconds', // the time budget in force ('' = none)
  'max_memory_mb', // the table's memory cap
  'verdict', // won | unsolvable | unknown
  'limit', // for unknown: nodes | time | memory
  'nodes', // nodes expanded
  'states', // states stored
  'solution_length', // moves in the verified solution (won), else 0
  'best_home', // most cards home in any position searched
  'cards', // cards in the deck (104 at full size)
  'ms', // milliseconds (the solver's clock): the one timing column
] as const;

export const TIMING_COLUMNS: readonly string[] = ['ms'];

export const HEADER: string = COLUMNS.join(',');

/** A finished deal as the worker sends it back: compact, numbers only (`variant`: kinds with variants only). */
export type CompactRow = [deal: number, verdict: number, limit: number, nodes: number, states: number, solutionLength: number, bestHome: number, ms: number, variant?: number];

const VERDICTS = ['won', 'unsolvable', 'unknown'] as const;
const LIMITS = ['', 'nodes', 'time', 'memory'];

export function compactRow(deal: number, o: DealOutcome, variant?: number): CompactRow {
  let limit = LIMITS.indexOf(o.limit);
  if (limit < 0) limit = 0;
  const r: CompactRow = [deal, VERDICTS.indexOf(o.verdict), limit, o.nodes, o.states, o.solutionLength, o.bestHome, Math.round(o.ms * 1000) / 1000];
  if (variant !== undefined) r.push(variant);
  return r;
}

/** The function that makes the CSV record (values in COLUMNS order) of a compact row of this spec. */
export function rowRecords(spec: JobSpec): (r: CompactRow) => (string | number)[] {
  const cards = deckCount(specSize(spec));
  return (r) => [
    r[0], spec.source, spec.rules, spec.size, spec.kind, spec.method,
    spec.budgets.maxNodes, spec.budgets.maxSeconds ?? '', spec.budgets.maxMemoryMB,
    VERDICTS[r[1]] ?? 'unknown', LIMITS[r[2]] ?? '', r[3], r[4], r[5], r[6], cards, r[7],
  ];
}

export function verdictOf(r: CompactRow): string {
  return VERDICTS[r[1]] ?? 'unknown';
}

export function limitOf(r: CompactRow): string {
  return LIMITS[r[2]] ?? '';
}
