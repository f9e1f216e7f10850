import { type Deal } from '../game/deal.js';
import { type Rules } from '../game/rules.js';
import { type PackedMove } from '../game/state.js';
import { SearchContext } from './context.js';
import { MB, MemoryBudget } from './memory.js';
import { DEFAULT_OPTIONS, type SolveOptions } from './options.js';
import { type PortfolioHost, startPortfolio } from './portfolio.js';
import { type Preset, DEFAULT_PRESET } from './presets.js';
import { type SearchResult, type SearchRun, type SolveResult } from './result.js';
import { beamSearch } from './searches/beam.js';
import { bestFirstSearch } from './searches/best-first.js';
import { depthFirstSearch } from './searches/depth-first.js';
import { rolloutSearch } from './searches/rollout.js';
import { verifiedWin } from './verified.js';

/** `Solver.pruning`: what a solve's depth-first searches cut. */
export interface Pruning {
  readonly lockBound: number;
  readonly dominance: number;
  readonly nogoodCuts: number;
  readonly nogoodsRecorded: number;
  readonly nogoodLookups: number;
}

/**
 * Solves deals with perfect information. One Solver can be reused for many deals of any size
 * and rules: its buffers and tables are kept from deal to deal (each search empties them).
 *
 * A solve starts from a deal or, given `from` (moves from the deal), from the position they
 * reach: a won result's moves then go on from there, and are verified as `from` and them.
 */
export class Solver {
  private readonly ctx = new SearchContext();
  /** The memory budget of this Solver's solves: a single search's, or the pool a preset's stages share. */
  private readonly budget = new MemoryBudget(0);
  /** The Solvers of a preset's stages, kept from deal to deal. */
  private helpers: Solver[] = [];
  /** The Solvers that ran the last solve's searches: this one, or the stages' helpers. */
  private runners: Solver[] = [this];
  /** Presets whose `looksLost` search took over (since this Solver was made). */
  takeovers = 0;

  /** Positions cut by PileBound in the last search. */
  get pruned(): number {
    return this.ctx.pruned;
  }

  /** Positions cut by WasteBound in the last search. */
  get prunedWaste(): number {
    return this.ctx.prunedWaste;
  }

  /** Positions cut by LockBound in the last search: depth-first (`lockBoundEvery`) or the rollout's candidates. */
  get prunedLock(): number {
    return this.ctx.prunedLock;
  }

  /**
   * The last search's waste dominance (`SolveOptions.wasteDominance`): positions cut, lookups,
   * and refuted positions kept; zeros when it was not used.
   */
  get dominance(): { readonly cut: number; readonly asked: number; readonly kept: number } {
    const d = this.ctx.dominanceFor?.game === this.ctx.g ? this.ctx.dominanceFor : null;
    return { cut: this.ctx.prunedDom, asked: d?.asked ?? 0, kept: d?.entries ?? 0 };
  }

  /**
   * The last solve's pile nogoods (`SolveOptions.pileNogoods`; the relaxed search's and the real
   * one's after it): positions cut, lookups, and nogoods recorded; zeros when they were not used.
   */
  get nogoods(): { readonly cut: number; readonly asked: number; readonly added: number } {
    const d = this.ctx.nogoodsFor?.game === this.ctx.g ? this.ctx.nogoodsFor : null;
    return { cut: this.ctx.prunedNog, asked: d?.asked ?? 0, added: d?.added ?? 0 };
  }

  /**
   * What the last solve's depth-first searches cut, this Solver's and its stages' (a preset with
   * several stages runs each on a helper): positions cut by LockBound, by waste dominance and by
   * pile nogoods, and the nogoods recorded and looked up.
   */
  get pruning(): Pruning {
    let lockBound = 0;
    let dominance = 0;
    let nogoodCuts = 0;
    let nogoodsRecorded = 0;
    let nogoodLookups = 0;
    for (const s of this.runners) {
      lockBound += s.prunedLock;
      dominance += s.dominance.cut;
      const n = s.nogoods;
      nogoodCuts += n.cut;
      nogoodsRecorded += n.added;
      nogoodLookups += n.asked;
    }
    return { lockBound, dominance, nogoodCuts, nogoodsRecorded, nogoodLookups };
  }

  /** Relaxed wins that broke rule 7 (`SolveOptions.freeFifth`), since this Solver was made. */
  get relaxedWins(): number {
    return this.ctx.relaxedWins;
  }

  /** Depth-first searches on exact keys run to confirm an exhaustion on signatures (since this Solver was made). */
  get confirmations(): number {
    return this.ctx.confirmations;
  }

  /** Solves with one search: `opts` over DEFAULT_OPTIONS. See `solvePreset` for named presets. */
  solve(deal: Deal, rules: Rules, opts: Partial<SolveOptions> = {}, from: readonly PackedMove[] = []): SolveResult {
    return this.start(deal, rules, opts, from).step(Infinity)!;
  }

  /**
   * Starts one search without running it: it runs a slice at a time (`SearchRun.step`), so that
   * a preset can run several searches side by side on one thread. Run to the end in one step it
   * is exactly `solve`. Its tables take their memory from `budget` (a preset's pool), else from
   * this Solver's own budget of `maxMemoryMB`.
   */
  start(deal: Deal, rules: Rules, opts: Partial<SolveOptions> = {}, from: readonly PackedMove[] = [], budget?: MemoryBudget): SearchRun {
    // The run's own options: `capNodes` lowers its node budget in place, and every search reads
    // `o.maxNodes` afresh at each check, never a copy.
    const o: { -readonly [K in keyof SolveOptions]: SolveOptions[K] } = { ...DEFAULT_OPTIONS, ...opts };
    const ctx = this.ctx;
    // A preset's single stage runs here too, and is then the whole solve.
    this.runners = [this];
    if (!budget) this.budget.cap = o.maxMemoryMB * MB;
    ctx.reset(deal, rules, from, budget ?? this.budget);
    const t0 = performance.now();
    const gen = search(ctx, o, t0);
    let seconds = 0;
    let result: SolveResult | null = null;
    const step = (untilNodes: number): SolveResult | null => {
      if (result) return result;
      ctx.sliceEnd = untilNodes;
      const t = performance.now();
      const next = gen.next();
      seconds += (performance.now() - t) / 1000;
      if (!next.done) return null;
      const r = next.value;
      let moves: PackedMove[] | null = null;
      if (r.verdict === 'won') moves = verifiedWin(deal, rules, r.moves!, from);
      result = { ...r, moves, seconds };
      if (r.verdict === 'unsolvable' && r.proof === undefined) result = { ...result, proof: 'search' };
      return result;
    };
    return {
      step,
      capNodes: (maxNodes) => {
        o.maxNodes = Math.min(o.maxNodes, Math.max(1, Math.floor(maxNodes)));
      },
      progress: () => result ?? { nodes: ctx.progress, states: ctx.lastTable?.size ?? 0, bestHome: ctx.progressHome, bytesPerState: ctx.lastTable?.bytesPerState() ?? 0 },
    };
  }

  /** Lets every table this Solver keeps go, their memory back to its budget. */
  releaseTables(): void {
    this.ctx.releaseTables();
  }

  /** Solves with a preset, named (PRESETS) or given; `opts` overrides its options (portfolio.ts `startPortfolio`). */
  solvePreset(deal: Deal, rules: Rules, preset: string | Preset = DEFAULT_PRESET, opts: Partial<SolveOptions> = {}, from: readonly PackedMove[] = []): SolveResult {
    return this.startPreset(deal, rules, preset, opts, from).step(Infinity)!;
  }

  /**
   * Starts a preset without running it, as `start` does a single search. Throws at once for an
   * unknown preset or one with no stage to run.
   */
  startPreset(deal: Deal, rules: Rules, preset: string | Preset = DEFAULT_PRESET, opts: Partial<SolveOptions> = {}, from: readonly PackedMove[] = []): SearchRun {
    const runners: Solver[] = [];
    this.runners = runners;
    const host: PortfolioHost = {
      // A single stage runs on this Solver; several, each on a helper kept from deal to deal.
      runner: (i, n) => {
        const s = n === 1 ? this : (this.helpers[i] ??= new Solver());
        runners.push(s);
        return s;
      },
      pool: (bytes) => {
        this.budget.cap = bytes;
        return this.budget;
      },
      tookOver: () => this.takeovers++,
    };
    return startPortfolio(host, deal, rules, preset, opts, from);
  }
}

/** The search `o` asks for, after LockBound at the root (`SolveOptions.lockBound`). */
function* search(ctx: SearchContext, o: SolveOptions, t0: number): Generator<void, SearchResult> {
  if (o.lockBound && ctx.lockBound.lost(o.tactics))
    return { verdict: 'unsolvable', proof: 'locks', nodes: 0, states: 0, bytesPerState: 0, bestHome: ctx.g.home, moves: null };
  switch (o.search) {
    case 'beam':
      return yield* beamSearch(ctx, o, t0);
    case 'best':
      return yield* bestFirstSearch(ctx, o, t0);
    case 'rollout':
      return yield* rolloutSearch(ctx, o, t0);
    default:
      return yield* depthFirstSearch(ctx, o, t0);
  }
}
