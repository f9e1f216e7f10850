import { type Command } from 'commander';
import { dealFromNumber, BOOK, Game } from '../../game/index.js';
import { examples, out, run, stdoutColor } from '../common.js';
import { formatLegalMoves } from './moves.js';
import { formatPosition, positionTitle } from './show.js';

/** What `npm start` runs. Until the batch runner exists: deal 1, as `show` and `moves` print it. */
export function registerStart(program: Command): void {
  program
    .command('start')
    .description('a first look (what npm start runs): deal 1 and its legal moves')
    .addHelpText('after', examples('limited start', 'npm start                           # builds, then runs this'))
    .action(
      run(() => {
        const deal = dealFromNumber(1);
        const r = { deal, rules: BOOK, label: 'deal 1' };
        const g = new Game(deal, r.rules);
        out(
          formatPosition(g, positionTitle(r), stdoutColor()) +
            '\nLegal moves:\n' +
            formatLegalMoves(g, '  ') +
            "\nNext: 'limited show N', 'limited moves N --after FILE', 'limited verify N --solution FILE';\n" +
            "'limited --help' lists every command.",
        );
      }),
    );
}
