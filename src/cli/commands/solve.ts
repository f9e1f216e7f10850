import { type Command } from 'commander';
import { type Deal, type PackedMove, UserError, deckCount, plural, formatMove, formatRules, formatSize, formatSolution } from '../../game/index.js';
import { checkWritable, writeAtomic } from '../../util/fileio.js';
import { formatDuration } from '../../util/duration.js';
import { type Progress, type Pruning, type SearchRun, type SolveOutcome, type SolveRequest, type SolveResult, Solver, solveOutcome, startSolve } from '../../solver/index.js';
import { type DealSourceOptions, type ResolvedDeal, addDealOptions, resolveDeal } from '../deals.js';
import { reportSolutionBug, run } from '../exit.js';
import { stdinOnce } from '../files.js';
import { examples } from '../options.js';
import { out } from '../output.js';
import { type SolverFlags, addSolverOptions, addTacticsOptions, describeRequest, presetList, reportedRequest, requestFromFlags } from '../solver-flags.js';
import { gameAfter } from './show.js';
import { THREADS_EPILOGUE, THREADS_HELP, solveOnThreads, threadsText } from '../threads.js';

export interface SolveCliOptions extends DealSourceOptions, SolverFlags {
  after?: string;
  json?: boolean;
  solutionOut?: string;
}

/**
 * On a terminal, the search's progress on stderr: one line redrawn in place, at most five times
 * a second, and wiped when the search ends (so that stdout's report stands alone); null when
 * stderr is not a terminal. `solveInSteps` draws it between two steps of the search.
 */
function progressLine(deal: Deal): { show: (p: Progress) => void; end: () => void } | null {
  const err = process.stderr;
  if (err.isTTY !== true) return null;
  const t0 = performance.now();
  const cards = deckCount(deal.size);
  let last = 0;
  let drawn = false;
  return {
    show: (p) => {
      const now = performance.now();
      if (now - last < 200) return;
      last = now;
      const secs = (now - t0) / 1000;
      const text =
        `solving ${formatDuration(secs)} · ${p.nodes.toLocaleString('en-US')} nodes · ${(p.nodes / secs / 1e6).toFixed(2)} M/s · ` +
        `${p.states.toLocaleString('en-US')} states · best ${p.bestHome}/${cards} home · Ctrl-C stops`;
      err.write(`\r${text.slice(0, Math.max(0, (err.columns || 100) - 1))}\x1b[K`);
      drawn = true;
    },
    end: () => {
      if (drawn) err.write('\r\x1b[K');
    },
  };
}

/** Nodes between two steps of `solveInSteps`: about 30 ms of search. */
const STEP_NODES = 1 << 16;

/**
 * Runs a solve a step at a time, and lets the event loop run between two steps: the progress
 * line is redrawn there, and SIGINT or SIGTERM stops the solve with the figures so far (verdict
 * unknown, limit 'interrupted'; the signal is returned). A second signal before that ends the
 * process at once, as the handlers are removed by the first.
 */
async function solveInSteps(run: SearchRun, line: { show: (p: Progress) => void } | null): Promise<{ res: SolveResult; signal: NodeJS.Signals | null }> {
  const t0 = performance.now();
  let signal: NodeJS.Signals | null = null;
  const stop = (s: NodeJS.Signals): void => {
    signal = s;
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    for (let n = STEP_NODES; ; n += STEP_NODES) {
      const res = run.step(n);
      if (res) return { res, signal: null };
      line?.show(run.progress());
      await new Promise((resolve) => setImmediate(resolve));
      if (signal) {
        const seconds = (performance.now() - t0) / 1000;
        return { res: { ...run.progress(), verdict: 'unknown', limit: 'interrupted', seconds, moves: null }, signal };
      }
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** Fails early (before a long search) when --solution-out cannot be written. */
function checkSolutionOut(file: string): void {
  if (file === '-') throw new UserError(`--solution-out needs a file name ('-' is not accepted: stdout holds the report)`);
  checkWritable(file, 'solution file');
}

/** A word for the shell: quoted when it holds anything but safe characters. */
function shellWord(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/** The `limited verify ...` command that checks a solution file written for this deal. */
function verifyCommand(n: string | undefined, o: SolveCliOptions, r: ResolvedDeal, file: string): string {
  const words = ['limited', 'verify'];
  if (n !== undefined) words.push(n, '--size', formatSize(r.deal.size).replace(' ', ','));
  else if (o.deal !== undefined) words.push('--deal', o.deal);
  else if (o.pysol !== undefined) words.push('--pysol', o.pysol);
  words.push('--rules', formatRules(r.rules), '--solution', file);
  return words.map(shellWord).join(' ');
}

/** Why an `unknown` verdict stopped: `limit: nodes, --max-nodes 5`, naming the flag that sets it. */
export function limitText(limit: SolveOutcome['limit'], opts: SolveRequest): string {
  const flag = (name: string, given: number | undefined, unit = ''): string =>
    given !== undefined ? `${name} ${given}${unit}` : `the default; raise it with ${name}`;
  switch (limit) {
    case 'nodes':
      return `limit: nodes, ${flag('--max-nodes', opts.maxNodes)}`;
    case 'time':
      return `limit: time, ${flag('--max-seconds', opts.maxSeconds, ' s')}`;
    case 'memory':
      return `limit: memory, ${flag('--max-memory', opts.maxMemoryMB, ' MB')}`;
    case 'interrupted':
      return 'limit: interrupted, stopped by a signal';
    default:
      return 'a limit ran out';
  }
}

export interface SolveReport {
  deal: string;
  /** With --after: the moves file and how many of its moves were played before the solve; else null. */
  after: { file: string; moves: number } | null;
  rules: string;
  size: string;
  /** The request solved (its threads are `threads`, beside it). */
  options: SolveRequest;
  verdict: SolveOutcome['verdict'];
  /** 'nodes' | 'time' | 'memory' | 'interrupted' for unknown, else null. */
  limit: SolveOutcome['limit'];
  /** For unsolvable: 'search' (a complete search was exhausted) or 'locks' (proved before any search); else null. */
  proof: 'search' | 'locks' | null;
  nodes: number;
  states: number;
  seconds: number;
  nodesPerSecond: number;
  bytesPerState: number;
  bestHome: number;
  cards: number;
  /** The winning moves in notation with their cards (`c3>f 5S`), or null when not won. */
  solution: string[] | null;
  /** What the search cut (`Solver.pruning`; `limited solve` only, null on threads). */
  pruning?: Pruning | null;
}

/** A report's `after`: the --after file as the user named it (`<stdin>` for '-') and the moves played from it; null without --after. */
export function afterOf(file: string | undefined, from: readonly PackedMove[]): SolveReport['after'] {
  return file !== undefined ? { file: file === '-' ? '<stdin>' : file, moves: from.length } : null;
}

export function solveReport(r: ResolvedDeal, request: SolveRequest, res: SolveOutcome, after: SolveReport['after'] = null): SolveReport {
  return {
    deal: r.label,
    after,
    rules: formatRules(r.rules),
    size: formatSize(r.deal.size),
    options: reportedRequest(request),
    verdict: res.verdict,
    limit: res.limit,
    proof: res.proof,
    nodes: res.nodes,
    states: res.states,
    seconds: Math.round(res.seconds * 1e6) / 1e6,
    nodesPerSecond: res.seconds > 0 ? Math.round(res.nodes / res.seconds) : 0,
    // Rounded down, so that states x bytesPerState never shows more than the --max-memory cap.
    bytesPerState: Math.floor(res.bytesPerState * 10) / 10,
    bestHome: res.bestHome,
    cards: deckCount(r.deal.size),
    solution: res.moves ? res.moves.map(formatMove) : null,
  };
}

/** Below this many seconds a search is too short for its nodes per second to mean a speed. */
const MEASURE_SECONDS = 0.1;
/** Below this many seconds (and from MEASURE_SECONDS) `formatReport` says that a new process starts slow. */
const COLD_SECONDS = 2;
const COLD_NOTE = "note:               a process's first half second runs slow while V8 compiles (README, 'Solving a deal')";

function formatReport(rep: SolveReport, request: SolveRequest): string {
  const threads = request.threads ?? 1;
  const verdict =
    rep.verdict === 'won'
      ? 'won'
      : rep.verdict === 'unsolvable'
        ? rep.proof === 'locks'
          ? 'unsolvable (proved before any search: cards that block one another keep it from being won; LockBound in docs/SOLVER.md)'
          : 'unsolvable (the search was exhausted: no sequence of moves wins)'
        : `unknown (${limitText(rep.limit, request)})`;
  const lines = [
    `${rep.deal[0]!.toUpperCase()}${rep.deal.slice(1)} · rules ${rep.rules} · size ${rep.size}`,
    ...(rep.after ? [`position:           after ${plural(rep.after.moves, 'move')} of ${rep.after.file} (the solution goes on from there)`] : []),
    `solver:             ${describeRequest(request)}${threads > 1 ? `, ${threadsText(threads)}` : ''}`,
    `verdict:            ${verdict}`,
    `nodes expanded:     ${rep.nodes}`,
    `states stored:      ${rep.states}`,
    `seconds:            ${rep.seconds.toFixed(3)}`,
    // Compared as printed, so that the line agrees with the seconds above it.
    ...(Number(rep.seconds.toFixed(3)) < MEASURE_SECONDS || rep.nodes === 0
      ? [`nodes per second:   not measured (a search under ${MEASURE_SECONDS} s)`]
      : [
          `nodes per second:   ${rep.nodesPerSecond}`,
          // A short solve is mostly the process's first half second, before V8 has compiled
          // the solver's hot code: its nodes per second understate the solver's (README).
          ...(rep.seconds < COLD_SECONDS ? [COLD_NOTE] : []),
        ]),
    `bytes per state:    ${rep.bytesPerState.toFixed(1)}`,
    `cards home at best: ${rep.bestHome} of ${rep.cards}`,
  ];
  const p = rep.pruning;
  if (p && p.lockBound + p.dominance + p.nogoodLookups > 0) {
    const rate = p.nogoodLookups > 0 ? ` (${p.nogoodsRecorded} recorded, ${((100 * p.nogoodCuts) / p.nogoodLookups).toFixed(1)} % of ${p.nogoodLookups} lookups)` : '';
    lines.push(`positions cut:      ${p.lockBound} by LockBound, ${p.dominance} by waste dominance, ${p.nogoodCuts} by pile nogoods${rate}`);
  }
  if (rep.solution) {
    lines.push(`solution:           ${rep.solution.length} moves`);
    const w = String(rep.solution.length).length;
    rep.solution.forEach((m, i) => lines.push(`  ${String(i + 1).padStart(w)}. ${m}`));
  }
  return lines.join('\n') + '\n';
}

/** The `#` header of a written solution file: the deal, rules and size, and how to check it. */
function solutionHeader(r: ResolvedDeal, deal: Deal, res: SolveOutcome, verify: string, after: SolveReport['after']): string {
  const found = `${res.moves!.length} moves, ${res.nodes} nodes`;
  return [
    after
      ? `the ${plural(after.moves, 'move')} of ${after.file}, then a solution found by limited solve --after (${found})`
      : `solution found by limited solve (${found})`,
    `deal: ${deal.source !== undefined ? deal.source : r.label}`,
    `rules: ${formatRules(r.rules)}`,
    `size: ${formatSize(deal.size)}`,
    `check: ${verify}`,
  ].join('\n');
}

export function registerSolve(program: Command): void {
  const cmd = program
    .command('solve')
    .description('solve a deal with perfect information: won (with a verified solution), unsolvable, or unknown (a limit ran out)');
  addSolverOptions(addDealOptions(cmd)).option('--after <solution>', "solve the position after the moves of a solution file (RULES.md notation; '-' reads stdin)");
  addTacticsOptions(cmd, 'solver')
    .option('--json', 'print one JSON object instead of the text report')
    .option('--solution-out <file>', "write a won deal's solution to FILE (one move a line, '#' header), for 'limited verify --solution FILE'")
    .option('--threads <t>', THREADS_HELP)
    .addHelpText(
      'after',
      examples(
        'limited solve 4 --size 1x5,4x3                  # a small deal (one pack of A-5, 4 columns of 3): won',
        'limited solve 1 --size 1x5,4x3                  # another: unsolvable',
        'limited solve 1 --max-seconds 10                # deal 1 of the full game, book rules, 10 s at most',
        'limited solve --pysol 123456                    # the deal of PySolFC game 123456 (pysol rules)',
        'limited solve 7 --search best --heuristic buried --max-nodes 2000000',
        'limited solve 4 --size 1x5,4x3 --pairing never  # can it be won without ever pairing?',
        'limited deal 4 --size 1x5,4x3 > game.txt && limited solve --deal game.txt --json   # one JSON object',
        'limited solve 4 --size 1x5,4x3 --solution-out win.txt && limited verify 4 --size 1x5,4x3 --solution win.txt',
        'limited solve 4 --size 1x5,4x3 --solution-out win.txt && head -8 win.txt > part.txt && limited solve 4 --size 1x5,4x3 --after part.txt   # from a position',
        'limited solve 3734 --threads 2                  # the prover on two cores, one shared table',
      ) +
        '\nPrints the verdict and the search statistics: nodes expanded, states stored, seconds,\n' +
        'nodes per second, bytes per stored state and the most cards home in any position\n' +
        "searched. 'won' comes with its solution, one move a line with its card, replayed by the\n" +
        "verifier before it is printed; 'unsolvable' means the whole search space was exhausted\n" +
        "(sound pruning only), or that the deal was proved lost before any search by which cards\n" +
        "block which (LockBound; 0 nodes); 'unknown' names the limit that ran out (nodes, time or\n" +
        'memory).\n' +
        'With --pairing or --spaces the solver plays a smaller game, keeping to the tactic: won\n' +
        "then means a player keeping to it can win, unsolvable that no such player can.\n" +
        'With --after FILE the solver starts from the position after the moves of FILE (replayed as\n' +
        "verify does: a move that cannot be read or is illegal prints verify's 'invalid: ...' line\n" +
        'and exits 1); the solution printed goes on from there, and --solution-out writes the\n' +
        "file's moves and the solution's, so that verify checks the whole game.\n" +
        "--json fields: deal, after ({file, moves} with --after, else null), rules, size, options,\n" +
        "verdict, limit ('nodes', 'time', 'memory' or 'interrupted' for unknown, else null), proof\n" +
        "('search' or 'locks' for unsolvable, else null), nodes, states, seconds, nodesPerSecond,\n" +
        'bytesPerState, bestHome, cards, solution (array of moves from the position, or null),\n' +
        'pruning (positions cut by LockBound, waste dominance and pile nogoods: lockBound,\n' +
        'dominance, nogoodCuts, nogoodsRecorded, nogoodLookups; null with --threads), and threads\n' +
        'when --threads is given.\n' +
        THREADS_EPILOGUE +
        'On a terminal, a progress line on stderr (time, nodes, nodes a second, states, cards home\n' +
        'at best), wiped when the search ends.\n' +
        "Ctrl-C (SIGINT) or SIGTERM stops the search within a moment and prints the report so far:\n" +
        "verdict unknown, limit interrupted (a second Ctrl-C stops at once, with no report).\n" +
        'Exit status: 0 for any verdict (won, unsolvable, unknown), 2 bad input, 3 if a solution\n' +
        'fails to verify (a solver bug: one line "limited: internal error: ..."), 130 or 143 when\n' +
        'stopped by SIGINT or SIGTERM (after the report).\n' +
        `\nPresets (--preset):\n${presetList()}\n`,
    )
    .action(
      run(async (n: string | undefined, o: SolveCliOptions) => {
        stdinOnce({ '--deal': o.deal, '--after': o.after });
        const r = resolveDeal(n, o);
        // On several threads the request names the prove preset: the search each thread runs.
        const request = requestFromFlags(o);
        if (o.solutionOut !== undefined) checkSolutionOut(o.solutionOut);
        const at = gameAfter(r, o.after);
        if (!at) return;
        const from = at.game.history();
        const after = afterOf(o.after, from);
        const solved = await runSolve(r, request, from);
        if (!solved) return;
        const { res, signal, pruning } = solved;
        const rep = { ...solveReport(r, request, res, after), pruning, ...(o.threads !== undefined ? { threads: request.threads ?? 1 } : {}) };
        out(o.json ? JSON.stringify(rep) : formatReport(rep, request));
        if (signal) process.exitCode = signal === 'SIGTERM' ? 143 : 130;
        if (o.solutionOut !== undefined) {
          if (res.verdict === 'won' && res.moves) {
            const verify = verifyCommand(n, o, r, o.solutionOut);
            writeAtomic(o.solutionOut, formatSolution([...from, ...res.moves], solutionHeader(r, r.deal, res, verify, after)), 'solution file');
            if (!o.json) out(`solution written to ${o.solutionOut}; check it with: ${verify}`);
          } else {
            process.stderr.write(`limited: no solution written to ${o.solutionOut}: the verdict is ${res.verdict}\n`);
          }
        }
      }),
    );
}

/**
 * Solves a checked request from the deal or the position after `from`, as `limited solve` does:
 * the search runs in steps with the progress line on a terminal, and a signal stops it with the
 * figures so far; a request on several threads runs on them (cli/threads.ts). Returns null
 * after reporting a solution that fails to verify (exit 3).
 */
export async function runSolve(
  r: ResolvedDeal, request: SolveRequest, from: readonly PackedMove[],
): Promise<{ res: SolveOutcome; signal: NodeJS.Signals | null; pruning: Pruning | null } | null> {
  try {
    const line = progressLine(r.deal);
    try {
      if (request.threads !== undefined) {
        const { res, signal } = await solveOnThreads(r.deal, r.rules, request, line?.show ?? null, from);
        return { res: solveOutcome(res), signal, pruning: null };
      }
      const solver = new Solver();
      const { res, signal } = await solveInSteps(startSolve(solver, r.deal, r.rules, request, from), line);
      return { res: solveOutcome(res), signal, pruning: solver.pruning };
    } finally {
      line?.end();
    }
  } catch (e) {
    if (reportSolutionBug(e)) return null;
    throw e;
  }
}
