/**
 * Shared by the end-to-end CLI tests: where the built CLI is (dist/src/cli/main.js, which
 * `npm test` builds first) and one way to run it.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..');
export const MAIN = join(ROOT, 'dist', 'src', 'cli', 'main.js');

export interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node [nodeArgs] MAIN args` in the repo root, colour off, with optional stdin and env. */
export function runCli(args: string[], o: { input?: string; nodeArgs?: string[]; env?: Record<string, string> } = {}): Result {
  const r = spawnSync(process.execPath, [...(o.nodeArgs ?? []), MAIN, ...args], {
    cwd: ROOT,
    input: o.input,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '', ...(o.env ?? {}) },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
