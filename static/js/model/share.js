// Share links and saved preferences.
//
// A share link carries the position in the URL fragment:
//   index.html#tiles=1,5,9,13,2,6,10,14,3,7,11,15,4,8,12,0          (4x4 inferred)
//   index.html#tiles=1,2,3,4,5,6,7,8,9,10,11,0&shape=3x4            (shape when ambiguous)
//   index.html#tiles=...&moves=LLUURD...                              (a solution: the gap's moves)
//   index.html#tiles=...&goal=blank-first                             (another goal: a name, or its tiles 0,1,2,...)
// The shape is left out when the count of tiles names it (model/board.js inferShape: square
// boards, and 2x3, 2x4, 2x5), the goal when it is the standard one.
// The fragment never reaches the server, so any static host works.  A link's position and goal
// take at most MAX_LINK_CHARS characters, its moves at most MAX_LINK_MOVES more (linkTooLong).

import { GOALS, inferShape, parseShape, isPermutation } from "./board.js";

/** The longest fragment a position and its goal can need (10x10: 2 x 290 characters), its moves left out. */
export const MAX_LINK_CHARS = 800;

/** The most moves a link carries (the page's move lists: model/moves.js). */
export const MAX_LINK_MOVES = 2000;

/** True when `hash` is too long to be read: a position over MAX_LINK_CHARS, or too many moves. */
export function linkTooLong(hash) {
  const h = String(hash);
  const moves = /[#&]moves=[^&]*/.exec(h)?.[0] || "";
  return h.length - moves.length > MAX_LINK_CHARS || moves.length > MAX_LINK_MOVES + 7;
}

const numbers = (text) => text.split(" ").map((p) => (/^\d+$/.test(p) ? Number(p) : NaN));

/**
 * Read {tiles, shape, text, goal, goalText, bound, moves} from a location hash; null when it holds
 * no position.  `tiles` and `goal` are null when they are not a permutation of the shape's
 * squares (the solver's parser then says why); `goalText` is the link's goal as written ("" for
 * none: the standard goal), a name or tiles.
 */
export function readHash(hash = location.hash) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ""));
  const raw = params.get("tiles");
  if (raw === null) return null;
  const text = raw.split(/[\s,]+/).filter(Boolean).join(" ");
  const tiles = numbers(text);
  const shape = params.get("shape") || inferShape(tiles.length);
  const dims = parseShape(shape);
  const valid = !!dims && isPermutation(tiles, dims.rows * dims.cols);
  const goalText = (params.get("goal") || "").split(/[\s,]+/).filter(Boolean).join(" ");
  let goal = null;
  if (dims && GOALS[goalText]) goal = GOALS[goalText](dims.rows, dims.cols);
  else if (dims && goalText && isPermutation(numbers(goalText), dims.rows * dims.cols)) goal = numbers(goalText);
  else if (dims && !goalText) goal = GOALS.standard(dims.rows, dims.cols);
  const moves = (params.get("moves") || "").trim();
  return { text, shape, tiles: valid ? tiles : null, goal, goalText, bound: params.get("bound"), moves };
}

/** The fragment of `board` (its goal by name when it has one), with `moves` (the gap's moves, U/D/L/R) when given. */
export function makeHash(board, { moves = "" } = {}) {
  const shapeNeeded = inferShape(board.tiles.length) !== board.shape;
  const name = board.goalName;
  const goal = name === "standard" ? "" : `&goal=${name || board.goal.join(",")}`;
  return `#tiles=${board.tiles.join(",")}${shapeNeeded ? `&shape=${board.shape}` : ""}${goal}${moves ? `&moves=${moves}` : ""}`;
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
