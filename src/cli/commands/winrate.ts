/**
 * `limited experiment winrate`: how often a game can be won with perfect information, with a
 * 95 % interval that holds whatever the deals no budget decided are (src/experiment/winrate.ts).
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { type Command } from 'commander';
import {
  type Rules, type Size, type Tactics, FULL_SIZE, MAX_DEAL_NUMBER, NO_RESTRICTION, UserError, formatRules, formatSize, parseDealNumber, parseRules, parseSize, sizeEqual,
} from '../../game/index.js';
import { type SolveRequest } from '../../solver/index.js';
import { solveSpec } from '../../batch/job.js';
import { checkWritable, makeDir, writeAtomic } from '../../util/fileio.js';
import { type EstimatorRow, type StrataKind, STRATA_KINDS, gameWords, provePass, runEstimator } from '../../experiment/winrate.js';
import { type ReportHeader, rowFiles, winrateJson, winrateMarkdown, winrateText } from '../../experiment/winrate-report.js';
import { type ClusterTask, chooseTask } from '../../experiment/cluster.js';
import { type Engine, ENGINES, clusterJob } from '../../experiment/cluster-job.js';
import { reportSolutionBug, run } from '../exit.js';
import { examples, prefixed } from '../options.js';
import { notesAfterWorkers, out } from '../output.js';
import { positiveInteger, positiveNumber, workersOption } from '../numbers.js';
import { commandLine } from './batch.js';
import { tacticsFromFlags } from '../solver-flags.js';
import { usefulMemoryMB } from '../../solver/memory-floor.js';

/** The options of phase 1's budget and phase 2 (addPhase2Options), as commander gives them. */
export interface PhaseCliOptions {
  maxNodes: string;
  sample: string;
  longNodes?: string;
  longSeconds?: string;
  longMemory: string;
  proveNodes?: string;
  seed: string;
  strata: string;
  targetWidth?: string;
  maxSample?: string;
  maxHours?: string;
}

export interface WinrateCliOptions extends PhaseCliOptions {
  rules: string;
  size?: string;
  from: string;
  count: string;
  pairing?: string;
  spaces?: string;
  workers?: string;
  outDir?: string;
  certificates?: boolean;
  task?: string;
  tasks?: string;
  printJob?: string;
  json?: boolean;
  progress?: boolean;
}

export const WINRATE_DEFAULTS = {
  rules: 'book',
  from: '1',
  count: '2000',
  maxNodes: '3000000',
  sample: '50',
  longNodes: '100000000',
  longMemory: '4096',
  seed: 'winrate',
  strata: 'home',
} as const;

/** How phase 2 draws and grows its sample: its strata, and with a target width the budgets that stop it. */
export interface SampleGrowth {
  readonly strata: StrataKind;
  readonly targetWidth?: number;
  readonly maxSample?: number;
  readonly maxSeconds?: number;
}

/** --strata, --target-width, --max-sample and --max-hours, checked (a UserError names the option). */
export function sampleGrowth(o: { strata: string; targetWidth?: string; maxSample?: string; maxHours?: string; sample: string }): SampleGrowth {
  if (!(STRATA_KINDS as readonly string[]).includes(o.strata)) throw new UserError(`--strata must be ${STRATA_KINDS.join(' or ')}, not '${o.strata}'`);
  const targetWidth = o.targetWidth !== undefined ? positiveNumber('--target-width', o.targetWidth) : undefined;
  const maxSample = o.maxSample !== undefined ? positiveInteger('--max-sample', o.maxSample) : undefined;
  const maxHours = o.maxHours !== undefined ? positiveNumber('--max-hours', o.maxHours) : undefined;
  if (targetWidth === undefined && (maxSample !== undefined || maxHours !== undefined))
    throw new UserError(`${maxSample !== undefined ? '--max-sample' : '--max-hours'} bounds how far --target-width grows the sample: give --target-width too`);
  if (targetWidth !== undefined) {
    if (targetWidth >= 100) throw new UserError(`--target-width ${targetWidth} points is no narrower than [0, 100] %: give fewer points`);
    // Without a budget a target the long budget cannot reach (deals it never decides count both ways) would run for ever.
    if (maxSample === undefined && maxHours === undefined) throw new UserError('--target-width needs a budget that stops the sample growing: --max-sample N deals and/or --max-hours H of phase 2');
    if (o.sample.trim() === '0') throw new UserError('--target-width grows a sample: give --sample N (the first round) above 0');
    if (maxSample !== undefined && maxSample < Number(o.sample)) throw new UserError(`--max-sample ${maxSample} is smaller than the first round's --sample ${o.sample}`);
  }
  return {
    strata: o.strata as StrataKind,
    ...(targetWidth !== undefined ? { targetWidth: targetWidth / 100 } : {}),
    ...(maxSample !== undefined ? { maxSample } : {}),
    ...(maxHours !== undefined ? { maxSeconds: maxHours * 3600 } : {}),
  };
}

/** The words of a sample's growth in a report: `strata by best cards home; grown until ...`. */
export function growthWords(g: SampleGrowth): string {
  const strata = g.strata === 'none' ? 'one stratum (a simple random sample of the undecided deals)' : 'strata by the cards phase 1 got home and the budget that ran out';
  if (g.targetWidth === undefined) return strata;
  const budgets = [g.maxSample !== undefined ? `${g.maxSample} deals an estimate` : '', g.maxSeconds !== undefined ? `${+(g.maxSeconds / 3600).toFixed(4)} core-hours of phase 2` : ''].filter((x) => x).join(' or ');
  return `${strata}; grown in rounds until the interval is at most ${+(100 * g.targetWidth).toFixed(4)} points wide or ${budgets} are spent`;
}

/**
 * Phase 2's budgets: --long-nodes (its default unless --long-seconds comes alone), --long-seconds,
 * --long-memory, and the prover's pass's --prove-nodes (none when not given).
 */
export function longBudgets(o: { longNodes?: string; longSeconds?: string; longMemory: string; proveNodes?: string }): { nodes?: number; seconds?: number; memory: number; prove?: number } {
  const seconds = o.longSeconds !== undefined ? positiveNumber('--long-seconds', o.longSeconds) : undefined;
  const nodes = o.longNodes !== undefined ? positiveInteger('--long-nodes', o.longNodes) : seconds === undefined ? Number(WINRATE_DEFAULTS.longNodes) : undefined;
  const prove = o.proveNodes !== undefined ? positiveInteger('--prove-nodes', o.proveNodes) : undefined;
  return {
    ...(nodes !== undefined ? { nodes } : {}),
    ...(seconds !== undefined ? { seconds } : {}),
    memory: usefulMemoryMB('--long-memory', positiveNumber('--long-memory', o.longMemory)),
    ...(prove !== undefined ? { prove } : {}),
  };
}

/** Phase 2's words in a report: `preset portfolio, 30000000 nodes a deal, 4096 MB; then ...`. */
export function phase2Words(long: string, memory: number, prove: number | undefined): string {
  return `preset portfolio, ${long} a deal, ${memory} MB${prove !== undefined ? `; the deals it leaves unknown then by the prover (preset prove), ${prove} nodes a deal` : ''}`;
}

/** What one estimate runs: its game, its phases' budgets, its files. */
export interface WinratePlan {
  readonly rows: readonly EstimatorRow[];
  readonly header: Omit<ReportHeader, 'written'>;
  readonly game: string;
  readonly dir: string;
  readonly sample: number;
  readonly seed: string;
  readonly growth: SampleGrowth;
  /** Keep every decided deal's certificate beside each phase's file (src/batch/certs.ts). */
  readonly certificates: boolean;
}

/** The plan of the command's options (checked: a UserError names the option). */
export function winratePlan(o: WinrateCliOptions, args: readonly string[]): WinratePlan {
  const rules: Rules = prefixed('--rules', () => parseRules(o.rules));
  const size: Size = o.size !== undefined ? prefixed('--size', () => parseSize(o.size!, ',')) : FULL_SIZE;
  const from = prefixed('--from', () => parseDealNumber(o.from));
  const count = positiveInteger('--count', o.count);
  if (count - 1 > MAX_DEAL_NUMBER - from) throw new UserError(`--from ${from} --count ${count} goes past the last deal number ${MAX_DEAL_NUMBER}`);
  if (count > 2 ** 32) throw new UserError(`--count ${count} is too many deals for one estimate (at most 2^32)`);
  const tactics: Tactics = tacticsFromFlags(o) ?? NO_RESTRICTION;
  const short = positiveInteger('--max-nodes', o.maxNodes);
  const sample = o.sample.trim() === '0' ? 0 : positiveInteger('--sample', o.sample);
  const { seconds: longSeconds, nodes: longNodes, memory: longMemory, prove: proveNodes } = longBudgets(o);
  const seed = o.seed;
  if (seed === '') throw new UserError('--seed needs a word (any text)');
  const growth = sampleGrowth(o);
  const game = gameWords(rules, tactics);
  const slug = game.replace(/[^a-z0-9=]+/gi, '-').replace(/=/g, '-').replace(/^-|-$/g, '');
  const dir = o.outDir ?? join('results', `winrate-${slug}-${from}-${from + count - 1}`);
  if (dir === '' || dir === '-') throw new UserError('--out-dir needs a directory name');
  const restricted = tactics.pairing !== 'always' || tactics.spaces !== 'eager' ? { tactics } : {};
  const phase1: SolveRequest = { preset: 'portfolio', maxNodes: short, ...restricted };
  // A time budget alone keeps a node cap far beyond it (the preset's would cut it short).
  const phase2: SolveRequest = {
    preset: 'portfolio',
    maxNodes: longNodes ?? 1e15,
    ...(longSeconds !== undefined ? { maxSeconds: longSeconds } : {}),
    maxMemoryMB: longMemory,
    ...restricted,
  };
  const range = { from, count };
  const row: EstimatorRow = {
    name: game,
    rules,
    tactics,
    size,
    range,
    phase1: solveSpec('v1', rules, size, phase1),
    phase2: solveSpec('v1', rules, size, phase2),
    file1: join(dir, 'phase1.csv'),
    file2: join(dir, 'phase2.csv'),
    ...(proveNodes !== undefined ? { prove: provePass(rules, size, proveNodes, longMemory, restricted, join(dir, 'phase2-prove.csv')) } : {}),
  };
  const long = [longNodes !== undefined && longNodes < 1e15 ? `${longNodes} nodes` : '', longSeconds !== undefined ? `${longSeconds} s` : ''].filter((x) => x).join(' and ');
  return {
    rows: [row],
    game: `${formatRules(rules)} rules${game === formatRules(rules) ? '' : game.slice(formatRules(rules).length)}${sizeEqual(size, FULL_SIZE) ? '' : `, size ${formatSize(size)}`}`,
    dir,
    sample,
    seed,
    growth,
    certificates: o.certificates === true,
    header: {
      command: commandLine(args),
      title: `How often Limited (${game}${sizeEqual(size, FULL_SIZE) ? '' : `, size ${formatSize(size)}`}) can be won with perfect information`,
      phase1: `preset portfolio, ${short} nodes a deal`,
      phase2: phase2Words(long, longMemory, proveNodes),
      growth: growthWords(growth),
      sample,
      seed,
      rows: [row],
    },
  };
}

/** Runs a plan and writes its report; the text to print, or null when interrupted (the exit status is set). */
export async function runWinrate(plan: WinratePlan, workers: number, progress: boolean, note: (t: string) => void, task: ClusterTask | null = null): Promise<{ text: string; json: string; files: string[] } | null> {
  makeDir(plan.dir, `experiment file '${join(plan.dir, 'winrate.md')}'`);
  const md = join(plan.dir, 'winrate.md');
  const js = join(plan.dir, 'winrate.json');
  for (const f of [md, js]) checkWritable(f, 'experiment file');
  const res = await runEstimator({
    rows: plan.rows, sample: plan.sample, seed: plan.seed, workers, progress, command: plan.header.command, note, label: 'experiment winrate', ...plan.growth,
    ...(plan.certificates ? { certificates: true } : {}),
    ...(task ? { cluster: task } : {}),
  });
  if (res.status === 'interrupted') {
    process.stderr.write(`limited: interrupted (${res.signal}): run the same command again to resume\n`);
    process.exitCode = res.signal === 'SIGTERM' ? 143 : 130;
    return null;
  }
  // Of a cluster's tasks, task 1 alone writes the report (the others have read the same files).
  if (task && task.index !== 1) return { text: '', json: '', files: [] };
  const header: ReportHeader = { ...plan.header, written: new Date().toISOString() };
  const json = winrateJson(res.lines, header, plan.game, res.phase2);
  writeAtomic(md, winrateMarkdown(res.lines, header, plan.game, res.phase2), 'experiment file');
  writeAtomic(js, json, 'experiment file');
  return { text: winrateText(res.lines, plan.game), json, files: [md, js, ...plan.rows.flatMap(rowFiles)] };
}

/** The cluster options as commander gives them. */
export interface ClusterCliOptions {
  task?: string;
  tasks?: string;
  printJob?: string;
  workers?: string;
  outDir?: string;
  force?: boolean;
}

/**
 * --print-job (null: run) with the job's task count and workers, or this process's task of a
 * cluster job (--task, --tasks with JOB_COMPLETION_INDEX, or a Slurm array's); checked.
 */
export function clusterOptions(o: ClusterCliOptions, env: Record<string, string | undefined> = process.env): { printJob: { engine: Engine; tasks: number; workers: number } | null; task: ClusterTask | null } {
  const tasks = o.tasks !== undefined ? positiveInteger('--tasks', o.tasks) : undefined;
  if (o.printJob !== undefined) {
    if (!(ENGINES as readonly string[]).includes(o.printJob)) throw new UserError(`--print-job must be ${ENGINES.join(' or ')}, not '${o.printJob}'`);
    if (o.task !== undefined) throw new UserError('--print-job prints the whole job: give its task count with --tasks N, not --task');
    return { printJob: { engine: o.printJob as Engine, tasks: tasks ?? 10, workers: o.workers !== undefined ? positiveInteger('--workers', o.workers) : 4 }, task: null };
  }
  const task = chooseTask(o.task, tasks, env);
  if (task && o.force) throw new UserError('--force with a cluster task would start over files the other tasks are writing: run it once on one machine instead');
  return { printJob: null, task };
}

/** Phase 2's budget and seed, the same in `experiment winrate` and `experiment tactics`. */
export function addPhase2Options(cmd: Command): Command {
  return cmd
    .option('--long-nodes <n>', `phase 2: node budget a deal (default ${WINRATE_DEFAULTS.longNodes}, or none with --long-seconds alone)`)
    .option('--long-seconds <s>', 'phase 2: time budget a deal, seconds (the verdicts then depend on the machine; the interval stays sound)')
    .option('--long-memory <mb>', 'phase 2: memory cap of a deal\'s tables, megabytes', WINRATE_DEFAULTS.longMemory)
    .option('--prove-nodes <n>', 'phase 2: the sampled deals the long budget leaves unknown are solved again by the prover (preset prove: depth-first search on exact keys, LockBound at every position) at N nodes a deal in --long-memory (default: not)')
    .option('--seed <word>', 'phase 2: the seed of the deals\' random priority that draws the sample', WINRATE_DEFAULTS.seed)
    .option('--strata <kind>', 'phase 2: home (strata by the cards phase 1 got home, the sample shared among them) or none (one simple random sample, as before strata)', WINRATE_DEFAULTS.strata)
    .option('--target-width <points>', 'phase 2: grow the sample in rounds until every 95 % interval is at most this many points wide (needs --max-sample and/or --max-hours)')
    .option('--max-sample <n>', 'with --target-width: the most deals an estimate\'s sample grows to')
    .option('--max-hours <h>', 'with --target-width: the sample stops growing once phase 2\'s deals have taken H core-hours of solver time (their ms column)');
}

export function registerWinrate(experiment: Command): void {
  addPhase2Options(
    experiment
      .command('winrate')
      .description('how often a game is won with perfect information: every deal at a short budget, a random sample of the undecided ones at a long budget, a 95 % interval that counts what stays undecided both ways')
      .option('--rules <rules>', 'a preset (book, pysol) and/or option=value words', WINRATE_DEFAULTS.rules)
      .option('--size <size>', 'deck and layout DxR,CxW (default 2x13,12x3)')
      .option('--from <a>', 'first deal number', WINRATE_DEFAULTS.from)
      .option('--count <n>', 'deals: --from A --count N estimates over deals A to A+N-1', WINRATE_DEFAULTS.count)
      .option('--pairing <p>', 'estimate the game restricted to a pairing tactic: cautious or never (default always: free)')
      .option('--spaces <s>', 'restricted to a spaces tactic: hold or never (default eager: free)')
      .option('--max-nodes <n>', 'phase 1: node budget a deal (preset portfolio)', WINRATE_DEFAULTS.maxNodes)
      .option('--sample <n>', 'phase 2: deals drawn from those phase 1 left undecided (0: no phase 2)', WINRATE_DEFAULTS.sample),
  )
    .option('--workers <n>', `worker threads, one deal each (default: the number of cores, ${availableParallelism()} here)`)
    .option('--out-dir <dir>', 'the directory for phase1.csv, phase2.csv (with their sidecars), winrate.md and winrate.json (default results/winrate-GAME-A-B)')
    .option('--certificates', "keep what proves each decided deal beside each phase's file (PHASE.certs.gz: a won deal's moves, how a lost one was proved), for 'limited verify-results DIR'")
    .option('--task <i/n>', 'be task I of N of a cluster job: the N tasks share the work through --out-dir (a shared file system), task 1 writes the report (also from SLURM_ARRAY_TASK_ID)')
    .option('--tasks <n>', 'N tasks: this one from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job); with --print-job, the job\'s tasks (default 10)')
    .option('--print-job <engine>', 'print the cluster job that runs this command instead, for slurm (a job array\'s sbatch script) or k8s (an Indexed Job), with --tasks N of --workers W (default 4) each')
    .option('--json', 'print winrate.json instead of the text summary')
    .option('--no-progress', 'no progress on stderr')
    .addHelpText(
      'after',
      examples(
        'limited experiment winrate --count 200 --sample 10 --long-nodes 20000000 --out-dir results/winrate-quick   # a few minutes on 2 cores',
        'limited experiment winrate --count 10000 --sample 40 --long-nodes 30000000 --target-width 2 --max-hours 1.8 --certificates --out-dir results/winrate/book   # 3 core-hours',
        'limited experiment winrate --count 10000 --sample 40 --target-width 1 --max-hours 40 --out-dir results/winrate/book --print-job slurm --tasks 10 > job.sh   # a cluster job',
        'limited experiment winrate --rules second-deal=none --count 2000 --out-dir results/winrate/no-second-deal',
        'limited experiment winrate --spaces hold --count 2000 --out-dir results/winrate/spaces-hold',
      ) +
        `
Phase 1 solves every deal with the portfolio preset at --max-nodes (phase1.csv, a batch). Phase 2
splits the deals it left undecided into strata by the cards phase 1 got home (--strata home) and
solves a simple random sample of each (each deal's priority is seedrandom of --seed and its
number; a stratum's sample is its undecided deals of lowest priority) at the long budget
(phase2.csv): --sample deals, shared in proportion to the strata's sizes; with --target-width,
more rounds where the interval narrows most per node, until it is that narrow or --max-sample or
--max-hours is spent. The share won is estimated by stratified two-phase sampling (Cochran,
Sampling Techniques, 12.2), once with every deal still undecided counted as lost and once as
won; the 95 % interval runs from the first's lower end to the second's upper end, so it holds
whatever those deals are. winrate.md writes the method out. Both phases resume: run the same
command again. --task I/N runs it as one of N tasks of a cluster job that share the work;
--print-job prints that job. 'limited experiment tactics' uses the same estimator for its
solver rows.
Exit status: 0 done, 2 bad input, 3 a solver solution that fails to verify, 130/143 interrupted.
`,
    )
    .action(
      run(async (o: WinrateCliOptions) => {
        const plan = winratePlan(o, process.argv.slice(2));
        const cluster = clusterOptions(o);
        if (cluster.printJob) {
          const r = plan.rows[0]!;
          const memoryMB = Math.max(r.phase1.budgets.maxMemoryMB, r.phase2.budgets.maxMemoryMB, r.prove?.spec.budgets.maxMemoryMB ?? 0);
          out(clusterJob({ ...cluster.printJob, experiment: 'winrate', args: process.argv.slice(4), memoryMB, outDir: plan.dir }).trimEnd());
          return;
        }
        const workers = workersOption(o.workers);
        const note = notesAfterWorkers(workers);
        let res;
        try {
          res = await runWinrate(plan, workers, o.progress !== false, note, cluster.task);
        } catch (e) {
          if (reportSolutionBug(e)) return;
          throw e;
        }
        if (!res) return;
        if (cluster.task && cluster.task.index !== 1) return out(`task ${cluster.task.index}/${cluster.task.count}: done; task 1 writes the report in ${plan.dir}`);
        out(o.json ? res.json : `${res.text}\nfiles: ${res.files.join(', ')}`);
      }),
    );
}
