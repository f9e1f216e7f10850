import { type Game, type PackedMove, SRC_DRAW } from '../game/state.js';
import { type KeyPacker } from './key.js';
import { type MemoryBudget } from './memory.js';
import { type SignatureTable } from './sigtable.js';
import { type TableStats } from './table.js';

/** States a page of the tree holds. */
const PAGE_BITS = 12;
const PAGE = 1 << PAGE_BITS;
const PAGE_MASK = PAGE - 1;
/** Bytes a state takes in the tree: a parent id (27 bits) and a move's source and destination (12 bits), in a 32-bit word and a byte. */
export const TREE_BYTES = 5;
/** State ids the tree can hold (a parent id takes 27 bits). */
export const TREE_MAX_STATES = 1 << 27;
const ID_MASK = TREE_MAX_STATES - 1;

/**
 * The search tree of best-first search, kept so that no state's key has to be stored: for each
 * state id (the order in which the signature table took the states), the id of the state it was
 * first reached from and the move that reached it. A move is kept as its source and destination
 * only (12 bits): the card is the one at the source in the parent's position (`Game.cardAt`).
 *
 * To expand a state the search walks the Game there from the state it expanded last (`walkTo`):
 * back up to the two states' last common ancestor, then down. A parent is always older than its
 * child (a child gets its id when its parent is expanded), so walking up from whichever of the
 * two is younger meets that ancestor without depths. Best-first search mostly expands a child
 * or a sibling of the state before, so most walks are a move or two.
 *
 * Memory: 5 bytes a state, in pages of 4,096 states (allocated as needed, kept from search to
 * search); with the signature table's slots, `bytesPerState()` reports both.
 */
export class SearchTree implements TableStats {
  /** Per state: its parent's id, and the move's low 5 bits above it (bits 27-31). */
  private words: Int32Array[] = [];
  /** Per state: the move's high 7 bits. */
  private highs: Uint8Array[] = [];
  /** The states on the Game's path from the root, and their signatures (`KeyPacker.baseSig`, two lanes each). */
  private path = new Int32Array(1024);
  private pathSigs = new Int32Array(2048);
  private pathLen = 0;
  private chain = new Int32Array(1024);

  /**
   * @param sig the signature table whose ids these are
   * @param maxBytes memory cap for the tree's pages
   * @param budget a budget shared with other tables (memory.ts) that the pages are taken from as well
   */
  constructor(
    readonly sig: SignatureTable,
    readonly maxBytes: number,
    readonly budget: MemoryBudget | null = null,
  ) {}

  /** Gives the pages' and the signature table's bytes back to the budget (the tree is not used after). */
  release(): void {
    this.budget?.give(this.words.length * PAGE * TREE_BYTES);
    this.words = [];
    this.highs = [];
    this.sig.release();
  }

  get size(): number {
    return this.sig.size;
  }

  /** Bytes of the pages and the signature table's slots. */
  bytes(): number {
    return this.words.length * PAGE * TREE_BYTES + this.sig.bytes();
  }

  /**
   * Bytes per stored state: the signature table's, and the pages these states need, but no
   * page the cap refused: the state whose `set` failed is in the signature table only.
   */
  bytesPerState(): number {
    const n = this.sig.size;
    if (n === 0) return 0;
    return this.sig.bytesPerState() + (Math.min(Math.ceil(n / PAGE), this.words.length) * PAGE * TREE_BYTES) / n;
  }

  /**
   * Starts a tree whose root is the Game's current position, state 0 of the (cleared) signature
   * table, with signature lanes a and b (`baseSig`); false when the memory cap forbids even the
   * first page.
   */
  begin(a: number, b: number): boolean {
    this.path[0] = 0;
    this.pathSigs[0] = a;
    this.pathSigs[1] = b;
    this.pathLen = 1;
    return this.set(0, 0, 0);
  }

  /**
   * Records that state `id` (below TREE_MAX_STATES) was reached from `parent` by `m`; false when
   * the memory cap forbids it. (The root's parent is stored as 0 and never read.)
   */
  set(id: number, parent: number, m: PackedMove): boolean {
    const page = id >>> PAGE_BITS;
    if (page === this.words.length) {
      if ((page + 1) * PAGE * TREE_BYTES > this.maxBytes || (this.budget && !this.budget.take(PAGE * TREE_BYTES))) return false;
      this.words.push(new Int32Array(PAGE));
      this.highs.push(new Uint8Array(PAGE));
    }
    this.words[page]![id & PAGE_MASK] = parent | ((m & 31) << 27);
    this.highs[page]![id & PAGE_MASK] = (m >> 5) & 127;
    return true;
  }

  parent(id: number): number {
    return this.words[id >>> PAGE_BITS]![id & PAGE_MASK]! & ID_MASK;
  }

  /** The source and destination of the move that reached state `id` (12 bits). */
  via(id: number): number {
    return (this.words[id >>> PAGE_BITS]![id & PAGE_MASK]! >>> 27) | (this.highs[id >>> PAGE_BITS]![id & PAGE_MASK]! << 5);
  }

  /** The state the Game stands at (the end of the path). */
  get at(): number {
    return this.path[this.pathLen - 1]!;
  }

  /** Signature lanes of the state the Game stands at. */
  get sigA(): number {
    return this.pathSigs[2 * this.pathLen - 2]!;
  }

  get sigB(): number {
    return this.pathSigs[2 * this.pathLen - 1]!;
  }

  /** Whether the move into the state the Game stands at was a draw (false at the root). */
  get justDrew(): boolean {
    return this.pathLen > 1 && (this.via(this.at) & 63) === SRC_DRAW;
  }

  /**
   * Moves the Game, which stands at the end of the path, to state x (see the class comment).
   * With `sigs` false it does not make the signatures of the states it passes (`sigA` and
   * `sigB` then say nothing): for a caller that keeps each state's signature itself, as beam
   * search does (`BeamLevels.stateA`), and walks this tree without them until the next `begin`
   * (a walk with them starts from the signatures of the path it leaves).
   */
  walkTo(g: Game, packer: KeyPacker, x: number, sigs = true): void {
    const path = this.path;
    let i = this.pathLen - 1;
    let k = 0;
    for (let y = x; y !== path[i]; ) {
      if (y > path[i]!) {
        if (k === this.chain.length) this.chain = grow(this.chain);
        this.chain[k++] = y;
        y = this.parent(y);
      } else i--;
    }
    for (let j = this.pathLen - 1; j > i; j--) g.undo();
    if (i + 1 + k > this.path.length) {
      this.path = grow(this.path, i + 1 + k);
      this.pathSigs = grow(this.pathSigs, 2 * (i + 1 + k));
    }
    const ps = this.pathSigs;
    for (k--; k >= 0; k--) {
      const c = this.chain[k]!;
      const via = this.via(c);
      const m = via | (g.cardAt(via & 63) << 12);
      if (sigs) {
        packer.childSig(ps[2 * i]!, ps[2 * i + 1]!, m);
        ps[2 * i + 2] = packer.sigA;
        ps[2 * i + 3] = packer.sigB;
      }
      i++;
      this.path[i] = c;
      g.apply(m);
    }
    this.pathLen = i + 1;
  }
}

function grow(a: Int32Array<ArrayBuffer>, atLeast = 0): Int32Array<ArrayBuffer> {
  const b = new Int32Array(Math.max(2 * a.length, atLeast));
  b.set(a);
  return b;
}
