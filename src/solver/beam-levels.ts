import { SCORE_MAX } from './heuristics.js';
import { FULL } from './table.js';
import { type SignatureTable } from './sigtable.js';
import { type SearchTree, TREE_MAX_STATES } from './tree.js';

/** Candidates a level can hold (13 words of arrays each: past this a level would take gigabytes). */
export const BEAM_MAX_CANDIDATES = 1 << 27;
/** The radix sort's digit: 11 bits a pass (a level's score keys, up to 2^21, take two). */
const RADIX_BITS = 11;
const RADIX = 1 << RADIX_BITS;
const RADIX_MASK = RADIX - 1;

/**
 * The levels of beam search (search 'beam', in searches/beam.ts): the states of one level, in the
 * order they are expanded, and the candidates for the next one. All in typed arrays that grow
 * as needed and are kept from level to level and search to search, so a level allocates
 * nothing.
 *
 * A level's states are expanded in tree order: the children of the first state first, then the
 * second's, and so on (`select`). Consecutive states then share all but the last few moves of
 * their lines, and the search tree's walk from one to the next (`SearchTree.walkTo`) is short.
 */
export class BeamLevels {
  /** The level being expanded: state ids of the search tree, `size` of them, in tree order, and the value each carries (`add`). */
  ids = new Int32Array(1024);
  tags = new Int32Array(1024);
  /** Each state's signature lanes without the justDrew flag (KeyPacker `childSig`), so that the walk to it need not make them (`SearchTree.walkTo`). */
  stateA = new Int32Array(1024);
  stateB = new Int32Array(1024);
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
  private baseA = new Int32Array(1024);
  private baseB = new Int32Array(1024);
  private score = new Int32Array(1024);
  /** The candidates in an order (`radixSort`'s items and its scratch), and the ids, candidate numbers and parents' ranks of the candidates kept. */
  private order = new Int32Array(1024);
  private scratch = new Int32Array(1024);
  private idOf = new Int32Array(1024);
  private candOf = new Int32Array(1024);
  private parentOf = new Int32Array(1024);
  private readonly digits = new Int32Array(RADIX);

  /**
   * Starts a search whose first level is the state `root` alone, with tag `rootTag` and
   * signature lanes a, b (without the flag); a level keeps at most `width` states.
   */
  begin(width: number, root: number, rootTag: number, a: number, b: number): void {
    this.width = width;
    this.truncated = false;
    this.ids[0] = root;
    this.tags[0] = rootTag;
    this.stateA[0] = a;
    this.stateB[0] = b;
    this.size = 1;
    this.next = 0;
    this.count = 0;
  }

  /**
   * A candidate for the next level: the child of the state of rank `parent` by move `m`, with
   * signature lanes a, b (with the justDrew flag, as the table keeps them) and baseA, baseB
   * (without), score `s`, and a tag that goes with it to the next level (the search keeps the
   * child's `blocked` count there, so that it need not count it again).
   */
  add(parent: number, m: number, a: number, b: number, baseA: number, baseB: number, s: number, tag: number): void {
    const c = this.count;
    if (c === this.parent.length) this.grow();
    this.parent[c] = parent;
    this.tag[c] = tag;
    this.move[c] = m;
    this.sigA[c] = a;
    this.sigB[c] = b;
    this.baseA[c] = baseA;
    this.baseB[c] = baseB;
    this.score[c] = s;
    this.count = c + 1;
  }

  /**
   * Ends a level: the candidates by score, best first (equal scores in the order they were
   * added), each put in the signature table and the tree, and kept when it is new, until
   * `width` are kept. They become the next level, in tree order. Returns the number kept, or
   * -1 when the memory cap (of the table or the tree) forbids a state.
   *
   * Both orders are made by a stable radix sort on whole numbers (`radixSort`): score order
   * by how far each score lies below the level's best, tree order by the parent's rank. A
   * level's scores span a few hundred at most with the built-in heuristics, so that is one or
   * two passes over the candidates.
   */
  select(sig: SignatureTable, tree: SearchTree): number {
    const n = this.count;
    const score = this.score;
    let best = -SCORE_MAX - 1;
    for (let c = 0; c < n; c++) if (score[c]! > best) best = score[c]!;
    // The key: how far below the best (0 .. 2^21); the items: the candidates in the order added.
    const items = this.order;
    for (let c = 0; c < n; c++) {
      score[c] = best - score[c]!;
      items[c] = c;
    }
    const order = radixSort(score, items, this.scratch, n, this.digits);
    let kept = 0;
    let j = 0;
    for (; j < n && kept < this.width; j++) {
      const c = order[j]!;
      const id = sig.insert(this.sigA[c]!, this.sigB[c]!);
      if (id === FULL) return -1;
      if (id < 0) continue;
      if (id >= TREE_MAX_STATES || !tree.set(id, this.ids[this.parent[c]!]!, this.move[c]!)) return -1;
      this.idOf[kept] = id;
      this.candOf[kept] = c;
      this.parentOf[kept] = this.parent[c]!;
      kept++;
    }
    // A candidate left unlooked-at that is new: this level left it out. (Candidates may be
    // states kept already: the search does not look them up, `select` does.)
    for (; j < n && !this.truncated; j++) {
      const c = order[j]!;
      if (sig.find(this.sigA[c]!, this.sigB[c]!) < 0) this.truncated = true;
    }
    // Tree order: by the parent's rank, then score order.
    for (let k = 0; k < kept; k++) this.order[k] = k;
    const byParent = radixSort(this.parentOf, this.order, this.scratch, kept, this.digits);
    if (kept > this.ids.length) {
      this.ids = new Int32Array(Math.max(kept, 2 * this.ids.length));
      this.tags = new Int32Array(this.ids.length);
      this.stateA = new Int32Array(this.ids.length);
      this.stateB = new Int32Array(this.ids.length);
    }
    for (let k = 0; k < kept; k++) {
      const i = byParent[k]!;
      const c = this.candOf[i]!;
      this.ids[k] = this.idOf[i]!;
      this.tags[k] = this.tag[c]!;
      this.stateA[k] = this.baseA[c]!;
      this.stateB[k] = this.baseB[c]!;
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
    this.candOf = wider(this.candOf);
    this.baseA = wider(this.baseA);
    this.baseB = wider(this.baseB);
    this.move = wider(this.move);
    this.sigA = wider(this.sigA);
    this.sigB = wider(this.sigB);
    this.score = wider(this.score);
    this.idOf = wider(this.idOf);
    this.parentOf = wider(this.parentOf);
    this.order = new Int32Array(m);
    this.scratch = new Int32Array(m);
  }
}

/**
 * Sorts `items[0, n)` (indices into `key`) by `key[item]`, smallest first, keeping the order of
 * equal keys (a least-significant-digit radix sort, RADIX_BITS a pass, as many passes as the
 * largest key needs). Keys must be whole numbers from 0 to 2^31 - 1. The result is in `items`
 * or in `scratch` (either may be written): the array returned. `count` is RADIX entries of room.
 */
export function radixSort(key: Int32Array, items: Int32Array, scratch: Int32Array, n: number, count: Int32Array): Int32Array {
  let most = 0;
  for (let i = 0; i < n; i++) most |= key[items[i]!]!;
  let from = items;
  let to = scratch;
  // Keys of 0 only: the items are in order as they stand.
  for (let shift = 0; shift < 32 && most >>> shift !== 0; shift += RADIX_BITS) {
    count.fill(0);
    for (let i = 0; i < n; i++) count[(key[from[i]!]! >>> shift) & RADIX_MASK]!++;
    let sum = 0;
    for (let d = 0; d < RADIX; d++) {
      const k = count[d]!;
      count[d] = sum;
      sum += k;
    }
    for (let i = 0; i < n; i++) {
      const it = from[i]!;
      to[count[(key[it]! >>> shift) & RADIX_MASK]!++] = it;
    }
    const t = from;
    from = to;
    to = t;
  }
  return from;
}
