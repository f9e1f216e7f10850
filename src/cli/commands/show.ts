import { type Command } from 'commander';
import { type Card, Game, SUIT_SYMBOLS, formatCardSymbol, formatRules, formatSize, plural, replay, verifyText } from '../../game/index.js';
import {
  type DealSourceOptions, type ResolvedDeal, EXIT_INVALID, addDealOptions, examples, out, readSolution, resolveDeal, run,
  stdinOnce, stdoutColor,
} from '../common.js';

export interface ShowOptions extends DealSourceOptions {
  after?: string;
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
export function gameAfter(r: ResolvedDeal, after: string | undefined): { game: Game; title: string } | null {
  if (after === undefined) return { game: new Game(r.deal, r.rules), title: positionTitle(r) };
  const result = replay(r.deal, r.rules, readSolution(after, r));
  if (result.error) {
    process.stderr.write(verifyText(result) + '\n');
    process.exitCode = EXIT_INVALID;
    return null;
  }
  return { game: result.game, title: positionTitle(r, { file: after, played: result.played }) };
}

export function registerShow(program: Command): void {
  const cmd = program.command('show').description('show the layout of a deal as a player sees it (columns, foundations, waste, stock)');
  addDealOptions(cmd)
    .option('--after <solution>', "show the position after the moves of a solution file (RULES.md notation; '-' reads stdin)")
    .addHelpText(
      'after',
      examples(
        'limited show 1                      # deal 1 of the full game, book rules',
        'limited show 7 --size 1x5,4x3       # small: one pack of A-5, 4 columns of 3',
        'limited show --deal game.txt        # a deal file',
        'limited show 1 --after moves.txt    # the position after replaying moves.txt',
      ) +
        '\nColumns read top to bottom: the last card of a column is its exposed card. Red suits are\n' +
        'coloured only when stdout is a terminal and NO_COLOR is not set. If --after holds a move\n' +
        "that cannot be read or is illegal, prints the same 'invalid: move K (line L) ...' line as\n" +
        "verify (on stderr) and exits 1. As verify, warns on stderr when a file from 'limited solve\n" +
        "--solution-out' names in its '#' lines a deal, rules or size other than those shown.\n",
    )
    .action(
      run((n: string | undefined, o: ShowOptions) => {
        stdinOnce({ '--deal': o.deal, '--after': o.after });
        const r = resolveDeal(n, o);
        const at = gameAfter(r, o.after);
        if (!at) return;
        let text = formatPosition(at.game, at.title, stdoutColor());
        if (at.game.isWon()) text += '\nWon: every card is home.\n';
        out(text);
      }),
    );
}
