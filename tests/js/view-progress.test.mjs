// view/progress.js, the loading steps: nothing moves while they run, so a step under way shows
// its whole seconds so far, once a second, after its size; the ticker stops with the last step.

import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, mock, test } from "node:test";

import { formatBytes } from "../../static/js/model/format.js";
import { LoadState, Stage } from "../../static/js/solver/protocol.js";

/** Just enough of a DOM element for LoadingView. */
class FakeElement {
  constructor(tag) {
    this.tagName = tag;
    this.children = [];
    this.className = "";
    this.textContent = "";
    this.hidden = false;
    this.style = {};
  }
  append(...children) {
    for (const c of children) c.parent = this;
    this.children.push(...children);
  }
  replaceChildren() {
    this.children = [];
  }
  setAttribute() {}
  remove() {
    this.parent.children = this.parent.children.filter((c) => c !== this);
  }
  get firstChild() {
    return this.children[0];
  }
  querySelector(selector) {
    const cls = selector.replace(/^\./, "");
    for (const c of this.children) {
      if (c.className.split(" ").includes(cls)) return c;
      const found = c.querySelector(selector);
      if (found) return found;
    }
    return null;
  }
}

const byId = {};
globalThis.document = { getElementById: (id) => (byId[id] ??= new FakeElement("div")), createElement: (tag) => new FakeElement(tag) };
let clock = 0; // ms: performance.now() as LoadingView reads it
Object.defineProperty(globalThis, "performance", { value: { now: () => clock }, configurable: true, writable: true });

const { LoadingView } = await import("../../static/js/view/progress.js");

const RUNTIME_BYTES = 13_500_000;
const start = (stage = Stage.RUNTIME, label = "Python runtime (Pyodide)") => ({ stage, state: LoadState.START, label });
const done = (stage = Stage.RUNTIME, label = "Pyodide") => ({ stage, state: LoadState.DONE, label, seconds: 3.2 });

/** Advance the page's clock and its timers by `ms`. */
function wait(ms) {
  clock += ms;
  mock.timers.tick(ms);
}

describe("LoadingView: a step under way shows its seconds", () => {
  let view;
  beforeEach(() => {
    mock.timers.enable({ apis: ["setInterval"] });
    clock = 0;
    view = new LoadingView();
    view.reset();
  });
  afterEach(() => mock.timers.reset());

  const sizeText = () => byId["loading-steps"].children[0].querySelector(".size").textContent;

  test("after its size, in whole seconds, from the first second on", () => {
    view.update(start(), { [Stage.RUNTIME]: RUNTIME_BYTES });
    assert.equal(sizeText(), formatBytes(RUNTIME_BYTES));
    wait(999);
    assert.equal(sizeText(), formatBytes(RUNTIME_BYTES)); // (no tick yet)
    wait(1);
    assert.equal(sizeText(), `${formatBytes(RUNTIME_BYTES)} · 1 s`);
    wait(2500);
    assert.equal(sizeText(), `${formatBytes(RUNTIME_BYTES)} · 3 s`);
  });

  test("alone when the step has no size (a cached start), counted from its START across PROGRESS", () => {
    view.update(start(), {});
    wait(1000);
    assert.equal(sizeText(), "1 s");
    wait(500);
    view.update({ stage: Stage.RUNTIME, state: LoadState.PROGRESS, label: "Python runtime", loaded: 2_000_000, bytes: 4_000_000 }, {});
    assert.equal(sizeText(), `${formatBytes(2_000_000)} / ${formatBytes(4_000_000)} · 1 s`);
    wait(500);
    assert.equal(sizeText(), `${formatBytes(2_000_000)} / ${formatBytes(4_000_000)} · 2 s`);
  });

  test("the runtime compiling is said beside its download, which may count on", () => {
    const progress = (loaded) => ({ stage: Stage.RUNTIME, state: LoadState.PROGRESS, label: "Python runtime", loaded, bytes: 4_000_000 });
    view.update(start(), {});
    view.update(progress(1_300_000), {});
    view.update({ stage: Stage.RUNTIME, state: LoadState.PROGRESS, label: "Python runtime", compiling: true }, {});
    assert.equal(sizeText(), `${formatBytes(1_300_000)} / ${formatBytes(4_000_000)} · compiling`);
    view.update(progress(2_000_000), {});
    assert.equal(sizeText(), `${formatBytes(2_000_000)} / ${formatBytes(4_000_000)} · compiling`);
    wait(1000);
    assert.equal(sizeText(), `${formatBytes(2_000_000)} / ${formatBytes(4_000_000)} · compiling · 1 s`);
    view.update(done(), {});
    assert.equal(sizeText(), "3.2 s");
  });

  test("DONE shows the step's time; the ticker stops with the last step under way", () => {
    view.update(start(), {});
    view.update(start(Stage.SOLVER, "solver package"), {});
    wait(1000);
    view.update(done(), {});
    assert.equal(sizeText(), "3.2 s");
    assert.notEqual(view.ticker, 0, "a step is still under way");
    view.update(done(Stage.SOLVER, "fifteen"), {});
    assert.equal(view.ticker, 0);
    wait(5000);
    assert.equal(sizeText(), "3.2 s");
  });

  test("a failed load and a reset stop the ticker too", () => {
    view.update(start(), {});
    view.fail();
    assert.equal(view.ticker, 0);
    view.update(start(), {});
    view.reset();
    assert.equal(view.ticker, 0);
    assert.equal(byId["loading-steps"].children.length, 0);
  });
});
