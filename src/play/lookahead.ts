import { type Tactics, allowedByTactics, isRestricted } from '../game/tactics.js';
import { type Game, DST_FOUNDATION, GEN_REDUCED, MAX_MOVES, SRC_DRAW, SRC_REDEAL, SRC_WASTE } from '../game/state.js';
import { PileBound } from '../solver/bound.js';
import { KeyPacker } from '../solver/key.js';
import { FULL, TranspositionTable } from '../solver/table.js';

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
  /** Most cards home in the last search. */
  bestHome = 0;
  /** Nodes of the last search. */
  nodes = 0;

  search(g: Game, packer: KeyPacker, bound: PileBound | null, justDrew: boolean, maxNodes: number, tactics: Tactics | null): number {
    this.g = g;
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
    if (g.home === g.total) return LOOK_WON;
    const base = g.histLen;
    packer.pack(key, 0, justDrew);
    tt.insert(key, 0);
    let nodes = 1;
    let d = 0;
    this.frameCursor[0] = 0;
    this.frameEnd[0] = this.childMoves(0, justDrew);
    let verdict = LOOK_LOST;
    const usePrune = bound !== null && bound.enabled;
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
        if (usePrune && bound!.lost()) {
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
    const g = this.g;
    const gen = this.gen;
    const out = this.moveStack;
    const scores = this.scores;
    const n = g.generate(gen, GEN_REDUCED);
    const restrict = justDrew && g.phase === 1;
    const tactics = this.tactics;
    let k = 0;
    for (let i = 0; i < n; i++) {
      const m = gen[i]!;
      const src = m & 63;
      if (restrict && src !== SRC_WASTE && src !== SRC_DRAW && src !== SRC_REDEAL) continue;
      if (tactics && !allowedByTactics(g, m, tactics)) continue;
      const dst = (m >> 6) & 63;
      let s: number;
      if (dst === DST_FOUNDATION) s = 100;
      else if (src === SRC_DRAW) s = 20;
      else if (src === SRC_REDEAL) s = 1;
      else if (src < SRC_WASTE) s = g.len[dst] === 0 ? 5 : g.orig[src] === g.len[src] ? 60 : 30;
      else s = g.len[dst] === 0 ? 10 : 40;
      let j = k++;
      while (j > 0 && scores[j - 1]! < s) {
        scores[j] = scores[j - 1]!;
        out[at + j] = out[at + j - 1]!;
        j--;
      }
      scores[j] = s;
      out[at + j] = m;
    }
    return k;
  }
}
