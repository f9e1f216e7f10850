/**
 * `limited bench`: heuristics from module paths run in the workers (their effect on node counts
 * is visible and equals the same function solved in this process), the outputs (CSV, chart,
 * report, signature) and their determinism across worker counts, one-line errors for bad
 * heuristic modules (exit 2), deal sets; and the paired statistics on a hand-made table.
 * Runs the built CLI (dist/src/cli/main.js, which `npm test` builds first).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCsvLine } from '../src/batch/csv.js';
import { type BenchCell, pairedComparison, signTest, summarizeCells } from '../src/compare/stats.js';
import { expandDeals, loadSet, parseSet, rangeList } from '../src/compare/sets.js';
import { BOOK, FULL_SIZE, dealFromNumber, parseSize } from '../src/game/index.js';
import { Solver } from '../src/solver/index.js';
import { type Result, ROOT, expectUsageError as usageError, runCli as cli, withTempDir } from './cli-helpers.js';

const FIX = './test/fixtures';

function ok(args: string[]): Result {
  const r = cli(args);
  expect(r.status, r.stderr).toBe(0);
  return r;
}

/** A usage error, after the notes `limited bench` may print first. */
const expectUsageError = (r: Result, pattern?: RegExp): void => usageError(r, pattern, /^limited bench:/);

let dir = '';
withTempDir('limited-bench-test-', (d) => (dir = d));
const path = (name: string): string => join(dir, name);

interface Row {
  deal: number;
  heuristic: string;
  verdict: string;
  nodes: number;
  rest: string;
}

/** bench.csv of a run: its rows, with every column but ms. */
function csvRows(outDir: string): Row[] {
  const lines = readFileSync(join(outDir, 'bench.csv'), 'utf8').split('\n').filter((l) => l !== '');
  const head = parseCsvLine(lines[0]!);
  expect(head).toEqual([
    'deal', 'source', 'rules', 'size', 'search', 'heuristic', 'max_nodes', 'max_seconds', 'verdict', 'limit', 'nodes', 'states',
    'solution_length', 'best_home', 'ms',
  ]);
  return lines.slice(1).map((l) => {
    const f = parseCsvLine(l);
    expect(f).toHaveLength(head.length);
    return { deal: Number(f[0]), heuristic: f[5]!, verdict: f[8]!, nodes: Number(f[10]), rest: f.slice(0, -1).join(',') };
  });
}

const signature = (stdout: string): number => Number(/bench signature: (\d+) nodes/.exec(stdout)![1]);

describe('paired statistics', () => {
  it('sign test: exact two-sided binomial', () => {
    expect(signTest(9, 1)).toBeCloseTo(0.021484375, 12); // 2 * (1 + 10) / 2^10
    expect(signTest(1, 9)).toBeCloseTo(0.021484375, 12);
    expect(signTest(5, 0)).toBeCloseTo(0.0625, 12); // 2 / 2^5
    expect(signTest(5, 2)).toBeCloseTo(0.453125, 12); // 2 * (1 + 7 + 21) / 2^7
    expect(signTest(10, 20)).toBeCloseTo(0.09873714670538902, 12);
    // Large n: summed in logarithms (2^-1000 underflows a plain product).
    expect(signTest(600, 400) / 2.7284641560660184e-10).toBeCloseTo(1, 8);
    expect(signTest(3, 3)).toBe(1);
    expect(signTest(1, 0)).toBe(1);
    expect(signTest(0, 0)).toBe(1);
  });

  it('counts, node ratio and sign test on a hand-made table', () => {
    const c = (verdict: BenchCell['verdict'], nodes: number): BenchCell => ({ verdict, nodes, ms: nodes / 100 });
    // deal:              1            2            3                  4                  5                  6                  7            8                     9           10
    const base = [c('won', 100), c('won', 200), c('unsolvable', 1000), c('unknown', 5000), c('unknown', 5000), c('won', 10), c('won', 300), c('unknown', 5000), c('won', 80), c('unknown', 5000)];
    const other = [c('won', 50), c('won', 400), c('won', 250), c('won', 3000), c('unknown', 5000), c('unknown', 5000), c('won', 300), c('unsolvable', 4000), c('won', 20), c('unknown', 5000)];
    const p = pairedComparison(base, other);
    expect(p.onlyThis).toBe(2); // deals 4, 8
    expect(p.onlyBase).toBe(1); // deal 6
    expect(p.both).toBe(5); // deals 1, 2, 3, 7, 9: ratios 0.5, 2, 0.25, 1, 0.25
    expect(p.medianNodeRatio).toBe(0.5);
    expect(p.better).toBe(5); // 1, 3, 4, 8, 9
    expect(p.worse).toBe(2); // 2, 6
    expect(p.ties).toBe(3); // 5, 7, 10
    expect(p.p).toBeCloseTo(0.453125, 12);
    // Against itself: all ties.
    const self = pairedComparison(base, base);
    expect([self.onlyThis, self.onlyBase, self.better, self.worse, self.ties, self.p, self.medianNodeRatio]).toEqual([0, 0, 0, 0, 10, 1, 1]);
    // The per-heuristic figures.
    const s = summarizeCells(other);
    expect([s.deals, s.won, s.unsolvable, s.unknown, s.decided]).toEqual([10, 6, 1, 3, 7]);
    expect(s.totalNodes).toBe(50 + 400 + 250 + 3000 + 5000 + 5000 + 300 + 4000 + 20 + 5000);
    expect(s.nodes.median).toBe(1700); // sorted: 20 50 250 300 400 | 3000 4000 5000 5000 5000
    expect(s.nodes.mean).toBe(2302);
    expect(s.nodes.p90).toBe(5000);
    expect(s.nodesPerSecond).toBeCloseTo(100_000, 6);
  });

  it('deals both decided with no node (LockBound, before any search) count as decided by both and as ties, not in the node ratio', () => {
    const c = (verdict: BenchCell['verdict'], nodes: number): BenchCell => ({ verdict, nodes, ms: nodes / 100 });
    const base = [c('unsolvable', 0), c('unsolvable', 0), c('unsolvable', 0), c('won', 100), c('won', 100)];
    const other = [c('unsolvable', 0), c('unsolvable', 0), c('unsolvable', 0), c('won', 50), c('won', 40)];
    const p = pairedComparison(base, other);
    expect(p.both).toBe(5);
    // Over deals 4 and 5 only (0.5 and 0.4); counting the three 0/0 deals as 1 would give 1.
    expect(p.medianNodeRatio).toBeCloseTo(0.45, 12);
    expect([p.better, p.worse, p.ties]).toEqual([2, 0, 3]);
    expect(pairedComparison(base.slice(0, 3), other.slice(0, 3)).medianNodeRatio).toBeNull();
  });

  it('no deal decided by both: no node ratio', () => {
    const p = pairedComparison([{ verdict: 'unknown', nodes: 9, ms: 1 }], [{ verdict: 'won', nodes: 3, ms: 1 }]);
    expect(p.medianNodeRatio).toBeNull();
    expect([p.onlyThis, p.better, p.p]).toEqual([1, 1, 1]);
  });
});

describe('heuristic modules in the workers', () => {
  const SMALL = ['--from', '1', '--count', '30', '--size', '1x5,4x3', '--max-nodes', '3000', '--no-progress'];
  const heuristics = ['waste', `${FIX}/constant-heuristic.js`, `${FIX}/named-heuristic.js`, 'home'].join(',');
  let rows: Row[];
  let stdout: string;

  beforeAll(() => {
    stdout = ok(['bench', ...SMALL, '--heuristics', heuristics, '--workers', '2', '--out-dir', path('w2')]).stdout;
    rows = csvRows(path('w2'));
  });

  it('writes one row per deal and heuristic, in deal order', () => {
    expect(rows).toHaveLength(30 * 4);
    expect(rows.slice(0, 4).map((r) => r.heuristic)).toEqual(['waste', `${FIX}/constant-heuristic.js`, `${FIX}/named-heuristic.js`, 'home']);
    expect(rows.map((r) => r.deal)).toEqual(Array.from({ length: 120 }, (_, i) => 1 + Math.floor(i / 4)));
  });

  it('the module is what the workers search with: its node counts are those of the same function solved here', () => {
    const solver = new Solver();
    const size = parseSize('1x5,4x3');
    const constant = (): number => 0;
    for (const r of rows.filter((x) => x.heuristic === `${FIX}/constant-heuristic.js`)) {
      const s = solver.solve(dealFromNumber(r.deal, size), BOOK, { search: 'best', heuristic: constant, maxNodes: 3000 });
      expect([r.deal, r.verdict, r.nodes]).toEqual([r.deal, s.verdict, s.nodes]);
    }
  });

  it('its effect on node counts is visible: the constant heuristic differs from waste, the named export equals home', () => {
    const nodes = (h: string): number[] => rows.filter((r) => r.heuristic === h).map((r) => r.nodes);
    expect(nodes(`${FIX}/constant-heuristic.js`)).not.toEqual(nodes('waste'));
    expect(nodes(`${FIX}/named-heuristic.js`)).toEqual(nodes('home'));
  });

  it('prints the table, the paired comparison and the signature (the total of the nodes)', () => {
    expect(stdout).toMatch(/^heuristic\s+decided\s+won\s+unknown\s+nodes median\s+mean\s+p90\s+ms median\s+mean\s+p90\s+nodes\/s$/m);
    expect(stdout).toMatch(/^paired with waste \(the first heuristic\)/m);
    expect(stdout).toMatch(/^heuristic\s+only it\s+only waste\s+both\s+node ratio\s+better\s+worse\s+ties\s+sign test p$/m);
    expect(signature(stdout)).toBe(rows.reduce((t, r) => t + r.nodes, 0));
    expect(stdout).toMatch(/deterministic/);
  });

  it('gives the same rows (but ms) and signature with one worker', () => {
    const one = ok(['bench', ...SMALL, '--heuristics', heuristics, '--workers', '1', '--chunk', '7', '--out-dir', path('w1')]);
    expect(csvRows(path('w1')).map((r) => r.rest)).toEqual(rows.map((r) => r.rest));
    expect(signature(one.stdout)).toBe(signature(stdout));
  });

  it('draws the chart: one line per heuristic, axes and legend', () => {
    const svg = readFileSync(path('w2/bench.svg'), 'utf8');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg.match(/<path /g)).toHaveLength(4);
    expect(svg).toContain('node budget per search (log scale)');
    expect(svg).toContain('deals decided (of 30)');
    for (const h of ['waste', 'home', 'constant-heuristic.js', 'named-heuristic.js']) expect(svg).toContain(h);
    const json = JSON.parse(readFileSync(path('w2/bench.json'), 'utf8')) as { signature: { nodes: number }; heuristics: string[] };
    expect(json.signature.nodes).toBe(signature(stdout));
    expect(json.heuristics).toHaveLength(4);
    expect(readFileSync(path('w2/bench.txt'), 'utf8')).toBe(stdout);
  });

  it('takes a .ts under src/ from its build under dist/', () => {
    const r = ok(['bench', '--from', '1', '--count', '3', '--size', '1x5,4x3', '--max-nodes', '500', '--no-progress', '--heuristics', 'waste,src/compare/example-heuristic.ts', '--out-dir', path('ts')]);
    expect(r.stdout).toContain('src/compare/example-heuristic.ts');
    expect(csvRows(path('ts'))).toHaveLength(6);
  });

  it('names one deal and one heuristic in the singular in its signature line', () => {
    const r = ok(['bench', '--from', '4', '--count', '1', '--size', '1x5,4x3', '--max-nodes', '500', '--no-progress', '--heuristics', 'waste', '--out-dir', path('one')]);
    expect(r.stdout).toMatch(/bench signature: \d+ nodes \(total over 1 deal x 1 heuristic; deterministic/);
  });
});

describe('the output directory', () => {
  const run = (out: string, heuristics = 'waste', extra: string[] = []): Result =>
    cli(['bench', '--from', '4', '--count', '2', '--size', '1x5,4x3', '--max-nodes', '500', '--no-progress', '--heuristics', heuristics, '--out-dir', out, ...extra]);

  it("refuses an earlier benchmark without --force, and replaces it with --force (a benchmark does not resume)", () => {
    const out = path('again');
    expect(run(out, 'waste').status).toBe(0);
    const before = readFileSync(join(out, 'bench.json'), 'utf8');
    expectUsageError(run(out, 'home,waste'), /holds an earlier benchmark \(.*bench\.json\): give --force to replace it, or choose another --out-dir$/);
    expect(readFileSync(join(out, 'bench.json'), 'utf8')).toBe(before);
    const r = run(out, 'home,waste', ['--force']);
    expect(r.status, r.stderr).toBe(0);
    expect(csvRows(out).map((r) => r.heuristic)).toEqual(['home', 'waste', 'home', 'waste']);
    expect((JSON.parse(readFileSync(join(out, 'bench.json'), 'utf8')) as { heuristics: string[] }).heuristics).toEqual(['home', 'waste']);
  });

  it("refuses, before any work, a file in the way that is not a benchmark's, and leaves it as it was", () => {
    // bench.csv, bench.svg or bench.txt without a bench.json beside it.
    for (const name of ['bench.csv', 'bench.svg', 'bench.txt']) {
      const out = path(`foreign-${name}`);
      mkdirSync(out);
      writeFileSync(join(out, name), 'my notes\n');
      expectUsageError(run(out), new RegExp(`'${join(out, name)}' exists but has no '${join(out, 'bench.json')}' beside it, so it is not a file of limited bench: remove it or choose another --out-dir$`));
      expect(readdirSync(out)).toEqual([name]);
      expect(readFileSync(join(out, name), 'utf8')).toBe('my notes\n');
    }
    // A bench.json that is not a benchmark's: another JSON, or not JSON at all.
    for (const text of ['{"format": "limited-batch/1"}\n', 'not json\n']) {
      const out = path(`foreign-json-${text.length}`);
      mkdirSync(out);
      writeFileSync(join(out, 'bench.json'), text);
      expectUsageError(run(out), /'.*bench\.json' exists but is not the report of limited bench \(no "format": "limited-bench\/1"\): remove it or choose another --out-dir$/);
      expect(readFileSync(join(out, 'bench.json'), 'utf8')).toBe(text);
    }
  });
});

describe('bad heuristics: one line naming the module, exit 2', () => {
  const run = (h: string, extra: string[] = []): Result =>
    cli(['bench', '--from', '1', '--count', '2', '--max-nodes', '3000', '--no-progress', '--heuristics', `waste,${h}`, '--out-dir', path('bad'), ...extra]);

  it('a missing module', () => {
    expectUsageError(run(`${FIX}/nowhere.js`), /heuristic module '\.\/test\/fixtures\/nowhere\.js' not found: no such file '.*nowhere\.js'/);
  });
  it('a module without the export', () => {
    expectUsageError(run(`${FIX}/no-export-heuristic.js`), /heuristic module '.*no-export-heuristic\.js': it has no default export and no export named 'heuristic'/);
  });
  it('a module that throws when called (checked in the main thread before the pool starts)', () => {
    expectUsageError(run(`${FIX}/throwing-heuristic.js`), /heuristic '.*throwing-heuristic\.js' threw on the opening position of deal 1: Error: boom/);
  });
  it('a module that throws later, in a worker, during a search', () => {
    expectUsageError(run(`${FIX}/late-throwing-heuristic.js`), /^limited: deal \d+: heuristic '.*late-throwing-heuristic\.js' threw Error: tired after 5000 calls$/);
  });
  it('scores that are not integers', () => {
    expectUsageError(run(`${FIX}/fraction-heuristic.js`), /heuristic '.*fraction-heuristic\.js' returned 0\.5: scores must be integers from -2\^20 to 2\^20/);
  });
  it('a heuristic that changes the position', () => {
    expectUsageError(run(`${FIX}/mutating-heuristic.js`), /heuristic '.*mutating-heuristic\.js' changed the position it was given/);
  });
  it('a module that does not load', () => {
    expectUsageError(run(`${FIX}/syntax-error-heuristic.js`), /heuristic module '.*syntax-error-heuristic\.js' failed to load: SyntaxError/);
  });
  it('TypeScript outside the build', () => {
    const ts = path('mine.ts');
    writeFileSync(ts, 'export default (): number => 0;\n');
    expectUsageError(run(ts), /heuristic module '.*mine\.ts' is TypeScript, which Node cannot load: compile it to JavaScript first/);
  });
  it('an unknown built-in name lists the built-in ones', () => {
    expectUsageError(run('wastee'), /unknown heuristic 'wastee' \(built-in: blend, home, .*; or a module path such as \.\/my-heuristic\.js\)/);
  });
  it('a heuristic given twice', () => {
    expectUsageError(run('waste'), /'waste' is given twice/);
  });
});

describe('deal sets', () => {
  it('the named sets load and hold what they say', () => {
    const book = loadSet('book-1k');
    expect([book.source, book.deals.length, book.deals[0], book.deals[999]]).toEqual(['v1', 1000, 1, 1000]);
    const pysol = loadSet('pysol-1k');
    expect([pysol.source, pysol.rules.secondDeal, pysol.deals.length]).toEqual(['pysol', 'none', 1000]);
    const hard = loadSet('hard-100');
    expect(hard.deals).toHaveLength(100);
    expect(hard.chosen).toMatch(/portfolio/);
  });

  it('ranges and numbers; errors name the file', () => {
    expect(expandDeals([3, '5-7', ' 10 '], 'f')).toEqual([3, 5, 6, 7, 10]);
    expect(() => expandDeals([3, '2-4'], 'f.json')).toThrow(/f\.json: deal 3 is in "deals" twice/);
    expect(() => expandDeals(['7-5'], 'f.json')).toThrow(/f\.json: "7-5" in "deals" is not a deal number or a range/);
    expect(() => parseSet('{"name":"x","source":"v1","rules":"book","deals":[1,2],"count":3}', 'x.json')).toThrow(/x\.json: "count" is 3 but "deals" holds 2 deals/);
    expect(() => parseSet('{"name":"x","source":"web","rules":"book","deals":[1]}', 'x.json')).toThrow(/"source" must be "v1"/);
    expect(() => parseSet('not json', 'x.json')).toThrow(/x\.json: not valid JSON/);
    // A range's name (and bench's default directory) says the size when it is not the full one.
    expect(rangeList('v1', 1, 10, BOOK, FULL_SIZE).name).toBe('deals-1-10');
    expect(rangeList('v1', 1, 10, BOOK, parseSize('1x5,4x3')).name).toBe('deals-1-10-1x5-4x3');
    // The file named once: a missing rules string, then rules that do not parse.
    expect(() => parseSet('{"name":"x","source":"v1","rules":"","deals":[1]}', 'x.json')).toThrow(/^x\.json: "rules" must be a non-empty string$/);
    expect(() => parseSet('{"name":"x","source":"v1","rules":"bogus","deals":[1]}', 'x.json')).toThrow(/^x\.json: "rules": [^]*bogus/);
  });

  it('--deal-set takes a set file by path; an unknown name lists the sets', () => {
    const file = path('three.json');
    writeFileSync(file, JSON.stringify({ name: 'three', source: 'v1', rules: 'book', size: '1x5 4x3', deals: [3, '5-6'] }));
    ok(['bench', '--deal-set', file, '--heuristics', 'waste,home', '--max-nodes', '500', '--no-progress', '--out-dir', path('three')]);
    expect(csvRows(path('three')).map((r) => r.deal)).toEqual([3, 3, 5, 5, 6, 6]);
    expectUsageError(cli(['bench', '--deal-set', 'nope', '--out-dir', path('nope')]), /unknown deal set 'nope' \(sets: book-1k, hard-100, pysol-1k; or give a set file's path\)/);
    expectUsageError(cli(['bench', '--deal-set', 'book-1k', '--from', '1', '--count', '5']), /give one of --from\/--count, --pysol-range and --deal-set/);
  });

  it("--pysol-range's limits are in the help, and what is past them is refused", () => {
    const help = ok(['bench', '--help']).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--pysol-range <a-b> PySolFC game numbers A to B, 1 <= A <= B <= 9007199254740991, at most 10,000,000 games (plain game numbers: no ms ones;');
    expectUsageError(cli(['bench', '--pysol-range', 'ms1-ms5']), /--pysol-range must be A-B/);
    expectUsageError(cli(['bench', '--pysol-range', '1-10000001']), /at most 10,000,000/);
  });
});

describe('the solve bench (dist/bench/solve.js) and the options of the bench scripts', () => {
  /** Runs dist/bench/FILE with the arguments. */
  const script = (file: string, args: string[]): Result => {
    const r = spawnSync(process.execPath, [join(ROOT, 'dist', 'bench', file), ...args], { cwd: ROOT, encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const run = (args: string[]): Result => script('solve.js', args);
  /** A report of solve.js with no searches but the default preset, `DIR/NAME.md` with its CSV beside it. */
  const report = (dir: string, name: string, args: string[]): void => {
    const r = run([...args, '--searches', '', '--out', join(dir, `${name}.md`), '--csv', join(dir, `${name}.csv`)]);
    expect(r.status, r.stderr).toBe(0);
  };
  /** The table's rows: rules, deals, search, heuristic, decided %. */
  const rows = (stdout: string): string[][] =>
    stdout.split('\n').filter((l) => /^\| (book|pysol) /.test(l)).map((l) => l.split('|').slice(1, 6).map((c) => c.trim()));

  it("runs the solver's default preset beside the searches unless --presets says otherwise; node budgets are deterministic", () => {
    const args = ['--count', '2', '--rules', 'book', '--max-nodes', '3000', '--max-seconds', '60'];
    const a = run(args);
    expect(a.status, a.stderr).toBe(0);
    expect(rows(a.stdout).map((r) => `${r[2]} ${r[3]}`)).toEqual(['dfs –', 'best blend', 'preset portfolio –']);
    expect(a.stdout).toMatch(/^- command: `node dist\/bench\/solve\.js --count 2 /m);
    // How fast memory is read, before and after the deals: three sizes each, in nanoseconds.
    const memory = /^- memory: a random read took (\d+) ns in 4 MB, (\d+) ns in 16 MB, (\d+) ns in 64 MB before the run, (\d+), (\d+), (\d+) ns after$/m.exec(a.stdout);
    expect(memory, a.stdout).not.toBeNull();
    for (const ns of memory!.slice(1)) expect(Number(ns)).toBeGreaterThan(0);
    const none = run([...args, '--presets', '', '--searches', 'dfs']);
    expect(none.status, none.stderr).toBe(0);
    expect(rows(none.stdout).map((r) => r[2])).toEqual(['dfs']);
    // The same node-budgeted dfs row both times (decided %, then the node figures).
    const dfsLine = (s: string): string => s.split('\n').find((l) => l.startsWith('| book | 1..2 | dfs '))!.split('|').slice(1, 10).join('|');
    expect(dfsLine(none.stdout)).toBe(dfsLine(a.stdout));
    // Neither deal is lost: no unsolvable verdict, none by LockBound.
    expect(dfsLine(a.stdout)).toContain('| 0.0 (0.0) |');
    expect(a.stdout).toContain('| unsolvable % (by LockBound) |');
  });

  it('--csv writes one row a deal and combination, agreeing with the table; --first runs a later part of the set', () => {
    const dir = mkdtempSync(join(tmpdir(), 'limited-bench-csv-'));
    try {
      const file = join(dir, 'solve.csv');
      // Book deal 15 is proved lost by LockBound; the pysol rows name PySolFC game numbers.
      const r = run(['--count', '15', '--rules', 'book,pysol', '--max-nodes', '2000', '--max-seconds', '60', '--searches', 'dfs,best', '--presets', '', '--csv', file]);
      expect(r.status, r.stderr).toBe(0);
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      expect(lines[0]).toBe('rules,deal,search,heuristic,verdict,proof,limit,nodes,states,ms,best_home');
      const rows = lines.slice(1).map((l) => l.split(','));
      expect(rows).toHaveLength(2 * 2 * 15);
      expect(rows.slice(0, 3).map((x) => x.slice(0, 4).join(','))).toEqual(['book,1,dfs,', 'book,2,dfs,', 'book,3,dfs,']);
      expect(rows[15]!.slice(0, 4).join(',')).toBe('book,1,best,blend');
      expect(rows[30]!.slice(0, 3).join(',')).toBe('pysol,pysol 1,dfs');
      const d15 = rows.find((x) => x[0] === 'book' && x[1] === '15' && x[2] === 'dfs')!;
      expect(d15.slice(4, 8)).toEqual(['unsolvable', 'locks', '', '0']);
      for (const x of rows) {
        expect(['won', 'unsolvable', 'unknown']).toContain(x[4]);
        expect(x[6]).toBe(x[4] === 'unknown' ? 'nodes' : '');
        expect(Number(x[7])).toBeLessThanOrEqual(2000);
      }
      // The table's won % per combination is the CSV's count of won rows.
      for (const [rules, search, heuristic] of [['book', 'dfs', '–'], ['book', 'best', 'blend'], ['pysol', 'dfs', '–'], ['pysol', 'best', 'blend']]) {
        const won = rows.filter((x) => x[0] === rules && x[2] === search && x[4] === 'won').length;
        const line = r.stdout.split('\n').find((l) => l.startsWith(`| ${rules} | `) && l.includes(`| ${search} | ${heuristic} |`))!;
        expect(line.split('|')[6]!.trim()).toBe(((100 * won) / 15).toFixed(1));
      }
      expect(run(['--count', '1', '--csv', join(dir, 'no', 'such', 'x.csv')]).stderr).toMatch(/^solve bench: cannot write --csv '.*x\.csv': ENOENT/);

      // --first: deals 14..15 are the last two of the run above, row for row (node budgets).
      const part = join(dir, 'part.csv');
      const p = run(['--from', '14', '--count', '2', '--rules', 'book,pysol', '--max-nodes', '2000', '--max-seconds', '60', '--searches', 'dfs', '--presets', '', '--csv', part]);
      expect(p.status, p.stderr).toBe(0);
      expect(p.stdout).toContain('- deals: book (book): deal numbers 14..15; pysol (pysol): PySolFC game numbers 14..15');
      expect(p.stdout).toMatch(/^\| book \| 14\.\.15 \| dfs \|/m);
      expect(p.stdout).toMatch(/^\| pysol \| PySolFC 14\.\.15 \| dfs \|/m);
      const partRows = readFileSync(part, 'utf8').trimEnd().split('\n').slice(1).map((l) => l.split(','));
      const noMs = (x: string[]): string => [...x.slice(0, 9), x[10]].join(',');
      const whole = (rules: string, deal: string): string[] => rows.find((x) => x[0] === rules && x[1] === deal && x[2] === 'dfs')!;
      expect(partRows.map(noMs)).toEqual([whole('book', '14'), whole('book', '15'), whole('pysol', 'pysol 14'), whole('pysol', 'pysol 15')].map(noMs));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--cold solves each deal by `limited solve` in a process of its own: under a node budget, the rows of one process', () => {
    const dir = mkdtempSync(join(tmpdir(), 'limited-bench-cold-'));
    try {
      // Two deals of each rules; each search and the default preset (their options go to the CLI:
      // best-first with `home`, whose states and cards home differ from the CLI's default blend's).
      const args = ['--from', '14', '--count', '2', '--rules', 'book,pysol', '--max-nodes', '1500', '--max-seconds', '60', '--searches', 'dfs,best', '--heuristics', 'home'];
      const cold = run([...args, '--cold', '--csv', join(dir, 'cold.csv')]);
      expect(cold.status, cold.stderr).toBe(0);
      const one = run([...args, '--csv', join(dir, 'one.csv')]);
      expect(one.status, one.stderr).toBe(0);
      expect(cold.stdout).toContain('- each deal in a new process (limited solve N --json)');
      expect(one.stdout).toContain('- one process, the deals one after another');
      // Every column but ms (the 10th) is the same, row for row; deal 15 is proved lost by LockBound.
      const noMs = (file: string): string[] => readFileSync(join(dir, file), 'utf8').trimEnd().split('\n').map((l) => l.split(',').filter((_, k) => k !== 9).join(','));
      const rowsCold = noMs('cold.csv');
      expect(rowsCold).toHaveLength(1 + 2 * 3 * 2);
      expect(rowsCold).toEqual(noMs('one.csv'));
      expect(rowsCold).toContain('book,15,preset portfolio,,unsolvable,locks,,0,0,0');
      expect(rowsCold).toContain('book,14,best,home,unknown,,nodes,1500,3010,18');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('summary.js sums the reports of a directory by rules and budget, from their CSV rows; overlapping files are refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'limited-bench-summary-'));
    try {
      // Deals 13-15 and 16-17 of each rules under a node budget (book deal 15 is proved lost by
      // LockBound), one more rules at another budget, and files that do not count.
      const bench = (name: string, extra: string[]): void => report(dir, name, [...extra, '--max-nodes', '800']);
      bench('a', ['--from', '13', '--count', '3', '--rules', 'book,pysol', '--max-seconds', '60']);
      bench('b', ['--from', '16', '--count', '2', '--rules', 'book,pysol', '--max-seconds', '60']);
      bench('c', ['--from', '1', '--count', '2', '--rules', 'book', '--max-seconds', '30']);
      const dfsOnly = run(['--count', '1', '--rules', 'book', '--max-nodes', '100', '--searches', 'dfs', '--presets', '', '--out', join(dir, 'd.md'), '--csv', join(dir, 'd.csv')]);
      expect(dfsOnly.status, dfsOnly.stderr).toBe(0);
      writeFileSync(join(dir, 'e.md'), readFileSync(join(dir, 'c.md')));
      writeFileSync(join(dir, 'notes.md'), '# Not a report\n');

      const summary = (extra: string[] = []): Result => script('summary.js', ['--dir', dir, ...extra]);
      const r = summary(['--out', join(dir, 'SUMMARY.txt')]);
      expect(r.status, r.stderr).toBe(0);
      expect(readFileSync(join(dir, 'SUMMARY.txt'), 'utf8')).toBe(r.stdout);
      // The counts of the CSV rows of the preset, file by file and in all.
      const csvRows = (name: string): string[][] => readFileSync(join(dir, `${name}.csv`), 'utf8').trimEnd().split('\n').slice(1).map(parseCsvLine).filter((x) => x[2] === 'preset portfolio');
      const decided = (rows: string[][], rules: string): number => rows.filter((x) => x[0] === rules && x[4] !== 'unknown').length;
      const section = (title: string): string[] => {
        const lines = r.stdout.split('\n');
        const at = lines.indexOf(`## ${title}`);
        expect(at, r.stdout).toBeGreaterThan(0);
        return lines.slice(at + 4, lines.indexOf('', at + 4));
      };
      const book = section('book: 60 s, 800 nodes a deal');
      expect(book.map((l) => l.split('|')[1]!.trim())).toEqual(['a', 'b', '**all 2**']);
      expect(book[0]).toMatch(/^\| a \| 13-15 \| /);
      const all = decided(csvRows('a'), 'book') + decided(csvRows('b'), 'book');
      expect(book[2]).toContain(`| 13-17 (5) | **${all} (${((100 * all) / 5).toFixed(1)} %; `);
      // Deal 15's proof by LockBound: one proved lost, by LockBound.
      expect(book[0]!.split('|')[5]!.trim()).toBe('1 (1)');
      expect(section('pysol: 60 s, 800 nodes a deal').map((l) => l.split('|')[2]!.trim())).toEqual(['13-15', '16-17', '13-17 (5)']);
      expect(section('book: 30 s, 800 nodes a deal').length).toBe(2);
      expect(r.stdout).toContain('Left out: d.md (no rows of preset portfolio)');
      expect(r.stdout).not.toContain('notes');

      // A second file with deals 1-2 of book at 30 s: refused, naming both.
      writeFileSync(join(dir, 'e.csv'), readFileSync(join(dir, 'c.csv')));
      const twice = summary();
      expect(twice.status).toBe(1);
      expect(twice.stderr).toMatch(/^summary bench: c and e share book deals \(1\.\.2 and 1\.\.2\): a deal would be counted twice\n$/);
      expect(summary(['--dir', join(dir, 'none')]).stderr).toMatch(/^summary bench: cannot read --dir '.*none': ENOENT\n$/);

      // A solution that failed to verify (a row 'error'): counted in errors, not as decided.
      const bad = join(dir, 'bad');
      mkdirSync(bad);
      writeFileSync(join(bad, 'a.md'), readFileSync(join(dir, 'a.md')));
      writeFileSync(join(bad, 'a.csv'), readFileSync(join(dir, 'a.csv'), 'utf8').replace(/^(book,15,preset portfolio,),unsolvable,locks,/m, '$1,error,,'));
      const e = summary(['--dir', bad]);
      expect(e.status, e.stderr).toBe(0);
      expect(e.stdout).toMatch(/^\| a \| 13-15 \| 0 \(0\.0 %\) \| 0 \| 0 \(0\) \| 2 \| 1 \| /m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('longer.js draws deals a budget left unknown and solves them again with a larger one; its counts and estimates are those of its rows', () => {
    const dir = mkdtempSync(join(tmpdir(), 'limited-bench-longer-'));
    try {
      // Book deals 13-20 at 800 nodes (15 is proved lost by LockBound, the rest unknown), and
      // deals 1-2 at another budget.
      const bench = (name: string, extra: string[]): void => report(dir, name, [...extra, '--rules', 'book']);
      bench('a', ['--from', '13', '--count', '8', '--max-nodes', '800', '--max-seconds', '60']);
      bench('b', ['--from', '1', '--count', '2', '--max-nodes', '800', '--max-seconds', '30']);
      const unknown = readFileSync(join(dir, 'a.csv'), 'utf8').trimEnd().split('\n').slice(1).map(parseCsvLine)
        .filter((x) => x[4] === 'unknown').map((x) => Number(x[1]));
      expect(unknown).toEqual([13, 14, 16, 17, 18, 19, 20]);

      const longer = (extra: string[]): Result => script('longer.js', ['--dir', dir, '--rules', 'book', ...extra]);
      const r = longer(['--budget', '60 s, 800 nodes', '--sample', '3', '--seed', 'test', '--max-seconds', '60', '--max-nodes', '300000', '--workers', '2', '--csv', join(dir, 'l.csv')]);
      expect(r.status, r.stderr).toBe(0);
      // The draw: Fisher-Yates over the unknown deals in order, with seedrandom('test'); the first 3.
      const rng = seedrandom('test');
      const order = [...unknown];
      for (let i = order.length - 1; i > 0; i--) {
        const j = Math.floor(rng() * (i + 1));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      const drawn = order.slice(0, 3).sort((x, y) => x - y);
      const rows = readFileSync(join(dir, 'l.csv'), 'utf8').trimEnd().split('\n').slice(1).map(parseCsvLine);
      expect(rows.map((x) => Number(x[1]))).toEqual(drawn);
      // Each deal as `limited solve` gives it under the node budget (deterministic).
      for (const x of rows) {
        const j = JSON.parse(ok(['solve', x[1]!, '--max-nodes', '300000', '--max-seconds', '60', '--json']).stdout) as { verdict: string; nodes: number };
        expect([x[2], Number(x[5])]).toEqual([j.verdict, j.nodes]);
      }
      const k = rows.filter((x) => x[2] !== 'unknown').length;
      const won = rows.filter((x) => x[2] === 'won').length;
      expect(r.stdout).toContain('- from: the rows of `preset portfolio` under book at 60 s, 800 nodes a deal in a (');
      expect(r.stdout).toContain('8 deals, 1 decided (12.5 %: 0 won, 1 proved lost), 7 unknown');
      const row = r.stdout.split('\n').find((l) => l.startsWith('| 60 s | '))!.split('|').map((c) => c.trim());
      expect(row.slice(2, 5)).toEqual([String(k), String(won), String(k - won)]);
      // All 8 deals: the 1 decided, and the sample's share of the 7 unknown.
      expect(row[6]).toMatch(new RegExp(`^${((100 * (1 + (7 * k) / 3)) / 8).toFixed(1)} % \\(`));
      expect(row[7]).toMatch(new RegExp(`^${((100 * ((7 * won) / 3)) / 8).toFixed(1)} % \\(`));

      // Errors: no --rules; two budgets and none chosen; rules with no report.
      expect(script('longer.js', ['--dir', dir]).stderr).toBe('longer bench: --rules is required (see --help)\n');
      const two = longer([]);
      expect(two.status).toBe(2);
      expect(two.stderr).toBe("longer bench: the reports of book have budgets '30 s, 800 nodes', '60 s, 800 nodes': choose one with --budget\n");
      expect(longer(['--budget', '5 s']).stderr).toMatch(/^longer bench: no report of book has the budget '5 s'/);
      expect(script('longer.js', ['--dir', dir, '--rules', 'pysol']).stderr).toMatch(/^longer bench: no report in .* has rows of preset portfolio under rules 'pysol'/);
      expect(longer(['--budget', '60 s, 800 nodes', '--out', join(dir, 'no', 'x.md')]).stderr).toMatch(/^longer bench: cannot write --out '.*x\.md': ENOENT\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the batch bench: deals a second in this thread and through the pool, the same rows, and the memory line', () => {
    const r = script('batch.js', ['--count', '6', '--reps', '1', '--workers', '1', '--max-nodes', '500']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^memory: a random read took \d+ ns in 4 MB, \d+ ns in 16 MB, \d+ ns in 64 MB before the runs, \d+, \d+, \d+ ns after$/m);
    expect(r.stdout).toMatch(/^\| in-process \| [\d.]+ \| [\d.]+ \|/m);
    expect(r.stdout).toMatch(/^\| batch, 1 worker \| [\d.]+ \| [\d.]+ \|/m);
    expect(r.stdout).toContain('rows: identical in every run (timing aside)');
  });

  it('bad options, here and in the batch bench: exit 2, one line', () => {
    const batch = (args: string[]): Result => script('batch.js', args);
    for (const [r, pattern] of [
      [run(['--searches', 'bfs']), /^solve bench: unknown search 'bfs'/],
      [run(['--presets', 'nope']), /^solve bench: unknown preset 'nope'/],
      [run(['--count', '0']), /^solve bench: --count must be a whole number >= 1, not '0'/],
      [run(['--from', '0']), /^solve bench: --from must be a whole number >= 1, not '0'/],
      [run(['--from', '9007199254740991', '--count', '2']), /^solve bench: --from 9007199254740991 --count 2 runs past 2\^53-1/],
      [run(['--bogus']), /^solve bench: unknown option '--bogus' \(see --help\)/],
      [run(['--deals', '5']), /^solve bench: --deals is not an option any more: give --count N/],
      [run(['extra']), /^solve bench: too many arguments/],
      [batch(['--count', 'x']), /^batch bench: --count must be a whole number >= 1, not 'x'/],
      [batch(['--bogus']), /^batch bench: unknown option '--bogus' \(see --help\)/],
      [script('moves.js', ['--max', '5']), /^moves bench: --max is not an option any more: give --max-moves M/],
      [script('players.js', ['--sampling-count', '-1']), /^players bench: --sampling-count must be a whole number >= 0, not '-1'/],
      [script('threads.js', ['--deals', '1']), /^threads bench: --deals is not an option any more: give --deal-list LIST/],
    ] as const) {
      expect(r.status, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(pattern);
    }
  });
});
