/** The page's frame: the header with the verdict and the tabs, the table, the Watch and Play panels, the legend. */
import { cardHtml } from './board.js';

/** The element `sel` under `root` (the frame below has each one). */
export const $ = <T extends HTMLElement>(root: ParentNode, sel: string): T => root.querySelector(sel) as T;

/** Writes the frame into `root`; the App wires its buttons. */
export function skeleton(root: HTMLElement): void {
  root.innerHTML = `
<header>
  <h1><span class="brand">Limited</span> <span class="deal"></span></h1>
  <p class="sub"></p>
  <div class="verdict" id="verdict"></div>
  <nav class="tabs" role="tablist">
    <button role="tab" data-mode="view" id="tab-view">Watch the solution</button>
    <button role="tab" data-mode="play" id="tab-play">Play</button>
  </nav>
</header>
<section id="board" class="table" aria-label="the table"></section>
<section id="view-panel" class="panel">
  <div class="controls">
    <button id="first" title="the start (Home)">|◀</button><button id="prev" title="back one move (←)">◀</button>
    <button id="next" title="forward one move (→)">▶</button><button id="last" title="the end (End)">▶|</button>
    <button id="auto" title="step through by itself">Auto</button>
    <input type="range" id="slider" min="0" max="0" value="0" aria-label="move">
    <span id="where" class="where"></span>
  </div>
  <div id="move-info" class="moveinfo"></div>
  <ol id="moves" class="movelist"></ol>
</section>
<section id="play-panel" class="panel">
  <div class="controls">
    <button id="undo" title="take back the last move (U)">↶ Undo</button>
    <button id="restart" title="back to the start">⟲ Restart</button>
    <button id="hint" title="the solver plays its next move (H)">Hint</button>
    <span id="played" class="where"></span>
  </div>
  <div id="status" class="status"></div>
  <div id="message" class="message" aria-live="polite"></div>
  <div class="legal-title">Legal moves (or click a card, then where it goes):</div>
  <div id="legal" class="legal"></div>
</section>
<footer>
  <span class="legend">${cardHtml(0x15)} ${cardHtml(0x25)} hearts and diamonds: red, on a striped face · ${cardHtml(0x05)} ${cardHtml(0x35)} spades and clubs: black</span>
  <span>A card on another of its suit one rank higher makes a <b>pair</b> (outlined): its top card may only go home. Keys: ← → step, Home / End, U undo, H hint.</span>
</footer>`;
}
