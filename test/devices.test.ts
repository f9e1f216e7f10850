/**
 * Devices and pipes where files are expected. Results (a batch's CSV and sidecars, a merge, a
 * solution file) go only to regular files: anything else is refused in one line before a byte
 * is read or written, and is left as it was (a rename had replaced /dev/null with a regular
 * file). A deal file is read with its 64 KiB cap enforced while reading, so an endless device
 * or pipe ends in one line at once. The devices are made with mknod in the test's directory
 * (root only; those cases are skipped otherwise); FIFOs with mkfifo.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, openSync, readdirSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dealFromNumber, formatDealFile, parseSize } from '../src/game/index.js';
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

  it('bench --deal-set a FIFO or /dev/zero: refused, not read (bench holds its signal handlers)', () => {
    const fifo = mkfifo('set.json');
    expectUsageError(bounded(['bench', '--deal-set', fifo, '--out-dir', path('set-bench')]), /^limited: cannot read deal set '.*set\.json': it is a named pipe \(FIFO\), not a regular file$/);
    expectUsageError(bounded(['bench', '--deal-set', '/dev/zero', '--out-dir', path('zero-bench')]), /^limited: cannot read deal set '\/dev\/zero': it is a character device, not a regular file$/);
  });

  it('merge of a FIFO: refused, not read', () => {
    const fifo = mkfifo('part.csv');
    copyFileSync(join(ROOT, 'test', 'fixtures', 'batch', 'greedy.meta.json'), path('part.meta.json'));
    expectUsageError(bounded(['merge', fifo]), /^limited: cannot read results file '.*part\.csv': it is a named pipe \(FIFO\), not a regular file$/);
  });
});

const TOO_BIG = /^limited: deal file (<stdin>|'[^']*') holds more than the 65536 bytes a deal file may hold$/;

describe('deal files from endless devices and pipes: the cap is kept while reading', () => {
  it.each(['/dev/zero', '/dev/urandom'])('solve --deal %s: one line, exit 2', (dev) => {
    if (!existsSync(dev)) return;
    expectUsageError(bounded(['solve', '--deal', dev]), TOO_BIG);
  });

  it('solve --deal - < /dev/zero: one line, exit 2', () => {
    if (!existsSync('/dev/zero')) return;
    const fd = openSync('/dev/zero', 'r');
    try {
      expectUsageError(bounded(['solve', '--deal', '-'], fd), TOO_BIG);
    } finally {
      closeSync(fd);
    }
  });

  it('solve --deal FIFO: a deal written into it is solved; an endless writer is cut off at the cap', async () => {
    const fifo = mkfifo('deal.fifo');
    const deal = formatDealFile(dealFromNumber(4, parseSize('1x5,4x3', ',')));
    // The writer opens once the reader has; the CLI runs in the background meanwhile.
    const solved = runAsync(['solve', '--deal', fifo]);
    const w = await open(fifo, 'w');
    await w.writeFile(deal);
    await w.close();
    const r = await solved;
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^verdict: +won$/m);

    const endless = runAsync(['solve', '--deal', fifo]);
    const e = await open(fifo, 'w');
    const chunk = Buffer.alloc(4096, 'x');
    // Writes until the reader goes away (EPIPE): far more than the cap if it did not stop.
    let written = 0;
    try {
      for (; written < 64 * 1024 * 1024; written += chunk.length) await e.write(chunk);
    } catch (err) {
      expect((err as NodeJS.ErrnoException).code).toBe('EPIPE');
    } finally {
      await e.close().catch(() => undefined);
    }
    expect(written).toBeLessThan(64 * 1024 * 1024);
    expectUsageError(await endless, TOO_BIG);
  });
});

/** Runs the CLI in the background; its result once it has exited. */
function runAsync(args: string[]): Promise<Result> {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((res) => child.on('close', (status) => res({ status, stdout, stderr })));
}
