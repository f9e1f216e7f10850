/**
 * SIGTERM (what Kubernetes and Slurm send) to the long commands, end to end on the built CLI:
 * from their first moment they exit 143 with what was done saved, and a batch resumes to the
 * rows of a run never stopped. Each case runs as a plain child, and as PID 1 of a PID
 * namespace of its own (`unshare --pid --fork`, as root), which is how Node runs as a
 * container's entry point: there the kernel drops a signal the process has no handler for,
 * so a command that had none when the signal came would run on.
 *
 * The signal is sent as soon as the command has said its first line on stderr (or, for "a
 * bit later", once rows are in the file): no test waits a fixed time. (Whether the process
 * catches SIGTERM cannot be read from /proc: Node catches it from its start, to reset the
 * terminal before it dies of it, or as PID 1 to do nothing.)
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockPath } from '../src/batch/names.js';
import { MAIN, ROOT, resultRows, runCli, withTempDir } from './cli-helpers.js';

let dir = '';
withTempDir('limited-signals-', (d) => (dir = d));

/** Runs `limited ARGS` as PID 1 in a PID namespace of its own (root and util-linux's unshare). */
const PID1 = spawnSync('unshare', ['--pid', '--fork', 'true']).status === 0;
const MODES = PID1 ? (['child', 'PID 1'] as const) : (['child'] as const);
if (!PID1) console.warn('signals.test.ts: the PID 1 cases are skipped: `unshare --pid --fork` is not available here (it needs root)');

interface Run {
  readonly child: ChildProcess;
  /** The exit status and output, once it has exited. */
  readonly done: Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  exited: boolean;
  /** What it has written on stderr so far. */
  stderr: string;
}

function start(args: readonly string[], mode: (typeof MODES)[number]): Run {
  const cmd = mode === 'PID 1' ? ['unshare', '--pid', '--fork', process.execPath] : [process.execPath];
  const child = spawn(cmd[0]!, [...cmd.slice(1), MAIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (run.stderr += d.toString()));
  const run: Run = {
    child,
    exited: false,
    stderr: '',
    done: new Promise((res) =>
      child.on('close', (status, signal) => {
        run.exited = true;
        res({ status, signal, stdout, stderr: run.stderr });
      }),
    ),
  };
  return run;
}

const tick = (): Promise<void> => new Promise((res) => setTimeout(res, 10));

/** The pid of the node process: the child itself, or unshare's child (PID 1 inside). */
async function nodePid(run: Run, mode: (typeof MODES)[number]): Promise<number | null> {
  const pid = run.child.pid!;
  if (mode === 'child') return pid;
  for (; !run.exited; await tick()) {
    try {
      const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
      if (kids !== '') return Number(kids.split(' ')[0]);
    } catch {
      // not there yet, or gone
    }
  }
  return null;
}

/** The command has said its first line: it has parsed its options and begun. */
const begun = (run: Run): boolean => run.stderr.includes('\n');

/** Waits until `ready` or the run ends; then sends SIGTERM to the node process. True if it was sent while it ran. */
async function termWhen(run: Run, mode: (typeof MODES)[number], ready: () => boolean): Promise<boolean> {
  const pid = await nodePid(run, mode);
  if (pid === null) return false;
  while (!run.exited && !ready()) await tick();
  if (run.exited) return false;
  process.kill(pid, 'SIGTERM');
  return true;
}

const dataRows = (file: string): number => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').length - 2 : 0);

// Full-size deals at a small budget, a deal a chunk: about 3 s of work on one core, so a
// SIGTERM after the first rows comes with most of the range still to do.
const COUNT = 60;
const BATCH = ['batch', '--from', '1', '--count', String(COUNT), '--preset', 'fast', '--max-nodes', '50000', '--chunk', '1', '--no-progress'];

describe('SIGTERM to a long command', () => {
  let reference: ReturnType<typeof resultRows> | undefined;
  const referenceRows = (): ReturnType<typeof resultRows> => {
    if (!reference) {
      const out = join(dir, 'reference.csv');
      const r = runCli([...BATCH, '--workers', '1', '--out', out]);
      expect(r.status, r.stderr).toBe(0);
      reference = resultRows(out);
    }
    return reference;
  };

  /** Stops a batch with SIGTERM when `ready`, checks what it saved, resumes it and compares with the reference. */
  async function stopAndResume(name: string, mode: (typeof MODES)[number], ready: (run: Run, out: string) => boolean): Promise<number> {
    const out = join(dir, `${name}.csv`);
    const run = start([...BATCH, '--workers', '2', '--out', out], mode);
    const sent = await termWhen(run, mode, () => ready(run, out));
    const r = await run.done;
    expect(sent, `the batch ended before the signal: ${r.stderr}`).toBe(true);
    expect(r.status, r.stderr).toBe(143);
    const saved = dataRows(out);
    expect(saved).toBeLessThan(COUNT);
    expect(r.stderr).toContain(`limited: interrupted (SIGTERM): ${saved} of ${COUNT} deals are in ${out}; run the same command again to resume`);
    const meta = JSON.parse(readFileSync(out.replace(/\.csv$/, '.meta.json'), 'utf8'));
    expect(meta.complete).toBe(false);
    expect(meta.sessions.at(-1).status).toBe('interrupted');
    expect(meta.sessions.at(-1).deals).toBe(saved);
    expect(existsSync(lockPath(out)), 'the lock is let go').toBe(false);
    // The same command again finishes the range, with the rows of a run never stopped.
    const again = runCli([...BATCH, '--workers', '1', '--out', out]);
    expect(again.status, again.stderr).toBe(0);
    if (saved > 0) expect(again.stderr).toContain(`${saved} of ${COUNT} deals already done`);
    expect(resultRows(out)).toEqual(referenceRows());
    return saved;
  }

  for (const mode of MODES) {
    it(`bench (${mode}): exits 143 at once, with one line and no files`, async () => {
      const out = join(dir, `bench-${mode.replace(' ', '')}`);
      const run = start(['bench', '--from', '1', '--count', '40', '--max-nodes', '50000', '--heuristics', 'waste', '--workers', '1', '--no-progress', '--out-dir', out], mode);
      const sent = await termWhen(run, mode, () => begun(run));
      const r = await run.done;
      expect(sent, `bench ended before the signal (exit ${r.status})`).toBe(true);
      expect(r.status, r.stderr).toBe(143);
      expect(r.stderr.trimEnd().split('\n').at(-1)).toBe('limited: interrupted (SIGTERM)');
      expect(r.stdout).toBe('');
      expect(existsSync(join(out, 'bench.json'))).toBe(false);
      expect(existsSync(join(out, 'bench.csv'))).toBe(false);
    });

    it(`batch (${mode}), at its first moment: exits 143, and the same command resumes to the rows of an unstopped run`, async () => {
      await stopAndResume(`first-${mode.replace(' ', '')}`, mode, begun);
    });

    it(`batch (${mode}), a bit later: exits 143 with whole rows saved, and resumes to the same rows`, async () => {
      const saved = await stopAndResume(`later-${mode.replace(' ', '')}`, mode, (_, out) => dataRows(out) >= 3);
      expect(saved).toBeGreaterThanOrEqual(3);
    });
  }
});

describe('SIGTERM while a command waits on a FIFO', () => {
  for (const mode of MODES) {
    it(`solve --deal FIFO (${mode}), its writer silent: exits 143 in one line (the read blocked the handlers)`, async () => {
      const fifo = join(dir, `deal-${mode.replace(' ', '')}.fifo`);
      expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
      const run = start(['solve', '--deal', fifo], mode);
      // The writer's open returns once the command has opened the FIFO to read it; it then
      // waits for bytes that never come.
      const writer = await open(fifo, 'w');
      try {
        const pid = await nodePid(run, mode);
        expect(pid).not.toBeNull();
        process.kill(pid!, 'SIGTERM');
        const r = await run.done;
        expect(r.status, r.stderr).toBe(143);
        expect(r.stderr).toBe('limited: interrupted (SIGTERM)\n');
        expect(r.stdout).toBe('');
      } finally {
        await writer.close();
      }
    });
  }
});
