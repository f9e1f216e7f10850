/**
 * limited-solitaire, the library: deals, rules, positions and moves, the verifier, the solver
 * and batches, as `import { ... } from 'limited-solitaire'` gives them. The reference is
 * docs/library.md.
 *
 * A thin layer over src/game, src/solver and src/batch: moves are RULES.md notation (`c3>f 5S`),
 * never the packed integers the engine plays; the solver's tables, keys and stages stay inside.
 * Every function gives the answer the command line gives for the same deal and options: `solve`
 * and `runBatch` build the solver's one request (src/solver/request.ts) from their options, as
 * `limited solve` and `limited batch` build it from their flags, so that they run the same search
 * and write the same file. The names here are the library's own (`DealSolver`, not the engine's
 * `Solver`), so that the two never need telling apart.
 */
import { availableParallelism } from 'node:os';
import {
  type Deal, type PackedMove, type Rules, type Size, type Tactics, BOOK, deckCount, FULL_SIZE, GEN_ALL, Game, MAX_DEAL_NUMBER, MAX_MOVES, NO_RESTRICTION, PYSOL, UserError,
  formatMove, formatSize, parseMove, parsePairing, parseSpaces, pysolDeal, replay, resolveMove, shown, sizeEqual, verifyText,
} from './game/index.js';
import { type RequestInput, type SolveOutcome, type SolveRequest, DEFAULT_PRESET, HEURISTICS, PRESETS, Solver, checkRequest, solveOutcome, solveRequest } from './solver/index.js';
import { type PileMemory } from './play/index.js';
import { playSpec, solveSpec } from './batch/job.js';
import { formatSummary } from './batch/report.js';
import { type SummaryFile } from './batch/sidecar.js';
import { prepareOut } from './util/fileio.js';
import { MAX_CHUNK, MAX_WORKERS, runBatch as runPool } from './batch/run.js';

// ---------------------------------------------------------------------------------------
// Cards, rules, sizes, deals: the engine's own functions.

export { type Card, formatCard, parseCard } from './game/cards.js';
export { type Building, type Rules, type SecondDeal, type Size, BOOK, FULL_SIZE, PYSOL, RULES_PRESETS, deckCount, formatRules, formatSize, parseRules, parseSize, rulesEqual, sizeEqual } from './game/rules.js';
export { type Deal, MAX_DEAL_NUMBER, dealFromNumber, formatDealFile, parseDealFile } from './game/deal.js';
export { type Pairing, type Spaces, type Tactics, NO_RESTRICTION } from './game/tactics.js';
export { UserError } from './game/errors.js';
export { type SearchKind, type Verdict, DEFAULT_PRESET, SEARCHES, SolutionError } from './solver/index.js';
export { BatchSolverError } from './batch/run.js';

/** PySolFC's Limited game `game` (`123456`, `ms40000`): its cards, with the `pysol` rules it is played by as the deal's own. */
export function dealFromPysol(game: string | number): Deal {
  return { ...pysolDeal(game), rules: PYSOL };
}

/** The rules a deal is played by when none are given: the deal file's `rules:` line, `pysol` for a PySolFC deal, else `book`. */
const rulesOf = (deal: Deal, rules: Rules | undefined): Rules => rules ?? deal.rules ?? BOOK;

/** Moves as one text (a solution file) or one move an element. */
export type Moves = string | readonly string[];

const movesText = (moves: Moves): string => (typeof moves === 'string' ? moves : moves.join('\n'));

/** The game after `moves`; a UserError (verify's `invalid: ...` line) names the first that cannot be played. */
function gameAfter(deal: Deal, rules: Rules, moves: Moves): Game {
  const r = replay(deal, rules, movesText(moves));
  if (r.error) throw new UserError(verifyText(r));
  return r.game;
}

// ---------------------------------------------------------------------------------------
// Positions and moves.

/**
 * A position of a game, changed by playing moves in notation. `legalMoves()` lists them as
 * `limited moves` does (`c3>f 5S`, `draw 7H`, `redeal`); `play` takes any notation the verifier
 * reads, with or without the card, and throws a UserError saying why a move is illegal.
 */
export class Position {
  readonly #game: Game;
  readonly #buf = new Int32Array(MAX_MOVES);

  /** The deal's start, or the position after `moves` (a UserError names the first that cannot be played). */
  constructor(deal: Deal, options: { readonly rules?: Rules; readonly moves?: Moves } = {}) {
    const rules = rulesOf(deal, options.rules);
    this.#game = options.moves === undefined ? new Game(deal, rules) : gameAfter(deal, rules, options.moves);
  }

  get deal(): Deal {
    return this.#game.deal;
  }

  get rules(): Rules {
    return this.#game.rules;
  }

  /** The legal moves, in notation with their cards; none when the game is won or lost. */
  legalMoves(): string[] {
    const n = this.#game.generate(this.#buf, GEN_ALL);
    return Array.from(this.#buf.subarray(0, n), formatMove);
  }

  /** Why `move` cannot be played here (a one-line reason), or null when it can. */
  moveError(move: string): string | null {
    try {
      this.#resolve(move);
      return null;
    } catch (e) {
      if (e instanceof UserError) return e.message;
      throw e;
    }
  }

  /** Plays `move`; returns it as `legalMoves` writes it. Throws a UserError when it cannot be read or is illegal. */
  play(move: string): string {
    const m = this.#resolve(move);
    this.#game.apply(m);
    return formatMove(m);
  }

  /** Takes back the last move and returns it, or null at the start. */
  undo(): string | null {
    if (this.#game.moveCount === 0) return null;
    const last = this.#game.history().at(-1)!;
    this.#game.undo();
    return formatMove(last);
  }

  /** The moves played from the deal, in notation with their cards: a solution file's lines. */
  get moves(): string[] {
    return this.#game.history().map(formatMove);
  }

  get won(): boolean {
    return this.#game.isWon();
  }

  /** Cards on the foundations, of `total`. */
  get home(): number {
    return this.#game.home;
  }

  get total(): number {
    return this.#game.total;
  }

  /** 1 before the redeal, 2 in the second deal. */
  get phase(): 1 | 2 {
    return this.#game.phase === 2 ? 2 : 1;
  }

  /** The legal move `move` names; a UserError quoting it says why there is none. */
  #resolve(move: string): PackedMove {
    const g = this.#game;
    try {
      const p = parseMove(move, g.columns, g.privileged, g.ranks);
      if (!p) throw new UserError('no move given');
      return resolveMove(g, p, this.#buf);
    } catch (e) {
      if (e instanceof UserError) throw new UserError(`move '${shown(move.trim())}': ${e.message}`);
      throw e;
    }
  }
}

// ---------------------------------------------------------------------------------------
// The verifier.

export interface VerifyResult {
  /** The moves win the game. */
  readonly ok: boolean;
  /** Moves played (the legal ones before the first bad move). */
  readonly played: number;
  readonly home: number;
  readonly total: number;
  /** The first bad move: its number and line (1-based), its text, and why; null when none. */
  readonly error: { readonly index: number; readonly line: number; readonly text: string; readonly reason: string } | null;
  /** `limited verify`'s line: `valid: won in 29 moves`, `invalid: move 3 (line 5) ...`. */
  readonly text: string;
}

/** Replays a solution (a solution file's text, or the moves) on the deal, as `limited verify` does. */
export function verify(deal: Deal, solution: Moves, options: { readonly rules?: Rules } = {}): VerifyResult {
  const r = replay(deal, rulesOf(deal, options.rules), movesText(solution));
  return { ok: r.won && !r.error, played: r.played, home: r.home, total: r.total, error: r.error ?? null, text: verifyText(r) };
}

// ---------------------------------------------------------------------------------------
// The solver.

/** The solver's named settings (`limited solve --help` lists them), the default first. */
export const SOLVER_PRESETS: readonly { readonly name: string; readonly description: string }[] = Object.entries(PRESETS)
  .map(([name, p]) => ({ name, description: p.description }))
  .sort((a, b) => Number(b.name === DEFAULT_PRESET) - Number(a.name === DEFAULT_PRESET));

/** The heuristics that order best-first and beam search (`heuristic`). */
export const HEURISTIC_NAMES: readonly string[] = Object.keys(HEURISTICS);

/**
 * The solver's settings, as `limited solve` and `limited batch` take them: the solver's own
 * request (src/solver/request.ts) on one thread, tactics given in part. Only those given count;
 * with neither `preset` nor `search`, the default preset.
 */
export type SolverSettings = Omit<RequestInput, 'threads'>;

export interface SolveDealOptions extends SolverSettings {
  readonly rules?: Rules;
  /** Solve from the position after these moves; the solution goes on from there. */
  readonly after?: Moves;
}

export interface SolveAnswer {
  /** won (with `solution`, replayed by the verifier), unsolvable (proved), unknown (a budget ran out). */
  readonly verdict: SolveOutcome['verdict'];
  /** For unknown: the budget that ran out; else null. */
  readonly limit: 'nodes' | 'time' | 'memory' | null;
  /** For unsolvable: 'search' (a complete search was exhausted) or 'locks' (proved before any search); else null. */
  readonly proof: SolveOutcome['proof'];
  readonly nodes: number;
  readonly states: number;
  readonly seconds: number;
  /** Most cards home in any position searched, of `cards`. */
  readonly bestHome: number;
  readonly cards: number;
  /** The winning moves in notation with their cards, from the position solved; null unless won. */
  readonly solution: string[] | null;
}

/** A whole number >= 1; a UserError naming the option otherwise. */
function positiveWhole(name: string, v: number | undefined): void {
  if (v !== undefined && !(typeof v === 'number' && Number.isSafeInteger(v) && v >= 1)) throw new UserError(`${name} must be a whole number >= 1, not ${shown(String(v))}`);
}

/** The settings as the solver's request, checked (one thread: the library's solves are synchronous). */
function requestOf(s: SolverSettings): SolveRequest {
  // The settings' own fields only: a stray `threads` (or any other key) from JavaScript is not the library's.
  const { preset, search, heuristic, maxNodes, maxSeconds, maxMemoryMB, tactics } = s;
  return checkRequest({ preset, search, heuristic, maxNodes, maxSeconds, maxMemoryMB, tactics });
}

/** Tactics given in part: the rest unrestricted; a UserError for a name that is none. */
function tacticsOf(t: Partial<Tactics> = {}): Tactics {
  return { pairing: parsePairing(String(t.pairing ?? NO_RESTRICTION.pairing)), spaces: parseSpaces(String(t.spaces ?? NO_RESTRICTION.spaces)) };
}

/**
 * A solver that keeps its tables from one solve to the next (as a batch's workers do): cheaper
 * than a fresh one for many deals, and the same answers. `release()` lets the tables go.
 */
export class DealSolver {
  readonly #engine = new Solver();

  /** Solves the deal (or the position after `options.after`), as `limited solve` does. Throws a UserError for bad options. */
  solve(deal: Deal, options: SolveDealOptions = {}): SolveAnswer {
    const rules = rulesOf(deal, options.rules);
    const request = requestOf(options);
    const from = options.after !== undefined ? gameAfter(deal, rules, options.after).history() : [];
    const o = solveOutcome(solveRequest(this.#engine, deal, rules, request, from));
    return {
      verdict: o.verdict,
      // 'interrupted' is `limited solve`'s, stopped between two steps: never here.
      limit: o.limit === 'interrupted' ? null : o.limit,
      proof: o.proof,
      nodes: o.nodes,
      states: o.states,
      seconds: o.seconds,
      bestHome: o.bestHome,
      cards: deckCount(deal.size),
      solution: o.moves ? o.moves.map(formatMove) : null,
    };
  }

  /** Lets the tables go, their memory back to the process. */
  release(): void {
    this.#engine.releaseTables();
  }
}

/** Solves one deal with a fresh solver: `limited solve` (the default preset, 3 M nodes, unless options say otherwise). */
export function solve(deal: Deal, options: SolveDealOptions = {}): SolveAnswer {
  return new DealSolver().solve(deal, options);
}

// ---------------------------------------------------------------------------------------
// Batches.

/** A blind player instead of the solver (`limited batch --player`). */
export interface PlayerOptions {
  /** `greedy`, `sampling`, `sampling:samples=16,nodes=500`. */
  readonly spec: string;
  /** The player's tactic knobs. */
  readonly tactics?: Partial<Tactics>;
  /** Whether it knows the pile's order in the second deal (default remembered). */
  readonly pile?: PileMemory;
}

export interface BatchOptions {
  /** Deal numbers `from` to `from + count - 1` (with `pysol`, PySolFC game numbers, from 1). */
  readonly from: number;
  readonly count: number;
  readonly pysol?: boolean;
  /** Default book (pysol with `pysol`). */
  readonly rules?: Rules;
  /** Default FULL_SIZE (PySolFC deals have no other). */
  readonly size?: Size;
  /** The solver's settings (default: the default preset), or instead `player`. */
  readonly solver?: SolverSettings;
  readonly player?: PlayerOptions;
  /** The results CSV; FILE.meta.json and FILE.summary.json go beside it, and its directories are made. */
  readonly out: string;
  /** Worker threads (default: the number of cores). */
  readonly workers?: number;
  /** Deals handed to a worker at a time (default: the batch's choice). */
  readonly chunk?: number;
  /** Remove the file and its sidecars first, instead of resuming them. */
  readonly fresh?: boolean;
  /** A progress line on stderr (default false). */
  readonly progress?: boolean;
  /** Where the batch's notes go (resuming, a torn row dropped); default stderr. */
  readonly note?: (text: string) => void;
}

/** A batch's summary, as FILE.summary.json holds it (docs/formats.md). */
export type BatchSummary = SummaryFile;

export interface BatchResult {
  /** interrupted: a SIGINT or SIGTERM stopped it, with what was done saved; run it again to resume. */
  readonly status: 'done' | 'interrupted';
  readonly summary: BatchSummary;
  /** Deals found in the file at the start, and deals done by this run. */
  readonly resumed: number;
  readonly doneHere: number;
  readonly signal: 'SIGINT' | 'SIGTERM' | null;
}

/**
 * Runs a batch on a pool of worker threads, as `limited batch` does: one CSV row a deal, the
 * sidecars, resume (the deals already in `out` are skipped; other options are refused). While
 * it runs, SIGINT and SIGTERM stop it cleanly instead of ending the process.
 */
export async function runBatch(o: BatchOptions): Promise<BatchResult> {
  const source = o.pysol === true ? 'pysol' : 'v1';
  const first = source === 'pysol' ? 1 : 0;
  if (!Number.isSafeInteger(o.from) || o.from < first) throw new UserError(`from must be a whole number >= ${first}, not ${shown(String(o.from))}`);
  positiveWhole('count', o.count);
  if (o.count - 1 > MAX_DEAL_NUMBER - o.from) throw new UserError(`from ${o.from} count ${o.count} goes past the last deal number ${MAX_DEAL_NUMBER}`);
  const rules = o.rules ?? (source === 'pysol' ? PYSOL : BOOK);
  const size = o.size ?? FULL_SIZE;
  if (source === 'pysol' && !sizeEqual(size, FULL_SIZE)) throw new UserError(`size ${formatSize(size)}: PySolFC deals have size ${formatSize(FULL_SIZE)}`);
  if (o.player !== undefined && o.solver !== undefined) throw new UserError('give either solver or player, not both');
  const p = o.player;
  if (p?.pile !== undefined && p.pile !== 'remembered' && p.pile !== 'forgotten') throw new UserError(`pile must be remembered or forgotten, not ${shown(String(p.pile))}`);
  const spec = p
    ? playSpec(source, rules, size, p.spec, tacticsOf(p.tactics), p.pile ?? 'remembered')
    : solveSpec(source, rules, size, requestOf(o.solver ?? {}));
  positiveWhole('workers', o.workers);
  positiveWhole('chunk', o.chunk);
  const workers = o.workers ?? availableParallelism();
  if (workers > MAX_WORKERS) throw new UserError(`workers must be at most ${MAX_WORKERS}, not ${workers}`);
  if (o.chunk !== undefined && o.chunk > MAX_CHUNK) throw new UserError(`chunk must be at most ${MAX_CHUNK}, not ${o.chunk}`);
  if (typeof o.out !== 'string' || o.out === '') throw new UserError('out must name the results file');
  prepareOut(o.out);
  const res = await runPool({
    spec,
    range: { from: o.from, count: o.count },
    shard: null,
    out: o.out,
    workers,
    ...(o.chunk !== undefined ? { chunk: o.chunk } : {}),
    progress: o.progress === true,
    command: `limited-solitaire runBatch ${JSON.stringify({ ...o, note: undefined })}`,
    fresh: o.fresh === true,
    ...(o.note ? { note: o.note } : {}),
  });
  const signal = res.signal === 'SIGINT' || res.signal === 'SIGTERM' ? res.signal : null;
  return { status: res.status, summary: res.summary, resumed: res.resumed, doneHere: res.doneHere, signal };
}

/** A summary as `limited batch` prints it. */
export function formatBatchSummary(summary: BatchSummary, title = 'limited batch'): string {
  return formatSummary(summary, title);
}
