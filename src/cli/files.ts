/** Files a command reads: text files with a size limit ('-' is stdin, read once), and solution files. */
import { readFileSync, statSync } from 'node:fs';
import { type Deal, type Rules, SOLUTION_FILE_LIMITS, UserError, checkSolutionText, headerMismatch } from '../game/index.js';
import { fileError } from '../util/fileio.js';

/**
 * Reads a text file ('-' is stdin) of at most `maxBytes` bytes; an unreadable file, or a larger
 * one, is a UserError naming it. A file's size is looked at before it is read.
 */
export function readTextFile(path: string, what: string, maxBytes: number): string {
  const name = path === '-' ? '<stdin>' : `'${path}'`;
  const tooBig = (n: number): UserError => new UserError(`${what} ${name} is ${n} bytes, more than a ${what} may hold (${maxBytes})`);
  try {
    if (path !== '-') {
      const st = statSync(path);
      if (st.isFile() && st.size > maxBytes) throw tooBig(st.size);
    }
    const buf = readFileSync(path === '-' ? 0 : path);
    if (buf.length > maxBytes) throw tooBig(buf.length);
    return buf.toString('utf8');
  } catch (e) {
    if (e instanceof UserError) throw e;
    return fileError(e, `read ${what}`, path);
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
