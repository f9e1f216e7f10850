/**
 * An example of a user's heuristic, for `limited bench`. Any module like this one works: its
 * default export (or an export named `heuristic`) is a function of the solver's position that
 * returns an integer score, higher = more promising (the contract is in
 * src/solver/heuristics.ts). This file is under src/, so `npm run build` compiles it and
 *
 *   limited bench --from 1 --count 200 --heuristics waste,src/compare/example-heuristic.ts
 *
 * loads dist/src/compare/example-heuristic.js. Outside this package, compile a .ts first (or
 * write plain JavaScript) and give the .js path.
 *
 * The idea: cards home, plus the exposed cards that could go home right now, plus empty
 * columns, less the cards waiting in the waste (or in the pile and the privileged row).
 */
import type { Game } from '../game/state.js';

export default function readyHome(g: Game): number {
  let ready = 0;
  let spaces = 0;
  for (let c = 0; c < g.columns; c++) {
    const top = g.top(c);
    if (top === 0) spaces++;
    else if (g.canHome(top)) ready++;
  }
  const waiting = g.phase === 1 ? g.wasteLen : g.wasteLen - g.pileNext + g.privLen;
  return 4 * g.home + 2 * ready + 2 * spaces - 2 * waiting;
}
