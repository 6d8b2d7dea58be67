// text.js: the tiles text field's messages in plain words and their one-click fixes, told apart
// by the API's error codes (never by the wording of its messages).

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { SHAPES } from "../../static/js/model/board.js";
import { linkDrawable, otherGoals, plainInputError, shapeForCount, unsolvableFix } from "../../static/js/control/text.js";

describe("plainInputError", () => {
  test("an unsolvable position is explained by its code, whatever the message says", () => {
    const plain = plainInputError({ type: "input", code: "unsolvable", message: "the tiles' parity ..." });
    assert.match(plain, /^This position can't be solved/);
    assert.equal(plainInputError({ type: "input", code: "unsolvable", message: "" }), plain);
  });

  test("a message that merely starts with a code's word is not read as that code", () => {
    assert.equal(plainInputError({ type: "input", message: "unsolvable: as worded" }), "unsolvable: as worded");
    assert.equal(plainInputError({ type: "input", code: "duplicate", message: "tile 3 is given twice" }), "tile 3 is given twice");
  });
});

describe("plainInputError: the count and the length of a text", () => {
  const count = { type: "input", code: "count", message: "a 4x4 board has 16 squares, got 15 tiles" };
  test("numbers missing or too many for the size chosen", () => {
    const fifteen = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15";
    assert.equal(plainInputError(count, { text: fifteen, shape: "4x4" }), "One number is missing: a 4x4 board takes 16 (0 for the gap), this text has 15.");
    assert.equal(plainInputError(count, { text: "1 2 3", shape: "4x4" }), "13 numbers are missing: a 4x4 board takes 16 (0 for the gap), this text has 3.");
    assert.equal(plainInputError(count, { text: `${fifteen} 0 16`, shape: "4x4" }), "One number too many: a 4x4 board takes 16 (0 for the gap), this text has 17.");
    assert.equal(plainInputError(count, { text: fifteen }), count.message); // no size: the solver's words
  });

  test("a text too long for a position says so, not the API's parameter size", () => {
    const huge = "1 ".repeat(300_000);
    const err = { type: "input", code: "too_long", message: "the parameters are 600,028 characters long; at most 131,072 are read" };
    assert.equal(plainInputError(err, { text: huge, shape: "4x4" }), "This text is too long to be a position (600,000 characters).");
  });
});

describe("unsolvableFix", () => {
  test("swaps the two largest tiles", () => {
    assert.deepEqual(unsolvableFix("1 2 3 4 5 6 8 7 0"), { label: "Swap tiles 7 and 8", text: "1 2 3 4 5 6 7 8 0" });
    assert.deepEqual(unsolvableFix("1,2,3,4,5,6,7,8,9,10,11,12,13,15,14,0").label, "Swap tiles 14 and 15");
  });

  test("none for a text that is not a permutation", () => {
    for (const t of ["1 2", "1 2 x 0", "0 1 2 9"]) assert.equal(unsolvableFix(t), null, t);
  });
});

describe("linkDrawable", () => {
  test("a position solvable for its goal on a size of the menu is drawn at once; anything else goes to the parser", () => {
    const goal = [...Array(15).keys()].map((i) => i + 1).concat(0);
    const blankFirst = [...Array(16).keys()];
    assert.equal(linkDrawable({ tiles: goal, shape: "4x4", goal }), true);
    const swapped = goal.slice(0, 13).concat([15, 14, 0]);
    assert.equal(linkDrawable({ tiles: swapped, shape: "4x4", goal }), false); // unsolvable: the field and its fix
    assert.equal(linkDrawable({ tiles: swapped, shape: "4x4", goal: blankFirst }), true); // ... but not for the blank-first goal
    assert.equal(linkDrawable({ tiles: goal, shape: "4x4", goal: null }), false); // a goal the link could not say: the parser says why
    assert.equal(linkDrawable({ tiles: null, shape: "4x4", goal }), false);
    assert.equal(linkDrawable({ tiles: [1, 2, 3, 0], shape: "1x4", goal: [1, 2, 3, 0] }), false); // not a size of the menu
    const big = [...Array(99).keys()].map((i) => i + 1).concat(0);
    assert.equal(linkDrawable({ tiles: big, shape: "10x10", goal: big }), true);
    assert.equal(linkDrawable(null), false);
  });
});

describe("otherGoals", () => {
  test("the named goals other than the board's: those an unsolvable text may reach instead (the solver decides)", () => {
    const standard = [...Array(15).keys()].map((i) => i + 1).concat(0);
    assert.deepEqual(otherGoals("4x4", standard), [["blank-first", [...Array(16).keys()]]]);
    assert.deepEqual(otherGoals("2x2", [0, 1, 2, 3]), [["standard", [1, 2, 3, 0]]]);
    assert.equal(otherGoals("2x2", [2, 1, 3, 0]).length, 2); // a goal of its own: both named ones
    assert.deepEqual(otherGoals(null, null), []);
  });
});

describe("shapeForCount", () => {
  test("a count that fits the size chosen keeps it; a square count is its square", () => {
    assert.equal(shapeForCount(12, "4x3", SHAPES), "4x3");
    assert.equal(shapeForCount(9, "4x4", SHAPES), "3x3");
  });
  test("12 numbers are read as 3x4 (the squarest shape, wider than high); others likewise", () => {
    assert.equal(shapeForCount(12, "4x4", SHAPES), "3x4");
    assert.equal(shapeForCount(6, "4x4", SHAPES), "2x3");
    assert.equal(shapeForCount(20, "4x4", SHAPES), "4x5");
    assert.equal(shapeForCount(14, "4x4", SHAPES), "2x7");
    assert.equal(shapeForCount(12, "4x4", ["4x4", "4x3"]), "4x3"); // the one shape the solver has
  });
  test("one number off the size chosen, or a count no shape has: the size chosen (the message says what is missing)", () => {
    assert.equal(shapeForCount(15, "4x4", SHAPES), "4x4");
    assert.equal(shapeForCount(17, "4x4", SHAPES), "4x4");
    assert.equal(shapeForCount(5, "4x4", SHAPES), "4x4");
  });
});
