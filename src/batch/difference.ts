/** Which option two jobs (or two runs) differ in, in the words of the command line. */
import { type JobSpec } from './job.js';
import { type DealRange, type Shard, formatRange } from './range.js';

export interface Difference {
  /** The option, as the user gives it: `--rules`, `--max-nodes`. */
  readonly option: string;
  /** Its value in the first and in the second. */
  readonly a: string;
  readonly b: string;
}

const show = (v: unknown): string => (v === undefined || v === null ? 'none' : String(v));

/** The tactic knobs of a job: the player's, or the solver's restrictions (none: always/eager). */
function tacticsOf(j: JobSpec): { pairing: string; spaces: string } {
  return j.player?.tactics ?? j.solver.tactics ?? { pairing: 'always', spaces: 'eager' };
}

/** The first option in which two jobs differ, or null when they are the same. */
export function jobDifference(a: JobSpec, b: JobSpec): Difference | null {
  const checks: [string, unknown, unknown][] = [
    ['the job (solver or --player)', a.kind, b.kind],
    ['the deal source (--from/--count or --pysol-range)', a.source === 'pysol' ? '--pysol-range' : '--from/--count', b.source === 'pysol' ? '--pysol-range' : '--from/--count'],
    ['--rules', a.rules, b.rules],
    ['--size', a.size, b.size],
    ['--player', a.player?.spec, b.player?.spec],
    ['--pairing', tacticsOf(a).pairing, tacticsOf(b).pairing],
    ['--spaces', tacticsOf(a).spaces, tacticsOf(b).spaces],
    ['--pile', a.player?.pile, b.player?.pile],
    ['the solver (--preset/--search/--heuristic)', a.method, b.method],
    ['--max-nodes', a.solver.maxNodes, b.solver.maxNodes],
    ['--max-seconds', a.solver.maxSeconds, b.solver.maxSeconds],
    ['--max-memory', a.solver.maxMemoryMB, b.solver.maxMemoryMB],
    ["the node budget (the preset's, as the solver defines it now)", a.budgets.maxNodes, b.budgets.maxNodes],
    ["the time budget (the preset's)", a.budgets.maxSeconds, b.budgets.maxSeconds],
    ["the memory budget (the preset's)", a.budgets.maxMemoryMB, b.budgets.maxMemoryMB],
  ];
  for (const [option, x, y] of checks) if (show(x) !== show(y)) return { option, a: show(x), b: show(y) };
  // Anything else in the spec (a field added later).
  if (JSON.stringify(a) !== JSON.stringify(b)) return { option: 'the job options', a: JSON.stringify(a), b: JSON.stringify(b) };
  return null;
}

const shardText = (s: Shard | null): string => (s ? `${s.index}/${s.count}` : 'none');

/** The first difference of job, range or shard between a file's run and a new one. */
export function runDifference(
  a: { job: JobSpec; range: DealRange; shard: Shard | null; deals?: readonly number[] },
  b: { job: JobSpec; range: DealRange; shard: Shard | null; deals?: readonly number[] },
): Difference | null {
  const j = jobDifference(a.job, b.job);
  if (j) return j;
  const rangeOpt = a.job.source === 'pysol' ? '--pysol-range' : '--from/--count';
  if (a.range.from !== b.range.from || a.range.count !== b.range.count)
    return { option: rangeOpt, a: formatRange(a.range), b: formatRange(b.range) };
  if (shardText(a.shard) !== shardText(b.shard)) return { option: '--shard', a: shardText(a.shard), b: shardText(b.shard) };
  const list = (d: readonly number[] | undefined): string => (d ? `a list of ${d.length} deals (${d.slice(0, 3).join(', ')}${d.length > 3 ? ', ...' : ''})` : 'every deal');
  if ((a.deals ?? []).join(',') !== (b.deals ?? []).join(',') || !a.deals !== !b.deals) return { option: 'the deals sampled', a: list(a.deals), b: list(b.deals) };
  return null;
}
