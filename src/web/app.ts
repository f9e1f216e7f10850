/**
 * The page: a solution viewer (Watch) and a game to play with the solver beside the player
 * (Play), on one table. The engine is the command line's (game/), so the moves offered are
 * exactly the legal ones; the verdicts come from the solver (solver/) in a Web Worker.
 */
import {
  type Deal, type PackedMove, type Rules, DST_FOUNDATION, GEN_ALL, Game, MAX_MOVES, SRC_DRAW, SRC_FIFTH, SRC_PRIV, SRC_REDEAL, SRC_WASTE,
  formatMove, formatMoveBare, formatRules, formatSize, moveCard, moveDst, moveSrc, plural,
} from '../game/index.js';
import { boardHtml, cardHtml, cardLabel, cardName, dstPlace, srcPlace } from './board.js';
import { type SolveRequest } from '../solver/index.js';
import { type PageData, type PageVerdict, type WorkerAnswer, type WorkerQuestion, pageRequest, parseDealHash } from './data.js';

/** A move as the page writes it: the notation with the card's suit symbol, `c3>f 5♠`. */
export function moveText(m: PackedMove): string {
  return moveSrc(m) === SRC_REDEAL ? 'redeal' : `${formatMoveBare(m)} ${cardLabel(moveCard(m))}`;
}

/** A move in words, read in the position after it. */
function moveWords(g: Game, m: PackedMove): string {
  const src = moveSrc(m);
  const card = moveCard(m);
  if (src === SRC_DRAW) return `${cardName(card)} drawn from the stock onto the waste`;
  if (src === SRC_REDEAL) return 'the second deal: the waste turned over as the pile, its first cards laid out as the privileged row';
  const from =
    src < SRC_WASTE ? `column ${src + 1}` : src === SRC_WASTE ? 'the waste' : src === SRC_FIFTH ? 'the pile (the fifth card)' : `privileged card p${src - SRC_PRIV + 1}`;
  const d = moveDst(m);
  if (d === DST_FOUNDATION) return `${cardName(card)} from ${from} to a foundation`;
  const l = g.len[d]!;
  if (l <= 1) return `${cardName(card)} from ${from} into the space in column ${d + 1}`;
  const under = g.cols[d * g.height + l - 2]!;
  return `${cardName(card)} from ${from} onto ${cardLabel(under)} in column ${d + 1}${g.building === 1 ? ', a pair' : ''}`;
}

function verdictText(v: PageVerdict, moves: number | null): string {
  if (v.verdict === 'won') return `Won${moves !== null ? ` in ${plural(moves, 'move')}` : ''}`;
  if (v.verdict === 'unsolvable') return `Lost: proved ${v.proof === 'locks' ? 'by the cards that block one another' : 'by an exhaustive search'}`;
  return `Unknown: the solver ran out of ${v.limit === 'nodes' ? 'nodes' : v.limit === 'memory' ? 'memory' : 'time'} before deciding`;
}

function budgetText(s: SolveRequest): string {
  const parts = [s.preset !== undefined ? `preset ${s.preset}` : (s.search ?? 'dfs')];
  if (s.heuristic !== undefined) parts.push(`heuristic ${s.heuristic}`);
  if (s.maxNodes !== undefined) parts.push(`${s.maxNodes.toLocaleString('en-US')} nodes`);
  if (s.maxSeconds !== undefined) parts.push(`${s.maxSeconds} s`);
  return parts.join(', ');
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Talks to the solver worker: one solve at a time, a newer request ends the one running. */
class SolverClient {
  private worker: Worker | null = null;
  private pending: { id: number; done: (a: WorkerAnswer) => void } | null = null;
  private seq = 0;
  private readonly url: string;

  constructor(source: string) {
    this.url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  }

  solve(deal: Deal, rules: Rules, from: readonly PackedMove[], solver: SolveRequest, done: (a: WorkerAnswer) => void): void {
    if (this.pending) {
      // A search cannot be interrupted from outside; a new worker is quicker than waiting.
      this.worker?.terminate();
      this.worker = null;
      this.pending = null;
    }
    if (!this.worker) {
      const w = new Worker(this.url);
      w.onmessage = (e: MessageEvent) => {
        const a = e.data as WorkerAnswer;
        if (this.pending && a.id === this.pending.id) {
          const p = this.pending;
          this.pending = null;
          p.done(a);
        }
      };
      w.onerror = (e: ErrorEvent) => {
        const p = this.pending;
        this.pending = null;
        this.worker = null;
        p?.done({ id: p.id, verdict: 'unknown', proof: null, limit: null, moves: null, nodes: 0, seconds: 0, error: e.message || 'the solver stopped' });
      };
      this.worker = w;
    }
    const id = ++this.seq;
    this.pending = { id, done };
    const question: WorkerQuestion = { id, deal, rules, from, solver };
    this.worker.postMessage(question);
  }
}

const $ = <T extends HTMLElement>(root: ParentNode, sel: string): T => root.querySelector(sel) as T;

export class App {
  private readonly buf = new Int32Array(MAX_MOVES);
  private mode: 'view' | 'play';
  private deal!: Deal;
  private rules!: Rules;
  private title: string;
  private start: readonly PackedMove[];
  private solution: readonly PackedMove[] | null;
  private verdict: PageVerdict | null;
  private note: string;
  private solverSettings: SolveRequest;
  /** The viewer's position: after `start` and the first `k` moves of the solution. */
  private vg!: Game;
  private k = 0;
  /** The player's game (its history: the moves played since `start`). */
  private pg: Game | null = null;
  private selected: string | null = null;
  private message = '';
  private hintWanted = false;
  private auto: number | null = null;
  private readonly answers = new Map<string, WorkerAnswer>();
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
    this.solution = data.solution;
    this.verdict = data.verdict;
    this.note = data.note ?? '';
    this.solverSettings = data.solver;
    this.skeleton();
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
    this.solution = null;
    this.verdict = null;
    this.pg = null;
    this.setDeal(named.deal, named.rules);
    const solver = pageRequest(named.solver);
    const how = budgetText(solver);
    this.setVerdictLine(`<span class="spin"></span> Solving here in your browser (${esc(how)})…`, 'pending');
    this.solverClient().solve(named.deal, named.rules, [], solver, (a) => {
      if (a.error) return this.setVerdictLine(`The solver failed: ${esc(a.error)}`, 'unknown');
      this.verdict = { verdict: a.verdict, ...(a.proof ? { proof: a.proof } : {}), ...(a.limit ? { limit: a.limit } : {}), by: `this page's solver (${how}), as the report's run` };
      this.solution = a.moves;
      this.goTo(0);
      this.renderAll();
    });
  }

  private setDeal(deal: Deal, rules: Rules): void {
    this.deal = deal;
    this.rules = rules;
    this.vg = Game.after(deal, rules, this.start);
    this.k = 0;
    if (this.mode === 'play') this.pg = Game.after(deal, rules, this.start);
    document.title = `Limited · ${this.title}`;
    this.renderAll();
  }

  private solverClient(): SolverClient {
    return (this.client ??= new SolverClient(this.source));
  }

  // ---------------------------------------------------------------------------------------
  // The page's frame

  private skeleton(): void {
    this.root.innerHTML = `
<header>
  <h1><span class="brand">Limited</span> <span class="deal"></span></h1>
  <p class="sub"></p>
  <div class="verdict" id="verdict"></div>
  <nav class="tabs" role="tablist">
    <button role="tab" data-mode="view" id="tab-view">Watch the solution</button>
    <button role="tab" data-mode="play" id="tab-play">Play</button>
  </nav>
</header>
<section id="board" class="table" aria-label="the table"></section>
<section id="view-panel" class="panel">
  <div class="controls">
    <button id="first" title="the start (Home)">|◀</button><button id="prev" title="back one move (←)">◀</button>
    <button id="next" title="forward one move (→)">▶</button><button id="last" title="the end (End)">▶|</button>
    <button id="auto" title="step through by itself">Auto</button>
    <input type="range" id="slider" min="0" max="0" value="0" aria-label="move">
    <span id="where" class="where"></span>
  </div>
  <div id="move-info" class="moveinfo"></div>
  <ol id="moves" class="movelist"></ol>
</section>
<section id="play-panel" class="panel">
  <div class="controls">
    <button id="undo" title="take back the last move (U)">↶ Undo</button>
    <button id="restart" title="back to the start">⟲ Restart</button>
    <button id="hint" title="the solver plays its next move (H)">Hint</button>
    <span id="played" class="where"></span>
  </div>
  <div id="status" class="status"></div>
  <div id="message" class="message" aria-live="polite"></div>
  <div class="legal-title">Legal moves (or click a card, then where it goes):</div>
  <div id="legal" class="legal"></div>
</section>
<footer>
  <span class="legend">${cardHtml(0x15)} ${cardHtml(0x25)} hearts and diamonds: red, on a striped face · ${cardHtml(0x05)} ${cardHtml(0x35)} spades and clubs: black</span>
  <span>A card on another of its suit one rank higher makes a <b>pair</b> (outlined): its top card may only go home. Keys: ← → step, Home / End, U undo, H hint.</span>
</footer>`;
    for (const b of this.root.querySelectorAll<HTMLButtonElement>('.tabs button')) b.addEventListener('click', () => this.setMode(b.dataset['mode'] as 'view' | 'play'));
    $(this.root, '#first').addEventListener('click', () => this.goTo(0));
    $(this.root, '#prev').addEventListener('click', () => this.goTo(this.k - 1));
    $(this.root, '#next').addEventListener('click', () => this.goTo(this.k + 1));
    $(this.root, '#last').addEventListener('click', () => this.goTo(Infinity));
    $(this.root, '#auto').addEventListener('click', () => this.toggleAuto());
    $<HTMLInputElement>(this.root, '#slider').addEventListener('input', (e) => this.goTo(Number((e.target as HTMLInputElement).value)));
    $(this.root, '#moves').addEventListener('click', (e) => {
      const b = (e.target as HTMLElement).closest<HTMLElement>('[data-k]');
      if (b) this.goTo(Number(b.dataset['k']));
    });
    $(this.root, '#undo').addEventListener('click', () => this.undo());
    $(this.root, '#restart').addEventListener('click', () => this.restart());
    $(this.root, '#hint').addEventListener('click', () => this.hint());
    $(this.root, '#legal').addEventListener('click', (e) => {
      const b = (e.target as HTMLElement).closest<HTMLElement>('[data-move]');
      if (b) this.play(Number(b.dataset['packed']));
    });
    $(this.root, '#board').addEventListener('click', (e) => {
      const p = (e.target as HTMLElement).closest<HTMLElement>('[data-place]');
      if (this.mode === 'play' && p) this.clickPlace(p.dataset['place']!);
    });
    document.addEventListener('keydown', (e) => this.key(e));
  }

  private key(e: KeyboardEvent): void {
    if (e.altKey || e.metaKey || (e.target as HTMLElement).id === 'slider') return;
    const k = e.key;
    if (this.mode === 'view') {
      const to: Record<string, number> = { ArrowLeft: this.k - 1, ArrowRight: this.k + 1, Home: 0, End: Infinity, PageUp: this.k - 10, PageDown: this.k + 10 };
      if (k in to && !e.ctrlKey) {
        e.preventDefault();
        this.goTo(to[k]!);
      }
    } else if ((k === 'u' || k === 'U' || (k === 'z' && e.ctrlKey)) && !e.shiftKey) {
      e.preventDefault();
      this.undo();
    } else if ((k === 'h' || k === 'H') && !e.ctrlKey) {
      e.preventDefault();
      this.hint();
    } else if (k === 'Escape') {
      this.selected = null;
      this.renderBoard();
    }
  }

  private setMode(mode: 'view' | 'play'): void {
    this.mode = mode;
    this.stopAuto();
    if (mode === 'play' && !this.pg) {
      // Play starts where the viewer stands; Undo goes back to the page's start.
      this.pg = Game.after(this.deal, this.rules, this.start);
      for (let i = 0; i < this.k; i++) this.pg.apply(this.solution![i]!);
    }
    this.selected = null;
    this.message = '';
    this.renderAll();
  }

  private setVerdictLine(html: string, kind: string): void {
    const v = $(this.root, '#verdict');
    v.innerHTML = html;
    v.dataset['verdict'] = kind;
  }

  private renderAll(): void {
    $(this.root, '.deal').textContent = this.title;
    const after = this.start.length > 0 ? ` · from the position after ${plural(this.start.length, 'move')}` : '';
    $(this.root, '.sub').textContent = `rules ${formatRules(this.rules)} · size ${formatSize(this.deal.size)}${after}`;
    if (this.verdict)
      this.setVerdictLine(
        `<b>${esc(verdictText(this.verdict, this.solution ? this.solution.length : null))}</b> <span class="by">· ${esc(this.verdict.by)}</span>`,
        this.verdict.verdict,
      );
    else if (this.note) this.setVerdictLine(esc(this.note), 'moves');
    this.root.dataset['mode'] = this.mode;
    for (const b of this.root.querySelectorAll<HTMLButtonElement>('.tabs button')) b.setAttribute('aria-selected', String(b.dataset['mode'] === this.mode));
    $(this.root, '#tab-view').textContent = this.solution ? 'Watch the solution' : 'The deal';
    this.renderMoveList();
    this.render();
  }

  private render(): void {
    this.renderBoard();
    if (this.mode === 'view') this.renderViewer();
    else this.renderPlay();
  }

  private renderBoard(): void {
    const board = $(this.root, '#board');
    if (this.mode === 'view') {
      const sol = this.solution ?? [];
      board.innerHTML = boardHtml(this.vg, { last: this.k > 0 ? sol[this.k - 1]! : null, next: this.k < sol.length ? sol[this.k]! : null });
    } else {
      const g = this.pg!;
      const targets = new Set<string>();
      if (this.selected) for (const m of this.movesFrom(this.selected)) targets.add(dstPlace(m));
      const hist = g.history();
      board.innerHTML = boardHtml(g, { last: hist.length > 0 ? hist[hist.length - 1]! : null, selected: this.selected, targets });
    }
    // For the browser tests and the curious: where the table stands, and the move that led here.
    const hist = this.mode === 'view' ? (this.solution ?? []).slice(0, this.k) : this.pg!.history();
    board.dataset['moves'] = String(hist.length);
    board.dataset['last'] = hist.length > 0 ? formatMove(hist[hist.length - 1]!) : '';
  }

  // ---------------------------------------------------------------------------------------
  // Watch: step through the solution

  private renderMoveList(): void {
    const sol = this.solution ?? [];
    const items = sol.map((m, i) => `<li><button data-k="${i + 1}" data-move="${esc(formatMove(m))}">${esc(moveText(m))}</button></li>`);
    $(this.root, '#moves').innerHTML = items.join('');
    const slider = $<HTMLInputElement>(this.root, '#slider');
    slider.max = String(sol.length);
    for (const id of ['#first', '#prev', '#next', '#last', '#auto']) $<HTMLButtonElement>(this.root, id).disabled = sol.length === 0;
    slider.disabled = sol.length === 0;
  }

  private goTo(target: number): void {
    const sol = this.solution ?? [];
    const k = Math.max(0, Math.min(sol.length, target));
    while (this.k < k) this.vg.apply(sol[this.k++]!);
    while (this.k > k) {
      this.vg.undo();
      this.k--;
    }
    if (this.k === sol.length) this.stopAuto();
    this.render();
  }

  private renderViewer(): void {
    const sol = this.solution ?? [];
    $<HTMLInputElement>(this.root, '#slider').value = String(this.k);
    $(this.root, '#where').textContent = sol.length > 0 ? `move ${this.k} of ${sol.length}` : '';
    const info = $(this.root, '#move-info');
    if (sol.length === 0) {
      info.innerHTML = this.verdict
        ? `No solution to step through: ${esc(verdictText(this.verdict, null).toLowerCase())}. Try to win it yourself under <b>Play</b>.`
        : '';
    } else if (this.k === 0) {
      info.innerHTML = `The deal as dealt${this.start.length > 0 ? ' (after the moves given)' : ''}. Next: <code>${esc(moveText(sol[0]!))}</code> — press ▶ or →.`;
    } else {
      const m = sol[this.k - 1]!;
      const done = this.vg.isWon() ? ' <b class="won">All cards are home: won.</b>' : '';
      info.innerHTML = `<span class="num">${this.k}.</span> <code class="move" data-move="${esc(formatMove(m))}">${esc(moveText(m))}</code> ${esc(moveWords(this.vg, m))}.${done}`;
    }
    for (const b of this.root.querySelectorAll<HTMLElement>('#moves button')) b.classList.toggle('current', Number(b.dataset['k']) === this.k);
    const cur = this.root.querySelector<HTMLElement>('#moves button.current');
    if (cur) {
      const list = $(this.root, '#moves');
      const top = cur.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - cur.offsetHeight) list.scrollTop = top - list.clientHeight / 2;
    }
  }

  private toggleAuto(): void {
    if (this.auto !== null) return this.stopAuto();
    if (this.k >= (this.solution ?? []).length) this.goTo(0);
    this.auto = window.setInterval(() => this.goTo(this.k + 1), 700);
    $(this.root, '#auto').classList.add('on');
  }

  private stopAuto(): void {
    if (this.auto !== null) window.clearInterval(this.auto);
    this.auto = null;
    $(this.root, '#auto').classList.remove('on');
  }

  // ---------------------------------------------------------------------------------------
  // Play

  private legalMoves(): PackedMove[] {
    const g = this.pg!;
    const n = g.generate(this.buf, GEN_ALL);
    return Array.from(this.buf.subarray(0, n));
  }

  /** The legal moves whose card is taken from a place (`stock`: the draw or the redeal). */
  private movesFrom(place: string): PackedMove[] {
    // The redeal is shown taken from the pile it makes, but a player asks for it at the stock.
    return this.legalMoves().filter((m) => (moveSrc(m) === SRC_REDEAL ? 'stock' : srcPlace(m)) === place);
  }

  private clickPlace(place: string): void {
    if (this.selected) {
      const m = this.movesFrom(this.selected).find((x) => dstPlace(x) === place);
      if (m !== undefined) return this.play(m);
      if (place === this.selected) {
        this.selected = null;
        return this.renderBoard();
      }
    }
    const moves = this.movesFrom(place);
    this.selected = null;
    if (moves.length === 1) return this.play(moves[0]!);
    if (moves.length === 0) {
      // A foundation or a space takes cards but gives none: nothing to say.
      if (place !== 'f' && !(place.startsWith('c') && this.pg!.len[Number(place.slice(1)) - 1] === 0)) this.say(this.noMoveWhy(place));
      return this.renderBoard();
    }
    this.selected = place;
    this.say('Now click where it goes (a highlighted place).');
    this.renderBoard();
  }

  private noMoveWhy(place: string): string {
    const g = this.pg!;
    if (g.aceIsFree()) return 'An ace is free: aces go up first (they are compulsory).';
    if (place === 'stock') return 'The stock is out.';
    if (place === 'n') return g.phase === 2 && g.privLen > 0 ? 'The fifth card may be turned only when no privileged card can move.' : 'The pile is out.';
    return 'That card has no legal move now.';
  }

  private play(m: PackedMove): void {
    const g = this.pg!;
    if (!this.legalMoves().includes(m)) return;
    g.apply(m);
    this.selected = null;
    this.say(`Played ${moveText(m)}.`);
    this.renderPlay();
    this.renderBoard();
  }

  private undo(): void {
    const g = this.pg;
    if (!g || g.moveCount === 0) return this.say('Nothing to undo: this is the start.');
    g.undo();
    this.selected = null;
    this.hintWanted = false;
    this.say('Took back a move.');
    this.render();
  }

  private restart(): void {
    this.pg = Game.after(this.deal, this.rules, this.start);
    this.selected = null;
    this.hintWanted = false;
    this.say('Back to the start.');
    this.render();
  }

  private hint(): void {
    const g = this.pg;
    if (!g || this.mode !== 'play') return;
    if (g.isWon() || this.legalMoves().length === 0) return this.say('The game is over: no hint.');
    const a = this.answers.get(this.positionKey());
    if (!a) {
      this.hintWanted = true;
      return this.say('Hint: asking the solver…');
    }
    this.hintWanted = false;
    if (a.verdict === 'won' && a.moves && a.moves.length > 0) {
      const m = a.moves[0]!;
      this.play(m);
      this.say(`Hint played: ${moveText(m)} (the solver's winning line goes on for ${plural(a.moves.length - 1, 'more move')}).`);
    } else {
      this.say(a.verdict === 'unsolvable' ? 'No hint: the solver proved this position lost. Undo to find a better line.' : 'No hint: the solver found no win within its budget.');
    }
  }

  private say(text: string): void {
    this.message = text;
    const el = this.root.querySelector<HTMLElement>('#message');
    if (el) el.textContent = text;
  }

  /** The moves from the deal to the player's position: the solver's `from`, and the key of its answers. */
  private fromMoves(): PackedMove[] {
    return [...this.start, ...this.pg!.history()];
  }

  private positionKey(): string {
    return this.fromMoves().join(',');
  }

  private renderPlay(): void {
    const g = this.pg!;
    $(this.root, '#played').textContent = `${plural(g.moveCount, 'move')} played · ${g.home} of ${g.total} cards home`;
    $(this.root, '#message').textContent = this.message;
    const legal = this.legalMoves();
    $(this.root, '#legal').innerHTML = legal
      .map((m) => `<button data-move="${esc(formatMove(m))}" data-packed="${m}">${esc(moveText(m))}</button>`)
      .join('');
    $<HTMLButtonElement>(this.root, '#undo').disabled = g.moveCount === 0;
    const status = $(this.root, '#status');
    const set = (kind: string, html: string): void => {
      status.dataset['verdict'] = kind;
      status.innerHTML = html;
    };
    if (g.isWon()) return set('done', `<span class="icon">★</span> <b>You won!</b> All ${g.total} cards are home.`);
    if (legal.length === 0) return set('dead', `<span class="icon">✖</span> <b>No legal move left:</b> the game is lost (${g.home} of ${g.total} home). Undo to try another line.`);
    const key = this.positionKey();
    const known = this.answers.get(key);
    if (known) return this.showAnswer(known);
    set('pending', `<span class="spin"></span> The solver is thinking (${esc(budgetText(this.solverSettings))})…`);
    this.solverClient().solve(this.deal, this.rules, this.fromMoves(), this.solverSettings, (a) => {
      this.remember(key, a);
      if (this.mode === 'play' && this.positionKey() === key) {
        this.showAnswer(a);
        if (this.hintWanted) this.hint();
      }
    });
  }

  /** Keeps an answer, and for a win the position after each move of its line (won too, with the rest of the line). */
  private remember(key: string, a: WorkerAnswer): void {
    this.answers.set(key, a);
    if (a.verdict !== 'won' || !a.moves) return;
    let k = key;
    for (let i = 1; i <= a.moves.length; i++) {
      k = k === '' ? String(a.moves[i - 1]) : `${k},${a.moves[i - 1]}`;
      if (!this.answers.has(k)) this.answers.set(k, { ...a, moves: a.moves.slice(i) });
    }
  }

  private showAnswer(a: WorkerAnswer): void {
    const status = $(this.root, '#status');
    status.dataset['verdict'] = a.verdict;
    if (a.error) {
      status.innerHTML = `<span class="icon">?</span> The solver failed: ${esc(a.error)}`;
      return;
    }
    status.innerHTML =
      a.verdict === 'won'
        ? `<span class="icon">✔</span> <b>Still winnable.</b> The solver has a win in ${plural(a.moves!.length, 'more move')} from here.`
        : a.verdict === 'unsolvable'
          ? `<span class="icon">✖</span> <b>Lost:</b> the solver proved that no line wins from here (${a.proof === 'locks' ? 'cards that block one another' : 'an exhaustive search'}). Undo to find where it went wrong.`
          : `<span class="icon">?</span> <b>Unknown:</b> the solver could not decide within its budget (${esc(budgetText(this.solverSettings))}).`;
  }
}

