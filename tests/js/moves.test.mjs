// model/moves.js: pasted move strings in both notations, replayed and judged.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Board } from "../../static/js/model/board.js";
import { parseMoveString, replayVerdict } from "../../static/js/model/moves.js";

// The goal with the blank moved U, U, L: solved by R, D, D, i.e. tiles 2, 3, 6.
const start = () => {
  const b = new Board(3, 3);
  for (const d of "UUL") b.moveBlank(d);
  return b;
};

test("the gap's moves and the tile numbers replay to the same result", () => {
  const a = parseMoveString(start(), "r d d");
  assert.deepEqual(a, { directions: "RDD", moves: [2, 3, 6], solves: true });
  assert.deepEqual(parseMoveString(start(), "2, 3, 6"), a);
  assert.deepEqual(parseMoveString(start(), "R D").solves, false);
});

test("impossible moves are named in plain words", () => {
  assert.match(parseMoveString(start(), "U").error, /Move 1 \(U\) is impossible/);
  assert.match(parseMoveString(start(), "2 1").error, /Move 2: tile 1 is not next to the gap/);
  assert.match(parseMoveString(start(), "2 x").error, /Move 2 \(x\) is not a tile number/);
  // the two notations mixed: said so (U is a move, just not among tile numbers)
  assert.match(parseMoveString(start(), "4 5 U D").error, /^Move 3 \(U\) is a gap move among tile numbers: write the whole list in one notation/);
  assert.match(parseMoveString(start(), "U D 4").error, /^Move 1 \(U\) is a gap move among tile numbers/);
  assert.match(parseMoveString(start(), "U D x").error, /Move 1 \(U\) is not a tile number/);
  assert.match(parseMoveString(start(), "").error, /Paste moves first/);
  assert.match(parseMoveString(start(), "R".repeat(7000)).error, /too long/);
});

test("the verdict compares with the optimal length when known", () => {
  const r = { moves: [1, 2, 3, 4, 5], solves: true };
  assert.equal(replayVerdict(r, 3), "These 5 moves solve the position: 2 more than the shortest solution (3).");
  assert.equal(replayVerdict(r, 5), "These 5 moves solve the position optimally.");
  assert.match(replayVerdict(r, null), /Solve it to compare/);
  assert.match(replayVerdict({ moves: [1], solves: false }, 3), /These 1 move do not solve/);
});
