/** The page's words for moves, verdicts and the solver's budget; and the escape for what it writes as HTML. */
import {
  type Game, type PackedMove, DST_FOUNDATION, SRC_DRAW, SRC_FIFTH, SRC_PRIV, SRC_REDEAL, SRC_WASTE, formatMoveBare, moveCard, moveDst, moveSrc, plural,
} from '../game/index.js';
import { type SolveRequest } from '../solver/index.js';
import { cardLabel, cardName } from './board.js';
import { type PageVerdict } from './data.js';

/** A move as the page writes it: the notation with the card's suit symbol, `c3>f 5♠`. */
export function moveText(m: PackedMove): string {
  return moveSrc(m) === SRC_REDEAL ? 'redeal' : `${formatMoveBare(m)} ${cardLabel(moveCard(m))}`;
}

/** A move in words, read in the position after it. */
export function moveWords(g: Game, m: PackedMove): string {
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

export function verdictText(v: PageVerdict, moves: number | null): string {
  if (v.verdict === 'won') return `Won${moves !== null ? ` in ${plural(moves, 'move')}` : ''}`;
  if (v.verdict === 'unsolvable') return `Lost: proved ${v.proof === 'locks' ? 'by the cards that block one another' : 'by an exhaustive search'}`;
  return `Unknown: the solver ran out of ${v.limit === 'nodes' ? 'nodes' : v.limit === 'memory' ? 'memory' : 'time'} before deciding`;
}

/** The solver's request as the page says it: `preset portfolio, 2 s`. */
export function budgetText(s: SolveRequest): string {
  const parts = [s.preset !== undefined ? `preset ${s.preset}` : (s.search ?? 'dfs')];
  if (s.heuristic !== undefined) parts.push(`heuristic ${s.heuristic}`);
  if (s.maxNodes !== undefined) parts.push(`${s.maxNodes.toLocaleString('en-US')} nodes`);
  if (s.maxSeconds !== undefined) parts.push(`${s.maxSeconds} s`);
  return parts.join(', ');
}

export const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
