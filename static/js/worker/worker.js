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
 *   worker/snapshot.js  the memory snapshot a later start resumes (background work)
 *   worker/idle.js    the background work after READY (BACKGROUND: the databases deferred
 *                     to then, the warm-up, the snapshot), run only while no request waits
 *   worker/common.js  fetching, posting, the worker's error type
 */

import { ErrorType, LoadState, Method, PackPhase, Stage, ToWorker, bootOptions, message, warmUpParams } from "../solver/protocol.js";
import { Databases, Load, fetchDatabaseList, namedBounds, withPending } from "./assets.js";
import { downloadKept, fetchSolver, fetchWheelList, loadRuntime, loadSolver, runtimeVersion } from "./boot.js";
import { buildIdentity, dropSnapshot, findSnapshot, keepSnapshot } from "./snapshot.js";
import { LoadError, collectGarbage, firstLine, now, parseReply, post } from "./common.js";
import { Packs } from "./pack-loader.js";
import { IdleWork } from "./idle.js";

const solver = {
  pyodide: null, // the runtime, once started
  api: null, // the fifteen.api module (PyProxy), once installed
  interrupt: null, // Int32Array on a SharedArrayBuffer, when cross-origin isolated
  databases: null, // Databases
  packs: null, // Packs
  identity: null, // a promise of this build's identity (worker/snapshot.js), for the snapshot
};

/** The background work after READY waits for the requests (worker/idle.js). */
const idle = new IdleWork();

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

/** fifteen.api's info, with the bounds whose databases are still to come (assets.js withPending). */
function info() {
  const reply = apiCall(Method.INFO, {});
  if (!reply.ok) throw new LoadError(reply.error.type, reply.error.message);
  return withPending(reply.result, solver.databases?.pendingBounds());
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
  const shape = msg.shape || "4x4";
  for (const file of skip) post(message.warning(`${file} is damaged and was skipped; weaker bounds are used instead.`));
  try {
    const started = boot(msg); // the solver package is downloaded while the runtime starts
    // ... and so are the databases READY needs (manifest "load": "first"): worker/assets.js
    const controlled = !!(named || msg).controlled;
    const databases = new Databases(skip, controlled, started.databaseList);
    // (a worker the service worker serves has them at hand, and may resume them in a snapshot)
    if (!controlled) databases.prefetch(shape);
    const runtime = await started.runtime;
    solver.interrupt = runtime.interrupt;
    solver.pyodide = runtime.pyodide;
    solver.api = await loadSolver(runtime.pyodide, started.wheel);
    solver.identity = started.identity;
    databases.attach(solver.api);
    // a database that arrives after READY tells the page the bounds it brings and the memory
    databases.laterFields = () => ({ info: info(), heap_bytes: heapBytes() });
    solver.databases = databases;
    solver.packs = new Packs(solver.api, databases);
    if (runtime.snapshot) databases.resumed(runtime.snapshot.files);
    await databases.ensureShape(shape);
    solver.fresh = !runtime.snapshot;
    // With packs kept, the snapshot is made now, before them (hundreds of MB a snapshot must
    // not hold); otherwise by the background work, once the databases that come after READY
    // are in (background()).
    if (solver.fresh && (await solver.packs.anyKept())) {
      await keepSnapshot(await started.identity, databases.held(), () => runtime.pyodide.makeMemorySnapshot());
    }
    await solver.packs.loadCached();
    // What a first visit keeps for offline use (the runtime's wasm, the databases) is stored
    // before READY: the page works offline from the moment it says Ready (docs/hosting.md).
    await Promise.all([downloadKept(), databases.kept()]);
    const interrupt = solver.interrupt ? solver.interrupt.buffer : null;
    post(message.ready({ info: info(), interrupt, seconds: now() - t0, packs: solver.packs.list(), heap_bytes: heapBytes() }));
    // the snapshot's bytes, copied into the runtime's memory, collected once nothing waits
    if (runtime.snapshot) idle.run(collectGarbage, { quietMs: QUIET_MS });
  } catch (e) {
    console.error(e);
    post(message.error(null, { type: e.type || ErrorType.LOAD, message: e.message || String(e), file: e.file }, { fatal: true }));
  }
}

const settling = new Map(); // shape -> the background work for it (background())
let backgroundAsked = false; // the page asked once: a shape loaded later gets its background work too

/**
 * BACKGROUND {shape}: once the page is ready, the work left for idle time (worker/idle.js): the
 * shape's "idle" databases downloaded at once and each handed to Python when it has arrived,
 * the warm-up search (the search's tables), then the memory snapshot that later starts resume
 * (not with a pack loaded).  Each step runs only while no request waits.  Ends with LOADING
 * {stage: BACKGROUND, state: DONE, snapshot}.  Once per shape: a shape first asked for after it
 * gets its own (a page opened on a 3x3 that turns to a 4x4 gets the 7-7-1 then).
 */
function background(msg) {
  const shape = msg.shape || "4x4";
  backgroundAsked = true;
  if (!solver.databases || settling.has(shape)) return;
  settling.set(shape, settle(shape));
}

async function settle(shape) {
  const t0 = now();
  const { databases } = solver;
  let kept = false;
  try {
    const later = await databases.waiting(shape, Load.IDLE);
    const downloads = later.map((asset) => databases.fetch(asset, { later: true }));
    for (const [i, asset] of later.entries()) {
      const got = await downloads[i];
      try {
        await databases.installLater(asset, got, (step) => idle.run(step));
      } catch (e) {
        // a damaged database that came late: the page goes on with the bounds it has
        databases.skipped.add(asset.file);
        post(message.warning(`${e.message || e} — continuing without it.`));
      }
    }
    await idle.run(() => apiCall(Method.SOLVE, warmUpParams(shape)));
    if (!solver.packs.loaded.size) {
      const make = () => idle.run(() => solver.pyodide.makeMemorySnapshot(), { quietMs: QUIET_MS });
      kept = await keepSnapshot(await solver.identity, databases.held(), make);
    }
    // the snapshot's bytes once stored, the late databases' once handed over
    await idle.run(collectGarbage, { quietMs: QUIET_MS });
  } catch (e) {
    console.warn("background work:", e);
  }
  post(message.loading(Stage.BACKGROUND, LoadState.DONE, kept ? "memory snapshot kept" : "nothing more to do", { later: true, snapshot: kept, seconds: now() - t0 }));
}

/**
 * The snapshot is made, and the garbage collected, only after this long without a request
 * (each holds the thread ~0.3 s).
 */
const QUIET_MS = 1000;

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
    if (params.shape && backgroundAsked) background({ shape: params.shape }); // (a shape first asked for now)
    await solver.databases.ensureBounds(namedBounds(params)); // an "asked" database, or an "idle" one still coming
    // A request starts uninterrupted: a SIGINT written for the request before it (which
    // had already ended, e.g. a pool worker stopped just as its task finished) is not its.
    if (solver.interrupt) solver.interrupt[0] = 0;
    if (cancels.has(id)) {
      post(replyMessage(id, CANCELLED));
      return;
    }
    if (msg.method === Method.INFO) {
      post(message.result(id, info())); // with the bounds still to come
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
    idle.requestQueued();
    queue = queue.then(() => run(msg)).finally(() => idle.requestEnded());
  } else if (msg.type === ToWorker.BACKGROUND) {
    queue.then(() => background(msg)); // (after INIT)
  } else if (msg.type === ToWorker.CANCEL) {
    // Heard between two slices of the running call (or before a queued one starts): that call
    // ends at once with a CANCELLED error.  Without an id: the running one.
    const id = msg.id ?? current;
    if (id !== null && id !== undefined && id > lastEnded) cancels.add(id);
  } else {
    post(message.error(msg.id ?? null, { type: ErrorType.INTERNAL, message: `unknown message ${msg.type}` }));
  }
};
