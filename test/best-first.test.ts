// Best-first search (src/solver/searches/best-first.ts) on signatures, and its search tree.
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { Game, FULL_SIZE, BOOK, PYSOL, MAX_MOVES, SRC_DRAW, dealFromNumber, parseSize } from '../src/game/index.js';
import { KeyPacker } from '../src/solver/key.js';
import { Solver } from '../src/solver/index.js';
import { pysolDeal } from '../src/game/pysol.js';
import { SignatureTable } from '../src/solver/sigtable.js';
import { SearchTree } from '../src/solver/tree.js';

/**
 * Grows a random search tree over the Game's position up to `states` states: each step walks to
 * a random state (with `sigs`, as `SearchTree.walkTo` takes it), checks the position against the
 * one recorded when the state was made and its signature against the one kept beside the tree
 * (with `sigs`, the tree's own too), and adds a child.
 */
function growAndWalk(g: Game, seed: string, states: number, sigs: boolean): { tree: SearchTree; deepest: number; walks: number } {
  const packer = new KeyPacker(g);
  const sig = new SignatureTable(1 << 26, 16);
  const tree = new SearchTree(sig, 1 << 26);
  const keys: string[] = [];
  const kept: number[] = [];
  const key = new Uint32Array(packer.words);
  const keyOf = (drew: boolean): string => {
    packer.pack(key, 0, drew);
    return key.join(',');
  };
  packer.baseSig();
  sig.insert(packer.flagA(packer.sigA, false), packer.flagB(packer.sigB, false));
  tree.begin(packer.sigA, packer.sigB);
  keys.push(keyOf(false));
  kept.push(packer.sigA, packer.sigB);
  const rng = seedrandom(seed);
  const moves = new Int32Array(MAX_MOVES);
  let deepest = 0;
  let walks = 0;
  for (let step = 0; step < 20_000 && sig.size < states; step++) {
    // Mostly the newest states (as best-first search goes), sometimes any.
    const x = rng() < 0.7 ? Math.max(0, sig.size - 1 - Math.floor(rng() * 4)) : Math.floor(rng() * sig.size);
    tree.walkTo(g, packer, x, sigs);
    walks++;
    expect(tree.at).toBe(x);
    expect(keyOf(tree.justDrew), `state ${x}`).toBe(keys[x]);
    packer.baseSig();
    expect([packer.sigA, packer.sigB], `signature of state ${x}`).toEqual([kept[2 * x], kept[2 * x + 1]]);
    if (sigs) expect([tree.sigA, tree.sigB], `the tree's signature of state ${x}`).toEqual([packer.sigA, packer.sigB]);
    deepest = Math.max(deepest, g.moveCount);
    const n = g.generate(moves, 0);
    if (n === 0) continue;
    const m = moves[Math.floor(rng() * n)]!;
    const drew = (m & 63) === SRC_DRAW;
    packer.childSig(kept[2 * x]!, kept[2 * x + 1]!, m);
    const ca = packer.sigA;
    const cb = packer.sigB;
    const id = sig.insert(packer.flagA(ca, drew), packer.flagB(cb, drew));
    if (id < 0) continue;
    expect(tree.set(id, x, m)).toBe(true);
    expect(tree.parent(id)).toBe(x);
    expect(tree.via(id)).toBe(m & 4095);
    g.apply(m);
    keys.push(keyOf(drew));
    kept.push(ca, cb);
    g.undo();
  }
  expect(sig.size).toBe(states);
  return { tree, deepest, walks };
}

describe('best-first search: signatures and a search tree', () => {
  it('walks the Game to any state of the tree, with its signature', () => {
    // A random tree over book deal 3 (full size).
    const { tree, deepest, walks } = growAndWalk(new Game(dealFromNumber(3, FULL_SIZE), BOOK), 'tree-walk', 6000, true);
    expect(deepest, 'deep walks').toBeGreaterThan(60);
    expect(walks).toBeGreaterThan(6000);
    // 5 bytes a state in the tree, beside the signatures' 8 to 12.
    expect(tree.bytesPerState()).toBeGreaterThanOrEqual(8 + 5);
    expect(tree.bytesPerState()).toBeLessThanOrEqual(12 + 5 + (4096 * 5) / 6000);
  });

  it('walks the Game to any state without making signatures, for a caller that keeps them (beam search)', () => {
    // On PySolFC game 7 under `pysol` (cards move between columns), each state's signature kept
    // beside the tree only, as beam search keeps its levels'.
    const { deepest } = growAndWalk(new Game(pysolDeal(7), PYSOL), 'tree-walk-bare', 4000, false);
    expect(deepest, 'deep walks').toBeGreaterThan(40);
  });

  it('keeps every source and destination a move can have', () => {
    // Ids 0-4095, each with a parent id up to the largest the tree takes and a move with a card.
    const tree = new SearchTree(new SignatureTable(1 << 20, 16), 1 << 20);
    for (let via = 0; via < 4096; via++) {
      const id = (1 << 27) - 1 - via;
      expect(tree.set(via, id, via | (37 << 12))).toBe(true);
      expect([tree.parent(via), tree.via(via)]).toEqual([id, via]);
    }
  });

  it('confirms an exhaustion on exact keys: unsolvable only after a complete search on them', () => {
    // The first three lost deals of 1x6 5x3 (LockBound off, so that the search has to prove them).
    const solver = new Solver();
    let checked = 0;
    for (let n = 0; n < 40 && checked < 3; n++) {
      const d = dealFromNumber(n, parseSize('1x6 5x3'));
      const o = { search: 'best', heuristic: 'blend', lockBound: false, maxNodes: 2_000_000 } as const;
      const confirmed = solver.confirmations;
      const r = solver.solve(d, BOOK, o);
      if (r.verdict !== 'unsolvable') continue;
      checked++;
      expect(solver.confirmations, `deal ${n}`).toBe(confirmed + 1);
      const dfs = solver.solve(d, BOOK, { ...o, search: 'dfs', signaturesAfter: Infinity });
      expect(dfs.verdict).toBe('unsolvable');
      // The confirmation is depth-first search on exact keys, after the best-first nodes.
      expect(r.nodes, `deal ${n}`).toBeGreaterThan(dfs.nodes);
      const short = solver.solve(d, BOOK, { ...o, maxNodes: r.nodes - 1 });
      expect([short.verdict, short.limit], `deal ${n}`).toEqual(['unknown', 'nodes']);
    }
    expect(checked).toBe(3);
  });
});
