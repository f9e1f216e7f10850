/**
 * `limited verify-results DIR`: every results file under DIR checked as a reader who trusts
 * nothing but the rules would, its solutions replayed (src/batch/verify-results.ts).
 */
import { type Command } from 'commander';
import { UserError, plural } from '../../game/index.js';
import { checkResultsFile, checkText, resultsFiles } from '../../batch/verify-results.js';
import { EXIT_INVALID, run } from '../exit.js';
import { addJsonOption, examples } from '../options.js';
import { out, outJson } from '../output.js';

export function registerVerifyResults(program: Command): void {
  const cmd = program
    .command('verify-results')
    .description("check results files: every row's fields, the sidecars, and every certificate (a won deal's solution replayed); exit 0 all good, 1 not")
    .argument('<paths...>', 'results directories (searched to any depth) or CSV files');
  addJsonOption(cmd, 'the checks')
    .addHelpText(
      'after',
      examples(
        'limited verify-results results/winrate/book',
        'limited batch --from 1 --count 100 --size 1x5,4x3 --certificates --out r/run.csv && limited verify-results r',
      ) +
        `
Checks every results CSV that has a sidecar (FILE.meta.json):
  rows        each row's fields as resume reads them: the job's columns equal to the sidecar's,
              every deal column well formed, a verdict and its limit and length that agree;
              every deal within the file's range (or its sample), none twice; a file whose
              sidecar says complete holds every deal; FILE.summary.json counts what the rows hold
  certificates  (FILE.certs.gz, kept by --certificates): every decided row has one, of its
              verdict; a won deal's moves are replayed from the deal by the verifier and must
              win in the row's solution_length moves; a lost deal's says how it was proved:
              'locks' (LockBound at the root, before any search) or 'search' (an exhausted
              search: 'limited solve DEAL' with the row's method and max_nodes runs it again)
Prints a line a file, 'ok FILE: ...' or 'FAILED FILE: ...' with each problem under it (file,
line and deal; at most 20 a file). A file made without --certificates has its rows checked only.
Exit status: 0 every file good, 1 a problem found, 2 bad input (no such path, no results file).
`,
    )
    .action(
      run((paths: string[], o: { json?: boolean }) => {
        const files = resultsFiles(paths);
        if (files.length === 0) throw new UserError(`no results file (a CSV with its FILE.meta.json) under ${paths.join(', ')}`);
        const checks = files.map(checkResultsFile);
        const bad = checks.filter((c) => c.problems.length > 0).length;
        if (o.json) outJson({ files: checks, ok: bad === 0 });
        else
          out(
            checks.map(checkText).join('\n') +
              `\n${bad === 0 ? 'ok' : 'FAILED'}: ${plural(files.length, 'results file')}, ${bad === 0 ? 'every one good' : `${bad} with problems`}`,
          );
        if (bad > 0) process.exitCode = EXIT_INVALID;
      }),
    );
}
