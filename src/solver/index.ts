/** The solver's surface: what the rest of the project (and the library's users) take from src/solver/. */
export { type MoveOrder, type RolloutSchedule, type SearchKind, type SolveOptions, type Verdict, DEFAULT_OPTIONS, MAX_THREADS, SEARCHES } from './options.js';
export { type Progress, type SearchRun, type SolveResult, SolutionError } from './result.js';
export { type LooksLost, type Preset, type Stage, DEFAULT_PRESET, PRESETS } from './presets.js';
export { lubyTerm } from './searches/rollout.js';
export { type Pruning, Solver } from './solver.js';
export {
  type Budgets, type RequestInput, type RequestStyle, type SolveOutcome, type SolveRequest, THREADS_PRESET, checkRequest, requestBudgets, requestPlan,
  solveOutcome, solveRequest, startSolve,
} from './request.js';
export { type Heuristic, HEURISTICS } from './heuristics.js';
