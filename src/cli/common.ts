/**
 * Pieces shared by the commands: where a deal comes from (the deal-source options), reading
 * files, colour, and `run`, the wrapper that turns errors into exit statuses:
 *   0 done; 1 a negative answer (an invalid solution); 2 bad input (one line on stderr);
 *   70 a bug (the stack on stderr).
 */
import { closeSync, constants, fstatSync, openSync, statSync } from 'node:fs';
import { Socket } from 'node:net';
import { type Readable } from 'node:stream';
import { ReadStream, isatty } from 'node:tty';
import { availableParallelism } from 'node:os';
import { type Command, CommanderError, Option } from 'commander';
import { fileError, readCappedSync } from '../batch/fileio.js';
import { interruptible } from '../batch/stop.js';
import {
  type Deal, type Rules, type Size, BOOK, DEAL_FILE_LIMITS, FULL_SIZE, PYSOL, SOLUTION_FILE_LIMITS, UserError, checkSolutionText, dealFromNumber, formatSize, headerMismatch, parseDealFile,
  parseDealNumber, PYSOL_MS_MAX, parseRules, parseSize, plural, pysolDeal, sizeEqual, sourceLabel,
} from '../game/index.js';

export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;
export const EXIT_BUG = 70;

// ---------------------------------------------------------------------------------------
// Deal sources

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

/** Runs a parser, putting the option's name in front of its error message. */
export function prefixed<T>(option: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof UserError) {
      // `size '3x4' is not ...` reads `--size '3x4' is not ...`.
      const word = option.replace(/^--/, '');
      throw new UserError(e.message.startsWith(word + ' ') ? `--${e.message}` : `${option}: ${e.message}`);
    }
    throw e;
  }
}

// ---------------------------------------------------------------------------------------
// Files, output, colour

/**
 * Reads a text file ('-' is stdin) of at most `maxBytes` bytes; an unreadable file, or a larger
 * one, is a UserError naming it. A regular file's size is looked at before it is read; for any
 * file the cap is kept while reading (`readCappedSync`), so a device or a pipe without end
 * (/dev/zero, /dev/urandom) is one line at once. What may wait for its writer (a FIFO, stdin)
 * was read before the command began, by `preloadInputs`, and is taken from there.
 */
export function readTextFile(path: string, what: string, maxBytes: number): string {
  const name = path === '-' ? '<stdin>' : `'${path}'`;
  const tooBig = (n: number): UserError => new UserError(`${what} ${name} is ${n} bytes, more than a ${what} may hold (${maxBytes})`);
  const tooMuch = (): UserError => new UserError(`${what} ${name} holds more than the ${maxBytes} bytes a ${what} may hold`);
  if (preloaded.has(path)) {
    const buf = preloaded.get(path)!;
    preloaded.delete(path);
    if (buf === null) throw tooMuch();
    return buf.toString('utf8');
  }
  let fd: number | undefined;
  try {
    fd = path === '-' ? 0 : openSync(path, 'r');
    const st = fstatSync(fd);
    if (st.isFile() && st.size > maxBytes) throw tooBig(st.size);
    const buf = readCappedSync(fd, maxBytes);
    if (buf === null) throw tooMuch();
    return buf.toString('utf8');
  } catch (e) {
    if (e instanceof UserError) throw e;
    return fileError(e, `read ${what}`, path);
  } finally {
    if (fd !== undefined && fd !== 0) closeSync(fd);
  }
}

/** The input files that `preloadInputs` read, by the name given (null: more than their cap). */
const preloaded = new Map<string, Buffer | null>();

/** The options that name an input file, what it is, and its cap. */
const INPUT_OPTIONS: readonly (readonly [key: string, what: string, maxBytes: number])[] = [
  ['deal', 'deal file', DEAL_FILE_LIMITS.bytes],
  ['after', 'solution file', SOLUTION_FILE_LIMITS.bytes],
  ['solution', 'solution file', SOLUTION_FILE_LIMITS.bytes],
];

/**
 * Reads, before a command's action, each input file of its options that may wait for a writer
 * (stdin, a FIFO, a terminal or another character device, a socket): asynchronously, its cap
 * kept while reading, and `interruptible`, so that SIGINT or SIGTERM ends the wait (a read in
 * the action would block the process, and with it the signal handlers, for as long as the
 * writer takes). `readTextFile` takes the text from here. Regular files are left to it.
 */
export async function preloadInputs(opts: Record<string, unknown>): Promise<void> {
  const given = INPUT_OPTIONS.filter(([k]) => typeof opts[k] === 'string' && opts[k] !== '');
  // Two options reading stdin are refused by the command (stdinOnce): neither is read here.
  const dashes = given.filter(([k]) => opts[k] === '-').length;
  for (const [k, what, maxBytes] of given) {
    const path = opts[k] as string;
    if (path === '-' ? dashes > 1 : !mayWait(path)) continue;
    try {
      preloaded.set(path, await interruptible(() => readCapped(path, maxBytes)));
    } catch (e) {
      fileError(e, `read ${what}`, path);
    }
  }
}

/**
 * Whether a read of `path` may wait: a FIFO (for its writer) or a terminal (for a typist).
 * Other devices answer at once (/dev/zero, /dev/null) and are read by `readTextFile`.
 */
function mayWait(path: string): boolean {
  try {
    const st = statSync(path);
    if (st.isFIFO()) return true;
    if (!st.isCharacterDevice()) return false;
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      return isatty(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false; // readTextFile says why
  }
}

/**
 * `path` ('-': stdin) as a stream read on the event loop. A FIFO is opened without waiting for
 * its writer (O_NONBLOCK) and read as a pipe: a read or an open left waiting in libuv's thread
 * pool would hold up even process.exit, which waits for that pool's threads.
 */
function inputStream(path: string): Readable {
  if (path === '-') return process.stdin;
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  return isatty(fd) ? new ReadStream(fd) : new Socket({ fd, readable: true, writable: false });
}

/** At most `maxBytes` bytes of `path` ('-' is stdin), read asynchronously; null when there are more. */
async function readCapped(path: string, maxBytes: number): Promise<Buffer | null> {
  const input = inputStream(path);
  const chunks: Buffer[] = [];
  let n = 0;
  try {
    for await (const c of input) {
      const b = typeof c === 'string' ? Buffer.from(c) : (c as Buffer);
      chunks.push(b);
      n += b.length;
      if (n > maxBytes) return null;
    }
    return Buffer.concat(chunks);
  } finally {
    input.destroy();
  }
}

/**
 * Reads a solution file to replay on a deal (verify, show --after, moves --after). A file from
 * `solve --solution-out` names its deal, rules and size: replayed on others (a forgotten
 * --size, say) its first move may be refused, which looks like a bad solution; a warning on
 * stderr says so. The replay's verdict and exit status are left as they are.
 */
export function readSolution(path: string, r: ResolvedDeal): string {
  const text = readTextFile(path, 'solution file', SOLUTION_FILE_LIMITS.bytes);
  checkSolutionText(text, path === '-' ? '<stdin>' : path);
  const mismatch = headerMismatch(text, r.deal, r.rules);
  if (mismatch !== null)
    process.stderr.write(`limited: warning: the solution file ${path === '-' ? '<stdin>' : `'${path}'`} was ${mismatch}\n`);
  return text;
}

/** At most one file option may be '-' (stdin can be read once): throws UserError otherwise. */
export function stdinOnce(options: Record<string, string | undefined>): void {
  const dashes = Object.entries(options).filter(([, v]) => v === '-').map(([k]) => `${k} -`);
  if (dashes.length > 1) throw new UserError(`${dashes.join(' and ')} cannot both read stdin`);
}

export function out(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : text + '\n');
}

/** Colour on stdout: only on a terminal, and not when NO_COLOR is set (non-empty, as no-color.org says). */
export function stdoutColor(): boolean {
  return process.stdout.isTTY === true && !process.env['NO_COLOR'];
}

/**
 * More worker threads than cores is accepted (a machine shared with a quota, a test) but rarely
 * meant: the threads only take turns on the cores, each with its own memory. Says so on stderr.
 */
export function warnWorkers(workers: number): void {
  const cores = availableParallelism();
  if (workers > cores)
    process.stderr.write(`limited: warning: --workers ${workers} is more than the ${plural(cores, 'core')} here: the extra threads only take turns on them\n`);
}

/**
 * The notes of a long run, on stderr. The first comes after --workers' warning, which waits for
 * the first line of work: an error in the options or the directory before it stays one line.
 */
export function notesAfterWorkers(workers: number): (text: string) => void {
  let warned = false;
  return (text) => {
    if (!warned) warnWorkers(workers);
    warned = true;
    process.stderr.write(text + '\n');
  };
}

/** Prints one JSON object on stdout, on one line (what every command's `--json` prints). */
export function outJson(value: unknown): void {
  out(JSON.stringify(value));
}

/** `--json` of a command that prints a result: `what` names the text it replaces. */
export function addJsonOption(cmd: Command, what = 'the text'): Command {
  return cmd.option('--json', `print one JSON object on stdout instead of ${what} (fields: docs/cli.md)`);
}

/**
 * Options that were renamed: each is kept as a hidden option, so that a command line with the
 * old name gets one line naming the new one (exit 2) rather than commander's bare "unknown
 * option". `renamed` maps the old flag to what to give instead: `['--deals', '--from A --count N']`.
 */
export function retireOptions(cmd: Command, renamed: readonly (readonly [string, string])[]): Command {
  for (const [flag] of renamed) cmd.addOption(new Option(`${flag} [value]`).hideHelp());
  cmd.hook('preAction', (c) => {
    const given = c.opts();
    for (const [flag, instead] of renamed) {
      const key = new Option(flag).attributeName();
      if (given[key] !== undefined) throw new UserError(`${flag} is not an option any more: give ${instead}`);
    }
  });
  return cmd;
}

/** A command's help epilogue: `Examples:` and the lines given. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------
// Errors and exit statuses

/**
 * Reports an error and sets the exit status: a UserError or a commander usage error is one
 * line `limited: message` (status 2); anything else is a bug (its stack, status 70).
 */
export function reportError(e: unknown): void {
  if (e instanceof UserError) {
    process.stderr.write(`limited: ${oneLine(e.message)}\n`);
    process.exitCode = EXIT_USAGE;
  } else if (e instanceof CommanderError) {
    // Commander has already printed its message (see configureOutput in main.ts).
    process.exitCode = e.exitCode === 0 ? 0 : EXIT_USAGE;
  } else {
    process.stderr.write(`limited: internal error (this is a bug, please report it):\n${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = EXIT_BUG;
  }
}

export function oneLine(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, ' ');
}

/** Wraps a command action so that its errors end in `reportError` (and no unhandled rejection). */
export function run<A extends unknown[]>(action: (...args: A) => void | Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await action(...args);
    } catch (e) {
      reportError(e);
    }
  };
}
