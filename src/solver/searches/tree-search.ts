import { type PackedMove, SRC_DRAW } from '../../game/state.js';
import { type Tactics } from '../../game/tactics.js';
import { type SearchContext, RELEASE_BYTES } from '../context.js';
import { type Heuristic, HEURISTICS, SCORE_MAX } from '../heuristics.js';
import { type ChildMoveOptions } from '../moves.js';
import { type SolveOptions, type Verdict } from '../options.js';
import { type SearchResult } from '../result.js';
import { FULL } from '../table.js';
import { type SearchTree } from '../tree.js';
import { confirmOnExactKeys } from './depth-first.js';

/*
 * What best-first and beam search share: positions kept as signatures with a tree of parents
 * and moves (tree.ts) rather than keys, children scored by a heuristic, and an exhaustion on
 * signatures confirmed on exact keys.
 */

/** Where a best-first or beam search stands between two slices. */
export interface TreeAt {
  nodes: number;
  bestHome: number;
  /** The search's move options (`moveOptions`), and its tactics (null: no restriction). */
  readonly moves: ChildMoveOptions;
  readonly tactics: Tactics | null;
}

/** What `scoreChild` returns for a child that a bound proves lost, and for one that wins: outside `score`'s range. */
export const CHILD_CUT = -SCORE_MAX - 1;
export const CHILD_WON = SCORE_MAX + 1;

/** The heuristic of a best-first or beam search: `o.heuristic` as a function, or the built-in one it names (`blend` for an unknown name). */
export function heuristicOf(o: SolveOptions): Heuristic {
  return typeof o.heuristic === 'function' ? o.heuristic : HEURISTICS[o.heuristic] ?? HEURISTICS.blend!;
}

/** A best-first or beam search's result: its verdict, and its figures on `tree`. */
export function treeResult(
  tree: SearchTree, verdict: Verdict, nodes: number, bestHome: number, limit?: 'nodes' | 'time' | 'memory', moves: PackedMove[] | null = null,
): SearchResult {
  return { verdict, limit, nodes, states: tree.size, bytesPerState: tree.bytesPerState(), bestHome, moves };
}

/**
 * A heuristic's value as the queue needs it: a whole number in [-2^20, 2^20] (the queue key is
 * score * 2^27 + state id, which must stay an exact double). A fractional score is floored and a
 * larger one clamped, so no heuristic can corrupt a state id; NaN counts as the lowest score.
 */
export function score(value: number): number {
  const v = Math.floor(value);
  return v >= SCORE_MAX ? SCORE_MAX : v >= -SCORE_MAX ? v : -SCORE_MAX;
}

/** The tree of a search (emptied) with the root as state 0; null when the memory cap is too small for even that. */
export function rootedTree(ctx: SearchContext, o: SolveOptions): SearchTree | null {
  const packer = ctx.packer;
  const tree = ctx.searchTree(o);
  ctx.lastTable = tree;
  packer.baseSig();
  const root = tree.sig.insert(packer.flagA(packer.sigA, false), packer.flagB(packer.sigB, false));
  return root === FULL || !tree.begin(packer.sigA, packer.sigB) ? null : tree;
}

/** A search with no room for the root (`rootedTree`): unknown, memory, with the figures so far. */
export function noRoomAtRoot(ctx: SearchContext, nodes: number, bestHome: number): SearchResult {
  const t = ctx.lastTable!;
  return { verdict: 'unknown', limit: 'memory', nodes, states: t.size, bytesPerState: t.bytesPerState(), bestHome, moves: null };
}

/** A search exhausted on `tree`'s signatures (`r`): confirmed on exact keys from the root, a big tree let go. */
export function* confirmTree(ctx: SearchContext, r: SearchResult, tree: SearchTree, o: SolveOptions, deadline: number): Generator<void, SearchResult> {
  const g = ctx.g;
  while (g.histLen > 0) g.undo();
  if (tree.bytes() > RELEASE_BYTES) ctx.letGo('tree');
  return yield* confirmOnExactKeys(ctx, r, o, deadline);
}

/**
 * Whether the child of move m may be scored without playing it (`ChildScores.before`, after
 * `parent`): the heuristic has weights, m moves one card (no draw, no redeal), and no bound could
 * cut the child. WasteBound asks only after a draw; PileBound only where `mayChange` says so,
 * which is false for every card move but one from a column home, and that one reads nothing the
 * move changes. A child scored so is the child `boundCuts` would keep.
 */
function scoresBefore(ctx: SearchContext, o: SolveOptions, m: PackedMove): boolean {
  if (!ctx.childScores.direct || (m & 63) >= SRC_DRAW) return false;
  return !(o.pileBound && ctx.bound.mayChange(m));
}

/**
 * A child's score (after `childScores.parent`), the Game on its parent: its heuristic value,
 * CHILD_CUT when a bound proves it lost, or CHILD_WON when it wins (the Game then stands on it).
 * Sets `ctx.childHome` and `childScores.blocked`.
 */
export function scoreChild(ctx: SearchContext, o: SolveOptions, h: Heuristic, m: PackedMove, drew: boolean): number {
  const g = ctx.g;
  const scores = ctx.childScores;
  if (scoresBefore(ctx, o, m)) {
    const v = scores.before(g, h, m);
    ctx.childHome = scores.home;
    if (scores.home !== g.total) return score(v);
    g.apply(m);
    return CHILD_WON;
  }
  g.apply(m);
  ctx.childHome = g.home;
  if (g.isWon()) return CHILD_WON;
  const v = boundCuts(ctx, o, m, drew) ? CHILD_CUT : score(scores.child(g, h, m));
  g.undo();
  return v;
}

/** Whether a sound bound proves the position just reached by `m` lost (PileBound, or WasteBound after a draw). Counts it. */
function boundCuts(ctx: SearchContext, o: SolveOptions, m: PackedMove, drew: boolean): boolean {
  if (o.pileBound && ctx.bound.mayChange(m) && ctx.bound.lost()) {
    ctx.pruned++;
    return true;
  }
  if (drew && o.wasteBound && ctx.wasteBound.lost()) {
    ctx.prunedWaste++;
    return true;
  }
  return false;
}

/** A slice ends (null): where the search stands, kept in `at` and shown as its progress. */
export function pause(ctx: SearchContext, at: TreeAt, nodes: number, bestHome: number): null {
  at.nodes = ctx.progress = nodes;
  at.bestHome = ctx.progressHome = bestHome;
  return null;
}
