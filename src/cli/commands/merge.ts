import { type Command } from 'commander';
import { UserError, plural } from '../../game/index.js';
import { checkWritable, prepareOut } from '../../util/fileio.js';
import { mergeParts, writeMerged } from '../../batch/merge.js';
import { formatSummary } from '../../batch/report.js';
import { run } from '../exit.js';
import { examples } from '../options.js';
import { out, outJson } from '../output.js';
import { unhashedNote } from '../../batch/rowhash.js';
import { commandLine } from './batch.js';

export function registerMerge(program: Command): void {
  program
    .command('merge')
    .description('check that batch results files fit together (same options, no gap, no overlap, all shards) and summarize them as one')
    .argument('<files...>', 'results CSVs of limited batch (each with its FILE.meta.json)')
    .option('--out <file>', 'write the combined CSV (rows sorted by deal) with its .meta.json and .summary.json (its directories are made)')
    .option('--force', 'replace --out (the CSV and its sidecars) when it exists (otherwise refused)')
    .option('--json', 'print the combined summary as one JSON object (the fields of FILE.summary.json) instead of the text')
    .addHelpText(
      'after',
      examples(
        'for i in 1 2; do limited batch --from 1 --count 100 --size 1x5,4x3 --shard $i/2 --out m.csv; done && limited merge m.shard-*.csv   # check, print the combined summary',
        'for i in 1 2; do limited batch --from 1 --count 100 --size 1x5,4x3 --shard $i/2 --out m.csv; done && limited merge m.shard-*.csv --out m.csv',
        'limited batch --from 1 --count 50 --size 1x5,4x3 --out a.csv && limited batch --from 51 --count 50 --size 1x5,4x3 --out b.csv && limited merge a.csv b.csv --json',
      ) +
        '\nThe files must come from runs with the same rules, size and solver options, each\n' +
        'complete; together they must cover one range of deals without a gap or an overlap (the\n' +
        'shards of a --shard I/N split, runs of adjacent ranges, or a mix of the two). Anything\n' +
        "else is refused with one line naming the file and what is wrong (exit 2). An --out that\n" +
        'exists (the CSV or a sidecar) is refused unless --force. The summary is\n' +
        "batch's: verdict counts, the win rate and its 95 % Wilson interval (unknown counted as\n" +
        'lost for the low end, won for the high end), the rate among the decided deals, nodes and\n' +
        'milliseconds per deal.\n',
    )
    .action(
      run((files: string[], o: { out?: string; force?: boolean; json?: boolean }) => {
        if (o.out !== undefined) {
          if (o.out === '' || o.out === '-') throw new UserError(`--out needs a file name ('-' is not accepted: the summary goes to stdout)`);
          prepareOut(o.out, 'merged file');
          checkWritable(o.out, 'merged file');
        }
        const target = o.out ?? '(not written: no --out)';
        const m = mergeParts(files, o.out ?? '', commandLine(process.argv.slice(2)), o.force === true);
        for (const f of m.unhashed) process.stderr.write(unhashedNote(f) + '\n');
        if (o.out !== undefined) writeMerged(o.out, m);
        if (o.json) return outJson({ ...m.summary, file: o.out ?? null });
        const summary = { ...m.summary, file: target };
        let text = formatSummary(summary, `limited merge (${plural(files.length, 'file')})`);
        if (o.out === undefined) text = text.replace(/^files .*\n/m, 'files        not written (give --out FILE.csv to write the combined CSV and its sidecars)\n');
        out(text);
      }),
    );
}
