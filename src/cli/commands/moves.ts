import { type Command } from 'commander';
import { type Game, GEN_ALL, MAX_MOVES, formatMove } from '../../game/index.js';
import { type DealSourceOptions, addDealOptions, examples, out, resolveDeal, run, stdinOnce } from '../common.js';
import { gameAfter } from './show.js';

export interface MovesOptions extends DealSourceOptions {
  after?: string;
}

/**
 * The legal moves of a position in notation with their cards (`c3>f 5S`), one a line; when
 * there are none, one line saying the game is won or lost.
 */
export function formatLegalMoves(g: Game, indent = ''): string {
  const buf = new Int32Array(MAX_MOVES);
  const n = g.generate(buf, GEN_ALL);
  if (n === 0)
    return g.isWon()
      ? `${indent}no legal moves: the game is won (all ${g.total} cards home)\n`
      : `${indent}no legal moves: a dead end, the game is lost (${g.home} of ${g.total} cards home)\n`;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(indent + formatMove(buf[i]!));
  return lines.join('\n') + '\n';
}

export function registerMoves(program: Command): void {
  const cmd = program.command('moves').description('list the legal moves of a deal (or of the position after some moves), one a line');
  addDealOptions(cmd)
    .option('--after <solution>', "list the moves after replaying a solution file ('-' reads stdin)")
    .addHelpText(
      'after',
      examples(
        'limited moves 1                     # the legal first moves of deal 1',
        'limited moves 1 --after moves.txt   # the legal moves after replaying moves.txt',
        'limited moves --deal game.txt --rules pysol',
      ) +
        "\nEach line is a move in RULES.md notation with the card it moves ('c3>f 5S', 'w>c7 4H',\n" +
        "'draw 7H', 'redeal'), ready to append to a solution file. While an ace is free only\n" +
        'aces may move (compulsory aces). If --after holds a move that cannot be read or is\n' +
        "illegal, prints the same 'invalid: move K (line L) ...' line as verify (on stderr) and\n" +
        "exits 1. As verify, warns on stderr when a file from 'limited solve --solution-out' names\n" +
        "in its '#' lines a deal, rules or size other than those listed.\n",
    )
    .action(
      run((n: string | undefined, o: MovesOptions) => {
        stdinOnce({ '--deal': o.deal, '--after': o.after });
        const at = gameAfter(resolveDeal(n, o), o.after);
        if (!at) return;
        out(formatLegalMoves(at.game));
      }),
    );
}
