import { isRestricted } from '../../game/tactics.js';
import { SRC_DRAW } from '../../game/state.js';
import { type BeamLevels } from '../beam-levels.js';
import { type SearchContext } from '../context.js';
import { CHECK } from '../dfs.js';
import { type Heuristic, blocked } from '../heuristics.js';
import { moveOptions } from '../moves.js';
import { type SolveOptions } from '../options.js';
import { type SearchResult } from '../result.js';
import { type SearchTree } from '../tree.js';
import { CHILD_CUT, CHILD_WON, type TreeAt, confirmTree, heuristicOf, noRoomAtRoot, pause, rootedTree, scoreChild, treeResult } from './tree-search.js';

/**
 * Beam search: the positions level by level (a level: one move further from the root), keeping
 * of each level only the `width` best children by the heuristic, no position twice (signatures
 * on a tree, as best-first search keeps them). An attempt that runs out of positions without a
 * win starts again with twice the width. An attempt that never left a child out has searched
 * every position with sound pruning only: an exhaustion on signatures, confirmed on exact keys,
 * so on small deals it ends in a proof.
 *
 * Why: under `pysol` best-first search sinks its nodes into the many positions near the deal that
 * score alike, and the rollout commits to one line at a time; a beam keeps `width` lines abreast
 * all the way down.
 */
export function* beamSearch(ctx: SearchContext, o: SolveOptions, t0: number): Generator<void, SearchResult> {
  const g = ctx.g;
  const h = heuristicOf(o);
  const levels = ctx.beam();
  const at: TreeAt = { nodes: 0, bestHome: g.home, moves: moveOptions(o), tactics: isRestricted(o.tactics) ? o.tactics : null };
  const deadline = t0 + o.maxSeconds * 1000;
  if (g.isWon()) return { verdict: 'won', nodes: 0, states: 0, bytesPerState: 0, bestHome: g.home, moves: [] };
  for (let width = Math.max(1, Math.floor(o.beamWidth)); ; width *= 2) {
    while (g.histLen > 0) g.undo();
    const tree = rootedTree(ctx, o);
    if (!tree) return noRoomAtRoot(ctx, at.nodes, at.bestHome);
    levels.begin(width, 0, blocked(g), tree.sigA, tree.sigB);
    let r: SearchResult | null | undefined;
    while ((r = beamSlice(ctx, o, h, tree, levels, deadline, at)) === null) yield;
    if (r !== undefined) return r;
    if (levels.truncated) continue;
    // Every position searched, on signatures.
    return yield* confirmTree(ctx, treeResult(tree, 'unsolvable', at.nodes, at.bestHome), tree, o, deadline);
  }
}

/**
 * The beam's loop, from where `levels` and `at` say: the result when the search ends (won, or a
 * limit ran out), null when a slice ends, undefined when the attempt has run out of positions.
 */
function beamSlice(
  ctx: SearchContext, o: SolveOptions, h: Heuristic, tree: SearchTree, levels: BeamLevels, deadline: number, at: TreeAt,
): SearchResult | null | undefined {
  const g = ctx.g;
  const packer = ctx.packer;
  const sig = tree.sig;
  let nodes = at.nodes;
  let bestHome = at.bestHome;
  const moves = ctx.moveBuf;
  const mo = at.moves;
  const sliceEnd = ctx.sliceEnd;
  const scores = ctx.childScores;
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
    const n = ctx.childMoves(moves, 0, tree.justDrew, mo, at.tactics);
    scores.parent(g, h, levels.tags[rank]!);
    for (let i = 0; i < n; i++) {
      const m = moves[i]!;
      const childDrew = (m & 63) === SRC_DRAW;
      packer.childSig(pa, pb, m);
      const ca = packer.sigA;
      const cb = packer.sigB;
      // A child kept already is not looked up here but when the level ends (`BeamLevels.select`):
      // only the best few candidates are ever looked up there, against every child here.
      const v = scoreChild(ctx, o, h, m, childDrew);
      if (ctx.childHome > bestHome) bestHome = ctx.childHome;
      if (v === CHILD_WON) return treeResult(tree, 'won', nodes, bestHome, undefined, g.history());
      if (v !== CHILD_CUT) levels.add(rank, m, packer.flagA(ca, childDrew), packer.flagB(cb, childDrew), ca, cb, v, scores.blocked);
    }
    if ((nodes & CHECK) === 0 && nodes >= sliceEnd) return pause(ctx, at, nodes, bestHome);
  }
}
