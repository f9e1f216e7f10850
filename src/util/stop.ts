/**
 * SIGINT and SIGTERM for long work: a batch (start, experiment), a benchmark.
 *
 * The command line installs the handlers once, as a long command starts (`watchStopSignals`),
 * because a signal that comes before them goes wrong: Node as PID 1 (a container's entry point)
 * ignores a signal it has no handler for, so a Kubernetes pod would run on until it is killed;
 * elsewhere the signal kills the process without its exit status.
 *
 * A signal goes to the work that can save what it has done (`onStop`: a batch, from taking
 * its lock until it lets it go, stops its pool and writes its sidecars). With no such work,
 * nothing is half-written (results files are appended row by row and replaced whole), and
 * the process exits at once with 128 + the signal's number (130, 143), as a shell reports a
 * process killed by it.
 */
import { constants } from 'node:os';

type Stopper = (signal: NodeJS.Signals) => void;

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
const stoppers = new Set<Stopper>();
/** watchStopSignals was called: the handlers stay for the life of the process. */
let watching = false;
let attached = false;
/** Waits under way in `interruptible`: the handlers stay while there are any. */
let waits = 0;

function onSignal(signal: NodeJS.Signals): void {
  if (stoppers.size === 0) {
    process.stderr.write(`limited: interrupted (${signal})\n`);
    process.exit(128 + constants.signals[signal]);
  }
  for (const stop of [...stoppers]) stop(signal);
}

function attach(on: boolean): void {
  if (on === attached) return;
  attached = on;
  for (const s of SIGNALS) {
    if (on) process.on(s, onSignal);
    else process.off(s, onSignal);
  }
}

/** Catches SIGINT and SIGTERM from now on, for the life of the process. */
export function watchStopSignals(): void {
  watching = true;
  attach(true);
}

/**
 * Calls `stop` on each SIGINT or SIGTERM until the returned function is called. Without
 * watchStopSignals (the library used by another program) the handlers are there only while
 * some work listens.
 */
export function onStop(stop: Stopper): () => void {
  stoppers.add(stop);
  attach(true);
  return () => {
    stoppers.delete(stop);
    if (!watching && stoppers.size === 0 && waits === 0) attach(false);
  };
}

/**
 * Runs `wait` (a read of a FIFO or of stdin, which may wait for its writer for ever) with the
 * handlers on from before it starts: a SIGINT or SIGTERM meanwhile ends the process at once
 * (130, 143), even as PID 1 of a container, where a signal without a handler is dropped.
 */
export async function interruptible<T>(wait: () => Promise<T>): Promise<T> {
  waits++;
  attach(true);
  try {
    return await wait();
  } finally {
    waits--;
    if (!watching && stoppers.size === 0 && waits === 0) attach(false);
  }
}
