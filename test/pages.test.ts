/**
 * Positions and pages on the command line: `solve --after`, `hint`, `view`, `play` and `report`
 * (their outputs, the pages' data, and their errors), and the browser bundle they inline. The
 * pages in a browser: test/web.test.ts.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localCommand } from '../src/pages/report-batch.js';
import { type PageData } from '../src/web/data.js';
import { dealFromNumber, formatMove, parseSize } from '../src/game/index.js';
import { type Result, ROOT, expectUsageError, runCli, withTempDir } from './cli-helpers.js';

const cli = (args: string[], input?: string): Result => runCli(args, { input });

let dir = '';
withTempDir('limited-pages-', (d) => (dir = d));

const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

const SMALL = ['4', '--size', '1x5,4x3'];

/** Deal 4 of size 1x5 4x3 (won) solved: its moves in notation. */
function smallSolution(): string[] {
  const r = cli(['solve', ...SMALL, '--json']);
  expect(r.status, r.stderr).toBe(0);
  const rep = JSON.parse(r.stdout) as { verdict: string; solution: string[] };
  expect(rep.verdict).toBe('won');
  return rep.solution;
}

/** A moves file whose third move is illegal (c9 does not exist at size 1x5 4x3), and verify's line for it. */
function badMoves(): { file: string; line: string } {
  const f = file('bad.txt', 'draw 2C\ndraw AD\nc9>f AS\n');
  const v = cli(['verify', ...SMALL, '--solution', f]);
  expect(v.status).toBe(1);
  expect(v.stdout).toMatch(/^invalid: move 3 \(line 3\) 'c9>f AS': there is no column c9/);
  return { file: f, line: v.stdout };
}

/** The JSON a page carries. */
function pageData(html: string): PageData {
  const m = /<script type="application\/json" id="limited-data">(.*?)<\/script>/s.exec(html);
  expect(m, 'the page has its data').not.toBeNull();
  return JSON.parse(m![1]!) as PageData;
}

describe('solve --after', () => {
  it('solves the position after the moves of a file: the solution goes on from there, and --solution-out writes the whole game', () => {
    const sol = smallSolution();
    const part = file('part.txt', sol.slice(0, 5).join('\n') + '\n');
    const out = join(dir, 'whole.txt');
    const r = cli(['solve', ...SMALL, '--after', part, '--json', '--solution-out', out]);
    expect(r.status, r.stderr).toBe(0);
    const rep = JSON.parse(r.stdout) as { after: { file: string; moves: number }; verdict: string; solution: string[] };
    expect(rep.after).toEqual({ file: part, moves: 5 });
    expect(rep.verdict).toBe('won');
    // The five moves and the solution from there win, by the verifier.
    const both = file('both.txt', [...sol.slice(0, 5), ...rep.solution].join('\n') + '\n');
    expect(cli(['verify', ...SMALL, '--solution', both]).stdout).toBe(`valid: won in ${5 + rep.solution.length} moves\n`);
    expect(cli(['verify', ...SMALL, '--solution', out]).stdout).toBe(`valid: won in ${5 + rep.solution.length} moves\n`);
    expect(readFileSync(out, 'utf8')).toMatch(/^# the 5 moves of .*part\.txt, then a solution found by limited solve --after/);
    // The text report says where it starts.
    expect(cli(['solve', ...SMALL, '--after', part]).stdout).toContain(`position:           after 5 moves of ${part} (the solution goes on from there)`);
  });

  it("rejects a bad --after file with verify's line (exit 1)", () => {
    const bad = badMoves();
    const r = cli(['solve', ...SMALL, '--after', bad.file]);
    expect([r.status, r.stdout, r.stderr]).toEqual([1, '', bad.line]);
  });
});

describe('hint', () => {
  it('prints the next move of a winning line with its card, a legal move of the position', () => {
    const sol = smallSolution();
    const part = file('hint-part.txt', sol.slice(0, 3).join('\n') + '\n');
    const r = cli(['hint', ...SMALL, '--after', part]);
    expect(r.status, r.stderr).toBe(0);
    const m = /^next: (\S+(?: \S+)?) \(won: (\d+) moves to go\)\n$/.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    expect(cli(['moves', ...SMALL, '--after', part]).stdout.split('\n')).toContain(m![1]);
    const j = JSON.parse(cli(['hint', ...SMALL, '--after', part, '--json']).stdout) as Record<string, unknown>;
    expect(j).toMatchObject({ verdict: 'won', next: m![1], toGo: Number(m![2]), proof: null, limit: null, after: { file: part, moves: 3 } });
    // Played, the hint leaves a position the solver still wins, one move shorter or better.
    const next = file('hint-next.txt', [...sol.slice(0, 3), m![1]].join('\n') + '\n');
    expect(cli(['hint', ...SMALL, '--after', next]).stdout).toMatch(/^next: .* \(won: \d+ moves to go\)\n$/);
  });

  it('says so for a position already won, a deal proved lost and a budget that runs out', () => {
    const whole = file('hint-whole.txt', smallSolution().join('\n') + '\n');
    expect(cli(['hint', ...SMALL, '--after', whole]).stdout).toBe('won: every card is home (no move left to play)\n');
    // Deal 1 of the small size is lost: LockBound proves it before any search.
    expect(cli(['hint', '1', '--size', '1x5,4x3']).stdout).toBe('lost: proved (locks)\n');
    expect(cli(['hint', '1', '--max-nodes', '1']).stdout).toBe('unknown within the budget (limit: nodes, --max-nodes 1)\n');
    const j = JSON.parse(cli(['hint', '1', '--max-nodes', '1', '--json']).stdout) as Record<string, unknown>;
    expect(j).toMatchObject({ verdict: 'unknown', limit: 'nodes', next: null, toGo: null });
  });

  it('has a default budget of 2 s of the default preset, which its help states', () => {
    const j = JSON.parse(cli(['hint', ...SMALL, '--json']).stdout) as { options: Record<string, unknown> };
    expect(j.options).toEqual({ preset: 'portfolio', maxSeconds: 2 });
    expect(cli(['hint', '--help']).stdout).toContain('Budget: the default preset with --max-seconds 2');
  });

  it("rejects a bad --after file with verify's line (exit 1), and an unknown deal or a bad option in one line (exit 2)", () => {
    const bad = badMoves();
    const r = cli(['hint', ...SMALL, '--after', bad.file]);
    expect([r.status, r.stdout, r.stderr]).toEqual([1, '', bad.line]);
    expectUsageError(cli(['hint', 'abc']), /deal number 'abc'/);
    expectUsageError(cli(['hint', '--pysol', '0']), /pysol|PySolFC|game/i);
    expectUsageError(cli(['hint', '1', '--max-seconds', 'soon']), /--max-seconds must be a number > 0, not 'soon'/);
    expectUsageError(cli(['hint', '1', '--after', join(dir, 'nope.txt')]), /cannot read solution file '.*nope\.txt': no such file/);
  });
});

describe('view and play', () => {
  it('view writes one self-contained page holding the deal, its verified solution and the verdict', () => {
    const out = join(dir, 'view4.html');
    const r = cli(['view', ...SMALL, '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^limited: solving deal 4 first \(preset portfolio, --max-seconds 10; give --solution FILE to show your own\)\n$/);
    expect(r.stdout).toMatch(/^wrote .*view4\.html: deal 4, won in \d+ moves; open it in a browser\n$/);
    const html = readFileSync(out, 'utf8');
    // Nothing from elsewhere: no external scripts, styles or links; a policy that forbids them.
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]|<img[^>]+src="?http|@import/);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none';`);
    const data = pageData(html);
    expect(data).toMatchObject({ mode: 'view', title: 'Deal 4', rules: { building: 'pairs', secondDeal: 'privileged', privileged: 4 }, start: [] });
    expect(data.verdict).toMatchObject({ verdict: 'won', by: 'limited solve: preset portfolio, --max-seconds 10' });
    const moves = file('view4-moves.txt', data.solution!.map(formatMove).join('\n') + '\n');
    expect(cli(['verify', ...SMALL, '--solution', moves]).stdout).toMatch(/^valid: won in/);
    const deal = dealFromNumber(4, parseSize('1x5 4x3'));
    expect([data.deal!.columns, data.deal!.stock]).toEqual([deal.columns, deal.stock]);
    expect(data.solver).toEqual({ preset: 'portfolio', maxSeconds: 2, maxMemoryMB: 512 });
  });

  it('view shows a lost deal with its verdict and no solution, and a file of moves that do not win with a note', () => {
    const out = join(dir, 'view-lost.html');
    expect(cli(['view', '1', '--size', '1x5,4x3', '--out', out]).stdout).toMatch(/deal 1, lost \(proved by locks\): the page shows the deal/);
    const data = pageData(readFileSync(out, 'utf8'));
    expect(data.solution).toBeNull();
    expect(data.verdict).toMatchObject({ verdict: 'unsolvable', proof: 'locks' });
    const sol = smallSolution();
    const part = file('view-part.txt', sol.slice(0, 6).join('\n') + '\n');
    const out2 = join(dir, 'view-part.html');
    expect(cli(['view', ...SMALL, '--solution', part, '--out', out2]).stdout).toMatch(/the 6 moves of .*view-part\.txt, which stop with \d+ of 20 cards home/);
    const d2 = pageData(readFileSync(out2, 'utf8'));
    expect(d2.solution!.map(formatMove)).toEqual(sol.slice(0, 6));
    expect(d2.verdict).toBeNull();
  });

  it('view --after starts from a position, and play writes the page in its Play mode', () => {
    const sol = smallSolution();
    const part = file('play-part.txt', sol.slice(0, 4).join('\n') + '\n');
    const out = join(dir, 'view-after.html');
    expect(cli(['view', ...SMALL, '--after', part, '--out', out]).status).toBe(0);
    const data = pageData(readFileSync(out, 'utf8'));
    expect(data.start.map(formatMove)).toEqual(sol.slice(0, 4));
    const both = file('view-after-all.txt', [...sol.slice(0, 4), ...data.solution!.map(formatMove)].join('\n') + '\n');
    expect(cli(['verify', ...SMALL, '--solution', both]).stdout).toMatch(/^valid: won/);
    const p = join(dir, 'play.html');
    const r = cli(['play', ...SMALL, '--max-seconds', '5', '--out', p]);
    expect(r.stdout).toMatch(/^wrote .*play\.html: deal 4; open it in a browser to play\n$/);
    expect(pageData(readFileSync(p, 'utf8'))).toMatchObject({ mode: 'play', solution: null, verdict: null, solver: { preset: 'portfolio', maxSeconds: 5 } });
  });

  it('refuses an --out that exists unless --force, a missing --out, and an unknown deal (exit 2, one line)', () => {
    const out = file('taken.html', 'mine\n');
    expectUsageError(cli(['view', ...SMALL, '--out', out]), /^limited: .*taken\.html exists: give --force to overwrite it$/);
    expectUsageError(cli(['play', ...SMALL, '--out', out]), /taken\.html exists: give --force/);
    expect(readFileSync(out, 'utf8')).toBe('mine\n');
    expect(cli(['play', ...SMALL, '--out', out, '--force']).status).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^<!doctype html>/);
    expectUsageError(cli(['view', ...SMALL]), /give --out FILE\.html/);
    expectUsageError(cli(['view', 'x1', '--out', join(dir, 'x.html')]), /deal number 'x1'/);
    expectUsageError(cli(['play', '--pysol', 'ms0', '--out', join(dir, 'x.html')]), /ms0|pysol|PySolFC/i);
    expectUsageError(cli(['view', ...SMALL, '--out', join(dir, 'no-dir', 'x.html')]), /no such directory/);
    expectUsageError(cli(['view', ...SMALL, '--out', dir]), /it is a directory/);
    expect(existsSync(join(dir, 'x.html'))).toBe(false);
  });

  it("rejects a bad --after or --solution file with verify's line (exit 1), and both at once (exit 2)", () => {
    const bad = badMoves();
    for (const args of [['view', '--after', bad.file], ['view', '--solution', bad.file], ['play', '--after', bad.file]]) {
      const out = join(dir, 'bad.html');
      const r = cli([args[0]!, ...SMALL, ...args.slice(1), '--out', out]);
      expect([r.status, r.stdout, r.stderr], args.join(' ')).toEqual([1, '', bad.line]);
      expect(existsSync(out)).toBe(false);
    }
    expectUsageError(cli(['view', ...SMALL, '--after', bad.file, '--solution', bad.file, '--out', join(dir, 'b.html')]), /give --solution or --after, not both/);
  });
});

describe('report', () => {
  it('writes the tactics experiment as a page and its viewer beside it, linking the solver rows\' deals', () => {
    const out = join(dir, 'tactics.html');
    const r = cli(['report', join(ROOT, 'results', 'tactics'), '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^wrote .*tactics\.html \(tactics results, 84 deals linked to .*tactics-viewer\.html\); open it in a browser\n$/);
    const html = readFileSync(out, 'utf8');
    const csv = readFileSync(join(ROOT, 'results', 'tactics', 'tactics.csv'), 'utf8').trim().split('\n').slice(1);
    for (const line of csv) expect(html).toContain(`>${line.split(',')[1]}<`);
    expect(html).toContain('<svg');
    expect(html).toContain('limited experiment tactics --deals 1000000');
    expect(html).toContain('AMD EPYC x 2 cores');
    // A solver row's deal: its rules and the solver's settings in the link, for the viewer to solve it as the row did.
    expect(html).toContain('href="tactics-viewer.html#deal=1&amp;rules=building%3Dnone');
    expect(html).toContain('solver=%7B%22preset%22%3A%22portfolio%22%2C%22maxNodes%22%3A100000%7D');
    expect(pageData(readFileSync(join(dir, 'tactics-viewer.html'), 'utf8'))).toMatchObject({ deal: null, mode: 'view' });
    expectUsageError(cli(['report', join(ROOT, 'results', 'tactics'), '--out', out]), /tactics\.html exists: give --force/);
  });

  it('writes a batch directory, one section a results file, its deals by verdict', () => {
    const d = join(dir, 'batch');
    mkdirSync(d);
    expect(cli(['batch', '--from', '1', '--count', '20', '--size', '1x5,4x3', '--workers', '1', '--out', join(d, 'small.csv')]).status).toBe(0);
    const out = join(dir, 'batch.html');
    expect(cli(['report', d, '--out', out]).stdout).toMatch(/\(batch results, \d+ deals linked/);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('<h2>small.csv</h2>');
    expect(html).toMatch(/<b class="v-won">won<\/b> <a class="deal" href="batch-viewer\.html#deal=\d+&amp;rules=book&amp;size=1x5%2C4x3/);
    expect(html).toMatch(/<b class="v-unsolvable">unsolvable<\/b>/);
  });

  it('writes a win-rate estimate: the headline, a chart and a row an estimate, the method, and each phase as a batch', () => {
    const d = join(dir, 'winrate');
    const r = cli(['experiment', 'winrate', '--size', '1x8,4x3', '--count', '60', '--max-nodes', '300', '--sample', '5', '--long-nodes', '200000', '--workers', '1', '--out-dir', d, '--no-progress', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const w = JSON.parse(r.stdout) as { headline: string; estimates: { estimate: { low: number; high: number; ciLow: number; ciHigh: number; sampled: number } }[] };
    const out = join(dir, 'winrate.html');
    expect(cli(['report', d, '--out', out]).stdout).toMatch(/\(winrate results, \d+ deals linked/);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain(`<b>${w.headline.replace(/&/g, '&amp;')}.</b>`);
    const e = w.estimates[0]!.estimate;
    expect(html).toContain(`${(100 * e.ciLow).toFixed(1)}-${(100 * e.ciHigh).toFixed(1)} %`);
    expect(html).toContain(`${(100 * e.ciLow).toFixed(1)} to ${(100 * e.ciHigh).toFixed(1)} %</text>`);
    // The bar's range is named beside it, not only drawn.
    expect(html).toContain(`>${(100 * e.low).toFixed(1)}-${(100 * e.high).toFixed(1)} % · 95 %:`);
    // A phase's command as another machine ran it: its absolute path to a file of the directory is named as the report names the directory.
    expect(localCommand('limited batch --out /home/someone/limited/phase1.csv --deal-file /srv/other.txt', d)).toBe(`limited batch --out ${join(d, 'phase1.csv')} --deal-file /srv/other.txt`);
    expect(html.match(/<g class="whisker"/g)!.length).toBeGreaterThanOrEqual(3); // the estimate's, and each phase's batch chart
    expect(html).toContain('<li><b>Phase 1</b> solves every deal at the short budget.');
    expect(html).toContain('<h2>phase1.csv</h2>');
    expect(html).toContain('<h2>phase2.csv</h2>');
    expect(html).toMatch(/<a class="deal" href="winrate-viewer\.html#deal=\d+&amp;rules=book&amp;size=1x8%2C4x3/);
    // A winrate.json that is not one is refused in one line.
    const bad = join(dir, 'badwin');
    mkdirSync(bad);
    writeFileSync(join(bad, 'winrate.json'), '{"format":"other"}');
    expectUsageError(cli(['report', bad]), /winrate\.json is not a winrate\.json of limited experiment winrate \(format 'other'\)/);
  });

  it('rejects a directory it cannot read or that holds no results (exit 2, one line)', () => {
    expectUsageError(cli(['report', join(dir, 'nowhere')]), /no such directory '.*nowhere'/);
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    expectUsageError(cli(['report', empty]), /holds no results that limited writes: tactics\.csv .*bench\.json .*winrate\.json .*FILE\.summary\.json/);
    expectUsageError(cli(['report', file('plain.txt', 'x\n')]), /is not a directory/);
  });
});

describe('the browser bundle', () => {
  it('is built from src/web by npm run build, without Node-only modules', () => {
    const js = readFileSync(join(ROOT, 'dist', 'web', 'main.js'), 'utf8');
    for (const node of ['node:', 'worker_threads', 'piscina', 'require("fs")', 'require("os")']) expect(js, node).not.toContain(node);
    // The engine and the solver are in it (their error messages are).
    expect(js).toContain('is not a destination');
    expect(js).toContain('signature bits must be 1 to 48');
  });
});
