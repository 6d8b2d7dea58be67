// The page's side of the worker protocol (see the top of worker.js).
//
// SolverClient owns the Web Worker: it starts it, turns requests into promises,
// forwards loading/progress events, and cancels a solve — through the interrupt
// buffer when the page is cross-origin isolated, otherwise by terminating the
// worker and starting a fresh one (Python cannot be stopped from outside).

export class SolverError extends Error {
  constructor(type, message, file) {
    super(message);
    this.type = type;
    this.file = file; // the damaged database, for "asset" errors
  }
}

export class SolverClient {
  /**
   * handlers: {loading(msg), warning(msg), ready(msg), fatal(error), restart()}
   */
  constructor(handlers) {
    this.handlers = handlers;
    this.worker = null;
    this.pending = new Map();
    this.nextId = 1;
    this.ready = false;
    this.interrupt = null;
    this.info = null;
    this.shape = "4x4";
    this.readyPromise = null;
    this.skip = []; // damaged databases to go on without
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
    let worker;
    try {
      worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    } catch (e) {
      const err = new SolverError("load", `This browser cannot start a module worker (${e.message}). Try a current Chrome, Firefox or Safari.`);
      rejectReady(err);
      this.handlers.fatal?.(err);
      return this.readyPromise;
    }
    this.worker = worker;
    worker.onmessage = (event) => {
      if (this.worker !== worker) return; // a terminated worker's last words
      const msg = event.data;
      switch (msg.type) {
        case "loading":
          this.handlers.loading?.(msg);
          break;
        case "warning":
          this.handlers.warning?.(msg);
          break;
        case "ready":
          this.ready = true;
          this.info = msg.info;
          this.packs = msg.packs || [];
          this.interrupt = msg.interrupt ? new Int32Array(msg.interrupt) : null;
          this.handlers.ready?.(msg);
          resolveReady(msg);
          break;
        case "progress": {
          const p = this.pending.get(msg.id);
          p?.onProgress?.(msg.progress);
          break;
        }
        case "result": {
          const p = this.pending.get(msg.id);
          this.pending.delete(msg.id);
          p?.resolve(msg.result);
          break;
        }
        case "error": {
          const err = new SolverError(msg.error?.type || "internal", msg.error?.message || "Unknown error", msg.error?.file);
          if (msg.fatal || msg.id === null || msg.id === undefined) {
            this.failAll(err);
            rejectReady(err);
            this.handlers.fatal?.(err);
          } else {
            const p = this.pending.get(msg.id);
            this.pending.delete(msg.id);
            p?.reject(err);
          }
          break;
        }
        default:
          break;
      }
    };
    worker.onerror = (event) => {
      if (this.worker !== worker) return;
      event.preventDefault?.();
      const text = event.message || "the worker stopped";
      const err = new SolverError(
        "load",
        /memory/i.test(text) ? `Out of memory: ${text}` : `The solver worker failed: ${text}`,
      );
      this.failAll(err);
      rejectReady(err);
      this.handlers.fatal?.(err);
    };
    worker.postMessage({
      type: "init",
      shape,
      skip: this.skip,
      controlled: !!navigator.serviceWorker?.controller,
      runtimeBytes: this.runtimeBytes || {},
    });
    return this.readyPromise;
  }

  stop() {
    if (this.worker) {
      this.worker.terminate();
      this.worker = null;
    }
    this.ready = false;
    this.failAll(new SolverError("cancelled", "Cancelled."));
  }

  failAll(err) {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(err);
  }

  send(type, body, onProgress) {
    if (!this.worker) return Promise.reject(new SolverError("internal", "The solver is not running."));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.worker.postMessage({ type, id, ...body });
    });
  }

  call(method, params = {}) {
    return this.send("call", { method, params });
  }

  solve(params, onProgress) {
    return this.send("solve", { params }, onProgress);
  }

  /** Download and load an optional pack; onProgress({file, loaded, bytes}). */
  async loadPack(file, onProgress) {
    const result = await this.send("loadPack", { file }, onProgress);
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
      Atomics.store(this.interrupt, 0, 2);
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
