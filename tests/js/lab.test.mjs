// model/lab-chart.js and model/lab-table.js: the heuristic lab's chart geometry and its tables as text.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { decades, integerTicks, linearScale, logScale, nodesChart, pathData, powerLabel, traceChart } from "../../static/js/model/lab-chart.js";
import {
  formatEbf,
  iterationTable,
  labHash,
  optimumOf,
  parseBudget,
  readLabHash,
  runState,
  summaryTable,
  toMarkdown,
  toTSV,
} from "../../static/js/model/lab-table.js";

// The 8-puzzle's farthest position (preset 8p31), md and wdid, as `fifteen compare` reports them
// (docs/web-app.md, "The lab"); lc stopped by a budget of 1,000 nodes in its 27 iteration.
const it = (bound, nodes, finished = true) => ({ bound, nodes, seconds: 0.01, finished });
const MD = { name: "md", h0: 21, iterations: [it(21, 3), it(23, 42), it(25, 242), it(27, 1653), it(29, 7147), it(31, 623)], nodes: 9710, seconds: 0.05, nodes_per_second: 194200, ebf: 1.2712, finished: true, length: 31 };
const WDID = { name: "wdid", h0: 25, iterations: [it(25, 31), it(27, 295), it(29, 1533), it(31, 223)], nodes: 2082, seconds: 0.02, nodes_per_second: 104100, ebf: 1.2156, finished: true, length: 31 };
const LC = { name: "lc", h0: 23, iterations: [it(23, 14), it(25, 151), it(27, 835, false)], nodes: 1000, seconds: 0.01, nodes_per_second: 100000, ebf: null, finished: false, length: null };

describe("lab tables", () => {
  test("nodes per iteration: one row per threshold, + for a partial count, totals last", () => {
    const t = iterationTable([MD, LC, WDID]);
    assert.deepEqual(t.header, ["threshold", "md", "lc", "wdid"]);
    assert.deepEqual(t.rows, [
      ["21", "3", "", ""],
      ["23", "42", "14", ""],
      ["25", "242", "151", "31"],
      ["27", "1653", "835+", "295"],
      ["29", "7147", "", "1533"],
      ["31", "623", "", "223"],
      ["total", "9710", "1000+", "2082"],
    ]);
  });

  test("TSV and Markdown read as the CLI prints them", () => {
    const t = iterationTable([MD, WDID]);
    assert.equal(toTSV(t).split("\n")[0], "threshold\tmd\twdid");
    assert.equal(toTSV(t).split("\n").at(-1), "total\t9710\t2082");
    // the same text as `python -m fifteen compare --preset 8p31 --bounds md,wdid --format markdown`
    assert.equal(
      toMarkdown(t),
      [
        "| threshold | md | wdid |",
        "|---|---:|---:|",
        "| 21 | 3 |  |",
        "| 23 | 42 |  |",
        "| 25 | 242 | 31 |",
        "| 27 | 1653 | 295 |",
        "| 29 | 7147 | 1533 |",
        "| 31 | 623 | 223 |",
        "| total | 9710 | 2082 |",
      ].join("\n"),
    );
  });

  test("summary: EBF with three decimals, none for an unfinished run; how a run ended", () => {
    const t = summaryTable([MD, LC, { ...LC, stopped: true }]);
    assert.deepEqual(t.header, ["bound", "h0", "iterations", "nodes", "time (s)", "nodes/s", "EBF", "finished", "length"]);
    assert.deepEqual(t.rows[0], ["md", "21", "6", "9,710", "0.05", "194,200", "1.271", "yes", "31"]);
    assert.deepEqual(t.rows[1], ["lc", "23", "3", "1,000", "0.01", "100,000", "–", "no (budget)", "–"]);
    assert.equal(t.rows[2][7], "no (stopped)");
    assert.equal(formatEbf(null), "–");
    assert.equal(formatEbf(Infinity), "–");
    assert.equal(formatEbf(1.19749), "1.197");
    assert.equal(runState({ running: true }), "running…");
  });

  test("the optimum comes from a finished run only", () => {
    assert.equal(optimumOf([LC, WDID]), 31);
    assert.equal(optimumOf([LC]), null);
  });

  test("a comparison link round-trips its bounds and budget", () => {
    const h = labHash("#tiles=8,6,7,2,5,4,3,0,1", { bounds: ["md", "wdid"], budget: 1000000 });
    assert.equal(h, "#tiles=8,6,7,2,5,4,3,0,1&lab=md,wdid&budget=1000000");
    assert.deepEqual(readLabHash(h), { bounds: ["md", "wdid"], budget: 1000000 });
    assert.equal(readLabHash("#tiles=1,2,3,0"), null);
    assert.deepEqual(readLabHash("#lab=MD,<x>,pdb663&budget=-3"), { bounds: ["md", "pdb663"], budget: null });
  });

  test("budgets as typed", () => {
    for (const [text, n] of [["2000000", 2e6], ["2,000,000", 2e6], ["2e6", 2e6], ["2M", 2e6], ["500k", 5e5], [" 7 ", 7]]) assert.equal(parseBudget(text), n, text);
    for (const text of ["", "0", "-5", "many", "1.5.2"]) assert.equal(parseBudget(text), null, text);
  });
});

describe("chart geometry", () => {
  test("scales", () => {
    const x = linearScale(10, 20, 0, 100);
    assert.equal(x(15), 50);
    assert.equal(linearScale(3, 3, 0, 10)(3), 5);
    const y = logScale(1, 1000, 300, 0); // up the page
    assert.equal(y(1), 300);
    assert.equal(y(10), 200);
    assert.equal(y(1000), 0);
  });

  test("decades and ticks", () => {
    assert.deepEqual(decades(3, 7147), { lo: 1, hi: 10000, ticks: [1, 10, 100, 1000, 10000] });
    assert.deepEqual(decades(100, 100), { lo: 100, hi: 1000, ticks: [100, 1000] });
    assert.deepEqual(integerTicks(20, 32, 2), [20, 22, 24, 26, 28, 30, 32]);
    assert.deepEqual(integerTicks(0, 80, 5, 10), [0, 10, 20, 30, 40, 50, 60, 70, 80]);
    assert.deepEqual([1, 1000, 10000, 1e6, 1e7, 1e9].map(powerLabel), ["1", "1k", "10k", "1M", "10M", "1G"]);
    assert.equal(pathData([{ x: 1, y: 2 }, { x: 3.25, y: 4 }]), "M1.0 2.0 L3.3 4.0");
    assert.equal(pathData([]), "");
  });

  test("nodes chart: one line per bound, points ordered by bound, the optimum marked", () => {
    const c = nodesChart([MD, LC, WDID], { width: 500, height: 300, optimum: 31 });
    assert.deepEqual(c.lines.map((l) => l.name), ["md", "lc", "wdid"]);
    assert.deepEqual(c.lines.map((l) => l.finished), [true, false, true]);
    const md = c.lines[0].points;
    assert.equal(md.length, 6);
    for (let i = 1; i < md.length; i++) assert.ok(md[i].x > md[i - 1].x);
    // log scale: 7147 nodes is higher (smaller y) than 623, 1 decade = the same height everywhere
    assert.ok(md[4].y < md[5].y);
    const tick = Object.fromEntries(c.yTicks.map((t) => [t.value, t.pos]));
    assert.ok(Math.abs(tick[1] - tick[10] - (tick[1000] - tick[10000])) < 1e-9);
    assert.equal(c.yTicks[0].value, 1);
    assert.equal(c.yTicks.at(-1).value, 10000);
    assert.equal(c.optimum.value, 31);
    assert.equal(c.optimum.x, md[5].x);
    assert.equal(c.lines[1].points.at(-1).finished, false);
    // every point inside the frame
    for (const p of c.lines.flatMap((l) => l.points)) {
      assert.ok(p.x >= c.frame.x0 && p.x <= c.frame.x1 && p.y <= c.frame.y0 && p.y >= c.frame.y1);
    }
  });

  test("nodes chart with no iterations yet is still a chart", () => {
    const c = nodesChart([{ name: "md", iterations: [] }]);
    assert.equal(c.lines[0].d, "");
    assert.equal(c.optimum, null);
    assert.ok(c.yTicks.length >= 2);
  });

  test("trace chart: the staircase and each bound, a marker at the playback's step", () => {
    const trace = { names: ["md"], remaining: [3, 2, 1, 0], values: { md: [1, 2, 1, 0] } };
    const c = traceChart(trace, { width: 330, height: 140, margin: { top: 10, right: 10, bottom: 30, left: 20 }, step: 2 });
    assert.deepEqual(c.lines.map((l) => l.name), ["left", "md"]);
    // 4 values -> 4 points + 3 steps' horizontal ends
    assert.equal(c.lines[0].points.length, 7);
    assert.equal(c.lines[0].points[0].y, 10); // 3 moves left: the top
    assert.equal(c.lines[0].points.at(-1).y, 110); // 0: the bottom
    assert.equal(c.marker.x, 220);
  });
});
