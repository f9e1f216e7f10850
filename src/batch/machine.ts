/** What a results file records about the tool and the machine that made it. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, cpus, hostname, platform, release } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The package root: the nearest directory above this module with a package.json. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

/**
 * A compiled module of this package, as a worker thread imports it (`new URL('./worker.js',
 * import.meta.url)`): that file once compiled; from the TypeScript sources (vitest), its build
 * under dist/.
 */
export function builtModule(url: URL): string {
  const file = fileURLToPath(url);
  if (existsSync(file)) return url.href;
  const built = join(packageRoot(), 'dist', relative(packageRoot(), file));
  if (existsSync(built)) return pathToFileURL(built).href;
  throw new Error(`${file} is missing: build the project first (npx tsc -p .)`);
}

export function toolVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

let commitCache: string | null | undefined;

/** The git commit of the package's checkout (with `-dirty` when it has uncommitted changes), or null when unknown or installed from npm. */
export function gitCommit(): string | null {
  if (commitCache !== undefined) return commitCache;
  commitCache = null;
  // Only a checkout of this package: installed under another project's node_modules, git would
  // find that project's repository above it and name its commit as ours.
  if (!existsSync(join(packageRoot(), '.git'))) return commitCache;
  try {
    const opts = { cwd: packageRoot(), encoding: 'utf8' as const, stdio: ['ignore', 'pipe', 'ignore'] as ['ignore', 'pipe', 'ignore'], timeout: 3000 };
    const head = execFileSync('git', ['rev-parse', 'HEAD'], opts).trim();
    if (/^[0-9a-f]{40}$/.test(head)) {
      let dirty = false;
      try {
        dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', 'src', 'package.json'], opts).trim() !== '';
      } catch {
        // unknown: say nothing
      }
      commitCache = dirty ? `${head}-dirty` : head;
    }
  } catch {
    // no git, or not a checkout (an npm install): unknown
  }
  return commitCache;
}

export interface Machine {
  readonly cores: number;
  readonly cpu: string;
  readonly node: string;
  readonly host: string;
  readonly platform: string;
}

export function machine(): Machine {
  const c = cpus();
  return {
    cores: availableParallelism(),
    cpu: c.length > 0 ? c[0]!.model.trim() : 'unknown',
    node: process.version,
    host: hostname(),
    platform: `${platform()} ${release()}`,
  };
}

/** Bytes of a cache line, the stride of `chaseCycle`'s reads. */
const LINE_BYTES = 64;
const LINE_INTS = LINE_BYTES / 4;

/**
 * A chain of reads over `megabytes` of memory for `readNanoseconds`: an array in which, from
 * index 0, `p = a[p]` visits the first word of every 64-byte line once, in a random order
 * (Sattolo's shuffle makes one cycle through all the lines), and comes back to 0. The order is
 * the same every time (a fixed linear congruential generator), so a reading depends only on
 * the machine.
 */
export function chaseCycle(megabytes: number): Int32Array {
  const lines = Math.max(2, Math.floor((megabytes * 1024 * 1024) / LINE_BYTES));
  const order = new Int32Array(lines);
  for (let i = 0; i < lines; i++) order[i] = i;
  let s = 0x2545f491;
  for (let i = lines - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) | 0;
    const j = (s >>> 8) % i;
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  }
  const a = new Int32Array(lines * LINE_INTS);
  for (let i = 0; i < lines; i++) a[order[i]! * LINE_INTS] = order[(i + 1) % lines]! * LINE_INTS;
  return a;
}

/** Follows `reads` links of `a` from `p`; returns where it ends (so that the reads are kept). */
function follow(a: Int32Array, p: number, reads: number): number {
  for (let i = 0; i < reads; i++) p = a[p]!;
  return p;
}

/**
 * How long one random read of memory takes on this machine now, in nanoseconds: the least of
 * `rounds` timings of `reads` dependent reads (each address comes from the read before) at
 * random lines of `megabytes` of memory, after one pass to warm it. The searches' tables are
 * read this way, so their nodes a second follow it, and on a shared VM it changes from day to
 * day (results/README.md gives the figures): a benchmark that reports speed reports this beside
 * it (`memoryReadings`), so that two runs' speeds can be compared.
 */
export function readNanoseconds(megabytes: number, reads = 1 << 18, rounds = 3): number {
  const a = chaseCycle(megabytes);
  let p = follow(a, 0, Math.min(reads, a.length / LINE_INTS));
  let least = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    p = follow(a, p, reads);
    least = Math.min(least, ((performance.now() - t0) * 1e6) / reads);
  }
  // (`p` is always the first word of a line; asking so keeps the reads from being optimized away.)
  return p % LINE_INTS === 0 ? least : Number.NaN;
}

/** The sizes of memory, in megabytes, that `memoryReadings` reads. */
export const PROBE_MEGABYTES: readonly number[] = [4, 16, 64];

/** `readNanoseconds` for each of PROBE_MEGABYTES, in that order (about a second in all). */
export function memoryReadings(): number[] {
  readNanoseconds(1, 1 << 16, 1); // compiles the loop before it is timed
  return PROBE_MEGABYTES.map((mb) => readNanoseconds(mb));
}

/** Readings of `memoryReadings` in words: "28 ns in 4 MB, 150 ns in 16 MB, 200 ns in 64 MB". */
export function formatReadings(ns: readonly number[]): string {
  return ns.map((x, i) => `${x.toFixed(0)} ns in ${PROBE_MEGABYTES[i]} MB`).join(', ');
}

/** The benchmarks' memory line: `memoryReadings` taken before and after `what` ("the run"). */
export function memoryLine(before: readonly number[], after: readonly number[], what: string): string {
  return `memory: a random read took ${formatReadings(before)} before ${what}, ${after.map((x) => x.toFixed(0)).join(', ')} ns after`;
}
