// The memory one solver worker takes, as the Workers card states it and the pool's size counts
// it (solver/pool.js poolLimits): the wasm memory the workers report (READY, a late database's
// arrival and a pack's load, solver/protocol.js heap_bytes: Python's heap with the databases and
// packs) plus what a worker takes besides it; before any report, the measured total of a worker
// without a pack (WORKER_BASE_BYTES) plus the loaded pack's table.  And how much of the device's
// memory the pool may take (poolMemoryLimit).  Method and figures: bench/memory.md.

const MB = 2 ** 20;

/**
 * Memory of one worker without a pack: the Python runtime, the solver and the 4x4 databases it
 * holds once the 7-7-1 is in (measured: 140-145 MB, the renderer's unique memory per added
 * worker, garbage collected or not: bench/memory.md).
 */
export const WORKER_BASE_BYTES = 145 * MB;

/**
 * What a worker takes beyond its wasm memory: its JavaScript heap (Pyodide's JS side, the
 * worker's modules), its thread, its share of the compiled runtime.  Measured in headless
 * Chromium as the renderer's unique memory per added worker (1, 2 and 4 workers) less the wasm
 * memory the workers reported: 25-30 MB (bench/memory.md).
 */
export const WORKER_REST_BYTES = 30 * MB;

/**
 * What the page takes besides its workers (its renderer's own memory: the DOM, the page's
 * scripts): measured as the renderer's unique memory less its workers', 150 MB (the intercept
 * of memory over the pool's size, bench/memory.md).  The Workers card adds it to the workers'
 * memory, so that its figure is the tab's.
 */
export const PAGE_BYTES = 150 * MB;

/**
 * Bytes of one worker: the largest wasm memory a worker reported (`heapBytes`, 0 or null when
 * none has yet) plus WORKER_REST_BYTES; before any report, WORKER_BASE_BYTES plus `packBytes`
 * (the loaded pack's table, the manifest's memory_bytes).  A report made with the pack loaded
 * counts the pack already (its table lives in that memory).
 */
export function bytesPerWorker(heapBytes, packBytes = 0) {
  if (Number(heapBytes) > 0) return heapBytes + WORKER_REST_BYTES;
  return WORKER_BASE_BYTES + (Number(packBytes) > 0 ? packBytes : 0);
}

/**
 * The share of the device's memory (navigator.deviceMemory, in GB) the pool takes by default: on
 * a 4 GB phone 512 MB, three workers without the pack (the page itself takes ~150 MB more).
 */
export const DEFAULT_MEMORY_SHARE = 1 / 8;

/** The share the Workers menu goes up to: on a 4 GB device 1 GB, seven workers without the pack. */
export const MENU_MEMORY_SHARE = 1 / 4;

/**
 * The device memory assumed when the browser does not tell it (navigator.deviceMemory is
 * Chromium's; Firefox and Safari, phones included, have none): a common phone's.
 */
export const ASSUMED_DEVICE_GB = 4;

/**
 * How many workers of `workerBytes` fit in `share` of the device's memory (`deviceMemory` GB,
 * ASSUMED_DEVICE_GB when not a positive number); at least one.
 */
export function poolMemoryLimit(deviceMemory, workerBytes, share) {
  const gb = Number(deviceMemory) > 0 ? Number(deviceMemory) : ASSUMED_DEVICE_GB;
  const each = Number(workerBytes) > 0 ? Number(workerBytes) : WORKER_BASE_BYTES;
  return Math.max(1, Math.floor((gb * 2 ** 30 * share) / each));
}
