/**
 * Input of any size is one line and exit 2: deal files and solution files past their caps
 * (DEAL_FILE_LIMITS, SOLUTION_FILE_LIMITS), for every command that reads them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SOLUTION_FILE_LIMITS, UserError, checkSolutionText, formatDealFile, dealFromNumber, parseDealFile } from '../src/game/index.js';
import { expectUsageError, runCli, withTempDir } from './cli-helpers.js';

let dir: string;
const path = (name: string): string => join(dir, name);
withTempDir('limited-limits-', (d) => (dir = d));

const cards = (n: number): string => Array.from({ length: n }, () => 'AS').join(' ');
const LAYOUT = formatDealFile(dealFromNumber(1)).split('\n').filter((l) => l.startsWith('row')).join('\n');

const BYTES = /is \d+ bytes, more than a deal file may hold \(65536\)$/;
const CHARS = /^deal\.txt: \d+ characters, more than a deal file may hold \(65536\)$/;

/** A deal file's text and the errors it must give (parseDealFile's, the CLI's): each past a cap in its own way. */
const HUGE: [string, string, RegExp, RegExp][] = [
  ['200,000 cards on the stock: line', `${LAYOUT}\nstock: ${cards(200_000)}\n`, CHARS, BYTES],
  ['200,000 cards on a line after stock:', `${LAYOUT}\nstock: AS\n${cards(200_000)}\n`, CHARS, BYTES],
  ['200,000 short lines of stock', `${LAYOUT}\nstock: AS\n${'AS\n'.repeat(200_000)}`, CHARS, BYTES],
  ['2,000 cards on the stock: line', `${LAYOUT}\nstock: ${cards(2000)}\n`, /:4: a line of 6006 characters, longer than the 1000 a line may have$/, /:4: a line of 6006 characters, longer than the 1000 a line may have$/],
  ['300 cards on a line of 906 characters', `${LAYOUT}\nstock: ${'2S '.repeat(300).trim()}\n`, /:4: 300 cards on one line, more than a deck holds \(104\)$/, /:4: 300 cards on one line, more than a deck holds \(104\)$/],
];

describe('deal files past their caps', () => {
  it.each(HUGE)('%s: parseDealFile says so in one line', (_what, text, pattern) => {
    let err: unknown;
    try {
      parseDealFile(text, 'deal.txt');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(pattern);
  });

  it.each(HUGE)('%s: show, moves, solve, verify and deal exit 2 with one line', (what, text, _parsed, pattern) => {
    const file = path(`${what.replace(/\W+/g, '-')}.txt`);
    writeFileSync(file, text);
    writeFileSync(path('sol.txt'), 'draw\n');
    for (const args of [['show'], ['moves'], ['solve', '--max-nodes', '10'], ['verify', '--solution', path('sol.txt')], ['deal']])
      expectUsageError(runCli([...args, '--deal', file]), pattern);
    // From stdin, the same.
    expectUsageError(runCli(['show', '--deal', '-'], { input: text }), pattern);
  });
});

describe('solution files past their caps', () => {
  it('a line too long, a file too big: one line, exit 2, for verify, show --after and moves --after', () => {
    const long = path('long.txt');
    writeFileSync(long, `draw\n${'c1>f '.repeat(300)}\n`);
    const big = path('big.txt');
    writeFileSync(big, 'draw\n'.repeat(SOLUTION_FILE_LIMITS.bytes / 5 + 1));
    for (const cmd of [['verify', '1', '--solution'], ['show', '1', '--after'], ['moves', '1', '--after']]) {
      expectUsageError(runCli([...cmd, long]), /long\.txt:2: a line of 1500 characters, longer than the 1000 a line may have$/);
      expectUsageError(runCli([...cmd, big]), /^limited: solution file '.*big\.txt' is 1048580 bytes, more than a solution file may hold \(1048576\)$/);
    }
    expect(() => checkSolutionText('draw\n'.repeat(10), 's')).not.toThrow();
  });
});
