/*
 * Fifteen solver worker (a module Web Worker): dispatch.
 *
 * Runs the pure-Python `fifteen` package in Pyodide, off the page's thread, so
 * the UI never freezes.  The messages it understands and sends are documented
 * in solver/protocol.js.  This module routes them, one request at a time, in order:
 *   worker/boot.js    the Python runtime and the solver package (INIT)
 *   worker/assets.js  the databases of a board shape (INIT, and before a request
 *                     for a shape not loaded yet)
 *   worker/pack-loader.js   optional packs (INIT: the kept copies; LOAD_PACK)
 *   worker/snapshot.js  the memory snapshot a later start resumes (after INIT's databases)
 *   worker/common.js  fetching, posting, the worker's error type
 */

import { ErrorType, Method, PackPhase, SIGINT, ToWorker, bootOptions, message, warmUpParams } from "../solver/protocol.js";
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

/** fifteen.api.call as a reply object; a KeyboardInterrupt (Cancel) becomes a CANCELLED error. */
function apiCall(method, params, progress) {
  let json;
  try {
    const text = JSON.stringify(params);
    json = progress ? solver.api.call(method, text, progress) : solver.api.call(method, text);
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

/** CALL and SOLVE: one fifteen.api call, after the databases of params.shape. */
async function request(msg) {
  const { id } = msg;
  try {
    requireSolver();
    const params = msg.params || {};
    if (params.shape) await solver.databases.ensureShape(params.shape);
    // A request starts uninterrupted: a SIGINT written for the request before it (which
    // had already ended, e.g. a pool worker stopped just as its task finished) is not its.
    if (solver.interrupt) solver.interrupt[0] = 0;
    if (msg.type === ToWorker.SOLVE || msg.progress) {
      const progress = (json) => post(message.progress(id, JSON.parse(json)));
      post(replyMessage(id, apiCall(msg.type === ToWorker.SOLVE ? Method.SOLVE : msg.method, params, progress)));
    } else {
      post(replyMessage(id, apiCall(msg.method, params)));
    }
  } catch (e) {
    console.error(e);
    post(message.error(id, e));
  }
}

async function loadPack(msg) {
  const { id, file } = msg;
  const report = (phase) => (loaded, bytes) => post(message.progress(id, { file, phase, loaded, bytes }));
  try {
    requireSolver();
    const result = await solver.packs.download(file, { download: report(PackPhase.DOWNLOAD), decode: report(PackPhase.DECODE) });
    post(message.result(id, { ...result, info: info(), heap_bytes: heapBytes() }));
  } catch (e) {
    console.error(e);
    post(message.error(id, { type: e.type || ErrorType.LOAD, message: e.message || String(e), file }));
  }
}

const queued = {
  [ToWorker.INIT]: init,
  [ToWorker.CALL]: request,
  [ToWorker.SOLVE]: request,
  [ToWorker.LOAD_PACK]: loadPack,
};

let queue = Promise.resolve(); // requests run one at a time, in order

self.onmessage = (event) => {
  const msg = event.data || {};
  const run = queued[msg.type];
  if (run) {
    queue = queue.then(() => run(msg));
  } else if (msg.type === ToWorker.CANCEL) {
    // Normally the page writes the buffer itself (this message waits behind a
    // running solve); kept for pages that only send messages.
    if (solver.interrupt) solver.interrupt[0] = SIGINT; // raises KeyboardInterrupt in Python
  } else {
    post(message.error(msg.id ?? null, { type: ErrorType.INTERNAL, message: `unknown message ${msg.type}` }));
  }
};
