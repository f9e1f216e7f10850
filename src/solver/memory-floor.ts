/**
 * The least memory cap that lets the searches run as they are made to (`--max-memory`).
 *
 * Depth-first search keeps its first `signaturesAfter` states (65,536 by default) on exact
 * keys, then goes on with 48-bit signatures (8-12 bytes a state), its main table. A full-size
 * key is 5 words (6 under rules with no second deal), so those exact states and their index
 * take up to 1.9 MB: under a cap smaller than that, the search stops for memory before its
 * signature table holds a state (`batch --preset fast --max-memory 1` stopped every deal it had
 * not won at 39,321 states, unknown for memory). The portfolio's depth-first stage, at a fifth
 * of the cap, turns to signatures after 16,384 states, which need about as much (0.4 MB).
 */
import { UserError } from '../game/index.js';
import { MB } from './memory.js';
import { DEFAULT_OPTIONS } from './options.js';
import { indexSlotsFor } from './table.js';

/** Words of the largest full-size key (rules with no second deal: key.ts). */
const LARGEST_KEY_WORDS = 6;

/** The least useful cap, whole megabytes: room for depth-first search's exact states before it turns to signatures. */
export function leastUsefulMemoryMB(): number {
  const states = DEFAULT_OPTIONS.signaturesAfter;
  return Math.ceil((indexSlotsFor(states) * 4 + states * 4 * LARGEST_KEY_WORDS) / MB);
}

/** `mb` when it is at least the least useful cap; a one-line UserError naming `option` otherwise. */
export function usefulMemoryMB(option: string, mb: number): number {
  const least = leastUsefulMemoryMB();
  if (mb < least)
    throw new UserError(
      `${option} ${mb} is less than the least useful cap, ${least} MB: depth-first search keeps its first ${DEFAULT_OPTIONS.signaturesAfter} states ` +
        `on exact keys (up to ${least} MB at full size) before it turns to signatures, and with less it stops for memory first`,
    );
  return mb;
}
