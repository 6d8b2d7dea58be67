// A pool of solver workers with SolverClient's surface (start, call, solve,
// loadPack, cancel, skip, interrupt, readyPromise, info, packs), so main.js
// drives one worker or many the same way.
//
// Worker 1 (the "primary") is the page's solver as before: it starts first, its
// loading and errors are the page's, every call but a parallel solve goes to it,
// and with no other worker ready a solve is today's serial path, unchanged.
// Workers 2..N (the "helpers") start one after the other in the background once
// the primary is ready and has done its background work (never delaying the first
// answer; by then the databases deferred to after READY are in the offline cache and the
// memory snapshot is kept, which the helpers resume), each its own Pyodide with the
// shape's databases (and the packs kept in Cache Storage).
//
// An anytime solve with helpers is solver/anytime-solve.js's: a prover and improvers.
// An optimal solve with helpers ready is fifteen.parallel.scheduler's search (py/fifteen/parallel/page_pool.py):
// the scheduler runs in the primary (PARALLEL_BEGIN / STEP: a coordinating worker
// of its own would cost one more runtime and one more copy of the databases, up
// to ~290 MB with the pack, for calls of a few milliseconds; they run only when
// every task of an iteration is done, so they never wait behind a search); this
// module hands the iteration's task bundles, largest first, to whichever worker
// is free (the primary included), sums the live node counts of every worker for
// the progress, stops the others as soon as a task finds a solution (a CANCEL
// each hears within a time slice of its call: solver/client.js), asks the
// worker that found it for the result (PARALLEL_RESULT, which replays it), and
// puts the bundle of a helper that dies back in the queue.  Only a task that ran
// to its end counts, so no partial answer is ever reported as optimal.

import { goalTiles, parseShape } from "../model/board.js";
import { ErrorType, LoadState, Method, Stage } from "./protocol.js";
import { SolverClient, SolverError } from "./client.js";
import { AnytimeSolve } from "./anytime-solve.js";
import { PoolSolve } from "./pool-solve.js";
import { DEFAULT_MEMORY_SHARE, MENU_MEMORY_SHARE, WORKER_BASE_BYTES, poolMemoryLimit } from "./memory.js";

/** At most this many workers, whatever the machine says. */
export const MAX_WORKERS = 16;
/** A dead helper is restarted at most this many times per page. */
const MAX_RESTARTS = 3;
/** A bundle whose worker died this many times fails the solve (out of memory?). */
const MAX_DEATHS = 3;

/**
 * The pool sizes the machine allows, with workers of `workerBytes` each (solver/memory.js):
 * `max` (the Workers menu) = its cores (two on one core: slower, not wrong), at most MAX_WORKERS
 * and as many as MENU_MEMORY_SHARE of the device's memory holds; `suggested` (the default) = one core left for the page, as many as
 * DEFAULT_MEMORY_SHARE holds (navigator.deviceMemory, in GB; ASSUMED_DEVICE_GB when the browser
 * does not tell it).  On 8 cores and 4 GB: 3 workers by default, 7 at most.
 */
export function poolLimits({ hardwareConcurrency, deviceMemory } = {}, workerBytes = WORKER_BASE_BYTES) {
  const cores = Math.max(1, Math.floor(Number(hardwareConcurrency) || 1));
  const max = Math.min(MAX_WORKERS, Math.max(2, cores), poolMemoryLimit(deviceMemory, workerBytes, MENU_MEMORY_SHARE));
  const suggested = Math.min(max, Math.max(1, cores - 1), poolMemoryLimit(deviceMemory, workerBytes, DEFAULT_MEMORY_SHARE));
  return { max, suggested };
}

const cancelled = () => new SolverError(ErrorType.CANCELLED, "Cancelled.");

export class SolverPool {
  /**
   * handlers: SolverClient's (for the primary) plus pool(status) on any change of
   * the helpers (status = {size, ready, starting}); createClient(handlers) makes a
   * SolverClient (tests pass one with a fake worker); size: workers wanted;
   * helperDelay: ms after the primary's READY before the first helper starts.
   */
  constructor(handlers, { createClient = (h) => new SolverClient(h), size = 1, helperDelay = 1000 } = {}) {
    this.handlers = handlers;
    this.createClient = createClient;
    this.size = Math.max(1, size);
    this.helperDelay = helperDelay;
    this.silent = false; // the primary restarts after the pool's own stop of it: the page is not told
    this.workersStarted = 0; // Workers made, the first ones and every restart (for automation: fifteenPool)
    this.backgroundShape = null; // the page asked for the workers' background work (background())
    this.settled = false; // the primary's background work was done once: helpers may start
    /** Resolves once the primary's background work is done (the worker idle: a quiet time to measure the cores). */
    this.settledOnce = new Promise((resolve) => (this.resolveSettled = resolve));
    this.primary = createClient({
      ...handlers,
      started: (count) => {
        this.workersStarted++;
        handlers.started?.(count); // (worker 1's starts: html[data-solver-starts])
      },
      loading: (msg) => {
        if (msg.stage === Stage.BACKGROUND && msg.state === LoadState.DONE) {
          this.settled = true;
          this.resolveSettled();
          this.scheduleHelpers();
        }
        if (!this.silent || msg.later) handlers.loading?.(msg);
      },
      restart: ({ silent = false } = {}) => {
        if (silent) this.silent = true;
        if (!this.silent) handlers.restart?.();
      },
      ready: (msg) => {
        if (!this.silent) handlers.ready?.(msg);
        this.silent = false;
        if (this.backgroundShape) this.primary.background(this.backgroundShape);
        this.scheduleHelpers();
      },
      fatal: (err) => {
        this.silent = false;
        this.current?.fail(err);
        handlers.fatal?.(err);
      },
    });
    this.helpers = []; // {client, restarts, dead}
    this.current = null; // the solve on the pool in progress (a ParallelSolve or an AnytimeSolve)
    this.helperTimer = 0;
    this.shape = "4x4";
    this.starting = false;
  }

  // ---------------------------------------------------------------- SolverClient's surface
  get ready() {
    return this.primary.ready;
  }
  get readyPromise() {
    return this.primary.readyPromise;
  }
  get interrupt() {
    return this.primary.interrupt;
  }
  get info() {
    return this.primary.info;
  }
  get packs() {
    return this.primary.packs;
  }
  get skip() {
    return this.primary.skip;
  }
  set skip(files) {
    this.primary.skip = files;
    for (const h of this.helpers) h.client.skip = files;
  }
  get runtimeBytes() {
    return this.primary.runtimeBytes;
  }
  set runtimeBytes(sizes) {
    this.primary.runtimeBytes = sizes;
    for (const h of this.helpers) h.client.runtimeBytes = sizes;
  }

  /** Start (or restart) the primary; helpers follow once it is ready. */
  start(shape = this.shape) {
    this.shape = shape;
    this.stopHelpers();
    return this.primary.start(shape);
  }

  call(method, params = {}, onProgress) {
    return this.primary.call(method, params, onProgress);
  }

  /**
   * The page is ready: every worker does its background work for `shape` (protocol.js
   * BACKGROUND), the primary now, the helpers (and a restarted primary) once ready.
   */
  background(shape = this.shape) {
    this.backgroundShape = shape;
    this.primary.background(shape);
  }

  /** Load a pack in the primary (downloaded), then in the ready helpers (from the kept copy). */
  async loadPack(file, onProgress) {
    const result = await this.primary.loadPack(file, onProgress);
    for (const h of this.readyHelpers()) {
      h.client.loadPack(file, () => {}).catch((e) => console.warn(`worker: pack ${file}`, e.message));
    }
    return result;
  }

  /** The helpers' state, for the page. */
  status() {
    const alive = this.helpers.filter((h) => !h.dead);
    return { size: this.size, ready: 1 + alive.filter((h) => h.client.ready).length, starting: alive.filter((h) => !h.client.ready).length };
  }

  /** Workers wanted (1..MAX_WORKERS): helpers are started or stopped to match. */
  setSize(n) {
    this.size = Math.max(1, Math.min(MAX_WORKERS, Math.floor(n) || 1));
    while (this.helpers.length > this.size - 1) {
      const h = this.helpers.pop();
      h.dead = true;
      h.client.stop();
    }
    this.notify();
    this.scheduleHelpers(0);
  }

  notify() {
    this.handlers.pool?.(this.status());
  }

  readyHelpers() {
    return this.helpers.filter((h) => !h.dead && h.client.ready);
  }

  stopHelpers() {
    clearTimeout(this.helperTimer);
    for (const h of this.helpers) {
      h.dead = true;
      h.client.stop();
    }
    this.helpers = [];
    this.starting = false;
    this.notify();
  }

  /** Start the missing helpers, one after the other, once the primary is ready and settled. */
  scheduleHelpers(delay = this.helperDelay) {
    clearTimeout(this.helperTimer);
    if (!this.primary.ready || !this.settled || this.starting) return;
    if (this.helpers.filter((h) => !h.dead).length >= this.size - 1) return;
    this.helperTimer = setTimeout(() => this.startHelper(), delay);
  }

  startHelper() {
    if (!this.primary.ready || this.helpers.length >= this.size - 1) return;
    const entry = { client: null, restarts: 0, dead: false };
    const started = () => {
      this.starting = false;
      this.notify();
      this.scheduleHelpers(0);
    };
    entry.client = this.createClient({
      started: () => this.workersStarted++,
      ready: () => {
        if (this.backgroundShape) entry.client.background(this.backgroundShape);
        // Warm the shape's tables up (a one-move search), as the page does for the primary.
        const dims = parseShape(this.shape);
        if (dims) {
          const t = goalTiles(dims.rows, dims.cols);
          [t[t.length - 1], t[t.length - 2]] = [t[t.length - 2], 0];
          entry.client.call(Method.SOLVE, { text: t.join(" "), shape: this.shape, bound: "auto" }).catch(() => {});
        }
        started();
        this.current?.adopt();
      },
      fatal: (err) => {
        if (entry.dead) return;
        console.warn(`solver worker ${this.helpers.indexOf(entry) + 2}: ${err.message}`);
        if (this.starting && !entry.client.ready) this.starting = false;
        entry.dead = true;
        this.helpers = this.helpers.filter((h) => h !== entry);
        this.restarts = (this.restarts || 0) + 1;
        this.notify();
        if (this.restarts <= MAX_RESTARTS * MAX_WORKERS) this.scheduleHelpers(this.helperDelay * 2);
      },
      restart: () => setTimeout(() => this.notify(), 0), // after the client's start() cleared `ready`
    });
    entry.client.skip = this.primary.skip;
    entry.client.runtimeBytes = this.primary.runtimeBytes;
    this.helpers.push(entry);
    this.starting = true;
    this.notify();
    entry.client.start(this.shape);
  }

  /**
   * Solve params = {text, shape, bound, goal?, anytime?, time_limit?}; onProgress(progress) with
   * `workers` when parallel.  An anytime solve with helpers (ready, or starting) is an AnytimeSolve
   * (solver/anytime-solve.js: a prover and improvers), starting from `proven`, a lower bound
   * proven before; alone, the primary's serial anytime search.
   */
  async solve(params, onProgress, { proven = 0 } = {}) {
    if (!this.primary.ready && this.primary.worker) {
      // restarting in the background (stopped after the last solution): wait for it
      await this.primary.readyPromise.catch(() => {});
    }
    const helpers = this.readyHelpers();
    const clients = [this.primary, ...helpers.map((h) => h.client)];
    let solving;
    if (params.anytime) {
      if (!this.primary.ready || !(helpers.length || this.status().starting)) return this.primary.solve(params, onProgress);
      solving = new AnytimeSolve(this, params, onProgress, clients, { proven });
    } else {
      if (!helpers.length || !this.primary.ready) return this.primary.solve(params, onProgress);
      solving = new ParallelSolve(this, params, onProgress, clients);
    }
    this.shape = params.shape || this.shape;
    this.current = solving;
    return solving.run().finally(() => {
      if (this.current === solving) this.current = null;
    });
  }

  /** Cancel whatever runs (every worker); resolves when the primary is usable again. */
  cancel(opts) {
    const solving = this.current;
    if (solving) {
      solving.fail(cancelled());
      for (const c of solving.busyHelpers()) c.cancel();
    }
    return this.primary.cancel(opts);
  }

  /**
   * Stop the call a worker runs (a solution was found elsewhere, the answer is proven): a CANCEL
   * it hears within a slice; a worker that does not answer is restarted in the background (the
   * primary's restart is not shown to the page).
   */
  stopWorker(client) {
    return client.cancel({ silent: true });
  }
}

/** One parallel solve: the loop of iterations, dispatch, progress, deaths, the result. */
class ParallelSolve extends PoolSolve {
  constructor(pool, params, onProgress, clients) {
    super(pool, onProgress, clients);
    const { text, tiles, shape, bound, goal } = params; // the position (its checked tiles, or a text), its shape, bound and goal
    this.params = Object.fromEntries(Object.entries({ text, tiles, shape, bound, goal }).filter(([, v]) => v !== undefined && v !== null));
    this.live = clients.map(() => 0); // nodes of each worker's running bundle
    this.lastReport = 0;
  }

  fail(err) {
    if (!this.end()) return;
    this.reject(err);
    this.pool.primary.call(Method.PARALLEL_DROP, { search: this.work?.search || 0 }).catch(() => {});
  }

  async run() {
    this.iterate(this.clients[0].call(Method.PARALLEL_BEGIN, { ...this.params, workers: this.clients.length }));
    return this.promise;
  }

  joined() {
    this.live.push(0);
  }

  /** Take the scheduler's reply (a promise of the next iteration's work) and run it. */
  iterate(workPromise) {
    this.waiting = true;
    workPromise.then(
      (work) => {
        this.waiting = false;
        if (this.done) return;
        this.work = work;
        if (work.bound_name) this.boundName = work.bound_name;
        if (work.setup_seconds !== undefined) this.setupSeconds = work.setup_seconds;
        if (work.solved_path) {
          this.result(0, work.solved_path, work.iterations);
          return;
        }
        this.queue = work.bundles.map((tasks) => ({ tasks, deaths: 0 }));
        this.outcomes = [];
        this.iterationNodes = work.split_nodes;
        this.report(true);
        this.pump();
      },
      (err) => this.fail(err),
    );
  }

  /** Hand bundles to free, live workers. */
  pump() {
    if (this.done || this.waiting) return;
    for (let i = 0; i < this.clients.length && this.queue.length; i++) {
      const c = this.clients[i];
      if (this.running.has(i) || !c.worker || (i > 0 && !c.ready) || this.dead?.has(i)) continue;
      this.dispatch(i, this.queue.shift());
    }
    if (!this.queue.length && !this.running.size) {
      const outcomes = this.outcomes;
      this.outcomes = [];
      this.iterate(this.clients[0].call(Method.PARALLEL_STEP, { search: this.work.search, outcomes }));
    }
  }

  dispatch(i, bundle) {
    const client = this.clients[i];
    this.running.set(i, bundle);
    this.live[i] = 0;
    const onProgress = (p) => {
      this.live[i] = p.nodes || 0;
      this.report(false);
    };
    client.call(Method.PARALLEL_TASKS, { shape: this.params.shape, tasks: bundle.tasks }, onProgress).then(
      (r) => {
        this.running.delete(i);
        this.live[i] = 0;
        if (this.done) return;
        let found = null;
        for (const o of r.outcomes) {
          this.workerNodes[i] += o.nodes;
          this.iterationNodes += o.nodes;
          if (o.path && !o.stopped) {
            const task = bundle.tasks.find((t) => t.id === o.id);
            found = [...task.path, ...o.path];
            break;
          }
          this.outcomes.push({ id: o.id, path: null, nodes: o.nodes });
        }
        if (found) {
          this.solvedBy(i, found);
          return;
        }
        this.pump();
      },
      (err) => {
        this.running.delete(i);
        this.live[i] = 0;
        if (this.done || this.stopping.has(client)) return;
        if (i === 0 || err.type === ErrorType.CANCELLED) {
          this.fail(err); // the primary (the scheduler) died, or a cancel
          return;
        }
        // A helper died: its bundle goes back to the queue for the others.
        console.warn(`solver worker ${i + 1} died (${err.message}); its tasks are searched again by another worker`);
        (this.dead ||= new Set()).add(i);
        bundle.deaths += 1;
        if (bundle.deaths >= MAX_DEATHS) {
          this.fail(new SolverError(ErrorType.LOAD, `${bundle.deaths} workers died on the same subtrees (out of memory?): no answer`));
          return;
        }
        this.queue.unshift(bundle);
        this.pump();
      },
    );
  }

  /** Worker i's task found a solution at the current bound: stop the others, build the result. */
  solvedBy(i, path) {
    for (const j of [...this.running.keys()]) if (j !== i) this.stop(j);
    const its = [...this.work.iterations, { bound: this.work.bound, nodes: this.iterationNodes, seconds: 0 }];
    const finished = this.work.iterations.reduce((a, it) => a + it.seconds, 0);
    its[its.length - 1].seconds = Math.max(0, this.seconds() - finished);
    this.result(i, path, its);
    this.pool.primary.call(Method.PARALLEL_DROP, { search: this.work.search }).catch(() => {});
  }

  result(i, path, iterations) {
    const client = this.clients[i];
    const params = {
      ...this.params,
      bound: this.boundName || this.params.bound,
      path,
      iterations,
      h0: this.work.h0,
      seconds: this.seconds(),
      setup_seconds: this.setupSeconds || 0,
      workers: this.clients.length,
      worker_nodes: this.workerNodes,
    };
    client.call(Method.PARALLEL_RESULT, params).then(
      (r) => this.finish(r),
      (err) => this.fail(err),
    );
  }

  /** The page's progress: the scheduler's iterations plus every worker's live nodes. */
  report(force) {
    const t = performance.now();
    if (!force && t - this.lastReport < 250) return;
    this.lastReport = t;
    const work = this.work;
    const finished = work.iterations.reduce((a, it) => a + it.nodes, 0);
    const liveSum = this.live.reduce((a, n) => a + n, 0);
    const iterationNodes = this.iterationNodes + liveSum;
    const workers = this.clients.map((_, i) => ({ nodes: this.workerNodes[i] + this.live[i], busy: this.running.has(i) }));
    this.onProgress({
      bound: work.bound,
      nodes: finished + iterationNodes,
      iteration_nodes: iterationNodes,
      seconds: this.seconds(),
      done: false,
      iterations: work.iterations,
      estimate: work.estimate ?? null, // the solver's (fifteen.search.estimate), in nodes: the page divides by its rate
      workers,
    });
  }
}
