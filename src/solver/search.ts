import FastPriorityQueue from 'fastpriorityqueue';
import { type Deal } from '../game/deal.js';
import { type Rules, type SecondDeal } from '../game/rules.js';
import { type Tactics, NO_RESTRICTION, isRestricted } from '../game/tactics.js';
import { Game, type PackedMove, MAX_MOVES, SRC_DRAW } from '../game/state.js';
import { verifyMoves } from '../game/verify.js';
import { shortenLine } from '../game/shorten.js';
import { type Heuristic, ChildScores, HEURISTICS, SCORE_MAX, blocked } from './heuristics.js';
import { PileBound } from './bound.js';
import { WasteBound } from './wastebound.js';
import { LockBound } from './lockbound.js';
import { KeyPacker } from './key.js';
import { FULL, type TableStats, TranspositionTable } from './table.js';
import { BeamLevels } from './beam.js';
import { SignatureTable } from './sigtable.js';
import { SearchTree, TREE_MAX_STATES } from './tree.js';
import { LOOK_LOST, LOOK_WON, Lookahead } from './lookahead.js';
import { CHECK, DFS_LOST, DFS_MEMORY, DFS_NODES, DFS_SLICE, DFS_TABLE, DFS_TIME, DFS_WON, DepthFirst } from './dfs.js';
import { type ChildMoveOptions, childMoves, moveOptions } from './moves.js';

export type Verdict = 'won' | 'unsolvable' | 'unknown';
/**
 * dfs and best are complete (they end in a proof when they finish); rollout is not: it plays
 * the deal forward move by move, choosing each move by a small depth-first look-ahead, so it
 * answers won or unknown only (see `Solver.rollout`). Any of them answers unsolvable, with no
 * node expanded, when LockBound proves the deal lost before it starts (`lockBound`).
 */
export type SearchKind = 'dfs' | 'best' | 'rollout' | 'beam';

export interface SolveOptions {
  readonly search: SearchKind;
  /** Name of a built-in heuristic (best-first), or a function. */
  readonly heuristic: string | Heuristic;
  readonly maxNodes: number;
  readonly maxSeconds: number;
  readonly maxMemoryMB: number;
  /**
   * The draw discipline (sound; see `childMoves`): after a draw only another draw, a move of
   * the waste top, or the redeal. Off only for cross-checks.
   */
  readonly drawDiscipline: boolean;
  /** GEN_REDUCED: first space only, no lone card into a space (sound; see state.ts). */
  readonly reducedSpaces: boolean;
  /** Safe moves to the foundations are played alone, under second-deal=none (sound; see `childMoves`). */
  readonly safeMoves: boolean;
  /**
   * Depth-first search plays a move home alone, when the position has one, in every variant:
   * the safe-move rule without its condition, so NOT SOUND (a card home can no longer take a
   * pair, and under rule 7 it can make the fifth card unplayable). A win-finder: the search it
   * makes is far smaller, and when it is exhausted nothing is proved, so depth-first search then
   * starts again without it on what is left of the budget (the verdicts stay the complete
   * search's). Book deals 1-300 at 300,000 nodes, depth-first search alone (a patched copy of
   * the built code, before this option): 111 won with it, 66 without (55 and 10 deals only one
   * of the two won); of the 174 book deals the portfolio left
   * undecided at one second (results/solve, session 15), 7 won with it and none without. Under
   * `pysol`, where the sound safe moves already play most moves home alone, none of the 102
   * PySolFC games left at five seconds was won with it at 1 M nodes. (Session 16.)
   */
  readonly homeFirst: boolean;
  /** Prune second-deal positions that PileBound proves lost (sound; see bound.ts). */
  readonly pileBound: boolean;
  /**
   * Prune positions, right after a draw, whose waste WasteBound proves cannot be unwound
   * (second-deal=none; sound, see wastebound.ts). Off by default: on small decks it halves the
   * nodes, but at full size it cuts under 1 % of them and costs 2-4 times the time per node.
   */
  readonly wasteBound: boolean;
  /**
   * Before searching, ask LockBound whether the deal is lost (sound; see lockbound.ts): when it
   * proves so, the verdict is unsolvable with no node expanded (`proof: 'locks'`). Inside the
   * search: `lockBoundEvery`.
   */
  readonly lockBound: boolean;
  /**
   * Depth-first search asks LockBound at every position it expands, and cuts the ones it
   * proves lost (sound, as at the root; on a position with a space it gives up at once). Deeper in the search the cards the
   * real line has committed leave the relaxed game far less room: book deals 540, 645 and 986,
   * which the search without it proves in 4.5 M, more than 15 M and 3.0 M nodes, take
   * 492,218, 511,026 and 825,131 (exact keys), in a third to a half of the time; won deals take
   * about as long as without it (docs/SOLVER.md, LockBound). Off by default: at one second a deal
   * it has not been shown to decide more; on in the `prove` preset.
   */
  readonly lockBoundEvery: boolean;
  /**
   * Depth-first search goes on with 48-bit signatures of its positions (sigtable.ts: 8-12 bytes
   * a state) instead of exact keys (table.ts: 25-33 bytes at full size) once it has stored this
   * many states (Infinity: never). A search that ends exhausted on signatures proves nothing (two
   * positions may share one), so its loss is confirmed by a second depth-first search on exact
   * keys alone, within what is left of the budget, before the verdict is unsolvable. The
   * default, 65,536 states (1.6 MB at full size), leaves the small searches that most proofs
   * are on exact keys, with no second search.
   */
  readonly signaturesAfter: number;
  /** Bits of a signature (48). Fewer only in tests, to make collisions common. */
  readonly signatureBits: number;
  /** Move ordering for depth-first search: 'layout' (layout first) or 'waste' (the waste top first). */
  readonly order: MoveOrder;
  /** Rollout search: the node budget of the look-ahead from each candidate move, at first. */
  readonly rolloutNodes: number;
  /**
   * Rollout search: each candidate position is put to LockBound before its look-ahead, and one
   * it proves lost is never taken (sound; the rollout proves nothing either way). LockBound sees
   * what a small look-ahead cannot: a line whose cards can no longer all come free. Book deals
   * 1-1000, the rollout alone at 3 M nodes a deal: 792 won with it, 782 without (11 more, one
   * fewer), in 178 s against 196 s; at 1 M nodes 768 against 757. No effect where LockBound
   * does not apply (building=suit).
   */
  readonly rolloutLockBound: boolean;
  /**
   * Rollout search: attempts made with one look-ahead budget (each breaking ties another way)
   * before the budget changes (`rolloutSchedule`).
   */
  readonly rolloutRestarts: number;
  /**
   * Rollout search: how the look-ahead budget changes from one block of `rolloutRestarts`
   * attempts to the next. `double`: it doubles every block (`rolloutNodes`, twice that, four
   * times, ...). `luby`: block i (from 1) has `rolloutNodes` times the i-th term of Luby, Sinclair
   * and Zuckerman's restart sequence, 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ... (`lubyTerm`): the rollout
   * keeps coming back to short look-aheads and tries a longer one now and then; after 2^k - 1
   * blocks the longest has 2^(k-1) times the first budget, where `double` has 2^(2^k - 2).
   * Session 21, the rollout alone (node budgets, so the counts are exact): book deals 1-1000 at
   * 2 M nodes, `double` every 32 attempts 792 and 791 won (seeds 0 and 1), `luby` in blocks of 8
   * 800 and 797, of 4 789; under `pysol`, on the 201 hardest PySolFC games of 1-1000 at 8 M
   * nodes, 102 and 104 against 110 and 107 (docs/SOLVER.md, "Rollout").
   */
  readonly rolloutSchedule: RolloutSchedule;
  /**
   * Rollout search: the share of attempts (0 to 1) that start from a prefix of the best attempt
   * so far (the one that got most cards home) instead of from the deal.
   */
  readonly rolloutKeep: number;
  /**
   * Rollout search: how a candidate's look-ahead is measured. 0: the most cards home in any
   * position it reached. w > 0 (a whole number): in the even attempts (0, 2, 4, ...) the most
   * of `home - w * waiting` instead (cards home, less w for each card waiting in the waste;
   * heuristics.ts `waiting`), so that a line that buries the waste to get a card home scores
   * less; the odd attempts still count cards home. Under rules with no second deal the waste is
   * a stack for good: every card drawn must come off its top again. The rollout alone at 1 M
   * nodes a game under `pysol` (session 20; node budgets, so the counts are exact), PySolFC
   * games 1-300 and 301-600: 212 and 216 won with 0; with w = 1 in every attempt 246 and 247,
   * in every other 244 and 252, in three of four 245 and 255. But at five seconds a game the
   * two measures win different games: of the 117 games of 1-1000 that the portfolio left
   * unknown with either measure alone (side by side), those runs won 20 with cards home and 30
   * with w = 1 in every attempt; run again, 39 in three attempts of four and 42 in every other
   * (docs/SOLVER.md, "Rollout"). The portfolio with it,
   * side by side with the build before, 923 decided against 909 (games 1-1000) and 939 against
   * 920 (1001-2000, out of sample). Under `book`, where the
   * waiting cards become the pile, it costs wins: book deals 1-300, 242 won with 0, 212 with
   * w = 1 in every attempt. The portfolio's rollout uses 1 under rules with no second deal
   * (`Stage.under`).
   */
  readonly rolloutWaiting: number;
  /**
   * Rollout search: the weight of an empty column in the measure of the attempts that weigh the
   * waiting cards (`rolloutWaiting`): the most of `home - w * waiting + s * spaces` (heuristics.ts
   * `lookValue`). 0 (the default): spaces count for nothing. Session 22, the rollout alone under
   * `pysol` at 3 M nodes a game (Luby blocks of 8, `rolloutWaiting` 1; node budgets, so the
   * counts are exact), PySolFC games 1-500 and 501-1000: s = 0 445 and 436 won (seed 1: 440 and
   * 429); s = 1 453 and 436 (seed 1: 452 and 437); s = 2 434 on 1-500. The portfolio's rollout
   * uses 1 under rules with no second deal (docs/SOLVER.md, "Rollout").
   */
  readonly rolloutSpaces: number;
  /**
   * Beam search: the most states its first attempt keeps at each level (the number of moves
   * from the deal); each attempt that runs out keeps twice as many as the one before. 64 by
   * default. (Session 29: see the search's comment.)
   */
  readonly beamWidth: number;
  /**
   * 0: moves of equal rank in `order` are tried in generation order. Otherwise a seed that
   * reorders them by a hash of the move (deterministic): the same search, another path first,
   * for restarts in a portfolio. Affects speed only, never the verdict.
   */
  readonly seed: number;
  /**
   * Tactics as restrictions (src/game/tactics.ts): not a pruning but a smaller game; the verdict
   * then says whether a player keeping to them can win. Default: none.
   */
  readonly tactics: Tactics;
}

export type MoveOrder = 'layout' | 'waste';

export type RolloutSchedule = 'double' | 'luby';

/**
 * The i-th term (i >= 1) of Luby, Sinclair and Zuckerman's universal restart sequence
 * (Information Processing Letters 47, 1993): 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ... The term is
 * 2^(k-1) when i = 2^k - 1; otherwise it is the term of i - (2^(k-1) - 1), for the k with
 * 2^(k-1) <= i < 2^k - 1.
 */
export function lubyTerm(i: number): number {
  // 32-bit integer math: i stays far below 2^30 (one term a block of attempts).
  for (;;) {
    let k = 1;
    while ((1 << k) - 1 < i) k++;
    if ((1 << k) - 1 === i) return 1 << (k - 1);
    i -= (1 << (k - 1)) - 1;
  }
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

/**
 * Named search settings, in the manner of fc-solve's presets: each is one or more stages that
 * run side by side (`Solver.solvePreset`), each on its own share of the node budget, in slices
 * in turn, none restarted. Any stage's win is a win, and a complete stage (dfs or best) that
 * finishes proves the deal unsolvable, since every stage uses sound pruning only; the verdict is
 * unknown only when every stage has run out. Options given by the caller override the preset's.
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
 * `options` (over the preset's) runs alone on what is left of the node and time budgets, in the
 * place of the last stage (on its Solver, with its share of the memory cap). Only under rules
 * where LockBound applies (building=pairs or none), since the search it is for asks LockBound at
 * every position. A heuristic: it changes which search runs, never what a verdict means.
 */
export interface LooksLost {
  readonly afterNodes: number;
  readonly bestHomeAtMost: number;
  readonly options: Partial<SolveOptions>;
}

export interface Stage {
  /**
   * Fraction of a node budget and of the memory cap (the shares add up to 1). 0: the stage runs
   * only under a time budget alone.
   */
  readonly share: number;
  /**
   * Fraction of the time, and of the memory cap, under a time budget alone (these add up to 1
   * too); `share` when not given. A node of one search can cost several of another's, so the
   * two divisions can differ.
   */
  readonly timeShare?: number;
  /**
   * The stage runs only under rules whose `second-deal` option is this (RULES.md); under others
   * its shares go to the first stage that runs. Not given: under any rules.
   */
  readonly secondDeal?: SecondDeal;
  readonly options: Partial<SolveOptions>;
  /** Options over `options` under rules with that kind of second deal. */
  readonly under?: Partial<Readonly<Record<SecondDeal, Partial<SolveOptions>>>>;
}

/**
 * The portfolio: the rollout finds most wins, depth-first search proves what can be proved (and
 * wins some deals the rollout misses). Measured at one second a deal, one core, deals 1-100:
 * book, the rollout alone 66-68 won, with depth-first search beside it (4:1) 66, with
 * best-first wasteDealt as well (70:15:15) 65, while the portfolio before the rollout's restarts
 * (depth-first, three best-first searches and a rollout, in rounds) won 53; PySolFC games under
 * `pysol`, the rollout alone 71, these stages 69, with a second depth-first search (3:1:1) 64,
 * the former Forty Thieves portfolio (four depth-first searches with other tie-breaks,
 * best-first and a rollout, in rounds) 59. (Those runs were before `rolloutKeep`; with it,
 * book deals 1-100 at one second: the rollout alone and this portfolio both 72. Since the
 * rollout plays a winning look-ahead's line out, at one second a deal (results/solve): book
 * deals 1-1000, the rollout alone 77.2 %, this portfolio 76.4 %; PySolFC games 1-1000 under
 * `pysol` at five seconds, this portfolio 87.1 %. A rollout share of 0.9 instead of 0.8 won
 * the same deals on book deals 1-200 at 1.5 M nodes and PySolFC games 1-100 at 7 M nodes.
 * Session 9, with the shares taken as shares of the time under a time budget (results/solve):
 * book deals 1-1000 at one second, the rollout alone 80.3 % decided, this portfolio 80.0 %;
 * PySolFC games 1-1000 at five seconds, this portfolio 87.2 %.)
 */
const PORTFOLIO: readonly Stage[] = [
  // The rollout has 20 %, and each kind of second deal's own stages give it their shares under
  // the other kind: 70 % under `book`, 30 % under `pysol` (of the nodes or of the time).
  // Under rules with no second deal, every other attempt's look-aheads weigh the waiting cards
  // (rolloutWaiting; session 20) and the spaces (rolloutSpaces; session 22).
  // Its look-aheads restart small on Luby's schedule, in blocks of 8 attempts (session 21).
  { share: 0.2, options: { search: 'rollout', rolloutSchedule: 'luby', rolloutRestarts: 8 }, under: { none: { rolloutWaiting: 1, rolloutSpaces: 1 } } },
  // Best-first search with `wasteDealt` wins some deals quickly that the rollout and the
  // depth-first search do not win within the budget (book deals 360, 689, 908 and 977 at a
  // second). Session 18, book deals 1-1000 at a second, side
  // by side with the portfolio before (80 % rollout, 20 % depth-first), then with the cores
  // swapped: 837 and 834 decided against 833 and 832 (those four new both times; 153 and 156,
  // won late in the second by the rollout, lost in the second pair); with 15 % taken from the
  // rollout 833 (the same four new, four lost), with 10 % of which 5 from depth-first 835.
  // It does not run under rules with no second deal, whose waiting cards its heuristic weighs
  // for the second deal: PySolFC games 1-1000 at five seconds under `pysol`, side by side, 897
  // decided with it against 902 (523, 725 and 985 new; eight games that the rollout wins after
  // 2.6 s lost). That was with `buried` counted wrong; in sessions 24-28 a stage of its own ran
  // it there on 5 %, replaced by beam search (below). Session 23, with `buried` counted right
  // (heuristics.ts): book deals 1-1000 at a second, 843 decided against 846 before; with 20 %
  // of the time (the rollout 60 %) 841 against 844 at 10 %.
  // Under a node budget it ran on none of the nodes until session 24: with `buried` counted
  // wrong its nodes bought fewer wins than the rollout's (book deals 1-1000 at 100,000 nodes a
  // deal, the budget of `npm start` and the tactics experiment: 525 won without it, 510 with
  // 10 %). Counted right, 10 % of the nodes wins more (session 24, exact counts): 554 against
  // 542; deals 1001-2000, 533 against 510; at the 3 M nodes of `limited solve`, deals 1-600,
  // 494 won against 493.
  { share: 0.1, secondDeal: 'privileged', options: { search: 'best', heuristic: 'wasteDealt' } },
  // With no second deal: beam search with `wasteStack` on half the budget (session 29), in the
  // place of best-first search with `wasteStack` (20 %, session 19) and with `wasteDealt` (5 %,
  // session 24), whose wins it finds too, and of 25 % of the rollout's 55 %. `wasteStack`
  // (heuristics.ts) weighs each card waiting in the waste, a stack for good, more than a card
  // home. PySolFC games at five seconds a game, one process a core (scratch scripts calling
  // `solvePreset` with the stages given; docs/SOLVER.md, "Session 29"): games 1001-2000, beam
  // search alone 972 won, beam 60 % and the rollout 40 % 972, against 955 for the portfolio
  // before in `results/solve`; the 93 games of 1-2000 that the portfolio before left unknown,
  // beam alone 42 won, beam 50 %, beam with `wasteDealt` 20 % and the rollout 30 % 42, these
  // stages (rollout 30 %, beam 50 %, depth-first 20 %) 40, best-first `wasteStack` alone none
  // of the first 40. These stages keep the depth-first stage, which makes the small proofs.
  // Before (best-first stages, session 19-24), on the games the portfolio left: best-first
  // search with `wasteStack` beside the rollout won 39 of 127 games left at five seconds
  // (PySolFC 1-1000), `wasteDealt` 8 of 62 (4001-5000), most within 0.2 s.
  { share: 0.5, secondDeal: 'none', options: { search: 'beam', heuristic: 'wasteStack' } },
  // On signatures after 16,384 states on exact keys (the default is 65,536): its exact states
  // take 25-31 bytes each, and at full size it proves almost nothing within a second
  // (LockBound and the prover below do). Book deals 501-1000 at a second: the same 408
  // decided, 14.1 bytes a state over all the preset's states with signatures from the start,
  // against 16.7 after 65,536 (session 15). But an exhaustion on signatures is confirmed on
  // exact keys, at twice the nodes, and from the start that cost the small searches their
  // proofs at 100,000 nodes a deal (results/tactics): under building=none 68 of book deals
  // 1-2000, under pairing `never` 55; with 16,384 exact states every one is back (session 16).
  // `homeFirst`: a streamlined search that plays every move home alone comes first, and the
  // complete search only once it is exhausted (SolveOptions.homeFirst; on small decks it is,
  // quickly, and the proofs stay). Book deals 1-1000 at a second, side by side with the same
  // build without it, each run again on the other core: 830 and 831 decided against 821 and
  // 825 (185, 515, 522, 748, 824 and 898 new in both pairs, 787 in the second, most within
  // 0.5 s); 1001-2000: 818 against 814 (session 16).
  { share: 0.2, options: { search: 'dfs', order: 'layout', signaturesAfter: 16_384, homeFirst: true } },
];

/**
 * The portfolio's prover: depth-first search on exact keys asking LockBound at every position
 * (the `prove` preset's search), for deals on which the rollout gets nowhere. LockBound prunes
 * most positions of such deals, so it proves some of them in well under a second, where the
 * portfolio's stages prove none (docs/SOLVER.md, "When a deal looks lost").
 * - The threshold: the most cards the rollout alone had home after 500,000 nodes, on the deals
 *   it won later within 3 M nodes (about a second), was at least 31 (book deals 1-1000, 72
 *   deals) and at least 28 (1001-2000, 72 deals). So at that budget no win is given up. (Before
 *   `rolloutLockBound`, within a second: at least 21 and 23.)
 * - The portfolio at a second a deal: of book deals 1-1000 it proves 540, 645, 986 and 988
 *   lost this way (in 0.54-0.83 s), of 1001-2000 seven (1109, 1158, 1292, 1475, 1584, 1747,
 *   1935); the stages decided none of them.
 */
const PORTFOLIO_LOOKS_LOST: LooksLost = {
  afterNodes: 500_000,
  bestHomeAtMost: 20,
  options: { search: 'dfs', order: 'layout', lockBoundEvery: true, signaturesAfter: Infinity },
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
    description: 'one depth-first search with a large budget (50 M nodes, 8 GB) on exact keys that asks LockBound at every position, to prove what it can',
    // Exact keys throughout: an exhaustion on signatures would have to be run again on exact
    // keys before it proved anything, in as much memory, and with twice the nodes in all.
    options: { maxNodes: 50_000_000, maxMemoryMB: 8192, lockBoundEvery: true, signaturesAfter: Infinity },
    stages: [{ share: 1, options: { search: 'dfs', order: 'layout' } }],
  },
};

export const DEFAULT_PRESET = 'portfolio';

export interface SolveResult {
  readonly verdict: Verdict;
  /**
   * Why the search stopped short (unknown only): 'nodes', 'time' or 'memory', or 'interrupted'
   * when it was stopped from outside between two steps (`limited solve` on Ctrl-C).
   */
  readonly limit?: 'nodes' | 'time' | 'memory' | 'interrupted';
  readonly nodes: number;
  readonly states: number;
  readonly seconds: number;
  readonly bytesPerState: number;
  /** Most cards home in any position searched. */
  readonly bestHome: number;
  /** The winning moves, replayed by the verifier before they are returned. */
  readonly moves: PackedMove[] | null;
  /**
   * How an unsolvable verdict was proved: 'search' (a complete search was exhausted) or 'locks'
   * (LockBound, before any search: see `SolveOptions.lockBound`). Absent for other verdicts.
   */
  readonly proof?: 'search' | 'locks';
}

/** A solution that fails to verify: a bug in the solver (the CLI exits 3). */
export class SolutionError extends Error {
  override readonly name = 'SolutionError';
}

/** Queue keys of best-first search: score * SCALE + state id (ids below the tree's TREE_MAX_STATES). */
const SCALE = TREE_MAX_STATES;

/** Where a best-first search stands between two slices. */
interface BestAt {
  nodes: number;
  bestHome: number;
  /** The search's move options (`moveOptions`), and its tactics (null: no restriction). */
  readonly moves: ChildMoveOptions;
  readonly tactics: Tactics | null;
}

/** Searches' figures together: nodes and states added up, the most cards home, bytes a state over all their states. */
function sumOf(parts: readonly Progress[]): Progress {
  let nodes = 0;
  let states = 0;
  let bytes = 0;
  let bestHome = 0;
  for (const p of parts) {
    nodes += p.nodes;
    states += p.states;
    bestHome = Math.max(bestHome, p.bestHome);
    bytes += p.bytesPerState * p.states;
  }
  return { nodes, states, bestHome, bytesPerState: states > 0 ? bytes / states : 0 };
}

/** One search in progress (`Solver.start`). */
export interface SearchRun {
  /**
   * Runs the search until it has expanded about `untilNodes` nodes in all (it stops at its next
   * check after that: within 1024 nodes, or one look-ahead of a rollout) or has ended. Returns
   * the result once it has ended (and from then on), else null. `seconds` in the result counts
   * only the time spent in its steps.
   */
  step(untilNodes: number): SolveResult | null;
  /** Where the search stood after its last step (its result's figures once it has ended). */
  progress(): Progress;
}

/** A search's figures so far. */
export interface Progress {
  readonly nodes: number;
  readonly states: number;
  readonly bestHome: number;
  readonly bytesPerState: number;
}

/** A signature table bigger than this is let go, not kept for the next deal, when an exact table has to be made beside it. */
const RELEASE_BYTES = 32 * 1024 * 1024;

/** Nodes a stage of a preset run side by side gets in each turn, times its share and the number of stages. */
const SLICE = 4096;

/**
 * `t` emptied when it has this memory cap and signature width (a batch reuses its arrays deal
 * after deal), else a new table with room for `expected` states to start with.
 */
function emptiedOr(t: SignatureTable | null, maxMemoryMB: number, bits: number, expected: number): SignatureTable {
  const maxBytes = maxMemoryMB * 1024 * 1024;
  if (t && t.maxBytes === maxBytes && t.bits === bits) {
    t.clear();
    return t;
  }
  return new SignatureTable(maxBytes, expected, bits);
}

/**
 * Solves one deal with perfect information. One Solver can be reused for many deals of the
 * same size and rules (its buffers are kept; the table is rebuilt per deal).
 */
export class Solver {
  private g!: Game;
  private packer!: KeyPacker;
  private bound!: PileBound;
  private wasteBound!: WasteBound;
  private lockBound!: LockBound;
  /** Positions cut by PileBound in the last search. */
  pruned = 0;
  /** Positions cut by WasteBound in the last search. */
  prunedWaste = 0;
  /** Positions cut by LockBound in the last search: depth-first (`lockBoundEvery`) or the rollout's candidates (`rolloutLockBound`). */
  prunedLock = 0;
  /** Second depth-first searches, on exact keys, run to confirm an exhaustion on signatures (since this Solver was made). */
  confirmations = 0;
  /** Presets whose `looksLost` search took over (since this Solver was made). */
  takeovers = 0;
  private gen = new Int32Array(MAX_MOVES);
  private scores = new Int32Array(MAX_MOVES);
  /** The moves from one position (best-first search and the rollout). */
  private moveBuf = new Int32Array(MAX_MOVES);
  private depthFirst: DepthFirst | null = null;
  private dfsTable: TranspositionTable | null = null;
  private sigTable: SignatureTable | null = null;
  private rolloutSeen: SignatureTable | null = null;
  private look: Lookahead | null = null;
  private bestTree: SearchTree | null = null;
  private beamLevels: BeamLevels | null = null;
  /** Best-first and beam search's children's scores (`ChildScores`), and the cards home of the last child scored (`scoreChild`). */
  private readonly childScores = new ChildScores();
  private childHome = 0;
  /** The running search yields (at its next check) once it has expanded this many nodes. */
  private sliceEnd = Infinity;
  /** Nodes and best home of the running search at its last yield. */
  private progress = 0;
  private progressHome = 0;
  /** The running search's table. */
  private lastTable: TableStats | null = null;
  /** The Solvers of the stages of a preset (`solvePreset`), kept from deal to deal. */
  private helpers: Solver[] = [];

  /**
   * Solves with one search: `opts` over DEFAULT_OPTIONS. See `solvePreset` for named presets.
   */
  solve(deal: Deal, rules: Rules, opts: Partial<SolveOptions> = {}): SolveResult {
    return this.start(deal, rules, opts).step(Infinity)!;
  }

  /**
   * Starts one search (`opts` over DEFAULT_OPTIONS) without running it: the search then runs a
   * slice at a time (`SearchRun.step`), so that a preset can run several searches side by side
   * on one thread, each on its own Solver, none of them restarted. Run to the end in one step it
   * is exactly `solve`.
   */
  start(deal: Deal, rules: Rules, opts: Partial<SolveOptions> = {}): SearchRun {
    const o: SolveOptions = { ...DEFAULT_OPTIONS, ...opts };
    this.g = new Game(deal, rules);
    this.packer = new KeyPacker(this.g);
    this.bound = new PileBound(this.g);
    this.wasteBound = new WasteBound(this.g);
    this.lockBound = new LockBound(this.g);
    this.pruned = 0;
    this.prunedWaste = 0;
    this.prunedLock = 0;
    this.progress = 0;
    this.progressHome = 0;
    this.lastTable = null;
    const t0 = performance.now();
    const gen = this.search(o, t0);
    let seconds = 0;
    let result: SolveResult | null = null;
    const step = (untilNodes: number): SolveResult | null => {
      if (result) return result;
      this.sliceEnd = untilNodes;
      const t = performance.now();
      const next = gen.next();
      seconds += (performance.now() - t) / 1000;
      if (!next.done) return null;
      const r = next.value;
      let moves = r.moves;
      if (r.verdict === 'won') {
        moves = shortenLine(deal, rules, moves!);
        const check = verifyMoves(deal, rules, moves!);
        if (!check.won) throw new SolutionError(`solver produced a solution that does not verify: ${check.error ? `move ${check.error.index}: ${check.error.reason}` : 'stops short'}`);
      } else moves = null;
      result = { ...r, moves, seconds };
      if (r.verdict === 'unsolvable' && r.proof === undefined) result = { ...result, proof: 'search' };
      return result;
    };
    return {
      step,
      progress: () => result ?? { nodes: this.progress, states: this.lastTable?.size ?? 0, bestHome: this.progressHome, bytesPerState: this.lastTable?.bytesPerState() ?? 0 },
    };
  }

  /**
   * Solves with a preset, named (PRESETS) or given; `opts` overrides its options. The stages run
   * side by side: each on its own Solver (its own table, kept from deal to deal), in slices of
   * about SLICE * share * stages nodes, none restarted, each capped at its share of the node
   * budget and of the memory cap; the time budget is the whole preset's. Under a node budget
   * the stages take their slices in turn, so the shares are shares of the nodes and the result
   * is deterministic (a slice ends at the first check past its end). With no node budget (a time
   * budget alone) the shares are the stages' `timeShare`s, shares of the time: the stage that has
   * used the least of its share so far takes the next slice. A stage whose share of the budget
   * given is 0 does not run. The first stage to end with a verdict gives it; the
   * preset is unknown when every stage has run out. When the deal looks lost (`LooksLost`) the
   * stages stop and one search runs on in their place, and gives the verdict. Nodes and states
   * of the result add up over all the searches, and bytesPerState is that of all their states
   * (the bytes their states take, over the states); bestHome is the largest; seconds is the
   * wall-clock time.
   */
  solvePreset(deal: Deal, rules: Rules, preset: string | Preset = DEFAULT_PRESET, opts: Partial<SolveOptions> = {}): SolveResult {
    return this.startPreset(deal, rules, preset, opts).step(Infinity)!;
  }

  /**
   * Starts a preset without running it, as `start` does a single search: `step(untilNodes)` runs
   * its turns until its searches have expanded `untilNodes` nodes in all (it pauses between two
   * turns, so a turn may run past it) or it has ended. Pausing changes nothing: run to the end in
   * one step it is exactly `solvePreset` (`limited solve` steps it to draw its progress line and
   * to stop on Ctrl-C). Throws at once for an unknown preset or one with no stage to run.
   */
  startPreset(deal: Deal, rules: Rules, preset: string | Preset = DEFAULT_PRESET, opts: Partial<SolveOptions> = {}): SearchRun {
    const p = typeof preset === 'string' ? PRESETS[preset] : preset;
    if (!p) throw new Error(`unknown preset '${preset as string}'`);
    const base: SolveOptions = { ...DEFAULT_OPTIONS, ...p.options, ...opts };
    // Under a node budget the stages take turns by nodes; with a time budget alone, by time.
    const byTime = !Number.isFinite(base.maxNodes);
    // The stages that run under this budget and these rules, and their shares of the budget (a
    // stage that does not run under the rules gives its share to the first stage that runs).
    const shareOf = (s: Stage): number => (byTime ? s.timeShare ?? s.share : s.share);
    const ruled = (s: Stage): boolean => s.secondDeal === undefined || s.secondDeal === rules.secondDeal;
    let given = 0;
    for (const s of p.stages) if (!ruled(s)) given += shareOf(s);
    const stages = p.stages.filter((s) => shareOf(s) > 0 && ruled(s));
    if (stages.length === 0) throw new Error(`preset '${typeof preset === 'string' ? preset : p.description}' has no stage for a ${byTime ? 'time' : 'node'} budget`);
    const shares = stages.map((s, i) => shareOf(s) + (i === 0 ? given : 0));
    const t0 = performance.now();
    const runs: SearchRun[] = [];
    // Each stage's Solver: this one for a single stage, else a helper kept from deal to deal.
    const solvers: Solver[] = [];
    for (let i = 0; i < stages.length; i++) {
      const stage = stages[i]!;
      const helper = stages.length === 1 ? this : (this.helpers[i] ??= new Solver());
      solvers.push(helper);
      runs.push(helper.start(deal, rules, {
        ...base,
        ...stage.options,
        ...stage.under?.[rules.secondDeal],
        ...pick(opts, 'search', 'heuristic', 'order'),
        maxNodes: Math.max(1, Math.floor(base.maxNodes * shares[i]!)),
        maxMemoryMB: base.maxMemoryMB * shares[i]!,
        maxSeconds: base.maxSeconds,
      }));
    }
    const results: (SolveResult | null)[] = runs.map(() => null);
    let alive = runs.length;
    let last: SolveResult | null = null;
    // Under a node budget the stages take turns, and a stage's k-th slice runs it to k slices of
    // nodes: the result is deterministic. With a time budget alone the stage furthest behind its
    // share of the time spent so far takes the next slice (turns by nodes would give the slower
    // search more than its share: a depth-first node costs about twice a rollout's).
    const spent = new Float64Array(runs.length);
    const slices = new Float64Array(runs.length);
    const lost = p.looksLost && solvers[0]!.lockBound.enabled ? p.looksLost : null;
    let turn = 0;
    let result: SolveResult | null = null;
    // Once the deal looks lost: the search of `lost`, and the stages' figures when it took over.
    let prover: SearchRun | null = null;
    let before: Progress[] = [];
    let used = 0;
    const figures = (): Progress => (prover ? sumOf([...before, prover.progress()]) : sumOf(this.parts(runs, results)));
    const step = (untilNodes: number): SolveResult | null => {
      if (result) return result;
      if (prover) {
        const r = prover.step(untilNodes - used);
        return r ? (result = this.presetResult([...before, r], r, t0)) : null;
      }
      for (; alive > 0; turn++) {
        if (untilNodes !== Infinity && figures().nodes >= untilNodes) return null;
        let i = turn % runs.length;
        if (byTime) {
          for (let j = 0; j < runs.length; j++) {
            if (!results[j] && (results[i] || spent[j]! * shares[i]! < spent[i]! * shares[j]!)) i = j;
          }
        } else if (results[i]) continue;
        const k = ++slices[i]!;
        const slice = SLICE * shares[i]! * stages.length;
        // By time, a search that ran past its last slice (a long look-ahead) gets a whole slice more.
        const until = byTime ? Math.max((k - 1) * slice, runs[i]!.progress().nodes) + slice : k * slice;
        const t = performance.now();
        const r = runs[i]!.step(until);
        spent[i] = spent[i]! + performance.now() - t;
        if (!r) {
          if (lost && this.looksLost(runs, lost)) {
            // The stages stop; the last stage's Solver runs the search of `lost`, with that
            // stage's memory share, on what is left of the node and time budgets.
            before = this.parts(runs, results);
            for (const part of before) used += part.nodes;
            this.takeovers++;
            const at = stages.length - 1;
            prover = solvers[at]!.start(deal, rules, {
              ...base,
              ...lost.options,
              maxNodes: Math.max(1, base.maxNodes - used),
              maxMemoryMB: base.maxMemoryMB * shares[at]!,
              maxSeconds: Math.max(0, base.maxSeconds - (performance.now() - t0) / 1000),
            });
            return step(untilNodes);
          }
          continue;
        }
        results[i] = last = r;
        alive--;
        if (r.verdict !== 'unknown') return (result = this.presetResult(this.parts(runs, results), r, t0));
      }
      return (result = this.presetResult(this.parts(runs, results), last!, t0));
    };
    return { step, progress: () => result ?? figures() };
  }

  /** Each stage's figures: its result, or where it stands. */
  private parts(runs: SearchRun[], results: (SolveResult | null)[]): Progress[] {
    return runs.map((run, i) => results[i] ?? run.progress());
  }

  /** True when the deal looks lost to a preset's stages (see `LooksLost`). */
  private looksLost(runs: SearchRun[], lost: LooksLost): boolean {
    if (runs[0]!.progress().nodes < lost.afterNodes) return false;
    for (const run of runs) if (run.progress().bestHome > lost.bestHomeAtMost) return false;
    return true;
  }

  /** The preset's result: `r`'s verdict and moves, with nodes, states and best home over all its searches' `parts`. */
  private presetResult(parts: readonly Progress[], r: SolveResult, t0: number): SolveResult {
    return { ...r, ...sumOf(parts), seconds: (performance.now() - t0) / 1000 };
  }

  /** The moves to try from the current position: `childMoves` (moves.ts). */
  private childMoves(out: Int32Array, at: number, justDrew: boolean, mo: ChildMoveOptions, tactics: Tactics | null): number {
    return childMoves(this.g, this.gen, this.scores, out, at, justDrew, mo, tactics);
  }

  /**
   * The transposition table for one search: the last one, emptied, when it fits (a batch
   * reuses its arrays deal after deal), else a new one sized for the node budget.
   */
  private table(words: number, o: SolveOptions): TranspositionTable {
    const maxBytes = o.maxMemoryMB * 1024 * 1024;
    const t = this.dfsTable;
    if (t && t.words === words && t.maxBytes === maxBytes) {
      t.clear();
      return t;
    }
    // Depth-first search needs the exact table only until it goes on signatures (or for a
    // second search, when it grows).
    return (this.dfsTable = new TranspositionTable(words, maxBytes, Math.min(o.maxNodes, o.signaturesAfter)));
  }

  /** The search `o` asks for, after LockBound at the root (`SolveOptions.lockBound`). */
  private *search(o: SolveOptions, t0: number): Generator<void, Omit<SolveResult, 'seconds'>> {
    if (o.lockBound && this.lockBound.lost(o.tactics))
      return { verdict: 'unsolvable', proof: 'locks', nodes: 0, states: 0, bytesPerState: 0, bestHome: this.g.home, moves: null };
    return yield* o.search === 'beam' ? this.beam(o, t0) : o.search === 'best' ? this.bestFirst(o, t0) : o.search === 'rollout' ? this.rollout(o, t0) : this.dfs(o, t0);
  }

  /** The signature table for one depth-first search: the last one, emptied, when it fits, else a new one. */
  private signatureTable(o: SolveOptions): SignatureTable {
    return (this.sigTable = emptiedOr(this.sigTable, o.maxMemoryMB, o.signatureBits, Math.min(o.maxNodes, 1 << 30)));
  }

  /**
   * The rollout's table of the positions its attempt has played, reused in the same way. It is
   * capped by the memory cap like the other searches' tables (it reports the rollout's states);
   * the look-aheads' tables are not.
   */
  private rolloutTable(o: SolveOptions): SignatureTable {
    return (this.rolloutSeen = emptiedOr(this.rolloutSeen, o.maxMemoryMB, DEFAULT_OPTIONS.signatureBits, 4096));
  }

  /**
   * Depth-first search, on exact keys until the table holds `SolveOptions.signaturesAfter`
   * states, then on signatures: the same search in less memory. An exhausted
   * search that went on signatures proves nothing, so it is run again on exact keys alone, with
   * what is left of the budget, and only that search's end is a proof (its result counts the
   * nodes of both). Small searches, which most proofs are, never leave the exact table. With
   * `homeFirst` the streamlined search runs first, and the complete one only if it is exhausted.
   */
  private *dfs(o: SolveOptions, t0: number): Generator<void, Omit<SolveResult, 'seconds'>> {
    const g = this.g;
    const words = this.packer.words;
    const tt = (this.lastTable = this.table(words, o));
    if (g.isWon()) return { verdict: 'won', nodes: 0, states: tt.size, bytesPerState: tt.bytesPerState(), bestHome: g.home, moves: [] };
    const deadline = t0 + o.maxSeconds * 1000;
    let spent = 0;
    let home = g.home;
    let complete = tt;
    if (o.homeFirst) {
      // The streamlined search (`homeFirst`) first: a win is a win; its exhaustion proves
      // nothing, so the complete search follows on a cleared table.
      const s = yield* this.depthFirstRun(tt, o, deadline, 0, home, o.signaturesAfter);
      if (s.verdict !== 'unsolvable') return s;
      if (s.nodes >= o.maxNodes) return { ...s, verdict: 'unknown', limit: 'nodes' };
      spent = s.nodes;
      home = s.bestHome;
      complete = this.lastTable = this.table(words, o);
      o = { ...o, homeFirst: false };
    }
    const first = yield* this.depthFirstRun(complete, o, deadline, spent, home, o.signaturesAfter);
    const onSignatures = this.lastTable !== complete; // depthFirstRun went on with the signature table
    if (first.verdict !== 'unsolvable' || !onSignatures) return first;
    // A big signature table is let go, so that the two tables together stay near the memory cap.
    if (this.lastTable.bytes() > RELEASE_BYTES) this.sigTable = null;
    return yield* this.confirm(first, o, deadline);
  }

  /**
   * A search exhausted on signatures (`first`, the Game back at the deal) proves nothing: the
   * loss is confirmed by depth-first search on exact keys from the deal, with what is left of
   * the budget (no budget left: unknown), and only that search's end is a proof. Its result
   * counts the nodes of both.
   */
  private *confirm(first: Omit<SolveResult, 'seconds'>, o: SolveOptions, deadline: number): Generator<void, Omit<SolveResult, 'seconds'>> {
    if (first.nodes >= o.maxNodes) return { ...first, verdict: 'unknown', limit: 'nodes' };
    const exact = (this.lastTable = this.table(this.packer.words, o));
    this.confirmations++;
    const r = yield* this.depthFirstRun(exact, o, deadline, first.nodes, first.bestHome, Infinity);
    // Nor is a big exact table kept for the next deal, where a signature table may grow beside it.
    if (exact.bytes() > RELEASE_BYTES) this.dfsTable = null;
    return r;
  }

  /**
   * One depth-first search from the deal on `tt` (exact), after `spent` nodes of the budget
   * (counted in its result and progress); `bestHome` carries over. It goes on on a signature
   * table once `tt` holds `signaturesAfter` states (`lastTable` is then that one).
   */
  private *depthFirstRun(
    tt: TranspositionTable, o: SolveOptions, deadline: number, spent: number, bestHome: number, signaturesAfter: number,
  ): Generator<void, Omit<SolveResult, 'seconds'>> {
    const g = this.g;
    const dfs = (this.depthFirst ??= new DepthFirst());
    dfs.begin(
      g, this.packer, tt, false, moveOptions(o), isRestricted(o.tactics) ? o.tactics : null,
      o.pileBound ? this.bound : null, o.wasteBound ? this.wasteBound : null,
    );
    dfs.tableLimit = signaturesAfter;
    dfs.lock = o.lockBoundEvery ? this.lockBound : null;
    let table: TableStats = tt;
    const pruned = this.pruned;
    const prunedWaste = this.prunedWaste;
    const prunedLock = this.prunedLock;
    for (;;) {
      const code = dfs.run(o.maxNodes - spent, deadline, this.sliceEnd - spent);
      const home = Math.max(bestHome, dfs.bestHome);
      this.progress = spent + dfs.nodes;
      this.progressHome = home;
      this.pruned = pruned + dfs.pruned;
      this.prunedWaste = prunedWaste + dfs.prunedWaste;
      this.prunedLock = prunedLock + dfs.prunedLock;
      if (code === DFS_TABLE) {
        const sig = this.signatureTable(o);
        dfs.tableLimit = Infinity;
        if (sig.addAll(tt, this.packer)) {
          dfs.swapTable((table = this.lastTable = sig));
          tt.clear();
        }
        // The run stopped at a check that may also have ended the slice.
        if (spent + dfs.nodes >= this.sliceEnd) yield;
        continue;
      }
      if (code === DFS_SLICE) {
        yield;
        continue;
      }
      const verdict: Verdict = code === DFS_WON ? 'won' : code === DFS_LOST ? 'unsolvable' : 'unknown';
      const limit = code === DFS_NODES ? 'nodes' : code === DFS_TIME ? 'time' : code === DFS_MEMORY ? 'memory' : undefined;
      return {
        verdict, limit, nodes: spent + dfs.nodes, states: table.size, bytesPerState: table.bytesPerState(), bestHome: home,
        moves: code === DFS_WON ? g.history() : null,
      };
    }
  }

  /**
   * Best-first search. The states are stored as signatures (sigtable.ts) with a tree of parents
   * and moves (tree.ts), not as keys: a state popped from the queue is reached by walking the
   * Game there along the tree, and its children are signed from its signature. An exhaustion on
   * signatures proves nothing, so, as for depth-first search, the loss is confirmed by a
   * depth-first search on exact keys with what is left of the budget, and only that search's end
   * is a proof.
   */
  private *bestFirst(o: SolveOptions, t0: number): Generator<void, Omit<SolveResult, 'seconds'>> {
    const g = this.g;
    const h = heuristicOf(o);
    if (g.isWon()) return { verdict: 'won', nodes: 0, states: 0, bytesPerState: 0, bestHome: g.home, moves: [] };
    const tree = this.rootedTree(o);
    if (!tree) return this.noRoomAtRoot(0, g.home);
    // Priority: heuristic score, then newest first (a depth-first tie-break).
    const queue = new FastPriorityQueue<number>((a, b) => a > b);
    queue.add(score(h(g)) * SCALE);
    const at: BestAt = { nodes: 0, bestHome: g.home, moves: moveOptions(o), tactics: isRestricted(o.tactics) ? o.tactics : null };
    const deadline = t0 + o.maxSeconds * 1000;
    for (;;) {
      const r = this.bestSlice(o, h, tree, queue, deadline, at);
      if (r === null) {
        yield;
        continue;
      }
      if (r.verdict !== 'unsolvable') return r;
      return yield* this.confirmTree(r, tree, o, deadline);
    }
  }

  /**
   * The tree of a best-first or beam search (`searchTree`, emptied), with the deal's position as
   * its root, state 0; null when the memory cap is too small for even that.
   */
  private rootedTree(o: SolveOptions): SearchTree | null {
    const packer = this.packer;
    const tree = (this.lastTable = this.searchTree(o));
    packer.baseSig();
    const root = tree.sig.insert(packer.flagA(packer.sigA, false), packer.flagB(packer.sigB, false));
    return root === FULL || !tree.begin(packer.sigA, packer.sigB) ? null : tree;
  }

  /** A search with no room for the deal's position (`rootedTree`): unknown, memory, with the figures so far. */
  private noRoomAtRoot(nodes: number, bestHome: number): Omit<SolveResult, 'seconds'> {
    const t = this.lastTable!;
    return { verdict: 'unknown', limit: 'memory', nodes, states: t.size, bytesPerState: t.bytesPerState(), bestHome, moves: null };
  }

  /**
   * A best-first or beam search exhausted on `tree`'s signatures (`r`): confirmed on exact keys
   * from the deal, and a big tree let go rather than kept for the next deal.
   */
  private *confirmTree(r: Omit<SolveResult, 'seconds'>, tree: SearchTree, o: SolveOptions, deadline: number): Generator<void, Omit<SolveResult, 'seconds'>> {
    const g = this.g;
    while (g.histLen > 0) g.undo();
    if (tree.bytes() > RELEASE_BYTES) this.bestTree = null;
    return yield* this.confirm(r, o, deadline);
  }

  /**
   * Whether best-first or beam search may score the child of move m without playing it
   * (`ChildScores.before`, after `parent`): the heuristic has weights, m moves one card (no draw,
   * no redeal), and no bound could cut the child. WasteBound asks only after a draw; PileBound
   * only where `mayChange` says so, which for a card from a column to a foundation reads
   * nothing the move changes (the cards still in play are the waste's and the pile's), and is
   * false for every other card move. A child scored so is the child `boundCuts` would keep.
   */
  private scoresBefore(o: SolveOptions, m: PackedMove): boolean {
    if (!this.childScores.direct || (m & 63) >= SRC_DRAW) return false;
    return !(o.pileBound && this.bound.mayChange(m));
  }

  /**
   * A child's score for best-first and beam search (after `childScores.parent`), with the Game
   * on its parent: its heuristic value (`score`), CHILD_CUT when a bound proves it lost, or
   * CHILD_WON when it wins (the Game then stands on it). Sets `childHome` to its cards home and
   * `childScores.blocked` to its count. A card's move is scored without being played
   * (`scoresBefore`); any other is played, scored and taken back.
   */
  private scoreChild(o: SolveOptions, h: Heuristic, m: PackedMove, drew: boolean): number {
    const g = this.g;
    const scores = this.childScores;
    if (this.scoresBefore(o, m)) {
      const v = scores.before(g, h, m);
      this.childHome = scores.home;
      if (scores.home !== g.total) return score(v);
      g.apply(m);
      return CHILD_WON;
    }
    g.apply(m);
    this.childHome = g.home;
    if (g.isWon()) return CHILD_WON;
    const v = this.boundCuts(o, m, drew) ? CHILD_CUT : score(scores.child(g, h, m));
    g.undo();
    return v;
  }

  /**
   * Whether a sound bound proves the position just reached by `m` lost, as the options ask:
   * PileBound (second-deal positions `m` may change) or WasteBound (after a draw). Counts it.
   */
  private boundCuts(o: SolveOptions, m: PackedMove, drew: boolean): boolean {
    if (o.pileBound && this.bound.mayChange(m) && this.bound.lost()) {
      this.pruned++;
      return true;
    }
    if (drew && o.wasteBound && this.wasteBound.lost()) {
      this.prunedWaste++;
      return true;
    }
    return false;
  }

  /** A best-first or beam slice ends (null): where it stands, kept in `at` and shown as the search's progress. */
  private pause(at: BestAt, nodes: number, bestHome: number): null {
    at.nodes = this.progress = nodes;
    at.bestHome = this.progressHome = bestHome;
    return null;
  }

  /**
   * Beam search: the deal's positions level by level (a level: the positions one move further
   * from the deal), keeping of each level only the `width` best children by the heuristic,
   * with no position kept twice (signatures, as best-first search keeps them, on the same tree).
   * An attempt that runs out of positions without a win starts again from the deal with twice
   * the width (`beamWidth` first). An attempt that never left a child out has searched every
   * position (with sound pruning only): that is an exhaustion on signatures, confirmed on exact
   * keys as best-first search's is, so on small deals the search ends with a proof. On large
   * ones it ends won or unknown.
   *
   * Why, under `pysol` (session 29): best-first search with the same heuristic sinks its nodes
   * into the many positions near the deal that score alike, and a position that scores better
   * a hundred moves on never comes up; the rollout commits to one line at a time. A beam keeps
   * `width` lines abreast all the way down. The 40 first PySolFC games of 1-2000 that the
   * portfolio left unknown at five seconds (`results/solve`), five seconds a game each, one
   * process a core: beam search with `wasteStack` (widths 64, 128, ...) won 16, best-first
   * search with `wasteStack` none.
   */
  private *beam(o: SolveOptions, t0: number): Generator<void, Omit<SolveResult, 'seconds'>> {
    const g = this.g;
    const h = heuristicOf(o);
    const levels = (this.beamLevels ??= new BeamLevels());
    const at: BestAt = { nodes: 0, bestHome: g.home, moves: moveOptions(o), tactics: isRestricted(o.tactics) ? o.tactics : null };
    const deadline = t0 + o.maxSeconds * 1000;
    if (g.isWon()) return { verdict: 'won', nodes: 0, states: 0, bytesPerState: 0, bestHome: g.home, moves: [] };
    for (let width = Math.max(1, Math.floor(o.beamWidth)); ; width *= 2) {
      while (g.histLen > 0) g.undo();
      const tree = this.rootedTree(o);
      if (!tree) return this.noRoomAtRoot(at.nodes, at.bestHome);
      levels.begin(width, 0, blocked(g), tree.sigA, tree.sigB);
      let r: Omit<SolveResult, 'seconds'> | null | undefined;
      while ((r = this.beamSlice(o, h, tree, levels, deadline, at)) === null) yield;
      if (r !== undefined) return r;
      if (levels.truncated) continue;
      // Every position searched, on signatures.
      return yield* this.confirmTree(treeResult(tree, 'unsolvable', at.nodes, at.bestHome), tree, o, deadline);
    }
  }

  /**
   * The beam's loop, from where `levels` and `at` say: the search's result when it ends (won, or
   * a limit ran out), null when a slice ends, undefined when the attempt has run out of
   * positions. A plain function for the speed, as `bestSlice`.
   */
  private beamSlice(
    o: SolveOptions, h: Heuristic, tree: SearchTree, levels: BeamLevels, deadline: number, at: BestAt,
  ): Omit<SolveResult, 'seconds'> | null | undefined {
    const g = this.g;
    const packer = this.packer;
    const sig = tree.sig;
    let nodes = at.nodes;
    let bestHome = at.bestHome;
    const moves = this.moveBuf;
    const mo = at.moves;
    const sliceEnd = this.sliceEnd;
    const scores = this.childScores;
    for (;;) {
      if (levels.next === levels.size) {
        if (levels.count === 0) {
          at.nodes = nodes;
          at.bestHome = bestHome;
          return undefined;
        }
        if (levels.select(sig, tree) < 0) return treeResult(tree, 'unknown', nodes, bestHome, 'memory');
        continue;
      }
      if (nodes >= o.maxNodes) return treeResult(tree, 'unknown', nodes, bestHome, 'nodes');
      nodes++;
      if ((nodes & CHECK) === 0 && performance.now() > deadline) return treeResult(tree, 'unknown', nodes, bestHome, 'time');
      const rank = levels.next++;
      // The walk makes no signatures: the level keeps each state's.
      tree.walkTo(g, packer, levels.ids[rank]!, false);
      const pa = levels.stateA[rank]!;
      const pb = levels.stateB[rank]!;
      const n = this.childMoves(moves, 0, tree.justDrew, mo, at.tactics);
      scores.parent(g, h, levels.tags[rank]!);
      for (let i = 0; i < n; i++) {
        const m = moves[i]!;
        const childDrew = (m & 63) === SRC_DRAW;
        packer.childSig(pa, pb, m);
        const ca = packer.sigA;
        const cb = packer.sigB;
        // A child kept already, at this level or an earlier one, is not looked up here but
        // when the level ends (`BeamLevels.select`): only the best few candidates are ever
        // looked up there, against every child here (one probe of a large table each).
        const v = this.scoreChild(o, h, m, childDrew);
        if (this.childHome > bestHome) bestHome = this.childHome;
        if (v === CHILD_WON) return treeResult(tree, 'won', nodes, bestHome, undefined, g.history());
        if (v !== CHILD_CUT) levels.add(rank, m, packer.flagA(ca, childDrew), packer.flagB(cb, childDrew), ca, cb, v, scores.blocked);
      }
      if ((nodes & CHECK) === 0 && nodes >= sliceEnd) return this.pause(at, nodes, bestHome);
    }
  }

  /** The signature table and tree for one best-first search: the last ones, emptied, when they fit, else new ones. */
  private searchTree(o: SolveOptions): SearchTree {
    const maxBytes = o.maxMemoryMB * 1024 * 1024;
    // Two thirds of the cap for the signatures (8 to 12 bytes a state), a third for the tree (5).
    let t = this.bestTree;
    if (!t || t.maxBytes !== maxBytes / 3 || t.sig.bits !== o.signatureBits) {
      const sig = new SignatureTable((2 * maxBytes) / 3, Math.min(o.maxNodes * 4, 1 << 30), o.signatureBits);
      t = this.bestTree = new SearchTree(sig, maxBytes / 3);
    } else t.sig.clear();
    return t;
  }

  /**
   * The best-first loop, from where `at` says, until the search ends (its result) or a slice
   * ends (null, with `at` saved to go on from). A plain function, not the generator itself: V8
   * runs a hot loop inside a generator a third slower.
   */
  private bestSlice(
    o: SolveOptions, h: Heuristic, tree: SearchTree, queue: FastPriorityQueue<number>, deadline: number, at: BestAt,
  ): Omit<SolveResult, 'seconds'> | null {
    const g = this.g;
    const packer = this.packer;
    const sig = tree.sig;
    let nodes = at.nodes;
    let bestHome = at.bestHome;
    const moves = this.moveBuf;
    const mo = at.moves;
    const sliceEnd = this.sliceEnd;
    const scores = this.childScores;
    while (!queue.isEmpty()) {
      const top = queue.poll()!;
      const id = top - Math.floor(top / SCALE) * SCALE;
      if (nodes >= o.maxNodes) return treeResult(tree, 'unknown', nodes, bestHome, 'nodes');
      nodes++;
      if ((nodes & CHECK) === 0 && performance.now() > deadline) return treeResult(tree, 'unknown', nodes, bestHome, 'time');
      tree.walkTo(g, packer, id);
      const pa = tree.sigA;
      const pb = tree.sigB;
      const n = this.childMoves(moves, 0, tree.justDrew, mo, at.tactics);
      scores.parent(g, h, -1);
      for (let i = 0; i < n; i++) {
        const m = moves[i]!;
        const childDrew = (m & 63) === SRC_DRAW;
        packer.childSig(pa, pb, m);
        const cid = sig.insert(packer.flagA(packer.sigA, childDrew), packer.flagB(packer.sigB, childDrew));
        if (cid === FULL) return treeResult(tree, 'unknown', nodes, bestHome, 'memory');
        if (cid < 0) continue;
        if (cid >= TREE_MAX_STATES || !tree.set(cid, id, m)) return treeResult(tree, 'unknown', nodes, bestHome, 'memory');
        const v = this.scoreChild(o, h, m, childDrew);
        if (this.childHome > bestHome) bestHome = this.childHome;
        if (v === CHILD_WON) return treeResult(tree, 'won', nodes, bestHome, undefined, g.history());
        if (v !== CHILD_CUT) queue.add(v * SCALE + cid);
      }
      if ((nodes & CHECK) === 0 && nodes >= sliceEnd) return this.pause(at, nodes, bestHome);
    }
    return treeResult(tree, 'unsolvable', nodes, bestHome);
  }

  /**
   * Rollout: play the deal forward, one committed move at a time. Each candidate move (the
   * same moves and reductions as depth-first search) is tried and judged by a small depth-first
   * look-ahead from the position after it (`Lookahead`, at most `per` nodes): a look-ahead
   * that wins ends the rollout (its winning line is played out), a move whose look-ahead is
   * proven lost is never taken, and otherwise the move
   * whose look-ahead got the most cards home (then the most home now) is; with `rolloutWaiting`
   * every other attempt counts the waiting cards against the cards home (and, with
   * `rolloutSpaces`, the spaces for them). Positions already
   * played in this attempt are not played again. When an attempt gets stuck it starts again
   * from the deal, with ties broken another way (attempt k: seed + k, both in the look-ahead's
   * move order and among candidates of equal score); after `rolloutRestarts` attempts the
   * look-ahead doubles (or, with `rolloutSchedule` luby, takes the next term of Luby's sequence). It goes on until the node budget (all look-ahead nodes, and one a forced move) or the time runs
   * out, and proves nothing: its verdict is won or unknown. A position with only one candidate
   * left (the others played already in this attempt or proved lost by LockBound) gets no
   * look-ahead: its move is played at the cost of one node.
   *
   * Many short, different attempts beat few long ones. Book deals 1-100, one second each, the
   * rollout alone: 41 won with one attempt a budget starting at 250 nodes (the first version);
   * 52 to 60 with new tie-breaks at each attempt (doubling every 1, 3 or 8 attempts); 68 with
   * 25-node look-aheads doubled every 32 attempts (these defaults), against 53 for the whole
   * portfolio of the time. Checked on deals 101-200: 77 won, against 55 with the first version.
   * Shaking the scores more than ties (noise of about one card) did worse (57, 46).
   *
   * A share of the attempts (`rolloutKeep`) start from a prefix of the best attempt so far,
   * its length drawn by the attempt's seed: a local search around the best line. At 1 M
   * nodes a deal: book deals 1-100, 68 won from the deal every time, 70 with a share of 0.3,
   * 71 with 0.5, 67 with 0.9; deals 101-200, 77, 84 (0.3), 82 (0.5); PySolFC games 1-100
   * under `pysol`, 64 and 70 (0.3).
   */
  private *rollout(o: SolveOptions, t0: number): Generator<void, Omit<SolveResult, 'seconds'>> {
    const g = this.g;
    const packer = this.packer;
    const look = (this.look ??= new Lookahead());
    // The look-aheads' measure (`bestValue`, rolloutWaiting, rolloutSpaces): cards home, or in
    // every other attempt cards home less w a waiting card, plus s a space.
    const waitWeight = Math.max(0, Math.floor(o.rolloutWaiting));
    const spaceWeight = waitWeight === 0 ? 0 : Math.max(0, Math.floor(o.rolloutSpaces));
    const tactics = isRestricted(o.tactics) ? o.tactics : null;
    const bound = o.pileBound ? this.bound : null;
    const deadline = t0 + o.maxSeconds * 1000;
    const seen = (this.lastTable = this.rolloutTable(o));
    const moves = this.moveBuf;
    const mo = moveOptions(o);
    let nodes = 0;
    let bestHome = g.home;
    const finish = (verdict: Verdict, limit?: 'nodes' | 'time' | 'memory', won: PackedMove[] | null = null) => ({
      // (A win's last moves home can come after the look-ahead that found them counted its cards.)
      verdict, limit, nodes, states: seen.size, bytesPerState: seen.bytesPerState(), bestHome: verdict === 'won' ? g.total : bestHome, moves: won,
    });
    if (g.isWon()) return finish('won', undefined, []);
    const restarts = Math.max(1, o.rolloutRestarts);
    const locks = o.rolloutLockBound && this.lockBound.enabled;
    let bestLine: PackedMove[] = [];
    let bestLineHome = -1;
    // The signature of the position played (base: without the justDrew flag), and whether its
    // last move was a draw.
    let curA = 0;
    let curB = 0;
    let drew = false;
    /** Plays `m` for good and records the position reached; false when the table is full. */
    const play = (m: PackedMove): boolean => {
      packer.childSig(curA, curB, m);
      curA = packer.sigA;
      curB = packer.sigB;
      g.apply(m);
      drew = (m & 63) === SRC_DRAW;
      return seen.insert(packer.flagA(curA, drew), packer.flagB(curB, drew)) !== FULL;
    };
    const base = Math.max(1, o.rolloutNodes);
    const luby = o.rolloutSchedule === 'luby';
    for (let attempt = 0, per = base; ; attempt++) {
      if (luby) per = base * lubyTerm(Math.floor(attempt / restarts) + 1);
      else if (attempt > 0 && attempt % restarts === 0) per *= 2;
      look.waitWeight = attempt % 2 === 0 ? waitWeight : 0;
      look.spaceWeight = attempt % 2 === 0 ? spaceWeight : 0;
      // Attempt k breaks ties by seed + k (attempt 0 with seed 0: the plain order).
      const seed = (o.seed + attempt) | 0;
      // An attempt that searched nothing would be repeated as it was: the rollout cannot go
      // on, so it stops as if its budget were spent (a deal with no move at all, in practice).
      const before = nodes;
      while (g.histLen > 0) g.undo();
      seen.clear();
      packer.baseSig();
      curA = packer.sigA;
      curB = packer.sigB;
      if (seen.insert(curA, curB) === FULL) return finish('unknown', 'memory');
      drew = false;
      // A share of the attempts (rolloutKeep, drawn by the seed) start by replaying a prefix of
      // the attempt that got most cards home so far, of a length drawn by the seed too.
      if (attempt > 0 && bestLine.length > 0 && ((Math.imul(seed, 0x9e3779b1) >>> 7) & 1023) < o.rolloutKeep * 1024) {
        const j = Math.floor(bestLine.length * ((Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) >>> 8) / 2 ** 24));
        for (let i = 0; i < j; i++) if (!play(bestLine[i]!)) return finish('unknown', 'memory');
      }
      for (;;) {
        if (nodes + 2 > o.maxNodes) return finish('unknown', 'nodes');
        if (performance.now() > deadline) return finish('unknown', 'time');
        const n = this.childMoves(moves, 0, drew, mo, tactics);
        // The candidates: not a position this attempt has played already, and not one that
        // LockBound proves lost (it needs no look-ahead). A move that wins ends the rollout.
        let live = 0;
        for (let i = 0; i < n; i++) {
          const m = moves[i]!;
          packer.childSig(curA, curB, m);
          const d = (m & 63) === SRC_DRAW;
          const sa = packer.flagA(packer.sigA, d);
          const sb = packer.flagB(packer.sigB, d);
          g.apply(m);
          if (g.isWon()) return finish('won', undefined, g.history());
          let open = seen.find(sa, sb) < 0;
          if (open && locks && this.lockBound.lost(o.tactics)) {
            open = false;
            this.prunedLock++;
          }
          g.undo();
          if (open) moves[live++] = m;
        }
        let best = -1;
        let bestScore = -Infinity;
        // A look-ahead counts its own position, so it needs 2 nodes to look at all (and never
        // spends more than it is given when given 2 or more).
        for (let i = 0; i < live && nodes + 2 <= o.maxNodes; i++) {
          const m = moves[i]!;
          let score = 0;
          if (live === 1) {
            // A forced move needs no look-ahead to be chosen: it is played, counted as one node.
            // (Its look-ahead could only find a win the next step's look-aheads find too, or
            // prove it lost, which ends the attempt a little sooner.) Measured in session 17,
            // the rollout alone at 1 M nodes a deal (node budgets, so the counts are exact): book
            // deals 1-300, 242 won against 238 (55, 254, 276, 282 more, none fewer); PySolFC
            // games 1-300, 212 against 207 (8, 82, 93, 157, 188 more, none fewer); docs/SOLVER.md.
            nodes++;
          } else {
            g.apply(m);
            // PileBound is asked at the look-ahead's root only, not after each move inside it: it
            // took a fifth of the rollout's time on hard book deals, and the nodes it saved bought
            // less than the time (book deals 1-1000 at 1 s, the portfolio side by side: 811
            // decided against 806, 5 more and none fewer; docs/SOLVER.md).
            const r = look.search(g, packer, bound, (m & 63) === SRC_DRAW, Math.min(per, o.maxNodes - nodes), tactics, seed, false);
            nodes += look.nodes;
            if (look.bestHome > bestHome) bestHome = look.bestHome;
            if (r === LOOK_WON) {
              // The look-ahead's own line wins: play it out (following it by further
              // look-aheads could cost more than the budget left, and did on PySolFC games).
              for (const w of look.winLine) g.apply(w);
              return finish('won', undefined, g.history());
            }
            // Lexicographic, the measure first (it may be negative: g.home < 128, the tie < 64).
            score = r === LOOK_LOST ? -Infinity : (look.bestValue * 128 + g.home) * 64 + (seed === 0 ? 0 : Math.imul(m ^ seed, 0x9e3779b1) >>> 26);
            g.undo();
          }
          if (nodes >= this.sliceEnd) {
            this.progress = nodes;
            this.progressHome = bestHome;
            yield;
          }
          if (score > bestScore) {
            bestScore = score;
            best = m;
          }
        }
        if (best < 0 || bestScore === -Infinity) {
          if (g.home > bestLineHome) {
            bestLineHome = g.home;
            bestLine = g.history();
          }
          break;
        }
        if (!play(best)) return finish('unknown', 'memory');
        if (g.home > bestHome) bestHome = g.home;
        if (g.isWon()) return finish('won', undefined, g.history());
      }
      if (nodes === before) return finish('unknown', 'nodes');
    }
  }
}

/** The heuristic of a best-first or beam search: `o.heuristic` as a function, or the built-in one it names (`blend` for an unknown name). */
function heuristicOf(o: SolveOptions): Heuristic {
  return typeof o.heuristic === 'function' ? o.heuristic : HEURISTICS[o.heuristic] ?? HEURISTICS.blend!;
}

/** A best-first or beam search's result: its verdict, and its figures on `tree`. */
function treeResult(
  tree: SearchTree, verdict: Verdict, nodes: number, bestHome: number, limit?: 'nodes' | 'time' | 'memory', moves: PackedMove[] | null = null,
): Omit<SolveResult, 'seconds'> {
  return { verdict, limit, nodes, states: tree.size, bytesPerState: tree.bytesPerState(), bestHome, moves };
}

/**
 * A heuristic's value as the queue needs it: a whole number in [-2^20, 2^20] (the queue key is
 * score * 2^27 + state id, which must stay an exact double). A fractional score is floored and a
 * larger one clamped, so no heuristic can corrupt a state id; NaN counts as the lowest score.
 */
function score(value: number): number {
  const v = Math.floor(value);
  return v >= SCORE_MAX ? SCORE_MAX : v >= -SCORE_MAX ? v : -SCORE_MAX;
}

/** What `scoreChild` returns for a child that a bound proves lost, and for one that wins: outside `score`'s range. */
const CHILD_CUT = -SCORE_MAX - 1;
const CHILD_WON = SCORE_MAX + 1;

function pick<T extends object, K extends keyof T>(o: T, ...keys: K[]): Partial<T> {
  const out: Partial<T> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
