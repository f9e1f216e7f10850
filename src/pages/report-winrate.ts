/** The report of `limited experiment winrate`: winrate.json, then each phase's batch. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../game/index.js';
import { formatRange } from '../batch/range.js';
import { type EstimateLine } from '../experiment/winrate.js';
import { WINRATE_FORMAT, WINRATE_METHOD, intervalText } from '../experiment/winrate-report.js';
import { type Linker } from './deal-links.js';
import { intervalSvg } from './interval-chart.js';
import { escapeHtml as h } from './page.js';
import { batchSection } from './report-batch.js';
import { facts, mdBlocks, table } from './report-html.js';
import { readJson } from './results.js';

interface WinrateJson {
  format: string;
  headline: string;
  command: string;
  phase1: string;
  phase2: string;
  sample: number;
  seed: string;
  written: string;
  cost: { hours: number; machines: string[]; commits: string[]; from: string; to: string };
  estimates: EstimateLine[];
}

export async function winrateReport(dir: string, l: Linker): Promise<string> {
  const w = readJson<WinrateJson>(join(dir, 'winrate.json'));
  if (w.format !== WINRATE_FORMAT || !Array.isArray(w.estimates) || w.estimates.length === 0)
    throw new UserError(`${join(dir, 'winrate.json')} is not a winrate.json of limited experiment winrate (format '${String(w.format)}')`);
  const label = (e: EstimateLine): string => (e.kind === 'rate' ? e.row : `${e.row} − ${e.baseline}`);
  const charts = (['rate', 'difference'] as const)
    .map((kind) => {
      const lines = w.estimates.filter((e) => e.kind === kind);
      if (lines.length === 0) return '';
      const title = kind === 'rate' ? 'Won with perfect play, 95 % interval' : 'Differences between games, 95 % interval';
      const svg = intervalSvg({ title, kind, lines: lines.map((e) => ({ label: label(e), low: e.estimate.low, high: e.estimate.high, ciLow: e.estimate.ciLow, ciHigh: e.estimate.ciHigh })) });
      return `<figure>${svg}</figure>`;
    })
    .join('');
  const head = ['estimate', 'deals', 'phase 1: won / lost / unknown', 'by implication', 'undecided', 'sampled', 'settled in phase 2', 'still undecided', '95 % interval', 'width'];
  const body = w.estimates.map((e) => [
    h(label(e)), h(formatRange(e.range)), `${e.phase1.won} / ${e.phase1.lost} / ${e.phase1.unknown}`, String(e.implied), String(e.estimate.undecided),
    String(e.estimate.sampled), String(e.settled), String(e.estimate.stillUndecided), h(intervalText(e)), `${(100 * (e.estimate.ciHigh - e.estimate.ciLow)).toFixed(1)} points`,
  ]);
  const method = facts([
    ['command', `<code>${h(w.command)}</code>`],
    ['phase 1', h(w.phase1)],
    ['phase 2', h(`${w.phase2}; a sample of at most ${w.sample} undecided deals an estimate, priority seed '${w.seed}'`)],
  ]);
  const machine = facts([
    ['machine', h(w.cost.machines.join('; ') || 'unknown')],
    ['builds', h(w.cost.commits.join(', ') || 'unknown')],
    ['ran', h(`${w.cost.from} to ${w.cost.to}; ${w.cost.hours.toFixed(2)} worker-hours; summary written ${w.written}`)],
  ]);
  const phases = readdirSync(dir).filter((n) => n.endsWith('.summary.json')).sort();
  const sections = (await Promise.all(phases.map((f) => batchSection(dir, f, l)))).join('\n');
  return (
    `<section><h2>How often it is won</h2><p class="headline"><b>${h(w.headline)}.</b></p>${charts}` +
    `<h3>Estimates</h3><div class="wide">${table(head, body, new Set([1, 3, 4, 5, 6, 7, 9]))}</div>` +
    `<h3>Method</h3>${method}${mdBlocks(WINRATE_METHOD)}` +
    `<h3>Machine</h3>${machine}</section>\n${sections}`
  );
}
