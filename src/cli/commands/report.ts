import { basename, dirname, join } from 'node:path';
import { type Command } from 'commander';
import { BOOK } from '../../game/index.js';
import { checkOut, dealPage, writePage } from '../../pages/page.js';
import { reportPage } from '../../pages/report.js';
import { checkRequest } from '../../solver/index.js';
import { pageRequest } from '../../web/data.js';
import { run } from '../exit.js';
import { examples } from '../options.js';
import { out } from '../output.js';
import { HINT_SECONDS } from './hint.js';

interface ReportOptions {
  out?: string;
  force?: boolean;
}

/** `report.html` -> `report-viewer.html`, beside it. */
export function viewerPath(report: string): string {
  const name = basename(report).replace(/\.html?$/i, '');
  return join(dirname(report), `${name}-viewer.html`);
}

export function registerReport(program: Command): void {
  program
    .command('report')
    .description('write one HTML page from a results directory: experiment tactics, experiment winrate, bench or batch results')
    .argument('<dir>', 'the results directory (e.g. results/tactics)')
    .option('--out <file>', 'the page to write (default DIR/report.html); deal links open FILE-viewer.html, written beside it')
    .option('--force', 'overwrite the page (and its viewer) when they exist')
    .addHelpText(
      'after',
      examples(
        'limited report results/tactics --out tactics.html     # the tactics experiment',
        'limited report results/bench --out bench.html         # a heuristics benchmark',
        'limited report results/winrate/book --out winrate.html # the win-rate estimate of book Limited',
        'limited batch --from 1 --count 50 --size 1x5,4x3 --out small/run.csv && limited report small',
      ) +
        '\nFinds what DIR holds: tactics.csv (limited experiment tactics), bench.json (limited bench),\n' +
        'winrate.json (limited experiment winrate, with its phases\' files) or FILE.summary.json\n' +
        'with FILE.meta.json (limited batch, one section a file). The page has the headline table,\n' +
        'the charts with their 95 % intervals, the method (the command, the\n' +
        'budgets, how rates and intervals are counted) and the machine. For the solver\'s rows, deal\n' +
        'numbers link to a viewer page written beside the report (FILE-viewer.html): it deals the\n' +
        'deal and solves it in the browser with the run\'s own settings (the same verdict and\n' +
        'solution, as a solve is deterministic), to step through or to play. Both files work\n' +
        'offline. The deals linked: by verdict when the results CSV is in DIR, else the first of\n' +
        'the range. An existing page or viewer is refused (exit 2) unless --force.\n',
    )
    .action(
      run(async (dir: string, o: ReportOptions) => {
        const file = o.out ?? join(dir, 'report.html');
        const viewer = viewerPath(file);
        checkOut(file, o.force === true, 'report');
        checkOut(viewer, o.force === true, 'viewer page');
        const rep = await reportPage(dir, basename(viewer));
        writePage(file, rep.html);
        if (rep.links > 0) {
          writePage(
            viewer,
            dealPage({
              mode: 'view', title: 'Deal', rules: BOOK, deal: null, start: [], solution: null, verdict: null,
              solver: pageRequest(checkRequest({ maxSeconds: HINT_SECONDS })),
            }),
          );
        }
        out(`wrote ${file} (${rep.kind} results${rep.links > 0 ? `, ${rep.links} deals linked to ${viewer}` : ''}); open it in a browser`);
      }),
    );
}
