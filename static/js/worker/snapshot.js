// Solver worker, memory snapshot: a later start resumes where the first one ended.
//
// Pyodide can save its whole memory (the Python heap: the interpreter started, the fifteen
// package imported, the databases loaded) and start from such a snapshot instead of starting
// Python and importing everything again (loadPyodide's `_makeSnapshot` / `_loadSnapshot`
// options and makeMemorySnapshot(); experimental in Pyodide, used by Cloudflare's Python
// Workers).  On this machine a reload's runtime + solver + databases went from ~3 s to
// ~0.3 s (tools/web_bench.py --startup).
//
// Stored in Cache Storage (SNAPSHOT_CACHE, one entry at SNAPSHOT_URL), with a header
// (SNAPSHOT_HEADER) describing what it holds: {pyodide: version, archive: the solver
// archive's SHA-256, files: {database file: CRC-32}, bytes: its length (a cut-off copy is not
// resumed)}.  It is used only when all of that
// matches this build (wheels/manifest.json, db/manifest.json), so a new build never resumes
// an older one's state; Pyodide itself refuses a snapshot of another runtime build.  The
// format is Pyodide's (a magic number, its build id, the JS-side state as JSON, the heap).
//
// What a snapshot does not hold, a start from one does again: the file system (the solver
// package is unpacked again: lazily imported modules live there), the interrupt buffer, and a
// fresh seed for Python's `random`.  A snapshot that cannot be read or started from is
// deleted and the start goes the ordinary way.

import { SNAPSHOT_CACHE } from "../solver/protocol.js";
import { url } from "./common.js";

const SNAPSHOT_URL = url("../snapshot/fifteen.bin");
const SNAPSHOT_HEADER = "x-fifteen-snapshot";

/**
 * What a snapshot of this build must hold, from the two manifests: {pyodide, archive, files},
 * files being every database of the db manifest with its CRC-32 (a snapshot's loaded files must
 * each match one).  Null when the build cannot say (no archive digest).
 */
export function buildIdentity(pyodideVersion, wheels, dbManifest) {
  if (!pyodideVersion || !wheels?.archive_sha256) return null;
  const files = {};
  for (const a of dbManifest?.assets || []) if (a?.file && a.crc32) files[a.file] = a.crc32;
  return { pyodide: pyodideVersion, archive: wheels.archive_sha256, files };
}

/** Whether a snapshot described by `meta` was made by this build (`identity`). */
export function matches(meta, identity) {
  if (!meta || !identity || meta.pyodide !== identity.pyodide || meta.archive !== identity.archive) return false;
  const loaded = Object.entries(meta.files || {});
  return loaded.every(([file, crc]) => identity.files[file] === crc);
}

/** The description (SNAPSHOT_HEADER) of a kept snapshot's response, or null. */
function described(resp) {
  try {
    return JSON.parse(resp?.headers.get(SNAPSHOT_HEADER) || "null");
  } catch {
    return null;
  }
}

/** The response of the kept snapshot, if any. */
const kept = () => caches.match(SNAPSHOT_URL, { cacheName: SNAPSHOT_CACHE });

/**
 * The kept snapshot of this build: {length, bytes, files (the databases it holds)}, or null.
 * `bytes` is a promise of its bytes, read while the runtime's own files load (Pyodide awaits it
 * only once its script is in: on a reload the read of ~120 MB takes 0.25-0.65 s on the
 * project's machine); it rejects when the copy is cut off (the start then goes the ordinary
 * way, and this start makes another).
 */
export async function findSnapshot(identity) {
  if (!identity || !self.caches) return null;
  try {
    const resp = await kept();
    if (!resp) return null;
    const meta = described(resp);
    if (!matches(meta, identity) || !(meta.bytes > 0)) {
      resp.body?.cancel().catch(() => {});
      return null;
    }
    const bytes = resp.arrayBuffer().then((buffer) => {
      if (buffer.byteLength !== meta.bytes) throw new Error(`the kept snapshot is cut off (${buffer.byteLength} of ${meta.bytes} bytes)`);
      return new Uint8Array(buffer);
    });
    bytes.catch(() => {}); // (loadRuntime reports it)
    return { length: meta.bytes, bytes, files: Object.keys(meta.files) };
  } catch {
    return null;
  }
}

/** Forget the kept snapshot (it could not be started from). */
export async function dropSnapshot() {
  if (!self.caches) return;
  await caches.delete(SNAPSHOT_CACHE).catch(() => {});
}

/**
 * Whether the kept snapshot (described by `meta`) holds at least the databases `files` of this
 * build (`identity`): then a new one would hold nothing more.
 */
function holds(meta, identity, files) {
  return matches(meta, identity) && files.every((f) => meta.files && meta.files[f] === identity.files[f]);
}

/**
 * Keep a snapshot holding the databases `files` (names) of this build (`identity`), unless the
 * one kept holds them already: `make()` makes it (Pyodide's makeMemorySnapshot, with Python
 * idle and nothing of JS held by it: one synchronous call, ~0.3 s for ~130 MB; worker.js runs
 * it as idle work).  One worker at a time (a pool's workers start together: the others skip).
 * Resolves once the snapshot is stored (true) or skipped (false), never rejects.
 */
export async function keepSnapshot(identity, files, make) {
  if (!identity || !self.caches) return false;
  const meta = { pyodide: identity.pyodide, archive: identity.archive, files: {} };
  for (const f of files) meta.files[f] = identity.files[f];
  if (!matches(meta, identity)) return false; // a loaded file the manifest does not list
  let made;
  const madePromise = new Promise((resolve) => {
    made = resolve;
  });
  const store = async (lock) => {
    try {
      if (!lock || holds(described(await kept()), identity, files)) return made(false);
      let bytes = await make();
      if (!bytes) return made(false);
      meta.bytes = bytes.length;
      const body = new Response(bytes, { headers: { "content-type": "application/octet-stream", [SNAPSHOT_HEADER]: JSON.stringify(meta) } });
      bytes = null; // (held by the Response until stored)
      const cache = await caches.open(SNAPSHOT_CACHE);
      await cache.put(SNAPSHOT_URL, body);
      made(true);
    } catch (e) {
      made(false);
      console.warn("No snapshot kept:", e);
    }
  };
  if (self.navigator?.locks) navigator.locks.request(SNAPSHOT_CACHE, { ifAvailable: true }, store).catch(() => made(false));
  else store(true);
  return madePromise;
}

/**
 * Pyodide's wasm declares its own memory, of the size a fresh start needs; a snapshot of a
 * heap that grew (the databases) is larger.  Grow the instance's memory to `bytes` as soon as
 * it exists (before Pyodide copies the snapshot into it).  `result`: what
 * WebAssembly.instantiate/instantiateStreaming resolved to.
 */
export function growMemory(result, bytes) {
  const memory = (result?.instance || result)?.exports?.memory;
  if (!(memory instanceof WebAssembly.Memory)) return;
  const pages = Math.ceil(bytes / 65536) - memory.buffer.byteLength / 65536;
  if (pages > 0) memory.grow(pages);
}
