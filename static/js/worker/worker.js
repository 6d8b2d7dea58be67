/*
 * Fifteen solver worker (a module Web Worker): dispatch.
 *
 * Runs the pure-Python `fifteen` package in Pyodide, off the page's thread, so
 * the UI never freezes.  The messages it understands and sends are documented
 * in solver/protocol.js.  This module routes them, one request at a time, in order; a
 * request's Python call runs in time slices of a few tens of milliseconds (fifteen.api.begin and
 * step), so that a CANCEL is heard between two of them and the worker serves the next request
 * at once, with no restart:
 *   worker/boot.js    the Python runtime and the solver package (INIT)
 *   worker/assets.js  the databases of a board shape (INIT, and before a request
 *                     for a shape not loaded yet)
 *   worker/pack-loader.js   optional packs (INIT: the kept copies; LOAD_PACK)
 *   worker/snapshot.js  the memory snapshot a later start resumes (after INIT's databases)
 *   worker/common.js  fetching, posting, the worker's error type
 */

import { ErrorType, Method, PackPhase, ToWorker, bootOptions, message, warmUpParams } from "../solver/protocol.js";
import { Databases, fetchDatabaseList } from "./assets.js";
import { downloadKept, fetchSolver, fetchWheelList, loadRuntime, loadSolver, runtimeVersion } from "./boot.js";
import { buildIdentity, dropSnapshot, findSnapshot, keepSnapshot } from "./snapshot.js";
import { LoadError, firstLine, now, parseReply, post } from "./common.js";
import { Packs } from "./pack-loader.js";

const solver = {
  pyodide: null, // the runtime, once started
  api: null, // the fifteen.api module (PyProxy), once installed
  interrupt: null, // Int32Array on a SharedArrayBuffer, when cross-origin isolated
  databases: null, // Databases
  packs: null, // Packs
};

/**
 * The runtime's start and the solver package's download, begun once: as the worker starts
 * when its name carries the boot options (solver/protocol.js), else at INIT.  The two manifests say
 * which build this is: a memory snapshot of that build is resumed when one is kept (else, or
 * when it cannot be, the runtime starts afresh).  Promises: {runtime: {pyodide, interrupt,
 * snapshot (the resumed one's {files}) | null}, wheel, databaseList, identity}.
 */
let booting = null;
function boot(opts) {
  if (booting) return booting;
  const wheelList = fetchWheelList();
  wheelList.catch(() => {}); // (reported by loadSolver)
  const databaseList = fetchDatabaseList();
  const identity = (async () => {
    const [version, wheels, list] = await Promise.all([runtimeVersion(), wheelList.catch(() => null), databaseList]);
    let manifest = null;
    try {
      manifest = list.text ? JSON.parse(list.text) : null;
    } catch {
      // (an unreadable list: no snapshot; Databases reports it)
    }
    return buildIdentity(version, wheels, manifest);
  })();
  const runtime = (async () => {
    // Only a worker the service worker serves looks for a snapshot (the lookup waits for both
    // manifests): a first visit has none and starts the runtime at once.
    const snapshot = opts.controlled ? await findSnapshot(await identity) : null;
    if (snapshot) {
      try {
        // (the snapshot's bytes are not kept: tens of MB, copied into the runtime's memory)
        return { ...(await loadRuntime(opts, snapshot)), snapshot: { files: snapshot.files } };
      } catch (e) {
        console.warn("The kept snapshot could not be resumed; starting afresh.", e);
        await dropSnapshot();
      }
    }
    return { ...(await loadRuntime(opts)), snapshot: null };
  })();
  runtime.catch(() => {}); // (reported by init)
  booting = { runtime, wheel: fetchSolver(opts, wheelList), databaseList, identity };
  return booting;
}
const named = bootOptions(self.name);
if (named) boot(named);

const CANCELLED = { ok: false, error: { type: ErrorType.CANCELLED, message: "Cancelled." } };

/** fifteen.api.call (the whole call at once: the worker's own short ones) as a reply object; a KeyboardInterrupt (Cancel) becomes a CANCELLED error. */
function apiCall(method, params) {
  let json;
  try {
    json = solver.api.call(method, JSON.stringify(params));
  } catch (e) {
    if (/KeyboardInterrupt/.test(String(e && e.message ? e.message : e))) return CANCELLED;
    console.error(e);
    return { ok: false, error: { type: ErrorType.INTERNAL, message: `Solver error: ${firstLine(e)}` } };
  }
  return parseReply(json); // a Cancel inside the call: fifteen.api's own {type: "cancelled"} error
}

function info() {
  const reply = apiCall(Method.INFO, {});
  if (!reply.ok) throw new LoadError(reply.error.type, reply.error.message);
  return reply.result;
}

/** Bytes of the runtime's wasm linear memory (Python's heap: the databases and packs included), or null. */
function heapBytes() {
  const bytes = solver.pyodide?._module?.HEAP8?.buffer?.byteLength;
  return Number.isFinite(bytes) ? bytes : null;
}

function requireSolver() {
  if (!solver.api) throw new LoadError(ErrorType.INTERNAL, "The solver is not loaded yet.");
}

const replyMessage = (id, reply) => (reply.ok ? message.result(id, reply.result) : message.error(id, reply.error));

async function init(msg) {
  const t0 = now();
  const skip = msg.skip || [];
  for (const file of skip) post(message.warning(`${file} is damaged and was skipped; weaker bounds are used instead.`));
  try {
    const started = boot(msg); // the solver package is downloaded while the runtime starts
    const runtime = await started.runtime;
    solver.interrupt = runtime.interrupt;
    solver.pyodide = runtime.pyodide;
    solver.api = await loadSolver(runtime.pyodide, started.wheel);
    solver.databases = new Databases(solver.api, skip, !!(named || msg).controlled, started.databaseList);
    solver.packs = new Packs(solver.api, solver.databases);
    if (runtime.snapshot) solver.databases.resumed(runtime.snapshot.files);
    await solver.databases.ensureShape(msg.shape || "4x4");
    // A snapshot of the state so far, for later starts to resume (worker/snapshot.js).  Made
    // after READY (the next request waits for it, not the page) and after a warm-up search of
    // this shape (the snapshot then holds the tables it builds, and a resumed start has no
    // warm-up to do); but before the packs when some are kept (hundreds of MB that a snapshot
    // must not hold).  The cache is written in the background.
    const fresh = !runtime.snapshot;
    const files = solver.databases.held(); // (not one found missing: a later start tries it again)
    const keep = async () => keepSnapshot(runtime.pyodide, await started.identity, files);
    const packsKept = await solver.packs.anyKept();
    if (fresh && packsKept) await keep();
    await solver.packs.loadCached();
    const interrupt = solver.interrupt ? solver.interrupt.buffer : null;
    post(message.ready({ info: info(), interrupt, seconds: now() - t0, packs: solver.packs.list(), heap_bytes: heapBytes() }));
    await Promise.all([downloadKept(), solver.databases.kept()]); // (before the next request: the page's precache asks one first)
    if (fresh && !packsKept) {
      apiCall(Method.SOLVE, warmUpParams(msg.shape || "4x4"));
      await keep();
    }
  } catch (e) {
    console.error(e);
    post(message.error(null, { type: e.type || ErrorType.LOAD, message: e.message || String(e), file: e.file }, { fatal: true }));
  }
}

/**
 * The worker's own event loop turn: a message posted to itself (a macrotask, so that the page's
 * messages queued meanwhile, a CANCEL among them, are handled first; not setTimeout, which
 * browsers clamp to 4 ms and more in a background tab).
 */
const turns = new MessageChannel();
const turnsWaiting = [];
turns.port1.onmessage = () => turnsWaiting.shift()?.();
const nextTurn = () =>
  new Promise((resolve) => {
    turnsWaiting.push(resolve);
    turns.port2.postMessage(0);
  });

/** The requests the page cancelled (CANCEL {id}) that have not ended yet; `current`: the id of the one that runs. */
const cancels = new Set();
let current = null;
let lastEnded = 0; // the id of the last request that ended (ids grow: a CANCEL for an older one is late)

/**
 * A CALL: one fifteen.api call, after the databases of params.shape, run in time slices
 * (fifteen.api.begin, then step until the reply is not pending: fifteen.search.slices), with an
 * event loop turn between two slices, where a CANCEL of it is heard: the call then ends with
 * fifteen.api.cancel's reply (a CANCELLED error), and the worker serves the next request.
 */
async function request(msg) {
  const { id } = msg;
  current = id;
  try {
    requireSolver();
    const params = msg.params || {};
    if (params.shape) await solver.databases.ensureShape(params.shape);
    // A request starts uninterrupted: a SIGINT written for the request before it (which
    // had already ended, e.g. a pool worker stopped just as its task finished) is not its.
    if (solver.interrupt) solver.interrupt[0] = 0;
    if (cancels.has(id)) {
      post(replyMessage(id, CANCELLED));
      return;
    }
    const progress = msg.progress ? (json) => post(message.progress(id, JSON.parse(json))) : undefined;
    let reply = sliced(() => solver.api.begin(msg.method, JSON.stringify(params), progress));
    while (reply.pending) {
      const call = reply.pending;
      await nextTurn();
      reply = sliced(() => (cancels.has(id) ? solver.api.cancel(call) : solver.api.step(call)));
    }
    // A cancelled request ends cancelled, whatever its call answered (an anytime solve answers
    // with its best found, which the page has had from its progress reports).
    if (cancels.has(id)) reply = CANCELLED;
    post(replyMessage(id, reply));
  } catch (e) {
    console.error(e);
    post(message.error(id, e));
  } finally {
    cancels.delete(id);
    current = null;
    lastEnded = Math.max(lastEnded, id);
  }
}

/** One slice's reply: {pending: call} or fifteen.api's {ok, ...}; a KeyboardInterrupt (the interrupt buffer) is a CANCELLED error. */
function sliced(slice) {
  let json;
  try {
    json = slice();
  } catch (e) {
    if (/KeyboardInterrupt/.test(String(e && e.message ? e.message : e))) return CANCELLED;
    console.error(e);
    return { ok: false, error: { type: ErrorType.INTERNAL, message: `Solver error: ${firstLine(e)}` } };
  }
  const reply = JSON.parse(json);
  if (reply && typeof reply === "object" && (reply.pending || "ok" in reply)) return reply;
  return { ok: false, error: { type: ErrorType.INTERNAL, message: "the solver returned an unexpected reply" } };
}

async function loadPack(msg) {
  const { id, file } = msg;
  // A CANCEL of the download is heard at its next progress report (each chunk downloaded or decoded).
  const report = (phase) => (loaded, bytes) => {
    if (cancels.has(id)) throw new LoadError(ErrorType.CANCELLED, "Cancelled.");
    post(message.progress(id, { file, phase, loaded, bytes }));
  };
  current = id;
  try {
    requireSolver();
    const result = await solver.packs.download(file, { download: report(PackPhase.DOWNLOAD), decode: report(PackPhase.DECODE) });
    post(message.result(id, { ...result, info: info(), heap_bytes: heapBytes() }));
  } catch (e) {
    console.error(e);
    post(message.error(id, { type: e.type || ErrorType.LOAD, message: e.message || String(e), file }));
  } finally {
    cancels.delete(id);
    current = null;
    lastEnded = Math.max(lastEnded, id);
  }
}

const queued = {
  [ToWorker.INIT]: init,
  [ToWorker.CALL]: request,
  [ToWorker.LOAD_PACK]: loadPack,
};

let queue = Promise.resolve(); // requests run one at a time, in order

self.onmessage = (event) => {
  const msg = event.data || {};
  const run = queued[msg.type];
  if (run) {
    queue = queue.then(() => run(msg));
  } else if (msg.type === ToWorker.CANCEL) {
    // Heard between two slices of the running call (or before a queued one starts): that call
    // ends at once with a CANCELLED error.  Without an id: the running one.
    const id = msg.id ?? current;
    if (id !== null && id !== undefined && id > lastEnded) cancels.add(id);
  } else {
    post(message.error(msg.id ?? null, { type: ErrorType.INTERNAL, message: `unknown message ${msg.type}` }));
  }
};
