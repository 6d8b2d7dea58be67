// Solver worker, boot: start the Python runtime (Pyodide) and install the
// fifteen package into it.  Reports LOADING for the stages RUNTIME and SOLVER.

import { ErrorType, LoadState, Stage, message } from "./protocol.js";
import { LoadError, fetchOk, firstLine, now, post, url } from "./worker-common.js";

const PYODIDE = "../vendor/pyodide/";

/**
 * First visit under the service worker: download the big runtime files here,
 * reporting progress; the service worker caches them on the way, so Pyodide's
 * own requests for them are then answered from its cache (no second download).
 */
async function prefetchRuntime({ controlled, runtimeBytes }) {
  if (!controlled || !self.caches) return;
  const sizes = runtimeBytes || {};
  const files = ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide.asm.mjs"];
  const missing = [];
  for (const f of files) {
    if (!(await caches.match(url(`${PYODIDE}${f}`)))) missing.push(f);
  }
  if (!missing.length) return;
  const total = missing.reduce((a, f) => a + (sizes[f] || 0), 0);
  let loaded = 0;
  let last = 0;
  for (const f of missing) {
    const resp = await fetch(url(`${PYODIDE}${f}`));
    if (!resp.ok || !resp.body) continue; // Pyodide will report the failure itself
    const reader = resp.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      loaded += value.length;
      const t = performance.now();
      if (t - last > 100) {
        last = t;
        post(message.loading(Stage.RUNTIME, LoadState.PROGRESS, "Python runtime", { bytes: total, loaded }));
      }
    }
  }
}

/**
 * Start Pyodide; returns {pyodide, interrupt} where interrupt is the Int32Array
 * interrupt buffer when the page is cross-origin isolated, else null.
 * opts: the INIT message ({controlled, runtimeBytes}).
 */
export async function loadRuntime(opts) {
  const t0 = now();
  post(message.loading(Stage.RUNTIME, LoadState.START, "Python runtime (Pyodide)"));
  try {
    await prefetchRuntime(opts);
  } catch (e) {
    console.warn("prefetch", e);
  }
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
  try {
    pyodide = await loadPyodide({
      indexURL: url(PYODIDE),
      stdout: (s) => console.log("[py]", s),
      stderr: (s) => console.warn("[py]", s),
    });
  } catch (e) {
    const msg = String(e && e.message ? e.message : e);
    if (/memory/i.test(msg)) throw new LoadError(ErrorType.LOAD, `Out of memory while starting Python: ${msg}`);
    throw new LoadError(ErrorType.LOAD, `Python runtime: failed to start (${msg})`);
  }
  let interrupt = null;
  if (self.crossOriginIsolated && typeof SharedArrayBuffer === "function") {
    interrupt = new Int32Array(new SharedArrayBuffer(4));
    pyodide.setInterruptBuffer(interrupt);
  }
  post(message.loading(Stage.RUNTIME, LoadState.DONE, `Pyodide ${pyodide.version}`, { seconds: now() - t0 }));
  return { pyodide, interrupt };
}

/** Install the fifteen wheel (listed in ../wheels/manifest.json); returns the fifteen.api module. */
export async function loadSolver(pyodide) {
  const t0 = now();
  post(message.loading(Stage.SOLVER, LoadState.START, "solver package"));
  const manifest = await (await fetchOk("../wheels/manifest.json", "wheel list")).json();
  let api;
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
    throw new LoadError(ErrorType.LOAD, `Solver package: could not be installed (${firstLine(e)})`);
  }
  const version = manifest.fifteen.split("-")[1] || "";
  post(message.loading(Stage.SOLVER, LoadState.DONE, `fifteen ${version}`.trim(), { seconds: now() - t0 }));
  return api;
}
