/**
 * Play: a game played by clicks or drags (a card, then where it goes), by keys, or from the list
 * of legal moves, with undo, restart and hints, and the solver's verdict on each position when
 * the player wants it: never, on request ("Still winnable?"), or after every move.
 *
 * Without perfect information (the default of a page to play) nothing names a card before it
 * is turned: a draw is "draw", the fifth card is turned by the player (rule 7: it may lose) and
 * only then shown in its slot, and no verdict counts the moves of the solver's line.
 */
import { type Deal, type PackedMove, type Rules, GEN_ALL, Game, MAX_MOVES, SRC_DRAW, SRC_FIFTH, SRC_REDEAL, formatMove, moveSrc, plural } from '../game/index.js';
import { type SolveRequest } from '../solver/index.js';
import { boardHtml, cardName, dstPlace, srcPlace } from './board.js';
import { type WorkerAnswer } from './data.js';
import { $ } from './skeleton.js';
import { type SolverClient } from './solver-client.js';
import { budgetText, esc, moveText } from './words.js';

/** When the solver's verdict shows: never, when asked for, after every move. */
export type VerdictMode = 'off' | 'ask' | 'always';

/** Seconds the page's solver goes on after its budget when a position is still undecided. */
export const PATIENCE_SECONDS = 60;

/** What Play takes from the page it is on. */
export interface PlayHost {
  /** The deal, its rules, the moves from the deal to the page's first position, and a name for the deal that tells it from the others opened. */
  position(): { readonly deal: Deal; readonly rules: Rules; readonly start: readonly PackedMove[]; readonly id: string };
  /** The request of the solver beside the player. */
  request(): SolveRequest;
  /** Whether Play is the panel shown. */
  playing(): boolean;
  /** The player's choices: when verdicts show, and whether the stock's cards may be named. */
  verdicts(): VerdictMode;
  perfect(): boolean;
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
  /** The fifth card turned by the player in this position (shown in its slot; its moves offered). */
  private fifthTurned = false;
  /** The fifth card turned had no place: the game is over (Undo turns it back). */
  private turnedLost = false;
  /** The position whose verdict the player asked for (verdicts on request). */
  private asked: string | null = null;
  private message = '';
  private hintWanted = false;
  private readonly answers = new Map<string, WorkerAnswer>();
  /** The position the solver is searching. */
  private inFlight: string | null = null;
  private readonly buf = new Int32Array(MAX_MOVES);

  constructor(
    private readonly root: HTMLElement,
    private readonly host: PlayHost,
  ) {}

  /** A new game from the page's first position, nothing selected, nothing said. */
  begin(g: Game | null): void {
    this.g = g;
    this.selected = null;
    this.fifthTurned = this.turnedLost = false;
    this.hintWanted = false;
    this.message = '';
  }

  /** Whether the fifth card may be drawn face up: turned, or perfect information. */
  private fifthShown(): boolean {
    return this.fifthTurned || this.host.perfect();
  }

  /** Whether the game is over: won, no legal move, or an unplayable fifth card turned. */
  over(): boolean {
    const g = this.g;
    return !g || g.isWon() || this.turnedLost || (this.legalMoves().length === 0 && g.blindTurn() === 'none');
  }

  /** The table, with the last move played, the place selected and where its card may go. */
  boardHtml(): string {
    const g = this.g!;
    const targets = new Set<string>();
    if (this.selected) for (const m of this.movesFrom(this.selected)) targets.add(dstPlace(m));
    const playable = new Set<string>();
    if (!this.turnedLost) for (const m of this.legalMoves()) playable.add(moveSrc(m) === SRC_REDEAL ? 'stock' : srcPlace(m));
    if (!this.turnedLost && g.blindTurn() !== 'none') playable.add('n');
    const hist = g.history();
    return boardHtml(g, {
      last: hist.length > 0 ? hist[hist.length - 1]! : null, selected: this.selected, targets, playable, fifth: this.fifthShown() || this.turnedLost,
      interactive: true,
    });
  }

  private legalMoves(): PackedMove[] {
    const g = this.g!;
    if (this.turnedLost) return [];
    const n = g.generate(this.buf, GEN_ALL);
    return Array.from(this.buf.subarray(0, n));
  }

  /** The legal moves whose card is taken from a place (`stock`: the draw or the redeal). */
  movesFrom(place: string): PackedMove[] {
    // The redeal is shown taken from the pile it makes, but a player asks for it at the stock.
    return this.legalMoves().filter((m) => (moveSrc(m) === SRC_REDEAL ? 'stock' : srcPlace(m)) === place);
  }

  /** Whether a card may be picked up at a place (for a drag). */
  canPick(place: string): boolean {
    return this.movesFrom(place).length > 0 || (place === 'n' && this.g!.blindTurn() !== 'none');
  }

  clickPlace(place: string): void {
    if (this.over()) return;
    if (this.selected) {
      const m = this.movesFrom(this.selected).find((x) => dstPlace(x) === place);
      if (m !== undefined) return this.play(m);
      if (place === this.selected) return this.deselect();
    }
    if (place === 'n' && !this.fifthShown() && this.g!.blindTurn() !== 'none') return this.turnFifth();
    const moves = this.movesFrom(place);
    this.selected = null;
    if (moves.length === 1) return this.play(moves[0]!);
    if (moves.length === 0) {
      // A foundation or a space takes cards but gives none: nothing to say.
      if (place !== 'f' && !(place.startsWith('c') && this.g!.len[Number(place.slice(1)) - 1] === 0)) this.say(this.noMoveWhy(place));
      else this.say('');
      return this.host.renderBoard();
    }
    this.selected = place;
    this.say('Now click where it goes (a highlighted place), or drag it there.');
    this.host.renderBoard();
  }

  /** A drag from one place dropped on another: the move between them, if legal. */
  drop(from: string, to: string): void {
    if (this.over()) return;
    if (from === 'n' && !this.fifthShown() && this.g!.blindTurn() !== 'none') {
      // The fifth card turned by the drag: played where it was dropped if it may go there.
      this.turnFifth();
      if (this.turnedLost) return;
    }
    const m = this.movesFrom(from).find((x) => dstPlace(x) === to);
    if (m !== undefined) return this.play(m);
    this.selected = null;
    this.say(from === to ? '' : 'That card cannot go there.');
    this.host.renderBoard();
  }

  /** Rule 7: the fifth card turned. Played at once where it has one place; chosen by the player where it has two; the end where it has none. */
  private turnFifth(): void {
    const g = this.g!;
    const how = g.blindTurn();
    this.fifthTurned = true;
    const card = cardName(g.fifthCard());
    if (how === 'lose') {
      this.turnedLost = true;
      this.selected = null;
      this.say(`The fifth card is the ${card}, which can go nowhere: the game is lost. Undo to turn it back.`);
      return this.host.render();
    }
    const moves = this.movesFrom('n');
    if (moves.length === 1) return this.play(moves[0]!);
    this.selected = 'n';
    this.say(`The fifth card is the ${card}: click where it goes.`);
    this.host.render();
  }

  /** A card picked up by a drag: its places marked. */
  select(place: string): void {
    if (place === 'n' && !this.fifthShown()) return;
    this.selected = place;
    this.host.renderBoard();
  }

  /** Escape, or a second click on the selection: the selection dropped, and its prompt with it. */
  deselect(): void {
    if (!this.selected) return;
    this.selected = null;
    this.say('');
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
    this.fifthTurned = false;
    this.say(`Played ${this.moveLabel(m, true)}.`);
    this.host.render();
  }

  /** A legal-move button's words: a draw names no card, and the fifth card's moves only once it is turned, unless perfect information. */
  private moveLabel(m: PackedMove, played = false): string {
    if (played || this.host.perfect()) return moveText(m);
    return moveSrc(m) === SRC_DRAW ? 'draw' : moveText(m);
  }

  undo(): void {
    const g = this.g;
    if (!g) return;
    if (this.turnedLost || (this.fifthTurned && !this.host.perfect())) {
      // Turning the fifth card is no move of the engine's: Undo turns it back.
      this.fifthTurned = this.turnedLost = false;
      this.selected = null;
      this.say('Turned the fifth card back.');
      return this.host.render();
    }
    if (g.moveCount === 0) return this.say('Nothing to undo: this is the start.');
    g.undo();
    this.selected = null;
    this.hintWanted = false;
    this.say('Took back a move.');
    this.host.render();
  }

  restart(): void {
    const { deal, rules, start } = this.host.position();
    this.begin(Game.after(deal, rules, start));
    this.say('Back to the start.');
    this.host.render();
  }

  hint(): void {
    const g = this.g;
    if (!g || !this.host.playing()) return;
    if (this.over()) return this.say('The game is over: no hint.');
    const a = this.answers.get(this.positionKey());
    if (!a || (!a.final && !a.error)) {
      this.hintWanted = true;
      this.askSolver();
      return this.say('Hint: asking the solver…');
    }
    this.hintWanted = false;
    if (a.verdict === 'won' && a.moves && a.moves.length > 0) {
      const m = a.moves[0]!;
      this.play(m);
      this.say(`Hint played: ${moveText(m)}${this.host.perfect() ? ` (the solver's winning line goes on for ${plural(a.moves.length - 1, 'more move')})` : ''}.`);
    } else {
      this.say(a.verdict === 'unsolvable' ? 'No hint: the solver proved this position lost. Undo to find a better line.' : 'No hint: the solver found no win within its time.');
    }
  }

  /** "Still winnable?": the verdict of this position shown (verdicts on request). */
  ask(): void {
    this.asked = this.positionKey();
    this.askSolver();
    this.render();
  }

  private say(text: string): void {
    this.message = text;
    const el = this.root.querySelector<HTMLElement>('#message');
    if (el) el.textContent = text;
  }

  /** The moves from the deal to the player's position: the solver's `from`. */
  private fromMoves(): PackedMove[] {
    return [...this.host.position().start, ...this.g!.history()];
  }

  /** The key of the position's answers: the deal's name and the moves. */
  private positionKey(): string {
    return `${this.host.position().id}|${this.fromMoves().join(',')}`;
  }

  /** The solver asked about this position, unless it has answered or is at it. */
  private askSolver(): void {
    const key = this.positionKey();
    if (this.answers.has(key) || this.over()) return;
    const { deal, rules } = this.host.position();
    // The search of the position asked before ends here: forget that it was asked, so that it is asked again if the player goes back.
    if (this.inFlight !== null && !this.answers.get(this.inFlight)?.final) this.answers.delete(this.inFlight);
    this.inFlight = key;
    // A placeholder: asked, not answered (so that it is asked once).
    this.answers.set(key, { id: 0, final: false, verdict: 'unknown', proof: null, limit: null, moves: null, nodes: 0, seconds: 0 });
    this.host.solver().solve(
      deal, rules, this.fromMoves(), this.host.request(),
      (a) => {
        this.remember(key, a);
        if (this.g && this.positionKey() === key) {
          if (this.host.playing()) this.renderStatus();
          if (a.final && this.hintWanted) this.hint();
        }
      },
      PATIENCE_SECONDS,
    );
  }

  /** The panel: the moves played, the legal moves, and the solver's verdict on the position as the player wants it. */
  render(): void {
    const g = this.g!;
    $(this.root, '#played').textContent = `${plural(g.moveCount, 'move')} played · ${g.home} of ${g.total} cards home`;
    $(this.root, '#message').textContent = this.message;
    const legal = this.legalMoves();
    const shown = this.fifthShown() ? legal : legal.filter((m) => moveSrc(m) !== SRC_FIFTH);
    const buttons = shown.map((m) => {
      const label = this.moveLabel(m);
      const words = moveSrc(m) === SRC_DRAW && !this.host.perfect() ? 'draw' : formatMove(m);
      return `<button data-move="${esc(words)}" data-i="${legal.indexOf(m)}">${esc(label)}</button>`;
    });
    if (!this.fifthShown() && !this.turnedLost && g.blindTurn() !== 'none') buttons.push('<button data-turn="1">turn the fifth card</button>');
    $(this.root, '#legal').innerHTML = buttons.join('');
    $<HTMLButtonElement>(this.root, '#undo').disabled = g.moveCount === 0 && !this.fifthTurned && !this.turnedLost;
    $<HTMLButtonElement>(this.root, '#hint').disabled = this.over();
    if (this.host.verdicts() !== 'off' && this.host.playing()) this.askSolver();
    this.renderStatus();
  }

  /** The legal move behind a button of the list. */
  legalAt(i: number): PackedMove | undefined {
    return this.legalMoves()[i];
  }

  turnFromList(): void {
    if (!this.over() && this.g!.blindTurn() !== 'none') this.turnFifth();
  }

  /** Keeps an answer, and for a win the position after each move of its line (won too, with the rest of the line). */
  private remember(key: string, a: WorkerAnswer): void {
    this.answers.set(key, a);
    if (a.verdict !== 'won' || !a.moves) return;
    let k = key;
    for (let i = 1; i <= a.moves.length; i++) {
      k = k.endsWith('|') ? `${k}${a.moves[i - 1]}` : `${k},${a.moves[i - 1]}`;
      if (!this.answers.get(k)?.final) this.answers.set(k, { ...a, moves: a.moves.slice(i) });
    }
  }

  private renderStatus(): void {
    const g = this.g!;
    const status = $(this.root, '#status');
    const set = (kind: string, html: string): void => {
      status.dataset['verdict'] = kind;
      status.innerHTML = html;
    };
    if (g.isWon()) return set('done', `<span class="icon">★</span> <b>You won!</b> All ${g.total} cards are home.`);
    if (this.over())
      return set('dead', `<span class="icon">✖</span> <b>No legal move left:</b> the game is lost (${g.home} of ${g.total} home). Undo to try another line.`);
    const mode = this.host.verdicts();
    const key = this.positionKey();
    if (mode === 'off') return set('off', '');
    if (mode === 'ask' && this.asked !== key) return set('hidden', '<button id="ask">Still winnable?</button>');
    const a = this.answers.get(key);
    if (!a || a.id === 0) return set('pending', `<span class="spin"></span> The solver is thinking (${esc(budgetText(this.host.request()))})…`);
    if (a.error) return set('unknown', `<span class="icon">?</span> The solver failed: ${esc(a.error)}`);
    const perfect = this.host.perfect();
    if (a.verdict === 'won')
      return set('won', `<span class="icon">✔</span> <b>Still winnable.</b> The solver has a win${perfect ? ` in ${plural(a.moves!.length, 'more move')}` : ''} from here.`);
    if (a.verdict === 'unsolvable')
      return set(
        'unsolvable',
        `<span class="icon">✖</span> <b>Lost:</b> the solver proved that no line wins from here (${a.proof === 'locks' ? 'cards that block one another' : 'an exhaustive search'}). Undo to find where it went wrong.`,
      );
    if (!a.final) return set('unknown', `<span class="icon">?</span> <b>Unknown so far</b> (${esc(budgetText(this.host.request()))}) <span class="spin"></span> thinking on…`);
    const r = this.host.request();
    const within = r.maxNodes === undefined && r.maxSeconds !== undefined ? `${Math.max(r.maxSeconds, PATIENCE_SECONDS)} s` : `its budget (${esc(budgetText(r))})`;
    return set('unknown', `<span class="icon">?</span> <b>Unknown:</b> the solver could not decide within ${within}.`);
  }

  /** Forgets every answer (another deal). */
  forget(): void {
    this.answers.clear();
    this.asked = null;
    this.inFlight = null;
  }
}
