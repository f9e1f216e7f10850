/**
 * The rows of `limited experiment tactics`: each row is one batch run (a job spec over a deal
 * range, one results CSV), and rows form groups that share their deal numbers, so that each
 * row's difference from its group's baseline is paired deal by deal.
 *
 *   greedy    the greedy player, every pairing x spaces knob (9 rows) on N deals; baseline always/eager
 *   solver    perfect information (preset portfolio, K nodes a deal) on M deals: the free game
 *             (baseline, on M or more deals), and the game restricted to pairing never / cautious,
 *             spaces hold / never
 *   rules     the same solver, free game, under other rules: building none / suit, no second
 *             deal, 1-3 and 5-8 privileged cards; baseline: the solver group's free game (book rules)
 *   sampling  the sampling player, always|cautious x eager|hold (4 rows) on S deals; baseline always/eager
 *
 * All rows play book deals (deal numbers from --from on, scheme v1) of one size.
 */
import { type Rules, type Size, type Tactics, BOOK, UserError, formatRules, parseRules } from '../game/index.js';
import { type JobSpec, playSpec, solveSpec } from '../batch/job.js';
import { type DealRange } from '../batch/range.js';

export type Group = 'greedy' | 'sampling' | 'solver' | 'rules';
/** The groups in the order they run and are listed: the fast greedy rows first, the slow sampling rows last. */
export const GROUPS: readonly Group[] = ['greedy', 'solver', 'rules', 'sampling'];

export interface ExperimentRow {
  /** File stem and `--only` word: `greedy-always-eager`, `solver-pairing-never`, `rules-privileged-2`. */
  readonly name: string;
  readonly group: Group;
  /** The row this one is compared with, deal by deal (a baseline names itself). */
  readonly baseline: string;
  /** Who plays: `greedy`, `sampling`, `solver portfolio 100000 nodes`. */
  readonly who: string;
  /** `always/eager`; for the solver, the restriction (`pairing never`) or `free`. */
  readonly tactics: string;
  /** formatRules of the row's rules. */
  readonly rules: string;
  readonly spec: JobSpec;
  readonly range: DealRange;
}

export interface MatrixOptions {
  /** First deal number of every group. */
  readonly from: number;
  /** Deals of the greedy rows, the sampling rows, the solver and rules rows. */
  readonly deals: number;
  readonly samplingDeals: number;
  readonly solverDeals: number;
  /** Deals of the free game's row (solver-free), the other solver rows' and more (default: solverDeals). */
  readonly freeDeals?: number;
  /** Node budget of the solver per deal (preset portfolio). */
  readonly solverNodes: number;
  /** The sampling player's spec (createPlayer), `sampling` by default. */
  readonly samplingPlayer: string;
  readonly size: Size;
}

/** The solver's preset in the experiment: a rollout, a best-first search and a depth-first search side by side (src/solver/presets.ts). */
export const SOLVER_PRESET = 'portfolio';

const PAIRINGS = ['always', 'cautious', 'never'] as const;
const SPACES = ['eager', 'hold', 'never'] as const;
const SAMPLING_CONFIGS: readonly Tactics[] = [
  { pairing: 'always', spaces: 'eager' },
  { pairing: 'always', spaces: 'hold' },
  { pairing: 'cautious', spaces: 'eager' },
  { pairing: 'cautious', spaces: 'hold' },
];
/** Restrictions of the solver (each leaves the other knob free). */
const SOLVER_RESTRICTIONS: readonly { name: string; tactics: Tactics }[] = [
  { name: 'pairing-never', tactics: { pairing: 'never', spaces: 'eager' } },
  { name: 'pairing-cautious', tactics: { pairing: 'cautious', spaces: 'eager' } },
  { name: 'spaces-hold', tactics: { pairing: 'always', spaces: 'hold' } },
  { name: 'spaces-never', tactics: { pairing: 'always', spaces: 'never' } },
];
/** Rule variants, each one option changed from the book's (privileged 4 is the book's: the baseline). */
const RULE_VARIANTS: readonly { name: string; words: string }[] = [
  { name: 'building-none', words: 'building=none' },
  { name: 'building-suit', words: 'building=suit' },
  { name: 'second-deal-none', words: 'second-deal=none' },
  ...[1, 2, 3, 5, 6, 8].map((k) => ({ name: `privileged-${k}`, words: `privileged=${k}` })),
];

/** Every row of the experiment, in the order they run and are listed. */
export function tacticsMatrix(o: MatrixOptions): ExperimentRow[] {
  const rows: ExperimentRow[] = [];
  const greedyRange: DealRange = { from: o.from, count: o.deals };
  for (const pairing of PAIRINGS)
    for (const spaces of SPACES)
      rows.push({
        name: `greedy-${pairing}-${spaces}`,
        group: 'greedy',
        baseline: 'greedy-always-eager',
        who: 'greedy',
        tactics: `${pairing}/${spaces}`,
        rules: formatRules(BOOK),
        spec: playSpec('v1', BOOK, o.size, 'greedy', { pairing, spaces }),
        range: greedyRange,
      });
  const solverRange: DealRange = { from: o.from, count: o.solverDeals };
  const solver = (rules: Rules, tactics?: Tactics): JobSpec =>
    solveSpec('v1', rules, o.size, { preset: SOLVER_PRESET, maxNodes: o.solverNodes, ...(tactics ? { tactics } : {}) });
  const who = `solver ${SOLVER_PRESET} ${o.solverNodes} nodes`;
  const freeRange: DealRange = { from: o.from, count: Math.max(o.solverDeals, o.freeDeals ?? o.solverDeals) };
  rows.push({ name: 'solver-free', group: 'solver', baseline: 'solver-free', who, tactics: 'free', rules: formatRules(BOOK), spec: solver(BOOK), range: freeRange });
  for (const r of SOLVER_RESTRICTIONS)
    rows.push({
      name: `solver-${r.name}`,
      group: 'solver',
      baseline: 'solver-free',
      who,
      tactics: r.name.replace('-', ' '),
      rules: formatRules(BOOK),
      spec: solver(BOOK, r.tactics),
      range: solverRange,
    });
  for (const v of RULE_VARIANTS) {
    const rules = parseRules(v.words);
    rows.push({ name: `rules-${v.name}`, group: 'rules', baseline: 'solver-free', who, tactics: 'free', rules: formatRules(rules), spec: solver(rules), range: solverRange });
  }
  const samplingRange: DealRange = { from: o.from, count: o.samplingDeals };
  for (const t of SAMPLING_CONFIGS)
    rows.push({
      name: `sampling-${t.pairing}-${t.spaces}`,
      group: 'sampling',
      baseline: 'sampling-always-eager',
      who: o.samplingPlayer,
      tactics: `${t.pairing}/${t.spaces}`,
      rules: formatRules(BOOK),
      spec: playSpec('v1', BOOK, o.size, o.samplingPlayer, t),
      range: samplingRange,
    });
  return rows;
}

/**
 * The rows `--only` names: a comma-separated list of groups (`greedy`, `sampling`, `rules`,
 * `solver` = the solver and rules groups, `players` = greedy and sampling) and row names.
 * Throws UserError for a word that names nothing.
 */
export function selectRows(rows: readonly ExperimentRow[], only: string | undefined): ExperimentRow[] {
  if (only === undefined) return [...rows];
  const words = only.split(',').map((w) => w.trim().toLowerCase()).filter((w) => w !== '');
  if (words.length === 0) throw new UserError(`--only needs groups or row names, e.g. --only greedy,solver-free`);
  const chosen = new Set<string>();
  for (const w of words) {
    const match = rows.filter((r) =>
      w === 'solver' ? r.group === 'solver' || r.group === 'rules' : w === 'players' ? r.group === 'greedy' || r.group === 'sampling' : r.group === w || r.name === w,
    );
    if (match.length === 0)
      throw new UserError(`--only: '${w}' is neither a group (greedy, sampling, solver, rules, players) nor a row (${rows.map((r) => r.name).join(', ')})`);
    for (const r of match) chosen.add(r.name);
  }
  return rows.filter((r) => chosen.has(r.name));
}
