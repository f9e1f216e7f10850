import { type PackedMove } from '../game/state.js';
import { type TableView } from './view.js';

/**
 * A player who cannot see the stock: it decides from a TableView only.
 *
 * `choose` returns one of the view's legal moves (`view.moves` after `view.legalMoves()`; a draw
 * is `SRC_DRAW` without a card), `BLIND_FIFTH` when the view offers it, or `STOP` to play on no
 * more. A player may read the position through the view's accessors and build the packed move
 * itself (the greedy player does, for speed): it must be a move the view would list.
 * `reset(seed)` is called before each game; a player's choices depend only on the seed and
 * what it has seen.
 */
export interface Player {
  readonly name: string;
  reset(seed: number): void;
  choose(view: TableView): PackedMove;
}
