/**
 * `limited experiment tactics`: runs the rows of the matrix (src/experiment/matrix.ts) one after
 * another through the batch runner — each row its own results CSV in the output directory, so
 * the experiment resumes like any batch: a finished row is skipped, a half-done one resumed —
 * then reads every finished row back and writes the summary: tactics.csv, tactics.md and
 * tactics.svg.
 *
 * The summary covers every row of the matrix whose file is finished and was made with the
 * options given now, not only the rows run (`--only` runs a subset; the others keep what an
 * earlier run left): a row made with other options is left out with a note saying why.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { checkWritable, makeDir, writeAtomic } from '../util/fileio.js';
import { headerOf } from '../batch/rows.js';
import { gitCommit, machine } from '../batch/machine.js';
import { formatRange } from '../batch/range.js';
import { refuseForeign, runBatch } from '../batch/run.js';
import { tacticsSvg, tacticsTitles } from './tactics-chart.js';
import { type ExperimentRow, type MatrixOptions, SOLVER_PRESET, selectRows, tacticsMatrix } from './matrix.js';
import { type TacticsLine, tacticsCsv, tacticsLine, tacticsMarkdown } from './tactics-report.js';
import { wallTime } from '../util/duration.js';
import { type Outcomes, type RowState, metaSeconds, readRow, rowState } from './summary.js';
import { type EstimateLine, type EstimatorRow, type StrataKind, provePass, runEstimator } from './winrate.js';
import { type ClusterTask, type SharedJob, isComplete, mergeOnce, shardFile, shareJobs } from './cluster.js';
import { solveSpec } from '../batch/job.js';
import { NO_RESTRICTION, UserError, parseRules, parseSize } from '../game/index.js';

/** Phase 2 of the solver rows (the win-rate estimator, winrate.ts): its sample and long budget. */
export interface Phase2Options {
  /** Deals a solver row's estimate samples from those phase 1 left undecided (0: none). */
  readonly sample: number;
  readonly longNodes: number;
  readonly longSeconds?: number;
  readonly longMemoryMB: number;
  /** The prover's pass: the sampled deals the long budget leaves unknown, at this node budget (none: no pass). */
  readonly proveNodes?: number;
  readonly seed: string;
  /** The strata of phase 2, and how its sample grows (winrate.ts EstimatorConfig). */
  readonly strata?: StrataKind;
  readonly targetWidth?: number;
  readonly maxSample?: number;
  readonly maxSeconds?: number;
}

export interface TacticsConfig extends MatrixOptions {
  /** The solver rows' phase 2 (none: their estimates rest on phase 1 alone, counted both ways). */
  readonly phase2?: Phase2Options;
  /** The output directory: ROW.csv per row (with its sidecars), and the summary files. */
  readonly dir: string;
  readonly workers: number;
  /** `--only`: groups and row names (all rows when undefined). */
  readonly only?: string;
  readonly progress: boolean;
  /** `--force`: a chosen row whose file was made with other options is run again from the start (else refused). */
  readonly force?: boolean;
  /** The command line, for the sidecars and tactics.md. */
  readonly command: string;
  /** Messages for the user (stderr). */
  readonly note?: (text: string) => void;
  /** This process is a task of a cluster job (cluster.ts): rows in shards, phase 2 a deal at a time; task 1 writes the summary. */
  readonly cluster?: ClusterTask;
  /** Keep a certificate of every decided deal of the solver rows' files (src/batch/certs.ts); the players' rows prove nothing. */
  readonly certificates?: boolean;
}

export interface TacticsOutcome {
  readonly status: 'done' | 'interrupted';
  readonly signal?: NodeJS.Signals;
  /** The rows in the summary (finished, made with these options), in the matrix's order. */
  readonly lines: readonly TacticsLine[];
  readonly missing: readonly { readonly name: string; readonly why: string }[];
  readonly files: readonly string[];
}

export const rowFile = (dir: string, row: ExperimentRow): string => join(dir, `${row.name}.csv`);
/** A solver row's phase-2 file (the win-rate estimator's sample at the long budget). */
export const phase2File = (dir: string, row: ExperimentRow): string => join(dir, `${row.name}.phase2.csv`);
/** A solver row's file of phase 2's prover's pass. */
export const proveFile = (dir: string, row: ExperimentRow): string => join(dir, `${row.name}.phase2-prove.csv`);

/**
 * The solver rows as the win-rate estimator's rows: the free game first (every other row's
 * baseline), then every other solver and rules row whose phase 1 is finished with these options.
 */
export function estimatorRows(dir: string, matrix: readonly ExperimentRow[], p: Phase2Options | undefined): EstimatorRow[] {
  const solverRows = matrix.filter((r) => (r.group === 'solver' || r.group === 'rules') && rowState(r, rowFile(dir, r)).state === 'complete');
  if (!solverRows.some((r) => r.name === 'solver-free')) return [];
  return solverRows.map((r) => {
    const rules = parseRules(r.spec.rules);
    const tactics = r.spec.solver.tactics ?? NO_RESTRICTION;
    const size = parseSize(r.spec.size);
    const restricted = r.spec.solver.tactics ? { tactics } : {};
    const long = {
      preset: SOLVER_PRESET,
      maxNodes: p?.longNodes ?? 1,
      ...(p?.longSeconds !== undefined ? { maxSeconds: p.longSeconds } : {}),
      maxMemoryMB: p?.longMemoryMB ?? 1,
      ...restricted,
    };
    return {
      name: r.name, rules, tactics, size, range: r.range, phase1: r.spec, phase2: solveSpec('v1', rules, size, long),
      file1: rowFile(dir, r), file2: phase2File(dir, r), ...(r.name !== 'solver-free' ? { baseline: 'solver-free' } : {}),
      ...(p?.proveNodes !== undefined ? { prove: provePass(rules, size, p.proveNodes, p.longMemoryMB, restricted, proveFile(dir, r)) } : {}),
    };
  });
}

/**
 * The solver rows' estimates with perfect information: phase 2 runs (for every solver row whose
 * phase 1 is done, in the matrix's order) when solver rows were chosen and a sample is asked for;
 * otherwise what the files hold is read.
 */
async function estimateSolverRows(
  cfg: TacticsConfig, matrix: readonly ExperimentRow[], chosenSolver: boolean, note: (t: string) => void,
): Promise<{ status: 'done' | 'interrupted'; signal?: NodeJS.Signals; lines: readonly EstimateLine[] }> {
  const rows = estimatorRows(cfg.dir, matrix, cfg.phase2);
  if (rows.length === 0) return { status: 'done', lines: [] };
  const sample = cfg.phase2?.sample ?? 0;
  const res = await runEstimator({
    rows, sample, seed: cfg.phase2?.seed ?? 'winrate', workers: cfg.workers, progress: cfg.progress, command: cfg.command, note,
    label: 'experiment tactics', run: chosenSolver && sample > 0,
    ...(cfg.phase2?.strata !== undefined ? { strata: cfg.phase2.strata } : {}),
    ...(cfg.phase2?.targetWidth !== undefined ? { targetWidth: cfg.phase2.targetWidth } : {}),
    ...(cfg.phase2?.maxSample !== undefined ? { maxSample: cfg.phase2.maxSample } : {}),
    ...(cfg.phase2?.maxSeconds !== undefined ? { maxSeconds: cfg.phase2.maxSeconds } : {}),
    ...(cfg.cluster ? { cluster: cfg.cluster } : {}),
    ...(cfg.certificates ? { certificates: true } : {}),
  });
  return res;
}

/** What a row is, in words: `greedy always/eager, deals 1-10000`. */
function describe(row: ExperimentRow): string {
  const rules = row.rules === 'book' ? '' : `, rules ${row.rules}`;
  return `${row.who} ${row.tactics}${rules}, deals ${formatRange(row.range)}`;
}

/**
 * Files in the directory that are not the experiment's are refused before any work rather than
 * written over (its own are rewritten or resumed): a chosen row's CSV without a sidecar (the
 * batch runner refuses it too, but only when the row's turn comes, maybe hours in), any row's
 * sidecar that is not a batch's (rowState throws), and tactics.csv, .md or .svg in a directory
 * that holds no row's sidecar.
 */
function refuseForeignFiles(
  dir: string,
  matrix: readonly ExperimentRow[],
  chosen: readonly ExperimentRow[],
  states: ReadonlyMap<string, RowState>,
  summaryFiles: readonly string[],
): void {
  for (const row of chosen) if (states.get(row.name)!.state === 'absent') refuseForeign(rowFile(dir, row), headerOf(row.spec));
  // Every row's sidecar is read (not only up to the first found), but a chosen row's only once
  // (`states`): a foreign one is refused now.
  const sidecars = matrix.filter((row) => (states.get(row.name) ?? rowState(row, rowFile(dir, row))).state !== 'absent');
  if (sidecars.length > 0) return;
  const f = summaryFiles.find((file) => existsSync(file));
  if (f !== undefined)
    throw new UserError(`'${f}' exists but has no row's sidecar (ROW.meta.json) beside it, so it is not a file of limited experiment tactics: remove it or choose another --out-dir`);
}

export async function runTactics(cfg: TacticsConfig): Promise<TacticsOutcome> {
  const note = cfg.note ?? ((t: string) => process.stderr.write(t + '\n'));
  const matrix = tacticsMatrix(cfg);
  const chosen = selectRows(matrix, cfg.only);
  const summaryFiles = ['tactics.csv', 'tactics.md', 'tactics.svg'].map((f) => join(cfg.dir, f));
  makeDir(cfg.dir, `experiment file '${summaryFiles[0]}'`);
  for (const f of summaryFiles) checkWritable(f, 'experiment file');
  // Before any work: every chosen row's file must be resumable with these options.
  const states = new Map<string, RowState>();
  for (const row of chosen) {
    const st = rowState(row, rowFile(cfg.dir, row));
    if (st.state === 'other' && !cfg.force)
      throw new UserError(
        `${rowFile(cfg.dir, row)} was ${st.why}: give the options of the run that made ${cfg.dir} (--from, --count, --solver-count, --sampling-count, --max-nodes, --sampling-player, --size), another --out-dir, or --force to run the row again from the start`,
      );
    states.set(row.name, st);
  }
  refuseForeignFiles(cfg.dir, matrix, chosen, states, summaryFiles);

  const n = chosen.length;
  for (let i = 0; i < n; i++) {
    const row = chosen[i]!;
    const file = rowFile(cfg.dir, row);
    const tag = `row ${i + 1}/${n} ${row.name}`;
    const state = states.get(row.name)!.state;
    if (state === 'complete') {
      note(`experiment tactics: ${tag}: done already (${describe(row)}; ${file})`);
      continue;
    }
    if (state === 'noFile') note(`experiment tactics: ${tag}: ${file} is not there (only its sidecar): running the row from the start`);
    if (state === 'other') note(`experiment tactics: ${tag}: ${file} was made with other options: running the row again from the start (--force)`);
    const certs = cfg.certificates && row.spec.kind === 'solve' ? { certificates: true } : {};
    const task = cfg.cluster;
    if (task) {
      // Shards of the row, this task's first, shared with the other tasks; then merged into the row's file.
      if (isComplete(file)) continue;
      note(`experiment tactics: ${tag}: ${describe(row)} in ${task.count} shards (task ${task.index}/${task.count}, ${task.from}) -> ${shardFile(file, { index: task.index, count: task.count })}`);
      const jobs = Array.from({ length: task.count }, (_, k): SharedJob => {
        const shard = { index: k + 1, count: task.count };
        const out = shardFile(file, shard);
        return { file: out, run: () => runBatch({ spec: row.spec, range: row.range, shard, out, workers: cfg.workers, progress: cfg.progress, label: tag, command: cfg.command, note, ...certs }) };
      });
      const o = await shareJobs(jobs, task, 1);
      if (o.status === 'interrupted') return { status: 'interrupted', signal: o.signal, lines: [], missing: [], files: [] };
      await mergeOnce(file, task.count, cfg.command, task);
      continue;
    }
    note(`experiment tactics: ${tag}: ${describe(row)} -> ${file}`);
    const res = await runBatch({
      spec: row.spec,
      range: row.range,
      shard: null,
      out: file,
      workers: cfg.workers,
      progress: cfg.progress,
      label: `${tag}`,
      command: cfg.command,
      ...(cfg.force ? { force: true } : {}),
      ...certs,
      note,
    });
    if (res.status === 'interrupted') return { status: 'interrupted', signal: res.signal!, lines: [], missing: [], files: [] };
    const s = res.summary;
    note(
      `experiment tactics: ${tag}: won ${s.won} of ${s.deals} (${((100 * s.won) / Math.max(1, s.deals)).toFixed(2)} %)` +
        `${s.unknown > 0 ? `, unknown ${s.unknown}` : ''}, ${wallTime(s.speed.seconds)} this run`,
    );
  }

  const chosenSolver = chosen.some((r) => r.group === 'solver' || r.group === 'rules');
  const est = await estimateSolverRows(cfg, matrix, chosenSolver, note);
  if (est.status === 'interrupted') return { status: 'interrupted', signal: est.signal!, lines: [], missing: [], files: [] };
  const { lines, missing } = await summarizeRows(cfg.dir, matrix, est.lines);
  // Of a cluster's tasks, task 1 alone writes the summary.
  if (cfg.cluster && cfg.cluster.index !== 1) return { status: 'done', lines, missing, files: [] };
  const m = machine();
  const commit = gitCommit();
  const rowCommits = new Set<string>();
  const machines = new Set<string>();
  const starts: string[] = [];
  const ends: string[] = [];
  for (const l of lines) {
    const st = rowState(l.row, l.file);
    if (st.state === 'complete') {
      rowCommits.add(st.meta.commit ?? 'unknown');
      machines.add(`${st.meta.cpu} x ${st.meta.cores} cores, Node ${st.meta.node}, host ${st.meta.host}`);
      starts.push(st.meta.startedAt);
      if (st.meta.endedAt) ends.push(st.meta.endedAt);
    }
  }
  starts.sort();
  ends.sort();
  const ran = starts.length > 0 ? `rows run from ${starts[0]} to ${ends[ends.length - 1] ?? '?'}; ` : '';
  const header = {
    command: cfg.command,
    machine: machines.size > 0 ? [...machines].join('; ') : `${m.cpu} x ${m.cores} cores, Node ${m.node}, host ${m.host}`,
    date: `${ran}summary written ${new Date().toISOString()}`,
    commit: `${commit ?? 'unknown'} (summary)${rowCommits.size > 0 ? `; rows made by ${[...rowCommits].join(', ')}` : ''}`,
    missing,
  };
  const [csvFile, mdFile, svgFile] = summaryFiles as [string, string, string];
  writeAtomic(csvFile, tacticsCsv(lines), 'experiment file');
  writeAtomic(mdFile, tacticsMarkdown(lines, header), 'experiment file');
  const counts = [...new Set(lines.map((l) => `${l.row.group} ${l.row.range.count}`))].join(', ');
  writeAtomic(
    svgFile,
    tacticsSvg({ ...tacticsTitles(cfg.from, lines[0]?.row.spec.size ?? '', counts, SOLVER_PRESET, cfg.solverNodes), lines }),
    'experiment file',
  );
  return { status: 'done', lines, missing, files: summaryFiles };
}

/**
 * Reads the finished rows back (streamed): counts, and the paired table against the group's
 * baseline when the baseline is finished too. Rows that are not finished with these options
 * are listed in `missing` with the reason.
 */
export async function summarizeRows(
  dir: string,
  matrix: readonly ExperimentRow[],
  estimates: readonly EstimateLine[] = [],
): Promise<{ lines: TacticsLine[]; missing: { name: string; why: string }[] }> {
  const lines: TacticsLine[] = [];
  const missing: { name: string; why: string }[] = [];
  const baselines = new Map<string, Outcomes | null>();
  const baselineOf = async (name: string): Promise<Outcomes | null> => {
    if (baselines.has(name)) return baselines.get(name)!;
    const row = matrix.find((r) => r.name === name)!;
    const st = rowState(row, rowFile(dir, row));
    const out = st.state === 'complete' ? (await readRow(rowFile(dir, row), row.spec, row.range, null, true)).outcomes : null;
    baselines.set(name, out);
    return out;
  };
  for (const row of matrix) {
    const file = rowFile(dir, row);
    const st = rowState(row, file);
    if (st.state !== 'complete') {
      const why =
        st.state === 'absent'
          ? 'not run'
          : st.state === 'noFile'
            ? `${file} is not there, only its sidecar (the rows' CSVs are not kept in git): run the row again to include it`
            : st.state === 'other'
            ? `${file} was ${st.why}`
            : `incomplete (${st.meta.sessions.reduce((a, s) => a + s.deals, 0)} of ${row.range.count} deals done): run the command again to finish it`;
      missing.push({ name: row.name, why });
      continue;
    }
    const isBaseline = row.baseline === row.name;
    const base = isBaseline ? null : await baselineOf(row.baseline);
    // A baseline keeps its outcomes for the rows after it (the matrix lists baselines first).
    const r = await readRow(file, row.spec, row.range, base, isBaseline);
    if (isBaseline) baselines.set(row.name, r.outcomes);
    const rate = estimates.find((e) => e.kind === 'rate' && e.row === row.name);
    const effect = estimates.find((e) => e.kind === 'difference' && e.row === row.name) ?? null;
    lines.push(tacticsLine(row, r.counts, r.paired, metaSeconds(st.meta), file, rate ? { rate, effect } : undefined));
  }
  return { lines, missing };
}
