import { type Command } from 'commander';
import { replay, verifyText } from '../../game/index.js';
import { type DealSourceOptions, addDealOptions, resolveDeal } from '../deals.js';
import { EXIT_INVALID, run } from '../exit.js';
import { readSolution, stdinOnce } from '../files.js';
import { addJsonOption, examples } from '../options.js';
import { out, outJson } from '../output.js';
import { dealJson } from './show.js';

export interface VerifyOptions extends DealSourceOptions {
  solution: string;
  json?: boolean;
}

export function registerVerify(program: Command): void {
  const cmd = program
    .command('verify')
    .description('replay a solution on a deal and say whether it wins (exit 0 valid, 1 invalid)');
  addDealOptions(cmd).requiredOption('--solution <file>', "the solution: one move a line in RULES.md notation, e.g. 'c3>f 5S' ('-' reads stdin)");
  addJsonOption(cmd, 'the line')
    .addHelpText(
      'after',
      examples(
        'limited solve 4 --size 1x5,4x3 --solution-out win.txt && limited verify 4 --size 1x5,4x3 --solution win.txt',
        'limited deal 4 --size 1x5,4x3 > game.txt && limited solve --deal game.txt --solution-out win.txt && limited verify --deal game.txt --solution win.txt',
        'limited solve 4 --size 1x5,4x3 --solution-out win.txt && limited verify 4 --size 1x5,4x3 --solution - --json < win.txt',
      ) +
        '\nPrints one line and exits 0 when the solution wins, 1 when it does not:\n' +
        '  valid: won in K moves\n' +
        "  invalid: move K (line L) 'c3>f': <why it cannot be read, is illegal, or names the wrong card>\n" +
        '  invalid: the solution stops after K moves with H of 104 cards home\n' +
        'K counts moves; L is the line of the file (comments and blank lines count).\n' +
        'Moves (RULES.md): draw, redeal, SRC>DST with SRC c1..c12, w (waste), p1..p4 (privileged),\n' +
        'n (fifth card) and DST f (foundation) or c1..c12, each optionally followed by its card;\n' +
        "'#' starts a comment. 'limited moves N --after FILE' lists what may come next.\n" +
        "A file written by 'limited solve --solution-out' names its deal, rules and size in its\n" +
        "'#' lines: when they differ from those checked, a warning on stderr says so.\n" +
        '--json fields: deal, rules, size, solution (the file), valid (true when it wins), played\n' +
        '(moves played), home, total, error ({move, line, text, reason} for the first bad move, or\n' +
        'null); the exit status is the same as without --json.\n',
    )
    .action(
      run((n: string | undefined, o: VerifyOptions) => {
        stdinOnce({ '--deal': o.deal, '--solution': o.solution });
        const r = resolveDeal(n, o);
        const result = replay(r.deal, r.rules, readSolution(o.solution, r));
        const valid = result.won && !result.error;
        if (o.json) {
          const e = result.error;
          outJson({
            ...dealJson(r), solution: o.solution === '-' ? '<stdin>' : o.solution, valid, played: result.played, home: result.home, total: result.total,
            error: e ? { move: e.index, line: e.line, text: e.text, reason: e.reason } : null,
          });
        } else out(verifyText(result));
        if (!valid) process.exitCode = EXIT_INVALID;
      }),
    );
}
