/**
 * Named deal sets (bench/sets/NAME.json): fixed lists of deals, so that benchmark figures from
 * different days and machines compare.
 *
 * A set file is a small JSON object:
 *
 *   {
 *     "name": "book-1k",                          the name --deal-set takes (= the file's name)
 *     "description": "book deals 1-1000",         one line for the report
 *     "source": "v1",                              v1: this project's deal numbers; pysol: PySolFC game numbers
 *     "rules": "book",                             formatRules text (a preset and/or option=value words)
 *     "size": "2x13 12x3",                         optional (default 2x13 12x3; pysol deals are always full size)
 *     "count": 1000,                               how many deals the list holds (a check)
 *     "deals": ["1-1000"],                         deal numbers and ranges "A-B", in the order to run them
 *     "chosen": "..."                              optional: how the deals were picked, and the command
 *   }
 *
 * A deal may appear once only. The set's rules are the rules the deals are played by;
 * `limited bench --rules` overrides them.
 */
import { readdirSync } from 'node:fs';
import { readRegular } from '../util/fileio.js';
import { basename, join, resolve } from 'node:path';
import {
  type Rules, type Size, FULL_SIZE, MAX_DEAL_NUMBER, UserError, formatSize, parseRules, parseSize, sizeEqual,
} from '../game/index.js';
import { nameSlug } from '../batch/names.js';
import { packageRoot } from '../batch/machine.js';
import { type DealSourceKind } from '../batch/job.js';

/** A list of deals to benchmark on: a named set, or a range from the command line. */
export interface DealList {
  /** `book-1k`, or `deals-1-200` / `pysol-1-200` for a range. */
  readonly name: string;
  readonly description: string;
  readonly source: DealSourceKind;
  readonly rules: Rules;
  readonly size: Size;
  /** The deal numbers, in the order they are run and reported. */
  readonly deals: readonly number[];
  /** How the deals were chosen (set files only). */
  readonly chosen?: string;
  /** The set file (set files only). */
  readonly file?: string;
}

/** The directory of the named sets: bench/sets of the package. */
export function setsDir(): string {
  return join(packageRoot(), 'bench', 'sets');
}

/** The names of the sets in bench/sets. */
export function setNames(): string[] {
  try {
    return readdirSync(setsDir())
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -5))
      .sort();
  } catch {
    return [];
  }
}

/** Deal numbers from items `7` or `"1-1000"` (A <= B); throws UserError naming the file. */
export function expandDeals(items: unknown, where: string): number[] {
  if (!Array.isArray(items) || items.length === 0) throw new UserError(`${where}: "deals" must be a non-empty list of deal numbers and ranges "A-B"`);
  const out: number[] = [];
  for (const it of items) {
    let a: number;
    let b: number;
    if (typeof it === 'number') a = b = it;
    else if (typeof it === 'string' && /^\s*\d+\s*(-\s*\d+\s*)?$/.test(it)) {
      const [x, y] = it.split('-');
      a = Number(x);
      b = y === undefined ? a : Number(y);
    } else throw new UserError(`${where}: ${JSON.stringify(it)} in "deals" is neither a deal number nor a range "A-B"`);
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || a < 0 || b < a || b > MAX_DEAL_NUMBER)
      throw new UserError(`${where}: ${JSON.stringify(it)} in "deals" is not a deal number or a range A-B with 0 <= A <= B <= ${MAX_DEAL_NUMBER}`);
    if (b - a + out.length > 10_000_000) throw new UserError(`${where}: more than 10,000,000 deals`);
    for (let n = a; n <= b; n++) out.push(n);
  }
  const seen = new Set<number>();
  for (const n of out) {
    if (seen.has(n)) throw new UserError(`${where}: deal ${n} is in "deals" twice`);
    seen.add(n);
  }
  return out;
}

/** Parses the text of a set file; `file` names it in errors. Throws UserError. */
export function parseSet(text: string, file: string): DealList {
  let j: Record<string, unknown>;
  try {
    j = JSON.parse(text) as Record<string, unknown>;
  } catch (e) {
    throw new UserError(`${file}: not valid JSON (${(e as Error).message})`);
  }
  if (j === null || typeof j !== 'object' || Array.isArray(j)) throw new UserError(`${file}: a deal set is a JSON object`);
  const str = (k: string, optional = false): string | undefined => {
    const v = j[k];
    if (v === undefined && optional) return undefined;
    if (typeof v !== 'string' || v.trim() === '') throw new UserError(`${file}: "${k}" must be a non-empty string`);
    return v;
  };
  const name = str('name')!;
  const source = str('source')!;
  if (source !== 'v1' && source !== 'pysol') throw new UserError(`${file}: "source" must be "v1" (deal numbers) or "pysol" (PySolFC game numbers), not "${source}"`);
  const rulesText = str('rules')!;
  let rules: Rules;
  try {
    rules = parseRules(rulesText);
  } catch (e) {
    throw e instanceof UserError ? new UserError(`${file}: "rules": ${e.message}`) : e;
  }
  const sizeText = str('size', true);
  let size: Size = FULL_SIZE;
  if (sizeText !== undefined) {
    try {
      size = parseSize(sizeText);
    } catch (e) {
      throw e instanceof UserError ? new UserError(`${file}: "size": ${e.message}`) : e;
    }
  }
  if (source === 'pysol' && !sizeEqual(size, FULL_SIZE)) throw new UserError(`${file}: PySolFC deals have size ${formatSize(FULL_SIZE)}, not ${formatSize(size)}`);
  const deals = expandDeals(j['deals'], file);
  if (source === 'pysol' && deals.includes(0)) throw new UserError(`${file}: PySolFC game numbers start at 1 (0 is in "deals")`);
  const count = j['count'];
  if (count !== undefined && count !== deals.length) throw new UserError(`${file}: "count" is ${JSON.stringify(count)} but "deals" holds ${deals.length} deals`);
  const chosen = str('chosen', true);
  return {
    name,
    description: str('description', true) ?? `${deals.length} deals`,
    source,
    rules,
    size,
    deals,
    ...(chosen !== undefined ? { chosen } : {}),
    file,
  };
}

/**
 * A set by name (bench/sets/NAME.json) or by path (anything with a '/' or ending in .json).
 * Throws UserError: an unknown name lists the sets there are.
 */
export function loadSet(nameOrPath: string): DealList {
  const isPath = /[/\\]/.test(nameOrPath) || nameOrPath.endsWith('.json');
  const file = isPath ? resolve(nameOrPath) : join(setsDir(), `${nameOrPath}.json`);
  // A regular file only: bench holds its signal handlers while it reads, and a FIFO or a device
  // read here would wait, or read, for ever.
  const text = readRegular(file, 'deal set');
  if (text === null) {
    if (!isPath) {
      const names = setNames();
      throw new UserError(`unknown deal set '${nameOrPath}' (sets: ${names.length > 0 ? names.join(', ') : 'none found'}; or give a set file's path)`);
    }
    throw new UserError(`cannot read deal set '${nameOrPath}': no such file`);
  }
  const set = parseSet(text, isPath ? nameOrPath : join('bench', 'sets', basename(file)));
  if (!isPath && set.name !== nameOrPath) throw new UserError(`bench/sets/${nameOrPath}.json names itself '${set.name}': the name must be the file's`);
  return set;
}

/** Consecutive deals A..B of a source, as a list (`--deals A-B`, `--pysol-range A-B`). */
export function rangeList(source: DealSourceKind, from: number, to: number, rules: Rules, size: Size): DealList {
  const deals: number[] = [];
  for (let n = from; n <= to; n++) deals.push(n);
  const what = source === 'pysol' ? 'PySolFC games' : 'deals';
  // A size that is not the full one is in the name (and so in bench's default directory), so
  // that small and full-size runs of one range do not share a directory.
  const small = sizeEqual(size, FULL_SIZE) ? '' : `-${nameSlug(formatSize(size))}`;
  return {
    name: `${source === 'pysol' ? 'pysol' : 'deals'}-${from}-${to}${small}`,
    description: `${what} ${from}-${to}`,
    source,
    rules,
    size,
    deals,
  };
}
