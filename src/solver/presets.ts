import { type SecondDeal } from '../game/rules.js';
import { type SolveOptions } from './options.js';

/**
 * Named search settings, in the manner of fc-solve's presets: one or more stages that run side
 * by side (portfolio.ts), each on its own share of the budget, in slices in turn, none
 * restarted. Any stage's win is a win; a complete stage that finishes proves the deal
 * unsolvable, since every stage prunes soundly; the verdict is unknown only when every stage has
 * run out. Options given by the caller override the preset's. Why each stage and share is what
 * it is: docs/SOLVER.md, "Presets".
 */
export interface Preset {
  readonly description: string;
  readonly options: Partial<SolveOptions>;
  readonly stages: readonly Stage[];
  /** A search that takes over when the deal looks lost (see `LooksLost`). */
  readonly looksLost?: LooksLost;
}

/**
 * When a preset's first stage has expanded `afterNodes` nodes and no stage has got more than
 * `bestHomeAtMost` cards home, the deal looks lost: the stages stop, and one search with
 * `options` (over the preset's) runs alone on what is left of the budgets, on the last stage's
 * Solver and memory share. Only under rules where LockBound applies. A heuristic: it changes
 * which search runs, never what a verdict means.
 */
export interface LooksLost {
  readonly afterNodes: number;
  readonly bestHomeAtMost: number;
  readonly options: Partial<SolveOptions>;
  /**
   * A second sign: the first stage has expanded at least `afterNodes` nodes and got no more cards
   * home in the second half of them (it stalls). The search of `options` then takes over beside
   * the first stage, which goes on with `keep` of the budget (it still finds late wins).
   */
  readonly stall?: { readonly afterNodes: number; readonly keep: number };
  /**
   * Under tactics that make LockBound stronger (pairing `never` or `cautious`, spaces `never`:
   * fewer cards released by targets, or no give-up for a space), the deal looks lost once the
   * first stage has expanded `afterNodes` nodes, whatever the cards home: the prover then
   * runs beside the first stage, which keeps `keep` of what is left (as after a stall): there
   * the prover proves much of what the cards-home test kept from it, and the rollout still
   * wins the few late wins (docs/SOLVER.md, "When a deal looks lost").
   */
  readonly restricted?: { readonly afterNodes: number; readonly keep: number };
}

export interface Stage {
  /** Fraction of a node budget and of the memory cap (the shares add up to 1); 0: only under a time budget. */
  readonly share: number;
  /** Fraction of the time (and memory) under a time budget alone; `share` when not given. */
  readonly timeShare?: number;
  /** The stage runs only under rules with this kind of second deal; elsewhere its share goes to the first stage. */
  readonly secondDeal?: SecondDeal;
  readonly options: Partial<SolveOptions>;
  /** Options over `options` under rules with that kind of second deal. */
  readonly under?: Partial<Readonly<Record<SecondDeal, Partial<SolveOptions>>>>;
}

/** The portfolio: the rollout finds most wins; best-first (book) or beam search (pysol) wins others; depth-first search proves. */
const PORTFOLIO: readonly Stage[] = [
  // Look-aheads restart small on Luby's schedule; with no second deal, every other attempt weighs the waiting cards and spaces.
  { share: 0.2, options: { search: 'rollout', rolloutSchedule: 'luby', rolloutRestarts: 8 }, under: { none: { rolloutWaiting: 1, rolloutSpaces: 1 } } },
  // Wins some book deals quickly that the rollout does not; its heuristic weighs the waste for the second deal.
  { share: 0.1, secondDeal: 'privileged', options: { search: 'best', heuristic: 'wasteDealt' } },
  // With no second deal the waste is a stack for good: a beam keeps many lines abreast, weighing each waiting card.
  { share: 0.5, secondDeal: 'none', options: { search: 'beam', heuristic: 'wasteStack' } },
  // The small proofs, and wins the others miss: moves home first until that streamlined search is exhausted.
  { share: 0.2, options: { search: 'dfs', order: 'layout', signaturesAfter: 16_384, homeFirst: true } },
];

/**
 * A deal that looks lost goes to the prover, depth-first search with LockBound at every position
 * on exact keys, first in the relaxed game of the fifth card with waste dominance (`freeFifth`),
 * and pile nogoods:
 * at once when at most 20 cards are home after 500,000 rollout nodes; beside the rollout (a
 * quarter of the budget left to it) once the rollout stalls after 3 M nodes.
 */
const PORTFOLIO_LOOKS_LOST: LooksLost = {
  afterNodes: 500_000,
  bestHomeAtMost: 20,
  options: { search: 'dfs', order: 'layout', lockBoundEvery: true, signaturesAfter: Infinity, freeFifth: true, wasteDominance: true, pileNogoods: true },
  stall: { afterNodes: 3_000_000, keep: 0.25 },
  restricted: { afterNodes: 500_000, keep: 0.25 },
};

export const PRESETS: Readonly<Record<string, Preset>> = {
  portfolio: {
    description: 'a rollout (its look-aheads restart small on Luby\'s schedule; under rules with no second deal every other attempt counts the cards waiting against the cards home, and the spaces for them), under rules with a second deal a best-first search with wasteDealt (10 % of the budget, the rollout 70 %), under rules with none a beam search with wasteStack (50 %, the rollout 30 %), and a depth-first search (20 %, moves home played alone until that search is exhausted) side by side, 3 M nodes; a deal that looks lost (at most 20 cards home after 500,000 rollout nodes) goes to depth-first search with LockBound at every position',
    options: { maxNodes: 3_000_000 },
    stages: PORTFOLIO,
    looksLost: PORTFOLIO_LOOKS_LOST,
  },
  fast: {
    description: 'one depth-first search, layout moves first, 1 M nodes',
    options: { maxNodes: 1_000_000 },
    stages: [{ share: 1, options: { search: 'dfs', order: 'layout' } }],
  },
  best: {
    description: 'one best-first search with the waste heuristic, 3 M nodes',
    options: { maxNodes: 3_000_000 },
    stages: [{ share: 1, options: { search: 'best', heuristic: 'waste' } }],
  },
  prove: {
    description: 'one depth-first search with a large budget (50 M nodes, 8 GB) on exact keys that asks LockBound at every position, to prove what it can; under rules with a second deal it searches first the game in which the fifth card moves whenever it has a place, where waste dominance and safe moves home cut (its loss is a loss; a win there that breaks rule 7 sends the search to the real game); in the second deal a position refuted without reading its whole pile cuts every position that shares its columns, foundations, row and the pile cards it read (pile nogoods)',
    // Exact keys throughout: an exhaustion on signatures would have to be run again on exact keys.
    options: { maxNodes: 50_000_000, maxMemoryMB: 8192, lockBoundEvery: true, signaturesAfter: Infinity, freeFifth: true, wasteDominance: true, pileNogoods: true },
    stages: [{ share: 1, options: { search: 'dfs', order: 'layout' } }],
  },
};

export const DEFAULT_PRESET = 'portfolio';
