/**
 * The files of a batch under stress: results files of earlier versions (test/fixtures/batch and
 * the committed sidecars of results/) resumed and merged as before; a full disk (a small tmpfs
 * when this process may mount one, /dev/full and short writes otherwise).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../src/game/index.js';
import { writeAtomic, writeFully } from '../src/util/fileio.js';
import { parseCsvLine } from '../src/batch/csv.js';
import { readMeta } from '../src/batch/sidecar.js';
import { hashRows } from '../src/batch/rowhash.js';
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

  it('writeAtomic onto a full disk keeps the old file and says so in one line', () => {
    const file = path('keep.csv');
    writeFileSync(file, 'the old rows\n');
    // Every write fails with ENOSPC after the first 100 bytes, as on a full disk.
    let room = 100;
    const full = (_fd: number, _b: Uint8Array, _off: number, len: number): number => {
      if (room === 0) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      const n = Math.min(room, len);
      room -= n;
      return n;
    };
    let err: unknown;
    try {
      writeAtomic(file, 'new rows\n'.repeat(1000), 'results file', { write: full });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(`cannot write results file '${file}': no space left on the device`);
    expect(readFileSync(file, 'utf8')).toBe('the old rows\n');
    expect(readdirSync(dir).filter((f) => f.startsWith('keep.csv.'))).toEqual([]);
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

  it.skipIf(!MOUNT)('merge --out onto a full disk leaves none of its files; the same command succeeds once there is room', async () => {
    copyFixtures();
    const parts = [path('solve.shard-1-of-2.csv'), path('solve.shard-2-of-2.csv')];
    ok(['merge', ...parts, '--out', path('ref-merge/m.csv')]);
    // Room for the merged CSV, not for its sidecars as well.
    await withTmpfs('fs3', 4 * pages(statSync(path('ref-merge/m.csv')).size), (mnt) => {
      const out = join(mnt, 'm.csv');
      const r = runCli(['merge', ...parts, '--out', out]);
      expectStopped(r, /^limited: cannot write (merged file|sidecar) '.*m\.(csv|meta\.json|summary\.json)': no space left on the device$/);
      expect(readdirSync(mnt)).toEqual([]);
      remount(mnt, 4096);
      ok(['merge', ...parts, '--out', out]);
      expect(readFileSync(out, 'utf8')).toBe(readFileSync(path('ref-merge/m.csv'), 'utf8'));
      expect(readdirSync(mnt).sort()).toEqual(['m.csv', 'm.meta.json', 'm.summary.json']);
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

function background(args: string[], host: string, env: Record<string, string> = {}): Background {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LIMITED_HOSTNAME: host, ...env } });
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

/** A run on `host` takes the lock of `out` and writes rows; then it is killed, as a host dies. */
async function takesLock(out: string, host: string): Promise<void> {
  const run = background([...LONG, '--out', out], host);
  try {
    const before = readFileSync(out, 'utf8').split('\n').length;
    await linesAbove(out, before + 2);
    expect(JSON.parse(readFileSync(`${out}.lock`, 'utf8'))).toMatchObject({ host, pid: run.child.pid });
  } finally {
    run.child.kill('SIGKILL');
    await run.done;
  }
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
    expectUsageError(runCli([...LONG, '--out', out], { env: { LIMITED_HOSTNAME: 'beta' } }), /another batch \(host alpha, .*renewed \d+ s ago/);
    renewedAgo(lock, 61);
    await takesLock(out, 'beta');
    // beta's lock is fresh, but its process is gone: on beta itself it is taken at once.
    renewedAgo(lock, 0);
    await takesLock(out, 'beta');
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
        /^limited: the lock of '.*taken\.csv' was taken by another run \(host beta, process 4242\) while this one wrote it: stopped, writing nothing more \(the file is that run's now\)$/,
      );
      // The lock is the other run's: left as it is.
      expect(JSON.parse(readFileSync(`${out}.lock`, 'utf8')).host).toBe('beta');
    } finally {
      a.child.kill('SIGKILL');
      await a.done;
    }
  }, 180_000);
});

/**
 * A batch in the background that stalls before the write of its `n`th append, as a write to a
 * hung NFS server does, until `go` (the test hook LIMITED_TEST_STALL). While it stalls its
 * main thread is blocked: no renewal of its lock, no timer, no signal handler runs.
 */
function stalling(args: string[], host: string, n: number, name: string): Background & { stalled: () => Promise<void>; go: () => void } {
  const hook = path(`stall-${name}`);
  mkdirSync(hook);
  const run = background(args, host, { LIMITED_TEST_STALL: `${n}:${hook}` });
  return {
    ...run,
    stalled: async () => {
      while (!existsSync(join(hook, 'stalled'))) {
        if (run.child.exitCode !== null) throw new Error(`the run ended before it stalled: ${(await run.done).stderr}`);
        await new Promise((res) => setTimeout(res, 10));
      }
    },
    go: () => writeFileSync(join(hook, 'go'), ''),
  };
}

/** A small run of one deal a chunk (an append a deal), quick enough to finish in a test. */
const STALL = ['batch', '--from', '1', '--count', '40', '--size', '1x6,5x3', '--preset', 'fast', '--max-nodes', '5000', '--chunk', '1', '--workers', '1', '--no-progress'];

describe('a writer that stalls past its lease (fencing)', () => {
  it('its stalled append cannot reach the file of the run that took over: every deal once, that run completes', async () => {
    ok([...STALL, '--out', path('fence-ref.csv')]);
    const out = path('fence.csv');
    const a = stalling([...STALL, '--out', out], 'alpha', 3, 'fence-a');
    let b: ReturnType<typeof stalling> | undefined;
    try {
      await a.stalled();
      // alpha hangs past its lease (its renewals hang with it); beta takes the file over and
      // is itself between its checks and its write when alpha's write lands.
      renewedAgo(`${out}.lock`, 61);
      b = stalling([...STALL, '--out', out], 'beta', 3, 'fence-b');
      await b.stalled();
      a.go();
      const ra = await a.done;
      b.go();
      const rb = await b.done;
      // beta's file is beta's alone: it completes it, each deal once.
      expect(rb.status, rb.stderr).toBe(0);
      expect(rowsOf(out)).toEqual(rowsOf(path('fence-ref.csv')));
      expect(ra.status, ra.stderr).toBe(2);
      expect(ra.stderr.trim().split('\n').pop()).toMatch(/^limited: the lock of '.*fence\.csv' was taken by another run \(host beta, process \d+\) while this one wrote it: stopped, writing nothing more \(the file is that run's now\)$/);
    } finally {
      for (const r of [a, b]) {
        if (!r) continue;
        r.go();
        r.child.kill('SIGKILL');
        await r.done;
      }
    }
    expect(ok([...STALL, '--out', out]).stderr).toMatch(/40 of 40 deals already done/);
  }, 180_000);

  it('a run stopped (SIGSTOP) past its lease, continued after the other run completed the file, writes nothing more', async () => {
    const out = path('stopped.csv');
    const a = stalling([...STALL, '--out', out], 'alpha', 3, 'stopped-a');
    try {
      await a.stalled();
      a.child.kill('SIGSTOP');
      a.go();
      renewedAgo(`${out}.lock`, 61);
      ok([...STALL, '--out', out], { LIMITED_HOSTNAME: 'beta' });
      const files = ['stopped.csv', 'stopped.meta.json', 'stopped.summary.json'];
      const before = files.map((f) => readFileSync(path(f), 'utf8'));
      expect(JSON.parse(before[1]!).complete).toBe(true);
      a.child.kill('SIGCONT');
      const ra = await a.done;
      // The winner's files, byte for byte; no temporary file or lock left behind.
      expect(files.map((f) => readFileSync(path(f), 'utf8'))).toEqual(before);
      expect(readdirSync(dir).filter((f) => f.startsWith('stopped.') && !files.includes(f))).toEqual([]);
      expect(ra.status, ra.stderr).toBe(2);
      // beta has let its lock go: gone, rather than another's.
      expect(ra.stderr.trim().split('\n').pop()).toMatch(/^limited: the lock of '.*stopped\.csv' \(stopped\.csv\.lock\) was removed while this run wrote it: stopped, writing nothing more$/);
    } finally {
      a.child.kill('SIGCONT');
      a.child.kill('SIGKILL');
      await a.done;
    }
  }, 180_000);
});

/** A fixture's text with line `line` (1 = the header) changed: `column` set to `value` (and more columns by `also`). */
function withField(csv: string, line: number, column: string, value: string, also: Record<string, string> = {}): string {
  const lines = readFileSync(join(FIXTURES, csv), 'utf8').split('\n');
  const cols = parseCsvLine(lines[0]!);
  const f = parseCsvLine(lines[line - 1]!);
  for (const [c, v] of Object.entries({ ...also, [column]: value })) f[cols.indexOf(c)] = v;
  lines[line - 1] = f.join(',');
  return lines.join('\n');
}

/** Writes a results file `name` (text given) with a fixture's sidecar beside it. */
function damaged(name: string, text: string, fixture: string): string {
  const out = path(`${name}.csv`);
  writeFileSync(out, text);
  copyFileSync(join(FIXTURES, fixture.replace(/\.csv$/, '.meta.json')), path(`${name}.meta.json`));
  return out;
}

const SHARD1 = 'solve.shard-1-of-2.csv';

describe('damaged rows: resume and merge check every field of every row', () => {
  // Line 13 of shard 1 is deal 12: unknown after 5000 nodes.
  it.each([
    ['a verdict typo', 5, 'verdict', 'unknwn', /line 5: verdict 'unknwn' is not won, unsolvable or unknown$/],
    ['an unknown row whose verdict says won', 13, 'verdict', 'won', /line 13: limit 'nodes' with verdict won: only an unknown row has a limit$/],
    ['an unknown row without its limit', 14, 'limit', '', /line 14: limit is empty with verdict unknown: an unknown row names the budget that ran out \(nodes, time or memory\)$/],
    ['nodes not a number', 3, 'nodes', 'abc', /line 3: nodes 'abc' is not a whole number >= 0$/],
    ['a negative number', 3, 'states', '-4', /line 3: states '-4' is not a whole number >= 0$/],
    ['more cards home than the deck holds', 3, 'best_home', '25', /line 3: best_home '25' is more than the 24 cards of the deck$/],
    ['milliseconds not a number', 3, 'ms', 'NaN', /line 3: ms 'NaN' is not a number of milliseconds >= 0$/],
    ["rules other than the sidecar's", 4, 'rules', 'pysol', /line 4: rules 'pysol' is not the job's 'book' \(as its sidecar says\)$/],
    ["a node budget other than the sidecar's", 6, 'max_nodes', '6000', /line 6: max_nodes '6000' is not the job's '5000' \(as its sidecar says\)$/],
    ['another size', 7, 'size', '2x13 12x3', /line 7: size '2x13 12x3' is not the job's '1x6 5x3'/],
    ['a deal number that is not one', 9, 'deal', '12x', /line 9: not a row of a batch \(its first field is not a deal number\)$/],
  ])('%s', (_what, line, column, value, pattern) => {
    const name = `bad-${column}-${line}`;
    const csv = damaged(`${name}.shard-1-of-2`, withField(SHARD1, line, column, value), SHARD1);
    checkRefused(name, csv, pattern);
  });

  // Damage that keeps a row's fields in agreement: what the row implies is checked too.
  it.each([
    ['an unknown row relabelled won, with a solution, short of all cards home', 13, { verdict: 'won', limit: '', solution_length: '40' }, /line 13: best_home 21 with verdict won: a won row has all 24 cards home$/],
    ['a won row relabelled unsolvable, every card still home', 2, { verdict: 'unsolvable', solution_length: '0' }, /line 2: best_home 24 with verdict unsolvable: only a won row has all 24 cards home$/],
    ['a won row with few cards home', 4, { best_home: '10' }, /line 4: best_home 10 with verdict won: a won row has all 24 cards home$/],
    ['nodes far past the node budget', 3, { nodes: '999999' }, /line 3: nodes 999999 with max_nodes 5000: more than 2 times the node budget, which no search spends$/],
    ['a deal number written with a leading zero', 6, { deal: '05' }, /line 6: deal '05' is not written as limited writes numbers \('5'\)$/],
    ['a count written with a leading zero', 7, { states: '031' }, /line 7: states '031' is not written as limited writes numbers \('31'\)$/],
    ['milliseconds with a trailing zero', 7, { ms: '0.8630' }, /line 7: ms '0\.8630' is not written as limited writes numbers \('0\.863'\)$/],
  ])('%s', (_what, line, fields, pattern) => {
    const name = `implied-${line}-${Object.keys(fields).join('-')}`;
    const [first, ...rest] = Object.entries(fields);
    const csv = damaged(`${name}.shard-1-of-2`, withField(SHARD1, line, first![0], first![1], Object.fromEntries(rest)), SHARD1);
    checkRefused(name, csv, pattern);
  });

  it("a player's lost game with every card home", () => {
    const lines = readFileSync(join(FIXTURES, 'greedy.csv'), 'utf8').split('\n');
    const lost = lines.findIndex((l) => l.includes(',lost,')) + 1;
    const csv = damaged('lost-home', withField('greedy.csv', lost, 'home', '24'), 'greedy.csv');
    expectUsageError(runCli(['merge', csv]), new RegExp(`lost-home\\.csv, line ${lost}: home 24 with verdict lost: a game with all 24 cards home is won$`));
  });

  it('a row flipped from unknown,nodes to won, (no solution)', () => {
    const csv = damaged('flipped.shard-1-of-2', withField(SHARD1, 25, 'verdict', 'won', { limit: '' }), SHARD1);
    checkRefused('flipped', csv, /line 25: solution_length 0 with verdict won: a won row has the length of its solution$/);
  });

  /** Resume and merge of a damaged shard 1 (`name`.shard-1-of-2.csv) both refuse it with `pattern`, the file left as it was. */
  function checkRefused(name: string, csv: string, pattern: RegExp): void {
    const before = readFileSync(csv, 'utf8');
    expectUsageError(runCli(['batch', ...SOLVE, '--shard', '1/2', '--out', path(`${name}.csv`)]), new RegExp(`^limited: ${csv.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}, ${pattern.source}`));
    expect(readFileSync(csv, 'utf8')).toBe(before);
    copyFileSync(join(FIXTURES, 'solve.shard-2-of-2.csv'), path(`${name}.shard-2-of-2.csv`));
    copyFileSync(join(FIXTURES, 'solve.shard-2-of-2.meta.json'), path(`${name}.shard-2-of-2.meta.json`));
    expectUsageError(runCli(['merge', csv, path(`${name}.shard-2-of-2.csv`)]), pattern);
  }

  it("a player's rows: an end that disagrees with the verdict, a won game short of all cards home", () => {
    const one = damaged('bad-end', withField('greedy.csv', 2, 'end', 'stopped'), 'greedy.csv');
    expectUsageError(runCli(['batch', ...GREEDY, '--out', one]), /bad-end\.csv, line 2: end 'stopped' with verdict won: a game ends 'won' exactly when it is won$/);
    const two = damaged('bad-home', withField('greedy.csv', 2, 'home', '23'), 'greedy.csv');
    expectUsageError(runCli(['merge', two]), /bad-home\.csv, line 2: home 23 with verdict won: a won game has all 24 cards home$/);
    const three = damaged('bad-redealt', withField('greedy.csv', 3, 'redealt', '2'), 'greedy.csv');
    expectUsageError(runCli(['merge', three]), /bad-redealt\.csv, line 3: redealt '2' is not 0 or 1$/);
  });

  it('a row with a field too many or too few, and a header of other columns, named', () => {
    const lines = readFileSync(join(FIXTURES, 'greedy.csv'), 'utf8').split('\n');
    const extra = damaged('extra', [...lines.slice(0, 4), lines[4] + ',9', ...lines.slice(5)].join('\n'), 'greedy.csv');
    expectUsageError(runCli(['merge', extra]), /extra\.csv, line 5: 16 fields, the header has 15$/);
    const header = damaged('header', [lines[0]!.replace('moves', 'steps'), ...lines.slice(1)].join('\n'), 'greedy.csv');
    expectUsageError(runCli(['batch', ...GREEDY, '--out', header]), /'.*header\.csv' has other columns than this version of limited writes for a play job \(column 11 is 'steps', not 'moves'\): choose another --out$/);
  });

  it('CRLF line ends and a byte order mark are read as LF: the file resumes and merges as the original', () => {
    const text = readFileSync(join(FIXTURES, SHARD1), 'utf8');
    const crlf = damaged('crlf.shard-1-of-2', '\ufeff' + text.replace(/\n/g, '\r\n'), SHARD1);
    const r = ok(['batch', ...SOLVE, '--shard', '1/2', '--out', path('crlf.csv')]);
    expect(r.stderr).toMatch(/30 of 30 deals already done/);
    copyFileSync(join(FIXTURES, 'solve.shard-2-of-2.csv'), path('crlf.shard-2-of-2.csv'));
    copyFileSync(join(FIXTURES, 'solve.shard-2-of-2.meta.json'), path('crlf.shard-2-of-2.meta.json'));
    ok(['merge', crlf, path('crlf.shard-2-of-2.csv'), '--out', path('crlf-merged.csv')]);
    expect(readFileSync(path('crlf-merged.csv'), 'utf8')).toBe(readFileSync(join(FIXTURES, 'expected', 'merged-solve.csv'), 'utf8'));
  });

  it('an empty CSV with its sidecar says that its rows are lost', () => {
    const empty = damaged('empty', '', 'greedy.csv');
    const why = /^limited: '.*empty\.csv' is empty \(not even its header\), but its sidecar '.*empty\.meta\.json' records 100 deals done and the file complete: its rows were lost \(a copy cut short, a full disk, an editor\); restore it, or remove it and its sidecars to start again$/;
    expectUsageError(runCli(['batch', ...GREEDY, '--out', empty]), why);
    expectUsageError(runCli(['merge', empty]), why);
    expect(readFileSync(empty, 'utf8')).toBe('');
  });

  it('a damaged sidecar is one line naming its field', () => {
    const meta = JSON.parse(readFileSync(join(FIXTURES, 'greedy.meta.json'), 'utf8'));
    const cases: [string, (m: Record<string, any>) => void, RegExp][] = [
      ['count', (m) => (m.range.count = 'x'), /"range\.count" is "x", not a whole number >= 0$/],
      ['part', (m) => (m.part = { from: 1, count: 50 }), /"part" is \{"from":1,"count":50\}, not the deals 1-100 of range 1-100$/],
      ['rules', (m) => (m.job.rules = 'chess'), /"job\.rules" is "chess", not rules this version reads \(unknown rules word 'chess'/],
      ['sessions', (m) => (m.sessions = {}), /"sessions" is \{\}, not a list$/],
      ['deals', (m) => delete m.sessions[0].deals, /"sessions\[0\]\.deals" is missing, not a number >= 0$/],
      ['kind', (m) => (m.job.kind = 'golf'), /"job\.kind" is "golf", not 'solve' or 'play'$/],
    ];
    for (const [name, change, pattern] of cases) {
      const m = structuredClone(meta);
      change(m);
      const csv = path(`side-${name}.csv`);
      copyFileSync(join(FIXTURES, 'greedy.csv'), csv);
      writeFileSync(path(`side-${name}.meta.json`), JSON.stringify(m));
      expectUsageError(runCli(['merge', csv]), new RegExp(`^limited: .*side-${name}\\.meta\\.json: ${pattern.source}`));
      expectUsageError(runCli(['batch', ...GREEDY, '--out', csv]), pattern);
    }
    writeFileSync(path('side-json.meta.json'), '{"format": "limited-batch/1",');
    copyFileSync(join(FIXTURES, 'greedy.csv'), path('side-json.csv'));
    expectUsageError(runCli(['merge', path('side-json.csv')]), /side-json\.meta\.json: not valid JSON/);
  });
});

describe('rows that prove themselves: the row hash in the sidecar', () => {
  const HASHED = ['--from', '1', '--count', '40', '--size', '1x6,5x3', '--preset', 'fast', '--max-nodes', '5000', '--no-progress', '--workers', '1'];

  /** A complete file of this version (its sidecar has a row hash) named `name`.csv. */
  function hashedRun(name: string, extra: string[] = []): string {
    const out = path(`${name}.csv`);
    ok(['batch', ...HASHED, ...extra, '--out', out]);
    const meta = JSON.parse(readFileSync(path(`${name}.meta.json`), 'utf8'));
    expect(meta.rows).toBe(40);
    expect(meta.rowsHash).toMatch(/^[0-9a-f]{16}$/);
    return out;
  }

  const NOT_AS_WRITTEN = /is not as the runs named in its sidecar wrote it: its first 40 rows hash to [0-9a-f]{16}, its sidecar says [0-9a-f]{16} \(a row changed, added or taken away since, or the sidecar of another file\); restore it, or remove it and its sidecars to start again$/;

  it('a row changed consistently (its milliseconds) is refused by resume and merge', () => {
    const out = hashedRun('consistent');
    const lines = readFileSync(out, 'utf8').split('\n');
    const f = parseCsvLine(lines[5]!);
    f[f.length - 1] = String(Number(f[f.length - 1]) + 1);
    lines[5] = f.join(',');
    writeFileSync(out, lines.join('\n'));
    expectUsageError(runCli(['batch', ...HASHED, '--out', out]), NOT_AS_WRITTEN);
    expectUsageError(runCli(['merge', out]), NOT_AS_WRITTEN);
  });

  it('rows and sidecar both relabelled to another budget are refused by merge and resume', () => {
    const out = hashedRun('relabelled');
    writeFileSync(out, readFileSync(out, 'utf8').replace(/,5000,,2048,/g, ',6000,,2048,'));
    const metaFile = path('relabelled.meta.json');
    const meta = JSON.parse(readFileSync(metaFile, 'utf8'));
    meta.job.solver.maxNodes = 6000;
    meta.job.budgets.maxNodes = 6000;
    writeFileSync(metaFile, JSON.stringify(meta, null, 2));
    expectUsageError(runCli(['merge', out]), NOT_AS_WRITTEN);
    expectUsageError(runCli(['batch', ...HASHED.map((a) => (a === '5000' ? '6000' : a)), '--out', out]), NOT_AS_WRITTEN);
  });

  it('a header-only CSV whose sidecar records deals done is refused, not computed again (hashed and earlier sidecars)', () => {
    const out = hashedRun('header-only');
    writeFileSync(out, readFileSync(out, 'utf8').split('\n')[0] + '\n');
    const lost = (n: number, name: string): RegExp =>
      new RegExp(`^limited: '.*${name}\\.csv' holds 0 rows, but its sidecar '.*${name}\\.meta\\.json' records ${n} deals done and the file complete: rows were lost`);
    expectUsageError(runCli(['batch', ...HASHED, '--out', out]), lost(40, 'header-only'));
    expectUsageError(runCli(['merge', out]), lost(40, 'header-only'));
    // A sidecar of an earlier version: the deals its runs counted.
    const old = damaged('old-header-only', readFileSync(join(FIXTURES, 'greedy.csv'), 'utf8').split('\n')[0] + '\n', 'greedy.csv');
    expectUsageError(runCli(['batch', ...GREEDY, '--out', old]), lost(100, 'old-header-only'));
    expectUsageError(runCli(['merge', old]), lost(100, 'old-header-only'));
  });

  it('a sidecar of an earlier version (no hash) is read with a note; a run that resumes it writes the hash', () => {
    copyFixtures();
    const r = ok(['merge', path('solve.shard-1-of-2.csv'), path('solve.shard-2-of-2.csv'), '--out', path('old-merged.csv')]);
    expect(r.stderr).toMatch(/^limited: note: '.*solve\.shard-1-of-2\.meta\.json' has no row hash \(an earlier version wrote it\): the rows of '.*solve\.shard-1-of-2\.csv' were checked one by one only$/m);
    // The merge of unhashed parts is itself hashed.
    expect(JSON.parse(readFileSync(path('old-merged.meta.json'), 'utf8')).rows).toBe(60);
    // An unfinished file whose sidecar has no hash (an earlier version stopped it): resumed, then hashed.
    const out = hashedRun('was-unhashed');
    const lines = readFileSync(out, 'utf8').split('\n');
    writeFileSync(out, lines.slice(0, 31).join('\n') + '\n');
    const metaFile = path('was-unhashed.meta.json');
    const meta = JSON.parse(readFileSync(metaFile, 'utf8'));
    delete meta.rows;
    delete meta.rowsHash;
    meta.complete = false;
    meta.sessions[0].deals = 30;
    writeFileSync(metaFile, JSON.stringify(meta, null, 2));
    const again = ok(['batch', ...HASHED, '--out', out]);
    expect(again.stderr).toMatch(/has no row hash \(an earlier version wrote it\)/);
    expect(again.stderr).toMatch(/30 of 40 deals already done/);
    const after = JSON.parse(readFileSync(metaFile, 'utf8'));
    expect(after.rows).toBe(40);
    expect(ok(['merge', out]).stderr).toBe('');
  });

  it('the row hash is FNV-1a 64 of each row summed modulo 2^64, whatever the order of the rows', () => {
    expect(hashRows(['a']).hex).toBe('af63dc4c8601ec8c');
    expect(hashRows(['foobar']).hex).toBe('85944171f73967e8');
    expect(hashRows(['x', 'y']).hex).toBe(hashRows(['y', 'x']).hex);
    // Non-ASCII text is hashed as its UTF-8 bytes.
    expect(hashRows(['\u00e9']).hex).toBe('0ac21707b7181e01');
  });
});
