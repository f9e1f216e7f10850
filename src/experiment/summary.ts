/**
 * The figures of an experiment's rows, read back from their results CSVs: each row's verdict
 * counts, and its paired table against its group's baseline (deals won by both, by one only, by
 * neither) on the same deal numbers.
 *
 * The files may hold a million rows each, so they are streamed line by line and nothing is kept
 * per deal but one byte of the baseline's outcome (a Uint8Array over the range) and one of the
 * row's own (to catch a deal twice). Every row is checked as resume and merge check it
 * (src/batch/rows.ts); the verdict is the only field used.
 */
import { existsSync } from 'node:fs';
import { UserError } from '../game/index.js';
import { runDifference } from '../batch/difference.js';
import { type JobSpec } from '../batch/job.js';
import { forEachRow } from '../batch/rows.js';
import { type Meta, readMeta } from '../batch/sidecar.js';
import { type DealRange, formatRange } from '../batch/range.js';
import { type PairedCounts } from '../batch/stats.js';
import { type ExperimentRow } from './matrix.js';

export interface RowCounts {
  readonly deals: number;
  readonly won: number;
  /** A player's lost games. */
  readonly lost: number;
  /** The solver's proofs that a deal cannot be won (under the row's rules and restrictions). */
  readonly unsolvable: number;
  readonly unknown: number;
}

/**
 * Is a row's results file there, finished, and made by the row's options? `noFile`: its sidecar
 * is there (made with these options) but not the CSV itself, as in a clone of the repository,
 * which keeps the rows' sidecars and summaries but not their CSVs (.gitignore): the row has to
 * be run again to be read, and a run starts it afresh.
 */
export type RowState =
  | { readonly state: 'absent' }
  | { readonly state: 'other'; readonly why: string }
  | { readonly state: 'noFile'; readonly meta: Meta }
  | { readonly state: 'incomplete'; readonly meta: Meta }
  | { readonly state: 'complete'; readonly meta: Meta };

export function rowState(row: ExperimentRow, file: string): RowState {
  const meta = readMeta(file);
  if (!meta) return { state: 'absent' };
  const d = runDifference(meta, { job: row.spec, range: row.range, shard: null });
  if (d) return { state: 'other', why: `made with ${d.option} ${d.a}, not ${d.b}` };
  if (!existsSync(file)) return { state: 'noFile', meta };
  return meta.complete ? { state: 'complete', meta } : { state: 'incomplete', meta };
}

/** Wall-clock seconds of the sessions that wrote a results file. */
export function metaSeconds(meta: Meta): number {
  const sessions = meta.parts ? meta.parts.flatMap((p) => p.sessions) : meta.sessions;
  return sessions.reduce((a, s) => a + s.seconds, 0);
}

/** Outcomes by deal (index deal − range.from): 0 not seen, 1 not won, 2 won. */
export type Outcomes = Uint8Array;

export interface ReadRow {
  readonly counts: RowCounts;
  /** This row against the baseline's outcomes: a = both won, b = this row only, c = the baseline only, d = neither. */
  readonly paired: PairedCounts | null;
  /** The row's own outcomes (when asked for: a baseline's). */
  readonly outcomes: Outcomes | null;
}

/**
 * Streams a complete results file of `range`, made by `spec`: counts its verdicts and, given the
 * baseline's outcomes on the same range, the paired table. Unknown (a solver's budget ran out)
 * counts as not won in the table. Every deal of the range must be there once, every row well
 * formed (else a UserError naming the file and line).
 */
export async function readRow(file: string, spec: JobSpec, range: DealRange, baseline: Outcomes | null, keep: boolean): Promise<ReadRow> {
  const seen: Outcomes = new Uint8Array(range.count);
  let won = 0;
  let lost = 0;
  let unsolvable = 0;
  let unknown = 0;
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  await forEachRow(file, spec, range, seen, (i, v, lineNo, deal) => {
    const isWon = v === 'won';
    if (isWon) won++;
    else if (v === 'lost') lost++;
    else if (v === 'unsolvable') unsolvable++;
    else unknown++;
    seen[i] = isWon ? 2 : 1;
    if (baseline) {
      const base = baseline[i]!;
      if (base === 0) throw new UserError(`${file}, line ${lineNo}: deal ${deal} is missing from the baseline's file`);
      if (isWon) base === 2 ? a++ : b++;
      else base === 2 ? c++ : d++;
    }
  });
  const deals = won + lost + unsolvable + unknown;
  if (deals !== range.count) throw new UserError(`${file} holds ${deals} of the ${range.count} deals ${formatRange(range)}: finish the row first`);
  return { counts: { deals, won, lost, unsolvable, unknown }, paired: baseline ? { a, b, c, d } : null, outcomes: keep ? seen : null };
}
