/**
 * Where the prover's nodes go on hard deals: for each deal, the prover's search (depth-first on
 * exact keys, PileBound, LockBound at every position, the solver's move order and sound
 * reductions) for its first N nodes, counting the positions of the first deal, the redeals, the
 * positions PileBound and LockBound cut, the positions where LockBound gives up because a space
 * may come, and of those the share that LockBound with spaces `never` proves lost: positions
 * that no line wins without putting a card into a space.
 *
 *   node dist/bench/hard.js                       # the 30 deals of results/solve/HARD.md, 1 M nodes each
 *   node dist/bench/hard.js --deals 465,30 --max-nodes 300000
 *
 * The search is written out here (a JavaScript Set of keys instead of the solver's table, and
 * LockBound asked at every position rather than skipped for kept draws) so that it can count
 * LockBound's answers; it visits the positions the prover visits, in the same order, and gives
 * its verdicts. It is slower than the solver (about 60,000 nodes a second): a measuring tool.
 */
import { BOOK, dealFromNumber, MAX_MOVES, SRC_DRAW, SRC_REDEAL } from '../src/game/index.js';
import { NO_RESTRICTION } from '../src/game/tactics.js';
import { SearchContext } from '../src/solver/context.js';
import { LOCK_LOST, LOCK_SPACES } from '../src/solver/lockbound.js';
import { MemoryBudget } from '../src/solver/memory.js';
import { moveOptions } from '../src/solver/moves.js';
import { DEFAULT_OPTIONS } from '../src/solver/options.js';
import { benchArgs } from './args.js';
import { HARD_DEALS } from './hard-deals.js';


const USAGE = `usage: node dist/bench/hard.js [options]

  --deals LIST       book deal numbers, comma-separated (default the 30 of results/solve/HARD.md)
  --max-nodes N      nodes a deal (default 1000000)

Prints a Markdown table: a row a deal (verdict within the nodes, first-deal share, redeals, the
shares of positions PileBound and LockBound cut, of LockBound's give-ups, of those lost without
spaces, and of those with a column empty).
`;

const args = benchArgs('hard', USAGE, { deals: { type: 'string' }, 'max-nodes': { type: 'string', default: '1000000' } });
const maxNodes = args.wholeNumber('max-nodes', args.values['max-nodes'] as string);
const deals = args.values.deals === undefined ? HARD_DEALS : (args.values.deals as string).split(',').map((d) => args.wholeNumber('deals', d));
const NEVER = { pairing: 'always', spaces: 'never' } as const;

interface Figures {
  verdict: string;
  nodes: number;
  firstDeal: number;
  redeals: number;
  pile: number;
  locks: number;
  gaveUp: number;
  neverLost: number;
  empty: number;
}

function measure(n: number): Figures {
  const ctx = new SearchContext();
  ctx.reset(dealFromNumber(n), BOOK, [], new MemoryBudget(2 ** 40));
  const { g, packer, lockBound: lock, bound } = ctx;
  const mo = moveOptions(DEFAULT_OPTIONS);
  const seen = new Set<string>();
  const key = new Uint32Array(packer.words);
  const f: Figures = { verdict: 'unknown', nodes: 0, firstDeal: 0, redeals: 0, pile: 0, locks: 0, gaveUp: 0, neverLost: 0, empty: 0 };
  const keyOf = (justDrew: boolean): string => {
    packer.pack(key, 0, justDrew);
    return key.join(',');
  };
  // 0 lost, 1 won, 2 out of nodes.
  const search = (justDrew: boolean): number => {
    if (f.nodes >= maxNodes) return 2;
    f.nodes++;
    if (g.phase === 1) f.firstDeal++;
    if (g.isWon()) return 1;
    if (bound.enabled && bound.lost()) {
      f.pile++;
      return 0;
    }
    const r = lock.check(NO_RESTRICTION);
    if (r === LOCK_LOST) {
      f.locks++;
      return 0;
    }
    if (r === LOCK_SPACES) {
      f.gaveUp++;
      if (g.firstSpace() >= 0) f.empty++;
      if (lock.check(NEVER) === LOCK_LOST) f.neverLost++;
    }
    const moves = new Int32Array(MAX_MOVES);
    const count = ctx.childMoves(moves, 0, justDrew, mo, null);
    for (let i = 0; i < count; i++) {
      const m = moves[i]!;
      const drew = (m & 63) === SRC_DRAW;
      g.apply(m);
      const k = keyOf(drew);
      if (!seen.has(k)) {
        seen.add(k);
        if ((m & 63) === SRC_REDEAL) f.redeals++;
        const res = search(drew);
        if (res !== 0) {
          g.undo();
          return res;
        }
      }
      g.undo();
    }
    return 0;
  };
  seen.add(keyOf(false));
  f.verdict = ['lost', 'won', 'unknown'][search(false)]!;
  return f;
}

const pc = (x: number, of: number): string => (of > 0 ? `${Math.round((100 * x) / of)} %` : '–');
console.log(`| deal | verdict | nodes | first deal | redeals | cut by PileBound | cut by LockBound | LockBound gives up | of which lost without spaces | of which a column is empty |`);
console.log(`|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|`);
for (const n of deals) {
  const f = measure(n);
  console.log(`| ${n} | ${f.verdict} | ${f.nodes.toLocaleString('en-US')} | ${pc(f.firstDeal, f.nodes)} | ${f.redeals.toLocaleString('en-US')} | ${pc(f.pile, f.nodes)} | ${pc(f.locks, f.nodes)} | ${pc(f.gaveUp, f.nodes)} | ${pc(f.neverLost, f.gaveUp)} | ${pc(f.empty, f.gaveUp)} |`);
}
