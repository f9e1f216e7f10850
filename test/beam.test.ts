// Beam search (search 'beam'): its levels (src/solver/beam.ts) and the search on full-size deals.
// Its verdicts on small deals are cross-checked with the other searches in test/crosscheck.long.test.ts.
import { describe, expect, it } from 'vitest';
import { BOOK, PYSOL, dealFromNumber, pysolDeal, verifyMoves } from '../src/game/index.js';
import seedrandom from 'seedrandom';
import { BeamLevels, radixSort } from '../src/solver/beam-levels.js';
import { Solver } from '../src/solver/index.js';
import { SignatureTable } from '../src/solver/sigtable.js';
import { SearchTree } from '../src/solver/tree.js';

/** A tree whose root is state 0 (signature lanes 1, 1). */
function rooted(): SearchTree {
  const tree = new SearchTree(new SignatureTable(1 << 24, 64), 1 << 24);
  expect(tree.sig.insert(1, 1)).toBe(0);
  expect(tree.begin(1, 1)).toBe(true);
  return tree;
}

/**
 * A candidate as the search adds it, with signature lanes a, b; its lanes without the flag are
 * made from them (-a and ~b), so that a test can tell them apart and follow them.
 */
function add(lv: BeamLevels, parent: number, m: number, a: number, b: number, s: number, tag: number): void {
  lv.add(parent, m, a, b, -a, ~b, s, tag);
}

/** Levels that start at the root of a fresh `rooted()` tree, keeping `width` states a level. */
function levelsAtRoot(width: number): { tree: SearchTree; lv: BeamLevels } {
  const lv = new BeamLevels();
  lv.begin(width, 0, -7, 1, 1);
  return { tree: rooted(), lv };
}

describe('beam levels', () => {
  it('keep the best `width` children by score, equal scores in the order added, a position once', () => {
    const { tree, lv } = levelsAtRoot(3);
    // Candidates of the root (rank 0): move m has signature lanes (m, m); scores 5, 9, 9, 1, 9.
    add(lv, 0, 10, 10, 10, 5, 110);
    add(lv, 0, 11, 11, 11, 9, 111);
    add(lv, 0, 12, 12, 12, 9, 112);
    add(lv, 0, 13, 13, 13, 1, 113);
    add(lv, 0, 11, 11, 11, 9, 111); // the same position as the second: kept once
    expect(lv.select(tree.sig, tree)).toBe(3);
    // The 9s in the order added (ids 1, 2), then the 5 (id 3); the 1 is left out.
    expect(Array.from(lv.ids.subarray(0, lv.size))).toEqual([1, 2, 3]);
    expect([tree.via(1), tree.via(2), tree.via(3)]).toEqual([11, 12, 10]);
    expect(Array.from(lv.tags.subarray(0, lv.size))).toEqual([111, 112, 110]);
    expect([tree.parent(1), tree.parent(2), tree.parent(3)]).toEqual([0, 0, 0]);
    expect(lv.truncated).toBe(true);
    expect([lv.next, lv.count]).toEqual([0, 0]);
  });

  it('are not truncated by candidates left out that are positions kept already, and are by a new one', () => {
    // The search adds every child, kept before or not (search.ts): `select` looks them up.
    const { tree, lv } = levelsAtRoot(2);
    add(lv, 0, 10, 10, 10, 8, 0);
    add(lv, 0, 11, 11, 11, 7, 0);
    add(lv, 0, 12, 1, 1, 9, 0); // the root itself, best scored: skipped, not kept
    add(lv, 0, 13, 10, 10, 3, 0); // the same position as the first, scored lower
    add(lv, 0, 14, 1, 1, 2, 0); // the root again
    expect(lv.select(tree.sig, tree)).toBe(2);
    expect([tree.via(1), tree.via(2)]).toEqual([10, 11]);
    expect(lv.truncated).toBe(false);
    // The next level: past the width, kept positions and then a new one at the very end.
    add(lv, 0, 20, 20, 20, 9, 0);
    add(lv, 1, 21, 21, 21, 9, 0);
    for (let c = 0; c < 200; c++) add(lv, c & 1, 30 + c, 10 + (c % 3), 10 + (c % 3), 5, 0);
    add(lv, 1, 22, 22, 22, 1, 0);
    expect(lv.select(tree.sig, tree)).toBe(2);
    expect(lv.truncated).toBe(true);
    expect(tree.sig.find(22, 22)).toBe(-1);
  });

  it('order the next level as the tree: by the parent, then by score', () => {
    const { tree, lv } = levelsAtRoot(8);
    expect([lv.stateA[0], lv.stateB[0]]).toEqual([1, 1]);
    add(lv, 0, 1, 101, 1, 0, 101);
    add(lv, 0, 2, 102, 1, 0, 102);
    lv.select(tree.sig, tree); // states 1 and 2, ranks 0 and 1
    expect(lv.truncated).toBe(false);
    // The second state's children score best, but the first's come first in the level.
    add(lv, 0, 3, 103, 1, 1, 103);
    add(lv, 1, 4, 104, 1, 7, 104);
    add(lv, 0, 5, 105, 1, 2, 105);
    add(lv, 1, 6, 106, 1, 6, 106);
    expect(lv.select(tree.sig, tree)).toBe(4);
    // Ids in score order: 4 (id 3), 6 (4), 5 (5), 3 (6); in tree order: parent 1's 5, 3, then parent 2's 4, 6.
    expect(Array.from(lv.ids.subarray(0, lv.size))).toEqual([5, 6, 3, 4]);
    expect([5, 6, 3, 4].map((id) => tree.parent(id))).toEqual([1, 1, 2, 2]);
    // The tags in the same order: moves 5, 3, 4, 6; and each state's lanes without the flag.
    expect(Array.from(lv.tags.subarray(0, lv.size))).toEqual([105, 103, 104, 106]);
    expect(Array.from(lv.stateA.subarray(0, lv.size))).toEqual([-105, -103, -104, -106]);
    expect(Array.from(lv.stateB.subarray(0, lv.size))).toEqual([~1, ~1, ~1, ~1]);
    expect(lv.truncated).toBe(false);
  });

  it('grow past their first buffers and report the memory cap', () => {
    const { tree, lv } = levelsAtRoot(5000);
    for (let c = 0; c < 3000; c++) add(lv, 0, c & 0xfff, 1000 + c, 7, c % 13, c);
    expect(lv.select(tree.sig, tree)).toBe(3000);
    expect(lv.size).toBe(3000);
    // Each state's tag came with it: its move was its candidate's number, and so was its tag.
    let wrong = 0;
    for (let k = 0; k < 3000; k++) if (lv.tags[k] !== tree.via(lv.ids[k]!)) wrong++;
    expect(wrong).toBe(0);
    // And so its lanes without the flag: -(1000 + c) and ~7.
    for (let k = 0; k < 3000; k++) if (lv.stateA[k] !== -(1000 + tree.via(lv.ids[k]!)) || lv.stateB[k] !== ~7) wrong++;
    expect(wrong).toBe(0);
    // A table with room for a handful of states: full before the level is kept.
    const small = new SearchTree(new SignatureTable(256, 4), 1 << 20);
    small.sig.insert(1, 1);
    small.begin(1, 1);
    lv.begin(100, 0, 0, 1, 1);
    for (let c = 0; c < 100; c++) add(lv, 0, c, 5000 + c, 9, 0, 0);
    expect(lv.select(small.sig, small)).toBe(-1);
  });
});

describe('selecting the best candidates', () => {
  it('radixSort orders items by their keys, equal keys in the order given, for keys of every size', () => {
    const rng = seedrandom('radix');
    const count = new Int32Array(2048);
    for (let t = 0; t < 300; t++) {
      const n = Math.floor(rng() * 500);
      // Keys up to 2^b - 1 for b from 0 (all 0) to 31: one, two or three passes, and none.
      const b = t % 32;
      const key = new Int32Array(n + 5);
      for (let i = 0; i < key.length; i++) key[i] = Math.floor(rng() * 2 ** b) | 0;
      // Few distinct keys in some runs, so that ties are common.
      if (t % 3 === 0) for (let i = 0; i < key.length; i++) key[i] = key[i]! % 7;
      // The items: a shuffled subset of the keys' indices.
      const all = Array.from({ length: key.length }, (_, i) => i).sort(() => rng() - 0.5).slice(0, n);
      const items = Int32Array.from(all);
      const scratch = new Int32Array(n);
      const out = radixSort(key, items, scratch, n, count);
      expect(out === items || out === scratch).toBe(true);
      const want = all.map((it, pos) => ({ it, pos })).sort((x, y) => key[x.it]! - key[y.it]! || x.pos - y.pos).map((x) => x.it);
      expect(Array.from(out.subarray(0, n))).toEqual(want);
    }
  });

  it('a level keeps what a sort of every candidate would keep, when most are positions seen before', () => {
    const rng = seedrandom('levels');
    for (let t = 0; t < 20; t++) {
      const width = 1 + Math.floor(rng() * 40);
      const { tree, lv } = levelsAtRoot(width);
      const n = 200 + Math.floor(rng() * 800);
      const score = Array.from({ length: n }, () => Math.floor(rng() * 50));
      // Most candidates are positions stored before (signature lanes 10 + c), a few twice.
      const seen = new Set<number>();
      for (let c = 0; c < n; c++) if (rng() < 0.8) seen.add(c);
      for (const c of seen) tree.sig.insert(10 + c, 3);
      const lane = (c: number): number => 10 + (c % 7 === 0 && c > 0 ? c - 1 : c);
      for (let c = 0; c < n; c++) add(lv, 0, c & 0xfff, lane(c), 3, score[c]!, c);
      // The reference: every candidate in score order (ties in the order added), new ones kept.
      const order = Array.from({ length: n }, (_, c) => c).sort((x, y) => score[y]! - score[x]! || x - y);
      const want: number[] = [];
      const taken = new Set(Array.from(seen, (c) => 10 + c));
      for (const c of order) {
        if (want.length === width) break;
        if (taken.has(lane(c))) continue;
        taken.add(lane(c));
        want.push(c & 0xfff);
      }
      const kept = lv.select(tree.sig, tree);
      expect(kept).toBe(want.length);
      // All children of the root: the level is in score order, each with its tag.
      expect(Array.from(lv.ids.subarray(0, kept), (id) => tree.via(id))).toEqual(want);
      expect(Array.from(lv.tags.subarray(0, kept), (c) => c & 0xfff)).toEqual(want);
    }
  });
});

describe('beam search', () => {
  it('wins full-size deals with lines that verify, the same every run', () => {
    const solver = new Solver();
    for (const [deal, rules, what] of [[pysolDeal(1), PYSOL, 'PySolFC game 1'], [dealFromNumber(1), BOOK, 'book deal 1']] as const) {
      const r = solver.solve(deal, rules, { search: 'beam', heuristic: 'wasteStack', maxNodes: 1_000_000 });
      expect(r.verdict, what).toBe('won');
      expect(verifyMoves(deal, rules, r.moves!).won, what).toBe(true);
      expect(r.bestHome, what).toBe(104);
      const again = new Solver().solve(deal, rules, { search: 'beam', heuristic: 'wasteStack', maxNodes: 1_000_000 });
      expect([again.nodes, again.moves], what).toEqual([r.nodes, r.moves]);
    }
  });

  it('ends unknown, never unsolvable, on a full-size deal it cannot search through', () => {
    // Book deal 9 is not won within these nodes by any search (test/depth-first.test.ts).
    const r = new Solver().solve(dealFromNumber(9), BOOK, { search: 'beam', heuristic: 'wasteDealt', maxNodes: 100_000 });
    expect([r.verdict, r.limit, r.nodes]).toEqual(['unknown', 'nodes', 100_000]);
    expect(r.states).toBeGreaterThan(0);
  });
});
