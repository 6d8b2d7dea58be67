// The memory one solver worker takes (solver/memory.js) as the Workers card states it
// (view/pool-view.js) and the pool's size limit counts it (solver/pool.js poolLimits): the largest
// wasm memory a worker reported plus the measured rest of a worker, else the measured
// estimate plus the loaded pack's table.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { WORKER_BASE_BYTES, WORKER_REST_BYTES, bytesPerWorker } from "../../static/js/solver/memory.js";
import { poolLimits } from "../../static/js/solver/pool.js";

const MB = 2 ** 20;

/** Just enough of the DOM for PoolView: elements by id with text and data attributes. */
const byId = {};
globalThis.document = {
  getElementById: (id) => (byId[id] ??= { id, textContent: "", dataset: {}, hidden: false, value: "", replaceChildren() {} }),
};
const { PoolView, memoryText } = await import("../../static/js/view/pool-view.js");

describe("bytesPerWorker", () => {
  test("the measured figures (bench/memory.md)", () => {
    assert.equal(WORKER_BASE_BYTES, 170 * MB);
    assert.equal(WORKER_REST_BYTES, 40 * MB);
    // said in decimal megabytes, as every size of the page (170 MiB = 178 MB)
    assert.equal(memoryText(bytesPerWorker(0)), "180 MB");
    assert.equal(memoryText(bytesPerWorker(114.0 * MB)), "170 MB"); // a fresh start's report
    assert.equal(memoryText(bytesPerWorker(136.9 * MB)), "190 MB"); // a start resumed from the snapshot
  });

  test("before any report: the estimate, plus the loaded pack's table", () => {
    assert.equal(bytesPerWorker(0), WORKER_BASE_BYTES);
    assert.equal(bytesPerWorker(null), WORKER_BASE_BYTES);
    assert.equal(bytesPerWorker(undefined, 288 * MB), WORKER_BASE_BYTES + 288 * MB);
    assert.equal(bytesPerWorker(0, null), WORKER_BASE_BYTES);
  });

  test("after a report: the heap plus the rest of a worker; the pack is in the reported heap", () => {
    assert.equal(bytesPerWorker(52 * MB), 52 * MB + WORKER_REST_BYTES);
    assert.equal(bytesPerWorker(52 * MB, 288 * MB), 52 * MB + WORKER_REST_BYTES);
    assert.equal(bytesPerWorker(345 * MB, 288 * MB), 345 * MB + WORKER_REST_BYTES);
  });

  test("the pool limit counts the same figure", () => {
    // 4 GB: half of it holds 2048 / (the figure in MB) workers
    const each = bytesPerWorker(52 * MB);
    const fits = Math.floor((2048 * MB) / each);
    assert.deepEqual(poolLimits({ hardwareConcurrency: 64, deviceMemory: 4 }, each), { max: 16, suggested: Math.min(16, fits) });
    assert.deepEqual(poolLimits({ hardwareConcurrency: 64, deviceMemory: 4 }), { max: 16, suggested: Math.min(16, Math.floor((2048 * MB) / WORKER_BASE_BYTES)) });
  });
});

describe("PoolView.render", () => {
  test("the card's text: per worker from the figure, the whole pool's total, the heap reported as data", () => {
    const view = new PoolView();
    const perWorker = bytesPerWorker(52 * MB);
    view.render({ size: 2, ready: 2, starting: 0 }, { perWorker, heapBytes: 52 * MB, cores: 4 });
    assert.equal(view.note.textContent, `2 of 2 ready · about ${memoryText(2 * perWorker)} of memory, ${memoryText(perWorker)} per worker · 4 cores here.`);
    assert.equal(view.note.dataset.heapBytes, String(52 * MB));
    assert.equal(view.note.dataset.ready, "2");
  });

  test("one worker: the total only; before any report data-heap-bytes is 0; with the pack it says so", () => {
    const view = new PoolView();
    view.render({ size: 1, ready: 1, starting: 0 }, { perWorker: 110 * MB });
    assert.equal(view.note.textContent, "about 120 MB of memory."); // 110 MiB: 115 MB
    assert.equal(view.note.dataset.heapBytes, "0");
    view.render({ size: 4, ready: 1, starting: 3 }, { perWorker: 400 * MB, packBytes: 288 * MB, heapBytes: 345 * MB });
    assert.equal(view.note.textContent, "1 of 4 ready (more starting) · about 1.7 GB of memory, 420 MB per worker with the pack.");
  });
});

const DECIMAL_MB = 1e6;

describe("memoryText", () => {
  test("rounded up to 10 MB, to 100 MB from 1 GB on", () => {
    assert.equal(memoryText(101 * DECIMAL_MB), "110 MB");
    assert.equal(memoryText(110 * DECIMAL_MB), "110 MB");
    assert.equal(memoryText(999 * DECIMAL_MB), "1000 MB");
    assert.equal(memoryText(1000 * DECIMAL_MB), "1.0 GB");
    assert.equal(memoryText(1500 * DECIMAL_MB), "1.5 GB");
    assert.equal(memoryText(1501 * DECIMAL_MB), "1.6 GB");
  });
});
