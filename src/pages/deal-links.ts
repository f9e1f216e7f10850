/**
 * A report's links to the viewer page: each deal number opens the deal there, solved as the row
 * that ran it solved it (its rules, size and solver request in the link). The deals linked are
 * the first of each verdict in the row's CSV, else the first of its range.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { type Rules, type Size, UserError, parseRules, parseSize } from '../game/index.js';
import { type SolveRequest } from '../solver/index.js';
import { parseCsvLine } from '../batch/csv.js';
import { type Meta } from '../batch/sidecar.js';
import { dealHash } from '../web/data.js';
import { escapeHtml as h } from './page.js';

/** Deal numbers listed per verdict (links to the viewer), at most. */
const LINKS_PER_VERDICT = 24;
/** Deals linked when the verdicts are not kept (no CSV): the first of the range. */
export const FIRST_DEALS = 6;

/** Where a deal link points: the viewer page and the deal's settings. */
export interface Linker {
  /** The viewer's file name, relative to the report. */
  readonly viewer: string;
  links: number;
}

export interface DealSettings {
  readonly source: string;
  readonly rules: Rules;
  readonly size: Size;
  readonly solver: SolveRequest;
}

function dealLink(l: Linker, s: DealSettings, deal: number): string {
  l.links++;
  const source = s.source === 'pysol' ? `pysol ${deal}` : String(deal);
  return `<a class="deal" href="${h(l.viewer + dealHash({ source, rules: s.rules, size: s.size, solver: s.solver }))}">${deal}</a>`;
}

/** The first deals of each verdict in a results CSV (streamed: a file may hold a million rows). */
export async function dealsByVerdict(file: string, only?: (cols: string[], at: (name: string) => number) => boolean): Promise<Map<string, { deals: number[]; count: number }>> {
  const by = new Map<string, { deals: number[]; count: number }>();
  const input = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let header: string[] | null = null;
  const at = (name: string): number => header!.indexOf(name);
  try {
    for await (const line of lines) {
      if (line === '') continue;
      const cols = parseCsvLine(line);
      if (!header) {
        header = cols;
        if (at('deal') < 0 || at('verdict') < 0) throw new UserError(`${file}: the header has no columns 'deal' and 'verdict'`);
        continue;
      }
      if (only && !only(cols, at)) continue;
      const v = cols[at('verdict')] ?? '';
      const e = by.get(v) ?? { deals: [], count: 0 };
      e.count++;
      if (e.deals.length < LINKS_PER_VERDICT) e.deals.push(Number(cols[at('deal')]));
      by.set(v, e);
    }
  } finally {
    lines.close();
    input.destroy();
  }
  return by;
}

const VERDICT_ORDER = ['won', 'unsolvable', 'lost', 'unknown'];

/** The deal links of one solver row: by verdict from its CSV, else the first deals of its range. */
export function dealLinks(l: Linker, s: DealSettings, by: Map<string, { deals: number[]; count: number }> | null, first: readonly number[]): string {
  if (!by) return `<span class="links">deals ${first.map((d) => dealLink(l, s, d)).join(' ')} <small>(the verdicts per deal are not kept here)</small></span>`;
  const parts: string[] = [];
  for (const v of VERDICT_ORDER) {
    const e = by.get(v);
    if (!e) continue;
    const more = e.count > e.deals.length ? ` <small>… ${e.count - e.deals.length} more</small>` : '';
    parts.push(`<span class="links"><b class="v-${v}">${v}</b> ${e.deals.map((d) => dealLink(l, s, d)).join(' ')}${more}</span>`);
  }
  return parts.join('<br>');
}

/** The rows' deal links, one line a row. */
export function linkedRows(rows: readonly [string, string][]): string {
  if (rows.length === 0) return '';
  return `<h3>Deals in the viewer</h3><div class="deals">${rows.map(([name, links]) => `<div><span class="row">${h(name)}</span> ${links}</div>`).join('\n')}</div>`;
}

export function dealSettings(meta: Meta): DealSettings {
  return { source: meta.job.source, rules: parseRules(meta.job.rules), size: parseSize(meta.job.size), solver: meta.job.solver };
}
