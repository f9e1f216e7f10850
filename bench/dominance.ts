/**
 * Waste dominance measured under any rules (src/solver/dominance.ts): the prover's search
 * (depth-first on exact keys, PileBound, LockBound at every position) with and without the cut,
 * on book deals. The solver uses the cut only under second-deal=none, where it is proved sound;
 * under `book` this script applies it although it is NOT proved sound there (rule 7: see
 * docs/SOLVER.md, "Tried and dropped"), to measure what a sound version could be worth. Its
 * verdicts under `book` prove nothing.
 *
 *   node dist/bench/dominance.js --deals 13288,11249,566 --max-nodes 60000000
 */
import { dealFromNumber, parseRules } from '../src/game/index.js';
import { SearchContext } from '../src/solver/context.js';
import { DFS_LOST, DFS_WON, DepthFirst } from '../src/solver/dfs.js';
import { MemoryBudget } from '../src/solver/memory.js';
import { moveOptions } from '../src/solver/moves.js';
import { DEFAULT_OPTIONS } from '../src/solver/options.js';
import { benchArgs } from './args.js';

const USAGE = `usage: node dist/bench/dominance.js [options]

  --deals LIST       deal numbers, comma-separated (default 13288,11249,566)
  --rules RULES      rules (default book)
  --max-nodes N      nodes a search (default 60000000)

Prints a Markdown table: a row a deal and setting (the cut off, on), with the verdict, nodes,
positions cut by LockBound and by dominance, lookups, waste sets kept and seconds.
`;

const args = benchArgs('dominance', USAGE, { deals: { type: 'string', default: '13288,11249,566' }, rules: { type: 'string', default: 'book' }, 'max-nodes': { type: 'string', default: '60000000' } });
const maxNodes = args.wholeNumber('max-nodes', args.values['max-nodes'] as string);
const deals = (args.values.deals as string).split(',').map((d) => args.wholeNumber('deals', d));
const rules = parseRules(args.values.rules as string);

console.log('| deal | dominance | verdict | nodes | cut by LockBound | cut by dominance | lookups | sets kept | seconds |');
console.log('|---:|---|---|---:|---:|---:|---:|---:|---:|');
for (const n of deals) {
  for (const on of [false, true]) {
    const ctx = new SearchContext();
    ctx.reset(dealFromNumber(n), rules, [], new MemoryBudget(2 ** 34));
    const dfs = new DepthFirst();
    const o = { ...DEFAULT_OPTIONS, search: 'dfs' as const, maxMemoryMB: 16_000 };
    dfs.begin(ctx.g, ctx.packer, ctx.table(o, true), false, moveOptions(o), null, ctx.bound, null);
    dfs.lock = ctx.lockBound;
    const dom = on ? ctx.dominance() : null;
    dfs.dominance = dom;
    const t = performance.now();
    const code = dfs.run(maxNodes, Infinity, Infinity);
    const s = ((performance.now() - t) / 1000).toFixed(1);
    const verdict = code === DFS_LOST ? 'lost' : code === DFS_WON ? 'won' : 'unknown';
    const f = (x: number): string => x.toLocaleString('en-US');
    console.log(`| ${n} | ${on ? 'on' : 'off'} | ${verdict} | ${f(dfs.nodes)} | ${f(dfs.prunedLock)} | ${f(dfs.prunedDom)} | ${f(dom?.asked ?? 0)} | ${f(dom?.entries ?? 0)} | ${s} |`);
  }
}
