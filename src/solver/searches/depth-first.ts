import { isRestricted } from '../../game/tactics.js';
import { type PackedMove } from '../../game/state.js';
import { type SearchContext, RELEASE_BYTES } from '../context.js';
import { DFS_LOST, DFS_MEMORY, DFS_NODES, DFS_SLICE, DFS_TABLE, DFS_TIME, DFS_WON, DepthFirst } from '../dfs.js';
import { moveOptions } from '../moves.js';
import { type SolveOptions, type Verdict } from '../options.js';
import { type SearchResult } from '../result.js';
import { type KeyedTable, type TableStats } from '../table.js';

/**
 * Depth-first search, on exact keys until the table holds `signaturesAfter` states, then on
 * signatures: the same search in less memory. An exhausted search that went on signatures
 * proves nothing, so it is run again on exact keys alone with what is left of the budget, and
 * only that search's end is a proof. With `homeFirst` the streamlined search runs first, and the
 * complete one only if it is exhausted.
 */
export function* depthFirstSearch(ctx: SearchContext, o: SolveOptions, t0: number): Generator<void, SearchResult> {
  const g = ctx.g;
  const tt = (ctx.lastTable = ctx.table(o));
  if (g.isWon()) return { verdict: 'won', nodes: 0, states: tt.size, bytesPerState: tt.bytesPerState(), bestHome: g.home, moves: [] };
  const deadline = t0 + o.maxSeconds * 1000;
  let spent = 0;
  let home = g.home;
  let complete = tt;
  if (o.homeFirst) {
    // A win of the streamlined search is a win; its exhaustion proves nothing.
    const s = yield* depthFirstRun(ctx, tt, o, deadline, 0, home, o.signaturesAfter, true);
    if (s.verdict !== 'unsolvable') return s;
    if (s.nodes >= o.maxNodes) return { ...s, verdict: 'unknown', limit: 'nodes' };
    spent = s.nodes;
    home = s.bestHome;
    complete = ctx.lastTable = ctx.table(o);
  }
  let guide: readonly PackedMove[] | null = null;
  if (o.freeFifth && g.secondDeal && o.signaturesAfter === Infinity) {
    const r = yield* relaxedRun(ctx, complete, o, deadline, spent, home);
    if (r.verdict !== 'won' || r.moves !== null) return r;
    // A relaxed win that breaks rule 7: the real game from the root, on what is left, trying the
    // relaxed line's moves first while it follows them (the order only).
    if (r.nodes >= o.maxNodes) return { ...r, verdict: 'unknown', limit: 'nodes' };
    spent = r.nodes;
    home = r.bestHome;
    guide = ctx.relaxedLine;
    complete = ctx.lastTable = ctx.table(o);
  }
  // `o` itself, not a copy, goes on: a run's node cap may be lowered while it runs (SearchRun.capNodes).
  const first = yield* depthFirstRun(ctx, complete, o, deadline, spent, home, o.signaturesAfter, false, guide);
  const onSignatures = ctx.lastTable !== complete;
  if (first.verdict !== 'unsolvable' || !onSignatures) return first;
  // A big signature table is let go, so that the two tables together stay near the memory cap.
  if (ctx.lastTable.bytes() > RELEASE_BYTES) ctx.letGo('sig');
  return yield* confirmOnExactKeys(ctx, first, o, deadline);
}

/**
 * The search of the relaxed game of the fifth card (`SolveOptions.freeFifth`) on exact keys: its
 * loss is a loss (every real move is a relaxed one). Its win is replayed from the root under the
 * rules: when every move is legal the result is that win, else a 'won' result with no moves, the
 * Game back at the root (the caller searches the real game).
 */
function* relaxedRun(ctx: SearchContext, tt: KeyedTable, o: SolveOptions, deadline: number, spent: number, home: number): Generator<void, SearchResult> {
  const g = ctx.g;
  g.freeFifth = true;
  let r: SearchResult;
  try {
    r = yield* depthFirstRun(ctx, tt, o, deadline, spent, home, Infinity, false);
  } finally {
    g.freeFifth = false;
  }
  if (r.verdict !== 'won') return r;
  const line = r.moves!;
  while (g.histLen > 0) g.undo();
  if (g.playLegal(line, ctx.gen) === line.length) return r;
  while (g.histLen > 0) g.undo();
  ctx.relaxedWins++;
  ctx.relaxedLine = line;
  return { ...r, moves: null };
}

/**
 * A search exhausted on signatures (`first`, the Game back at the root) proves nothing: the loss
 * is confirmed by depth-first search on exact keys from the root, with what is left of the
 * budget (none left: unknown). Its result counts the nodes of both.
 */
export function* confirmOnExactKeys(ctx: SearchContext, first: SearchResult, o: SolveOptions, deadline: number): Generator<void, SearchResult> {
  if (first.nodes >= o.maxNodes) return { ...first, verdict: 'unknown', limit: 'nodes' };
  const exact = (ctx.lastTable = ctx.table(o, true));
  ctx.confirmations++;
  const r = yield* depthFirstRun(ctx, exact, o, deadline, first.nodes, first.bestHome, Infinity, false);
  if (exact.bytes() > RELEASE_BYTES) ctx.letGo('dfs');
  return r;
}

/**
 * One depth-first search from the root on `tt` (exact), after `spent` nodes of the budget
 * (counted in its result and progress); `bestHome` carries over. It goes on on a signature table
 * once `tt` holds `signaturesAfter` states (`ctx.lastTable` is then that one).
 */
function* depthFirstRun(
  ctx: SearchContext, tt: KeyedTable, o: SolveOptions, deadline: number, spent: number, bestHome: number, signaturesAfter: number,
  streamlined: boolean, guide: readonly PackedMove[] | null = null,
): Generator<void, SearchResult> {
  const g = ctx.g;
  const dfs = (ctx.depthFirst ??= new DepthFirst());
  dfs.guide = guide;
  dfs.begin(
    g, ctx.packer, tt, false, moveOptions({ ...o, homeFirst: streamlined }), isRestricted(o.tactics) ? o.tactics : null,
    o.pileBound ? ctx.bound : null, o.wasteBound ? ctx.wasteBound : null,
  );
  dfs.tableLimit = signaturesAfter;
  dfs.lock = o.lockBoundEvery ? ctx.lockBound : null;
  // Not in the streamlined search: there an exhausted position is not proved lost.
  dfs.dominance = o.wasteDominance && !streamlined && (!g.secondDeal || g.freeFifth) && !isRestricted(o.tactics) ? ctx.dominance() : null;
  // Not in the streamlined search either; with or without tactics, in either game (nogoods.ts).
  dfs.nogoods = o.pileNogoods && !streamlined && g.secondDeal ? ctx.nogoods() : null;
  let table: TableStats = tt;
  const pruned = ctx.pruned;
  const prunedWaste = ctx.prunedWaste;
  const prunedLock = ctx.prunedLock;
  const prunedDom = ctx.prunedDom;
  const prunedNog = ctx.prunedNog;
  for (;;) {
    const code = dfs.run(o.maxNodes - spent, deadline, ctx.sliceEnd - spent);
    const home = Math.max(bestHome, dfs.bestHome);
    ctx.progress = spent + dfs.nodes;
    ctx.progressHome = home;
    ctx.pruned = pruned + dfs.pruned;
    ctx.prunedWaste = prunedWaste + dfs.prunedWaste;
    ctx.prunedLock = prunedLock + dfs.prunedLock;
    ctx.prunedDom = prunedDom + dfs.prunedDom;
    ctx.prunedNog = prunedNog + dfs.prunedNog;
    if (code === DFS_TABLE) {
      const sig = ctx.signatureTable(o);
      dfs.tableLimit = Infinity;
      if (sig.addAll(tt, ctx.packer)) {
        dfs.swapTable((table = ctx.lastTable = sig));
        tt.clear();
      }
      // The run stopped at a check that may also have ended the slice.
      if (spent + dfs.nodes >= ctx.sliceEnd) yield;
      continue;
    }
    if (code === DFS_SLICE) {
      yield;
      continue;
    }
    const verdict: Verdict = code === DFS_WON ? 'won' : code === DFS_LOST ? 'unsolvable' : 'unknown';
    const limit = code === DFS_NODES ? 'nodes' : code === DFS_TIME ? 'time' : code === DFS_MEMORY ? 'memory' : undefined;
    return {
      verdict, limit, nodes: spent + dfs.nodes, states: table.size, bytesPerState: table.bytesPerState(), bestHome: home,
      moves: code === DFS_WON ? g.history() : null,
    };
  }
}
