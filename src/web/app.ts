/**
 * The page: a solution viewer (Watch, viewer.ts) and a game to play with the solver beside the
 * player (Play, play.ts), on one table in one frame (skeleton.ts). The engine is the command
 * line's (game/), so the moves offered are exactly the legal ones; the verdicts come from the
 * solver (solver/) in a Web Worker (solver-client.ts). The App holds what the page shows (the
 * deal, its verdict, the mode), wires the frame's buttons and keys, and draws the shared parts.
 */
import { type Deal, type PackedMove, type Rules, Game, formatMove, formatRules, formatSize, plural } from '../game/index.js';
import { type SolveRequest } from '../solver/index.js';
import { type PageData, type PageVerdict, pageRequest, parseDealHash } from './data.js';
import { Play } from './play.js';
import { $, skeleton } from './skeleton.js';
import { SolverClient } from './solver-client.js';
import { Viewer } from './viewer.js';
import { budgetText, esc, verdictText } from './words.js';

export class App {
  private mode: 'view' | 'play';
  private deal!: Deal;
  private rules!: Rules;
  private title: string;
  private start: readonly PackedMove[];
  private verdict: PageVerdict | null;
  private note: string;
  private solverSettings: SolveRequest;
  private readonly viewer: Viewer;
  private readonly play: Play;
  private client: SolverClient | null = null;

  static start(): void {
    const dataEl = document.getElementById('limited-data');
    const script = document.getElementById('limited-app');
    const root = document.getElementById('app');
    if (!dataEl || !script || !root) throw new Error('the page lacks its data, script or #app element');
    const app = new App(root, JSON.parse(dataEl.textContent ?? '{}') as PageData, script.textContent ?? '');
    (window as unknown as { limitedApp: App }).limitedApp = app;
  }

  private constructor(
    private readonly root: HTMLElement,
    data: PageData,
    private readonly source: string,
  ) {
    this.mode = data.mode;
    this.title = data.title;
    this.start = data.start;
    this.verdict = data.verdict;
    this.note = data.note ?? '';
    this.solverSettings = data.solver;
    this.viewer = new Viewer(root, data.solution, () => this.render());
    this.play = new Play(root, {
      position: () => ({ deal: this.deal, rules: this.rules, start: this.start }),
      request: () => this.solverSettings,
      playing: () => this.mode === 'play',
      solver: () => this.solverClient(),
      renderBoard: () => this.renderBoard(),
      render: () => this.render(),
    });
    skeleton(root);
    this.wire();
    if (data.deal) {
      this.setDeal(data.deal, data.rules);
    } else {
      this.fromHash();
      window.addEventListener('hashchange', () => this.fromHash());
    }
  }

  /** The report's viewer: the deal named in the address, solved here with the report's settings. */
  private fromHash(): void {
    let named;
    try {
      named = parseDealHash(location.hash);
    } catch (e) {
      this.root.querySelector('.sub')!.textContent = e instanceof Error ? e.message : String(e);
      return;
    }
    this.title = named.title;
    this.start = [];
    this.viewer.solution = null;
    this.verdict = null;
    this.play.begin(null);
    this.setDeal(named.deal, named.rules);
    const solver = pageRequest(named.solver);
    const how = budgetText(solver);
    this.setVerdictLine(`<span class="spin"></span> Solving here in your browser (${esc(how)})…`, 'pending');
    this.solverClient().solve(named.deal, named.rules, [], solver, (a) => {
      if (a.error) return this.setVerdictLine(`The solver failed: ${esc(a.error)}`, 'unknown');
      this.verdict = { verdict: a.verdict, ...(a.proof ? { proof: a.proof } : {}), ...(a.limit ? { limit: a.limit } : {}), by: `this page's solver (${how}), as the report's run` };
      this.viewer.solution = a.moves;
      this.viewer.goTo(0);
      this.renderAll();
    });
  }

  private setDeal(deal: Deal, rules: Rules): void {
    this.deal = deal;
    this.rules = rules;
    this.viewer.reset(deal, rules, this.start);
    if (this.mode === 'play') this.play.begin(Game.after(deal, rules, this.start));
    document.title = `Limited · ${this.title}`;
    this.renderAll();
  }

  /** The worker, made at the first solve (a page that only steps through a solution needs none). */
  private solverClient(): SolverClient {
    return (this.client ??= new SolverClient(this.source));
  }

  /** The frame's buttons, the move list, the table's places and the keys. */
  private wire(): void {
    const root = this.root;
    const v = this.viewer;
    for (const b of root.querySelectorAll<HTMLButtonElement>('.tabs button')) b.addEventListener('click', () => this.setMode(b.dataset['mode'] as 'view' | 'play'));
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
    $(root, '#undo').addEventListener('click', () => this.play.undo());
    $(root, '#restart').addEventListener('click', () => this.play.restart());
    $(root, '#hint').addEventListener('click', () => this.play.hint());
    $(root, '#legal').addEventListener('click', (e) => {
      const b = (e.target as HTMLElement).closest<HTMLElement>('[data-move]');
      if (b) this.play.play(Number(b.dataset['packed']));
    });
    $(root, '#board').addEventListener('click', (e) => {
      const p = (e.target as HTMLElement).closest<HTMLElement>('[data-place]');
      if (this.mode === 'play' && p) this.play.clickPlace(p.dataset['place']!);
    });
    document.addEventListener('keydown', (e) => this.key(e));
  }

  private key(e: KeyboardEvent): void {
    if (e.altKey || e.metaKey || (e.target as HTMLElement).id === 'slider') return;
    const k = e.key;
    if (this.mode === 'view') {
      const at = this.viewer.k;
      const to: Record<string, number> = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: Infinity, PageUp: at - 10, PageDown: at + 10 };
      if (k in to && !e.ctrlKey) {
        e.preventDefault();
        this.viewer.goTo(to[k]!);
      }
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

  private setMode(mode: 'view' | 'play'): void {
    this.mode = mode;
    this.viewer.stopAuto();
    // Play starts where the viewer stands; Undo goes back to the page's start.
    let g = this.play.g;
    if (mode === 'play' && !g) {
      g = Game.after(this.deal, this.rules, this.start);
      for (const m of this.viewer.played()) g.apply(m);
    }
    this.play.begin(g);
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
    if (this.verdict)
      this.setVerdictLine(
        `<b>${esc(verdictText(this.verdict, solution ? solution.length : null))}</b> <span class="by">· ${esc(this.verdict.by)}</span>`,
        this.verdict.verdict,
      );
    else if (this.note) this.setVerdictLine(esc(this.note), 'moves');
    this.root.dataset['mode'] = this.mode;
    for (const b of this.root.querySelectorAll<HTMLButtonElement>('.tabs button')) b.setAttribute('aria-selected', String(b.dataset['mode'] === this.mode));
    $(this.root, '#tab-view').textContent = solution ? 'Watch the solution' : 'The deal';
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
    board.innerHTML = this.mode === 'view' ? this.viewer.boardHtml() : this.play.boardHtml();
    // For the browser tests and the curious: where the table stands, and the move that led here.
    const hist = this.mode === 'view' ? this.viewer.played() : this.play.g!.history();
    board.dataset['moves'] = String(hist.length);
    board.dataset['last'] = hist.length > 0 ? formatMove(hist[hist.length - 1]!) : '';
  }
}
