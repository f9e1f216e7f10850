import { type Tactics, NO_RESTRICTION } from '../game/tactics.js';
import { type Game, DST_FOUNDATION, MAX_MOVES, SRC_DRAW } from '../game/state.js';
import { type PileBound } from './bound.js';
import { type KeyPacker } from './key.js';
import { LOCK_LOST, type LockBound } from './lockbound.js';
import { type ChildMoveOptions, childMoves } from './moves.js';
import { SignatureTable } from './sigtable.js';
import { lookValue } from './heuristics.js';
import { type ExactTable, FULL } from './table.js';
import { type WasteBound } from './wastebound.js';
import { NOT_READ, type WasteDominance } from './dominance.js';
import { type PileNogoods, READ_ALL, readCards } from './nogoods.js';
import { grown } from './groups.js';

/** How `DepthFirst.run` ended. */
export const DFS_LOST = 0;
export const DFS_WON = 1;
export const DFS_NODES = 2;
export const DFS_TIME = 3;
export const DFS_MEMORY = 4;
/** Not ended: the slice is over; `run` goes on from here. */
export const DFS_SLICE = 5;
/** Not ended: the table holds `tableLimit` states; the caller may `swapTable` and `run` on. */
export const DFS_TABLE = 6;

/** The clock and the slice end are looked at every 1024 nodes (when nodes & CHECK is 0); best-first search too. */
export const CHECK = 1023;

/**
 * Depth-first search with make/undo on one Game and an explicit stack (no recursion), from the
 * Game's current position: the solver's `dfs` search (from a deal) and the look-ahead of the
 * rollout and of the sampling player (from the middle of a game) are this one loop.
 *
 * Every position reached is packed (KeyPacker) and looked up in the exact transposition table,
 * or, with a signature table (sigtable.ts), given a signature made from its parent's and looked
 * up there; one already there is not searched again. A position that PileBound proves lost is
 * not expanded (asked only after moves that can change its answer: `PileBound.mayChange`, which
 * assumes the caller asked it at the root), nor, right after a draw, one that WasteBound proves
 * lost, nor (when `lock` is set) one that LockBound proves lost. The moves tried are `childMoves` with
 * the given options and tactics. Nothing is allocated per node.
 *
 * Nodes: the root counts as one, and each new position as one more when it is expanded; `run`
 * never counts more than `maxNodes`.
 */
export class DepthFirst {
  /** Nodes expanded so far, the root included. */
  nodes = 0;
  /** Most cards home in any position reached. */
  bestHome = 0;
  /**
   * Weight of a card waiting (heuristics.ts `waiting`) against a card home in `bestValue`; 0
   * (the default) and a `spaceWeight` of 0 make `bestValue` `bestHome`. Set before `begin`.
   */
  waitWeight = 0;
  /** Weight of an empty column in `bestValue` (heuristics.ts `lookValue`). Set before `begin`. */
  spaceWeight = 0;
  /**
   * The most of `lookValue` (`home - waitWeight * waiting + spaceWeight * spaces`) over the
   * positions reached (with both weights 0, kept as `bestHome`, at no cost per node): the
   * rollout's measure of a candidate (see `SolveOptions.rolloutWaiting`, `rolloutSpaces`).
   */
  bestValue = 0;
  /** Positions cut by PileBound, by WasteBound, and by LockBound. */
  pruned = 0;
  prunedWaste = 0;
  prunedLock = 0;
  /**
   * Ask LockBound at every position expanded (set before `begin`; null: never). The solver's
   * `lockBoundEvery`; see there.
   */
  lock: LockBound | null = null;
  /**
   * Waste dominance (dominance.ts; exact keys only, set before `begin`; null: none): refuted
   * positions not reached by a draw are recorded, and a position one of them dominates is cut.
   */
  dominance: WasteDominance | null = null;
  /** Positions cut by waste dominance. */
  prunedDom = 0;
  /**
   * Pile nogoods (nogoods.ts; exact keys only, set before `begin`; null: none): second-deal
   * positions refuted without reading their whole pile are recorded, and a position that agrees
   * with one of them as far as it read is cut.
   */
  nogoods: PileNogoods | null = null;
  /** Positions cut by a pile nogood. */
  prunedNog = 0;
  /**
   * A line from the root to try first (set before `begin`; null: none): while the path follows it,
   * its next move is moved to the front of the moves tried. Order only: the search is as complete.
   * (The real game's search after a relaxed win that broke rule 7 tries that line's moves first,
   * so that it looks near the win before anywhere else.)
   */
  guide: readonly number[] | null = null;
  /** With `guide`: 1 for a frame whose path from the root is the guide's first moves. */
  private onGuide = new Uint8Array(1 << 12);
  /**
   * Look up and store the positions right after a draw as well (for tests only: under the draw
   * discipline they are always new, see `run`, and the search is the same either way).
   */
  storeDraws = false;
  /** `run` stops with DFS_TABLE (at a check) once the table holds this many states. */
  tableLimit = Infinity;
  private d = 0;
  /** Where the key holds the justDrew flag (bit stockSize + 2). */
  private flagWord = 0;
  private flagBit = 0;
  private gen = new Int32Array(MAX_MOVES);
  private scores = new Int32Array(MAX_MOVES);
  private moveStack = new Int32Array(1 << 16);
  private frameEnd = new Int32Array(1 << 12);
  private frameCursor = new Int32Array(1 << 12);
  /**
   * With `lock`: for each frame on the path, how many draws in a row from its position need no
   * check of LockBound (`LockBound.keptDraws`: the answer is the frame's own, not lost).
   */
  private lockKeep = new Int32Array(1 << 12);
  /**
   * With `nogoods`: for each frame on the path, the waste index (exclusive) up to which its
   * refutation so far has read the pile: the fifth card of every position expanded, and what each
   * cut and transposition read (nogoods.ts); READ_ALL in the first deal, or once a part of it read
   * everything.
   */
  private readTo = new Int32Array(1 << 12);
  private g!: Game;
  private packer!: KeyPacker;
  /** The table: exact keys (`tt`) or signatures (`sig`), the other null. */
  private tt: ExactTable | null = null;
  private sig: SignatureTable | null = null;
  /**
   * The keys of the positions on the current path: depth d's at d * words. A child's key is
   * made from its parent's by `KeyPacker.child` where it can, which is much cheaper than
   * packing the position (`pack` took a quarter of the search's time). Exact tables only.
   */
  private keys = new Uint32Array(0);
  /**
   * With a signature table, instead of keys: the signatures of the positions on the path
   * (KeyPacker `baseSig`, without the justDrew flag), depth d's two lanes at 2d and 2d + 1.
   */
  private sigs = new Int32Array(0);
  private moves!: ChildMoveOptions;
  private tactics: Tactics | null = null;
  private bound: PileBound | null = null;
  private waste: WasteBound | null = null;

  /**
   * Starts a search from `g`'s current position, which it packs (signs, for a signature table)
   * and stores in `tt` (the caller has checked that the position is not won). `bound` and
   * `waste` are the bounds to prune by, or null.
   */
  begin(
    g: Game, packer: KeyPacker, tt: ExactTable | SignatureTable, justDrew: boolean,
    moves: ChildMoveOptions, tactics: Tactics | null, bound: PileBound | null, waste: WasteBound | null,
  ): void {
    this.g = g;
    this.packer = packer;
    this.flagWord = (g.stockSize + 2) >>> 5;
    this.flagBit = 1 << ((g.stockSize + 2) & 31);
    this.setTable(tt);
    if (this.keys.length < this.frameEnd.length * packer.words) this.keys = new Uint32Array(this.frameEnd.length * packer.words);
    if (this.sigs.length < this.frameEnd.length * 2) this.sigs = new Int32Array(this.frameEnd.length * 2);
    this.moves = moves;
    this.tactics = tactics;
    this.bound = bound;
    this.waste = waste;
    this.nodes = 1;
    this.bestHome = g.home;
    this.bestValue = lookValue(g, this.waitWeight, this.spaceWeight);
    this.pruned = 0;
    this.prunedWaste = 0;
    this.prunedLock = 0;
    this.prunedDom = 0;
    this.prunedNog = 0;
    this.d = 0;
    this.readTo[0] = pileRead(g);
    if (this.sig) {
      packer.baseSig();
      this.sigs[0] = packer.sigA;
      this.sigs[1] = packer.sigB;
      this.sig.insert(packer.flagA(packer.sigA, justDrew), packer.flagB(packer.sigB, justDrew));
    } else {
      packer.pack(this.keys, 0, justDrew);
      this.tt!.insert(this.keys, 0);
    }
    this.frameCursor[0] = 0;
    this.lockKeep[0] = 0;
    this.frameEnd[0] = childMoves(g, this.gen, this.scores, this.moveStack, 0, justDrew, moves, tactics);
    this.onGuide[0] = this.guide !== null ? 1 : 0;
    if (this.guide !== null && this.guide.length > 0) this.tryFirst(0, this.frameEnd[0]!, this.guide[0]!);
  }

  /** Moves `m`, if it is among moveStack[from..to), to the front of them (the others keep their order). */
  private tryFirst(from: number, to: number, m: number): void {
    const ms = this.moveStack;
    for (let j = from; j < to; j++) {
      if (ms[j] !== m) continue;
      for (let i = j; i > from; i--) ms[i] = ms[i - 1]!;
      ms[from] = m;
      return;
    }
  }

  /**
   * Runs the search on until it ends (DFS_WON with the game in the won position, DFS_LOST when
   * it is exhausted with the game back at its root, or DFS_NODES / DFS_TIME / DFS_MEMORY when
   * a budget ran out, the game left where the search stood) or, at a check once `sliceEnd`
   * nodes are reached, DFS_SLICE (call again to go on exactly where it stopped).
   */
  run(maxNodes: number, deadline: number, sliceEnd: number): number {
    const g = this.g;
    const packer = this.packer;
    const tt = this.tt;
    const sig = this.sig;
    const W = packer.words;
    let keys = this.keys;
    let sigs = this.sigs;
    const bound = this.bound;
    const usePrune = bound !== null && bound.enabled;
    const wb = this.waste;
    const useWaste = wb !== null && wb.enabled;
    const skipDraws = this.moves.drawDiscipline && !this.storeDraws;
    const lock = this.lock;
    const dom = sig === null ? this.dominance : null;
    const nog = sig === null ? this.nogoods : null;
    const guide = this.guide;
    let readTo = this.readTo;
    // childMoves takes null for no restriction; LockBound takes the restriction itself.
    const lockTactics = this.tactics ?? NO_RESTRICTION;
    let nodes = this.nodes;
    let bestHome = this.bestHome;
    const waitWeight = this.waitWeight;
    const spaceWeight = this.spaceWeight;
    const weighed = waitWeight !== 0 || spaceWeight !== 0;
    let bestValue = this.bestValue;
    let d = this.d;
    let code = DFS_LOST;
    while (d >= 0) {
      const cur = this.frameCursor[d]!;
      if (cur < this.frameEnd[d]!) {
        this.frameCursor[d] = cur + 1;
        const m = this.moveStack[cur]!;
        const at = (d + 1) * W;
        const drew = (m & 63) === SRC_DRAW;
        let made = true;
        // With a signature table: the child's signature with its flag, to look up.
        let sa = 0;
        let sb = 0;
        if (sig !== null) {
          // A signature is made for every move, from the parent's.
          packer.childSig(sigs[2 * d]!, sigs[2 * d + 1]!, m);
          sigs[2 * d + 2] = packer.sigA;
          sigs[2 * d + 3] = packer.sigB;
          sa = packer.flagA(packer.sigA, drew);
          sb = packer.flagB(packer.sigB, drew);
        } else made = packer.child(keys, d * W, keys, at, m);
        let id: number;
        if (drew && skipDraws) {
          // Under the draw discipline a position right after a draw is new: it is reached only
          // by that draw from one position, searched once. (Undoing the draw gives the stock
          // pointer and the waste of that position, and they fix its flag too: had it also come
          // just after a draw, of the card now under the top, nothing but another draw, which
          // moves the stock pointer, or a move of that card, which takes it off for good, could
          // have followed that draw. A search from a position never comes back to it, since the
          // stock pointer never goes back.) So it is neither looked up nor stored: the same
          // search, one lookup fewer a first-deal node.
          g.apply(m);
          if (!made) packer.pack(keys, at, true);
          id = 0;
        } else if (made && g.home + (((m >> 6) & 63) === DST_FOUNDATION ? 1 : 0) <= bestHome) {
          // The child's key is known before the move is made, and the child can neither raise
          // bestHome nor be won: look it up first and make the move only for a new position.
          // Most children are positions already stored (3 a node on book deal 1), and these
          // now cost no apply and undo. The same lookups in the same order as making the move
          // first, so the same nodes, states and solutions.
          id = sig !== null ? sig.insert(sa, sb) : tt!.insert(keys, at);
          if (id < 0 && id !== FULL) {
            // Only with nogoods: without them nothing reads readTo, and the apply would be wasted.
            if (nog !== null && readTo[d]! < READ_ALL) {
              g.apply(m);
              this.readRefuted(nog, keys, at, d);
              g.undo();
            }
            continue;
          }
          g.apply(m);
        } else {
          g.apply(m);
          if (g.home > bestHome) {
            bestHome = g.home;
            if (g.isWon()) {
              code = DFS_WON;
              break;
            }
          }
          if (!made) packer.pack(keys, at, drew);
          id = sig !== null ? sig.insert(sa, sb) : tt!.insert(keys, at);
          if (id < 0 && id !== FULL) {
            if (nog !== null && readTo[d]! < READ_ALL) this.readRefuted(nog, keys, at, d);
            g.undo();
            continue;
          }
        }
        if (id === FULL) {
          code = DFS_MEMORY;
          break;
        }
        if (weighed) {
          const v = lookValue(g, waitWeight, spaceWeight);
          if (v > bestValue) bestValue = v;
        }
        if (nodes >= maxNodes) {
          code = DFS_NODES;
          break;
        }
        nodes++;
        if ((nodes & CHECK) === 0 && performance.now() > deadline) {
          code = DFS_TIME;
          break;
        }
        if (usePrune && bound.mayChange(m) && bound.lost()) {
          this.pruned++;
          if (bound.readTo > readTo[d]!) readTo[d] = bound.readTo;
          g.undo();
          continue;
        }
        if (useWaste && drew && wb.lost()) {
          this.prunedWaste++;
          readTo[d] = READ_ALL;
          g.undo();
          continue;
        }
        let keep = 0;
        if (lock !== null) {
          if (drew && this.lockKeep[d]! > 0) keep = this.lockKeep[d]! - 1;
          else if (lock.check(lockTactics) === LOCK_LOST) {
            this.prunedLock++;
            const r = g.phase === 2 ? lock.readTo : READ_ALL;
            if (r > readTo[d]!) readTo[d] = r;
            g.undo();
            continue;
          } else keep = lock.keptDraws;
        }
        if (nog !== null && g.phase === 2 && nog.match(keys, at)) {
          this.prunedNog++;
          const r = g.pileNext + nog.k;
          if (r > readTo[d]!) readTo[d] = r;
          g.undo();
          continue;
        }
        if (dom !== null && !drew && dom.dominated(keys, at)) {
          this.prunedDom++;
          const r = nog !== null && g.phase === 2 ? dom.readOf() : READ_ALL;
          if (r > readTo[d]!) readTo[d] = r;
          g.undo();
          continue;
        }
        const top = this.frameEnd[d]!;
        if (this.ensure(d, top)) {
          keys = this.keys;
          sigs = this.sigs;
          readTo = this.readTo;
        }
        d++;
        this.lockKeep[d] = keep;
        readTo[d] = pileRead(g);
        this.frameCursor[d] = top;
        this.frameEnd[d] = top + childMoves(g, this.gen, this.scores, this.moveStack, top, drew, this.moves, this.tactics);
        if (guide !== null) {
          const on = this.onGuide[d - 1] === 1 && m === guide[d - 1];
          this.onGuide[d] = on ? 1 : 0;
          if (on && d < guide.length) this.tryFirst(top, this.frameEnd[d]!, guide[d]!);
        }
        if ((nodes & CHECK) === 0) {
          // The table's limit first: were the slice's end checked first, a slice ending at this
          // check would skip it, and the search would go on on exact keys to the next check or
          // further, another search than in one go (the caller ends the slice after the swap).
          if ((sig ?? tt!).size >= this.tableLimit) {
            code = DFS_TABLE;
            break;
          }
          // A slice ends here, between two iterations of the loop, so that it goes on exactly.
          if (nodes >= sliceEnd) {
            code = DFS_SLICE;
            break;
          }
        }
      } else {
        // Exhausted: the position is lost. Recorded for waste dominance unless reached by a draw
        // (then only the moves the draw discipline allows were tried).
        if (dom !== null && (keys[d * W + this.flagWord]! & this.flagBit) === 0) dom.add(keys, d * W, nog !== null ? readCount(g, readTo[d]!) : NOT_READ);
        if (nog !== null && g.phase === 2) {
          nog.add(keys, d * W, readTo[d]!);
          if (d > 0 && readTo[d]! > readTo[d - 1]!) readTo[d - 1] = readTo[d]!;
        }
        d--;
        if (d >= 0) g.undo();
      }
    }
    this.nodes = nodes;
    this.bestHome = bestHome;
    this.bestValue = weighed ? bestValue : bestHome;
    this.d = d;
    return code;
  }

  /**
   * A position already refuted (a transposition: the game stands there, its key at keys[at..])
   * takes part in frame d's refutation: what its refutation read is a nogood's that it matches,
   * or all of it.
   */
  private readRefuted(nog: PileNogoods, keys: Uint32Array, at: number, d: number): void {
    const r = this.g.phase === 2 && nog.match(keys, at, false) ? this.g.pileNext + nog.k : READ_ALL;
    if (r > this.readTo[d]!) this.readTo[d] = r;
  }

  /**
   * Goes on with another table, which the caller has filled with every position of the old one
   * (a run stopped by DFS_TABLE): the search is the same. From exact keys to signatures, the
   * path's signatures are made from its keys.
   */
  swapTable(tt: ExactTable | SignatureTable): void {
    const wasExact = this.sig === null;
    this.setTable(tt);
    if (this.sig !== null && wasExact) {
      const W = this.packer.words;
      for (let i = 0; i <= this.d; i++) {
        this.packer.keySig(this.keys, i * W, false);
        this.sigs[2 * i] = this.packer.sigA;
        this.sigs[2 * i + 1] = this.packer.sigB;
      }
    }
  }

  private setTable(tt: ExactTable | SignatureTable): void {
    if (tt instanceof SignatureTable) {
      this.sig = tt;
      this.tt = null;
    } else {
      this.tt = tt;
      this.sig = null;
    }
  }

  /**
   * Room for one more frame at depth d + 1, its moves from `top`, and its children's keys.
   * Returns true when an array the loop holds in a local (the keys, the signatures, `readTo`)
   * moved to a bigger one.
   */
  private ensure(d: number, top: number): boolean {
    let moved = false;
    if (d + 3 >= this.frameEnd.length) {
      this.frameEnd = grown(this.frameEnd);
      this.frameCursor = grown(this.frameCursor);
      this.lockKeep = grown(this.lockKeep);
      this.readTo = grown(this.readTo);
      this.onGuide = grown(this.onGuide);
      moved = true;
    }
    if (top + MAX_MOVES > this.moveStack.length) this.moveStack = grown(this.moveStack);
    if ((d + 3) * this.packer.words > this.keys.length) {
      const bigger = new Uint32Array(this.keys.length * 2);
      bigger.set(this.keys);
      this.keys = bigger;
      moved = true;
    }
    if ((d + 3) * 2 > this.sigs.length) {
      const bigger = new Int32Array(this.sigs.length * 2);
      bigger.set(this.sigs);
      this.sigs = bigger;
      moved = true;
    }
    return moved;
  }
}

/**
 * How many cards of its row and pile, in order, a second-deal position's refutation that read the
 * pile up to waste index `readTo` read (dominance.ts keeps it with the refuted set); NOT_READ in
 * the first deal or when it read everything.
 */
function readCount(g: Game, readTo: number): number {
  return g.phase !== 2 || readTo >= READ_ALL ? NOT_READ : readCards(g, readTo);
}

/**
 * What a position's own moves read of the pile (its fifth card: waste index pileNext, exclusive
 * end pileNext + 1); READ_ALL in the first deal, where nothing is learned.
 */
function pileRead(g: Game): number {
  return g.phase === 2 ? Math.min(g.pileNext + 1, g.wasteLen) : READ_ALL;
}
