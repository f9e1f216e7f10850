/**
 * The cross-check of the perfect-information solver (src/solver): every solver configuration
 * must agree with a plain exhaustive reference search (test/reference.ts) on 1,000+ small deals
 * under every rule variant, and every win must replay through the verifier. In a file of its
 * own so that it runs beside the solver's other tests (test/rollout.test.ts and the rest) on a second core.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type Deal, type Rules, dealFromNumber, formatSolution, parseRules, parseSize, replay, verifyText } from '../src/game/index.js';
import { HEURISTICS } from '../src/solver/heuristics.js';
import { type SolveOptions, type SolveResult, PRESETS, Solver } from '../src/solver/index.js';
import { RULE_VARIANTS } from './helpers.js';
import { referenceSolve } from './reference.js';
import { GENEROUS, NO_SECOND_DEAL, STALL_AT_ONCE, TAKE_OVER_AT_ONCE, checkWin } from './solver-shared.js';

/** The rule variants cross-checked (test/helpers.ts). */
const VARIANTS = RULE_VARIANTS;

const WEAK_SIGNATURES = 'dfs signaturesAfter=0 signatureBits=16';
const WEAK_BEST = 'best/wasteDealt signatureBits=16';

type Run = (solver: Solver, deal: Deal, rules: Rules) => SolveResult;
const single = (opts: Partial<SolveOptions>): Run => (solver, deal, rules) => solver.solve(deal, rules, { ...opts, ...GENEROUS });

/** Every solver configuration that must give the reference's verdict. */
const CONFIGS: readonly (readonly [string, Run])[] = [
  ['dfs', single({ search: 'dfs' })],
  ...Object.keys(HEURISTICS).map((h) => [`best/${h}`, single({ search: 'best', heuristic: h })] as const),
  // Beam search proves nothing until an attempt keeps every child: on these deals its width
  // doubles until one does, and that exhaustion (on signatures) is confirmed on exact keys.
  ['beam/wasteStack', single({ search: 'beam', heuristic: 'wasteStack' })],
  ['beam/home beamWidth=1 lockBound=false', single({ search: 'beam', heuristic: 'home', beamWidth: 1, lockBound: false })],
  ['dfs drawDiscipline=false', single({ search: 'dfs', drawDiscipline: false })],
  ['dfs reducedSpaces=false', single({ search: 'dfs', reducedSpaces: false })],
  ['dfs drawDiscipline=false reducedSpaces=false', single({ search: 'dfs', drawDiscipline: false, reducedSpaces: false })],
  ['dfs safeMoves=false', single({ search: 'dfs', safeMoves: false })],
  // Not sound alone: a streamlined search first, then the complete one if it is exhausted.
  ['dfs homeFirst=true', single({ search: 'dfs', homeFirst: true })],
  ['dfs order=waste', single({ search: 'dfs', order: 'waste' })],
  ['dfs pileBound=false', single({ search: 'dfs', pileBound: false })],
  ['dfs wasteBound=true', single({ search: 'dfs', wasteBound: true })],
  ['dfs lockBound=false', single({ search: 'dfs', lockBound: false })],
  // LockBound at every position instead of at the root only: every proof is then the search's.
  ['dfs lockBoundEvery=true lockBound=false', single({ search: 'dfs', lockBoundEvery: true, lockBound: false })],
  // The relaxed game of the fifth card, with waste dominance and safe moves home, on exact keys:
  // its losses are losses; a relaxed win that breaks rule 7 sends the search to the real game.
  ['dfs freeFifth wasteDominance lockBound=false', single({ search: 'dfs', signaturesAfter: Infinity, freeFifth: true, wasteDominance: true, lockBound: false })],
  // Pile nogoods, in the real game (with LockBound at every position, whose cuts they read) and in
  // the relaxed one.
  ['dfs pileNogoods lockBoundEvery', single({ search: 'dfs', signaturesAfter: Infinity, pileNogoods: true, lockBoundEvery: true, lockBound: false })],
  ['dfs freeFifth wasteDominance pileNogoods', single({ search: 'dfs', signaturesAfter: Infinity, freeFifth: true, wasteDominance: true, pileNogoods: true })],
  // Signatures from the first check (1,024 nodes) on: a search exhausted on them is confirmed on
  // exact keys. With 16-bit signatures, collisions are common and some searches end exhausted
  // on won deals: only the confirmation keeps those from being called unsolvable.
  ['dfs signaturesAfter=0', single({ search: 'dfs', signaturesAfter: 0, lockBound: false })],
  [WEAK_SIGNATURES, single({ search: 'dfs', signaturesAfter: 0, signatureBits: 16, lockBound: false })],
  ['best/wasteDealt lockBound=false', single({ search: 'best', heuristic: 'wasteDealt', lockBound: false })],
  // Best-first search is always on signatures, and every exhaustion is confirmed on exact keys.
  [WEAK_BEST, single({ search: 'best', heuristic: 'wasteDealt', signatureBits: 16, lockBound: false })],
  ['best/wasteDealt wasteBound=true', single({ search: 'best', heuristic: 'wasteDealt', wasteBound: true })],
  ...Object.keys(PRESETS).map(
    (p) => [`preset ${p}`, ((solver, deal, rules) => solver.solvePreset(deal, rules, p, GENEROUS)) as Run] as const,
  ),
  // The portfolio's prover taking over after the first slice, wherever LockBound applies.
  ['preset portfolio, looksLost at once', (solver, deal, rules) => solver.solvePreset(deal, rules, TAKE_OVER_AT_ONCE, GENEROUS)],
  // The prover beside the rollout once the rollout stalls, by nodes and by time.
  ['preset portfolio, stall at once', (solver, deal, rules) => solver.solvePreset(deal, rules, STALL_AT_ONCE, GENEROUS)],
  ['preset portfolio, stall at once, time budget alone', (solver, deal, rules) => solver.solvePreset(deal, rules, STALL_AT_ONCE, { maxNodes: Infinity, maxSeconds: 600 })],
  // With a time budget alone the portfolio's stages take turns by time, not by nodes.
  ['preset portfolio, time budget alone', (solver, deal, rules) => solver.solvePreset(deal, rules, 'portfolio', { maxNodes: Infinity, maxSeconds: 600 })],
];

const SECOND_DEAL_PAIRS_NONE = ['book', 'building=none', 'privileged=1', 'privileged=2', 'privileged=3'] as const;

/**
 * The deals of each size: numbers 0..count-1 under each of its variants, less `skip` (deals on which the
 * reference search needs more than 40,000 positions under some variant — measured; left out only
 * to keep this file under a minute), plus `extra` deals of the rarer verdict for groups whose
 * first `count` deals all have the same verdict. `oneSided`: variants for which no deal of the
 * rarer verdict is known (the solver found no unsolvable deal among the deal numbers searched,
 * given in the comment); for every other group the test asserts both verdicts occur.
 */
interface SizePlan {
  readonly size: string;
  /** The variants checked at this size (default: all). */
  readonly variants?: readonly (typeof VARIANTS)[number][];
  readonly count: number;
  readonly skip: readonly number[];
  readonly extra: Readonly<Partial<Record<(typeof VARIANTS)[number], readonly number[]>>>;
  readonly oneSided: readonly (typeof VARIANTS)[number][];
}

const PLANS: readonly SizePlan[] = [
  { size: '1x4 3x2', count: 100, skip: [], extra: {}, oneSided: [] },
  {
    size: '2x3 3x2',
    count: 30,
    skip: [],
    extra: { 'second-deal=none building=none': [142] },
    // The solver proves none of deals 0..3019 unsolvable under these variants.
    oneSided: ['book', 'building=none', 'building=suit', 'second-deal=none', 'second-deal=none building=suit', 'privileged=1', 'privileged=2', 'privileged=3'],
  },
  { size: '1x5 4x3', count: 150, skip: [90, 110], extra: {}, oneSided: [] },
  { size: '1x6 5x3', count: 60, skip: [1, 6, 12, 13, 36, 40, 42, 50, 55], extra: {}, oneSided: [] },
  {
    size: '2x4 3x3',
    count: 40,
    skip: [7, 15, 19, 29],
    extra: {
      book: [1296, 2109],
      'building=none': [419, 1034],
      'building=suit': [4437],
      'second-deal=none': [58],
      'second-deal=none building=suit': [58],
      'privileged=1': [114, 1296],
      'privileged=2': [1296, 2109],
      'privileged=3': [1296, 2109],
    },
    oneSided: [],
  },
  {
    size: '2x4 4x2',
    count: 40,
    skip: [15, 28, 29],
    extra: { 'building=none': [1772], 'second-deal=none': [3247], 'second-deal=none building=none': [66, 89] },
    // The solver (2M nodes) proves none of deals 0..4999 unsolvable under these variants.
    oneSided: ['book', 'building=suit', 'second-deal=none building=suit', 'privileged=1', 'privileged=2', 'privileged=3'],
  },
  // Few columns and a long pile: here the second deal is tight and PileBound (the proof that a
  // second-deal position is lost) prunes; at the sizes above it never fires. Only the variants
  // with a second deal and building pairs or none, where PileBound is used.
  { size: '1x6 2x2', variants: SECOND_DEAL_PAIRS_NONE, count: 100, skip: [], extra: {}, oneSided: [] },
  { size: '1x7 3x2', variants: SECOND_DEAL_PAIRS_NONE, count: 80, skip: [], extra: {}, oneSided: [] },
  // The same small sizes without a second deal: here the waste is a stack for good, and
  // WasteBound (the proof that the waste cannot be unwound) prunes often.
  { size: '1x6 2x2', variants: NO_SECOND_DEAL, count: 100, skip: [], extra: {}, oneSided: [] },
  { size: '1x7 3x2', variants: NO_SECOND_DEAL, count: 80, skip: [], extra: {}, oneSided: [] },
];

function dealsOf(plan: SizePlan, variant: (typeof VARIANTS)[number]): number[] {
  const out: number[] = [];
  for (let n = 0; n < plan.count; n++) if (!plan.skip.includes(n)) out.push(n);
  for (const n of plan.extra[variant] ?? []) out.push(n);
  return out;
}


const summary: string[] = [];
let totalDeals = 0;
let totalWon = 0;
let totalUnsolvable = 0;
/** Positions PileBound proved lost, over every solve of the cross-check. */
let pruned = 0;
/** Positions WasteBound proved lost, over every solve of the cross-check. */
let prunedWaste = 0;
/** Unsolvable verdicts that LockBound gave before any search, over every solve of the cross-check. */
let provedByLocks = 0;
/** Exact searches that confirmed an exhaustion on signatures: all, and those that found a win instead (weak signatures). */
let confirmations = 0;
let refuted = 0;
let refutedBest = 0;
/** Solves of the cross-check in which a preset's `looksLost` search took over. */
let takeovers = 0;

describe('cross-check against the exhaustive reference search', () => {
  // One Solver per configuration, kept across deals (as a batch would use it).
  const solvers = new Map(CONFIGS.map(([name]) => [name, new Solver()] as const));
  for (const plan of PLANS) {
    const size = parseSize(plan.size);
    describe(plan.size, () => {
      for (const variant of plan.variants ?? VARIANTS) {
        it(`${variant}: every configuration gives the reference verdict`, () => {
          const rules = parseRules(variant);
          const deals = dealsOf(plan, variant).map((n) => ({ n, deal: dealFromNumber(n, size) }));
          const problems: string[] = [];
          const t0 = performance.now();
          const reference = deals.map(({ n, deal }) => {
            const ref = referenceSolve(deal, rules);
            if (ref.verdict === 'won') {
              const v = verifyText(replay(deal, rules, formatSolution(ref.moves!)));
              if (v !== `valid: won in ${ref.moves!.length} moves`) problems.push(`deal ${n} reference: ${v}`);
            }
            return ref.verdict;
          });
          const refMs = performance.now() - t0;
          for (const [name, run] of CONFIGS) {
            const solver = solvers.get(name)!;
            deals.forEach(({ n, deal }, i) => {
              let r: SolveResult;
              const confirmed = solver.confirmations;
              const tookOver = solver.takeovers;
              try {
                r = run(solver, deal, rules);
              } catch (e) {
                problems.push(`deal ${n} ${name}: threw ${(e as Error).message}`);
                return;
              }
              pruned += solver.pruned;
              prunedWaste += solver.prunedWaste;
              if (r.proof === 'locks') provedByLocks++;
              takeovers += solver.takeovers - tookOver;
              if (solver.confirmations > confirmed) {
                confirmations++;
                if (r.verdict === 'won' && name === WEAK_SIGNATURES) refuted++;
                if (r.verdict === 'won' && name === WEAK_BEST) refutedBest++;
              }
              if (r.verdict !== reference[i])
                problems.push(`deal ${n} ${name}: solver ${r.verdict}${r.limit ? ` (${r.limit})` : ''} after ${r.nodes} nodes, reference ${reference[i]}`);
              else if (r.verdict === 'won') {
                const bad = checkWin(deal, rules, r, `deal ${n} ${name}`);
                if (bad) problems.push(bad);
              }
            });
          }
          const solverMs = performance.now() - t0 - refMs;
          const won = reference.filter((v) => v === 'won').length;
          const unsolvable = reference.length - won;
          const line =
            `${plan.size} ${variant}: ${deals.length} deals, ${won} won, ${unsolvable} unsolvable ` +
            `(reference ${(refMs / 1000).toFixed(1)} s, solver ${(solverMs / 1000).toFixed(1)} s)`;
          summary.push(line);
          console.log(line);
          totalDeals += deals.length;
          totalWon += won;
          totalUnsolvable += unsolvable;
          // All disagreements are counted; the first few are shown.
          expect(problems.length, `${problems.length} disagreements, first:\n${problems.slice(0, 12).join('\n')}`).toBe(0);
          if (plan.oneSided.includes(variant)) expect(unsolvable, 'documented as all won').toBe(0);
          else {
            expect(won, 'the group holds won deals').toBeGreaterThan(0);
            expect(unsolvable, 'the group holds unsolvable deals').toBeGreaterThan(0);
          }
        });
      }
    });
  }

  it('covers 1,000+ deals in all, and exercises PileBound, WasteBound and LockBound', () => {
    // Runs after the groups above (vitest runs a file's tests in order).
    expect(totalDeals).toBeGreaterThanOrEqual(1000);
    expect(pruned, 'positions pruned by PileBound').toBeGreaterThan(1000);
    expect(prunedWaste, 'positions pruned by WasteBound').toBeGreaterThan(1000);
    expect(provedByLocks, 'unsolvable verdicts given by LockBound').toBeGreaterThan(1000);
    expect(confirmations, 'exhaustions on signatures confirmed on exact keys').toBeGreaterThan(40);
    expect(refuted, 'searches exhausted on weak signatures that were won').toBeGreaterThan(0);
    expect(refutedBest, 'best-first searches exhausted on weak signatures that were won').toBeGreaterThan(0);
    expect(takeovers, 'solves in which the looksLost search took over').toBeGreaterThan(100);
  });

  afterAll(() => {
    console.log(
      `cross-check: ${totalDeals} deals (${totalWon} won, ${totalUnsolvable} unsolvable) x ${CONFIGS.length} configurations, ` +
        `${pruned} positions pruned by PileBound, ${prunedWaste} by WasteBound, ${provedByLocks} verdicts given by LockBound, ` +
        `${confirmations} exhaustions on signatures confirmed on exact keys (${refuted} + ${refutedBest} of them won), ` +
        `${takeovers} takeovers by the looksLost search\n${summary.join('\n')}`,
    );
  });
});
