/**
 * `limited report DIR`: one HTML page from a results directory, of whichever kind it holds:
 *   - `limited experiment tactics` (tactics.csv, tactics.md, the rows' sidecars);
 *   - `limited bench` (bench.json, bench.svg, bench.csv when kept);
 *   - `limited experiment winrate` (winrate.json, with its phases' batch files);
 *   - batches (FILE.summary.json with FILE.meta.json, FILE.csv when kept).
 * The page has the headline table, the charts with their intervals, the method and the machine,
 * and for the solver's rows links that open a deal in the viewer page written beside it.
 */
import { readdirSync } from 'node:fs';
import { basename } from 'node:path';
import { type Linker } from './deal-links.js';
import { escapeHtml as h, htmlDocument } from './page.js';
import { batchSection } from './report-batch.js';
import { benchReport } from './report-bench.js';
import { tacticsReport } from './report-tactics.js';
import { winrateReport } from './report-winrate.js';
import { type ResultsKind, detectResults } from './results.js';

const REPORT_CSS = `
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", Arial, sans-serif; color: #1b1b1b; background: #f4f3ee; }
main { max-width: 1280px; margin: 0 auto; padding: 18px 22px 40px; }
header { background: linear-gradient(90deg, #17543a, #2a8457); color: #fff; padding: 16px 22px; }
header h1 { margin: 0; font-size: 24px; } header p { margin: 4px 0 0; color: #d7eedf; }
section { background: #fff; border-radius: 10px; padding: 14px 20px 18px; margin-top: 18px; box-shadow: 0 2px 8px rgba(0,0,0,.08); }
h2 { margin: 0 0 8px; font-size: 20px; } h3 { margin: 18px 0 6px; font-size: 16px; color: #2e4e3d; }
figure { margin: 10px 0; overflow-x: auto; } figure svg { box-sizing: border-box; max-width: 100%; height: auto; border: 1px solid #e4e1d4; border-radius: 6px; }
section { overflow-x: auto; }
/* A narrow window: the charts keep their size (their text stays readable) and scroll inside their frame, as wide tables do. */
@media (max-width: 1000px) { figure svg { max-width: none; } }
@media (max-width: 600px) { main { padding: 8px 6px 24px; } section { padding: 10px 10px 14px; } header { padding: 12px 10px; } body { font-size: 14px; } }
table { border-collapse: collapse; font-size: 13.5px; } th, td { padding: 4px 8px; border-bottom: 1px solid #e8e6dc; text-align: left; vertical-align: top; }
th { background: #f1f0e8; white-space: nowrap; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr:hover { background: #f7faf5; } .wide { overflow-x: auto; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 3px 14px; margin: 0; } dt { color: #666; } dd { margin: 0; }
code { font: 13px ui-monospace, "DejaVu Sans Mono", Menlo, monospace; background: #f1f0e8; padding: 1px 5px; border-radius: 4px; word-break: break-all; }
a.deal { display: inline-block; min-width: 2.2em; text-align: center; padding: 0 4px; margin: 1px; border-radius: 4px; background: #e8f5e9; color: #1b5e20; text-decoration: none; font-variant-numeric: tabular-nums; }
a.deal:hover { background: #1b5e20; color: #fff; } small { color: #777; }
.deals > div { padding: 3px 0; border-bottom: 1px solid #f0eee6; } .deals .row { display: inline-block; min-width: 13em; font-weight: 600; }
.deals .links { margin-right: 10px; } td { white-space: nowrap; }
.v-won { color: #2e7d32; } .v-unsolvable { color: #c62828; } .v-unknown { color: #757575; } .v-lost { color: #616161; }
`;

/** The whole report page for DIR; deal links point at `viewer` (a file beside the report). */
export async function reportPage(dir: string, viewer: string): Promise<{ html: string; kind: ResultsKind; links: number }> {
  const kind = detectResults(dir);
  const l: Linker = { viewer, links: 0 };
  let body: string;
  let what: string;
  if (kind === 'tactics') {
    what = 'limited experiment tactics';
    body = await tacticsReport(dir, l);
  } else if (kind === 'bench') {
    what = 'limited bench';
    body = await benchReport(dir, l);
  } else if (kind === 'winrate') {
    what = 'limited experiment winrate';
    body = await winrateReport(dir, l);
  } else {
    what = 'limited batch';
    const files = readdirSync(dir).filter((n) => n.endsWith('.summary.json')).sort();
    body = (await Promise.all(files.map((f) => batchSection(dir, f, l)))).join('\n');
  }
  const note = l.links > 0 ? ` · a deal's number opens it in ${h(viewer)}, solved there as the run solved it` : '';
  const html = htmlDocument(
    `limited report · ${basename(dir)}`,
    REPORT_CSS,
    `<header><h1>${h(what)}: ${h(dir)}</h1><p>report written ${h(new Date().toISOString())}${note}</p></header><main>${body}</main>`,
  );
  return { html, kind, links: l.links };
}
