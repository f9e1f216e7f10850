/**
 * `limited merge`: checks that results files are parts of one experiment — the same job, no
 * deal twice, no deal missing between them, every part complete, and (when they are shards of
 * one range) every shard present — and combines them: rows sorted by deal, one summary.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError, plural } from '../game/index.js';
import { jobDifference } from './difference.js';
import { type ResultsFile, loadResults, sortLines } from './csv.js';
import { writeAtomicAll } from '../util/fileio.js';
import { metaPath, summaryPath } from './names.js';
import { type RowFields, checkHeader, columnsOf, headerOf, rowFields } from './rows.js';
import { type Meta, type SummaryFile, META_FORMAT, emptyWithSidecar, metaText, readMeta, summaryText } from './sidecar.js';
import { machine, gitCommit, toolVersion } from './machine.js';
import { type DealRange, DealSet, formatRange, rangeLast, shardPart } from './range.js';
import { rangeLabel } from './report.js';
import { summarize } from './stats.js';
import { hashRows, proveRows } from './rowhash.js';

interface Part {
  readonly file: string;
  readonly meta: Meta;
  readonly rf: ResultsFile;
  /** Its rows, each checked against its sidecar's job. */
  readonly fields: readonly RowFields[];
  /** Its sidecar has a row hash, and the rows match it (false: an earlier version's sidecar). */
  readonly hashed: boolean;
}

export interface Merged {
  readonly meta: Meta;
  readonly header: string;
  readonly lines: string[];
  readonly summary: SummaryFile;
  /** The parts whose sidecars have no row hash (an earlier version's): their rows were checked one by one only. */
  readonly unhashed: readonly string[];
}

const sameRange = (a: DealRange, b: DealRange): boolean => a.from === b.from && a.count === b.count;

/** `deal 11 is`, `deals 11-20 are` (with `of`, a phrase between the deals and the verb). */
function dealsAre(r: DealRange, of = ''): string {
  return r.count === 1 ? `deal ${r.from}${of} is` : `deals ${formatRange(r)}${of} are`;
}

function loadPart(file: string): Part {
  const meta = readMeta(file);
  const rf = loadResults(file, false);
  if (!rf) throw new UserError(`cannot read results file '${file}': no such file`);
  if (!meta) throw new UserError(`'${file}' has no sidecar '${metaPath(file)}': it is not a results file of limited batch`);
  if (rf.header === '') throw new UserError(emptyWithSidecar(file, meta));
  if (meta.deals) throw new UserError(`'${file}' holds a sample of ${meta.deals.length} deals, not a range or a shard of one: it cannot be merged`);
  checkHeader(file, rf.header, meta.job);
  if (rf.tornBytes > 0) throw new UserError(`'${file}' ends with a torn row (an interrupted run): finish it first with: ${meta.command}`);
  const fields = rowFields(rf, meta.job);
  return { file, meta, rf, fields, hashed: proveRows(file, rf, meta) };
}

/**
 * A merge writes a new file: an --out that exists (the CSV or either sidecar) is refused unless
 * --force, as it may be another experiment's results (a merge once replaced a 1000-deal run
 * without a word).
 */
function checkNewTarget(out: string): void {
  for (const f of [out, metaPath(out), summaryPath(out)])
    if (existsSync(f))
      throw new UserError(`${f === out ? `--out '${out}'` : `'${f}' (a sidecar of --out '${out}')`} exists: give --force to replace it, or choose another --out`);
}

/**
 * Checks the parts and combines them. `out` names the merged file (for the summary; '' for
 * none), which must not exist yet unless `force`; nothing is written.
 */
export function mergeParts(files: readonly string[], out: string, command: string, force = false): Merged {
  if (files.length === 0) throw new UserError('give the results files to merge');
  const seen = new Map<string, string>();
  for (const f of files) {
    const key = resolve(f);
    if (seen.has(key)) throw new UserError(`'${f}' is given twice`);
    seen.set(key, f);
  }
  if (seen.has(resolve(out))) throw new UserError(`--out '${out}' is one of the files to merge: choose another name`);
  if (out !== '' && !force) checkNewTarget(out);
  const parts = files.map(loadPart);
  const first = parts[0]!;
  // The same job.
  for (const p of parts.slice(1)) {
    const d = jobDifference(first.meta.job, p.meta.job);
    if (d) throw new UserError(`'${p.file}' differs from '${first.file}' in ${d.option}: ${d.b} there, ${d.a} here: only runs of the same options can be merged`);
  }
  // Every part complete: exactly the deals of its block.
  for (const p of parts) {
    const set = new DealSet(p.meta.part);
    p.fields.forEach(({ deal: d }, i) => {
      const line = p.rf.lineNos[i]!;
      if (!(d >= p.meta.part.from && d <= rangeLast(p.meta.part)))
        throw new UserError(`${p.file}, line ${line}: deal ${d} is not among its deals ${formatRange(p.meta.part)}`);
      if (!set.add(d)) throw new UserError(`${p.file}, line ${line}: deal ${d} is in the file twice`);
    });
    if (set.size !== p.meta.part.count) {
      const gaps = set.missingRanges(3).map(formatRange).join(', ');
      throw new UserError(
        `'${p.file}' is incomplete: ${set.size} of ${p.meta.part.count} deals (missing ${gaps}${set.missingRanges(4).length > 3 ? ', ...' : ''}); finish it with: ${p.meta.command}`,
      );
    }
  }
  // Shards of one range: all of them, each once.
  const oneRange = parts.every((p) => sameRange(p.meta.range, first.meta.range));
  const shardCounts = new Set(parts.map((p) => p.meta.shard?.count ?? 0));
  if (oneRange && parts.every((p) => p.meta.shard) && shardCounts.size === 1) {
    const n = first.meta.shard!.count;
    const have = new Map<number, string>();
    for (const p of parts) {
      const prev = have.get(p.meta.shard!.index);
      if (prev !== undefined) throw new UserError(`'${prev}' and '${p.file}' are both shard ${p.meta.shard!.index}/${n}: they overlap`);
      have.set(p.meta.shard!.index, p.file);
    }
    for (let i = 1; i <= n; i++)
      if (!have.has(i)) {
        const b = shardPart(first.meta.range, { index: i, count: n });
        throw new UserError(`shard ${i}/${n} (${rangeLabel(first.meta.job.source, b)}) is missing: give the files of all ${n} shards`);
      }
  }
  // No overlap, no gap.
  const sorted = [...parts].sort((a, b) => a.meta.part.from - b.meta.part.from);
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1]!;
    const b = sorted[i]!;
    const aEnd = a.meta.part.from + a.meta.part.count;
    if (b.meta.part.from < aEnd) {
      const lo = b.meta.part.from;
      const hi = Math.min(aEnd, b.meta.part.from + b.meta.part.count) - 1;
      throw new UserError(`'${a.file}' (${formatRange(a.meta.part)}) and '${b.file}' (${formatRange(b.meta.part)}) overlap: deals ${formatRange({ from: lo, count: hi - lo + 1 })} are in both`);
    }
    if (b.meta.part.from > aEnd)
      throw new UserError(
        `${dealsAre({ from: aEnd, count: b.meta.part.from - aEnd })} in none of the files (a gap between '${a.file}' and '${b.file}')`,
      );
  }
  const lo = sorted[0]!.meta.part.from;
  const last = sorted[sorted.length - 1]!.meta.part;
  const union: DealRange = { from: lo, count: last.from + last.count - lo };
  if (oneRange && !sameRange(union, first.meta.range)) {
    const r = first.meta.range;
    const missing = union.from > r.from ? { from: r.from, count: union.from - r.from } : { from: union.from + union.count, count: r.from + r.count - union.from - union.count };
    throw new UserError(`${dealsAre(missing, ` of the range ${formatRange(r)}`)} in none of the files: give all its parts`);
  }
  // Combine.
  const lines = sorted.flatMap((p) => sortLines(p.rf.lines));
  const m = machine();
  const starts = parts.map((p) => p.meta.startedAt).sort();
  const ends = parts.map((p) => p.meta.endedAt ?? '').sort();
  const meta: Meta = {
    format: META_FORMAT,
    tool: 'limited',
    version: toolVersion(),
    commit: gitCommit(),
    command,
    job: first.meta.job,
    range: oneRange ? first.meta.range : union,
    shard: null,
    part: union,
    columns: [...columnsOf(first.meta.job)],
    startedAt: starts[0]!,
    endedAt: ends[ends.length - 1] || null,
    complete: true,
    rows: lines.length,
    rowsHash: hashRows(lines).hex,
    workers: 0,
    cores: m.cores,
    cpu: m.cpu,
    node: m.node,
    host: m.host,
    sessions: [],
    parts: sorted.map((p) => ({
      file: p.file,
      part: p.meta.part,
      shard: p.meta.shard,
      commit: p.meta.commit,
      sessions: p.meta.parts ? p.meta.parts.flatMap((q) => q.sessions) : p.meta.sessions,
    })),
  };
  const header = headerOf(first.meta.job);
  const figures = sorted.flatMap((p) => p.fields);
  const sessions = meta.parts!.flatMap((p) => p.sessions);
  const deals = sessions.reduce((a, s) => a + s.deals, 0);
  const seconds = sessions.reduce((a, s) => a + s.seconds, 0);
  const summary: SummaryFile = {
    file: out,
    job: meta.job,
    range: meta.range,
    shard: null,
    part: union,
    complete: true,
    ...summarize(figures),
    speed: {
      deals,
      seconds: Math.round(seconds * 1000) / 1000,
      dealsPerSecond: seconds > 0 ? deals / seconds : null,
      note: `per part: ${plural(deals, 'deal')} in ${seconds.toFixed(1)} s of wall-clock time summed over ${plural(parts.length, 'part')}`,
    },
  };
  return { meta, header, lines, summary, unhashed: parts.filter((p) => !p.hashed).map((p) => p.file) };
}

/** Writes a merge: the combined CSV and its sidecars, all three or none (a full disk leaves no part of them). */
export function writeMerged(out: string, m: Merged): void {
  writeAtomicAll([
    { file: out, text: [m.header, ...m.lines].map((l) => l + '\n').join(''), what: 'merged file' },
    { file: metaPath(out), text: metaText(m.meta), what: 'sidecar' },
    { file: summaryPath(out), text: summaryText(m.summary), what: 'sidecar' },
  ]);
}
