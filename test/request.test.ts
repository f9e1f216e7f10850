// The solver's one request (src/solver/request.ts): its check, its one form, what it runs, and
// that the command line, the library, a batch and a page build the same request from the same
// choices, and so run the same search.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOOK, UserError, dealFromNumber, parseSize } from '../src/game/index.js';
import {
  type RequestInput, type RequestStyle, DEFAULT_PRESET, PRESETS, Solver, checkRequest, requestBudgets, requestPlan, solveOutcome, solveRequest,
} from '../src/solver/index.js';
import { solveSpec } from '../src/batch/job.js';
import { readMeta } from '../src/batch/sidecar.js';
import { type SolverFlags, requestFromFlags } from '../src/cli/solver-flags.js';
import { jobFromFlags } from '../src/cli/commands/batch.js';
import { dealHash, parseDealHash } from '../src/web/data.js';
import * as L from '../src/index.js';
import { withTempDir } from './cli-helpers.js';

let dir = '';
withTempDir('limited-request-', (d) => (dir = d));

/** The message of the UserError that checking `input` throws. */
function refused(input: RequestInput, style: RequestStyle = 'fields'): string {
  try {
    checkRequest(input, style);
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as Error).message;
  }
  throw new Error(`not refused: ${JSON.stringify(input)}`);
}

const PRESET_NAMES = Object.keys(PRESETS).join(', ');

describe('checkRequest', () => {
  it('names the field (or the flag) and the value it refuses, in one line', () => {
    const cases: [RequestInput, string, string][] = [
      [{ preset: 'nope' }, `unknown preset 'nope' (presets: ${PRESET_NAMES})`, `unknown --preset 'nope' (presets: ${PRESET_NAMES})`],
      [{ search: 'astar' as 'dfs' }, "unknown search 'astar' (searches: dfs, best, rollout, beam)", "unknown --search 'astar' (searches: dfs, best, rollout, beam)"],
      [{ search: 'best', heuristic: 'nope' }, 'unknown heuristic', 'unknown heuristic'],
      [{ search: 'dfs', heuristic: 'blend' }, 'heuristic is used only by best-first and beam search, which search dfs does not run', '--heuristic is used only by best-first and beam search, which --search dfs does not run: add --search best or beam'],
      [{ preset: 'fast', heuristic: 'blend' }, 'heuristic is used only by best-first and beam search, which preset fast does not run', '--heuristic is used only by best-first and beam search, which --preset fast does not run: add --search best or beam, or use a --preset with such a stage (portfolio, best)'],
      [{ maxNodes: 0 }, 'maxNodes must be a whole number >= 1, not 0', '--max-nodes must be a whole number >= 1, not 0'],
      [{ maxNodes: 1.5 }, 'maxNodes must be a whole number >= 1, not 1.5', '--max-nodes must be'],
      [{ maxNodes: Infinity }, 'maxNodes must be a whole number >= 1, not Infinity', '--max-nodes must be'],
      [{ maxNodes: '5000' as unknown as number }, 'maxNodes must be a whole number >= 1, not 5000', '--max-nodes must be'],
      [{ maxSeconds: -1 }, 'maxSeconds must be a number > 0, not -1', '--max-seconds must be a number > 0, not -1'],
      [{ maxSeconds: NaN }, 'maxSeconds must be a number > 0, not NaN', '--max-seconds must be'],
      [{ maxMemoryMB: 0 }, 'maxMemoryMB must be a number > 0, not 0', '--max-memory must be a number > 0, not 0'],
      [{ tactics: { pairing: 'sometimes' as 'never' } }, "unknown pairing tactic 'sometimes' (always, cautious, never)", "--pairing: unknown pairing tactic 'sometimes' (always, cautious, never)"],
      [{ tactics: { spaces: 'later' as 'hold' } }, "unknown spaces tactic 'later' (eager, hold, never)", "--spaces: unknown spaces tactic 'later'"],
      [{ threads: 0 }, 'threads must be a whole number from 1 to 64, not 0', '--threads must be a whole number from 1 to 64, not 0'],
      [{ threads: 65 }, 'threads must be a whole number from 1 to 64, not 65', '--threads must be'],
      [{ threads: 2, search: 'best' }, 'threads runs depth-first search on every thread, not search best: drop search, or use threads 1', '--threads runs depth-first search on every thread, not --search best: drop --search, or use --threads 1'],
      [{ threads: 2, preset: 'fast' }, "threads runs the prove preset's search on every thread, not preset fast: use preset prove, or threads 1", "--threads runs the prove preset's search on every thread, not --preset fast"],
      [{ threads: 2, heuristic: 'blend' }, 'threads runs depth-first search, which no heuristic orders: drop heuristic, or use threads 1', '--threads runs depth-first search, which no --heuristic orders'],
    ];
    for (const [input, fields, flags] of cases) {
      const a = refused(input);
      const b = refused(input, 'flags');
      expect(a.startsWith(fields), `${JSON.stringify(input)}: ${a}`).toBe(true);
      expect(b.startsWith(flags), `${JSON.stringify(input)}: ${b}`).toBe(true);
      for (const m of [a, b]) expect(m).not.toContain('\n');
    }
  });

  it('gives one form: the preset that runs, tactics whole, threads only above one, the keys in order', () => {
    expect(checkRequest({})).toEqual({ preset: DEFAULT_PRESET });
    expect(checkRequest({ search: 'dfs' })).toEqual({ search: 'dfs' });
    expect(checkRequest({ threads: 1, maxSeconds: 2 })).toEqual({ preset: DEFAULT_PRESET, maxSeconds: 2 });
    // On several threads, the prove preset's search, whatever search was named (dfs, the only one allowed).
    expect(checkRequest({ threads: 4, search: 'dfs', maxNodes: 10 })).toEqual({ preset: 'prove', maxNodes: 10, threads: 4 });
    const r = checkRequest({ tactics: { spaces: 'hold' }, maxMemoryMB: 64, heuristic: 'waste', search: 'best', preset: 'fast', maxNodes: 9 });
    expect(JSON.stringify(r)).toBe(
      '{"preset":"fast","search":"best","heuristic":"waste","maxNodes":9,"maxMemoryMB":64,"tactics":{"pairing":"always","spaces":"hold"}}',
    );
    // A checked request checks to itself.
    for (const x of [r, checkRequest({}), checkRequest({ threads: 4 })]) expect(checkRequest(x)).toEqual(x);
  });

  it('a heuristic goes with a preset that has a best-first or beam stage', () => {
    expect(checkRequest({ heuristic: 'blend' })).toEqual({ preset: DEFAULT_PRESET, heuristic: 'blend' });
    expect(checkRequest({ preset: 'best', heuristic: 'buried' })).toEqual({ preset: 'best', heuristic: 'buried' });
  });
});

describe('what a request runs', () => {
  it('a time budget alone lifts the node cap; a node budget given keeps it', () => {
    expect(requestPlan(checkRequest({ maxSeconds: 5 }))).toEqual({ preset: DEFAULT_PRESET, options: { maxSeconds: 5, maxNodes: Infinity } });
    expect(requestPlan(checkRequest({ maxSeconds: 5, maxNodes: 7 }))).toEqual({ preset: DEFAULT_PRESET, options: { maxNodes: 7, maxSeconds: 5 } });
    expect(requestPlan(checkRequest({ search: 'best' }))).toEqual({ preset: undefined, options: { search: 'best' } });
  });

  it("several threads run the prove preset's options under those given", () => {
    expect(requestPlan(checkRequest({ threads: 2, maxMemoryMB: 100 }))).toEqual({ preset: undefined, options: { ...PRESETS['prove']!.options, maxMemoryMB: 100 } });
    expect(() => solveRequest(new Solver(), dealFromNumber(1), BOOK, { threads: 2 })).toThrow(/solveParallel/);
  });

  it("a batch's budgets are those given over the preset's over the defaults, a time budget keeping the node cap", () => {
    expect(requestBudgets(checkRequest({}))).toEqual({ maxNodes: 3_000_000, maxSeconds: null, maxMemoryMB: 2048 });
    expect(requestBudgets(checkRequest({ preset: 'prove', maxSeconds: 9 }))).toEqual({ maxNodes: 50_000_000, maxSeconds: 9, maxMemoryMB: 8192 });
    expect(requestBudgets(checkRequest({ search: 'dfs', maxNodes: 5 }))).toEqual({ maxNodes: 5, maxSeconds: null, maxMemoryMB: 2048 });
  });
});

describe('the command line, the library, a batch and a page build equal requests', () => {
  const small = parseSize('1x5,4x3');
  // The same choices, as flags and as the library's settings.
  const cases: { flags: SolverFlags; settings: L.SolverSettings }[] = [
    { flags: {}, settings: {} },
    { flags: { preset: 'fast', maxNodes: '5_000' }, settings: { preset: 'fast', maxNodes: 5000 } },
    { flags: { search: 'best', heuristic: 'waste', maxMemory: '64' }, settings: { search: 'best', heuristic: 'waste', maxMemoryMB: 64 } },
    { flags: { maxSeconds: '30', pairing: 'never' }, settings: { maxSeconds: 30, tactics: { pairing: 'never' } } },
  ];

  it('the same request from flags and from settings, the same solve, and a batch spec of it', () => {
    for (const { flags, settings } of cases) {
      const request = requestFromFlags(flags);
      expect(checkRequest(settings)).toEqual(request);
      const spec = jobFromFlags(flags, 'v1', BOOK, small);
      expect(spec).toEqual(solveSpec('v1', BOOK, small, checkRequest(settings)));
      // A batch keeps restricting tactics only; the rest of the request as given.
      const { tactics, ...rest } = request;
      expect(spec.solver).toEqual(tactics && tactics.pairing === 'always' && tactics.spaces === 'eager' ? rest : request);
      // A page carries it in its address and gives it back.
      expect(parseDealHash(dealHash({ source: '4', rules: BOOK, size: small, solver: request }))?.solver).toEqual(request);
      const deal = dealFromNumber(4, small);
      const engine = solveOutcome(solveRequest(new Solver(), deal, BOOK, request));
      const lib = L.solve(deal, settings);
      expect([lib.verdict, lib.nodes, lib.proof, lib.solution?.length ?? null]).toEqual([engine.verdict, engine.nodes, engine.proof, engine.moves?.length ?? null]);
    }
  });

  it("the library's batch writes the spec the command line's would", async () => {
    const { flags, settings } = cases[1]!;
    const out = join(dir, 'lib.csv');
    await L.runBatch({ from: 1, count: 2, size: small, solver: settings, out, workers: 1, note: () => {} });
    expect(readMeta(out)!.job).toEqual(jobFromFlags(flags, 'v1', BOOK, small));
  });
});
