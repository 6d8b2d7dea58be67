// An anytime answer on the pool of solver workers (solver/pool.js), as `solve --anytime --jobs N`
// runs natively (py/fifteen/parallel/anytime_processes.py): one worker proves the lower bound while the
// others improve the best path; the page keeps both (model/anytime.js AnytimeTally) and ends
// the search once they meet.
//
// * Worker 1 (the primary) finds the first solution (ANYTIME_FIRST), then improves it
//   (ANYTIME_IMPROVE, beams of doubling width and window shortening, a second or so per call);
//   the first helper after the prover runs beams too: the primary's start from the position and
//   its from the target (from both ends in turn while the primary is the only improver); the
//   next NOISY_IMPROVERS run beams from both ends with every beam ranked by noisy costs, a noise
//   family each (other paths of each width); the others shorten windows, each from its own
//   offset.  Every call gets
//   the best path of the whole pool, and what an improver carries (beam width, window state)
//   comes back with its reply and goes out with its next call.
// * Worker 2 proves: one IDA* iteration per ANYTIME_PROVE call, from the bound proven before
//   (an optimal search stopped for this answer) or the root's; a refuted threshold proves
//   threshold + 2, a threshold that finds a solution ends the search with it, optimal.  When it
//   dies the next helper proves.
// * The answer is proven optimal once the lower bound reaches the best length: the prover (its
//   iteration may run for long) is stopped, the improvers' running calls end within their second,
//   and the worker whose reply ended the search builds the result (ANYTIME_RESULT, the path
//   replayed to the goal in Python).  The time limit ends every call by itself (each carries the
//   seconds left); Cancel (pool.cancel) keeps the best found through the last progress report.
//
// With helpers still starting (restarted after a cancel), the primary improves alone and each
// helper joins when it is ready (adopt()).

import { AnytimeTally, Role, WORKERS_KIND } from "../model/anytime.js";
import { ErrorType, Method } from "./protocol.js";
import { PoolSolve } from "./pool-solve.js";

/** Worker-line reports (no new solution or bound) at most this often, in ms. */
const ROLE_REPORT_MS = 250;
/** Improvers past the two beam improvers whose beams rank with noise of their own (py/fifteen/anytime/driver.py NOISY_IMPROVERS). */
export const NOISY_IMPROVERS = 2;

export class AnytimeSolve extends PoolSolve {
  /**
   * pool: the SolverPool; params: the anytime solve's ({text|tiles, shape, goal, bound,
   * time_limit}); clients: [primary, ...ready helpers]; proven: a lower bound proven before.
   */
  constructor(pool, params, onProgress, clients, { proven = 0 } = {}) {
    super(pool, onProgress, clients);
    const { text, tiles, shape, goal } = params;
    this.position = Object.fromEntries(Object.entries({ text, tiles, shape, goal }).filter(([, v]) => v !== undefined && v !== null));
    this.bound = params.bound || "auto";
    this.tally = new AnytimeTally({ proven, workers: clients.length });
    this.threshold = proven || 0; // the prover's next IDA* threshold (raised to the root's first bound by Python)
    this.deadline = params.time_limit ? this.t0 + params.time_limit * 1000 : Infinity;
    // this.running: client index -> "first" | "prove" | "improve"
    this.carried = []; // per improver: what it carries to its next call
    this.exhausted = []; // per improver: nothing left to try on the path it was handed
    this.handed = []; // per improver: the length of the path it was last handed
    this.iterations = []; // the prover's finished iterations
    this.dead = new Set();
    this.lastRoles = 0;
  }

  /** The seconds left before the time limit (Infinity without one). */
  left() {
    return (this.deadline - performance.now()) / 1000;
  }

  run() {
    this.tally.assign(0, Role.IMPROVING);
    this.call(0, "first", Method.ANYTIME_FIRST, { ...this.position, bound: this.bound }).then((r) => {
      if (!r) return;
      this.boundName = r.bound;
      this.h0 = r.lower_bound;
      this.tally.raise(r.lower_bound);
      this.tally.offer(r);
      this.progress(true);
      this.after(0); // a first solution as long as the root's bound is optimal already
    });
    this.pump(); // the prover starts at once
    // the time limit ends the calls by themselves; this ends a search left waiting (for a helper still starting)
    if (Number.isFinite(this.deadline)) {
      this.timer = setTimeout(() => this.pump(), this.deadline - performance.now() + 50);
      this.timer.unref?.(); // (Node, in the tests: a pending timer does not keep the process alive)
    }
    return this.promise;
  }

  /** The helper that proves: the first live one (none: the lower bound stays where it is). */
  prover() {
    for (let i = 1; i < this.clients.length; i++) if (this.usable(i)) return i;
    return -1;
  }

  /** The helper whose beams start from the target (the primary's then from the position): the first live improver after the primary, or -1. */
  beamHelper() {
    const prover = this.prover();
    for (let i = 1; i < this.clients.length; i++) if (i !== prover && this.usable(i)) return i;
    return -1;
  }

  /** Improver i's noise family: 1, 2, ... for the first NOISY_IMPROVERS live improvers past the primary and the beam helper; 0 for the others. */
  noiseFamily(i, helper) {
    if (i === 0 || i === helper || helper < 0) return 0;
    const prover = this.prover();
    let family = 0;
    for (let j = 1; j <= i; j++) if (j !== prover && j !== helper && this.usable(j)) family++;
    return family <= NOISY_IMPROVERS ? family : 0;
  }

  /** Worker i is alive and started (the primary may be queueing behind its own running call). */
  usable(i) {
    const c = this.clients[i];
    return !this.dead.has(i) && !!c.worker && (i === 0 || c.ready);
  }

  /** A helper joined once ready (pool-solve.js adopt). */
  joined(i) {
    this.tally.assign(i, Role.STARTING);
  }

  /** Hand work to every idle live worker; end the search when nothing is left to run. */
  pump() {
    if (this.done) return;
    const left = this.left();
    const prover = this.prover();
    for (let i = 0; i < this.clients.length && left > 0; i++) {
      if (this.running.has(i) || !this.usable(i)) continue;
      if (i === prover) this.prove(i, left);
      else if (this.tally.best && (!this.exhausted[i] || this.handed[i] !== this.tally.length)) this.improve(i, left);
      else this.tally.assign(i, Role.IDLE);
    }
    if (this.running.size) return;
    if (left <= 0) this.conclude("time", 0);
    else if (this.tally.best && prover < 0 && !this.pool.status().starting) this.conclude("exhausted", 0); // every improver done, nobody to prove
  }

  prove(i, left) {
    this.threshold = Math.max(this.threshold, this.tally.lower); // no solution is shorter than a proven bound: search from there
    this.tally.assign(i, Role.PROVING, { threshold: this.threshold });
    this.progress(false);
    const onProgress = (p) => {
      this.tally.assign(i, Role.PROVING, { threshold: this.threshold, nodes: p.nodes || 0 });
      this.progress(false);
    };
    const params = { ...this.position, bound: this.bound, threshold: this.threshold, time_limit: Math.max(0.001, left) };
    this.call(i, "prove", Method.ANYTIME_PROVE, params, onProgress).then((r) => {
      if (!r) return;
      this.workerNodes[i] += r.nodes;
      if (r.outcome !== "stopped") {
        this.iterations.push({ bound: r.threshold, nodes: r.nodes, seconds: r.seconds });
        this.threshold = r.threshold + 2;
      }
      if (this.tally.proved(r)) this.progress(true);
      this.after(i);
    });
  }

  improve(i, left) {
    const helper = this.beamHelper();
    this.handed[i] = this.tally.length;
    this.tally.assign(i, Role.IMPROVING);
    this.progress(false);
    const family = this.noiseFamily(i, helper);
    const params = {
      ...this.position,
      path: this.tally.best.path,
      mode: i === 0 || i === helper || family > 0 ? "beam+windows" : "windows",
      beams_from: i === helper ? "target" : i === 0 && helper >= 0 ? "position" : "both",
      noise_family: family,
      carried: this.carried[i] || (i > 1 ? { offset: 3 * i } : {}), // helpers' windows from their own offsets
      time_limit: Math.max(0.001, left),
    };
    this.call(i, "improve", Method.ANYTIME_IMPROVE, params).then((r) => {
      if (!r) return;
      this.workerNodes[i] += r.nodes;
      this.carried[i] = r.carried;
      this.exhausted[i] = r.done;
      if (this.tally.offer(r)) this.progress(true);
      this.after(i);
    });
  }

  /** Worker i replied: the answer is proven optimal, or on with the work. */
  after(i) {
    if (this.done) return;
    if (this.tally.optimal) this.conclude("optimal", i);
    else this.pump();
  }

  /**
   * client i's call of `method`; resolves with its result, or with null when the solve is over or
   * the call failed (a helper that died leaves the solve; the primary's failure, a cancel or a bad
   * input fails the whole answer).
   */
  call(i, what, method, params, onProgress) {
    const client = this.clients[i];
    this.running.set(i, what);
    return client.call(method, params, onProgress).then(
      (r) => {
        this.running.delete(i);
        return this.done ? null : r;
      },
      (err) => {
        this.running.delete(i);
        if (this.done || this.stopping.has(client)) return null;
        if (i === 0 || err.type === ErrorType.CANCELLED || err.type === ErrorType.INPUT) {
          this.fail(err);
          return null;
        }
        console.warn(`solver worker ${i + 1} died (${err.message}); the anytime answer goes on without it`);
        this.dead.add(i);
        this.tally.assign(i, Role.IDLE);
        this.pump();
        return null;
      },
    );
  }

  /** A report for the page: every change of the best or the bound; the workers' roles at most every ROLE_REPORT_MS. */
  progress(changed) {
    const t = performance.now();
    if (!changed && t - this.lastRoles < ROLE_REPORT_MS) return;
    this.lastRoles = t;
    const report = changed ? this.tally.changed(this.seconds()) : { ...this.tally.report(this.seconds()), kind: WORKERS_KIND };
    this.onProgress(report);
  }

  /** The search ends (`stopped`: optimal, time or exhausted): the others stop, worker i builds the result. */
  conclude(stopped, i) {
    if (!this.end()) return;
    // the primary's call ends within its second (queued calls wait for it); a helper's is stopped
    for (const j of [...this.running.keys()]) if (j !== 0 && j !== i) this.stop(j);
    const params = {
      ...this.position,
      bound: this.boundName || this.bound,
      path: this.tally.best.path,
      lower_bound: this.tally.lower,
      h0: this.h0 ?? this.tally.lower,
      stopped,
      seconds: this.seconds(),
      improvements: this.tally.improvements,
      iterations: this.iterations,
      workers: this.clients.length,
      worker_nodes: this.workerNodes,
    };
    this.clients[i].call(Method.ANYTIME_RESULT, params).then(
      (r) => this.resolve(r),
      (err) => this.reject(err),
    );
  }

  ended() {
    clearTimeout(this.timer);
  }
}
