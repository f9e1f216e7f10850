/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The pages of `limited view`, `limited play` and `limited report` in a real browser (Debian's
// Chromium through playwright-core; test/browser.ts): the viewer's table after a move against
// `limited show --after`, a small deal played to a win by clicks, a hint, and the report's chart
// labels inside their frames. With LIMITED_SCREENSHOTS=1 the screenshots of the README are
// written to docs/images/ (else to the test's temporary directory).
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.js';
import { formatMove } from '../src/game/index.js';
import { ROOT, runCli, withTempDir } from './cli-helpers.js';

let dir = '';
withTempDir('limited-web-', (d) => (dir = d));

let ctx: BrowserContext;
beforeAll(async () => {
  ctx = await launchBrowser();
});
afterAll(async () => {
  await ctx?.close();
});

function cli(args: string[]): string {
  const r = runCli(args);
  if (r.status !== 0) throw new Error(`limited ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return r.stdout;
}

function shotsDir(): string {
  const d = process.env['LIMITED_SCREENSHOTS'] ? join(ROOT, 'docs', 'images') : join(dir, 'images');
  mkdirSync(d, { recursive: true });
  return d;
}

/** A page's picture for the README: no focus ring, as tall as the page's content. */
async function screenshot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const height = await page.evaluate(() => Math.ceil(document.getElementById('app')!.getBoundingClientRect().bottom) + 8);
  await page.setViewportSize({ width: 1000, height });
  await page.screenshot({ path: join(shotsDir(), name) });
}

/** Opens a page; any script error or request for anything but the file itself fails the test at `done`. */
async function open(file: string, hash = ''): Promise<{ page: Page; done: () => void }> {
  const page = await ctx.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`script error: ${e.message}`));
  page.on('request', (r) => {
    if (!/^(file|blob|data):/.test(r.url())) problems.push(`request for ${r.url()}`);
  });
  await page.goto(pathToFileURL(file).href + hash);
  return { page, done: () => expect(problems).toEqual([]) };
}

// ---------------------------------------------------------------------------------------
// The table as the page draws it and as `limited show` prints it

interface Table {
  columns: string[][];
  /** Each foundation's top card in notation ('' when empty), suit by suit. */
  found: string[];
  waste: { count: number; top: string } | null;
  stock: number | null;
  priv: string[] | null;
  pile: number | null;
}

async function pageTable(page: Page): Promise<Table> {
  return page.evaluate(() => {
    const q = (s: string): HTMLElement | null => document.querySelector(s);
    const cards = (s: string | undefined): string[] => (s ? s.split(' ') : []);
    const waste = q('#board [data-place="w"]');
    const stock = q('#board [data-place="stock"]');
    const priv = q('#board .priv');
    const pile = q('#board [data-place="n"]');
    return {
      columns: [...document.querySelectorAll<HTMLElement>('#board .column')].map((c) => cards(c.dataset['cards'])),
      found: [...document.querySelectorAll<HTMLElement>('#board .found')].map((f) => f.dataset['top'] ?? ''),
      waste: waste ? { count: Number(waste.dataset['count']), top: waste.dataset['top'] ?? '' } : null,
      stock: stock ? Number(stock.dataset['count']) : null,
      priv: priv ? cards(priv.dataset['cards']) : null,
      pile: pile ? Number(pile.dataset['count']) : null,
    };
  });
}

const LETTER: Record<string, string> = { '♠': 'S', '♥': 'H', '♦': 'D', '♣': 'C' };
const notation = (card: string): string => card.slice(0, -1) + LETTER[card.slice(-1)]!;

/** `limited show`'s text read back into a Table (its column cells are 4 characters wide). */
function shownTable(text: string): Table {
  const lines = text.split('\n');
  let i = lines.findIndex((l) => l.startsWith('c1'));
  const n = lines[i]!.trim().split(/\s+/).length;
  const columns: string[][] = Array.from({ length: n }, () => []);
  for (i++; lines[i] !== '' && !lines[i]!.startsWith('('); i++)
    for (let c = 0; c < n; c++) {
      const cell = lines[i]!.slice(4 * c, 4 * c + 2).trim();
      if (cell !== '' && cell !== '--') columns[c]!.push(notation(cell));
    }
  const field = (name: string): string | null => {
    const l = lines.find((x) => x.startsWith(name));
    return l ? l.slice(13) : null;
  };
  const found = field('Foundations')!.replace(/\(.*\)/, '').trim().split(/\s+/).map((t) => (t.startsWith('-') ? '' : notation(t)));
  const waste = field('Waste');
  const stock = field('Stock');
  const priv = field('Privileged');
  const pile = field('Pile');
  return {
    columns,
    found,
    waste: waste === null ? null : waste === 'empty' ? { count: 0, top: '' } : { count: Number(/\((\d+) cards?\)/.exec(waste)![1]), top: notation(waste.split(' ')[0]!) },
    stock: stock === null ? null : Number(stock.split(' ')[0]),
    priv: priv === null ? null : priv === 'none left' ? [] : priv.trim().split(/\s+/).filter((_, k) => k % 2 === 1).map(notation),
    pile: pile === null ? null : Number(pile.split(' ')[0]),
  };
}

/** The first `k` moves of a solution file, as a file of their own. */
function firstMoves(moves: readonly string[], k: number): string {
  const f = join(dir, `first-${k}.txt`);
  writeFileSync(f, moves.slice(0, k).join('\n') + '\n');
  return f;
}

/** The places a move is marked at, as the page names them: source and destination. */
function marks(move: string): { from: string; to: string } {
  if (move.startsWith('draw')) return { from: 'stock', to: 'w' };
  if (move === 'redeal') return { from: 'n', to: 'priv' };
  const [src, dst] = move.split(' ')[0]!.split('>') as [string, string];
  return { from: src, to: dst };
}

// ---------------------------------------------------------------------------------------

describe('the viewer', () => {
  it('steps through a solution by keys, slider, move list and buttons, and draws the table of each move as limited show --after prints it', async () => {
    // A node budget: the same solution on every machine.
    const sol = join(dir, 'deal1.txt');
    cli(['solve', '1', '--preset', 'portfolio', '--max-nodes', '100000', '--solution-out', sol]);
    const moves = readFileSync(sol, 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    // The page solves the deal itself with the same settings: the same solution.
    const file = join(dir, 'view1.html');
    cli(['view', '1', '--preset', 'portfolio', '--max-nodes', '100000', '--out', file]);
    const data = /<script type="application\/json" id="limited-data">(.*?)<\/script>/s.exec(readFileSync(file, 'utf8'))![1]!;
    expect((JSON.parse(data) as { solution: number[] }).solution.map(formatMove)).toEqual(moves);
    const { page, done } = await open(file);
    const board = page.locator('#board');
    const check = async (k: number): Promise<void> => {
      await expect.poll(() => board.getAttribute('data-moves')).toBe(String(k));
      const shown = cli(['show', '1', ...(k > 0 ? ['--after', firstMoves(moves, k)] : [])]);
      expect(await pageTable(page), `after ${k} moves`).toEqual(shownTable(shown));
      if (k > 0) {
        const m = marks(moves[k - 1]!);
        expect(await board.getAttribute('data-last')).toBe(moves[k - 1]);
        expect(await page.locator('#move-info code.move').getAttribute('data-move')).toBe(moves[k - 1]);
        expect(await page.locator('#board .from').first().getAttribute('data-place')).toBe(m.from);
        if (m.to === 'priv') expect(await page.locator('#board .priv.to').count()).toBe(1);
        else expect(await page.locator('#board .to').first().getAttribute('data-place')).toBe(m.to);
      }
    };
    await check(0);
    for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowRight');
    await check(40);
    // Into the second deal by the slider, then by the move list and the buttons.
    const redeal = moves.indexOf('redeal');
    expect(redeal).toBeGreaterThan(0);
    await page.locator('#slider').fill(String(redeal + 1));
    await check(redeal + 1);
    await page.locator('#slider').fill(String(redeal + 9));
    await check(redeal + 9);
    await page.locator(`#moves button[data-k="${moves.length - 20}"]`).click();
    await check(moves.length - 20);
    await page.locator('#prev').click();
    await check(moves.length - 21);
    await page.keyboard.press('ArrowLeft');
    await check(moves.length - 22);
    await page.locator('#last').click();
    await check(moves.length);
    await expect.poll(() => page.locator('#move-info').textContent()).toContain('All cards are home');
    await page.keyboard.press('Home');
    await check(0);
    // The README's picture: the second deal under way.
    await page.locator('#slider').fill(String(redeal + 9));
    await check(redeal + 9);
    await screenshot(page, 'viewer.png');
    done();
  });
});

describe('play', () => {
  it('plays a small deal to a win by clicking cards and places, with the solver saying won after each move', async () => {
    const rep = JSON.parse(cli(['solve', '4', '--size', '1x5,4x3', '--json'])) as { verdict: string; solution: string[] };
    expect(rep.verdict).toBe('won');
    const file = join(dir, 'play4.html');
    cli(['play', '4', '--size', '1x5,4x3', '--out', file]);
    const { page, done } = await open(file);
    const board = page.locator('#board');
    const status = page.locator('#status');
    await expect.poll(() => status.getAttribute('data-verdict'), { timeout: 30_000 }).toBe('won');
    for (const [i, move] of rep.solution.entries()) {
      const { from, to } = marks(move);
      await page.locator(`#board [data-place="${from}"]`).first().click();
      // A card with one legal move is played at once; else it is picked up and its places marked.
      if ((await board.getAttribute('data-moves')) === String(i)) {
        expect(await page.locator('#board .target').count()).toBeGreaterThan(0);
        await page.locator(to === 'f' ? '#board .foundations' : `#board [data-place="${to}"]`).first().click();
      }
      await expect.poll(() => board.getAttribute('data-moves')).toBe(String(i + 1));
      expect(await board.getAttribute('data-last')).toBe(move);
      if (i + 1 < rep.solution.length) await expect.poll(() => status.getAttribute('data-verdict'), { timeout: 30_000 }).toBe('won');
    }
    expect(await status.getAttribute('data-verdict')).toBe('done');
    expect(await status.textContent()).toContain('You won!');
    await page.locator('#undo').click();
    await expect.poll(() => board.getAttribute('data-moves')).toBe(String(rep.solution.length - 1));
    await page.locator('#restart').click();
    await expect.poll(() => board.getAttribute('data-moves')).toBe('0');
    done();
  });

  it('plays the solver\'s next move on Hint: a legal move, after which the position is still won', async () => {
    const file = join(dir, 'play1.html');
    cli(['play', '1', '--out', file]);
    const legal = cli(['moves', '1']).trim().split('\n');
    const { page, done } = await open(file);
    const board = page.locator('#board');
    const status = page.locator('#status');
    await expect.poll(() => status.getAttribute('data-verdict'), { timeout: 30_000 }).toBe('won');
    await page.locator('#hint').click();
    await expect.poll(() => board.getAttribute('data-moves')).toBe('1');
    expect(legal).toContain(await board.getAttribute('data-last'));
    await expect.poll(() => status.getAttribute('data-verdict'), { timeout: 30_000 }).toBe('won');
    // The README's picture: some moves on by hints, then a card picked up with its places marked.
    for (let i = 0; i < 24; i++) await page.keyboard.press('h');
    await expect.poll(() => board.getAttribute('data-moves'), { timeout: 30_000 }).toBe('25');
    await screenshot(page, 'play.png');
    done();
  });
});

/**
 * Every text of every SVG on the page whose box (its transform applied) comes within 4 units of
 * the edge of the SVG's viewBox or leaves it, drawn in the charts' own font (Liberation Sans here, Helvetica's widths) and again in
 * DejaVu Sans, the wider font that Linux draws when it has neither Helvetica nor Arial.
 */
async function textsOutside(page: Page): Promise<{ svgs: number; texts: number; outside: string[] }> {
  const own = await textsOutsideIn(page, '');
  const dejavu = await textsOutsideIn(page, '"DejaVu Sans"');
  return { ...own, outside: [...own.outside, ...dejavu.outside.map((t) => `${t} in DejaVu Sans`)] };
}

async function textsOutsideIn(page: Page, font: string): Promise<{ svgs: number; texts: number; outside: string[] }> {
  return page.evaluate((font) => {
    const outside: string[] = [];
    let texts = 0;
    const svgs = [...document.querySelectorAll('svg')];
    for (const svg of svgs) {
      const vb = svg.viewBox.baseVal;
      for (const t of svg.querySelectorAll('text')) {
        texts++;
        t.style.fontFamily = font;
        const b = t.getBBox();
        const m = t.transform.baseVal.consolidate()?.matrix ?? new DOMMatrix();
        const xs: number[] = [];
        const ys: number[] = [];
        for (const [x, y] of [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]] as [number, number][]) {
          xs.push(m.a * x + m.c * y + m.e);
          ys.push(m.b * x + m.d * y + m.f);
        }
        // A label that touches the frame has run as far as it may: at least 4 units inside.
        const m4 = 4;
        if (Math.min(...xs) < vb.x + m4 || Math.min(...ys) < vb.y + m4 || Math.max(...xs) > vb.x + vb.width - m4 || Math.max(...ys) > vb.y + vb.height - m4)
          outside.push(`${t.textContent} (x ${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)} of ${vb.width})`);
      }
    }
    return { svgs: svgs.length, texts, outside };
  }, font);
}

describe('report', () => {
  it("writes a page for the tactics experiment whose chart labels stay inside the chart's frame", async () => {
    const file = join(dir, 'tactics.html');
    // The directory as a user names it (the page's header shows it).
    cli(['report', 'results/tactics', '--out', file]);
    const { page, done } = await open(file);
    const r = await textsOutside(page);
    expect(r.svgs).toBe(1);
    expect(r.texts).toBeGreaterThan(50);
    expect(r.outside).toEqual([]);
    // The README's picture: the report's top, its chart and the start of the table.
    await page.setViewportSize({ width: 1080, height: 760 });
    await page.screenshot({ path: join(shotsDir(), 'report.png') });
    done();
  });

  it("writes a win-rate estimate's page whose charts' labels stay inside their frames", async () => {
    const out = join(dir, 'winrate');
    cli(['experiment', 'winrate', '--size', '1x8,4x3', '--count', '60', '--max-nodes', '300', '--sample', '5', '--long-nodes', '200000', '--workers', '1', '--out-dir', out, '--no-progress']);
    const file = join(dir, 'winrate.html');
    cli(['report', out, '--out', file]);
    const { page, done } = await open(file);
    const r = await textsOutside(page);
    expect(r.svgs).toBe(3); // the estimate, phase 1, phase 2
    expect(r.outside).toEqual([]);
    done();
  });

  it('keeps the labels of the committed charts (results/tactics/tactics.svg, results/bench/bench.svg) inside their frames', async () => {
    for (const svg of ['results/tactics/tactics.svg', 'results/bench/bench.svg']) {
      const { page, done } = await open(join(ROOT, svg));
      const r = await textsOutside(page);
      expect(r.texts, svg).toBeGreaterThan(10);
      expect(r.outside, svg).toEqual([]);
      done();
    }
  });

  it("writes a batch's page whose deal links open the viewer, which solves the deal to the batch's verdict", async () => {
    const out = join(dir, 'batch');
    mkdirSync(out);
    cli(['batch', '--from', '1', '--count', '30', '--size', '1x5,4x3', '--workers', '1', '--out', join(out, 'small.csv')]);
    const file = join(dir, 'batch.html');
    cli(['report', out, '--out', file]);
    expect(statSync(join(dir, 'batch-viewer.html')).size).toBeGreaterThan(0);
    const { page, done } = await open(file);
    expect((await textsOutside(page)).outside).toEqual([]);
    for (const verdict of ['won', 'unsolvable']) {
      const link = page.locator(`.links:has(b.v-${verdict}) a.deal`).first();
      const deal = await link.textContent();
      await link.click();
      await page.waitForURL(/batch-viewer\.html#deal=/);
      await expect.poll(() => page.locator('#verdict').getAttribute('data-verdict'), { timeout: 30_000 }).toBe(verdict);
      expect(await page.locator('.deal').textContent()).toBe(`Deal ${deal}`);
      await page.goBack();
    }
    done();
  });
});
