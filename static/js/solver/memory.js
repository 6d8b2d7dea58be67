// The memory one solver worker takes, as the Workers card states it and the pool's size limit
// counts it (solver/pool.js poolLimits): the wasm memory the workers report (READY and a pack's
// load, solver/protocol.js heap_bytes: Python's heap with the databases and packs) plus what a
// worker takes besides it; before any report, the measured total of a worker without a pack
// (WORKER_BASE_BYTES) plus the loaded pack's table.  Method and figures: bench/memory.md.

/** Memory of one worker without a pack: the Python runtime, the solver and the 4x4 databases (measured: 160-167 MB, bench/memory.md). */
export const WORKER_BASE_BYTES = 170 * 2 ** 20;

/**
 * What a worker takes beyond its wasm memory: its JavaScript heap (Pyodide's JS side, the
 * worker's modules), its thread, its share of the compiled runtime.  Measured in headless
 * Chromium as the renderer's unique memory per added worker (1, 2 and 4 workers, after a
 * garbage collection) less the wasm memory the workers reported: 6-61 MB, 31 MB on average
 * (about 55 MB for a fresh start, 27 MB for one resumed from the snapshot; bench/memory.md).
 */
export const WORKER_REST_BYTES = 40 * 2 ** 20;

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
