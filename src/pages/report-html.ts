/** The HTML pieces every kind of report is made of: tables, facts, percentages, a little markdown. */
import { type Meta } from '../batch/sidecar.js';
import { escapeHtml as h } from './page.js';

export function table(head: readonly string[], rows: readonly (readonly string[])[], numeric: ReadonlySet<number> = new Set()): string {
  const th = head.map((x, i) => `<th${numeric.has(i) ? ' class="num"' : ''}>${x}</th>`).join('');
  const tr = rows.map((r) => `<tr>${r.map((x, i) => `<td${numeric.has(i) ? ' class="num"' : ''}>${x}</td>`).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${th}</tr></thead><tbody>\n${tr}\n</tbody></table>`;
}

export function facts(items: readonly (readonly [string, string])[]): string {
  return `<dl>${items.map(([k, v]) => `<dt>${h(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

export const pct = (x: number | null | undefined, digits = 2): string => (x === null || x === undefined ? '' : `${(100 * x).toFixed(digits)} %`);
export const signed = (x: number): string => `${x > 0.00005 ? '+' : x < -0.00005 ? '−' : '±'}${Math.abs(100 * x).toFixed(2)}`;

/** Markdown's `code` and **bold** as HTML (the rest escaped). */
export const mdInline = (s: string): string => h(s).replace(/`([^`]+)`/g, '<code>$1</code>').replace(/\*\*([^*]+)\*\*/g, '<b>$1</b>');

/** Paragraphs and numbered lists of a markdown text as HTML. */
export function mdBlocks(text: string): string {
  const flat = (t: string): string => mdInline(t.replace(/\s*\n\s*/g, ' '));
  return text
    .split(/\n\n+/)
    .map((b) => (/^1\. /.test(b) ? `<ol>${b.split(/\n(?=\d+\. )/).map((i) => `<li>${flat(i.replace(/^\d+\. /, ''))}</li>`).join('')}</ol>` : `<p>${flat(b)}</p>`))
    .join('');
}

export function machineOf(meta: Meta): string {
  return `${meta.cpu} × ${meta.cores} cores, Node ${meta.node}, host ${meta.host}, ${meta.workers} workers`;
}
