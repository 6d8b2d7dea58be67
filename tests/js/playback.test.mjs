// model/playback.js: stepping a solution forward and back, seeking, and timed play.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Board, goalTiles } from "../../static/js/model/board.js";
import { Playback, SPEEDS } from "../../static/js/model/playback.js";

// The goal with the blank moved up twice and left once: solved by R, D, D.
const start = () => {
  const b = new Board(3, 3);
  for (const d of "UUL") b.moveBlank(d);
  return b;
};

test("step, back and seek replay the directions on a copy of the start", () => {
  const seen = [];
  const s = start();
  const pb = new Playback(s, "RDD", (b, i) => seen.push([i, b.tiles.join("")]));
  assert.equal(pb.length, 3);
  assert.ok(pb.step() && pb.step() && pb.step());
  assert.equal(pb.step(), false);
  assert.deepEqual(pb.board.tiles, goalTiles(3, 3));
  assert.ok(pb.back());
  assert.equal(pb.index, 2);
  pb.seek(0);
  assert.deepEqual(pb.board.tiles, s.tiles);
  assert.equal(pb.back(), false);
  pb.seek(99);
  assert.equal(pb.index, 3);
  assert.deepEqual(pb.board.tiles, goalTiles(3, 3));
  assert.deepEqual(s.tiles, start().tiles, "the start board is not moved");
  assert.deepEqual(
    seen.map(([i]) => i),
    [1, 2, 3, 2, 0, 3],
  );
});

test("play runs to the end and stops; play at the end starts over", async (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const pb = new Playback(start(), "RDD", () => {});
  pb.speed = SPEEDS.at(-1);
  pb.play();
  assert.equal(pb.playing, true);
  for (let i = 0; i < 10; i++) t.mock.timers.tick(1000);
  assert.equal(pb.playing, false);
  assert.equal(pb.index, 3);
  pb.play(); // from the end: back to the start first
  assert.equal(pb.index, 0);
  t.mock.timers.tick(250);
  assert.equal(pb.index, 1);
  pb.toggle();
  assert.equal(pb.playing, false);
  t.mock.timers.tick(5000);
  assert.equal(pb.index, 1);
});
