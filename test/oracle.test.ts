/**
 * Differential test of the engine against an independent model of RULES.md (test/oracle.ts,
 * written from RULES.md alone, without the engine's code): seeded random playouts over small
 * and full deck sizes and every rule variant. At every position the SET of legal moves of
 * `Game.generate(GEN_ALL)` must equal the oracle's, and after each move (chosen at random,
 * biased toward draws and the redeal so that playouts reach the second deal) the whole
 * observable position must agree. A failure names the deal, size, rules, the moves so far and
 * both move lists. Counters make sure the second deal, the fifth card, pairs, spaces and
 * compulsory aces are really reached, so the test cannot pass vacuously.
 *
 * Then what an independent engine does with the solver's output: the model replays the
 * solver's solutions (small deals in every variant, full-size book deals and PySolFC games),
 * and an exhaustive search over the model's own moves re-derives the solver's won / unsolvable
 * verdicts on tiny deals in every variant.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import {
  type Card, type PackedMove, GEN_ALL, GEN_REDUCED, Game, MAX_MOVES, SRC_DRAW, SRC_REDEAL, SRC_WASTE, dealFromNumber, formatCard, formatMove,
  formatRules, formatSize, parseRules, parseSize,
} from '../src/game/index.js';
import { Solver } from '../src/solver/index.js';
import { pysolDeal } from '../src/game/pysol.js';
import { type Observable, Oracle, oracleWinnable } from './oracle.js';
import { RULE_VARIANTS } from './helpers.js';

const SIZES = ['1x5 4x3', '1x6 5x3', '2x4 3x3', '2x4 4x2', '2x13 12x3'] as const;
const VARIANTS = [
  ...RULE_VARIANTS,
  'privileged=5',
  'privileged=8',
  'building=none privileged=1',
  'building=suit privileged=2',
] as const;
/** Playouts per (variant, size); the full size gets fewer (its games are long). */
const PLAYOUTS: Record<(typeof SIZES)[number], number> = {
  '1x5 4x3': 40,
  '1x6 5x3': 40,
  '2x4 3x3': 40,
  '2x4 4x2': 40,
  '2x13 12x3': 12,
};
const MAX_PLIES = 1000;

/** The engine's position in the oracle's observable form (read from Game's public fields). */
function observeEngine(g: Game): Observable {
  const columns: Card[][] = [];
  const covers: boolean[] = [];
  for (let c = 0; c < g.columns; c++) {
    columns.push(Array.from(g.cols.subarray(c * g.height, c * g.height + g.len[c]!)));
    covers.push(g.isPairTop(c));
  }
  const foundations: number[][] = [];
  for (let s = 0; s < 4; s++) foundations.push(Array.from(g.found.subarray(s * g.packs, (s + 1) * g.packs)).sort((a, b) => a - b));
  const stockCard = (i: number): Card => g.stockCards[i]!;
  const phase1 = g.phase === 1;
  return {
    columns,
    covers,
    foundations,
    stockPtr: g.stockPtr,
    waste: phase1 ? Array.from(g.waste.subarray(0, g.wasteLen), stockCard) : [],
    row: phase1 ? [] : Array.from(g.priv.subarray(0, g.privLen), stockCard),
    pile: phase1 ? [] : Array.from(g.waste.subarray(g.pileNext, g.wasteLen), stockCard),
    phase: g.phase,
    home: g.home,
    won: g.isWon(),
  };
}

const cards = (cs: readonly Card[]): string => cs.map(formatCard).join(' ') || '-';
function describeState(o: Observable): string {
  return [
    ...o.columns.map((col, k) => `  c${k + 1}: ${cards(col)}${o.covers[k] ? ' (pair)' : ''}`),
    `  foundations: ${o.foundations.map((f, s) => `${'SHDC'[s]}=${f.join(',')}`).join(' ')}`,
    `  stock ptr ${o.stockPtr}, waste: ${cards(o.waste)}, row: ${cards(o.row)}, pile: ${cards(o.pile)}`,
    `  phase ${o.phase}, home ${o.home}, won ${o.won}`,
  ].join('\n');
}

/** `draw`, `redeal`, or source letter > `f` / `pair` (a build under building=suit) / `space`, ` (ace)` for an ace. */
function moveKind(oracle: Oracle, move: string): string {
  const m = /^(c|w|p|n)\d*>(f|c(\d+)) (\S+)$/.exec(move);
  if (!m) return move.split(' ')[0]!;
  const dst = m[2] === 'f' ? 'f' : oracle.columns[Number(m[3]) - 1]!.length === 0 ? 'space' : 'pair';
  return `${m[1]}>${dst}${m[4]!.startsWith('A') ? ' (ace)' : ''}`;
}

interface Stats {
  positions: number;
  moves: number;
  playouts: number;
  phase2Playouts: number;
  phase2Positions: number;
  fifthListed: number;
  fifthPlayed: number;
  privPlayed: number;
  pairsMade: number;
  coverHome: number;
  spacesFilled: number;
  aceForced: number;
  won: number;
  /** Playouts stopped by MAX_PLIES rather than by the end of the game. */
  capped: number;
  /** Positions where the fifth card may be turned but has no place (a blind turn loses). */
  fifthLoses: number;
  /** First-deal positions where `generateWaste` was compared with `generate`, and those of them with a move of the waste top. */
  wasteChecked: number;
  wasteMoves: number;
}
const newStats = (): Stats => ({
  positions: 0, moves: 0, playouts: 0, phase2Playouts: 0, phase2Positions: 0, fifthListed: 0, fifthPlayed: 0,
  privPlayed: 0, pairsMade: 0, coverHome: 0, spacesFilled: 0, aceForced: 0, won: 0, capped: 0, fifthLoses: 0,
  wasteChecked: 0, wasteMoves: 0,
});
const total = newStats();
/** Moves played by kind of source and destination, e.g. `p>pair`, `n>f`, `w>space`, `draw`. */
const kinds = new Map<string, number>();
const byVariant = new Map<string, Stats>();
const bySize = new Map<string, Stats>(SIZES.map((z) => [z, newStats()]));

/** One seeded random playout; throws with a full report at the first disagreement. */
function playout(dealNo: number, sizeText: string, rulesText: string, seed: string, stats: Stats): void {
  const size = parseSize(sizeText);
  const rules = parseRules(rulesText);
  const deal = dealFromNumber(dealNo, size);
  const game = new Game(deal, rules);
  const oracle = new Oracle(deal, rules);
  const rng = seedrandom(seed);
  // Some playouts draw eagerly (reach the second deal soon), others play the layout more.
  const drawBias = [0.15, 0.4, 0.7][Math.floor(rng() * 3)]!;
  const history: string[] = [];
  const buf = new Int32Array(MAX_MOVES);
  let reachedPhase2 = false;

  const fail = (what: string, detail: string): never => {
    throw new Error(
      `${what}\n deal ${dealNo}, size ${formatSize(size)}, rules '${formatRules(rules)}' (${rulesText}), seed ${seed}\n` +
        ` moves so far (${history.length}): ${history.join(', ') || '(none)'}\n${detail}\n oracle position:\n${describeState(oracle.observe())}`,
    );
  };

  for (let ply = 0; ply <= MAX_PLIES; ply++) {
    // Compare the positions.
    const mine = oracle.observe();
    const theirs = observeEngine(game);
    for (const key of Object.keys(mine) as (keyof Observable)[])
      if (JSON.stringify(mine[key]) !== JSON.stringify(theirs[key]))
        fail(`position differs in '${key}'`, ` engine ${key}: ${JSON.stringify(theirs[key])}\n oracle ${key}: ${JSON.stringify(mine[key])}\n engine position:\n${describeState(theirs)}`);

    const oracleList = oracle.legalMoves();

    // The accessors a player interface uses: waste top, privileged cards, fifth card, blind turn.
    const views = {
      wasteTop: game.wasteTop(),
      row: Array.from({ length: game.privLen }, (_, i) => game.privCard(i)),
      fifthCard: game.fifthCard(),
      blindTurn: game.blindTurn(),
    };
    const expected = {
      wasteTop: oracle.phase === 1 ? (oracle.waste[oracle.waste.length - 1] ?? 0) : 0,
      row: oracle.row,
      fifthCard: oracle.phase === 2 ? (oracle.pile[0] ?? 0) : 0,
      blindTurn: !oracle.fifthMayBeTurned() ? 'none' : oracleList.some((m) => m.startsWith('n>')) ? 'play' : 'lose',
    };
    if (JSON.stringify(views) !== JSON.stringify(expected))
      fail('an accessor differs', ` engine: ${JSON.stringify(views)}\n oracle: ${JSON.stringify(expected)}`);
    if (expected.blindTurn === 'lose') stats.fifthLoses++;

    // Compare the legal moves.
    const n = game.generate(buf, GEN_ALL);
    const byText = new Map<string, PackedMove>();
    const engineList: string[] = [];
    for (let i = 0; i < n; i++) {
      const t = formatMove(buf[i]!);
      engineList.push(t);
      byText.set(t, buf[i]!);
    }
    engineList.sort();
    stats.positions++;
    stats.moves += oracleList.length;
    if (byText.size !== engineList.length) fail('the engine lists a move twice', ` engine: ${engineList.join(', ')}`);
    const engineOnly = engineList.filter((m) => !oracleList.includes(m));
    const oracleOnly = oracleList.filter((m) => !byText.has(m));
    if (engineOnly.length > 0 || oracleOnly.length > 0)
      fail(
        'legal moves differ',
        ` only the engine: ${engineOnly.join(', ') || '-'}\n only the oracle: ${oracleOnly.join(', ') || '-'}\n` +
          ` engine (${engineList.length}): ${engineList.join(', ')}\n oracle (${oracleList.length}): ${oracleList.join(', ')}`,
      );

    // The solver's shortcut after a draw: the waste top's, the draw's and the redeal's moves
    // of `generate`, in its order, for both kinds of move list.
    if (oracle.phase === 1) {
      for (const flags of [GEN_ALL, GEN_REDUCED]) {
        const all = Array.from(buf.subarray(0, game.generate(buf, flags)));
        const want = all.filter((m) => [SRC_WASTE, SRC_DRAW, SRC_REDEAL].includes(m & 63)).map(formatMove);
        const got = Array.from(buf.subarray(0, game.generateWaste(buf, flags))).map(formatMove);
        if (got.join() !== want.join()) fail('generateWaste differs from generate', ` generateWaste: ${got.join(', ')}\n generate, filtered: ${want.join(', ')}`);
        if (flags === GEN_ALL && want.some((m) => m.startsWith('w>'))) stats.wasteMoves++;
      }
      stats.wasteChecked++;
    }

    if (oracle.phase === 2) {
      stats.phase2Positions++;
      reachedPhase2 = true;
    }
    if (oracleList.some((m) => m.startsWith('n>'))) stats.fifthListed++;
    // Only free aces to the foundations: the compulsion of rule 1 is in force.
    if (oracleList.length > 0 && oracleList.every((m) => /^\S+>f A/.test(m))) stats.aceForced++;
    if (oracleList.length === 0) break;
    if (ply === MAX_PLIES) {
      stats.capped++;
      break;
    }

    // Choose a move: the redeal or a draw with some bias, else any move.
    const redeal = oracleList.find((m) => m === 'redeal');
    const draw = oracleList.find((m) => m.startsWith('draw'));
    let move: string;
    if (redeal && rng() < 0.8) move = redeal;
    else if (draw && rng() < drawBias) move = draw;
    else move = oracleList[Math.floor(rng() * oracleList.length)]!;

    // Counters of what the move does.
    const kind = moveKind(oracle, move);
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    if (kind.startsWith('n>')) stats.fifthPlayed++;
    if (kind.startsWith('p>')) stats.privPlayed++;
    if (kind.includes('>space')) stats.spacesFilled++;
    if (kind.includes('>pair') && rules.building === 'pairs') stats.pairsMade++;
    const fromColumn = /^c(\d+)>f /.exec(move);
    if (fromColumn && oracle.observe().covers[Number(fromColumn[1]) - 1]) stats.coverHome++;
    history.push(move);
    game.apply(byText.get(move)!);
    oracle.apply(move);
  }
  stats.playouts++;
  if (reachedPhase2) stats.phase2Playouts++;
  if (oracle.won()) stats.won++;
}

function add(into: Stats, from: Stats): void {
  for (const k of Object.keys(into) as (keyof Stats)[]) into[k] += from[k];
}

describe('the engine agrees with an independent model of RULES.md', () => {
  VARIANTS.forEach((variant, vi) => {
    it(`rules '${variant}'`, () => {
      const stats = newStats();
      for (const size of SIZES) {
        for (let i = 0; i < PLAYOUTS[size]; i++) {
          const dealNo = 1 + vi * 1000 + i * 37 + size.length;
          const one = newStats();
          playout(dealNo, size, variant, `oracle:${variant}:${size}:${i}`, one);
          add(stats, one);
          add(bySize.get(size)!, one);
        }
      }
      add(total, stats);
      byVariant.set(variant, stats);
      const r = parseRules(variant);
      expect(stats.positions).toBeGreaterThan(0);
      if (r.secondDeal === 'privileged') {
        expect(stats.phase2Playouts, 'playouts that reached the second deal').toBeGreaterThan(0);
        expect(stats.privPlayed, 'privileged cards played').toBeGreaterThan(0);
        expect(stats.fifthPlayed, 'fifth cards played').toBeGreaterThan(0);
      } else expect(stats.phase2Positions).toBe(0);
      if (r.building === 'pairs') expect(stats.pairsMade, 'pairs made').toBeGreaterThan(0);
    });
  });

  it('the playouts reached every rule they test (no vacuous pass)', () => {
    // Printed so that a reviewer sees how much was compared.
    const perVariant = [...byVariant].map(
      ([v, st]) => `  ${v}: ${st.positions} positions, ${st.phase2Playouts}/${st.playouts} playouts in phase 2, ${st.fifthPlayed} fifth cards, ${st.pairsMade} pairs, ${st.won} won`,
    );
    for (const [z, st] of bySize)
      perVariant.push(`  size ${z}: ${st.positions} positions, ${st.phase2Playouts}/${st.playouts} playouts in phase 2, ${st.fifthPlayed} fifth cards, ${st.won} won`);
    console.log(
      `oracle differential: ${JSON.stringify(total)}\nmoves played by kind: ${JSON.stringify(Object.fromEntries([...kinds].sort()))}\n${perVariant.join('\n')}`,
    );
    // This test adds up the variant tests above (vitest runs a file's tests in order): it
    // fails when they did not all run, e.g. under a `-t` filter.
    expect(total.playouts, 'playouts of all the variant tests above').toBe(VARIANTS.length * Object.values(PLAYOUTS).reduce((a, b) => a + b, 0));
    expect(total.phase2Playouts).toBeGreaterThan(20);
    for (const [z, st] of bySize) {
      expect(st.phase2Playouts, `playouts of size ${z} in phase 2`).toBeGreaterThan(0);
      expect(st.fifthPlayed, `fifth cards played at size ${z}`).toBeGreaterThan(0);
    }
    expect(total.fifthListed, 'positions with a fifth-card move').toBeGreaterThan(5);
    expect(total.fifthPlayed, 'fifth cards played').toBeGreaterThan(5);
    expect(total.fifthLoses, 'positions where a blind fifth card loses').toBeGreaterThan(5);
    expect(total.pairsMade).toBeGreaterThan(20);
    expect(total.coverHome, 'covering cards sent home').toBeGreaterThan(5);
    expect(total.spacesFilled).toBeGreaterThan(20);
    expect(total.aceForced).toBeGreaterThan(20);
    expect(total.wasteChecked, 'first-deal positions where generateWaste was compared').toBeGreaterThan(1000);
    expect(total.wasteMoves, 'of them with a move of the waste top').toBeGreaterThan(100);
    // Every kind of move that can happen was played. (A privileged or fifth card is never an
    // ace: aces are compulsory, so none stays in the waste to be redealt.)
    for (const k of ['draw', 'redeal', 'c>f', 'c>f (ace)', 'c>pair', 'c>space', 'w>f', 'w>f (ace)', 'w>pair', 'w>space',
      'p>f', 'p>pair', 'p>space', 'n>f', 'n>pair'])
      expect(kinds.get(k) ?? 0, `moves of kind '${k}' played`).toBeGreaterThan(10);
  });
});

describe("the solver's solutions replayed by the independent model", () => {
  // What an engine written from RULES.md does with our output: every move legal in turn, the
  // card named the card moved, all cards home at the end.
  const replay = (deal: ReturnType<typeof dealFromNumber>, rulesText: string, moves: readonly PackedMove[]): Oracle => {
    const oracle = new Oracle(deal, parseRules(rulesText));
    for (const m of moves) oracle.apply(formatMove(m));
    return oracle;
  };

  it('small deals, every variant: each won verdict replays to a win', () => {
    const solver = new Solver();
    let won = 0;
    for (const variant of VARIANTS)
      for (const size of ['1x5 4x3', '2x4 3x3'] as const)
        for (let n = 1; n <= 12; n++) {
          const deal = dealFromNumber(n, parseSize(size));
          const r = solver.solvePreset(deal, parseRules(variant), undefined, { maxNodes: 200_000 });
          if (r.verdict !== 'won') continue;
          const oracle = replay(deal, variant, r.moves!);
          expect(oracle.won(), `deal ${n} size ${size} rules ${variant}`).toBe(true);
          won++;
        }
    expect(won).toBeGreaterThan(50);
  });

  it('full size: book deals and PySolFC games won by the default preset replay to a win', () => {
    const solver = new Solver();
    let won = 0;
    for (const [n, rulesText] of [[3, 'book'], [4, 'book'], [5, 'book'], [7, 'pysol'], [8, 'pysol']] as const) {
      const deal = rulesText === 'pysol' ? pysolDeal(n) : dealFromNumber(n);
      const r = solver.solvePreset(deal, parseRules(rulesText), undefined, { maxNodes: 1_000_000 });
      if (r.verdict !== 'won') continue;
      expect(replay(deal, rulesText, r.moves!).won(), `${rulesText} deal ${n}`).toBe(true);
      won++;
    }
    expect(won).toBeGreaterThanOrEqual(4);
  });
});

describe("the solver's verdicts re-derived by the independent model", () => {
  it('tiny deals, every variant: won and unsolvable agree with an exhaustive search over the model', () => {
    const solver = new Solver();
    const seen = { won: 0, unsolvable: 0, states: 0 };
    for (const variant of VARIANTS)
      for (const [size, count] of [['1x4 3x2', 10], ['1x5 4x3', 10], ['2x4 3x3', 4]] as const)
        for (let n = 1; n <= count; n++) {
          const deal = dealFromNumber(n, parseSize(size));
          const rules = parseRules(variant);
          const truth = oracleWinnable(new Oracle(deal, rules));
          seen.states += truth.states;
          for (const preset of ['portfolio', 'prove'] as const) {
            const r = solver.solvePreset(deal, rules, preset, { maxNodes: 1_000_000 });
            expect(r.verdict, `deal ${n} size ${size} rules ${variant} preset ${preset}`).toBe(truth.won ? 'won' : 'unsolvable');
          }
          seen[truth.won ? 'won' : 'unsolvable']++;
        }
    console.log(`verdicts re-derived by the model: ${JSON.stringify(seen)}`);
    // Both verdicts occur, so the comparison means something.
    expect(seen.won).toBeGreaterThan(20);
    expect(seen.unsolvable).toBeGreaterThan(20);
  });
});
