/**
 * Input of any size is one line and exit 2: deal files and solution files past their caps
 * (DEAL_FILE_LIMITS, SOLUTION_FILE_LIMITS), for every command that reads them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SOLUTION_FILE_LIMITS, UserError, checkSolutionText, formatDealFile, dealFromNumber, parseDealFile, parseRules } from '../src/game/index.js';
import { chooseShard } from '../src/batch/range.js';
import { positiveNumber } from '../src/cli/numbers.js';
import { leastUsefulMemoryMB } from '../src/solver/memory-floor.js';
import { MAIN, ROOT, expectUsageError, runCli, withTempDir } from './cli-helpers.js';

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
    // From stdin, the same error; a pipe's size is not known, and it is read no further than the cap.
    expectUsageError(runCli(['show', '--deal', '-'], { input: text }), pattern === BYTES ? /^limited: deal file <stdin> holds more than the 65536 bytes a deal file may hold$/ : pattern);
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

/** Runs the CLI, stopped after a minute: a command that spins for ever must fail the test, not hang it. */
function bounded(args: string[]) {
  const r = spawnSync(process.execPath, [MAIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// /proc takes no new entries, but mkdir('/proc/nope') says ENOENT and mkdir('/proc') EEXIST:
// Node 20's recursive mkdir loops on that for ever.
describe.skipIf(!existsSync('/proc/self'))('folders that cannot be made, files that cannot be made', () => {
  const NOPE = /^limited: cannot write [a-z]+ file '\/proc\/nope\/[^']*': the file system of '\/proc' does not let directories be made there$/;
  it.each([
    ['batch', ['batch', '--from', '1', '--count', '10', '--out', '/proc/nope/x.csv']],
    ['merge', ['merge', 'test/fixtures/batch/greedy.csv', '--out', '/proc/nope/m.csv']],
    ['bench', ['bench', '--from', '1', '--count', '3', '--size', '1x5,4x3', '--out-dir', '/proc/nope/b']],
    ['experiment', ['experiment', 'tactics', '--count', '10', '--out-dir', '/proc/nope/t']],
  ])('%s --out under /proc fails at once in one line', (_what, args) => {
    expectUsageError(bounded(args), NOPE);
  });

  it('a file that /proc will not take is named as such, not as a missing directory', () => {
    const why = /'\/proc' does not let files be made there \(a special file system\)$/;
    expectUsageError(bounded(['batch', '--from', '1', '--count', '10', '--out', '/proc/x.csv']), new RegExp(`cannot write results file '/proc/x\\.csv': ${why.source}`));
    expectUsageError(bounded(['solve', '4', '--size', '1x5,4x3', '--solution-out', '/proc/x.txt']), new RegExp(`cannot write solution file '/proc/x\\.txt': ${why.source}`));
    expectUsageError(bounded(['solve', '4', '--size', '1x5,4x3', '--solution-out', '/proc/nope/x.txt']), /cannot write solution file '\/proc\/nope\/x\.txt': no such directory '\/proc\/nope'$/);
  });
});

describe('small: what an option or variable says', () => {
  it('SLURM_ARRAY_TASK_COUNT=0 is said to be 0, not unset', () => {
    expect(() => chooseShard(undefined, undefined, { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_COUNT: '0' })).toThrow(
      /^SLURM_ARRAY_TASK_COUNT=0: an array has at least one task \(it must be >= 1\): give --shard I\/N$/,
    );
    expect(() => chooseShard(undefined, undefined, { SLURM_ARRAY_TASK_ID: '0' })).toThrow(/SLURM_ARRAY_TASK_COUNT is not: give --shard I\/N/);
    expectUsageError(runCli(['batch', '--from', '1', '--count', '5', '--out', path('slurm.csv')], { env: { SLURM_ARRAY_TASK_ID: '0', SLURM_ARRAY_TASK_COUNT: '0' } }), /SLURM_ARRAY_TASK_COUNT=0: an array has at least one task/);
  });

  it('a memory cap below the least useful one is one line for every command that takes one (batch --max-memory 1 ran to rows unknown,memory)', () => {
    expect(leastUsefulMemoryMB()).toBe(2);
    const why = (option: string, mb: string): RegExp =>
      new RegExp(`^limited: ${option} ${mb.replace('.', '\\.')} is less than the least useful cap, 2 MB: depth-first search keeps its first 65536 states on exact keys \\(up to 2 MB at full size\\) before it turns to signatures, and with less it stops for memory first$`);
    expectUsageError(runCli(['batch', '--from', '1', '--count', '5', '--max-memory', '1', '--out', path('mem.csv')]), why('--max-memory', '1'));
    expect(existsSync(path('mem.csv'))).toBe(false);
    expectUsageError(runCli(['solve', '1', '--max-memory', '1.5']), why('--max-memory', '1.5'));
    expectUsageError(runCli(['bench', '--from', '1', '--count', '3', '--max-memory', '1', '--out-dir', path('mem-bench')]), why('--max-memory', '1'));
    expectUsageError(runCli(['experiment', 'winrate', '--count', '10', '--long-memory', '1', '--out-dir', path('mem-winrate')]), why('--long-memory', '1'));
    // 2 MB is taken.
    expect(runCli(['solve', '4', '--size', '1x5,4x3', '--max-memory', '2']).status).toBe(0);
  });

  it('two presets in one rules text are refused, not the last one taken', () => {
    expect(() => parseRules('book pysol')).toThrow(/^two presets in one rules text, 'book' and 'pysol': give one \(then option=value words\)$/);
    expect(() => parseRules('pysol,book')).toThrow(/two presets in one rules text, 'pysol' and 'book'/);
    expect(() => parseRules('privileged=2 pysol')).toThrow(/^the preset 'pysol' comes after 'privileged=2', which it would undo: give the preset first$/);
    expect(parseRules('pysol privileged=2')).toEqual({ building: 'suit', secondDeal: 'none', privileged: 2 });
    for (const cmd of [['batch', '--from', '1', '--count', '5'], ['solve', '1'], ['show', '1']])
      expectUsageError(runCli([...cmd, '--rules', 'book pysol']), /--rules: two presets in one rules text, 'book' and 'pysol'/);
  });

  it('a number of 200,000 digits and a letter is refused at once (the pattern of --max-seconds backtracked for a minute)', () => {
    expect(() => positiveNumber('--max-seconds', '9'.repeat(200_000) + 'x')).toThrow(/^--max-seconds must be a number > 0, not '9{60}\.\.\. \(200001 characters\)'$/);
    expect(positiveNumber('--max-seconds', '2.5e1')).toBe(25);
    expect(positiveNumber('--max-seconds', '.5')).toBe(0.5);
    expect(positiveNumber('--max-seconds', '3.')).toBe(3);
  }, 30_000);
});
