/**
 * The row hash: a results file proves that its rows are the rows the runs named in its
 * sidecar wrote. Each row is checked field by field on its own (rows.ts), but damage that is
 * consistent within a row (a verdict and its fields changed together), or the rows and the
 * sidecar relabelled together, passes those checks; the sidecar's `rowsHash` does not.
 *
 * The hash of a row is FNV-1a 64 of the UTF-8 bytes of its line (without the line end); the
 * hash of rows is the sum of theirs modulo 2^64, so the order of the rows does not matter (a
 * run appends in the order chunks end; the complete file is sorted; a merge joins parts) and
 * the hash of a merge is the sum of its parts'. The sidecar records `rows`, how many rows the
 * hash covers: the first `rows` rows of the file. The rows after them were appended since the
 * sidecar was last written (by a run killed meanwhile); they are checked one by one.
 * Anyone can recompute it: sum(fnv1a64(line)) % 2**64 over the lines after the header.
 */
import { UserError, plural } from '../game/index.js';
import { type ResultsFile } from './csv.js';
import { metaPath } from './names.js';
import { type Meta } from './sidecar.js';

const TWO32 = 4294967296;

/** A running hash of rows (see the module's comment). */
export class RowHash {
  hi = 0;
  lo = 0;
  count = 0;

  /** Adds one row (its line, without the line end). */
  add(line: string): void {
    // FNV-1a 64 in two 32-bit halves: h = (h ^ byte) * (2^40 + 0x1b3) mod 2^64.
    let hi = 0xcbf29ce4;
    let lo = 0x84222325;
    const bytes = /^[\x00-\x7f]*$/.test(line) ? null : Buffer.from(line, 'utf8');
    const n = bytes ? bytes.length : line.length;
    for (let i = 0; i < n; i++) {
      lo = (lo ^ (bytes ? bytes[i]! : line.charCodeAt(i))) >>> 0;
      const t = lo * 0x1b3;
      hi = (Math.imul(hi, 0x1b3) + Math.floor(t / TWO32) + (lo << 8)) >>> 0;
      lo = t >>> 0;
    }
    const s = this.lo + lo;
    this.lo = s >>> 0;
    this.hi = (this.hi + hi + (s >= TWO32 ? 1 : 0)) >>> 0;
    this.count++;
  }

  /** Adds the rows of a chunk's CSV text (lines ending with '\n'). */
  addText(text: string): void {
    for (const line of text.split('\n')) if (line !== '') this.add(line);
  }

  /** 16 hex digits. */
  get hex(): string {
    return this.hi.toString(16).padStart(8, '0') + this.lo.toString(16).padStart(8, '0');
  }
}

/** The hash of the first `n` of `lines` (all of them by default). */
export function hashRows(lines: readonly string[], n = lines.length): RowHash {
  const h = new RowHash();
  for (let i = 0; i < n; i++) h.add(lines[i]!);
  return h;
}

/**
 * The rows a sidecar records as written: its `rows`, or for a sidecar of an earlier version
 * (no row hash) the deals its runs counted (each run's count is saved every few seconds, so
 * it is at most what the file holds).
 */
export function recordedRows(meta: Meta): number {
  if (meta.rows !== undefined) return meta.rows;
  return (meta.parts ? meta.parts.flatMap((p) => p.sessions) : meta.sessions).reduce((a, s) => a + s.deals, 0);
}

/**
 * Checks that results file `file` (read as `rf`) holds the rows its sidecar `meta` records:
 * at least as many as it records (a file cut short, or only its header left, is refused, not
 * silently computed again), and, when the sidecar has a row hash, the first `rows` of them
 * with that hash. A one-line UserError otherwise. Returns whether the sidecar has a hash
 * (`false`: an earlier version's sidecar, whose rows can only be checked one by one). For
 * resume, `merge` and a later `verify-results` alike.
 */
export function proveRows(file: string, rf: ResultsFile, meta: Meta): boolean {
  const recorded = recordedRows(meta);
  if (rf.lines.length < recorded)
    throw new UserError(
      `'${file}' holds ${plural(rf.lines.length, 'row')}, but its sidecar '${metaPath(file)}' records ${plural(recorded, 'deal')} done${meta.complete ? ' and the file complete' : ''}: ` +
        `rows were lost (a copy cut short, a full disk, an editor); restore it, or remove it and its sidecars to start again`,
    );
  if (meta.rowsHash === undefined) return false;
  const h = hashRows(rf.lines, recorded);
  if (h.hex !== meta.rowsHash)
    throw new UserError(
      `'${file}' is not as the runs named in its sidecar wrote it: its first ${plural(recorded, 'row')} hash to ${h.hex}, its sidecar says ${meta.rowsHash} ` +
        `(a row changed, added or taken away since, or the sidecar of another file); restore it, or remove it and its sidecars to start again`,
    );
  return true;
}

/** The note for a sidecar without a row hash (an earlier version's): its rows are checked one by one only. */
export function unhashedNote(file: string): string {
  return `limited: note: '${metaPath(file)}' has no row hash (an earlier version wrote it): the rows of '${file}' were checked one by one only`;
}
