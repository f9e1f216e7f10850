/**
 * `limited experiment tactics`, end to end on the built CLI with small deals: the three summary
 * files and their rows, the paired difference checked against a hand computation from the
 * per-deal CSVs, a well-formed SVG, resume (finished rows skipped, a half-done one finished),
 * --only, options that differ from the directory's refused, and one-line errors.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsvLine } from '../src/batch/csv.js';
import { pairedDifference, wilsonHigh, wilsonLow } from '../src/batch/stats.js';
import { TACTICS_COLUMNS } from '../src/experiment/tactics-report.js';
import { type ChartLine, tacticsSvg } from '../src/experiment/tactics-chart.js';
import { type Group } from '../src/experiment/matrix.js';
import { type Result, expectUsageError, killedSidecar, runCli, withTempDir } from './cli-helpers.js';

let dir: string;
withTempDir('limited-experiment-', (d) => (dir = d));

function ok(args: string[]): Result {
  const r = runCli(args);
  expect(r.status, r.stderr).toBe(0);
  return r;
}

// Small deals, small budgets: the whole matrix takes a few seconds on two workers.
const TINY = [
  'experiment', 'tactics', '--size', '1x6,5x3', '--count', '400', '--from', '11', '--solver-count', '30', '--max-nodes', '2000',
  '--sampling-count', '4', '--sampling-player', 'sampling:samples=2,nodes=200', '--workers', '2', '--no-progress',
];

const GREEDY = ['always', 'cautious', 'never'].flatMap((p) => ['eager', 'hold', 'never'].map((s) => `greedy-${p}-${s}`));
const SOLVER = ['solver-free', 'solver-pairing-never', 'solver-pairing-cautious', 'solver-spaces-hold', 'solver-spaces-never'];
const RULES = ['building-none', 'building-suit', 'second-deal-none', 'privileged-1', 'privileged-2', 'privileged-3', 'privileged-5', 'privileged-6', 'privileged-8'].map((r) => `rules-${r}`);
const SAMPLING = ['sampling-always-eager', 'sampling-always-hold', 'sampling-cautious-eager', 'sampling-cautious-hold'];
const ALL = [...GREEDY, ...SOLVER, ...RULES, ...SAMPLING];

/** A CSV file as records by column name. */
function records(file: string): Record<string, string>[] {
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
  const header = parseCsvLine(lines[0]!);
  return lines.slice(1).map((l) => {
    const f = parseCsvLine(l);
    expect(f).toHaveLength(header.length);
    return Object.fromEntries(header.map((h, i) => [h, f[i]!]));
  });
}

/** The paired table of two per-deal CSVs, by hand: a both won, b the first only, c the second only, d neither. */
function byHand(rowFile: string, baseFile: string): { a: number; b: number; c: number; d: number; n: number } {
  const base = new Map(records(baseFile).map((r) => [r['deal']!, r['verdict'] === 'won']));
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  for (const r of records(rowFile)) {
    const won = r['verdict'] === 'won';
    const other = base.get(r['deal']!);
    expect(other, `deal ${r['deal']} in both files`).not.toBeUndefined();
    if (won && other) a++;
    else if (won) b++;
    else if (other) c++;
    else d++;
  }
  return { a, b, c, d, n: a + b + c + d };
}

/** Checks that a text is well-formed XML as far as tags go: every element closed, properly nested, one root. */
function expectWellFormed(svg: string): void {
  const stack: string[] = [];
  let roots = 0;
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g;
  let m: RegExpExecArray | null;
  let last = 0;
  while ((m = tag.exec(svg)) !== null) {
    // Text between tags holds no stray '<' and no bare '&'.
    const between = svg.slice(last, m.index);
    expect(between, `text before ${m[0]}`).not.toMatch(/<|&(?!amp;|lt;|gt;|quot;)/);
    last = tag.lastIndex;
    const [, close, name, , self] = m;
    if (close) expect(stack.pop(), `</${name}>`).toBe(name);
    else if (!self) {
      if (stack.length === 0) roots++;
      stack.push(name!);
    } else if (stack.length === 0) roots++;
  }
  expect(svg.slice(last).trim()).toBe('');
  expect(stack).toEqual([]);
  expect(roots).toBe(1);
  expect(svg.trimStart().startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
}

describe('limited experiment tactics', () => {
  let first: Result;
  const out = (): string => join(dir, 'all');

  it('runs every row through the batch runner and writes tactics.csv, tactics.md and tactics.svg', () => {
    first = ok([...TINY, '--out-dir', out()]);
    for (const f of ['tactics.csv', 'tactics.md', 'tactics.svg']) expect(existsSync(join(out(), f)), f).toBe(true);
    for (const name of ALL) expect(existsSync(join(out(), `${name}.csv`)), name).toBe(true);
    // Progress names the row.
    expect(first.stderr).toMatch(/^experiment tactics: row 1\/27 greedy-always-eager: greedy always\/eager, deals 11-410 -> /m);
    expect(first.stderr).toMatch(/^experiment tactics: row 27\/27 sampling-cautious-hold: sampling:samples=2,nodes=200 cautious\/hold, deals 11-14 -> /m);
    expect(first.stdout).toMatch(/^greedy-always-eager +400 +\d+\.\d\d % .* baseline$/m);

    const lines = readFileSync(join(out(), 'tactics.csv'), 'utf8').split('\n');
    expect(lines[0]).toBe(TACTICS_COLUMNS.join(','));
    const t = records(join(out(), 'tactics.csv'));
    expect(t.map((r) => r['row'])).toEqual(ALL);
    for (const r of t) {
      const group = r['row']!.split('-')[0]!;
      expect(r['group']).toBe(group);
      expect(r['baseline']).toBe(group === 'greedy' ? 'greedy-always-eager' : group === 'sampling' ? 'sampling-always-eager' : 'solver-free');
      expect(r['deals_from']).toBe('11');
      expect(r['deals']).toBe(group === 'greedy' ? '400' : group === 'sampling' ? '4' : '30');
      const n = Number(r['deals']);
      const won = Number(r['won']);
      const player = group === 'greedy' || group === 'sampling';
      if (player) {
        expect(won + Number(r['lost'])).toBe(n);
        expect(r['unsolvable']).toBe('');
        expect(r['unknown']).toBe('');
      } else {
        expect(won + Number(r['unsolvable']) + Number(r['unknown'])).toBe(n);
        expect(r['lost']).toBe('');
      }
      expect(Number(r['win_rate'])).toBeCloseTo(won / n, 6);
      const unknown = player ? 0 : Number(r['unknown']);
      expect(Number(r['ci_low'])).toBeCloseTo(wilsonLow(won, n), 6);
      expect(Number(r['ci_high'])).toBeCloseTo(wilsonHigh(won + unknown, n), 6);
      if (r['row'] === r['baseline']) expect(r['diff']).toBe('');
      else expect(r['diff']).not.toBe('');
    }
    expect(t.find((r) => r['row'] === 'solver-free')!['who']).toBe('solver portfolio 2000 nodes');
    expect(t.find((r) => r['row'] === 'rules-privileged-2')!['rules']).toBe('building=pairs second-deal=privileged privileged=2');
    expect(t.find((r) => r['row'] === 'solver-pairing-never')!['tactics']).toBe('pairing never');
  });

  it('the paired difference is the hand computation from the per-deal CSVs', () => {
    const t = new Map(records(join(out(), 'tactics.csv')).map((r) => [r['row']!, r]));
    const checked: number[] = [];
    for (const [row, base] of [
      ['greedy-cautious-hold', 'greedy-always-eager'],
      ['greedy-never-never', 'greedy-always-eager'],
      ['solver-spaces-never', 'solver-free'],
      ['rules-building-none', 'solver-free'],
    ] as const) {
      const h = byHand(join(out(), `${row}.csv`), join(out(), `${base}.csv`));
      const r = t.get(row)!;
      expect(Number(r['won_only_here']), row).toBe(h.b);
      expect(Number(r['won_only_baseline']), row).toBe(h.c);
      // tactics.csv has six decimals.
      expect(Number(r['diff']), row).toBeCloseTo((h.b - h.c) / h.n, 5);
      // And the difference of the two win rates (unknown counts as not won).
      expect(Number(r['diff']), row).toBeCloseTo(Number(r['win_rate']) - Number(t.get(base)!['win_rate']), 5);
      const p = pairedDifference(h);
      expect(Number(r['diff_low']), row).toBeCloseTo(p.low, 5);
      expect(Number(r['diff_high']), row).toBeCloseTo(p.high, 5);
      expect(Number(r['diff_low'])).toBeLessThanOrEqual(Number(r['diff']));
      expect(Number(r['diff_high'])).toBeGreaterThanOrEqual(Number(r['diff']));
      checked.push(h.b + h.c);
    }
    // The check means something: the rows differ from their baselines on some deals.
    expect(checked.some((x) => x > 0)).toBe(true);
  });

  it('tactics.md is a table of every row and one of the solver rows with perfect information, under a header that says how it was made', () => {
    const whole = readFileSync(join(out(), 'tactics.md'), 'utf8');
    const [md, perfectPart] = whole.split('## The solver rows with perfect information');
    expect(perfectPart).toBeDefined();
    const perfect = perfectPart!.split('\n').filter((l) => l.startsWith('|'));
    const solverRows = [...SOLVER, ...RULES];
    expect(perfect[0]).toMatch(/^\| row \| deals \| decided in phase 1 \(by implication\) \|/);
    expect(perfect.slice(2).map((l) => l.split(' | ')[0]!.slice(2))).toEqual(solverRows);
    // With no phase 2 (--sample 0) every undecided deal stands with its bounds, counted both ways.
    for (const l of perfect.slice(2)) {
      const m = /^\| [\w-]+ \| 30 \| (\d+) \(\d+\) \| (\d+) \| (\d+) \| (\d+) \| [\d.]+-[\d.]+ % \|/.exec(l);
      expect(m, l).not.toBeNull();
      const [decided, undecided, sampled, still] = m!.slice(1).map(Number) as [number, number, number, number];
      expect(decided + undecided).toBe(30);
      expect([sampled, still]).toEqual([undecided, undecided]);
    }
    expect(md).toMatch(/^- command: `limited experiment tactics --size 1x6,5x3 --count 400 /m);
    expect(md).toMatch(/^- machine: .+ x \d+ cores, Node v\d+/m);
    expect(md).toMatch(/^- date: rows run from \d{4}-\d\d-\d\dT.* summary written \d{4}-/m);
    expect(md).toMatch(/^- commit: /m);
    const table = md.split('\n').filter((l) => l.startsWith('|'));
    expect(table).toHaveLength(2 + 27);
    expect(table[0]).toMatch(/\| win rate \| 95 % CI \| Δ vs baseline at the budget \(pp\) \| 95 % CI of Δ \(paired\) \| wall time \|/);
    for (const name of ALL) expect(table.some((l) => l.includes(`| ${name} |`) || l.includes(`**${name}** (baseline)`)), name).toBe(true);
    expect(table.filter((l) => /\(baseline\)/.test(l))).toHaveLength(3);
    expect(table[2]).toMatch(/\| \d+(\.\d)? s \|$/);
  });

  it('its report page has the solver rows with perfect information, as tactics.csv has them', () => {
    const page = join(out(), 'report.html');
    const r = runCli(['report', out(), '--out', page, '--force']);
    expect(r.status, r.stderr).toBe(0);
    const html = readFileSync(page, 'utf8');
    const part = html.split('<h3>The solver rows with perfect information</h3>')[1]!.split('</table>')[0]!;
    const csv = records(join(out(), 'tactics.csv')).filter((c) => c['pi_low'] !== '');
    expect(csv.map((c) => c['row'])).toEqual([...SOLVER, ...RULES]);
    for (const c of csv) expect(part).toContain(`${(100 * Number(c['pi_low'])).toFixed(2)} % to ${(100 * Number(c['pi_high'])).toFixed(2)} %`);
  });

  it('tactics.svg is well-formed: one bar and one whisker a row, a baseline line a group, title, axis labels, legend', () => {
    const svg = readFileSync(join(out(), 'tactics.svg'), 'utf8');
    expectWellFormed(svg);
    const bars = [...svg.matchAll(/<rect class="bar" data-row="([^"]+)" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"/g)];
    expect(bars.map((b) => b[1])).toEqual(ALL);
    expect(svg.match(/<g class="whisker"/g)).toHaveLength(27);
    expect(svg.match(/<line class="baseline"/g)).toHaveLength(4);
    expect(svg.match(/<rect class="swatch"/g)).toHaveLength(4);
    expect(svg).toContain('Limited: win rate by tactic and by rule');
    expect(svg).toContain('win rate: won / deals');
    expect(svg).toContain('95 % interval');
    // Bar lengths follow the win rates: a longer bar for a higher rate.
    const rate = new Map(records(join(out(), 'tactics.csv')).map((r) => [r['row']!, Number(r['win_rate'])]));
    const width = new Map(bars.map((b) => [b[1]!, Number(b[3])]));
    const best = GREEDY.reduce((x, y) => (rate.get(y)! > rate.get(x)! ? y : x));
    const worst = GREEDY.reduce((x, y) => (rate.get(y)! < rate.get(x)! ? y : x));
    expect(width.get(best)).toBe(Math.max(...GREEDY.map((g) => width.get(g)!)));
    expect(width.get(worst)).toBe(Math.min(...GREEDY.map((g) => width.get(g)!)));
  });

  it('run again, it skips the finished rows; a half-done row is finished to the same rows', () => {
    const before = records(join(out(), 'tactics.csv'));
    const again = ok([...TINY, '--out-dir', out()]);
    expect(again.stderr.match(/: done already \(/g)).toHaveLength(27);
    expect(again.stderr).not.toMatch(/deals to do/);
    // Half of a row's file, as a killed run leaves it.
    const file = join(out(), 'greedy-never-hold.csv');
    const whole = readFileSync(file, 'utf8');
    const lines = whole.split('\n');
    writeFileSync(file, lines.slice(0, 150).join('\n') + '\n' + lines[150]!.slice(0, 5));
    const metaFile = join(out(), 'greedy-never-hold.meta.json');
    writeFileSync(metaFile, killedSidecar(readFileSync(metaFile, 'utf8'), lines.slice(0, 150), 120));
    const resumed = ok([...TINY, '--out-dir', out()]);
    expect(resumed.stderr).toMatch(/row 8\/27 greedy-never-hold: greedy never\/hold, deals 11-410 ->/);
    expect(resumed.stderr).toMatch(/resuming .*greedy-never-hold\.csv: 149 of 400 deals already done/);
    const strip = (rs: Record<string, string>[]) => rs.map(({ seconds: _, ...r }) => r);
    expect(strip(records(join(out(), 'tactics.csv')))).toEqual(strip(before));
    const noMs = (text: string) => text.split('\n').map((l) => l.replace(/,[\d.e-]+$/, ''));
    expect(noMs(readFileSync(file, 'utf8'))).toEqual(noMs(whole));
  });

  it('--only runs a subset; the summary lists what is missing', () => {
    const d = join(dir, 'only');
    const r = ok([...TINY, '--only', 'greedy,solver-free,rules-privileged-2', '--out-dir', d]);
    expect(r.stderr.match(/^experiment tactics: row \d+\/11 /gm)).toHaveLength(22);
    const t = records(join(d, 'tactics.csv'));
    expect(t.map((x) => x['row'])).toEqual([...GREEDY, 'solver-free', 'rules-privileged-2']);
    // The same deals and options as the full run: the same figures.
    const full = new Map(records(join(out(), 'tactics.csv')).map((x) => [x['row']!, x]));
    for (const x of t) for (const k of ['won', 'diff', 'diff_low', 'diff_high']) expect(x[k], `${x['row']} ${k}`).toBe(full.get(x['row']!)![k]);
    const md = readFileSync(join(d, 'tactics.md'), 'utf8');
    expect(md).toMatch(/^- sampling-always-eager: not run$/m);
    expect(readFileSync(join(d, 'tactics.svg'), 'utf8').match(/<rect class="bar"/g)).toHaveLength(11);
  });

  it("in a clone (the rows' sidecars kept, not their CSVs) a chosen row is run again, the others are listed as not there", () => {
    const d = join(dir, 'only');
    const clone = join(dir, 'clone');
    cpSync(d, clone, { recursive: true });
    for (const f of readdirSync(clone)) if (f.endsWith('.csv') && f !== 'tactics.csv') rmSync(join(clone, f));
    const r = ok([...TINY, '--only', 'greedy-always-eager,greedy-never-hold', '--out-dir', clone]);
    expect(r.stderr).toMatch(/row 1\/2 greedy-always-eager: .*greedy-always-eager\.csv is not there \(only its sidecar\): running the row from the start/);
    const t = records(join(clone, 'tactics.csv'));
    expect(t.map((x) => x['row'])).toEqual(['greedy-always-eager', 'greedy-never-hold']);
    // The same deals and options: the same rows as before.
    const noMs = (text: string) => text.split('\n').map((l) => l.replace(/,[\d.e-]+$/, ''));
    for (const row of ['greedy-always-eager', 'greedy-never-hold'])
      expect(noMs(readFileSync(join(clone, `${row}.csv`), 'utf8')), row).toEqual(noMs(readFileSync(join(d, `${row}.csv`), 'utf8')));
    const md = readFileSync(join(clone, 'tactics.md'), 'utf8');
    expect(md).toMatch(/^- greedy-always-hold: .*greedy-always-hold\.csv is not there, only its sidecar \(the rows' CSVs are not kept in git\): run the row again to include it$/m);
    expect(md).toMatch(/^- sampling-always-eager: not run$/m);
  });

  it('refuses options other than those the directory was made with, before any work', () => {
    const r = runCli([...TINY.map((a) => (a === '400' ? '500' : a)), '--out-dir', out()]);
    expectUsageError(r, /greedy-always-eager\.csv was made with --from\/--count 11-410, not 11-510: give the options of the run that made/);
    const s = runCli([...TINY.map((a) => (a === '2000' ? '3000' : a)), '--only', 'solver', '--out-dir', out()]);
    expectUsageError(s, /solver-free\.csv was made with --max-nodes 2000, not 3000/);
  });

  it("refuses files in --out that are not the experiment's before any work, and leaves them as they were", () => {
    // Summary files where no row has a sidecar: not the experiment's.
    for (const name of ['tactics.csv', 'tactics.md', 'tactics.svg']) {
      const d = join(dir, `foreign-${name}`);
      mkdirSync(d);
      writeFileSync(join(d, name), 'my notes\n');
      const r = runCli([...TINY, '--only', 'greedy-always-eager', '--out-dir', d]);
      expectUsageError(r, new RegExp(`'${join(d, name)}' exists but has no row's sidecar \\(ROW\\.meta\\.json\\) beside it, so it is not a file of limited experiment tactics: remove it or choose another --out-dir$`));
      expect(readdirSync(d)).toEqual([name]);
      expect(readFileSync(join(d, name), 'utf8')).toBe('my notes\n');
    }
    // A chosen row's CSV without its sidecar: refused before the first row runs, not at its turn.
    const d = join(dir, 'foreign-row');
    mkdirSync(d);
    writeFileSync(join(d, 'greedy-never-hold.csv'), 'my notes\n');
    expectUsageError(
      runCli([...TINY, '--only', 'greedy', '--out-dir', d]),
      /'.*greedy-never-hold\.csv' exists but has no sidecar '.*greedy-never-hold\.meta\.json', so it is not a results file of limited batch: remove it or choose another --out$/,
    );
    expect(readdirSync(d)).toEqual(['greedy-never-hold.csv']);
    // A sidecar that is not a batch's, of a row not chosen: refused before the chosen row runs.
    const m = join(dir, 'foreign-meta');
    mkdirSync(m);
    writeFileSync(join(m, 'solver-free.meta.json'), 'my notes\n');
    expectUsageError(runCli([...TINY, '--only', 'greedy-always-eager', '--out-dir', m]), /solver-free\.meta\.json: not valid JSON/);
    expect(readdirSync(m)).toEqual(['solver-free.meta.json']);
  });

  it.each([
    [['--count', '0'], /--count must be a whole number >= 1, not '0'/],
    [['--max-nodes', 'lots'], /--max-nodes must be a whole number >= 1/],
    [['--sampling-count', '-1'], /--sampling-count must be a whole number >= 1/],
    [['--deals', '5'], /--deals is not an option any more: give --count N \(deals for each greedy row\)$/],
    [['--out', 'x'], /--out is not an option any more: give --out-dir DIR$/],
    [['--from', 'x'], /--from: deal number 'x'/],
    [['--from', '9007199254740991', '--count', '2'], /--from 9007199254740991 with 2 deals goes past the last deal number/],
    [['--only', 'chess'], /--only: 'chess' is neither a group \(greedy, sampling, solver, rules, players\) nor a row/],
    [['--only', ','], /--only needs groups or row names/],
    [['--sampling-player', 'greedy'], /--sampling-player must be a sampling player/],
    [['--sampling-player', 'sampling:samples=x'], /--sampling-player: player 'sampling:samples=x': samples must be a whole number/],
    [['--size', '9x9'], /--size '9x9' is not of the form DxR,CxW/],
    [['--workers', '0'], /--workers must be a whole number >= 1/],
    [['--out-dir', '-'], /--out-dir needs a directory name/],
    [['--bogus'], /unknown option '--bogus' \(see 'limited experiment tactics --help'\)/],
  ])('experiment tactics %j is one line, exit 2', (args, pattern) => {
    // The smallest run, should a bad flag be taken for a good one.
    const small = ['--count', '1', '--solver-count', '1', '--max-nodes', '1', '--sampling-count', '1', '--size', '1x5,4x3', '--no-progress'];
    const given = new Set(args.filter((a) => a.startsWith('--')));
    const rest = small.filter((a, i) => !given.has(a) && !(i > 0 && given.has(small[i - 1]!)));
    const outArgs = given.has('--out-dir') ? [] : ['--out-dir', join(dir, 'bad')];
    expectUsageError(runCli(['experiment', 'tactics', ...args, ...rest, ...outArgs]), pattern);
    expect(existsSync(join(dir, 'bad', 'tactics.csv'))).toBe(false);
  });

  it('an output directory that cannot be made is one line, exit 2', () => {
    writeFileSync(join(dir, 'plain'), 'x');
    expectUsageError(runCli([...TINY, '--out-dir', join(dir, 'plain', 'sub')]), /cannot write experiment file .*: .*not a directory/);
  });
});

describe('tactics.svg: a second panel for the rows a 0-100 % axis cannot show', () => {
  const line = (group: Group, name: string, baseline: string, rate: number, low: number, high: number): ChartLine => ({
    row: { group, name, baseline },
    counts: { deals: 1000 },
    rate,
    low,
    high,
    diff: null,
  });
  const greedy = [line('greedy', 'g-a', 'g-a', 0.08, 0.075, 0.085), line('greedy', 'g-b', 'g-a', 0.004, 0.003, 0.005)];
  const solver = [line('solver', 's-free', 's-free', 0.9, 0.85, 0.95), line('solver', 's-low', 's-free', 0.1, 0.05, 0.3)];
  const widths = (svg: string, cls: string) => new Map([...svg.matchAll(new RegExp(`<rect class="${cls}" data-row="([^"]+)" x="[\\d.]+" y="[\\d.]+" width="([\\d.]+)"`, 'g'))].map((m) => [m[1]!, Number(m[2])]));

  it('draws the groups whose intervals end below 15 % again on their own axis, each row once as a bar', () => {
    const svg = tacticsSvg({ title: 't', subtitle: [], lines: [...greedy, ...solver] });
    expectWellFormed(svg);
    const main = widths(svg, 'bar');
    const zoom = widths(svg, 'zoom-bar');
    expect([...main.keys()]).toEqual(['g-a', 'g-b', 's-free', 's-low']);
    // s-low's interval reaches 30 %: its group stays in the main panel only.
    expect([...zoom.keys()]).toEqual(['g-a', 'g-b']);
    expect(svg.match(/<g class="zoom-whisker"/g)).toHaveLength(2);
    expect(svg.match(/<line class="zoom-baseline"/g)).toHaveLength(1);
    expect(svg).toContain('the rows whose intervals end below 15 %, again at a finer scale');
    // The same rates, a longer scale: 8 % of a 0-10 % axis against 8 % of a 0-100 % one.
    expect(zoom.get('g-a')! / zoom.get('g-b')!).toBeCloseTo(main.get('g-a')! / main.get('g-b')!, 0);
    expect(zoom.get('g-a')!).toBeGreaterThan(8 * main.get('g-a')!);
    // Its axis ends at the first tick (of 2 %) past the highest interval end, 8.5 %.
    expect(svg).toMatch(/>10 %<\/text>/);
    const height = Number(svg.match(/<svg [^>]*height="(\d+)"/)![1]);
    expect(height).toBeGreaterThan(Number(tacticsSvg({ title: 't', subtitle: [], lines: solver }).match(/<svg [^>]*height="(\d+)"/)![1]) + 80);
  });

  it('draws one panel when the main axis is short already, or no group is that low', () => {
    for (const lines of [greedy, solver]) {
      const svg = tacticsSvg({ title: 't', subtitle: [], lines });
      expect(svg).not.toContain('zoom-');
      expect(widths(svg, 'bar').size).toBe(lines.length);
    }
  });
});
