// The hall's pages, pure (no DOM): how many board tiles fit the screen, the pages they make and
// the cycle of screens (every page of boards, then the pools of one division).

/** The smallest board tile that stays readable from 5 m on a 1080p screen (px). */
export const TILE = { minWidth: 220, minHeight: 124, maxHeight: 220, gap: 8 };

/**
 * The grid of board tiles for `count` boards in a `width` x `height` area (px): as many columns
 * and rows as tiles of at least TILE's size fit, the pages that makes, the boards shared evenly
 * between them (124 boards: 3 pages of 42, 42, 40) and the height of a row; an endless `height`
 * (a page that scrolls) takes every board on one page.
 * @param {number} count @param {number} width @param {number} height @param {typeof TILE} [tile]
 * @returns {{cols: number, rows: number, perPage: number, pages: number, rowHeight: number}}
 */
export function pageLayout(count, width, height, tile = TILE) {
  const fit = (size, min) => Math.max(1, Math.floor((size + tile.gap) / (min + tile.gap)));
  const cols = Math.min(fit(width, tile.minWidth), Math.max(1, count));
  const capacity = cols * fit(height, tile.minHeight);
  const pages = Math.max(1, Math.ceil(count / capacity));
  const perPage = Math.max(1, Math.ceil(count / pages));
  const rows = Math.ceil(perPage / cols);
  const rowHeight = Number.isFinite(height)
    ? Math.min(tile.maxHeight, Math.floor((height - tile.gap * (rows - 1)) / rows)) : tile.minHeight;
  return { cols, rows, perPage, pages, rowHeight };
}

/** The items of page `page` (from 0). @template T @param {T[]} items @param {number} page
 * @param {number} perPage @returns {T[]} */
export function pageItems(items, page, perPage) {
  return items.slice(page * perPage, (page + 1) * perPage);
}

/**
 * The hall's screens in order: each page of boards, then the pools (when a division is drawn).
 * @param {number} pages @param {boolean} pools
 * @returns {({kind: "boards", page: number} | {kind: "pools"})[]}
 */
export function screens(pages, pools) {
  /** @type {({kind: "boards", page: number} | {kind: "pools"})[]} */
  const out = [];
  for (let page = 0; page < pages; page++) out.push({ kind: "boards", page });
  if (pools) out.push({ kind: "pools" });
  return out;
}
