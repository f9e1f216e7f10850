/**
 * The piscina worker (compiled to dist/src/batch/worker.js): handles one chunk of deals and
 * sends back compact rows. The job (a Solver with its table, for the `solve` kind; a Driver and
 * a player, for `play`) is created once per spec and kept alive from chunk to chunk.
 */
import { type JobSpec, dealMaker, loadJobKind, specRules, specSize } from './job.js';
import { type CompactRow, compactRow } from './rows.js';

export interface ChunkTask {
  readonly spec: JobSpec;
  readonly deals: readonly number[];
  /** The file URL of the module that exports the spec's kind as JOB_KIND, for a kind defined above src/batch (`loadJobKind`). */
  readonly kindModule?: string;
  /** Send back each decided deal's certificate line (certs.ts). */
  readonly certificates?: boolean;
}

export interface ChunkResult {
  /** The rows of the deals done, in the chunk's order (a kind with variants: a row per variant, in the spec's order). */
  readonly rows: CompactRow[];
  /** A deal that failed (e.g. a solution that does not verify: a solver bug); the deals after it were not done. */
  readonly error?: { readonly deal: number; readonly name: string; readonly message: string };
  /** With `certificates`: a line (with its newline) a decided deal of `rows`, `DEAL VERDICT CERTIFICATE`. */
  readonly certs?: string[];
}

type Handle = (n: number, rows: CompactRow[], certs: string[] | null) => void;
let current: { key: string; handle: Handle } | null = null;

async function handlerFor(spec: JobSpec, kindModule: string | undefined): Promise<Handle> {
  const key = JSON.stringify([spec, kindModule]);
  if (current?.key !== key) {
    current = null;
    const rules = specRules(spec);
    const deal = dealMaker(spec.source, specSize(spec));
    const kind = await loadJobKind(spec.kind, kindModule);
    if (kind.prepare) await kind.prepare(spec);
    const run = kind.create(spec);
    current = {
      key,
      handle: (n, rows, certs) => {
        const o = run(deal(n), rules, n);
        if (o.variants) rows.push(...o.variants.map((v, i) => compactRow(n, v, i)));
        else rows.push(compactRow(n, o));
        if (certs && o.certificate) certs.push(`${n} ${o.verdict} ${o.certificate()}\n`);
      },
    };
  }
  return current.handle;
}

export async function runChunk(task: ChunkTask): Promise<ChunkResult> {
  const handle = await handlerFor(task.spec, task.kindModule);
  const rows: CompactRow[] = [];
  const certs = task.certificates ? [] : null;
  for (const n of task.deals) {
    try {
      handle(n, rows, certs);
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      return { rows, error: { deal: n, name: err.name, message: err.message }, ...(certs ? { certs } : {}) };
    }
  }
  return { rows, ...(certs ? { certs } : {}) };
}

export default runChunk;
