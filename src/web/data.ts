/**
 * What a written page carries (the JSON in its `limited-data` script) and how its solver is
 * asked: shared by the command line, which writes the pages, and the browser code, which reads
 * them. Plain data only: no DOM, no Node.
 */
import {
  type Deal, type PackedMove, type Rules, type Size, type Tactics, UserError, dealFromNumber, formatRules, formatSize, parseDealNumber, parseRules,
  parseSize, pysolDeal, sourceLabel,
} from '../game/index.js';
import { type SearchRun, type SolveOptions, type SolveResult, Solver } from '../solver/index.js';

/** The memory cap of the solver in a page's worker: a browser tab is not a batch machine. */
export const PAGE_MEMORY_MB = 512;

/** The solver's settings for one solve: a preset (or one search) and its budgets. */
export interface SolverSettings {
  readonly preset?: string;
  readonly search?: SolveOptions['search'];
  readonly heuristic?: string;
  readonly maxNodes?: number;
  readonly maxSeconds?: number;
  readonly maxMemoryMB?: number;
  readonly tactics?: Tactics;
}

/** A verdict as a page shows it. */
export interface PageVerdict {
  readonly verdict: SolveResult['verdict'];
  readonly proof?: 'search' | 'locks';
  readonly limit?: string;
  /** How it was reached, in words: `limited solve, preset portfolio, --max-seconds 10` or `the solution file moves.txt`. */
  readonly by: string;
}

/** Where a page's deal comes from: given whole, or named in the page's address (`#deal=17&...`, see `parseDealHash`). */
export interface PageData {
  /** The mode the page opens in. */
  readonly mode: 'view' | 'play';
  /** `Deal 1`, `PySolFC game 5`. */
  readonly title: string;
  readonly rules: Rules;
  /** Null: the deal is named in the page's address (the report's viewer). */
  readonly deal: Deal | null;
  /** Moves from the deal to the first position shown (`--after`). */
  readonly start: readonly PackedMove[];
  /** The moves the viewer steps through, from `start`; null when there are none (unknown or lost). */
  readonly solution: readonly PackedMove[] | null;
  readonly verdict: PageVerdict | null;
  /** What the page shows in place of a verdict (moves that do not win): `the 40 moves of part.txt, which stop with ...`. */
  readonly note?: string;
  /** The budget of the solver beside the player (Play), and of a solve the page runs itself. */
  readonly solver: SolverSettings;
}

/** Options for one solve from settings: a time budget given alone lifts the preset's node cap, as `limited solve` does. */
export function solveOptions(s: SolverSettings): Partial<SolveOptions> {
  const o: { -readonly [K in keyof SolveOptions]?: SolveOptions[K] } = {};
  if (s.search !== undefined) o.search = s.search;
  if (s.heuristic !== undefined) o.heuristic = s.heuristic;
  if (s.maxNodes !== undefined) o.maxNodes = s.maxNodes;
  if (s.maxSeconds !== undefined) {
    o.maxSeconds = s.maxSeconds;
    if (s.maxNodes === undefined) o.maxNodes = Infinity;
  }
  if (s.maxMemoryMB !== undefined) o.maxMemoryMB = s.maxMemoryMB;
  if (s.tactics !== undefined) o.tactics = s.tactics;
  return o;
}

/** Starts a solve from the position after `from`: by the preset when one is named, else by one search. */
export function startSolve(solver: Solver, deal: Deal, rules: Rules, s: SolverSettings, from: readonly PackedMove[]): SearchRun {
  const o = solveOptions(s);
  return s.preset !== undefined ? solver.startPreset(deal, rules, s.preset, o, from) : solver.start(deal, rules, o, from);
}

/** What the browser's solver worker is asked, and what it answers. */
export interface SolveRequest {
  readonly id: number;
  readonly deal: Deal;
  readonly rules: Rules;
  readonly from: readonly PackedMove[];
  readonly solver: SolverSettings;
}

export interface SolveAnswer {
  readonly id: number;
  readonly verdict: SolveResult['verdict'];
  readonly proof?: 'search' | 'locks';
  readonly limit?: string;
  readonly moves: readonly PackedMove[] | null;
  readonly nodes: number;
  readonly seconds: number;
  /** A solver error (a bug), as text. */
  readonly error?: string;
}

/** A deal named in a page's address: its source (`17`, `pysol 5`), rules, size and the solve to run. */
export interface DealLink {
  readonly source: string;
  readonly rules: Rules;
  readonly size: Size;
  readonly solver: SolverSettings;
}

/** The address fragment of a deal for the report's viewer: `#deal=17&rules=...&size=2x13,12x3&solver={...}`. */
export function dealHash(l: DealLink): string {
  const p = new URLSearchParams({ deal: l.source, rules: formatRules(l.rules), size: formatSize(l.size).replace(' ', ','), solver: JSON.stringify(l.solver) });
  return `#${p.toString()}`;
}

/** Reads `dealHash`'s fragment back to a deal. Throws UserError naming what is wrong. */
export function parseDealHash(hash: string): { deal: Deal; rules: Rules; title: string; solver: SolverSettings } {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const source = p.get('deal');
  if (source === null) throw new UserError("the page's address names no deal (#deal=N)");
  const size = parseSize(p.get('size') ?? '2x13,12x3', ',');
  const pysol = /^pysol\s+(.+)$/i.exec(source);
  const deal = pysol ? pysolDeal(pysol[1]!) : dealFromNumber(parseDealNumber(source), size);
  const rules = parseRules(p.get('rules') ?? (pysol ? 'pysol' : 'book'));
  let solver: SolverSettings = {};
  const s = p.get('solver');
  if (s !== null) {
    try {
      solver = JSON.parse(s) as SolverSettings;
    } catch {
      throw new UserError(`the page's address has solver settings that are not JSON: ${s.slice(0, 60)}`);
    }
  }
  const title = sourceLabel(deal.source ?? source);
  return { deal, rules, title: title[0]!.toUpperCase() + title.slice(1), solver };
}
