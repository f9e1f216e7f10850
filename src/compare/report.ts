/** The benchmark's report as text: what `limited bench` prints, and bench.txt. */
import { formatDuration } from '../util/duration.js';
import { plural } from '../game/index.js';
import { type BenchResult } from './result.js';
import { type Paired } from './stats.js';

const pct = (a: number, n: number): string => (n > 0 ? `${((100 * a) / n).toFixed(1)} %` : '--');

/** 12345 -> 12345; 1234567.8 -> 1234568. */
const int = (x: number): string => String(Math.round(x));

const ms = (x: number): string => (x >= 100 ? x.toFixed(0) : x.toFixed(1));

/** 312345 -> 312k; 1534000 -> 1.53M. */
function rate(x: number | null): string {
  if (x === null) return '--';
  if (x >= 1e6) return `${(x / 1e6).toFixed(2)}M`;
  if (x >= 1e3) return `${Math.round(x / 1e3)}k`;
  return x.toFixed(0);
}

/** A p-value: 3 significant digits, or an exponent below 0.001. */
export function formatP(p: number): string {
  if (p >= 0.001) return p >= 0.995 ? '1' : p.toPrecision(2);
  if (p === 0) return '<1e-300';
  return p.toExponential(1);
}

function table(head: readonly string[], rows: readonly (readonly string[])[], leftCols = 1): string[] {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: readonly string[]): string =>
    r.map((c, i) => (i < leftCols ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ').trimEnd();
  return [line(head), line(head.map((_, i) => '-'.repeat(w[i]!))), ...rows.map(line)];
}

/** The sentence on the heuristic that decided most deals (ties: fewer nodes in all). */
export function winnerLine(r: BenchResult): string {
  const n = r.config.list.deals.length;
  let best = 0;
  r.summaries.forEach((s, h) => {
    const b = r.summaries[best]!;
    if (s.decided > b.decided || (s.decided === b.decided && s.totalNodes < b.totalNodes)) best = h;
  });
  const s = r.summaries[best]!;
  const base = r.labels[0]!;
  const head = `most decided: ${r.labels[best]}, ${s.decided} of ${n} deals (${pct(s.decided, n)})`;
  if (best === 0) {
    const second = r.summaries.map((x, h) => ({ x, h })).filter((e) => e.h !== 0).sort((a, b) => b.x.decided - a.x.decided)[0];
    return second ? `${head}: the baseline; next ${r.labels[second.h]} with ${second.x.decided}` : head;
  }
  const p = r.paired[best]!;
  const b = r.summaries[0]!;
  return (
    `${head}, against ${b.decided} for ${base} (the first): ${plural(p.onlyThis, 'deal')} only it decided, ${p.onlyBase} only ${base}; ` +
    `better on ${plural(p.better, 'deal')}, worse on ${p.worse} (sign test p = ${formatP(p.p)})`
  );
}

export function formatReport(r: BenchResult): string {
  const { list } = r.config;
  const n = list.deals.length;
  const b = r.spec.budgets;
  const budget = [`max ${b.maxNodes} nodes`, ...(b.maxSeconds !== null ? [`max ${b.maxSeconds} s`] : [])].join(', ');
  const out: string[] = [];
  out.push(
    `limited bench · ${list.name}: ${list.description} (${n} deals) · rules ${r.spec.rules} · size ${r.spec.size} · search=${r.config.solver.search} · ` +
      `${budget} a search · ${plural(r.labels.length, 'heuristic')} · ${plural(r.workers, 'worker')}, ${formatDuration(r.seconds)}`,
  );
  if (r.config.solver.search === 'dfs') out.push('note: depth-first search does not use the heuristic (it orders moves by a fixed rule), so every line searches alike');
  out.push('');
  out.push(
    ...table(
      ['heuristic', 'decided', 'won', 'unknown', 'nodes median', 'mean', 'p90', 'ms median', 'mean', 'p90', 'nodes/s'],
      r.labels.map((label, h) => {
        const s = r.summaries[h]!;
        return [
          label, pct(s.decided, n), pct(s.won, n), pct(s.unknown, n), int(s.nodes.median), int(s.nodes.mean), int(s.nodes.p90),
          ms(s.ms.median), ms(s.ms.mean), ms(s.ms.p90), rate(s.nodesPerSecond),
        ];
      }),
    ),
  );
  out.push('(nodes and ms per deal over all deals: an unknown deal counts what it spent, up to the budget)');
  if (r.labels.length > 1) {
    const base = r.labels[0]!;
    out.push('');
    out.push(`paired with ${base} (the first heuristic), deal by deal:`);
    out.push(
      ...table(
        ['heuristic', 'only it', `only ${base}`, 'both', 'node ratio', 'better', 'worse', 'ties', 'sign test p'],
        r.labels.slice(1).map((label, k) => {
          const p: Paired = r.paired[k + 1]!;
          return [
            label, String(p.onlyThis), String(p.onlyBase), String(p.both), p.medianNodeRatio === null ? '--' : p.medianNodeRatio.toFixed(2),
            String(p.better), String(p.worse), String(p.ties), formatP(p.p),
          ];
        }),
      ),
    );
    out.push(
      `(only it / only ${base}: deals one of the two decided; node ratio: median over the deals both decided (and not both before any search) of nodes(it) / nodes(${base}), ` +
        `below 1 = fewer nodes; better: decided where ${base} did not, or both decided in fewer nodes; sign test: exact two-sided binomial, better against worse)`,
    );
  }
  out.push('');
  out.push(winnerLine(r));
  out.push(
    `bench signature: ${r.signature} nodes (total over ${plural(n, 'deal')} x ${plural(r.labels.length, 'heuristic')}; ` +
      (r.deterministic ? 'deterministic: the same on any machine and worker count)' : 'NOT deterministic: a time budget was given)'),
  );
  out.push(`files: ${r.files.csv}, ${r.files.svg}, ${r.files.txt}, ${r.files.json}`);
  return out.join('\n') + '\n';
}
