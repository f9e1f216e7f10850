import type { SolveResult } from '../solver/index.js';
import type { DealOutcome } from './job.js';

/** A solver result as a CSV row's outcome (the solve and bench job kinds). */
export function solveOutcome(r: SolveResult): DealOutcome {
  return {
    verdict: r.verdict,
    limit: r.verdict === 'unknown' ? (r.limit ?? '') : '',
    nodes: r.nodes,
    states: r.states,
    solutionLength: r.verdict === 'won' && r.moves ? r.moves.length : 0,
    bestHome: r.bestHome,
    ms: r.seconds * 1000,
  };
}
