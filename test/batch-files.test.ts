/**
 * The files of a batch under stress: results files of earlier versions (test/fixtures/batch and
 * the committed sidecars of results/) resumed and merged as before; a full disk (a small tmpfs
 * when this process may mount one, /dev/full and short writes otherwise).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../src/game/index.js';
import { writeAtomic, writeFully } from '../src/batch/fileio.js';
import { parseCsvLine } from '../src/batch/csv.js';
import { readMeta } from '../src/batch/sidecar.js';
import { MAIN, ROOT, type Result, expectUsageError, runCli, withTempDir } from './cli-helpers.js';

const FIXTURES = join(ROOT, 'test', 'fixtures', 'batch');

let dir: string;
const path = (name: string): string => join(dir, name);

withTempDir('limited-batch-files-', (d) => (dir = d));

function ok(args: string[], env: Record<string, string> = {}): Result {
  const r = runCli(args, { env });
  expect(r.status, r.stderr).toBe(0);
  return r;
}

/** A summary file without what depends on where it is (its own path). */
function figures(file: string): Record<string, unknown> {
  const { file: _, ...rest } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  return rest;
}

/** The fixtures copied into the test's directory (the runs write beside them). */
function copyFixtures(): void {
  for (const f of readdirSync(FIXTURES)) if (/\.(csv|json)$/.test(f)) copyFileSync(join(FIXTURES, f), path(f));
}

const SOLVE = ['--from', '1', '--count', '60', '--size', '1x6,5x3', '--preset', 'fast', '--max-nodes', '5000', '--no-progress', '--workers', '1'];
const GREEDY = ['--from', '1', '--count', '100', '--size', '1x6,5x3', '--player', 'greedy', '--no-progress', '--workers', '1'];

describe('results files of earlier versions', () => {
  it('resume to nothing left to do, their rows and figures as they were', () => {
    copyFixtures();
    for (const [args, csv] of [
      [[...SOLVE, '--shard', '1/2'], 'solve.shard-1-of-2.csv'],
      [[...SOLVE, '--shard', '2/2'], 'solve.shard-2-of-2.csv'],
      [GREEDY, 'greedy.csv'],
    ] as const) {
      const r = ok(['batch', ...args, '--out', path(csv.replace(/\.shard-.*/, '.csv'))]);
      expect(r.stderr).toMatch(/nothing left to do/);
      expect(readFileSync(path(csv), 'utf8')).toBe(readFileSync(join(FIXTURES, csv), 'utf8'));
      const summary = csv.replace(/\.csv$/, '.summary.json');
      expect(figures(path(summary))).toEqual(figures(join(FIXTURES, summary)));
    }
  });

  it('merge to the same file and figures as the version that wrote them', () => {
    copyFixtures();
    ok(['merge', path('solve.shard-2-of-2.csv'), path('solve.shard-1-of-2.csv'), '--out', path('m/solve.csv')]);
    expect(readFileSync(path('m/solve.csv'), 'utf8')).toBe(readFileSync(join(FIXTURES, 'expected', 'merged-solve.csv'), 'utf8'));
    expect(figures(path('m/solve.summary.json'))).toEqual(figures(join(FIXTURES, 'expected', 'merged-solve.summary.json')));
  });

  it("the committed sidecars of results/ read as batch sidecars", () => {
    const tactics = join(ROOT, 'results', 'tactics');
    const metas = readdirSync(tactics).filter((f) => f.endsWith('.meta.json'));
    expect(metas.length).toBeGreaterThan(20);
    for (const f of metas) {
      const m = readMeta(join(tactics, f.replace(/\.meta\.json$/, '.csv')));
      expect(m, f).not.toBeNull();
      expect(m!.complete, f).toBe(true);
      expect(['solve', 'play'], f).toContain(m!.job.kind);
    }
  });
});

/** Whether this process may mount a tmpfs (root on Linux); the tests that need one are skipped otherwise. */
function canMount(): boolean {
  if (process.platform !== 'linux') return false;
  const probe = mkdtempSync(join(tmpdir(), 'limited-mount-'));
  const ok = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' }).status === 0;
  if (ok) spawnSync('umount', [probe], { stdio: 'ignore' });
  rmSync(probe, { recursive: true, force: true });
  return ok;
}
const MOUNT = canMount();

/** Runs f with a tmpfs of `kb` kilobytes mounted at a new directory `name` of the test's directory, unmounted after. */
async function withTmpfs(name: string, kb: number, f: (mnt: string) => Promise<void> | void): Promise<void> {
  const mnt = path(name);
  mkdirSync(mnt);
  const m = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${kb}k`, 'tmpfs', mnt], { encoding: 'utf8' });
  expect(m.status, m.stderr).toBe(0);
  try {
    await f(mnt);
  } finally {
    spawnSync('umount', [mnt]);
  }
}

const remount = (mnt: string, kb: number): void => {
  const r = spawnSync('mount', ['-o', `remount,size=${kb}k`, mnt], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
};

/** The rows of a results CSV without the timing column (ms), sorted by deal. */
function rowsOf(file: string): string[] {
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
  const ms = parseCsvLine(lines[0]!).indexOf('ms');
  return lines
    .slice(1)
    .map((l) => parseCsvLine(l).filter((_, i) => i !== ms))
    .sort((a, b) => Number(a[0]) - Number(b[0]))
    .map((f) => f.join(','));
}

/** A failed run: nothing on stdout, its last stderr line one `limited: ...` line matching `pattern`, no stack. */
function expectStopped(r: Result, pattern: RegExp): void {
  expect(r.status, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).not.toMatch(/^\s+at /m);
  const last = r.stderr.trim().split('\n').pop()!;
  expect(last).toMatch(/^limited: /);
  expect(last).toMatch(pattern);
}

const pages = (bytes: number): number => Math.ceil(bytes / 4096);

describe('a full disk', () => {
  it('writeFully writes what a short write left, and calls a write that makes no progress a full disk', () => {
    const got: number[] = [];
    const buf = Buffer.from('0123456789abcdefghij');
    // At most 7 bytes a call, as a nearly full disk may.
    writeFully(3, buf, (_fd, b, off, len) => {
      const n = Math.min(7, len);
      for (let i = 0; i < n; i++) got.push(b[off + i]!);
      return n;
    });
    expect(Buffer.from(got).toString()).toBe('0123456789abcdefghij');
    expect(() => writeFully(3, buf, () => 0)).toThrow(expect.objectContaining({ code: 'ENOSPC' }));
  });

  it('writeAtomic onto a full device keeps the old file and says so in one line', () => {
    if (!existsSync('/dev/full')) return;
    const file = path('keep.csv');
    writeFileSync(file, 'the old rows\n');
    // The temporary file is /dev/full, where every write fails with ENOSPC.
    symlinkSync('/dev/full', `${file}.tmp`);
    let err: unknown;
    try {
      writeAtomic(file, 'new rows\n'.repeat(1000), 'results file');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(`cannot write results file '${file}': no space left on the device`);
    expect(readFileSync(file, 'utf8')).toBe('the old rows\n');
    expect(existsSync(`${file}.tmp`)).toBe(false);
  });

  const SMALL = ['--size', '1x6,5x3', '--preset', 'fast', '--max-nodes', '5000', '--no-progress', '--workers', '1'];

  it.skipIf(!MOUNT)('a final sorted rewrite that does not fit keeps the rows, is not complete, exits 2 in one line; the same command finishes it', async () => {
    const args = ['batch', '--from', '1', '--count', '1000', ...SMALL];
    ok([...args, '--out', path('ref/full.csv')]);
    const size = statSync(path('ref/full.csv')).size;
    // Room for the rows, the sidecar, its temporary file and the lock, not for a second copy of the rows.
    const kb = 4 * (pages(size) + 4 + Math.floor(pages(size) / 2));
    await withTmpfs('fs1', kb, (mnt) => {
      const out = join(mnt, 'full.csv');
      const r = runCli([...args, '--out', out]);
      expectStopped(r, new RegExp(`^limited: cannot write results file '.*full\\.csv': no space left on the device: stopped; all 1000 deals are in .*full\\.csv, unsorted`));
      expect(rowsOf(out)).toEqual(rowsOf(path('ref/full.csv')));
      const meta = JSON.parse(readFileSync(join(mnt, 'full.meta.json'), 'utf8'));
      expect(meta.complete).toBe(false);
      expect(meta.sessions.at(-1).status).toBe('failed');
      expect(existsSync(join(mnt, 'full.summary.json'))).toBe(false);
      expect(readdirSync(mnt).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      // With room, the same command sorts the rows and says complete.
      remount(mnt, 4096);
      const again = ok([...args, '--out', out]);
      expect(again.stdout).toMatch(/^deals +1000$/m);
      expect(readFileSync(out, 'utf8').split('\n').slice(1, -1).map((l) => Number(l.split(',')[0]))).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
      expect(rowsOf(out)).toEqual(rowsOf(path('ref/full.csv')));
      expect(JSON.parse(readFileSync(join(mnt, 'full.meta.json'), 'utf8')).complete).toBe(true);
    });
  });

  it.skipIf(!MOUNT)('rows that do not fit stop the run in one line, whole rows kept; the same command resumes', async () => {
    const args = ['batch', '--from', '1', '--count', '2000', '--size', '1x6,5x3', '--player', 'greedy', '--no-progress', '--workers', '1'];
    ok([...args, '--out', path('ref/greedy.csv')]);
    await withTmpfs('fs2', 64, (mnt) => {
      const out = join(mnt, 'greedy.csv');
      const r = runCli([...args, '--out', out]);
      expectStopped(r, new RegExp(`^limited: cannot write results file '.*greedy\\.csv': no space left on the device: stopped; \\d+ of 2000 deals are in .*greedy\\.csv: make room and run the same command again to resume$`));
      const kept = Number(/stopped; (\d+) of 2000/.exec(r.stderr)![1]);
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(2000);
      const text = readFileSync(out, 'utf8');
      expect(text.endsWith('\n')).toBe(true);
      const rows = rowsOf(out);
      expect(rows).toHaveLength(kept);
      const ref = new Set(rowsOf(path('ref/greedy.csv')));
      for (const row of rows) expect(ref.has(row), row).toBe(true);
      expect(JSON.parse(readFileSync(join(mnt, 'greedy.meta.json'), 'utf8')).complete).toBe(false);
      remount(mnt, 4096);
      const again = ok([...args, '--out', out]);
      expect(again.stderr).toMatch(new RegExp(`resuming .*: ${kept} of 2000 deals already done`));
      expect(rowsOf(out)).toEqual(rowsOf(path('ref/greedy.csv')));
    });
  });
});

/** A batch started in the background, as another host would run it (LIMITED_HOSTNAME). */
interface Background {
  readonly child: ChildProcess;
  /** Its exit status and stderr, once it has ended. */
  readonly done: Promise<{ status: number | null; stderr: string }>;
}

function background(args: string[], host: string): Background {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LIMITED_HOSTNAME: host } });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ status: number | null; stderr: string }>((res) => child.on('close', (status) => res({ status, stderr })));
  return { child, done };
}

/** Waits until `file` has more than `n` lines (up to a minute: a loaded machine is slow). */
async function linesAbove(file: string, n: number): Promise<void> {
  for (let t = 0; t < 6000; t++) {
    if (existsSync(file) && readFileSync(file, 'utf8').split('\n').length > n) return;
    await new Promise((res) => setTimeout(res, 10));
  }
}

/** Full-size deals at a small budget, one deal a chunk: a run that takes long enough to meet. */
const LONG = ['batch', '--from', '1', '--count', '3000', '--preset', 'fast', '--max-nodes', '3000', '--chunk', '1', '--workers', '1', '--no-progress'];

/** Sets a lock's last renewal `seconds` ago, as that much time passing would. */
function renewedAgo(file: string, seconds: number): void {
  const t = new Date(Date.now() - seconds * 1000);
  utimesSync(file, t, t);
}

describe('the lock, across hosts that share the file system', () => {
  it('another host is refused while the lease is live and takes the lock once it has run out; the same host takes a dead run\'s lock at once', async () => {
    const out = path('hosts.csv');
    const lock = `${out}.lock`;
    const a = background([...LONG, '--out', out], 'alpha');
    try {
      await linesAbove(out, 3);
      const held = JSON.parse(readFileSync(lock, 'utf8'));
      expect(held).toMatchObject({ host: 'alpha', pid: a.child.pid });
      expectUsageError(
        runCli([...LONG, '--out', out], { env: { LIMITED_HOSTNAME: 'beta' } }),
        new RegExp(`another batch \\(host alpha, process ${a.child.pid}, since .*\\) holds the lock of '.*hosts\\.csv' \\(hosts\\.csv\\.lock, renewed \\d+ s ago\\): two runs must not write one file; if that run is gone, its lock expires 60 s after its last renewal`),
      );
    } finally {
      a.child.kill('SIGKILL');
      await a.done;
    }
    // alpha's run is dead, but beta cannot tell: it waits the lease out.
    renewedAgo(lock, 5);
    expectUsageError(runCli([...LONG, '--out', out], { env: { LIMITED_HOSTNAME: 'beta' } }), /another batch \(host alpha, .*renewed 5 s ago/);
    renewedAgo(lock, 61);
    const b = background([...LONG, '--out', out], 'beta');
    try {
      const before = readFileSync(out, 'utf8').split('\n').length;
      await linesAbove(out, before + 2);
      expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ host: 'beta', pid: b.child.pid });
    } finally {
      b.child.kill('SIGKILL');
      await b.done;
    }
    // beta's lock is fresh, but its process is gone: on beta itself it is taken at once.
    renewedAgo(lock, 0);
    const c = background([...LONG, '--out', out], 'beta');
    try {
      const before = readFileSync(out, 'utf8').split('\n').length;
      await linesAbove(out, before + 2);
      expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ host: 'beta', pid: c.child.pid });
    } finally {
      c.child.kill('SIGKILL');
      await c.done;
    }
  }, 180_000);
});

describe('a run that finds its file or its lock not its own', () => {
  it('stops in one line when rows it did not write appear in its CSV', async () => {
    const out = path('foreign-rows.csv');
    const a = background([...LONG, '--out', out], 'alpha');
    try {
      await linesAbove(out, 3);
      const row = readFileSync(out, 'utf8').split('\n')[1]!;
      appendFileSync(out, row + '\n');
      const r = await a.done;
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n').pop()).toMatch(
        new RegExp(`^limited: '.*foreign-rows\\.csv' holds ${row.length + 1} bytes more than this run wrote: another process wrote it too \\(a second run on the same --out\\?\\): stopped; \\d+ of 3000 deals are in .*: run the same command again to resume$`),
      );
      expect(JSON.parse(readFileSync(path('foreign-rows.meta.json'), 'utf8')).sessions.at(-1).status).toBe('failed');
    } finally {
      a.child.kill('SIGKILL');
      await a.done;
    }
  }, 180_000);

  it('stops in one line when its lock is taken over', async () => {
    const out = path('taken.csv');
    const a = background([...LONG, '--out', out], 'alpha');
    try {
      await linesAbove(out, 3);
      // Written whole, as a taker does (its own file, renamed into place).
      writeFileSync(`${out}.lock.new`, JSON.stringify({ host: 'beta', pid: 4242, startedAt: new Date().toISOString(), token: 'x' }) + '\n');
      renameSync(`${out}.lock.new`, `${out}.lock`);
      const r = await a.done;
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n').pop()).toMatch(
        /^limited: the lock of '.*taken\.csv' was taken by another run \(host beta, process 4242\) while this one wrote it: stopped; \d+ of 3000 deals are in .*taken\.csv: run the same command again to resume$/,
      );
      // The lock is the other run's: left as it is.
      expect(JSON.parse(readFileSync(`${out}.lock`, 'utf8')).host).toBe('beta');
    } finally {
      a.child.kill('SIGKILL');
      await a.done;
    }
  }, 180_000);
});
