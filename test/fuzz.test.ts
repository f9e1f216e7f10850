/**
 * A fuzz run of the parsers, with a fixed seed: a few thousand mutations of deal files,
 * solution files, results-CSV rows and files, sidecars and option values, run in this process.
 * Every input must be either accepted or refused with a UserError of one line: no other
 * exception (which the CLI reports as an internal error, exit 70), and no hang (the test's
 * timeout). A handful of the cases go through the CLI as well.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import {
  BOOK, PYSOL, UserError, checkSolutionText, dealFromNumber, formatDealFile, formatSolution, headerMismatch, parseDealFile, parseDealNumber,
  parseMove, parseRules, parseSize, replay, solutionHeader, verifyText,
} from '../src/game/index.js';
import { Solver } from '../src/solver/index.js';
import { loadResults } from '../src/batch/csv.js';
import { jobDifference } from '../src/batch/difference.js';
import { chooseShard, parseShard } from '../src/batch/range.js';
import { checkHeader, rowCodec, rowFields } from '../src/batch/rows.js';
import { parseMeta } from '../src/batch/sidecar.js';
import { batchConfig } from '../src/cli/commands/batch.js';
import { positiveInteger, positiveNumber } from '../src/cli/numbers.js';
import { ROOT, runCli, withTempDir } from './cli-helpers.js';

let dir: string;
const path = (name: string): string => join(dir, name);
withTempDir('limited-fuzz-', (d) => (dir = d));

const rng = seedrandom('limited fuzz 1');
const int = (n: number): number => Math.floor(rng() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;

/** Characters that matter to the parsers, and some that should not appear at all. */
const CHARS = [...'0123456789 ,:#"\n\r\t-=x.>ACDHJKQSTcfnpwr', '♠', '♥', '\u0000', '\ufeff', '\u00e9', '\ud83c', '\x1b'];
/** Words the formats use, and near misses. */
const WORDS = [
  'won', 'wno', 'lost', 'unsolvable', 'unknown', 'unknwn', 'nodes', 'time', 'memory', 'interrupted', 'book', 'pysol', 'building=none', 'privileged=9',
  'second-deal=none', 'stock:', 'row 1:', 'row 99:', 'size:', 'rules:', 'deal:', '2x13 12x3', '1x5 4x3', '0x0 0x0', 'draw', 'redeal', 'c1>f', 'w>c13',
  'p9>c1', 'n>f', 'AS', 'ZZ', '10H', '1e9', '-1', 'NaN', 'Infinity', '9007199254740993', '0.5', '', '""', '"a,b"', 'null', '{}', '[]',
];

/** One random edit of a text. */
function mutate(text: string): string {
  const at = int(text.length + 1);
  const lines = text.split('\n');
  switch (int(12)) {
    case 0:
      return text.slice(0, at) + text.slice(at + 1 + int(10));
    case 1:
      return text.slice(0, at) + Array.from({ length: 1 + int(5) }, () => pick(CHARS)).join('') + text.slice(at);
    case 2:
      return text.slice(0, at) + pick(CHARS) + text.slice(at + 1);
    case 3: {
      const i = int(lines.length);
      lines.splice(i, 0, lines[i] ?? '');
      return lines.join('\n');
    }
    case 4:
      lines.splice(int(lines.length), 1);
      return lines.join('\n');
    case 5: {
      const i = int(lines.length);
      const j = int(lines.length);
      [lines[i], lines[j]] = [lines[j]!, lines[i]!];
      return lines.join('\n');
    }
    case 6:
      // Something long: a token repeated, or a line of thousands of cards.
      return text.slice(0, at) + pick(['AS ', 'x', ',', '9', 'draw\n', '"']).repeat(1 + int(70_000)) + text.slice(at);
    case 7:
      return text.slice(0, at);
    case 8:
      return text.replace(/\d+(\.\d+)?/, () => pick(['-1', '0', '1e400', '18446744073709551617', '3.5', 'NaN', '', '00', '9007199254740993']));
    case 9: {
      const words = text.split(/([\s,:]+)/);
      const i = int(words.length);
      if (words.length > 0) words[i] = pick(WORDS);
      return words.join('');
    }
    case 10:
      return text.replace(/\n/g, '\r\n');
    default:
      return '\ufeff' + text;
  }
}

const mutations = (text: string): string => {
  let t = text;
  for (let k = 1 + int(3); k > 0; k--) t = mutate(t);
  return t;
};

/** Runs f; an error must be a UserError of one line. Counts what was refused. */
function accepts(f: () => unknown, input: string, tally: { ok: number; refused: number }): boolean {
  try {
    f();
    tally.ok++;
    return true;
  } catch (e) {
    if (!(e instanceof UserError)) throw new Error(`not a UserError on input ${JSON.stringify(input.slice(0, 300))}: ${(e as Error)?.stack ?? String(e)}`);
    expect(e.message, e.message).not.toMatch(/\n/);
    tally.refused++;
    return false;
  }
}

const SMALL = parseSize('1x5 4x3');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'batch');

describe('fuzzing the parsers (fixed seed)', () => {
  it('deal files: 1500 mutations', () => {
    const bases = [
      formatDealFile(dealFromNumber(1)),
      formatDealFile(dealFromNumber(7, SMALL), PYSOL),
      formatDealFile({ ...dealFromNumber(3, parseSize('2x4 4x2')), source: '3' }, parseRules('building=none privileged=2')),
    ];
    const tally = { ok: 0, refused: 0 };
    for (let i = 0; i < 1500; i++) {
      const text = mutations(pick(bases));
      accepts(() => parseDealFile(text, 'fuzz.txt'), text, tally);
    }
    expect(tally.refused).toBeGreaterThan(500);
    expect(tally.ok).toBeGreaterThan(10);
  }, 120_000);

  it('solution files: 800 mutations, replayed', () => {
    const deal = dealFromNumber(4, SMALL);
    const res = new Solver().solve(deal, BOOK, { maxNodes: 100_000 });
    expect(res.verdict).toBe('won');
    const base = formatSolution(res.moves!, 'deal: 4\nrules: book\nsize: 1x5 4x3');
    expect(verifyText(replay(deal, BOOK, base))).toMatch(/^valid/);
    const tally = { ok: 0, refused: 0 };
    let invalid = 0;
    for (let i = 0; i < 800; i++) {
      const text = mutations(base);
      accepts(
        () => {
          checkSolutionText(text, 'fuzz.txt');
          solutionHeader(text);
          headerMismatch(text, deal, BOOK);
          const r = replay(deal, BOOK, text);
          if (r.error) invalid++;
          expect(verifyText(r)).not.toMatch(/\n/);
        },
        text,
        tally,
      );
      for (const line of text.split('\n').slice(0, 5)) accepts(() => parseMove(line, 4, 4, 5), line, { ok: 0, refused: 0 });
    }
    expect(invalid).toBeGreaterThan(100);
  }, 120_000);

  it('results rows: 1500 mutations of rows and headers, decoded against their sidecars', () => {
    const tally = { ok: 0, refused: 0 };
    for (const name of ['solve.shard-1-of-2', 'greedy']) {
      const meta = parseMeta(readFileSync(join(FIXTURES, `${name}.meta.json`), 'utf8'), 'm.json');
      const codec = rowCodec(meta.job);
      const lines = readFileSync(join(FIXTURES, `${name}.csv`), 'utf8').split('\n').filter((l) => l !== '');
      for (let i = 0; i < 700; i++) {
        const line = mutations(pick(lines.slice(1)));
        accepts(() => codec.decode(line, 2, 'fuzz.csv'), line, tally);
      }
      for (let i = 0; i < 50; i++) {
        const header = mutations(lines[0]!);
        accepts(() => checkHeader('fuzz.csv', header, meta.job), header, tally);
      }
    }
    expect(tally.refused).toBeGreaterThan(500);
  }, 120_000);

  it('results files: 200 mutations of whole files, loaded and decoded', () => {
    mkdirSync(path('files'));
    const meta = parseMeta(readFileSync(join(FIXTURES, 'greedy.meta.json'), 'utf8'), 'm.json');
    const base = readFileSync(join(FIXTURES, 'greedy.csv'), 'utf8');
    const tally = { ok: 0, refused: 0 };
    for (let i = 0; i < 200; i++) {
      const text = mutations(base);
      const file = path(`files/f${i}.csv`);
      writeFileSync(file, text);
      accepts(
        () => {
          const rf = loadResults(file, i % 2 === 0)!;
          if (rf.header !== '') checkHeader(file, rf.header, meta.job);
          rowFields(rf, meta.job);
        },
        text,
        tally,
      );
    }
    expect(tally.refused).toBeGreaterThan(50);
  }, 120_000);

  it('sidecars: 1000 mutations of their text and of their fields', () => {
    const texts = ['solve.shard-1-of-2', 'greedy'].map((n) => readFileSync(join(FIXTURES, `${n}.meta.json`), 'utf8'));
    const originals = texts.map((t) => parseMeta(t, 'm.json'));
    const VALUES: unknown[] = [null, -1, 0, 1.5, 2 ** 60, 'x', '', '1-2', [], {}, true, { from: 1 }, { index: 2, count: 1 }, 'pysol', 'z'.repeat(10_000)];
    const tally = { ok: 0, refused: 0 };
    for (let i = 0; i < 1000; i++) {
      const k = int(texts.length);
      let text: string;
      if (i % 2 === 0) text = mutations(texts[k]!);
      else {
        // A field somewhere in the document set to a value of another kind, or removed.
        const doc = JSON.parse(texts[k]!) as Record<string, unknown>;
        let o: Record<string, unknown> = doc;
        for (;;) {
          const keys = Object.keys(o);
          const key = pick(keys);
          const v = o[key];
          if (v !== null && typeof v === 'object' && rng() < 0.6 && Object.keys(v).length > 0) {
            o = v as Record<string, unknown>;
            continue;
          }
          if (rng() < 0.2) delete o[key];
          else o[key] = pick(VALUES);
          break;
        }
        text = JSON.stringify(doc);
      }
      accepts(
        () => {
          const m = parseMeta(text, 'fuzz.meta.json');
          // What is accepted must be usable: its rows' layout, its job compared with another.
          rowCodec(m.job);
          jobDifference(m.job, originals[k]!.job);
        },
        text,
        tally,
      );
    }
    expect(tally.refused).toBeGreaterThan(400);
  }, 120_000);

  it('option values: 1500 mutations of rules, sizes, shards, numbers, deal ranges and the Slurm variables', () => {
    const tally = { ok: 0, refused: 0 };
    const seeds = ['book', 'pysol privileged=2', '2x13,12x3', '1x5 4x3', '3/10', '12', '0.5', '1-1000', '9007199254740991'];
    mkdirSync(path('opts'));
    for (let i = 0; i < 1500; i++) {
      const t = mutations(pick(seeds));
      accepts(() => parseRules(t), t, tally);
      accepts(() => parseSize(t, ','), t, tally);
      accepts(() => parseShard(t), t, tally);
      accepts(() => parseDealNumber(t), t, tally);
      accepts(() => positiveInteger('--count', t), t, tally);
      accepts(() => positiveNumber('--max-seconds', t), t, tally);
      accepts(() => chooseShard(undefined, undefined, { SLURM_ARRAY_TASK_ID: t.slice(0, 3), SLURM_ARRAY_TASK_COUNT: t.slice(-3), SLURM_ARRAY_TASK_MIN: t.slice(1, 2) }), t, tally);
      if (i % 5 === 0)
        accepts(
          () =>
            batchConfig(
              { from: t.slice(0, 8), count: t.slice(-4), rules: pick(['book', t]), size: pick(['1x5,4x3', t]), chunk: pick([undefined, t]), maxNodes: pick([undefined, t]), workers: '1', out: path('opts/x.csv') },
              [],
              {},
            ),
          t,
          tally,
        );
    }
    expect(tally.refused).toBeGreaterThan(3000);
  }, 120_000);
});

describe('a handful of fuzzed inputs through the CLI', () => {
  it('deal files, solution files, results files and sidecars: exit 0, 1 or 2, never an internal error', () => {
    mkdirSync(path('cli'));
    const deal = formatDealFile(dealFromNumber(4, SMALL));
    const res = new Solver().solve(dealFromNumber(4, SMALL), BOOK, { maxNodes: 100_000 });
    const solution = formatSolution(res.moves!);
    const runs: string[][] = [];
    for (let i = 0; i < 4; i++) {
      writeFileSync(path(`cli/d${i}.txt`), mutations(deal));
      runs.push(['show', '--deal', path(`cli/d${i}.txt`)]);
      writeFileSync(path(`cli/s${i}.txt`), mutations(solution));
      runs.push(['verify', '4', '--size', '1x5,4x3', '--solution', path(`cli/s${i}.txt`)]);
    }
    for (let i = 0; i < 3; i++) {
      writeFileSync(path(`cli/r${i}.csv`), mutations(readFileSync(join(FIXTURES, 'greedy.csv'), 'utf8')));
      writeFileSync(path(`cli/r${i}.meta.json`), i === 0 ? mutations(readFileSync(join(FIXTURES, 'greedy.meta.json'), 'utf8')) : readFileSync(join(FIXTURES, 'greedy.meta.json'), 'utf8'));
      runs.push(['merge', path(`cli/r${i}.csv`)]);
      runs.push(['batch', '--from', '1', '--count', '100', '--size', '1x6,5x3', '--player', 'greedy', '--no-progress', '--workers', '1', '--out', path(`cli/r${i}.csv`)]);
    }
    for (const args of runs) {
      const r = runCli(args);
      expect([0, 1, 2], `${args.join(' ')}: ${r.stderr}`).toContain(r.status);
      expect(r.stderr).not.toMatch(/internal error|^\s+at /m);
      if (r.status === 2) expect(r.stderr.trim().split('\n').filter((l) => l.startsWith('limited: ')).length).toBe(1);
    }
  }, 180_000);
});
