import { UserError } from './errors.js';

/**
 * A card is a small integer: `suit * 16 + rank`, suit 0..3 in the order S H D C, rank 1..13
 * (ace = 1). The two copies of a card in a two-pack game are the same integer: twins are
 * identical in play, and so in every data structure.
 *
 * With this layout "one rank lower, same suit" is `card - 1`, which the move generator uses.
 */
export type Card = number;

export const SUIT_LETTERS = ['S', 'H', 'D', 'C'] as const;
export const SUIT_SYMBOLS = ['♠', '♥', '♦', '♣'] as const;
export const RANK_LETTERS = ['?', 'A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'] as const;
/** Upper bound (exclusive) of card codes: 4 suits * 16. */
export const CARD_CODES = 64;

export const makeCard = (suit: number, rank: number): Card => (suit << 4) | rank;
export const cardSuit = (c: Card): number => c >> 4;
export const cardRank = (c: Card): number => c & 15;

export function formatCard(c: Card): string {
  return RANK_LETTERS[c & 15] + SUIT_LETTERS[c >> 4];
}

/** The card with a suit symbol, e.g. `5♠`; used by `show`. */
export function formatCardSymbol(c: Card): string {
  return RANK_LETTERS[c & 15] + SUIT_SYMBOLS[c >> 4];
}

const RANK_INPUT: Record<string, number> = {
  A: 1, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7, '8': 8, '9': 9, T: 10, '10': 10, J: 11, Q: 12, K: 13,
};
const SUIT_INPUT: Record<string, number> = { S: 0, H: 1, D: 2, C: 3, '♠': 0, '♥': 1, '♦': 2, '♣': 3 };

/**
 * Reads a card as RULES.md allows: rank `A 2..9 T J Q K` (or `10`), suit `S H D C` or a suit
 * symbol, in either case. Returns -1 when the text is not a card; `ranks` (default 13) limits
 * the ranks of a small deck.
 */
export function tryParseCard(text: string, ranks = 13): Card {
  const t = text.trim().toUpperCase().replace(/\uFE0F/g, '');
  if (t.length < 2) return -1;
  const suitChar = t.slice(-1);
  const suit = SUIT_INPUT[suitChar];
  const rank = RANK_INPUT[t.slice(0, -1)];
  if (suit === undefined || rank === undefined || rank > ranks) return -1;
  return makeCard(suit, rank);
}

export function parseCard(text: string, ranks = 13): Card {
  const c = tryParseCard(text, ranks);
  if (c < 0) {
    const r = tryParseCard(text, 13);
    if (r >= 0) throw new UserError(`card '${text}' is not in a deck of ranks A-${RANK_LETTERS[ranks]}`);
    throw new UserError(`'${text}' is not a card (ranks A 2-9 T J Q K, suits S H D C)`);
  }
  return c;
}
