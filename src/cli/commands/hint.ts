import { type Command } from 'commander';
import { formatMove, formatRules, formatSize } from '../../game/index.js';
import { type SolveResult } from '../../solver/index.js';
import { type DealSourceOptions, addDealOptions, examples, out, resolveDeal, run, stdinOnce } from '../common.js';
import { type CliSolveOptions } from '../solver-api.js';
import { gameAfter } from './show.js';
import { type SolveCliOptions, addSolverOptions, limitText, runSolve, solveOptionsFromFlags } from './solve.js';

/** The time budget of `hint` (and of the solver beside a player in a page) when none is given: an answer in a second or two. */
export const HINT_SECONDS = 2;

export interface HintOptions extends DealSourceOptions, SolveCliOptions {
  after?: string;
  json?: boolean;
}

/** The solver's options with a default time budget when neither --max-nodes nor --max-seconds is given. */
export function withDefaultBudget(opts: CliSolveOptions, seconds: number): CliSolveOptions {
  return opts.maxNodes === undefined && opts.maxSeconds === undefined ? { ...opts, maxSeconds: seconds } : opts;
}

export interface HintReport {
  deal: string;
  after: { file: string; moves: number } | null;
  rules: string;
  size: string;
  options: CliSolveOptions;
  /** 'won' also when the position is already won (then next is null and toGo 0). */
  verdict: SolveResult['verdict'];
  proof: 'search' | 'locks' | null;
  limit: SolveResult['limit'] | null;
  /** The next move of a winning line with its card (`c3>f 5S`), or null. */
  next: string | null;
  /** Moves of that winning line from here, the next one included; null when not won. */
  toGo: number | null;
  nodes: number;
  seconds: number;
}

/** The one line `hint` prints for a report. */
export function hintLine(h: HintReport, opts: CliSolveOptions): string {
  if (h.verdict === 'won') return h.next === null ? 'won: every card is home (no move left to play)' : `next: ${h.next} (won: ${h.toGo} moves to go)`;
  if (h.verdict === 'unsolvable') return `lost: proved (${h.proof})`;
  return `unknown within the budget (${limitText(h.limit ?? undefined, opts)})`;
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
        const opts = withDefaultBudget(solveOptionsFromFlags(o), HINT_SECONDS);
        const at = gameAfter(r, o.after);
        if (!at) return;
        const from = at.game.history();
        const base = {
          deal: r.label,
          after: o.after !== undefined ? { file: o.after === '-' ? '<stdin>' : o.after, moves: from.length } : null,
          rules: formatRules(r.rules),
          size: formatSize(r.deal.size),
          options: opts,
        };
        let h: HintReport;
        let signal: NodeJS.Signals | null = null;
        if (at.game.isWon()) {
          h = { ...base, verdict: 'won', proof: null, limit: null, next: null, toGo: 0, nodes: 0, seconds: 0 };
        } else {
          const solved = await runSolve(r, opts, from);
          if (!solved) return;
          const res = solved.res;
          signal = solved.signal;
          const won = res.verdict === 'won' && res.moves !== null && res.moves.length > 0;
          h = {
            ...base,
            verdict: res.verdict,
            proof: res.verdict === 'unsolvable' ? (res.proof ?? 'search') : null,
            limit: res.verdict === 'unknown' ? (res.limit ?? null) : null,
            next: won ? formatMove(res.moves![0]!) : null,
            toGo: won ? res.moves!.length : null,
            nodes: res.nodes,
            seconds: Math.round(res.seconds * 1e6) / 1e6,
          };
        }
        out(o.json ? JSON.stringify(h) : hintLine(h, opts));
        if (signal) process.exitCode = signal === 'SIGTERM' ? 143 : 130;
      }),
    );
}
