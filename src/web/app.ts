/**
 * The page: a solution viewer (Watch, viewer.ts) and a game to play with the solver beside the
 * player (Play, play.ts), on one table in one frame (skeleton.ts). The engine is the command
 * line's (game/), so the moves offered are exactly the legal ones; the verdicts come from the
 * solver (solver/) in a Web Worker (solver-client.ts). The App holds what the page shows (the
 * deal, its verdict, the mode, the player's choices), wires the frame's buttons, the table's
 * clicks, drags and keys, and opens the deals named in the address.
 *
 * A page opens on its own deal (the one its command wrote it for); "New game" opens another by
 * number, PySolFC game, at random or pasted as a deal file, and writes it into the address
 * (`#deal=17&...`), so that a link names the deal and back and forward step between deals.
 */
import {
  type Deal, type PackedMove, type Rules, FULL_SIZE, Game, RULES_PRESETS, UserError, formatMove, formatRules, formatSize, parseDealFile, plural,
} from '../game/index.js';
import { type SolveRequest } from '../solver/index.js';
import {
  type NamedDeal, type PageData, type PageVerdict, dealFileHash, dealHash, pageRequest, parseDealHash, randomDealNumber,
} from './data.js';
import { type VerdictMode, Play } from './play.js';
import { $, skeleton } from './skeleton.js';
import { SolverClient } from './solver-client.js';
import { Viewer } from './viewer.js';
import { budgetText, esc, verdictText } from './words.js';

const KEYS: Record<'view' | 'play', string> = {
  view: 'Keys: ← → step, Home / End the start and the end, Page Up / Down ten moves.',
  play: 'Keys: arrows move between places, Enter or Space picks a card up and puts it down, Esc drops it, U undo, H hint.',
};

/** The page's own deal, as its command wrote it: what an address with no deal shows. */
interface Own {
  readonly title: string;
  readonly deal: Deal;
  readonly rules: Rules;
  readonly start: readonly PackedMove[];
  readonly solution: readonly PackedMove[] | null;
  readonly verdict: PageVerdict | null;
  readonly note: string;
  readonly mode: 'view' | 'play';
}

export class App {
  private mode: 'view' | 'play';
  private deal!: Deal;
  private rules!: Rules;
  private title = '';
  private start: readonly PackedMove[] = [];
  private verdict: PageVerdict | null = null;
  private note = '';
  /** A name of the deal shown, to tell the solver's answers on one deal from another's. */
  private dealId = '';
  private readonly own: Own | null;
  private readonly solverSettings: SolveRequest;
  private verdicts: VerdictMode;
  private perfect: boolean;
  private readonly viewer: Viewer;
  private readonly play: Play;
  private readonly client: SolverClient;
  /** The place the keyboard is on (kept across redraws of the table). */
  private focusPlace: string | null = null;
  private drag: { place: string; x: number; y: number; id: number; ghost: HTMLElement | null } | null = null;
  private suppressClick = false;

  static start(): void {
    const dataEl = document.getElementById('limited-data');
    const script = document.getElementById('limited-app');
    const root = document.getElementById('app');
    if (!dataEl || !script || !root) throw new Error('the page lacks its data, script or #app element');
    const data = JSON.parse(dataEl.textContent ?? '{}') as PageData;
    // The deal (its stock order) is read once and leaves the document: nothing in it names an unturned card.
    dataEl.remove();
    const app = new App(root, data, script.textContent ?? '');
    (window as unknown as { limitedApp: App }).limitedApp = app;
  }

  private constructor(
    private readonly root: HTMLElement,
    data: PageData,
    source: string,
  ) {
    // The worker starts now, while the table is drawn: its script is read by the time a verdict is asked.
    this.client = new SolverClient(source);
    this.mode = data.mode;
    this.solverSettings = data.solver;
    this.own = data.deal ? { title: data.title, deal: data.deal, rules: data.rules, start: data.start, solution: data.solution, verdict: data.verdict, note: data.note ?? '', mode: data.mode } : null;
    // A page written to play hides what a player at a table cannot see; a solution viewer shows it.
    this.perfect = data.mode === 'view';
    this.verdicts = data.mode === 'view' ? 'always' : 'ask';
    this.viewer = new Viewer(root, null, () => this.render());
    this.play = new Play(root, {
      position: () => ({ deal: this.deal, rules: this.rules, start: this.start, id: this.dealId }),
      request: () => this.solverSettings,
      playing: () => this.mode === 'play',
      verdicts: () => this.verdicts,
      perfect: () => this.perfect,
      solver: () => this.client,
      renderBoard: () => this.renderBoard(),
      render: () => this.render(),
    });
    skeleton(root);
    $<HTMLSelectElement>(root, '#verdicts').value = this.verdicts;
    $<HTMLInputElement>(root, '#perfect').checked = this.perfect;
    this.wire();
    this.fromHash();
    window.addEventListener('hashchange', () => this.fromHash());
  }

  /** The deal the address names, else the page's own. */
  private fromHash(): void {
    let named: NamedDeal | null;
    try {
      named = parseDealHash(location.hash);
    } catch (e) {
      this.chooserError(e instanceof Error ? e.message : String(e));
      if (this.deal) return;
      named = null;
    }
    if (named) return this.openNamed(named);
    if (!this.own) {
      this.root.querySelector('.sub')!.textContent = "This page's address names no deal (#deal=N): choose one under New game.";
      return;
    }
    const o = this.own;
    this.show(o.title, o.deal, o.rules, o.start, `own:${location.pathname}`, o.mode);
    this.viewer.solution = o.solution;
    this.verdict = o.verdict;
    this.note = o.note;
    this.viewer.reset(o.deal, o.rules, o.start);
    this.renderAll();
  }

  /**
   * A deal named in the address. The report's viewer (a page with no deal of its own) solves it
   * at once with the settings the address carries, to show the report's verdict; a page to play
   * opens it in Play.
   */
  private openNamed(named: NamedDeal): void {
    const solver = named.solver ?? this.solverSettings;
    this.show(named.title, named.deal, named.rules, [], location.hash, this.own ? 'play' : 'view');
    if (this.own) return this.renderAll();
    this.solveHere(pageRequest(solver), 'as the report\'s run');
  }

  /** Shows a deal from its start: no verdict, no solution, a fresh game. */
  private show(title: string, deal: Deal, rules: Rules, start: readonly PackedMove[], id: string, mode: 'view' | 'play'): void {
    this.viewer.stopAuto();
    this.title = title;
    this.deal = deal;
    this.rules = rules;
    this.start = start;
    this.dealId = id;
    this.mode = mode;
    this.verdict = null;
    this.note = '';
    this.viewer.solution = null;
    this.viewer.reset(deal, rules, start);
    this.play.forget();
    this.play.begin(Game.after(deal, rules, start));
    this.chooserError('');
    document.title = `Limited · ${title}`;
  }

  /** Solves the deal shown here, in the worker, and steps through the solution (Watch). */
  private solveHere(solver: SolveRequest, why: string): void {
    const how = budgetText(solver);
    const id = this.dealId;
    this.renderAll();
    this.setVerdictLine(`<span class="spin"></span> Solving here in your browser (${esc(how)})…`, 'pending');
    this.client.solve(this.deal, this.rules, this.start, solver, (a) => {
      if (this.dealId !== id) return;
      if (a.error) return this.setVerdictLine(`The solver failed: ${esc(a.error)}`, 'unknown');
      this.verdict = { verdict: a.verdict, ...(a.proof ? { proof: a.proof } : {}), ...(a.limit ? { limit: a.limit } : {}), by: `this page's solver (${how}), ${why}` };
      this.viewer.solution = a.moves;
      this.viewer.reset(this.deal, this.rules, this.start);
      this.renderAll();
    });
  }

  /** The address of a deal chosen under New game: opening it is the hashchange's. */
  private choose(by: string): void {
    const size = this.deal ? this.deal.size : undefined;
    const rules = this.rules;
    try {
      let hash: string;
      if (by === 'file') {
        const text = $<HTMLTextAreaElement>(this.root, '#deal-text').value;
        if (text.trim() === '') throw new UserError('paste a deal file first (size:, row 1: ... and stock: lines)');
        const deal = parseDealFile(text, 'the pasted deal');
        hash = dealFileHash(deal, deal.rules ?? rules);
      } else if (by === 'pysol') {
        const n = $<HTMLInputElement>(this.root, '#pysol-no').value.trim();
        if (!/^\d+$/.test(n)) throw new UserError(`PySolFC game '${n}' is not a whole number`);
        hash = `#${new URLSearchParams({ deal: `pysol ${n}` }).toString()}`;
        parseDealHash(hash);
      } else {
        const n = by === 'random' ? String(randomDealNumber()) : $<HTMLInputElement>(this.root, '#deal-no').value.trim();
        // Another deal of the same size and rules as the one shown (a PySolFC game: the book's).
        const pysol = this.deal?.source?.startsWith('pysol') === true;
        hash = dealHash({ source: n, rules: pysol ? RULES_PRESETS['book']! : rules, size: pysol || !size ? FULL_SIZE : size });
        parseDealHash(hash);
      }
      this.toggleChooser(false);
      if (location.hash === hash) this.fromHash();
      else location.hash = hash;
    } catch (e) {
      this.chooserError(e instanceof Error ? e.message : String(e));
    }
  }

  private chooserError(text: string): void {
    $(this.root, '#chooser-error').textContent = text;
  }

  private toggleChooser(open?: boolean): void {
    const form = $<HTMLFormElement>(this.root, '#chooser');
    const show = open ?? form.hidden;
    form.hidden = !show;
    $(this.root, '#new-game').setAttribute('aria-expanded', String(show));
    if (show) $<HTMLInputElement>(this.root, '#deal-no').focus();
  }

  /** The frame's buttons, the move list, the table's places and the keys. */
  private wire(): void {
    const root = this.root;
    const v = this.viewer;
    for (const b of root.querySelectorAll<HTMLButtonElement>('.tabs button')) b.addEventListener('click', () => this.setMode(b.dataset['mode'] as 'view' | 'play'));
    $(root, '#new-game').addEventListener('click', () => this.toggleChooser());
    const form = $<HTMLFormElement>(root, '#chooser');
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const by = (e.submitter as HTMLElement | null)?.dataset['by'];
      // Enter in a field submits with that field's button.
      const field = (document.activeElement as HTMLElement | null)?.id;
      this.choose(by ?? (field === 'pysol-no' ? 'pysol' : field === 'deal-text' ? 'file' : 'deal'));
    });
    $(root, '#first').addEventListener('click', () => v.goTo(0));
    $(root, '#prev').addEventListener('click', () => v.goTo(v.k - 1));
    $(root, '#next').addEventListener('click', () => v.goTo(v.k + 1));
    $(root, '#last').addEventListener('click', () => v.goTo(Infinity));
    $(root, '#auto').addEventListener('click', () => v.toggleAuto());
    $<HTMLInputElement>(root, '#slider').addEventListener('input', (e) => v.goTo(Number((e.target as HTMLInputElement).value)));
    $(root, '#moves').addEventListener('click', (e) => {
      const b = (e.target as HTMLElement).closest<HTMLElement>('[data-k]');
      if (b) v.goTo(Number(b.dataset['k']));
    });
    $(root, '#gate').addEventListener('click', (e) => {
      const b = (e.target as HTMLElement).closest<HTMLElement>('button');
      if (!b) return;
      this.setPerfect(true);
      if (b.id === 'solve-here') this.solveHere(pageRequest(this.solverSettings), 'asked on this page');
    });
    $(root, '#undo').addEventListener('click', () => this.play.undo());
    $(root, '#restart').addEventListener('click', () => this.play.restart());
    $(root, '#hint').addEventListener('click', () => this.play.hint());
    $(root, '#status').addEventListener('click', (e) => {
      if ((e.target as HTMLElement).closest('#ask')) this.play.ask();
    });
    $<HTMLSelectElement>(root, '#verdicts').addEventListener('change', (e) => {
      this.verdicts = (e.target as HTMLSelectElement).value as VerdictMode;
      this.render();
    });
    $<HTMLInputElement>(root, '#perfect').addEventListener('change', (e) => this.setPerfect((e.target as HTMLInputElement).checked));
    $(root, '#legal').addEventListener('click', (e) => {
      const b = (e.target as HTMLElement).closest<HTMLElement>('button');
      if (!b) return;
      if (b.dataset['turn']) return this.play.turnFromList();
      const m = this.play.legalAt(Number(b.dataset['i']));
      if (m !== undefined) this.play.play(m);
    });
    const board = $(root, '#board');
    board.addEventListener('click', (e) => {
      if (this.suppressClick) return;
      const p = (e.target as HTMLElement).closest<HTMLElement>('[data-place]');
      if (this.mode === 'play' && p) {
        this.focusPlace = p.dataset['place']!;
        this.play.clickPlace(this.focusPlace);
      }
    });
    board.addEventListener('pointerdown', (e) => this.dragStart(e));
    window.addEventListener('pointermove', (e) => this.dragMove(e));
    window.addEventListener('pointerup', (e) => this.dragEnd(e));
    window.addEventListener('pointercancel', () => this.dragStop());
    board.addEventListener('focusin', (e) => {
      const p = (e.target as HTMLElement).closest<HTMLElement>('[data-place]');
      if (p) this.focusPlace = p.dataset['place']!;
    });
    document.addEventListener('keydown', (e) => this.key(e));
  }

  private setPerfect(on: boolean): void {
    this.perfect = on;
    $<HTMLInputElement>(this.root, '#perfect').checked = on;
    this.renderAll();
  }

  // Drags: a card picked up where the pointer goes down, put down where it goes up; a press that
  // does not move is a click, which the click handler takes.
  private dragStart(e: PointerEvent): void {
    if (this.mode !== 'play' || e.button !== 0) return;
    const p = (e.target as HTMLElement).closest<HTMLElement>('[data-place]');
    if (!p || !this.play.canPick(p.dataset['place']!)) return;
    this.drag = { place: p.dataset['place']!, x: e.clientX, y: e.clientY, id: e.pointerId, ghost: null };
  }

  private dragMove(e: PointerEvent): void {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    if (!d.ghost) {
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 6) return;
      const src = this.placeEl(d.place);
      const card = src?.querySelector<HTMLElement>('.card.exposed, .card.top, .privcard .card, .back') ?? null;
      if (!card) return;
      const r = card.getBoundingClientRect();
      const ghost = card.cloneNode(true) as HTMLElement;
      ghost.classList.add('ghost');
      ghost.style.width = `${r.width}px`;
      ghost.style.height = `${r.height}px`;
      // Keep the card's size: its custom properties came from the table.
      ghost.style.setProperty('--card-w', `${r.width}px`);
      ghost.style.setProperty('--card-h', `${r.height}px`);
      document.body.appendChild(ghost);
      d.ghost = ghost;
      if (this.play.selected !== d.place) this.play.select(d.place);
      this.placeEl(d.place)?.classList.add('dragging');
    }
    d.ghost.style.left = `${e.clientX - 20}px`;
    d.ghost.style.top = `${e.clientY - 20}px`;
  }

  private dragEnd(e: PointerEvent): void {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    this.dragStop();
    if (!d.ghost) return;
    // The click that follows a drop is the drop's, not a click.
    this.suppressClick = true;
    setTimeout(() => (this.suppressClick = false), 0);
    const under = document.elementFromPoint(e.clientX, e.clientY)?.closest<HTMLElement>('#board [data-place]');
    this.play.drop(d.place, under?.dataset['place'] ?? '');
  }

  private dragStop(): void {
    this.drag?.ghost?.remove();
    this.drag = null;
  }

  private placeEl(place: string): HTMLElement | null {
    return this.root.querySelector<HTMLElement>(`#board [data-place="${place}"]`);
  }

  private key(e: KeyboardEvent): void {
    const target = e.target as HTMLElement;
    if (e.altKey || e.metaKey || target.id === 'slider' || target.closest('input, textarea, select, #chooser')) return;
    const k = e.key;
    if (this.mode === 'view') {
      const at = this.viewer.k;
      const to: Record<string, number> = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: Infinity, PageUp: at - 10, PageDown: at + 10 };
      if (k in to && !e.ctrlKey) {
        e.preventDefault();
        this.viewer.goTo(to[k]!);
      }
      return;
    }
    const onPlace = target.closest<HTMLElement>('#board [data-place]');
    if (k.startsWith('Arrow') && !e.ctrlKey) {
      e.preventDefault();
      this.moveFocus(onPlace, k);
    } else if ((k === 'Enter' || k === ' ') && onPlace) {
      e.preventDefault();
      this.focusPlace = onPlace.dataset['place']!;
      this.play.clickPlace(this.focusPlace);
    } else if ((k === 'u' || k === 'U' || (k === 'z' && e.ctrlKey)) && !e.shiftKey) {
      e.preventDefault();
      this.play.undo();
    } else if ((k === 'h' || k === 'H') && !e.ctrlKey) {
      e.preventDefault();
      this.play.hint();
    } else if (k === 'Escape') {
      this.play.deselect();
    }
  }

  /** Arrow keys: to the nearest place that way on the table as it is laid out (its rows wrap on a narrow window). */
  private moveFocus(from: HTMLElement | null, key: string): void {
    const places = [...this.root.querySelectorAll<HTMLElement>('#board [data-place]')];
    if (places.length === 0) return;
    if (!from) return this.focusOn(places.find((p) => p.dataset['place'] === this.focusPlace) ?? places[0]!);
    const c = (el: HTMLElement): [number, number] => {
      const r = el.getBoundingClientRect();
      return [r.left + r.width / 2, r.top + Math.min(r.height, 60) / 2];
    };
    const [x0, y0] = c(from);
    const [dx, dy] = key === 'ArrowLeft' ? [-1, 0] : key === 'ArrowRight' ? [1, 0] : key === 'ArrowUp' ? [0, -1] : [0, 1];
    // Left and right stay in the row (the top row, or the columns) while it has a place that way.
    const pick = (sameRow: boolean): HTMLElement | null => {
      let best: HTMLElement | null = null;
      let score = Infinity;
      for (const p of places) {
        if (p === from) continue;
        const [x, y] = c(p);
        const along = (x - x0) * dx + (y - y0) * dy;
        if (along <= 1) continue;
        if (sameRow && Math.abs(y - y0) > 30) continue;
        const across = Math.abs((x - x0) * dy) + Math.abs((y - y0) * dx);
        const s = along + 3 * across;
        if (s < score) {
          score = s;
          best = p;
        }
      }
      return best;
    };
    const best = (dx !== 0 ? pick(true) : null) ?? pick(false);
    if (best) this.focusOn(best);
  }

  private focusOn(el: HTMLElement): void {
    this.focusPlace = el.dataset['place']!;
    for (const p of this.root.querySelectorAll<HTMLElement>('#board [data-place]')) p.tabIndex = p === el ? 0 : -1;
    el.focus();
  }

  private setMode(mode: 'view' | 'play'): void {
    this.mode = mode;
    this.viewer.stopAuto();
    this.play.selected = null;
    this.renderAll();
  }

  private setVerdictLine(html: string, kind: string): void {
    const v = $(this.root, '#verdict');
    v.innerHTML = html;
    v.dataset['verdict'] = kind;
  }

  private renderAll(): void {
    const solution = this.viewer.solution;
    $(this.root, '.deal').textContent = this.title;
    const after = this.start.length > 0 ? ` · from the position after ${plural(this.start.length, 'move')}` : '';
    $(this.root, '.sub').textContent = `rules ${formatRules(this.rules)} · size ${formatSize(this.deal.size)}${after}`;
    // The deal's verdict names how long its win is: a player without perfect information sees it only when verdicts are always shown.
    const showVerdict = this.perfect || this.verdicts === 'always';
    if (this.verdict && showVerdict)
      this.setVerdictLine(
        `<b>${esc(verdictText(this.verdict, solution && this.perfect ? solution.length : null))}</b> <span class="by">· ${esc(this.verdict.by)}</span>`,
        this.verdict.verdict,
      );
    else if (this.note && this.perfect) this.setVerdictLine(esc(this.note), 'moves');
    else this.setVerdictLine('', '');
    this.root.dataset['mode'] = this.mode;
    for (const b of this.root.querySelectorAll<HTMLButtonElement>('.tabs button')) b.setAttribute('aria-selected', String(b.dataset['mode'] === this.mode));
    $(this.root, '#tab-view').textContent = solution ? 'Watch the solution' : 'The solution';
    $(this.root, '#keys').textContent = KEYS[this.mode];
    this.viewer.shown = this.perfect;
    const gate = $(this.root, '#gate');
    if (!this.perfect) {
      gate.hidden = false;
      gate.innerHTML = `The solver's solution names the stock's cards before they are turned. <button id="show-solution">${solution ? 'Show the solution' : 'Solve and show the solution'}</button>`;
      if (!solution) gate.querySelector('button')!.id = 'solve-here';
    } else if (!solution) {
      gate.hidden = false;
      gate.innerHTML = `No solution on this page yet. <button id="solve-here">Solve it here (${esc(budgetText(this.solverSettings))})</button>`;
    } else gate.hidden = true;
    $(this.root, '#view-controls').hidden = !this.perfect || !solution;
    this.viewer.renderMoveList();
    this.render();
  }

  private render(): void {
    this.renderBoard();
    if (this.mode === 'view') this.viewer.render(this.verdict, this.start.length > 0);
    else this.play.render();
  }

  private renderBoard(): void {
    const board = $(this.root, '#board');
    const hadFocus = board.contains(document.activeElement);
    board.innerHTML = this.mode === 'view' ? this.viewer.boardHtml() : this.play.boardHtml();
    board.style.setProperty('--cols', String(this.deal.size.columns));
    // For the browser tests and the curious: where the table stands, and the move that led here.
    const hist = this.mode === 'view' ? this.viewer.played() : this.play.g!.history();
    board.dataset['moves'] = String(hist.length);
    board.dataset['last'] = hist.length > 0 ? formatMove(hist[hist.length - 1]!) : '';
    if (this.mode === 'play') {
      // One place in the tab order (the one the keyboard was on); the arrows reach the others.
      const places = [...board.querySelectorAll<HTMLElement>('[data-place]')];
      const at = places.find((p) => p.dataset['place'] === this.focusPlace) ?? places[0];
      if (at) {
        at.tabIndex = 0;
        if (hadFocus) at.focus({ preventScroll: true });
      }
    }
  }
}
