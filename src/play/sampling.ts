import { type Card } from '../game/cards.js';
import { type Deal } from '../game/deal.js';
import { type Tactics, NO_RESTRICTION } from '../game/tactics.js';
import { Game, type PackedMove, DST_FOUNDATION, SRC_DRAW, SRC_WASTE } from '../game/state.js';
import { PileBound } from '../solver/bound.js';
import { KeyPacker } from '../solver/key.js';
import { GreedyPlayer } from './greedy.js';
import { LOOK_LOST, LOOK_WON, Lookahead } from '../solver/lookahead.js';
import { type Player } from './player.js';
import { Rng } from './rng.js';
import { type TableView, BLIND_FIFTH, STOP } from './view.js';

export interface SamplingOptions {
  readonly tactics?: Tactics;
  /** Random orders of the unseen cards tried at each decision (default 8). One when nothing is unseen. */
  readonly samples?: number;
  /** Node budget of each search (one candidate move on one sample; default 2,000). */
  readonly nodes?: number;
  /** Budget when nothing is unseen (phase 2, or the stock out): one exact deal (default 4 x nodes). */
  readonly exactNodes?: number;
  /**
   * Play the greedy player's move home without searching: true, 'phase1' (only in the first
   * deal), false (default: search those decisions too). A move home is seldom wrong and is a large
   * share of the decisions, but in the second deal rule 7 makes some wrong: a card home can give
   * a privileged card a move and so shut the fifth card.
   */
  readonly trustHome?: boolean | 'phase1';
  /**
   * Among candidates with the same wins (and the same proven losses): 'greedy' plays the greedy
   * player's move when it is one of them, else the one that got most cards home in its searches;
   * 'progress' always the one that got most cards home (default 'greedy').
   */
  readonly tieBreak?: 'greedy' | 'progress';
  /**
   * Prune second-deal positions that PileBound proves lost (default false: at these budgets it
   * took half the time and changed no result on deals 41-140).
   */
  readonly pileBound?: boolean;
}

/**
 * The sampling player (determinized Monte Carlo with a small exact search, "perfect
 * information Monte Carlo"). At each decision with more than one candidate move:
 *   - it deals `samples` random orders of the unseen cards (the stock's remaining cards: their
 *     multiset is known, all cards less those seen — `TableView.unseen`) with a generator seeded
 *     from the game's seed;
 *   - on each, it plays each candidate and searches the position after it (Lookahead: a
 *     depth-first search with the solver's key, table and sound pruning, `nodes` nodes, under the
 *     player's tactics);
 *   - it plays the candidate that wins most samples; ties: fewer proven losses, then the greedy
 *     player's move (see tieBreak), then most cards home reached in the searches.
 * The same samples are used for every candidate (common random numbers). Candidates are the
 * view's moves allowed by the tactics, with spaces merged (a card into any space is the same move)
 * and a lone card into a space left out (the same position).
 *
 * It keeps its own Game (built from the visible layout, with the turned cards written in as
 * they are seen) and writes its guesses into the unseen part of that game's stock; it never
 * sees the real stock. Needs the pile remembered (PileMemory 'remembered').
 *
 * Measured (full-size book deals, knobs always/eager, greedy winning 23 of 300 on them):
 *   deals 41-140:  2x2000 29, 4x2000 36, 8x2000 40, 16x2000 32, 16x500 36 wins of 100;
 *                  4x2000 with home moves trusted 27, trusted in phase 1 only 33; PileBound on
 *                  changed no result and took twice the time.
 *   deals 141-340: 8x2000 68, 16x500 66, 8x1000 52 wins of 200.
 * So the defaults: 8 samples x 2,000 nodes, home moves searched, no PileBound — about 35 % won,
 * 1-2 s a game on one core; 16 x 500 is nearly as strong at half the time. Differences of a few
 * games in a hundred are within the noise of these sets.
 */
export class SamplingPlayer implements Player {
  readonly name: string;
  readonly tactics: Tactics;
  readonly samples: number;
  readonly nodes: number;
  readonly exactNodes: number;
  readonly trustHome: boolean | 'phase1';
  readonly tieBreak: 'greedy' | 'progress';
  readonly pileBound: boolean;
  private readonly greedy: GreedyPlayer;
  private readonly rng = new Rng(0);
  private readonly look = new Lookahead();
  private sim: Game | null = null;
  private packer: KeyPacker | null = null;
  private bound: PileBound | null = null;
  private synced = 0;
  private readonly unseen = new Int32Array(64);
  private unseenCards = new Uint8Array(128);
  private cand = new Int32Array(512);
  private wins = new Int32Array(512);
  private losses = new Int32Array(512);
  private progress = new Float64Array(512);
  /** Searches run and nodes spent over the player's life (for reports). */
  searches = 0;
  nodesSpent = 0;
  decisions = 0;

  constructor(opts: SamplingOptions = {}) {
    this.tactics = opts.tactics ?? NO_RESTRICTION;
    this.samples = Math.max(1, Math.floor(opts.samples ?? 8));
    this.nodes = Math.max(10, Math.floor(opts.nodes ?? 2000));
    this.exactNodes = Math.max(10, Math.floor(opts.exactNodes ?? this.nodes * 4));
    this.trustHome = opts.trustHome ?? false;
    this.tieBreak = opts.tieBreak ?? 'greedy';
    this.pileBound = opts.pileBound ?? false;
    this.greedy = new GreedyPlayer(this.tactics);
    this.name = `sampling(${this.tactics.pairing},${this.tactics.spaces},${this.samples}x${this.nodes})`;
  }

  reset(seed: number): void {
    this.rng.seed(seed);
    this.greedy.reset(seed);
    this.sim = null;
    this.synced = 0;
  }

  choose(v: TableView): PackedMove {
    if (v.pile !== 'remembered') throw new Error('the sampling player needs the pile remembered');
    const n = v.legalMoves();
    const moves = v.moves;
    // Candidates: allowed by the tactics; spaces merged; no lone card into a space.
    const space = v.firstSpace();
    let k = 0;
    let aces = true;
    for (let i = 0; i < n; i++) {
      const m = moves[i]!;
      if (m === BLIND_FIFTH) continue;
      const src = m & 63;
      const dst = (m >> 6) & 63;
      if (dst !== DST_FOUNDATION && src !== SRC_DRAW && dst < 48 && v.len(dst) === 0) {
        if (dst !== space) continue;
        if (src < SRC_WASTE && v.len(src) === 1) continue;
      }
      if (!v.allows(m, this.tactics)) continue;
      if (!(dst === DST_FOUNDATION && ((m >>> 12) & 15) === 1)) aces = false;
      this.cand[k++] = m;
    }
    if (k === 0) return STOP;
    if (k === 1 || aces) return this.cand[0]!;
    const greedy = this.greedy.choose(v);
    if ((this.trustHome === true || (this.trustHome === 'phase1' && v.phase === 1)) && greedy !== STOP && ((greedy >> 6) & 63) === DST_FOUNDATION) return greedy;
    this.decisions++;
    this.sync(v);
    const g = this.sim!;
    const U = v.phase === 1 ? v.unseen(this.unseen) : 0;
    const samples = U === 0 ? 1 : this.samples;
    const budget = U === 0 ? this.exactNodes : this.nodes;
    if (U > 0) {
      if (U !== g.stockSize - g.stockPtr) throw new Error(`sampling: ${U} unseen cards but ${g.stockSize - g.stockPtr} in the stock`);
      if (this.unseenCards.length < U) this.unseenCards = new Uint8Array(U);
      let u = 0;
      for (let c = 0; c < 64; c++) for (let j = this.unseen[c]!; j > 0; j--) this.unseenCards[u++] = c;
    }
    this.wins.fill(0, 0, k);
    this.losses.fill(0, 0, k);
    this.progress.fill(0, 0, k);
    for (let s = 0; s < samples; s++) {
      if (U > 0) {
        this.rng.shuffle(this.unseenCards, 0, U);
        g.stockCards.set(this.unseenCards.subarray(0, U), g.stockPtr);
        this.bound?.restock();
      }
      for (let i = 0; i < k; i++) {
        const m = this.cand[i]!;
        const draw = (m & 63) === SRC_DRAW;
        g.apply(draw ? m | (g.stockCards[g.stockPtr]! << 12) : m);
        const r = this.look.search(g, this.packer!, this.bound, draw, budget, this.tactics);
        g.undo();
        this.searches++;
        this.nodesSpent += this.look.nodes;
        if (r === LOOK_WON) this.wins[i]!++;
        else if (r === LOOK_LOST) this.losses[i]!++;
        this.progress[i]! += this.look.bestHome;
      }
    }
    // Best: most wins, then fewest proven losses, then (tieBreak) greedy's move, then progress.
    let best = 0;
    for (let i = 1; i < k; i++) if (this.better(i, best)) best = i;
    if (this.tieBreak === 'greedy') {
      for (let i = 0; i < k; i++)
        if (this.cand[i] === greedy && this.wins[i] === this.wins[best] && this.losses[i] === this.losses[best]) return greedy;
    }
    return this.cand[best]!;
  }

  private better(i: number, j: number): boolean {
    if (this.wins[i] !== this.wins[j]) return this.wins[i]! > this.wins[j]!;
    if (this.losses[i] !== this.losses[j]) return this.losses[i]! < this.losses[j]!;
    return this.progress[i]! > this.progress[j]!;
  }

  /** Brings the player's own game up to the view's position (turned cards written in as seen). */
  private sync(v: TableView): void {
    if (!this.sim) {
      const deal: Deal = { size: v.size, columns: v.dealt.map((col) => [...col]), stock: new Array<Card>(v.stockSize).fill(0) };
      this.sim = new Game(deal, v.rules);
      this.packer = new KeyPacker(this.sim);
      this.bound = this.pileBound ? new PileBound(this.sim) : null;
      this.synced = 0;
    }
    const g = this.sim;
    const h = v.history();
    if (h.length < this.synced) throw new Error('sampling: the game went back');
    for (let i = this.synced; i < h.length; i++) {
      const m = h[i]!;
      if ((m & 63) === SRC_DRAW) g.stockCards[g.stockPtr] = m >>> 12;
      g.apply(m);
    }
    if (h.length > this.synced) this.bound?.restock();
    this.synced = h.length;
  }
}
