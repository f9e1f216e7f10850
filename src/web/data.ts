/**
 * What a written page carries (the JSON in its `limited-data` script) and what its solver worker
 * is asked: shared by the command line, which writes the pages, and the browser code, which reads
 * them. Plain data only: no DOM, no Node. A solve is asked as everywhere else: a SolveRequest
 * (src/solver/request.ts).
 */
import {
  type Deal, type PackedMove, type Rules, type Size, UserError, dealFromNumber, formatRules, formatSize, parseDealNumber, parseRules,
  parseSize, pysolDeal, sourceLabel,
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
}

export type WorkerAnswer = Pick<SolveOutcome, 'verdict' | 'proof' | 'limit' | 'moves' | 'nodes' | 'seconds'> & {
  readonly id: number;
  /** A solver error (a bug, or a request the page's address spoilt), as text. */
  readonly error?: string;
};

/** A deal named in a page's address: its source (`17`, `pysol 5`), rules, size and the solve to run. */
export interface DealLink {
  readonly source: string;
  readonly rules: Rules;
  readonly size: Size;
  readonly solver: SolveRequest;
}

/** The address fragment of a deal for the report's viewer: `#deal=17&rules=...&size=2x13,12x3&solver={...}`. */
export function dealHash(l: DealLink): string {
  const p = new URLSearchParams({ deal: l.source, rules: formatRules(l.rules), size: formatSize(l.size).replace(' ', ','), solver: JSON.stringify(l.solver) });
  return `#${p.toString()}`;
}

/** Reads `dealHash`'s fragment back to a deal. Throws UserError naming what is wrong. */
export function parseDealHash(hash: string): { deal: Deal; rules: Rules; title: string; solver: SolveRequest } {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const source = p.get('deal');
  if (source === null) throw new UserError("the page's address names no deal (#deal=N)");
  const size = parseSize(p.get('size') ?? '2x13,12x3', ',');
  const pysol = /^pysol\s+(.+)$/i.exec(source);
  const deal = pysol ? pysolDeal(pysol[1]!) : dealFromNumber(parseDealNumber(source), size);
  const rules = parseRules(p.get('rules') ?? (pysol ? 'pysol' : 'book'));
  let solver: SolveRequest = {};
  const s = p.get('solver');
  if (s !== null) {
    try {
      solver = JSON.parse(s) as SolveRequest;
    } catch {
      throw new UserError(`the page's address has solver settings that are not JSON: ${s.slice(0, 60)}`);
    }
  }
  const title = sourceLabel(deal.source ?? source);
  return { deal, rules, title: title[0]!.toUpperCase() + title.slice(1), solver };
}
