import FastPriorityQueue from 'fastpriorityqueue';
import { isRestricted } from '../../game/tactics.js';
import { SRC_DRAW } from '../../game/state.js';
import { type SearchContext } from '../context.js';
import { CHECK } from '../dfs.js';
import { type Heuristic } from '../heuristics.js';
import { moveOptions } from '../moves.js';
import { type SolveOptions } from '../options.js';
import { type SearchResult } from '../result.js';
import { FULL } from '../table.js';
import { type SearchTree, TREE_MAX_STATES } from '../tree.js';
import { CHILD_CUT, CHILD_WON, type TreeAt, confirmTree, heuristicOf, noRoomAtRoot, pause, rootedTree, score, scoreChild, treeResult } from './tree-search.js';

/** Queue keys: score * SCALE + state id (ids below the tree's TREE_MAX_STATES). */
const SCALE = TREE_MAX_STATES;

/**
 * Best-first search by a heuristic, newest first among equal scores. The states are stored as
 * signatures with a tree of parents and moves: a state taken from the queue is reached by
 * walking the Game there along the tree. An exhaustion proves nothing on signatures, so it is
 * confirmed on exact keys.
 */
export function* bestFirstSearch(ctx: SearchContext, o: SolveOptions, t0: number): Generator<void, SearchResult> {
  const g = ctx.g;
  const h = heuristicOf(o);
  if (g.isWon()) return { verdict: 'won', nodes: 0, states: 0, bytesPerState: 0, bestHome: g.home, moves: [] };
  const tree = rootedTree(ctx, o);
  if (!tree) return noRoomAtRoot(ctx, 0, g.home);
  const queue = new FastPriorityQueue<number>((a, b) => a > b);
  queue.add(score(h(g)) * SCALE);
  const at: TreeAt = { nodes: 0, bestHome: g.home, moves: moveOptions(o), tactics: isRestricted(o.tactics) ? o.tactics : null };
  const deadline = t0 + o.maxSeconds * 1000;
  for (;;) {
    const r = bestSlice(ctx, o, h, tree, queue, deadline, at);
    if (r === null) {
      yield;
      continue;
    }
    if (r.verdict !== 'unsolvable') return r;
    return yield* confirmTree(ctx, r, tree, o, deadline);
  }
}

/**
 * The best-first loop, from where `at` says, until the search ends (its result) or a slice ends
 * (null). A plain function, not the generator itself: V8 runs a hot loop inside a generator a
 * third slower.
 */
function bestSlice(
  ctx: SearchContext, o: SolveOptions, h: Heuristic, tree: SearchTree, queue: FastPriorityQueue<number>, deadline: number, at: TreeAt,
): SearchResult | null {
  const g = ctx.g;
  const packer = ctx.packer;
  const sig = tree.sig;
  let nodes = at.nodes;
  let bestHome = at.bestHome;
  const moves = ctx.moveBuf;
  const mo = at.moves;
  const sliceEnd = ctx.sliceEnd;
  const scores = ctx.childScores;
  while (!queue.isEmpty()) {
    const top = queue.poll()!;
    const id = top - Math.floor(top / SCALE) * SCALE;
    if (nodes >= o.maxNodes) return treeResult(tree, 'unknown', nodes, bestHome, 'nodes');
    nodes++;
    if ((nodes & CHECK) === 0 && performance.now() > deadline) return treeResult(tree, 'unknown', nodes, bestHome, 'time');
    tree.walkTo(g, packer, id);
    const pa = tree.sigA;
    const pb = tree.sigB;
    const n = ctx.childMoves(moves, 0, tree.justDrew, mo, at.tactics);
    scores.parent(g, h, -1);
    for (let i = 0; i < n; i++) {
      const m = moves[i]!;
      const childDrew = (m & 63) === SRC_DRAW;
      packer.childSig(pa, pb, m);
      const cid = sig.insert(packer.flagA(packer.sigA, childDrew), packer.flagB(packer.sigB, childDrew));
      if (cid === FULL) return treeResult(tree, 'unknown', nodes, bestHome, 'memory');
      if (cid < 0) continue;
      if (cid >= TREE_MAX_STATES || !tree.set(cid, id, m)) return treeResult(tree, 'unknown', nodes, bestHome, 'memory');
      const v = scoreChild(ctx, o, h, m, childDrew);
      if (ctx.childHome > bestHome) bestHome = ctx.childHome;
      if (v === CHILD_WON) return treeResult(tree, 'won', nodes, bestHome, undefined, g.history());
      if (v !== CHILD_CUT) queue.add(v * SCALE + cid);
    }
    if ((nodes & CHECK) === 0 && nodes >= sliceEnd) return pause(ctx, at, nodes, bestHome);
  }
  return treeResult(tree, 'unsolvable', nodes, bestHome);
}
