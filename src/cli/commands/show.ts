import { type Command } from 'commander';
import { type Card, Game, SUIT_LETTERS, SUIT_SYMBOLS, formatCard, formatCardSymbol, formatRules, formatSize, plural, replay, verifyText } from '../../game/index.js';
import { type DealSourceOptions, type ResolvedDeal, addDealOptions, resolveDeal } from '../deals.js';
import { EXIT_INVALID, run } from '../exit.js';
import { readSolution, stdinOnce } from '../files.js';
import { addJsonOption, examples } from '../options.js';
import { out, outJson, stdoutColor } from '../output.js';

export interface ShowOptions extends DealSourceOptions {
  after?: string;
  json?: boolean;
}

const RED = '\x1b[31m';
const RESET = '\x1b[39m';

/** Text in a suit's colour: red for hearts and diamonds when colour is on. */
function suitColor(text: string, suit: number, color: boolean): string {
  return color && (suit === 1 || suit === 2) ? RED + text + RESET : text;
}

/** A card as `5♠`. */
function cardText(c: Card, color: boolean): string {
  return suitColor(formatCardSymbol(c), c >> 4, color);
}

/**
 * The game as a player sees it: the columns as columns (headers c1.., the exposed card
 * last), foundations, waste and stock or, in the second deal, the privileged row and pile.
 */
export function formatPosition(g: Game, title: string, color: boolean): string {
  const lines: string[] = [title, ''];
  const cell = 4;
  // Columns: header, then rows top to bottom.
  lines.push(Array.from({ length: g.columns }, (_, c) => `c${c + 1}`.padEnd(cell)).join('').trimEnd());
  let depth = 0;
  for (let c = 0; c < g.columns; c++) depth = Math.max(depth, g.len[c]!);
  let pairs = false;
  for (let i = 0; i < Math.max(depth, 1); i++) {
    let row = '';
    for (let c = 0; c < g.columns; c++) {
      const l = g.len[c]!;
      if (i < l) {
        const pairTop = i === l - 1 && g.isPairTop(c);
        pairs ||= pairTop;
        row += cardText(g.cols[c * g.height + i]!, color) + (pairTop ? '*' : ' ') + ' ';
      } else if (i === 0) {
        row += '--'.padEnd(cell);
      } else {
        row += ''.padEnd(cell);
      }
    }
    lines.push(row.trimEnd());
  }
  if (pairs) lines.push('(* the covering card of a pair: it may go only to a foundation)');
  lines.push('');
  // Foundations: suit by suit, the top card of each, `-♥` for an empty one.
  const found: string[] = [];
  for (let s = 0; s < 4; s++) {
    const suit: string[] = [];
    for (let k = 0; k < g.packs; k++) {
      const top = g.found[s * g.packs + k]!;
      suit.push(top === 0 ? suitColor('-' + SUIT_SYMBOLS[s], s, color) : cardText((s << 4) | top, color));
    }
    found.push(suit.join(' '));
  }
  lines.push(`Foundations  ${found.join('  ')}   (${g.home} of ${g.total} cards home)`);
  if (g.phase === 1) {
    lines.push(`Waste        ${g.wasteLen === 0 ? 'empty' : `${cardText(g.wasteTop(), color)} on top (${plural(g.wasteLen, 'card')})`}`);
    const left = g.stockSize - g.stockPtr;
    const note = left === 0 && g.secondDeal && g.wasteLen > 0 ? ' (redeal begins the second deal)' : '';
    lines.push(`Stock        ${plural(left, 'card')}${note}`);
  } else {
    lines.push('Second deal');
    const priv: string[] = [];
    for (let i = 0; i < g.privLen; i++) priv.push(`p${i + 1} ${cardText(g.privCard(i), color)}`);
    lines.push(`Privileged   ${priv.length === 0 ? 'none left' : priv.join('  ')}`);
    const pile = g.wasteLen - g.pileNext;
    lines.push(`Pile         ${plural(pile, 'card')} face down${pile > 0 ? ' (the next is the fifth card)' : ''}`);
  }
  return lines.join('\n') + '\n';
}

/** What `show --json` prints of a position (cards as `5S`, `TH`; columns top to bottom, the exposed card last). */
export interface PositionJson {
  /** 1 in the first deal (waste and stock), 2 in the second (privileged row and pile). */
  readonly phase: 1 | 2;
  readonly columns: string[][];
  /** Columns (1-based, as c1..) whose exposed card covers a pair: it may go only to a foundation. */
  readonly pairTops: number[];
  /** By suit S, H, D, C: the top card of each foundation of the suit, null for an empty one. */
  readonly foundations: Record<string, (string | null)[]>;
  readonly home: number;
  readonly total: number;
  readonly won: boolean;
  /** First deal: the waste's top card (null when empty) and its number of cards; null in the second deal. */
  readonly waste: { readonly top: string | null; readonly cards: number } | null;
  /** First deal: the cards left in the stock; null in the second deal. */
  readonly stock: number | null;
  /** Second deal: the privileged row p1.., and the cards face down in the pile; null in the first. */
  readonly privileged: string[] | null;
  readonly pile: number | null;
}

export function positionJson(g: Game): PositionJson {
  const columns: string[][] = [];
  const pairTops: number[] = [];
  for (let c = 0; c < g.columns; c++) {
    const col: string[] = [];
    for (let i = 0; i < g.len[c]!; i++) col.push(formatCard(g.cols[c * g.height + i]!));
    columns.push(col);
    if (g.len[c]! > 0 && g.isPairTop(c)) pairTops.push(c + 1);
  }
  const foundations: Record<string, (string | null)[]> = {};
  for (let s = 0; s < 4; s++) {
    const tops: (string | null)[] = [];
    for (let k = 0; k < g.packs; k++) {
      const top = g.found[s * g.packs + k]!;
      tops.push(top === 0 ? null : formatCard((s << 4) | top));
    }
    foundations[SUIT_LETTERS[s]!] = tops;
  }
  const first = g.phase === 1;
  const privileged: string[] = [];
  if (!first) for (let i = 0; i < g.privLen; i++) privileged.push(formatCard(g.privCard(i)));
  return {
    phase: first ? 1 : 2, columns, pairTops, foundations, home: g.home, total: g.total, won: g.isWon(),
    waste: first ? { top: g.wasteLen === 0 ? null : formatCard(g.wasteTop()), cards: g.wasteLen } : null,
    stock: first ? g.stockSize - g.stockPtr : null,
    privileged: first ? null : privileged,
    pile: first ? null : g.wasteLen - g.pileNext,
  };
}

/** The deal, rules and size of a command's JSON, as its text title names them. */
export function dealJson(r: ResolvedDeal): { deal: string; rules: string; size: string } {
  return { deal: r.label, rules: formatRules(r.rules), size: formatSize(r.deal.size) };
}

/** The `after` of a command's JSON: the --after file (`<stdin>` for '-') and the moves played from it; null without --after. */
export function afterJson(after: { file: string; played: number } | undefined): { file: string; moves: number } | null {
  return after ? { file: after.file === '-' ? '<stdin>' : after.file, moves: after.played } : null;
}

/** `deal 1 · rules book · size 2x13 12x3`, and how the position was reached. */
export function positionTitle(r: ResolvedDeal, after?: { file: string; played: number }): string {
  const base = `${r.label[0]!.toUpperCase()}${r.label.slice(1)} · rules ${formatRules(r.rules)} · size ${formatSize(r.deal.size)}`;
  return after ? `${base}\nafter ${plural(after.played, 'move')} of ${after.file === '-' ? '<stdin>' : after.file}` : base;
}

/**
 * The game at the start, or after replaying a solution file (`--after`). On a move that cannot
 * be read or is illegal prints verify's `invalid: ...` line on stderr, sets exit status 1 and
 * returns null. A file whose header names another deal, rules or size gets verify's warning.
 */
export function gameAfter(r: ResolvedDeal, after: string | undefined): { game: Game; title: string; after?: { file: string; played: number } } | null {
  if (after === undefined) return { game: new Game(r.deal, r.rules), title: positionTitle(r) };
  const result = replay(r.deal, r.rules, readSolution(after, r));
  if (result.error) {
    process.stderr.write(verifyText(result) + '\n');
    process.exitCode = EXIT_INVALID;
    return null;
  }
  return { game: result.game, title: positionTitle(r, { file: after, played: result.played }), after: { file: after, played: result.played } };
}

export function registerShow(program: Command): void {
  const cmd = program.command('show').description('show the layout of a deal as a player sees it (columns, foundations, waste, stock)');
  addDealOptions(cmd).option('--after <solution>', "show the position after the moves of a solution file (RULES.md notation; '-' reads stdin)");
  addJsonOption(cmd, 'the layout')
    .addHelpText(
      'after',
      examples(
        'limited show 1                      # deal 1 of the full game, book rules',
        'limited show 7 --size 1x5,4x3       # small: one pack of A-5, 4 columns of 3',
        'limited deal 1 > game.txt && limited show --deal game.txt   # a deal file',
        'limited solve 4 --size 1x5,4x3 --solution-out win.txt && head -8 win.txt > part.txt && limited show 4 --size 1x5,4x3 --after part.txt',
        'limited show 1 --json               # the layout as one JSON object',
      ) +
        '\nColumns read top to bottom: the last card of a column is its exposed card. Red suits are\n' +
        'coloured only when stdout is a terminal and NO_COLOR is not set. If --after holds a move\n' +
        "that cannot be read or is illegal, prints the same 'invalid: move K (line L) ...' line as\n" +
        "verify (on stderr) and exits 1. As verify, warns on stderr when a file from 'limited solve\n" +
        "--solution-out' names in its '#' lines a deal, rules or size other than those shown.\n" +
        '--json fields: deal, rules, size, after ({file, moves} or null), phase (1 or 2), columns\n' +
        '(cards top to bottom, e.g. "5S"), pairTops, foundations (by suit S H D C: each top card or\n' +
        'null), home, total, won; waste {top, cards} and stock in the first deal, privileged and\n' +
        'pile in the second (null in the other).\n',
    )
    .action(
      run((n: string | undefined, o: ShowOptions) => {
        stdinOnce({ '--deal': o.deal, '--after': o.after });
        const r = resolveDeal(n, o);
        const at = gameAfter(r, o.after);
        if (!at) return;
        if (o.json) return outJson({ ...dealJson(r), after: afterJson(at.after), ...positionJson(at.game) });
        let text = formatPosition(at.game, at.title, stdoutColor());
        if (at.game.isWon()) text += '\nWon: every card is home.\n';
        out(text);
      }),
    );
}
