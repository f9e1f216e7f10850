/**
 * The package as another project gets it: `npm pack` of the build (`npm test` builds first),
 * installed into a scratch project, then imported by name, type-checked against its .d.ts,
 * and its `limited` command run from node_modules/.bin. Its answers are held against the
 * checkout's CLI for the same deal and options.
 *
 * Offline: the scratch project's lockfile is made from this repository's (its production
 * entries, with their integrity hashes), so `npm ci --offline` takes every dependency from the
 * npm cache that the checkout's `npm ci` filled. (`npm install ./x.tgz --offline` would need the
 * registry's metadata of each dependency, which `npm ci` does not cache.)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, resultRows, runCli, withTempDir } from './cli-helpers.js';

let dir = '';
withTempDir('limited-library-', (d) => (dir = d));

const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string; version: string; dependencies: Record<string, string>; bin: Record<string, string>; engines: Record<string, string>;
};
const TARBALL = `${PKG.name}-${PKG.version}.tgz`;

/** Runs a command (no shell) with node's directory first on PATH: the bin's `#!/usr/bin/env node` finds this node. */
function sh(cmd: string, args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '', PATH: `${dirname(process.execPath)}${delimiter}${process.env['PATH'] ?? ''}` },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr + (r.error ? String(r.error) : '') };
}

function ok(r: { status: number | null; stdout: string; stderr: string }): string {
  expect(r.status, r.stderr + r.stdout).toBe(0);
  return r.stdout;
}

interface PackInfo {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

/** The first fenced js block of docs/library.md: its runnable example. */
function docsExample(): string {
  const m = /^```js\n([\s\S]*?)^```$/m.exec(readFileSync(join(ROOT, 'docs', 'library.md'), 'utf8'));
  expect(m, 'docs/library.md has a ```js example').not.toBeNull();
  return m![1]!;
}

/** The scratch project's lockfile: the package from the tarball, its dependencies as this repository's lockfile pins them. */
function scratchLock(): string {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  const tgz = `file:${TARBALL}`;
  const packages: Record<string, unknown> = {
    '': { name: 'scratch', dependencies: { [PKG.name]: tgz } },
    [`node_modules/${PKG.name}`]: { version: PKG.version, resolved: tgz, dependencies: PKG.dependencies, bin: PKG.bin, engines: PKG.engines },
  };
  for (const [path, entry] of Object.entries(lock.packages)) if (path !== '' && entry.dev !== true) packages[path] = entry;
  return JSON.stringify({ name: 'scratch', lockfileVersion: 3, requires: true, packages }, null, 2);
}

describe('the packed library', () => {
  let pack: PackInfo;
  let project = '';
  /** The scratch project, once installed: each test after the install needs it (run alone, they fail here). */
  const installed = (): string => {
    expect(project, 'the scratch project is installed by the test before').not.toBe('');
    return project;
  };

  it('packs the build and nothing else, and small', () => {
    pack = (JSON.parse(ok(sh('npm', ['pack', '--json', '--pack-destination', dir], ROOT))) as PackInfo[])[0]!;
    expect(pack.filename).toBe(TARBALL);
    const paths = pack.files.map((f) => f.path);
    for (const need of ['package.json', 'README.md', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/cli/main.js', 'dist/src/batch/worker.js', 'dist/src/solver/parallel-worker.js', 'dist/web/main.js', 'dist/web/style.css', 'bench/sets/book-1k.json', 'docs/library.md', 'docs/RULES.md'])
      expect(paths, need).toContain(need);
    const shipped = /^(package\.json|README\.md|CHANGELOG\.md|dist\/src\/.+\.(js|d\.ts)|dist\/web\/[^/]+|bench\/sets\/[^/]+\.json|docs\/[^/]+\.md)$/;
    expect(paths.filter((p) => !shipped.test(p))).toEqual([]);
    // Tests, results, sources, node_modules, the bench scripts and source maps stay out (the pattern above); and a stale build's modules, whose source is gone, too.
    const stale = paths.filter((p) => p.startsWith('dist/src/') && p.endsWith('.js') && !existsSync(join(ROOT, p.slice('dist/'.length).replace(/\.js$/, '.ts'))));
    expect(stale, 'built modules with no source would ship: remove dist/ and run npm run build').toEqual([]);
    expect(pack.size).toBeLessThan(1_000_000);
  });

  it('installs offline from the npm cache into a scratch project', () => {
    project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module', dependencies: { [PKG.name]: `file:${TARBALL}` } }));
    writeFileSync(join(project, 'package-lock.json'), scratchLock());
    writeFileSync(join(project, TARBALL), readFileSync(join(dir, TARBALL)));
    ok(sh('npm', ['ci', '--offline', '--no-audit', '--no-fund'], project));
    expect(existsSync(join(project, 'node_modules', PKG.name, 'dist', 'src', 'index.js'))).toBe(true);
    // A project of its own: a batch's sidecar must not name this repository's commit as the package's.
    ok(sh('git', ['init', '-q'], project));
    ok(sh('git', ['-c', 'user.email=t@example.org', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'scratch'], project));
  });

  it('imports by name, solves, verifies and plays as the CLI does', () => {
    installed();
    const script = `
import { Position, UserError, dealFromNumber, dealFromPysol, formatRules, parseSize, solve, verify } from '${PKG.name}';
const deal = dealFromNumber(4, parseSize('1x5,4x3'));
const r = solve(deal);
const p = new Position(deal);
for (const m of r.solution) p.play(m);
let bad = null;
try { new Position(deal).play('c1>f'); } catch (e) { bad = { user: e instanceof UserError, message: e.message }; }
let internal = null;
try { await import('${PKG.name}/dist/src/game/state.js'); } catch (e) { internal = e.code; }
console.log(JSON.stringify({ r, verify: verify(deal, r.solution), replayed: p.won, bad, internal, pysol: formatRules(dealFromPysol(5).rules) }));
`;
    writeFileSync(join(project, 'check.mjs'), script);
    const got = JSON.parse(ok(sh(process.execPath, ['check.mjs'], project))) as {
      r: { verdict: string; solution: string[]; nodes: number; cards: number };
      verify: { ok: boolean; played: number; text: string };
      replayed: boolean;
      bad: { user: boolean; message: string };
      internal: string;
      pysol: string;
    };
    const cli = JSON.parse(ok(runCli(['solve', '4', '--size', '1x5,4x3', '--json']))) as { verdict: string; solution: string[]; nodes: number };
    expect(got.r.verdict).toBe('won');
    expect(cli.verdict).toBe('won');
    expect(got.r.solution.length).toBe(cli.solution.length);
    expect(got.r.solution).toEqual(cli.solution);
    expect(got.r.nodes).toBe(cli.nodes);
    expect(got.r.cards).toBe(20);
    expect(got.verify).toMatchObject({ ok: true, played: cli.solution.length, text: `valid: won in ${cli.solution.length} moves` });
    expect(got.replayed).toBe(true);
    expect(got.bad).toEqual({ user: true, message: "move 'c1>f': 2D cannot go to a foundation (the ♦ foundation is empty)" });
    expect(got.internal).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED');
    expect(got.pysol).toBe('pysol');
  });

  it("runs docs/library.md's example, with the CLI's answers", () => {
    installed();
    writeFileSync(join(project, 'example.mjs'), docsExample());
    const lines = ok(sh(process.execPath, ['example.mjs'], project)).split('\n');
    const moves = (JSON.parse(ok(runCli(['solve', '4', '--size', '1x5,4x3', '--json']))) as { solution: string[] }).solution.length;
    expect(lines.slice(0, 2)).toEqual([`won ${moves} moves`, `valid: won in ${moves} moves`]);
    const cliOut = join(dir, 'cli', 'small.csv');
    const cli = ok(runCli(['batch', '--from', '1', '--count', '20', '--size', '1x5,4x3', '--max-nodes', '20000', '--workers', '1', '--no-progress', '--out', cliOut]));
    // The summary printed is the CLI's but for the times and the file names.
    const steady = (text: string): string[] => text.split('\n').filter((l) => /^(limited batch|deals|won|unsolvable|unknown|win rate|95 % CI|decided|nodes\/deal) /.test(l));
    expect(steady(lines.slice(2).join('\n'))).toEqual(steady(cli));
    expect(steady(cli)).toHaveLength(9);
    const libOut = join(project, 'results', 'small.csv');
    expect(resultRows(libOut)).toEqual(resultRows(cliOut));
    const meta = JSON.parse(readFileSync(join(project, 'results', 'small.meta.json'), 'utf8')) as { version: string; commit: string | null; command: string };
    expect(meta.version).toBe(PKG.version);
    expect(meta.commit).toBeNull();
    expect(meta.command).toMatch(/^limited-solitaire runBatch \{"from":1,"count":20,/);
  });

  it("type-checks against the package's .d.ts", () => {
    installed();
    const check = `
import { type BatchOptions, type Deal, type SolveAnswer, type Verdict, DealSolver, Position, dealFromNumber, parseSize, runBatch, solve, verify } from '${PKG.name}';
// @ts-expect-error: the engine's packed game stays inside
import { Game } from '${PKG.name}';
const deal: Deal = dealFromNumber(4, parseSize('1x5,4x3'));
const r: SolveAnswer = new DealSolver().solve(deal, { preset: 'fast', maxNodes: 10_000, tactics: { pairing: 'never' } });
const verdict: Verdict = r.verdict;
const moves: string[] | null = r.solution;
const won: boolean = new Position(deal, { moves: moves ?? [] }).won && verify(deal, moves ?? '').ok;
// @ts-expect-error: no such search
solve(deal, { search: 'astar' });
// @ts-expect-error: budgets are numbers
solve(deal, { maxNodes: '5000' });
// @ts-expect-error: moves are text, not the engine's packed integers
const packed: number[] | null = r.solution;
const batch: BatchOptions = { from: 1, count: 2, out: 'x.csv', player: { spec: 'greedy', pile: 'forgotten' } };
const done: Promise<'done' | 'interrupted'> = runBatch(batch).then((b) => b.status);
export { done, packed, verdict, won };
`;
    writeFileSync(join(project, 'check.ts'), check);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022'], noEmit: true, skipLibCheck: false,
          types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')],
        },
        files: ['check.ts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    ok(sh(process.execPath, [tsc, '-p', project], project));
    // The check can fail: a type error in the file is reported.
    writeFileSync(join(project, 'check.ts'), `import { solve } from '${PKG.name}';\nconst n: number = solve;\nexport { n };\n`);
    const bad = sh(process.execPath, [tsc, '-p', project], project);
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toMatch(/check\.ts\(2,7\): error TS2322/);
  });

  it('runs the limited command from node_modules/.bin', () => {
    installed();
    const bin = join(project, 'node_modules', '.bin', 'limited');
    expect(ok(sh(bin, ['--help'], project))).toMatch(/^Usage: limited \[options\] \[command\]/);
    const solved = JSON.parse(ok(sh(bin, ['solve', '4', '--size', '1x5,4x3', '--json'], project))) as { solution: string[] };
    expect(solved.solution).toEqual((JSON.parse(ok(runCli(['solve', '4', '--size', '1x5,4x3', '--json']))) as { solution: string[] }).solution);
    // The page commands find the browser bundle in the installed package.
    ok(sh(bin, ['view', '4', '--size', '1x5,4x3', '--out', 'deal4.html'], project));
    const css = readFileSync(join(ROOT, 'dist', 'web', 'style.css'), 'utf8');
    expect(readFileSync(join(project, 'deal4.html'), 'utf8')).toContain(css.slice(0, 200));
  });
});

describe('the API in process', async () => {
  const L = await import('../src/index.js');
  const small = L.parseSize('1x5,4x3');

  it('refuses bad options in one line, naming them', () => {
    const deal = L.dealFromNumber(4, small);
    const refused = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(L.UserError);
        return (e as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refused(() => L.solve(deal, { preset: 'nope' }))).toBe(`unknown preset 'nope' (presets: ${L.SOLVER_PRESETS.map((p) => p.name).join(', ')})`);
    expect(refused(() => L.solve(deal, { search: 'dfs', heuristic: 'blend' }))).toBe('heuristic is used only by best-first and beam search, which search dfs does not run');
    expect(refused(() => L.solve(deal, { maxNodes: 0 }))).toBe('maxNodes must be a whole number >= 1, not 0');
    expect(refused(() => L.solve(deal, { tactics: { pairing: 'sometimes' as 'never' } }))).toBe("unknown pairing tactic 'sometimes' (always, cautious, never)");
    expect(refused(() => L.solve(deal, { after: ['c9>f'] }))).toBe("invalid: move 1 (line 1) 'c9>f': there is no column c9 (columns c1 to c4)");
    expect(refused(() => new L.Position(deal).play(''))).toBe("move '': no move given");
    return expect(L.runBatch({ from: -1, count: 5, out: 'unused.csv' })).rejects.toThrow('from must be a whole number >= 0, not -1');
  });

  it('solves from a position, and one DealSolver gives what fresh ones give', () => {
    const deal = L.dealFromNumber(4, small);
    const whole = L.solve(deal).solution!;
    const rest = L.solve(deal, { after: whole.slice(0, 5) });
    expect(rest.verdict).toBe('won');
    expect(L.verify(deal, [...whole.slice(0, 5), ...rest.solution!]).ok).toBe(true);
    const solver = new L.DealSolver();
    for (let n = 1; n <= 6; n++) {
      const d = L.dealFromNumber(n, small);
      expect(solver.solve(d, { maxNodes: 5000 })).toEqual({ ...L.solve(d, { maxNodes: 5000 }), seconds: expect.any(Number) });
    }
  });

  it('plays and takes back moves in notation', () => {
    const p = new L.Position(L.dealFromNumber(4, small));
    const first = p.legalMoves();
    expect(first).toEqual(['c1>c3 2D', 'c3>c4 3D', 'draw 2C']);
    expect(p.play('C3>C4')).toBe('c3>c4 3D');
    expect(p.moves).toEqual(['c3>c4 3D']);
    expect(p.moveError('c3>c4')).toMatch(/^move 'c3>c4': /);
    expect(p.undo()).toBe('c3>c4 3D');
    expect(p.undo()).toBeNull();
    expect(p.legalMoves()).toEqual(first);
    expect([p.won, p.home, p.total, p.phase]).toEqual([false, 0, 20, 1]);
  });
});
