// model/format.js: how counts, durations, sizes, memory and estimates read.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  currentIteration,
  estimateText,
  formatRange,
  shorten,
  lowerBoundText,
  formatBytes,
  formatCount,
  formatPackSize,
  formatSeconds,
  nodeRate,
  packMemoryText,
  phasesAttr,
  phasesText,
  exampleTimeText,
  goalFrameText,
} from "../../static/js/model/format.js";

const MB = 1024 * 1024;

describe("nodeRate", () => {
  test("nodes over the whole time, none in the first second", () => {
    assert.equal(nodeRate({ nodes: 17, seconds: 0.001 }), null); // not "(17/s)" nor "(17000/s)"
    assert.equal(nodeRate({ nodes: 0, seconds: 0 }), null);
    assert.equal(nodeRate({ nodes: 2_690_000, seconds: 10 }), 269_000);
    assert.equal(nodeRate(null), null);
  });
});

describe("formatting", () => {
  test("counts", () => {
    const cases = [[null, "–"], [undefined, "–"], [NaN, "–"], [0, "0"], [9999, "9999"], [12345, "12.3 k"], [123456, "123 k"], [1234567, "1.23 M"], [12345678, "12.3 M"], [1.5e9, "1.50 G"]];
    for (const [n, s] of cases) assert.equal(formatCount(n), s, String(n));
  });

  test("durations", () => {
    const cases = [[null, "–"], [Infinity, "–"], [0.0123, "12 ms"], [1.25, "1.3 s"], [42.4, "42 s"], [61, "1 min 01 s"], [3599, "59 min 59 s"], [3600 * 2 + 60 * 5, "2 h 05 min"]];
    for (const [s, t] of cases) assert.equal(formatSeconds(s), t, String(s));
  });

  test("sizes", () => {
    const cases = [[undefined, ""], [0, "0 B"], [1023, "1023 B"], [2048, "2 KB"], [1.5 * MB, "1.5 MB"]];
    for (const [b, t] of cases) assert.equal(formatBytes(b), t, String(b));
    assert.equal(formatPackSize(52.4 * MB), "52 MB");
    assert.equal(formatPackSize(4096), "4 KB");
  });

  test("a pack's memory: table + download (+ the xz dictionary), rounded up", () => {
    assert.equal(packMemoryText({}), "needs about 400 MB of memory while loading");
    assert.equal(packMemoryText({ memory_bytes: 4096, bytes: 1000 }), "needs about 1 MB of memory while loading");
    // The real pack: a 288 MB table, a 52 MB download, xz: 404 MB -> 500 MB.
    assert.equal(packMemoryText({ memory_bytes: 288 * MB, bytes: 52 * MB, compression: "xz" }), "needs about 500 MB of memory while loading");
    assert.equal(packMemoryText({ memory_bytes: 40 * MB, bytes: 10 * MB }), "needs about 50 MB of memory while loading");
  });
});

describe("progress", () => {
  test("a report that closes an iteration moves on to the next bound", () => {
    const closed = { bound: 44, nodes: 100, iteration_nodes: 60, iterations: [{ bound: 42, nodes: 40 }, { bound: 44, nodes: 60 }] };
    assert.deepEqual(currentIteration(closed), { ...closed, bound: 46, iteration_nodes: 0 });
    const running = { bound: 46, nodes: 110, iteration_nodes: 10, iterations: closed.iterations };
    assert.equal(currentIteration(running), running);
    assert.deepEqual(currentIteration({ bound: 40, nodes: 0 }), { bound: 40, nodes: 0 });
    // the iteration that found the solution: no bound beyond it is proven (Korf #1: never "at least 59" before "57")
    const found = { ...closed, done: true, found: true };
    assert.equal(currentIteration(found), found);
    assert.equal(currentIteration(found).bound, 44);
  });

  test("no estimate before three finished iterations (two growth ratios)", () => {
    assert.equal(estimateText({ iterations: [] }, 100), "");
    assert.match(estimateText({ bound: 42, iterations: [{ bound: 40, nodes: 10 }] }, 100), /^No time estimate yet/);
    const two = { bound: 44, iterations: [{ bound: 40, nodes: 10 }, { bound: 42, nodes: 50 }] };
    assert.match(estimateText(two, 100), /^No time estimate yet/);
    assert.match(estimateText({ ...two, iterations: [...two.iterations, { bound: 44, nodes: 300 }] }, null), /^No time estimate yet/);
  });

  test("the estimate is a range from the smallest to the largest recent growth", () => {
    const its = [{ bound: 40, nodes: 100 }, { bound: 42, nodes: 500 }, { bound: 44, nodes: 5000 }];
    const p = { bound: 46, iteration_nodes: 1000, iterations: its };
    // growth x5 and x10: 25 k - 50 k nodes at bound 46, 24 k - 49 k left at 1 k/s.
    assert.equal(estimateText(p, 1000), "If no solution has 46 moves, bound 46 ends in 24 s – 49 s (growth ×5.0–×10.0 per iteration).");
    assert.equal(formatRange(90, 400), "2 min – 7 min");
    assert.equal(formatRange(3 * 3600, 3 * 3600 + 30), "about 3 h");
  });

  test("irregular growth gives no estimate; a hopeless search is called beyond reach", () => {
    const irregular = [{ bound: 40, nodes: 100 }, { bound: 42, nodes: 200 }, { bound: 44, nodes: 10000 }];
    assert.match(estimateText({ bound: 46, iterations: irregular }, 1000), /^No time estimate: the iterations grow irregularly \(×2\.0 to ×50\.0\)/);
    const steep = [{ bound: 60, nodes: 1e8 }, { bound: 62, nodes: 6e8 }, { bound: 64, nodes: 4e9 }];
    assert.equal(
      estimateText({ bound: 66, iteration_nodes: 0, iterations: steep }, 1e6, { suggestion: "Try: download the hard-positions pack." }),
      "Beyond reach with this bound: bound 66 alone needs more than about 7 h at this speed. Try: download the hard-positions pack.",
    );
    assert.match(estimateText({ bound: 46, iteration_nodes: 99999, iterations: [{ bound: 40, nodes: 100 }, { bound: 42, nodes: 500 }, { bound: 44, nodes: 5000 }] }, 1000), /taking longer/);
    assert.equal(lowerBoundText(46), "Shortest solution ≥ 46 moves");
  });
});

test("long messages are cut", () => {
  assert.equal(shorten("abc", 300), "abc");
  const cut = shorten("x".repeat(1_000_000));
  assert.equal(cut.length, 300);
  assert.ok(cut.endsWith("…"));
});

describe("start-up phases", () => {
  test("the timing line names each measured phase in order, skipping unknown ones", () => {
    assert.equal(phasesText({ databases: 0.42, runtime: 3.2, warmup: 0.61, solver: 0.18 }), "runtime 3.2 s · solver 180 ms · databases 420 ms · warm-up 610 ms");
    assert.equal(phasesText({ runtime: 12.5, solver: undefined }), "runtime 13 s");
    assert.equal(phasesText({}), "");
    assert.equal(phasesText(null), "");
  });
  test("the attribute keeps milliseconds for tools", () => {
    assert.equal(phasesAttr({ runtime: 3.2, solver: 0.1804, warmup: Number.NaN }), "runtime=3.200 solver=0.180");
  });
});

describe("examples and goals", () => {
  test("an example's time in the page is said as measured where the site was built", () => {
    assert.equal(exampleTimeText({ page_seconds: 10.5 }), "Solved in the page in about 11 s (measured on the machine that built this site; yours may differ).");
    assert.equal(exampleTimeText({ page_seconds: 0.2 }), "Solved in the page in under a second (measured on the machine that built this site; yours may differ).");
    assert.equal(exampleTimeText({}), "");
    assert.equal(exampleTimeText({ page_over_seconds: 1440 }), "More than 24 min in the page (measured on the machine that built this site, unfinished; yours may differ).");
  });

  test("a goal frame is a sentence; the standard goal has none", () => {
    assert.equal(goalFrameText("Mapped onto the standard goal (rotated 180 degrees)"), "Goal: mapped onto the standard goal (rotated 180 degrees).");
    assert.equal(goalFrameText(null), "");
  });
});
