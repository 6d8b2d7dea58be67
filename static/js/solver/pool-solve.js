// What every solve on the pool of solver workers shares (solver/pool.js's ParallelSolve,
// solver/anytime-solve.js's AnytimeSolve): its workers, its clock, the promise the page awaits and
// its settling once, the calls running on each worker, the workers stopped on purpose, and the
// helpers that join once they are ready.

export class PoolSolve {
  /** pool: the SolverPool; clients: [primary, ...ready helpers]. */
  constructor(pool, onProgress, clients) {
    this.pool = pool;
    this.onProgress = onProgress || (() => {});
    this.clients = clients;
    this.workerNodes = clients.map(() => 0);
    this.running = new Map(); // client index -> what it runs
    this.stopping = new Set(); // clients stopped on purpose: their failures are not deaths
    this.done = false;
    this.t0 = performance.now();
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  seconds() {
    return (performance.now() - this.t0) / 1000;
  }

  /** The helpers running a call of this solve (pool.cancel stops them). */
  busyHelpers() {
    return [...this.running.keys()].filter((i) => i > 0).map((i) => this.clients[i]);
  }

  /** Take on the helpers that became ready since the solve began (restarted ones), then hand out work. */
  adopt() {
    if (this.done) return;
    for (const h of this.pool.readyHelpers()) {
      if (this.clients.includes(h.client)) continue;
      this.clients.push(h.client);
      this.workerNodes.push(0);
      this.joined(this.clients.length - 1);
    }
    this.pump();
  }

  /** Worker `i` (the last client) joined: a subclass adds its own per-worker state. */
  joined() {}

  /** Hand work to the free workers (each subclass its own). */
  pump() {}

  /** Stop worker j's running call: a solution or a proof made it useless. */
  stop(j) {
    const c = this.clients[j];
    this.stopping.add(c);
    this.pool.stopWorker(c);
  }

  /** Mark the solve over (once): false when it was already. */
  end() {
    if (this.done) return false;
    this.done = true;
    this.ended();
    return true;
  }

  /** The solve is over (a subclass releases what it holds). */
  ended() {}

  finish(result) {
    if (this.end()) this.resolve(result);
  }

  fail(err) {
    if (this.end()) this.reject(err);
  }
}
