/**
 * The outputs of `limited experiment tactics`: one line per row with its win rate, its 95 %
 * interval and its paired difference from its group's baseline, as `tactics.csv` (fractions,
 * for programs) and `tactics.md` (percentages, one table under a header that says how it was
 * made).
 *
 * Win rate: won / deals. For the solver's rows an `unknown` deal (the budget ran out) counts
 * as not won in the rate, and on both sides of its interval: [wilsonLow(won, n),
 * wilsonHigh(won + unknown, n)], as for any batch (src/batch/stats.ts winInterval). The
 * difference is the row's won share less its baseline's on the same deals, (b − c) / n, with
 * Newcombe's paired interval (pairedDifference); there too unknown counts as not won.
 */
import { wallTime } from '../util/duration.js';
import { csvText } from '../batch/csv.js';
import { type PairedCounts, pairedDifference, winInterval } from '../batch/stats.js';
import { formatRange } from '../batch/range.js';
import { type ExperimentRow } from './matrix.js';
import { type RowCounts } from './summary.js';
import { type EstimateLine } from './winrate.js';
import { intervalText } from './winrate-report.js';

/** One row of the experiment, summarized. */
export interface TacticsLine {
  readonly row: ExperimentRow;
  readonly counts: RowCounts;
  /** won / deals. */
  readonly rate: number;
  /** 95 % interval of the win rate (unknown counted on both sides). */
  readonly low: number;
  readonly high: number;
  /** Against the group's baseline (null for a baseline, or when the baseline is not finished). */
  readonly diff: { readonly diff: number; readonly low: number; readonly high: number; readonly paired: PairedCounts } | null;
  /** Wall-clock seconds of the runs that made the row. */
  readonly seconds: number;
  /** The row's results CSV. */
  readonly file: string;
  /**
   * A solver row with perfect information (the win-rate estimator): its win rate and its
   * difference from the free game, each an interval that holds whatever the undecided deals are.
   */
  readonly perfect?: { readonly rate: EstimateLine; readonly effect: EstimateLine | null };
}

export function tacticsLine(
  row: ExperimentRow, counts: RowCounts, paired: PairedCounts | null, seconds: number, file: string, perfect?: TacticsLine['perfect'],
): TacticsLine {
  const { low, high } = winInterval(counts.won, counts.unknown, counts.deals);
  return {
    row,
    counts,
    rate: counts.deals > 0 ? counts.won / counts.deals : 0,
    low,
    high,
    diff: paired ? { ...pairedDifference(paired), paired } : null,
    seconds,
    file,
    ...(perfect ? { perfect } : {}),
  };
}

/** The columns of tactics.csv. */
export const TACTICS_COLUMNS = [
  'group', // greedy | solver | rules | sampling
  'row', // the row's name (its results file is ROW.csv beside this file)
  'baseline', // the row it is compared with, on the same deals (a baseline names itself)
  'who', // greedy | the sampling player's spec | solver portfolio K nodes
  'tactics', // a player's knobs pairing/spaces; the solver's restriction, or free
  'rules', // book, or the rule variant
  'deals_from', // the first deal number
  'deals', // deals played or solved (deal numbers deals_from to deals_from + deals - 1)
  'won',
  'lost', // a player's lost games ('' for the solver)
  'unsolvable', // the solver's proven losses ('' for a player)
  'unknown', // the solver's deals whose budget ran out ('' for a player)
  'win_rate', // won / deals (unknown counted as not won)
  'ci_low', // 95 % Wilson interval of the win rate: low end (unknown counted as lost)
  'ci_high', // high end (unknown counted as won)
  'diff', // win_rate − the baseline's on the same deals ('' for a baseline)
  'diff_low', // 95 % paired interval of diff (Newcombe; unknown counted as not won)
  'diff_high',
  'won_only_here', // deals this row won and the baseline did not
  'won_only_baseline', // deals the baseline won and this row did not
  'seconds', // wall-clock seconds of the runs that made the row
  // The solver's rows with perfect information (the win-rate estimator; '' for a player):
  'pi_low', // 95 % interval of the win rate: low end (sampling error and the deals still undecided, counted as lost)
  'pi_high', // high end (those deals counted as won)
  'pi_effect_low', // 95 % interval of the row's win rate less the free game's, same deals
  'pi_effect_high',
  'pi_undecided', // deals phase 1 left undecided (after the implications)
  'pi_sampled', // of those, solved again at the long budget
  'pi_still_undecided', // of those, still undecided
] as const;

type TacticsColumn = (typeof TACTICS_COLUMNS)[number];
/** A row of tactics.csv as an object (`experiment tactics --json`): numbers unrounded, null for the CSV's empty cells. */
export type TacticsRecord = Record<TacticsColumn, string | number | null>;

export function tacticsRecord(l: TacticsLine): TacticsRecord {
  const player = l.row.spec.kind === 'play';
  const p = l.perfect;
  return {
    group: l.row.group, row: l.row.name, baseline: l.row.baseline, who: l.row.who, tactics: l.row.tactics, rules: l.row.rules,
    deals_from: l.row.range.from, deals: l.counts.deals, won: l.counts.won,
    lost: player ? l.counts.lost : null, unsolvable: player ? null : l.counts.unsolvable, unknown: player ? null : l.counts.unknown,
    win_rate: l.rate, ci_low: l.low, ci_high: l.high,
    diff: l.diff?.diff ?? null, diff_low: l.diff?.low ?? null, diff_high: l.diff?.high ?? null,
    won_only_here: l.diff?.paired.b ?? null, won_only_baseline: l.diff?.paired.c ?? null, seconds: l.seconds,
    pi_low: p?.rate.estimate.ciLow ?? null, pi_high: p?.rate.estimate.ciHigh ?? null,
    pi_effect_low: p?.effect?.estimate.ciLow ?? null, pi_effect_high: p?.effect?.estimate.ciHigh ?? null,
    pi_undecided: p?.rate.estimate.undecided ?? null, pi_sampled: p?.rate.estimate.sampled ?? null, pi_still_undecided: p?.rate.estimate.stillUndecided ?? null,
  };
}

export const tacticsRecords = (lines: readonly TacticsLine[]): TacticsRecord[] => lines.map(tacticsRecord);

/** The CSV's rounding: rates and intervals to 6 decimals, seconds to 1. */
const SIX = new Set<TacticsColumn>(['win_rate', 'ci_low', 'ci_high', 'diff', 'diff_low', 'diff_high', 'pi_low', 'pi_high', 'pi_effect_low', 'pi_effect_high']);

export function tacticsCsv(lines: readonly TacticsLine[]): string {
  const cell = (k: TacticsColumn, v: string | number | null): string | number =>
    v === null ? '' : typeof v === 'number' && SIX.has(k) ? v.toFixed(6) : k === 'seconds' && typeof v === 'number' ? v.toFixed(1) : v;
  return csvText([[...TACTICS_COLUMNS], ...lines.map((l) => { const r = tacticsRecord(l); return TACTICS_COLUMNS.map((k) => cell(k, r[k])); })]);
}

const pct = (x: number): string => `${(100 * x).toFixed(2)} %`;
/** Percentage points with a sign (+1.20, −0.35, ±0.00: what rounds to zero has no sign). */
const signed = (x: number): string => `${x > 0.00005 ? '+' : x < -0.00005 ? '−' : '±'}${Math.abs(100 * x).toFixed(2)}`;

export interface MarkdownHeader {
  readonly command: string;
  readonly machine: string;
  readonly date: string;
  readonly commit: string;
  /** Rows of the matrix that are not in the table, with why. */
  readonly missing: readonly { readonly name: string; readonly why: string }[];
}

function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|');
}

export function tacticsMarkdown(lines: readonly TacticsLine[], h: MarkdownHeader): string {
  const out: string[] = [];
  out.push('# limited experiment tactics', '');
  out.push(`- command: \`${h.command}\``);
  out.push(`- machine: ${h.machine}`);
  out.push(`- date: ${h.date}`);
  out.push(`- commit: ${h.commit}`);
  const ranges = new Map<string, string>();
  for (const l of lines) ranges.set(l.row.group, `${l.row.group} deals ${formatRange(l.row.range)}`);
  if (ranges.size > 0) out.push(`- deals: ${[...ranges.values()].join('; ')} (book deal numbers; the same deals in every row of a group)`);
  out.push(`- total wall time of the rows: ${wallTime(lines.reduce((a, l) => a + l.seconds, 0))}`);
  out.push('');
  out.push(
    'Win rate: won / deals. 95 % CI: Wilson; for the solver an unknown deal (its node budget ran out) counts as lost for the low end and as won for the high end. ' +
      "Δ: the row's win rate less its baseline's, in percentage points, on the same deals; its 95 % interval is Newcombe's for paired proportions " +
      '(the deals are the same, so it is much narrower than for two independent samples); in Δ an unknown deal counts as not won, so for the ' +
      "solver it is the difference at the budget, not under perfect play: that is the next table's. " +
      "A player's lost game proves nothing; the solver's unsolvable is a proof (under the row's rules and restriction).",
  );
  out.push('');
  out.push('| group | row | player / solver | tactics | rules | deals | won | lost | unsolvable | unknown | win rate | 95 % CI | Δ vs baseline at the budget (pp) | 95 % CI of Δ (paired) | wall time |');
  out.push('|---|---|---|---|---|--:|--:|--:|--:|--:|--:|---|--:|---|--:|');
  for (const l of lines) {
    const player = l.row.spec.kind === 'play';
    const base = l.row.baseline === l.row.name;
    out.push(
      `| ${[
        l.row.group,
        base ? `**${l.row.name}** (baseline)` : l.row.name,
        escapeCell(l.row.who),
        l.row.tactics,
        escapeCell(l.row.rules),
        String(l.counts.deals),
        String(l.counts.won),
        player ? String(l.counts.lost) : '',
        player ? '' : String(l.counts.unsolvable),
        player ? '' : String(l.counts.unknown),
        pct(l.rate),
        `${pct(l.low)} – ${pct(l.high)}`,
        l.diff ? signed(l.diff.diff) : base ? '' : `(no ${l.row.baseline})`,
        l.diff ? `${signed(l.diff.low)} to ${signed(l.diff.high)}` : '',
        wallTime(l.seconds),
      ].join(' | ')} |`,
    );
  }
  const perfect = lines.filter((l) => l.perfect);
  if (perfect.length > 0) {
    out.push('', '## The solver rows with perfect information', '');
    out.push(
      "Each row's win rate and its difference from the free game under perfect play, by the win-rate estimator (`limited experiment winrate --help`): " +
        'every deal at the budget above (phase 1); verdicts carried between games where one is a subgame of the other (a restriction of the free ' +
        "game's tactics; no second deal within the book's second deal); a random sample of the deals still undecided solved again at a long budget " +
        '(phase 2; with `--prove-nodes`, then by the prover where that left them unknown). Each 95 % interval holds both the sampling error and the deals still undecided, counted both ways.',
      '',
      '| row | deals | decided in phase 1 (by implication) | undecided | sampled | still undecided | win rate, 95 % | width | difference from solver-free, 95 % | width |',
      '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    );
    for (const l of perfect) {
      const r = l.perfect!.rate;
      const e = l.perfect!.effect;
      const w = (x: EstimateLine): string => `${(100 * (x.estimate.ciHigh - x.estimate.ciLow)).toFixed(1)} pp`;
      out.push(
        `| ${l.row.name} | ${r.estimate.deals} | ${r.estimate.decided} (${r.implied}) | ${r.estimate.undecided} | ${r.estimate.sampled} | ${r.estimate.stillUndecided} | ${intervalText(r)} | ${w(r)} | ${e ? intervalText(e) : ''} | ${e ? w(e) : ''} |`,
      );
    }
  }
  if (h.missing.length > 0) {
    out.push('');
    out.push('Not in the table:');
    for (const m of h.missing) out.push(`- ${m.name}: ${m.why}`);
  }
  return out.join('\n') + '\n';
}

/** The table as plain text, for the terminal. */
export function tacticsText(lines: readonly TacticsLine[]): string {
  const w = Math.max(4, ...lines.map((l) => l.row.name.length));
  const out = [`${'row'.padEnd(w)}  ${'deals'.padStart(8)}  ${'win rate'.padStart(8)}  ${'95 % CI'.padEnd(17)}  Δ vs baseline, pp [95 % paired CI]`];
  for (const l of lines) {
    const ci = `${(100 * l.low).toFixed(2)} – ${(100 * l.high).toFixed(2)} %`;
    const d = l.diff
      ? `${signed(l.diff.diff)} [${signed(l.diff.low)}, ${signed(l.diff.high)}]`
      : l.row.baseline === l.row.name
        ? 'baseline'
        : `(no ${l.row.baseline})`;
    out.push(`${l.row.name.padEnd(w)}  ${String(l.counts.deals).padStart(8)}  ${pct(l.rate).padStart(8)}  ${ci.padEnd(17)}  ${d}`);
  }
  const perfect = lines.filter((l) => l.perfect);
  if (perfect.length > 0) {
    out.push('with perfect information (95 %; sampling error and the deals still undecided, both ways):');
    for (const l of perfect)
      out.push(`${l.row.name.padEnd(w)}  ${intervalText(l.perfect!.rate).padEnd(14)}${l.perfect!.effect ? `  vs solver-free ${intervalText(l.perfect!.effect)}` : ''}`);
  }
  return out.join('\n') + '\n';
}
