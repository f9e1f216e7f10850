/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The pages of `limited view`, `limited play` and `limited report` in a real browser (Debian's
// Chromium through playwright-core; test/browser.ts): the viewer's table after a move against
// `limited show --after`, a small deal played to a win by clicks and drags and again by keys
// alone, a hint, deals chosen on the page, no unturned card in the document of a page without
// perfect information, the layout at 360, 768 and 1280 px, and the report's chart labels inside
// their frames. With LIMITED_SCREENSHOTS=1 the screenshots of the README are
// written to docs/images/ (else to the test's temporary directory).
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.js';
import { type Card, BOOK, dealFromNumber, formatCard, formatMove, replay } from '../src/game/index.js';
import { cardName } from '../src/web/board.js';
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

/**
 * Book deal 1's solution under a node budget (the same on every machine, and the one the page
 * finds with the same settings), written to `name` by `limited solve`: its moves, comments left out.
 */
function deal1Moves(name: string): string[] {
  const sol = join(dir, name);
  cli(['solve', '1', '--preset', 'portfolio', '--max-nodes', '100000', '--solution-out', sol]);
  return readFileSync(sol, 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('#'));
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

/** The selection drawn at `place`, in its yellow, over any other mark there. */
async function expectSelected(page: Page, place: string): Promise<void> {
  const sel = page.locator('#board .selected');
  expect(await sel.count()).toBe(1);
  expect(await sel.getAttribute('data-place')).toBe(place);
  const style = await sel.evaluate((el) => {
    const s = getComputedStyle(el);
    return { color: s.outlineColor, style: s.outlineStyle, width: s.outlineWidth, visible: el.getBoundingClientRect().width > 0 };
  });
  expect(style).toEqual({ color: 'rgb(255, 235, 59)', style: 'solid', width: '4px', visible: true });
}

/** Drags the card of one place to another with the mouse; the selection shows while it is held. */
async function dragTo(page: Page, from: string, to: string): Promise<void> {
  const box = async (place: string): Promise<{ x: number; y: number }> => {
    const el = page.locator(place === 'f' ? '#board .foundations' : `#board [data-place="${place}"]`).first();
    const card = place.startsWith('c') ? el.locator('.card.exposed, .empty') : el;
    const b = (await card.first().boundingBox())!;
    return { x: b.x + b.width / 2, y: b.y + Math.min(b.height, 40) / 2 };
  };
  const a = await box(from);
  const b = await box(to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(a.x + 10, a.y + 10, { steps: 2 });
  await expectSelected(page, from);
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up();
}

// ---------------------------------------------------------------------------------------

describe('the viewer', () => {
  it('steps through a solution by keys, slider, move list and buttons, and draws the table of each move as limited show --after prints it', async () => {
    // A node budget: the same solution on every machine.
    const moves = deal1Moves('deal1.txt');
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
    // A page to play keeps verdicts for when they are asked for: here, after every move.
    expect(await status.getAttribute('data-verdict')).toBe('hidden');
    await page.locator('#verdicts').selectOption('always');
    await expect.poll(() => status.getAttribute('data-verdict'), { timeout: 30_000 }).toBe('won');
    let selectedOnLast = 0;
    for (const [i, move] of rep.solution.entries()) {
      const { from, to } = marks(move);
      const target = page.locator(to === 'f' ? '#board .foundations' : `#board [data-place="${to}"]`).first();
      if (/\bto\b/.test((await page.locator(`#board [data-place="${from}"]`).first().getAttribute('class'))!)) selectedOnLast++;
      if (i % 3 === 2) {
        // Every third move is dragged (the selection shows while the card is held).
        await dragTo(page, from, to);
      } else {
        await page.locator(`#board [data-place="${from}"]`).first().click();
        // A card with one legal move is played at once; else it is picked up and its places marked.
        if ((await board.getAttribute('data-moves')) === String(i)) {
          expect(await page.locator('#board .target').count()).toBeGreaterThan(0);
          await expectSelected(page, from);
          await target.click();
        }
      }
      await expect.poll(() => board.getAttribute('data-moves')).toBe(String(i + 1));
      expect(await board.getAttribute('data-last')).toBe(move);
      if (i + 1 < rep.solution.length) await expect.poll(() => status.getAttribute('data-verdict'), { timeout: 30_000 }).toBe('won');
    }
    expect(await status.getAttribute('data-verdict')).toBe('done');
    expect(await status.textContent()).toContain('You won!');
    expect(await page.locator('#hint').isDisabled()).toBe(true);
    // Some cards were picked up where the last move had landed: the selection showed there too.
    expect(selectedOnLast).toBeGreaterThan(0);
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
    await page.locator('#verdicts').selectOption('always');
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

describe('a page a player keeps open', () => {
  it('opens a deal chosen on the page by number, PySolFC game, at random or pasted, names it in the address, and goes back and forward', async () => {
    const file = join(dir, 'play-choose.html');
    cli(['play', '1', '--out', file]);
    const { page, done } = await open(file);
    const title = page.locator('h1 .deal');
    expect(await title.textContent()).toBe('Deal 1');
    const choose = async (field: string, value: string, by: string): Promise<void> => {
      if ((await page.locator('#chooser').isHidden())) await page.locator('#new-game').click();
      if (field) await page.locator(field).fill(value);
      await page.locator(`#chooser button[data-by="${by}"]`).click();
    };
    await choose('#deal-no', '17', 'deal');
    await expect.poll(() => title.textContent()).toBe('Deal 17');
    expect(decodeURIComponent(new URL(page.url()).hash)).toContain('deal=17');
    expect(await page.locator('#board').getAttribute('data-moves')).toBe('0');
    expect(await pageTable(page)).toEqual(shownTable(cli(['show', '17'])));
    await choose('#pysol-no', '5', 'pysol');
    await expect.poll(() => title.textContent()).toBe('PySolFC game 5');
    expect(await pageTable(page)).toEqual(shownTable(cli(['show', '--pysol', '5'])));
    await choose('', '', 'random');
    await expect.poll(() => title.textContent()).toMatch(/^Deal \d+$/);
    const random = (await title.textContent())!.slice(5);
    expect(await pageTable(page)).toEqual(shownTable(cli(['show', random])));
    // A deal file pasted: the small deal 4, opened and played from its address.
    await choose('#deal-text', cli(['deal', '4', '--size', '1x5,4x3']), 'file');
    await expect.poll(() => page.locator('#board .column').count()).toBe(4);
    expect(await title.textContent()).toBe('Deal 4');
    expect(await pageTable(page)).toEqual(shownTable(cli(['show', '4', '--size', '1x5,4x3'])));
    // A bad number is one line under the fields; the deal stays.
    await choose('#deal-no', '12x', 'deal');
    expect(await page.locator('#chooser-error').textContent()).toContain("deal number '12x'");
    expect(await title.textContent()).toBe('Deal 4');
    // Back and forward: the deals in the order opened, and the page's own deal at the start.
    await page.goBack();
    await expect.poll(() => title.textContent()).toBe(`Deal ${random}`);
    await page.goBack();
    await expect.poll(() => title.textContent()).toBe('PySolFC game 5');
    await page.goForward();
    await expect.poll(() => title.textContent()).toBe(`Deal ${random}`);
    for (let i = 0; i < 3; i++) await page.goBack();
    await expect.poll(() => title.textContent()).toBe('Deal 1');
    // A link names the deal: the address opened afresh shows it.
    const { page: again, done: done2 } = await open(file, '#deal=17');
    await expect.poll(() => again.locator('h1 .deal').textContent()).toBe('Deal 17');
    done2();
    done();
  });

  /** The cards not turned in a position that no face-up card shares (a twin turned is the same card): what the page must not name. */
  function unturned(moves: readonly string[]): Card[] {
    const g = replay(dealFromNumber(1), BOOK, moves.join('\n')).game;
    const hidden: number[] = [];
    if (g.phase === 1) for (let i = g.stockPtr; i < g.stockSize; i++) hidden.push(g.stockCards[i]!);
    else for (let i = g.pileNext; i < g.wasteLen; i++) hidden.push(g.stockCards[g.waste[i]!]!);
    const seen = new Set<number>();
    for (let c = 0; c < g.columns; c++) for (let i = 0; i < g.len[c]!; i++) seen.add(g.cols[c * g.height + i]!);
    for (let i = 0; i < g.wasteLen && g.phase === 1; i++) seen.add(g.stockCards[g.waste[i]!]!);
    for (let i = 0; i < g.privLen && g.phase === 2; i++) seen.add(g.privCard(i));
    for (let s = 0; s < 4; s++) for (let k = 0; k < g.packs; k++) for (let r = 1; r <= g.found[s * g.packs + k]!; r++) seen.add((s << 4) | r);
    // In the second deal the pile is the waste turned over: those cards were seen in the first.
    if (g.phase === 2) for (const c of g.stockCards) if (!hidden.includes(c)) seen.add(c);
    return [...new Set(hidden)].filter((c) => !seen.has(c));
  }

  /** Each way the page could name one of `cards` (notation, as a player reads it, in words) found in the document, but for the program's own script. */
  async function named(page: Page, cards: readonly Card[]): Promise<string[]> {
    const html = await page.evaluate(() => {
      const doc = document.documentElement.cloneNode(true) as HTMLElement;
      doc.querySelector('#limited-app')?.remove();
      return doc.outerHTML;
    });
    const out: string[] = [];
    for (const c of cards) {
      const n = formatCard(c);
      const label = (n[0] === 'T' ? '10' : n[0]) + '♠♥♦♣'[c >> 4]!;
      for (const form of [n, label, cardName(c)])
        if (new RegExp(`(^|[^0-9A-Za-z])${form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^0-9A-Za-z])`).test(html)) out.push(form);
    }
    return out;
  }

  it('names no unturned card anywhere in the document without perfect information, in both deals, and names them when asked', async () => {
    const moves = deal1Moves('spoil1.txt');
    const file = join(dir, 'play-spoil.html');
    cli(['play', '1', '--out', file]);
    const { page, done } = await open(file);
    const board = page.locator('#board');
    // The solver has answered (its line is in the page's memory, not its document); some moves on by hints, the verdict shown.
    await page.locator('#ask').click();
    await expect.poll(() => page.locator('#status').getAttribute('data-verdict'), { timeout: 30_000 }).toBe('won');
    expect(await page.locator('#status').textContent()).not.toMatch(/\d+ more move/);
    for (let i = 0; i < 6; i++) await page.keyboard.press('h');
    await expect.poll(() => board.getAttribute('data-moves'), { timeout: 30_000 }).toBe('6');
    const played = (await page.evaluate(() => (window as unknown as { limitedApp: { play: { g: { history(): number[] } } } }).limitedApp.play.g.history())).map(formatMove);
    let hidden = unturned(played);
    expect(hidden.length).toBeGreaterThan(10);
    expect(await named(page, hidden)).toEqual([]);
    // The Watch tab asks before it shows the solution.
    await page.locator('#tab-view').click();
    expect(await page.locator('#moves button').count()).toBe(0);
    expect(await named(page, hidden)).toEqual([]);
    await page.locator('#tab-play').click();
    // The second deal: the fifth card is not named until turned.
    const redeal = moves.indexOf('redeal');
    const second = join(dir, 'play-spoil2.html');
    cli(['play', '1', '--after', firstMoves(moves, redeal + 3), '--out', second]);
    const { page: p2, done: done2 } = await open(second);
    hidden = unturned(moves.slice(0, redeal + 3));
    expect(hidden.length).toBeGreaterThan(3);
    expect(await p2.locator('#board .fifth').getAttribute('data-top')).toBe('');
    expect(await named(p2, hidden)).toEqual([]);
    // Perfect information on request: the draw names its card, the fifth card shows.
    await p2.locator('#perfect').check();
    expect(await p2.locator('#board .fifth').getAttribute('data-top')).not.toBe('');
    await page.locator('#perfect').check();
    expect(await page.locator('#legal button[data-move^="draw "]').count()).toBe(1);
    done2();
    done();
  });

  it('plays the small deal to a win by keys alone, with labels for a screen reader', async () => {
    const rep = JSON.parse(cli(['solve', '4', '--size', '1x5,4x3', '--json'])) as { solution: string[] };
    const file = join(dir, 'play4-keys.html');
    cli(['play', '4', '--size', '1x5,4x3', '--out', file]);
    const { page, done } = await open(file);
    const board = page.locator('#board');
    const focused = (): Promise<string> => page.evaluate(() => (document.activeElement as HTMLElement).closest<HTMLElement>('[data-place]')?.dataset['place'] ?? '');
    /** Arrow keys toward a place until it has the focus: the direction of its centre from the focused one's. */
    const goTo = async (place: string): Promise<void> => {
      for (let i = 0; i < 30 && (await focused()) !== place; i++) {
        const d = await page.evaluate((place) => {
          const c = (el: Element): [number, number] => {
            const r = el.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + Math.min(r.height, 60) / 2];
          };
          const from = (document.activeElement as HTMLElement).closest('[data-place]');
          const to = document.querySelector(`#board [data-place="${place}"]`)!;
          if (!from) return 'ArrowRight';
          const [x0, y0] = c(from);
          const [x1, y1] = c(to);
          return Math.abs(y1 - y0) > 20 ? (y1 > y0 ? 'ArrowDown' : 'ArrowUp') : x1 > x0 ? 'ArrowRight' : 'ArrowLeft';
        }, place);
        await page.keyboard.press(d);
      }
      expect(await focused()).toBe(place);
    };
    for (const [i, move] of rep.solution.entries()) {
      const { from, to } = marks(move);
      await goTo(from);
      const label = await page.locator(`#board [data-place="${from}"]`).first().getAttribute('aria-label');
      expect(label).toBeTruthy();
      await page.keyboard.press('Enter');
      if ((await board.getAttribute('data-moves')) === String(i)) {
        await expectSelected(page, from);
        expect(await page.locator(`#board [data-place="${from}"]`).first().getAttribute('aria-label')).toContain('selected');
        await goTo(to);
        await page.keyboard.press('Enter');
      }
      await expect.poll(() => board.getAttribute('data-moves')).toBe(String(i + 1));
      expect(await board.getAttribute('data-last')).toBe(move);
    }
    expect(await page.locator('#status').textContent()).toContain('You won!');
    done();
  });

  /** Places and cards that leave the table, and whether the page is wider than the window. */
  async function overflow(page: Page): Promise<{ outside: string[]; sideways: boolean }> {
    return page.evaluate(() => {
      const t = document.querySelector('#board')!.getBoundingClientRect();
      const outside: string[] = [];
      for (const el of document.querySelectorAll<HTMLElement>('#board [data-place], #board .card, #board .slot')) {
        const r = el.getBoundingClientRect();
        if (r.left < t.left - 0.5 || r.right > t.right + 0.5) outside.push(`${el.dataset['place'] ?? el.dataset['card'] ?? el.className} (${r.left.toFixed(0)}-${r.right.toFixed(0)} of ${t.left.toFixed(0)}-${t.right.toFixed(0)})`);
      }
      return { outside, sideways: document.documentElement.scrollWidth > window.innerWidth };
    });
  }

  it('fits the table, both deals, and the reports in windows 360, 768 and 1280 px wide', async () => {
    const moves = deal1Moves('fit1.txt');
    const first = join(dir, 'fit-play.html');
    cli(['play', '1', '--out', first]);
    const second = join(dir, 'fit-second.html');
    cli(['play', '1', '--after', firstMoves(moves, moves.indexOf('redeal') + 9), '--out', second]);
    const report = join(dir, 'fit-tactics.html');
    cli(['report', 'results/tactics', '--out', report]);
    for (const width of [360, 768, 1280]) {
      for (const f of [first, second]) {
        const { page, done } = await open(f);
        await page.setViewportSize({ width, height: 800 });
        await expect.poll(() => overflow(page), { timeout: 5000 }).toEqual({ outside: [], sideways: false });
        // The cards stay readable: a corner index of at least 9 px.
        expect(await page.locator('#board .card .ix').first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize))).toBeGreaterThanOrEqual(9);
        if (width === 360 && f === first) await page.screenshot({ path: join(shotsDir(), 'play-phone.png') });
        await page.close();
        done();
      }
      const { page, done } = await open(report);
      await page.setViewportSize({ width, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      // The chart's text at least 9 px on the screen (its own width, scrolled inside its box on a phone).
      const smallest = await page.evaluate(() => {
        const svg = document.querySelector('svg')!;
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return Math.min(...[...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale));
      });
      expect(smallest, `at ${width} px`).toBeGreaterThanOrEqual(9);
      await page.close();
      done();
    }
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
