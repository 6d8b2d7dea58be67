// Solver worker, databases: the list of database assets (../db/manifest.json,
// written by build_db.py) and loading those of a board shape into Python.
// Reports LOADING for the stage DATABASES, one label per file.
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
// first one (worker/snapshot.js), whose databases were checked then, and fetches none.

import { sha256Hex } from "../model/digest.js";
import { ErrorType, LoadState, Stage, message } from "../solver/protocol.js";
import { LoadError, fetchBytes, isCached, keepForPrecache, now, parseReply, post, url } from "./common.js";

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

export class Databases {
  /**
   * api: the fifteen.api module (a PyProxy); skip: asset files not to load
   * (the user chose to go on without a damaged one); controlled: a service worker serves
   * this worker (a file it has cached is reported `cached`: no download size shown);
   * listText: the manifest's text when already fetched (fetchDatabaseList()).
   */
  constructor(api, skip = [], controlled = false, listText = fetchDatabaseList()) {
    this.api = api;
    this.controlled = controlled;
    this.listText = listText;
    this.skipped = new Set(skip);
    this.manifestDoc = null; // {assets: [...], packs: [...]}, checked (manifest())
    this.loadedFiles = new Set(); // files handed to Python (or found missing)
    this.missingFiles = new Set(); // of those, the ones found missing (not in Python)
    this.loadedShapes = new Set();
    this.keeping = []; // copies of downloads being stored for the page's precache (download())
  }

  /** Resolves once every copy kept by download() is stored (awaited with boot.js's downloadKept). */
  kept() {
    return Promise.all(this.keeping);
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

  /**
   * Fetch and hand to Python every database asset for `shape` not loaded yet.  The files are
   * downloaded at once (they wait on the network, not on Python) and handed over in the
   * manifest's order as each arrives.  Each file's DONE reports the seconds since the previous
   * one's (the first: since this began), so that the files' seconds add up to this step's time.
   */
  async ensureShape(shape) {
    if (!shape || this.loadedShapes.has(shape)) return;
    const manifest = await this.manifest();
    const wanted = manifest.assets.filter(
      (a) =>
        (a.shapes || []).includes(shape) &&
        a.browser !== false && // "browser": false marks a native-only (too big) database
        !this.loadedFiles.has(a.file) &&
        !this.skipped.has(a.file),
    );
    const downloads = wanted.map((asset) => this.download(asset));
    let since = now();
    for (const [i, asset] of wanted.entries()) {
      this.install(asset, await downloads[i], since);
      since = now();
    }
    this.loadedShapes.add(shape);
  }

  /**
   * Download one asset (START, PROGRESS) and check its digest: {bytes, cached}, {error} when it
   * cannot be downloaded, or {damaged} (the reason) when it is not the file the manifest lists.
   */
  async download(asset) {
    const label = asset.file;
    const cached = await isCached(`../db/${asset.file}`, this.controlled);
    post(message.loading(Stage.DATABASES, LoadState.START, label, cached ? { cached } : { bytes: asset.bytes }));
    try {
      const bytes = await fetchBytes(`../db/${asset.file}`, {
        label,
        expected: asset.bytes,
        onProgress: cached ? undefined : (loaded, total) => post(message.loading(Stage.DATABASES, LoadState.PROGRESS, label, { bytes: total, loaded })),
      });
      const damaged = await digestProblem(asset, bytes);
      if (damaged) return { damaged };
      if (!this.controlled) this.keep(asset.file, bytes);
      return { bytes, cached };
    } catch (error) {
      return { error };
    }
  }

  /**
   * A first visit (no service worker yet): a copy of the download is kept for the page's
   * precache (common.js keepForPrecache; a fresh headless profile's HTTP cache did not keep the
   * 16 MB pdb-771.f15, tests/e2e/test_startup.py).  The Response is made at once (it copies the
   * bytes, which Python then takes).
   */
  keep(file, bytes) {
    const copy = new Response(bytes, { status: 200, headers: { "Content-Type": "application/octet-stream" } });
    this.keeping.push(keepForPrecache(url(`../db/${file}`), copy));
  }

  /** Hand a downloaded asset to Python (DONE); a damaged one is a LoadError naming it. */
  install(asset, { bytes, cached, error, damaged }, since) {
    const label = asset.file;
    if (damaged) throw new LoadError(ErrorType.ASSET, damaged, asset.file);
    if (error) {
      // A missing database is not fatal: the package can rebuild WD tables itself
      // (slower) and simply lacks a PDB bound otherwise.
      post(message.warning(`${error.message} — continuing without it.`));
      post(message.loading(Stage.DATABASES, LoadState.DONE, label, { seconds: now() - since, missing: true }));
      this.loadedFiles.add(asset.file);
      this.missingFiles.add(asset.file);
      return;
    }
    const reply = parseReply(this.api.load_asset(asset.file, bytes));
    if (!reply.ok) {
      const err = reply.error || {};
      throw new LoadError(err.type || ErrorType.ASSET, err.message || `${asset.file}: could not be read`, asset.file);
    }
    this.loadedFiles.add(asset.file);
    post(message.loading(Stage.DATABASES, LoadState.DONE, label, { ...(cached ? { cached } : { bytes: bytes.length }), seconds: now() - since }));
  }
}
