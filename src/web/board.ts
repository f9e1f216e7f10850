/**
 * The table drawn as HTML: stock and waste (or, in the second deal, the pile and the
 * privileged row), the foundations, and the columns as overlapping cards. Each place carries
 * `data-place` (the move notation's name: `c3`, `w`, `p2`, `n`, `f`, `stock`) for clicks, and
 * its cards in notation (`data-cards`, `data-top`, `data-count`) for the browser tests.
 *
 * Suits are told apart by their symbols; hearts and diamonds are red and, for readers who do not
 * see red, also drawn on a striped face.
 */
import {
  type Card, type Game, type PackedMove, RANK_LETTERS, SRC_DRAW, SRC_REDEAL, SUIT_SYMBOLS, formatCard, formatPlace, moveCard, moveDst, moveSrc,
} from '../game/index.js';

const SUIT_NAMES = ['spades', 'hearts', 'diamonds', 'clubs'] as const;
const RANK_NAMES = ['', 'ace', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'jack', 'queen', 'king'] as const;

/** `10` rather than the notation's `T`: what a player reads on a card. */
const rankText = (c: Card): string => (c & 15) === 10 ? '10' : RANK_LETTERS[c & 15]!;

export const cardName = (c: Card): string => `${RANK_NAMES[c & 15]} of ${SUIT_NAMES[c >> 4]}`;

/** A card as a player reads it: `10♥`. */
export const cardLabel = (c: Card): string => rankText(c) + SUIT_SYMBOLS[c >> 4]!;

export function cardHtml(c: Card, extra = '', style = ''): string {
  const suit = c >> 4;
  const red = suit === 1 || suit === 2 ? ' red' : '';
  return (
    `<div${style ? ` style="${style}"` : ''} class="card${red}${extra}" data-card="${formatCard(c)}" aria-hidden="true">` +
    `<span class="ix">${rankText(c)}<i>${SUIT_SYMBOLS[suit]}</i></span><span class="pip">${SUIT_SYMBOLS[suit]}</span></div>`
  );
}

/** What to mark on the table: the last move's source and destination, and places a player may choose. */
export interface Marks {
  /** The move just played (marked as from and to). */
  readonly last?: PackedMove | null;
  /** The move that comes next (its card marked as next). */
  readonly next?: PackedMove | null;
  /** A place the player has picked up a card from. */
  readonly selected?: string | null;
  /** Places a picked-up card may go to. */
  readonly targets?: ReadonlySet<string>;
  /** Places with a card that has a legal move (marked on hover). */
  readonly playable?: ReadonlySet<string>;
  /** Whether the fifth card is shown face up (turned by the player, or perfect information). */
  readonly fifth?: boolean;
  /** Whether the places take focus and clicks (Play). */
  readonly interactive?: boolean;
}

/** The place a move's source is shown at: its notation's (`c3`, `w`, `p2`, `n`), `stock` for a draw, the pile for the redeal (it turns the waste over into the pile). */
export function srcPlace(m: PackedMove): string {
  const s = moveSrc(m);
  return s === SRC_DRAW ? 'stock' : s === SRC_REDEAL ? 'n' : formatPlace(s);
}

/** The place a move's card lands: its notation's (`f`, `c3`), the waste for a draw, the privileged row for the redeal. */
export function dstPlace(m: PackedMove): string {
  const s = moveSrc(m);
  return s === SRC_DRAW ? 'w' : s === SRC_REDEAL ? 'priv' : formatPlace(moveDst(m));
}

/** The whole table for the game's position. */
export function boardHtml(g: Game, marks: Marks): string {
  const last = marks.last ?? null;
  const from = last !== null ? srcPlace(last) : '';
  const to = last !== null ? dstPlace(last) : '';
  const nextFrom = marks.next != null ? srcPlace(marks.next) : '';
  const targets = marks.targets ?? new Set<string>();
  const playable = marks.playable ?? new Set<string>();
  const cls = (place: string): string =>
    (place === from ? ' from' : '') + (place === to ? ' to' : '') + (place === marks.selected ? ' selected' : '') + (targets.has(place) ? ' target' : '') +
    (place === nextFrom ? ' next' : '') + (playable.has(place) ? ' playable' : '');
  // A place a keyboard reaches and a screen reader names: what it is and what lies there.
  const attrs = (place: string, label: string): string =>
    `data-place="${place}" aria-label="${label}${place === marks.selected ? ', selected' : ''}${targets.has(place) ? ', the selected card may go here' : ''}"` +
    (marks.interactive ? ' tabindex="-1" role="button"' : '');
  const out: string[] = ['<div class="top">', '<div class="deck">'];

  if (g.phase === 1) {
    const left = g.stockSize - g.stockPtr;
    const redeal = left === 0 && g.secondDeal && g.wasteLen > 0;
    out.push(
      `<div class="slot stock${cls('stock')}" ${attrs('stock', left === 0 ? (redeal ? 'stock, out: redeal to begin the second deal' : 'stock, out') : `stock, ${left} cards to draw`)} data-count="${left}">` +
        (left > 0 ? `<div class="back"></div>` : redeal ? '<div class="empty redeal">↻<small>redeal</small></div>' : '<div class="empty">—</div>') +
        `<span class="badge">${left}</span><span class="name">stock</span></div>`,
    );
    const top = g.wasteTop();
    const shown: string[] = [];
    const fan = Math.min(3, g.wasteLen);
    for (let i = g.wasteLen - fan; i < g.wasteLen; i++) {
      const c = g.stockCards[g.waste[i]!]!;
      shown.push(cardHtml(c, i === g.wasteLen - 1 ? ` top${to === 'w' && last !== null && moveCard(last) === c ? ' moved' : ''}` : ' under'));
    }
    out.push(
      `<div class="slot waste fan${fan}${cls('w')}" ${attrs('w', top ? `waste, ${cardName(top)} on top, ${g.wasteLen} cards` : 'waste, empty')} data-count="${g.wasteLen}" data-top="${top ? formatCard(top) : ''}">` +
        (g.wasteLen === 0 ? '<div class="empty"></div>' : shown.join('')) +
        `<span class="name">waste${g.wasteLen > 0 ? ` · ${g.wasteLen}` : ''}</span></div>`,
    );
  } else {
    const pile = g.wasteLen - g.pileNext;
    const fifth = marks.fifth ? g.fifthCard() : 0;
    out.push(
      `<div class="slot pile${cls('n')}" ${attrs('n', pile > 0 ? `pile, ${pile} cards face down: turn the fifth card` : 'pile, out')} data-count="${pile}">` +
        (pile > 0 ? '<div class="back"></div>' : '<div class="empty">—</div>') +
        `<span class="badge">${pile}</span><span class="name">pile</span></div>`,
    );
    // The fifth card's own slot: the card once turned (or with perfect information), else a frame.
    out.push(
      `<div class="slot fifth" data-top="${fifth ? formatCard(fifth) : ''}" aria-label="${fifth ? `the fifth card, ${cardName(fifth)}` : 'the fifth card, not turned'}">` +
        (fifth ? cardHtml(fifth) : '<div class="empty"><small>fifth</small></div>') + '<span class="name">n</span></div>',
    );
    const priv: string[] = [];
    const cards: string[] = [];
    for (let i = 0; i < g.privileged; i++) {
      const place = `p${i + 1}`;
      const c = i < g.privLen ? g.privCard(i) : 0;
      if (c) cards.push(formatCard(c));
      priv.push(`<div class="slot privcard${cls(place)}" ${attrs(place, c ? `privileged card ${place}, ${cardName(c)}` : `privileged place ${place}, empty`)}>${c ? cardHtml(c) : '<div class="empty"></div>'}<span class="name">${place}</span></div>`);
    }
    out.push(`<div class="priv${cls('priv')}" data-cards="${cards.join(' ')}" role="group" aria-label="the privileged row">${priv.join('')}</div>`);
  }
  out.push('</div>');

  // Foundations, suit by suit.
  out.push(`<div class="foundations${cls('f')}" ${attrs('f', `foundations, ${g.home} of ${g.total} cards home`)}><span class="rowname">${g.home} / ${g.total} home</span><div class="fslots">`);
  let movedFound = -1;
  if (last !== null && to === 'f') {
    const c = moveCard(last);
    for (let k = 0; k < g.packs && movedFound < 0; k++) if (g.found[(c >> 4) * g.packs + k] === (c & 15)) movedFound = (c >> 4) * g.packs + k;
  }
  for (let s = 0; s < 4; s++) {
    for (let k = 0; k < g.packs; k++) {
      const i = s * g.packs + k;
      const top = g.found[i]!;
      const card = top > 0 ? (s << 4) | top : 0;
      out.push(
        `<div class="slot found${i === movedFound ? ' landed' : ''}" data-suit="${s}" data-top="${card ? formatCard(card) : ''}">` +
          (card ? cardHtml(card) : `<div class="empty suit${s === 1 || s === 2 ? ' red' : ''}">${SUIT_SYMBOLS[s]}</div>`) +
          '</div>',
      );
    }
  }
  out.push('</div></div></div>');

  // Columns.
  let depth = 1;
  for (let c = 0; c < g.columns; c++) depth = Math.max(depth, g.len[c]!);
  out.push(`<div class="tableau" style="--depth:${depth - 1}">`);
  for (let c = 0; c < g.columns; c++) {
    const place = `c${c + 1}`;
    const l = g.len[c]!;
    const cards: string[] = [];
    const names: string[] = [];
    for (let i = 0; i < l; i++) {
      const card = g.cols[c * g.height + i]!;
      names.push(formatCard(card));
      const exposed = i === l - 1;
      const pairTop = exposed && g.isPairTop(c);
      const moved = exposed && to === place && last !== null && moveCard(last) === card;
      cards.push(cardHtml(card, `${exposed ? ' exposed' : ''}${pairTop ? ' pairtop' : ''}${moved ? ' moved' : ''}`, `top:calc(var(--pitch) * ${i})`));
    }
    const pair = l > 0 && g.isPairTop(c);
    const label =
      l === 0 ? `column ${c + 1}, a space` : `column ${c + 1}, ${cardName(g.top(c))} exposed${pair ? ', the top of a pair' : ''}, ${l} card${l === 1 ? '' : 's'}`;
    out.push(
      `<div class="column${cls(place)}" ${attrs(place, label)} data-cards="${names.join(' ')}"${pair ? ' data-pair="1"' : ''}>` +
        `<span class="name">${place}</span><div class="stack">${l === 0 ? '<div class="empty space">space</div>' : cards.join('')}</div></div>`,
    );
  }
  out.push('</div>');
  return out.join('');
}
