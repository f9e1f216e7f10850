import { type Command } from 'commander';
import { examples, run } from '../common.js';
import { type BatchCliOptions, batchConfig, runBatchCommand } from './batch.js';

/**
 * The default experiment (what `npm start` runs): book deals 1-2000 at full size, solved with
 * the `portfolio` preset (a rollout, a best-first search and a depth-first search side by side) at a modest node budget, so that it takes a
 * few minutes on two cores. Deals the budget does not decide are reported as unknown.
 */
export const START_OUT = 'results/default.csv';
const START: BatchCliOptions = { from: '1', count: '2000', rules: 'book', preset: 'portfolio', maxNodes: '100000', out: START_OUT };
/** The same as a command line: `batch --from 1 --count 2000 ...`. */
export const START_ARGS = ['batch', ...Object.entries(START).flatMap(([k, v]) => [`--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, String(v)])];

export function registerStart(program: Command): void {
  program
    .command('start')
    .description('the default experiment (what npm start runs): book deals 1-2000 on every core, a win rate with its 95 % interval; resumes')
    .option('--fresh', `start over: remove ${START_OUT} and its sidecars first (otherwise a second run resumes, or just prints the summary)`)
    .option('--workers <n>', 'worker threads (default: the number of cores)')
    .option('--no-progress', 'no progress on stderr')
    .addHelpText(
      'after',
      examples('limited start', 'limited start --fresh', 'npm start                           # builds, then runs this') +
        `\nThe same as: limited ${START_ARGS.join(' ')}\n` +
        'Book deals 1-2000 at full size, each solved by the portfolio preset (a rollout, a\n' +
        'best-first search and a depth-first search side by side) with at most 100000 nodes: deals\n' +
        "it does not decide within the budget are counted as 'unknown', and the 95 %\n" +
        'interval counts them as lost for its low end and as won for its high end.\n' +
        "'limited batch --help' has the options for other experiments.\n",
    )
    .action(
      run(async (o: { fresh?: boolean; workers?: string; progress?: boolean }) => {
        const opts: BatchCliOptions = { ...START, progress: o.progress !== false, ...(o.workers !== undefined ? { workers: o.workers } : {}) };
        const args = [...START_ARGS, ...(o.workers !== undefined ? ['--workers', o.workers] : [])];
        const cfg = { ...batchConfig(opts, args), fresh: o.fresh === true };
        process.stderr.write(`limited start: the default experiment, the same as: limited ${args.join(' ')}\n`);
        await runBatchCommand(cfg, 'limited start');
      }),
    );
}
