import { type Tactics, NO_RESTRICTION } from '../game/tactics.js';
import { type Heuristic } from './heuristics.js';

/**
 * The three honest verdicts: `won` (with a solution the verifier replayed), `unsolvable` (a
 * complete search was exhausted with sound pruning only, or a sound bound proved it), `unknown`
 * (a budget ran out).
 */
export type Verdict = 'won' | 'unsolvable' | 'unknown';

/**
 * dfs and best are complete: when they finish, the deal is proved unsolvable. beam is complete
 * only when an attempt never left a child out. rollout plays the deal forward and answers won or
 * unknown only.
 */
export type SearchKind = 'dfs' | 'best' | 'rollout' | 'beam';

/** The search kinds, in the order the help and the library list them. */
export const SEARCHES: readonly SearchKind[] = ['dfs', 'best', 'rollout', 'beam'];

/** Depth-first move order: layout moves first, or the waste top first. */
export type MoveOrder = 'layout' | 'waste';

/** How the rollout's look-ahead budget grows between blocks of attempts. */
export type RolloutSchedule = 'double' | 'luby';

/**
 * The options of one search. Every pruning named here as sound is argued where it is
 * implemented and cross-checked against the exhaustive reference search on small deals; the
 * measurements behind each default are in docs/SOLVER.md.
 */
export interface SolveOptions {
  readonly search: SearchKind;
  /** Name of a built-in heuristic (best-first and beam search), or a function. */
  readonly heuristic: string | Heuristic;
  readonly maxNodes: number;
  readonly maxSeconds: number;
  readonly maxMemoryMB: number;
  /** After a draw, only another draw, a move of the waste top, or the redeal (sound: moves.ts). Off only for cross-checks. */
  readonly drawDiscipline: boolean;
  /** GEN_REDUCED: the first space only, and no lone card into a space (sound: game/state.ts). */
  readonly reducedSpaces: boolean;
  /** Under second-deal=none, a safe move home is played alone (sound: moves.ts). */
  readonly safeMoves: boolean;
  /**
   * Depth-first search plays any move home alone. NOT sound (a card home can no longer take a
   * pair, and under rule 7 it can make the fifth card unplayable): a win-finder. When that
   * search is exhausted nothing is proved, and the complete search runs on what is left.
   */
  readonly homeFirst: boolean;
  /** Prune second-deal positions that PileBound proves lost (sound: bound.ts). */
  readonly pileBound: boolean;
  /** Prune positions right after a draw whose waste WasteBound proves stuck (second-deal=none; sound: wastebound.ts). Costly at full size. */
  readonly wasteBound: boolean;
  /** Ask LockBound at the root: a deal it proves lost is unsolvable with no node expanded (sound: lockbound.ts). */
  readonly lockBound: boolean;
  /** Depth-first search asks LockBound at every position it expands and cuts those it proves lost. */
  readonly lockBoundEvery: boolean;
  /**
   * Depth-first search on exact keys with no tactics, under second-deal=none or in the relaxed game
   * of `freeFifth`, cuts a position that a refuted one with the same layout and fewer cards in play
   * (waste, row, pile) dominates (sound there: dominance.ts).
   */
  readonly wasteDominance: boolean;
  /**
   * Depth-first search on exact keys, in the second deal, records each refuted position with the
   * pile cards its refutation read, and cuts a position with the same columns, foundations, row
   * and those first pile cards (sound in the real and the relaxed game: nogoods.ts).
   */
  readonly pileNogoods: boolean;
  /**
   * Under second-deal=privileged, depth-first search on exact keys first searches the relaxed game
   * in which the fifth card may move whenever it has a place (`Game.freeFifth`): a loss there is a
   * loss. A win there is replayed under the rules: a real win is the answer; one that breaks rule 7
   * proves nothing, and the search starts again on the real game with what is left of the budget.
   */
  readonly freeFifth: boolean;
  /**
   * Depth-first search goes on with 48-bit signatures (sigtable.ts, 8-12 bytes a state) instead
   * of exact keys (table.ts) once it has stored this many states (Infinity: never). An exhaustion
   * on signatures proves nothing, so the loss is then confirmed on exact keys.
   */
  readonly signaturesAfter: number;
  /** Bits of a signature (48). Fewer only in tests, to make collisions common. */
  readonly signatureBits: number;
  readonly order: MoveOrder;
  /** Rollout: the node budget of the look-ahead from each candidate move, at first. */
  readonly rolloutNodes: number;
  /** Rollout: never take a candidate that LockBound proves lost (sound; the rollout proves nothing either way). */
  readonly rolloutLockBound: boolean;
  /** Rollout: attempts made with one look-ahead budget before the budget changes. */
  readonly rolloutRestarts: number;
  /** Rollout: `double` doubles the look-ahead every block; `luby` follows Luby's restart sequence (`lubyTerm`). */
  readonly rolloutSchedule: RolloutSchedule;
  /** Rollout: the share of attempts (0 to 1) that start from a prefix of the best attempt so far. */
  readonly rolloutKeep: number;
  /**
   * Rollout: in the even attempts, a look-ahead is measured by `home - w * waiting` (heuristics.ts
   * `lookValue`) instead of cards home, so that a line that buries the waste scores less (0: off).
   */
  readonly rolloutWaiting: number;
  /** Rollout: with `rolloutWaiting`, the weight of an empty column in that measure. */
  readonly rolloutSpaces: number;
  /** Beam search: the width of the first attempt; each attempt that runs out doubles it. */
  readonly beamWidth: number;
  /** 0: equal moves in generation order; otherwise a seed that breaks ties another way (speed only, never the verdict). */
  readonly seed: number;
  /** Tactics as restrictions (game/tactics.ts): the verdict says whether a player keeping to them can win. */
  readonly tactics: Tactics;
}

export const DEFAULT_OPTIONS: SolveOptions = {
  search: 'dfs',
  heuristic: 'blend',
  maxNodes: 5_000_000,
  maxSeconds: Infinity,
  maxMemoryMB: 2048,
  drawDiscipline: true,
  reducedSpaces: true,
  safeMoves: true,
  homeFirst: false,
  pileBound: true,
  wasteBound: false,
  lockBound: true,
  lockBoundEvery: false,
  wasteDominance: false,
  pileNogoods: false,
  freeFifth: false,
  signaturesAfter: 1 << 16,
  signatureBits: 48,
  seed: 0,
  rolloutNodes: 25,
  rolloutRestarts: 32,
  rolloutSchedule: 'double',
  rolloutKeep: 0.3,
  rolloutWaiting: 0,
  rolloutSpaces: 0,
  rolloutLockBound: true,
  beamWidth: 64,
  order: 'layout',
  tactics: NO_RESTRICTION,
};

/** The most threads one solve runs on (parallel.ts). */
export const MAX_THREADS = 64;
