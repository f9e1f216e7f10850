/**
 * How a command ends: its exit status and, for an error, what it prints. `run` wraps every
 * action, so that its errors end in `reportError`:
 *   0 done; 1 a negative answer (an invalid solution); 2 bad input (one line on stderr);
 *   3 a solution from the solver that fails to verify; 70 a bug (the stack on stderr).
 */
import { CommanderError } from 'commander';
import { UserError } from '../game/index.js';
import { SolutionError } from '../solver/index.js';
import { BatchSolverError } from '../batch/run.js';

export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;
export const EXIT_BUG = 70;

/** Exit status when the solver returns a solution that fails to verify: a solver bug. */
export const EXIT_SOLUTION_BUG = 3;

/**
 * A solution that failed to verify (a solver bug), from one solve or from a batch's workers:
 * reports it as one line and sets exit status 3. Returns false for any other error, which
 * the caller rethrows.
 */
export function reportSolutionBug(e: unknown): boolean {
  if (!(e instanceof SolutionError) && !(e instanceof BatchSolverError)) return false;
  process.stderr.write(`limited: internal error: ${oneLine(e.message)}\n`);
  process.exitCode = EXIT_SOLUTION_BUG;
  return true;
}

/**
 * Reports an error and sets the exit status: a UserError or a commander usage error is one
 * line `limited: message` (status 2); anything else is a bug (its stack, status 70).
 */
export function reportError(e: unknown): void {
  if (e instanceof UserError) {
    process.stderr.write(`limited: ${oneLine(e.message)}\n`);
    process.exitCode = EXIT_USAGE;
  } else if (e instanceof CommanderError) {
    // Commander has already printed its message (see configureOutput in cli.ts).
    process.exitCode = e.exitCode === 0 ? 0 : EXIT_USAGE;
  } else {
    process.stderr.write(`limited: internal error (this is a bug, please report it):\n${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = EXIT_BUG;
  }
}

export function oneLine(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, ' ');
}

/** Wraps a command action so that its errors end in `reportError` (and no unhandled rejection). */
export function run<A extends unknown[]>(action: (...args: A) => void | Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await action(...args);
    } catch (e) {
      reportError(e);
    }
  };
}
