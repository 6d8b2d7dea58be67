// control/bounds.js: the bounds line takes the answer for the board shown, whatever order the
// answers come in, and asks again for a request stopped on its way.
import assert from "node:assert/strict";
import { test } from "node:test";

import { BoundsLine } from "../../static/js/control/bounds.js";
import { JobKind, JobStopped, Why } from "../../static/js/control/jobs.js";
import { Board } from "../../static/js/model/board.js";

const wait = (ms) => new Promise((r) => setTimeout(r, ms));

/** A page with the board `shown`, whose solver requests the test answers (ask: pending until told). */
function page(first) {
  const asked = [];
  const rendered = [];
  let shown = first;
  const model = {
    ready: true,
    job: null,
    info: {},
    lastBounds: null,
    shownBoard: () => shown,
    position: first,
    boundsAnswered(r) {
      this.lastBounds = r;
    },
    positionBounds() {
      const r = this.lastBounds;
      return r && r.tiles.join(" ") === shown.text() ? r : null;
    },
  };
  const view = {
    bounds: { render: (r) => rendered.push(r.tiles.join(" ")), clear: (m) => rendered.push(`clear: ${m}`) },
    setGoalLine: () => {},
  };
  const ask = (kind, method, params) =>
    new Promise((resolve, reject) => {
      if (kind === JobKind.BOUNDS) asked.push({ tiles: params.tiles.join(" "), resolve, reject });
      else resolve(null); // (INFO, the warm-up: not this test's)
    });
  const line = new BoundsLine({ model, view, ask, warmUp: () => {} });
  line.knownShapes.add(first.shape);
  return { line, asked, rendered, show: (b) => (shown = b) };
}

const answer = (req) => req.resolve({ tiles: req.tiles.split(" ").map(Number), bounds: {} });
const A = new Board(3, 3, [1, 2, 3, 4, 5, 6, 7, 0, 8]);
const B = new Board(3, 3, [1, 2, 3, 4, 5, 6, 0, 7, 8]);

test("an answer for the board shown is taken, even after another answer came", async () => {
  const { line, asked, rendered, show } = page(A);
  line.refresh();
  await wait(80);
  show(B);
  line.refresh();
  await wait(80);
  assert.deepEqual(asked.map((r) => r.tiles), [A.text(), B.text()]);
  answer(asked[1]); // B's first, then A's (no longer shown: dropped)
  answer(asked[0]);
  await wait(0);
  assert.deepEqual(rendered, [B.text()]);
  assert.equal(line.key, B.key());
});

test("an answer that comes after a newer one for another board does not hide the board's own", async () => {
  // (the answers of a checked text come through answered(): one for a board not shown is kept aside)
  const { line, asked, rendered, show } = page(A);
  show(B);
  line.refresh();
  await wait(80);
  line.answered(A, { tiles: A.tiles, bounds: {} }); // a text's check, for a board not shown now
  answer(asked[0]);
  await wait(0);
  assert.deepEqual(rendered, [B.text()]);
});

test("a request stopped on its way is asked again; one replaced by a newer request is not", async () => {
  const { line, asked, rendered } = page(A);
  line.refresh();
  await wait(80);
  asked[0].reject(new JobStopped({ why: Why.USER, kind: JobKind.BOUNDS }));
  await wait(300);
  assert.equal(asked.length, 2, "asked again");
  asked[1].reject(new JobStopped({ why: Why.NEWER, kind: JobKind.BOUNDS }));
  await wait(300);
  assert.equal(asked.length, 2, "a newer request answers instead");
  line.refresh({ force: true });
  await wait(80);
  answer(asked[2]);
  await wait(0);
  assert.deepEqual(rendered, [A.text()]);
});
