/**
 * `limited solve --threads T` end to end (the built CLI): the verdicts, the report and --json
 * with `threads`, a written solution that verifies, the flags it refuses, and Ctrl-C.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAIN, ROOT, afterCpuSeconds, expectUsageError, runCli, withTempDir } from './cli-helpers.js';

let dir = '';
withTempDir('limited-threads-', (d) => (dir = d));

const SMALL = ['--size', '1x6,5x3'];

describe('solve --threads', () => {
  it('wins a won deal on two threads; the solution written verifies', () => {
    const file = join(dir, 'win.txt');
    const r = runCli(['solve', '10', ...SMALL, '--threads', '2', '--json', '--solution-out', file]);
    expect(r.status, r.stderr).toBe(0);
    const rep = JSON.parse(r.stdout);
    expect([rep.verdict, rep.threads, rep.options]).toEqual(['won', 2, { preset: 'prove' }]);
    expect(rep.solution.length).toBeGreaterThan(0);
    const v = runCli(['verify', '10', ...SMALL, '--solution', file]);
    expect(v.status, v.stdout + v.stderr).toBe(0);
    expect(v.stdout).toMatch(/valid: won/);
  });

  it('proves a lost deal by the search of every thread, and says so in the report', () => {
    const r = runCli(['solve', '8', ...SMALL, '--threads', '2']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^solver: +preset prove, on 2 threads \(each a depth-first search from the root, one shared table\)$/m);
    expect(r.stdout).toMatch(/^verdict: +unsolvable \(the search was exhausted: no sequence of moves wins\)$/m);
    expect(Number(/^states stored: +(\d+)$/m.exec(r.stdout)?.[1])).toBeGreaterThan(0);
  });

  it('from 4 threads on the last starts as the rollout: book deal 3, which it wins fast', () => {
    const r = runCli(['solve', '3', '--threads', '4', '--max-nodes', '20000000', '--max-memory', '256']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^solver: +.*on 4 threads \(each a depth-first search from the root, the last a rollout until the deal looks lost, one shared table\)$/m);
    expect(r.stdout).toMatch(/^verdict: +won$/m);
  });

  it('a node budget is the total over the threads', () => {
    const r = runCli(['solve', '3734', '--threads', '2', '--max-nodes', '20000', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const rep = JSON.parse(r.stdout);
    expect([rep.verdict, rep.limit, rep.threads]).toEqual(['unknown', 'nodes', 2]);
    expect(rep.nodes).toBeLessThan(40_000);
  });

  it('--threads 1 is the ordinary solve: the same report, with threads', () => {
    const plain = JSON.parse(runCli(['solve', '10', ...SMALL, '--preset', 'prove', '--json']).stdout);
    const one = JSON.parse(runCli(['solve', '10', ...SMALL, '--preset', 'prove', '--json', '--threads', '1']).stdout);
    const drop = ({ seconds: _s, nodesPerSecond: _n, threads: _t, ...rest }: Record<string, unknown>) => rest;
    expect(drop(one)).toEqual(drop(plain));
    expect([plain.threads, one.threads]).toEqual([undefined, 1]);
  });

  it('refuses bad thread counts and what the threads cannot run: exit 2, one line', () => {
    for (const t of ['0', '65', 'two', '2.5', '-1']) expectUsageError(runCli(['solve', '8', ...SMALL, '--threads', t]), /--threads must be a whole number from 1 to 64/);
    expectUsageError(runCli(['solve', '8', ...SMALL, '--threads', '2', '--search', 'best']), /--threads runs depth-first search on every thread, not --search best/);
    expectUsageError(runCli(['solve', '8', ...SMALL, '--threads', '2', '--preset', 'fast']), /not --preset fast: use --preset prove/);
    expectUsageError(runCli(['solve', '8', ...SMALL, '--threads', '2', '--heuristic', 'blend']), /--heuristic/);
    // With --search dfs and --preset prove it runs.
    expect(runCli(['solve', '8', ...SMALL, '--threads', '2', '--search', 'dfs']).status).toBe(0);
  });

  it('is in solve --help', () => {
    const r = runCli(['solve', '--help']);
    expect(r.stdout).toMatch(/--threads <t>/);
    expect(r.stdout).toMatch(/limited solve 3734 --threads 2/);
  });

  it('Ctrl-C stops every thread and prints the report so far: unknown, interrupted, exit 130', async () => {
    const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      // Deal 9 is not decided for far longer than the test waits (the time limit is a safety net).
      const child = spawn(process.execPath, [MAIN, 'solve', '9', '--threads', '2', '--max-seconds', '300', '--max-memory', '256'], { cwd: ROOT });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      // Once it has worked 1.5 s of CPU (its threads together): begun, whatever the load.
      void afterCpuSeconds(child.pid!, 1.5).then(() => child.kill('SIGINT'));
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
    expect(r.status, r.stderr).toBe(130);
    expect(r.stdout).toMatch(/^verdict: +unknown \(limit: interrupted, stopped by a signal\)$/m);
    expect(Number(/^nodes expanded: +(\d+)$/m.exec(r.stdout)?.[1])).toBeGreaterThan(0);
  }, 60_000);
});
