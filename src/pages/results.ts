/**
 * What a results directory holds (`limited report DIR`): which kind of results limited wrote
 * there, and its files read as a report needs them, with one-line errors for what is wrong.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { UserError } from '../game/index.js';

export type ResultsKind = 'tactics' | 'bench' | 'winrate' | 'batch';

/** What kind of results DIR holds. Throws UserError when none that limited writes. */
export function detectResults(dir: string): ResultsKind {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`no such directory '${dir}'`);
    if (code === 'ENOTDIR') throw new UserError(`'${dir}' is not a directory: give the directory of the results`);
    throw e;
  }
  if (names.includes('tactics.csv')) return 'tactics';
  if (names.includes('bench.json')) return 'bench';
  if (names.includes('winrate.json')) return 'winrate';
  if (names.some((n) => n.endsWith('.summary.json'))) return 'batch';
  throw new UserError(
    `'${dir}' holds no results that limited writes: tactics.csv (experiment tactics), bench.json (bench), winrate.json (experiment winrate) or FILE.summary.json (batch)`,
  );
}

export function readJson<T>(file: string): T {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (e) {
    if (e instanceof SyntaxError) throw new UserError(`${file} is not JSON: ${e.message}`);
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`cannot read '${file}': no such file`);
    throw e;
  }
}

/** An SVG file's text to put inline: without an XML declaration. */
export function inlineSvg(file: string): string | null {
  if (!existsSync(file)) return null;
  return readFileSync(file, 'utf8').replace(/^<\?xml[^>]*>\s*/, '');
}
