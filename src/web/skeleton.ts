/** The page's frame: the header with the deal chooser, the verdict and the tabs, the table, the Watch and Play panels, the legend. */

/** The element `sel` under `root` (the frame below has each one). */
export const $ = <T extends HTMLElement>(root: ParentNode, sel: string): T => root.querySelector(sel) as T;

/** Writes the frame into `root`; the App wires its buttons. */
export function skeleton(root: HTMLElement): void {
  root.innerHTML = `
<header>
  <div class="titlebar">
    <h1><span class="brand">Limited</span> <span class="deal"></span></h1>
    <button id="new-game" class="newgame" aria-expanded="false" aria-controls="chooser">New game…</button>
  </div>
  <form id="chooser" class="chooser" hidden>
    <div class="choice"><label for="deal-no">Deal number</label><input id="deal-no" name="deal" inputmode="numeric" autocomplete="off" placeholder="e.g. 17"><button type="submit" data-by="deal">Open</button></div>
    <div class="choice"><label for="pysol-no">PySolFC game</label><input id="pysol-no" name="pysol" inputmode="numeric" autocomplete="off" placeholder="e.g. 123456"><button type="submit" data-by="pysol">Open</button></div>
    <div class="choice"><button type="submit" data-by="random" id="random-deal">Random deal</button><span class="hint-text">the same size and rules as this one</span></div>
    <div class="choice paste"><label for="deal-text">or paste a deal file</label><textarea id="deal-text" rows="4" spellcheck="false" placeholder="size: 2x13 12x3&#10;row 1: ...&#10;stock: ..."></textarea><button type="submit" data-by="file">Open</button></div>
    <div id="chooser-error" class="chooser-error" role="alert"></div>
  </form>
  <p class="sub"></p>
  <div class="verdict" id="verdict" aria-live="polite"></div>
  <nav class="tabs" role="tablist">
    <button role="tab" data-mode="view" id="tab-view">Watch the solution</button>
    <button role="tab" data-mode="play" id="tab-play">Play</button>
  </nav>
</header>
<section id="board" class="table" aria-label="the table"></section>
<section id="view-panel" class="panel">
  <div id="gate" class="gate" hidden></div>
  <div class="controls" id="view-controls">
    <button id="first" title="the start (Home)" aria-label="to the start">|◀</button><button id="prev" title="back one move (←)" aria-label="back one move">◀</button>
    <button id="next" title="forward one move (→)" aria-label="forward one move">▶</button><button id="last" title="the end (End)" aria-label="to the end">▶|</button>
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
  <div class="settings">
    <label>Verdicts <select id="verdicts" aria-label="when the solver's verdict is shown">
      <option value="off">off</option><option value="ask">on request</option><option value="always">after every move</option>
    </select></label>
    <label><input type="checkbox" id="perfect"> perfect information (name the stock's cards before they are turned)</label>
  </div>
  <div id="status" class="status" role="status" aria-live="polite"></div>
  <div id="message" class="message" aria-live="polite"></div>
  <div class="legal-title">Legal moves (or click or drag a card to where it goes; keys: arrows and Enter):</div>
  <div id="legal" class="legal"></div>
</section>
<footer>
  <span class="legend"><span class="swatch red" aria-hidden="true">♥ ♦</span> hearts and diamonds: red, on a striped face · <span class="swatch" aria-hidden="true">♠ ♣</span> spades and clubs: black</span>
  <span>A card on another of its suit one rank higher makes a <b>pair</b> (dashed violet outline): its top card may only go home.</span>
  <span id="keys" class="keys"></span>
</footer>`;
}
