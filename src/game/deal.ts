import seedrandom from 'seedrandom';
import { type Card, formatCard, makeCard, tryParseCard, RANK_LETTERS } from './cards.js';
import { UserError, plural, shown } from './errors.js';
import { type Rules, type Size, FULL_SIZE, deckCount, formatRules, formatSize, parseRules, parseSize, stockCount } from './rules.js';

/**
 * A deal: the layout and the stock order. `columns[k][r]` is the card of column k+1 in row
 * r+1 (row 1 on top, the last row exposed). `stock[0]` is drawn first.
 */
export interface Deal {
  readonly size: Size;
  readonly columns: readonly (readonly Card[])[];
  readonly stock: readonly Card[];
  /** Where it came from: a deal number (`1234`) or `pysol 123456`, when known. */
  readonly source?: string;
  /** The rules a deal file asked for, when it had a `rules:` line. */
  readonly rules?: Rules;
}

export const MAX_DEAL_NUMBER = Number.MAX_SAFE_INTEGER; // 2^53 - 1

/** The ordered deck of scheme v1: for each pack, suits S H D C, ranks A..last. */
export function orderedDeck(size: Size): Card[] {
  const deck: Card[] = [];
  for (let p = 0; p < size.packs; p++)
    for (let s = 0; s < 4; s++) for (let r = 1; r <= size.ranks; r++) deck.push(makeCard(s, r));
  return deck;
}

/** `deal 4`, `PySolFC game 5`: a deal's source (Deal.source: `4`, `pysol 5`) in words. */
export function sourceLabel(source: string): string {
  const m = /^pysol\s+(.+)$/i.exec(source);
  return m ? `PySolFC game ${m[1]}` : `deal ${source}`;
}

/** Lays out a shuffled deck: card k < columns*rows to row floor(k/columns), column k mod columns; the rest is the stock. */
export function dealFromOrder(cards: readonly Card[], size: Size, source?: string): Deal {
  const columns: Card[][] = [];
  for (let c = 0; c < size.columns; c++) columns.push([]);
  const layoutCount = size.columns * size.rows;
  for (let k = 0; k < layoutCount; k++) columns[k % size.columns]!.push(cards[k]!);
  return { size, columns, stock: cards.slice(layoutCount), source };
}

/** Reads a deal number as typed by a user: a whole decimal number 0 <= n < 2^53. */
export function parseDealNumber(text: string): number {
  const t = text.trim();
  if (!/^\d+$/.test(t)) throw new UserError(`deal number '${shown(text)}' is not a whole number from 0 to ${MAX_DEAL_NUMBER}`);
  const n = Number(t);
  if (!Number.isSafeInteger(n)) throw new UserError(`deal number '${shown(text)}' is too large (the largest is ${MAX_DEAL_NUMBER})`);
  return n;
}

/**
 * Fisher–Yates from the top, in place, as scheme v1 shuffles (RULES.md): for i from length-1
 * down to 1, j = floor(rng() * (i + 1)), swap items i and j. Returns `items`.
 */
export function shuffle<T>(items: T[], rng: () => number): T[] {
  for (let i = items.length - 1; i >= 1; i--) {
    const j = Math.floor(rng() * (i + 1));
    const t = items[i]!;
    items[i] = items[j]!;
    items[j] = t;
  }
  return items;
}

/** Deal n of scheme v1 (RULES.md): seedrandom('limited:' + n), Fisher–Yates from the top (`shuffle`). */
export function dealFromNumber(n: number, size: Size = FULL_SIZE): Deal {
  if (!Number.isSafeInteger(n) || n < 0) throw new UserError(`deal number ${n} is not a whole number from 0 to ${MAX_DEAL_NUMBER}`);
  return dealFromOrder(shuffle(orderedDeck(size), seedrandom('limited:' + String(n))), size, String(n));
}

/** Checks that a deal holds every card exactly as often as the packs do. Throws UserError. */
export function checkDealCards(deal: Deal): void {
  const counts = new Map<Card, number>();
  for (const c of orderedDeck(deal.size)) counts.set(c, (counts.get(c) ?? 0) + 1);
  const seen = new Map<Card, number>();
  for (const col of deal.columns) for (const c of col) seen.set(c, (seen.get(c) ?? 0) + 1);
  for (const c of deal.stock) seen.set(c, (seen.get(c) ?? 0) + 1);
  for (const [c, n] of counts) {
    const m = seen.get(c) ?? 0;
    if (m !== n) throw new UserError(`card ${formatCard(c)} appears ${plural(m, 'time')}; the packs hold ${n}`);
  }
  for (const [c] of seen) if (!counts.has(c)) throw new UserError(`card ${formatCard(c)} is not in the deck`);
}

/** Writes a deal in the deal-file format of RULES.md. */
export function formatDealFile(deal: Deal, rules?: Rules): string {
  const lines: string[] = [];
  if (deal.source !== undefined) lines.push(`deal: ${deal.source}`);
  const r = rules ?? deal.rules;
  if (r) lines.push(`rules: ${formatRules(r)}`);
  lines.push(`size: ${formatSize(deal.size)}`);
  for (let row = 0; row < deal.size.rows; row++)
    lines.push(`row ${row + 1}: ${deal.columns.map((col) => formatCard(col[row]!)).join(' ')}`);
  const stock = deal.stock.map(formatCard);
  const chunks: string[] = [];
  for (let i = 0; i < stock.length; i += 17) chunks.push(stock.slice(i, i + 17).join(' '));
  lines.push(`stock: ${chunks.join('\n       ')}`.trimEnd());
  return lines.join('\n') + '\n';
}

/**
 * What a deal file may hold. A deal file is a few hundred bytes (104 cards and a few lines of
 * comments); the caps keep input of any size to a one-line error, read in bounded time.
 */
export const DEAL_FILE_LIMITS = {
  /** The whole file, bytes. */
  bytes: 64 * 1024,
  /** One line, characters. */
  lineChars: 1000,
  /** Cards on one line (a row, the stock line, a stock continuation line): the largest deck's. */
  cardsPerLine: 104,
} as const;

/** Throws a one-line UserError (`where` names the line) when `line` is longer than `max` characters. */
export function checkLineLength(line: string, max: number, where: string): void {
  if (line.length > max) throw new UserError(`${where}: a line of ${line.length} characters, longer than the ${max} a line may have`);
}

/**
 * Reads a deal file (RULES.md). Every error names the line (`name:LINE: ...`) and what is
 * wrong, and is thrown as a UserError; so is a file past DEAL_FILE_LIMITS.
 */
export function parseDealFile(text: string, name = 'deal file'): Deal {
  const where = (line: number) => `${name}:${line}`;
  let source: string | undefined;
  let rules: Rules | undefined;
  let size: Size = FULL_SIZE;
  let sizeLine = 0;
  const rowTexts = new Map<number, { line: number; words: string[] }>();
  let stock: { line: number; words: string[]; lines: number[] } | undefined;
  let inStock = false;
  const seenKeys = new Map<string, number>();
  if (text.length > DEAL_FILE_LIMITS.bytes)
    throw new UserError(`${name}: ${text.length} characters, more than a deal file may hold (${DEAL_FILE_LIMITS.bytes})`);
  const lines = text.split(/\r?\n/);
  const cardsOnLine = (words: readonly string[], lineNo: number): readonly string[] => {
    if (words.length > DEAL_FILE_LIMITS.cardsPerLine)
      throw new UserError(`${where(lineNo)}: ${words.length} cards on one line, more than a deck holds (${DEAL_FILE_LIMITS.cardsPerLine})`);
    return words;
  };
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const raw = lines[i]!;
    const hash = raw.indexOf('#');
    const body = (hash >= 0 ? raw.slice(0, hash) : raw).trim();
    if (body === '') continue;
    const m = /^([a-z]+)(?:\s+(\d+))?\s*:(.*)$/i.exec(body);
    // An unknown line is named as such (quoted short), whatever its length; a line read for its cards is capped.
    if (m || (inStock && stock)) checkLineLength(raw, DEAL_FILE_LIMITS.lineChars, where(lineNo));
    if (!m) {
      if (inStock && stock) {
        for (const w of cardsOnLine(body.split(/\s+/), lineNo)) {
          stock.words.push(w);
          stock.lines.push(lineNo);
        }
        continue;
      }
      throw new UserError(`${where(lineNo)}: unknown line '${shown(body)}' (expected deal:, rules:, size:, row N: or stock:)`);
    }
    const key = m[1]!.toLowerCase();
    const value = m[3]!.trim();
    inStock = false;
    if (key !== 'row') {
      if (m[2] !== undefined) throw new UserError(`${where(lineNo)}: unknown line '${shown(body)}'`);
      const prev = seenKeys.get(key);
      if (prev !== undefined && ['deal', 'rules', 'size', 'stock'].includes(key))
        throw new UserError(`${where(lineNo)}: '${key}:' repeated (first on line ${prev})`);
      seenKeys.set(key, lineNo);
    }
    switch (key) {
      case 'deal':
        source = value;
        break;
      case 'rules':
        try {
          rules = parseRules(value);
        } catch (e) {
          throw new UserError(`${where(lineNo)}: ${(e as Error).message}`);
        }
        break;
      case 'size':
        try {
          size = parseSize(value);
        } catch (e) {
          throw new UserError(`${where(lineNo)}: ${(e as Error).message}`);
        }
        sizeLine = lineNo;
        break;
      case 'row': {
        if (m[2] === undefined) throw new UserError(`${where(lineNo)}: 'row' needs a number, e.g. 'row 1:'`);
        const r = Number(m[2]);
        const prev = rowTexts.get(r);
        if (prev) throw new UserError(`${where(lineNo)}: row ${r} repeated (first on line ${prev.line})`);
        rowTexts.set(r, { line: lineNo, words: value === '' ? [] : [...cardsOnLine(value.split(/\s+/), lineNo)] });
        break;
      }
      case 'stock': {
        const words = value === '' ? [] : [...cardsOnLine(value.split(/\s+/), lineNo)];
        stock = { line: lineNo, words, lines: words.map(() => lineNo) };
        inStock = true;
        break;
      }
      default:
        throw new UserError(`${where(lineNo)}: unknown line '${shown(body)}' (expected deal:, rules:, size:, row N: or stock:)`);
    }
  }
  const parse = (word: string, line: number): Card => {
    const c = tryParseCard(word, size.ranks);
    if (c >= 0) return c;
    if (tryParseCard(word, 13) >= 0)
      throw new UserError(`${where(line)}: card '${shown(word)}' is not in a deck of ranks A-${RANK_LETTERS[size.ranks]} (size ${formatSize(size)})`);
    throw new UserError(`${where(line)}: unknown card '${shown(word)}'`);
  };
  for (const [r, { line }] of rowTexts)
    if (r < 1 || r > size.rows)
      throw new UserError(`${where(line)}: row ${r} is outside the layout (rows 1 to ${size.rows}${sizeLine ? `, size on line ${sizeLine}` : ''})`);
  const columns: Card[][] = [];
  for (let c = 0; c < size.columns; c++) columns.push([]);
  for (let r = 1; r <= size.rows; r++) {
    const row = rowTexts.get(r);
    if (!row) throw new UserError(`${name}: row ${r} is missing`);
    if (row.words.length !== size.columns)
      throw new UserError(`${where(row.line)}: row ${r} has ${plural(row.words.length, 'card')}, expected ${size.columns}`);
    row.words.forEach((w, k) => columns[k]!.push(parse(w, row.line)));
  }
  if (!stock) throw new UserError(`${name}: the stock: line is missing`);
  // A line after stock: that is not a key line is read as more of the stock, so stray text
  // there ('hello world') is named as the unknown card it is, on its own line, before the count
  // (which would name the stock: line and not say what was wrong).
  stock.words.forEach((w, i) => {
    const line = stock!.lines[i]!;
    if (line === stock!.line) return;
    try {
      parse(w, line);
    } catch (e) {
      throw new UserError(`${(e as Error).message} (a line after 'stock:' is read as more stock cards)`);
    }
  });
  const expected = stockCount(size);
  if (stock.words.length !== expected) {
    // Too many: the line of the first card too many (a continuation line, perhaps); too few: the stock: line.
    const line = stock.words.length > expected ? stock.lines[expected]! : stock.line;
    throw new UserError(
      `${where(line)}: the stock has ${plural(stock.words.length, 'card')}, expected ${expected}` +
        (line !== stock.line ? ` (the stock begins on line ${stock.line}; this line holds card ${expected + 1})` : ''),
    );
  }
  const stockCards = stock.words.map((w, i) => parse(w, stock!.lines[i]!));
  // Count every card; name the line where a card is one too many.
  const limit = size.packs;
  const counts = new Map<Card, number>();
  const note = (c: Card, line: number) => {
    const n = (counts.get(c) ?? 0) + 1;
    counts.set(c, n);
    if (n > limit)
      throw new UserError(`${where(line)}: card ${formatCard(c)} appears more than ${limit === 1 ? 'once' : `${limit} times`}; the packs hold ${limit}`);
  };
  for (let r = 1; r <= size.rows; r++) {
    const line = rowTexts.get(r)!.line;
    for (let k = 0; k < size.columns; k++) note(columns[k]![r - 1]!, line);
  }
  stockCards.forEach((c, i) => note(c, stock!.lines[i]!));
  const deal: Deal = { size, columns, stock: stockCards, source, rules };
  if (deckCount(size) !== size.columns * size.rows + stockCards.length) throw new Error('unreachable: card count');
  try {
    checkDealCards(deal);
  } catch (e) {
    throw new UserError(`${name}: ${(e as Error).message}`);
  }
  return deal;
}
