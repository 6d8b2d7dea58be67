// Solver worker, boot: start the Python runtime (Pyodide) and install the
// fifteen package into it.  Reports LOADING for the stages RUNTIME and SOLVER.

import { sha256Hex } from "../model/digest.js";
import { ErrorType, LoadState, Stage, message } from "../solver/protocol.js";
import { LoadError, fetchBytes, fetchOk, firstLine, isCached, keepForPrecache, now, post, url } from "./common.js";
import { growMemory } from "./snapshot.js";

const PYODIDE = "../vendor/pyodide/";

const RUNTIME_FILES = ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide.asm.mjs"];

/** The runtime files the service worker has not cached yet (all of them when there is none). */
async function missingRuntime({ controlled }) {
  const cached = await Promise.all(RUNTIME_FILES.map((f) => isCached(`${PYODIDE}${f}`, controlled)));
  return RUNTIME_FILES.filter((_, i) => !cached[i]);
}

/** The absolute URL a fetch() is asked for: a string, a URL (what Pyodide passes) or a Request. */
const hrefOf = (input) => new URL(input instanceof Request ? input.url : String(input), self.location.href).href;

const WASM = "pyodide.asm.wasm";

// Pyodide's loader, asked for as soon as the worker starts (before INIT arrives).
const pyodideModule = import("../../vendor/pyodide/pyodide.mjs");
pyodideModule.catch(() => {}); // (reported by loadRuntime)

/** The runtime's version (Pyodide's), or null when its loader cannot be loaded. */
export const runtimeVersion = () => pyodideModule.then((m) => m.version || null, () => null);

/**
 * A counter of the runtime's download on a first visit: `count(stream)` passes the stream
 * through, adding its bytes to those reported as PROGRESS {files, loaded} (the runtime files
 * being downloaded; the page knows their sizes), at most every 100 ms and as each stream
 * ends.  Null without streams.
 */
function downloadCounter(files) {
  if (!globalThis.TransformStream) return null;
  let loaded = 0;
  let last = 0;
  const report = () => post(message.loading(Stage.RUNTIME, LoadState.PROGRESS, "Python runtime", { files, loaded }));
  return (stream) =>
    stream.pipeThrough(
      new TransformStream({
        transform(chunk, controller) {
          loaded += chunk.byteLength;
          const t = performance.now();
          if (t - last > 100) {
            last = t;
            report();
          }
          controller.enqueue(chunk);
        },
        flush: report,
      }),
    );
}

const length = (resp) => resp.headers.get("content-length");

/**
 * `stream` as it is read, with `failed(error, bytes)` told at once when a read fails (a
 * connection closed mid-body): the fetch that started it resolved long before, and Pyodide's
 * loader, which reads the other branch of the same body, only logs such a failure and waits.
 */
function watchBody(stream, failed) {
  const reader = stream.getReader();
  let bytes = 0;
  return new ReadableStream({
    async pull(controller) {
      let chunk;
      try {
        chunk = await reader.read();
      } catch (e) {
        failed(e, bytes);
        controller.error(e);
        return;
      }
      if (chunk.done) controller.close();
      else {
        bytes += chunk.value.byteLength;
        controller.enqueue(chunk.value);
      }
    },
    cancel: (why) => reader.cancel(why),
  });
}

let keeping = Promise.resolve(); // the copy of a downloaded wasm being stored (runtimeWasm)

/**
 * Resolves once the copy of the wasm downloaded on a first visit is stored (DOWNLOADS_CACHE).
 * Its stream is fed by this worker's event loop, which Python's start keeps busy (~35 ms are
 * left when the databases are in): awaited right after READY, before INIT's work ends, so
 * that the page's precache finds it (else it would download the wasm again): the page asks
 * the worker something first, which waits for INIT (main.js, "offline").
 */
export const downloadKept = () => keeping;

/**
 * The runtime's wasm.  Chromium keeps the compiled code of a wasm in its HTTP cache, so a
 * start from there skips compiling and tiering it up again; a copy served from Cache Storage
 * gets none of that (tools/web_bench.py --startup: a reload's runtime 2.2 s from the HTTP
 * cache, 2.9 s from Cache Storage), nor does a rebuilt Response.  So the service worker leaves
 * the wasm alone (sw.js) and this picks the copy:
 *
 * - served by the service worker (`controlled`: the runtime's JavaScript came from its cache):
 *   the HTTP cache's copy when it has one (asked `only-if-cached`: no request) of the same
 *   length as the copy the service worker keeps (not an older or newer build's); else that
 *   kept copy (offline, or a private window, whose HTTP cache does not hold ~10 MB);
 * - otherwise (a first visit, or no service worker): the network as usual (the HTTP cache
 *   revalidates), and a kept copy only when it fails.
 *
 * A copy downloaded while none is kept is stored in DOWNLOADS_CACHE, from which the page's
 * precache (offline.js) takes it instead of asking the HTTP cache, which may not hold it; the
 * download is counted there (`count`), the response Pyodide compiles being the browser's own.
 */
async function runtimeWasm(original, wasmUrl, init, controlled, count, cut) {
  const keptCopy = caches.match(wasmUrl).catch(() => undefined);
  if (controlled) {
    const kept = await keptCopy;
    if (kept) {
      const cached = await original(wasmUrl, { cache: "only-if-cached", mode: "same-origin" }).catch(() => null);
      if (cached?.ok && length(cached) === length(kept)) return cached;
      cached?.body?.cancel().catch(() => {});
      return kept;
    }
  }
  // The network, asked at once: a fresh profile's Cache Storage takes 30-100 ms to answer
  // (tools/web_bench.py --startup), and the kept copy only matters when the network fails.
  let resp;
  try {
    resp = await original(wasmUrl, init);
  } catch (e) {
    const kept = await keptCopy;
    if (kept) return kept;
    throw e;
  }
  if (!resp.ok) {
    const kept = await keptCopy;
    if (!kept) return resp;
    resp.body?.cancel().catch(() => {});
    return kept;
  }
  if (resp.status === 200 && resp.body) {
    // a copy of the body is read (stored, or only watched when a copy is kept already): a read
    // that fails is a cut download, fatal at once (`cut`)
    const copy = watchBody(resp.clone().body, (e, bytes) => cut(WASM, e, bytes, length(resp)));
    keeping = keptCopy
      .then(async (kept) => {
        if (kept) {
          for (const reader = copy.getReader(); !(await reader.read()).done; );
          return;
        }
        const body = count ? count(copy) : copy;
        const stored = new Response(body, { status: 200, statusText: resp.statusText, headers: resp.headers });
        return keepForPrecache(wasmUrl, stored);
      })
      .catch(() => {});
  }
  return resp;
}

/**
 * While Pyodide starts, its fetches go through here: the wasm as runtimeWasm says, the other
 * runtime files still to download (`files`) counted as they stream in (downloadCounter).
 * Returns the function that restores fetch.
 */
function runtimeFetch(controlled, files, cut) {
  const original = self.fetch;
  const wasmUrl = url(`${PYODIDE}${WASM}`);
  const count = downloadCounter(files);
  const counted = new Map(files.filter((f) => f !== WASM).map((f) => [url(`${PYODIDE}${f}`), f]));
  self.fetch = async function (input, init) {
    const href = hrefOf(input);
    if (href === wasmUrl && self.caches) return runtimeWasm(original, wasmUrl, init, controlled, count, cut);
    const resp = await original.call(this, input, init);
    if (!counted.has(href) || !resp.ok || !resp.body) return resp;
    const body = watchBody(resp.body, (e, bytes) => cut(counted.get(href), e, bytes, length(resp)));
    return new Response(count ? count(body) : body, { status: resp.status, statusText: resp.statusText, headers: resp.headers });
  };
  return () => {
    self.fetch = original;
  };
}

/** The runtime file is damaged or missing: a fatal LoadError naming it. */
const damagedRuntime = (why, file = WASM) => new LoadError(ErrorType.LOAD, `The Python runtime file is damaged or missing (${file}): ${why}`, file);

/** The download of runtime `file` stopped after `bytes` of `total` (its Content-Length, if any). */
const cutDownload = (file, e, bytes, total) =>
  damagedRuntime(
    `its download was cut after ${bytes.toLocaleString("en")}${total ? ` of ${Number(total).toLocaleString("en")}` : ""} bytes (${firstLine(e)}). Check the connection and retry.`,
    file,
  );

/**
 * Pyodide's loader does not reject when its wasm cannot be compiled (truncated,
 * bit-flipped, missing: it logs "wasm instantiation failed!" and waits for ever).
 * Watch WebAssembly.instantiate/instantiateStreaming while it starts: a CompileError
 * or LinkError, or a streamed response that is not OK, rejects `failed`.  A TypeError
 * alone (a server without the application/wasm type) is left to Pyodide's fallback.
 * With `memoryBytes` (a start from a snapshot of that size), the instance's memory is grown
 * to it as soon as it exists (worker/snapshot.js, growMemory).
 * Returns {failed, fail (reject `failed` from elsewhere: a cut download), restore}.
 */
function watchWasm(memoryBytes = 0) {
  let fail;
  const failed = new Promise((_, reject) => {
    fail = reject;
  });
  failed.catch(() => {});
  const originals = {};
  let compiling = false;
  for (const name of ["instantiate", "instantiateStreaming", "compile", "compileStreaming"]) {
    const original = WebAssembly[name];
    if (typeof original !== "function") continue;
    originals[name] = original;
    WebAssembly[name] = function (source, ...rest) {
      // the runtime compiles (as it streams in, or once downloaded): the page says so, since the
      // count of its download, fed by this busy thread, may lag behind the network
      if (!compiling) {
        compiling = true;
        post(message.loading(Stage.RUNTIME, LoadState.PROGRESS, "Python runtime", { compiling: true }));
      }
      if (name.endsWith("Streaming")) {
        Promise.resolve(source).then(
          (resp) => resp && resp.ok === false && fail(damagedRuntime(`the server answered ${resp.status} ${resp.statusText || ""}`.trim())),
          (e) => fail(damagedRuntime(`could not be downloaded (${firstLine(e)})`)),
        );
      }
      const result = original.call(this, source, ...rest);
      if (memoryBytes && name.startsWith("instantiate")) result.then((r) => growMemory(r, memoryBytes), () => {});
      result.catch((e) => {
        if (e instanceof WebAssembly.CompileError || e instanceof WebAssembly.LinkError) fail(damagedRuntime(firstLine(e)));
      });
      return result;
    };
  }
  const restore = () => Object.assign(WebAssembly, originals);
  return { failed, fail, restore };
}

/**
 * Start Pyodide; returns {pyodide, interrupt} where interrupt is the Int32Array
 * interrupt buffer when the page is cross-origin isolated, else null.
 * opts: the boot options or INIT message ({controlled}); snapshot: a memory snapshot to
 * resume ({length, bytes: a promise of them}, worker/snapshot.js findSnapshot), else a fresh
 * start that can make one.
 */
export async function loadRuntime(opts, snapshot = null) {
  const t0 = now();
  const missing = await missingRuntime(opts);
  const cached = !missing.length; // (never without a service worker: the HTTP cache is not asked)
  // (pyodide.asm.mjs is imported, uncounted: the progress counts the .wasm and the stdlib)
  const files = missing.filter((f) => !f.endsWith(".mjs"));
  post(message.loading(Stage.RUNTIME, LoadState.START, "Python runtime (Pyodide)", cached ? { cached } : { files }));
  let loadPyodide;
  try {
    ({ loadPyodide } = await pyodideModule);
  } catch (e) {
    throw new LoadError(ErrorType.LOAD, `Python runtime: could not be loaded (${e.message || e}). Was \`make web\` run?`);
  }
  if (typeof WebAssembly !== "object") {
    throw new LoadError(ErrorType.LOAD, "This browser does not support WebAssembly, which the solver needs.");
  }
  const wasm = watchWasm(snapshot ? snapshot.length : 0);
  const unwrap = runtimeFetch(!!opts.controlled, files, (file, e, bytes, total) => wasm.fail(cutDownload(file, e, bytes, total)));
  let pyodide;
  try {
    pyodide = await Promise.race([
      loadPyodide({
        indexURL: url(PYODIDE),
        stdout: (s) => console.log("[py]", s),
        stderr: (s) => console.warn("[py]", s),
        ...(snapshot ? { _loadSnapshot: snapshot.bytes } : { _makeSnapshot: true }),
      }),
      wasm.failed,
    ]);
  } catch (e) {
    if (e instanceof LoadError) throw e;
    const msg = String(e && e.message ? e.message : e);
    if (/memory/i.test(msg)) throw new LoadError(ErrorType.LOAD, `Out of memory while starting Python: ${msg}`);
    throw new LoadError(ErrorType.LOAD, `Python runtime: failed to start (${msg})`);
  } finally {
    wasm.restore();
    unwrap();
  }
  // Pyodide keeps the options it was given (its API.config) and with them the snapshot's bytes:
  // tens of MB a resumed worker would hold for nothing (bench/memory.md)
  if (snapshot && pyodide._api?.config) delete pyodide._api.config._loadSnapshot;
  // the snapshot's random state is the same on every start from it
  if (snapshot) pyodide.runPython("import random; random.seed()");
  let interrupt = null;
  if (self.crossOriginIsolated && typeof SharedArrayBuffer === "function") {
    interrupt = new Int32Array(new SharedArrayBuffer(4));
    pyodide.setInterruptBuffer(interrupt);
  } else if (snapshot) {
    // the flag "check the interrupt buffer" lives in Python's memory: the snapshot holds that
    // of the start that made it (isolated or not)
    pyodide.setInterruptBuffer(undefined);
  }
  const label = `Pyodide ${pyodide.version}${snapshot ? ", resumed from the snapshot of an earlier start" : ""}`;
  post(message.loading(Stage.RUNTIME, LoadState.DONE, label, { seconds: now() - t0, ...(cached ? { cached } : {}), ...(snapshot ? { snapshot: true } : {}) }));
  return { pyodide, interrupt };
}

/**
 * Refuse `bytes` whose SHA-256 is not `want` (hex, from a manifest): a damaged file is
 * named as such, not reported later as an unreadable zip.  Without WebCrypto (a page
 * served over plain HTTP from another host) or without `want`, nothing is checked.
 */
export async function checkDigest(bytes, want, what) {
  if (!want) return;
  const got = await sha256Hex(bytes);
  if (got && got !== want) {
    throw new LoadError(ErrorType.LOAD, `${what} is damaged: ${bytes.length.toLocaleString("en")} bytes whose SHA-256 is not the listed one. Reload the page; if it stays, rebuild the site (make web).`);
  }
}

/** ../wheels/manifest.json (a promise; a LoadError when it cannot be read). */
export const fetchWheelList = () => fetchOk("../wheels/manifest.json", "wheel list").then((resp) => resp.json());

/**
 * Start downloading the solver package (../wheels/manifest.json names it: `archive`, the
 * fifteen wheel's files plus their bytecode, tools/web_pyc.mjs; else the wheel) while the
 * runtime starts; resolves to {name, format, version, bytes, cached}, or to {error} (reported by loadSolver).
 */
export function fetchSolver({ controlled = false } = {}, wheelList = fetchWheelList()) {
  return (async () => {
    const manifest = await wheelList;
    const name = manifest.archive || manifest.fifteen;
    const cached = await isCached(`../wheels/${name}`, controlled);
    const bytes = await fetchBytes(`../wheels/${name}`, { label: `Solver package (static/wheels/${name})` });
    await checkDigest(bytes, manifest.archive_sha256, `Solver package (static/wheels/${name})`);
    return { name, format: name.endsWith(".whl") ? "wheel" : "zip", version: (manifest.fifteen || name).split("-")[1] || "", bytes, cached };
  })().catch((error) => ({ error }));
}

/**
 * Install the solver package (its bytes from fetchSolver) and import it; returns the
 * fifteen.api module.  Pure Python, so it is unpacked straight into site-packages
 * (pyodide.unpackArchive): no micropip (two more wheels and about a second of start-up),
 * no package resolver; with the bytecode in the archive nothing is compiled either.
 */
export async function loadSolver(pyodide, wheel = fetchSolver()) {
  const t0 = now();
  post(message.loading(Stage.SOLVER, LoadState.START, "solver package"));
  const { name, format, version, bytes, cached, error } = await wheel;
  if (error) throw error instanceof LoadError ? error : new LoadError(ErrorType.LOAD, `Solver package: ${firstLine(error)}`);
  let api;
  try {
    const sys = pyodide.pyimport("sys");
    const sitePackages = sys.path.toJs().find((p) => p.endsWith("/site-packages"));
    sys.destroy();
    pyodide.unpackArchive(bytes, format, { extractDir: sitePackages });
    api = pyodide.pyimport("fifteen.api");
  } catch (e) {
    throw new LoadError(ErrorType.LOAD, `Solver package: could not be installed (${name}: ${firstLine(e)})`);
  }
  const size = cached ? { cached } : { bytes: bytes.length };
  post(message.loading(Stage.SOLVER, LoadState.DONE, `fifteen ${version}`.trim(), { ...size, seconds: now() - t0 }));
  return api;
}
