import { type PackedMove } from '../game/state.js';
import { type Verdict } from './options.js';

export interface SolveResult {
  readonly verdict: Verdict;
  /**
   * Why the search stopped short (unknown only): 'nodes', 'time' or 'memory', or 'interrupted'
   * when it was stopped from outside between two steps (`limited solve` on Ctrl-C).
   */
  readonly limit?: 'nodes' | 'time' | 'memory' | 'interrupted';
  readonly nodes: number;
  readonly states: number;
  readonly seconds: number;
  readonly bytesPerState: number;
  /** Most cards home in any position searched. */
  readonly bestHome: number;
  /**
   * The winning moves from the position solved (the deal, or the position after the moves the
   * solve started from), replayed by the verifier from the deal before they are returned.
   */
  readonly moves: PackedMove[] | null;
  /**
   * How an unsolvable verdict was proved: 'search' (a complete search was exhausted) or 'locks'
   * (LockBound, before any search). Absent for other verdicts.
   */
  readonly proof?: 'search' | 'locks';
}

/** What a search returns before the solver adds the wall time. */
export type SearchResult = Omit<SolveResult, 'seconds'>;

/** A solution that fails to verify: a bug in the solver (the CLI exits 3). */
export class SolutionError extends Error {
  override readonly name = 'SolutionError';
}

/** A search's figures so far. */
export interface Progress {
  readonly nodes: number;
  readonly states: number;
  readonly bestHome: number;
  readonly bytesPerState: number;
}

/** One search in progress (`Solver.start`, `Solver.startPreset`). */
export interface SearchRun {
  /**
   * Runs the search until it has expanded about `untilNodes` nodes in all (it stops at its next
   * check after that: within 1024 nodes, or one look-ahead of a rollout) or has ended. Returns
   * the result once it has ended (and from then on), else null. `seconds` in the result counts
   * only the time spent in its steps.
   */
  step(untilNodes: number): SolveResult | null;
  /** Where the search stood after its last step (its result's figures once it has ended). */
  progress(): Progress;
  /**
   * Lowers the search's node budget to `maxNodes` in all from its next step on (never raises
   * it): a preset that hands most of what is left to another search keeps the sum of its
   * searches within its own budget (portfolio.ts). A single search has it; a preset has not.
   */
  capNodes?(maxNodes: number): void;
}

/** Searches' figures together: nodes and states added up, the most cards home, bytes a state over all their states. */
export function sumOf(parts: readonly Progress[]): Progress {
  let nodes = 0;
  let states = 0;
  let bytes = 0;
  let bestHome = 0;
  for (const p of parts) {
    nodes += p.nodes;
    states += p.states;
    bestHome = Math.max(bestHome, p.bestHome);
    bytes += p.bytesPerState * p.states;
  }
  return { nodes, states, bestHome, bytesPerState: states > 0 ? bytes / states : 0 };
}
