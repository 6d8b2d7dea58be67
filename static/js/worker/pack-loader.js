// Solver worker, optional packs: the databases listed under "packs" in
// ../db/manifest.json (the 7-8 pattern database), downloaded only when the user
// asks, decompressed here when xz-compressed (Pyodide has no lzma), handed to
// Python, and kept in Cache Storage for offline use and later visits.
//
// The container's layout is Python's business: the worker asks fifteen.api for
// the number of header bytes it needs (CONTAINER_HEADER_BYTES) and for the
// whole container's size from them (container_size), then decompresses
// straight into a Python bytearray of that size.

import { ErrorType, LoadState, Stage, message } from "../solver/protocol.js";
import { LoadError, fetchBytes, firstLine, now, parseReply, post, url } from "./common.js";

/** The Cache Storage cache of downloaded packs: not versioned, so sw.js never deletes it. */
export const PACK_CACHE = "fifteen-packs";

const packUrl = (file) => url(`../db/${file}`); // the Cache Storage key

// xz-embedded's return codes (xz.h), as the decoder reports them
const XZ_ERRORS = {
  3: "out of memory",
  4: "out of memory",
  5: "not an xz file",
  6: "unsupported xz options",
  7: "damaged xz data",
  8: "the xz data stops short",
};

function xzWhy(e) {
  const m = /error code (\d+)/.exec(String(e && e.message ? e.message : e));
  return m && XZ_ERRORS[m[1]] ? XZ_ERRORS[m[1]] : `xz: ${e.message || e}`;
}

function memoryError(file, e) {
  const msg = firstLine(e);
  if (/memory|allocat|RangeError/i.test(msg)) {
    return new LoadError(ErrorType.LOAD, `${file}: not enough memory to load the pack (${msg}). The solver keeps working without it.`);
  }
  return null;
}

const damaged = (file, why) => new LoadError(ErrorType.ASSET, `${file}: the file is corrupt (${why}); download it again`);

export class Packs {
  /** api: the fifteen.api module; databases: the worker's Databases (for the manifest). */
  constructor(api, databases) {
    this.api = api;
    this.databases = databases;
    this.loaded = new Set(); // pack files handed to Python
  }

  /** The manifest's packs (after databases.manifest() was awaited once). */
  entries() {
    const doc = this.databases.manifestDoc;
    return (doc && Array.isArray(doc.packs) ? doc.packs : []).filter((p) => p && p.file);
  }

  /** The packs as READY lists them: each with `loaded`. */
  list() {
    return this.entries().map((p) => ({ ...p, loaded: this.loaded.has(p.file) }));
  }

  /**
   * Decompress an xz pack (the Uint8Array `bytes`) into a bytearray allocated in
   * Python, writing each decoded chunk through `getBuffer()` (no 288 MB copy on
   * either side); returns the PyProxy of that bytearray.  The size comes from the
   * container's header (asked of fifteen.api) and must equal the manifest's
   * `raw_bytes` when given.  A damaged stream is a LoadError of type ASSET.
   */
  async unxzIntoPython(file, bytes, rawBytes, report) {
    let XzReadableStream;
    try {
      ({ XzReadableStream } = await import("../../vendor/xz/xz-decompress.mjs"));
    } catch (e) {
      throw new LoadError(ErrorType.LOAD, `${file}: the xz decoder could not be loaded (${e.message || e}). Was \`make web\` run?`);
    }
    const headBytes = Number(this.api.CONTAINER_HEADER_BYTES);
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
    const head = new Uint8Array(headBytes);
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
          throw damaged(file, why);
        }
        if (!buf) {
          // The container's header says its size.
          const n = Math.min(headBytes - pos, chunk.length);
          head.set(chunk.subarray(0, n), pos);
          if (pos + n < headBytes) {
            pos += n;
            continue;
          }
          const sized = parseReply(this.api.container_size(file, head));
          if (!sized.ok) throw damaged(file, sized.error.message.replace(`${file}: `, ""));
          total = sized.result;
          if (rawBytes && total !== rawBytes) throw damaged(file, `it holds ${total} bytes, the manifest says ${rawBytes}`);
          try {
            buf = this.api.new_buffer(total);
          } catch (e) {
            throw memoryError(file, e) || new LoadError(ErrorType.INTERNAL, `${file}: ${firstLine(e)}`);
          }
          view = buf.getBuffer("u8");
          view.data.set(head);
          chunk = chunk.subarray(n);
          pos = headBytes;
        }
        if (pos + chunk.length > total) throw damaged(file, `it decompresses to more than ${total} bytes`);
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
      if (!buf || pos !== total) throw damaged(file, `it decompresses to ${pos} of ${total || "?"} bytes`);
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
   * Hand a pack's bytes (as downloaded or kept) to Python, decompressing an xz
   * pack (the manifest's "compression": "xz") first; throws a LoadError (type
   * ASSET for a damaged file).
   */
  async register(pack, bytes, report = () => {}) {
    const file = pack.file;
    const data = pack.compression === "xz" ? await this.unxzIntoPython(file, bytes, pack.raw_bytes, report) : bytes;
    let reply;
    try {
      reply = parseReply(this.api.load_asset(file, data));
    } catch (e) {
      throw memoryError(file, e) || new LoadError(ErrorType.INTERNAL, `${file}: could not be loaded (${firstLine(e)})`);
    } finally {
      if (data !== bytes) data.destroy(); // Python keeps the bytearray (as the table) or drops it
    }
    if (!reply.ok) {
      const err = reply.error || {};
      throw new LoadError(err.type || ErrorType.ASSET, err.message || `${file}: could not be read`);
    }
    this.loaded.add(file);
    return reply.result || {};
  }

  /** The kept copy of `pack` (its bytes), or null when there is none of the right size. */
  async keptCopy(pack) {
    if (!self.caches) return null;
    try {
      const hit = await (await caches.open(PACK_CACHE)).match(packUrl(pack.file));
      if (!hit) return null;
      const bytes = new Uint8Array(await hit.arrayBuffer());
      return !pack.bytes || bytes.length === pack.bytes ? bytes : null;
    } catch {
      return null;
    }
  }

  /** Whether any pack is kept in Cache Storage (loadCached() would load it). */
  async anyKept() {
    return !!self.caches && (await caches.has(PACK_CACHE).catch(() => false));
  }

  /** At INIT: load every pack the user downloaded before (kept in Cache Storage). */
  async loadCached() {
    if (!(await this.anyKept())) return;
    let cache;
    try {
      cache = await caches.open(PACK_CACHE);
    } catch {
      return; // storage unavailable (private mode, ...)
    }
    for (const pack of this.entries()) {
      if (this.loaded.has(pack.file)) continue;
      const hit = await cache.match(packUrl(pack.file));
      if (!hit) continue;
      const t0 = now();
      const label = pack.label || pack.file;
      post(message.loading(Stage.DATABASES, LoadState.START, label, { bytes: pack.bytes }));
      try {
        const bytes = new Uint8Array(await hit.arrayBuffer());
        if (pack.bytes && bytes.length !== pack.bytes) {
          throw new LoadError(ErrorType.ASSET, `${pack.file}: the kept copy has ${bytes.length} bytes, this build's pack ${pack.bytes}`);
        }
        await this.register(pack, bytes);
        post(message.loading(Stage.DATABASES, LoadState.DONE, label, { bytes: bytes.length, seconds: now() - t0 }));
      } catch (e) {
        if (e.type === ErrorType.ASSET) await cache.delete(packUrl(pack.file)).catch(() => {});
        post(message.warning(`${e.message || e} — the kept copy was dropped; download the pack again to use it.`));
        post(message.loading(Stage.DATABASES, LoadState.DONE, label, { seconds: now() - t0, missing: true }));
      }
    }
  }

  /**
   * Download, check and load the pack `file`, then keep it in Cache Storage;
   * onProgress = {download(loaded, bytes), decode(loaded, bytes)}: the download
   * in file bytes, then (xz) the decompression in container bytes.
   * Returns {file, bytes, cached, memory_bytes}.
   */
  async download(file, onProgress) {
    await this.databases.manifest();
    const pack = this.entries().find((p) => p.file === file);
    if (!pack) throw new LoadError(ErrorType.LOAD, `${file}: not an optional pack of this site`);
    const result = (bytes, cached) => ({ file, bytes, cached, memory_bytes: pack.memory_bytes || null });
    if (this.loaded.has(file)) return result(pack.bytes || 0, true);
    // A copy kept by another worker of the page's pool (or an earlier visit): no second download.
    const kept = await this.keptCopy(pack);
    if (kept) {
      await this.register(pack, kept, onProgress.decode);
      return result(kept.length, true);
    }
    // `?pack` keeps the service worker out of the way (it would cache a second
    // copy under its versioned cache); no-store keeps the HTTP cache out too.
    const bytes = await fetchBytes(`../db/${file}?pack=1`, {
      label: file,
      expected: pack.bytes,
      onProgress: (loaded, total) => onProgress.download(loaded, total || pack.bytes || 0),
      init: { cache: "no-store" },
    });
    if (pack.bytes && bytes.length !== pack.bytes) {
      throw new LoadError(ErrorType.ASSET, `${file}: downloaded ${bytes.length} bytes, expected ${pack.bytes} (incomplete download?)`);
    }
    await this.register(pack, bytes, onProgress.decode);
    let cached = false;
    if (self.caches) {
      try {
        const cache = await caches.open(PACK_CACHE);
        const headers = { "Content-Type": "application/octet-stream", "Content-Length": String(bytes.length) };
        await cache.put(packUrl(file), new Response(bytes, { headers }));
        cached = true;
      } catch (e) {
        post(message.warning(`${file}: loaded, but could not be kept for offline use (${e.message || e}).`));
      }
    }
    return result(bytes.length, cached);
  }
}
