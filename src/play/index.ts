import { UserError } from '../game/errors.js';
import { type Tactics, NO_RESTRICTION } from '../game/tactics.js';
import { GreedyPlayer } from './greedy.js';
import { type Player } from './player.js';
import { type SamplingOptions, SamplingPlayer } from './sampling.js';

export * from './view.js';
export * from './player.js';
export * from './driver.js';
export * from './greedy.js';
export * from './sampling.js';
export * from '../solver/lookahead.js';
export { Rng } from './rng.js';

/** The players by name, for `--player NAME`. */
export const PLAYER_NAMES = ['greedy', 'sampling'] as const;
export type PlayerName = (typeof PLAYER_NAMES)[number];

/**
 * Builds a player from a spec `NAME[:key=value,...]` and the tactic knobs, e.g. `greedy`,
 * `sampling`, `sampling:samples=16,nodes=20000`. Keys of sampling: samples, nodes, exactNodes,
 * trustHome (true|false|phase1), tieBreak (greedy|progress). Throws UserError in one line on a bad spec.
 */
export function createPlayer(spec: string, tactics: Tactics = NO_RESTRICTION): Player {
  const [rawName, rawParams] = spec.trim().split(':', 2) as [string, string | undefined];
  const name = rawName.toLowerCase();
  const params = new Map<string, string>();
  if (rawParams)
    for (const kv of rawParams.split(',')) {
      const [k, val] = kv.split('=', 2);
      if (!k || val === undefined) throw new UserError(`player '${spec}': '${kv}' is not key=value`);
      params.set(k.trim(), val.trim());
    }
  if (name === 'greedy') {
    if (params.size > 0) throw new UserError(`player '${spec}': greedy takes no parameters`);
    return new GreedyPlayer(tactics);
  }
  if (name === 'sampling') {
    const opts: { -readonly [K in keyof SamplingOptions]: SamplingOptions[K] } = { tactics };
    for (const [k, val] of params) {
      const num = () => {
        if (!/^\d+$/.test(val) || Number(val) < 1) throw new UserError(`player '${spec}': ${k} must be a whole number >= 1, not '${val}'`);
        return Number(val);
      };
      if (k === 'samples') opts.samples = num();
      else if (k === 'nodes') opts.nodes = num();
      else if (k === 'exactNodes') opts.exactNodes = num();
      else if (k === 'trustHome') {
        if (val !== 'true' && val !== 'false' && val !== 'phase1') throw new UserError(`player '${spec}': trustHome must be true, false or phase1`);
        opts.trustHome = val === 'phase1' ? 'phase1' : val === 'true';
      } else if (k === 'tieBreak') {
        if (val !== 'greedy' && val !== 'progress') throw new UserError(`player '${spec}': tieBreak must be greedy or progress`);
        opts.tieBreak = val;
      } else throw new UserError(`player '${spec}': unknown parameter '${k}' (samples, nodes, exactNodes, trustHome, tieBreak)`);
    }
    return new SamplingPlayer(opts);
  }
  throw new UserError(`unknown player '${rawName}' (${PLAYER_NAMES.join(', ')})`);
}
