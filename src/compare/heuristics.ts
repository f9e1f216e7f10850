/**
 * Heuristics for the benchmark: the built-in ones by name (src/solver/heuristics.ts), and users'
 * heuristics loaded from a module path.
 *
 * A heuristic module is compiled JavaScript (ESM, or CommonJS through Node's interop) whose
 * default export, or named export `heuristic`, is a `Heuristic`: `(g: Game) => number` (see
 * src/solver/heuristics.ts for what it may read and what it must return). A `.ts` path is
 * accepted when it lies under this package's src/ or bench/, which the build compiles: the
 * compiled file under dist/ is loaded (and must be newer than the source). Any other `.ts`
 * must be compiled first.
 *
 * Checks: the main thread loads every module once and calls it on a few dozen positions of the
 * first deal before any work starts, so a missing module, a missing export, a heuristic that
 * throws, returns a score the solver cannot use (not an integer in [-2^20, 2^20]) or changes
 * the position is one line naming the path (exit 2). In the workers every heuristic (built-in
 * ones too, so that they pay the same) runs through `guard`, which turns a throw or a bad
 * score later in the search into a HeuristicError naming the heuristic.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Deal, type Rules, Game, MAX_MOVES, UserError, plural } from '../game/index.js';
import { type Heuristic, HEURISTICS } from '../solver/heuristics.js';
import { packageRoot } from '../batch/machine.js';

/** Scores must be integers in [-LIMIT, LIMIT] (the best-first queue packs score and state id in one double). */
export const SCORE_LIMIT = 2 ** 20;

/** A heuristic that misbehaves during a search (throws, or returns a bad score): bad input, exit 2. */
export class HeuristicError extends Error {
  override readonly name = 'HeuristicError';
}

/** One entry of `--heuristics`: a built-in name, or a module. */
export interface HeuristicRef {
  /** As the user wrote it: `waste`, `./mine.js`. Names the heuristic in the table, the CSV and the chart. */
  readonly label: string;
  /** A built-in heuristic's name (HEURISTICS). */
  readonly builtin?: string;
  /** A module's absolute file URL (what the workers import). */
  readonly url?: string;
}

/** What the spec's `variants` hold: the built-in name, or the module's file URL. */
export const refKey = (r: HeuristicRef): string => r.url ?? r.builtin!;

/** Does the entry name a file (rather than a built-in heuristic)? */
export function looksLikePath(text: string): boolean {
  return /[/\\]/.test(text) || /\.(m?js|cjs|m?ts|cts)$/i.test(text) || text.startsWith('.');
}

/** A `.ts` under the package's src/ or bench/: its compiled file under dist/ (checked to exist and be up to date). */
function compiledFor(abs: string, label: string): string {
  const root = packageRoot();
  const rel = relative(root, abs);
  const top = rel.split(sep)[0];
  const inBuild = !rel.startsWith('..') && !isAbsolute(rel) && (top === 'src' || top === 'bench') && /\.m?ts$/.test(abs) && !abs.endsWith('.d.ts');
  if (!inBuild)
    throw new UserError(
      `heuristic module '${label}' is TypeScript, which Node cannot load: compile it to JavaScript first ` +
        `(e.g. npx tsc --module nodenext --target es2022 ${label}) and give the .js, or put it under this package's src/ or bench/, which 'npm run build' compiles`,
    );
  const js = resolve(root, 'dist', rel.replace(/\.ts$/, '.js').replace(/\.mts$/, '.mjs'));
  const shown = relative(process.cwd(), js) || js;
  if (!existsSync(js)) throw new UserError(`heuristic module '${label}': its compiled file '${shown}' is missing: build first (npm run build)`);
  if (statSync(js).mtimeMs < statSync(abs).mtimeMs)
    throw new UserError(`heuristic module '${label}': its compiled file '${shown}' is older than the source: build again (npm run build)`);
  return js;
}

/** Parses `--heuristics h1,h2,./mine.js`. Throws UserError (unknown name, missing file, a name twice). */
export function parseHeuristics(text: string): HeuristicRef[] {
  const items = text.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) throw new UserError(`--heuristics '${text}': an empty entry (give names and module paths separated by commas)`);
  const out: HeuristicRef[] = [];
  for (const label of items) {
    if (out.some((r) => r.label === label)) throw new UserError(`--heuristics: '${label}' is given twice`);
    if (!looksLikePath(label)) {
      if (!Object.hasOwn(HEURISTICS, label))
        throw new UserError(`unknown heuristic '${label}' (built-in: ${Object.keys(HEURISTICS).join(', ')}; or a module path such as ./my-heuristic.js)`);
      out.push({ label, builtin: label });
      continue;
    }
    let abs = resolve(label);
    if (!existsSync(abs)) throw new UserError(`heuristic module '${label}' not found: no such file '${abs}'`);
    if (statSync(abs).isDirectory()) throw new UserError(`heuristic module '${label}' is a directory, not a file`);
    if (/\.(m?ts|cts)$/i.test(abs) && !abs.endsWith('.d.ts')) abs = compiledFor(abs, label);
    out.push({ label, url: pathToFileURL(abs).href });
  }
  return out;
}

function describe(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message.split('\n')[0]}`;
  return String(e);
}

const loaded = new Map<string, Heuristic>();

/**
 * The heuristic of a module: import() once per thread (cached by URL), the default export or
 * the named export `heuristic`, a function. Throws UserError naming the module.
 */
export async function importHeuristic(url: string, label: string): Promise<Heuristic> {
  const cached = loaded.get(url);
  if (cached) return cached;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(url)) as Record<string, unknown>;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && !existsSync(fileURLToPath(url)))
      throw new UserError(`heuristic module '${label}' not found: no such file '${fileURLToPath(url)}'`);
    throw new UserError(`heuristic module '${label}' failed to load: ${describe(e)}`);
  }
  const def = mod['default'];
  const named = mod['heuristic'];
  const h = typeof def === 'function' ? def : typeof named === 'function' ? named : undefined;
  if (!h) {
    const what =
      def !== undefined ? `its default export is ${typeof def === 'object' ? (def === null ? 'null' : 'an object') : `a ${typeof def}`}, not a function`
        : named !== undefined ? `its export 'heuristic' is a ${typeof named}, not a function`
        : `it has no default export and no export named 'heuristic'`;
    throw new UserError(`heuristic module '${label}': ${what} (export a function (g: Game) => number)`);
  }
  loaded.set(url, h as Heuristic);
  return h as Heuristic;
}

/** The function of a ref: a built-in by name, or the module's (imported). */
export async function resolveHeuristic(ref: HeuristicRef): Promise<Heuristic> {
  if (ref.builtin !== undefined) return HEURISTICS[ref.builtin]!;
  return importHeuristic(ref.url!, ref.label);
}

/** The heuristic for a `variants` entry of a spec, once `prepare` has imported the modules. */
export function heuristicFor(key: string): Heuristic {
  const h = key.startsWith('file:') ? loaded.get(key) : HEURISTICS[key];
  if (!h) throw new Error(`internal: heuristic '${key}' not loaded`);
  return h;
}

/** `./mine.js` for a spec's variant (a module URL shown as a path relative to the working directory). */
export function variantLabel(key: string): string {
  if (!key.startsWith('file:')) return key;
  const p = fileURLToPath(key);
  const r = relative(process.cwd(), p);
  return r.startsWith('..') || isAbsolute(r) ? p : `./${r}`;
}

/** Is this score one the solver can use? */
export function validScore(v: unknown): v is number {
  return typeof v === 'number' && v >= -SCORE_LIMIT && v <= SCORE_LIMIT && Math.floor(v) === v;
}

function scoreProblem(v: unknown): string {
  return `returned ${typeof v === 'number' ? String(v) : `a ${typeof v} (${String(v).slice(0, 40)})`}: scores must be integers from -2^20 to 2^20`;
}

/**
 * The heuristic as the workers call it: the same score, or a HeuristicError naming `label` when
 * it throws or returns a score the solver cannot use.
 */
export function guard(h: Heuristic, label: string): Heuristic {
  return (g) => {
    let v: number;
    try {
      v = h(g);
    } catch (e) {
      throw new HeuristicError(`heuristic '${label}' threw ${describe(e)}`);
    }
    if (!(v >= -SCORE_LIMIT && v <= SCORE_LIMIT && Math.floor(v) === v)) throw new HeuristicError(`heuristic '${label}' ${scoreProblem(v)}`);
    return v;
  };
}

/** Everything a heuristic may read, as one string: to see whether a call changed the position. */
function fingerprint(g: Game): string {
  return `${g.snapshot()}#${g.histLen}#${Array.from(g.inPlayMask).join(',')}#${Array.from(g.cols).join(',')}`;
}

/**
 * Calls a heuristic on positions of a deal — the opening position, then each position of a
 * fixed walk of up to `steps` moves (a move chosen by a fixed rule at each step) — and throws a
 * UserError naming `label` when it throws, returns a bad score, or changes the position.
 * Returns the number of positions checked.
 */
export function checkOnDeal(h: Heuristic, label: string, deal: Deal, rules: Rules, dealName: string, steps = 60): number {
  const g = new Game(deal, rules);
  const buf = new Int32Array(MAX_MOVES);
  let checked = 0;
  for (let step = 0; ; step++) {
    const where = step === 0 ? `the opening position of ${dealName}` : `${dealName} after ${plural(step, 'move')}`;
    const before = fingerprint(g);
    let v: unknown;
    try {
      v = h(g);
    } catch (e) {
      throw new UserError(`heuristic '${label}' threw on ${where}: ${describe(e)}`);
    }
    checked++;
    if (!validScore(v)) throw new UserError(`heuristic '${label}' ${scoreProblem(v)} (on ${where})`);
    if (fingerprint(g) !== before) throw new UserError(`heuristic '${label}' changed the position it was given (on ${where}): a heuristic must only read the game`);
    if (step >= steps || g.isWon()) break;
    const n = g.generate(buf, 0);
    if (n === 0) break;
    // A fixed walk that prefers moves other than draws now and then, so that it reaches positions with cards moved.
    g.apply(buf[(step * 7 + 3) % n]!);
  }
  return checked;
}
