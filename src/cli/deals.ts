/**
 * Where a command's deal comes from: the deal-source options (a deal number, --deal FILE,
 * --pysol GAME) with --rules and --size, resolved to a deal and the rules to play it by.
 */
import { type Command } from 'commander';
import {
  type Deal, type Rules, type Size, BOOK, DEAL_FILE_LIMITS, FULL_SIZE, PYSOL, PYSOL_MS_MAX, UserError, dealFromNumber, formatSize, parseDealFile, parseDealNumber,
  parseRules, parseSize, pysolDeal, sizeEqual, sourceLabel,
} from '../game/index.js';
import { readTextFile } from './files.js';
import { prefixed } from './options.js';

/** The parsed options of a command that takes a deal (what commander gives the action). */
export interface DealSourceOptions {
  deal?: string;
  rules?: string;
  size?: string;
  /** `--pysol GAME`: a PySolFC game number. */
  pysol?: string;
  // A new source's option goes here too.
}

/** A deal ready to play: the deal, the rules to play it by, and how to name it to the user. */
export interface ResolvedDeal {
  readonly deal: Deal;
  readonly rules: Rules;
  /** `deal 1`, `deal file game.txt (deal 1)`. */
  readonly label: string;
}

/** One way of naming a deal. Exactly one source must be given on a command line. */
interface DealSource {
  /** How the user gives it, for messages: `a deal number N`, `--deal FILE`. */
  readonly label: string;
  /** Adds the source's option to a command (the deal number is the positional argument instead). */
  readonly addOption?: (cmd: Command) => void;
  /** Did the user give this source? */
  readonly given: (n: string | undefined, o: DealSourceOptions) => boolean;
  /**
   * Makes the deal. `size` is `--size` when given: a source that fixes its own size must
   * reject a `--size` that disagrees. A deal may carry `rules` (the default when no --rules).
   */
  readonly load: (n: string | undefined, o: DealSourceOptions, size: Size | undefined) => { deal: Deal; label: string };
}

/**
 * The deal sources, in the order they are listed in help and messages. THE place to add a
 * source (e.g. `--pysol GAME`): one entry here (its option, test and loader) and its field in
 * DealSourceOptions; `addDealOptions` and `resolveDeal` pick it up.
 */
const DEAL_SOURCES: readonly DealSource[] = [
  {
    label: 'a deal number N',
    given: (n) => n !== undefined,
    load: (n, _o, size) => {
      const number = parseDealNumber(n!);
      return { deal: dealFromNumber(number, size ?? FULL_SIZE), label: `deal ${number}` };
    },
  },
  {
    label: '--deal FILE',
    addOption: (cmd) => cmd.option('--deal <file>', "read the deal from a deal file (RULES.md format; '-' reads stdin)"),
    given: (_n, o) => o.deal !== undefined,
    load: (_n, o, size) => {
      const file = o.deal!;
      const name = file === '-' ? '<stdin>' : file;
      const deal = parseDealFile(readTextFile(file, 'deal file', DEAL_FILE_LIMITS.bytes), name);
      if (size && !sizeEqual(size, deal.size))
        throw new UserError(`--size ${formatSize(size)} disagrees with ${name}, which has size ${formatSize(deal.size)}`);
      return { deal, label: `deal file ${name}${deal.source !== undefined ? ` (deal ${deal.source})` : ''}` };
    },
  },
  {
    label: '--pysol GAME',
    addOption: (cmd) =>
      cmd.option('--pysol <game>', `the deal PySolFC deals for its Limited game number GAME (1 to 10^20, or ms1 to ms${PYSOL_MS_MAX}); rules default to 'pysol'`),
    given: (_n, o) => o.pysol !== undefined,
    load: (_n, o, size) => {
      // pysolDeal throws a one-line UserError for a number PySolFC would refuse.
      const deal = pysolDeal(o.pysol!);
      if (size && !sizeEqual(size, deal.size))
        throw new UserError(`--size ${formatSize(size)} disagrees with --pysol, whose deals have size ${formatSize(deal.size)}`);
      // PySolFC plays its Limited by the pysol preset: that is the default, --rules overrides it.
      return { deal: { ...deal, rules: PYSOL }, label: sourceLabel(deal.source!) };
    },
  },
];

/** `a deal number N or --deal FILE`, from the table above. */
function sourceList(joiner: string): string {
  const labels = DEAL_SOURCES.map((s) => s.label);
  return labels.length <= 1 ? labels.join('') : `${labels.slice(0, -1).join(', ')} ${joiner} ${labels[labels.length - 1]}`;
}

/** Adds the positional deal number, every deal source's option, --rules and --size to a command. */
export function addDealOptions(cmd: Command): Command {
  const others = DEAL_SOURCES.filter((s) => s.addOption).map((s) => s.label);
  cmd.argument('[N]', `deal number, 0 to 2^53-1 (or instead: ${others.join(' or ')})`);
  for (const s of DEAL_SOURCES) s.addOption?.(cmd);
  cmd.option('--rules <rules>', "a preset (book, pysol) and/or option=value words, e.g. 'pysol' or 'building=none privileged=2' (default: the deal file's rules: line; pysol with --pysol; else book)");
  cmd.option('--size <size>', "deck and layout DxR,CxW (packs x ranks, columns x rows) of a numbered deal, e.g. '1x5,4x3' (default 2x13,12x3; a deal file has its own)");
  return cmd;
}

/** Resolves the deal-source options of `addDealOptions` to a deal and its rules. Throws UserError. */
export function resolveDeal(n: string | undefined, o: DealSourceOptions): ResolvedDeal {
  const given = DEAL_SOURCES.filter((s) => s.given(n, o));
  if (given.length === 0) throw new UserError(`no deal given: give ${sourceList('or')}`);
  if (given.length > 1) throw new UserError(`give only one deal: got ${given.map((s) => s.label).join(' and ')}`);
  const size = o.size !== undefined ? prefixed('--size', () => parseSize(o.size!, ',')) : undefined;
  const rulesOption = o.rules !== undefined ? prefixed('--rules', () => parseRules(o.rules!)) : undefined;
  const { deal, label } = given[0]!.load(n, o, size);
  return { deal, rules: rulesOption ?? deal.rules ?? BOOK, label };
}
