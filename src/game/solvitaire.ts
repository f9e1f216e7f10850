import { type Card, formatCard } from './cards.js';
import { type Deal } from './deal.js';

/**
 * A deal in the JSON that the C++ solver Solvitaire reads (github.com/thecharlieblake/Solvitaire,
 * `solvitaire --type limited deal.json`), so that both programs can be run on the same deals.
 * As its deal parser reads it (src/main/input-output/input/json-parsing/deal_parser.cpp):
 * - "tableau piles": one array a column, each card placed on the one before, so the column's
 *   top row comes first and its exposed card last;
 * - "stock": placed the same way and dealt from the top, so the card drawn FIRST is LAST;
 * - cards as `10H`, `QS`, `AC` (tens written 10).
 * Solvitaire's `limited` preset is this project's `pysol` rules at full size (12 columns of 3,
 * built down by suit, one card at a time, spaces take any card, a 68-card stock dealt one at a
 * time to a waste, no redeal, two packs). PySolFC turns the first stock card to the waste at
 * the start; here it is simply the first card drawn, as in the deal file.
 */
export function formatSolvitaireDeal(deal: Deal): string {
  const name = (c: Card): string => formatCard(c).replace(/^T/, '10');
  const piles = deal.columns.map((col) => `    [${col.map((c) => `"${name(c)}"`).join(', ')}]`);
  const stock = deal.stock.slice().reverse().map((c) => `"${name(c)}"`);
  return `{\n  "tableau piles": [\n${piles.join(',\n')}\n  ],\n  "stock": [${stock.join(', ')}]\n}\n`;
}
