/**
 * Test helpers for the engine tests: small hand-made deals and a `Pos` (a deal, rules and a
 * list of moves in solution notation) whose legal moves can be listed with `generate` and
 * checked with the replay verifier.
 */
import { expect } from 'vitest';
import {
  type Deal, type Rules, type Card, Game, GEN_ALL, MAX_MOVES, UserError, formatMove, formatMoveBare,
  parseDealFile, parseMove, parseRules, replay, resolveMove, verifyText,
} from '../src/game/index.js';

/**
 * The rule variants that the solver's verdicts are cross-checked under (privileged=4 with
 * pairs is `book`): every building with and without the second deal, and smaller rows.
 */
export const RULE_VARIANTS = [
  'book',
  'building=none',
  'building=suit',
  'second-deal=none',
  'second-deal=none building=none',
  'second-deal=none building=suit',
  'privileged=1',
  'privileged=2',
  'privileged=3',
] as const;

/** A deal from deal-file lines, e.g. `deal('1x5 4x3', ['row 1: ...', ...])`. */
export function dealText(size: string, rows: readonly string[], stock: string, extra = ''): string {
  return `${extra}size: ${size}\n${rows.map((r, i) => `row ${i + 1}: ${r}`).join('\n')}\nstock: ${stock}\n`;
}

export function deal(size: string, rows: readonly string[], stock: string): Deal {
  return parseDealFile(dealText(size, rows, stock), 'test deal');
}

/** The legal moves of a game as `formatMove` texts, in generation order. */
export function legalOf(g: Game): string[] {
  const buf = new Int32Array(MAX_MOVES);
  const n = g.generate(buf, GEN_ALL);
  return Array.from(buf.subarray(0, n), (m) => formatMove(m));
}

/** The legal moves of a game as `formatMoveBare` texts. */
export function legalBareOf(g: Game): string[] {
  const buf = new Int32Array(MAX_MOVES);
  const n = g.generate(buf, GEN_ALL);
  return Array.from(buf.subarray(0, n), (m) => formatMoveBare(m));
}

/** Plays moves given in solution notation; throws (with the reason) on an illegal one. */
export function playMoves(g: Game, moves: readonly string[]): void {
  for (const t of moves) {
    const p = parseMove(t, g.columns, g.privileged, g.ranks);
    if (!p) continue;
    try {
      g.apply(resolveMove(g, p));
    } catch (e) {
      if (e instanceof UserError) throw new Error(`move '${t}' after ${g.moveCount} moves: ${e.message}`);
      throw e;
    }
  }
}

/** A position: a deal and rules after a list of moves (in solution notation). */
export class Pos {
  readonly rules: Rules;
  constructor(
    readonly deal: Deal,
    rules: Rules | string = 'book',
    readonly moves: readonly string[] = [],
  ) {
    this.rules = typeof rules === 'string' ? parseRules(rules) : rules;
  }

  /** The position after more moves (checked legal, with their cards, by the verifier). */
  then(...moves: string[]): Pos {
    const next = new Pos(this.deal, this.rules, [...this.moves, ...moves]);
    next.game(); // asserts every move is legal
    return next;
  }

  /** A fresh game in this position; fails the test if a move of the prefix is illegal. */
  game(): Game {
    const r = replay(this.deal, this.rules, this.moves.join('\n'));
    if (r.error) throw new Error(`prefix does not replay: ${verifyText(r)}`);
    expect(r.played).toBe(this.moves.length);
    return r.game;
  }

  /** The legal moves listed by generate(GEN_ALL), with their cards. */
  legal(): string[] {
    return legalOf(this.game());
  }

  /** The verifier's verdict on the prefix followed by `more`. */
  verdict(...more: string[]): string {
    return verifyText(replay(this.deal, this.rules, [...this.moves, ...more].join('\n')));
  }

  /** Each move (with its card) is listed by generate and replays cleanly after the prefix. */
  expectAllowed(...moves: string[]): void {
    const legal = this.legal();
    for (const m of moves) {
      expect(legal, `generate lists '${m}' after [${this.moves.join(', ')}]`).toContain(m);
      const r = replay(this.deal, this.rules, [...this.moves, m].join('\n'));
      expect(r.error, `replay of '${m}'`).toBeUndefined();
      expect(r.played).toBe(this.moves.length + 1);
    }
  }

  /** The legal moves are exactly these (any order). */
  expectOnly(...moves: string[]): void {
    expect([...this.legal()].sort()).toEqual([...moves].sort());
    this.expectAllowed(...moves);
  }

  /**
   * The move is not listed by generate (no move with its source and destination), and the
   * verifier refuses it as the next move with exactly this reason.
   */
  expectRefused(move: string, reason: string): void {
    const bare = move.split(/\s+/)[0]!;
    const g = this.game();
    expect(legalBareOf(g), `generate must not list '${bare}' after [${this.moves.join(', ')}]`).not.toContain(bare);
    // One move a line, no comments: the move's line is its number; the move is quoted as written.
    expect(this.verdict(move)).toBe(`invalid: move ${this.moves.length + 1} (line ${this.moves.length + 1}) '${move.trim()}': ${reason}`);
  }
}

/** Counts of each card in a list. */
export function countCards(cards: Iterable<Card>): Map<Card, number> {
  const m = new Map<Card, number>();
  for (const c of cards) m.set(c, (m.get(c) ?? 0) + 1);
  return m;
}

/** Sorted [card, count] entries, for comparing two count maps with toEqual. */
export function sortedCounts(m: Map<Card, number>): [Card, number][] {
  return [...m.entries()].sort((a, b) => a[0] - b[0]);
}
