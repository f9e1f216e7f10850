/**
 * One solve as every caller asks for it: `limited solve` and its kin, the library's `solve`, a
 * batch's workers and the page's worker all build a SolveRequest, check it with `checkRequest`
 * and run it with `startSolve` (as Stockfish's `go` fills one LimitsType that the search reads).
 * What the request means is decided here and nowhere else: the default preset when no search is
 * named, which searches a heuristic orders, that a time budget alone lifts the node cap, what
 * several threads run, and how the engine's result reads for a caller (`solveOutcome`).
 *
 * Presets stay data (presets.ts): a request names one, and a new preset needs no code here.
 */
import { type Deal } from '../game/deal.js';
import { UserError, shown } from '../game/errors.js';
import { type Rules } from '../game/rules.js';
import { type PackedMove } from '../game/state.js';
import { type Tactics, NO_RESTRICTION, parsePairing, parseSpaces } from '../game/tactics.js';
import { HEURISTICS } from './heuristics.js';
import { type SearchKind, type SolveOptions, DEFAULT_OPTIONS, MAX_THREADS, SEARCHES } from './options.js';
import { DEFAULT_PRESET, PRESETS } from './presets.js';
import { type SearchRun, type SolveResult } from './result.js';
import { type Solver } from './solver.js';

/**
 * A checked request (`checkRequest`'s answer): only what was given, plus the preset that runs.
 * Plain data, so that it travels as JSON (a batch's spec, a page, a worker's message). Its keys
 * come in this order, since a batch compares specs as JSON text.
 */
export interface SolveRequest {
  /** A name of PRESETS: DEFAULT_PRESET unless `search` is given (then that one search runs). */
  readonly preset?: string;
  /** One of SEARCHES; with `preset`, it replaces the preset's searches. */
  readonly search?: SearchKind;
  /** A name of HEURISTICS, for best-first and beam search (refused where neither runs). */
  readonly heuristic?: string;
  /** Node budget, a whole number >= 1 (default: the preset's, or the search's). */
  readonly maxNodes?: number;
  /** Time budget, seconds > 0; given alone, it lifts the node cap (the verdict then depends on the machine). */
  readonly maxSeconds?: number;
  /** Memory cap of the tables of states, megabytes > 0 (default: the preset's). */
  readonly maxMemoryMB?: number;
  /** Tactics as restrictions: the verdict says whether a player who keeps to them can win. */
  readonly tactics?: Tactics;
  /** Threads on one deal (2 to MAX_THREADS; absent: one): the prove preset's search on each (parallel.ts). */
  readonly threads?: number;
}

/** A request as a caller gives it, before `checkRequest`: tactics may be given in part (the rest unrestricted). */
export type RequestInput = Omit<SolveRequest, 'tactics'> & { readonly tactics?: Partial<Tactics> };

/**
 * How errors name what is wrong: the request's fields (`maxNodes`, the library's words) or the
 * command line's flags (`--max-nodes`), which also say what to do instead.
 */
export type RequestStyle = 'fields' | 'flags';

const FLAGS: Readonly<Record<keyof SolveRequest | 'pairing' | 'spaces', string>> = {
  preset: '--preset', search: '--search', heuristic: '--heuristic', maxNodes: '--max-nodes', maxSeconds: '--max-seconds', maxMemoryMB: '--max-memory',
  tactics: '--pairing', pairing: '--pairing', spaces: '--spaces', threads: '--threads',
};

/** The preset a solve on several threads runs on each of them (its search and, unless given, its budgets). */
export const THREADS_PRESET = 'prove';

/** Whether a search of this kind is ordered by a heuristic: best-first and beam search. */
function ordersByHeuristic(search: unknown): boolean {
  return search === 'best' || search === 'beam';
}

/** The presets with a best-first or beam stage (under some rules): those a heuristic orders. */
function presetsWithHeuristic(): string[] {
  return Object.entries(PRESETS)
    .filter(([, p]) => p.stages.some((s) => ordersByHeuristic(s.options.search)))
    .map(([name]) => name);
}

/**
 * Checks a request and gives it in its one form: the preset named (the default unless a search
 * is), tactics whole, `threads` only above one. Throws a one-line UserError naming the field or
 * flag (`style`) for an unknown name, a bad number, a heuristic that no search of the request
 * uses, or threads asked of a search they cannot run. A checked request passes unchanged.
 */
export function checkRequest(input: RequestInput, style: RequestStyle = 'fields'): SolveRequest {
  const o = input;
  const name = (k: keyof typeof FLAGS): string => (style === 'flags' ? FLAGS[k] : k);
  if (o.preset !== undefined && !Object.hasOwn(PRESETS, o.preset))
    throw new UserError(`unknown ${name('preset')} '${shown(String(o.preset))}' (presets: ${Object.keys(PRESETS).join(', ')})`);
  if (o.search !== undefined && !SEARCHES.includes(o.search))
    throw new UserError(`unknown ${name('search')} '${shown(String(o.search))}' (searches: ${SEARCHES.join(', ')})`);
  let preset = o.preset ?? (o.search === undefined ? DEFAULT_PRESET : undefined);
  if (o.heuristic !== undefined) {
    if (typeof o.heuristic !== 'string' || !Object.hasOwn(HEURISTICS, o.heuristic))
      throw new UserError(`unknown heuristic '${shown(String(o.heuristic))}' (heuristics: ${Object.keys(HEURISTICS).join(', ')})`);
    // A heuristic orders best-first and beam search only (in a preset, those stages): where
    // neither runs, say so rather than ignore it.
    const withStage = presetsWithHeuristic();
    const ordered = o.search !== undefined ? ordersByHeuristic(o.search) : preset !== undefined ? withStage.includes(preset) : ordersByHeuristic(DEFAULT_OPTIONS.search);
    if (!ordered) {
      const what = o.search !== undefined ? `${name('search')} ${o.search}` : `${name('preset')} ${preset}`;
      const advice = style === 'flags' ? `: add --search best or beam${withStage.length > 0 ? `, or use a --preset with such a stage (${withStage.join(', ')})` : ''}` : '';
      throw new UserError(`${name('heuristic')} is used only by best-first and beam search, which ${what} does not run${advice}`);
    }
  }
  positive(name('maxNodes'), o.maxNodes, true);
  positive(name('maxSeconds'), o.maxSeconds, false);
  positive(name('maxMemoryMB'), o.maxMemoryMB, false);
  const tactics = o.tactics !== undefined ? tacticsOf(o.tactics, style) : undefined;
  const threads = o.threads ?? 1;
  if (!Number.isSafeInteger(threads) || threads < 1 || threads > MAX_THREADS)
    throw new UserError(`${name('threads')} must be a whole number from 1 to ${MAX_THREADS}, not ${shown(String(threads))}`);
  let search = o.search;
  let heuristic = o.heuristic;
  if (threads > 1) {
    const t = name('threads');
    if (o.search !== undefined && o.search !== 'dfs')
      throw new UserError(`${t} runs depth-first search on every thread, not ${name('search')} ${o.search}: drop ${name('search')}, or use ${t} 1`);
    if (o.preset !== undefined && o.preset !== THREADS_PRESET)
      throw new UserError(`${t} runs the ${THREADS_PRESET} preset's search on every thread, not ${name('preset')} ${o.preset}: use ${name('preset')} ${THREADS_PRESET}, or ${t} 1`);
    if (o.heuristic !== undefined) throw new UserError(`${t} runs depth-first search, which no ${name('heuristic')} orders: drop ${name('heuristic')}, or use ${t} 1`);
    // What the threads run, whatever was named: the prove preset's search.
    preset = THREADS_PRESET;
    search = undefined;
    heuristic = undefined;
  }
  const r: { -readonly [K in keyof SolveRequest]: SolveRequest[K] } = {};
  if (preset !== undefined) r.preset = preset;
  if (search !== undefined) r.search = search;
  if (heuristic !== undefined) r.heuristic = heuristic;
  if (o.maxNodes !== undefined) r.maxNodes = o.maxNodes;
  if (o.maxSeconds !== undefined) r.maxSeconds = o.maxSeconds;
  if (o.maxMemoryMB !== undefined) r.maxMemoryMB = o.maxMemoryMB;
  if (tactics !== undefined) r.tactics = tactics;
  if (threads > 1) r.threads = threads;
  return r;
}

/** A whole number >= 1, or a number > 0; a UserError naming it otherwise. */
function positive(name: string, v: unknown, whole: boolean): void {
  if (v === undefined) return;
  const ok = typeof v === 'number' && (whole ? Number.isSafeInteger(v) && v >= 1 : Number.isFinite(v) && v > 0);
  if (!ok) throw new UserError(`${name} must be ${whole ? 'a whole number >= 1' : 'a number > 0'}, not ${shown(String(v))}`);
}

/** Tactics given in part: the rest unrestricted; a UserError (after the flag, in flag style) for a name that is none. */
function tacticsOf(t: Partial<Tactics>, style: RequestStyle): Tactics {
  const read = <T>(flag: string, f: () => T): T => {
    try {
      return f();
    } catch (e) {
      if (style === 'flags' && e instanceof UserError) throw new UserError(`${flag}: ${e.message}`);
      throw e;
    }
  };
  return {
    pairing: read(FLAGS.pairing, () => parsePairing(String(t.pairing ?? NO_RESTRICTION.pairing))),
    spaces: read(FLAGS.spaces, () => parseSpaces(String(t.spaces ?? NO_RESTRICTION.spaces))),
  };
}

/**
 * Is the time budget the only budget given? Then a solve lifts the preset's node cap, so that a
 * time budget alone means that many seconds. A batch names the node budget of its rows, so it
 * runs with that budget given (batch/job.ts), and a time budget there keeps the cap.
 */
function timeBudgetAlone(r: { readonly maxNodes?: number; readonly maxSeconds?: number }): boolean {
  return r.maxSeconds !== undefined && r.maxNodes === undefined;
}

/**
 * What the engine runs for a checked request: a preset's name (or none: one search) and the
 * options over it. On several threads, the preset's options under those given (parallel.ts runs
 * its search on each thread).
 */
export function requestPlan(r: SolveRequest): { readonly preset: string | undefined; readonly options: Partial<SolveOptions> } {
  const { preset, threads, ...given } = r;
  const options: Partial<SolveOptions> = timeBudgetAlone(r) ? { ...given, maxNodes: Infinity } : given;
  if ((threads ?? 1) > 1) return { preset: undefined, options: { ...PRESETS[preset ?? THREADS_PRESET]!.options, ...options } };
  return { preset, options };
}

/** The budgets a request runs with, as a batch's rows name them. */
export interface Budgets {
  readonly maxNodes: number;
  /** null: no time budget. */
  readonly maxSeconds: number | null;
  readonly maxMemoryMB: number;
}

/**
 * The budgets of a request: those given over its preset's over the defaults. A time budget
 * alone keeps the node cap here: these are what a batch's rows run with and name.
 */
export function requestBudgets(r: SolveRequest): Budgets {
  const eff = { ...DEFAULT_OPTIONS, ...(r.preset !== undefined ? PRESETS[r.preset]?.options : {}), ...r };
  return { maxNodes: eff.maxNodes, maxSeconds: Number.isFinite(eff.maxSeconds) ? eff.maxSeconds : null, maxMemoryMB: eff.maxMemoryMB };
}

/**
 * The one entry: starts the solve a request asks for on `solver`, from the deal or from the
 * position after `from` (moves from the deal; a won result's moves go on from there). Stepped
 * (`SearchRun.step`) or run in one step, it is the same search. The request is checked here
 * (again, if its caller did: the check is cheap and gives a checked request back unchanged).
 * Several threads are Node's (worker_threads): `requestPlan`'s options go to parallel.ts's
 * `solveParallel`, which a browser bundle cannot hold, so they are refused here.
 */
export function startSolve(solver: Solver, deal: Deal, rules: Rules, request: RequestInput, from: readonly PackedMove[] = []): SearchRun {
  const r = checkRequest(request);
  if (r.threads !== undefined) throw new Error('internal: a request on several threads runs on solveParallel (parallel.ts), not startSolve');
  const { preset, options } = requestPlan(r);
  return preset !== undefined ? solver.startPreset(deal, rules, preset, options, from) : solver.start(deal, rules, options, from);
}

/** `startSolve` run to the end. Throws SolutionError for a solution that fails to verify (a solver bug). */
export function solveRequest(solver: Solver, deal: Deal, rules: Rules, request: RequestInput, from: readonly PackedMove[] = []): SolveResult {
  return startSolve(solver, deal, rules, request, from).step(Infinity)!;
}

/**
 * The engine's result as every caller reports it: the limit for unknown only, how an unsolvable
 * verdict was proved for it only, the moves of a win only.
 */
export type SolveOutcome = Omit<SolveResult, 'limit' | 'proof'> & {
  /** For unknown: the budget that ran out, or 'interrupted' (stopped between two steps); else null. */
  readonly limit: NonNullable<SolveResult['limit']> | null;
  /** For unsolvable: 'search' (a complete search was exhausted) or 'locks' (proved before any search); else null. */
  readonly proof: NonNullable<SolveResult['proof']> | null;
};

export function solveOutcome(r: SolveResult): SolveOutcome {
  return {
    verdict: r.verdict,
    limit: r.verdict === 'unknown' ? (r.limit ?? null) : null,
    proof: r.verdict === 'unsolvable' ? (r.proof ?? 'search') : null,
    nodes: r.nodes,
    states: r.states,
    seconds: r.seconds,
    bytesPerState: r.bytesPerState,
    bestHome: r.bestHome,
    moves: r.verdict === 'won' ? r.moves : null,
  };
}
