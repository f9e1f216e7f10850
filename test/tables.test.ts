/**
 * The collapse table (src/solver/collapse-table.ts) and the memory budget (src/solver/memory.ts):
 * the table answers exactly as a set of whole keys does, reads its keys back, keeps within its
 * budget (growth included) and gives it back; a depth-first search on it is the search on the
 * TranspositionTable; a preset's stages draw on one pool.
 */
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import { FULL_SIZE, GEN_ALL, Game, MAX_MOVES, SRC_DRAW, dealFromNumber, moveSrc, parseRules, parseSize } from '../src/game/index.js';
import { CollapseTable } from '../src/solver/collapse-table.js';
import { DepthFirst, DFS_LOST } from '../src/solver/dfs.js';
import { KeyPacker } from '../src/solver/key.js';
import { MB, MemoryBudget } from '../src/solver/memory.js';
import { moveOptions } from '../src/solver/moves.js';
import { DEFAULT_OPTIONS, Solver } from '../src/solver/index.js';
import { FULL, TranspositionTable } from '../src/solver/table.js';
import { TAKE_OVER_AT_ONCE } from './solver-shared.js';

/** The keys of the positions of random playouts of a few deals (many share a stock or a column part). */
function playoutKeys(rulesText: string, sizeText: string, deals: number, seed: string): { keys: Uint32Array[]; packer: KeyPacker } {
  const rules = parseRules(rulesText);
  const size = sizeText === 'full' ? FULL_SIZE : parseSize(sizeText);
  const rng = seedrandom(seed);
  const buf = new Int32Array(MAX_MOVES);
  const keys: Uint32Array[] = [];
  let packer: KeyPacker | null = null;
  for (let n = 1; n <= deals; n++) {
    const g = new Game(dealFromNumber(n, size), rules);
    packer = new KeyPacker(g);
    for (let playout = 0; playout < 20; playout++) {
      g.reset();
      for (let step = 0; step < 300; step++) {
        const k = new Uint32Array(packer.words);
        const n = g.generate(buf, GEN_ALL);
        if (n === 0) break;
        const m = buf[Math.floor(rng() * n)]!;
        g.apply(m);
        packer.pack(k, 0, moveSrc(m) === SRC_DRAW);
        keys.push(k);
      }
    }
  }
  return { keys, packer: packer! };
}

const text = (k: Uint32Array, off = 0, words = k.length): string => Array.from(k.subarray(off, off + words)).join(',');

describe('collapse table', () => {
  for (const [rules, size] of [['book', 'full'], ['pysol', 'full'], ['book', '1x5 4x3'], ['building=none privileged=2', '2x4 4x2']] as const) {
    it(`answers as a set of whole keys does, and reads its keys back (${rules}, ${size})`, () => {
      const { keys, packer } = playoutKeys(rules, size, 3, `collapse ${rules} ${size}`);
      const budget = new MemoryBudget(64 * MB);
      const t = new CollapseTable(packer.words, packer.columnsAt, packer.bits, budget, 16);
      const set = new Set<string>();
      let wrong = 0;
      for (const k of keys) {
        const had = set.has(text(k));
        const r = t.insert(k, 0);
        if (had ? !(r < 0 && r !== FULL) : r !== set.size) wrong++;
        set.add(text(k));
      }
      expect(wrong).toBe(0);
      expect(t.size).toBe(set.size);
      // Far fewer distinct parts than positions: the point of the table.
      expect(t.parts.stock + t.parts.columns).toBeLessThan(set.size);
      const back = new Set<string>();
      t.forEachKey((k, off) => back.add(text(k, off, packer.words)) !== undefined);
      expect(back).toEqual(set);
      // The budget holds exactly what the arrays take; release gives it all back.
      expect(budget.used).toBe(t.bytes());
      t.release();
      expect(budget.used).toBe(0);
    });
  }

  it('keeps within its budget, a growth included, and answers FULL when it has no room', () => {
    const { keys, packer } = playoutKeys('book', 'full', 4, 'collapse full');
    for (const cap of [2000, 32 * 1024, 200 * 1024]) {
      const budget = new MemoryBudget(cap);
      const t = new CollapseTable(packer.words, packer.columnsAt, packer.bits, budget, 16);
      let full = 0;
      let peak = 0;
      const seen = new Set<string>();
      for (const k of keys) {
        const r = t.insert(k, 0);
        peak = Math.max(peak, budget.used);
        if (r === FULL) full++;
        else seen.add(text(k));
      }
      expect(peak, `cap ${cap}`).toBeLessThanOrEqual(cap);
      expect(full, `cap ${cap}`).toBeGreaterThan(0);
      // Every key it took is still there.
      let lost = 0;
      for (const k of keys) if (seen.has(text(k)) && t.insert(k, 0) >= 0) lost++;
      expect(lost).toBe(0);
    }
  });

  it('a depth-first search on it is the search on the TranspositionTable: the same nodes and states', () => {
    for (const [rulesText, n] of [['book', 2], ['book', 9876], ['building=none', 3], ['second-deal=none', 5]] as const) {
      const rules = parseRules(rulesText);
      const figures = [new TranspositionTable(5, 1 << 30), null].map((tt) => {
        const g = new Game(dealFromNumber(n, FULL_SIZE), rules);
        const packer = new KeyPacker(g);
        const table = tt ?? new CollapseTable(packer.words, packer.columnsAt, packer.bits, new MemoryBudget(1 << 30));
        const dfs = new DepthFirst();
        dfs.begin(g, packer, table, false, moveOptions(DEFAULT_OPTIONS), null, null, null);
        const code = dfs.run(300_000, Infinity, Infinity);
        return [code === DFS_LOST ? 'lost' : code, dfs.nodes, table.size];
      });
      expect(figures[1], `${rulesText} deal ${n}`).toEqual(figures[0]);
    }
  });
});

describe('one memory pool for a preset', () => {
  it("the prover that takes over a deal that looks lost gets the whole pool, not its stage's share", () => {
    const solver = new Solver();
    // Book deal 3734 is lost, and its proof needs more than 2 MB (about 3.8 MB with pile nogoods): the
    // prover fills the pool.
    const r = solver.solvePreset(dealFromNumber(3734, FULL_SIZE), parseRules('book'), TAKE_OVER_AT_ONCE, { maxNodes: 5_000_000, maxMemoryMB: 2 });
    expect([r.verdict, r.limit]).toEqual(['unknown', 'memory']);
    const bytes = r.states * r.bytesPerState;
    expect(bytes).toBeLessThanOrEqual(2 * MB);
    // The depth-first stage's share is a fifth: the prover stored more than that.
    expect(bytes).toBeGreaterThan(0.5 * 2 * MB);
  });
});
