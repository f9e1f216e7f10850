import { type Command } from 'commander';
import { type Game, GEN_ALL, MAX_MOVES, formatMove } from '../../game/index.js';
import { type DealSourceOptions, addDealOptions, resolveDeal } from '../deals.js';
import { run } from '../exit.js';
import { stdinOnce } from '../files.js';
import { addJsonOption, examples } from '../options.js';
import { out, outJson } from '../output.js';
import { afterJson, dealJson, gameAfter } from './show.js';

export interface MovesOptions extends DealSourceOptions {
  after?: string;
  json?: boolean;
}

/** The legal moves of a position in notation with their cards (`c3>f 5S`). */
export function legalMoves(g: Game): string[] {
  const buf = new Int32Array(MAX_MOVES);
  return Array.from(buf.subarray(0, g.generate(buf, GEN_ALL)), formatMove);
}

/**
 * The legal moves of a position, one a line; when there are none, one line saying the game
 * is won or lost.
 */
export function formatLegalMoves(g: Game, indent = ''): string {
  const moves = legalMoves(g);
  if (moves.length === 0)
    return g.isWon()
      ? `${indent}no legal moves: the game is won (all ${g.total} cards home)\n`
      : `${indent}no legal moves: a dead end, the game is lost (${g.home} of ${g.total} cards home)\n`;
  return moves.map((m) => indent + m).join('\n') + '\n';
}

export function registerMoves(program: Command): void {
  const cmd = program.command('moves').description('list the legal moves of a deal (or of the position after some moves), one a line');
  addDealOptions(cmd).option('--after <solution>', "list the moves after replaying a solution file ('-' reads stdin)");
  addJsonOption(cmd, 'the list')
    .addHelpText(
      'after',
      examples(
        'limited moves 1                     # the legal first moves of deal 1',
        'limited solve 4 --size 1x5,4x3 --solution-out win.txt && head -8 win.txt > part.txt && limited moves 4 --size 1x5,4x3 --after part.txt',
        'limited deal 1 > game.txt && limited moves --deal game.txt --rules pysol',
        'limited moves 1 --json              # {deal, ..., moves: [...], state}',
      ) +
        "\nEach line is a move in RULES.md notation with the card it moves ('c3>f 5S', 'w>c7 4H',\n" +
        "'draw 7H', 'redeal'), ready to append to a solution file. While an ace is free only\n" +
        'aces may move (compulsory aces). If --after holds a move that cannot be read or is\n' +
        "illegal, prints the same 'invalid: move K (line L) ...' line as verify (on stderr) and\n" +
        "exits 1. As verify, warns on stderr when a file from 'limited solve --solution-out' names\n" +
        "in its '#' lines a deal, rules or size other than those listed.\n" +
        '--json fields: deal, rules, size, after ({file, moves} or null), moves (the list, in\n' +
        "notation with cards), state ('playing', or with no move left 'won' or 'lost'), home, total.\n",
    )
    .action(
      run((n: string | undefined, o: MovesOptions) => {
        stdinOnce({ '--deal': o.deal, '--after': o.after });
        const r = resolveDeal(n, o);
        const at = gameAfter(r, o.after);
        if (!at) return;
        if (o.json) {
          const g = at.game;
          const moves = legalMoves(g);
          const state = moves.length > 0 ? 'playing' : g.isWon() ? 'won' : 'lost';
          return outJson({ ...dealJson(r), after: afterJson(at.after), moves, state, home: g.home, total: g.total });
        }
        out(formatLegalMoves(at.game));
      }),
    );
}
