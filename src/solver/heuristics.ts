import { type Game } from '../game/state.js';

/**
 * A heuristic scores a position for best-first search: higher is more promising. It reads the
 * game (typed arrays: `cols`, `len`, `orig`, `found`, `home`, waste/pile fields) and must not
 * allocate or change it. Scores must be finite numbers in [-2^20, 2^20].
 */
export type Heuristic = (g: Game) => number;

/** Cards home, nothing else. */
export const home: Heuristic = (g) => g.home;

/**
 * Cards home, less the cards that lie above (are blocked by) a lower card of their own suit in
 * the same column: such a card can only go home after that lower card has left the column.
 */
export const buried: Heuristic = (g) => {
  const h = g.height;
  let blocked = 0;
  for (let c = 0; c < g.columns; c++) {
    const l = g.len[c]!;
    const base = c * h;
    for (let i = 0; i < l - 1; i++) {
      const x = g.cols[base + i]!;
      for (let j = i + 1; j < l; j++) {
        const y = g.cols[base + j]!;
        if (y >> 4 === x >> 4 && (y & 15) < (x & 15)) {
          blocked++;
          break;
        }
      }
    }
  }
  return 4 * g.home - 3 * blocked;
};

/** Empty columns. */
export function spaces(g: Game): number {
  let n = 0;
  for (let c = 0; c < g.columns; c++) if (g.len[c] === 0) n++;
  return n;
}

/** Dealt cards still in their columns. */
export function dealtLeft(g: Game): number {
  let n = 0;
  for (let c = 0; c < g.columns; c++) n += g.orig[c]!;
  return n;
}

/** Cards home, plus spaces and original cards uncovered: favours positions with room to move. */
export const mobility: Heuristic = (g) => 4 * g.home + 3 * spaces(g) - dealtLeft(g);

/** The default: `buried` plus a small weight for spaces and the dealt cards already cleared. */
export const blend: Heuristic = (g) => buried(g) + 2 * spaces(g) - dealtLeft(g);

/** Cards waiting in the waste, or in the pile and the privileged row. */
export function waiting(g: Game): number {
  return g.phase === 1 ? g.wasteLen : g.wasteLen - g.pileNext + g.privLen;
}

/**
 * Cards home, less the cards waiting in the waste or the pile (each will have to get through
 * the privileged row in order), less blocked cards: for games with a second deal.
 */
export const waste: Heuristic = (g) => buried(g) + 2 * spaces(g) - 2 * waiting(g);

/** `waste` with spaces worth twice as much. */
export const wasteSpaces: Heuristic = (g) => buried(g) + 4 * spaces(g) - 2 * waiting(g);

/** `waste` that also counts the dealt cards still in their columns against the position. */
export const wasteDealt: Heuristic = (g) => buried(g) + 2 * spaces(g) - 2 * waiting(g) - dealtLeft(g);

/** `waste` with the waiting cards weighed more heavily. */
export const wasteHeavy: Heuristic = (g) => buried(g) + 2 * spaces(g) - 3 * waiting(g);

export const HEURISTICS: Readonly<Record<string, Heuristic>> = {
  blend, home, buried, mobility, waste, wasteSpaces, wasteDealt, wasteHeavy,
};
