/**
 * One dialect for the command line: every help example names only options its command has and
 * the quick ones run as written in an empty directory; `--json` on every command that prints a
 * result agrees with its text; `--force` is what replaces a result, and an old option's name
 * is answered with one line naming the new one.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAIN, expectUsageError, runCli, withTempDir } from './cli-helpers.js';

let dir = '';
withTempDir('limited-dialect-', (d) => (dir = d));

const COMMANDS = ['', 'solve', 'show', 'moves', 'verify', 'verify-results', 'deal', 'batch', 'merge', 'bench', 'experiment tactics', 'experiment winrate', 'view', 'play', 'report', 'start'];

/** A command's help: its examples (comments cut) and the long options it lists. */
function helpOf(command: string): { examples: string[]; options: Set<string> } {
  const r = runCli([...command.split(' ').filter((w) => w !== ''), '--help']);
  expect(r.status, r.stderr).toBe(0);
  const options = new Set(['--help', '--version']);
  for (const m of r.stdout.matchAll(/^ {2}(?:-\w, )?(--[a-z][a-z0-9-]*)/gm)) options.add(m[1]!);
  // commander lists --no-X for a switch whose default is on.
  const examples: string[] = [];
  const at = r.stdout.indexOf('\nExamples:\n');
  if (at >= 0)
    for (const line of r.stdout.slice(at + 11).split('\n')) {
      if (!line.startsWith('  ')) break;
      examples.push(line.trim().replace(/\s+#\s.*$/, ''));
    }
  return { examples, options };
}

const HELP = new Map(COMMANDS.map((c) => [c, helpOf(c)]));

/** The `limited ...` commands of a shell line: [subcommand, words]. */
function limitedCalls(line: string): [string, string[]][] {
  const calls: [string, string[]][] = [];
  for (const part of line.split(/&&|;|\||\bdo\b|\bdone\b/)) {
    const words = part.trim().split(/\s+/);
    if (words[0] !== 'limited') continue;
    const rest = words.slice(1).filter((w) => !w.startsWith('<') && !w.startsWith('>'));
    const sub = rest[0] === 'experiment' ? `experiment ${rest[1]}` : rest[0] !== undefined && HELP.has(rest[0]) ? rest[0] : '';
    calls.push([sub, rest]);
  }
  return calls;
}

describe('help examples', () => {
  const all = COMMANDS.flatMap((c) => HELP.get(c)!.examples.map((e) => [c, e] as const));

  it('every command has examples, and each names only options of the command it calls', () => {
    for (const c of COMMANDS) expect(HELP.get(c)!.examples.length, `'limited ${c} --help' has examples`).toBeGreaterThan(0);
    const wrong: string[] = [];
    for (const [c, line] of all)
      for (const [sub, words] of limitedCalls(line)) {
        const known = HELP.get(sub)!.options;
        for (const w of words) if (w.startsWith('--') && !known.has(w)) wrong.push(`'limited ${c} --help': ${w} is not an option of 'limited ${sub}': ${line}`);
      }
    expect(wrong).toEqual([]);
  });

  it('the quick ones (small deals, and the commands that only read a deal) run as written in an empty directory', () => {
    const cwd = join(dir, 'examples');
    mkdirSync(cwd);
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'limited'), `#!/bin/sh\nexec "${process.execPath}" "${MAIN}" "$@"\n`);
    chmodSync(join(bin, 'limited'), 0o755);
    const quick = (line: string): boolean =>
      !/solvitaire|results\//.test(line) &&
      limitedCalls(line).length > 0 &&
      limitedCalls(line).every(([sub, words]) => words.includes('1x5,4x3') || ['show', 'moves', 'deal', 'verify', 'verify-results'].includes(sub));
    const run = all.filter(([, line]) => quick(line));
    expect(run.length).toBeGreaterThan(20);
    const failed: string[] = [];
    for (const [c, line] of run) {
      const r = spawnSync('bash', ['-c', line], { cwd, encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '' } });
      if (r.status !== 0) failed.push(`'limited ${c} --help': ${line}: exit ${r.status}: ${r.stderr.trim().split('\n').at(-1)}`);
    }
    expect(failed).toEqual([]);
  });
});

describe('--json: one JSON object on stdout, the same facts as the text', () => {
  const SMALL = ['4', '--size', '1x5,4x3'];
  const json = (args: string[], status = 0): Record<string, unknown> => {
    const r = runCli(args);
    expect(r.status, r.stderr).toBe(status);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  };

  it('show, moves and deal', () => {
    const show = json(['show', ...SMALL, '--json']);
    expect(show).toMatchObject({ deal: 'deal 4', rules: 'book', size: '1x5 4x3' });
    const moves = json(['moves', ...SMALL, '--json']);
    const text = runCli(['moves', ...SMALL]).stdout.trim().split('\n');
    expect(moves.moves).toEqual(text);
    expect(moves.state).toBe('playing');
    const deal = json(['deal', ...SMALL, '--json']);
    const cards = [...(deal.columns as string[][]).flat(), ...(deal.stock as string[])];
    expect(cards).toHaveLength(20);
    expectUsageError(runCli(['deal', ...SMALL, '--json', '--format', 'pysol']), /give --json or --format, not both/);
  });

  it('verify: valid and invalid, with the exit status of the text', () => {
    const win = join(dir, 'win.txt');
    expect(runCli(['solve', ...SMALL, '--solution-out', win]).status).toBe(0);
    expect(json(['verify', ...SMALL, '--solution', win, '--json'])).toMatchObject({ valid: true, error: null, home: 20, total: 20 });
    const bad = join(dir, 'bad.txt');
    writeFileSync(bad, 'c1>c2\n');
    const v = json(['verify', ...SMALL, '--solution', bad, '--json'], 1);
    expect(v.valid).toBe(false);
    expect(v.error).toMatchObject({ move: 1, line: 1 });
  });

  it('batch and merge print their summary files', () => {
    const a = join(dir, 'a.csv');
    const b = join(dir, 'b.csv');
    const sa = json(['batch', '--from', '1', '--count', '30', '--size', '1x5,4x3', '--workers', '1', '--no-progress', '--out', a, '--json']);
    expect(sa).toEqual(JSON.parse(readFileSync(a.replace(/\.csv$/, '.summary.json'), 'utf8')));
    json(['batch', '--from', '31', '--count', '30', '--size', '1x5,4x3', '--workers', '1', '--no-progress', '--out', b, '--json']);
    const m = json(['merge', a, b, '--json']);
    expect(m).toMatchObject({ deals: 60, file: null });
  });
});

describe('--force: nothing replaced without it', () => {
  const BATCH = ['batch', '--from', '1', '--count', '20', '--size', '1x5,4x3', '--workers', '1', '--no-progress'];

  it('batch: a file made with other options is refused, and started over with --force', () => {
    const out = join(dir, 'f.csv');
    expect(runCli([...BATCH, '--max-nodes', '500', '--out', out]).status).toBe(0);
    expectUsageError(runCli([...BATCH, '--max-nodes', '600', '--out', out]), /was made with --max-nodes 500, not 600: .*\(or give --force to start it over\)$/);
    const r = runCli([...BATCH, '--max-nodes', '600', '--out', out, '--force']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('was made with other options: starting it over (--force)');
    expect((JSON.parse(readFileSync(out.replace(/\.csv$/, '.meta.json'), 'utf8')) as { job: { solver: { maxNodes: number } } }).job.solver.maxNodes).toBe(600);
  });

  it('merge: an --out that exists is refused, and replaced with --force', () => {
    const part = join(dir, 'p.csv');
    const out = join(dir, 'm.csv');
    expect(runCli([...BATCH, '--out', part]).status).toBe(0);
    expect(runCli(['merge', part, '--out', out]).status).toBe(0);
    expectUsageError(runCli(['merge', part, '--out', out]), /exists: give --force to replace it, or choose another --out$/);
    expect(runCli(['merge', part, '--out', out, '--force']).status).toBe(0);
    expect(existsSync(out)).toBe(true);
  });
});

describe('old option names: one line naming the new one', () => {
  it.each([
    [['bench', '--deals', '1-5'], /--deals is not an option any more: give --from A --count N/],
    [['bench', '--out', 'x'], /--out is not an option any more: give --out-dir DIR$/],
    [['experiment', 'tactics', '--solver-deals', '5'], /--solver-deals is not an option any more: give --solver-count N$/],
    [['experiment', 'tactics', '--solver-nodes', '5'], /--solver-nodes is not an option any more: give --max-nodes N$/],
  ])('%j', (args, pattern) => {
    expectUsageError(runCli(args), pattern);
  });
});
