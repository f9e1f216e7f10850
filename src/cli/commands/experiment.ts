/**
 * `limited experiment tactics`: the matrix of blind players, solver restrictions and rule
 * variants over the same deals (src/experiment/), resumable, with tactics.csv/md/svg.
 */
import { availableParallelism } from 'node:os';
import { type Command } from 'commander';
import { BOOK, FULL_SIZE, MAX_DEAL_NUMBER, UserError, parseDealNumber, parseSize } from '../../game/index.js';
import { playerName } from '../../batch/job.js';
import { createPlayer } from '../../play/index.js';
import { runTactics } from '../../experiment/tactics.js';
import { tacticsRecords, tacticsText } from '../../experiment/tactics-report.js';
import { oneLine, reportSolutionBug, run } from '../exit.js';
import { addJsonOption, examples, prefixed, retireOptions } from '../options.js';
import { notesAfterWorkers, out, outJson } from '../output.js';
import { positiveInteger, workersOption } from '../numbers.js';
import { commandLine } from './batch.js';
import { type PhaseCliOptions, WINRATE_DEFAULTS, addPhase2Options, clusterOptions, longBudgets, registerWinrate, sampleGrowth } from './winrate.js';
import { clusterJob } from '../../experiment/cluster-job.js';
import { SOLVER_PRESET } from '../../experiment/matrix.js';
import { solveSpec } from '../../batch/job.js';

export interface TacticsCliOptions extends PhaseCliOptions {
  from: string;
  count: string;
  solverCount: string;
  freeCount?: string;
  samplingCount: string;
  samplingPlayer: string;
  workers?: string;
  outDir: string;
  size?: string;
  only?: string;
  force?: boolean;
  task?: string;
  tasks?: string;
  printJob?: string;
  json?: boolean;
  progress?: boolean;
  certificates?: boolean;
}

export const TACTICS_DEFAULTS = {
  from: '1',
  count: '10000',
  solverCount: '200',
  samplingCount: '100',
  maxNodes: '100000',
  samplingPlayer: 'sampling',
  // Not results/tactics, which holds the real run's sidecars and summary (kept in git): a run
  // with other options there is refused, as it would mix two experiments.
  outDir: 'results/tactics-quick',
  sample: '0',
  longMemory: WINRATE_DEFAULTS.longMemory,
  seed: WINRATE_DEFAULTS.seed,
  strata: WINRATE_DEFAULTS.strata,
} as const;

/**
 * The subcommands of `limited experiment`, each registered on the parent by its own function
 * (a new experiment: one more entry here, in a file of its own if it is large).
 */
const EXPERIMENTS: readonly ((experiment: Command) => void)[] = [registerWinrate, registerTactics];

export function registerExperiment(program: Command): void {
  const experiment = program
    .command('experiment')
    .description('run a research experiment: winrate (how often a game is won with perfect information, to within an interval), tactics (the book\'s pairing and spaces advice, and what each rule is worth)');
  for (const register of EXPERIMENTS) register(experiment);
  // A usage error names the subcommand's help (cli.ts does this for the top-level commands only).
  for (const cmd of experiment.commands)
    cmd.configureOutput({
      outputError: (str, write) => write(`limited: ${oneLine(str.replace(/^error: /, ''))} (see 'limited experiment ${cmd.name()} --help')\n`),
    });
}

function registerTactics(experiment: Command): void {
  const cmd = addPhase2Options(
    experiment
      .command('tactics')
      .description('players, solver restrictions and rule variants on the same deals: tactics.csv, tactics.md, tactics.svg')
      .option('--from <a>', 'first deal number of every group', TACTICS_DEFAULTS.from)
      .option('--count <n>', `deals for each greedy-player row: deals A to A+N-1 (the real run: 1000000)`, TACTICS_DEFAULTS.count)
      .option('--solver-count <m>', 'deals for each solver row (free game, restrictions, rule variants)', TACTICS_DEFAULTS.solverCount)
      .option('--free-count <m>', 'deals of the free game\'s row solver-free (at least --solver-count; default the same)')
      .option('--max-nodes <k>', 'node budget per deal of the solver (preset portfolio): phase 1 of the solver rows', TACTICS_DEFAULTS.maxNodes)
      .option('--sample <n>', 'phase 2 of the solver rows: deals each estimate samples from those phase 1 left undecided, solved again at the long budget (0: none)', TACTICS_DEFAULTS.sample),
  )
    .option('--sampling-count <s>', 'deals for each sampling-player row (about a second a game on one core)', TACTICS_DEFAULTS.samplingCount)
    .option('--sampling-player <spec>', 'the sampling player, as --player takes it (e.g. sampling:samples=16,nodes=500)', TACTICS_DEFAULTS.samplingPlayer)
    .option('--only <rows>', 'run only these rows: groups greedy, solver (with rules), rules, sampling, players, or row names, comma-separated')
    .option('--workers <n>', `worker threads (default: the number of cores, ${availableParallelism()} here)`)
    .option('--out-dir <dir>', 'the directory for ROW.csv per row and the summary files', TACTICS_DEFAULTS.outDir)
    .option('--force', 'run again from the start the rows whose files in --out-dir were made with other options (otherwise refused)')
    .option('--size <size>', "deck and layout DxR,CxW (default 2x13,12x3; small sizes for quick trials)")
    .option('--task <i/n>', 'be task I of N of a cluster job: the N tasks share the rows (in shards) and phase 2 (a deal at a time) through --out-dir, task 1 writes the summary (also from SLURM_ARRAY_TASK_ID)')
    .option('--tasks <n>', 'N tasks: this one from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job); with --print-job, the job\'s tasks (default 10)')
    .option('--print-job <engine>', 'print the cluster job that runs this command instead, for slurm (a job array\'s sbatch script) or k8s (an Indexed Job), with --tasks N of --workers W (default 4) each')
    .option('--certificates', "keep what proves each decided deal of the solver rows beside their files (ROW.certs.gz: a won deal's moves, how a lost one was proved), for 'limited verify-results DIR'")
    .option('--no-progress', 'no progress on stderr');
  addJsonOption(cmd, 'the summary table');
  retireOptions(cmd, [
    ['--deals', '--count N (deals for each greedy row)'],
    ['--solver-deals', '--solver-count N'],
    ['--free-deals', '--free-count N'],
    ['--sampling-deals', '--sampling-count N'],
    ['--solver-nodes', '--max-nodes N'],
    ['--out', '--out-dir DIR'],
  ]);
  cmd
    .addHelpText(
      'after',
      examples(
        'limited experiment tactics                                   # the defaults: a quick look (about 10 min on 2 cores), in results/tactics-quick',
        'limited experiment tactics --count 1000000 --solver-count 2000 --sampling-count 500 --workers 2 --out-dir results/tactics   # the real run',
        'limited experiment tactics --only greedy --count 1000000 --out-dir results/tactics-greedy   # the greedy rows alone',
        'limited experiment tactics --only solver-free,rules-privileged-2 --solver-count 500 --out-dir results/tactics-p2',
      ) +
        `
Rows (each one batch run, ROW.csv in --out-dir; the same deal numbers within a group, so each
row's difference from its group's baseline is paired deal by deal):
  greedy    greedy-PAIRING-SPACES: the greedy player, pairing always|cautious|never x spaces
            eager|hold|never, on --count deals (default ${TACTICS_DEFAULTS.count}); baseline greedy-always-eager
  solver    solver-free (baseline) and solver-pairing-never, -pairing-cautious, -spaces-hold,
            -spaces-never: the solver (perfect information, preset portfolio, --max-nodes a
            deal) keeping to a tactic, on --solver-count deals (default ${TACTICS_DEFAULTS.solverCount})
  rules     rules-building-none, -building-suit, -second-deal-none, -privileged-1,2,3,5,6,8:
            the free game under another rule (4 privileged cards is the book's); baseline solver-free
  sampling  sampling-always-eager (baseline), -always-hold, -cautious-eager, -cautious-hold:
            the sampling player on --sampling-count deals (default ${TACTICS_DEFAULTS.samplingCount})
Resume: run the same command again: finished rows are skipped, a half-done one is resumed.
A row whose file was made with other options is refused before any work, unless --force
(then it is run again from the start).
The summary covers every finished row in --out-dir made with these options (--only runs a subset).
A file in --out-dir that is not the experiment's is refused before any work, even with
--force: a ROW.csv without its ROW.meta.json, or tactics.csv/md/svg where no row has a sidecar.
Files: tactics.csv (a line a row: counts, win rate, 95 % interval, difference from the
baseline with its 95 % paired interval), tactics.md (the same as one table, with the
command, machine, date, commit and wall time per row), tactics.svg (a bar chart).
--json prints {rows, missing, files}: rows as tactics.csv has them (docs/cli.md).
Exit status: 0 done, 2 bad input, 3 a solver solution that fails to verify, 130/143 interrupted.
`,
    )
    .action(
      run(async (o: TacticsCliOptions) => {
        const from = prefixed('--from', () => parseDealNumber(o.from));
        const deals = positiveInteger('--count', o.count);
        const solverDeals = positiveInteger('--solver-count', o.solverCount);
        const solverNodes = positiveInteger('--max-nodes', o.maxNodes);
        const samplingDeals = positiveInteger('--sampling-count', o.samplingCount);
        const freeDeals = o.freeCount !== undefined ? positiveInteger('--free-count', o.freeCount) : solverDeals;
        if (freeDeals < solverDeals) throw new UserError(`--free-count ${freeDeals} is fewer than --solver-count ${solverDeals}: the free game is every other solver row's baseline, on the same deals`);
        const sample = o.sample.trim() === '0' ? 0 : positiveInteger('--sample', o.sample);
        const long = longBudgets(o);
        if (o.seed === '') throw new UserError('--seed needs a word (any text)');
        const growth = sampleGrowth(o);
        const phase2 = {
          sample, longNodes: long.nodes ?? 1e15, ...(long.seconds !== undefined ? { longSeconds: long.seconds } : {}), longMemoryMB: long.memory,
          ...(long.prove !== undefined ? { proveNodes: long.prove } : {}), seed: o.seed, ...growth,
        };
        const most = Math.max(deals, freeDeals, samplingDeals);
        // Not from + most - 1: past 2^53 doubles round, and the last deal would pass the check.
        if (most - 1 > MAX_DEAL_NUMBER - from) throw new UserError(`--from ${from} with ${most} deals goes past the last deal number ${MAX_DEAL_NUMBER}`);
        if (most > 2 ** 32) throw new UserError(`${most} deals in one row is too many (at most 2^32)`);
        if (playerName(o.samplingPlayer) !== 'sampling')
          throw new UserError(`--sampling-player must be a sampling player, sampling[:key=value,...], not '${o.samplingPlayer}'`);
        prefixed('--sampling-player', () => createPlayer(o.samplingPlayer));
        const size = o.size !== undefined ? prefixed('--size', () => parseSize(o.size!, ',')) : FULL_SIZE;
        if (o.outDir === '' || o.outDir === '-') throw new UserError('--out-dir needs a directory name');
        const cluster = clusterOptions(o);
        if (cluster.printJob) {
          const memoryMB = Math.max(solveSpec('v1', BOOK, size, { preset: SOLVER_PRESET, maxNodes: solverNodes }).budgets.maxMemoryMB, long.memory);
          out(clusterJob({ ...cluster.printJob, experiment: 'tactics', args: process.argv.slice(4), memoryMB, outDir: o.outDir }).trimEnd());
          return;
        }
        const workers = workersOption(o.workers);
        const note = notesAfterWorkers(workers);
        let res;
        try {
          res = await runTactics({
            note,
            from, deals, solverDeals, freeDeals, solverNodes, samplingDeals, samplingPlayer: o.samplingPlayer, size, phase2,
            dir: o.outDir, workers, force: o.force === true, ...(o.only !== undefined ? { only: o.only } : {}), progress: o.progress !== false,
            command: commandLine(process.argv.slice(2)), ...(cluster.task ? { cluster: cluster.task } : {}),
            ...(o.certificates === true ? { certificates: true } : {}),
          });
        } catch (e) {
          if (reportSolutionBug(e)) return;
          throw e;
        }
        if (res.status === 'interrupted') {
          process.stderr.write(`limited: interrupted (${res.signal}): run the same command again to resume\n`);
          process.exitCode = res.signal === 'SIGTERM' ? 143 : 130;
          return;
        }
        if (cluster.task && cluster.task.index !== 1) return out(`task ${cluster.task.index}/${cluster.task.count}: done; task 1 writes the summary in ${o.outDir}`);
        if (o.json) return outJson({ rows: tacticsRecords(res.lines), missing: res.missing, files: res.files });
        out(tacticsText(res.lines) + (res.missing.length > 0 ? `not in the summary: ${res.missing.map((m) => `${m.name} (${m.why})`).join('; ')}\n` : '') + `files: ${res.files.join(', ')}`);
      }),
    );
}
