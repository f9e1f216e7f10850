/**
 * What a batch does to each deal: the job spec (everything that decides a deal's row, and so
 * must be the same for every part of an experiment) and the job kinds.
 *
 * A job kind turns a spec into a function that handles one deal. A worker creates it once per
 * spec and keeps it between chunks: the `solve` kind keeps one Solver, whose buffers and
 * transposition table are reused deal after deal; the `play` kind (the blind players of
 * src/play) keeps one Driver and one player, and plays each deal with the deal number as the
 * player's seed, so a deal's row depends on the spec and the deal number only.
 *
 * A player's verdict is `won` or `lost` — never `unsolvable`, which means "proven lost by a
 * complete search", nor `unknown`. Each kind's columns are rows.ts's.
 *
 * A kind may run several variants on each deal (`bench`, src/compare/job.ts: one search per
 * heuristic of `spec.variants`): its outcome then carries `variants`, and the worker sends one
 * row per variant, tagged with the variant's index. Such a kind lives above src/batch and is
 * handed to the pool by its module's URL (`loadJobKind`). A kind that needs asynchronous set-up (the
 * bench kind import()s users' heuristic modules) does it in `prepare`, once per worker and spec.
 */
import {
  type Deal, type Rules, type Size, FULL_SIZE, UserError, dealFromNumber, formatRules, formatSize, parseRules, parseSize,
  pysolDeal, sizeEqual,
} from '../game/index.js';
import { type Budgets, type SolveRequest, type SolveResult, Solver, checkRequest, requestBudgets, solveOutcome, solveRequest } from '../solver/index.js';
import { formatMoveBare } from '../game/notation.js';
import { type Tactics, NO_RESTRICTION, isRestricted } from '../game/tactics.js';
import { type PileMemory, type PlayEnd, Driver, SamplingPlayer, createPlayer } from '../play/index.js';

/** Where the deal numbers come from: `v1` = this project's deal numbers (RULES.md), `pysol` = PySolFC game numbers. */
export type DealSourceKind = 'v1' | 'pysol';

/** The blind player of a `play` job: its spec as `createPlayer` takes it, its tactic knobs, and its memory of the pile. */
export interface PlayerSpec {
  /** `greedy`, `sampling`, `sampling:samples=16,nodes=500` (the name in lower case, the rest as given). */
  readonly spec: string;
  readonly tactics: Tactics;
  readonly pile: PileMemory;
}

export { type Budgets };

/** Everything that decides a deal's row. Two runs with equal specs give equal rows (timing aside) when no time budget binds. */
export interface JobSpec {
  /** The job kind: 'solve' (the perfect-information solver), 'play' (a blind player), 'bench'. */
  readonly kind: string;
  readonly source: DealSourceKind;
  /** formatRules of the rules. */
  readonly rules: string;
  /** formatSize of the deck size. */
  readonly size: string;
  /**
   * What does the work, as one word list: `preset=fast`, `search=best heuristic=buried`,
   * `preset=portfolio pairing=never`, `player=greedy pairing=always spaces=eager pile=remembered`.
   */
  readonly method: string;
  /**
   * The solver's request as given, checked (`{}` for the play kind); its tactics only when they
   * restrict (`--pairing`, `--spaces`), so that an unrestricted run's spec is what it was before
   * tactics existed.
   */
  readonly solver: SolveRequest;
  /** The solver's budgets in force. The play kind has none: all zero (maxSeconds null), and its rows have no budget columns. */
  readonly budgets: Budgets;
  /** The play kind only: the player. */
  readonly player?: PlayerSpec;
  /** Kinds with variants only (`bench`: the heuristics, built-in names or module file URLs). */
  readonly variants?: readonly string[];
}

/** How a blind player's game went (the play kind). */
export interface PlayDetails {
  readonly end: PlayEnd;
  /** Moves played. */
  readonly moves: number;
  /** Reached the second deal. */
  readonly redealt: boolean;
  /** Times the fifth card was turned blind (only with the pile forgotten). */
  readonly turnedFifthBlind: number;
}

/** What happened to one deal. */
export interface DealOutcome {
  /** The solver: won, unsolvable (proven) or unknown (a budget ran out). A player: won or lost. */
  readonly verdict: 'won' | 'unsolvable' | 'unknown' | 'lost';
  /** For unknown: the limit that ran out ('nodes', 'time', 'memory'); else ''. */
  readonly limit: string;
  readonly nodes: number;
  readonly states: number;
  /** Moves in the solution (won), else 0. */
  readonly solutionLength: number;
  /** Most cards home in any position searched (a player: cards home at the end of the game). */
  readonly bestHome: number;
  /** Milliseconds the deal took (the solver's or the worker's clock). */
  readonly ms: number;
  /** The play kind: how the game went. */
  readonly play?: PlayDetails;
  /** Kinds with variants only: one outcome per variant, in the spec's order (a row each). */
  readonly variants?: readonly DealOutcome[];
  /**
   * The solver's decided deals: what proves the verdict, as certs.ts writes it after the deal
   * number and verdict (a won deal's moves without their cards; `locks` or `search` for a loss).
   */
  readonly certificate?: () => string;
}

export interface JobKind {
  readonly name: string;
  /** Optional asynchronous set-up, awaited once per worker and spec before `create`. */
  prepare?(spec: JobSpec): Promise<void>;
  /**
   * Makes the function that handles one deal (`n`: its number, the play kind's seed). Called
   * once per worker and spec; the function keeps its state (a Solver and its table, a Driver
   * and a player) from one deal to the next.
   */
  create(spec: JobSpec): (deal: Deal, rules: Rules, n: number) => DealOutcome;
  /** Deals per chunk when `--chunk` is not given (default: `defaultChunk`, for deals that take a solver's time). */
  chunk?(spec: JobSpec, todo: number, workers: number): number;
}

/** A solver result as a CSV row's outcome (the solve and bench job kinds). */
export function dealOutcome(r: SolveResult): DealOutcome {
  const o = solveOutcome(r);
  return {
    verdict: o.verdict,
    limit: o.limit ?? '',
    nodes: o.nodes,
    states: o.states,
    solutionLength: o.moves ? o.moves.length : 0,
    bestHome: o.bestHome,
    ms: o.seconds * 1000,
    // Made only when asked for (a function): most batches keep no certificates.
    ...(o.verdict === 'won' && o.moves ? { certificate: () => o.moves!.map(formatMoveBare).join(' ') } : {}),
    ...(o.verdict === 'unsolvable' ? { certificate: () => o.proof ?? 'search' } : {}),
  };
}

/** The perfect-information solver with the spec's request; one Solver reused for every deal. */
export const SOLVE_JOB: JobKind = {
  name: 'solve',
  create(spec) {
    const solver = new Solver();
    // The rows name the node budget they ran with (spec.budgets): it is given, so that a time
    // budget alone keeps it, as `limited batch --max-seconds` says.
    const request: SolveRequest = { ...spec.solver, maxNodes: spec.budgets.maxNodes };
    return (deal, rules) => dealOutcome(solveRequest(solver, deal, rules, request));
  },
};

/**
 * A blind player over the deals: one Driver and one player per worker, each deal played with
 * its deal number as the seed. Moves are not checked against the view's legal moves (a move
 * generation per move: a third of the greedy player's time); test/play.test.ts replays the
 * built-in players' games through the verifier instead.
 */
export const PLAY_JOB: JobKind = {
  name: 'play',
  create(spec) {
    const p = spec.player;
    if (!p) throw new Error('a play job without a player');
    const player = createPlayer(p.spec, p.tactics);
    const driver = new Driver();
    const sampling = player instanceof SamplingPlayer ? player : null;
    return (deal, rules, n) => {
      const nodes0 = sampling?.nodesSpent ?? 0;
      const t0 = performance.now();
      const r = driver.play(deal, rules, player, { seed: n, pile: p.pile, check: false });
      const ms = performance.now() - t0;
      return {
        verdict: r.won ? 'won' : 'lost',
        limit: '',
        nodes: (sampling?.nodesSpent ?? 0) - nodes0,
        states: 0,
        solutionLength: r.won ? r.moves : 0,
        bestHome: r.home,
        ms,
        play: { end: r.end, moves: r.moves, redealt: r.redealt, turnedFifthBlind: r.turnedFifthBlind },
      };
    };
  },
  /**
   * The greedy player plays 25-50 thousand games a second on a core: chunks of up to 5,000 deals
   * (a tenth of a second or so each), so that the pool's messages, the CSV and the fsync per
   * chunk stay small beside the work. A searching player (sampling: about a second a game)
   * gets chunks of a few deals, so that a kill loses little and the progress moves.
   */
  chunk(spec, todo, workers) {
    const fast = spec.player !== undefined && playerName(spec.player.spec) === 'greedy';
    const per = Math.ceil(todo / (workers * (fast ? 4 : 20)));
    return Math.max(1, Math.min(fast ? 5000 : 4, per));
  },
};

/** The job kinds of src/batch by name. A kind defined above it (src/compare's `bench`) comes with its module: see `loadJobKind`. */
export const JOB_KINDS: Readonly<Record<string, JobKind>> = { solve: SOLVE_JOB, play: PLAY_JOB };

export function jobKind(name: string): JobKind {
  const k = JOB_KINDS[name];
  if (!k) throw new Error(`unknown job kind '${name}' (kinds: ${Object.keys(JOB_KINDS).join(', ')})`);
  return k;
}

/**
 * The kind of a spec: one of JOB_KINDS, or the `JOB_KIND` export of `module` (a file URL), for
 * a kind that a module above src/batch defines and hands to the worker pool with its tasks, so
 * that src/batch imports nothing above it.
 */
export async function loadJobKind(name: string, module?: string): Promise<JobKind> {
  if (module === undefined) return jobKind(name);
  const k = ((await import(module)) as { JOB_KIND?: JobKind }).JOB_KIND;
  if (k?.name !== name) throw new Error(`internal: ${module} does not export the job kind '${name}' as JOB_KIND`);
  return k;
}

/** The function that deals deal number n of the spec's source and size. */
export function dealMaker(source: DealSourceKind, size: Size): (n: number) => Deal {
  if (source === 'pysol') {
    if (!sizeEqual(size, FULL_SIZE)) throw new Error(`PySolFC deals have size ${formatSize(FULL_SIZE)}, not ${formatSize(size)}`);
    return (n) => pysolDeal(n);
  }
  return (n) => dealFromNumber(n, size);
}

/**
 * The spec for solving with a request (checked here, into its one form: the default preset
 * unless a search is named, the keys in a fixed order, since specs are compared as JSON). One
 * thread a deal: a request on several is refused.
 */
export function solveSpec(source: DealSourceKind, rules: Rules, size: Size, request: SolveRequest): JobSpec {
  const { tactics: given, ...r } = checkRequest(request);
  if (r.threads !== undefined) throw new UserError('a batch solves each deal on one thread: its workers are the threads');
  // Restrictions only (an unrestricted run's spec is what it was before tactics existed, so its files resume).
  const tactics = given !== undefined && isRestricted(given) ? given : undefined;
  const solver: SolveRequest = tactics ? { ...r, tactics } : r;
  const method: string[] = [];
  if (r.preset !== undefined) method.push(`preset=${r.preset}`);
  if (r.search !== undefined) method.push(`search=${r.search}`);
  if (r.heuristic !== undefined) method.push(`heuristic=${r.heuristic}`);
  if (tactics) method.push(`pairing=${tactics.pairing}`, `spaces=${tactics.spaces}`);
  return {
    kind: 'solve',
    source,
    rules: formatRules(rules),
    size: formatSize(size),
    method: method.join(' '),
    solver,
    budgets: requestBudgets(solver),
  };
}

/** `sampling:samples=16` -> `sampling`. */
export function playerName(spec: string): string {
  return spec.trim().split(':', 1)[0]!.toLowerCase();
}

/**
 * The spec for a blind player: `player` as createPlayer takes it (checked here: a bad spec is a
 * one-line UserError), with the tactic knobs and the pile memory.
 */
export function playSpec(source: DealSourceKind, rules: Rules, size: Size, player: string, tactics: Tactics = NO_RESTRICTION, pile: PileMemory = 'remembered'): JobSpec {
  const made = createPlayer(player, tactics);
  if (made instanceof SamplingPlayer && pile !== 'remembered')
    throw new UserError(`the sampling player needs the pile remembered: drop --pile ${pile} (or play greedy)`);
  const t = player.trim();
  const i = t.indexOf(':');
  const canonical = i < 0 ? t.toLowerCase() : `${t.slice(0, i).toLowerCase()}${t.slice(i)}`;
  return {
    kind: 'play',
    source,
    rules: formatRules(rules),
    size: formatSize(size),
    method: `player=${canonical} pairing=${tactics.pairing} spaces=${tactics.spaces} pile=${pile}`,
    solver: {},
    budgets: { maxNodes: 0, maxSeconds: null, maxMemoryMB: 0 },
    player: { spec: canonical, tactics: { pairing: tactics.pairing, spaces: tactics.spaces }, pile },
  };
}

export function specRules(spec: JobSpec): Rules {
  return parseRules(spec.rules);
}

export function specSize(spec: JobSpec): Size {
  return parseSize(spec.size);
}
