/**
 * The names of a batch's files: the results CSV, its sidecars FILE.meta.json and
 * FILE.summary.json, its lock, a shard's file, and the temporary file of an atomic write.
 */

/** `results/run.csv` -> `results/run` (the stem the sidecars share). */
function stem(csv: string): string {
  return csv.toLowerCase().endsWith('.csv') ? csv.slice(0, -4) : csv;
}

export const metaPath = (csv: string): string => `${stem(csv)}.meta.json`;
export const summaryPath = (csv: string): string => `${stem(csv)}.summary.json`;
export const lockPath = (csv: string): string => `${csv}.lock`;
export { tmpPath } from '../util/fileio.js';

/** Text as a part of a file name: lower case, each run of other characters than a-z, 0-9 and '.' one '-'. */
export function nameSlug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9.]+/g, '-').replace(/^-|-$/g, '');
}

/** `results/run.csv` + shard 3/10 -> `results/run.shard-03-of-10.csv`. */
export function withTag(csv: string, tag: string): string {
  return `${stem(csv)}.${tag}.csv`;
}
