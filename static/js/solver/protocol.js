/*
 * The message protocol between the page and a solver worker: the one place
 * where its message types, their fields and the values of its enumerations
 * are written.  Imported by the page's side (solver/client.js) and by the
 * worker (worker/worker.js and its modules); neither writes a type name as a literal.
 *
 * Every message is a plain object with a `type`; requests that expect an
 * answer carry an `id` (a positive integer chosen by the page), and the
 * worker's answer (PROGRESS*, then one RESULT or ERROR) carries the same id.
 * A worker serves its requests one at a time, in the order they arrive.
 *
 * Page -> worker (ToWorker)
 *   INIT      {shape, skip, controlled}
 *             load the runtime, the solver and the databases for `shape` (sent once,
 *             first); `skip` = asset files not to load (the user chose to go on without
 *             a damaged one); `controlled` = a service worker caches what the worker
 *             fetches (the page sends INIT as soon as it starts, before it knows the
 *             files' sizes: the runtime's LOADING messages name the files it downloads,
 *             `files`, and the page's side adds their `bytes` from build-info.json)
 *             Boot options: a worker whose name (the Worker constructor's `name`) is the
 *             JSON of {controlled} (solver/start.js) starts its runtime and the solver
 *             package's download as it starts, before INIT arrives; INIT's `controlled`
 *             is then not read.  A worker without them starts everything at INIT.
 *   CALL      {id, method, params, progress?}
 *             fifteen.api.call(method, params) for a Method below (SOLVE among them, with
 *             progress: the page's Solve; without: the warm-up); the databases of params.shape
 *             are loaded first when that shape is new; with `progress` true the method's
 *             progress reports come back as PROGRESS {id, progress} (SOLVE: see PROGRESS
 *             below; the lab's COMPARE: the running bound's run so far; the pool's
 *             PARALLEL_TASKS and ANYTIME_PROVE: {nodes}).  The worker runs the call in time
 *             slices of a few tens of milliseconds (fifteen.api.begin and step) and reads its
 *             messages between two: a CANCEL of the call is heard within a slice.
 *   LOAD_PACK {id, file}
 *             download the optional pack `file` (listed under "packs" in
 *             static/db/manifest.json; never fetched unasked), reporting PROGRESS
 *             {file, phase: PackPhase.DOWNLOAD, loaded, bytes}; an xz pack is then
 *             decompressed in the worker straight into a Python bytearray (PROGRESS
 *             {file, phase: PackPhase.DECODE, loaded, bytes} in decompressed bytes),
 *             handed to Python and, once accepted, kept as downloaded in Cache Storage
 *             for offline use; result {file, bytes, cached, memory_bytes, info, heap_bytes}
 *             (heap_bytes: as READY's, the pack now included); a damaged or unreachable
 *             pack is an ordinary (non-fatal) ERROR
 *   CANCEL    {id?}
 *             stop the request `id` (without: the one that runs): a CALL ends at the end of
 *             its running slice, a LOAD_PACK at its next chunk, a request still waiting ends
 *             as it would start, each with ERROR {type: CANCELLED} (an anytime solve too: its best
 *             found went out with its PROGRESS reports); the worker then serves the next request.
 *             Sent out of turn: it does not wait behind the request it stops.  Where the page
 *             is cross-origin isolated the page also writes SIGINT into the interrupt buffer
 *             (READY's `interrupt`), which stops even a long step that is not sliced
 *
 * Worker -> page (FromWorker)
 *   LOADING   {stage, state, label, bytes?, loaded?, seconds?, missing?, cached?, snapshot?}
 *             stage: Stage; state: LoadState; label is human-readable ("wd-4x4.f15"),
 *             bytes the size when known, missing = a database could not be fetched,
 *             cached = served from the site's offline cache (nothing downloaded: the page
 *             shows no size then); snapshot = resumed from the memory snapshot of an earlier
 *             start (worker/snapshot.js): the runtime with the package and those databases
 *   WARNING   {message}              non-fatal (e.g. a missing WD table: rebuilt in-process)
 *   READY     {info, interrupt, seconds, packs, heap_bytes}
 *             info = the result of Method.INFO (shapes, bounds per shape, bound labels);
 *             interrupt = a SharedArrayBuffer (Int32, write SIGINT to stop Python) or null;
 *             packs = the manifest's optional packs, each with `loaded` (true when a copy
 *             kept in Cache Storage was loaded at INIT); heap_bytes = the size of the
 *             runtime's wasm linear memory (Pyodide's HEAP8.buffer.byteLength: Python's heap,
 *             the databases and loaded packs included), or null when the runtime does not
 *             tell it; the page's Workers card counts a worker's memory from it
 *             (solver/memory.js)
 *   PROGRESS  {id, progress}
 *             during a solve, about 4 times a second and per iteration: {bound, nodes,
 *             iteration_nodes, seconds, done, found, iterations: [{bound, nodes, seconds}]}
 *             (with done = true the report closes the iteration at `bound`; the next one
 *             runs at bound + 2 unless `found`: that iteration found the solution); during
 *             LOAD_PACK, see there
 *   RESULT    {id, result}           the request's result object
 *   ERROR     {id, error: {type, message, code?, file?}, fatal?}
 *             type: ErrorType; code: fifteen.api's stable code of the error, when it gives
 *             one (ErrorCode); `fatal` (with id null) means the worker cannot serve
 *             requests: the page shows the message and offers a retry; a damaged
 *             database also names its `file`, so the page can offer to go on without it
 *
 * Python never sees JS objects except asset bytes and the progress callback; every
 * other value crosses as JSON text (fifteen.api, py/fifteen/api.py).
 */

import { goalTiles, parseShape } from "../model/board.js";

/** A worker's boot options ({controlled}) from its name, or null (none: it starts at INIT). */
export function bootOptions(name) {
  try {
    const opts = JSON.parse(name);
    return typeof opts?.controlled === "boolean" ? { controlled: opts.controlled } : null;
  } catch {
    return null;
  }
}

/** Types of the messages the page sends to a worker. */
export const ToWorker = Object.freeze({
  INIT: "init",
  CALL: "call",
  LOAD_PACK: "loadPack",
  CANCEL: "cancel",
});

/** Types of the messages a worker sends to the page. */
export const FromWorker = Object.freeze({
  LOADING: "loading",
  WARNING: "warning",
  READY: "ready",
  PROGRESS: "progress",
  RESULT: "result",
  ERROR: "error",
});

/** fifteen.api methods (py/fifteen/api.py, `_METHODS`) a CALL may name. */
export const Method = Object.freeze({
  INFO: "info",
  PARSE: "parse",
  BOUNDS: "bounds",
  SOLVE: "solve",
  RANDOM: "random",
  // the heuristic lab (fifteen.lab.compare, fifteen.lab.explain)
  COMPARE: "compare",
  TRACE: "trace",
  EXPLAIN: "explain",
  // the small-board explorer and hints (fifteen.bounds.exact, fifteen.lab.hint)
  EXPLORE_INFO: "explore_info",
  EXPLORE_POSITION: "explore_position",
  EXPLORE_RANDOM: "explore_random",
  HINT: "hint",
  // the pool's parallel search (py/fifteen/parallel/page_pool.py; solver/pool.js): the scheduler runs
  // in the first worker (BEGIN, STEP, DROP), the tasks in every worker (TASKS, with
  // progress), the result from the worker whose task found the solution (RESULT)
  PARALLEL_BEGIN: "parallel_begin",
  PARALLEL_STEP: "parallel_step",
  PARALLEL_TASKS: "parallel_tasks",
  PARALLEL_RESULT: "parallel_result",
  PARALLEL_DROP: "parallel_drop",
  // the pool's anytime answer (py/fifteen/parallel/anytime_page.py; solver/anytime-solve.js): the first
  // solution (FIRST), improvers' calls (IMPROVE), the prover's IDA* iterations (PROVE, with
  // progress), the result of the best path (RESULT)
  ANYTIME_FIRST: "anytime_first",
  ANYTIME_IMPROVE: "anytime_improve",
  ANYTIME_PROVE: "anytime_prove",
  ANYTIME_RESULT: "anytime_result",
});

/**
 * Error types.  INPUT, ASSET, CANCELLED and INTERNAL are fifteen.api's own
 * (bad position/shape/bound, missing or corrupt database, cancelled, a bug);
 * LOAD is the worker's (a file could not be fetched, the runtime did not start).
 */
export const ErrorType = Object.freeze({
  INPUT: "input",
  ASSET: "asset",
  CANCELLED: "cancelled",
  INTERNAL: "internal",
  LOAD: "load",
});

/**
 * The stable codes of fifteen.api's errors that the page tells apart (an error's `code`; every
 * code is listed by `python -m fifteen schema`, which tests/js/protocol.test.mjs checks these
 * against).  The page never reads an error's kind from its message text.
 */
export const ErrorCode = Object.freeze({
  UNSOLVABLE: "unsolvable",
  COUNT: "count",
  TOO_LONG: "too_long",
  MOVES: "moves",
  CANCELLED: "cancelled",
});

/** LOADING stages, in the order they run. */
export const Stage = Object.freeze({
  RUNTIME: "runtime",
  SOLVER: "solver",
  DATABASES: "databases",
});

/** LOADING states of one stage (or one database). */
export const LoadState = Object.freeze({
  START: "start",
  PROGRESS: "progress",
  DONE: "done",
});

/** Phases of a pack's PROGRESS reports. */
export const PackPhase = Object.freeze({
  DOWNLOAD: "download",
  DECODE: "decode",
});

/**
 * The params of the warm-up: a CALL of Method.SOLVE on a one-move position of `shape` ("RxC"), with which the
 * solver prepares the tables of its first search of that shape (about a second in the browser).
 * The page sends it when a shape is first shown; the worker runs it for INIT's shape before it
 * makes its memory snapshot, which then holds those tables.
 */
export function warmUpParams(shape) {
  const { rows, cols } = parseShape(shape);
  const tiles = goalTiles(rows, cols);
  const n = tiles.length;
  [tiles[n - 1], tiles[n - 2]] = [tiles[n - 2], tiles[n - 1]];
  return { text: tiles.join(" "), shape, bound: "auto" };
}

/** The value written into the interrupt buffer to stop Python (SIGINT: KeyboardInterrupt). */
export const SIGINT = 2;

/**
 * The Cache Storage cache where the solver worker keeps the runtime's wasm it downloaded past
 * the service worker (a first visit), until the page's precache (offline.js) moves it into
 * the build's cache; sw.js, a classic script, repeats the name.
 */
export const DOWNLOADS_CACHE = "fifteen-downloads";

/**
 * The Cache Storage cache where the solver worker keeps a memory snapshot of its first start
 * (worker/snapshot.js), which later starts resume; sw.js repeats the name (kept on updates:
 * the snapshot names the build it belongs to).
 */
export const SNAPSHOT_CACHE = "fifteen-snapshot";

/**
 * Builders of every message, so that field names, like type names, are written
 * once.  An optional field left undefined reads as an absent one
 * (`msg.bytes` is undefined either way).
 */
export const message = Object.freeze({
  // page -> worker
  init: ({ shape, skip = [], controlled = false }) => ({ type: ToWorker.INIT, shape, skip, controlled }),
  call: (id, method, params = {}, { progress = false } = {}) => ({ type: ToWorker.CALL, id, method, params, ...(progress ? { progress } : {}) }),
  loadPack: (id, file) => ({ type: ToWorker.LOAD_PACK, id, file }),
  cancel: (id) => ({ type: ToWorker.CANCEL, ...(id === undefined ? {} : { id }) }),
  // worker -> page
  loading: (stage, state, label, extra = {}) => ({ type: FromWorker.LOADING, stage, state, label, ...extra }),
  warning: (text) => ({ type: FromWorker.WARNING, message: text }),
  ready: ({ info, interrupt = null, seconds, packs = [], heap_bytes = null }) => ({ type: FromWorker.READY, info, interrupt, seconds, packs, heap_bytes }),
  progress: (id, progress) => ({ type: FromWorker.PROGRESS, id, progress }),
  result: (id, result) => ({ type: FromWorker.RESULT, id, result }),
  error: (id, error, { fatal = false } = {}) => ({ type: FromWorker.ERROR, id, error: wireError(error), fatal }),
});

/**
 * The wire form {type, message, code?, file?} of an error: an Error with `type`
 * (and `code`, `file`) properties, a plain object of that shape, or anything else
 * (an INTERNAL error).
 */
export function wireError(error) {
  const type = (error && error.type) || ErrorType.INTERNAL;
  const text = error && error.message ? String(error.message) : String(error ?? "Unknown error");
  const out = { type, message: text };
  if (error && error.code) out.code = String(error.code);
  if (error && error.file) out.file = error.file;
  return out;
}

const toWorkerTypes = new Set(Object.values(ToWorker));
const fromWorkerTypes = new Set(Object.values(FromWorker));

/** True when `msg` is an object whose type the page may send. */
export const isToWorker = (msg) => !!msg && typeof msg === "object" && toWorkerTypes.has(msg.type);

/** True when `msg` is an object whose type a worker may send. */
export const isFromWorker = (msg) => !!msg && typeof msg === "object" && fromWorkerTypes.has(msg.type);
