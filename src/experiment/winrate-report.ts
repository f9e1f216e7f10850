/**
 * The win-rate estimator's outputs: winrate.json (every figure, for programs) and winrate.md
 * (the answer in one sentence, the table of estimates, the method written out, and what the
 * runs cost and where they ran), and the text `experiment winrate` prints.
 */
import { type Meta, readMeta } from '../batch/sidecar.js';
import { formatRange } from '../batch/range.js';
import { type EstimateLine, type EstimatorRow, type Phase2Report } from './winrate.js';

const pc = (x: number): string => `${(100 * x).toFixed(1)} %`;
const pp = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)}`;

/** `84.1-87.9 %`, or for a difference `−12.3 to −8.1 points`. */
export function intervalText(l: EstimateLine): string {
  const e = l.estimate;
  if (l.kind === 'rate') return `${(100 * e.ciLow).toFixed(1)}-${(100 * e.ciHigh).toFixed(1)} %`;
  return `${pp(e.ciLow)} to ${pp(e.ciHigh)} points`;
}

/**
 * The answer in a sentence a newcomer reads: `Limited (book rules) is won with perfect
 * information in 84.1-87.9 % of deals (95 % interval; 2000 deals, 3.2 % still undecided; ...)`.
 * Perfect information, not perfect play: the solver sees the stock, which a player does not.
 */
export function headline(l: EstimateLine, game: string, more = 'results/README.md has the full answer'): string {
  const e = l.estimate;
  return (
    `Limited (${game}) is won with perfect information in ${intervalText(l)} of deals ` +
    `(95 % interval; ${e.deals} deals, ${pc(e.high - e.low)} still undecided after both phases${more ? `; ${more}` : ''})`
  );
}

export interface ReportHeader {
  readonly command: string;
  readonly title: string;
  /** The phases' budgets and the sample, in words. */
  readonly phase1: string;
  readonly phase2: string;
  /** How phase 2 draws and grows its sample, in words (none: one simple random sample). */
  readonly growth?: string;
  readonly sample: number;
  readonly seed: string;
  readonly rows: readonly EstimatorRow[];
  readonly written: string;
}

/** A row's results files: phase 1's, phase 2's and its prover's pass's where it has one. */
export const rowFiles = (r: EstimatorRow): string[] => [r.file1, r.file2, ...(r.prove ? [r.prove.file] : [])];

/** Worker-hours, machines and builds of the files that made the estimate. */
function costOf(rows: readonly EstimatorRow[]): { hours: number; machines: string[]; commits: string[]; from: string; to: string } {
  let seconds = 0;
  const machines = new Set<string>();
  const commits = new Set<string>();
  const starts: string[] = [];
  const ends: string[] = [];
  for (const r of rows)
    for (const f of rowFiles(r)) {
      let meta: Meta | null = null;
      try {
        meta = readMeta(f);
      } catch {
        meta = null;
      }
      if (!meta) continue;
      for (const s of meta.sessions) {
        seconds += s.seconds * s.workers;
        machines.add(`${s.cpu} x ${s.cores} cores, Node ${s.node}, host ${s.host}`);
        commits.add(s.commit ?? 'unknown');
        starts.push(s.startedAt);
        if (s.endedAt) ends.push(s.endedAt);
      }
    }
  starts.sort();
  ends.sort();
  return { hours: seconds / 3600, machines: [...machines], commits: [...commits], from: starts[0] ?? '?', to: ends[ends.length - 1] ?? '?' };
}

function rowLabel(l: EstimateLine): string {
  return l.kind === 'rate' ? `**${l.row}**` : `${l.row} − ${l.baseline}`;
}

/** Why the sample stopped growing, in words. */
const STOPPED: Readonly<Record<Phase2Report['stopped'], string>> = {
  'one round': 'one round (no target width)',
  width: 'every interval reached the target width',
  sample: 'the sample reached --max-sample',
  budget: "phase 2's solver time reached --max-hours",
  whole: 'every undecided deal is in the sample',
  unfinished: 'a phase-2 file is not finished (its sampled deals count both ways)',
};

/** Phase 2's rounds in a line: `2 rounds, 1.52 core-hours of solver time; stopped: ...`. */
function roundsLine(p: Phase2Report): string {
  return `${p.rounds} round${p.rounds === 1 ? '' : 's'}, ${(p.seconds / 3600).toFixed(2)} core-hours of solver time in phase 2 (its ms column); stopped: ${STOPPED[p.stopped]}`;
}

/** Each estimate's strata: the undecided deals, the sample and its means, a row a stratum. */
function strataTable(lines: readonly EstimateLine[]): string[] {
  const withStrata = lines.filter((l) => (l.estimate.strata?.length ?? 0) > 0);
  if (withStrata.length === 0) return [];
  const mean = (l: EstimateLine, x: number): string => (l.kind === 'rate' ? pc(x) : pp(x));
  const out = ['', '## Strata of phase 2', '', '| estimate | stratum | undecided after phase 1 | sampled | still undecided | sample mean, unknown as lost .. as won |', '|---|---|--:|--:|--:|--:|'];
  for (const l of withStrata)
    for (const s of l.estimate.strata!) out.push(`| ${rowLabel(l)} | ${s.label} | ${s.undecided} | ${s.sampled} | ${s.stillUndecided} | ${s.sampled > 0 ? `${mean(l, s.meanLow)} .. ${mean(l, s.meanHigh)}` : '-'} |`);
  return out;
}

export function winrateMarkdown(lines: readonly EstimateLine[], h: ReportHeader, game: string, phase2?: Phase2Report): string {
  const cost = costOf(h.rows);
  const first = lines[0]!;
  const out: string[] = [
    `# ${h.title}`,
    '',
    `**${headline(first, game, '')}.**`,
    '',
    `- command: \`${h.command}\``,
    `- phase 1: ${h.phase1}; phase 2: ${h.phase2}, a first sample of at most ${h.sample} undecided deals an estimate (priority seed \`${h.seed}\`)${h.growth ? `, ${h.growth}` : ''}`,
    ...(phase2 ? [`- phase 2: ${roundsLine(phase2)}`] : []),
    `- machine: ${cost.machines.join('; ') || 'unknown'}`,
    `- builds: ${cost.commits.join(', ') || 'unknown'}`,
    `- runs: ${cost.from} to ${cost.to}; ${cost.hours.toFixed(2)} worker-hours (wall time x workers); summary written ${h.written}`,
    '',
    '| estimate | deals | phase 1: won / lost / unknown | decided by implication | undecided after phase 1 | sampled | settled in phase 2 | still undecided in the sample | estimate, unknown as lost .. as won | 95 % interval | width |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const l of lines) {
    const e = l.estimate;
    const est = l.kind === 'rate' ? `${pc(e.low)} .. ${pc(e.high)}` : `${pp(e.low)} .. ${pp(e.high)}`;
    const width = l.kind === 'rate' ? `${(100 * (e.ciHigh - e.ciLow)).toFixed(1)} points` : `${(100 * (e.ciHigh - e.ciLow)).toFixed(1)} points`;
    out.push(
      `| ${rowLabel(l)} | ${formatRange(l.range)} | ${l.phase1.won} / ${l.phase1.lost} / ${l.phase1.unknown} | ${l.implied} | ${e.undecided} | ${e.sampled} | ${l.settled} | ${e.stillUndecided} | ${est} | ${intervalText(l)} | ${width} |`,
    );
  }
  out.push(...strataTable(lines));
  out.push('', '## Games', '');
  for (const r of h.rows) out.push(`- **${r.name}**: ${r.phase1.rules}${r.phase1.method.includes('pairing=') ? `, ${r.phase1.method.split(' ').filter((w) => /^(pairing|spaces)=/.test(w)).join(' ')}` : ''}, deals ${formatRange(r.range)}; files ${rowFiles(r).join(', ')}`);
  out.push('', '## Method', '', ...WINRATE_METHOD.split('\n'));
  return out.join('\n') + '\n';
}

/** The method, as winrate.md and the HTML report write it out. */
export const WINRATE_METHOD = `Deal numbers are a random sample of all deals (RULES.md, scheme v1). Each estimate is made in two phases.

1. **Phase 1** solves every deal at the short budget. A deal won (its solution replayed by the
   verifier) or proved lost (an exhausted search with sound pruning only) is decided.
2. **Implications.** Where every line of one game is a line of another (a restriction of the
   free game's tactics; no second deal against the book's second deal), a deal won in the smaller
   game is won in the larger, and a deal lost in the larger is lost in the smaller. A deal such
   a verdict settles is decided. For a difference of two rows, a deal is decided when its
   difference is: both values known, or one known and the implication fixing the other.
3. **Phase 2** splits each estimate's undecided deals into strata by what phase 1 saw of them
   (\`--strata home\`: the most cards it got home, up to 30, 31-45, 46-60 and over 60 of 104, and
   the budget that ran out; \`--strata none\`: one stratum) and draws a simple random sample of
   each stratum: each deal has a random priority (seedrandom of the seed and the deal number), and
   a stratum's sample is its n_h undecided deals of lowest priority, so it is fixed before phase 2
   runs and the same priority serves every estimate. The first round's --sample deals are shared
   among the strata in proportion to their sizes (at least 2 each). With \`--target-width\`, more
   rounds follow while an interval is wider: each grows the sample by half, each deal added to the
   stratum where it cuts the variance most per second of solver time (Neyman's allocation with
   costs, n_h ∝ U_h·S_h/√c_h, S_h from the stratum's sample so far and c_h its deals' mean time),
   until the width is reached, the sample reaches \`--max-sample\`, or phase 2's solver time reaches
   \`--max-hours\`. Each sampled deal is solved again at the long budget (for a difference, in both
   games where needed), and the implications applied again. With \`--prove-nodes\`, a sampled deal
   the long budget left unknown is solved once more by the prover (the \`prove\` preset:
   depth-first search on exact keys with LockBound at every position), which proves deals lost
   that the portfolio does not; the sample is the same, only more of it is settled.
4. **The estimate.** With N deals, S the sum of the values of the decided ones (1 won, 0 lost;
   for a difference, the row's value less the baseline's), U_h undecided in stratum h, n_h of them
   sampled with mean ȳ_h: Ŷ = (S + Σ U_h·ȳ_h)/N, computed with each deal still undecided after
   phase 2 counted as lost (its lowest value) and again as won (its highest): the truth's
   estimate lies between the two.
5. **The interval** (double sampling for stratification, Cochran, Sampling Techniques, 12.2):
   V = s²/N + Σ (U_h/N)²·s_h²·(1/n_h − 1/U_h), s² the variance of the values over all deals
   (within the decided deals, within each sample, and between their means), s_h² stratum h's. The
   95 % interval runs from the lower estimate's lower end to the upper estimate's upper end: for a
   rate Wilson's interval at the effective sample size Ŷ(1 − Ŷ)/V, for a difference Ŷ ± 1.96·√V.
   The strata's sampling terms are widened by Student's t at Satterthwaite's effective degrees of
   freedom (with one stratum, n − 1), each taken for a rate from Agresti and Coull's adjusted
   share, for a difference with Agresti and Caffo's pseudo-deals (half a deal at −1, half at +1,
   one at 0): a small sample of equal values does not claim its stratum known exactly.
   test/estimate.test.ts checks these formulas by hand and the interval's coverage by
   simulation, rounds and their stopping rule included; test/winrate.test.ts on a small deck
   where every deal is decided.
   It covers both the sampling of the deals and of phase 2, and the deals no budget decided,
   counted both ways. Its width is the share of deals still undecided plus the sampling error.

Every verdict in the files is the solver's: \`won\` with a verified solution, \`unsolvable\` proved,
\`unknown\` a budget ran out. Nothing is guessed; a budget only decides how wide the interval is.`;

/** The summary as text: one line an estimate, and the headline first. */
export function winrateText(lines: readonly EstimateLine[], game: string): string {
  const out = [headline(lines[0]!, game)];
  for (const l of lines) {
    const e = l.estimate;
    out.push(
      `  ${(l.kind === 'rate' ? l.row : `${l.row} − ${l.baseline}`).padEnd(34)} ${intervalText(l).padEnd(24)} decided ${e.decided} of ${e.deals}, sampled ${e.sampled} of ${e.undecided} undecided, ${e.stillUndecided} still undecided`,
    );
  }
  return out.join('\n');
}

/** The format word of winrate.json. */
export const WINRATE_FORMAT = 'limited-winrate/1';

/** winrate.json: every estimate with its counts. */
export function winrateJson(lines: readonly EstimateLine[], h: ReportHeader, game: string, phase2?: Phase2Report): string {
  return JSON.stringify(
    {
      format: WINRATE_FORMAT,
      headline: headline(lines[0]!, game, ''),
      command: h.command,
      phase1: h.phase1,
      phase2: h.phase2,
      sample: h.sample,
      seed: h.seed,
      ...(h.growth ? { growth: h.growth } : {}),
      ...(phase2 ? { rounds: phase2 } : {}),
      written: h.written,
      cost: costOf(h.rows),
      rows: h.rows.map((r) => ({
        name: r.name, rules: r.phase1.rules, method: r.phase1.method, range: r.range, file1: r.file1, file2: r.file2, fileProve: r.prove?.file ?? null, baseline: r.baseline ?? null,
      })),
      estimates: lines,
    },
    null,
    2,
  ) + '\n';
}
