// The solver other pages embed (static/js/fifteen.js exports it; docs/embed.md): a pool of
// solver workers (solver/pool.js, with the page's own client and worker) behind a few promises
// that take a position as text or numbers and resolve to the command line's JSON.
//
// The workers find the runtime, the solver package and the databases relative to their own
// URL (worker/common.js), so the solver works wherever the site's static/ folder is served
// from the embedding page's origin (a module worker must be of the page's origin).

import { inferShape } from "../model/board.js";
import { ErrorType, Method } from "./protocol.js";
import { SolverClient, SolverError } from "./client.js";
import { SolverPool } from "./pool.js";

/** An AbortSignal's reason as the rejection of the request it stopped. */
const abortError = (signal) => signal.reason ?? new DOMException("The request was aborted.", "AbortError");

/**
 * The position a method takes: {text, shape, goal?} from `tiles` (text, "13 6 8 ... 0" with 0,
 * _ or . for the blank, or an array of numbers) and the options' `shape` ("RxC", inferred for a
 * square count) and `goal` ("standard", "blank-first", or tiles as text or an array).
 */
export function positionParams(tiles, { shape, goal } = {}) {
  const tokens = Array.isArray(tiles) ? tiles.map(String) : String(tiles ?? "").trim().split(/[\s,;]+/).filter(Boolean);
  const named = shape || inferShape(tokens.length);
  if (!named) {
    throw new SolverError(ErrorType.INPUT, `${tokens.length} tiles: give the board's shape ({shape: "3x4"}), it is not square`, undefined, "count");
  }
  return { text: tokens.join(" "), shape: named, ...(goal !== undefined && goal !== null ? { goal } : {}) };
}

/**
 * The embeddable solver: createSolver(options) in static/js/fifteen.js.
 *
 * options: {workers = 1 (more: a parallel search on that many workers), shape = "4x4" (the
 * board whose databases load at the start), start = true (false: the first request starts the
 * workers), onLoading(message), onWarning(message)} (LOADING and WARNING messages of
 * solver/protocol.js); createWorker makes each Worker (the tests pass fake ones).
 */
export class EmbeddedSolver {
  #pool;
  #shape;
  #started = null; // the primary's readiness, once started
  #closed = false;

  constructor({ workers = 1, shape = "4x4", start = true, onLoading, onWarning, createWorker } = {}) {
    this.#shape = shape;
    this.#pool = new SolverPool(
      {
        loading: (msg) => onLoading?.(msg),
        warning: (msg) => onWarning?.(msg),
        fatal: () => {
          this.#started = null; // the next request starts the worker again
        },
      },
      {
        size: Math.max(1, Math.floor(Number(workers)) || 1),
        ...(createWorker ? { createClient: (handlers) => new SolverClient(handlers, { createWorker }) } : {}),
      },
    );
    if (start) this.ready().catch(() => {});
  }

  /** Resolves with the solver's `info` (shapes, bounds per shape, their labels, the version) once it is ready. */
  ready() {
    if (this.#closed) return Promise.reject(new SolverError(ErrorType.CANCELLED, "This solver was closed."));
    this.#started ||= this.#pool.start(this.#shape).then(() => this.#pool.info);
    return this.#started;
  }

  /** The solver's `info` once ready, else null. */
  get info() {
    return this.#pool.ready ? this.#pool.info : null;
  }

  /** Run `request()` once the solver is ready; an abort of `signal` cancels it. */
  async #run(request, signal) {
    if (signal?.aborted) throw abortError(signal);
    await this.ready();
    if (signal?.aborted) throw abortError(signal);
    const cancel = () => this.#pool.cancel().catch(() => {});
    signal?.addEventListener("abort", cancel, { once: true });
    try {
      return await request();
    } catch (e) {
      if (signal?.aborted && (e?.type === ErrorType.CANCELLED || e?.code === "cancelled")) throw abortError(signal);
      throw e;
    } finally {
      signal?.removeEventListener("abort", cancel);
    }
  }

  /**
   * A shortest solution: the JSON of `fifteen solve --json` (length, moves, directions, nodes,
   * iterations, bounds...).  options: {goal, shape, bound ("auto"), onProgress(progress), signal,
   * anytime, timeLimit}; with several workers the search is parallel (the result adds `workers`
   * and `worker_nodes`).
   */
  solve(tiles, { goal, shape, bound, onProgress, signal, anytime, timeLimit } = {}) {
    const params = positionParams(tiles, { shape, goal });
    if (bound) params.bound = bound;
    if (anytime !== undefined) params.anytime = !!anytime;
    if (timeLimit !== undefined) params.time_limit = timeLimit;
    return this.#run(() => this.#pool.solve(params, onProgress), signal);
  }

  /**
   * An answer at once that improves until `timeLimit` seconds (default 10) or proven optimal, with
   * a proven lower bound beside it: `fifteen solve --anytime --json` (lower_bound, optimal,
   * improvements, stopped); onProgress gets each improvement.
   */
  anytime(tiles, { timeLimit = 10, ...options } = {}) {
    return this.solve(tiles, { ...options, anytime: true, timeLimit });
  }

  /** Every lower bound of the position: the JSON of `fifteen bounds --json`. options: {goal, shape, signal}. */
  bounds(tiles, { goal, shape, signal } = {}) {
    const params = positionParams(tiles, { shape, goal });
    return this.#run(() => this.#pool.call(Method.BOUNDS, params), signal);
  }

  /** Stop whatever runs (the request then rejects as cancelled); resolves when the solver is usable again. */
  cancel() {
    return this.#pool.ready ? this.#pool.cancel() : Promise.resolve();
  }

  /** End the workers; every request still running rejects, and later ones too. */
  close() {
    this.#closed = true;
    this.#started = null;
    this.#pool.stopHelpers();
    this.#pool.primary.stop();
  }
}
