// model/board.js: the solvability rule against a breadth-first search, the shuffle's
// uniformity (exactly, over every sequence of random draws; and a seeded
// chi-square), the rejection sampling of randomBelow, and the moves.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  Board,
  OPPOSITE,
  SHAPES,
  blankFirstTiles,
  directionsToTiles,
  goalLike,
  goalName,
  goalTiles,
  inferShape,
  inversions,
  isPermutation,
  isSolvable,
  parseShape,
  randomBelow,
  randomTiles,
  shapesForCount,
} from "../../static/js/model/board.js";

// ------------------------------------------------------------------ helpers
const reachableMemo = new Map();

/** Every position reachable from `goal` (the standard one by default; keys "1,2,3,0"), by breadth-first search over blank moves. */
function reachable(rows, cols, goal = null) {
  const memoKey = `${rows}x${cols}:${goal}`;
  const memo = reachableMemo.get(memoKey);
  if (memo) return memo;
  const start = new Board(rows, cols, null, goal);
  const seen = new Set([start.tiles.join(",")]);
  let frontier = [start];
  while (frontier.length) {
    const next = [];
    for (const b of frontier) {
      for (const d of "UDLR") {
        const c = b.clone();
        if (!c.moveBlank(d)) continue;
        const key = c.tiles.join(",");
        if (!seen.has(key)) {
          seen.add(key);
          next.push(c);
        }
      }
    }
    frontier = next;
  }
  reachableMemo.set(memoKey, seen);
  return seen;
}

/** Every permutation of 0..n-1 (Heap's algorithm), passed to visit(array) — the array is reused. */
function permutations(n, visit) {
  const a = [...Array(n).keys()];
  const c = new Array(n).fill(0);
  visit(a);
  let i = 1;
  while (i < n) {
    if (c[i] < i) {
      const j = i % 2 === 0 ? 0 : c[i];
      [a[j], a[i]] = [a[i], a[j]];
      visit(a);
      c[i]++;
      i = 1;
    } else {
      c[i] = 0;
      i++;
    }
  }
}

const factorial = (n) => (n <= 1 ? 1 : n * factorial(n - 1));

/** A seeded PRNG (mulberry32): floats in [0, 1). */
function mulberry32(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The chi-square value above which a uniform sample lands with probability ~1e-6 (Wilson-Hilferty). */
function chiSquareLimit(dof, z = 4.75) {
  const k = 2 / (9 * dof);
  return dof * (1 - k + z * Math.sqrt(k)) ** 3;
}

function chiSquare(counts, expected) {
  let x = 0;
  for (const c of counts.values()) x += (c - expected) ** 2 / expected;
  return x;
}

// ------------------------------------------------------------------ solvability
describe("isSolvable", () => {
  // Odd and even widths, odd and even heights; 3x3 is all 9! permutations.
  for (const shape of ["2x2", "2x3", "3x2", "2x4", "4x2", "3x3"]) {
    test(`${shape}: exactly the positions a breadth-first search reaches`, () => {
      const { rows, cols } = parseShape(shape);
      const n = rows * cols;
      const reached = reachable(rows, cols);
      assert.equal(reached.size, factorial(n) / 2);
      let solvable = 0;
      const wrong = [];
      permutations(n, (tiles) => {
        const says = isSolvable(tiles, rows, cols);
        if (says) solvable++;
        if (says !== reached.has(tiles.join(",")) && wrong.length < 5) wrong.push(tiles.join(","));
      });
      assert.deepEqual(wrong, []);
      assert.equal(solvable, factorial(n) / 2);
    });
  }

  // Any goal: the blank-first one and one with the blank inside the board.
  for (const [shape, goal] of [
    ["2x3", blankFirstTiles(2, 3)],
    ["3x2", blankFirstTiles(3, 2)],
    ["2x4", [3, 1, 0, 2, 4, 7, 6, 5]],
    ["3x3", blankFirstTiles(3, 3)],
    ["3x3", [8, 7, 6, 5, 0, 4, 3, 2, 1]],
  ]) {
    test(`${shape} towards ${goal.join(" ")}: exactly the positions a breadth-first search from that goal reaches`, () => {
      const { rows, cols } = parseShape(shape);
      const n = rows * cols;
      const reached = reachable(rows, cols, goal);
      assert.equal(reached.size, factorial(n) / 2);
      const wrong = [];
      permutations(n, (tiles) => {
        if (isSolvable(tiles, rows, cols, goal) !== reached.has(tiles.join(",")) && wrong.length < 5) wrong.push(tiles.join(","));
      });
      assert.deepEqual(wrong, []);
    });
  }

  test("the blank-first goal of the 4x4 is not reachable from the standard goal (that of the 3x3 is)", () => {
    assert.equal(isSolvable(blankFirstTiles(4, 4), 4, 4), false);
    assert.equal(isSolvable(goalTiles(4, 4), 4, 4, blankFirstTiles(4, 4)), false);
    assert.equal(isSolvable(blankFirstTiles(3, 3), 3, 3), true);
  });

  test("the 4x4 examples: the goal, one swap, the transposed goal", () => {
    assert.equal(isSolvable(goalTiles(4, 4), 4, 4), true);
    assert.equal(isSolvable([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 14, 0], 4, 4), false);
    assert.equal(isSolvable([1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 4, 8, 12, 0], 4, 4), true);
    // The blank one row up flips the parity on an even width.
    assert.equal(isSolvable([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 13, 14, 15, 12], 4, 4), true);
    assert.equal(isSolvable([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 11, 13, 14, 15, 12], 4, 4), true);
  });

  test("inversions ignore the blank", () => {
    assert.equal(inversions([0, 1, 2, 3]), 0);
    assert.equal(inversions([3, 2, 1, 0]), 3);
    assert.equal(inversions([2, 0, 1, 3]), 1);
  });
});

// ------------------------------------------------------------------ shuffle
/** Run randomTiles once for every sequence of draws Fisher-Yates can make; count each result. */
function exhaustiveShuffle(rows, cols) {
  const n = rows * cols;
  // Fisher-Yates draws rand(n), rand(n-1), ..., rand(2): a mixed-radix counter enumerates them all.
  const digits = new Array(n - 1).fill(0);
  const counts = new Map();
  for (let run = 0; run < factorial(n); run++) {
    let k = 0;
    const tiles = randomTiles(rows, cols, (m) => {
      assert.equal(m, n - k, "draws in Fisher-Yates order");
      return digits[k++];
    });
    assert.equal(k, n - 1);
    const key = tiles.join(",");
    counts.set(key, (counts.get(key) || 0) + 1);
    for (let i = n - 2; i >= 0; i--) {
      if (++digits[i] < n - i) break;
      digits[i] = 0;
    }
  }
  return counts;
}

describe("randomTiles", () => {
  for (const shape of ["2x3", "3x2", "2x4", "3x3"]) {
    test(`${shape}: every solvable position exactly twice over all ${shape === "3x3" ? "9!" : "n!"} draw sequences`, () => {
      const { rows, cols } = parseShape(shape);
      const counts = exhaustiveShuffle(rows, cols);
      const reached = reachable(rows, cols);
      assert.equal(counts.size, reached.size);
      for (const [key, c] of counts) {
        assert.ok(reached.has(key), `unsolvable result ${key}`);
        assert.equal(c, 2, `${key} drawn ${c} times`);
      }
    });
  }

  test("2x3 with a seeded generator: chi-square within the 1e-6 tail", () => {
    const rng = mulberry32(20240915);
    const cells = 360;
    const draws = cells * 200;
    const counts = new Map();
    for (let i = 0; i < draws; i++) {
      const key = randomTiles(2, 3, (m) => Math.floor(rng() * m)).join(",");
      counts.set(key, (counts.get(key) || 0) + 1);
    }
    assert.equal(counts.size, cells);
    const x = chiSquare(counts, draws / cells);
    assert.ok(x < chiSquareLimit(cells - 1), `chi-square ${x.toFixed(1)}`);
  });

  test("2x3 with the page's default source (crypto): solvable, a permutation, and not biased", () => {
    const cells = 360;
    const draws = cells * 40;
    const counts = new Map();
    for (let i = 0; i < draws; i++) {
      const t = randomTiles(2, 3);
      assert.ok(isPermutation(t, 6) && isSolvable(t, 2, 3));
      const key = t.join(",");
      counts.set(key, (counts.get(key) || 0) + 1);
    }
    assert.equal(counts.size, cells);
    assert.ok(chiSquare(counts, draws / cells) < chiSquareLimit(cells - 1));
  });

  test("a shuffle towards a goal is solvable for it, on every size up to 10x10", () => {
    for (const shape of SHAPES) {
      const { rows, cols } = parseShape(shape);
      const goal = blankFirstTiles(rows, cols);
      const t = randomTiles(rows, cols, undefined, goal);
      assert.ok(isPermutation(t, rows * cols) && isSolvable(t, rows, cols, goal), shape);
    }
  });

  test("a 4x4 shuffle is a solvable permutation", () => {
    for (let i = 0; i < 200; i++) {
      const t = randomTiles(4, 4);
      assert.ok(isPermutation(t, 16) && isSolvable(t, 4, 4));
    }
  });
});

describe("randomBelow", () => {
  const scripted = (words) => {
    const queue = [...words];
    const used = [];
    return {
      fill: (buf) => {
        buf[0] = queue.shift();
        used.push(buf[0]);
      },
      used,
    };
  };

  test("rejects the words at or above the largest multiple of n", () => {
    // n = 3: limit = floor(2^32 / 3) * 3 = 4294967295, so only 0xFFFFFFFF is rejected.
    const s = scripted([0xffffffff, 0xfffffffe]);
    assert.equal(randomBelow(3, s.fill), 0xfffffffe % 3);
    assert.equal(s.used.length, 2);
    // n = 10: limit = 4294967290; 4294967290..4294967295 are rejected.
    const t = scripted([4294967290, 4294967295, 4294967289]);
    assert.equal(randomBelow(10, t.fill), 9);
    assert.equal(t.used.length, 3);
  });

  test("takes the word modulo n", () => {
    for (const [n, w] of [[1, 123456], [2, 7], [16, 0x12345678], [6, 4294967291]]) {
      assert.equal(randomBelow(n, scripted([w]).fill), w % n);
    }
  });

  test("every residue from crypto", () => {
    const seen = new Set();
    for (let i = 0; i < 2000; i++) seen.add(randomBelow(7));
    assert.deepEqual([...seen].sort(), [0, 1, 2, 3, 4, 5, 6]);
  });
});

// ------------------------------------------------------------------ moves
describe("Board moves", () => {
  test("the blank moves within the board and nowhere else", () => {
    const b = new Board(3, 3); // blank bottom-right
    assert.equal(b.blank, 8);
    assert.equal(b.target("D"), -1);
    assert.equal(b.target("R"), -1);
    assert.equal(b.moveBlank("D"), 0);
    assert.deepEqual(b.tiles, goalTiles(3, 3));
    assert.equal(b.moveBlank("U"), 6);
    assert.deepEqual(b.tiles, [1, 2, 3, 4, 5, 0, 7, 8, 6]);
    assert.equal(b.moveBlank("L"), 5);
    assert.deepEqual(b.tiles, [1, 2, 3, 4, 0, 5, 7, 8, 6]);
    assert.equal(b.moveBlank("U"), 2);
    assert.equal(b.target("U"), -1);
    assert.equal(b.moveBlank("L"), 1);
    assert.equal(b.target("L"), -1);
    assert.deepEqual(b.tiles, [0, 1, 3, 4, 2, 5, 7, 8, 6]);
    assert.equal(b.isGoal(), false);
  });

  test("a move and its opposite return to the same position", () => {
    const b = new Board(4, 4, randomTiles(4, 4));
    for (const d of "UDLR") {
      const c = b.clone();
      if (!c.moveBlank(d)) continue;
      assert.notDeepEqual(c.tiles, b.tiles);
      c.moveBlank(OPPOSITE[d]);
      assert.deepEqual(c.tiles, b.tiles);
    }
  });

  test("directionOfTile names the blank's move that slides a tile", () => {
    const b = new Board(4, 4);
    assert.equal(b.directionOfTile(12), "U");
    assert.equal(b.directionOfTile(15), "L");
    assert.equal(b.directionOfTile(11), null);
  });

  test("pathToSquare slides a whole line toward the gap", () => {
    const b = new Board(4, 4);
    assert.deepEqual(b.pathToSquare(12), ["L", "L", "L"]); // tile 13, same row
    assert.deepEqual(b.pathToSquare(3), ["U", "U", "U"]); // tile 4, same column
    assert.deepEqual(b.pathToSquare(14), ["L"]);
    assert.deepEqual(b.pathToSquare(15), []); // the gap itself
    assert.deepEqual(b.pathToSquare(5), []); // not in line
    const c = b.clone();
    for (const d of c.pathToSquare(12)) c.moveBlank(d);
    assert.deepEqual(c.tiles, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 13, 14, 15]);
    assert.deepEqual(b.tiles, goalTiles(4, 4), "clone() copies the tiles");
  });

  test("directionsToTiles gives the seed's notation and refuses an illegal move", () => {
    const b = new Board(4, 4);
    assert.deepEqual(directionsToTiles(b, ["U", "L", "D"]), [12, 11, 15]);
    assert.deepEqual(b.tiles, goalTiles(4, 4), "the board itself is not moved");
    assert.throws(() => directionsToTiles(b, ["R"]), /illegal move R/);
  });

  test("text forms and goal", () => {
    const b = new Board(2, 3, [1, 2, 3, 4, 0, 5]);
    assert.equal(b.shape, "2x3");
    assert.equal(b.text(), "1 2 3 4 0 5");
    assert.equal(b.gridText(), "1 2 3\n4 0 5");
    assert.equal(b.isGoal(), false);
    b.moveBlank("R");
    assert.equal(b.isGoal(), true);
  });

  test("a board carries its goal: moves, clones, keys and the API's params keep it", () => {
    const goal = blankFirstTiles(2, 3);
    const b = new Board(2, 3, [1, 0, 2, 3, 4, 5], goal);
    assert.equal(b.goalName, "blank-first");
    assert.equal(b.isGoal(), false);
    const c = b.clone();
    c.moveBlank("L");
    assert.equal(c.isGoal(), true);
    assert.deepEqual(b.tiles, [1, 0, 2, 3, 4, 5]);
    assert.deepEqual(new Board(2, 3, null, goal).tiles, goal, "a board without tiles shows its goal");
    assert.equal(new Board(2, 3).key(), "2x3:1 2 3 4 5 0");
    assert.equal(b.key(), "2x3:1 0 2 3 4 5|0 1 2 3 4 5");
    assert.deepEqual(new Board(2, 3).params(), { tiles: [1, 2, 3, 4, 5, 0], shape: "2x3" });
    assert.deepEqual(b.params(), { tiles: [1, 0, 2, 3, 4, 5], shape: "2x3", goal });
    assert.deepEqual(b.withGoal(goalTiles(2, 3)).goal, goalTiles(2, 3));
    assert.equal(goalName([2, 1, 3, 0], 2, 2), null);
    assert.equal(goalName([1, 2, 3, 0], 2, 2), "standard");
  });

  test("a new size keeps the goal's kind (goalLike)", () => {
    const blankFirst = new Board(3, 3, null, blankFirstTiles(3, 3));
    assert.deepEqual(goalLike(blankFirst, 4, 4), blankFirstTiles(4, 4));
    assert.deepEqual(goalLike(new Board(2, 2, null, [2, 1, 3, 0]), 2, 2), [2, 1, 3, 0]);
    assert.deepEqual(goalLike(new Board(2, 2, null, [2, 1, 3, 0]), 3, 3), goalTiles(3, 3));
  });
});

describe("shapes and permutations", () => {
  test("parseShape", () => {
    assert.deepEqual(parseShape("3x4"), { rows: 3, cols: 4 });
    for (const bad of ["", "3×4", "3x", "x4", "3x4x5", null, undefined, "a3x4"]) assert.equal(parseShape(bad), null, String(bad));
  });

  test("SHAPES: every board from 2x2 to 10x10", () => {
    assert.equal(SHAPES.length, 81);
    assert.deepEqual([SHAPES[0], SHAPES[1], SHAPES[80]], ["2x2", "2x3", "10x10"]);
  });

  test("shapesForCount lists the shapes of that size; inferShape the one a link names without its shape", () => {
    assert.deepEqual(shapesForCount(16), ["2x8", "4x4", "8x2"]);
    assert.deepEqual(shapesForCount(12), ["2x6", "3x4", "4x3", "6x2"]);
    assert.deepEqual(shapesForCount(7), []);
    assert.equal(inferShape(16), "4x4");
    assert.equal(inferShape(100), "10x10");
    assert.equal(inferShape(6), "2x3"); // the first menu's links
    assert.equal(inferShape(12), null);
    assert.equal(inferShape(121), null);
    for (const s of SHAPES) {
      const { rows, cols } = parseShape(s);
      assert.ok(shapesForCount(rows * cols).includes(s));
    }
  });

  test("isPermutation", () => {
    assert.equal(isPermutation([1, 2, 3, 0], 4), true);
    assert.equal(isPermutation([1, 2, 3, 3], 4), false);
    assert.equal(isPermutation([1, 2, 3, 4], 4), false);
    assert.equal(isPermutation([1, 2, 0], 4), false);
    assert.equal(isPermutation([1, 2, 3, 0.5], 4), false);
    assert.equal(isPermutation([1, 2, 3, -0], 4), true);
    assert.equal(isPermutation("1230", 4), false);
  });
});
