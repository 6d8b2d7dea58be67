// Board model: shapes, the goal, moves, solvability and uniform shuffles.
// Pure functions and a small immutable-ish Board class; no DOM here.
//
// Conventions (shared with the Python package): tiles are listed row-major,
// 0 is the blank; the standard goal is 1..N-1 with the blank bottom-right, and a
// board may carry any other goal (a permutation of 0..N-1, e.g. the blank-first
// 0 1 2 ... N-1 of many puzzle apps: fifteen.board.Goal).  A move is
// named either by the tile that slides (the seed's notation) or by the
// direction the BLANK moves: U, D, L, R.
//
// The solvability rule (isSolvable) repeats py/fifteen/board.py's
// solvability_problem on purpose, the one fact of the solver the page keeps a
// copy of: the page shuffles a board the moment it opens, 10-20 s before the
// Python solver has loaded, and Shuffle must not wait for (or depend on) the
// worker.  It is used only where the page must work before the solver has
// loaded: Shuffle and a new size (randomTiles), a share link drawn at once
// (control/text.js linkDrawable), a goal chosen while the solver loads
// (control/goal.js; once it has loaded, the solver says).  Every position still
// reaches the solver, which checks it again.  tests/js/board.test.mjs checks
// this copy against a breadth-first search of the reachable positions on the
// small boards.

/** The sides a board may have (fifteen.board's MIN_SIDE .. MAX_SIDE). */
export const MIN_SIDE = 2;
export const MAX_SIDE = 10;

/** Every shape the solver accepts, rows first: 2x2, 2x3 ... 10x10 (python -m fifteen info's shapes). */
const SIDES = Array.from({ length: MAX_SIDE - MIN_SIDE + 1 }, (_, i) => i + MIN_SIDE);
export const SHAPES = Object.freeze(SIDES.flatMap((r) => SIDES.map((c) => `${r}x${c}`)));

/**
 * The shapes a count of tiles names without a shape given: the square one (as fifteen.board's
 * Shape.infer), and the three of the first size menu that had no other shape of their count
 * (2x3, 2x4, 2x5: share links written then carry no shape).
 */
const LINK_SHAPES = Object.freeze({ 6: "2x3", 8: "2x4", 10: "2x5" });

export function parseShape(shape) {
  const m = /^(\d+)x(\d+)$/.exec(String(shape || ""));
  if (!m) return null;
  return { rows: Number(m[1]), cols: Number(m[2]) };
}

export function shapeName(rows, cols) {
  return `${rows}x${cols}`;
}

/** Shapes with `count` squares, in SHAPES order. */
export function shapesForCount(count) {
  return SHAPES.filter((s) => {
    const { rows, cols } = parseShape(s);
    return rows * cols === count;
  });
}

/** The shape `count` tiles name when no shape is given (LINK_SHAPES), or null: the shape must be said. */
export function inferShape(count) {
  const side = Math.round(Math.sqrt(count));
  if (side * side === count && side >= MIN_SIDE && side <= MAX_SIDE) return shapeName(side, side);
  return LINK_SHAPES[count] || null;
}

export function goalTiles(rows, cols) {
  const n = rows * cols;
  const t = [];
  for (let i = 1; i < n; i++) t.push(i);
  t.push(0);
  return t;
}

export function inversions(tiles) {
  const a = tiles.filter((t) => t !== 0);
  let inv = 0;
  for (let i = 0; i < a.length; i++) for (let j = i + 1; j < a.length; j++) if (a[i] > a[j]) inv++;
  return inv;
}

/** The blank-first goal 0 1 2 ... N-1. */
export function blankFirstTiles(rows, cols) {
  return Array.from({ length: rows * cols }, (_, i) => i);
}

/** The goals with a name (fifteen.board's GOAL_NAMES): name -> tiles(rows, cols). */
export const GOALS = Object.freeze({ standard: goalTiles, "blank-first": blankFirstTiles });

/** The name of `goal` (tiles) on a rows x cols board ("standard", "blank-first"), or null for another goal. */
export function goalName(goal, rows, cols) {
  const text = goal.join(" ");
  return Object.keys(GOALS).find((name) => GOALS[name](rows, cols).join(" ") === text) || null;
}

/**
 * The goal a new rows x cols board of the page gets when `board` showed before: its goal on
 * the same size, the blank-first goal after a blank-first one, else the standard goal.
 */
export function goalLike(board, rows, cols) {
  if (board.rows === rows && board.cols === cols) return board.goal.slice();
  return (board.goalName === "blank-first" ? blankFirstTiles : goalTiles)(rows, cols);
}

/**
 * Solvable for `goal` (tiles; the standard goal when not given).  Every move is one swap of
 * the blank with a tile and one step of the blank, so a position reaches a goal when the
 * parity of the permutation between them equals the parity of the blank's distance to its
 * goal square (fifteen.board's solvability_problem).
 */
export function isSolvable(tiles, rows, cols, goal = null) {
  if (!goal) {
    const inv = inversions(tiles);
    if (cols % 2 === 1) return inv % 2 === 0;
    const blankRow = Math.floor(tiles.indexOf(0) / cols);
    return (inv + blankRow) % 2 === (rows - 1) % 2;
  }
  const home = [];
  goal.forEach((t, i) => (home[t] = i));
  const seen = new Array(tiles.length).fill(false);
  let swaps = 0;
  for (let i = 0; i < tiles.length; i++) {
    for (let j = i, len = 0; !seen[j]; j = home[tiles[j]], len++) {
      seen[j] = true;
      if (len) swaps++;
    }
  }
  const b = tiles.indexOf(0);
  const g = goal.indexOf(0);
  const walk = Math.abs(Math.floor(b / cols) - Math.floor(g / cols)) + Math.abs((b % cols) - (g % cols));
  return swaps % 2 === walk % 2;
}

/** True when `tiles` is a permutation of 0..rows*cols-1. */
export function isPermutation(tiles, n) {
  if (!Array.isArray(tiles) || tiles.length !== n) return false;
  const seen = new Array(n).fill(false);
  for (const t of tiles) {
    if (!Number.isInteger(t) || t < 0 || t >= n || seen[t]) return false;
    seen[t] = true;
  }
  return true;
}

/**
 * An unbiased integer in [0, n) from 32-bit random words: words at or above
 * the largest multiple of n are rejected.  fill(Uint32Array) supplies the
 * words (crypto.getRandomValues; tests pass a scripted source).
 */
export function randomBelow(n, fill = (buf) => crypto.getRandomValues(buf)) {
  const buf = new Uint32Array(1);
  const limit = Math.floor(0x100000000 / n) * n;
  for (;;) {
    fill(buf);
    if (buf[0] < limit) return buf[0] % n;
  }
}

/**
 * A uniformly random position solvable for `goal` (the standard goal when not given).
 * Fisher-Yates gives a uniform permutation; swapping the first two non-blank tiles maps
 * the unsolvable half one-to-one onto the solvable half, so the result stays uniform.
 * rand(k) returns an integer in [0, k).
 */
export function randomTiles(rows, cols, rand = randomBelow, goal = null) {
  const t = goalTiles(rows, cols);
  for (let i = t.length - 1; i > 0; i--) {
    const j = rand(i + 1);
    [t[i], t[j]] = [t[j], t[i]];
  }
  if (!isSolvable(t, rows, cols, goal)) {
    const [a, b] = t.map((v, i) => (v === 0 ? -1 : i)).filter((i) => i >= 0);
    [t[a], t[b]] = [t[b], t[a]];
  }
  return t;
}

const DELTA = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };
export const OPPOSITE = { U: "D", D: "U", L: "R", R: "L" };

/**
 * A position and the goal it is solved towards.  `goal`: tiles (a permutation of 0..N-1),
 * the standard goal when not given; a board made without tiles shows its goal.
 */
export class Board {
  constructor(rows, cols, tiles, goal = null) {
    this.rows = rows;
    this.cols = cols;
    this.goal = goal ? goal.slice() : goalTiles(rows, cols);
    this.tiles = tiles ? tiles.slice() : this.goal.slice();
  }

  get shape() {
    return shapeName(this.rows, this.cols);
  }

  /** The goal's name ("standard", "blank-first") or null for another goal. */
  get goalName() {
    return goalName(this.goal, this.rows, this.cols);
  }

  /** The goal as text ("0 1 2 ..."). */
  goalText() {
    return this.goal.join(" ");
  }

  /** The same tiles towards `goal` (tiles). */
  withGoal(goal) {
    return new Board(this.rows, this.cols, this.tiles, goal);
  }

  /** "shape:tiles", with "|goal" when it is not the standard goal: one key per position and goal. */
  key() {
    const name = this.goalName;
    return `${this.shape}:${this.text()}${name === "standard" ? "" : `|${this.goalText()}`}`;
  }

  /** The position as fifteen.api takes it, checked: {tiles, shape} (no text for the solver to parse again), and goal when it is not the standard one. */
  params() {
    return { tiles: this.tiles.slice(), shape: this.shape, ...(this.goalName === "standard" ? {} : { goal: this.goal.slice() }) };
  }

  get blank() {
    return this.tiles.indexOf(0);
  }

  clone() {
    return new Board(this.rows, this.cols, this.tiles, this.goal);
  }

  isGoal() {
    return this.tiles.every((t, i) => t === this.goal[i]);
  }

  text() {
    return this.tiles.join(" ");
  }

  /** Rows of tiles, for display: "1 2 3 4 / 5 6 7 8 / ...". */
  gridText() {
    const out = [];
    for (let r = 0; r < this.rows; r++) out.push(this.tiles.slice(r * this.cols, (r + 1) * this.cols).join(" "));
    return out.join("\n");
  }

  /** Square index the blank would move to in direction d, or -1. */
  target(d) {
    const b = this.blank;
    const r = Math.floor(b / this.cols) + DELTA[d][0];
    const c = (b % this.cols) + DELTA[d][1];
    if (r < 0 || r >= this.rows || c < 0 || c >= this.cols) return -1;
    return r * this.cols + c;
  }

  /** Move the blank in direction d ("U","D","L","R"); returns the tile that slid, or 0. */
  moveBlank(d) {
    const to = this.target(d);
    if (to < 0) return 0;
    const b = this.blank;
    const tile = this.tiles[to];
    this.tiles[b] = tile;
    this.tiles[to] = 0;
    return tile;
  }

  /** Direction the blank moves when `tile` slides, or null if it is not next to the blank. */
  directionOfTile(tile) {
    for (const d of "UDLR") {
      const to = this.target(d);
      if (to >= 0 && this.tiles[to] === tile) return d;
    }
    return null;
  }

  /**
   * Blank directions that slide the tile at square `index` toward the blank,
   * moving every tile between them (one click on a tile in the blank's row or
   * column slides the whole line).  Empty if not in line.
   */
  pathToSquare(index) {
    const b = this.blank;
    const br = Math.floor(b / this.cols);
    const bc = b % this.cols;
    const r = Math.floor(index / this.cols);
    const c = index % this.cols;
    if (index === b) return [];
    if (r === br) return new Array(Math.abs(c - bc)).fill(c > bc ? "R" : "L");
    if (c === bc) return new Array(Math.abs(r - br)).fill(r > br ? "D" : "U");
    return [];
  }
}

/** Convert a list of blank directions into the tile numbers that slide. */
export function directionsToTiles(board, directions) {
  const b = board.clone();
  const out = [];
  for (const d of directions) {
    const t = b.moveBlank(d);
    if (!t) throw new Error(`illegal move ${d}`);
    out.push(t);
  }
  return out;
}
