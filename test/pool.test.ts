/**
 * The worker pool stops cleanly: an answer that a worker sent as the pool was stopped is
 * dropped, not thrown from piscina's 'error' event (which killed a run that had lost its lock
 * with a stack trace and exit 1 after its one-line message).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPool } from '../src/batch/pool.js';
import { ROOT } from './cli-helpers.js';

const WORKER = join(ROOT, 'test', 'fixtures', 'answer-worker.js');

/** Blocks this thread for `ms` milliseconds (the pool's answers wait, as on a busy machine). */
const block = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

describe('the worker pool', () => {
  it('stopped while an answer is on its way: the task is rejected, the answer dropped, no error', async () => {
    const errors: Error[] = [];
    const pool = startPool<{ n: number; flag?: SharedArrayBuffer }, { n: number }>({ filename: WORKER, workers: 1, onError: (e) => errors.push(e) });
    expect(await pool.run({ n: 0 })).toEqual({ n: 0 });
    const flag = new SharedArrayBuffer(4);
    const task = pool.run({ n: 1, flag });
    const settled = task.then(
      () => 'answered',
      (e: Error) => `rejected: ${e.message}`,
    );
    // The worker has the task and answers it; this thread does not read the answer before
    // the pool is stopped (a busy main thread, writing the rows of the task before).
    const f = new Int32Array(flag);
    while (Atomics.load(f, 0) === 0) Atomics.wait(f, 0, 0, 50);
    block(200);
    const stopping = pool.stop();
    expect(pool.stopped).toBe(true);
    // The answer arrives now, after the stop: an uncaught 'error' event would fail this test.
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown): void => void uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    try {
      await stopping;
      await new Promise((res) => setTimeout(res, 50));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
    expect(errors).toEqual([]);
    expect(await settled).toMatch(/^rejected: /);
    // Stopping again is harmless.
    await pool.stop();
  });
});
