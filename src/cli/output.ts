/** What a command prints: its result on stdout (text or one JSON object), colour, and notes on stderr. */
import { availableParallelism } from 'node:os';
import { plural } from '../game/index.js';

export function out(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : text + '\n');
}

/** Colour on stdout: only on a terminal, and not when NO_COLOR is set (non-empty, as no-color.org says). */
export function stdoutColor(): boolean {
  return process.stdout.isTTY === true && !process.env['NO_COLOR'];
}

/**
 * More worker threads than cores is accepted (a machine shared with a quota, a test) but rarely
 * meant: the threads only take turns on the cores, each with its own memory. Says so on stderr.
 */
export function warnWorkers(workers: number): void {
  const cores = availableParallelism();
  if (workers > cores)
    process.stderr.write(`limited: warning: --workers ${workers} is more than the ${plural(cores, 'core')} here: the extra threads only take turns on them\n`);
}

/**
 * The notes of a long run, on stderr. The first comes after --workers' warning, which waits for
 * the first line of work: an error in the options or the directory before it stays one line.
 */
export function notesAfterWorkers(workers: number): (text: string) => void {
  let warned = false;
  return (text) => {
    if (!warned) warnWorkers(workers);
    warned = true;
    process.stderr.write(text + '\n');
  };
}

/** Prints one JSON object on stdout, on one line (what every command's `--json` prints). */
export function outJson(value: unknown): void {
  out(JSON.stringify(value));
}
