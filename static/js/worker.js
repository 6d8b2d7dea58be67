/*
 * Fifteen solver worker (a module Web Worker).
 *
 * Runs the pure-Python `fifteen` package in Pyodide, off the page's thread, so
 * the UI never freezes.  Everything is fetched from the site's own origin with
 * URLs relative to this file: ../vendor/pyodide/ (Pyodide core, vendored from
 * npm), ../wheels/ (micropip, packaging and fifteen wheels, listed in
 * ../wheels/manifest.json), ../db/ (database assets, listed in ../db/manifest.json),
 * ../vendor/xz/ (an xz decoder, npm xz-decompress: only for the optional pack).
 *
 * Message protocol — every message is a plain object with a `type`.
 *
 * Page -> worker
 *   {type: "init", shape, skip, controlled, runtimeBytes}
 *                                          load runtime, solver and the databases for `shape`
 *                                          (send once, first); `skip` = asset files not to
 *                                          load (the user chose to go on without a damaged one);
 *                                          `controlled` = a service worker caches what we fetch,
 *                                          `runtimeBytes` = {file: size} of the Pyodide files
 *                                          (from build-info.json, for download progress)
 *   {type: "call", id, method, params}    fifteen.api.call(method, params) for "info",
 *                                          "parse", "bounds", "random" (or "solve" without
 *                                          progress: the page's warm-up); loads the databases
 *                                          of params.shape first when that is new
 *   {type: "solve", id, params}           fifteen.api.call("solve", params, progress);
 *                                          params = {text, shape, bound}
 *   {type: "loadPack", id, file}          download the optional pack `file` (listed under
 *                                          "packs" in ../db/manifest.json; never fetched unasked),
 *                                          reporting {type: "progress", id, progress: {file, phase:
 *                                          "download", loaded, bytes}}; an xz pack ("compression":
 *                                          "xz", e.g. pdb-78.f15.xz) is then decompressed here
 *                                          straight into a Python bytearray of the manifest's
 *                                          `raw_bytes` (progress {file, phase: "decode", loaded,
 *                                          bytes} in decompressed bytes); hand it to Python and,
 *                                          once accepted, keep the file as downloaded (compressed)
 *                                          in Cache Storage ("fifteen-packs", which the service
 *                                          worker's cleanup leaves alone) for offline use; result
 *                                          {file, bytes, cached, memory_bytes, info}; a damaged
 *                                          or unreachable pack is an ordinary (non-fatal) error
 *   {type: "cancel"}                      only useful when the page is cross-origin isolated
 *                                          (interrupt buffer); otherwise the page terminates
 *                                          this worker and starts a new one (the baseline)
 *
 * Worker -> page
 *   {type: "loading", stage, state, label, bytes?, loaded?, seconds?}
 *        stage = "runtime" | "solver" | "databases"; state = "start" | "progress" | "done";
 *        label is human-readable ("wd-4x4.f15"), bytes the size when known
 *   {type: "warning", message}             non-fatal (e.g. a missing WD table: rebuilt in-process)
 *   {type: "ready", info, interrupt, seconds, packs}
 *        info = result of api "info"; interrupt = SharedArrayBuffer or null;
 *        packs = the manifest's optional packs, each with `loaded` (true when a copy kept in
 *        Cache Storage was loaded at init; a damaged cached copy is dropped with a warning)
 *   {type: "progress", id, progress}       during a solve, ~4 times a second and per iteration:
 *        {bound, nodes, iteration_nodes, seconds, done, iterations: [{bound, nodes, seconds}]}
 *        (seconds: elapsed in total, per iteration in `iterations`; with done = true the
 *        report closes the iteration at `bound`, and the next one runs at bound + 2)
 *   {type: "result", id, result}           the call's result object
 *   {type: "error", id, error: {type, message}, fatal}
 *        type = "input" | "asset" | "cancelled" | "internal" | "load"; `fatal` (with id null)
 *        means the worker cannot serve calls: the page shows the message and offers a retry;
 *        a damaged database also names its `file`, so the page can offer to go on without it
 *
 * Python never sees JS objects except the asset bytes (a Uint8Array, copied once by
 * `to_bytes()`; for an xz pack, a bytearray Python allocated and this worker filled)
 * and the progress callback; all other data crosses as JSON strings.
 */

const here = new URL(".", import.meta.url);
const url = (rel) => new URL(rel, here).href;

let pyodide = null;
let api = null;
let interrupt = null;
let dbManifest = null; // {format, assets: [...]} or null when missing
const loadedAssets = new Set(); // file names handed to Python
const loadedShapes = new Set();
let skipped = new Set(); // asset files the page asked us not to load
let queue = Promise.resolve(); // calls run one at a time, in order
const PACK_CACHE = "fifteen-packs"; // not versioned: sw.js never deletes it
const loadedPacks = new Set(); // optional pack files handed to Python

const post = (msg, transfer) => self.postMessage(msg, transfer || []);
const now = () => performance.now() / 1000;

class LoadError extends Error {
  constructor(type, message) {
    super(message);
    this.type = type;
  }
}

async function fetchOk(rel, what, init) {
  let resp;
  try {
    resp = await fetch(url(rel), init);
  } catch (e) {
    throw new LoadError("load", `${what}: could not be downloaded (${e.message || e}). Are you offline?`);
  }
  if (!resp.ok) throw new LoadError("load", `${what}: the server answered ${resp.status} ${resp.statusText}`.trim());
  return resp;
}

/** Fetch a binary asset, reporting progress; returns a Uint8Array. */
async function fetchBytes(rel, label, stage, expected, report, init) {
  const resp = await fetchOk(rel, label, init);
  const total = Number(resp.headers.get("content-length")) || expected || 0;
  report = report || ((loaded) => post({ type: "loading", stage, state: "progress", label, bytes: total, loaded }));
  if (!resp.body || !resp.body.getReader) return new Uint8Array(await resp.arrayBuffer());
  const reader = resp.body.getReader();
  // With a Content-Length, chunks go straight into one buffer (no second copy of a
  // 50 MB pack); otherwise (or if the body turns out longer) they are collected.
  const length = Number(resp.headers.get("content-length")) || 0;
  let whole = length ? new Uint8Array(length) : null;
  const chunks = [];
  let loaded = 0;
  let last = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (whole && loaded + value.length <= whole.length) {
      whole.set(value, loaded);
    } else {
      if (whole) chunks.push(whole.subarray(0, loaded));
      whole = null;
      chunks.push(value);
    }
    loaded += value.length;
    const t = performance.now();
    if (t - last > 100) {
      last = t;
      report(loaded, total);
    }
  }
  report(loaded, total);
  if (whole) return loaded === whole.length ? whole : whole.slice(0, loaded);
  const out = new Uint8Array(loaded);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

function parseReply(json) {
  const reply = JSON.parse(json);
  if (!reply || typeof reply !== "object" || !("ok" in reply)) {
    throw new LoadError("internal", "the solver returned an unexpected reply");
  }
  return reply;
}

/**
 * First visit under the service worker: download the big runtime files here,
 * reporting progress; the service worker caches them on the way, so Pyodide's
 * own requests for them are then answered from its cache (no second download).
 */
async function prefetchRuntime(opts) {
  if (!opts.controlled || !self.caches) return;
  const sizes = opts.runtimeBytes || {};
  const files = ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide.asm.mjs"];
  const missing = [];
  for (const f of files) {
    if (!(await caches.match(url(`../vendor/pyodide/${f}`)))) missing.push(f);
  }
  if (!missing.length) return;
  const total = missing.reduce((a, f) => a + (sizes[f] || 0), 0);
  let done = 0;
  let last = 0;
  for (const f of missing) {
    const resp = await fetch(url(`../vendor/pyodide/${f}`));
    if (!resp.ok || !resp.body) continue; // Pyodide will report the failure itself
    const reader = resp.body.getReader();
    for (;;) {
      const { done: end, value } = await reader.read();
      if (end) break;
      done += value.length;
      const t = performance.now();
      if (t - last > 100) {
        last = t;
        post({ type: "loading", stage: "runtime", state: "progress", label: "Python runtime", bytes: total, loaded: done });
      }
    }
  }
}

async function loadRuntime(opts) {
  const t0 = now();
  post({ type: "loading", stage: "runtime", state: "start", label: "Python runtime (Pyodide)" });
  try {
    await prefetchRuntime(opts);
  } catch (e) {
    console.warn("prefetch", e);
  }
  let loadPyodide;
  try {
    ({ loadPyodide } = await import("../vendor/pyodide/pyodide.mjs"));
  } catch (e) {
    throw new LoadError("load", `Python runtime: could not be loaded (${e.message || e}). Was \`make web\` run?`);
  }
  if (typeof WebAssembly !== "object") {
    throw new LoadError("load", "This browser does not support WebAssembly, which the solver needs.");
  }
  try {
    pyodide = await loadPyodide({
      indexURL: url("../vendor/pyodide/"),
      stdout: (s) => console.log("[py]", s),
      stderr: (s) => console.warn("[py]", s),
    });
  } catch (e) {
    const msg = String(e && e.message ? e.message : e);
    if (/memory/i.test(msg)) throw new LoadError("load", `Out of memory while starting Python: ${msg}`);
    throw new LoadError("load", `Python runtime: failed to start (${msg})`);
  }
  if (self.crossOriginIsolated && typeof SharedArrayBuffer === "function") {
    interrupt = new Int32Array(new SharedArrayBuffer(4));
    pyodide.setInterruptBuffer(interrupt);
  }
  post({ type: "loading", stage: "runtime", state: "done", label: `Pyodide ${pyodide.version}`, seconds: now() - t0 });
}

async function loadSolver() {
  const t0 = now();
  post({ type: "loading", stage: "solver", state: "start", label: "solver package" });
  const manifest = await (await fetchOk("../wheels/manifest.json", "wheel list")).json();
  try {
    await pyodide.loadPackage([url(`../wheels/${manifest.micropip}`), url(`../wheels/${manifest.packaging}`)], {
      messageCallback: () => {},
      errorCallback: (s) => console.warn(s),
    });
    const micropip = pyodide.pyimport("micropip");
    await micropip.install(url(`../wheels/${manifest.fifteen}`), { deps: false });
    micropip.destroy();
    api = pyodide.pyimport("fifteen.api");
  } catch (e) {
    throw new LoadError("load", `Solver package: could not be installed (${firstLine(e)})`);
  }
  const version = manifest.fifteen.split("-")[1] || "";
  post({ type: "loading", stage: "solver", state: "done", label: `fifteen ${version}`.trim(), seconds: now() - t0 });
}

function firstLine(e) {
  const s = String(e && e.message ? e.message : e).trim().split("\n");
  return s[s.length - 1] || s[0];
}

async function loadDbManifest() {
  if (dbManifest !== null) return dbManifest;
  try {
    const resp = await fetch(url("../db/manifest.json"));
    if (!resp.ok) throw new Error(`${resp.status} ${resp.statusText}`);
    dbManifest = await resp.json();
  } catch (e) {
    dbManifest = { format: 1, assets: [] };
    post({
      type: "warning",
      message: `No database list (static/db/manifest.json: ${e.message || e}); tables will be built in the browser, which is slower.`,
    });
  }
  return dbManifest;
}

/** Fetch and hand to Python every database asset for `shape` not loaded yet. */
async function ensureShape(shape) {
  if (!shape || loadedShapes.has(shape)) return;
  const manifest = await loadDbManifest();
  const wanted = (manifest.assets || []).filter(
    (a) =>
      Array.isArray(a.shapes) &&
      a.shapes.includes(shape) &&
      a.browser !== false && // "browser": false marks a native-only (too big) database
      !loadedAssets.has(a.file) &&
      !skipped.has(a.file),
  );
  for (const asset of wanted) {
    const t0 = now();
    const label = asset.file;
    post({ type: "loading", stage: "databases", state: "start", label, bytes: asset.bytes });
    let bytes;
    try {
      bytes = await fetchBytes(`../db/${asset.file}`, label, "databases", asset.bytes);
    } catch (e) {
      // A missing database is not fatal: the package can rebuild WD tables itself
      // (slower) and simply lacks a PDB bound otherwise.
      post({ type: "warning", message: `${e.message} — continuing without it.` });
      post({ type: "loading", stage: "databases", state: "done", label, seconds: now() - t0, missing: true });
      loadedAssets.add(asset.file);
      continue;
    }
    const reply = parseReply(api.load_asset(asset.file, bytes));
    if (!reply.ok) {
      const err = reply.error || {};
      const e = new LoadError(err.type || "asset", err.message || `${asset.file}: could not be read`);
      e.file = asset.file;
      throw e;
    }
    loadedAssets.add(asset.file);
    post({ type: "loading", stage: "databases", state: "done", label, bytes: bytes.length, seconds: now() - t0 });
  }
  loadedShapes.add(shape);
}

// ------------------------------------------------------------ optional packs
function packEntries() {
  return (dbManifest && Array.isArray(dbManifest.packs) ? dbManifest.packs : []).filter((p) => p && p.file);
}

const packUrl = (file) => url(`../db/${file}`); // the Cache Storage key

const isXz = (bytes) =>
  bytes.length >= 6 && bytes[0] === 0xfd && bytes[1] === 0x37 && bytes[2] === 0x7a && bytes[3] === 0x58 && bytes[4] === 0x5a && bytes[5] === 0;

function memoryError(file, e) {
  const msg = firstLine(e);
  if (/memory|allocat|RangeError/i.test(msg)) {
    return new LoadError("load", `${file}: not enough memory to load the pack (${msg}). The solver keeps working without it.`);
  }
  return null;
}

/**
 * Decompress an xz pack (the Uint8Array `bytes`) into a bytearray allocated in
 * Python, writing each decoded chunk through `getBuffer()` (no 288 MB copy on
 * either side); returns the PyProxy of that bytearray.  The size comes from the
 * container's header (first 24 decoded bytes) and must equal the manifest's
 * `raw_bytes` when given.  A damaged stream is a LoadError of type "asset".
 */
async function unxzIntoPython(file, bytes, rawBytes, report) {
  let XzReadableStream;
  try {
    ({ XzReadableStream } = await import("../vendor/xz/xz-decompress.mjs"));
  } catch (e) {
    throw new LoadError("load", `${file}: the xz decoder could not be loaded (${e.message || e}). Was \`make web\` run?`);
  }
  const damaged = (why) => new LoadError("asset", `${file}: the file is corrupt (${why}); download it again`);
  // xz-embedded's return codes (xz.h), as the decoder reports them
  const XZ_ERRORS = { 3: "out of memory", 4: "out of memory", 5: "not an xz file", 6: "unsupported xz options", 7: "damaged xz data", 8: "the xz data stops short" };
  const xzWhy = (e) => {
    const m = /error code (\d+)/.exec(String(e && e.message ? e.message : e));
    return m && XZ_ERRORS[m[1]] ? XZ_ERRORS[m[1]] : `xz: ${e.message || e}`;
  };
  const CHUNK = 1 << 20;
  let off = 0;
  const input = new ReadableStream({
    pull(c) {
      if (off >= bytes.length) c.close();
      else c.enqueue(bytes.subarray(off, (off += CHUNK)));
    },
  });
  const reader = new XzReadableStream(input).getReader();
  let buf = null; // PyProxy of the bytearray
  let view = null; // its PyBuffer (view.data: a Uint8Array on Pyodide's memory)
  let total = 0;
  let pos = 0;
  const head = new Uint8Array(24);
  let last = 0;
  try {
    for (;;) {
      let chunk;
      try {
        const r = await reader.read();
        if (r.done) break;
        chunk = r.value;
      } catch (e) {
        const why = xzWhy(e);
        if (why === "out of memory") throw memoryError(file, new Error("out of memory while decompressing"));
        throw damaged(why);
      }
      if (!buf) {
        // The container's header says its size: 24 + metadata + payload + 4.
        const n = Math.min(24 - pos, chunk.length);
        head.set(chunk.subarray(0, n), pos);
        if (pos + n < 24) {
          pos += n;
          continue;
        }
        const dv = new DataView(head.buffer);
        total = 24 + dv.getUint32(12, true) + dv.getUint32(16, true) + 4;
        if (rawBytes && total !== rawBytes) throw damaged(`it holds ${total} bytes, the manifest says ${rawBytes}`);
        try {
          buf = api.new_buffer(total);
        } catch (e) {
          throw memoryError(file, e) || new LoadError("internal", `${file}: ${firstLine(e)}`);
        }
        view = buf.getBuffer("u8");
        view.data.set(head);
        chunk = chunk.subarray(n);
        pos = 24;
      }
      if (pos + chunk.length > total) throw damaged(`it decompresses to more than ${total} bytes`);
      if (!view.data.byteLength) {
        view.release(); // Pyodide's memory grew: take a fresh view
        view = buf.getBuffer("u8");
      }
      view.data.set(chunk, pos);
      pos += chunk.length;
      const t = performance.now();
      if (t - last > 100) {
        last = t;
        report(pos, total);
      }
    }
    if (!buf || pos !== total) throw damaged(`it decompresses to ${pos} of ${total || "?"} bytes`);
    report(pos, total);
  } catch (e) {
    if (buf) buf.destroy();
    reader.cancel().catch(() => {});
    throw e;
  } finally {
    if (view) view.release();
    // The decoder keeps its WebAssembly instance (and its 64 MiB dictionary) in a static
    // field for the next stream; drop it so that the memory can be collected.
    XzReadableStream._moduleInstance = null;
    XzReadableStream._moduleInstancePromise = null;
  }
  return buf;
}

/**
 * Hand a pack's bytes (as downloaded or kept) to Python, decompressing an xz pack
 * first; throws a LoadError (type "asset" for a damaged file).
 */
async function registerPack(pack, bytes, report) {
  const file = pack.file;
  let data = bytes;
  if (isXz(bytes)) {
    data = await unxzIntoPython(file, bytes, pack.raw_bytes, report || (() => {}));
  }
  let reply;
  try {
    reply = parseReply(api.load_asset(file, data));
  } catch (e) {
    throw memoryError(file, e) || new LoadError("internal", `${file}: could not be loaded (${firstLine(e)})`);
  } finally {
    if (data !== bytes) data.destroy(); // Python keeps the bytearray (as the table) or drops it
  }
  if (!reply.ok) {
    const err = reply.error || {};
    throw new LoadError(err.type || "asset", err.message || `${file}: could not be read`);
  }
  loadedPacks.add(file);
  return reply.result || {};
}

/** At init: load every pack the user downloaded before (kept in Cache Storage). */
async function loadCachedPacks() {
  if (!self.caches) return;
  let cache;
  try {
    if (!(await caches.has(PACK_CACHE))) return;
    cache = await caches.open(PACK_CACHE);
  } catch {
    return; // storage unavailable (private mode, ...)
  }
  for (const pack of packEntries()) {
    if (loadedPacks.has(pack.file)) continue;
    const hit = await cache.match(packUrl(pack.file));
    if (!hit) continue;
    const t0 = now();
    const label = pack.label || pack.file;
    post({ type: "loading", stage: "databases", state: "start", label, bytes: pack.bytes });
    try {
      const bytes = new Uint8Array(await hit.arrayBuffer());
      if (pack.bytes && bytes.length !== pack.bytes) {
        throw new LoadError("asset", `${pack.file}: the kept copy has ${bytes.length} bytes, this build's pack ${pack.bytes}`);
      }
      await registerPack(pack, bytes);
      post({ type: "loading", stage: "databases", state: "done", label, bytes: bytes.length, seconds: now() - t0 });
    } catch (e) {
      if (e.type === "asset") await cache.delete(packUrl(pack.file)).catch(() => {});
      post({ type: "warning", message: `${e.message || e} — the kept copy was dropped; download the pack again to use it.` });
      post({ type: "loading", stage: "databases", state: "done", label, seconds: now() - t0, missing: true });
    }
  }
}

function packList() {
  return packEntries().map((p) => ({ ...p, loaded: loadedPacks.has(p.file) }));
}

async function loadPack(msg) {
  const { id, file } = msg;
  try {
    if (!api) throw new LoadError("internal", "The solver is not loaded yet.");
    await loadDbManifest();
    const pack = packEntries().find((p) => p.file === file);
    if (!pack) throw new LoadError("load", `${file}: not an optional pack of this site`);
    if (!loadedPacks.has(file)) {
      // `?pack` keeps the service worker out of the way (it would cache a second
      // copy under its versioned cache); no-store keeps the HTTP cache out too.
      const bytes = await fetchBytes(
        `../db/${file}?pack=1`,
        file,
        "pack",
        pack.bytes,
        (loaded, total) => post({ type: "progress", id, progress: { file, phase: "download", loaded, bytes: total || pack.bytes || 0 } }),
        { cache: "no-store" },
      );
      if (pack.bytes && bytes.length !== pack.bytes) {
        throw new LoadError("asset", `${file}: downloaded ${bytes.length} bytes, expected ${pack.bytes} (incomplete download?)`);
      }
      await registerPack(pack, bytes, (loaded, total) =>
        post({ type: "progress", id, progress: { file, phase: "decode", loaded, bytes: total } }),
      );
      let cached = false;
      if (self.caches) {
        try {
          const cache = await caches.open(PACK_CACHE);
          await cache.put(
            packUrl(file),
            new Response(bytes, { headers: { "Content-Type": "application/octet-stream", "Content-Length": String(bytes.length) } }),
          );
          cached = true;
        } catch (e) {
          post({ type: "warning", message: `${file}: loaded, but could not be kept for offline use (${e.message || e}).` });
        }
      }
      post({ type: "result", id, result: { file, bytes: bytes.length, cached, memory_bytes: pack.memory_bytes || null, info: info() } });
      return;
    }
    post({ type: "result", id, result: { file, bytes: pack.bytes || 0, cached: true, memory_bytes: pack.memory_bytes || null, info: info() } });
  } catch (e) {
    console.error(e);
    post({ type: "error", id, error: { type: e.type || "load", message: e.message || String(e), file } });
  }
}

function apiCall(method, params, progress) {
  let json;
  try {
    json = progress ? api.call(method, JSON.stringify(params), progress) : api.call(method, JSON.stringify(params));
  } catch (e) {
    const text = String(e && e.message ? e.message : e);
    if (/KeyboardInterrupt/.test(text)) {
      return { ok: false, error: { type: "cancelled", message: "Cancelled." } };
    }
    console.error(e);
    return { ok: false, error: { type: "internal", message: `Solver error: ${firstLine(e)}` } };
  }
  const reply = parseReply(json);
  if (!reply.ok && /KeyboardInterrupt/.test(reply.error?.message || "")) {
    return { ok: false, error: { type: "cancelled", message: "Cancelled." } };
  }
  return reply;
}

function info() {
  const reply = apiCall("info", {});
  if (!reply.ok) throw new LoadError(reply.error.type, reply.error.message);
  return reply.result;
}

async function init(shape, skip, opts = {}) {
  const t0 = now();
  skipped = new Set(skip || []);
  for (const file of skipped) post({ type: "warning", message: `${file} is damaged and was skipped; weaker bounds are used instead.` });
  try {
    await loadRuntime(opts);
    await loadSolver();
    await ensureShape(shape || "4x4");
    await loadCachedPacks();
    post({ type: "ready", info: info(), interrupt: interrupt ? interrupt.buffer : null, seconds: now() - t0, packs: packList() });
  } catch (e) {
    console.error(e);
    post({
      type: "error",
      id: null,
      fatal: true,
      error: { type: e.type || "load", message: e.message || String(e), file: e.file },
    });
  }
}

async function handle(msg) {
  const { id } = msg;
  try {
    if (!api) throw new LoadError("internal", "The solver is not loaded yet.");
    const params = msg.params || {};
    if (params.shape) {
      await ensureShape(params.shape);
    }
    if (msg.type === "solve") {
      if (interrupt) interrupt[0] = 0;
      const progress = (json) => post({ type: "progress", id, progress: JSON.parse(json) });
      const reply = apiCall("solve", params, progress);
      if (reply.ok) post({ type: "result", id, result: reply.result });
      else post({ type: "error", id, error: reply.error });
      return;
    }
    const reply = apiCall(msg.method, params);
    if (reply.ok) post({ type: "result", id, result: reply.result });
    else post({ type: "error", id, error: reply.error });
  } catch (e) {
    console.error(e);
    post({ type: "error", id, error: { type: e.type || "internal", message: e.message || String(e), file: e.file } });
  }
}

self.onmessage = (event) => {
  const msg = event.data || {};
  switch (msg.type) {
    case "init":
      queue = queue.then(() => init(msg.shape, msg.skip, msg));
      break;
    case "call":
    case "solve":
      queue = queue.then(() => handle(msg));
      break;
    case "loadPack":
      queue = queue.then(() => loadPack(msg));
      break;
    case "cancel":
      // Normally the page writes the buffer itself (this message waits behind a
      // running solve); kept for pages that only send messages.
      if (interrupt) interrupt[0] = 2; // SIGINT: raises KeyboardInterrupt in Python
      break;
    default:
      post({ type: "error", id: msg.id ?? null, error: { type: "internal", message: `unknown message ${msg.type}` } });
  }
};
