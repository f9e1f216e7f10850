import { type Command } from 'commander';
import { type DealSourceOptions, addDealOptions, resolveDeal } from '../deals.js';
import { run } from '../exit.js';
import { stdinOnce } from '../files.js';
import { examples } from '../options.js';
import { out } from '../output.js';
import { type SolveRequest } from '../../solver/index.js';
import { type SolverFlags, addSolverOptions, requestFromFlags, withDefaultBudget } from '../solver-flags.js';
import { gameAfter } from './show.js';
import { type SolveReport, afterOf, limitText, runSolve, solveReport } from './solve.js';

/** The time budget of `hint` (and of the solver beside a player in a page) when none is given: an answer in a second or two. */
export const HINT_SECONDS = 2;

export interface HintOptions extends DealSourceOptions, SolverFlags {
  after?: string;
  json?: boolean;
}

/** What `hint --json` prints: the solve's report (solve.ts) with the next move in place of the solution. */
export type HintReport = Pick<SolveReport, 'deal' | 'after' | 'rules' | 'size' | 'options' | 'verdict' | 'proof' | 'limit' | 'nodes' | 'seconds'> & {
  /** The next move of a winning line with its card (`c3>f 5S`), or null (not won, or won already). */
  next: string | null;
  /** Moves of that winning line from here, the next one included (0: won already); null when not won. */
  toGo: number | null;
};

/** The one line `hint` prints for a report. */
export function hintLine(h: HintReport, request: SolveRequest): string {
  if (h.verdict === 'won') return h.next === null ? 'won: every card is home (no move left to play)' : `next: ${h.next} (won: ${h.toGo} moves to go)`;
  if (h.verdict === 'unsolvable') return `lost: proved (${h.proof})`;
  return `unknown within the budget (${limitText(h.limit, request)})`;
}

export function registerHint(program: Command): void {
  const cmd = program
    .command('hint')
    .description("the next move of a winning line from a deal or from the position after some moves (--after), or 'lost' or 'unknown'");
  addSolverOptions(addDealOptions(cmd), HINT_SECONDS)
    .option('--after <solution>', "the position after the moves of a solution file (RULES.md notation; '-' reads stdin)")
    .option('--json', 'print one JSON object instead of the line')
    .addHelpText(
      'after',
      examples(
        'limited hint 4 --size 1x5,4x3                     # the first move of a win of a small deal',
        'limited solve 4 --size 1x5,4x3 --solution-out win.txt && head -8 win.txt > part.txt',
        'limited hint 4 --size 1x5,4x3 --after part.txt    # the next move from there',
        'limited hint 4 --size 1x5,4x3 --after part.txt --json',
        'limited hint --pysol 123456 --max-seconds 10      # PySolFC game 123456, 10 s at most',
      ) +
        '\nPrints one line: "next: MOVE CARD (won: K moves to go)", the next move of a winning line\n' +
        'that the solver found and verified (K counts it); "lost: proved (search)" or "lost: proved\n' +
        '(locks)" when the solver proved that no line wins from the position; "unknown within the\n' +
        'budget (limit: ...)" when the budget ran out first; "won: every card is home" when the\n' +
        'position is already won.\n' +
        `Budget: the default preset with --max-seconds ${HINT_SECONDS} unless --max-nodes or --max-seconds is given:\n` +
        'enough for most positions of the first deal to answer within a second or two.\n' +
        'If --after holds a move that cannot be read or is illegal, prints the same \'invalid: move K\n' +
        "(line L) ...' line as verify (on stderr) and exits 1.\n" +
        '--json fields: deal, after ({file, moves} or null), rules, size, options, verdict (won,\n' +
        "unsolvable, unknown), proof, limit, next (the move with its card, or null), toGo, nodes,\n" +
        'seconds.\n' +
        'Exit status: 0 for any answer, 1 a bad --after file, 2 bad input, 3 a solution that fails\n' +
        'to verify (a solver bug), 130 or 143 when stopped by SIGINT or SIGTERM.\n',
    )
    .action(
      run(async (n: string | undefined, o: HintOptions) => {
        stdinOnce({ '--deal': o.deal, '--after': o.after });
        const r = resolveDeal(n, o);
        const request = withDefaultBudget(requestFromFlags(o), HINT_SECONDS);
        const at = gameAfter(r, o.after);
        if (!at) return;
        const from = at.game.history();
        // A position already won is solved at once, with no move to play.
        const solved = await runSolve(r, request, from);
        if (!solved) return;
        const after = afterOf(o.after, from);
        const { solution, deal, rules, size, options, verdict, proof, limit, nodes, seconds } = solveReport(r, request, solved.res, after);
        const h: HintReport = {
          deal, after, rules, size, options, verdict, proof, limit, nodes, seconds,
          next: solution !== null && solution.length > 0 ? solution[0]! : null,
          toGo: solution !== null ? solution.length : null,
        };
        const signal = solved.signal;
        out(o.json ? JSON.stringify(h) : hintLine(h, request));
        if (signal) process.exitCode = signal === 'SIGTERM' ? 143 : 130;
      }),
    );
}
