import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Command } from 'commander';
import { removeResults } from '../../batch/csv.js';
import { reportSolutionBug, run } from '../exit.js';
import { examples } from '../options.js';
import { notesAfterWorkers, out } from '../output.js';
import { workersOption } from '../numbers.js';
import { WINRATE_DEFAULTS, type WinrateCliOptions, runWinrate, winratePlan } from './winrate.js';

/**
 * The default experiment (what `npm start` runs): a small win-rate estimate of book Limited with
 * perfect information, a few minutes on two cores, whose first line is an answer about the game
 * (an interval that holds every deal the budgets leave undecided), not about a budget.
 */
export const START_DIR = 'results/start';
const START: WinrateCliOptions = { ...WINRATE_DEFAULTS, count: '300', sample: '10', longNodes: '10000000', outDir: START_DIR };
/** The same as a command line: `experiment winrate --count 300 ...`. */
export const START_ARGS = ['experiment', 'winrate', '--count', START.count, '--sample', START.sample, '--long-nodes', START.longNodes!, '--out-dir', START_DIR];

export function registerStart(program: Command): void {
  program
    .command('start')
    .description('the default experiment (what npm start runs): how often book Limited is won with perfect information, estimated on 300 deals in a few minutes; resumes')
    .option('--fresh', `start over: remove the files of ${START_DIR} first (otherwise a second run resumes, or just prints the answer)`)
    .option('--workers <n>', 'worker threads (default: the number of cores)')
    .option('--no-progress', 'no progress on stderr')
    .addHelpText(
      'after',
      examples('limited start', 'limited start --fresh', 'npm start                           # builds when a source changed, then runs this') +
        `\nThe same as: limited ${START_ARGS.join(' ')}\n` +
        'Book deals 1-300 at full size, each solved by the portfolio preset with at most 3,000,000\n' +
        'nodes (phase 1); then 10 of the deals it left undecided, drawn at random, at 10,000,000\n' +
        "nodes (phase 2), in strata by the cards phase 1 got home. The first line printed is the\n" +
        'answer: the share of deals won with perfect information, as a 95 % interval that counts\n' +
        'the sampling error and every deal still undecided both ways. results/README.md has the\n' +
        "answer on 10,000 deals; 'limited experiment winrate --help' the options for a larger run.\n",
    )
    .action(
      run(async (o: { fresh?: boolean; workers?: string; progress?: boolean }) => {
        const workers = workersOption(o.workers);
        const args = [...START_ARGS, ...(o.workers !== undefined ? ['--workers', o.workers] : [])];
        const plan = winratePlan(START, args);
        if (o.fresh) {
          for (const phase of ['phase1.csv', 'phase2.csv']) removeResults(join(START_DIR, phase));
          for (const f of ['winrate.md', 'winrate.json']) if (existsSync(join(START_DIR, f))) rmSync(join(START_DIR, f));
        }
        process.stderr.write(`limited start: the default experiment, the same as: limited ${args.join(' ')}\n`);
        let res;
        try {
          res = await runWinrate(plan, workers, o.progress !== false, notesAfterWorkers(workers));
        } catch (e) {
          if (reportSolutionBug(e)) return;
          throw e;
        }
        if (res) out(`${res.text}\nfiles: ${res.files.join(', ')}`);
      }),
    );
}
