import { type Deal } from '../game/deal.js';
import { type Rules } from '../game/rules.js';
import { type Tactics } from '../game/tactics.js';
import { Game, type PackedMove, MAX_MOVES } from '../game/state.js';
import { PileBound } from './bound.js';
import { BeamLevels } from './beam-levels.js';
import { type DepthFirst } from './dfs.js';
import { ChildScores } from './heuristics.js';
import { KeyPacker } from './key.js';
import { LockBound } from './lockbound.js';
import { type Lookahead } from './lookahead.js';
import { type ChildMoveOptions, childMoves } from './moves.js';
import { type SolveOptions } from './options.js';
import { SignatureTable } from './sigtable.js';
import { type KeyedTable, type TableStats, TranspositionTable } from './table.js';
import { CollapseTable } from './collapse-table.js';
import { MB, MemoryBudget } from './memory.js';
import { SearchTree } from './tree.js';
import { WasteBound } from './wastebound.js';
import { WasteDominance } from './dominance.js';
import { PileNogoods } from './nogoods.js';

/**
 * States a best-first or beam search's table has room for at first: it grows from there. Sized
 * for the whole budget up front, its zeroed megabytes cost a fresh process more than the search
 * of an easy deal.
 */
const START_STATES = 1 << 16;

/** A table bigger than this is let go after a search rather than kept for the next deal, where another may grow beside it. */
export const RELEASE_BYTES = 32 * 1024 * 1024;

/**
 * Everything one search works on: the position (a Game at the root of the search), its key
 * packer and bounds, move buffers, counters, the slice the search may run to, and the tables,
 * kept from deal to deal so that a batch reuses their arrays. One per Solver; the searches
 * (searches/*.ts) are functions of it.
 *
 * The root is the Game's position with an empty history: the deal, or the position after the
 * moves the solve started from (`reset`). Searches undo back to `histLen` 0, never further.
 */
export class SearchContext {
  g!: Game;
  packer!: KeyPacker;
  bound!: PileBound;
  wasteBound!: WasteBound;
  lockBound!: LockBound;
  /** Waste dominance's refuted positions, made for the position's game when first asked for (its counts: the last search's). */
  dominanceFor: WasteDominance | null = null;
  /** Pile nogoods, made for the position's game when first asked for (its counts: the last search's). */
  nogoodsFor: PileNogoods | null = null;
  /** Positions cut by PileBound, WasteBound, LockBound and waste dominance in the last search. */
  pruned = 0;
  prunedWaste = 0;
  prunedLock = 0;
  prunedDom = 0;
  prunedNog = 0;
  /** Second depth-first searches run on exact keys to confirm an exhaustion on signatures (since this context was made). */
  confirmations = 0;
  /** Wins of the relaxed game of the fifth card that broke rule 7 (`SolveOptions.freeFifth`; since this context was made). */
  relaxedWins = 0;
  /** The last relaxed win that broke rule 7 (its moves from the root), which the real search then tries first. */
  relaxedLine: PackedMove[] | null = null;
  readonly gen = new Int32Array(MAX_MOVES);
  readonly scores = new Int32Array(MAX_MOVES);
  /** The moves from one position (best-first, beam and the rollout). */
  readonly moveBuf = new Int32Array(MAX_MOVES);
  depthFirst: DepthFirst | null = null;
  dfsTable: TranspositionTable | null = null;
  collapse: CollapseTable | null = null;
  sigTable: SignatureTable | null = null;
  rolloutSeen: SignatureTable | null = null;
  look: Lookahead | null = null;
  bestTree: SearchTree | null = null;
  beamLevels: BeamLevels | null = null;
  /** Best-first and beam search's children's scores, and the cards home of the last child scored. */
  readonly childScores = new ChildScores();
  childHome = 0;
  /** The running search yields (at its next check) once it has expanded this many nodes. */
  sliceEnd = Infinity;
  /** Nodes and best home of the running search at its last yield. */
  progress = 0;
  progressHome = 0;
  /** The running search's table. */
  lastTable: TableStats | null = null;
  /** The budget the tables take their memory from (the Solver's; a preset's stages share one). */
  budget = new MemoryBudget(0);

  /**
   * A new position to search: the deal, after the moves `from` (`Game.after`), with tables taken
   * from `budget`. Tables kept from the last search stay for reuse while the budget holds them.
   */
  reset(deal: Deal, rules: Rules, from: readonly PackedMove[], budget: MemoryBudget): void {
    if (budget !== this.budget || budget.used > budget.cap) this.releaseTables();
    this.budget = budget;
    const g = (this.g = Game.after(deal, rules, from));
    this.packer = new KeyPacker(g);
    this.bound = new PileBound(g);
    this.wasteBound = new WasteBound(g);
    this.lockBound = new LockBound(g);
    this.pruned = 0;
    this.prunedWaste = 0;
    this.prunedLock = 0;
    this.prunedDom = 0;
    this.prunedNog = 0;
    this.progress = 0;
    this.progressHome = 0;
    this.lastTable = null;
  }

  /** Pile nogoods for this game, emptied; its counts are the solve's (nogoods.ts). */
  nogoods(): PileNogoods {
    const d = this.nogoodsFor;
    if (d && d.game === this.g) {
      d.forget();
      return d;
    }
    return (this.nogoodsFor = new PileNogoods(this.g, this.packer.words, this.packer.columnsAt));
  }

  /** Waste dominance for this game, emptied (dominance.ts). */
  dominance(): WasteDominance {
    const d = this.dominanceFor;
    if (d && d.game === this.g) {
      d.clear();
      return d;
    }
    return (this.dominanceFor = new WasteDominance(this.g, this.packer.words));
  }

  /** The moves to try from the current position (moves.ts `childMoves`). */
  childMoves(out: Int32Array, at: number, justDrew: boolean, mo: ChildMoveOptions, tactics: Tactics | null): number {
    return childMoves(this.g, this.gen, this.scores, out, at, justDrew, mo, tactics);
  }

  /**
   * The exact table for one depth-first search: the last one, emptied, when it fits, else a new
   * one. A search that stays on exact keys (`exact`; by default when `signaturesAfter` is
   * Infinity: the proofs, and the confirmation of an exhaustion on signatures) gets the compact
   * CollapseTable; one that goes on signatures after a few states, the TranspositionTable.
   */
  table(o: SolveOptions, exact = o.signaturesAfter === Infinity): KeyedTable {
    const packer = this.packer;
    const maxBytes = o.maxMemoryMB * MB;
    const expected = Math.min(o.maxNodes, exact ? Infinity : o.signaturesAfter, 1 << 21);
    if (exact) {
      const c = this.collapse;
      if (c && c.words === packer.words && c.split === packer.columnsAt && c.bits === packer.bits) {
        c.clear();
        return c;
      }
      c?.release();
      return (this.collapse = new CollapseTable(packer.words, packer.columnsAt, packer.bits, this.budget, expected));
    }
    const t = this.dfsTable;
    if (t && t.words === packer.words && t.maxBytes === maxBytes) {
      t.clear();
      return t;
    }
    t?.release();
    return (this.dfsTable = new TranspositionTable(packer.words, maxBytes, expected, this.budget));
  }

  /** The signature table for one depth-first search, reused in the same way. */
  signatureTable(o: SolveOptions): SignatureTable {
    return (this.sigTable = this.emptiedOr(this.sigTable, o.maxMemoryMB, o.signatureBits, Math.min(o.maxNodes, 1 << 30)));
  }

  /** The rollout's table of the positions its attempt has played (capped like the others; the look-aheads' are not). */
  rolloutTable(o: SolveOptions, bits: number): SignatureTable {
    return (this.rolloutSeen = this.emptiedOr(this.rolloutSeen, o.maxMemoryMB, bits, 4096));
  }

  /** The signature table and tree of a best-first or beam search: the last ones, emptied, when they fit. */
  searchTree(o: SolveOptions): SearchTree {
    const maxBytes = o.maxMemoryMB * MB;
    // Two thirds of the cap for the signatures (8 to 12 bytes a state), a third for the tree (5).
    let t = this.bestTree;
    if (!t || t.maxBytes !== maxBytes / 3 || t.sig.bits !== o.signatureBits) {
      t?.release();
      const sig = new SignatureTable((2 * maxBytes) / 3, Math.min(o.maxNodes * 4, START_STATES), o.signatureBits, this.budget);
      t = this.bestTree = new SearchTree(sig, maxBytes / 3, this.budget);
    } else t.sig.clear();
    return t;
  }

  /** Lets a big table go rather than keep it for the next deal (its bytes back to the budget). */
  letGo(t: 'dfs' | 'sig' | 'tree'): void {
    if (t === 'dfs') {
      this.dfsTable?.release();
      this.collapse?.release();
      this.dfsTable = this.collapse = null;
    } else if (t === 'sig') {
      this.sigTable?.release();
      this.sigTable = null;
    } else {
      this.bestTree?.release();
      this.bestTree = null;
    }
  }

  /** Lets every table go (their memory back to the budget): another search needs it. */
  releaseTables(): void {
    this.letGo('dfs');
    this.letGo('sig');
    this.letGo('tree');
    this.rolloutSeen?.release();
    this.rolloutSeen = null;
  }

  /** `t` emptied when it has this memory cap and signature width, else a new table with room for `expected` states. */
  private emptiedOr(t: SignatureTable | null, maxMemoryMB: number, bits: number, expected: number): SignatureTable {
    const maxBytes = maxMemoryMB * MB;
    if (t && t.maxBytes === maxBytes && t.bits === bits) {
      t.clear();
      return t;
    }
    t?.release();
    return new SignatureTable(maxBytes, expected, bits, this.budget);
  }

  beam(): BeamLevels {
    return (this.beamLevels ??= new BeamLevels());
  }
}
