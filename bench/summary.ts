/**
 * The solver benchmark's files summed: every report of `bench/solve.js` in a directory that has
 * its per-deal CSV beside it (`--out X.md --csv X.csv`), grouped by rules and budget, with each
 * file's figures and the totals over all of them, the share decided with its 95 % Wilson
 * interval. The counts come from the CSV rows (exact); nodes a second and bytes a state from
 * the report's table row.
 *
 *   node dist/bench/summary.js                          # results/solve, the preset portfolio
 *   node dist/bench/summary.js --dir out --preset fast --out out/SUMMARY.md
 *
 * A file counts when its CSV has rows of `preset P` (`--preset`, default the solver's default
 * preset). Two files of the same rules and budget that share a deal are an error (exit 1,
 * naming both): a deal would be counted twice. Files left out (no CSV, or no such rows) are
 * listed under the tables.
 */
import { benchArgs, benchCommand } from './args.js';
import { readReports } from './reports.js';
import { wilsonHigh, wilsonLow } from '../src/batch/stats.js';
import { DEFAULT_PRESET } from '../src/solver/index.js';

const USAGE = `usage: node dist/bench/summary.js [options]

  --dir DIR          where the bench/solve.js reports are (default results/solve): each
                     X.md with X.csv beside it
  --preset P         whose rows to sum (default: the solver's default preset, ${DEFAULT_PRESET})
  --out FILE.md      also write the summary to FILE.md
  -h, --help         this help
`;

const args = benchArgs('summary', USAGE, {
  dir: { type: 'string', default: 'results/solve' },
  preset: { type: 'string', default: DEFAULT_PRESET },
  out: { type: 'string' },
});
const DIR = String(args.values.dir);
const PRESET = String(args.values.preset);
const OUT = args.values.out as string | undefined;
if (PRESET === '') args.fail('--preset is empty');
const SEARCH = `preset ${PRESET}`;

/** One file's figures for one rules. */
interface Part {
  readonly file: string;
  readonly rules: string;
  readonly budget: string;
  readonly first: number;
  readonly last: number;
  readonly deals: number;
  readonly won: number;
  readonly lost: number;
  readonly locks: number;
  readonly unknown: number;
  readonly errors: number;
  readonly nodesPerSecond: number;
  readonly bytesPerState: number;
}

const read = readReports(DIR, SEARCH, args.fail, args.bad);
const skipped = read.skipped;
const parts: Part[] = read.parts.map((p) => {
  const count = (v: string): number => p.rows.filter((r) => r.verdict === v).length;
  // The report's row of this rules and preset: nodes/s and bytes/state are the two columns before its last (errors).
  const row = p.md.split('\n').find((l) => l.startsWith(`| ${p.rules} | `) && l.includes(` | ${SEARCH} | `));
  const cells = row?.split('|').map((c) => c.trim()) ?? [];
  return {
    file: p.file,
    rules: p.rules,
    budget: p.budget,
    first: p.rows.reduce((m, r) => Math.min(m, r.deal), Infinity),
    last: p.rows.reduce((m, r) => Math.max(m, r.deal), -Infinity),
    deals: p.rows.length,
    won: count('won'),
    lost: count('unsolvable'),
    locks: p.rows.filter((r) => r.verdict === 'unsolvable' && r.proof === 'locks').length,
    unknown: count('unknown'),
    errors: count('error'),
    nodesPerSecond: Number((cells[cells.length - 4] ?? 'NaN').replace(/,/g, '')),
    bytesPerState: Number(cells[cells.length - 3] ?? 'NaN'),
  };
});

const int = (x: number): string => x.toLocaleString('en-US');
const pct = (x: number): string => (100 * x).toFixed(1);
const range = (xs: number[], f: (x: number) => string): string => {
  const ok = xs.filter((x) => Number.isFinite(x));
  if (ok.length === 0) return '–';
  const lo = Math.min(...ok);
  const hi = Math.max(...ok);
  return lo === hi ? f(lo) : `${f(lo)}-${f(hi)}`;
};
/** The deals as runs: "1-15000", or "1-1000, 3001-5000". */
const runs = (ps: Part[]): string => {
  const out: [number, number][] = [];
  for (const p of ps) {
    const end = out[out.length - 1];
    if (end && end[1] + 1 === p.first) end[1] = p.last;
    else out.push([p.first, p.last]);
  }
  return out.map(([a, b]) => `${a}-${b}`).join(', ');
};

const lines: string[] = [
  `# The preset ${PRESET} in ${DIR}, summed`,
  '',
  `- command: \`${benchCommand('summary.js')}\``,
  `- files: the bench/solve.js reports in ${DIR} with their per-deal CSV beside them; counts from the CSV rows of \`${SEARCH}\`, nodes/s and bytes/state from each report`,
];
const groups = new Map<string, Part[]>();
for (const p of parts) {
  const key = `${p.rules}: ${p.budget} a deal`;
  (groups.get(key) ?? groups.set(key, []).get(key)!).push(p);
}
for (const [key, ps] of [...groups].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
  ps.sort((a, b) => a.first - b.first);
  for (let i = 1; i < ps.length; i++) {
    if (ps[i]!.first <= ps[i - 1]!.last) {
      args.bad(`${ps[i - 1]!.file} and ${ps[i]!.file} share ${ps[i]!.rules} deals (${ps[i - 1]!.first}..${ps[i - 1]!.last} and ${ps[i]!.first}..${ps[i]!.last}): a deal would be counted twice`);
    }
  }
  const sum = (f: (p: Part) => number): number => ps.reduce((s, p) => s + f(p), 0);
  const n = sum((p) => p.deals);
  const decided = sum((p) => p.won + p.lost);
  lines.push(
    '',
    `## ${key}`,
    '',
    '| file | deals | decided | won | proved lost (by LockBound at the root) | unknown | errors | nodes/s | bytes/state |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const p of ps) {
    lines.push(`| ${p.file} | ${p.first}-${p.last} | ${int(p.won + p.lost)} (${pct((p.won + p.lost) / p.deals)} %) | ${int(p.won)} | ${int(p.lost)} (${int(p.locks)}) | ${int(p.unknown)} | ${int(p.errors)} | ${int(p.nodesPerSecond)} | ${p.bytesPerState.toFixed(1)} |`);
  }
  lines.push(
    `| **all ${ps.length}** | ${runs(ps)} (${int(n)}) | **${int(decided)} (${pct(decided / n)} %; ${pct(wilsonLow(decided, n))}-${pct(wilsonHigh(decided, n))} %)** | ${int(sum((p) => p.won))} | ${int(sum((p) => p.lost))} (${int(sum((p) => p.locks))}) | ${int(sum((p) => p.unknown))} | ${int(sum((p) => p.errors))} | ${range(ps.map((p) => p.nodesPerSecond), (x) => `${(x / 1e6).toFixed(2)} M`)} | ${range(ps.map((p) => p.bytesPerState), (x) => x.toFixed(1))} |`,
  );
}
if (parts.length === 0) lines.push('', `No file in ${DIR} has rows of \`${SEARCH}\` with its CSV beside it.`);
lines.push(
  '',
  'decided = won + proved lost, with its share of the deals and, for all, its 95 % Wilson interval;',
  "errors = solutions that failed to verify (solver bugs), not counted as decided. nodes/s and",
  "bytes/state are each file's report's (the machine of its day: results/README says which build",
  'made it, and when); for all, their range.',
);
if (skipped.length > 0) lines.push('', `Left out: ${skipped.join('; ')}.`);
const text = lines.join('\n') + '\n';
process.stdout.write(text);
args.writeOutputs([['out', OUT, () => text]]);
