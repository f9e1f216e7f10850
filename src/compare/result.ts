/** What a benchmark run is given and what it finds (run.ts makes it; report.ts and chart.ts show it). */
import { type Rules } from '../game/index.js';
import { type JobSpec } from '../batch/job.js';
import { type HeuristicRef } from './heuristics.js';
import { type BenchSolver } from './job.js';
import { type DealList } from './sets.js';
import { type BenchCell, type HeuristicSummary, type Paired } from './stats.js';

export interface BenchConfig {
  readonly list: DealList;
  /** The rules in force (the list's, or --rules). */
  readonly rules: Rules;
  readonly heuristics: readonly HeuristicRef[];
  readonly solver: BenchSolver;
  readonly workers: number;
  /** Deals per chunk (default: small, since each deal is searched once per heuristic). */
  readonly chunk?: number;
  readonly outDir: string;
  /** `--force`: an earlier benchmark in outDir is replaced (otherwise refused). */
  readonly force?: boolean;
  readonly progress: boolean;
  /** The command line, for bench.json and the report. */
  readonly command: string;
}

/** One row of bench.csv before it is written. */
export interface BenchRow extends BenchCell {
  readonly deal: number;
  readonly heuristic: string;
  readonly limit: string;
  readonly states: number;
  readonly solutionLength: number;
  readonly bestHome: number;
}

export interface BenchResult {
  readonly config: BenchConfig;
  readonly spec: JobSpec;
  readonly labels: readonly string[];
  /** cells[h][i]: heuristic h on the i-th deal of the list. */
  readonly cells: readonly (readonly BenchRow[])[];
  readonly summaries: readonly HeuristicSummary[];
  /** paired[h] for h >= 1: heuristic h against heuristic 0. */
  readonly paired: readonly (Paired | null)[];
  /** Total nodes over all deals and heuristics. */
  readonly signature: number;
  /** No time budget: the signature and every column but ms are the same on any machine. */
  readonly deterministic: boolean;
  /** Wall-clock seconds of the run, the workers used. */
  readonly seconds: number;
  readonly workers: number;
  readonly startedAt: string;
  readonly files: { readonly csv: string; readonly svg: string; readonly txt: string; readonly json: string };
}
