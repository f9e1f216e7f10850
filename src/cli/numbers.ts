/** Numbers given as flags: read from their text, with one-line errors that quote it. */
import { availableParallelism } from 'node:os';
import { MAX_WORKERS } from '../batch/run.js';
import { UserError, shown } from '../game/index.js';

/** `--max-nodes 5000`: a whole number >= 1 (a safe integer; `_` separators allowed). Throws UserError. */
export function positiveInteger(option: string, text: string): number {
  const t = text.trim().replace(/_/g, '');
  const n = Number(t);
  if (!/^\d+$/.test(t) || !Number.isSafeInteger(n) || n < 1) throw new UserError(`${option} must be a whole number >= 1, not '${shown(text)}'`);
  return n;
}

/** `--workers N`: a whole number from 1 to MAX_WORKERS; absent, the number of cores here. Throws UserError. */
export function workersOption(text: string | undefined): number {
  const workers = text !== undefined ? positiveInteger('--workers', text) : availableParallelism();
  if (workers > MAX_WORKERS) throw new UserError(`--workers must be at most ${MAX_WORKERS}, not ${workers}`);
  return workers;
}

/** `--max-seconds 2.5`: a finite number > 0. Throws UserError. */
export function positiveNumber(option: string, text: string): number {
  const t = text.trim();
  const n = Number(t);
  if (!/^(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(t) || !Number.isFinite(n) || n <= 0)
    throw new UserError(`${option} must be a number > 0, not '${shown(text)}'`);
  return n;
}
