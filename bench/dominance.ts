/**
 * The relaxed prover against the prover on book deals: depth-first search on exact keys with
 * PileBound and LockBound at every position (the `prove` preset's search), once on the real game
 * and once with `freeFifth` and `wasteDominance` (the relaxed game of the fifth card, where waste
 * dominance and safe moves home are sound: src/solver/dominance.ts, docs/SOLVER.md). Both run
 * through `Solver.solve`, as `limited solve` does.
 *
 *   node dist/bench/dominance.js                               # the 30 hard deals, relaxed only
 *   node dist/bench/dominance.js --deals 13288,11249 --both --max-nodes 60000000
 */
import { BOOK, dealFromNumber } from '../src/game/index.js';
import { Solver } from '../src/solver/index.js';
import { benchArgs } from './args.js';
import { HARD_DEALS } from './hard-deals.js';

const USAGE = `usage: node dist/bench/dominance.js [options]

  --deals LIST       book deal numbers, comma-separated (default the 30 of results/solve/HARD.md)
  --max-nodes N      nodes a search (default 30000000)
  --max-seconds S    seconds a search (default: none)
  --max-memory MB    memory cap of a search's table (default 8192)
  --both             also run the prover on the real game (slower), before the relaxed one

Prints a Markdown table: a row a deal and prover, with the verdict, nodes, states, positions cut
by LockBound and by dominance, dominance's lookups and refuted positions kept, relaxed wins that
broke rule 7 (the search then went on on the real game) and seconds.
`;

const args = benchArgs('dominance', USAGE, {
  deals: { type: 'string' },
  'max-nodes': { type: 'string', default: '30000000' },
  'max-seconds': { type: 'string' },
  'max-memory': { type: 'string', default: '8192' },
  both: { type: 'boolean', default: false },
});
const v = args.values;
const maxNodes = args.wholeNumber('max-nodes', v['max-nodes'] as string);
const maxSeconds = v['max-seconds'] === undefined ? Infinity : args.positiveNumber('max-seconds', v['max-seconds'] as string);
const maxMemoryMB = args.wholeNumber('max-memory', v['max-memory'] as string);
const deals = v.deals === undefined ? HARD_DEALS : (v.deals as string).split(',').map((d) => args.wholeNumber('deals', d));
const f = (x: number): string => x.toLocaleString('en-US');

console.log('| deal | prover | verdict | nodes | states | cut by LockBound | cut by dominance | lookups | kept | relaxed wins | seconds |');
console.log('|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const n of deals) {
  for (const relaxed of v.both === true ? [false, true] : [true]) {
    const solver = new Solver();
    const r = solver.solve(dealFromNumber(n), BOOK, {
      search: 'dfs', order: 'layout', lockBoundEvery: true, signaturesAfter: Infinity, maxNodes, maxSeconds, maxMemoryMB,
      freeFifth: relaxed, wasteDominance: relaxed,
    });
    const d = solver.dominance;
    const verdict = r.verdict === 'unknown' ? `unknown (${r.limit ?? '?'})` : r.verdict;
    console.log(
      `| ${n} | ${relaxed ? 'relaxed' : 'real'} | ${verdict} | ${f(r.nodes)} | ${f(r.states)} | ${f(solver.prunedLock)} | ${f(d.cut)} | ${f(d.asked)} | ${f(d.kept)} | ${solver.relaxedWins} | ${r.seconds.toFixed(1)} |`,
    );
  }
}
