import { UserError, shown } from './errors.js';

export type Building = 'pairs' | 'none' | 'suit';
export type SecondDeal = 'privileged' | 'none';

/** The three rule options of RULES.md. */
export interface Rules {
  readonly building: Building;
  readonly secondDeal: SecondDeal;
  /** Size of the privileged row, 1..8 (only used with secondDeal 'privileged'). */
  readonly privileged: number;
}

/** Deck size and layout: packs x ranks, columns x rows. */
export interface Size {
  readonly packs: number;
  readonly ranks: number;
  readonly columns: number;
  readonly rows: number;
}

/** The rules by name (`--rules book`); the solver's named settings are PRESETS in src/solver/presets.ts. */
export const RULES_PRESETS: Readonly<Record<string, Rules>> = {
  book: { building: 'pairs', secondDeal: 'privileged', privileged: 4 },
  pysol: { building: 'suit', secondDeal: 'none', privileged: 4 },
};

export const BOOK: Rules = RULES_PRESETS.book!;
export const PYSOL: Rules = RULES_PRESETS.pysol!;
export const FULL_SIZE: Size = { packs: 2, ranks: 13, columns: 12, rows: 3 };

export const MAX_COLUMNS = 16;
export const MAX_ROWS = 7;

const BUILDINGS: readonly Building[] = ['pairs', 'none', 'suit'];
const SECOND_DEALS: readonly SecondDeal[] = ['privileged', 'none'];

/**
 * Parses a rules text: a preset name and/or `option=value` words, e.g. `book`,
 * `pysol privileged=2`, `building=suit second-deal=none`. Words apply left to right on top
 * of `base` (default: the book preset). At most one preset, before the options: a second
 * preset, or one after options, would silently undo the words before it.
 */
export function parseRules(text: string, base: Rules = BOOK): Rules {
  let r: Rules = base;
  const words = text.trim().split(/[\s,]+/).filter((w) => w.length > 0);
  if (words.length === 0) throw new UserError('empty rules: give a preset (book, pysol) or option=value words');
  let presetWord: string | undefined;
  let optionWord: string | undefined;
  for (const w of words) {
    const preset = RULES_PRESETS[w.toLowerCase()];
    if (preset) {
      if (presetWord !== undefined) throw new UserError(`two presets in one rules text, '${shown(presetWord)}' and '${shown(w)}': give one (then option=value words)`);
      if (optionWord !== undefined) throw new UserError(`the preset '${shown(w)}' comes after '${shown(optionWord)}', which it would undo: give the preset first`);
      presetWord = w;
      r = preset;
      continue;
    }
    optionWord ??= w;
    const m = /^([a-z-]+)=(.+)$/i.exec(w);
    if (!m) throw new UserError(`unknown rules word '${shown(w)}' (presets: ${Object.keys(RULES_PRESETS).join(', ')}; options: building=, second-deal=, privileged=)`);
    const key = m[1]!.toLowerCase();
    const value = m[2]!.toLowerCase();
    switch (key) {
      case 'building':
        if (!(BUILDINGS as readonly string[]).includes(value))
          throw new UserError(`unknown value '${shown(m[2]!)}' for building (pairs, none, suit)`);
        r = { ...r, building: value as Building };
        break;
      case 'second-deal':
        if (!(SECOND_DEALS as readonly string[]).includes(value))
          throw new UserError(`unknown value '${shown(m[2]!)}' for second-deal (privileged, none)`);
        r = { ...r, secondDeal: value as SecondDeal };
        break;
      case 'privileged': {
        const n = /^[1-8]$/.test(value) ? Number(value) : NaN;
        if (!(n >= 1 && n <= 8)) throw new UserError(`privileged must be a whole number from 1 to 8, not '${shown(m[2]!)}'`);
        r = { ...r, privileged: n };
        break;
      }
      default:
        throw new UserError(`unknown rules option '${shown(m[1]!)}' (building, second-deal, privileged)`);
    }
  }
  return r;
}

export function rulesEqual(a: Rules, b: Rules): boolean {
  return a.building === b.building && a.secondDeal === b.secondDeal && a.privileged === b.privileged;
}

/** Canonical text: the preset name when the rules are exactly a preset, else all three options. */
export function formatRules(r: Rules): string {
  for (const [name, p] of Object.entries(RULES_PRESETS)) if (rulesEqual(p, r)) return name;
  return `building=${r.building} second-deal=${r.secondDeal} privileged=${r.privileged}`;
}

/**
 * Parses `2x13 12x3` (or with a comma), packs x ranks then columns x rows. `sep` is how the
 * error writes the form: ' ' as a deal file's `size:` line has it, ',' as the `--size` flag
 * documents it (`DxR,CxW`); either is read.
 */
export function parseSize(text: string, sep: ' ' | ',' = ' '): Size {
  const m = /^\s*(\d+)x(\d+)\s*[\s,]\s*(\d+)x(\d+)\s*$/i.exec(text);
  if (!m) throw new UserError(`size '${shown(text)}' is not of the form DxR${sep}CxW (packs x ranks, columns x rows), e.g. '2x13${sep}12x3'`);
  const [packs, ranks, columns, rows] = [m[1], m[2], m[3], m[4]].map(Number) as [number, number, number, number];
  if (packs < 1 || packs > 2) throw new UserError(`size '${shown(text)}': packs must be 1 or 2`);
  if (ranks < 1 || ranks > 13) throw new UserError(`size '${shown(text)}': ranks must be 1 to 13`);
  if (columns < 1 || columns > MAX_COLUMNS) throw new UserError(`size '${shown(text)}': columns must be 1 to ${MAX_COLUMNS}`);
  if (rows < 1 || rows > MAX_ROWS) throw new UserError(`size '${shown(text)}': rows must be 1 to ${MAX_ROWS}`);
  if (columns * rows > packs * ranks * 4)
    throw new UserError(`size '${shown(text)}': the layout needs ${columns * rows} cards but the deck has ${packs * ranks * 4}`);
  return { packs, ranks, columns, rows };
}

export function formatSize(s: Size): string {
  return `${s.packs}x${s.ranks} ${s.columns}x${s.rows}`;
}

export function sizeEqual(a: Size, b: Size): boolean {
  return a.packs === b.packs && a.ranks === b.ranks && a.columns === b.columns && a.rows === b.rows;
}

export const deckCount = (s: Size): number => s.packs * s.ranks * 4;
export const stockCount = (s: Size): number => deckCount(s) - s.columns * s.rows;
