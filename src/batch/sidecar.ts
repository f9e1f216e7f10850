/**
 * The sidecars of a results CSV: FILE.meta.json (what ran: the job, the range and shard, the
 * machine, one session a run of the command) and FILE.summary.json (the figures). Both are
 * written whole or not at all (writeAtomic), so they are always whole.
 */
import { readFileSync } from 'node:fs';
import { UserError } from '../game/index.js';
import { writeAtomic } from './fileio.js';
import { type JobSpec } from './job.js';
import { metaPath, summaryPath } from './names.js';
import { type DealRange, type Shard } from './range.js';
import { type Summary } from './stats.js';

/** One run of the command on a file (a resumed file has several). */
export interface Session {
  startedAt: string;
  /** null while running, or when the run was killed. */
  endedAt: string | null;
  /** 'running' (or killed while running), 'done', 'interrupted' (SIGINT/SIGTERM), 'failed'. */
  status: 'running' | 'done' | 'interrupted' | 'failed';
  /** Deals this session finished, and its wall-clock seconds (updated every few seconds). */
  deals: number;
  seconds: number;
  workers: number;
  chunk: number;
  cores: number;
  cpu: string;
  node: string;
  host: string;
  platform: string;
  version: string;
  commit: string | null;
  command: string;
}

export const META_FORMAT = 'limited-batch/1';

export interface Meta {
  format: typeof META_FORMAT;
  tool: 'limited';
  version: string;
  commit: string | null;
  /** The command that made the file (the first session's). */
  command: string;
  job: JobSpec;
  /** The whole experiment's range, before sharding. */
  range: DealRange;
  shard: Shard | null;
  /** The deals of this file: the shard's block of the range (the range itself when not sharded). */
  part: DealRange;
  columns: string[];
  startedAt: string;
  endedAt: string | null;
  /** All deals of the part are in the file. */
  complete: boolean;
  /** The latest session's machine and pool. */
  workers: number;
  cores: number;
  cpu: string;
  node: string;
  host: string;
  sessions: Session[];
  /** A merged file: the parts it was made of. */
  parts?: { file: string; part: DealRange; shard: Shard | null; commit: string | null; sessions: Session[] }[];
}

export function readMeta(csv: string): Meta | null {
  const file = metaPath(csv);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  let m: Meta;
  try {
    m = JSON.parse(text) as Meta;
  } catch (e) {
    throw new UserError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  if (m === null || typeof m !== 'object' || m.format !== META_FORMAT)
    throw new UserError(`${file}: not the sidecar of a batch results file (no "format": "${META_FORMAT}")`);
  return m;
}

export function writeMeta(csv: string, meta: Meta): void {
  writeAtomic(metaPath(csv), JSON.stringify(meta, null, 2) + '\n', 'sidecar');
}

export interface SummaryFile extends Summary {
  readonly file: string;
  readonly job: JobSpec;
  readonly range: DealRange;
  readonly shard: Shard | null;
  readonly part: DealRange;
  readonly complete: boolean;
  readonly speed: { readonly deals: number; readonly seconds: number; readonly dealsPerSecond: number | null; readonly note: string };
}

export function writeSummary(csv: string, s: SummaryFile): void {
  writeAtomic(summaryPath(csv), JSON.stringify(s, null, 2) + '\n', 'sidecar');
}
