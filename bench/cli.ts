/**
 * The built CLI as the bench scripts run it, one deal a process: `bench/solve.js --cold` and
 * `bench/longer.js`.
 */
import { fileURLToPath } from 'node:url';
import { type SolveRequest } from '../src/solver/index.js';

/** The CLI beside the bench scripts in the build: dist/src/cli/main.js. */
export const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

/**
 * The arguments (after `node`) of `limited solve DEAL --rules RULES ... --json` with the options
 * `opts` stand for: `deal` is the deal's words (`['17']` or `['--pysol', '17']`).
 */
export function solveArgs(deal: readonly string[], rules: string, opts: SolveRequest): string[] {
  const args = [CLI, 'solve', ...deal, '--rules', rules, '--max-seconds', String(opts.maxSeconds), '--max-memory', String(opts.maxMemoryMB), '--json'];
  if (opts.maxNodes !== undefined) args.push('--max-nodes', String(opts.maxNodes));
  if (opts.preset !== undefined) args.push('--preset', opts.preset);
  if (opts.search !== undefined) args.push('--search', opts.search);
  if (opts.heuristic !== undefined) args.push('--heuristic', String(opts.heuristic));
  return args;
}
