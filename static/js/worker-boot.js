// Solver worker, boot: start the Python runtime (Pyodide) and install the
// fifteen package into it.  Reports LOADING for the stages RUNTIME and SOLVER.

import { ErrorType, LoadState, Stage, message } from "./protocol.js";
import { LoadError, fetchBytes, fetchOk, firstLine, isCached, now, post, url } from "./worker-common.js";

const PYODIDE = "../vendor/pyodide/";

const RUNTIME_FILES = ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide.asm.mjs"];

/** The runtime files the service worker has not cached yet (all of them when there is none). */
async function missingRuntime({ controlled }) {
  const missing = [];
  for (const f of RUNTIME_FILES) if (!(await isCached(`${PYODIDE}${f}`, controlled))) missing.push(f);
  return missing;
}

/**
 * While Pyodide starts on a first visit, count the bytes of the runtime files it downloads
 * (`missing`) and report them as PROGRESS: its own fetches are wrapped (one download per
 * file, streamed into the compiler, cached on the way by the service worker).  Returns the
 * function that restores fetch.  Nothing is wrapped when everything is cached, so that a
 * cached start hands Pyodide the service worker's own responses (with their code cache).
 */
function countDownloads(missing, total) {
  if (!missing.length || !globalThis.TransformStream) return () => {};
  const original = self.fetch;
  const watched = new Set(missing.map((f) => url(`${PYODIDE}${f}`)));
  let loaded = 0;
  let last = 0;
  self.fetch = async function (input, init) {
    const resp = await original.call(this, input, init);
    const href = typeof input === "string" ? new URL(input, self.location.href).href : input?.url;
    if (!watched.has(href) || !resp.ok || !resp.body) return resp;
    const counter = new TransformStream({
      transform(chunk, controller) {
        loaded += chunk.byteLength;
        const t = performance.now();
        if (t - last > 100) {
          last = t;
          post(message.loading(Stage.RUNTIME, LoadState.PROGRESS, "Python runtime", { bytes: total, loaded }));
        }
        controller.enqueue(chunk);
      },
    });
    return new Response(resp.body.pipeThrough(counter), { status: resp.status, statusText: resp.statusText, headers: resp.headers });
  };
  return () => {
    self.fetch = original;
  };
}

const WASM = "pyodide.asm.wasm";

/** The runtime file is damaged or missing: a fatal LoadError naming it. */
const damagedRuntime = (why) => new LoadError(ErrorType.LOAD, `The Python runtime file is damaged or missing (${WASM}): ${why}`, WASM);

/**
 * Pyodide's loader does not reject when its wasm cannot be compiled (truncated,
 * bit-flipped, missing: it logs "wasm instantiation failed!" and waits for ever).
 * Watch WebAssembly.instantiate/instantiateStreaming while it starts: a CompileError
 * or LinkError, or a streamed response that is not OK, rejects `failed`.  A TypeError
 * alone (a server without the application/wasm type) is left to Pyodide's fallback.
 * Returns {failed, restore}.
 */
function watchWasm() {
  let fail;
  const failed = new Promise((_, reject) => {
    fail = reject;
  });
  failed.catch(() => {});
  const originals = {};
  for (const name of ["instantiate", "instantiateStreaming", "compile", "compileStreaming"]) {
    const original = WebAssembly[name];
    if (typeof original !== "function") continue;
    originals[name] = original;
    WebAssembly[name] = function (source, ...rest) {
      if (name.endsWith("Streaming")) {
        Promise.resolve(source).then(
          (resp) => resp && resp.ok === false && fail(damagedRuntime(`the server answered ${resp.status} ${resp.statusText || ""}`.trim())),
          (e) => fail(damagedRuntime(`could not be downloaded (${firstLine(e)})`)),
        );
      }
      const result = original.call(this, source, ...rest);
      result.catch((e) => {
        if (e instanceof WebAssembly.CompileError || e instanceof WebAssembly.LinkError) fail(damagedRuntime(firstLine(e)));
      });
      return result;
    };
  }
  const restore = () => Object.assign(WebAssembly, originals);
  return { failed, restore };
}

/**
 * Start Pyodide; returns {pyodide, interrupt} where interrupt is the Int32Array
 * interrupt buffer when the page is cross-origin isolated, else null.
 * opts: the INIT message ({controlled, runtimeBytes}).
 */
export async function loadRuntime(opts) {
  const t0 = now();
  const missing = await missingRuntime(opts);
  const cached = !missing.length; // (never without a service worker: the HTTP cache is not asked)
  const sizes = opts.runtimeBytes || {};
  const total = missing.reduce((a, f) => a + (sizes[f] || 0), 0);
  post(message.loading(Stage.RUNTIME, LoadState.START, "Python runtime (Pyodide)", cached ? { cached } : total ? { bytes: total } : {}));
  // (pyodide.asm.mjs comes by import(), uncounted: the progress counts the .wasm and the stdlib)
  const uncount = countDownloads(
    missing.filter((f) => !f.endsWith(".mjs")),
    missing.filter((f) => !f.endsWith(".mjs")).reduce((a, f) => a + (sizes[f] || 0), 0),
  );
  let loadPyodide;
  try {
    ({ loadPyodide } = await import("../vendor/pyodide/pyodide.mjs"));
  } catch (e) {
    throw new LoadError(ErrorType.LOAD, `Python runtime: could not be loaded (${e.message || e}). Was \`make web\` run?`);
  }
  if (typeof WebAssembly !== "object") {
    throw new LoadError(ErrorType.LOAD, "This browser does not support WebAssembly, which the solver needs.");
  }
  let pyodide;
  const wasm = watchWasm();
  try {
    pyodide = await Promise.race([
      loadPyodide({
        indexURL: url(PYODIDE),
        stdout: (s) => console.log("[py]", s),
        stderr: (s) => console.warn("[py]", s),
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
    uncount();
  }
  let interrupt = null;
  if (self.crossOriginIsolated && typeof SharedArrayBuffer === "function") {
    interrupt = new Int32Array(new SharedArrayBuffer(4));
    pyodide.setInterruptBuffer(interrupt);
  }
  post(message.loading(Stage.RUNTIME, LoadState.DONE, `Pyodide ${pyodide.version}`, { seconds: now() - t0, ...(cached ? { cached } : {}) }));
  return { pyodide, interrupt };
}

/**
 * Start downloading the solver package (../wheels/manifest.json names it: `archive`, the
 * fifteen wheel's files plus their bytecode, tools/web_pyc.mjs; else the wheel) while the
 * runtime starts; resolves to {name, format, bytes}, or to {error} (reported by loadSolver).
 */
/**
 * Refuse `bytes` whose SHA-256 is not `want` (hex, from a manifest): a damaged file is
 * named as such, not reported later as an unreadable zip.  Without WebCrypto (a page
 * served over plain HTTP from another host) or without `want`, nothing is checked.
 */
export async function checkDigest(bytes, want, what) {
  if (!want || !globalThis.crypto?.subtle) return;
  const got = [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
  if (got !== want) {
    throw new LoadError(ErrorType.LOAD, `${what} is damaged: ${bytes.length.toLocaleString("en")} bytes whose SHA-256 is not the listed one. Reload the page; if it stays, rebuild the site (make web).`);
  }
}

export function fetchSolver({ controlled = false } = {}) {
  return (async () => {
    const manifest = await (await fetchOk("../wheels/manifest.json", "wheel list")).json();
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
