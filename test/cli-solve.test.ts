/**
 * `limited solve` and the `--pysol GAME` deal source, end to end: spawns the built CLI
 * (dist/src/cli/main.js, which `npm test` builds first) and checks outputs and exit statuses.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PYSOL, formatDealFile, parseDealFile, pysolDeal } from '../src/game/index.js';

import { MAIN, MAIN_MODULES, ROOT, type Result, afterCpuSeconds, expectUsageError, runCli, withTempDir } from './cli-helpers.js';

const cli = (args: string[], nodeArgs: string[] = [], main = MAIN): Result => runCli(args, { nodeArgs, main });


// Small deals (one pack of A-5, four columns of three) whose book verdicts the solver decides
// in a few dozen nodes: deal 4 is won, deal 1 is unsolvable (proved by LockBound before any
// search), deal 15 too (proved by exhausting the search: 6,726 nodes).
const SMALL = ['--size', '1x5,4x3'];
const WON = '4';
const UNSOLVABLE = '1';
const UNSOLVABLE_BY_SEARCH = '15';

let dir = '';
withTempDir('limited-solve-', (d) => (dir = d));

describe('solve', () => {
  it('a won deal: verdict, statistics and a numbered solution with cards', () => {
    const r = cli(['solve', WON, ...SMALL]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^verdict: +won$/m);
    for (const field of ['nodes expanded', 'states stored', 'seconds', 'bytes per state'])
      expect(r.stdout).toMatch(new RegExp(`^${field}: +[\\d.]+$`, 'm'));
    expect(r.stdout).toMatch(/^cards home at best: 20 of 20$/m);
    // Under 0.1 s (as the printed seconds say) no speed is claimed; up to 2 s the speed comes
    // with the note that a process starts slow.
    const seconds = Number(/^seconds: +([\d.]+)$/m.exec(r.stdout)![1]);
    if (seconds < 0.1) {
      expect(r.stdout).toMatch(/^nodes per second: +not measured \(a search under 0\.1 s\)$/m);
      expect(r.stdout).not.toMatch(/V8 compiles/);
    } else expect(r.stdout).toMatch(/^nodes per second: +\d+\nnote: +a process's first half second runs slow while V8 compiles \(README, 'Solving a deal'\)$/m);
    const k = Number(/^solution: +(\d+) moves$/m.exec(r.stdout)?.[1]);
    expect(k).toBeGreaterThan(0);
    // Move 1 is numbered and has its card: `   1. c1>c3 2D`, `   1. draw 2C`.
    expect(r.stdout).toMatch(/^ +1\. (draw|redeal|\S+>\S+)( [A2-9TJQK][SHDC])?$/m);
    expect(r.stdout).toMatch(new RegExp(`^ +${k}\\. \\S+`, 'm'));
  });

  it('--solution-out writes a file that verify accepts', () => {
    const f = join(dir, 'win.txt');
    const r = cli(['solve', WON, ...SMALL, '--solution-out', f]);
    expect(r.status, r.stderr).toBe(0);
    const k = Number(/^solution: +(\d+) moves$/m.exec(r.stdout)?.[1]);
    const text = readFileSync(f, 'utf8');
    // The header names the deal, the rules and the size.
    expect(text).toMatch(/^# deal: 4$/m);
    expect(text).toMatch(/^# rules: book$/m);
    expect(text).toMatch(/^# size: 1x5 4x3$/m);
    const v = cli(['verify', WON, ...SMALL, '--solution', f]);
    expect(v.stdout).toBe(`valid: won in ${k} moves\n`);
    expect(v.status).toBe(0);
    expect(v.stderr).toBe('');
  });

  it("verify warns when a --solution-out file's header names another deal, size or rules, and keeps its verdict", () => {
    const f = join(dir, 'win-header.txt');
    expect(cli(['solve', WON, ...SMALL, '--solution-out', f]).status).toBe(0);
    // --size forgotten: the first move is refused at full size, and the warning says why.
    const full = cli(['verify', WON, '--solution', f]);
    expect(full.status).toBe(1);
    expect(full.stdout).toMatch(/^invalid: move 1 \(line 6\) /);
    expect(full.stderr).toBe(`limited: warning: the solution file '${f}' was written for size 1x5 4x3, checking against size 2x13 12x3\n`);
    const other = cli(['verify', '5', ...SMALL, '--rules', 'pysol', '--solution', f]);
    expect(other.status).toBe(1);
    expect(other.stderr).toBe(`limited: warning: the solution file '${f}' was written for deal 4, rules book, checking against deal 5, rules pysol\n`);
    // The same deal from a deal file (its deal: line says 4): no warning.
    const deal = join(dir, 'deal4.txt');
    writeFileSync(deal, cli(['deal', WON, ...SMALL]).stdout);
    const same = cli(['verify', '--deal', deal, '--solution', f]);
    expect([same.status, same.stderr]).toEqual([0, '']);
  });

  it('show --after and moves --after warn as verify does, before the replay says what it says', () => {
    const f = join(dir, 'win-after.txt');
    expect(cli(['solve', WON, ...SMALL, '--solution-out', f]).status).toBe(0);
    const sizeWarning = `limited: warning: the solution file '${f}' was written for size 1x5 4x3, checking against size 2x13 12x3\n`;
    for (const c of ['show', 'moves']) {
      // --size forgotten: the warning, then verify's line for the refused first move (exit 1).
      const full = cli([c, WON, '--after', f]);
      expect(full.status, c).toBe(1);
      const verdict = cli(['verify', WON, '--solution', f]).stdout;
      expect(full.stderr, c).toBe(sizeWarning + verdict);
      // Another deal and rules: warned of both, whatever the replay makes of it.
      const other = cli([c, '5', ...SMALL, '--rules', 'pysol', '--after', f]);
      expect(other.stderr, c).toMatch(
        new RegExp(`^limited: warning: the solution file '${f}' was written for deal 4, rules book, checking against deal 5, rules pysol\n`),
      );
      // The deal it was written for: no warning; on stdin, the file is named <stdin>.
      const same = cli([c, WON, ...SMALL, '--after', f]);
      expect([same.status, same.stderr], c).toEqual([0, '']);
      const piped = runCli([c, WON, '--after', '-'], { input: readFileSync(f, 'utf8') });
      expect(piped.stderr, c).toMatch(/^limited: warning: the solution file <stdin> was written for size 1x5 4x3, checking against size 2x13 12x3\n/);
    }
  });

  it('an unsolvable deal: proved by the search, or before it by LockBound (0 nodes)', () => {
    const r = cli(['solve', UNSOLVABLE, ...SMALL]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^verdict: +unsolvable \(proved before any search: cards that block one another keep it from being won; LockBound in docs\/SOLVER.md\)$/m);
    expect(r.stdout).toMatch(/^nodes expanded: +0$/m);
    expect(r.stdout).not.toMatch(/^solution:/m);
    const s = cli(['solve', UNSOLVABLE_BY_SEARCH, ...SMALL]);
    expect(s.stdout).toMatch(/^verdict: +unsolvable \(the search was exhausted: no sequence of moves wins\)$/m);
    expect(Number(/^nodes expanded: +(\d+)$/m.exec(s.stdout)?.[1])).toBeGreaterThan(1000);
    expect((JSON.parse(cli(['solve', UNSOLVABLE_BY_SEARCH, ...SMALL, '--json']).stdout) as { proof: string }).proof).toBe('search');
    // A full-size deal that depth-first search needs 7.5 M nodes to prove lost.
    const full = JSON.parse(cli(['solve', '15', '--json']).stdout) as { verdict: string; proof: string; nodes: number };
    expect(full).toMatchObject({ verdict: 'unsolvable', proof: 'locks', nodes: 0 });
  });

  it('a node limit on a full deal gives unknown, naming the limit (exit 0)', () => {
    const r = cli(['solve', '1', '--max-nodes', '5']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^verdict: +unknown \(limit: nodes, --max-nodes 5\)$/m);
    // At most 5 (a preset shares the budget among its stages).
    expect(Number(/^nodes expanded: +(\d+)$/m.exec(r.stdout)?.[1])).toBeLessThanOrEqual(5);
  });

  it('--max-memory: the states times the bytes a state reported stay within the cap', () => {
    type J = { verdict: string; limit: string | null; states: number; bytesPerState: number };
    // A cap below the least useful one is refused (src/solver/memory-floor.ts); a cap below every
    // table's smallest size, which stops a search at once, is the library's (test/solver.test.ts).
    expectUsageError(cli(['solve', '1', '--max-memory', '0.0001']), /^limited: --max-memory 0\.0001 is less than the least useful cap, 2 MB: /);
    // Depth-first search at 2 MB runs into the cap, and the figure shown (rounded down) stays
    // within it; how tightly a table fills its cap is pinned in test/solver.test.ts.
    const dfs = JSON.parse(cli(['solve', '9', '--search', 'dfs', '--max-memory', '2', '--json']).stdout) as J;
    expect(dfs.limit).toBe('memory');
    expect(dfs.states * dfs.bytesPerState).toBeLessThanOrEqual(2 * 2 ** 20);
    expect(dfs.states).toBeGreaterThan(65_536);
  });

  it('a time budget given alone lifts the node limit; given with --max-nodes, the first to run out stops', () => {
    // Deal 9 is undecided after 60 M nodes: `fast` (1 M nodes) runs out of nodes well within
    // 60 s, unless the time budget alone is the limit.
    const alone = JSON.parse(cli(['solve', '9', '--preset', 'fast', '--max-seconds', '1.5', '--json']).stdout) as { limit: string; nodes: number };
    expect(alone.limit).toBe('time');
    const both = JSON.parse(cli(['solve', '9', '--preset', 'fast', '--max-seconds', '60', '--max-nodes', '20000', '--json']).stdout) as { limit: string; nodes: number };
    expect(both.limit).toBe('nodes');
    expect(both.nodes).toBe(20_000);
  });

  it('the prove preset reports what it cut: LockBound, waste dominance and pile nogoods', () => {
    // Deal 13288 is proved lost in about a million nodes; each of the three cuts.
    const r = cli(['solve', '13288', '--preset', 'prove', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as { verdict: string; pruning: Record<string, number> };
    expect(j.verdict).toBe('unsolvable');
    expect(Object.keys(j.pruning).sort()).toEqual(['dominance', 'lockBound', 'nogoodCuts', 'nogoodLookups', 'nogoodsRecorded']);
    for (const v of Object.values(j.pruning)) expect(v).toBeGreaterThan(0);
    expect(j.pruning.nogoodCuts).toBeLessThanOrEqual(j.pruning.nogoodLookups);
    const text = cli(['solve', '13288', '--preset', 'prove']);
    expect(text.stdout).toContain(`positions cut:      ${j.pruning.lockBound} by LockBound, ${j.pruning.dominance} by waste dominance, ${j.pruning.nogoodCuts} by pile nogoods`);
  });

  it('--json prints one object with the same fields', () => {
    const won = cli(['solve', WON, ...SMALL, '--json']);
    expect(won.status, won.stderr).toBe(0);
    expect(won.stdout.trimEnd().split('\n')).toHaveLength(1);
    const j = JSON.parse(won.stdout) as Record<string, unknown>;
    expect(j.verdict).toBe('won');
    for (const field of ['nodes', 'states', 'seconds', 'nodesPerSecond', 'bytesPerState', 'bestHome']) expect(typeof j[field], field).toBe('number');
    expect(j.deal).toBe('deal 4');
    expect(j.rules).toBe('book');
    expect(j.size).toBe('1x5 4x3');
    expect(j.limit).toBeNull();
    expect(Array.isArray(j.solution)).toBe(true);
    expect((j.solution as string[]).length).toBeGreaterThan(0);
    for (const m of j.solution as string[]) expect(m).toMatch(/^(draw|redeal|\S+>\S+)( [A2-9TJQK][SHDC])?$/);

    const unknown = JSON.parse(cli(['solve', '1', '--max-nodes', '5', '--json']).stdout) as Record<string, unknown>;
    expect(unknown.verdict).toBe('unknown');
    expect(unknown.limit).toBe('nodes');
    expect(unknown.solution).toBeNull();
    expect(unknown.proof).toBeNull();
    expect(j.proof).toBeNull();
  });

  it('best-first with a heuristic also wins the small deal', () => {
    const r = cli(['solve', WON, ...SMALL, '--search', 'best', '--heuristic', 'home', '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { verdict: string }).verdict).toBe('won');
  });

  it('--heuristic alone orders the default preset\'s best-first stages', () => {
    const r = cli(['solve', WON, ...SMALL, '--heuristic', 'home']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/solver: +preset portfolio, heuristic home\n/);
    expect(r.stdout).toMatch(/verdict: +won/);
  });

  it('--search beam, with a heuristic: a verified win, a proof on a small deal', () => {
    const won = cli(['solve', WON, ...SMALL, '--search', 'beam', '--heuristic', 'home']);
    expect(won.status, won.stderr).toBe(0);
    expect(won.stdout).toMatch(/^solver: +beam, heuristic home$/m);
    expect(won.stdout).toMatch(/^verdict: +won$/m);
    // Deal 15 is proved lost by exhausting the search: the beam's widest attempt keeps every child.
    const lost = cli(['solve', UNSOLVABLE_BY_SEARCH, ...SMALL, '--search', 'beam', '--max-nodes', '100000']);
    expect(lost.status, lost.stderr).toBe(0);
    expect(lost.stdout).toMatch(/^verdict: +unsolvable \(the search was exhausted/m);
  });

  it('bad values: exit 2, one line', () => {
    expectUsageError(cli(['solve', '1', '--search', 'bfs']), /--search.*dfs, best/);
    expectUsageError(cli(['solve', '1', '--search', 'best', '--heuristic', 'nope']), /unknown heuristic 'nope' \(heuristics: blend, /);
    // A heuristic where no best-first search runs is refused, whatever chose the searches.
    expectUsageError(cli(['solve', '1', '--search', 'dfs', '--heuristic', 'home']), /used only by best-first and beam search, which --search dfs does not run: add --search best or beam, or use a --preset with such a stage \(portfolio, best\)/);
    expectUsageError(cli(['solve', '1', '--search', 'rollout', '--heuristic', 'home']), /which --search rollout does not run/);
    expectUsageError(cli(['solve', '1', '--preset', 'fast', '--heuristic', 'home']), /which --preset fast does not run/);
    expectUsageError(cli(['solve', '1', '--preset', 'prove', '--heuristic', 'home']), /which --preset prove does not run/);
    for (const v of ['0', '-3', '1.5', 'lots']) expectUsageError(cli(['solve', '1', '--max-nodes', v]), /--max-nodes must be a whole number >= 1/);
    for (const v of ['0', '-1', 'soon']) expectUsageError(cli(['solve', '1', '--max-seconds', v]), /--max-seconds must be a number > 0/);
    expectUsageError(cli(['solve', '1', '--max-memory', '0']), /--max-memory must be a number > 0/);
    expectUsageError(cli(['solve', '1', '--preset', 'no-such-preset']), /unknown --preset 'no-such-preset' \(presets: /);
    expectUsageError(cli(['solve', '1', '--solution-out', join(dir, 'no-such-dir', 'x.txt')]), /no such directory/);
    expectUsageError(cli(['solve']), /no deal given/);
  });

  it('a solution that fails to verify is an internal error: one line, exit 3', () => {
    // Preloaded before the CLI: makes the (shared) solver module throw as it does when its
    // solution does not replay. No hook in the CLI itself. The CLI is run from tsc's modules
    // (cli.js, the program that the bundled main.js holds): only there is the solver module one
    // that a preloaded module can reach.
    const hook = join(dir, 'broken-solver.mjs');
    const search = pathToFileURL(join(ROOT, 'dist', 'src', 'solver', 'index.js')).href;
    writeFileSync(
      hook,
      `import { Solver, SolutionError } from '${search}';\n` +
        `Solver.prototype.start = function () { throw new SolutionError('solver produced a solution that does not verify: move 3: test'); };\n`,
    );
    const r = cli(['solve', WON, ...SMALL], ['--import', pathToFileURL(hook).href], MAIN_MODULES);
    expect(r.status).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('limited: internal error: solver produced a solution that does not verify: move 3: test\n');
  });

  it('has help with examples', () => {
    const r = cli(['solve', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Usage: limited solve');
    expect(r.stdout).toMatch(/Examples:\n {2}limited solve/);
    for (const o of ['--pysol', '--search', '--heuristic', '--preset', '--max-nodes', '--max-seconds', '--max-memory', '--json', '--solution-out'])
      expect(r.stdout).toContain(o);
  });
});

describe('--pysol GAME', () => {
  it('deal --pysol 1 is PySolFC game 1, with rules: pysol', () => {
    const r = cli(['deal', '--pysol', '1']);
    expect(r.status, r.stderr).toBe(0);
    // Golden: row 1 = the top cards of columns 1..12 of PySolFC's Limited game 1.
    expect(r.stdout).toMatch(/^row 1: 3D 5H JC KH 5S 5H KC KC 8D JD AS 8C$/m);
    expect(r.stdout).toMatch(/^rules: pysol$/m);
    expect(r.stdout).toMatch(/^deal: pysol 1$/m);
    expect(r.stdout).toBe(formatDealFile(pysolDeal(1), PYSOL));
    const parsed = parseDealFile(r.stdout);
    expect(parsed.columns).toEqual(pysolDeal(1).columns);
    expect(parsed.stock).toEqual(pysolDeal(1).stock);
  });

  it('--rules overrides the pysol default', () => {
    expect(cli(['deal', '--pysol', '1', '--rules', 'book']).stdout).toMatch(/^rules: book$/m);
    expect(cli(['show', '--pysol', '1']).stdout).toMatch(/^PySolFC game 1 · rules pysol · size 2x13 12x3$/m);
    expect(cli(['show', '--pysol', '1', '--rules', 'book']).stdout).toMatch(/· rules book ·/);
  });

  it('--format pysol prints a board with a Talon line', () => {
    const r = cli(['deal', '--pysol', '123456', '--format', 'pysol']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Talon: 4S QS 5C /m);
    expect(r.stdout).toMatch(/^Waste: KS$/m);
    expect(r.stdout).toMatch(/^6H 3C KC$/m);
    expectUsageError(cli(['deal', '1', '--format', 'xml']), /--format/);
  });

  it('works with moves, verify and solve', () => {
    expect(cli(['moves', '--pysol', '1']).status).toBe(0);
    const s = cli(['solve', '--pysol', '1', '--max-nodes', '5', '--json']);
    expect(s.status, s.stderr).toBe(0);
    const j = JSON.parse(s.stdout) as Record<string, unknown>;
    expect(j.deal).toBe('PySolFC game 1');
    expect(j.rules).toBe('pysol');
    const f = join(dir, 'empty.txt');
    const v = cli(['verify', '--pysol', '1', '--solution', f]);
    expectUsageError(v, /cannot read solution file/);
  });

  it('bad game numbers and conflicts: exit 2, one line', () => {
    expectUsageError(cli(['deal', '--pysol', '0']), /PySolFC game number '0' is not valid/);
    expectUsageError(cli(['solve', '--pysol', 'abc']), /PySolFC game number 'abc'/);
    expectUsageError(cli(['show', '--pysol', 'ms0']), /PySolFC game number/);
    expectUsageError(cli(['show', '1', '--pysol', '1']), /only one deal/);
    expectUsageError(cli(['show', '--pysol', '1', '--size', '1x5,4x3']), /disagrees with --pysol/);
  });
});

/** Runs `limited args` and sends it `signal` once it has used `cpuSeconds` of CPU; resolves with what it printed. */
function solveStopped(args: string[], signal: NodeJS.Signals, cpuSeconds: number): Promise<Result & { signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    void afterCpuSeconds(child.pid!, cpuSeconds).then(() => child.kill(signal));
    child.on('error', reject);
    child.on('close', (status, sig) => resolve({ status, signal: sig, stdout, stderr }));
  });
}

describe('solve stopped by a signal', () => {
  // Deal 9 is not decided within 3 M nodes; the limits given hold it for far longer than the
  // test waits (the time limit is a safety net, never reached).
  const LONG = ['solve', '9', '--max-nodes', '1000000000', '--max-seconds', '300'];

  it('Ctrl-C (SIGINT): the report so far, unknown with limit interrupted, exit 130', async () => {
    const r = await solveStopped(LONG, 'SIGINT', 1.5);
    expect([r.status, r.signal], r.stderr).toEqual([130, null]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^verdict: +unknown \(limit: interrupted, stopped by a signal\)$/m);
    const nodes = Number(/^nodes expanded: +(\d+)$/m.exec(r.stdout)?.[1]);
    expect(nodes).toBeGreaterThan(0);
    expect(nodes).toBeLessThan(1_000_000_000);
    expect(Number(/^seconds: +([\d.]+)$/m.exec(r.stdout)?.[1])).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/^cards home at best: \d+ of 104$/m);
  }, 60_000);

  it('SIGTERM with --json and --solution-out: one object, no solution written, exit 143', async () => {
    const file = join(dir, 'stopped.txt');
    const r = await solveStopped([...LONG, '--search', 'dfs', '--json', '--solution-out', file], 'SIGTERM', 1.5);
    expect([r.status, r.signal], r.stderr).toEqual([143, null]);
    const rep = JSON.parse(r.stdout);
    expect([rep.verdict, rep.limit, rep.solution]).toEqual(['unknown', 'interrupted', null]);
    expect(rep.nodes).toBeGreaterThan(0);
    expect(rep.states).toBeGreaterThan(0);
    expect(r.stderr).toBe(`limited: no solution written to ${file}: the verdict is unknown\n`);
  }, 60_000);
});
