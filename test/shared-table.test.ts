/**
 * The shared transposition table (src/solver/shared-table.ts): in one thread it answers as the
 * ordinary TranspositionTable does, and when several threads insert overlapping keys at once no
 * key is lost and none is stored twice. The threads load the built module (dist/, which `npm
 * test` builds first).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { type SharedLayout, ID_BLOCK, SharedTable, layoutBytesPerState, newSharedBuffer, sharedBytes, sharedLayout } from '../src/solver/shared-table.js';
import { hashKey } from '../src/solver/key.js';
import { FULL, MAX_LOAD, MIN_SLOTS, TranspositionTable, homeMul, homeShift } from '../src/solver/table.js';

const BUILT = join(import.meta.dirname, '..', 'dist', 'src', 'solver', 'shared-table.js');

/** A fixed pseudo-random sequence (xorshift32), so that a failure can be run again. */
function rng(seed: number): () => number {
  let x = seed | 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}

/** `n` distinct keys of `words` words, one after another in one array. */
function distinctKeys(n: number, words: number, seed: number): Uint32Array {
  const next = rng(seed);
  const out = new Uint32Array(n * words);
  const seen = new Set<string>();
  for (let i = 0; i < n; ) {
    const key = Array.from({ length: words }, () => next());
    const text = key.join(',');
    if (seen.has(text)) continue;
    seen.add(text);
    out.set(key, i * words);
    i++;
  }
  return out;
}

describe('SharedTable in one thread', () => {
  it('answers new and existing as TranspositionTable does, with the same ids, on keys with repeats', () => {
    const words = 5;
    const next = rng(7);
    // Words from a small range, so that many keys repeat.
    const n = 20_000;
    const keys = new Uint32Array(n * words);
    for (let i = 0; i < keys.length; i++) keys[i] = next() % 3;
    const layout = sharedLayout(words, 1 << 20);
    const shared = new SharedTable(layout, newSharedBuffer(layout));
    const plain = new TranspositionTable(words, 1 << 20);
    const ids = new Set<number>();
    for (let i = 0; i < n; i++) {
      const a = shared.insert(keys, i * words);
      expect(a).toBe(plain.insert(keys, i * words));
      if (a >= 0) {
        expect(ids.has(a)).toBe(false);
        ids.add(a);
      }
    }
    expect(ids.size).toBeGreaterThan(100);
    expect(ids.size).toBeLessThan(n / 2);
    expect(shared.inserted).toBe(plain.size);
    // Ids are taken a block at a time.
    expect(shared.size).toBe(Math.ceil(plain.size / ID_BLOCK) * ID_BLOCK);
    for (let i = 0; i < n; i++) expect(shared.find(keys, i * words)).toBe(plain.find(keys, i * words));
  });

  it('answers FULL past its capacity, and still finds what it holds', () => {
    const words = 3;
    const layout = sharedLayout(words, 4096);
    expect(layout.capacity).toBeGreaterThan(0);
    const keys = distinctKeys(layout.capacity + 5, words, 11);
    const t = new SharedTable(layout, newSharedBuffer(layout));
    for (let i = 0; i < layout.capacity; i++) expect(t.insert(keys, i * words)).toBe(i);
    expect(t.insert(keys, layout.capacity * words)).toBe(FULL);
    for (let i = 0; i < layout.capacity; i++) expect(t.insert(keys, i * words)).toBe(-(i + 3));
    expect(t.find(keys, (layout.capacity + 1) * words)).toBe(-1);
  });

  it('sizes its layout within the cap, at a load of at most 0.75, and reports its bytes a state', () => {
    for (const [words, mb] of [[5, 1], [5, 64], [6, 100], [2, 0.01], [5, 3000]] as const) {
      const maxBytes = mb * 1024 * 1024;
      const l = sharedLayout(words, maxBytes);
      expect(l.capacity).toBeGreaterThan(0);
      expect(l.capacity).toBeLessThanOrEqual(l.slots * MAX_LOAD);
      expect(sharedBytes(l) - 16).toBeLessThanOrEqual(maxBytes);
      expect(l.capacity * layoutBytesPerState(l)).toBeLessThanOrEqual(maxBytes + 1e-6);
      // Not wasteful: at least 60 % of the cap holds states.
      expect(l.capacity * layoutBytesPerState(l)).toBeGreaterThan(0.6 * maxBytes);
    }
    // A node budget caps it; a cap too small for the smallest index holds nothing.
    expect(sharedLayout(5, 1 << 30, 1000).capacity).toBe(1000);
    expect(sharedLayout(5, MIN_SLOTS * 4).capacity).toBe(0);
  });
});

/**
 * Each thread waits at a gate, then inserts its keys and sends back its answers. Keys are
 * indices into one pool of distinct keys.
 */
const THREAD = `
const { workerData, parentPort } = require('node:worker_threads');
import(workerData.module).then(({ SharedTable }) => {
  const t = new SharedTable(workerData.layout, workerData.buffer);
  const { pool, order, words, gate } = workerData;
  const key = new Uint32Array(words);
  const flags = new Int32Array(gate);
  Atomics.add(flags, 1, 1);
  Atomics.wait(flags, 0, 0);
  const answers = new Int32Array(order.length);
  const threads = workerData.lockstep;
  for (let i = 0; i < order.length; i++) {
    for (let k = 0; k < words; k++) key[k] = pool[order[i] * words + k];
    if (threads > 0) {
      // A barrier before each insert: every thread arrives, then all insert at once.
      Atomics.add(flags, 2, 1);
      while (Atomics.load(flags, 2) < threads * (i + 1));
    }
    answers[i] = t.insert(key, 0);
  }
  parentPort.postMessage({ answers, inserted: t.inserted });
});
`;

interface ThreadAnswers {
  answers: Int32Array;
  inserted: number;
}

/**
 * Runs `orders.length` threads inserting pool keys in those orders into one table at once; in
 * `lockstep`, each insert waits until every thread is about to make its own.
 */
async function insertTogether(layout: SharedLayout, buffer: SharedArrayBuffer, pool: Uint32Array, orders: Int32Array[], lockstep = false): Promise<ThreadAnswers[]> {
  const gate = new SharedArrayBuffer(12);
  const flags = new Int32Array(gate);
  const module = pathToFileURL(BUILT).href;
  const workers = orders.map((order) => new Worker(THREAD, { eval: true, workerData: { module, layout, buffer, pool, order, words: layout.words, gate, lockstep: lockstep ? orders.length : 0 } }));
  const results = workers.map(
    (w) =>
      new Promise<ThreadAnswers>((resolve, reject) => {
        w.once('message', resolve);
        w.once('error', reject);
      }),
  );
  // Open the gate once every thread waits at it, so that they start together.
  while (Atomics.load(flags, 1) < workers.length) await new Promise((r) => setTimeout(r, 5));
  Atomics.store(flags, 0, 1);
  Atomics.notify(flags, 0);
  try {
    return await Promise.all(results);
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** Thread k's order: five sixths of `distinct` pool keys from k sixths on (wrapping round). */
function windows(threads: number, distinct: number): Int32Array[] {
  return Array.from({ length: threads }, (_, k) => {
    const span = Math.ceil((5 * distinct) / 6);
    const order = new Int32Array(span);
    for (let i = 0; i < span; i++) order[i] = (Math.floor((k * distinct) / 6) + i) % distinct;
    return order;
  });
}

/**
 * After threads inserted pool keys in `orders` at once: each key got exactly one new answer, and
 * every answer for it names the same id; the ids are distinct and each holds its key; the calling
 * thread finds every key; the threads' counts of keys stored add up; and the ids taken are those
 * stored and at most the rest of a block (ID_BLOCK) a thread.
 */
function checkTogether(layout: SharedLayout, buffer: SharedArrayBuffer, pool: Uint32Array, orders: Int32Array[], results: ThreadAnswers[]): void {
  const words = layout.words;
  const distinct = pool.length / words;
  const idOf = new Int32Array(distinct).fill(-1);
  const newAnswers = new Int32Array(distinct);
  results.forEach((r, k) =>
    r.answers.forEach((a, i) => {
      expect(a).not.toBe(FULL);
      const key = orders[k]![i]!;
      const id = a >= 0 ? a : -a - 3;
      if (a >= 0) newAnswers[key]!++;
      if (idOf[key] === -1) idOf[key] = id;
      expect(id, `key ${key}`).toBe(idOf[key]);
    }),
  );
  const inserted = new Set<number>();
  for (const order of orders) for (const key of order) inserted.add(key);
  expect(inserted.size).toBe(distinct);
  for (let key = 0; key < distinct; key++) expect(newAnswers[key], `key ${key}`).toBe(1);
  expect(new Set(idOf).size).toBe(distinct);
  const t = new SharedTable(layout, buffer);
  for (let key = 0; key < distinct; key++) {
    expect(Array.from(t.store.subarray(idOf[key]! * words, (idOf[key]! + 1) * words))).toEqual(Array.from(pool.subarray(key * words, (key + 1) * words)));
    expect(t.find(pool, key * words), `key ${key}`).toBe(idOf[key]);
  }
  const total = results.reduce((s, r) => s + r.inserted, 0);
  expect(total).toBe(distinct);
  expect(t.size).toBeGreaterThanOrEqual(distinct);
  expect(t.size).toBeLessThanOrEqual(distinct + results.length * ID_BLOCK);
}

describe('SharedTable across threads', () => {
  it.each([2, 3])('%i threads inserting overlapping keys at once lose none and store none twice', async (threads) => {
    expect(existsSync(BUILT), `${BUILT} is missing: build first`).toBe(true);
    const words = 5;
    const distinct = 30_000;
    const pool = distinctKeys(distinct, words, 1234 + threads);
    // A table near its capacity, so that probe sequences are long and threads meet in them.
    const layout = sharedLayout(words, Math.ceil(distinct * (4 * words + 4 / MAX_LOAD) * 1.1));
    expect(layout.capacity).toBeGreaterThanOrEqual(distinct);
    const buffer = newSharedBuffer(layout);
    // Every key is in at least one window and most in all; a thread that finds keys already
    // there runs faster than one storing them, catches it up, and then both want the same keys.
    const orders = windows(threads, distinct);
    checkTogether(layout, buffer, pool, orders, await insertTogether(layout, buffer, pool, orders));
  });

  it('threads whose keys all hash to the same few slots race for every empty slot, and lose no key', async () => {
    expect(existsSync(BUILT), `${BUILT} is missing: build first`).toBe(true);
    const words = 4;
    const layout = sharedLayout(words, 1 << 18);
    // Keys whose home slot is one of the first 16: every insert probes one cluster to its end,
    // and the threads compare-exchange the same empty slot there, most of them at once.
    const distinct = 1500;
    const pool = new Uint32Array(distinct * words);
    const next = rng(99);
    const key = new Uint32Array(words);
    const seen = new Set<string>();
    for (let n = 0; n < distinct; ) {
      for (let k = 0; k < words; k++) key[k] = next();
      const home = Math.imul(hashKey(key, 0, words) & ((1 << 27) - 1), homeMul(layout.slots)) >>> homeShift(layout.slots, 27);
      if (home >= 16 || seen.has(key.join(','))) continue;
      seen.add(key.join(','));
      pool.set(key, n * words);
      n++;
    }
    const buffer = newSharedBuffer(layout);
    const orders = windows(2, distinct);
    checkTogether(layout, buffer, pool, orders, await insertTogether(layout, buffer, pool, orders));
  });

  it('two threads inserting the same keys in lockstep, each at the same moment, store each once', async () => {
    expect(existsSync(BUILT), `${BUILT} is missing: build first`).toBe(true);
    const words = 5;
    const distinct = 400;
    const pool = distinctKeys(distinct, words, 4321);
    const layout = sharedLayout(words, 1 << 16);
    const buffer = newSharedBuffer(layout);
    const order = Int32Array.from({ length: distinct }, (_, i) => i);
    // Each key is wanted by both threads at once: most inserts race for the same empty slot.
    checkTogether(layout, buffer, pool, [order, order], await insertTogether(layout, buffer, pool, [order, order], true));
  });
});
