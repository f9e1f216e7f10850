import { isRestricted } from '../../game/tactics.js';
import { type PackedMove, SRC_DRAW } from '../../game/state.js';
import { type SearchContext } from '../context.js';
import { LOOK_LOST, LOOK_WON, Lookahead } from '../lookahead.js';
import { moveOptions } from '../moves.js';
import { DEFAULT_OPTIONS, type SolveOptions, type Verdict } from '../options.js';
import { type SearchResult } from '../result.js';
import { FULL } from '../table.js';

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

/**
 * Rollout: play the deal forward one committed move at a time. Each candidate move is judged by
 * a small depth-first look-ahead from the position after it (`Lookahead`): a look-ahead that
 * wins ends the rollout (its line is played out), a candidate proved lost is never taken, and
 * otherwise the candidate whose look-ahead got the most cards home (then the most home now) is.
 * Positions already played in this attempt are not played again; a position with one candidate
 * left plays it without a look-ahead, for one node. A stuck attempt starts again from the root
 * with ties broken another way (attempt k: seed + k); after `rolloutRestarts` attempts the
 * look-ahead budget changes (`rolloutSchedule`). A share of the attempts (`rolloutKeep`) start
 * from a prefix of the best attempt so far, its length drawn by the attempt's seed: a local
 * search around the best line. It proves nothing: won or unknown.
 *
 * Why: many short, different attempts find wins faster than one long search on most deals.
 */
export function* rolloutSearch(ctx: SearchContext, o: SolveOptions, t0: number): Generator<void, SearchResult> {
  const g = ctx.g;
  const packer = ctx.packer;
  const look = (ctx.look ??= new Lookahead());
  // The look-aheads' measure: cards home, or in every other attempt cards home less w a waiting card, plus s a space.
  const waitWeight = Math.max(0, Math.floor(o.rolloutWaiting));
  const spaceWeight = waitWeight === 0 ? 0 : Math.max(0, Math.floor(o.rolloutSpaces));
  const tactics = isRestricted(o.tactics) ? o.tactics : null;
  const bound = o.pileBound ? ctx.bound : null;
  const deadline = t0 + o.maxSeconds * 1000;
  const seen = (ctx.lastTable = ctx.rolloutTable(o, DEFAULT_OPTIONS.signatureBits));
  const moves = ctx.moveBuf;
  const mo = moveOptions(o);
  let nodes = 0;
  let bestHome = g.home;
  const finish = (verdict: Verdict, limit?: 'nodes' | 'time' | 'memory', won: PackedMove[] | null = null): SearchResult => ({
    // (A win's last moves home can come after the look-ahead that found them counted its cards.)
    verdict, limit, nodes, states: seen.size, bytesPerState: seen.bytesPerState(), bestHome: verdict === 'won' ? g.total : bestHome, moves: won,
  });
  if (g.isWon()) return finish('won', undefined, []);
  const restarts = Math.max(1, o.rolloutRestarts);
  const locks = o.rolloutLockBound && ctx.lockBound.enabled;
  let bestLine: PackedMove[] = [];
  let bestLineHome = -1;
  // The signature of the position played (without the justDrew flag), and whether its last move was a draw.
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
    // An attempt that searched nothing would be repeated as it was: the rollout stops as if its
    // budget were spent (a position with no move at all, in practice).
    const before = nodes;
    while (g.histLen > 0) g.undo();
    seen.clear();
    packer.baseSig();
    curA = packer.sigA;
    curB = packer.sigB;
    if (seen.insert(curA, curB) === FULL) return finish('unknown', 'memory');
    drew = false;
    if (attempt > 0 && bestLine.length > 0 && ((Math.imul(seed, 0x9e3779b1) >>> 7) & 1023) < o.rolloutKeep * 1024) {
      const j = Math.floor(bestLine.length * ((Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) >>> 8) / 2 ** 24));
      for (let i = 0; i < j; i++) if (!play(bestLine[i]!)) return finish('unknown', 'memory');
    }
    for (;;) {
      if (nodes + 2 > o.maxNodes) return finish('unknown', 'nodes');
      if (performance.now() > deadline) return finish('unknown', 'time');
      const n = ctx.childMoves(moves, 0, drew, mo, tactics);
      // The candidates: not a position this attempt has played already, and not one that
      // LockBound proves lost. A move that wins ends the rollout.
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
        if (open && locks && ctx.lockBound.lost(o.tactics)) {
          open = false;
          ctx.prunedLock++;
        }
        g.undo();
        if (open) moves[live++] = m;
      }
      let best = -1;
      let bestScore = -Infinity;
      // A look-ahead counts its own position, so it needs 2 nodes to look at all.
      for (let i = 0; i < live && nodes + 2 <= o.maxNodes; i++) {
        const m = moves[i]!;
        let score = 0;
        if (live === 1) {
          // A forced move is played without a look-ahead, counted as one node.
          nodes++;
        } else {
          g.apply(m);
          // PileBound at the look-ahead's root only: inside, its cost outweighed the nodes it saved.
          const r = look.search(g, packer, bound, (m & 63) === SRC_DRAW, Math.min(per, o.maxNodes - nodes), tactics, seed, false);
          nodes += look.nodes;
          if (look.bestHome > bestHome) bestHome = look.bestHome;
          if (r === LOOK_WON) {
            // The look-ahead's own line wins: play it out.
            for (const w of look.winLine) g.apply(w);
            return finish('won', undefined, g.history());
          }
          // Lexicographic, the measure first (it may be negative: g.home < 128, the tie < 64).
          score = r === LOOK_LOST ? -Infinity : (look.bestValue * 128 + g.home) * 64 + (seed === 0 ? 0 : Math.imul(m ^ seed, 0x9e3779b1) >>> 26);
          g.undo();
        }
        if (nodes >= ctx.sliceEnd) {
          ctx.progress = nodes;
          ctx.progressHome = bestHome;
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
