// The page's side of the worker protocol (solver/protocol.js).
//
// SolverClient owns one solver Web Worker: it starts it, turns requests into
// promises, forwards loading/progress events, and cancels a request: a CANCEL
// message, which the worker hears between two time slices of its call (every
// engine, every visit: no shared memory needed), plus the interrupt buffer when
// the page is cross-origin isolated; a worker that does not answer is restarted.
//
// The controller (main.js) uses only this class's public surface: start(),
// call(), solve(), loadPack(), cancel(), skip, interrupt, readyPromise and the
// handlers; a pool of several workers can offer the same surface.

import { ErrorType, FromWorker, Method, SIGINT, Stage, message } from "./protocol.js";
import { newSolverWorker, pageControlled, takeStartedWorker } from "./start.js";

export class SolverError extends Error {
  constructor(type, text, file, code) {
    super(text);
    this.type = type;
    this.file = file; // the damaged database, for ASSET errors
    this.code = code; // fifteen.api's stable code, when it gives one (protocol.js ErrorCode)
  }
}

const errorOf = (wire) => new SolverError(wire?.type || ErrorType.INTERNAL, wire?.message || "Unknown error", wire?.file, wire?.code);

/**
 * Start-up watchdogs: each phase (the runtime, the solver package, each database, a
 * pack's download and decoding) must report within a base time plus its bytes at a
 * slow link's rate; any LOADING (or pack PROGRESS) message re-arms the timer.  On
 * expiry the worker is terminated and the page gets a fatal error (the pack: an
 * ordinary one) saying which phase stalled, instead of "Loading..." for ever.
 */
export const WATCHDOG = Object.freeze({ baseSeconds: 30, bytesPerSecond: 50 * 1024 });

/** Milliseconds allowed for a phase of `bytes`. */
export const phaseTimeout = (bytes) => Math.round((WATCHDOG.baseSeconds + (bytes || 0) / WATCHDOG.bytesPerSecond) * 1000);

const PHASE_TEXT = {
  [Stage.RUNTIME]: () =>
    "The Python runtime did not start in time: its files (pyodide.asm.wasm, python_stdlib.zip) may be damaged or missing, or the connection stalled.",
  [Stage.SOLVER]: () => "The solver package did not install in time (static/wheels): the connection may have stalled.",
  [Stage.DATABASES]: (label) => `The database ${label} did not load in time: the connection may have stalled.`,
};

/** Milliseconds before a worker that stopped while starting is started again (once). */
export const RETRY_DELAY_MS = 1000;

/**
 * The message of a worker's error event: the browser's text when it gives one (a lack of memory
 * said so), else what is known: whether it had started (READY) and whether it was started again.
 */
export function workerFailure(text, { started = false, retried = false } = {}) {
  if (text) return /memory/i.test(text) ? `Out of memory: ${text}` : `The solver worker failed: ${text}`;
  const when = started ? "stopped while working" : `could not start${retried ? ", twice (it was started again once)" : ""}`;
  return `The solver worker ${when}, and the browser gave no reason (often a lack of memory, or a script of the site that could not be loaded). Reload the page, or close other tabs and retry.`;
}
/**
 * A worker that has not ended a cancelled request within this many ms (it answers within a
 * slice, tens of ms) is taken for crashed or stuck, and restarted.
 */
export const CANCEL_WAIT_MS = 3000;

/**
 * Where the page is cross-origin isolated, a cancelled request that has not ended after this many
 * ms (a step that is not sliced) is interrupted through the interrupt buffer (SIGINT).
 */
export const INTERRUPT_AFTER_MS = 250;

/** The solver worker: the one started as the page opened (solver/start.js), else a new one. */
const moduleWorker = () => takeStartedWorker()?.worker || newSolverWorker();

export class SolverClient {
  /**
   * handlers: {loading(msg), warning(msg), ready(msg), fatal(error), restart({silent}), heap(bytes),
   * started(count)} (heap: the worker's wasm memory as it reports it, at READY and after a pack's
   * load; started: a Worker was made, the first or a new one, with the count of them so far);
   * createWorker: makes the Worker (tests pass a fake one); cancelWait, interruptAfter:
   * CANCEL_WAIT_MS and INTERRUPT_AFTER_MS (tests: less).
   */
  constructor(handlers, { createWorker = moduleWorker, cancelWait = CANCEL_WAIT_MS, interruptAfter = INTERRUPT_AFTER_MS } = {}) {
    this.handlers = handlers;
    this.createWorker = createWorker;
    this.cancelWait = cancelWait; // ms a cancelled request may take to end before the worker is restarted
    this.interruptAfter = interruptAfter; // ms before a cancelled request is interrupted (isolated pages)
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
    this.failWorker = null; // the current worker's failure path (kill())
    this.watchdog = 0; // the start-up watchdog's timer
    this.starts = 0; // workers started so far (a Stop without the interrupt buffer is one more)
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
      clearTimeout(this.watchdog);
      this.failAll(err);
      rejectReady(err);
      this.handlers.fatal?.(err);
    };
    this.failWorker = fail;
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
    this.starts += 1;
    this.handlers.started?.(this.starts);
    let retried = false; // a worker that stopped before READY is started again, once (onerror)
    // The runtime's files' sizes (build-info.json): all of them until the worker names those it downloads.
    const runtimeBytes = (files = Object.keys(this.runtimeBytes || {})) => files.reduce((a, f) => a + (Number(this.runtimeBytes?.[f]) || 0), 0);
    const watch = (stage, label, bytes) => {
      clearTimeout(this.watchdog);
      const ms = phaseTimeout(bytes);
      this.watchdog = setTimeout(() => {
        if (this.worker !== worker || this.ready) return;
        worker.terminate();
        this.worker = null;
        fail(new SolverError(ErrorType.LOAD, `${PHASE_TEXT[stage](label)} (no progress for ${Math.round(ms / 1000)} s)`));
      }, ms);
      this.watchdog.unref?.(); // (Node, in the tests: a pending watchdog does not keep the process alive)
    };
    watch(Stage.RUNTIME, "", runtimeBytes());
    const onMessage = {
      [FromWorker.LOADING]: (msg) => {
        if (msg.stage === Stage.RUNTIME && Array.isArray(msg.files)) {
          const { files, ...rest } = msg;
          const total = runtimeBytes(files);
          msg = total ? { ...rest, bytes: total } : rest; // the bytes of the files it downloads
        }
        const bytes = msg.stage === Stage.RUNTIME ? runtimeBytes() : msg.bytes || (msg.stage === Stage.SOLVER ? 1 << 20 : 0);
        watch(msg.stage, msg.label, bytes);
        this.handlers.loading?.(msg);
      },
      [FromWorker.WARNING]: (msg) => this.handlers.warning?.(msg),
      [FromWorker.READY]: (msg) => {
        clearTimeout(this.watchdog);
        this.ready = true;
        this.info = msg.info;
        this.packs = msg.packs || [];
        this.interrupt = msg.interrupt ? new Int32Array(msg.interrupt) : null;
        this.reportHeap(msg.heap_bytes);
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
    const attach = () => {
      const current = worker;
      current.onmessage = (event) => {
        if (this.worker !== current) return; // a terminated worker's last words
        const msg = event.data;
        onMessage[msg?.type]?.(msg);
      };
      current.onerror = (event) => {
        if (this.worker !== current) return;
        event.preventDefault?.();
        // A plain Event (no message, no file): the worker stopped with no reason given, e.g.
        // WebKit when a worker's script cannot be loaded while others start (bench/startup.md,
        // "Engines").  Before READY it is started again, once, after a moment.
        if (!event.message && !this.ready && !retried) {
          retried = true;
          current.terminate();
          this.failAll(new SolverError(ErrorType.CANCELLED, "Cancelled.")); // (requests sent before READY: none answers now)
          console.warn("The solver worker stopped while starting, with no reason given: starting it again.");
          setTimeout(() => {
            if (this.worker !== current) return; // stopped or restarted meanwhile
            try {
              worker = this.createWorker();
            } catch (e) {
              this.worker = null;
              fail(new SolverError(ErrorType.LOAD, `The solver worker could not be started again (${e.message}).`));
              return;
            }
            this.worker = worker;
            this.starts += 1;
            this.handlers.started?.(this.starts);
            watch(Stage.RUNTIME, "", runtimeBytes());
            attach();
          }, RETRY_DELAY_MS).unref?.();
          return;
        }
        fail(new SolverError(ErrorType.LOAD, workerFailure(event.message, { started: this.ready, retried })));
      };
      current.replay?.(); // what a worker started as the page opened has said so far
      current.postMessage(
        message.init({
          shape,
          skip: this.skip,
          controlled: pageControlled(),
        }),
      );
    };
    attach();
    return this.readyPromise;
  }

  /**
   * The worker died (or, in tests and automation, is made to die): terminate it and
   * fail its requests and start-up as a crashed worker does (a LOAD error, the
   * fatal handler), not as a cancel.
   */
  kill(text = "the worker was terminated") {
    if (!this.worker) return;
    this.worker.terminate();
    this.worker = null;
    this.ready = false;
    this.failWorker?.(new SolverError(ErrorType.LOAD, `The solver worker failed: ${text}`));
  }

  /** Terminate the worker; pending requests fail as cancelled. */
  stop() {
    clearTimeout(this.watchdog);
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
    for (const p of pending) {
      p.reject(err);
      for (const f of p.ended) f();
    }
  }

  /** The worker's wasm memory in bytes (READY's or a pack load's heap_bytes), when it tells it. */
  reportHeap(bytes) {
    if (Number.isFinite(bytes) && bytes > 0) this.handlers.heap?.(bytes);
  }

  /** Forget the request `id` and return its handlers (a cancel waiting for its end hears it). */
  settle(id) {
    const p = this.pending.get(id);
    this.pending.delete(id);
    if (p) for (const f of p.ended) queueMicrotask(f);
    return p;
  }

  /** Send the request that build(id) makes; resolves with its RESULT. */
  request(build, onProgress) {
    if (!this.worker) return Promise.reject(new SolverError(ErrorType.INTERNAL, "The solver is not running."));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress, ended: [] });
      this.worker.postMessage(build(id));
    });
  }

  /** fifteen.api.call(method, params) (a protocol Method); onProgress(progress) for methods that report it (COMPARE). */
  call(method, params = {}, onProgress = undefined) {
    return this.request((id) => message.call(id, method, params, { progress: !!onProgress }), onProgress);
  }

  /**
   * The page is ready: the worker may do its background work for `shape` (the databases
   * deferred to then, the warm-up, the memory snapshot; protocol.js BACKGROUND), each step
   * only while no request waits.
   */
  background(shape = this.shape) {
    this.worker?.postMessage(message.background(shape));
  }

  /** Solve params = {text|tiles, shape, goal, bound, anytime, time_limit}: a CALL of Method.SOLVE; onProgress(progress) during the search. */
  solve(params, onProgress) {
    return this.call(Method.SOLVE, params, onProgress);
  }

  /**
   * Download and load an optional pack; onProgress({file, phase, loaded, bytes}).  A
   * download or decoding that makes no progress for phaseTimeout(its bytes) fails
   * (a LOAD error) and the worker, blocked on it, is restarted.
   */
  async loadPack(file, onProgress) {
    const worker = this.worker;
    let timer = 0;
    let stalled = null;
    const arm = (bytes) => {
      clearTimeout(timer);
      const ms = phaseTimeout(bytes);
      timer = setTimeout(() => {
        if (this.worker !== worker) return;
        stalled = new SolverError(ErrorType.LOAD, `${file}: the download stalled (no progress for ${Math.round(ms / 1000)} s); try again later.`);
        this.handlers.restart?.();
        this.start(this.shape);
      }, ms);
      timer.unref?.();
    };
    arm(0);
    try {
      const result = await this.request(
        (id) => message.loadPack(id, file),
        (p) => {
          arm(p && p.bytes ? Math.max(0, p.bytes - (p.loaded || 0)) : 0);
          onProgress?.(p);
        },
      );
      if (result && result.info) this.info = result.info;
      this.reportHeap(result?.heap_bytes);
      return result;
    } catch (e) {
      throw stalled || e;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Stop what runs in the worker: a CANCEL of the request that runs (the oldest pending: the
   * worker serves them in order), which the worker hears between two slices of its call (tens
   * of milliseconds) and ends with a CANCELLED error; the worker then serves the next request,
   * no restart.  Where the page is cross-origin isolated, a request still running after
   * INTERRUPT_AFTER_MS (a step that is not sliced) gets SIGINT in the interrupt buffer.  Resolves
   * once that request has ended;
   * only a worker that does not answer within CANCEL_WAIT_MS (crashed or stuck) is restarted
   * (handlers.restart({silent}) first: `silent`, the pool's own stop of a worker, not the
   * page's), and the promise resolves once the new one is ready.  `hard`: restart at once.
   */
  cancel({ hard = false, silent = false } = {}) {
    const restart = () => {
      this.handlers.restart?.({ silent });
      return this.start(this.shape);
    };
    if (hard || !this.worker) return restart();
    const [id, entry] = this.pending.entries().next().value || [];
    if (id === undefined) return Promise.resolve();
    this.worker.postMessage(message.cancel(id));
    const worker = this.worker;
    const interrupt = this.interrupt;
    const running = () => this.worker === worker && this.pending.has(id);
    return new Promise((resolve) => {
      const sigint = interrupt ? setTimeout(() => running() && Atomics.store(interrupt, 0, SIGINT), this.interruptAfter) : 0;
      const timer = setTimeout(() => resolve(running() ? restart() : undefined), this.cancelWait);
      entry.ended.push(() => {
        clearTimeout(timer);
        clearTimeout(sigint);
        resolve();
      });
    });
  }
}
