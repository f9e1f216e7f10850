/** Files a command reads: text files with a size limit ('-' is stdin, read once), and solution files. */
import { closeSync, constants, fstatSync, openSync, statSync } from 'node:fs';
import { Socket } from 'node:net';
import { type Readable } from 'node:stream';
import { ReadStream, isatty } from 'node:tty';
import { type Deal, type Rules, DEAL_FILE_LIMITS, SOLUTION_FILE_LIMITS, UserError, checkSolutionText, headerMismatch } from '../game/index.js';
import { fileError, readCappedSync } from '../util/fileio.js';
import { interruptible } from '../util/stop.js';

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
export function readSolution(path: string, r: { readonly deal: Deal; readonly rules: Rules }): string {
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
