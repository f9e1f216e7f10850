/**
 * What a written page carries (the JSON in its `limited-data` script) and what its solver worker
 * is asked: shared by the command line, which writes the pages, and the browser code, which reads
 * them. Plain data only: no DOM, no Node. A solve is asked as everywhere else: a SolveRequest
 * (src/solver/request.ts).
 */
import {
  type Deal, type PackedMove, type Rules, type Size, UserError, dealFromNumber, formatDealFile, formatRules, formatSize, parseDealFile,
  parseDealNumber, parseRules, parseSize, pysolDeal, sourceLabel,
} from '../game/index.js';
import { type SolveOutcome, type SolveRequest } from '../solver/index.js';

/** The memory cap of the solver in a page's worker: a browser tab is not a batch machine. */
export const PAGE_MEMORY_MB = 512;

/** A request as a page's worker runs it: the memory capped at PAGE_MEMORY_MB. */
export function pageRequest(r: SolveRequest): SolveRequest {
  return { ...r, maxMemoryMB: Math.min(r.maxMemoryMB ?? PAGE_MEMORY_MB, PAGE_MEMORY_MB) };
}

/** A verdict as a page shows it. */
export interface PageVerdict {
  readonly verdict: SolveOutcome['verdict'];
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
  readonly solver: SolveRequest;
}

/** What the browser's solver worker is asked (a solve from the position after `from`), and what it answers. */
export interface WorkerQuestion {
  readonly id: number;
  readonly deal: Deal;
  readonly rules: Rules;
  readonly from: readonly PackedMove[];
  readonly solver: SolveRequest;
  /**
   * Seconds to go on searching when `solver`'s time budget (its only budget) ends undecided: the
   * worker then answers unknown (not final) at that budget and the verdict of the same search,
   * run on, when it comes.
   */
  readonly patience?: number;
}

export type WorkerAnswer = Pick<SolveOutcome, 'verdict' | 'proof' | 'limit' | 'moves' | 'nodes' | 'seconds'> & {
  readonly id: number;
  /** False for the unknown at the request's budget while the search goes on (`patience`); another answer follows. */
  readonly final: boolean;
  /** A solver error (a bug, or a request the page's address spoilt), as text. */
  readonly error?: string;
};

/** A deal named in a page's address: its source (`17`, `pysol 5`), rules, size and, for the report's viewer, the solve to run. */
export interface DealLink {
  readonly source: string;
  readonly rules: Rules;
  readonly size: Size;
  readonly solver?: SolveRequest;
}

/**
 * The address fragment of a deal: `#deal=17&rules=...&size=2x13,12x3` (and `&solver={...}` for
 * the report's viewer). A link names the deal, and the browser's back and forward step through
 * the deals a player opened.
 */
export function dealHash(l: DealLink): string {
  const p = new URLSearchParams({ deal: l.source, rules: formatRules(l.rules), size: formatSize(l.size).replace(' ', ',') });
  if (l.solver !== undefined) p.set('solver', JSON.stringify(l.solver));
  return `#${p.toString()}`;
}

/**
 * The fragment of a deal given whole (a deal file pasted into the page): `#file=...`, the deal
 * file's text without comments, so that the link still names the deal.
 */
export function dealFileHash(deal: Deal, rules: Rules): string {
  return `#${new URLSearchParams({ file: formatDealFile(deal, rules) }).toString()}`;
}

/** What a page's address names: a deal, its rules and title, and the solve settings it carries (none: the page's own). */
export interface NamedDeal {
  readonly deal: Deal;
  readonly rules: Rules;
  readonly title: string;
  readonly solver: SolveRequest | null;
}

/** Reads `dealHash`'s or `dealFileHash`'s fragment back to a deal; null for an address that names none. Throws UserError naming what is wrong. */
export function parseDealHash(hash: string): NamedDeal | null {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const source = p.get('deal');
  const file = p.get('file');
  if (source === null && file === null) return null;
  let solver: SolveRequest | null = null;
  const s = p.get('solver');
  if (s !== null) {
    try {
      solver = JSON.parse(s) as SolveRequest;
    } catch {
      throw new UserError(`the page's address has solver settings that are not JSON: ${s.slice(0, 60)}`);
    }
  }
  if (file !== null) {
    const deal = parseDealFile(file, 'the pasted deal');
    const rules = p.get('rules') !== null ? parseRules(p.get('rules')!) : (deal.rules ?? parseRules('book'));
    return { deal, rules, title: deal.source !== undefined ? titleOf(deal.source) : 'A pasted deal', solver };
  }
  const size = parseSize(p.get('size') ?? '2x13,12x3', ',');
  const pysol = /^pysol\s+(.+)$/i.exec(source!);
  const deal = pysol ? pysolDeal(pysol[1]!) : dealFromNumber(parseDealNumber(source!), size);
  const rules = parseRules(p.get('rules') ?? (pysol ? 'pysol' : 'book'));
  return { deal, rules, title: titleOf(deal.source ?? source!), solver };
}

/** `Deal 17`, `PySolFC game 5`. */
const titleOf = (source: string): string => {
  const t = sourceLabel(source);
  return t[0]!.toUpperCase() + t.slice(1);
};

/** A random deal number for the page's "Random deal": below 2^31, the range people type. */
export function randomDealNumber(): number {
  const a = new Uint32Array(1);
  crypto.getRandomValues(a);
  return (a[0]! >>> 1) + 1;
}

