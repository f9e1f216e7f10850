/**
 * The piscina worker (compiled to dist/src/batch/worker.js): handles one chunk of deals and
 * sends back compact rows. The job (a Solver with its table, for the `solve` kind) is created
 * once per spec and kept alive from chunk to chunk.
 */
import { type CompactRow, type JobSpec, compactRow, dealMaker, jobKind, specRules, specSize } from './job.js';

export interface ChunkTask {
  readonly spec: JobSpec;
  readonly deals: readonly number[];
}

export interface ChunkResult {
  /** The rows of the deals done, in the chunk's order. */
  readonly rows: CompactRow[];
  /** A deal that failed (e.g. a solution that does not verify: a solver bug); the deals after it were not done. */
  readonly error?: { readonly deal: number; readonly name: string; readonly message: string };
}

let current: { key: string; handle: (n: number) => CompactRow } | null = null;

function handlerFor(spec: JobSpec): (n: number) => CompactRow {
  const key = JSON.stringify(spec);
  if (current?.key !== key) {
    const rules = specRules(spec);
    const deal = dealMaker(spec.source, specSize(spec));
    const run = jobKind(spec.kind).create(spec);
    current = { key, handle: (n) => compactRow(n, run(deal(n), rules)) };
  }
  return current.handle;
}

export function runChunk(task: ChunkTask): ChunkResult {
  const handle = handlerFor(task.spec);
  const rows: CompactRow[] = [];
  for (const n of task.deals) {
    try {
      rows.push(handle(n));
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      return { rows, error: { deal: n, name: err.name, message: err.message } };
    }
  }
  return { rows };
}

export default runChunk;
