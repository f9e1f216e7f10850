/**
 * Play: a game played by clicks (a card, then where it goes) or from the list of legal moves,
 * with undo, restart and hints, and the solver's verdict on each position as it is reached.
 */
import { type Deal, type PackedMove, type Rules, GEN_ALL, Game, MAX_MOVES, SRC_REDEAL, formatMove, moveSrc, plural } from '../game/index.js';
import { type SolveRequest } from '../solver/index.js';
import { boardHtml, dstPlace, srcPlace } from './board.js';
import { type WorkerAnswer } from './data.js';
import { $ } from './skeleton.js';
import { type SolverClient } from './solver-client.js';
import { budgetText, esc, moveText } from './words.js';

/** What Play takes from the page it is on. */
export interface PlayHost {
  /** The deal, its rules, and the moves from the deal to the page's first position. */
  position(): { readonly deal: Deal; readonly rules: Rules; readonly start: readonly PackedMove[] };
  /** The request of the solver beside the player. */
  request(): SolveRequest;
  /** Whether Play is the panel shown. */
  playing(): boolean;
  solver(): SolverClient;
  /** Draws the table again (a selection changed), or the whole page (a move changed the position). */
  renderBoard(): void;
  render(): void;
}

export class Play {
  /** The player's game (its history: the moves played since the page's start); null until Play is opened. */
  g: Game | null = null;
  /** The place whose card was clicked, waiting for where it goes. */
  selected: string | null = null;
  private message = '';
  private hintWanted = false;
  private readonly answers = new Map<string, WorkerAnswer>();
  private readonly buf = new Int32Array(MAX_MOVES);

  constructor(
    private readonly root: HTMLElement,
    private readonly host: PlayHost,
  ) {}

  /** A new game from the page's first position, nothing selected, nothing said. */
  begin(g: Game | null): void {
    this.g = g;
    this.selected = null;
    this.message = '';
  }

  /** The table, with the last move played, the place selected and where its card may go. */
  boardHtml(): string {
    const g = this.g!;
    const targets = new Set<string>();
    if (this.selected) for (const m of this.movesFrom(this.selected)) targets.add(dstPlace(m));
    const hist = g.history();
    return boardHtml(g, { last: hist.length > 0 ? hist[hist.length - 1]! : null, selected: this.selected, targets });
  }

  private legalMoves(): PackedMove[] {
    const g = this.g!;
    const n = g.generate(this.buf, GEN_ALL);
    return Array.from(this.buf.subarray(0, n));
  }

  /** The legal moves whose card is taken from a place (`stock`: the draw or the redeal). */
  private movesFrom(place: string): PackedMove[] {
    // The redeal is shown taken from the pile it makes, but a player asks for it at the stock.
    return this.legalMoves().filter((m) => (moveSrc(m) === SRC_REDEAL ? 'stock' : srcPlace(m)) === place);
  }

  clickPlace(place: string): void {
    if (this.selected) {
      const m = this.movesFrom(this.selected).find((x) => dstPlace(x) === place);
      if (m !== undefined) return this.play(m);
      if (place === this.selected) {
        this.selected = null;
        return this.host.renderBoard();
      }
    }
    const moves = this.movesFrom(place);
    this.selected = null;
    if (moves.length === 1) return this.play(moves[0]!);
    if (moves.length === 0) {
      // A foundation or a space takes cards but gives none: nothing to say.
      if (place !== 'f' && !(place.startsWith('c') && this.g!.len[Number(place.slice(1)) - 1] === 0)) this.say(this.noMoveWhy(place));
      return this.host.renderBoard();
    }
    this.selected = place;
    this.say('Now click where it goes (a highlighted place).');
    this.host.renderBoard();
  }

  /** Escape: the selection dropped. */
  deselect(): void {
    this.selected = null;
    this.host.renderBoard();
  }

  private noMoveWhy(place: string): string {
    const g = this.g!;
    if (g.aceIsFree()) return 'An ace is free: aces go up first (they are compulsory).';
    if (place === 'stock') return 'The stock is out.';
    if (place === 'n') return g.phase === 2 && g.privLen > 0 ? 'The fifth card may be turned only when no privileged card can move.' : 'The pile is out.';
    return 'That card has no legal move now.';
  }

  play(m: PackedMove): void {
    const g = this.g!;
    if (!this.legalMoves().includes(m)) return;
    g.apply(m);
    this.selected = null;
    this.say(`Played ${moveText(m)}.`);
    this.render();
    this.host.renderBoard();
  }

  undo(): void {
    const g = this.g;
    if (!g || g.moveCount === 0) return this.say('Nothing to undo: this is the start.');
    g.undo();
    this.selected = null;
    this.hintWanted = false;
    this.say('Took back a move.');
    this.host.render();
  }

  restart(): void {
    const { deal, rules, start } = this.host.position();
    this.g = Game.after(deal, rules, start);
    this.selected = null;
    this.hintWanted = false;
    this.say('Back to the start.');
    this.host.render();
  }

  hint(): void {
    const g = this.g;
    if (!g || !this.host.playing()) return;
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
    return [...this.host.position().start, ...this.g!.history()];
  }

  private positionKey(): string {
    return this.fromMoves().join(',');
  }

  /** The panel: the moves played, the legal moves, and the solver's verdict on the position (asked for when not known). */
  render(): void {
    const g = this.g!;
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
    set('pending', `<span class="spin"></span> The solver is thinking (${esc(budgetText(this.host.request()))})…`);
    const { deal, rules } = this.host.position();
    this.host.solver().solve(deal, rules, this.fromMoves(), this.host.request(), (a) => {
      this.remember(key, a);
      if (this.host.playing() && this.positionKey() === key) {
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
          : `<span class="icon">?</span> <b>Unknown:</b> the solver could not decide within its budget (${esc(budgetText(this.host.request()))}).`;
  }
}
