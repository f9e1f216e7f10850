import { describe, expect, it } from 'vitest';
import {
  type Deal, type PackedMove, type Rules, type Tactics, Game, MAX_MOVES, SRC_DRAW, UserError, allowedByTactics, dealFromNumber,
  formatMove, parseRules, parseSize, verifyMoves,
} from '../src/game/index.js';
import {
  type PileMemory, type Player, BLIND_FIFTH, Driver, GreedyPlayer, IllegalMoveError, Rng, SamplingPlayer, STOP, TableView, createPlayer,
  playGame, stripDraw,
} from '../src/play/index.js';
import { Solver } from '../src/solver/index.js';

const BOOK = parseRules('book');
const SMALL = parseSize('1x6 5x3');
const MID = parseSize('2x5 6x3');
const ALL_TACTICS: Tactics[] = [];
for (const pairing of ['always', 'cautious', 'never'] as const)
  for (const spaces of ['eager', 'hold', 'never'] as const) ALL_TACTICS.push({ pairing, spaces });
const PILES: PileMemory[] = ['remembered', 'forgotten'];

/** The deal with stock cards i and j swapped. */
function swapStock(deal: Deal, i: number, j: number): Deal {
  const stock = [...deal.stock];
  [stock[i], stock[j]] = [stock[j]!, stock[i]!];
  return { ...deal, stock };
}

/** Index in `moves` of the draw that turns stock position p (the (p+1)-th draw), or -1. */
function drawOf(moves: readonly PackedMove[], p: number): number {
  let draws = 0;
  for (let k = 0; k < moves.length; k++) if ((moves[k]! & 63) === SRC_DRAW && draws++ === p) return k;
  return -1;
}

/** The moves replay through the verifier, and the result agrees with the driver's. */
function expectReplays(deal: Deal, rules: Rules, r: ReturnType<typeof playGame>, what: string): void {
  const v = verifyMoves(deal, rules, r.history!);
  expect(v.error, `${what}: ${v.error?.reason}`).toBeUndefined();
  expect(v.played).toBe(r.history!.length);
  expect(v.won).toBe(r.won);
  expect(v.home).toBe(r.home);
}

/** Every move of a history keeps to the tactics (checked on the position before it). */
function expectTactics(deal: Deal, rules: Rules, moves: readonly PackedMove[], t: Tactics, what: string): void {
  const g = new Game(deal, rules);
  for (const m of moves) {
    expect(allowedByTactics(g, m, t), `${what}: ${formatMove(m)} after ${g.moveCount} moves`).toBe(true);
    const dst = (m >> 6) & 63;
    if (dst < 48 && (m & 63) < SRC_DRAW) {
      if (g.len[dst]! > 0) expect(t.pairing, `${what}: pair ${formatMove(m)}`).not.toBe('never');
      else {
        expect(t.spaces, `${what}: space ${formatMove(m)}`).not.toBe('never');
        if (t.spaces === 'hold') expect(g.phase, `${what}: space in phase 1 ${formatMove(m)}`).toBe(2);
      }
    }
    g.apply(m);
  }
}

/**
 * Plays `deal` and the deal with stock cards p < q swapped: are the decisions the same up to
 * and including the draw that turns position p (the whole game when it is never turned)?
 */
function compareSwapped(player: Player, deal: Deal, p: number, q: number, pile: PileMemory): { same: boolean; laterDiffer: boolean } {
  const a = playGame(deal, BOOK, player, { seed: 5, pile, record: true });
  const b = playGame(swapStock(deal, p, q), BOOK, player, { seed: 5, pile, record: true });
  const ma = a.history!.map(stripDraw);
  const mb = b.history!.map(stripDraw);
  const turn = drawOf(a.history!, p);
  const upTo = turn < 0 ? Math.max(ma.length, mb.length) : turn + 1;
  const same = JSON.stringify(ma.slice(0, upTo)) === JSON.stringify(mb.slice(0, upTo)) && (turn >= 0 || a.end === b.end);
  return { same, laterDiffer: JSON.stringify(ma) !== JSON.stringify(mb) };
}

const smallSampler = (t: Tactics) => new SamplingPlayer({ tactics: t, samples: 3, nodes: 300 });

describe('the view shows no more than a person at the table sees', () => {
  it('no peeking: deals that differ only in the undealt stock order get the same decisions until the first differing card is turned', () => {
    const rng = new Rng(7);
    const cases: { deal: Deal; p: number; q: number }[] = [];
    for (const [size, n] of [[SMALL, 40], [MID, 25]] as const)
      for (let d = 0; d < n; d++) {
        const deal = dealFromNumber(d, size);
        const S = deal.stock.length;
        let p = rng.below(S - 1);
        let q = p + 1 + rng.below(S - 1 - p);
        while (q < S && deal.stock[q] === deal.stock[p]) q++;
        if (q >= S) continue;
        if (p > q) [p, q] = [q, p];
        cases.push({ deal, p, q });
      }
    for (let d = 1; d <= 30; d++) {
      const deal = dealFromNumber(d);
      const p = 10 + rng.below(50);
      let q = p + 1;
      while (deal.stock[q] === deal.stock[p]) q++;
      cases.push({ deal, p, q });
    }
    // The sampling player (slow) on a share of the small cases only.
    const few = [...cases.filter((c) => c.deal.size === SMALL).slice(0, 16), ...cases.filter((c) => c.deal.size === MID).slice(0, 6)];
    const players: { make: (t: Tactics) => Player; piles: PileMemory[]; set: typeof cases }[] = [
      { make: (t) => new GreedyPlayer(t), piles: PILES, set: cases },
      { make: (t) => new SamplingPlayer({ tactics: t, samples: 2, nodes: 200 }), piles: ['remembered'], set: few },
    ];
    let compared = 0;
    let differed = 0;
    for (const { make, piles, set } of players)
      for (const t of ALL_TACTICS)
        for (const pile of piles) {
          const player = make(t);
          for (const { deal, p, q } of set) {
            const c = compareSwapped(player, deal, p, q, pile);
            expect(c.same, `${player.name} ${pile} deal ${deal.source} (${deal.size.columns} cols) swap ${p},${q}`).toBe(true);
            if (c.laterDiffer) differed++;
            compared++;
          }
        }
    expect(compared).toBeGreaterThan(1000);
    expect(differed).toBeGreaterThan(50); // the test has teeth: the swapped cards do change later play
  });

  it('the comparison catches a player that peeks (through a back door the view does not give)', () => {
    // A cheat that knows the deal from outside and stops before turning a low card.
    let current: Deal | null = null;
    const greedy = new GreedyPlayer();
    const peeker: Player = {
      name: 'peeker',
      reset: (seed) => greedy.reset(seed),
      choose: (v) => {
        const m = greedy.choose(v);
        return m === SRC_DRAW && (current!.stock[v.stockSize - v.stockLeft]! & 15) <= 2 ? STOP : m;
      },
    };
    let caught = 0;
    for (let d = 0; d < 40; d++) {
      const deal = dealFromNumber(d, SMALL);
      const lowAt = deal.stock.findIndex((c) => (c & 15) <= 2);
      const highAt = deal.stock.findIndex((c, i) => i > lowAt && (c & 15) > 2);
      if (lowAt < 0 || highAt < 0) continue;
      const swapped = swapStock(deal, lowAt, highAt);
      current = deal;
      const a = playGame(deal, BOOK, peeker, { record: true });
      current = swapped;
      const b = playGame(swapped, BOOK, peeker, { record: true });
      const turn = drawOf(a.history!, lowAt);
      const ma = a.history!.map(stripDraw);
      const mb = b.history!.map(stripDraw);
      const upTo = turn < 0 ? Math.max(ma.length, mb.length) : turn + 1;
      if (JSON.stringify(ma.slice(0, upTo)) !== JSON.stringify(mb.slice(0, upTo))) caught++;
    }
    expect(caught).toBeGreaterThan(5);
  });

  it('draws are listed without their card; the view exposes no stock order', () => {
    let d = 1;
    while (new Game(dealFromNumber(d), BOOK).aceIsFree()) d++;
    const g = new Game(dealFromNumber(d), BOOK);
    const v = new TableView(g);
    expect(v.moves.length).toBeGreaterThanOrEqual(MAX_MOVES);
    const n = v.legalMoves();
    const moves = Array.from(v.moves.subarray(0, n));
    expect(moves).toContain(SRC_DRAW);
    for (const m of moves) if ((m & 63) === SRC_DRAW) expect(m).toBe(SRC_DRAW);
    // Nothing on the object or its prototype names the game or its stock cards.
    const names = [...Object.keys(v), ...Object.getOwnPropertyNames(TableView.prototype)];
    expect(names.filter((k) => /game|stock(cards|ptr)|^deal$|^g$/i.test(k))).toEqual([]);
    expect((v as unknown as Record<string, unknown>).g).toBeUndefined();
    expect(v.stockLeft).toBe(68);
    // The unseen cards are the stock's multiset, worked out from the visible cards.
    const counts = new Int32Array(64);
    expect(v.unseen(counts)).toBe(68);
    const expected = new Int32Array(64);
    for (const c of g.deal.stock) expected[c]!++;
    expect(Array.from(counts)).toEqual(Array.from(expected));
  });

  it('a forgotten pile is hidden in the second deal; a remembered one is shown', () => {
    let checked = 0;
    for (let d = 1; d <= 40 && checked < 5; d++) {
      const deal = dealFromNumber(d);
      const r = playGame(deal, BOOK, new GreedyPlayer(), { record: true });
      if (!r.redealt) continue;
      const g = new Game(deal, BOOK);
      for (const m of r.history!) {
        g.apply(m);
        if (g.phase === 2 && g.pileNext < g.wasteLen) break;
      }
      if (g.phase !== 2 || g.pileNext >= g.wasteLen) continue;
      const remembered = new TableView(g);
      const forgotten = new TableView(g, { pile: 'forgotten' });
      expect(remembered.pileCard(0)).toBe(g.fifthCard());
      expect(remembered.fifthCard()).toBe(g.fifthCard());
      expect(() => forgotten.pileCard(0)).toThrow('not remembered');
      expect(forgotten.fifthCard()).toBe(0);
      expect(forgotten.pileLen).toBe(remembered.pileLen);
      const n = forgotten.legalMoves();
      for (let i = 0; i < n; i++) expect((forgotten.moves[i]! & 63) === 57).toBe(false);
      checked++;
    }
    expect(checked).toBe(5);
  });
});

describe('players play legal moves only, keep to their knobs, and are deterministic', () => {
  it('greedy, every knob and pile memory: moves replay through the verifier and keep to the tactics', () => {
    let blindTurns = 0;
    let blindLosses = 0;
    for (const t of ALL_TACTICS)
      for (const pile of PILES) {
        const player = new GreedyPlayer(t);
        const deals = [...Array.from({ length: 60 }, (_, d) => dealFromNumber(d, SMALL)), ...Array.from({ length: 30 }, (_, d) => dealFromNumber(d + 1))];
        for (const deal of deals) {
          const r = playGame(deal, BOOK, player, { pile, record: true, check: true });
          const what = `${player.name} ${pile} deal ${deal.source}`;
          expectReplays(deal, BOOK, r, what);
          expectTactics(deal, BOOK, r.history!, t, what);
          expect(r.end).not.toBe('cap');
          if (pile === 'remembered') expect(r.turnedFifthBlind).toBe(0);
          blindTurns += r.turnedFifthBlind;
          if (r.end === 'blind') {
            blindLosses++;
            expect(r.blindCard).toBeGreaterThan(0);
          }
        }
      }
    expect(blindTurns).toBeGreaterThan(0);
    expect(blindLosses).toBeGreaterThan(0);
  });

  it('greedy under other rules (building none / suit, second deal none, privileged 1 and 8) plays legal moves', () => {
    for (const text of ['building=none', 'building=suit', 'pysol', 'second-deal=none', 'privileged=1', 'privileged=8']) {
      const rules = parseRules(text);
      for (const t of [ALL_TACTICS[0]!, ALL_TACTICS[4]!]) {
        const player = new GreedyPlayer(t);
        for (let d = 0; d < 20; d++) {
          const deal = dealFromNumber(d, d % 2 ? SMALL : MID);
          const r = playGame(deal, rules, player, { record: true });
          expectReplays(deal, rules, r, `${text} ${player.name} ${d}`);
          expectTactics(deal, rules, r.history!, t, `${text} ${player.name} ${d}`);
        }
      }
    }
  });

  it('sampling: moves replay through the verifier and keep to the tactics', () => {
    for (const t of [ALL_TACTICS[0]!, ALL_TACTICS[4]!, ALL_TACTICS[8]!]) {
      const player = smallSampler(t);
      for (let d = 0; d < 12; d++) {
        const deal = dealFromNumber(d, d % 2 ? SMALL : MID);
        const r = playGame(deal, BOOK, player, { seed: d, record: true });
        expectReplays(deal, BOOK, r, `${player.name} ${d}`);
        expectTactics(deal, BOOK, r.history!, t, `${player.name} ${d}`);
      }
    }
  });

  it('the same seed gives the same game; a reused driver plays as a fresh one', () => {
    const reused = new Driver();
    const mixed = [dealFromNumber(1), dealFromNumber(2, SMALL), dealFromNumber(3), dealFromNumber(4, MID), dealFromNumber(5)];
    for (const make of [() => new GreedyPlayer(), () => smallSampler({ pairing: 'always', spaces: 'eager' })]) {
      for (const deal of mixed) {
        if (deal.size.columns === 12 && make().name.startsWith('sampling')) continue;
        const a = reused.play(deal, BOOK, make(), { seed: 11, record: true });
        const b = new Driver().play(deal, BOOK, make(), { seed: 11, record: true });
        expect(a).toEqual(b);
        expectReplays(deal, BOOK, a, `reused driver ${deal.source}`);
      }
    }
    // The reloaded game is exactly a fresh one (the driver reuses its Game between deals).
    for (const deal of mixed) {
      reused.play(deal, BOOK, new GreedyPlayer());
      const r = reused.play(deal, BOOK, new GreedyPlayer(), { record: true });
      const fresh = playGame(deal, BOOK, new GreedyPlayer(), { record: true });
      expect(r.history).toEqual(fresh.history);
    }
  });

  it('an illegal choice is refused with the player named', () => {
    const cheat: Player = { name: 'cheat', reset() {}, choose: () => 5 | (63 << 6) | (13 << 12) };
    expect(() => playGame(dealFromNumber(1), BOOK, cheat)).toThrow(IllegalMoveError);
    const blind: Player = { name: 'blind', reset() {}, choose: () => BLIND_FIFTH };
    expect(() => playGame(dealFromNumber(1), BOOK, blind)).toThrow('not legal');
    const stop: Player = { name: 'stop', reset() {}, choose: () => STOP };
    expect(playGame(dealFromNumber(1), BOOK, stop)).toMatchObject({ won: false, moves: 0, end: 'stopped' });
  });
});

describe('strength', () => {
  it('greedy wins some and loses some on 1x6 5x3, and never wins a deal the solver proves unsolvable', () => {
    const solver = new Solver();
    const greedy = new GreedyPlayer();
    let won = 0;
    let solverWon = 0;
    for (let d = 0; d < 200; d++) {
      const deal = dealFromNumber(d, SMALL);
      const r = playGame(deal, BOOK, greedy);
      const s = solver.solve(deal, BOOK, { maxNodes: 1e6 });
      expect(s.verdict).not.toBe('unknown');
      if (s.verdict === 'won') solverWon++;
      if (r.won) {
        won++;
        expect(s.verdict, `deal ${d}`).toBe('won');
      }
    }
    expect(won).toBeGreaterThan(20);
    expect(won).toBeLessThan(solverWon);
  });

  it('sampling wins at least as many small deals as greedy', () => {
    const t: Tactics = { pairing: 'always', spaces: 'eager' };
    const greedy = new GreedyPlayer(t);
    const sampling = new SamplingPlayer({ tactics: t, samples: 6, nodes: 1000 });
    let g = 0;
    let s = 0;
    for (let d = 0; d < 30; d++) {
      const deal = dealFromNumber(d, SMALL);
      if (playGame(deal, BOOK, greedy).won) g++;
      if (playGame(deal, BOOK, sampling, { seed: d }).won) s++;
    }
    expect(s).toBeGreaterThanOrEqual(g);
    expect(s).toBeGreaterThan(g); // on this set it is strictly better
  });
});

describe('createPlayer', () => {
  it('builds players by name and refuses bad specs in one line', () => {
    expect(createPlayer('greedy', { pairing: 'never', spaces: 'hold' }).name).toBe('greedy(never,hold)');
    const s = createPlayer('sampling:samples=4,nodes=1000,tieBreak=progress') as SamplingPlayer;
    expect([s.samples, s.nodes, s.tieBreak]).toEqual([4, 1000, 'progress']);
    expect(() => createPlayer('clever')).toThrow(UserError);
    expect(() => createPlayer('clever')).toThrow("unknown player 'clever' (greedy, sampling)");
    expect(() => createPlayer('sampling:samples=0')).toThrow('samples must be a whole number >= 1');
    expect(() => createPlayer('sampling:depth=3')).toThrow("unknown parameter 'depth'");
    expect(() => createPlayer('greedy:x=1')).toThrow('greedy takes no parameters');
  });
});
