/**
 * The worker pool of a batch and of a benchmark (piscina), made to stop cleanly.
 *
 * Stopping (a signal, a write that failed, a lock lost, a solver bug) detaches the tasks in
 * flight: the pool is destroyed, their promises are rejected, and an answer a worker had
 * already sent is dropped. piscina reports such an answer, when it arrives after the
 * destroy, as an 'error' event ("Unexpected message from Worker"); an EventEmitter without an
 * 'error' listener throws it, which killed a stopped run with a stack trace and exit 1 after
 * its one-line message. Here every 'error' event has a listener: after a stop it is dropped,
 * before one it is the run's error (`onError`).
 */
import { createRequire } from 'node:module';
import type * as piscina from 'piscina';

// Loaded when a pool starts, not with the module: the CLI is one bundle, and `limited solve`
// should not pay for piscina's loading (docs/cli.md, "Start-up").
const loadPiscina = (): typeof piscina => createRequire(import.meta.url)('piscina') as typeof piscina;

export interface Pool<T, R> {
  run(task: T): Promise<R>;
  /**
   * Detaches every task (queued or in flight: each is rejected) and ends the workers. Safe to
   * call more than once and from a task's callback; resolves once the workers have exited.
   */
  stop(): Promise<void>;
  /** stop() was called. */
  readonly stopped: boolean;
}

export interface PoolOptions {
  /** The worker module (a file path or URL). */
  readonly filename: string;
  readonly workers: number;
  /** An error of the pool itself (not of a task) before it was stopped: a worker that died between tasks. */
  readonly onError: (e: Error) => void;
}

export function startPool<T, R>(o: PoolOptions): Pool<T, R> {
  const pool = new (loadPiscina().Piscina)({ filename: o.filename, minThreads: o.workers, maxThreads: o.workers, idleTimeout: 60_000 });
  let stopped = false;
  let ended: Promise<void> | null = null;
  pool.on('error', (e: unknown) => {
    if (!stopped) o.onError(e instanceof Error ? e : new Error(String(e)));
  });
  return {
    run: (task) => pool.run(task) as Promise<R>,
    stop() {
      stopped = true;
      ended ??= pool.destroy().catch(() => undefined);
      return ended;
    },
    get stopped() {
      return stopped;
    },
  };
}
