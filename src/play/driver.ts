import { type Card } from '../game/cards.js';
import { type Deal } from '../game/deal.js';
import { formatMove } from '../game/notation.js';
import { type Rules, type Size, sizeEqual } from '../game/rules.js';
import { Game, type PackedMove, MAX_MOVES, SRC_DRAW, SRC_FIFTH } from '../game/state.js';
import { type Player } from './player.js';
import { type PileMemory, BLIND_FIFTH, STOP, TableView } from './view.js';

/**
 * How a game ended:
 *   won      every card home
 *   stopped  the player stopped (STOP): no move it would play, or none at all
 *   blind    the fifth card was turned blind and had no place (PileMemory 'forgotten')
 *   cap      the move cap was reached (a player that loops; never seen with the built-in ones)
 */
export type PlayEnd = 'won' | 'stopped' | 'blind' | 'cap';

export interface PlayOptions {
  /** Seed passed to `player.reset` (default 0). */
  readonly seed?: number;
  /** Does the player remember the pile in the second deal? (default 'remembered'; see view.ts) */
  readonly pile?: PileMemory;
  /**
   * Check every chosen move against the view's legal moves (default true; one move generation
   * per move). The built-in players are checked by the tests, so a batch may turn it off.
   */
  readonly check?: boolean;
  /** Keep the moves played in `PlayResult.history` (default false). */
  readonly record?: boolean;
  /** Stop after this many moves (default 2000). */
  readonly maxMoves?: number;
}

export interface PlayResult {
  readonly won: boolean;
  /** Cards on the foundations at the end. */
  readonly home: number;
  readonly total: number;
  /** Moves played (a blind turn that loses is not a move: the game ends there). */
  readonly moves: number;
  readonly end: PlayEnd;
  /** Reached the second deal. */
  readonly redealt: boolean;
  /** Times the fifth card was turned blind (PileMemory 'forgotten'; 0 with the pile remembered). */
  readonly turnedFifthBlind: number;
  /** The card of a losing blind turn (0 when none). */
  readonly blindCard: Card;
  /** The moves played, draws with their cards, in order (only with `record`): replayable by the verifier. */
  readonly history?: PackedMove[];
}

/** Thrown when a player chooses a move the view does not offer. */
export class IllegalMoveError extends Error {
  override readonly name = 'IllegalMoveError';
}

/**
 * Plays games: owns each Game, shows the player a TableView of it, and applies the chosen moves.
 * One Driver can play many games (its move buffer is reused); a Game is built per deal.
 */
export class Driver {
  private readonly buffer = new Int32Array(MAX_MOVES);
  private game: Game | null = null;
  /** The deal object the cached game was built on: its column arrays are rewritten per deal. */
  private slot: { size: Size; columns: Card[][]; stock: Card[] } | null = null;

  /**
   * A game at the start of `deal`. The Game of the last call is reused when the size and rules
   * match (a Game allocates a dozen typed arrays: building one per deal costs as much as playing
   * a quarter of a greedy game): its deal's column arrays are rewritten in place, the stock
   * written into `stockCards`, and `reset()` brings it to the start — which reads exactly those
   * two (test/play.test.ts checks the result against a fresh Game). An engine `Game.load(deal)`
   * would say this in one call.
   */
  private load(deal: Deal, rules: Rules): Game {
    const g = this.game;
    const slot = this.slot;
    if (g && slot && g.rules === rules && sizeEqual(slot.size, deal.size)) {
      for (let c = 0; c < slot.columns.length; c++) {
        const from = deal.columns[c]!;
        const to = slot.columns[c]!;
        for (let r = 0; r < to.length; r++) to[r] = from[r]!;
      }
      for (let i = 0; i < deal.stock.length; i++) g.stockCards[i] = deal.stock[i]!;
      g.reset();
      return g;
    }
    const fresh = { size: deal.size, columns: deal.columns.map((col) => [...col]), stock: [...deal.stock] };
    this.slot = fresh;
    this.game = new Game(fresh, rules);
    return this.game;
  }

  play(deal: Deal, rules: Rules, player: Player, opts: PlayOptions = {}): PlayResult {
    const g = this.load(deal, rules);
    const view = new TableView(g, { pile: opts.pile ?? 'remembered', buffer: this.buffer });
    const check = opts.check ?? true;
    const maxMoves = opts.maxMoves ?? 2000;
    player.reset(opts.seed ?? 0);
    let turned = 0;
    let end: PlayEnd = 'stopped';
    let blindCard = 0;
    for (;;) {
      if (g.home === g.total) {
        end = 'won';
        break;
      }
      if (g.histLen >> 1 >= maxMoves) {
        end = 'cap';
        break;
      }
      const m = player.choose(view);
      if (m === STOP) break;
      if (check && !view.isLegal(m)) {
        throw new IllegalMoveError(`${player.name} chose ${m === BLIND_FIFTH ? 'a blind turn' : formatMove(m)}, which is not legal here (move ${(g.histLen >> 1) + 1})`);
      }
      if (m === BLIND_FIFTH) {
        const r = g.blindTurn();
        if (r === 'none') throw new IllegalMoveError(`${player.name} turned the fifth card when rule 7 does not allow it`);
        turned++;
        if (r === 'lose') {
          blindCard = g.fifthCard();
          end = 'blind';
          break;
        }
        TableView.setFifthUp(view, true);
        continue;
      }
      const src = m & 63;
      if (src === SRC_DRAW) g.apply(SRC_DRAW | (g.stockCards[g.stockPtr]! << 12));
      else {
        if (src === SRC_FIFTH) TableView.setFifthUp(view, false);
        g.apply(m);
      }
    }
    return {
      won: end === 'won',
      home: g.home,
      total: g.total,
      moves: g.histLen >> 1,
      end,
      redealt: g.phase === 2,
      turnedFifthBlind: turned,
      blindCard,
      history: opts.record ? g.history() : undefined,
    };
  }
}

const shared = new Driver();

/** Plays one game of `deal` under `rules` with `player` (see Driver.play). */
export function playGame(deal: Deal, rules: Rules, player: Player, opts: PlayOptions = {}): PlayResult {
  return shared.play(deal, rules, player, opts);
}
