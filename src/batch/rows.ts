/**
 * The rows of a results CSV, in one place: the columns of each job kind, a finished deal as the
 * worker sends it back (a compact row of numbers), its CSV record and text (encode), and a row
 * read back and checked field by field (decode), by the writer, by resume and by merge alike.
 *
 * A column is either the job's (source, rules, size, job, method, the budgets, cards: the same
 * text on every row, from the spec) or the deal's (its value in the compact row, and a check of
 * its text). A row read back must have every job column equal to what the file's sidecar makes
 * of it, every deal column well formed, and fields that agree with one another (a verdict and
 * its limit, a won game and its length).
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { MAX_DEAL_NUMBER, UserError, deckCount, shown } from '../game/index.js';
import { type ResultsFile, csvText, parseCsvLine } from './csv.js';
import { type DealOutcome, type JobSpec, specSize } from './job.js';
import { type DealRange, formatRange } from './range.js';
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

export function verdictOf(r: CompactRow): string {
  return VERDICTS[r[1]] ?? 'unknown';
}

export function limitOf(r: CompactRow): string {
  return LIMITS[r[2]] ?? '';
}

// ---------------------------------------------------------------------------------------
// The schema: each kind's columns in order, as the job's or the deal's

type Field = string | number;
/** Why a deal column's text is not well formed (after `NAME 'TEXT' `), or null. */
type Check = (text: string, cards: number) => string | null;

interface Column {
  readonly name: (typeof COLUMNS)[number] | (typeof PLAY_COLUMNS)[number];
  /** A job column: its value, the same on every row. */
  readonly job?: (spec: JobSpec, cards: number) => Field;
  /** A deal column: its value in a compact row, and the check of its text. */
  readonly deal?: (r: CompactRow) => Field;
  readonly check?: Check;
}

const job = (name: Column['name'], value: NonNullable<Column['job']>): Column => ({ name, job: value });
const deal = (name: Column['name'], value: NonNullable<Column['deal']>, check: Check): Column => ({ name, deal: value, check });

const words = (list: readonly string[]): string => {
  const w = list.map((x) => (x === '' ? 'empty' : x));
  return w.length === 1 ? w[0]! : `${w.slice(0, -1).join(', ')} or ${w[w.length - 1]}`;
};
const oneOf = (list: readonly string[]): Check => (t) => (list.includes(t) ? null : `is not ${words(list)}`);
/**
 * A number must be written as the writer writes it (String of the number: no leading zero, no
 * trailing zero after a point, no '+'): a row is text that one number has one way to be, so an
 * edited row ('05' for deal 5) is seen as edited.
 */
const canonical = (t: string): string | null => (String(Number(t)) === t ? null : `is not written as limited writes numbers ('${String(Number(t))}')`);
const whole: Check = (t) => (/^\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? canonical(t) : 'is not a whole number >= 0');
const upToCards: Check = (t, cards) => whole(t, cards) ?? (Number(t) > cards ? `is more than the ${cards} cards of the deck` : null);
const millis: Check = (t) => (/^\d+(\.\d+)?$/.test(t) && Number.isFinite(Number(t)) ? canonical(t) : 'is not a number of milliseconds >= 0');
const dealNumber: Check = (t) => (/^\d+$/.test(t) && Number(t) <= MAX_DEAL_NUMBER ? canonical(t) : 'is not a deal number');

const JOB_COLUMNS: readonly Column[] = [
  deal('deal', (r) => r[0], dealNumber),
  job('source', (s) => s.source),
  job('rules', (s) => s.rules),
  job('size', (s) => s.size),
  job('job', (s) => s.kind),
  job('method', (s) => s.method),
];

const SOLVE_SCHEMA: readonly Column[] = [
  ...JOB_COLUMNS,
  job('max_nodes', (s) => s.budgets.maxNodes),
  job('max_seconds', (s) => s.budgets.maxSeconds ?? ''),
  job('max_memory_mb', (s) => s.budgets.maxMemoryMB),
  deal('verdict', verdictOf, oneOf(['won', 'unsolvable', 'unknown'])),
  deal('limit', limitOf, oneOf(LIMITS)),
  deal('nodes', (r) => r[3], whole),
  deal('states', (r) => r[4], whole),
  deal('solution_length', (r) => r[5], whole),
  deal('best_home', (r) => r[6], upToCards),
  job('cards', (_, cards) => cards),
  deal('ms', (r) => r[7], millis),
];

const PLAY_SCHEMA: readonly Column[] = [
  ...JOB_COLUMNS,
  deal('verdict', (r) => VERDICTS[r[1]] ?? 'lost', oneOf(['won', 'lost'])),
  deal('end', (r) => ENDS[r[3]] ?? '', oneOf(ENDS)),
  deal('home', (r) => r[4], upToCards),
  job('cards', (_, cards) => cards),
  deal('moves', (r) => r[5], whole),
  deal('redealt', (r) => r[6], oneOf(['0', '1'])),
  deal('turned_fifth_blind', (r) => r[7], whole),
  deal('nodes', (r) => r[8]!, whole),
  deal('ms', (r) => r[9]!, millis),
];

/**
 * The most nodes a deal's search may report, as a multiple of its node budget. A preset's
 * stages keep to their shares of it, but the portfolio's prover, taking over beside a first
 * stage that keeps its own share, gets what is left of the whole budget: up to 1.7 times it
 * (presets.ts, portfolio.ts; the committed results reach 1.6). Twice is a bound no search
 * passes, and catches a count that was edited.
 */
export const NODES_PAST_BUDGET = 2;

/** A row's fields that disagree with one another, or null. `f` gives a field by column name. */
function solveAgreement(f: (name: string) => string, cards: number): string | null {
  const verdict = f('verdict');
  const limit = f('limit');
  if (verdict === 'unknown' && limit === '') return `limit is empty with verdict unknown: an unknown row names the budget that ran out (nodes, time or memory)`;
  if (verdict !== 'unknown' && limit !== '') return `limit '${limit}' with verdict ${verdict}: only an unknown row has a limit`;
  const length = Number(f('solution_length'));
  if (verdict === 'won' && length === 0) return `solution_length 0 with verdict won: a won row has the length of its solution`;
  if (verdict !== 'won' && length !== 0) return `solution_length ${length} with verdict ${verdict}: only a won row has a solution`;
  // A search that got every card home has won: won exactly when every card went home.
  const home = Number(f('best_home'));
  if (verdict === 'won' && home !== cards) return `best_home ${home} with verdict won: a won row has all ${cards} cards home`;
  if (verdict !== 'won' && home === cards) return `best_home ${home} with verdict ${verdict}: only a won row has all ${cards} cards home`;
  const nodes = Number(f('nodes'));
  const budget = Number(f('max_nodes'));
  if (nodes > NODES_PAST_BUDGET * budget) return `nodes ${nodes} with max_nodes ${budget}: more than ${NODES_PAST_BUDGET} times the node budget, which no search spends`;
  return null;
}

function playAgreement(f: (name: string) => string, cards: number): string | null {
  const verdict = f('verdict');
  const end = f('end');
  if ((verdict === 'won') !== (end === 'won')) return `end '${end}' with verdict ${verdict}: a game ends 'won' exactly when it is won`;
  if (verdict === 'won' && Number(f('home')) !== cards) return `home ${f('home')} with verdict won: a won game has all ${cards} cards home`;
  if (verdict !== 'won' && Number(f('home')) === cards) return `home ${f('home')} with verdict ${verdict}: a game with all ${cards} cards home is won`;
  return null;
}

/** The fields of a row the summary needs. */
export interface RowFields {
  readonly deal: number;
  readonly verdict: string;
  /** The limit that ran out for an unknown row ('' otherwise, and for a player's rows). */
  readonly limit: string;
  readonly nodes: number;
  /** Most cards home in any position searched (a player's rows: cards home at the end). */
  readonly bestHome: number;
  readonly ms: number;
}

/** A job's rows: its columns, header, encoding (a compact row as a record) and decoding (a line read back and checked). */
export interface RowCodec {
  readonly columns: readonly string[];
  readonly header: string;
  record(r: CompactRow): Field[];
  /** A row's line (no newline) as its fields, checked; a UserError `FILE, line N: ...` naming the column otherwise. */
  decode(line: string, lineNo: number, file: string): RowFields;
}

/** The rows of a job (the solve and bench kinds share the solver's columns). */
export function rowCodec(spec: JobSpec): RowCodec {
  const schema = spec.kind === 'play' ? PLAY_SCHEMA : SOLVE_SCHEMA;
  const columns = schema.map((c) => c.name);
  const cards = deckCount(specSize(spec));
  const jobValues = schema.map((c) => (c.job ? c.job(spec, cards) : null));
  const jobTexts = jobValues.map((v) => (v === null ? null : String(v)));
  const at = (name: string): number => columns.indexOf(name as Column['name']);
  const [d, v, l, n, m] = [at('deal'), at('verdict'), at('limit'), at('nodes'), at('ms')];
  const home = spec.kind === 'play' ? at('home') : at('best_home');
  const agreement = spec.kind === 'play' ? playAgreement : solveAgreement;
  return {
    columns,
    header: columns.join(','),
    record: (r) => schema.map((c, i) => (c.deal ? c.deal(r) : jobValues[i]!)),
    decode(line, lineNo, file) {
      const where = `${file}, line ${lineNo}`;
      let f: string[];
      try {
        f = parseCsvLine(line);
      } catch (e) {
        throw new UserError(`${where}: ${(e as Error).message}`);
      }
      if (f.length !== columns.length) throw new UserError(`${where}: ${f.length} fields, the header has ${columns.length}`);
      for (let i = 0; i < schema.length; i++) {
        const c = schema[i]!;
        const t = f[i]!;
        const want = jobTexts[i];
        if (want !== null && want !== undefined) {
          if (t !== want) throw new UserError(`${where}: ${c.name} '${shown(t)}' is not the job's '${shown(want)}' (as its sidecar says)`);
        } else {
          const why = c.check!(t, cards);
          if (why) throw new UserError(`${where}: ${c.name} '${shown(t)}' ${why}`);
        }
      }
      const why = agreement((name) => f[at(name)]!, cards);
      if (why) throw new UserError(`${where}: ${why}`);
      return { deal: Number(f[d]), verdict: f[v]!, limit: l < 0 ? '' : f[l]!, nodes: Number(f[n]), bestHome: Number(f[home]), ms: Number(f[m]) };
    },
  };
}

/** Checks that a results file's header is the job's; a UserError naming the first column that differs otherwise. */
export function checkHeader(file: string, header: string, spec: JobSpec): void {
  const want = columnsOf(spec);
  if (header === want.join(',')) return;
  let got: string[];
  try {
    got = parseCsvLine(header);
  } catch {
    got = [header];
  }
  const i = want.findIndex((c, k) => got[k] !== c);
  const detail = i < 0 ? `${got.length} columns, not ${want.length}` : `column ${i + 1} is '${shown(got[i] ?? '')}', not '${want[i]}'`;
  throw new UserError(`'${file}' has other columns than this version of limited writes for a ${spec.kind} job (${detail})`);
}

/** The function that makes the CSV record (values in `columnsOf(spec)` order) of a compact row of this spec. */
export function rowRecords(spec: JobSpec): (r: CompactRow) => Field[] {
  return rowCodec(spec).record;
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

/**
 * The rows of a results file, each checked against the job of its sidecar (`spec`): a
 * UserError naming the file, line and column at the first that is not well formed.
 */
export function rowFields(rf: ResultsFile, spec: JobSpec): RowFields[] {
  const codec = rowCodec(spec);
  return rf.lines.map((line, i) => codec.decode(line, rf.lineNos[i]!, rf.file));
}

/**
 * Streams the rows of a results file of `range` made by `spec`, each checked (the header, every
 * field, the deal within the range and only once): `onRow` gets the deal's index in the range,
 * its verdict and its line (and all its fields). Returns the rows read. A missing file is a UserError.
 */
export async function forEachRow(
  file: string, spec: JobSpec, range: DealRange, seen: Uint8Array,
  onRow: (index: number, verdict: string, lineNo: number, deal: number, fields: RowFields) => void,
): Promise<number> {
  const codec = rowCodec(spec);
  let count = 0;
  let lineNo = 0;
  const input = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      lineNo++;
      if (lineNo === 1) {
        checkHeader(file, line.charCodeAt(0) === 0xfeff ? line.slice(1) : line, spec);
        continue;
      }
      if (line === '') continue;
      const fields = codec.decode(line, lineNo, file);
      const { deal, verdict } = fields;
      const i = deal - range.from;
      if (!(i >= 0 && i < range.count)) throw new UserError(`${file}, line ${lineNo}: deal ${deal} is not among the deals ${formatRange(range)}`);
      if (seen[i] !== 0) throw new UserError(`${file}, line ${lineNo}: deal ${deal} is in the file twice`);
      seen[i] = 1;
      onRow(i, verdict, lineNo, deal, fields);
      count++;
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new UserError(`cannot read results file '${file}': no such file`);
    throw e;
  } finally {
    lines.close();
    input.destroy();
  }
  return count;
}
