// Share links and saved preferences.
//
// A share link carries the position in the URL fragment:
//   index.html#tiles=1,5,9,13,2,6,10,14,3,7,11,15,4,8,12,0          (4x4 inferred)
//   index.html#tiles=1,2,3,4,5,6,7,8,9,10,11,0&shape=3x4            (shape when ambiguous)
//   index.html#tiles=...&moves=LLUURD...                              (a solution: the gap's moves)
// The fragment never reaches the server, so any static host works.  A link's position takes
// at most MAX_LINK_CHARS characters, its moves at most MAX_LINK_MOVES more (linkTooLong).

import { parseShape, shapesForCount, isPermutation } from "./board.js";

/** The longest fragment a position can need (25 squares), its moves left out. */
export const MAX_LINK_CHARS = 400;

/** The most moves a link carries (the page's move lists: model/moves.js). */
export const MAX_LINK_MOVES = 2000;

/** True when `hash` is too long to be read: a position over MAX_LINK_CHARS, or too many moves. */
export function linkTooLong(hash) {
  const h = String(hash);
  const moves = /[#&]moves=[^&]*/.exec(h)?.[0] || "";
  return h.length - moves.length > MAX_LINK_CHARS || moves.length > MAX_LINK_MOVES + 7;
}

/** Read {tiles, shape, text, bound, moves} from a location hash; null when it holds no position. */
export function readHash(hash = location.hash) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ""));
  const raw = params.get("tiles");
  if (raw === null) return null;
  const text = raw.split(/[\s,]+/).filter(Boolean).join(" ");
  let shape = params.get("shape");
  const parts = text.split(" ");
  const tiles = parts.map((p) => (/^\d+$/.test(p) ? Number(p) : NaN));
  if (!shape) {
    const candidates = shapesForCount(tiles.length);
    shape = candidates.length === 1 ? candidates[0] : null;
  }
  const dims = parseShape(shape);
  const valid = !!dims && isPermutation(tiles, dims.rows * dims.cols);
  const moves = (params.get("moves") || "").trim();
  return { text, shape, tiles: valid ? tiles : null, bound: params.get("bound"), moves };
}

/** The fragment of `board`, with `moves` (the gap's moves, U/D/L/R) when given. */
export function makeHash(board, { moves = "" } = {}) {
  const shapeNeeded = shapesForCount(board.tiles.length).length !== 1 || board.shape !== shapesForCount(board.tiles.length)[0];
  return `#tiles=${board.tiles.join(",")}${shapeNeeded ? `&shape=${board.shape}` : ""}${moves ? `&moves=${moves}` : ""}`;
}

export function shareUrl(board, options) {
  const u = new URL(location.href);
  u.hash = makeHash(board, options).slice(1);
  return u.href;
}

/**
 * Put the position (and `moves`, a solution shown from a link) in the address bar: a new
 * history entry with `push` (so Back returns to the previous position), else in place of the
 * current one.
 */
export function writeHash(board, { push = false, moves = "" } = {}) {
  const h = makeHash(board, { moves });
  if (location.hash === h) return;
  if (push) history.pushState(null, "", h);
  else history.replaceState(history.state ?? null, "", h); // the entry keeps its state (main.js historyEntry)
}

const PREFIX = "fifteen.";

export const prefs = {
  get(key, fallback) {
    try {
      const v = localStorage.getItem(PREFIX + key);
      return v === null ? fallback : JSON.parse(v);
    } catch {
      return fallback;
    }
  },
  set(key, value) {
    try {
      localStorage.setItem(PREFIX + key, JSON.stringify(value));
    } catch {
      /* private mode or quota: preferences are a nicety */
    }
  },
};
