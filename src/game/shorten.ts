import { type Deal } from './deal.js';
import { type Rules } from './rules.js';
import { DST_FOUNDATION, GEN_ALL, Game, MAX_MOVES, type PackedMove, SRC_DRAW } from './state.js';

/**
 * A winning line made shorter where it takes a card the long way round: round trips through
 * one position are cut (`withoutRoundTrips`) and detours (`withoutDetours`), until neither finds
 * more. The result is a winning line of the same deal, never longer; the caller still verifies
 * the line it prints. `moves` are played from the position after `from` (default: the deal).
 */
export function shortenLine(deal: Deal, rules: Rules, moves: readonly PackedMove[], from: readonly PackedMove[] = []): PackedMove[] {
  // Under pairs or no building a card changes columns only as a pair's cover (then it only goes
  // home) or into a space, so lines there have almost no detours to cut: only under
  // building=suit is it worth its time (docs/SOLVER.md, "Shorter solutions").
  if (rules.building !== 'suit') return moves.slice();
  // withoutDetours runs until it finds no more; a detour cut can leave a round trip (two twins
  // trading places), and cutting one can make a detour plain: again until neither cuts.
  let line = withoutDetours(deal, rules, moves, from);
  for (;;) {
    const cut = withoutRoundTrips(deal, rules, line, from);
    if (cut.length === line.length) return line;
    line = withoutDetours(deal, rules, cut, from);
  }
}

/**
 * A winning line with its round trips taken out: wherever the line comes back to a position it
 * has been in, the moves between the two visits are dropped (loop erasure).
 *
 * Why it is safe: which moves are legal, and what each does, depends on the position alone
 * (the layout, the foundations, the stock pointer, the waste, the privileged row and the pile;
 * the history plays no part in the rules). So from the second visit the rest of the line plays
 * the same from the first, and the shorter line wins as well. Positions are compared exactly as
 * they lie (columns in their places, foundations in their order), not by the solver's key, which
 * would also match positions with columns swapped, where the rest of the line names other columns.
 * Waste, row and pile entries are compared by card, not by stock position: twin cards are alike in
 * play and a move names a card, not a copy. Which of a column's cards were dealt there is compared
 * under pairs only, where it decides what may move.
 *
 * The solver's depth-first searches never revisit a position on one line, but a line made of
 * pieces (the rollout's look-aheads one after another, a best-first walk) can: under `pysol` a
 * card may travel from column to column and back while the look-aheads search (an audit found
 * the 9S moved to and fro seven times in a row in the line for PySolFC game 123456). The caller
 * still verifies the line it prints.
 */
export function withoutRoundTrips(deal: Deal, rules: Rules, moves: readonly PackedMove[], from: readonly PackedMove[] = []): PackedMove[] {
  const g = Game.after(deal, rules, from);
  const out: PackedMove[] = [];
  // The position after out[0..k) (k = 0 for the deal) is `seen.get(text) === k`.
  const seen = new Map<string, number>();
  const trail: string[] = [];
  const visit = (): void => {
    const p = position(g);
    const k = seen.get(p);
    if (k === undefined) {
      seen.set(p, out.length);
      trail.push(p);
      return;
    }
    // Back where the line was after k moves: forget the positions of the round trip.
    for (let i = k + 1; i < trail.length; i++) seen.delete(trail[i]!);
    trail.length = k + 1;
    out.length = k;
  };
  visit();
  for (const m of moves) {
    g.apply(m);
    out.push(m);
    visit();
  }
  return out;
}

/** The position as it lies, as text (see `withoutRoundTrips`). */
function position(g: Game): string {
  const cards = g.stockCards;
  const pairs = g.building === 1;
  const parts: number[] = [g.phase, g.stockPtr, g.pileNext, ...g.found];
  for (let c = 0; c < g.columns; c++) {
    // Which of a column's cards are dealt ones matters under pairs only (a pair's cover may
    // not move on); elsewhere a dealt card taken away and put back is the same position.
    parts.push(pairs ? 100 + g.orig[c]! : 100, 200 + g.len[c]!);
    for (let i = 0; i < g.len[c]!; i++) parts.push(g.cols[c * g.height + i]!);
  }
  parts.push(-1);
  for (let i = 0; i < g.wasteLen; i++) parts.push(cards[g.waste[i]!]!);
  parts.push(-2);
  for (let i = 0; i < g.privLen; i++) parts.push(cards[g.priv[i]!]!);
  return parts.join(',');
}

/**
 * A winning line with detours taken out: a card moved from A (a column, the waste top, a
 * privileged or fifth card) to column B and later moved on from B (move i, then move j, this
 * copy's next move) goes straight to j's destination, either at i (move j dropped: "early") or
 * at j (move i dropped, j's source made A: "late"; both dropped when j takes it back to A). A
 * waste card can go late only if it is still the waste top at j. Such a change is kept only if
 * the changed moves, played from the position before move i with every one checked against the
 * legal moves, end in the very position that moves i..j of the line end in (`sameEnd`): from
 * there the rest of the line is the same, and wins. So the result wins whatever the moves in between did (another card put on A or on B, the
 * card under it needed, a space taken: the check refuses those). Passes are repeated until one
 * changes nothing. Costs a replay of moves i..j a candidate.
 *
 * Under `pysol` a rollout's line can walk a card through many columns: the 9S of PySolFC game
 * 123456 went to and fro seven times between two columns with draws between, which no round
 * trip cuts, as the stock moved on.
 */
export function withoutDetours(deal: Deal, rules: Rules, moves: readonly PackedMove[], from: readonly PackedMove[] = []): PackedMove[] {
  let line = moves.slice();
  const buf = new Int32Array(MAX_MOVES);
  const g = Game.after(deal, rules, from);
  for (let changed = true; changed; ) {
    changed = false;
    // g stands before line[i] throughout.
    for (let i = 0; i < line.length; ) {
      const cut = detourCut(g, line, i, buf);
      if (cut) {
        line = cut; // and look at the move now at i (g is where it was)
        changed = true;
      } else g.apply(line[i++]!);
    }
    while (g.histLen > 0) g.undo();
  }
  return line;
}

/** The line with the detour that starts at move i cut (g before line[i]), or null. */
function detourCut(g: Game, line: readonly PackedMove[], i: number, buf: Int32Array): PackedMove[] | null {
  const mi = line[i]!;
  const a = mi & 63;
  const b = (mi >> 6) & 63;
  // Move i takes a card from a (a column, the waste, a privileged card, the fifth card) onto (or
  // into) column b.
  if (a >= SRC_DRAW || b === DST_FOUNDATION) return null;
  const card = mi >>> 12;
  // This copy's next move: the first later move of the card from b (its twin cannot be put on
  // b, where the card lies, until this copy has left).
  let j = i + 1;
  while (j < line.length && (line[j]! >>> 12 !== card || (line[j]! & 63) !== b)) j++;
  if (j === line.length) return null;
  const mj = line[j]!;
  const dst = (mj >> 6) & 63;
  // Early: straight to j's destination at move i, move j dropped.
  if (dst !== a) {
    const early = [((mi & ~(63 << 6)) | (dst << 6)) >>> 0, ...line.slice(i + 1, j)];
    if (sameEnd(g, early, line, i, j, buf)) return line.slice(0, i).concat(early, line.slice(j + 1));
  }
  // Late: move i dropped, move j made from a (a waste card must then still be the waste top at
  // j, which the check sees); both dropped when j takes it back to a.
  const late = line.slice(i + 1, j);
  if (dst !== a) late.push((mj & ~63) | a);
  return sameEnd(g, late, line, i, j, buf) ? line.slice(0, i).concat(late, line.slice(j + 1)) : null;
}

/**
 * Are the moves `middle`, played from g (before line[i]), all legal, and do they end where
 * line[i..j] ends? Then the line with line[i..j] replaced by them wins as the line does, since
 * the rest is played from the same position. g is left where it was.
 */
function sameEnd(g: Game, middle: readonly PackedMove[], line: readonly PackedMove[], i: number, j: number, buf: Int32Array): boolean {
  let played = 0;
  for (const m of middle) {
    if (!isLegal(g, m, buf)) break;
    g.apply(m);
    played++;
  }
  let same = false;
  if (played === middle.length) {
    const p = position(g);
    for (let k = 0; k < played; k++) g.undo();
    for (let k = i; k <= j; k++) g.apply(line[k]!);
    same = position(g) === p;
    played = j - i + 1;
  }
  for (let k = 0; k < played; k++) g.undo();
  return same;
}

/** Is m among the moves legal in g's position? */
function isLegal(g: Game, m: PackedMove, buf: Int32Array): boolean {
  const n = g.generate(buf, GEN_ALL);
  for (let k = 0; k < n; k++) if (buf[k] === m) return true;
  return false;
}
