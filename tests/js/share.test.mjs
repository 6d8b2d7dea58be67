// model/share.js: reading share links (good and bad), writing them, the address
// bar, and the saved preferences.

import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import { Board, SHAPES, blankFirstTiles, goalTiles, parseShape, randomTiles } from "../../static/js/model/board.js";
import { MAX_LINK_CHARS, MAX_LINK_MOVES, linkTooLong, makeHash, prefs, readHash, shareUrl, writeHash } from "../../static/js/model/share.js";

const T4 = [1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 4, 8, 12, 0];

describe("readHash", () => {
  test("a 4x4 position: the shape is inferred from the count", () => {
    assert.deepEqual(readHash(`#tiles=${T4.join(",")}`), { text: T4.join(" "), shape: "4x4", tiles: T4, goal: goalTiles(4, 4), goalText: "", bound: null, moves: "" });
  });

  test("spaces, plus signs and repeated separators are accepted; the leading # is optional", () => {
    for (const h of ["#tiles=1+2+3+0", "#tiles=1%202%203%200", "tiles=1,,2, 3,0", "#tiles=,1,2,3,0,"]) {
      assert.deepEqual(readHash(h), { text: "1 2 3 0", shape: "2x2", tiles: [1, 2, 3, 0], goal: [1, 2, 3, 0], goalText: "", bound: null, moves: "" }, h);
    }
  });

  test("12 tiles are ambiguous: the link must name the shape", () => {
    const t = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0];
    assert.deepEqual(readHash(`#tiles=${t.join(",")}`), { text: t.join(" "), shape: null, tiles: null, goal: null, goalText: "", bound: null, moves: "" });
    assert.deepEqual(readHash(`#tiles=${t.join(",")}&shape=3x4`).tiles, t);
    assert.deepEqual(readHash(`#shape=4x3&tiles=${t.join(",")}`).shape, "4x3");
  });

  test("a shape the menu does not list still opens", () => {
    const h = readHash("#tiles=1,2,3,4,5,0&shape=3x2");
    assert.equal(h.shape, "3x2");
    assert.deepEqual(h.tiles, [1, 2, 3, 4, 5, 0]);
  });

  test("moves (a solution) are read as given and written back", () => {
    const h = readHash(`#tiles=1,2,3,0,4,5&shape=3x2&moves=RR`);
    assert.equal(h.moves, "RR");
    const board = new Board(3, 2, [1, 2, 3, 0, 4, 5]);
    assert.equal(makeHash(board, { moves: "RR" }), "#tiles=1,2,3,0,4,5&shape=3x2&moves=RR");
    assert.equal(makeHash(board), "#tiles=1,2,3,0,4,5&shape=3x2");
  });

  test("a link is too long over 800 characters of position and goal or 2000 moves", () => {
    const position = `#tiles=${"1,".repeat(400)}`;
    assert.equal(MAX_LINK_CHARS, 800);
    assert.equal(linkTooLong(position.slice(0, 800)), false);
    assert.equal(linkTooLong(position.slice(0, 801)), true);
    // a 10x10 board with a goal of its own fits
    const big = new Board(10, 10, randomTiles(10, 10), randomTiles(10, 10));
    assert.equal(linkTooLong(makeHash(big)), false);
    const moves = `&moves=${"U".repeat(MAX_LINK_MOVES)}`;
    assert.equal(linkTooLong(`#tiles=${T4.join(",")}${moves}`), false); // the moves are counted apart
    assert.equal(linkTooLong(`#tiles=${T4.join(",")}${moves}U`), true);
    assert.equal(linkTooLong(`${position.slice(0, 801)}${moves}`), true);
  });

  test("the bound parameter is passed on", () => {
    assert.equal(readHash(`#tiles=${T4.join(",")}&bound=pdb663`).bound, "pdb663");
  });

  test("no tiles parameter: not a share link", () => {
    for (const h of ["", "#", "#board", "#shape=4x4", "#tile=1,2,3,0"]) assert.equal(readHash(h), null, h);
  });

  // Bad links keep their text (the page shows it, and the solver explains what is wrong) but no tiles.
  const BAD = [
    ["#tiles=", "", null],
    ["#tiles=1,2,x,0", "1 2 x 0", "2x2"],
    ["#tiles=1,2,-3,0", "1 2 -3 0", "2x2"],
    ["#tiles=1,2,2.5,0", "1 2 2.5 0", "2x2"],
    ["#tiles=1,2,2,0", "1 2 2 0", "2x2"], // a duplicate
    ["#tiles=1,2,4,0", "1 2 4 0", "2x2"], // out of range
    ["#tiles=1,2,3", "1 2 3", null], // no board of 3 squares
    ["#tiles=1,2,3,0&shape=3x3", "1 2 3 0", "3x3"], // the count does not fit the shape
    ["#tiles=1,2,3,0&shape=big", "1 2 3 0", "big"],
    ["#tiles=1,2,3,0&shape=2×2", "1 2 3 0", "2×2"],
  ];
  for (const [hash, text, shape] of BAD) {
    test(`bad link ${JSON.stringify(hash)}: text kept, no position`, () => {
      const dims = parseShape(shape);
      const goal = dims ? goalTiles(dims.rows, dims.cols) : null;
      assert.deepEqual(readHash(hash), { text, shape, tiles: null, goal, goalText: "", bound: null, moves: "" });
    });
  }

  test("an unsolvable permutation is still a position (the solver refuses it with its reason)", () => {
    assert.deepEqual(readHash("#tiles=2,1,3,0").tiles, [2, 1, 3, 0]);
  });

  test("a goal is read by name or as tiles; a bad one keeps its text and no tiles", () => {
    assert.deepEqual(readHash(`#tiles=${T4.join(",")}&goal=blank-first`).goal, blankFirstTiles(4, 4));
    const custom = [2, 1, 3, 0];
    const h = readHash(`#tiles=1,2,3,0&goal=${custom.join(",")}`);
    assert.deepEqual([h.goal, h.goalText], [custom, "2 1 3 0"]);
    for (const bad of ["1,2,3", "1,2,2,0", "sideways"]) {
      const r = readHash(`#tiles=1,2,3,0&goal=${bad}`);
      assert.deepEqual([r.goal, r.tiles], [null, [1, 2, 3, 0]], bad);
      assert.equal(r.goalText, bad.replaceAll(",", " "));
    }
  });

  test("leading zeros read as numbers", () => {
    assert.deepEqual(readHash("#tiles=01,2,3,00").tiles, [1, 2, 3, 0]);
  });
});

describe("makeHash", () => {
  test("the goal is written by name, or as tiles, and left out when it is the standard one", () => {
    const blankFirst = new Board(4, 4, T4, blankFirstTiles(4, 4));
    assert.equal(makeHash(blankFirst), `#tiles=${T4.join(",")}&goal=blank-first`);
    assert.equal(makeHash(new Board(2, 2, [1, 2, 3, 0], [2, 1, 3, 0])), "#tiles=1,2,3,0&goal=2,1,3,0");
    assert.equal(makeHash(new Board(3, 4, null, blankFirstTiles(3, 4)), { moves: "R" }), "#tiles=0,1,2,3,4,5,6,7,8,9,10,11&shape=3x4&goal=blank-first&moves=R");
  });

  test("the shape is written only when the count does not name it", () => {
    assert.equal(makeHash(new Board(4, 4, T4)), `#tiles=${T4.join(",")}`);
    assert.equal(makeHash(new Board(2, 3)), "#tiles=1,2,3,4,5,0");
    assert.equal(makeHash(new Board(3, 4)), "#tiles=1,2,3,4,5,6,7,8,9,10,11,0&shape=3x4");
    assert.equal(makeHash(new Board(4, 3)), "#tiles=1,2,3,4,5,6,7,8,9,10,11,0&shape=4x3");
    assert.equal(makeHash(new Board(3, 2)), "#tiles=1,2,3,4,5,0&shape=3x2"); // 6 tiles read as 2x3 otherwise
    assert.equal(makeHash(new Board(10, 10, goalTiles(10, 10))), `#tiles=${goalTiles(10, 10).join(",")}`); // square: inferred
    assert.equal(makeHash(new Board(2, 8)), `#tiles=${goalTiles(2, 8).join(",")}&shape=2x8`); // 16 tiles read as 4x4 otherwise
  });

  test("every shape up to 10x10 round-trips through a link, with each kind of goal", () => {
    assert.equal(SHAPES.length, 81);
    for (const shape of SHAPES) {
      const { rows, cols } = parseShape(shape);
      for (const goal of [goalTiles(rows, cols), blankFirstTiles(rows, cols), randomTiles(rows, cols)]) {
        const b = new Board(rows, cols, randomTiles(rows, cols, undefined, goal), goal);
        const h = readHash(makeHash(b));
        assert.equal(h.shape, shape);
        assert.deepEqual([h.tiles, h.goal], [b.tiles, goal]);
      }
    }
  });
});

describe("the address bar", () => {
  const saved = { location: globalThis.location, history: globalThis.history };
  afterEach(() => Object.assign(globalThis, saved));

  function fakeWindow(href) {
    const url = new URL(href);
    const calls = [];
    globalThis.location = {
      get href() {
        return url.href;
      },
      get hash() {
        return url.hash;
      },
    };
    globalThis.history = {
      replaceState(_state, _title, hash) {
        calls.push(hash);
        url.hash = hash;
      },
    };
    return calls;
  }

  test("shareUrl keeps the page's address and replaces the fragment", () => {
    fakeWindow("https://example.org/fifteen/index.html?x=1#tiles=1,2,3,0");
    assert.equal(shareUrl(new Board(4, 4, T4)), `https://example.org/fifteen/index.html?x=1#tiles=${T4.join(",")}`);
  });

  test("writeHash replaces the fragment (no history entry), and only when it changes", () => {
    const calls = fakeWindow("https://example.org/index.html");
    writeHash(new Board(2, 2, [1, 2, 3, 0]));
    writeHash(new Board(2, 2, [1, 2, 3, 0]));
    assert.deepEqual(calls, ["#tiles=1,2,3,0"]);
    assert.deepEqual(readHash(), { text: "1 2 3 0", shape: "2x2", tiles: [1, 2, 3, 0], goal: [1, 2, 3, 0], goalText: "", bound: null, moves: "" });
  });
});

describe("prefs", () => {
  const saved = globalThis.localStorage;
  afterEach(() => {
    if (saved === undefined) delete globalThis.localStorage;
    else globalThis.localStorage = saved;
  });

  test("values are stored as JSON under the fifteen. prefix", () => {
    const store = new Map();
    globalThis.localStorage = { getItem: (k) => (store.has(k) ? store.get(k) : null), setItem: (k, v) => store.set(k, v) };
    assert.equal(prefs.get("speed", 2), 2);
    prefs.set("speed", 4);
    prefs.set("bound", "pdb663");
    assert.deepEqual([...store], [["fifteen.speed", "4"], ["fifteen.bound", '"pdb663"']]);
    assert.equal(prefs.get("speed", 2), 4);
    store.set("fifteen.speed", "{broken");
    assert.equal(prefs.get("speed", 2), 2, "an unreadable value gives the fallback");
  });

  test("no storage (private mode, quota): the fallback, and no error", () => {
    globalThis.localStorage = {
      getItem() {
        throw new Error("denied");
      },
      setItem() {
        throw new Error("quota");
      },
    };
    assert.equal(prefs.get("bound", "auto"), "auto");
    assert.doesNotThrow(() => prefs.set("bound", "md"));
  });
});
