// model/format.js: how counts, durations, sizes, memory and estimates read.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  currentIteration,
  estimateText,
  formatRange,
  shorten,
  lowerBoundText,
  downloadFigure,
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

const MB = 1e6;
const MiB = 2 ** 20;

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
    // decimal units, as the README's sizes: the site's 34,431,212 bytes are 34.4 MB (32.8 MiB)
    const cases = [[undefined, ""], [0, "0 B"], [999, "999 B"], [2048, "2 kB"], [1.5 * MB, "1.5 MB"], [34_431_212, "34.4 MB"], [2.5e9, "2.50 GB"]];
    for (const [b, t] of cases) assert.equal(formatBytes(b), t, String(b));
    assert.equal(formatPackSize(52.4 * MB), "52 MB");
    assert.equal(formatPackSize(4096), "4 kB");
  });

  test("the status line's download figure", () => {
    assert.equal(downloadFigure([]), "");
    assert.equal(downloadFigure([{ loaded: 0, bytes: 0 }]), "");
    assert.equal(downloadFigure([{ loaded: 4.2 * MB, bytes: 13.5 * MB }, { loaded: 0, bytes: 1.4 * MB }]), " 4.2 MB of 14.9 MB (28 %)");
    // a step's loaded bytes past its size count as its size
    assert.equal(downloadFigure([{ loaded: 2 * MB, bytes: MB }, { loaded: 0, bytes: MB }]), " 1.0 MB of 2.0 MB (50 %)");
    // a step begun with no size yet (build-info.json not read): what came so far, never "3.2 MB of 647 kB (493 %)"
    assert.equal(downloadFigure([{ loaded: 2.55 * MB, bytes: 0 }, { loaded: 647e3, bytes: 647e3 }]), " 3.2 MB");
  });

  test("a pack's memory: table + download (+ the xz dictionary), rounded up", () => {
    assert.equal(packMemoryText({}), "needs about 400 MB of memory while loading");
    assert.equal(packMemoryText({ memory_bytes: 4096, bytes: 1000 }), "needs about 1 MB of memory while loading");
    // The real pack: a 288 MiB table, a 52 MiB download, xz's 64 MiB: 424 MB -> 500 MB.
    assert.equal(packMemoryText({ memory_bytes: 288 * MiB, bytes: 52 * MiB, compression: "xz" }), "needs about 500 MB of memory while loading");
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

  // the solver's estimate (fifteen.search.estimate.Estimate.to_json), in nodes from the running iteration's start
  const LIMITS = { out_of_reach_seconds: 600 };
  const its = [{ bound: 72, nodes: 15_332 }, { bound: 74, nodes: 158_940 }, { bound: 76, nodes: 1_623_311 }];
  const estimate = { bound: 78, growth: [10.21, 10.37], running: [16_574_000, 16_834_000], longest: 80, whole: [18_266_000, 191_410_000], soonest_share: 0.01 };
  const at = (done, extra = {}) => ({ bound: 78, iteration_nodes: done, iterations: its, estimate, ...extra });
  const none = { text: "", offer: false, outOfReach: false };

  test("no estimate before the solver gives one", () => {
    assert.deepEqual(estimateText({ iterations: [] }, 100), none);
    assert.match(estimateText({ bound: 42, iterations: [{ bound: 40, nodes: 10 }], estimate: null }, 100).text, /^No time estimate yet/);
    assert.match(estimateText(at(0), null).text, /^No time estimate yet/); // no rate yet
    assert.match(estimateText(at(0, { bound: 80 }), 1e5).text, /^No time estimate yet/); // an estimate of another iteration
    assert.deepEqual(estimateText({ ...at(0), bound: 76, found: true }, 1e5), none); // the search found its solution
  });

  test("the running iteration, then the whole search near the longest optimum, as ranges at the page's rate", () => {
    // H01 at 394 k nodes/s (its 20.9 M nodes in 53 s in the page) when bound 78 begins
    assert.deepEqual(estimateText(at(0), 394_000, { limits: LIMITS }), {
      text:
        "If no solution has 78 moves, bound 78 ends in 42 s – 43 s (growth ×10.2–×10.4 per iteration). " +
        "If the shortest solution has 80 moves, the most this position can need, the search ends in 46 s – 8 min at this rate; sooner if it has fewer.",
      offer: false,
      outOfReach: false,
    });
    // what the running iteration searched is subtracted; past its largest size it is said to take longer
    assert.match(estimateText(at(16_000_000), 394_000, { limits: LIMITS }).text, /^If no solution has 78 moves, bound 78 ends in 1 s – 2 s/);
    assert.match(estimateText(at(17_000_000), 394_000, { limits: LIMITS }).text, /^Bound 78 is taking longer than the last iterations' growth \(×10\.2–×10\.4\) predicted\. If the shortest/);
    // the last iteration the longest optimum allows holds the solution: only the whole search is said
    const last = { bound: 80, growth: [10, 10], running: [160e6, 160e6], longest: 80, whole: [1.6e6, 160e6], soonest_share: 0.01 };
    assert.equal(
      estimateText({ bound: 80, iteration_nodes: 0, iterations: its, estimate: last }, 394_000, { limits: LIMITS }).text,
      "If the shortest solution has 80 moves, the most this position can need, the search ends in 4 s – 7 min at this rate; sooner if it has fewer.",
    );
    assert.equal(formatRange(90, 400), "2 min – 7 min");
    assert.equal(formatRange(3 * 3600, 3 * 3600 + 30), "about 3 h");
  });

  test("a long running iteration offers a fast answer; out of reach only when even its soonest end is past the limit", () => {
    // the transposed goal's last iteration (72) in the page: 24 min if it held no solution; it ends after 2.5 % of it
    const transposed = { bound: 72, growth: [6.5, 6.57], running: [696e6, 703e6], longest: null, whole: null, soonest_share: 0.01 };
    const p = { bound: 72, iteration_nodes: 0, iterations: its, estimate: transposed };
    const r = estimateText(p, 492_000, { limits: LIMITS, suggestion: "Try: download the hard-positions pack." });
    assert.deepEqual(r, {
      text: "If no solution has 72 moves, bound 72 ends in about 24 min (growth ×6.5–×6.6 per iteration): a fast answer takes seconds.",
      offer: true,
      outOfReach: false,
    });
    assert.ok(!/out of reach/.test(r.text));
    const steep = { bound: 66, growth: [6, 7], running: [2.4e11, 2.8e11], longest: null, whole: null, soonest_share: 0.01 };
    const q = { bound: 66, iteration_nodes: 0, iterations: its, estimate: steep };
    assert.deepEqual(estimateText(q, 1e6, { limits: LIMITS, suggestion: "Try: download the hard-positions pack." }), {
      text: "The optimal search is out of reach here: bound 66 alone needs about 3 days at this rate, and even if it holds the solution it most likely ends after more than 10 min. A fast answer takes seconds; this search may go on. Try: download the hard-positions pack.",
      offer: true,
      outOfReach: true,
    });
    assert.equal(estimateText(q, 1e10, { limits: LIMITS }).offer, false); // 28 s at 10 G/s
    assert.equal(estimateText(q, 1e6, { limits: { out_of_reach_seconds: 1e9 } }).offer, false); // the solver's limit, not a copy
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
