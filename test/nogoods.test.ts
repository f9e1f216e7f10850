// Pile nogoods (src/solver/nogoods.ts): what LockBound and PileBound read of the pile is all their
// answer depends on; every position a nogood cuts is lost for the exhaustive reference in the game
// searched (real or relaxed), the bounds at every position included; and the solver's verdicts
// with nogoods are the reference's.
import { describe, expect, it } from 'vitest';
import { type Game, GEN_ALL, Game as GameClass, MAX_MOVES, dealFromNumber, parseRules, parseSize } from '../src/game/index.js';
import { Solver } from '../src/solver/index.js';
import { PileBound } from '../src/solver/bound.js';
import { SearchContext } from '../src/solver/context.js';
import { DFS_LOST, DepthFirst } from '../src/solver/dfs.js';
import { WasteDominance } from '../src/solver/dominance.js';
import { LOCK_LOST, LockBound } from '../src/solver/lockbound.js';
import { MemoryBudget } from '../src/solver/memory.js';
import { moveOptions } from '../src/solver/moves.js';
import { PileNogoods, READ_ALL } from '../src/solver/nogoods.js';
import { DEFAULT_OPTIONS } from '../src/solver/options.js';
import { PRESETS } from '../src/solver/presets.js';
import { REFERENCE_MAX_STATES, noteIfWon, referenceSearch, referenceSolve } from './reference.js';

/**
 * Nogoods checked against the exhaustive reference (same game) twice over: each position they
 * would cut is searched before it is cut, and each fifth nogood's claim where it is recorded (the
 * refuted position with the rest of its pile, after what the refutation read, in other orders is
 * lost too).
 */
class Checked extends PileNogoods {
  cut = 0;
  tried = 0;
  wrong: string[] = [];
  private n = 0;
  constructor(private readonly gm: Game, words: number, columnsAt: number, private readonly what: string) {
    super(gm, words, columnsAt);
  }
  override match(keys: Uint32Array, off: number, count = true): boolean {
    if (!super.match(keys, off, count)) return false;
    if (!count) return true;
    this.cut++;
    noteIfWon(this.gm, this.what, this.wrong);
    return true;
  }
  override add(keys: Uint32Array, off: number, readTo: number): void {
    super.add(keys, off, readTo);
    const g = this.gm;
    if (readTo >= READ_ALL || g.wasteLen - readTo < 2 || this.n++ % 5 !== 0) return;
    for (let t = 1; t <= 2; t++) {
      this.tried++;
      const h = g.histLen;
      const won = withTailShuffled(g, readTo, t * 7919 + this.n, () => referenceSearch(g, REFERENCE_MAX_STATES).won);
      if (won) this.wrong.push(`${this.what}: a nogood read to ${readTo} of ${g.wasteLen}, won with the rest shuffled (${h >> 1} moves in)`);
      while (g.histLen > h) g.undo();
    }
  }
}

/**
 * The solver's depth-first search with PileBound and LockBound at every position, the nogoods
 * `make` gives, and in the relaxed game waste dominance too (whose cuts pass on what they read),
 * to its end.
 */
function searchWith<N extends PileNogoods>(
  deal: ReturnType<typeof dealFromNumber>, rulesText: string, relaxed: boolean, make: (g: Game, words: number, columnsAt: number) => N,
): { verdict: number; nog: N } {
  const ctx = new SearchContext();
  ctx.reset(deal, parseRules(rulesText), [], new MemoryBudget(1 << 30));
  ctx.g.freeFifth = relaxed;
  const dfs = new DepthFirst();
  const o = { ...DEFAULT_OPTIONS, search: 'dfs' as const };
  dfs.begin(ctx.g, ctx.packer, ctx.table(o, true), false, moveOptions(o), null, ctx.bound, null);
  dfs.lock = ctx.lockBound;
  const nog = make(ctx.g, ctx.packer.words, ctx.packer.columnsAt);
  dfs.nogoods = nog;
  if (relaxed) dfs.dominance = new WasteDominance(ctx.g, ctx.packer.words);
  const verdict = dfs.run(Infinity, Infinity, Infinity);
  return { verdict, nog };
}

/**
 * Random second-deal positions of small deals: for each, `visit` is called (the game standing
 * there; it must leave it as it found it).
 */
function secondDealPositions(visit: (g: Game, what: string) => void): void {
  const buf = new Int32Array(MAX_MOVES);
  for (const sizeText of ['1x7 3x2', '2x4 4x2', '2x5 4x2']) {
    for (const variant of ['book', 'privileged=1', 'privileged=2 building=none']) {
      for (let n = 0; n < 60; n++) {
        const g = new GameClass(dealFromNumber(n, parseSize(sizeText)), parseRules(variant));
        let seed = n * 7919 + 13;
        for (let step = 0; step < 300; step++) {
          if (g.phase === 2) visit(g, `${sizeText} ${variant} deal ${n} step ${step}`);
          const k = g.generate(buf, GEN_ALL);
          if (k === 0) break;
          seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
          g.apply(buf[(seed >>> 8) % k]!);
        }
      }
    }
  }
}

/** Shuffles the pile after waste index `from` (the same cards, another order), runs `f`, and puts it back. */
function withTailShuffled<T>(g: Game, from: number, seed: number, f: () => T): T {
  const saved = g.waste.slice();
  let s = seed;
  for (let i = g.wasteLen - 1; i > from; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = from + ((s >>> 8) % (i - from + 1));
    const t = g.waste[i]!;
    g.waste[i] = g.waste[j]!;
    g.waste[j] = t;
  }
  try {
    return f();
  } finally {
    g.waste.set(saved);
  }
}

describe('what the bounds read of the pile', () => {
  it('LockBound and PileBound prove the same loss whatever the order of the pile after readTo', () => {
    let lock = 0;
    let pile = 0;
    let shortOfAll = 0;
    const wrong: string[] = [];
    secondDealPositions((g, what) => {
      const lb = new LockBound(g);
      if (lb.check() === LOCK_LOST) {
        lock++;
        const r = lb.readTo;
        expect(r).toBeGreaterThanOrEqual(g.pileNext);
        expect(r).toBeLessThanOrEqual(g.wasteLen);
        if (r < g.wasteLen - 1) shortOfAll++;
        for (let t = 0; t < 3; t++) if (withTailShuffled(g, r, t + 1, () => lb.check()) !== LOCK_LOST) wrong.push(`LockBound: ${what}`);
      }
      const pb = new PileBound(g);
      if (pb.lost()) {
        pile++;
        const r = pb.readTo;
        expect(r).toBeGreaterThan(g.pileNext);
        if (r < g.wasteLen - 1) shortOfAll++;
        for (let t = 0; t < 3; t++) if (!withTailShuffled(g, r, t + 1, () => pb.lost())) wrong.push(`PileBound: ${what}`);
      }
    });
    expect(wrong).toEqual([]);
    expect(lock).toBeGreaterThan(100);
    expect(pile).toBeGreaterThan(10);
    expect(shortOfAll).toBeGreaterThan(50);
  }, 300_000);
});

describe('pile nogoods', () => {
  it('cut no position that the exhaustive reference wins, and claim only what holds (a refuted position with the unread rest of its pile in other orders is lost too), in the real game and the relaxed one', () => {
    let cut = 0;
    let tried = 0;
    let lost = 0;
    const wrong: string[] = [];
    for (const [sizeText, count] of [['2x6 3x3', 12], ['2x5 3x3', 8], ['2x6 2x3', 12]] as const) {
      const size = parseSize(sizeText);
      for (const variant of ['book', 'privileged=1', 'privileged=2 building=none']) {
        for (let n = 0; n < count; n++) {
          const deal = dealFromNumber(n, size);
          for (const relaxed of [false, true]) {
            const what = `${sizeText} ${variant} deal ${n}${relaxed ? ' relaxed' : ''}`;
            const { verdict, nog } = searchWith(deal, variant, relaxed, (g, w, c) => new Checked(g, w, c, what));
            cut += nog.cut;
            tried += nog.tried;
            wrong.push(...nog.wrong);
            if (verdict === DFS_LOST) lost++;
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(cut).toBeGreaterThan(300); // 27,878 when written
    expect(tried).toBeGreaterThan(1000); // 12,796 when written
    expect(lost).toBeGreaterThan(20); // 50 when written
  }, 900_000);

  it('record nothing for a refutation that read everything, and match what they recorded, counting lookups and hits', () => {
    const g = new GameClass(dealFromNumber(3, parseSize('2x4 4x2')), parseRules('book'));
    const ctx = new SearchContext();
    ctx.reset(g.deal, g.rules, [], new MemoryBudget(1 << 26));
    const nog = new PileNogoods(ctx.g, ctx.packer.words, ctx.packer.columnsAt);
    const keys = new Uint32Array(ctx.packer.words);
    // Play to the second deal.
    const buf = new Int32Array(MAX_MOVES);
    while (ctx.g.phase === 1) {
      const k = ctx.g.generate(buf, GEN_ALL);
      expect(k).toBeGreaterThan(0);
      ctx.g.apply(buf[k - 1]!);
    }
    ctx.packer.pack(keys, 0, false);
    nog.add(keys, 0, READ_ALL);
    expect(nog.added).toBe(0);
    expect(nog.match(keys, 0)).toBe(false);
    nog.add(keys, 0, ctx.g.pileNext + 1);
    expect(nog.added).toBe(1);
    expect(nog.match(keys, 0)).toBe(true);
    expect(nog.k).toBe(1);
    expect([nog.asked, nog.hits]).toEqual([2, 1]);
  });
});

describe('the solver with pile nogoods', () => {
  it('is the prove preset and the portfolio prover, and off by default and in the threads', () => {
    expect(PRESETS.prove!.options).toMatchObject({ pileNogoods: true });
    expect(PRESETS.portfolio!.looksLost!.options).toMatchObject({ pileNogoods: true });
    expect(DEFAULT_OPTIONS.pileNogoods).toBe(false);
  });

  it('gives the reference verdict on small deals of every second-deal variant, with tactics too, and cuts', () => {
    const solver = new Solver();
    let cut = 0;
    let breaks = 0;
    for (const sizeText of ['2x6 3x3', '2x5 3x2']) {
      const size = parseSize(sizeText);
      for (const variant of ['book', 'privileged=1', 'privileged=3', 'building=none']) {
        for (const tactics of [undefined, { pairing: 'never' as const, spaces: 'eager' as const }, { pairing: 'always' as const, spaces: 'hold' as const }]) {
          for (let n = 0; n < 12; n++) {
            const deal = dealFromNumber(n, size);
            const rules = parseRules(variant);
            const before = solver.relaxedWins;
            const r = solver.solve(deal, rules, {
              search: 'dfs', signaturesAfter: Infinity, maxNodes: 3_000_000, lockBoundEvery: true, freeFifth: true, wasteDominance: true, pileNogoods: true,
              ...(tactics ? { tactics } : {}),
            });
            cut += solver.nogoods.cut;
            // The counts are the solve's, both searches' when a relaxed win sent it to the real game.
            expect(solver.nogoods.cut).toBeLessThanOrEqual(solver.nogoods.asked);
            breaks += solver.relaxedWins - before;
            const ref = referenceSolve(deal, rules, undefined, tactics);
            expect(r.verdict, `${sizeText} ${variant} ${JSON.stringify(tactics)} deal ${n}`).toBe(ref.verdict);
          }
        }
      }
    }
    expect(cut).toBeGreaterThan(20);
    expect(breaks).toBeGreaterThan(0);
  }, 600_000);
});
