// Waste dominance (src/solver/dominance.ts): under second-deal=none, a position whose layout and
// stock pointer are a refuted position's, with that position's waste and more, is lost. Every
// position it cuts is checked against the exhaustive reference, and the solver's verdicts with
// it against the reference's.
import { describe, expect, it } from 'vitest';
import { type Game, dealFromNumber, parseRules, parseSize } from '../src/game/index.js';
import { Solver } from '../src/solver/index.js';
import { SearchContext } from '../src/solver/context.js';
import { DFS_LOST, DFS_WON, DepthFirst } from '../src/solver/dfs.js';
import { WasteDominance } from '../src/solver/dominance.js';
import { MemoryBudget } from '../src/solver/memory.js';
import { moveOptions } from '../src/solver/moves.js';
import { DEFAULT_OPTIONS } from '../src/solver/options.js';
import { referenceSearch, referenceSolve } from './reference.js';

/** Dominance that checks each position it would cut with the reference search before cutting it. */
class Checked extends WasteDominance {
  cut = 0;
  wrong: string[] = [];
  constructor(private readonly gm: Game, words: number, private readonly what: string) {
    super(gm, words);
  }
  override dominated(keys: Uint32Array, off: number): boolean {
    if (!super.dominated(keys, off)) return false;
    this.cut++;
    const h = this.gm.histLen;
    if (referenceSearch(this.gm, 3_000_000).won) {
      this.wrong.push(`${this.what}: a won position cut after ${h} moves`);
      while (this.gm.histLen > h) this.gm.undo();
    }
    return true;
  }
}

/** A plain depth-first search (the solver's moves and reductions, no bounds) with dominance, to its end. */
function searchWith(deal: ReturnType<typeof dealFromNumber>, rulesText: string, what: string): { verdict: number; dom: Checked } {
  const ctx = new SearchContext();
  ctx.reset(deal, parseRules(rulesText), [], new MemoryBudget(1 << 30));
  const dfs = new DepthFirst();
  const o = { ...DEFAULT_OPTIONS, search: 'dfs' as const };
  dfs.begin(ctx.g, ctx.packer, ctx.table(o, true), false, moveOptions(o), null, null, null);
  const dom = new Checked(ctx.g, ctx.packer.words, what);
  dfs.dominance = dom;
  const verdict = dfs.run(Infinity, Infinity, Infinity);
  return { verdict, dom };
}

describe('waste dominance (second-deal=none)', () => {
  it('cuts no position that the exhaustive reference wins, and gives the reference verdict (small deals of two and one packs)', () => {
    let cut = 0;
    let deals = 0;
    const wrong: string[] = [];
    for (const sizeText of ['2x3 3x2', '2x4 4x2', '1x7 3x2', '1x6 2x2']) {
      const size = parseSize(sizeText);
      for (const variant of ['second-deal=none', 'second-deal=none building=none']) {
        for (let n = 0; n < 15; n++) {
          const deal = dealFromNumber(n, size);
          const what = `${sizeText} ${variant} deal ${n}`;
          const { verdict, dom } = searchWith(deal, variant, what);
          const ref = referenceSolve(deal, parseRules(variant));
          expect(verdict === DFS_WON ? 'won' : verdict === DFS_LOST ? 'unsolvable' : 'other', what).toBe(ref.verdict);
          cut += dom.cut;
          wrong.push(...dom.wrong);
          deals++;
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(deals).toBe(120);
    // It has to cut for the check to mean anything.
    expect(cut).toBeGreaterThan(80); // 119 when written
  }, 600_000);

  it('is used only by exact depth-first search with no second deal and no tactics: the same verdicts, fewer nodes', () => {
    const solver = new Solver();
    const size = parseSize('1x7 3x2');
    let fewer = 0;
    for (let n = 0; n < 20; n++) {
      const deal = dealFromNumber(n, size);
      for (const variant of ['second-deal=none', 'book']) {
        const rules = parseRules(variant);
        const base = { search: 'dfs' as const, signaturesAfter: Infinity, maxNodes: 2_000_000 };
        const off = solver.solve(deal, rules, base);
        const on = solver.solve(deal, rules, { ...base, wasteDominance: true });
        expect(on.verdict, `${variant} deal ${n}`).toBe(off.verdict);
        if (variant === 'book') expect(on.nodes, `book deal ${n}: no dominance with a second deal`).toBe(off.nodes);
        else if (on.verdict === 'unsolvable') {
          expect(on.nodes).toBeLessThanOrEqual(off.nodes);
          if (on.nodes < off.nodes) fewer++;
        }
      }
    }
    expect(fewer).toBeGreaterThan(0);
  }, 300_000);
});
