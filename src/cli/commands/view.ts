import { type Command } from 'commander';
import { type PackedMove, UserError, plural, replay, verifyText } from '../../game/index.js';
import { checkOut, dealPage, writePage } from '../../pages/page.js';
import { type PageData, type PageVerdict, pageRequest } from '../../web/data.js';
import { type DealSourceOptions, type ResolvedDeal, addDealOptions, resolveDeal } from '../deals.js';
import { EXIT_INVALID, run } from '../exit.js';
import { readSolution, stdinOnce } from '../files.js';
import { examples } from '../options.js';
import { out } from '../output.js';
import { type SolverFlags, addSolverOptions, describeRequest, requestFromFlags, withDefaultBudget } from '../solver-flags.js';
import { HINT_SECONDS } from './hint.js';
import { gameAfter } from './show.js';
import { runSolve } from './solve.js';

/** The time budget of the solve that `view` runs when no --solution is given and no budget either. */
export const VIEW_SECONDS = 10;

interface PageOptions extends DealSourceOptions, SolverFlags {
  after?: string;
  out?: string;
  force?: boolean;
}

interface ViewOptions extends PageOptions {
  solution?: string;
}

/** `Deal 1`, `PySolFC game 5`, `Deal file game.txt`. */
const titleOf = (r: ResolvedDeal): string => r.label[0]!.toUpperCase() + r.label.slice(1);


/** The checks and the position every page command starts with; null after verify's line (exit 1) for a bad --after file. */
function pageStart(n: string | undefined, o: PageOptions): { r: ResolvedDeal; out: string; from: PackedMove[] } | null {
  stdinOnce({ '--deal': o.deal, '--after': o.after, ...('solution' in o ? { '--solution': (o as ViewOptions).solution } : {}) });
  const r = resolveDeal(n, o);
  if (o.out === undefined) throw new UserError('give --out FILE.html: the page to write');
  checkOut(o.out, o.force === true);
  const at = gameAfter(r, o.after);
  if (!at) return null;
  return { r, out: o.out, from: at.game.history() };
}

function pageOptions(cmd: Command): Command {
  return cmd
    .option('--after <solution>', "start from the position after the moves of a solution file ('-' reads stdin)")
    .option('--out <file>', 'the HTML file to write (one self-contained file: no network, no other files)')
    .option('--force', 'overwrite --out when it exists');
}

const PAGE_HELP =
  'The page is one HTML file that works offline, laid out for windows from 360 px wide: the\n' +
  'table drawn as cards (hearts and diamonds red on a striped face), foundations, waste and\n' +
  'stock, and in the second deal the privileged row, the pile and the fifth card. Watch steps\n' +
  'through the solution (buttons, arrow keys, the slider, the move list). Play takes clicks,\n' +
  'drags or keys (arrows between places, Enter to pick a card up and put it down; legal moves\n' +
  'only: the engine is the one of this command line), with undo, restart and Hint (the solver\n' +
  "plays its next move). New game opens any other deal (a number, a PySolFC game, a random one,\n" +
  "a pasted deal file), named in the page's address (#deal=17) so that links and back/forward\n" +
  "work. 'play' writes a page that names no card before it is turned and shows the solver's\n" +
  'verdict on request ("Still winnable?"); \'view\' a page with perfect information and verdicts\n' +
  "after every move; both are choices on the page. The page's solver runs in a Web Worker:\n" +
  `its budget is the solver options given, else the default preset with ${HINT_SECONDS} s; a position still\n` +
  'undecided then is searched on for 60 s.\n' +
  "An existing --out is refused (exit 2) unless --force. Needs the browser bundle of 'npm run build'.\n";

export function registerView(program: Command): void {
  const cmd = program.command('view').description('write a web page that steps through a solution of a deal, and lets you play it with hints');
  pageOptions(addSolverOptions(addDealOptions(cmd), VIEW_SECONDS))
    .option('--solution <file>', "the moves to step through (a solution file; without it the deal is solved first)")
    .addHelpText(
      'after',
      examples(
        'limited view 1 --out deal1.html                   # solve deal 1 (10 s at most), write the page',
        'limited view 4 --size 1x5,4x3 --out small.html',
        'limited solve 4 --size 1x5,4x3 --solution-out win.txt && limited view 4 --size 1x5,4x3 --solution win.txt --out win.html --force',
        'limited view --pysol 123456 --max-seconds 30 --out pysol.html',
      ) +
        '\nWithout --solution the deal (or the position after --after) is solved first, with the\n' +
        `solver options given, else the default preset with --max-seconds ${VIEW_SECONDS}; the verdict is on the page.\n` +
        'A deal left unknown or proved lost is shown as dealt, with its verdict, to be played.\n' +
        'With --solution the page steps through its moves (checked as verify does: a move that\n' +
        "cannot be read or is illegal prints verify's 'invalid: ...' line and exits 1).\n" +
        PAGE_HELP,
    )
    .action(
      run(async (n: string | undefined, o: ViewOptions) => {
        if (o.solution !== undefined && o.after !== undefined)
          throw new UserError('give --solution or --after, not both (a solution file holds its moves from the deal)');
        const start = pageStart(n, o);
        if (!start) return;
        const { r, from } = start;
        const flags = requestFromFlags(o);
        let solution: PackedMove[] | null = null;
        let verdict: PageVerdict | null = null;
        let note: string;
        if (o.solution !== undefined) {
          const res = replay(r.deal, r.rules, readSolution(o.solution, r));
          if (res.error) {
            process.stderr.write(verifyText(res) + '\n');
            process.exitCode = EXIT_INVALID;
            return;
          }
          solution = res.game.history();
          const name = o.solution === '-' ? '<stdin>' : o.solution;
          verdict = res.won ? { verdict: 'won', by: `the moves of ${name}` } : null;
          note = res.won
            ? `won in ${plural(solution.length, 'move')} (${name})`
            : `the ${plural(solution.length, 'move')} of ${name}, which stop with ${res.home} of ${res.total} cards home`;
        } else {
          const request = withDefaultBudget(flags, VIEW_SECONDS);
          const how = describeRequest(request);
          process.stderr.write(`limited: solving ${r.label}${from.length > 0 ? ` after ${plural(from.length, 'move')}` : ''} first (${how}; give --solution FILE to show your own)\n`);
          const solved = await runSolve(r, request, from);
          if (!solved) return;
          if (solved.signal) {
            process.exitCode = solved.signal === 'SIGTERM' ? 143 : 130;
            return;
          }
          const res = solved.res;
          solution = res.verdict === 'won' ? res.moves : null;
          verdict = {
            verdict: res.verdict,
            ...(res.proof !== null ? { proof: res.proof } : {}),
            ...(res.limit !== null ? { limit: res.limit } : {}),
            by: `limited solve: ${how}`,
          };
          note =
            res.verdict === 'won'
              ? `won in ${plural(res.moves!.length, 'move')}`
              : res.verdict === 'unsolvable'
                ? `lost (proved by ${res.proof === 'locks' ? 'locks' : 'search'}): the page shows the deal`
                : `unknown within the budget (${res.limit ?? 'a limit'} ran out): the page shows the deal`;
        }
        const data: PageData = {
          mode: 'view', title: titleOf(r), rules: r.rules, deal: r.deal, start: from, solution, verdict,
          ...(verdict === null ? { note } : {}),
          solver: pageRequest(withDefaultBudget(flags, HINT_SECONDS)),
        };
        writePage(start.out, dealPage(data));
        out(`wrote ${start.out}: ${r.label}, ${note}; open it in a browser`);
      }),
    );
}

export function registerPlay(program: Command): void {
  const cmd = program.command('play').description('write a web page to play a deal in the browser, with the solver beside you and hints');
  pageOptions(addSolverOptions(addDealOptions(cmd), HINT_SECONDS))
    .addHelpText(
      'after',
      examples(
        'limited play 4 --size 1x5,4x3 --out play4.html    # a small deal to learn the game',
        'limited play 1 --out play1.html                   # deal 1 of the full game',
        'limited play --pysol 123456 --max-seconds 5 --out play-pysol.html',
      ) +
        '\nThe page opens in Play; its solver options (--preset, --max-seconds, ...) set the budget\n' +
        'of the solver beside you, which answers after each move.\n' +
        PAGE_HELP,
    )
    .action(
      run((n: string | undefined, o: PageOptions) => {
        const start = pageStart(n, o);
        if (!start) return;
        const { r, from } = start;
        const data: PageData = {
          mode: 'play', title: titleOf(r), rules: r.rules, deal: r.deal, start: from, solution: null, verdict: null,
          solver: pageRequest(withDefaultBudget(requestFromFlags(o), HINT_SECONDS)),
        };
        writePage(start.out, dealPage(data));
        out(`wrote ${start.out}: ${r.label}${from.length > 0 ? ` after ${plural(from.length, 'move')}` : ''}; open it in a browser to play`);
      }),
    );
}
