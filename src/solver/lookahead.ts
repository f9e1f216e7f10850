import { type Tactics, isRestricted } from '../game/tactics.js';
import { type Game, MAX_MOVES, type PackedMove, SRC_DRAW } from '../game/state.js';
import { PileBound } from './bound.js';
import { KeyPacker } from './key.js';
import { type ChildMoveOptions, childMoves } from './search.js';
import { FULL, TranspositionTable } from './table.js';

export const LOOK_WON = 1;
export const LOOK_LOST = 0;
export const LOOK_UNKNOWN = -1;

/**
 * A small perfect-information search from a Game's CURRENT position (the Solver in
 * src/solver/search.ts starts from a deal's first position; the sampling player needs to search
 * from the middle of a game, on a game whose unseen stock it has filled with a guess).
 *
 * Depth-first, with the solver's sound reductions and its parts: the packed canonical key
 * (KeyPacker) in a transposition table with full keys (TranspositionTable), first-space-only
 * generation (GEN_REDUCED), the draw discipline (after a draw only a draw, a waste-top move or
 * the redeal; search.ts explains why this is sound), and PileBound in the second deal. The
 * tactics, when given, restrict the moves as in the solver. The move order is the solver's
 * 'layout' order. Returns LOOK_WON, LOOK_LOST (the search was exhausted: proven lost), or
 * LOOK_UNKNOWN (budget spent); `bestHome` is the most cards home in any position reached.
 * The game is left in the position it was given. Nothing is allocated per node; the table is
 * kept between searches.
 */
const LOOKAHEAD_MOVES: ChildMoveOptions = { reducedSpaces: true, drawDiscipline: true, safeMoves: false, order: 'layout' };

export class Lookahead {
  private table: TranspositionTable | null = null;
  private tableFor = 0;
  private key = new Uint32Array(64);
  private gen = new Int32Array(MAX_MOVES);
  private scores = new Int32Array(MAX_MOVES);
  private moveStack = new Int32Array(1 << 15);
  private frameEnd = new Int32Array(1 << 11);
  private frameCursor = new Int32Array(1 << 11);
  private g!: Game;
  private tactics: Tactics | null = null;
  /** The solver's move options, with the tie-break seed of the current search. */
  private moveOptions: ChildMoveOptions = { ...LOOKAHEAD_MOVES, seed: 0 };
  /** Most cards home in the last search. */
  bestHome = 0;
  /** Nodes of the last search. */
  nodes = 0;
  /**
   * After a search that returned LOOK_WON: the moves from the position it was given to the
   * win (allocated only then). Empty otherwise.
   */
  winLine: PackedMove[] = [];

  search(g: Game, packer: KeyPacker, bound: PileBound | null, justDrew: boolean, maxNodes: number, tactics: Tactics | null, seed = 0): number {
    this.g = g;
    if (this.moveOptions.seed !== seed) this.moveOptions = { ...LOOKAHEAD_MOVES, seed };
    this.tactics = tactics && isRestricted(tactics) ? tactics : null;
    const W = packer.words;
    if (this.key.length < W) this.key = new Uint32Array(W);
    const key = this.key;
    let tt = this.table;
    if (!tt || tt.words !== W || this.tableFor < maxNodes) {
      tt = this.table = new TranspositionTable(W, 1 << 30, false, Math.max(1024, maxNodes * 2));
      this.tableFor = maxNodes;
    } else tt.clear();
    this.bestHome = g.home;
    this.nodes = 0;
    this.winLine = [];
    if (g.home === g.total) return LOOK_WON;
    const base = g.histLen;
    // The bound is asked below only where a move can change its answer (PileBound.mayChange),
    // which assumes it was asked here.
    const usePrune = bound !== null && bound.enabled;
    if (usePrune && bound.lost()) {
      this.nodes = 1;
      return LOOK_LOST;
    }
    packer.pack(key, 0, justDrew);
    tt.insert(key, 0);
    let nodes = 1;
    let d = 0;
    this.frameCursor[0] = 0;
    this.frameEnd[0] = this.childMoves(0, justDrew);
    let verdict = LOOK_LOST;
    while (d >= 0) {
      const cur = this.frameCursor[d]!;
      if (cur < this.frameEnd[d]!) {
        this.frameCursor[d] = cur + 1;
        const m = this.moveStack[cur]!;
        g.apply(m);
        if (g.home > this.bestHome) {
          this.bestHome = g.home;
          if (g.home === g.total) {
            verdict = LOOK_WON;
            this.winLine = g.history().slice(base >> 1); // two history words a move
            break;
          }
        }
        const drew = (m & 63) === SRC_DRAW;
        packer.pack(key, 0, drew);
        const id = tt.insert(key, 0);
        if (id < 0) {
          g.undo();
          if (id === FULL) {
            verdict = LOOK_UNKNOWN;
            break;
          }
          continue;
        }
        nodes++;
        if (nodes >= maxNodes) {
          verdict = LOOK_UNKNOWN;
          break;
        }
        if (usePrune && bound!.mayChange(m) && bound!.lost()) {
          g.undo();
          continue;
        }
        const at = this.frameEnd[d]!;
        this.ensure(d, at);
        d++;
        this.frameCursor[d] = at;
        this.frameEnd[d] = at + this.childMoves(at, drew);
      } else {
        d--;
        if (d >= 0) g.undo();
      }
    }
    while (g.histLen > base) g.undo();
    this.nodes = nodes;
    return verdict;
  }

  private ensure(d: number, at: number): void {
    if (d + 2 >= this.frameEnd.length) {
      const a = new Int32Array(this.frameEnd.length * 2);
      a.set(this.frameEnd);
      this.frameEnd = a;
      const b = new Int32Array(this.frameCursor.length * 2);
      b.set(this.frameCursor);
      this.frameCursor = b;
    }
    if (at + MAX_MOVES > this.moveStack.length) {
      const s = new Int32Array(this.moveStack.length * 2);
      s.set(this.moveStack);
      this.moveStack = s;
    }
  }

  /** The solver's child moves and order ('layout'), without its safe-move shortcut. */
  private childMoves(at: number, justDrew: boolean): number {
    return childMoves(this.g, this.gen, this.scores, this.moveStack, at, justDrew, this.moveOptions, this.tactics);
  }
}
