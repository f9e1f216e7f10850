/**
 * The command line, end to end: spawns the built CLI (dist/src/cli/main.js, which `npm test`
 * builds first) and checks outputs and exit statuses.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import {
  type Deal, Game, MAX_MOVES, PYSOL, BOOK, dealFromNumber, formatDealFile, formatMove, formatSolution, parseDealFile, parseSize,
} from '../src/game/index.js';

import { type Result, ROOT, expectUsageError, runCli, withTempDir } from './cli-helpers.js';

const cli = (args: string[], input?: string): Result => runCli(args, { input });

let dir = '';
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

/** A winning solution for a small deal, found by seeded random playouts. */
function smallWin(): { n: number; size: string; solution: string; moves: number } {
  const size = '1x5,4x3';
  const rng = seedrandom('cli test');
  const buf = new Int32Array(MAX_MOVES);
  for (let n = 1; n < 500; n++) {
    const g = new Game(dealFromNumber(n, parseSize(size)), BOOK);
    for (let attempt = 0; attempt < 20; attempt++) {
      g.reset();
      for (let k = 0; k < 200; k++) {
        const count = g.generate(buf);
        if (count === 0) break;
        g.apply(buf[Math.floor(rng() * count)]!);
      }
      if (g.isWon()) return { n, size, solution: formatSolution(g.history(), `deal ${n}, size ${size}`), moves: g.moveCount };
    }
  }
  throw new Error('no random win found on small deals');
}

/** The legal moves of the start of a deal, as `moves` should print them. */
function startMoves(deal: Deal): string[] {
  const g = new Game(deal, BOOK);
  const buf = new Int32Array(MAX_MOVES);
  return Array.from(buf.subarray(0, g.generate(buf)), formatMove);
}


withTempDir('limited-cli-', (d) => (dir = d));

describe('deal', () => {
  it('prints deal 1 as a deal file that parses back to deal 1', () => {
    const r = cli(['deal', '1']);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(parseDealFile(r.stdout)).toEqual(dealFromNumber(1));
    expect(r.stdout).not.toMatch(/^rules:/m);
  });

  it('writes the rules and size lines for --rules and --size', () => {
    const r = cli(['deal', '3', '--size', '1x5,4x3', '--rules', 'pysol']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^rules: pysol$/m);
    expect(r.stdout).toMatch(/^size: 1x5 4x3$/m);
    const parsed = parseDealFile(r.stdout);
    expect(parsed.rules).toEqual(PYSOL);
    expect(parsed.columns).toEqual(dealFromNumber(3, parseSize('1x5 4x3')).columns);
    // The size also reads with a space.
    expect(cli(['deal', '3', '--size', '1x5 4x3', '--rules', 'pysol']).stdout).toBe(r.stdout);
  });
});

describe('deal --format solvitaire', () => {
  it("notes on stderr when the rules or the size are not those of Solvitaire's 'limited' preset (pysol, full size), exit 0", () => {
    const small = cli(['deal', '1', '--format', 'solvitaire', '--rules', 'book', '--size', '1x5,4x3']);
    expect(small.status).toBe(0);
    expect(JSON.parse(small.stdout)['tableau piles']).toHaveLength(4);
    expect(small.stderr).toBe("limited: note: Solvitaire's 'limited' preset plays rules pysol at size 2x13 12x3, not rules book and size 1x5 4x3 as here\n");
    const book = cli(['deal', '1', '--format', 'solvitaire']);
    expect([book.status, book.stderr]).toEqual([0, "limited: note: Solvitaire's 'limited' preset plays rules pysol at size 2x13 12x3, not rules book as here\n"]);
    for (const args of [['--pysol', '7'], ['1', '--rules', 'pysol']]) {
      const r = cli(['deal', ...args, '--format', 'solvitaire']);
      expect([r.status, r.stderr], args.join(' ')).toEqual([0, '']);
    }
  });
});

describe('show and moves', () => {
  it('shows deal 1 by number and from a file, without colour when stdout is not a terminal', () => {
    const byNumber = cli(['show', '1']);
    expect(byNumber.status).toBe(0);
    expect(byNumber.stdout).toMatch(/^c1 {2}c2 .* c12$/m);
    expect(byNumber.stdout).toMatch(/^Stock +68 cards$/m);
    expect(byNumber.stdout).toMatch(/0 of 104 cards home/);
    expect(byNumber.stdout).not.toContain('\x1b[');
    // The bottom row holds the exposed cards, with suit symbols.
    const exposed = dealFromNumber(1).columns.map((c) => c[2]!);
    expect(byNumber.stdout).toContain(['♠', '♥', '♦', '♣'][exposed[0]! >> 4]);
    const f = file('deal1.txt', formatDealFile(dealFromNumber(1)));
    const byFile = cli(['show', '--deal', f]);
    expect(byFile.status).toBe(0);
    expect(byFile.stdout.split('\n').slice(1)).toEqual(byNumber.stdout.split('\n').slice(1));
  });

  it('lists the legal moves by number and from a file', () => {
    const want = startMoves(dealFromNumber(1));
    const byNumber = cli(['moves', '1']);
    expect(byNumber.status).toBe(0);
    expect(byNumber.stdout.trimEnd().split('\n')).toEqual(want);
    const f = file('deal1m.txt', formatDealFile(dealFromNumber(1)));
    expect(cli(['moves', '--deal', f]).stdout).toBe(byNumber.stdout);
  });

  it('start is the default experiment, a small win-rate estimate (the estimator is tested in test/winrate.test.ts)', () => {
    const r = cli(['start', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('The same as: limited experiment winrate --count 300 --sample 10 --long-nodes 10000000 --out-dir results/start');
  });

  it("the README's exit statuses name the commands that the help says exit 130/143 when interrupted", () => {
    const help = cli(['--help']).stdout.replace(/\s+/g, ' ');
    const named = /; ([\w ,]+): 130 or 143 when interrupted/.exec(help);
    expect(named, help).not.toBeNull();
    const commands = named![1]!.split(/, | and /);
    expect(commands).toEqual(['batch', 'start', 'experiment', 'bench']);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const sentence = /Exit statuses: .*?exit 130 \(SIGINT\) or 143 \(SIGTERM\) when interrupted/.exec(readme);
    expect(sentence, 'the README has an exit-status paragraph').not.toBeNull();
    for (const c of commands) expect(sentence![0]).toMatch(new RegExp(`\`${c}( \\w+)?\``));
  });

  it('every command has help with an example', () => {
    for (const c of ['deal', 'show', 'moves', 'verify', 'start']) {
      const r = cli([c, '--help']);
      expect(r.status, c).toBe(0);
      expect(r.stdout, c).toContain(`Usage: limited ${c}`);
      expect(r.stdout, c).toMatch(new RegExp(`Examples:\\n(?: {2}.*\\n)*? {2}.*\\blimited ${c}\\b`));
    }
  });
});

describe('the built CLI', () => {
  it('is one bundled file: main.js imports only Node and the packages, not the modules beside it (docs/cli.md, "Start-up")', () => {
    const main = readFileSync(join(ROOT, 'dist', 'src', 'cli', 'main.js'), 'utf8');
    const specifiers = [...main.matchAll(/^import .*? from ["']([^"']+)["'];?$/gm)].map((m) => m[1]!);
    expect(specifiers).toContain('commander');
    for (const s of specifiers) expect(s, s).not.toMatch(/^[./]/);
    expect(main).not.toMatch(/\bimport\(["']\./);
    // It finds package.json from where it lies (the workers' modules: the batch, bench and threads tests).
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(cli(['--version']).stdout).toBe(`${pkg.version}\n`);
  });
});

describe('verify', () => {
  const win = smallWin();

  it('accepts a winning solution (file and stdin), and show/moves replay it', () => {
    const f = file('win.txt', win.solution);
    const r = cli(['verify', String(win.n), '--size', win.size, '--solution', f]);
    expect(r.stdout).toBe(`valid: won in ${win.moves} moves\n`);
    expect(r.status).toBe(0);
    const viaStdin = cli(['verify', String(win.n), '--size', win.size, '--solution', '-'], win.solution);
    expect(viaStdin.stdout).toBe(r.stdout);
    expect(viaStdin.status).toBe(0);
    expect(cli(['moves', String(win.n), '--size', win.size, '--after', f]).stdout).toMatch(/^no legal moves: the game is won/);
    const shown = cli(['show', String(win.n), '--size', win.size, '--after', f]);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain(`after ${win.moves} moves`);
    expect(shown.stdout).toContain('20 of 20 cards home');
  });

  it('rejects an illegal move with its number and reason (exit 1), in verify and in moves --after', () => {
    // Three moves of the winning solution, then one that is never legal.
    const lines = win.solution.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    const half = lines.slice(0, 3);
    const bad = [...half, 'c1>c1', ...lines.slice(3)].join('\n');
    const f = file('bad.txt', bad);
    const r = cli(['verify', String(win.n), '--size', win.size, '--solution', f]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^invalid: move 4 \(line 4\) 'c1>c1': .+\n$/);
    const m = cli(['moves', String(win.n), '--size', win.size, '--after', f]);
    expect(m.status).toBe(1);
    expect(m.stderr).toBe(r.stdout);
  });

  it("names a bad move's line in the file as well as its number, in verify, show --after and moves --after (exit 1)", () => {
    // The solution file's '#' header (it has one), a blank line, then two moves, a comment
    // and a bad move: move 3, on the line after them.
    const header = win.solution.split('\n').filter((l) => l.startsWith('#'));
    const moves = win.solution.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    expect(header.length).toBeGreaterThan(0);
    const line = header.length + 5;
    // A move that is illegal there (c1>c1 never is legal), and moves that cannot be read:
    // all make the solution invalid (exit 1), none is a bad-input error (exit 2).
    for (const bad of ['c1>c1', 'foo', 'draw ZZ', 'c13>f', 'draw JH extra']) {
      const f = file('lines.txt', [...header, '', moves[0], moves[1], '# two moves in', bad, ...moves.slice(2)].join('\n'));
      const r = cli(['verify', String(win.n), '--size', win.size, '--solution', f]);
      expect(r.status, bad).toBe(1);
      expect(r.stderr, bad).toBe('');
      // A move that cannot be read is quoted whole; an illegal one by its move without the card.
      expect(r.stdout, bad).toMatch(new RegExp(`^invalid: move 3 \\(line ${line}\\) '${bad}': .+\n$`));
      for (const c of ['show', 'moves']) {
        const a = cli([c, String(win.n), '--size', win.size, '--after', f]);
        expect([a.status, a.stdout, a.stderr], `${c} --after, ${bad}`).toEqual([1, '', r.stdout]);
      }
    }
  });

  it('quotes the move of a binary solution file escaped and cut short, and a move that cannot be read whole', () => {
    const f = join(dir, 'binary.txt');
    writeFileSync(f, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x1b, 0x5b, 0x33, 0x31, 0x6d, ...Array(200).fill(0x41), 0x0a]));
    const r = cli(['verify', String(win.n), '--size', win.size, '--solution', f]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^invalid: move 1 \(line 1\) '\\x7fELF\\x02\\x01\\x00\\x1b\[31mA+\.\.\. \(212 characters\)': '.+' is not a move/);
    expect(r.stdout.slice(0, -1)).not.toMatch(/[\x00-\x1f\x7f]/);
    expect(r.stdout.length).toBeLessThan(300);
    const spaced = cli(['verify', String(win.n), '--size', win.size, '--solution', file('spaced.txt', '  c1 > f  # spaced\n')]);
    expect(spaced.status).toBe(1);
    expect(spaced.stdout).toBe("invalid: move 1 (line 1) 'c1 > f': 'c1 > f' has more than a move and a card\n");
  });

  it('rejects a solution that stops before the end (exit 1)', () => {
    const lines = win.solution.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    const f = file('short.txt', lines.slice(0, 2).join('\n'));
    const r = cli(['verify', String(win.n), '--size', win.size, '--solution', f]);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^invalid: the solution stops after 2 moves with /);
    const one = cli(['verify', String(win.n), '--size', win.size, '--solution', file('one.txt', lines[0]!)]);
    expect(one.status).toBe(1);
    expect(one.stdout).toMatch(/^invalid: the solution stops after 1 move with \d+ of 20 cards home$/m);
  });
});

describe('bad input: exit 2, one line, no stack', () => {
  it('a missing file names the path', () => {
    const missing = join(dir, 'no-such-deal.txt');
    expectUsageError(cli(['show', '--deal', missing]), new RegExp(`cannot read deal file '${missing}': no such file`));
    expectUsageError(cli(['verify', '1', '--solution', join(dir, 'nope.txt')]), /nope\.txt/);
    expectUsageError(cli(['show', '--deal', dir]), /directory/);
  });

  it('a malformed deal file names the file and the line', () => {
    const text = formatDealFile(dealFromNumber(2)).replace(/^row 2: (\S+)/m, 'row 2: ZZ');
    const f = file('bad-deal.txt', text); // line 1 deal:, 2 size:, 3 row 1, 4 row 2
    expectUsageError(cli(['show', '--deal', f]), new RegExp(`${f.replace(/[.]/g, '\\.')}:4: unknown card 'ZZ'`));
    const g = file('bad-line.txt', formatDealFile(dealFromNumber(2)) + 'hello\n');
    expectUsageError(cli(['moves', '--deal', g]), /bad-line\.txt:\d+: /);
  });

  it('a bad deal number', () => {
    for (const n of ['-1', 'abc', '9007199254740992', '1.5']) expectUsageError(cli(['show', n]), /deal number/);
  });

  it('unknown rules, bad size, a size that disagrees with the file', () => {
    expectUsageError(cli(['show', '1', '--rules', 'freecell']), /--rules/);
    expectUsageError(cli(['deal', '1', '--rules', 'building=towers']), /building/);
    // The flag's form (DxR,CxW, as its help writes it); a deal file's size: line keeps its own (test/dealfile.test.ts).
    expectUsageError(cli(['show', '1', '--size', '3x4']), /^limited: --size '3x4' is not of the form DxR,CxW \(packs x ranks, columns x rows\), e\.g\. '2x13,12x3'$/);
    expectUsageError(cli(['show', '1', '--size', '2x13,40x3']), /columns/);
    const f = file('deal4.txt', formatDealFile(dealFromNumber(4)));
    expectUsageError(cli(['show', '--deal', f, '--size', '1x5,4x3']), /disagrees/);
  });

  it('both a number and --deal, or neither', () => {
    const f = file('deal5.txt', formatDealFile(dealFromNumber(5)));
    expectUsageError(cli(['show', '5', '--deal', f]), /only one deal/);
    expectUsageError(cli(['moves']), /no deal given/);
    expectUsageError(cli(['verify', '--solution', f]), /no deal given/);
  });

  it('commander usage errors', () => {
    expectUsageError(cli(['show', '1', '--frobnicate']), /unknown option/);
    expectUsageError(cli(['verify', '1']), /--solution/);
    expectUsageError(cli(['shwo', '1']), /unknown command/);
  });

  it("'help NAME' with an unknown name says so in one line, as an unknown command does", () => {
    expectUsageError(cli(['help', 'foo']), /^limited: unknown command 'foo' \(see 'limited --help'\)$/);
    expectUsageError(cli(['experiment', 'help', 'foo']), /^limited: unknown command 'foo' \(see 'limited experiment --help'\)$/);
    // Known names and no name still give the help, on stdout, exit 0.
    const verify = cli(['help', 'verify']);
    expect([verify.status, verify.stderr]).toEqual([0, '']);
    expect(verify.stdout).toBe(cli(['verify', '--help']).stdout);
    const top = cli(['help']);
    expect([top.status, top.stderr]).toEqual([0, '']);
    expect(top.stdout).toMatch(/^Usage: limited /);
    expect(top.stdout).toMatch(/^ {2}help \[command\] +display help for command$/m);
    expect(cli(['experiment', 'help', 'tactics']).stdout).toBe(cli(['experiment', 'tactics', '--help']).stdout);
  });
});
