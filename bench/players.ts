/**
 * Players benchmark: games per second of the blind players on full-size book deals, one core.
 *
 *   npx tsc -p . && node dist/bench/players.js                 # 20,000 deals, 3 reps, 3 sampling deals
 *   node dist/bench/players.js --count 5000 --reps 5 --sampling-count 0
 *
 * Greedy: deals 1..N are dealt first (untimed), then each of the nine knob settings plays them
 * all with one Driver, unchecked (the tests replay the greedy player's games through the
 * verifier); an untimed first pass warms the JIT. The table gives the best rep and the median,
 * and the win rate. Extra rows: the default knobs with every move checked against the view's
 * legal moves, with the pile forgotten, and with the dealing (scheme v1, seedrandom) timed too.
 * Sampling: deals 1..M with the default knobs and parameters (or --samples, --nodes).
 */
import { cpus, loadavg } from 'node:os';
import { type Deal, type Tactics, BOOK, FULL_SIZE, dealFromNumber } from '../src/game/index.js';
import { type PlayOptions, Driver, GreedyPlayer, SamplingPlayer } from '../src/play/index.js';
import { benchArgs } from './args.js';

const USAGE = `usage: node dist/bench/players.js [options]

  --count N            greedy: deals 1..N (default 20000)
  --reps R             repetitions; the table gives the best and the median (default 3)
  --sampling-count M   sampling player: deals 1..M, 0 for none (default 3)
  --samples S          the sampling player's samples a move (default 8)
  --nodes B            the sampling player's nodes a sample, at least 10 (default 2000)
  -h, --help           this help
`;
const args = benchArgs('players', USAGE, {
  count: { type: 'string', default: '20000' },
  reps: { type: 'string', default: '3' },
  'sampling-count': { type: 'string', default: '3' },
  samples: { type: 'string', default: '8' },
  nodes: { type: 'string', default: '2000' },
}, { deals: '--count N', 'sampling-deals': '--sampling-count M' });
function whole(name: string, min: number): number {
  const text = args.values[name] as string;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < min) args.fail(`--${name} must be a whole number >= ${min}, not '${text}'`);
  return Number(text);
}
const DEALS = whole('count', 1);
const REPS = whole('reps', 1);
const SAMPLING_DEALS = whole('sampling-count', 0);
const SAMPLES = whole('samples', 1);
const NODES = whole('nodes', 10);

const now = () => performance.now() / 1000;
const best = (xs: number[]) => Math.max(...xs);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const k = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(1)}K` : x.toFixed(2));

const lines: string[] = [];
const command = `node dist/bench/players.js --count ${DEALS} --reps ${REPS} --sampling-count ${SAMPLING_DEALS} --samples ${SAMPLES} --nodes ${NODES}`;
const cpu = cpus();
lines.push(`# players bench: full-size book deals 1..${DEALS}, one core, node ${process.version}`);
lines.push(`# machine: ${cpu[0]?.model ?? '?'} x ${cpu.length} cores, load average at start ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
lines.push(`# command: ${command}`);

let t = now();
const deals: Deal[] = [];
for (let d = 1; d <= DEALS; d++) deals.push(dealFromNumber(d, FULL_SIZE));
const dealRate = DEALS / (now() - t);

const driver = new Driver();
interface Row {
  name: string;
  rates: number[];
  won: number;
  moves: number;
}
function run(name: string, tactics: Tactics, opts: PlayOptions, withDealing = false): Row {
  const player = new GreedyPlayer(tactics);
  const row: Row = { name, rates: [], won: 0, moves: 0 };
  for (let rep = -1; rep < REPS; rep++) {
    let won = 0;
    let moves = 0;
    const t0 = now();
    for (let i = 0; i < DEALS; i++) {
      const r = driver.play(withDealing ? dealFromNumber(i + 1, FULL_SIZE) : deals[i]!, BOOK, player, opts);
      if (r.won) won++;
      moves += r.moves;
    }
    const s = now() - t0;
    if (rep >= 0) row.rates.push(DEALS / s);
    row.won = won;
    row.moves = moves;
  }
  return row;
}

const rows: Row[] = [];
for (const pairing of ['always', 'cautious', 'never'] as const)
  for (const spaces of ['eager', 'hold', 'never'] as const) rows.push(run(`greedy ${pairing}/${spaces}`, { pairing, spaces }, { check: false }));
const dflt: Tactics = { pairing: 'always', spaces: 'eager' };
rows.push(run('greedy always/eager, checked', dflt, { check: true }));
rows.push(run('greedy always/eager, pile forgotten', dflt, { check: false, pile: 'forgotten' }));
rows.push(run('greedy always/eager, with dealing', dflt, { check: false }, true));

lines.push('');
lines.push(`dealing alone (dealFromNumber, scheme v1): ${k(dealRate)} deals/s`);
lines.push('');
lines.push('player                                  games/s (best / median)   won      win rate   moves/game');
for (const r of rows)
  lines.push(
    `${r.name.padEnd(38)}  ${(k(best(r.rates)) + ' / ' + k(median(r.rates))).padEnd(24)}  ${String(r.won).padStart(6)}   ${((100 * r.won) / DEALS).toFixed(2).padStart(6)} %   ${(r.moves / DEALS).toFixed(1)}`,
  );
lines.push('target (issue 5): greedy >= 20,000 games/s per core');

if (SAMPLING_DEALS > 0) {
  const sp = new SamplingPlayer({ tactics: dflt, samples: SAMPLES, nodes: NODES });
  let won = 0;
  t = now();
  for (let d = 1; d <= SAMPLING_DEALS; d++) if (driver.play(deals[d - 1] ?? dealFromNumber(d, FULL_SIZE), BOOK, sp, { seed: d }).won) won++;
  const s = now() - t;
  lines.push('');
  lines.push(
    `${sp.name} on deals 1..${SAMPLING_DEALS}: ${(SAMPLING_DEALS / s).toFixed(3)} games/s (${(s / SAMPLING_DEALS).toFixed(1)} s a game), ` +
      `won ${won}, ${sp.decisions} searched decisions, ${sp.searches} searches, ${(sp.nodesSpent / s / 1e6).toFixed(2)} M nodes/s`,
  );
}
process.stdout.write(lines.join('\n') + '\n');
