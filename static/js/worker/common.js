// What the solver worker's modules share: URLs relative to the worker, posting
// to the page, the worker's error type, and fetching with progress.
//
// Everything is fetched from the site's own origin with URLs relative to
// static/js/ (this folder's parent): ../vendor/pyodide/ (Pyodide, vendored from npm), ../wheels/ (the wheels
// of micropip, packaging and fifteen, listed in ../wheels/manifest.json),
// ../db/ (databases, listed in ../db/manifest.json), ../vendor/xz/ (an xz
// decoder, npm xz-decompress: only for the optional pack).

import { DOWNLOADS_CACHE, ErrorType } from "../solver/protocol.js";

const here = new URL("..", import.meta.url); // static/js/

/** The absolute URL of `rel`, relative to static/js/ (the parent of the worker's folder). */
export const url = (rel) => new URL(rel, here).href;

/**
 * True when the service worker controls this worker and has `rel` in its cache, i.e. a
 * fetch of it downloads nothing (the page then shows no download size).
 */
export async function isCached(rel, controlled) {
  if (!controlled || !self.caches) return false;
  try {
    return !!(await caches.match(url(rel)));
  } catch {
    return false;
  }
}

/**
 * Store `response` as the copy of `href` that the page's precache (offline.js) takes instead of
 * asking the browser's HTTP cache, which may not hold a large file (DOWNLOADS_CACHE, a first
 * visit's downloads: the runtime's wasm, the databases).  Resolves once stored; a failure is
 * ignored (the precache then downloads the file again).
 */
export function keepForPrecache(href, response) {
  if (!self.caches) return Promise.resolve();
  return caches
    .open(DOWNLOADS_CACHE)
    .then((cache) => cache.put(href, response))
    .catch(() => {});
}

/** Send a protocol message (built with solver/protocol.js's `message`) to the page. */
export const post = (msg, transfer) => self.postMessage(msg, transfer || []);

/** Seconds, for durations. */
export const now = () => performance.now() / 1000;

/** An error with a protocol ErrorType (and, for a damaged database, its `file`). */
export class LoadError extends Error {
  constructor(type, message, file) {
    super(message);
    this.type = type;
    if (file) this.file = file;
  }
}

/** The last line of an exception's text (Python's tracebacks end with the message). */
export function firstLine(e) {
  const s = String(e && e.message ? e.message : e).trim().split("\n");
  return s[s.length - 1] || s[0];
}

/** Parse a fifteen.api JSON reply ({ok, result} or {ok: false, error}). */
export function parseReply(json) {
  const reply = JSON.parse(json);
  if (!reply || typeof reply !== "object" || !("ok" in reply)) {
    throw new LoadError(ErrorType.INTERNAL, "the solver returned an unexpected reply");
  }
  return reply;
}

/** fetch() that turns network failures and HTTP errors into a LoadError naming `what`. */
export async function fetchOk(rel, what, init) {
  let resp;
  try {
    resp = await fetch(url(rel), init);
  } catch (e) {
    throw new LoadError(ErrorType.LOAD, `${what}: could not be downloaded (${e.message || e}). Are you offline?`);
  }
  if (!resp.ok) throw new LoadError(ErrorType.LOAD, `${what}: the server answered ${resp.status} ${resp.statusText}`.trim());
  return resp;
}

/**
 * Fetch a binary file; returns a Uint8Array.  onProgress(loaded, total) is
 * called at most every 100 ms and once at the end; total is the
 * Content-Length, else `expected`, else 0.
 */
export async function fetchBytes(rel, { label, expected = 0, onProgress = () => {}, init } = {}) {
  const resp = await fetchOk(rel, label, init);
  const length = Number(resp.headers.get("content-length")) || 0;
  const total = length || expected || 0;
  if (!resp.body || !resp.body.getReader) return new Uint8Array(await resp.arrayBuffer());
  const reader = resp.body.getReader();
  // With a Content-Length, chunks go straight into one buffer (no second copy of a
  // 50 MB pack); otherwise (or if the body turns out longer) they are collected.
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
      onProgress(loaded, total);
    }
  }
  onProgress(loaded, total);
  if (whole) return loaded === whole.length ? whole : whole.slice(0, loaded);
  const out = new Uint8Array(loaded);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

/** Bytes of the ArrayBuffer with which collectGarbage() nudges the garbage collector (never written). */
const NUDGE_BYTES = 128 * 2 ** 20;

/**
 * Have V8 collect the garbage now: the bytes of a memory snapshot (read to resume it, or made to
 * keep it: ~120 MB) are garbage once used, but an idle worker may not run a garbage collection
 * for a long time and keeps them meanwhile (bench/memory.md).  V8 starts one when the memory
 * held outside its heap (ArrayBuffers) grows past a limit: a large ArrayBuffer, never written
 * (so it takes no memory), made and dropped, does that.  The collection holds the worker's
 * thread for a moment (up to ~0.5 s on a busy machine): worker.js runs it as idle work.
 */
export const collectGarbage = () => new ArrayBuffer(NUDGE_BYTES).byteLength;
