/** Watch: a solution stepped through on a game of its own, with the move list, the slider and Auto. */
import { type Deal, type PackedMove, type Rules, Game, formatMove } from '../game/index.js';
import { boardHtml } from './board.js';
import { type PageVerdict } from './data.js';
import { $ } from './skeleton.js';
import { esc, moveText, moveWords, verdictText } from './words.js';

export class Viewer {
  /** The position shown: after the page's start and the first `k` moves of the solution. */
  g!: Game;
  k = 0;
  /** Whether the solution may be shown (perfect information): else its moves, which name the stock's cards, are not written. */
  shown = true;
  private auto: number | null = null;

  /** `changed` draws the page again after a step. */
  constructor(
    private readonly root: HTMLElement,
    public solution: readonly PackedMove[] | null,
    private readonly changed: () => void,
  ) {}

  /** Back to the start: the deal after the page's `start` moves. */
  reset(deal: Deal, rules: Rules, start: readonly PackedMove[]): void {
    this.g = Game.after(deal, rules, start);
    this.k = 0;
  }

  /** The moves of the solution played so far. */
  played(): readonly PackedMove[] {
    return (this.solution ?? []).slice(0, this.k);
  }

  /** The table, with the last move played and the next one marked. */
  boardHtml(): string {
    const sol = this.shown ? (this.solution ?? []) : [];
    return boardHtml(this.g, { last: this.k > 0 ? sol[this.k - 1]! : null, next: this.k < sol.length ? sol[this.k]! : null });
  }

  renderMoveList(): void {
    const sol = this.shown ? (this.solution ?? []) : [];
    const items = sol.map((m, i) => `<li><button data-k="${i + 1}" data-move="${esc(formatMove(m))}">${esc(moveText(m))}</button></li>`);
    $(this.root, '#moves').innerHTML = items.join('');
    const slider = $<HTMLInputElement>(this.root, '#slider');
    slider.max = String(sol.length);
    for (const id of ['#first', '#prev', '#next', '#last', '#auto']) $<HTMLButtonElement>(this.root, id).disabled = sol.length === 0;
    slider.disabled = sol.length === 0;
  }

  goTo(target: number): void {
    const sol = this.shown ? (this.solution ?? []) : [];
    const k = Math.max(0, Math.min(sol.length, target));
    while (this.k < k) this.g.apply(sol[this.k++]!);
    while (this.k > k) {
      this.g.undo();
      this.k--;
    }
    if (this.k === sol.length) this.stopAuto();
    this.changed();
  }

  /** The panel: where the viewer stands, the move just played in words, the current move in the list. */
  render(verdict: PageVerdict | null, fromPosition: boolean): void {
    const sol = this.shown ? (this.solution ?? []) : [];
    $<HTMLInputElement>(this.root, '#slider').value = String(this.k);
    $(this.root, '#where').textContent = sol.length > 0 ? `move ${this.k} of ${sol.length}` : '';
    const info = $(this.root, '#move-info');
    if (sol.length === 0) {
      info.innerHTML = verdict && this.shown
        ? `No solution to step through: ${esc(verdictText(verdict, null).toLowerCase())}. Try to win it yourself under <b>Play</b>.`
        : '';
    } else if (this.k === 0) {
      info.innerHTML = `The deal as dealt${fromPosition ? ' (after the moves given)' : ''}. Next: <code>${esc(moveText(sol[0]!))}</code> — press ▶ or →.`;
    } else {
      const m = sol[this.k - 1]!;
      const done = this.g.isWon() ? ' <b class="won">All cards are home: won.</b>' : '';
      info.innerHTML = `<span class="num">${this.k}.</span> <code class="move" data-move="${esc(formatMove(m))}">${esc(moveText(m))}</code> ${esc(moveWords(this.g, m))}.${done}`;
    }
    for (const b of this.root.querySelectorAll<HTMLElement>('#moves button')) b.classList.toggle('current', Number(b.dataset['k']) === this.k);
    const cur = this.root.querySelector<HTMLElement>('#moves button.current');
    if (cur) {
      const list = $(this.root, '#moves');
      const top = cur.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - cur.offsetHeight) list.scrollTop = top - list.clientHeight / 2;
    }
  }

  toggleAuto(): void {
    if (this.auto !== null) return this.stopAuto();
    if (this.k >= (this.solution ?? []).length) this.goTo(0);
    this.auto = window.setInterval(() => this.goTo(this.k + 1), 700);
    $(this.root, '#auto').classList.add('on');
  }

  stopAuto(): void {
    if (this.auto !== null) window.clearInterval(this.auto);
    this.auto = null;
    $(this.root, '#auto').classList.remove('on');
  }
}
