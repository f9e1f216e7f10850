/**
 * Devices and pipes where files are expected. Results (a batch's CSV and sidecars, a merge, a
 * solution file) go only to regular files: anything else is refused in one line before a byte
 * is read or written, and is left as it was (a rename had replaced /dev/null with a regular
 * file). The devices are made with mknod in the test's directory
 * (root only; those cases are skipped otherwise); FIFOs with mkfifo.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAIN, ROOT, type Result, expectUsageError, withTempDir } from './cli-helpers.js';

let dir: string;
const path = (name: string): string => join(dir, name);
withTempDir('limited-devices-', (d) => (dir = d));

/** Runs the CLI, stopped after two minutes: a command that hangs must fail the test, not hang it. */
function bounded(args: string[], stdin: 'ignore' | number = 'ignore'): Result {
  const r = spawnSync(process.execPath, [MAIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, stdio: [stdin, 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Makes character device `name` (major, minor) in the test's directory; false where this process may not. */
function mknod(name: string, major: number, minor: number): boolean {
  return spawnSync('mknod', [path(name), 'c', String(major), String(minor)], { stdio: 'ignore' }).status === 0;
}
const ROOT_USER = process.getuid?.() === 0;

function mkfifo(name: string): string {
  const p = path(name);
  const r = spawnSync('mkfifo', [p], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return p;
}

const BATCH = ['batch', '--from', '1', '--count', '5', '--size', '1x5,4x3', '--no-progress', '--workers', '1'];

describe.skipIf(!ROOT_USER)('results go only to regular files (devices made with mknod)', () => {
  it.each([
    ['null', 1, 3],
    ['full', 1, 7],
    ['zero', 1, 5],
  ])('batch --out a character device like /dev/%s: one line, exit 2, the device left as it was', (name, major, minor) => {
    const sub = path(`dev-${name}`);
    spawnSync('mkdir', [sub]);
    const dev = join(sub, name);
    expect(spawnSync('mknod', [dev, 'c', String(major), String(minor)]).status).toBe(0);
    expectUsageError(bounded([...BATCH, '--out', dev]), new RegExp(`^limited: cannot write results file '.*${name}': it is a character device, not a regular file$`));
    expect(statSync(dev).isCharacterDevice()).toBe(true);
    // No lock, sidecar or temporary file beside it.
    expect(readdirSync(sub)).toEqual([name]);
  });

  it('merge --out a character device, even with --force: refused, the device kept', () => {
    expect(mknod('merged-null', 1, 3)).toBe(true);
    const fixtures = join(ROOT, 'test', 'fixtures', 'batch');
    for (const f of ['greedy.csv', 'greedy.meta.json']) copyFileSync(join(fixtures, f), path(f));
    for (const force of [[], ['--force']]) {
      expectUsageError(bounded(['merge', path('greedy.csv'), '--out', path('merged-null'), ...force]), /^limited: cannot write merged file '.*merged-null': it is a character device, not a regular file$/);
      expect(statSync(path('merged-null')).isCharacterDevice()).toBe(true);
    }
  });

  it('solve --solution-out a character device: refused, the device kept', () => {
    expect(mknod('sol-null', 1, 3)).toBe(true);
    expectUsageError(bounded(['solve', '4', '--size', '1x5,4x3', '--solution-out', path('sol-null')]), /^limited: cannot write solution file '.*sol-null': it is a character device, not a regular file$/);
    expect(statSync(path('sol-null')).isCharacterDevice()).toBe(true);
  });

  it("a sidecar that is a device is refused, not read for ever", () => {
    const out = path('side.csv');
    expect(mknod('side.meta.json', 1, 5)).toBe(true);
    expectUsageError(bounded([...BATCH, '--out', out]), /^limited: cannot (read|write) sidecar '.*side\.meta\.json': it is a character device, not a regular file$/);
    expect(statSync(path('side.meta.json')).isCharacterDevice()).toBe(true);
  });
});

describe('FIFOs where results go', () => {
  it('batch --out a FIFO: one line, exit 2, at once (it waited for a writer for ever)', () => {
    const fifo = mkfifo('out.fifo');
    expectUsageError(bounded([...BATCH, '--out', fifo]), /^limited: cannot write results file '.*out\.fifo': it is a named pipe \(FIFO\), not a regular file$/);
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('a lock file that is a FIFO is refused, not waited on', () => {
    mkfifo('locked.csv.lock');
    expectUsageError(bounded([...BATCH, '--out', path('locked.csv')]), /^limited: cannot read lock file '.*locked\.csv\.lock': it is a named pipe \(FIFO\), not a regular file$/);
  });

  it('merge of a FIFO: refused, not read', () => {
    const fifo = mkfifo('part.csv');
    copyFileSync(join(ROOT, 'test', 'fixtures', 'batch', 'greedy.meta.json'), path('part.meta.json'));
    expectUsageError(bounded(['merge', fifo]), /^limited: cannot read results file '.*part\.csv': it is a named pipe \(FIFO\), not a regular file$/);
  });
});
