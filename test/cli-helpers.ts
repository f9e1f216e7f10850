/**
 * Shared by the end-to-end CLI tests: where the built CLI is (dist/src/cli/main.js, which
 * `npm test` builds first) and one way to run it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { parseCsvLine } from '../src/batch/csv.js';
import { hashRows } from '../src/batch/rowhash.js';

export const ROOT = join(import.meta.dirname, '..');
export const MAIN = join(ROOT, 'dist', 'src', 'cli', 'main.js');
/** The same CLI as tsc's modules, not bundled (cli.js, the program main.js bundles): for a test that patches a module the CLI imports. */
export const MAIN_MODULES = join(ROOT, 'dist', 'src', 'cli', 'cli.js');

export interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node [nodeArgs] MAIN args` (or `main` instead of MAIN) in the repo root, colour off, with optional stdin and env. */
export function runCli(args: string[], o: { input?: string; nodeArgs?: string[]; env?: Record<string, string>; main?: string } = {}): Result {
  const r = spawnSync(process.execPath, [...(o.nodeArgs ?? []), o.main ?? MAIN, ...args], {
    cwd: ROOT,
    input: o.input,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '', ...(o.env ?? {}) },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * A usage error: exit 2, one line `limited: ...` on stderr, nothing on stdout, no stack. Lines
 * that match `besides` (a command's own notes before the error, such as `limited bench: ...`)
 * are not counted.
 */
export function expectUsageError(r: Result, pattern?: RegExp, besides?: RegExp): void {
  expect(r.status, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.split('\n').filter((l) => l !== '' && !(besides?.test(l) ?? false));
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^limited: \S/);
  expect(r.stderr).not.toMatch(/^\s+at /m);
  if (pattern) expect(lines[0]).toMatch(pattern);
}

/**
 * Registers the suite's set-up: the built CLI must exist, and a fresh temporary directory
 * (passed to `set`) is made before the tests and removed after them.
 */
export function withTempDir(prefix: string, set: (dir: string) => void): void {
  let dir = '';
  beforeAll(() => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first (npm run build; npm test does it)`);
    dir = mkdtempSync(join(tmpdir(), prefix));
    set(dir);
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
}

/** The rows of a results CSV without the timing column (ms), sorted by deal; and the header. */
export function resultRows(file: string): { header: string; rows: string[] } {
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
  const header = parseCsvLine(lines[0]!);
  const ms = header.indexOf('ms');
  expect(ms).toBeGreaterThan(0);
  const body = lines.slice(1).map((l) => {
    const f = parseCsvLine(l);
    expect(f).toHaveLength(header.length);
    return { deal: Number(f[0]), text: f.filter((_, i) => i !== ms).join(',') };
  });
  body.sort((a, b) => a.deal - b.deal);
  return { header: lines[0]!, rows: body.map((b) => b.text) };
}

/**
 * Resolves once process `pid` has used `seconds` of CPU time (user + system, all its threads;
 * from /proc, in clock ticks of 1/100 s), or has gone. A signal sent then reaches a process
 * that has started its work whatever the machine's load, which a wall-clock wait does not
 * promise on a busy machine.
 */
export async function afterCpuSeconds(pid: number, seconds: number): Promise<void> {
  for (;;) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return;
    }
    // The fields after the command name, which is in brackets and may hold spaces.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (f[0] === 'Z' || (Number(f[11]) + Number(f[12])) / 100 >= seconds) return;
    await new Promise((res) => setTimeout(res, 20));
  }
}

/**
 * The sidecar (JSON text) a run killed after writing `csvLines` (the file's lines, header
 * first, whole rows) leaves, made from a complete run's sidecar `metaText`: not complete, its
 * last run still 'running', and its row count and hash those of the first `hashed` rows, as
 * last saved (a run saves them every few seconds, so they may lag the file).
 */
export function killedSidecar(metaText: string, csvLines: readonly string[], hashed: number): string {
  const meta = JSON.parse(metaText) as Record<string, any>;
  const rows = csvLines.slice(1).filter((l) => l !== '');
  const last = { ...meta['sessions'].at(-1), deals: hashed, status: 'running', endedAt: null };
  return JSON.stringify({ ...meta, complete: false, endedAt: null, rows: hashed, rowsHash: hashRows(rows, hashed).hex, sessions: [last] }, null, 2);
}
