import { type Tactics, isRestricted } from '../game/tactics.js';
import { type Game, type PackedMove } from '../game/state.js';
import { type PileBound } from './bound.js';
import { DFS_LOST, DFS_WON, DepthFirst } from './dfs.js';
import { lookValue } from './heuristics.js';
import { type KeyPacker } from './key.js';
import { type ChildMoveOptions, moveOptions } from './moves.js';
import { SignatureTable } from './sigtable.js';

export const LOOK_WON = 1;
export const LOOK_LOST = 0;
export const LOOK_UNKNOWN = -1;

/**
 * A small perfect-information search from a Game's CURRENT position (the Solver in
 * src/solver/solver.ts starts from a deal's first position; the sampling player needs to search
 * from the middle of a game, on a game whose unseen stock it has filled with a guess).
 *
 * The solver's depth-first search (DepthFirst, src/solver/dfs.ts) with its sound reductions:
 * a table of 48-bit signatures of the canonical key (sigtable.ts: two positions with
 * one signature, at odds of about n^2 / 2^49, make it skip the second, so LOOK_LOST is as sure
 * as those odds; it only steers the choice of moves and is never a verdict), first-space-only
 * generation (GEN_REDUCED), the draw discipline (after a draw only a draw, a waste-top move or
 * the redeal; moves.ts explains why this is sound), and PileBound in the second deal: at the
 * position given, and (unless `pruneInside` is false, as the rollout asks) after every move that
 * can change its answer. The tactics, when given, restrict the moves as in the solver. The move
 * order is the solver's 'layout' order. Returns LOOK_WON, LOOK_LOST (the search was exhausted:
 * proven lost), or LOOK_UNKNOWN (budget spent); `bestHome` is the most cards home in any
 * position reached.
 * The game is left in the position it was given. Nothing is allocated per node (but the
 * winning line, once); the table is kept between searches.
 */
/** The winLine of a search that did not win (shared: a search allocates nothing unless it wins). */
const NO_LINE: readonly PackedMove[] = Object.freeze([]);

const LOOKAHEAD_MOVES: ChildMoveOptions = { reducedSpaces: true, drawDiscipline: true, safeMoves: false, order: 'layout' };

export class Lookahead {
  private table: SignatureTable | null = null;
  private tableFor = 0;
  private dfs = new DepthFirst();
  /** The solver's move options, with the tie-break seed of the current search. */
  private moveOptions: ChildMoveOptions = moveOptions(LOOKAHEAD_MOVES);
  /** Most cards home in the last search. */
  bestHome = 0;
  /** The weight of a waiting card in `bestValue` (DepthFirst `waitWeight`). */
  waitWeight = 0;
  /** The weight of an empty column in `bestValue` (DepthFirst `spaceWeight`). */
  spaceWeight = 0;
  /** The most of `lookValue` in the last search (DepthFirst `bestValue`; `bestHome` with both weights 0). */
  bestValue = 0;
  /** Nodes of the last search (never more than it was given). */
  nodes = 0;
  /**
   * After a search that returned LOOK_WON: the moves from the position it was given to the
   * win (allocated only then). Empty otherwise.
   */
  winLine: readonly PackedMove[] = NO_LINE;

  search(
    g: Game, packer: KeyPacker, bound: PileBound | null, justDrew: boolean, maxNodes: number, tactics: Tactics | null,
    seed = 0, pruneInside = true,
  ): number {
    if (this.moveOptions.seed !== seed) this.moveOptions = moveOptions({ ...LOOKAHEAD_MOVES, seed });
    let tt = this.table;
    if (!tt || this.tableFor < maxNodes) {
      tt = this.table = new SignatureTable(1 << 30, Math.max(1024, maxNodes * 2));
      this.tableFor = maxNodes;
    } else tt.clear();
    this.bestHome = g.home;
    this.bestValue = lookValue(g, this.waitWeight, this.spaceWeight);
    this.nodes = 0;
    this.winLine = NO_LINE;
    if (g.home === g.total) return LOOK_WON;
    // The search asks the bound only where a move can change its answer
    // (PileBound.mayChange), which assumes it was asked here.
    const usePrune = bound !== null && bound.enabled;
    if (usePrune && bound.lost()) {
      this.nodes = 1;
      return LOOK_LOST;
    }
    const base = g.histLen;
    const dfs = this.dfs;
    dfs.waitWeight = this.waitWeight;
    dfs.spaceWeight = this.spaceWeight;
    dfs.begin(g, packer, tt, justDrew, this.moveOptions, tactics && isRestricted(tactics) ? tactics : null, usePrune && pruneInside ? bound : null, null);
    const code = dfs.run(maxNodes, Infinity, Infinity);
    if (code === DFS_WON) this.winLine = g.history().slice(base >> 1); // two history words a move
    while (g.histLen > base) g.undo();
    this.nodes = dfs.nodes;
    this.bestHome = dfs.bestHome;
    this.bestValue = dfs.bestValue;
    return code === DFS_WON ? LOOK_WON : code === DFS_LOST ? LOOK_LOST : LOOK_UNKNOWN;
  }
}
