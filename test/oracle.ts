/**
 * An independent rules oracle for the differential test (oracle.test.ts): a deliberately
 * simple, slow model of RULES.md, written from RULES.md alone and not from the engine's
 * move generation (src/game/state.ts). It uses only the project's card, deal and rules types.
 *
 * State is kept in plain arrays: each column is a list of cards, top row first, each marked
 * whether it is the covering card of a pair; the foundations are their top ranks; the stock is
 * the deal's stock with a pointer; the waste, the privileged row and the pile are card lists.
 * Moves are read and written in RULES.md notation (`draw 7H`, `redeal`, `c3>f 5S`, `w>c7 4H`,
 * `p2>c1 JC`, `n>f 9D`), always with the card moved (none for `redeal`).
 */
import { type Card, type Deal, type Rules, type Size, cardRank, cardSuit, formatCard } from '../src/game/index.js';

/** A card in a column; `cover` is true when it was paired onto the card under it (building=pairs). */
interface ColumnCard {
  readonly card: Card;
  readonly cover: boolean;
}

/** A free card: where it is (notation of the source) and which card it is. */
interface Free {
  readonly src: string;
  readonly card: Card;
  /** The 0-based column it is the exposed card of, or -1 (waste, privileged card, fifth card). */
  readonly column: number;
  /** The covering card of a pair: it may go only to a foundation (rule 2). */
  readonly cover: boolean;
}

/** Everything a player can see, in a form both the oracle and the engine can be put in. */
export interface Observable {
  /** Each column's cards, top row first (the exposed card last). */
  readonly columns: Card[][];
  /** For each column: is its exposed card the covering card of a pair? (false when empty) */
  readonly covers: boolean[];
  /** For each suit S H D C: the top ranks of its foundations (0 when empty), sorted. */
  readonly foundations: number[][];
  readonly stockPtr: number;
  /** The waste, the first card discarded first (the top last); empty in phase 2. */
  readonly waste: Card[];
  /** The privileged row p1..pN (phase 2). */
  readonly row: Card[];
  /** The pile still to come after the row, its first card the fifth card (phase 2). */
  readonly pile: Card[];
  readonly phase: number;
  readonly home: number;
  readonly won: boolean;
}

export class Oracle {
  readonly size: Size;
  readonly rules: Rules;
  readonly total: number;
  readonly columns: ColumnCard[][];
  /** foundations[suit] = top rank of each of that suit's foundations (one per pack). */
  readonly foundations: number[][];
  readonly stock: readonly Card[];
  stockPtr = 0;
  waste: Card[] = [];
  row: Card[] = [];
  pile: Card[] = [];
  phase: 1 | 2 = 1;
  home = 0;

  constructor(deal: Deal, rules: Rules) {
    this.size = deal.size;
    this.rules = rules;
    this.total = deal.size.packs * deal.size.ranks * 4;
    this.columns = deal.columns.map((col) => col.map((card) => ({ card, cover: false })));
    this.foundations = [0, 1, 2, 3].map(() => new Array<number>(deal.size.packs).fill(0));
    this.stock = deal.stock.slice();
  }

  won(): boolean {
    return this.home === this.total;
  }

  private exposed(k: number): ColumnCard | undefined {
    const col = this.columns[k]!;
    return col[col.length - 1];
  }

  /** A foundation of the card's suit whose top is one rank lower (an ace: an empty one). */
  private foundationFor(card: Card): number {
    return this.foundations[cardSuit(card)]!.indexOf(cardRank(card) - 1);
  }

  /**
   * May `card` be placed on column k's exposed card? (Never into a space: spaces are separate.)
   * pairs: same suit, one rank lower, and the exposed card is not itself a covering card;
   * suit: same suit, one rank lower, on anything; none: never.
   */
  private placesOn(card: Card, k: number): boolean {
    const top = this.exposed(k);
    if (top === undefined) return false;
    const fits = cardSuit(top.card) === cardSuit(card) && cardRank(top.card) === cardRank(card) + 1;
    switch (this.rules.building) {
      case 'none':
        return false;
      case 'pairs':
        return fits && !top.cover;
      case 'suit':
        return fits;
    }
  }

  /** The free cards: the exposed card of each column, the waste top (phase 1), the privileged cards (phase 2). */
  private freeCards(): Free[] {
    const free: Free[] = [];
    this.columns.forEach((col, k) => {
      const top = col[col.length - 1];
      if (top) free.push({ src: `c${k + 1}`, card: top.card, column: k, cover: top.cover });
    });
    if (this.phase === 1 && this.waste.length > 0)
      free.push({ src: 'w', card: this.waste[this.waste.length - 1]!, column: -1, cover: false });
    if (this.phase === 2) this.row.forEach((card, i) => free.push({ src: `p${i + 1}`, card, column: -1, cover: false }));
    return free;
  }

  /** The moves of one free card: foundation, pair (or build), space. */
  private movesOf(f: Free): string[] {
    const out: string[] = [];
    const name = formatCard(f.card);
    if (this.foundationFor(f.card) >= 0) out.push(`${f.src}>f ${name}`);
    if (f.cover) return out; // a covering card goes only to a foundation
    for (let k = 0; k < this.columns.length; k++) {
      if (k === f.column) continue;
      if (this.columns[k]!.length === 0 || this.placesOn(f.card, k)) out.push(`${f.src}>c${k + 1} ${name}`);
    }
    return out;
  }

  /**
   * Rule 7: may the player turn the fifth card now? Only in phase 2 with cards left in the pile
   * after the row, no ace free (rule 1), and no privileged card able to go to a foundation,
   * pair or space.
   */
  fifthMayBeTurned(): boolean {
    if (this.phase !== 2 || this.pile.length === 0) return false;
    const free = this.freeCards();
    if (free.some((f) => cardRank(f.card) === 1)) return false;
    return free.filter((f) => f.src.startsWith('p')).every((f) => this.movesOf(f).length === 0);
  }

  /** Every legal move, in notation with its card, sorted. */
  legalMoves(): string[] {
    const free = this.freeCards();
    // Rule 1 (reading): while an ace is free, only free aces may move, to the foundations.
    const aces = free.filter((f) => cardRank(f.card) === 1);
    if (aces.length > 0) return aces.map((f) => `${f.src}>f ${formatCard(f.card)}`).sort();

    const moves: string[] = [];
    for (const f of free) moves.push(...this.movesOf(f));
    if (this.phase === 1) {
      if (this.stockPtr < this.stock.length) moves.push(`draw ${formatCard(this.stock[this.stockPtr]!)}`);
      else if (this.rules.secondDeal === 'privileged' && this.waste.length > 0) moves.push('redeal');
    } else if (this.fifthMayBeTurned()) {
      // Rule 7: then only to a foundation or as a pair (onto a non-empty column).
      const card = this.pile[0]!;
      const name = formatCard(card);
      if (this.foundationFor(card) >= 0) moves.push(`n>f ${name}`);
      for (let k = 0; k < this.columns.length; k++) if (this.placesOn(card, k)) moves.push(`n>c${k + 1} ${name}`);
    }
    return moves.sort();
  }

  /** Plays one move given in notation (with its card); throws if it is not legal here. */
  apply(move: string): void {
    if (!this.legalMoves().includes(move)) throw new Error(`oracle: '${move}' is not legal here`);
    if (move.startsWith('draw')) {
      this.waste.push(this.stock[this.stockPtr]!);
      this.stockPtr++;
      return;
    }
    if (move === 'redeal') {
      // The waste turned over as it lies: the first card discarded is on top of the pile.
      this.pile = this.waste;
      this.waste = [];
      this.row = this.pile.splice(0, this.rules.privileged);
      this.phase = 2;
      return;
    }
    const m = /^(c\d+|w|p\d+|n)>(f|c\d+) (\S+)$/.exec(move);
    if (!m) throw new Error(`oracle: cannot read '${move}'`);
    const [, src, dst] = m as unknown as [string, string, string];
    let card: Card;
    if (src === 'w') card = this.waste.pop()!;
    else if (src === 'n') card = this.pile.shift()!;
    else if (src.startsWith('p')) {
      const i = Number(src.slice(1)) - 1;
      card = this.row.splice(i, 1)[0]!; // those to its right move one place left
      if (this.pile.length > 0) this.row.push(this.pile.shift()!); // refilled at the right end
    } else card = this.columns[Number(src.slice(1)) - 1]!.pop()!.card;
    if (formatCard(card) !== m[3]) throw new Error(`oracle: '${move}' names the wrong card (${formatCard(card)})`);
    if (dst === 'f') {
      const f = this.foundationFor(card);
      this.foundations[cardSuit(card)]![f] = cardRank(card);
      this.home++;
    } else {
      const col = this.columns[Number(dst.slice(1)) - 1]!;
      // Into a space: an ordinary one-card column. Onto a card under building=pairs: a pair.
      col.push({ card, cover: col.length > 0 && this.rules.building === 'pairs' });
    }
  }

  observe(): Observable {
    return {
      columns: this.columns.map((col) => col.map((c) => c.card)),
      covers: this.columns.map((col) => col.length > 0 && col[col.length - 1]!.cover),
      foundations: this.foundations.map((f) => [...f].sort((a, b) => a - b)),
      stockPtr: this.stockPtr,
      waste: [...this.waste],
      row: [...this.row],
      pile: [...this.pile],
      phase: this.phase,
      home: this.home,
      won: this.won(),
    };
  }

  /** A copy that shares nothing mutable with this one. */
  clone(): Oracle {
    const o = Object.create(Oracle.prototype) as Oracle;
    Object.assign(o, this, {
      columns: this.columns.map((col) => col.slice()),
      foundations: this.foundations.map((f) => f.slice()),
      waste: this.waste.slice(),
      row: this.row.slice(),
      pile: this.pile.slice(),
    });
    return o;
  }
}

/**
 * Can the game be won from here? A plain exhaustive search over the model's own legal moves
 * (no pruning, no symmetry), remembering positions by their full observable form. For tiny
 * decks only: it throws past `maxStates` positions.
 */
export function oracleWinnable(start: Oracle, maxStates = 200_000): { won: boolean; states: number } {
  const seen = new Set<string>();
  const search = (o: Oracle): boolean => {
    if (o.won()) return true;
    const key = JSON.stringify(o.observe());
    if (seen.has(key)) return false;
    seen.add(key);
    if (seen.size > maxStates) throw new Error(`oracle search passed ${maxStates} positions`);
    for (const m of o.legalMoves()) {
      const next = o.clone();
      next.apply(m);
      if (search(next)) return true;
    }
    return false;
  };
  return { won: search(start), states: seen.size };
}
