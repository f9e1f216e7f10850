/**
 * The solver's flags, the same in every command that solves (solve, hint, view, play, batch):
 * how they are declared, how they are read into a SolveRequest (src/solver/request.ts, which
 * checks it), and how a request is described back to the user.
 */
import { type Command, Option } from 'commander';
import { type Tactics, NO_RESTRICTION, parsePairing, parseSpaces } from '../game/index.js';
import { type SearchKind, type SolveRequest, DEFAULT_OPTIONS, DEFAULT_PRESET, HEURISTICS, PRESETS, SEARCHES, checkRequest } from '../solver/index.js';
import { prefixed } from './options.js';
import { positiveInteger, positiveNumber } from './numbers.js';
import { threadsFromFlag } from './threads.js';
import { usefulMemoryMB } from '../solver/memory-floor.js';

/** The solver's flags as commander gives them (only those given). */
export interface SolverFlags {
  preset?: string;
  search?: SearchKind;
  heuristic?: string;
  maxNodes?: string;
  maxSeconds?: string;
  maxMemory?: string;
  pairing?: string;
  spaces?: string;
  /** `limited solve` only. */
  threads?: string;
}

/** `--pairing` and `--spaces` as tactics (the others at their unrestricted values), or undefined when neither is given. Throws UserError. */
export function tacticsFromFlags(o: { pairing?: string; spaces?: string }): Tactics | undefined {
  if (o.pairing === undefined && o.spaces === undefined) return undefined;
  return {
    pairing: o.pairing !== undefined ? prefixed('--pairing', () => parsePairing(o.pairing!)) : NO_RESTRICTION.pairing,
    spaces: o.spaces !== undefined ? prefixed('--spaces', () => parseSpaces(o.spaces!)) : NO_RESTRICTION.spaces,
  };
}

/**
 * The request the flags given make, checked (`checkRequest`, errors naming the flags): with no
 * --preset or --search, the default preset. Throws UserError for bad values.
 */
export function requestFromFlags(o: SolverFlags): SolveRequest {
  const tactics = tacticsFromFlags(o);
  return checkRequest(
    {
      ...(o.preset !== undefined ? { preset: o.preset } : {}),
      ...(o.search !== undefined ? { search: o.search } : {}),
      ...(o.heuristic !== undefined ? { heuristic: o.heuristic } : {}),
      ...(o.maxNodes !== undefined ? { maxNodes: positiveInteger('--max-nodes', o.maxNodes) } : {}),
      ...(o.maxSeconds !== undefined ? { maxSeconds: positiveNumber('--max-seconds', o.maxSeconds) } : {}),
      ...(o.maxMemory !== undefined ? { maxMemoryMB: usefulMemoryMB('--max-memory', positiveNumber('--max-memory', o.maxMemory)) } : {}),
      ...(tactics !== undefined ? { tactics } : {}),
      ...(o.threads !== undefined ? { threads: threadsFromFlag(o.threads) } : {}),
    },
    'flags',
  );
}

/** The request with a time budget of `seconds` when it names no budget of nodes or time (hint, view, play). */
export function withDefaultBudget(r: SolveRequest, seconds: number): SolveRequest {
  return r.maxNodes === undefined && r.maxSeconds === undefined ? checkRequest({ ...r, maxSeconds: seconds }) : r;
}

/** The request as a report's `options` shows it: the threads are reported beside it. */
export function reportedRequest(r: SolveRequest): SolveRequest {
  const { threads: _threads, ...rest } = r;
  return rest;
}

/** What ran: `preset portfolio`, `dfs`, `best (heuristic buried)`, and the limits given. */
export function describeRequest(r: SolveRequest): string {
  const parts: string[] = [];
  if (r.preset !== undefined) parts.push(`preset ${r.preset}${r.search !== undefined ? `, searches replaced by ${r.search}` : ''}`);
  else parts.push(r.search ?? DEFAULT_OPTIONS.search);
  if (r.heuristic !== undefined) parts.push(`heuristic ${r.heuristic}`);
  if (r.maxNodes !== undefined) parts.push(`--max-nodes ${r.maxNodes}`);
  if (r.maxSeconds !== undefined) parts.push(`--max-seconds ${r.maxSeconds}`);
  if (r.maxMemoryMB !== undefined) parts.push(`--max-memory ${r.maxMemoryMB}`);
  if (r.tactics !== undefined) parts.push(`restricted to pairing ${r.tactics.pairing}, spaces ${r.tactics.spaces}`);
  return parts.join(', ');
}

/** What each of SEARCHES does, for the help (solve's and batch's). */
export const SEARCH_KINDS =
  'dfs = depth-first, best = best-first ordered by --heuristic, rollout = play forward by small look-aheads (finds wins, ' +
  'proves nothing), beam = the best positions by --heuristic kept move by move, the beam widening after each attempt ' +
  '(finds wins; proves small deals only)';

/** The solver's presets as the help lists them: one a line, the default marked. */
export function presetList(): string {
  return Object.entries(PRESETS)
    .map(([name, p]) => `  ${name}${name === DEFAULT_PRESET ? ' (default)' : ''}: ${p.description}`)
    .join('\n');
}

/**
 * Adds `--pairing` and `--spaces` (src/game/tactics.ts). `what` says what they do to the
 * command: restrict the solver, or set a player's knobs.
 */
export function addTacticsOptions(cmd: Command, what: 'solver' | 'both'): Command {
  const solver = 'the solver keeps to it as a restriction (its verdict: can a player who keeps to it win?)';
  return cmd
    .option(
      '--pairing <p>',
      `pairing tactic: always (pair whenever legal), cautious (not onto a column with cards above its exposed card, unless the pair can go up at once), never; ${what === 'solver' ? solver : `a player's knob, and with the solver: ${solver}`} (default always)`,
    )
    .option(
      '--spaces <s>',
      `spaces tactic: eager (fill a space at once), hold (no filling in the first deal: keep spaces for the privileged cards), never (default eager)`,
    );
}

/**
 * Adds the solver's options, the same in every command that solves: --search, --heuristic,
 * --preset and the three limits. `seconds`: the time budget used when neither --max-nodes nor
 * --max-seconds is given (hint, view), instead of the preset's node budget.
 */
export function addSolverOptions(cmd: Command, seconds?: number): Command {
  // The limits and the search come from the preset unless given.
  const dflt = (plain: string): string => `the preset's, or ${plain} for --search alone`;
  const time = seconds !== undefined ? `${seconds} when neither --max-nodes nor --max-seconds is given` : dflt(Number.isFinite(DEFAULT_OPTIONS.maxSeconds) ? String(DEFAULT_OPTIONS.maxSeconds) : 'no limit');
  return cmd
    .addOption(
      new Option('--search <kind>', `one search instead of the default preset: ${SEARCH_KINDS} (with --preset: replaces the preset's searches)`).choices(SEARCHES as string[]),
    )
    .option('--heuristic <name>', `the position score of best-first and beam search: ${Object.keys(HEURISTICS).join(', ')} (default: ${dflt(String(DEFAULT_OPTIONS.heuristic))})`)
    .option(
      '--preset <name>',
      `named solver settings: ${Object.keys(PRESETS).join(', ')} (default ${DEFAULT_PRESET} unless --search is given; flags given as well override the preset; 'limited solve --help' lists them)`,
    )
    .option('--max-nodes <n>', `stop with 'unknown' after N nodes expanded, a whole number >= 1 (default: ${seconds !== undefined ? 'none' : dflt(String(DEFAULT_OPTIONS.maxNodes))})`)
    .option('--max-seconds <s>', `stop with 'unknown' after S seconds, a number > 0 (default: ${time}; given without --max-nodes, it lifts the node limit)`)
    .option(
      '--max-memory <mb>',
      `stop with 'unknown' when a table of states would exceed MB megabytes: each search's keys or signatures with their index (best-first: and its tree), so states x bytes per state stay within MB; a preset's searches draw on MB as one pool as their tables grow (resident memory stays within MB plus about 40 MB); best-first search's queue and the rollout's look-aheads are not counted; a number > 0 (default: ${dflt(String(DEFAULT_OPTIONS.maxMemoryMB))})`,
    );
}
