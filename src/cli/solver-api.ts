/**
 * The command line's view of the solver (src/solver/): its named presets and one call
 * that solves with or without a preset. Used by `limited solve` and bench/solve.ts.
 *
 * The solver's preset API is looked up at run time (`PRESETS`, `DEFAULT_PRESET`,
 * `Solver.prototype.solvePreset`), not imported by name, so that the CLI builds and runs with a
 * solver that has no presets (then `--preset` takes only `default`: the solver's defaults), with
 * one that has `solvePreset(deal, rules, preset, opts)`, and with one whose `solve()` takes a
 * `preset` option. The options given are always one plain object.
 */
import { availableParallelism } from 'node:os';
import { MAX_WORKERS } from '../batch/run.js';
import { type Deal, type PackedMove, type Rules, UserError, shown } from '../game/index.js';
import { HEURISTICS } from '../solver/heuristics.js';
import * as search from '../solver/index.js';
import { type SearchRun, type SolveOptions, type SolveResult, type Solver } from '../solver/index.js';

/** The options handed to the solver: only what the user gave, plus `preset` when one applies. */
export type CliSolveOptions = Partial<SolveOptions> & { preset?: string };

export interface PresetInfo {
  readonly name: string;
  readonly description?: string;
}

const api = search as unknown as Record<string, unknown>;

/** Does the solver export named presets (`PRESETS`)? */
export function hasPresets(): boolean {
  const p = api['PRESETS'];
  return p !== null && typeof p === 'object';
}

/** The solver's presets with their descriptions; without PRESETS, only `default`. */
export function solverPresets(): PresetInfo[] {
  if (!hasPresets()) return [{ name: 'default', description: "the solver's default options (DEFAULT_OPTIONS)" }];
  return Object.entries(api['PRESETS'] as Record<string, unknown>).map(([name, v]) => {
    const d = v !== null && typeof v === 'object' ? (v as { description?: unknown }).description : undefined;
    return typeof d === 'string' ? { name, description: d } : { name };
  });
}

/** The preset the solver names as its default (`DEFAULT_PRESET`), when it has one. */
export function defaultPreset(): string | undefined {
  const d = api['DEFAULT_PRESET'];
  return hasPresets() && typeof d === 'string' && solverPresets().some((p) => p.name === d) ? d : undefined;
}

/** Checks a `--preset` name; returns the name to hand to the solver (none for `default` without presets). */
export function checkPreset(name: string): string | undefined {
  const names = solverPresets().map((p) => p.name);
  if (!names.includes(name)) throw new UserError(`unknown --preset '${name}' (presets: ${names.join(', ')})`);
  return hasPresets() ? name : undefined;
}

/** Whether a search of this kind is ordered by a heuristic (--heuristic): best-first and beam search. */
export function ordersByHeuristic(search: unknown): boolean {
  return search === 'best' || search === 'beam';
}

/**
 * The presets with a best-first or beam stage (under some rules), the ones a heuristic orders;
 * all of them for a solver without presets' stages to read.
 */
export function presetsWithHeuristic(): string[] {
  if (!hasPresets()) return solverPresets().map((p) => p.name);
  return Object.entries(api['PRESETS'] as Record<string, { stages?: readonly { options?: { search?: unknown } }[] }>)
    .filter(([, p]) => !Array.isArray(p.stages) || p.stages.some((s) => ordersByHeuristic(s.options?.search)))
    .map(([name]) => name);
}

/** Checks a heuristic name against HEURISTICS; the error lists the names. */
export function checkHeuristic(name: string): string {
  if (!Object.hasOwn(HEURISTICS, name))
    throw new UserError(`unknown heuristic '${name}' (heuristics: ${Object.keys(HEURISTICS).join(', ')})`);
  return name;
}

/** `--max-nodes 5000`: a whole number >= 1 (a safe integer; `_` separators allowed). Throws UserError. */
export function positiveInteger(option: string, text: string): number {
  const t = text.trim().replace(/_/g, '');
  const n = Number(t);
  if (!/^\d+$/.test(t) || !Number.isSafeInteger(n) || n < 1) throw new UserError(`${option} must be a whole number >= 1, not '${shown(text)}'`);
  return n;
}

/** `--workers N`: a whole number from 1 to MAX_WORKERS; absent, the number of cores here. Throws UserError. */
export function workersOption(text: string | undefined): number {
  const workers = text !== undefined ? positiveInteger('--workers', text) : availableParallelism();
  if (workers > MAX_WORKERS) throw new UserError(`--workers must be at most ${MAX_WORKERS}, not ${workers}`);
  return workers;
}

/** `--max-seconds 2.5`: a finite number > 0. Throws UserError. */
export function positiveNumber(option: string, text: string): number {
  const t = text.trim();
  const n = Number(t);
  if (!/^(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(t) || !Number.isFinite(n) || n <= 0)
    throw new UserError(`${option} must be a number > 0, not '${shown(text)}'`);
  return n;
}

type SolvePreset = (deal: Deal, rules: Rules, preset: string, opts: Partial<SolveOptions>, from: readonly PackedMove[]) => SolveResult;
type StartPreset = (deal: Deal, rules: Rules, preset: string, opts: Partial<SolveOptions>, from: readonly PackedMove[]) => SearchRun;

/**
 * Starts a solve that runs a step at a time (`SearchRun`), from the deal or from the position
 * after `from` (moves from the deal; a won result's moves go on from there): with `opts.preset`, by the solver's
 * `startPreset` (the other options override the preset's), else by `start` with the options as
 * given. Stepped or run in one step, it is the same search (`Solver.start`, `startPreset`). A
 * solver without these gets a run whose first step solves in one go (`solveWith`'s way).
 */
export function startWith(solver: Solver, deal: Deal, rules: Rules, opts: CliSolveOptions, from: readonly PackedMove[] = []): SearchRun {
  const { preset, ...rest } = opts;
  const s = solver as unknown as { start?: unknown; startPreset?: unknown };
  if (preset === undefined && typeof s.start === 'function') return solver.start(deal, rules, rest, from);
  if (preset !== undefined && typeof s.startPreset === 'function') return (s.startPreset as StartPreset).call(solver, deal, rules, preset, rest, from);
  let result: SolveResult | null = null;
  return {
    step: () => (result ??= solveWith(solver, deal, rules, opts, from)),
    progress: () => result ?? { nodes: 0, states: 0, bestHome: 0, bytesPerState: 0 },
  };
}

/**
 * Solves in one go: with `opts.preset`, by the solver's `solvePreset` (the other options
 * override the preset's), or by `solve()` with the preset as an option if that is how the solver
 * takes it; without, by `solve()` with the options as given. Throws what the solver throws
 * (SolutionError for a solution that fails to verify).
 */
export function solveWith(solver: Solver, deal: Deal, rules: Rules, opts: CliSolveOptions, from: readonly PackedMove[] = []): SolveResult {
  const { preset, ...rest } = opts;
  if (preset === undefined) return solver.solve(deal, rules, rest, from);
  const solvePreset = (solver as unknown as { solvePreset?: unknown }).solvePreset;
  if (typeof solvePreset === 'function') return (solvePreset as SolvePreset).call(solver, deal, rules, preset, rest, from);
  return solver.solve(deal, rules, opts as Partial<SolveOptions>, from);
}
