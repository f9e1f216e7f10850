import { type Card, formatCard, tryParseCard } from './cards.js';
import { UserError, shown } from './errors.js';
import {
  type PackedMove, DST_FOUNDATION, SRC_DRAW, SRC_FIFTH, SRC_PRIV, SRC_REDEAL, SRC_WASTE, moveCard, moveDst, moveSrc,
} from './state.js';

/**
 * The move notation of RULES.md: `draw`, `redeal`, `SRC>DST` with SRC `c1`..`c12`, `w`,
 * `p1`..`p8`, `n` and DST `f` or `cK`, each optionally followed by the card it moves.
 */

/** A move as read from text: where from, where to, and the card named (-1 when none). */
export interface ParsedMove {
  readonly src: number;
  readonly dst: number;
  readonly card: Card;
  /** The move's text without the card, e.g. `c3>f`. */
  readonly text: string;
}

export function formatPlace(src: number): string {
  if (src < SRC_WASTE) return `c${src + 1}`;
  if (src === SRC_WASTE) return 'w';
  if (src === SRC_FIFTH) return 'n';
  if (src === DST_FOUNDATION) return 'f';
  return `p${src - SRC_PRIV + 1}`;
}

/** `c3>f`, `draw`, `redeal` (without the card). */
export function formatMoveBare(m: PackedMove): string {
  const src = moveSrc(m);
  if (src === SRC_DRAW) return 'draw';
  if (src === SRC_REDEAL) return 'redeal';
  return `${formatPlace(src)}>${formatPlace(moveDst(m))}`;
}

/** `c3>f 5S`, `draw 7H`, `redeal`. */
export function formatMove(m: PackedMove): string {
  const src = moveSrc(m);
  if (src === SRC_REDEAL) return 'redeal';
  return `${formatMoveBare(m)} ${formatCard(moveCard(m))}`;
}

function parsePlace(t: string, isSource: boolean, columns: number, privileged: number): number {
  if (isSource && t === 'w') return SRC_WASTE;
  if (isSource && t === 'n') return SRC_FIFTH;
  if (!isSource && t === 'f') return DST_FOUNDATION;
  const m = /^([cp])(\d+)$/.exec(t);
  if (m) {
    const k = Number(m[2]);
    if (m[1] === 'c') {
      if (k >= 1 && k <= columns) return k - 1;
      throw new UserError(`there is no column ${shown(t)} (columns c1 to c${columns})`);
    }
    if (isSource) {
      if (k >= 1 && k <= privileged) return SRC_PRIV + k - 1;
      throw new UserError(`there is no privileged card ${shown(t)} (p1 to p${privileged})`);
    }
  }
  throw new UserError(isSource ? `'${shown(t)}' is not a source (c1..c${columns}, w, p1..p${privileged}, n)` : `'${shown(t)}' is not a destination (f, c1..c${columns})`);
}

/**
 * Reads one move. Returns null for a blank or comment-only line; throws UserError for text
 * that is not a move (quoting the user's text through `shown`: a binary file gives a short,
 * printable message). `columns`, `privileged` and `ranks` bound what is accepted.
 */
export function parseMove(line: string, columns = 12, privileged = 4, ranks = 13): ParsedMove | null {
  const hash = line.indexOf('#');
  const body = (hash >= 0 ? line.slice(0, hash) : line).trim();
  if (body === '') return null;
  const words = body.split(/\s+/);
  if (words.length > 2) throw new UserError(`'${shown(body)}' has more than a move and a card`);
  const mv = words[0]!.toLowerCase();
  let card = -1;
  if (words.length === 2) {
    card = tryParseCard(words[1]!, ranks);
    if (card < 0) throw new UserError(`'${shown(words[1]!)}' is not a card`);
  }
  if (mv === 'draw') return { src: SRC_DRAW, dst: 0, card, text: 'draw' };
  if (mv === 'redeal') {
    if (card >= 0) throw new UserError(`'redeal' moves no card`);
    return { src: SRC_REDEAL, dst: 0, card, text: 'redeal' };
  }
  const parts = mv.split('>');
  if (parts.length !== 2) throw new UserError(`'${shown(words[0]!)}' is not a move (draw, redeal, or SRC>DST such as c3>f)`);
  const src = parsePlace(parts[0]!, true, columns, privileged);
  const dst = parsePlace(parts[1]!, false, columns, privileged);
  return { src, dst, card, text: mv };
}

/** Formats a list of moves as a solution file, one move a line with its card. */
export function formatSolution(moves: readonly PackedMove[], header?: string): string {
  const lines: string[] = [];
  if (header) for (const h of header.split('\n')) lines.push(`# ${h}`);
  for (const m of moves) lines.push(formatMove(m));
  return lines.join('\n') + '\n';
}
