/**
 * The provers on book deals: depth-first search on exact keys with PileBound and LockBound at every
 * position (the `prove` preset's search), on the real game (`real`), with `freeFifth` and
 * `wasteDominance` (`relaxed`: the relaxed game of the fifth card, where waste dominance and safe
 * moves home are sound: src/solver/dominance.ts, docs/SOLVER.md), and with pile nogoods as well
 * (`nogoods`: src/solver/nogoods.ts; the `prove` preset). Each runs through `Solver.solve`, as
 * `limited solve` does.
 *
 *   node dist/bench/dominance.js                               # the 30 hard deals, the prove preset's prover
 *   node dist/bench/dominance.js --deals 13288,11249 --provers real,relaxed,nogoods --max-nodes 60000000
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
  --provers LIST     which provers, comma-separated, in this order (default nogoods):
                     real      the real game
                     relaxed   the relaxed game of the fifth card with waste dominance
                     nogoods   that and pile nogoods (the prove preset's search)
  --both             the same as --provers real,relaxed

Prints a Markdown table: a row a deal and prover, with the verdict, nodes, states, positions cut
by LockBound, by dominance and by nogoods, dominance's lookups and refuted positions kept, the
nogoods recorded and their hit rate (cuts per lookup), relaxed wins that broke rule 7 (the search
then went on on the real game) and seconds.
`;

const args = benchArgs('dominance', USAGE, {
  deals: { type: 'string' },
  'max-nodes': { type: 'string', default: '30000000' },
  'max-seconds': { type: 'string' },
  'max-memory': { type: 'string', default: '8192' },
  provers: { type: 'string' },
  both: { type: 'boolean', default: false },
});
const v = args.values;
const maxNodes = args.wholeNumber('max-nodes', v['max-nodes'] as string);
const maxSeconds = v['max-seconds'] === undefined ? Infinity : args.positiveNumber('max-seconds', v['max-seconds'] as string);
const maxMemoryMB = args.wholeNumber('max-memory', v['max-memory'] as string);
const PROVERS = ['real', 'relaxed', 'nogoods'];
if (v.both === true && v.provers !== undefined) args.fail('give --both or --provers, not both');
const provers = v.both === true ? ['real', 'relaxed'] : ((v.provers as string | undefined) ?? 'nogoods').split(',');
for (const p of provers) if (!PROVERS.includes(p)) args.fail(`--provers: '${p}' is not one of ${PROVERS.join(', ')}`);
const deals = v.deals === undefined ? HARD_DEALS : (v.deals as string).split(',').map((d) => args.wholeNumber('deals', d));
const f = (x: number): string => x.toLocaleString('en-US');

console.log('| deal | prover | verdict | nodes | states | cut by LockBound | cut by dominance | lookups | kept | cut by nogoods | nogoods | hit rate | relaxed wins | seconds |');
console.log('|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const n of deals) {
  for (const prover of provers) {
    const relaxed = prover !== 'real';
    const solver = new Solver();
    const r = solver.solve(dealFromNumber(n), BOOK, {
      search: 'dfs', order: 'layout', lockBoundEvery: true, signaturesAfter: Infinity, maxNodes, maxSeconds, maxMemoryMB,
      freeFifth: relaxed, wasteDominance: relaxed, pileNogoods: prover === 'nogoods',
    });
    const d = solver.dominance;
    const ng = solver.nogoods;
    const verdict = r.verdict === 'unknown' ? `unknown (${r.limit ?? '?'})` : r.verdict;
    const rate = ng.asked > 0 ? `${((100 * ng.cut) / ng.asked).toFixed(1)} %` : '-';
    console.log(
      `| ${n} | ${prover} | ${verdict} | ${f(r.nodes)} | ${f(r.states)} | ${f(solver.prunedLock)} | ${f(d.cut)} | ${f(d.asked)} | ${f(d.kept)} | ${f(ng.cut)} | ${f(ng.added)} | ${rate} | ${solver.relaxedWins} | ${r.seconds.toFixed(1)} |`,
    );
  }
}
