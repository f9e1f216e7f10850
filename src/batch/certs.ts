/**
 * Certificates of a results file's verdicts (`--certificates`): FILE.certs.gz beside FILE.csv,
 * one line a decided deal, so that a reader can check every verdict without trusting the run:
 *
 *   DEAL won MOVE MOVE ...        the solution, in RULES.md's notation without the cards
 *                                 (`c3>f draw w>c7 redeal ...`): `limited verify-results` replays it
 *   DEAL unsolvable locks         LockBound proved the deal lost at its root, before any search
 *   DEAL unsolvable search        an exhausted search proved it (the row's method and node count
 *                                 say which search: `limited solve DEAL` with them re-runs it)
 *
 * While a run goes on the lines are appended to FILE.certs (plain text, flushed before the rows
 * they certify are written: a row never exists without its line). A kill may leave lines of
 * deals whose rows were not written; such a deal is solved again, and its later line is the one
 * kept. When the file is complete the lines of its decided rows are written to FILE.certs.gz,
 * sorted by deal, and FILE.certs is removed. A file that grows again (a larger sample) appends to
 * FILE.certs anew, and its next completion merges both.
 */
import { closeSync, constants, fsyncSync, openSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { UserError } from '../game/index.js';
import { fileError, syncDir, writeFully } from '../util/fileio.js';
import { tmpPath } from './names.js';

/** `results/run.csv` -> `results/run.certs` (while running) and `results/run.certs.gz` (complete). */
export const certsPath = (csv: string): string => `${csv.toLowerCase().endsWith('.csv') ? csv.slice(0, -4) : csv}.certs`;
export const certsGzPath = (csv: string): string => `${certsPath(csv)}.gz`;

/** A certificate as the worker makes it: the line after the deal number (`won c3>f ...`, `unsolvable locks`). */
export type Certificate = string;

/** Appends lines (each ending in a newline) to FILE.certs and flushes them. */
export function appendCerts(csv: string, lines: readonly string[]): void {
  if (lines.length === 0) return;
  const file = certsPath(csv);
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o644);
    writeFully(fd, Buffer.from(lines.join(''), 'utf8'));
    fsyncSync(fd);
  } catch (e) {
    fileError(e, 'write certificates file', file);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function readOptional(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return fileError(e, 'read certificates file', file);
  }
}

/** Whether a results file has certificates (either file). */
export function hasCerts(csv: string): boolean {
  return readOptional(certsPath(csv)) !== null || readOptional(certsGzPath(csv)) !== null;
}

/** A certificate line read back, with where it was. */
export interface CertLine {
  readonly deal: number;
  readonly verdict: string;
  /** The moves (won) or the proof kind (unsolvable), as words. */
  readonly words: readonly string[];
  readonly file: string;
  readonly line: number;
}

/**
 * A results file's certificates by deal: FILE.certs.gz, then FILE.certs (a later line of a deal
 * replaces an earlier one: the deal was solved again). Null when it has neither. A line that is
 * not `DEAL VERDICT ...` is a UserError naming it; a torn last line of FILE.certs (a kill while
 * it was written) is left out.
 */
export function readCerts(csv: string): Map<number, CertLine> | null {
  const gz = readOptional(certsGzPath(csv));
  const text = readOptional(certsPath(csv));
  if (gz === null && text === null) return null;
  const out = new Map<number, CertLine>();
  const take = (body: string, file: string, torn: boolean): void => {
    const lines = body.split('\n');
    // The last element is what follows the last newline: '' for a whole file.
    const last = lines.pop()!;
    if (last !== '' && !torn) throw new UserError(`${file}, line ${lines.length + 1}: a line without its newline (the file is cut short)`);
    lines.forEach((l, i) => {
      if (l === '') return;
      const words = l.split(' ');
      const deal = Number(words[0]);
      if (!/^\d+$/.test(words[0]!) || !Number.isSafeInteger(deal) || words.length < 3)
        throw new UserError(`${file}, line ${i + 1}: not a certificate (DEAL won MOVES..., or DEAL unsolvable locks|search)`);
      out.set(deal, { deal, verdict: words[1]!, words: words.slice(2), file, line: i + 1 });
    });
  };
  if (gz !== null) {
    let body: string;
    try {
      body = gunzipSync(gz).toString('utf8');
    } catch (e) {
      throw new UserError(`${certsGzPath(csv)}: not a whole gzip file (${(e as Error).message})`);
    }
    take(body, certsGzPath(csv), false);
  }
  if (text !== null) take(text.toString('utf8'), certsPath(csv), true);
  return out;
}

/** Writes bytes whole or not at all (as fileio's writeAtomic does text). */
function writeAtomicBytes(file: string, bytes: Uint8Array): void {
  const tmp = tmpPath(file);
  try {
    const fd = openSync(tmp, 'w');
    try {
      writeFully(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // not made, or renamed
    }
    fileError(e, 'write certificates file', file);
  }
  syncDir(dirname(file), file);
}

/**
 * A complete file's certificates: the lines of `decided` (its decided rows' deals, with their
 * verdicts) into FILE.certs.gz, sorted by deal; then FILE.certs is removed. A decided row without
 * a line is an internal error (the line is written before its row).
 */
export function finishCerts(csv: string, decided: ReadonlyMap<number, string>): void {
  const certs = readCerts(csv) ?? new Map<number, CertLine>();
  const deals = [...decided.keys()].sort((a, b) => a - b);
  let body = '';
  for (const d of deals) {
    const c = certs.get(d);
    if (!c || c.verdict !== decided.get(d)) throw new Error(`internal: deal ${d} of ${csv} is ${decided.get(d)} without its certificate`);
    body += `${d} ${c.verdict} ${c.words.join(' ')}\n`;
  }
  writeAtomicBytes(certsGzPath(csv), gzipSync(Buffer.from(body, 'utf8'), { level: 9 }));
  removeCerts(csv, false);
}

/** Removes FILE.certs (and with `all`, FILE.certs.gz too: a fresh start). */
export function removeCerts(csv: string, all = true): void {
  for (const f of all ? [certsPath(csv), certsGzPath(csv)] : [certsPath(csv)]) {
    try {
      unlinkSync(f);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') fileError(e, 'remove', f);
    }
  }
}
