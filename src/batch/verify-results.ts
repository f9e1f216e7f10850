/**
 * `limited verify-results`: checks results files as a reader who trusts nothing but the rules
 * would. For every results CSV with a sidecar under the paths given:
 *
 *   - every row read back as resume reads it (rows.ts): the job's columns equal to the sidecar's
 *     job, every deal column well formed, fields that agree (a won row has a length, an unknown
 *     one its limit); every deal within the file's range (or its list), none twice; a file
 *     whose sidecar says complete holds every deal;
 *   - the sidecars agree with the rows: the summary's counts (`checkSidecars`, where a running
 *     hash of the rows, once the sidecar carries one, is checked too);
 *   - the certificates (certs.ts), when the file keeps them: every decided row has its line, of
 *     its verdict; a won deal's moves are replayed from the deal by the rules' verifier and must
 *     win in solution_length moves; a lost deal's line names its proof (LockBound at the root,
 *     or an exhausted search, which `limited solve DEAL` with the row's method and budget
 *     re-runs).
 *
 * Each problem names its file, line and deal.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError, parseRules, parseSize, plural, shown } from '../game/index.js';
import { replay } from '../game/verify.js';
import { certsGzPath, readCerts } from './certs.js';
import { loadResults, parseCsvLine } from './csv.js';
import { dealMaker } from './job.js';
import { metaPath, summaryPath } from './names.js';
import { type RowFields, checkHeader, columnsOf, rowCodec } from './rows.js';
import { type Meta, readMeta } from './sidecar.js';

/** What one file's check found. */
export interface FileCheck {
  readonly file: string;
  readonly rows: number;
  readonly won: number;
  readonly unsolvable: number;
  readonly unknown: number;
  /** Certificates checked (null: the file keeps none), and of them solutions replayed and losses by each proof. */
  readonly certificates: number | null;
  readonly replayed: number;
  readonly proofs: Readonly<Record<string, number>>;
  /** `FILE, line N: deal D: ...`, at most `MAX_PROBLEMS` of them (then a count of the rest). */
  readonly problems: readonly string[];
}

/** Problems listed a file; the rest are counted. */
export const MAX_PROBLEMS = 20;

/** The results CSVs under the paths (a file, or a directory searched to any depth): those with a sidecar, sorted. */
export function resultsFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (p: string, given: boolean): void => {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new UserError(`cannot read '${shown(p)}': no such file or directory`);
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) walk(join(p, name), false);
      return;
    }
    if (!p.toLowerCase().endsWith('.csv')) {
      if (given) throw new UserError(`'${shown(p)}' is not a results CSV`);
      return;
    }
    let meta = false;
    try {
      meta = statSync(metaPath(p)).isFile();
    } catch {
      meta = false;
    }
    if (meta) out.push(p);
    else if (given) throw new UserError(`'${shown(p)}' has no sidecar '${metaPath(p)}': it is not a results file of limited`);
  };
  for (const p of paths) walk(p, true);
  return out;
}

/**
 * The sidecars against the rows: the summary (when there is one) counts what the rows hold. The
 * batch's sidecar is to carry a running hash of its rows; once it does, its check belongs here.
 */
export function checkSidecars(csv: string, meta: Meta, counts: { won: number; unsolvable: number; unknown: number; lost: number; deals: number }): string[] {
  void meta;
  let text: string;
  try {
    text = readFileSync(summaryPath(csv), 'utf8');
  } catch {
    return [];
  }
  let s: Record<string, unknown>;
  try {
    s = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return [`${summaryPath(csv)}: not JSON`];
  }
  const problems: string[] = [];
  for (const k of ['deals', 'won', 'unsolvable', 'unknown', 'lost'] as const)
    if (typeof s[k] === 'number' && s[k] !== counts[k]) problems.push(`${summaryPath(csv)}: ${k} ${String(s[k])}, the rows have ${counts[k]}`);
  return problems;
}

/** Checks one results file (see the module's comment). A sidecar that cannot be read is a problem, not an exception. */
export function checkResultsFile(csv: string): FileCheck {
  const problems: string[] = [];
  let more = 0;
  const problem = (text: string): void => {
    if (problems.length < MAX_PROBLEMS) problems.push(text);
    else more++;
  };
  const counts = { deals: 0, won: 0, unsolvable: 0, unknown: 0, lost: 0 };
  const proofs: Record<string, number> = {};
  let certCount: number | null = null;
  let replayed = 0;
  const result = (): FileCheck => ({
    file: csv, rows: counts.deals, won: counts.won, unsolvable: counts.unsolvable, unknown: counts.unknown, certificates: certCount, replayed, proofs,
    problems: more > 0 ? [...problems, `${csv}: and ${plural(more, 'more problem')}`] : problems,
  });
  let meta: Meta | null;
  try {
    meta = readMeta(csv);
    if (!meta) throw new UserError(`${csv}: no sidecar`);
    const rf = loadResults(csv, false);
    if (!rf) throw new UserError(`${csv}: no such file`);
    if (rf.tornBytes > 0) problem(`${csv}: ends with a torn row (${rf.tornBytes} bytes without a newline)`);
    checkHeader(csv, rf.header, meta.job);
    const codec = rowCodec(meta.job);
    const part = meta.part;
    const listed = meta.deals ? new Set(meta.deals) : null;
    const seen = new Set<number>();
    const rows: RowFields[] = [];
    const lineOf = new Map<number, number>();
    // A won row's solution_length (the codec has checked it is a whole number).
    const lengthOf = new Map<number, number>();
    const lengthAt = columnsOf(meta.job).indexOf('solution_length');
    rf.lines.forEach((line, i) => {
      const no = rf.lineNos[i]!;
      let f: RowFields;
      try {
        f = codec.decode(line, no, csv);
      } catch (e) {
        if (!(e instanceof UserError)) throw e;
        problem(`${e.message} (deal ${line.split(',')[0]})`);
        return;
      }
      if (f.deal < part.from || f.deal >= part.from + part.count || (listed && !listed.has(f.deal)))
        problem(`${csv}, line ${no}: deal ${f.deal} is not among the file's deals`);
      if (seen.has(f.deal)) problem(`${csv}, line ${no}: deal ${f.deal} is in the file twice`);
      seen.add(f.deal);
      rows.push(f);
      lineOf.set(f.deal, no);
      if (lengthAt >= 0) lengthOf.set(f.deal, Number(parseCsvLine(line)[lengthAt]));
      counts.deals++;
      if (f.verdict === 'won') counts.won++;
      else if (f.verdict === 'unsolvable') counts.unsolvable++;
      else if (f.verdict === 'lost') counts.lost++;
      else counts.unknown++;
    });
    const expected = listed ? listed.size : part.count;
    if (meta.complete && seen.size !== expected) problem(`${csv}: its sidecar says complete, but it holds ${seen.size} of its ${expected} deals`);
    for (const p of checkSidecars(csv, meta, counts)) problem(p);

    const certs = readCerts(csv);
    if (certs !== null && meta.job.kind === 'solve') {
      certCount = 0;
      const size = parseSize(meta.job.size);
      const rules = parseRules(meta.job.rules);
      const deal = dealMaker(meta.job.source, size);
      const final = certsGzPath(csv);
      for (const f of rows) {
        if (f.verdict !== 'won' && f.verdict !== 'unsolvable') continue;
        const where = `${csv}, line ${lineOf.get(f.deal)}: deal ${f.deal}`;
        const c = certs.get(f.deal);
        if (!c) {
          problem(`${where}: ${f.verdict} without a certificate`);
          continue;
        }
        certCount++;
        const at = `${c.file}, line ${c.line}: deal ${f.deal}`;
        if (c.verdict !== f.verdict) {
          problem(`${at}: the certificate says ${shown(c.verdict)}, the row ${f.verdict}`);
          continue;
        }
        if (f.verdict === 'unsolvable') {
          const kind = c.words[0]!;
          if (c.words.length !== 1 || (kind !== 'locks' && kind !== 'search')) problem(`${at}: a loss is proved by 'locks' or 'search', not '${shown(c.words.join(' '))}'`);
          else proofs[kind] = (proofs[kind] ?? 0) + 1;
          continue;
        }
        const r = replay(deal(f.deal), rules, c.words.join('\n'));
        replayed++;
        if (r.error) problem(`${at}: move ${r.error.index} '${shown(r.error.text)}': ${r.error.reason}`);
        else if (!r.won) problem(`${at}: the solution stops after ${plural(r.played, 'move')} with ${r.home} of ${r.total} cards home`);
        else if (r.played !== lengthOf.get(f.deal)) problem(`${at}: the solution wins in ${r.played} moves, the row's solution_length is ${lengthOf.get(f.deal)}`);
      }
      // Lines of deals that are not decided rows: in the final file a sign of damage (while a
      // run goes on, FILE.certs may hold lines of deals whose rows a kill lost).
      for (const c of certs.values()) {
        if (c.file !== final) continue;
        const row = lineOf.has(c.deal) ? rows.find((x) => x.deal === c.deal)! : null;
        if (!row) problem(`${c.file}, line ${c.line}: deal ${c.deal} has a certificate but no row`);
        else if (row.verdict !== 'won' && row.verdict !== 'unsolvable') problem(`${c.file}, line ${c.line}: deal ${c.deal} has a certificate but its row is ${row.verdict}`);
      }
    }
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    problem(e.message);
  }
  return result();
}

/** The report of a check: a line a file, its problems under it. */
export function checkText(c: FileCheck): string {
  const counts = `${plural(c.rows, 'row')} (${c.won} won, ${c.unsolvable} unsolvable, ${c.unknown} unknown)`;
  const proofs = Object.entries(c.proofs).map(([k, n]) => `${n} by ${k === 'locks' ? 'LockBound at the root' : 'an exhausted search'}`).join(', ');
  const certs =
    c.certificates === null
      ? 'no certificates (a file made without --certificates): rows checked only'
      : `${plural(c.certificates, 'certificate')}: ${plural(c.replayed, 'solution')} replayed${proofs ? `, losses proved ${proofs}` : ''}`;
  const head = `${c.problems.length === 0 ? 'ok' : 'FAILED'} ${c.file}: ${counts}; ${certs}`;
  return [head, ...c.problems.map((p) => `  ${p}`)].join('\n');
}
