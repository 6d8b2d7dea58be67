// Solver worker, databases: the list of database assets (../db/manifest.json, written by
// build_db.py) and loading those of a board shape into Python, each when its entry's "load"
// says (py/dbbuild/specs.py, AssetSpec.load):
//
//   "first" (the default)  before READY: what a first solve of the shape needs (on 4x4 the WD
//                          tables and the 5-5-5, 0.65 MB), downloaded while the runtime starts;
//   "idle"                 after READY, once the page asks for the worker's background work
//                          (ToWorker.BACKGROUND): downloaded at once, handed to Python only while
//                          no request waits (the 7-7-1: 15.9 MB, ~0.7 s of the worker's thread);
//   "asked"                only before a request that names its bound (the 6-6-3: the bound
//                          menu, the lab).
//
// Until a database is in Python its bound is offered as pending (pendingBounds: the page's
// bound menu says it downloads), and "auto" is the strongest bound loaded.  Reports LOADING for
// the stage DATABASES, one label per file; after READY with `later`.
//
// Each file is checked end to end before Python sees it: its SHA-256 (WebCrypto) must be the
// manifest's `sha256`, else it is refused as damaged (a LoadError of type ASSET naming it: the
// page's banner offers to skip it or to retry).  The container's CRC-32, which Python checks,
// cannot catch a file whose payload was changed and its CRC written again (a zeroed pattern
// database makes the search take a position one move away for the goal).  Every download is
// hashed, cached or not: a copy in the service worker's cache is not known to be checked (its
// fetch handler stores what the network answers, and the precache keeps a copy that differs
// from build-info.json "as served"), so skipping it by cache version would trust an unchecked
// file.  The cost is small (crypto.subtle.digest: 26 ms for the 16 MB pdb-771.f15 in headless
// Chromium, up to 160 ms for a page's first), hashed as each download ends, while the others
// download, and only when the worker fetches: a later start resumes the memory snapshot of the
// first one (worker/snapshot.js), whose databases were checked then, and fetches none.  A
// damaged database that comes after Ready is a warning: the page goes on with the bounds it has.

import { sha256Hex } from "../model/digest.js";
import { ErrorType, LoadState, Stage, message } from "../solver/protocol.js";
import { LoadError, fetchBytes, isCached, keepForPrecache, now, parseReply, post, url } from "./common.js";

/** When the worker loads an asset (the manifest's "load"). */
export const Load = Object.freeze({ FIRST: "first", IDLE: "idle", ASKED: "asked" });

/** An asset's "load", "first" when the manifest gives none (or one this worker does not know). */
export const loadOf = (asset) => (Object.values(Load).includes(asset?.load) ? asset.load : Load.FIRST);

/**
 * ../db/manifest.json's text: resolves to {text} or {error} (a missing list is a warning, not a
 * failure: Databases.manifest()).
 */
export function fetchDatabaseList() {
  return (async () => {
    const resp = await fetch(url("../db/manifest.json"));
    if (!resp.ok) throw new Error(`${resp.status} ${resp.statusText}`);
    return { text: await resp.text() };
  })().catch((error) => ({ error }));
}

/**
 * Why `bytes` are not the file `asset` of the manifest (its `sha256`, hex), or "" when they are
 * (or cannot be told: no digest listed, no WebCrypto on a page served over plain HTTP from
 * another host, where Python's checks and the answer's replay remain).
 */
export async function digestProblem(asset, bytes) {
  if (!asset.sha256) return "";
  const got = await sha256Hex(bytes);
  if (!got || got === asset.sha256) return "";
  return (
    `${asset.file} is damaged: its SHA-256 is not the one static/db/manifest.json lists (${bytes.length.toLocaleString("en")} bytes).` +
    " Reload the page to fetch it again; if it stays, rebuild the databases (make db)."
  );
}

/**
 * The assets of `assets` (a manifest's list) that the page's worker loads for `shape` at `load`
 * (Load), but those in `skip` (a Set of files): in the manifest's order.
 */
export function assetsFor(assets, shape, load, skip = new Set()) {
  return (Array.isArray(assets) ? assets : []).filter(
    (a) =>
      a?.file &&
      (a.shapes || []).includes(shape) &&
      a.browser !== false && // "browser": false marks a native-only (too big) database
      loadOf(a) === load &&
      !skip.has(a.file),
  );
}

/**
 * `info` (fifteen.api's "info" answer) with the bounds of the databases not in Python yet
 * (`pending`: {bound: {file, bytes, load, shapes}}) offered on their shapes, in the order of
 * info.labels (strongest first, after "auto"), and listed as `info.pending`.
 */
export function withPending(info, pending) {
  if (!info || !pending || !Object.keys(pending).length) return info;
  const order = Object.keys(info.labels || {});
  const rank = (b) => (b === "auto" ? -1 : order.indexOf(b) < 0 ? order.length : order.indexOf(b));
  const bounds = { ...(info.bounds || {}) };
  for (const [bound, p] of Object.entries(pending)) {
    for (const shape of p.shapes || []) {
      if (!bounds[shape] || bounds[shape].includes(bound)) continue;
      bounds[shape] = [...bounds[shape], bound].sort((a, b) => rank(a) - rank(b));
    }
  }
  return { ...info, bounds, pending };
}

/**
 * The bound names a request's params name (`bound`, `bounds`, the pool's `tasks` each with its
 * `bound`), "auto" left out.
 */
export function namedBounds(params) {
  const list = (x) => (Array.isArray(x) ? x : []);
  const names = [params?.bound, ...list(params?.bounds), ...list(params?.tasks).map((t) => t?.bound)];
  return [...new Set(names.filter((b) => typeof b === "string" && b && b !== "auto"))];
}

/**
 * From this size on a zlib-compressed database that comes after READY is decompressed by the
 * browser (inflateIntoPython: DecompressionStream, a few MB at a time, the worker's thread
 * free for a request in between), not by one zlib.decompress in Python that holds the thread
 * (~0.5 s for the 7-7-1's 58 MB of tables).
 */
const INFLATE_BYTES = 1 << 20;
/** inflateIntoPython lets a request in (a turn of the event loop) after this many bytes written. */
const INFLATE_SLICE = 4 << 20;

export class Databases {
  /**
   * skip: asset files not to load (the user chose to go on without a damaged one);
   * controlled: a service worker serves this worker (a file it has cached is reported
   * `cached`: no download size shown); listText: the manifest's text, a promise of {text} or
   * {error} (fetchDatabaseList()).  Python comes later (attach).
   */
  constructor(skip = [], controlled = false, listText = fetchDatabaseList()) {
    this.api = null;
    this.controlled = controlled;
    this.listText = listText;
    this.skipped = new Set(skip);
    this.manifestDoc = null; // {assets: [...], packs: [...]}, checked (manifest())
    this.downloads = new Map(); // file -> promise of {bytes, cached} or {error} (download())
    this.loadedFiles = new Set(); // files handed to Python (or found missing)
    this.missingFiles = new Set(); // of those, the ones found missing (not in Python)
    this.loadedShapes = new Set(); // shapes whose "first" assets are in
    this.keeping = []; // copies of downloads being stored for the page's precache (download())
    this.laterFields = () => ({}); // what a DONE after READY adds (worker.js: the new info, the heap)
  }

  /** Python is up: `api` is the fifteen.api module (a PyProxy). */
  attach(api) {
    this.api = api;
  }

  /** Resolves once every copy kept by download() is stored (awaited with boot.js's downloadKept). */
  kept() {
    return Promise.all(this.keeping);
  }

  /**
   * The manifest's assets as read before Python is up (parsed here, unchecked: only to start
   * downloads early; what Python then refuses is never handed over), or [].
   */
  async rawAssets() {
    const { text } = await this.listText;
    try {
      const doc = JSON.parse(text);
      return Array.isArray(doc?.assets) ? doc.assets : [];
    } catch {
      return [];
    }
  }

  /** Start downloading the "first" assets of `shape` (no Python needed): the runtime starts meanwhile. */
  async prefetch(shape) {
    for (const asset of assetsFor(await this.rawAssets(), shape, Load.FIRST, this.skipped)) this.fetch(asset);
  }

  /**
   * The manifest (fetched once) as {assets, packs}, checked in Python by the rules the
   * native side uses (fifteen.api.manifest): invalid JSON or JSON of the wrong shape is a
   * warning and leaves out what cannot be used; a missing manifest is a warning too.
   */
  async manifest() {
    if (this.manifestDoc !== null) return this.manifestDoc;
    const { text, error: e } = await this.listText;
    if (e) {
      this.manifestDoc = { assets: [], packs: [] };
      post(
        message.warning(
          `No database list (static/db/manifest.json: ${e.message || e}); tables will be built in the browser, which is slower.`,
        ),
      );
      return this.manifestDoc;
    }
    const reply = parseReply(this.api.manifest(text));
    const checked = reply.ok ? reply.result : { assets: [], packs: [], warnings: [reply.error?.message || "unreadable"] };
    this.manifestDoc = { assets: checked.assets, packs: checked.packs };
    for (const w of checked.warnings || []) post(message.warning(w));
    return this.manifestDoc;
  }

  /**
   * The databases `files` are in Python already (the start resumed a memory snapshot holding
   * them, worker/snapshot.js): reported as such, never fetched.
   */
  resumed(files) {
    for (const file of files) {
      this.loadedFiles.add(file);
      post(message.loading(Stage.DATABASES, LoadState.DONE, file, { cached: true, snapshot: true, seconds: 0 }));
    }
  }

  /** The database files Python holds (what a memory snapshot of it holds). */
  held() {
    return [...this.loadedFiles].filter((f) => !this.missingFiles.has(f));
  }

  /** The assets of the checked manifest for `shape` at `load` that are not in Python yet. */
  async waiting(shape, load) {
    const manifest = await this.manifest();
    return assetsFor(manifest.assets, shape, load, this.skipped).filter((a) => !this.loadedFiles.has(a.file));
  }

  /**
   * Hand to Python every "first" asset of `shape` not loaded yet.  Their downloads started at
   * once (prefetch, else here: they wait on the network, not on Python); they are handed over
   * in the manifest's order as each arrives.  Each file's DONE reports the seconds since the
   * previous one's (the first: since this began), so that the files' seconds add up to this
   * step's time.
   */
  async ensureShape(shape) {
    if (!shape || this.loadedShapes.has(shape)) return;
    const wanted = await this.waiting(shape, Load.FIRST);
    const downloads = wanted.map((asset) => this.fetch(asset));
    let since = now();
    for (const [i, asset] of wanted.entries()) {
      this.install(asset, await downloads[i], since);
      since = now();
    }
    this.loadedShapes.add(shape);
  }

  /**
   * The databases of `shape` that are not in Python yet and have a bound ("idle" and "asked"
   * ones): {bound: {file, bytes, load, shapes}}; of every shape without `shape`.
   */
  pendingBounds(shape = null) {
    const out = {};
    for (const a of this.manifestDoc?.assets || []) {
      const load = loadOf(a);
      if (load === Load.FIRST || !a.bound || a.browser === false || this.skipped.has(a.file) || this.loadedFiles.has(a.file)) continue;
      if (shape && !(a.shapes || []).includes(shape)) continue;
      out[a.bound] = { file: a.file, bytes: a.bytes || 0, load, shapes: a.shapes || [] };
    }
    return out;
  }

  /**
   * Before a request that names `bounds`: the databases of those not in Python yet ("asked",
   * or "idle" ones still coming) are downloaded (or their download under way awaited) and
   * handed over now.  Resolves to whether any was.
   */
  async ensureBounds(bounds) {
    if (!bounds.length) return false;
    const manifest = await this.manifest();
    const wanted = manifest.assets.filter((a) => a.bound && bounds.includes(a.bound) && loadOf(a) !== Load.FIRST && a.browser !== false && !this.loadedFiles.has(a.file) && !this.skipped.has(a.file));
    for (const asset of wanted) {
      const since = now();
      this.install(asset, await this.fetch(asset, { later: true }), since, { later: true });
    }
    return wanted.length > 0;
  }

  /** The download of `asset`, started once (download()): a promise of {bytes, cached} or {error}. */
  fetch(asset, opts = {}) {
    let got = this.downloads.get(asset.file);
    if (!got) {
      got = this.download(asset, opts);
      this.downloads.set(asset.file, got);
    }
    return got;
  }

  /**
   * Download one asset (START, PROGRESS; `later`: after READY) and check its digest: {bytes,
   * cached}, {error} when it cannot be downloaded, or {damaged} (the reason) when it is not the
   * file the manifest lists.
   */
  async download(asset, { later = false } = {}) {
    const label = asset.file;
    const flags = later ? { later } : {};
    const cached = await isCached(`../db/${asset.file}`, this.controlled);
    post(message.loading(Stage.DATABASES, LoadState.START, label, { ...flags, ...(cached ? { cached } : { bytes: asset.bytes }) }));
    try {
      const bytes = await fetchBytes(`../db/${asset.file}`, {
        label,
        expected: asset.bytes,
        onProgress: (loaded, total) => post(message.loading(Stage.DATABASES, LoadState.PROGRESS, label, { ...flags, ...(cached ? { cached } : {}), bytes: total, loaded })),
      });
      const damaged = await digestProblem(asset, bytes);
      if (damaged) return { damaged };
      // (after READY the service worker serves this worker: it keeps what passes through it)
      if (!this.controlled && !later) this.keep(asset.file, bytes);
      return { bytes, cached };
    } catch (error) {
      return { error };
    }
  }

  /**
   * A first visit (no service worker yet): a copy of the download is kept for the page's
   * precache (common.js keepForPrecache), so that the page works offline as soon as it is
   * Ready, before its precache has run.  The Response is made at once (it copies the bytes,
   * which Python then takes).
   */
  keep(file, bytes) {
    const copy = new Response(bytes, { status: 200, headers: { "Content-Type": "application/octet-stream" } });
    this.keeping.push(keepForPrecache(url(`../db/${file}`), copy));
  }

  /**
   * Hand an asset that came after READY to Python (its download, `got`, done): a large
   * zlib-compressed one is decompressed by the browser first, while the worker stays free for
   * requests (inflateIntoPython), then registered in one short step; any other in one step.
   * `run(step)` runs a synchronous step when no request waits (worker.js: worker/idle.js).
   * Resolves to whether it was handed over; a damaged one rejects with a LoadError naming it.
   */
  async installLater(asset, got, run) {
    const since = now();
    if (got.bytes && !this.loadedFiles.has(asset.file) && got.bytes.length >= INFLATE_BYTES && globalThis.DecompressionStream) {
      await run(() => null); // (begun only when no request waits)
      const payload = await this.inflateIntoPython(asset.file, got.bytes);
      if (payload) return run(() => this.registerInflated(asset, got, payload, since));
    }
    return run(() => this.install(asset, got, since, { later: true }));
  }

  /**
   * The zlib payload of the container `bytes` decompressed by the browser into a bytearray
   * Python allocated (fifteen.api payload_span, new_buffer; written through getBuffer), a few
   * MB at a time with a turn of the event loop in between; its PyProxy, or null when it cannot
   * be (not a zlib container, damaged: the one-step path then says what is wrong).
   */
  async inflateIntoPython(file, bytes) {
    const span = parseReply(this.api.payload_span(file, bytes.subarray(0, Math.min(bytes.length, 1 << 16))));
    if (!span.ok || !span.result.zlib) return null;
    const { start, stored, raw } = span.result;
    let buf = null;
    let view = null;
    try {
      buf = this.api.new_buffer(raw);
      view = buf.getBuffer("u8");
      const body = new Blob([bytes.subarray(start, start + stored)]).stream().pipeThrough(new DecompressionStream("deflate"));
      const reader = body.getReader();
      let pos = 0;
      let slice = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (pos + value.length > raw) throw new Error(`decompresses to more than ${raw} bytes`);
        if (!view.data.byteLength) {
          view.release(); // Python's memory grew (a request ran in between): a fresh view
          view = buf.getBuffer("u8");
        }
        view.data.set(value, pos);
        pos += value.length;
        if ((slice += value.length) >= INFLATE_SLICE) {
          slice = 0;
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
      }
      if (pos !== raw) throw new Error(`decompresses to ${pos} of ${raw} bytes`);
      view.release();
      view = null;
      return buf;
    } catch (e) {
      console.warn(`${file}: decompressed in one step instead (${e.message || e})`);
      view?.release();
      buf?.destroy();
      return null;
    }
  }

  /** Register `asset` whose payload inflateIntoPython decompressed (DONE, `later`); see install(). */
  registerInflated(asset, { bytes, cached }, payload, since) {
    if (this.loadedFiles.has(asset.file)) {
      payload.destroy();
      return false;
    }
    this.downloads.delete(asset.file);
    let reply;
    try {
      reply = parseReply(this.api.load_inflated(asset.file, bytes, payload));
    } finally {
      payload.destroy(); // Python keeps the bytearray (as the tables) or drops it
    }
    if (!reply.ok) {
      const err = reply.error || {};
      throw new LoadError(err.type || ErrorType.ASSET, err.message || `${asset.file}: could not be read`, asset.file);
    }
    this.loadedFiles.add(asset.file);
    post(message.loading(Stage.DATABASES, LoadState.DONE, asset.file, { later: true, ...(cached ? { cached } : { bytes: bytes.length }), seconds: now() - since, ...this.laterFields() }));
    return true;
  }

  /**
   * Hand a downloaded asset to Python (DONE; `later`: after READY); a damaged one is a LoadError
   * naming it.  One already in Python is left alone (an "idle" one a request loaded first).
   * Returns whether it was handed over.
   */
  install(asset, { bytes, cached, error, damaged }, since, { later = false } = {}) {
    const label = asset.file;
    if (this.loadedFiles.has(asset.file)) return false;
    if (damaged) {
      this.downloads.delete(asset.file);
      throw new LoadError(ErrorType.ASSET, damaged, asset.file);
    }
    const flags = later ? { later } : {};
    this.downloads.delete(asset.file); // (the bytes go to Python: not held twice)
    if (error) {
      // A missing database is not fatal: the package can rebuild WD tables itself
      // (slower) and simply lacks a PDB bound otherwise.  One loaded after READY stays
      // pending: a later request for its bound tries again.
      post(message.warning(`${error.message} — continuing without it.`));
      post(message.loading(Stage.DATABASES, LoadState.DONE, label, { ...flags, seconds: now() - since, missing: true }));
      if (!later) {
        this.loadedFiles.add(asset.file);
        this.missingFiles.add(asset.file);
      }
      return false;
    }
    const reply = parseReply(this.api.load_asset(asset.file, bytes));
    if (!reply.ok) {
      const err = reply.error || {};
      throw new LoadError(err.type || ErrorType.ASSET, err.message || `${asset.file}: could not be read`, asset.file);
    }
    this.loadedFiles.add(asset.file);
    const seconds = now() - since;
    post(message.loading(Stage.DATABASES, LoadState.DONE, label, { ...flags, ...(cached ? { cached } : { bytes: bytes.length }), seconds, ...(later ? this.laterFields() : {}) }));
    return true;
  }
}
