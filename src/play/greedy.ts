import { type Card } from '../game/cards.js';
import { type Tactics, NO_RESTRICTION } from '../game/tactics.js';
import { type PackedMove, DST_FOUNDATION, SRC_DRAW, SRC_FIFTH, SRC_PRIV, SRC_REDEAL, SRC_WASTE } from '../game/state.js';
import { type Player } from './player.js';
import { type TableView, BLIND_FIFTH, STOP } from './view.js';

const F = DST_FOUNDATION << 6;
const PAIR_ALWAYS = 0;
const PAIR_CAUTIOUS = 1;
const PAIR_NEVER = 2;
const SPACE_EAGER = 0;
const SPACE_HOLD = 1;
const SPACE_NEVER = 2;

/**
 * The fast rule-based player. It reads the position through the view's accessors and builds
 * its move itself (no move list, no allocation per move); the tests replay its games through
 * the verifier. Decisions, first that applies:
 *
 *  0. A free ace goes up (compulsory, RULES.md rule 1).
 *  1. Home: a card that a foundation takes goes up. Safety rule: sending a card home is always
 *     taken, in this order — a pair's covering card (frees a pair target and the card under
 *     it), a card with dealt cards under it, the waste top / a privileged card, a lone card
 *     (its column becomes a space). A card home can no longer take its lower twin as a pair,
 *     but keeping it down blocks its column and every higher card of its suit: measured, no
 *     hold-back rule tried beat "always".
 *  2. Uncover: a column's exposed dealt card with dealt cards under it moves away — as a pair
 *     (pairing knob) onto the column with the fewest cards, else into a space (spaces knob:
 *     eager any time, hold only in the second deal and then for privileged cards only, so not
 *     here). Columns whose next card can go home first, then the deepest. Then a lone card
 *     pairs away to make a space (not under spaces=never, where a space is of no use).
 *  3. Pair (knob): the waste top (phase 1) or a privileged card (phase 2) onto a column.
 *     `cautious`: not onto a column with cards above its exposed card (allowedByTactics).
 *  4. Spaces (knob): eager — the waste top into a space in phase 1; eager or hold — in phase 2
 *     a privileged card into a space: the one whose lower twin waits in the row or as the
 *     fifth card (it can then be paired on it), else the one farthest from its foundation.
 *  5. Phase 1: draw; when the stock is out, redeal. Phase 2: the fifth card when rule 7 lets it
 *     be turned: home if it can go, else as a pair (knob). With the pile forgotten: turn it
 *     blind (the only way on). Else stop.
 * Ties go to the lowest place, so the player is deterministic without a random generator.
 */
export class GreedyPlayer implements Player {
  readonly name: string;
  readonly tactics: Tactics;
  private readonly pairing: number;
  private readonly spaces: number;
  /** Columns (bit per column) showing each card code and able to take a pair on it. */
  private readonly byTop = new Uint32Array(64);
  /** First empty column at the last full decision. */
  private space = -1;
  private lastView: TableView | null = null;
  private lastMoveNumber = -1;
  private lastStock = -1;
  /** The last move chosen was a draw. */
  private drew = false;

  constructor(tactics: Tactics = NO_RESTRICTION) {
    this.tactics = tactics;
    this.pairing = tactics.pairing === 'always' ? PAIR_ALWAYS : tactics.pairing === 'cautious' ? PAIR_CAUTIOUS : PAIR_NEVER;
    this.spaces = tactics.spaces === 'eager' ? SPACE_EAGER : tactics.spaces === 'hold' ? SPACE_HOLD : SPACE_NEVER;
    this.name = `greedy(${tactics.pairing},${tactics.spaces})`;
  }

  reset(_seed: number): void {
    this.lastView = null;
  }

  choose(v: TableView): PackedMove {
    // Fast path: the one move since this player's last decision was a draw (only a draw takes a
    // card from the stock) and that decision was to draw: the layout and the foundations are as
    // they were then — nothing in them could move, else it would not have drawn — and `byTop`
    // and `space` still hold. Only the new waste top needs a look.
    const n = v.moveNumber;
    const stock = v.stockLeft;
    if (this.drew && this.lastView === v && n === this.lastMoveNumber + 1 && stock === this.lastStock - 1 && v.phase === 1) {
      this.lastMoveNumber = n;
      this.lastStock = stock;
      return this.afterDraw(v);
    }
    const m = this.decide(v);
    this.lastView = v;
    this.lastMoveNumber = n;
    this.lastStock = stock;
    this.drew = m === SRC_DRAW;
    return m;
  }

  /** Phase 1 after a draw: the new waste top home, as a pair, into a space (eager); else draw on. */
  private afterDraw(v: TableView): PackedMove {
    const w = v.wasteTop();
    if (v.canHome(w)) {
      this.drew = false;
      return SRC_WASTE | F | (w << 12);
    }
    const d = this.pairTarget(v, w, 0);
    if (d >= 0) {
      this.drew = false;
      return SRC_WASTE | (d << 6) | (w << 12);
    }
    if (this.space >= 0 && this.spaces === SPACE_EAGER) {
      this.drew = false;
      return SRC_WASTE | (this.space << 6) | (w << 12);
    }
    if (v.stockLeft > 0) return SRC_DRAW;
    this.drew = false;
    return v.secondDeal ? SRC_REDEAL : STOP;
  }

  /** The column taking `card` as a pair that the pairing knob allows, fewest cards first; -1 if none. `except`: bit mask of columns to skip. */
  private pairTarget(v: TableView, card: Card, except: number): number {
    if (this.pairing === PAIR_NEVER) return -1;
    let t = this.byTop[card + 1]! & ~except;
    let best = -1;
    let bestLen = 99;
    const cautious = this.pairing === PAIR_CAUTIOUS && !v.canHome(card);
    while (t !== 0) {
      const d = 31 - Math.clz32(t & -t);
      t &= t - 1;
      const l = v.len(d);
      if (cautious && l > 1) continue;
      if (l < bestLen) {
        bestLen = l;
        best = d;
      }
    }
    return best;
  }

  private decide(v: TableView): PackedMove {
    const C = v.columns;
    const phase = v.phase;
    // One pass over the columns: pair targets (byTop), the first space, a free ace, the best
    // card home.
    const byTop = this.byTop;
    byTop.fill(0);
    const building = v.building !== 0;
    let best: PackedMove = STOP;
    let bestScore = 0;
    let space = -1;
    let ace: PackedMove = STOP;
    for (let c = 0; c < C; c++) {
      const l = v.len(c);
      if (l === 0) {
        if (space < 0) space = c;
        continue;
      }
      const t = v.top(c);
      const pairTop = v.isPairTop(c);
      if (building && !pairTop) byTop[t]! |= 1 << c;
      if (!v.canHome(t)) continue;
      if ((t & 15) === 1) {
        if (ace === STOP) ace = c | F | (t << 12);
        continue;
      }
      const o = v.dealtLeft(c);
      const s = pairTop ? 4 : o >= 2 && o === l ? 3 : l >= 2 ? 3 : 1;
      if (s > bestScore) {
        bestScore = s;
        best = c | F | (t << 12);
      }
    }
    this.space = space;
    if (v.fifthUp) {
      // Turned blind: it must be played at once (home, or as a pair), or the player stops.
      const f = v.fifthCard();
      if (v.canHome(f)) return SRC_FIFTH | F | (f << 12);
      const d = this.pairTarget(v, f, 0);
      return d >= 0 ? SRC_FIFTH | (d << 6) | (f << 12) : STOP;
    }
    // 0. Compulsory aces.
    if (ace !== STOP) return ace;
    const privLen = v.privLen;
    if (phase === 1) {
      const w = v.wasteTop();
      if ((w & 15) === 1) return SRC_WASTE | F | (w << 12);
    } else {
      for (let i = 0; i < privLen; i++) {
        const p = v.privCard(i);
        if ((p & 15) === 1) return (SRC_PRIV + i) | F | (p << 12);
      }
    }
    // 1. Home (scored in the pass above; the waste top or a privileged card next).
    if (phase === 1) {
      const w = v.wasteTop();
      if (w !== 0 && v.canHome(w) && bestScore < 2) {
        bestScore = 2;
        best = SRC_WASTE | F | (w << 12);
      }
    } else if (bestScore < 2) {
      for (let i = 0; i < privLen; i++) {
        const p = v.privCard(i);
        if (v.canHome(p)) {
          bestScore = 2;
          best = (SRC_PRIV + i) | F | (p << 12);
          break;
        }
      }
    }
    if (bestScore > 0) return best;
    // 2. Uncover dealt cards, then make spaces.
    const layoutSpaces = space >= 0 && (this.spaces === SPACE_EAGER || (this.spaces === SPACE_HOLD && phase === 2));
    for (let c = 0; c < C; c++) {
      const l = v.len(c);
      if (l === 0 || v.isPairTop(c)) continue;
      const o = v.dealtLeft(c);
      const uncover = o === l && l >= 2;
      if (!uncover && (l !== 1 || this.spaces === SPACE_NEVER)) continue;
      const t = v.top(c);
      const d = this.pairTarget(v, t, 1 << c);
      let s: number;
      let dst: number;
      if (d >= 0) {
        dst = d;
        s = uncover ? 20 + (v.canHome(v.card(c, l - 2)) ? 40 : 0) + o : 10;
      } else if (uncover && layoutSpaces) {
        dst = space;
        s = 19 + (v.canHome(v.card(c, l - 2)) ? 40 : 0) + o;
      } else continue;
      if (s > bestScore) {
        bestScore = s;
        best = c | (dst << 6) | (t << 12);
      }
    }
    if (bestScore > 0) return best;
    // 3. Pairs from the waste or the privileged row.
    if (phase === 1) {
      const w = v.wasteTop();
      if (w !== 0) {
        const d = this.pairTarget(v, w, 0);
        if (d >= 0) return SRC_WASTE | (d << 6) | (w << 12);
        // 4. Spaces, phase 1: eager only.
        if (space >= 0 && this.spaces === SPACE_EAGER) return SRC_WASTE | (space << 6) | (w << 12);
      }
      // 5. Draw, or redeal.
      if (v.stockLeft > 0) return SRC_DRAW;
      if (v.secondDeal && v.wasteLen > 0) return SRC_REDEAL;
      return STOP;
    }
    for (let i = 0; i < privLen; i++) {
      const p = v.privCard(i);
      const d = this.pairTarget(v, p, 0);
      if (d >= 0) return (SRC_PRIV + i) | (d << 6) | (p << 12);
    }
    // 4. Spaces, phase 2: a privileged card (eager or hold).
    if (space >= 0 && privLen > 0) {
      if (this.spaces === SPACE_NEVER) return STOP; // a space blocks the fifth card (rule 7): nothing else moves the row
      const fifth = v.fifthCard();
      let bi = 0;
      let bs = -1;
      for (let i = 0; i < privLen; i++) {
        const p = v.privCard(i);
        let s = (p & 15) - this.suitTop(v, p >> 4);
        for (let j = 0; j < privLen; j++) if (j !== i && v.privCard(j) === p - 1) s += 100;
        if (fifth === p - 1) s += 100;
        if (s > bs) {
          bs = s;
          bi = i;
        }
      }
      const p = v.privCard(bi);
      return (SRC_PRIV + bi) | (space << 6) | (p << 12);
    }
    // 5. The fifth card (rule 7: only when no privileged card can move; then there is no space).
    if (v.pileLen === 0 || v.privilegedCanMove()) return STOP;
    if (v.pile === 'forgotten') return BLIND_FIFTH;
    const f = v.fifthCard();
    if (v.canHome(f)) return SRC_FIFTH | F | (f << 12);
    const d = this.pairTarget(v, f, 0);
    return d >= 0 ? SRC_FIFTH | (d << 6) | (f << 12) : STOP;
  }

  /** Highest foundation of a suit. */
  private suitTop(v: TableView, s: number): number {
    let top = 0;
    for (let k = 0; k < v.packs; k++) {
      const r = v.foundation(s * v.packs + k);
      if (r > top) top = r;
    }
    return top;
  }
}
