import { SCORE_MAX } from './heuristics.js';
import { FULL } from './table.js';
import { type SignatureTable } from './sigtable.js';
import { type SearchTree, TREE_MAX_STATES } from './tree.js';

/** Candidates a level can hold: a candidate's number takes the low 27 bits of a sort key. */
export const BEAM_MAX_CANDIDATES = 1 << 27;
const LOW = 2 ** 27;

/**
 * The levels of beam search (search 'beam', in search.ts): the states of one level, in the
 * order they are expanded, and the candidates for the next one. All in typed arrays that grow
 * as needed and are kept from level to level and search to search, so a level allocates
 * nothing but a sort's view.
 *
 * A level's states are expanded in tree order: the children of the first state first, then the
 * second's, and so on (`select`). Consecutive states then share all but the last few moves of
 * their lines, and the search tree's walk from one to the next (`SearchTree.walkTo`) is short.
 */
export class BeamLevels {
  /** The level being expanded: state ids of the search tree, `size` of them, in tree order, and the value each carries (`add`). */
  ids = new Int32Array(1024);
  tags = new Int32Array(1024);
  size = 0;
  /** The rank in `ids` of the next state to expand. */
  next = 0;
  /** The most states a level keeps. */
  width = 0;
  /** Whether a level has left out a candidate (its search then proves nothing when it ends). */
  truncated = false;
  /** Candidates for the next level, `count` of them: the rank of the parent in `ids`, the move, the child's signature lanes, its score and its tag. */
  count = 0;
  private parent = new Int32Array(1024);
  private tag = new Int32Array(1024);
  private move = new Int32Array(1024);
  private sigA = new Int32Array(1024);
  private sigB = new Int32Array(1024);
  private score = new Int32Array(1024);
  /** Sort keys (score order, then tree order), and the ids and tags of the candidates kept. */
  private keys = new Float64Array(1024);
  private idOf = new Int32Array(1024);
  private tagOf = new Int32Array(1024);

  /** Starts a search whose first level is the state `root` alone, with tag `rootTag`; a level keeps at most `width` states. */
  begin(width: number, root: number, rootTag: number): void {
    this.width = width;
    this.truncated = false;
    this.ids[0] = root;
    this.tags[0] = rootTag;
    this.size = 1;
    this.next = 0;
    this.count = 0;
  }

  /**
   * A candidate for the next level: the child of the state of rank `parent` by move `m`, with
   * signature lanes a, b, score `s`, and a tag that goes with it to the next level (the search
   * keeps the child's `blocked` count there, so that it need not count it again).
   */
  add(parent: number, m: number, a: number, b: number, s: number, tag: number): void {
    const c = this.count;
    if (c === this.parent.length) this.grow();
    this.parent[c] = parent;
    this.tag[c] = tag;
    this.move[c] = m;
    this.sigA[c] = a;
    this.sigB[c] = b;
    this.score[c] = s;
    this.count = c + 1;
  }

  /**
   * Ends a level: the candidates by score, best first (equal scores in the order they were
   * added), each put in the signature table and the tree, and kept when it is new, until
   * `width` are kept. They become the next level, in tree order. Returns the number kept, or
   * -1 when the memory cap (of the table or the tree) forbids a state.
   */
  select(sig: SignatureTable, tree: SearchTree): number {
    const n = this.count;
    const keys = this.keys;
    // Score order: the lowest key first. (SCORE_MAX - score) * 2^27 + candidate < 2^48, exact.
    for (let c = 0; c < n; c++) keys[c] = (SCORE_MAX - this.score[c]!) * LOW + c;
    // Only the best few are read, so they are sorted a block at a time: the smallest keys of
    // those left moved to the front (`smallestFirst`), then sorted. The keys are distinct (the
    // candidate's number is in them), so the order read is that of a sort of all n.
    const block = Math.max(64, 2 * this.width);
    let sorted = 0;
    let kept = 0;
    let j = 0;
    for (; j < n && kept < this.width; j++) {
      if (j === sorted) {
        const end = Math.min(n, sorted + block);
        if (end < n) smallestFirst(keys, sorted, n, end);
        keys.subarray(sorted, end).sort();
        sorted = end;
      }
      const c = keys[j]! % LOW;
      const id = sig.insert(this.sigA[c]!, this.sigB[c]!);
      if (id === FULL) return -1;
      if (id < 0) continue;
      if (id >= TREE_MAX_STATES || !tree.set(id, this.ids[this.parent[c]!]!, this.move[c]!)) return -1;
      this.idOf[kept] = id;
      this.tagOf[kept] = this.tag[c]!;
      // Tree order: by the parent's rank, then score order (kept < 2^27, parent ranks below the
      // width). Slot `kept` of `keys` has been read: kept <= j.
      keys[kept] = this.parent[c]! * LOW + kept;
      kept++;
    }
    // A candidate left unlooked-at that is new: this level left it out. (Candidates may be
    // states kept already: the search does not look them up, `select` does.)
    for (; j < n && !this.truncated; j++) {
      const c = keys[j]! % LOW;
      if (sig.find(this.sigA[c]!, this.sigB[c]!) < 0) this.truncated = true;
    }
    keys.subarray(0, kept).sort();
    if (kept > this.ids.length) {
      this.ids = new Int32Array(Math.max(kept, 2 * this.ids.length));
      this.tags = new Int32Array(this.ids.length);
    }
    for (let k = 0; k < kept; k++) {
      const i = keys[k]! % LOW;
      this.ids[k] = this.idOf[i]!;
      this.tags[k] = this.tagOf[i]!;
    }
    this.size = kept;
    this.next = 0;
    this.count = 0;
    return kept;
  }

  private grow(): void {
    const m = 2 * this.parent.length;
    if (m > BEAM_MAX_CANDIDATES) throw new Error('beam search: a level has more than 2^27 candidates');
    const wider = (a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
      const b = new Int32Array(m);
      b.set(a);
      return b;
    };
    this.parent = wider(this.parent);
    this.tag = wider(this.tag);
    this.tagOf = wider(this.tagOf);
    this.move = wider(this.move);
    this.sigA = wider(this.sigA);
    this.sigB = wider(this.sigB);
    this.score = wider(this.score);
    this.idOf = wider(this.idOf);
    this.keys = new Float64Array(m);
  }
}

/**
 * Reorders keys[from, to) so that keys[from, k) hold the k - from smallest of them, in no
 * particular order (Hoare's selection: partition around a median of three, go on in the part
 * that holds position k). Expected time linear in to - from; the keys must be distinct.
 */
export function smallestFirst(keys: Float64Array, from: number, to: number, k: number): void {
  let lo = from;
  let hi = to - 1;
  while (hi - lo > 16) {
    const mid = (lo + hi) >>> 1;
    // The median of the first, middle and last keys as the pivot.
    const x = keys[lo]!;
    const y = keys[mid]!;
    const a = x < y ? x : y;
    const b = x < y ? y : x;
    const c = keys[hi]!;
    const pivot = c < a ? a : c > b ? b : c;
    let i = lo;
    let j = hi;
    for (;;) {
      while (keys[i]! < pivot) i++;
      while (keys[j]! > pivot) j--;
      if (i >= j) break;
      const t = keys[i]!;
      keys[i] = keys[j]!;
      keys[j] = t;
      i++;
      j--;
    }
    // keys[lo, j] <= pivot <= keys[j + 1, hi]: k is the first position not to keep.
    if (k <= j) hi = j;
    else if (k > j + 1) lo = j + 1;
    else return;
  }
  // A few left: sorting them puts the smallest first.
  keys.subarray(lo, hi + 1).sort();
}
