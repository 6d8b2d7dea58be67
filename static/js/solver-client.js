// The page's side of the worker protocol (protocol.js).
//
// SolverClient owns one solver Web Worker: it starts it, turns requests into
// promises, forwards loading/progress events, and cancels a solve — through
// the interrupt buffer when the page is cross-origin isolated, otherwise by
// terminating the worker and starting a fresh one (Python cannot be stopped
// from outside).
//
// The controller (main.js) uses only this class's public surface: start(),
// call(), solve(), loadPack(), cancel(), skip, interrupt, readyPromise and the
// handlers; a pool of several workers can offer the same surface.

import { ErrorType, FromWorker, SIGINT, message } from "./protocol.js";

export class SolverError extends Error {
  constructor(type, text, file) {
    super(text);
    this.type = type;
    this.file = file; // the damaged database, for ASSET errors
  }
}

const errorOf = (wire) => new SolverError(wire?.type || ErrorType.INTERNAL, wire?.message || "Unknown error", wire?.file);

/** The solver worker (a module worker next to this file). */
const moduleWorker = () => new Worker(new URL("./worker.js", import.meta.url), { type: "module" });

export class SolverClient {
  /**
   * handlers: {loading(msg), warning(msg), ready(msg), fatal(error), restart()};
   * createWorker: makes the Worker (tests pass a fake one).
   */
  constructor(handlers, { createWorker = moduleWorker } = {}) {
    this.handlers = handlers;
    this.createWorker = createWorker;
    this.worker = null;
    this.pending = new Map(); // id -> {resolve, reject, onProgress}
    this.nextId = 1;
    this.ready = false;
    this.interrupt = null;
    this.info = null;
    this.packs = [];
    this.shape = "4x4";
    this.readyPromise = null;
    this.skip = []; // damaged databases to go on without
    this.runtimeBytes = {}; // {file: size} of the Pyodide files, for download progress
  }

  /** Start (or restart) the worker; resolves when it is ready. */
  start(shape = this.shape) {
    this.shape = shape;
    this.stop();
    this.ready = false;
    let resolveReady;
    let rejectReady;
    this.readyPromise = new Promise((res, rej) => {
      resolveReady = res;
      rejectReady = rej;
    });
    this.readyPromise.catch(() => {});
    const fail = (err) => {
      this.failAll(err);
      rejectReady(err);
      this.handlers.fatal?.(err);
    };
    let worker;
    try {
      worker = this.createWorker();
    } catch (e) {
      const err = new SolverError(ErrorType.LOAD, `This browser cannot start a module worker (${e.message}). Try a current Chrome, Firefox or Safari.`);
      rejectReady(err);
      this.handlers.fatal?.(err);
      return this.readyPromise;
    }
    this.worker = worker;
    const onMessage = {
      [FromWorker.LOADING]: (msg) => this.handlers.loading?.(msg),
      [FromWorker.WARNING]: (msg) => this.handlers.warning?.(msg),
      [FromWorker.READY]: (msg) => {
        this.ready = true;
        this.info = msg.info;
        this.packs = msg.packs || [];
        this.interrupt = msg.interrupt ? new Int32Array(msg.interrupt) : null;
        this.handlers.ready?.(msg);
        resolveReady(msg);
      },
      [FromWorker.PROGRESS]: (msg) => this.pending.get(msg.id)?.onProgress?.(msg.progress),
      [FromWorker.RESULT]: (msg) => this.settle(msg.id)?.resolve(msg.result),
      [FromWorker.ERROR]: (msg) => {
        const err = errorOf(msg.error);
        if (msg.fatal || msg.id === null || msg.id === undefined) fail(err);
        else this.settle(msg.id)?.reject(err);
      },
    };
    worker.onmessage = (event) => {
      if (this.worker !== worker) return; // a terminated worker's last words
      const msg = event.data;
      onMessage[msg?.type]?.(msg);
    };
    worker.onerror = (event) => {
      if (this.worker !== worker) return;
      event.preventDefault?.();
      const text = event.message || "the worker stopped";
      fail(new SolverError(ErrorType.LOAD, /memory/i.test(text) ? `Out of memory: ${text}` : `The solver worker failed: ${text}`));
    };
    worker.postMessage(
      message.init({
        shape,
        skip: this.skip,
        controlled: !!globalThis.navigator?.serviceWorker?.controller,
        runtimeBytes: this.runtimeBytes,
      }),
    );
    return this.readyPromise;
  }

  /** Terminate the worker; pending requests fail as cancelled. */
  stop() {
    if (this.worker) {
      this.worker.terminate();
      this.worker = null;
    }
    this.ready = false;
    this.failAll(new SolverError(ErrorType.CANCELLED, "Cancelled."));
  }

  failAll(err) {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(err);
  }

  /** Forget the request `id` and return its handlers. */
  settle(id) {
    const p = this.pending.get(id);
    this.pending.delete(id);
    return p;
  }

  /** Send the request that build(id) makes; resolves with its RESULT. */
  request(build, onProgress) {
    if (!this.worker) return Promise.reject(new SolverError(ErrorType.INTERNAL, "The solver is not running."));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.worker.postMessage(build(id));
    });
  }

  /** fifteen.api.call(method, params) (a protocol Method); onProgress(progress) for methods that report it (COMPARE). */
  call(method, params = {}, onProgress = undefined) {
    return this.request((id) => message.call(id, method, params, { progress: !!onProgress }), onProgress);
  }

  /** Solve params = {text, shape, bound}; onProgress(progress) during the search. */
  solve(params, onProgress) {
    return this.request((id) => message.solve(id, params), onProgress);
  }

  /** Download and load an optional pack; onProgress({file, phase, loaded, bytes}). */
  async loadPack(file, onProgress) {
    const result = await this.request((id) => message.loadPack(id, file), onProgress);
    if (result && result.info) this.info = result.info;
    return result;
  }

  /**
   * Cancel whatever runs.  With an interrupt buffer, Python raises
   * KeyboardInterrupt and the worker survives; otherwise terminate and restart.
   * Returns a promise that resolves when the solver is usable again.
   */
  cancel({ hard = !this.interrupt } = {}) {
    if (!hard && this.interrupt) {
      // Python checks the buffer between bytecodes; if it does not stop within
      // a moment (stuck outside Python), fall back to a restart.
      Atomics.store(this.interrupt, 0, SIGINT);
      const worker = this.worker;
      return new Promise((resolve) => {
        const check = setInterval(() => {
          if (this.worker !== worker) return resolve(clearInterval(check));
          if (this.pending.size === 0) {
            clearInterval(check);
            clearTimeout(timer);
            resolve();
          }
        }, 50);
        const timer = setTimeout(() => {
          clearInterval(check);
          if (this.worker === worker && this.pending.size) {
            this.handlers.restart?.();
            resolve(this.start(this.shape));
          } else resolve();
        }, 3000);
      });
    }
    this.handlers.restart?.();
    return this.start(this.shape);
  }
}
