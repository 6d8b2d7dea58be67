// Every bound's series in the lab's charts has its own look besides its colour (WCAG 1.4.1).

import assert from "node:assert/strict";
import { test } from "node:test";

import { seriesStyle } from "../../static/js/view/lab-view.js";

const BOUNDS = ["md", "lc", "id", "wd", "wdid", "pdb555", "pdb663", "pdb771", "pdb78", "pdb55554"];
const SHAPES = ["circle", "square", "triangle", "diamond", "down"];

test("each bound has a dash pattern and a marker, and no two bounds look alike", () => {
  const looks = BOUNDS.map((name) => seriesStyle(name));
  for (const [i, look] of looks.entries()) {
    assert.equal(typeof look.dash, "string", BOUNDS[i]);
    assert.ok(SHAPES.includes(look.marker), `${BOUNDS[i]}: ${look.marker}`);
  }
  assert.equal(new Set(looks.map((l) => `${l.dash}|${l.marker}`)).size, BOUNDS.length);
});
