import { type Deal } from '../game/deal.js';
import { type Tactics } from '../game/tactics.js';
import { type Rules } from '../game/rules.js';
import { type PackedMove } from '../game/state.js';
import { lockBoundApplies } from './lockbound.js';
import { MB, type MemoryBudget } from './memory.js';
import { DEFAULT_OPTIONS, type SolveOptions } from './options.js';
import { type LooksLost, type Preset, type Stage, DEFAULT_PRESET, PRESETS } from './presets.js';
import { type Progress, type SearchRun, type SolveResult, sumOf } from './result.js';

/** Nodes a stage gets in each turn, times its share and the number of stages. */
const SLICE = 4096;

/** What runs one stage: a Solver (structurally; this module imports none). */
export interface StageRunner {
  start(deal: Deal, rules: Rules, opts: Partial<SolveOptions>, from: readonly PackedMove[], budget: MemoryBudget): SearchRun;
  /** Lets the runner's tables go, their memory back to the pool. */
  releaseTables(): void;
}

/**
 * Where the portfolio gets a runner for stage i (kept from deal to deal), the memory pool its
 * stages share (set to `bytes`), and whom it tells of a takeover.
 */
export interface PortfolioHost {
  runner(stage: number, stages: number): StageRunner;
  pool(bytes: number): MemoryBudget;
  tookOver(): void;
}

/** The preset a name or a preset gives; throws for an unknown name. */
export function presetOf(preset: string | Preset): Preset {
  const p = typeof preset === 'string' ? PRESETS[preset] : preset;
  if (!p) throw new Error(`unknown preset '${preset as string}'`);
  return p;
}

/**
 * Starts a preset: its stages side by side, each on its own runner (its own tables), in slices
 * of about SLICE * share * stages nodes, none restarted, each capped at its share of the node
 * budget; the time budget is the whole preset's. Their tables draw on one memory pool of the
 * preset's memory cap as they grow (memory.ts), so that the search that needs the memory gets it. Under a node budget the
 * stages take turns, so the result is deterministic. With a time budget alone the shares are the
 * stages' `timeShare`s, shares of the time: the stage furthest behind its share of the time spent
 * so far takes the next slice (turns by nodes would give the slower search more than its share).
 * A stage whose share is 0 does not run. The first stage to end with a verdict gives it; the
 * preset is unknown when every stage has run out. When the deal looks lost (`LooksLost`) the
 * stages stop and the prover runs in their place, beside the first stage when that stalled. Nodes and states add up over all searches;
 * bytesPerState is that of all their states; seconds is the wall time. Pausing changes nothing:
 * run to the end in one step it is the same search.
 */
export function startPortfolio(
  host: PortfolioHost, deal: Deal, rules: Rules, preset: string | Preset = DEFAULT_PRESET, opts: Partial<SolveOptions> = {},
  from: readonly PackedMove[] = [],
): SearchRun {
  const p = presetOf(preset);
  const base: SolveOptions = { ...DEFAULT_OPTIONS, ...p.options, ...opts };
  const byTime = !Number.isFinite(base.maxNodes);
  // The stages that run under this budget and these rules; a stage that does not run under the
  // rules gives its share to the first stage that runs.
  const shareOf = (s: Stage): number => (byTime ? s.timeShare ?? s.share : s.share);
  const ruled = (s: Stage): boolean => s.secondDeal === undefined || s.secondDeal === rules.secondDeal;
  let given = 0;
  for (const s of p.stages) if (!ruled(s)) given += shareOf(s);
  const stages = p.stages.filter((s) => shareOf(s) > 0 && ruled(s));
  if (stages.length === 0) throw new Error(`preset '${typeof preset === 'string' ? preset : p.description}' has no stage for a ${byTime ? 'time' : 'node'} budget`);
  let shares = stages.map((s, i) => shareOf(s) + (i === 0 ? given : 0));
  const t0 = performance.now();
  const runners = stages.map((_, i) => host.runner(i, stages.length));
  const pool = host.pool(base.maxMemoryMB * MB);
  let runs: SearchRun[] = stages.map((stage, i) =>
    runners[i]!.start(deal, rules, {
      ...base,
      ...stage.options,
      ...stage.under?.[rules.secondDeal],
      ...pick(opts, 'search', 'heuristic', 'order'),
      maxNodes: Math.max(1, Math.floor(base.maxNodes * shares[i]!)),
      maxSeconds: base.maxSeconds,
    }, from, pool),
  );
  let results: (SolveResult | null)[] = runs.map(() => null);
  let alive = runs.length;
  let last: SolveResult | null = null;
  let spent = new Float64Array(runs.length);
  let slices = new Float64Array(runs.length);
  const lost = p.looksLost && lockBoundApplies(rules) ? p.looksLost : null;
  let turn = 0;
  let result: SolveResult | null = null;
  // The first stage's best cards home, and its nodes when it got them (a stall: no more since).
  let firstHome = -1;
  let firstAt = 0;
  // Once the deal looks lost: the figures of the stages stopped then, and their nodes.
  let tookOver = false;
  let before: Progress[] = [];
  const parts = (): Progress[] => runs.map((run, i) => results[i] ?? run.progress());
  const figures = (): Progress => sumOf([...before, ...parts()]);
  const finish = (r: SolveResult): SolveResult => ({ ...r, ...sumOf([...before, ...parts()]), seconds: (performance.now() - t0) / 1000 });
  /**
   * The search of `lost` takes over: the stages stop and let their tables go, but the first
   * when `keep` > 0, which goes on beside it with that share of what is left of the node budget
   * (its own cap lowered to it: the budget is a cap on all the searches together); the last
   * stage's runner runs it with the pool, on the rest of the node budget and what is left of the
   * time budget.
   */
  const takeOver = (keep: number): void => {
    tookOver = true;
    host.tookOver();
    const kept = keep > 0 ? [runs[0]!] : [];
    const spentNodes = figures().nodes;
    const left = Math.max(0, base.maxNodes - spentNodes);
    let keptNodes = 0;
    if (kept.length > 0 && Number.isFinite(left)) {
      keptNodes = Math.floor(keep * left);
      kept[0]!.capNodes?.(kept[0]!.progress().nodes + keptNodes);
    }
    before = [...before, ...parts().slice(kept.length)];
    for (let i = kept.length; i < runners.length; i++) runners[i]!.releaseTables();
    const at = stages.length - 1;
    const prover = runners[at]!.start(deal, rules, {
      ...base,
      ...lost!.options,
      maxNodes: Math.max(1, left - keptNodes),
      maxSeconds: Math.max(0, base.maxSeconds - (performance.now() - t0) / 1000),
    }, from, pool);
    runs = [...kept, prover];
    shares = keep > 0 ? [keep, 1 - keep] : [1];
    results = runs.map(() => null);
    alive = runs.length;
    spent = new Float64Array(runs.length);
    slices = new Float64Array(runs.length);
    turn = 0;
  };
  const step = (untilNodes: number): SolveResult | null => {
    if (result) return result;
    for (; alive > 0; turn++) {
      if (untilNodes !== Infinity && figures().nodes >= untilNodes) return null;
      let i = turn % runs.length;
      if (byTime) {
        for (let j = 0; j < runs.length; j++) {
          if (!results[j] && (results[i] || spent[j]! * shares[i]! < spent[i]! * shares[j]!)) i = j;
        }
      } else if (results[i]) continue;
      const k = ++slices[i]!;
      const slice = SLICE * shares[i]! * stages.length;
      // By time (and after a takeover), a search that ran past its last slice (a long
      // look-ahead) gets a whole slice more.
      const until = byTime || tookOver ? Math.max((k - 1) * slice, runs[i]!.progress().nodes) + slice : k * slice;
      const t = performance.now();
      const r = runs[i]!.step(until);
      spent[i] = spent[i]! + performance.now() - t;
      if (!r) {
        if (lost && !tookOver) {
          const first = runs[0]!.progress();
          if (first.bestHome > firstHome) {
            firstHome = first.bestHome;
            firstAt = first.nodes;
          }
          if (lost.restricted && strengthensLocks(base.tactics) && first.nodes >= lost.restricted.afterNodes) takeOver(lost.restricted.keep);
          else if (looksLost(runs, lost)) takeOver(0);
          else if (lost.stall && first.nodes >= lost.stall.afterNodes && first.nodes >= 2 * firstAt) takeOver(lost.stall.keep);
        }
        continue;
      }
      results[i] = last = r;
      alive--;
      if (r.verdict !== 'unknown') return (result = finish(r));
    }
    return (result = finish(last!));
  };
  return { step, progress: () => result ?? figures() };
}

/** True when the deal looks lost to the stages (see `LooksLost`). */
function looksLost(runs: SearchRun[], lost: LooksLost): boolean {
  if (runs[0]!.progress().nodes < lost.afterNodes) return false;
  for (const run of runs) if (run.progress().bestHome > lost.bestHomeAtMost) return false;
  return true;
}

/** Tactics under which LockBound releases fewer cards or never gives up for a space (lockbound.ts, "Tactics"). */
function strengthensLocks(t: Tactics): boolean {
  return t.pairing === 'never' || t.pairing === 'cautious' || t.spaces === 'never';
}

function pick<T extends object, K extends keyof T>(o: T, ...keys: K[]): Partial<T> {
  const out: Partial<T> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
