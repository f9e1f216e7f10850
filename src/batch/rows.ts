/**
 * The rows of a results CSV, in one place: the columns of each job kind, a finished deal as the
 * worker sends it back (a compact row of numbers), its CSV record and text (encode), and a row
 * read back into the fields the summary needs (decode).
 */
import { UserError, deckCount } from '../game/index.js';
import { type ResultsFile, csvText, parseCsvLine } from './csv.js';
import { type DealOutcome, type JobSpec, specSize } from './job.js';
import { type PlayEnd } from '../play/index.js';


/**
 * The CSV columns of the solver kinds, in order. Every column but TIMING_COLUMNS is the same on
 * any machine and with any worker count or sharding, when no time budget binds.
 */
export const COLUMNS = [
  'deal', // the deal number (source v1) or PySolFC game number (source pysol)
  'source', // v1 | pysol
  'rules', // formatRules: book, pysol, or building=... second-deal=... privileged=...
  'size', // 2x13 12x3
  'job', // solve
  'method', // preset=fast, search=best heuristic=buried, ... (pairing=... spaces=... when the solver is restricted by tactics)
  'max_nodes', // the node budget in force
  'max_seconds', // the time budget in force ('' = none)
  'max_memory_mb', // the table's memory cap
  'verdict', // won | unsolvable (proven: the search was exhausted) | unknown (a budget ran out)
  'limit', // for unknown: nodes | time | memory
  'nodes', // nodes expanded
  'states', // states stored
  'solution_length', // moves in the verified solution (won), else 0
  'best_home', // most cards home in any position searched
  'cards', // cards in the deck (104 at full size)
  'ms', // milliseconds (the solver's clock): the one timing column
] as const;

/**
 * The CSV columns of the play kind (`limited batch --player`), in order. A player does not
 * prove anything: its verdict is `won` or `lost` (the game it played ended short of the
 * foundations), never `unsolvable` or `unknown`. Every column but `ms` depends only on the job
 * and the deal number (the deal number is the player's seed).
 */
export const PLAY_COLUMNS = [
  'deal', // the deal number (source v1) or PySolFC game number (source pysol)
  'source', // v1 | pysol
  'rules', // formatRules
  'size', // 2x13 12x3
  'job', // play
  'method', // player=greedy pairing=always spaces=eager pile=remembered
  'verdict', // won | lost (this player's game; not a proof either way)
  'end', // won | stopped (no move the player would play) | blind (a blind fifth card had no place) | cap (the move cap)
  'home', // cards on the foundations at the end
  'cards', // cards in the deck (104 at full size)
  'moves', // moves played
  'redealt', // 1 when the game reached the second deal, else 0
  'turned_fifth_blind', // times the fifth card was turned blind (only with --pile forgotten)
  'nodes', // nodes the player searched (the sampling player's look-ahead; 0 for greedy)
  'ms', // milliseconds (the worker's clock): the one timing column
] as const;

export const TIMING_COLUMNS: readonly string[] = ['ms'];

export const HEADER: string = COLUMNS.join(',');
export const PLAY_HEADER: string = PLAY_COLUMNS.join(',');

/** The columns of a job's results file. */
export function columnsOf(spec: Pick<JobSpec, 'kind'>): readonly string[] {
  return spec.kind === 'play' ? PLAY_COLUMNS : COLUMNS;
}

/** The header line of a job's results file. */
export function headerOf(spec: Pick<JobSpec, 'kind'>): string {
  return spec.kind === 'play' ? PLAY_HEADER : HEADER;
}

/** A solved deal as the worker sends it back: compact, numbers only (`variant`: kinds with variants only). */
export type SolveRow = [deal: number, verdict: number, limit: number, nodes: number, states: number, solutionLength: number, bestHome: number, ms: number, variant?: number];
/** A played deal as the worker sends it back (the first three as in SolveRow: limit is always 0). */
export type PlayRow = [deal: number, verdict: number, limit: number, end: number, home: number, moves: number, redealt: number, turnedFifthBlind: number, nodes: number, ms: number];
/** A finished deal as the worker sends it back: the deal, the verdict and the limit first, whatever the kind. */
export type CompactRow = SolveRow | PlayRow;

const VERDICTS = ['won', 'unsolvable', 'unknown', 'lost'] as const;
const LIMITS = ['', 'nodes', 'time', 'memory'];
const ENDS: readonly PlayEnd[] = ['won', 'stopped', 'blind', 'cap'];

const round3 = (ms: number): number => Math.round(ms * 1000) / 1000;

export function compactRow(deal: number, o: DealOutcome, variant?: number): CompactRow {
  if (o.play) {
    const p = o.play;
    return [deal, VERDICTS.indexOf(o.verdict), 0, ENDS.indexOf(p.end), o.bestHome, p.moves, p.redealt ? 1 : 0, p.turnedFifthBlind, o.nodes, round3(o.ms)];
  }
  let limit = LIMITS.indexOf(o.limit);
  if (limit < 0) limit = 0;
  const r: SolveRow = [deal, VERDICTS.indexOf(o.verdict), limit, o.nodes, o.states, o.solutionLength, o.bestHome, round3(o.ms)];
  if (variant !== undefined) r.push(variant);
  return r;
}

/** The function that makes the CSV record (values in `columnsOf(spec)` order) of a compact row of this spec. */
export function rowRecords(spec: JobSpec): (r: CompactRow) => (string | number)[] {
  const cards = deckCount(specSize(spec));
  if (spec.kind === 'play')
    return (r) => [r[0], spec.source, spec.rules, spec.size, spec.kind, spec.method, VERDICTS[r[1]] ?? 'lost', ENDS[r[3]] ?? '', r[4], cards, r[5], r[6], r[7], r[8]!, r[9]!];
  return (r) => [
    r[0], spec.source, spec.rules, spec.size, spec.kind, spec.method,
    spec.budgets.maxNodes, spec.budgets.maxSeconds ?? '', spec.budgets.maxMemoryMB,
    VERDICTS[r[1]] ?? 'unknown', LIMITS[r[2]] ?? '', r[3], r[4], r[5], r[6], cards, r[7],
  ];
}

export function verdictOf(r: CompactRow): string {
  return VERDICTS[r[1]] ?? 'unknown';
}

export function limitOf(r: CompactRow): string {
  return LIMITS[r[2]] ?? '';
}

/**
 * The function that makes the CSV text of a chunk's rows: `csvText(rows.map(rowRecords(spec)))`,
 * the same text (test/batch.test.ts checks it) made several times faster for the play kind's
 * big chunks. A row's strings are few — the job's constant columns and words such as `won` or
 * `nodes` — so each is quoted once by csv-stringify and remembered; numbers need no quoting.
 */
export function chunkText(spec: JobSpec): (rows: readonly CompactRow[]) => string {
  const record = rowRecords(spec);
  const quoted = new Map<string, string>();
  const field = (v: string | number): string => {
    if (typeof v === 'number') return String(v);
    let q = quoted.get(v);
    if (q === undefined) {
      q = csvText([[v]]).slice(0, -1);
      quoted.set(v, q);
    }
    return q;
  };
  return (rows) => {
    let text = '';
    for (const r of rows) text += record(r).map(field).join(',') + '\n';
    return text;
  };
}

/** The fields of a row the summary needs, by column name. */
export interface RowFields {
  readonly deal: number;
  readonly verdict: string;
  readonly limit: string;
  readonly nodes: number;
  readonly ms: number;
}

/** Parses the rows of a results file for the summary (a file without a `limit` column, a player's, has '' there). */
export function rowFields(rf: ResultsFile): RowFields[] {
  const cols = parseCsvLine(rf.header);
  const at = (name: string): number => {
    const i = cols.indexOf(name);
    if (i < 0) throw new UserError(`${rf.file}: the header has no column '${name}'`);
    return i;
  };
  const [d, v, n, m] = [at('deal'), at('verdict'), at('nodes'), at('ms')];
  const l = cols.indexOf('limit');
  return rf.lines.map((line, i) => {
    let f: string[];
    try {
      f = parseCsvLine(line);
    } catch (e) {
      throw new UserError(`${rf.file}, line ${i + 2}: ${(e as Error).message}`);
    }
    if (f.length !== cols.length) throw new UserError(`${rf.file}, line ${i + 2}: ${f.length} fields, the header has ${cols.length}`);
    return { deal: Number(f[d]), verdict: f[v]!, limit: l < 0 ? '' : f[l]!, nodes: Number(f[n]), ms: Number(f[m]) };
  });
}
