import { formatCard, SUIT_SYMBOLS } from './cards.js';
import { type Deal, checkLineLength, sourceLabel } from './deal.js';
import { UserError, plural, shown } from './errors.js';
import { type ParsedMove, formatMove, formatPlace, parseMove } from './notation.js';
import { type Rules, formatRules, formatSize, parseRules, parseSize, rulesEqual, sizeEqual } from './rules.js';
import {
  Game, type PackedMove, DST_FOUNDATION, MAX_MOVES, SRC_DRAW, SRC_FIFTH, SRC_PRIV, SRC_REDEAL, SRC_WASTE, moveCard, moveDst, moveSrc,
} from './state.js';

/** Why a move that `generate` does not offer is illegal in the current position. */
export function explainIllegal(g: Game, src: number, dst: number): string {
  const phase2 = g.phase === 2;
  if (src === SRC_DRAW) {
    if (phase2) return 'there is no drawing in the second deal';
    if (g.stockPtr >= g.stockSize) return 'the stock is empty';
  } else if (src === SRC_REDEAL) {
    if (!g.secondDeal) return 'there is no second deal under second-deal=none';
    if (phase2) return 'the second deal has begun already';
    if (g.stockPtr < g.stockSize) return `the stock is not empty (${g.stockSize - g.stockPtr} cards left)`;
    if (g.wasteLen === 0) return 'the waste is empty';
  } else if (src < SRC_WASTE) {
    if (g.len[src] === 0) return `column ${formatPlace(src)} is empty`;
  } else if (src === SRC_WASTE) {
    if (phase2) return 'there is no waste in the second deal';
    if (g.wasteLen === 0) return 'the waste is empty';
  } else if (src === SRC_FIFTH) {
    if (!phase2) return 'there is no fifth card before the redeal';
    if (g.pileNext >= g.wasteLen) return 'the pile is exhausted: there is no fifth card';
  } else {
    if (!phase2) return 'there are no privileged cards before the redeal';
    if (src - SRC_PRIV >= g.privLen) return `there is no privileged card ${formatPlace(src)} (${g.privLen} left)`;
  }
  const buf = new Int32Array(MAX_MOVES);
  if (g.aceIsFree()) {
    const n = g.generate(buf);
    const aces = Array.from(buf.subarray(0, n), (m) => `${formatPlace(moveSrc(m))} ${formatCard(moveCard(m))}`);
    return `an ace is free (${aces.join(', ')}): while one is, only free aces may move, to the foundations`;
  }
  if (src === SRC_DRAW || src === SRC_REDEAL) return 'not a legal move';
  const card = g.cardAt(src);
  const name = formatCard(card);
  if (src === SRC_FIFTH && g.privilegedCanMove())
    return 'the fifth card may be turned only when no privileged card can move (to a foundation, a pair or a space)';
  if (dst === DST_FOUNDATION) {
    const s = card >> 4;
    // `the ♠ foundations are at AS and empty`, `the ♣ foundation is empty`.
    const tops: number[] = [];
    for (let k = 0; k < g.packs; k++) tops.push(g.found[s * g.packs + k]!);
    const state = tops.every((t) => t === 0) ? 'empty' : tops.map((t) => (t === 0 ? 'empty' : `at ${formatCard((s << 4) | t)}`)).join(' and ');
    const they = g.packs === 1 ? 'foundation is' : 'foundations are';
    return `${name} cannot go to a foundation (the ${SUIT_SYMBOLS[s]} ${they} ${state})`;
  }
  if (dst === src) return 'a card cannot move onto its own column';
  if (src < SRC_WASTE && g.isPairTop(src)) return `${name} is the covering card of a pair: it may go only to a foundation`;
  if (g.len[dst] === 0) {
    if (src === SRC_FIFTH) return 'the fifth card goes only to a foundation or onto a pair';
    return 'not a legal move';
  }
  const onto = formatCard(g.top(dst));
  if (g.building === 0) return `building=none: no card may be placed on a non-empty column (${formatPlace(dst)} holds ${onto})`;
  if (g.isPairTop(dst)) return `${formatPlace(dst)} holds a pair (${onto} on top): nothing may be placed on a pair`;
  return `${name} cannot be placed on ${onto} (same suit, one rank lower only)`;
}

/** Finds the legal move matching a parsed one; throws UserError with the reason when there is none. */
export function resolveMove(g: Game, p: ParsedMove, buf: Int32Array = new Int32Array(MAX_MOVES)): PackedMove {
  const n = g.generate(buf);
  for (let i = 0; i < n; i++) {
    const m = buf[i]!;
    const ms = moveSrc(m);
    if (ms !== p.src) continue;
    if (ms !== SRC_DRAW && ms !== SRC_REDEAL && moveDst(m) !== p.dst) continue;
    if (p.card >= 0 && moveCard(m) !== p.card)
      throw new UserError(
        p.src === SRC_DRAW
          ? `the card turned is ${formatCard(moveCard(m))}, not ${formatCard(p.card)}`
          : `the move moves ${formatCard(moveCard(m))}, not ${formatCard(p.card)}`,
      );
    return m;
  }
  throw new UserError(explainIllegal(g, p.src, p.dst));
}

export interface ReplayResult {
  /** Moves played (legal ones). */
  readonly played: number;
  readonly won: boolean;
  readonly home: number;
  readonly total: number;
  /** The first bad move: its number and its line in the text (both 1-based), its text as written (no comment), and why. */
  readonly error?: { readonly index: number; readonly line: number; readonly text: string; readonly reason: string };
  readonly game: Game;
}

/** What a solution file may hold: the longest solutions are a few hundred moves, a few kilobytes. */
export const SOLUTION_FILE_LIMITS = {
  /** The whole file, bytes. */
  bytes: 1024 * 1024,
  /** One line, characters. */
  lineChars: 1000,
} as const;

/** Throws a one-line UserError when a solution text is past SOLUTION_FILE_LIMITS (`name` names it). */
export function checkSolutionText(text: string, name: string): void {
  if (text.length > SOLUTION_FILE_LIMITS.bytes)
    throw new UserError(`${name}: ${text.length} characters, more than a solution file may hold (${SOLUTION_FILE_LIMITS.bytes})`);
  text.split(/\r?\n/).forEach((line, i) => checkLineLength(line, SOLUTION_FILE_LIMITS.lineChars, `${name}:${i + 1}`));
}

/**
 * Replays a solution text on a fresh game. Stops at the first move that cannot be read, is
 * illegal, or names the wrong card. Used by `verify`, by `show --after` and `moves --after`, and
 * before any solution is printed. A move that cannot be read makes the solution invalid, as an
 * illegal one does (verify's exit 1, as documented for an invalid solution), not a bad file.
 */
export function replay(deal: Deal, rules: Rules, text: string): ReplayResult {
  const g = new Game(deal, rules);
  const buf = new Int32Array(MAX_MOVES);
  const lines = text.split(/\r?\n/);
  let index = 0;
  for (let i = 0; i < lines.length; i++) {
    let p: ParsedMove | null;
    // A bad move is quoted as written, card and all (`c1>f 2S`, `c1 > f`, `draw ZZ`): its first
    // word alone could be all right (`c1`) while the trouble is in the rest.
    const text = lines[i]!.replace(/#.*/, '').trim();
    try {
      p = parseMove(lines[i]!, g.columns, g.privileged, g.ranks);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      index++;
      return { played: index - 1, won: false, home: g.home, total: g.total, error: { index, line: i + 1, text, reason: e.message }, game: g };
    }
    if (!p) continue;
    index++;
    try {
      g.apply(resolveMove(g, p, buf));
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      return { played: index - 1, won: false, home: g.home, total: g.total, error: { index, line: i + 1, text, reason: e.message }, game: g };
    }
  }
  return { played: index, won: g.isWon(), home: g.home, total: g.total, game: g };
}

/**
 * The verifier's one-line verdict: `valid: won in K moves` or `invalid: ...`. A bad move gives
 * its line as well as its number: comments and blank lines make them differ.
 */
export function verifyText(r: ReplayResult): string {
  // The move's text is the user's: escaped and cut by shown(), so a binary file gives a printable line.
  if (r.error) return `invalid: move ${r.error.index} (line ${r.error.line}) '${shown(r.error.text)}': ${r.error.reason}`;
  if (!r.won) return `invalid: the solution stops after ${plural(r.played, 'move')} with ${r.home} of ${r.total} cards home`;
  return `valid: won in ${plural(r.played, 'move')}`;
}

/**
 * What a solution file's leading `#` lines say it was written for: the `# deal:`, `# rules:`
 * and `# size:` lines that `limited solve --solution-out` writes (formatSolution's header).
 * Only the comment block before the first move is read; a missing line is left out.
 */
export function solutionHeader(text: string): { deal?: string; rules?: string; size?: string } {
  const h: { deal?: string; rules?: string; size?: string } = {};
  for (const line of text.split(/\r?\n/)) {
    const t = line.trim();
    if (t === '') continue;
    if (!t.startsWith('#')) break;
    const m = /^#\s*(deal|rules|size)\s*:\s*(.*?)\s*$/i.exec(t);
    if (m) h[m[1]!.toLowerCase() as 'deal' | 'rules' | 'size'] ??= m[2]!;
  }
  return h;
}

/**
 * How the deal, size and rules of a solution file's header differ from those it is checked
 * against, or null when they agree (or the file has no header). A header value that cannot be
 * read is not compared; the deal is compared only when both are known by number.
 * E.g. `written for size 1x5 4x3, checking against size 2x13 12x3`.
 */
export function headerMismatch(text: string, deal: Deal, rules: Rules): string | null {
  const h = solutionHeader(text);
  const was: string[] = [];
  const is: string[] = [];
  if (h.deal !== undefined && deal.source !== undefined && /^(\d+|pysol\s+\S+)$/i.test(h.deal) && h.deal.replace(/\s+/g, ' ').toLowerCase() !== deal.source.toLowerCase()) {
    was.push(sourceLabel(h.deal));
    is.push(sourceLabel(deal.source));
  }
  if (h.size !== undefined) {
    let size;
    try {
      size = parseSize(h.size);
    } catch {
      // not a size: not compared
    }
    if (size && !sizeEqual(size, deal.size)) {
      was.push(`size ${formatSize(size)}`);
      is.push(`size ${formatSize(deal.size)}`);
    }
  }
  if (h.rules !== undefined) {
    let r;
    try {
      r = parseRules(h.rules);
    } catch {
      // not rules: not compared
    }
    if (r && !rulesEqual(r, rules)) {
      was.push(`rules ${formatRules(r)}`);
      is.push(`rules ${formatRules(rules)}`);
    }
  }
  return was.length > 0 ? `written for ${was.join(', ')}, checking against ${is.join(', ')}` : null;
}

/** Replays packed moves (a solver's solution) and says whether they win: the check before printing. */
export function verifyMoves(deal: Deal, rules: Rules, moves: readonly PackedMove[]): ReplayResult {
  return replay(deal, rules, moves.map(formatMove).join('\n'));
}
