/**
 * The shared table's cost on one thread: the prover's loop (DepthFirst with LockBound at every
 * position, exact keys, as the prove preset runs it) on one deal, in this process, on the
 * ordinary table or on a shared one, timed alone (no worker, no start-up).
 *
 *   node dist/bench/shared-table.js --deal 3734 --table ordinary
 *   node dist/bench/shared-table.js --deal 3734 --table shared --max-memory 80
 *
 * Prints one line: the table, the cap, nodes, states, seconds and nodes/s. Run each table in a
 * process of its own (one table class per process keeps the search's call to `insert` as V8
 * compiles it for one), and alternate them: on a shared machine one run says little.
 */
import { FULL_SIZE, Game, dealFromNumber, parseRules } from '../src/game/index.js';
import { PileBound } from '../src/solver/bound.js';
import { DepthFirst } from '../src/solver/dfs.js';
import { KeyPacker } from '../src/solver/key.js';
import { LockBound } from '../src/solver/lockbound.js';
import { moveOptions } from '../src/solver/moves.js';
import { DEFAULT_OPTIONS } from '../src/solver/options.js';
import { SharedTable, newSharedBuffer, sharedLayout } from '../src/solver/shared-table.js';
import { type ExactTable, TranspositionTable } from '../src/solver/table.js';
import { benchArgs } from './args.js';

const USAGE = `usage: node dist/bench/shared-table.js [options]

  --deal N              the book deal (default 3734)
  --table T             ordinary or shared (default shared)
  --max-memory MB       the table's cap (default 2048)
  --max-nodes N         the node budget, which also sizes both tables (default 50000000)
  -h, --help            this help
`;
const args = benchArgs('shared-table', USAGE, {
  deal: { type: 'string', default: '3734' },
  table: { type: 'string', default: 'shared' },
  'max-memory': { type: 'string', default: '2048' },
  'max-nodes': { type: 'string', default: '50000000' },
});
const deal = args.wholeNumber('deal', args.values.deal as string);
const kind = args.values.table as string;
if (kind !== 'ordinary' && kind !== 'shared') args.fail(`--table must be ordinary or shared, not '${kind}'`);
const mb = args.positiveNumber('max-memory', args.values['max-memory'] as string);
const maxNodes = args.wholeNumber('max-nodes', args.values['max-nodes'] as string);

const g = new Game(dealFromNumber(deal, FULL_SIZE), parseRules('book'));
const packer = new KeyPacker(g);
const bytes = mb * 1024 * 1024;
let table: ExactTable;
if (kind === 'ordinary') table = new TranspositionTable(packer.words, bytes, maxNodes);
else {
  const layout = sharedLayout(packer.words, bytes, maxNodes);
  table = new SharedTable(layout, newSharedBuffer(layout));
}
const dfs = new DepthFirst();
dfs.begin(g, packer, table, false, moveOptions({ ...DEFAULT_OPTIONS, order: 'layout' }), null, new PileBound(g), null);
dfs.lock = new LockBound(g);
const t0 = performance.now();
const code = dfs.run(maxNodes, Infinity, Infinity);
const seconds = (performance.now() - t0) / 1000;
process.stdout.write(
  `deal ${deal} ${kind} table, ${mb} MB: end ${code}, ${dfs.nodes} nodes, ${table.size} states, ${seconds.toFixed(3)} s, ${Math.round(dfs.nodes / seconds)} nodes/s\n`,
);
