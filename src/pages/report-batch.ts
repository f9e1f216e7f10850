/** A batch's section of a report: its summary, its verdicts chart, deal links, the method and the machine. */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { type SummaryFile, readMeta } from '../batch/sidecar.js';
import { metaPath } from '../batch/names.js';
import { formatRange } from '../batch/range.js';
import { type Linker, FIRST_DEALS, dealLinks, dealSettings, dealsByVerdict } from './deal-links.js';
import { escapeHtml as h } from './page.js';
import { facts, machineOf, pct, table } from './report-html.js';
import { readJson } from './results.js';
import { verdictSvg } from './verdict-chart.js';

/**
 * A command as the report shows it: an absolute path to a file of this directory (the machine
 * that ran it had its own, and its name is nobody's business) written as the report names the
 * directory.
 */
export function localCommand(command: string, dir: string): string {
  return command.replace(/(^|\s)(\/\S+)/g, (all: string, sp: string, path: string) => (existsSync(join(dir, basename(path))) ? `${sp}${join(dir, basename(path))}` : all));
}

export async function batchSection(dir: string, summaryFile: string, l: Linker): Promise<string> {
  const s = readJson<SummaryFile>(join(dir, summaryFile));
  const csv = join(dir, summaryFile.replace(/\.summary\.json$/, '.csv'));
  const meta = readMeta(csv);
  const name = basename(csv);
  const solver = s.job.kind !== 'play';
  const where = `${s.job.source === 'pysol' ? 'PySolFC games' : 'deals'} ${formatRange(s.part)}`;
  const rows = [
    ['deals', String(s.deals) + (s.complete ? '' : ` of ${s.part.count} (incomplete)`)],
    ['won', `${s.won} (${pct(s.deals > 0 ? s.won / s.deals : null, 1)})`],
    solver ? ['unsolvable (proved)', String(s.unsolvable)] : ['lost', `${s.lost} <small>(games this player lost: no proof)</small>`],
    ...(solver ? [['unknown (a budget ran out)', `${s.unknown}${s.unknown > 0 ? ` (${Object.entries(s.unknownByLimit).map(([k, v]) => `${k} ${v}`).join(', ')})` : ''}`]] : []),
    ['win rate (won / deals)', pct(s.winRate.wonShare)],
    ['95 % interval', `${pct(s.winRate.low)} – ${pct(s.winRate.high)}${solver ? ' <small>(Wilson; unknown counted as lost for the low end, won for the high end)</small>' : ' (Wilson)'}`],
    ...(solver ? [['won / decided', pct(s.winRate.point)]] : []),
    ['nodes a deal', `mean ${s.nodes.mean.toFixed(0)}, median ${s.nodes.median}, p90 ${s.nodes.p90}, max ${s.nodes.max}`],
    ['ms a deal', `mean ${s.ms.mean.toFixed(1)}, median ${s.ms.median.toFixed(1)}, p90 ${s.ms.p90.toFixed(1)}`],
    ['speed', h(s.speed.note)],
  ];
  const parts = solver
    ? [
        { label: 'won', count: s.won, colour: '#43a047' },
        { label: 'unsolvable', count: s.unsolvable, colour: '#e53935' },
        { label: 'unknown', count: s.unknown, colour: '#bdbdbd' },
      ]
    : [
        { label: 'won', count: s.won, colour: '#43a047' },
        { label: 'lost', count: s.lost, colour: '#9e9e9e' },
      ];
  const chart = verdictSvg({
    title: `${name}: ${where}, ${s.job.method}`,
    deals: s.deals,
    parts,
    rate: s.winRate.wonShare === null ? null : { point: s.winRate.wonShare, low: s.winRate.low ?? 0, high: s.winRate.high ?? 1 },
  });
  let links = '';
  if (solver && meta) {
    const by = existsSync(csv) ? await dealsByVerdict(csv) : null;
    const first = Array.from({ length: Math.min(FIRST_DEALS, s.part.count) }, (_, i) => s.part.from + i);
    links = `<h3>Deals in the viewer</h3><p class="deals">${dealLinks(l, dealSettings(meta), by, first)}</p>`;
  }
  const method = facts([
    ['command', `<code>${h(localCommand(meta?.command ?? '', dir))}</code>`],
    ['job', h(`${s.job.kind} ${s.job.method}`)],
    ['budgets', solver ? h(`max ${s.job.budgets.maxNodes} nodes${s.job.budgets.maxSeconds !== null ? `, ${s.job.budgets.maxSeconds} s` : ''}, ${s.job.budgets.maxMemoryMB} MB a deal`) : 'none (a blind player)'],
    ['rules · size', h(`${s.job.rules} · ${s.job.size}`)],
    ['deals', h(`${where}${s.shard ? ` (shard ${s.shard.index}/${s.shard.count})` : ''}`)],
  ]);
  const machine = meta
    ? facts([
        ['machine', h(machineOf(meta))],
        ['version · commit', h(`${meta.version} · ${meta.commit ?? 'unknown'}`)],
        ['ran', h(`${meta.startedAt} to ${meta.endedAt ?? '?'} (${meta.sessions.length} session${meta.sessions.length === 1 ? '' : 's'})`)],
      ])
    : `<p>No ${h(basename(metaPath(csv)))}: the machine is not known.</p>`;
  return (
    `<section><h2>${h(name)}</h2>${table(['', ''], rows.map(([a, b]) => [h(a!), b!]))}` +
    `<figure>${chart}</figure>${links}<h3>Method</h3>${method}<h3>Machine</h3>${machine}</section>`
  );
}
