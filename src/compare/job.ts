/**
 * The `bench` job kind of the batch worker pool (handed to the pool by this module's URL,
 * benchKindModule(), with each task: src/batch/job.ts `loadJobKind`):
 * every heuristic of `spec.variants` searches each deal, one after another in the same worker,
 * with the same search and budgets. One Solver per worker, reused for every deal and heuristic.
 *
 * `prepare` import()s the users' heuristic modules once per worker (their file URLs are the
 * variants); `create` wraps every heuristic in `guard` so that a throw or a bad score becomes a
 * HeuristicError naming it.
 */
import { type Deal, type Rules, type Size, formatRules, formatSize } from '../game/index.js';
import { type Heuristic } from '../solver/heuristics.js';
import { type SearchKind, type SolveOptions, type SolveRequest, Solver, requestBudgets } from '../solver/index.js';
import { type DealSourceKind, type JobKind, type JobSpec, dealOutcome } from '../batch/job.js';
import { builtModule } from '../batch/machine.js';
import { type HeuristicRef, guard, heuristicFor, importHeuristic, refKey, variantLabel } from './heuristics.js';

export const JOB_KIND: JobKind = {
  name: 'bench',
  async prepare(spec) {
    for (const v of spec.variants ?? []) if (v.startsWith('file:')) await importHeuristic(v, variantLabel(v));
  },
  create(spec) {
    const variants = spec.variants ?? [];
    if (variants.length === 0) throw new Error('internal: a bench spec without heuristics');
    const hs: Heuristic[] = variants.map((v) => guard(heuristicFor(v), variantLabel(v)));
    const solver = new Solver();
    const { search, maxNodes, maxSeconds, maxMemoryMB } = spec.solver;
    const base: Partial<SolveOptions> = {
      ...(search !== undefined ? { search } : {}),
      ...(maxNodes !== undefined ? { maxNodes } : {}),
      ...(maxSeconds !== undefined ? { maxSeconds } : {}),
      ...(maxMemoryMB !== undefined ? { maxMemoryMB } : {}),
    };
    const opts = hs.map((heuristic) => ({ ...base, heuristic }));
    let warm = false;
    return (deal: Deal, rules: Rules) => {
      if (!warm) {
        // Untimed warm-up, results discarded: so that JIT compilation and the table's first
        // allocation do not fall on the first heuristic's first timed search. Node counts and
        // verdicts do not depend on it (the table is emptied for every search).
        warm = true;
        for (const o of opts) solver.solve(deal, rules, { ...o, maxNodes: Math.min(o.maxNodes ?? Infinity, 2000), maxSeconds: 0.5 });
      }
      const outs = opts.map((o) => dealOutcome(solver.solve(deal, rules, o)));
      return { ...outs[0]!, variants: outs };
    };
  },
};

/** This module as the workers import it: the kind's module of every bench task (through ../compare/: the bundled CLI is at the same depth). */
export const benchKindModule = (): string => builtModule(new URL('../compare/job.js', import.meta.url));

export interface BenchSolver {
  readonly search: SearchKind;
  readonly maxNodes?: number;
  readonly maxSeconds?: number;
  readonly maxMemoryMB?: number;
}

/** The job spec of a benchmark: the heuristics (built-in names or module URLs) as variants. */
export function benchSpec(source: DealSourceKind, rules: Rules, size: Size, heuristics: readonly HeuristicRef[], s: BenchSolver): JobSpec {
  const solver: { -readonly [K in keyof SolveRequest]: SolveRequest[K] } = { search: s.search };
  if (s.maxNodes !== undefined) solver.maxNodes = s.maxNodes;
  if (s.maxSeconds !== undefined) solver.maxSeconds = s.maxSeconds;
  if (s.maxMemoryMB !== undefined) solver.maxMemoryMB = s.maxMemoryMB;
  return {
    kind: 'bench',
    source,
    rules: formatRules(rules),
    size: formatSize(size),
    method: `search=${s.search} heuristics=${heuristics.map((h) => h.label).join(',')}`,
    solver,
    budgets: requestBudgets(solver),
    variants: heuristics.map(refKey),
  };
}
