/**
 * Properties over thousands of seeded random legal playouts, for every rule set and several
 * sizes: every card is always somewhere exactly once, undo restores the position exactly,
 * the notation round-trips, each move's card is the one at its source, the rules' invariants hold at every step, and the playout's move
 * list replays cleanly with the verifier (a won playout verifies as won).
 */
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import {
  type Deal, type Rules, DST_FOUNDATION, GEN_ALL, GEN_REDUCED, Game, MAX_MOVES, SRC_DRAW, SRC_FIFTH, SRC_PRIV,
  SRC_REDEAL, SRC_WASTE, dealFromNumber, formatMove, formatMoveBare, formatSolution, moveCard, moveDst, moveSrc,
  orderedDeck, parseMove, parseRules, parseSize, replay, resolveMove, verifyText,
} from '../src/game/index.js';

const MAX_PLAYOUT = 300;

interface Stats {
  playouts: number;
  won: number;
  steps: number;
  phase2: number;
  fifth: number;
}

function fail(msg: string): never {
  throw new Error(msg);
}

/** The counts of the ordered deck, indexed by card code. */
function deckCounts(deal: Deal): Int32Array {
  const want = new Int32Array(64);
  for (const c of orderedDeck(deal.size)) want[c]!++;
  return want;
}

function checkCounts(g: Game, want: Int32Array, where: () => string): void {
  const got = g.cardCounts();
  let total = 0;
  for (const [c, n] of got) {
    if (c <= 0 || c >= 64 || want[c] !== n) fail(`card ${c} is in ${n} places, the packs hold ${want[c] ?? 0} (${where()})`);
    total += n;
  }
  if (total !== g.total) fail(`${total} cards in play, expected ${g.total} (${where()})`);
  let home = 0;
  for (const f of g.found) home += f;
  if (home !== g.home) fail(`home ${g.home} but foundations hold ${home} (${where()})`);
  // canHome reads a table that apply/undo keep: it must agree with the foundations.
  for (let suit = 0; suit < 4; suit++) {
    for (let r = 1; r <= g.ranks; r++) {
      let takes = false;
      for (let k = 0; k < g.packs; k++) if (g.found[suit * g.packs + k] === r - 1) takes = true;
      if (g.canHome((suit << 4) | r) !== takes) fail(`canHome(${(suit << 4) | r}) is ${!takes}, the foundations say ${takes} (${where()})`);
    }
  }
  // so must the copies home that apply/undo count for homeCounts
  const counts = new Int8Array(64);
  g.homeCounts(counts);
  for (let suit = 0; suit < 4; suit++) {
    for (let r = 1; r <= g.ranks; r++) {
      let n = 0;
      for (let k = 0; k < g.packs; k++) if (g.found[suit * g.packs + k]! >= r) n++;
      if (counts[(suit << 4) | r] !== n) fail(`homeCounts has ${counts[(suit << 4) | r]} of card ${(suit << 4) | r} home, the foundations say ${n} (${where()})`);
    }
  }
  // the columns' marks that apply/undo keep for generate (Game.mark: the columns taking each
  // card, the exposed cards, the spaces, aces, pair covers and lone cards) are those a pass over
  // the layout gives
  if (!g.columnMarksInSync()) fail(`the columns' marks kept by apply/undo differ from the layout's (${where()})`);
  // the in-play mask (stock positions in the waste, or in the privileged row and the pile)
  const mask = new Uint32Array(g.inPlayMask.length);
  const set = (pos: number) => (mask[pos >>> 5]! |= 1 << (pos & 31));
  if (g.phase === 1) for (let i = 0; i < g.wasteLen; i++) set(g.waste[i]!);
  else {
    for (let i = 0; i < g.privLen; i++) set(g.priv[i]!);
    for (let i = g.pileNext; i < g.wasteLen; i++) set(g.waste[i]!);
  }
  for (let i = 0; i < mask.length; i++) if (mask[i] !== g.inPlayMask[i]) fail(`inPlayMask word ${i} is ${g.inPlayMask[i]}, expected ${mask[i]} (${where()})`);
}

/** Rule invariants of one generated move list, in the position before any of them is played. */
function checkMoveList(g: Game, buf: Int32Array, n: number, where: () => string): void {
  const aceFree = g.aceIsFree();
  let fifthMoves = 0;
  let privMoves = 0;
  for (let i = 0; i < n; i++) {
    const m = buf[i]!;
    const src = moveSrc(m);
    const dst = moveDst(m);
    const card = moveCard(m);
    const text = formatMove(m);
    // compulsory aces: while an ace is free, only free aces go to the foundations
    if (aceFree && !(dst === DST_FOUNDATION && (card & 15) === 1 && src !== SRC_FIFTH && src !== SRC_DRAW && src !== SRC_REDEAL))
      fail(`'${text}' offered while an ace is free (${where()})`);
    if (src === SRC_DRAW) {
      if (g.phase !== 1 || g.stockPtr >= g.stockSize) fail(`draw offered with no stock (${where()})`);
      continue;
    }
    if (src === SRC_REDEAL) {
      if (!g.secondDeal || g.phase !== 1 || g.stockPtr < g.stockSize || g.wasteLen === 0) fail(`redeal offered wrongly (${where()})`);
      continue;
    }
    if (src === SRC_FIFTH) fifthMoves++;
    else if (src >= SRC_PRIV && src < SRC_PRIV + 8) privMoves++;
    if (src === SRC_WASTE && g.phase !== 1) fail(`waste move in phase 2 (${where()})`);
    if (src < SRC_WASTE) {
      if (g.top(src) !== card) fail(`'${text}' does not move the exposed card (${where()})`);
      if (g.building === 1 && g.isPairTop(src) && dst !== DST_FOUNDATION) fail(`covering card moved off to a column: '${text}' (${where()})`);
    }
    if (dst === DST_FOUNDATION) {
      if (!g.canHome(card)) fail(`'${text}' to a foundation that does not take it (${where()})`);
    } else {
      if (dst === src) fail(`'${text}' onto its own column (${where()})`);
      if (g.len[dst] !== 0) {
        if (g.building === 0) fail(`'${text}' builds under building=none (${where()})`);
        if (g.top(dst) !== card + 1) fail(`'${text}' onto ${g.top(dst)}: not same suit one rank lower (${where()})`);
        if (g.isPairTop(dst)) fail(`'${text}' onto a pair (${where()})`);
      } else if (src === SRC_FIFTH) {
        fail(`the fifth card offered a space: '${text}' (${where()})`);
      }
    }
  }
  if (fifthMoves > 0) {
    // rule 7: only when no privileged card can move; (reading) so never while a column is empty
    if (privMoves > 0 || g.privilegedCanMove()) fail(`fifth card offered while a privileged card can move (${where()})`);
    if (g.privLen > 0 && g.firstSpace() >= 0) fail(`fifth card offered while a column is empty (${where()})`);
    if (g.blindTurn() !== 'play') fail(`fifth card moves listed but blindTurn is ${g.blindTurn()} (${where()})`);
  } else if (g.phase === 2 && g.fifthCard() !== 0 && !aceFree && !g.privilegedCanMove()) {
    if (g.blindTurn() !== 'lose') fail(`an unplayable fifth card but blindTurn is ${g.blindTurn()} (${where()})`);
  }
  if (g.phase === 2) {
    // aces from the stock always go up before the next draw, so none ever reaches the pile
    for (let i = 0; i < g.privLen; i++) if ((g.privCard(i) & 15) === 1) fail(`an ace in the privileged row (${where()})`);
    for (let i = g.pileNext; i < g.wasteLen; i++) if ((g.stockCards[g.waste[i]!]! & 15) === 1) fail(`an ace in the pile (${where()})`);
    // the row holds N cards while the pile lasts
    if (g.pileNext < g.wasteLen && g.privLen !== g.privileged) fail(`privileged row of ${g.privLen} while the pile lasts (${where()})`);
  } else if (g.wasteLen > 1) {
    for (let i = 0; i < g.wasteLen - 1; i++) if ((g.stockCards[g.waste[i]!]! & 15) === 1) fail(`an ace under the waste top (${where()})`);
  }
}

/**
 * One random playout. At every step: counts, every legal move's apply/undo restores the
 * snapshot, every legal move's notation (with and without its card) resolves back to it,
 * GEN_REDUCED is a subset of GEN_ALL. Then the move list replays with the verifier.
 */
function playout(deal: Deal, rules: Rules, rng: () => number, stats: Stats, label: string): void {
  const g = new Game(deal, rules);
  const want = deckCounts(deal);
  const buf = new Int32Array(MAX_MOVES);
  const red = new Int32Array(MAX_MOVES);
  const rbuf = new Int32Array(MAX_MOVES);
  const start = g.snapshot();
  const snaps: string[] = [start];
  const where = () => {
    const h = g.history().map(formatMove);
    return `${label}, after ${h.length} moves [${h.length > 40 ? '..., ' : ''}${h.slice(-40).join(', ')}]`;
  };
  let sawPhase2 = false;
  let sawFifth = false;
  for (;;) {
    checkCounts(g, want, where);
    const n = g.generate(buf, GEN_ALL);
    checkMoveList(g, buf, n, where);
    const nr = g.generate(red, GEN_REDUCED);
    for (let i = 0; i < nr; i++) {
      let found = false;
      for (let k = 0; k < n; k++) if (buf[k] === red[i]) found = true;
      if (!found) fail(`GEN_REDUCED move '${formatMove(red[i]!)}' not in GEN_ALL (${where()})`);
    }
    if (n === 0) break;
    const before = g.snapshot();
    const maskBefore = g.inPlayMask.slice();
    for (let i = 0; i < n; i++) {
      const m = buf[i]!;
      // notation round-trip in this position
      const p = parseMove(formatMove(m), g.columns, g.privileged, g.ranks);
      if (!p || resolveMove(g, p, rbuf) !== m) fail(`'${formatMove(m)}' does not resolve back to itself (${where()})`);
      const pb = parseMove(formatMoveBare(m), g.columns, g.privileged, g.ranks);
      if (!pb || pb.card !== -1 || resolveMove(g, pb, rbuf) !== m) fail(`'${formatMoveBare(m)}' does not resolve back to its move (${where()})`);
      // the card at its source is the move's card (best-first search keeps only source and destination)
      if (g.cardAt(moveSrc(m)) !== moveCard(m)) fail(`cardAt(${moveSrc(m)}) is ${g.cardAt(moveSrc(m))}, '${formatMove(m)}' moves ${moveCard(m)} (${where()})`);
      // apply/undo
      g.apply(m);
      checkCounts(g, want, where);
      g.undo();
      const after = g.snapshot();
      if (after !== before) fail(`undo of '${formatMove(m)}' changed the position:\n${before}\n${after} (${where()})`);
      for (let k = 0; k < maskBefore.length; k++) if (g.inPlayMask[k] !== maskBefore[k]) fail(`undo of '${formatMove(m)}' changed inPlayMask (${where()})`);
    }
    // choose: often a foundation move when there is one (to win some games), else any move
    let choice = -1;
    if (rng() < 0.75) {
      const homes: number[] = [];
      for (let i = 0; i < n; i++) if (moveDst(buf[i]!) === DST_FOUNDATION && moveSrc(buf[i]!) !== SRC_DRAW && moveSrc(buf[i]!) !== SRC_REDEAL) homes.push(buf[i]!);
      if (homes.length > 0) choice = homes[Math.floor(rng() * homes.length)]!;
    }
    if (choice < 0) choice = buf[Math.floor(rng() * n)]!;
    if (moveSrc(choice) === SRC_FIFTH) sawFifth = true;
    g.apply(choice);
    if (g.phase === 2) sawPhase2 = true;
    snaps.push(g.snapshot());
    stats.steps++;
    // moves of a card between spaces (or, under building=suit, between columns) can go on
    // for ever: a playout stops at a cap and is checked like any other
    if (g.moveCount >= MAX_PLAYOUT) break;
  }
  const moves = g.history();
  // the verifier replays the playout to the same position
  const r = replay(deal, rules, formatSolution(moves, `random playout ${label}`));
  if (r.error) fail(`replay refused the playout: ${verifyText(r)} (${where()})`);
  if (r.played !== moves.length) fail(`replay played ${r.played} of ${moves.length} moves`);
  if (r.game.snapshot() !== g.snapshot()) fail(`replay ends in another position (${label})`);
  if (g.isWon()) {
    if (verifyText(r) !== `valid: won in ${moves.length} moves`) fail(`won playout verified as '${verifyText(r)}' (${label})`);
    if (g.home !== g.total) fail('isWon with cards not home');
    stats.won++;
  } else {
    if (g.home === g.total) fail('all cards home but not isWon');
    if (verifyText(r) !== `invalid: the solution stops after ${moves.length} move${moves.length === 1 ? '' : 's'} with ${g.home} of ${g.total} cards home`)
      fail(`lost playout verified as '${verifyText(r)}' (${label})`);
  }
  // undo all the way back, through every snapshot
  for (let k = moves.length; k > 0; k--) {
    if (g.snapshot() !== snaps[k]) fail(`undo chain differs at move ${k} (${label})`);
    g.undo();
  }
  if (g.snapshot() !== start || g.moveCount !== 0) fail(`undoing the whole playout does not restore the deal (${label})`);
  stats.playouts++;
  if (sawPhase2) stats.phase2++;
  if (sawFifth) stats.fifth++;
}

function run(rulesText: string, sizeText: string, count: number, firstDeal = 0): Stats {
  const rules = parseRules(rulesText);
  const size = parseSize(sizeText);
  const rng = seedrandom(`limited-properties:${rulesText}:${sizeText}`);
  const stats: Stats = { playouts: 0, won: 0, steps: 0, phase2: 0, fifth: 0 };
  for (let i = 0; i < count; i++) {
    const n = firstDeal + i;
    playout(dealFromNumber(n, size), rules, rng, stats, `${rulesText} ${sizeText} deal ${n}`);
  }
  return stats;
}

const FULL = '2x13 12x3';

describe('random playouts: counts, undo, notation, invariants, replay', () => {
  it('book, small sizes (with wins verified)', () => {
    let won = 0;
    for (const [size, count] of [['1x5 4x3', 300], ['1x6 5x3', 300], ['2x4 4x2', 120], ['2x5 4x3', 120], ['1x13 4x3', 150]] as const) {
      const s = run('book', size, count);
      expect(s.playouts).toBe(count);
      expect(s.phase2).toBeGreaterThan(0);
      won += s.won;
    }
    expect(won).toBeGreaterThan(50);
  });

  it('book, full size', () => {
    const s = run('book', FULL, 80);
    expect(s.playouts).toBe(80);
    expect(s.phase2).toBeGreaterThan(60);
  });

  it('privileged=1..8, small and full sizes (the fifth card is reached)', () => {
    let fifth = 0;
    let won = 0;
    for (let k = 1; k <= 8; k++) {
      const small = run(`privileged=${k}`, '1x6 5x3', 150);
      const big = run(`privileged=${k}`, FULL, 10, 1000);
      expect(small.phase2).toBeGreaterThan(0);
      fifth += small.fifth + big.fifth;
      won += small.won;
    }
    expect(fifth).toBeGreaterThan(20);
    expect(won).toBeGreaterThan(10);
  });

  it('pysol (building=suit, second-deal=none), small and full', () => {
    const small = run('pysol', '1x6 5x3', 250);
    const two = run('pysol', '2x4 4x2', 100);
    const full = run('pysol', FULL, 40);
    expect(small.phase2 + two.phase2 + full.phase2).toBe(0);
    expect(small.won + two.won).toBeGreaterThan(10);
    expect(full.playouts).toBe(40);
  });

  it('building=suit with the second deal', () => {
    const small = run('building=suit', '1x6 5x3', 200);
    const full = run('building=suit', FULL, 20);
    expect(small.phase2 + full.phase2).toBeGreaterThan(0);
  });

  it('building=none, small and full', () => {
    const small = run('building=none', '1x5 4x3', 300);
    const two = run('building=none', '2x4 4x2', 100);
    const full = run('building=none', FULL, 40);
    expect(small.phase2 + two.phase2).toBeGreaterThan(0);
    expect(small.won + two.won).toBeGreaterThan(0);
    expect(full.playouts).toBe(40);
  });

  it('second-deal=none, small and full', () => {
    const small = run('second-deal=none', '1x5 4x3', 300);
    const full = run('second-deal=none', FULL, 40);
    expect(small.phase2 + full.phase2).toBe(0);
    expect(small.won).toBeGreaterThan(0);
  });

  it('other layouts: one row, one column, many rows', () => {
    for (const [rules, size] of [['book', '2x13 16x1'], ['book', '1x13 1x7'], ['pysol', '2x13 12x7'], ['book', '2x13 8x6'], ['book', '1x1 4x1']] as const) {
      const s = run(rules, size, 10);
      expect(s.playouts).toBe(10);
    }
  });
});
