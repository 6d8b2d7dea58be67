// The memory one solver worker takes (solver/memory.js) as the Workers card states it
// (view/pool-view.js) and the pool's size limit counts it (solver/pool.js poolLimits): the largest
// wasm memory a worker reported plus the measured rest of a worker, else the measured
// estimate plus the loaded pack's table; and the pool's default and its menu sized by the
// device's memory (an eighth, a quarter) and its cores.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  ASSUMED_DEVICE_GB,
  DEFAULT_MEMORY_SHARE,
  MENU_MEMORY_SHARE,
  PAGE_BYTES,
  WORKER_BASE_BYTES,
  WORKER_REST_BYTES,
  bytesPerWorker,
  poolMemoryLimit,
} from "../../static/js/solver/memory.js";
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
    assert.equal(WORKER_BASE_BYTES, 145 * MB);
    assert.equal(WORKER_REST_BYTES, 30 * MB);
    // said in decimal megabytes, as every size of the page (145 MiB = 152 MB)
    assert.equal(memoryText(bytesPerWorker(0)), "160 MB");
    // a worker's report once the 7-7-1 is in (fresh or resumed from the snapshot alike): the
    // measured 140-145 MiB per worker, within 10 %
    assert.equal(memoryText(bytesPerWorker(114.9 * MB)), "160 MB");
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
    // 4 GB: an eighth of it (the default) holds 512 / (the figure in MB) workers, a quarter (the menu) twice that
    const each = bytesPerWorker(114.9 * MB);
    assert.deepEqual(poolLimits({ hardwareConcurrency: 64, deviceMemory: 4 }, each), { max: Math.floor(1024 / 144.9), suggested: Math.floor(512 / 144.9) });
    assert.deepEqual(poolLimits({ hardwareConcurrency: 64, deviceMemory: 4 }), { max: Math.floor(1024 / 145), suggested: Math.floor(512 / 145) });
  });
});

describe("the pool's size by memory", () => {
  const each = bytesPerWorker(114.9 * MB);

  test("8 cores and 4 GB (a phone): 3 workers by default, 7 at most; the default's memory well under 1.5 GB", () => {
    const { max, suggested } = poolLimits({ hardwareConcurrency: 8, deviceMemory: 4 }, each);
    assert.deepEqual([max, suggested], [7, 3]);
    assert.ok(suggested * each + 150 * MB < 1.5 * 2 ** 30, "with the page's own ~150 MB (bench/memory.md)");
  });

  test("the cores decide on a big machine; the memory on a small one; the pack's table counts", () => {
    assert.deepEqual(poolLimits({ hardwareConcurrency: 4, deviceMemory: 8 }, each), { max: 4, suggested: 3 });
    assert.deepEqual(poolLimits({ hardwareConcurrency: 16, deviceMemory: 8 }, each), { max: 14, suggested: 7 });
    assert.deepEqual(poolLimits({ hardwareConcurrency: 8, deviceMemory: 2 }, each), { max: 3, suggested: 1 });
    assert.deepEqual(poolLimits({ hardwareConcurrency: 8, deviceMemory: 1 }, each), { max: 1, suggested: 1 });
    // with the 7-8 pack (288 MB more per worker) on 4 GB: one by default, two at most
    assert.deepEqual(poolLimits({ hardwareConcurrency: 8, deviceMemory: 4 }, bytesPerWorker(114.9 * MB + 288 * MB)), { max: 2, suggested: 1 });
  });

  test("a browser that does not tell its memory is taken for a 4 GB device", () => {
    assert.equal(ASSUMED_DEVICE_GB, 4);
    assert.deepEqual(poolLimits({ hardwareConcurrency: 16 }, each), poolLimits({ hardwareConcurrency: 16, deviceMemory: 4 }, each));
    assert.equal(poolMemoryLimit(undefined, each, DEFAULT_MEMORY_SHARE), 3);
    assert.equal(poolMemoryLimit(0, each, MENU_MEMORY_SHARE), 7);
  });

  test("poolMemoryLimit: at least one; the measured figure before any report", () => {
    assert.equal(poolMemoryLimit(0.25, each, DEFAULT_MEMORY_SHARE), 1);
    assert.equal(poolMemoryLimit(8, 0, MENU_MEMORY_SHARE), Math.floor(2048 / 145));
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

  test("the total is the tab's: the page's own memory and its workers'", () => {
    const view = new PoolView();
    const perWorker = bytesPerWorker(114.9 * MB);
    view.render({ size: 3, ready: 3, starting: 0 }, { perWorker, pageBytes: PAGE_BYTES, heapBytes: 114.9 * MB, cores: 8 });
    assert.equal(view.note.textContent, `3 of 3 ready · about ${memoryText(PAGE_BYTES + 3 * perWorker)} of memory, 160 MB per worker · 8 cores here.`);
    // (measured with the default of 8 cores and 4 GB: the renderer's unique memory 582-599 MB, bench/memory.md)
    assert.equal(memoryText(PAGE_BYTES + 3 * perWorker), "620 MB");
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
