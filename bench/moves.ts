/**
 * Move-generation throughput: random legal playouts on deals 1..N (full size), one core.
 *
 *   npm run bench:moves                 # = node dist/bench/moves.js --count 2000
 *   node dist/bench/moves.js --count 500 --max-moves 1000 --reps 5
 *
 * For each rule preset (book, pysol) and each deal, a random playout from the start: generate
 * the legal moves (GEN_ALL), apply one chosen by an inline xorshift32 seeded from the deal
 * number, until no move is left or the playout reaches --max-moves moves (cycles are possible: a
 * lone card may shuttle between spaces, a built card between columns). Then every move is
 * undone back to the start. "generate+apply" counts applied moves over the time of the
 * playouts; "undo" counts undone moves over the time of the undos.
 *
 * Nothing is allocated in the timed loops: the deals and games are built first, one Int32Array
 * move buffer is reused, and an untimed first pass (the same playouts) warms the JIT and grows
 * each game's history buffer to the size it needs. Each rep replays the same playouts; the
 * table gives the best rep (the least disturbed by the machine) and the median.
 */
import { benchArgs } from './args.js';
import { type Game as GameT, type Rules, BOOK, FULL_SIZE, Game, MAX_MOVES, PYSOL, dealFromNumber } from '../src/game/index.js';

const USAGE = `usage: node dist/bench/moves.js [options]     (npm run bench:moves -- [options])

  --count N        deals 1..N (default 2000)
  --max-moves M    moves at most a playout (default 1000)
  --reps R         repetitions; the table gives the best and the median (default 3)
  -h, --help       this help
`;
const args = benchArgs('moves', USAGE, {
  count: { type: 'string', default: '2000' },
  'max-moves': { type: 'string', default: '1000' },
  reps: { type: 'string', default: '3' },
}, { deals: '--count N', max: '--max-moves M' });
const DEALS = args.wholeNumber('count', args.values.count as string);
const MAX = args.wholeNumber('max-moves', args.values['max-moves'] as string);
const REPS = args.wholeNumber('reps', args.values.reps as string);

interface Row {
  rules: string;
  moves: number;
  genApply: number[]; // moves/s per rep
  undo: number[];
  avgLen: number;
  won: number;
  dead: number;
  capped: number;
}

const buf = new Int32Array(MAX_MOVES);

/** One random playout per game, from the start; returns the moves applied. Lengths go to `lens`. */
function playouts(games: GameT[], lens: Int32Array): number {
  let total = 0;
  for (let i = 0; i < games.length; i++) {
    const g = games[i]!;
    // xorshift32 seeded from the deal number (i + 1); never 0.
    let x = (Math.imul(i + 1, 0x9e3779b1) ^ 0x6a09e667) | 0;
    if (x === 0) x = 1;
    let k = 0;
    while (k < MAX) {
      const n = g.generate(buf, 0);
      if (n === 0) break;
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      g.apply(buf[(x >>> 0) % n]!);
      k++;
    }
    lens[i] = k;
    total += k;
  }
  return total;
}

function undoAll(games: GameT[], lens: Int32Array): number {
  let total = 0;
  for (let i = 0; i < games.length; i++) {
    const g = games[i]!;
    for (let k = lens[i]!; k > 0; k--) g.undo();
    total += lens[i]!;
  }
  return total;
}

function seconds(t0: bigint): number {
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

function bench(name: string, rules: Rules): Row {
  const games: GameT[] = [];
  for (let d = 1; d <= DEALS; d++) games.push(new Game(dealFromNumber(d, FULL_SIZE), rules));
  const lens = new Int32Array(DEALS);
  // Untimed pass: JIT warm-up, history buffers grown, and the verdicts of the playouts.
  const moves = playouts(games, lens);
  let won = 0;
  let capped = 0;
  for (let i = 0; i < DEALS; i++) {
    if (games[i]!.isWon()) won++;
    else if (lens[i] === MAX) capped++;
  }
  undoAll(games, lens);
  const row: Row = { rules: name, moves, genApply: [], undo: [], avgLen: moves / DEALS, won, dead: DEALS - won - capped, capped };
  for (let r = 0; r < REPS; r++) {
    let t = process.hrtime.bigint();
    const m = playouts(games, lens);
    const tPlay = seconds(t);
    t = process.hrtime.bigint();
    const u = undoAll(games, lens);
    const tUndo = seconds(t);
    if (m !== moves || u !== moves) throw new Error(`playouts are not deterministic (${moves}, ${m}, ${u})`);
    row.genApply.push(m / tPlay);
    row.undo.push(u / tUndo);
  }
  return row;
}

const fmt = (x: number) => (x / 1e6).toFixed(2) + 'M';
const best = (xs: number[]) => Math.max(...xs);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const rows = [bench('book', BOOK), bench('pysol', PYSOL)];
const command = `node dist/bench/moves.js --count ${DEALS} --max-moves ${MAX} --reps ${REPS}`;
const lines = [
  `# moves bench: random playouts on deals 1..${DEALS}, size 2x13 12x3, at most ${MAX} moves each, ${REPS} reps, one core (node ${process.version})`,
  `# command: ${command}`,
  '',
  'rules   moves/pass  avg len  won  dead end  capped   gen+apply moves/s (best / median)   undo moves/s (best / median)',
];
for (const r of rows)
  lines.push(
    `${r.rules.padEnd(6)}  ${String(r.moves).padStart(10)}  ${r.avgLen.toFixed(1).padStart(7)}  ${String(r.won).padStart(3)}  ${String(r.dead).padStart(8)}  ${String(r.capped).padStart(6)}   ` +
      `${(fmt(best(r.genApply)) + ' / ' + fmt(median(r.genApply))).padEnd(34)}  ${fmt(best(r.undo))} / ${fmt(median(r.undo))}`,
  );
lines.push('', 'target: >= 2M generate+apply moves/s');
process.stdout.write(lines.join('\n') + '\n');
