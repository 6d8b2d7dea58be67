// Anytime answers: a first solution fast, better ones while the user waits, each with the
// proven lower bound beside it, so the gap is always said ("82 moves found · optimal ≥ 78").
// Pure (tests/js/anytime.test.mjs).
//
// The solver's side (fifteen.api "solve" with {anytime: true, time_limit}): each improvement is
// a progress report {kind: "anytime", seconds, length, lower_bound, optimal, moves: [tiles],
// iterations: the prover's finished ones [{bound, nodes, seconds}]};
// the result is the solve's JSON plus lower_bound, optimal, improvements [{seconds, length,
// lower_bound}] and stopped ("optimal" | "time" | "cancelled" | "exhausted").  The page keeps
// the last report: a Cancel (which may have to terminate the worker, losing its result) still
// shows the best solution found, playable.

import { directionsToTiles } from "./board.js";
import { formatCount } from "./format.js";

// The limits are the solver's (fifteen.schema.page_limits, in the API's info: `limits`), not copies.

/** The progress reports of an anytime solve carry this kind. */
export const ANYTIME_KIND = "anytime";

/**
 * True when a Solve of `board` runs the anytime search by default: the solver's answer for the
 * position (its `bounds` result's `anytime`: fifteen.limits.past_optimal_reach), or, before that
 * answer has come, for its size (more squares than limits.anytime_squares).
 */
export function anytimeByDefault(board, bounds = null, limits = null) {
  if (typeof bounds?.anytime === "boolean") return bounds.anytime;
  return !!limits && board.tiles.length > limits.anytime_squares;
}

/** The solve's params for an anytime answer of `board` (fifteen.api's solve), for the page's time limit (limits.time_limit). */
export const anytimeParams = (board, bound, limits = null) => ({
  ...board.params(),
  bound,
  anytime: true,
  ...(limits?.time_limit ? { time_limit: limits.time_limit } : {}),
});

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * The anytime line: "82 moves found · optimal ≥ 78", or "82 moves · proven optimal".
 * `proven`: a lower bound proven elsewhere (an optimal search stopped before), the larger counts.
 */
export function anytimeText({ length, lower_bound: lower, optimal }, proven = 0) {
  const lb = Math.max(lower || 0, proven || 0);
  if (optimal || lb >= length) return `${plural(length, "move")} · proven optimal`;
  return `${plural(length, "move")} found · optimal ≥ ${lb}`;
}

/** Why an anytime search stopped, in words (its result's `stopped`). */
export const STOPPED_TEXT = Object.freeze({
  optimal: "it proved its answer optimal",
  time: "its time ran out",
  cancelled: "it was stopped",
  exhausted: "it had nothing left to try",
});

/**
 * A progress report's (or a result's) solution from `board` as the page shows solutions:
 * {moves, directions, length, lower_bound, optimal, seconds}; null when its moves do not
 * replay (a report that is not for this board).
 */
export function anytimeSolution(board, report) {
  const b = board.clone();
  let directions = "";
  for (const tile of report.moves || []) {
    const d = b.directionOfTile(tile);
    if (!d) return null;
    b.moveBlank(d);
    directions += d;
  }
  if (!b.isGoal()) return null;
  return {
    moves: directionsToTiles(board, directions),
    directions,
    length: directions.length,
    lower_bound: report.lower_bound ?? 0,
    optimal: !!report.optimal,
    seconds: report.seconds ?? 0,
    anytime: true,
  };
}

// ---------------------------------------------------------------- the pool's anytime answer
// With two workers or more (solver/anytime-solve.js), one proves the lower bound (IDA* iterations of
// fifteen.parallel.anytime_page's anytime_prove) while the others improve the best path
// (anytime_improve); the tally below combines what they say, as fifteen.parallel.anytime_processes does
// natively: the best path is the shortest any worker found, the lower bound the largest any
// proved, and the answer is optimal once the two meet.

/** What a worker of the pool does in an anytime answer. */
export const Role = Object.freeze({ IMPROVING: "improving", PROVING: "proving", STARTING: "starting", IDLE: "idle" });

/** Progress reports that only say what the workers do (no new solution, no new bound) carry this kind. */
export const WORKERS_KIND = "workers";

export class AnytimeTally {
  /** proven: a lower bound proven before (an optimal search stopped for this answer); workers: how many take part. */
  constructor({ proven = 0, workers = 1 } = {}) {
    this.lower = Math.max(0, proven || 0);
    this.best = null; // {path, moves}: the blank's squares and the tiles that slide
    this.roles = Array.from({ length: workers }, () => ({ role: Role.STARTING }));
    this.improvements = []; // {seconds, length, lower_bound}, one per change once a solution is known
    this.iterations = []; // the prover's finished iterations {bound, nodes, seconds}
  }

  get length() {
    return this.best ? this.best.path.length : null;
  }

  /** True once the lower bound reaches the best length: the best is proven shortest. */
  get optimal() {
    return this.best !== null && this.lower >= this.best.path.length;
  }

  /** A path found by any worker ({path, moves}): kept when shorter than the best. True when kept. */
  offer(found) {
    if (!found || !Array.isArray(found.path) || (this.best && found.path.length >= this.best.path.length)) return false;
    this.best = { path: found.path, moves: found.moves };
    return true;
  }

  /** A lower bound proven by any worker: kept when larger. True when kept. */
  raise(bound) {
    if (!(bound > this.lower)) return false;
    this.lower = bound;
    return true;
  }

  /**
   * The outcome of an anytime_prove call ({outcome, threshold, path?, moves?}): a refuted
   * threshold proves threshold + 2 (every solution has the root's parity); a threshold that
   * finds a solution proves it optimal.  True when the best or the bound changed.
   */
  proved(r) {
    if (r.outcome === "refuted" || r.outcome === "found") this.iterations.push({ bound: r.threshold, nodes: r.nodes || 0, seconds: r.seconds || 0 });
    if (r.outcome === "refuted") return this.raise(r.threshold + 2);
    if (r.outcome !== "found") return false;
    const raised = this.raise(r.threshold);
    return this.offer(r) || raised;
  }

  /** Worker i now does `role` (Role), with `detail`: {threshold, nodes} when proving. */
  assign(i, role, detail = {}) {
    while (this.roles.length <= i) this.roles.push({ role: Role.STARTING });
    this.roles[i] = { role, ...detail };
  }

  /** Note a change at `seconds` (an entry of the result's improvements) and return the page's progress report. */
  changed(seconds) {
    const entry = { seconds: Math.round(seconds * 1000) / 1000, length: this.length, lower_bound: this.lower };
    if (this.best) this.improvements.push(entry);
    return this.report(seconds);
  }

  /**
   * The progress report of the anytime contract (model/anytime.js's top), with `workers`: each
   * worker's role, and `iterations`: the prover's finished ones.
   */
  report(seconds) {
    return {
      kind: this.best ? ANYTIME_KIND : WORKERS_KIND,
      seconds,
      length: this.length,
      lower_bound: this.lower,
      optimal: this.optimal,
      moves: this.best ? this.best.moves : null,
      workers: this.roles.map((r) => ({ ...r })),
      iterations: this.iterations.map((it) => ({ ...it })),
    };
  }
}

/**
 * The workers line of a pool's anytime answer: "Worker 1 is improving the answer (best 82 moves)
 * · worker 2 is proving optimal ≥ 80 (1.2 M nodes)".  A prover's IDA* iteration of threshold T
 * proves T + 2 when it ends without a solution; a threshold below the lower bound proven so far
 * (`lower`: the solver raises it to the root's own bound) is not said.  `best`: the best length so far.
 */
export function workersText(roles, best = null, lower = 0) {
  return roles
    .map((r, i) => {
      const name = `${i ? "worker" : "Worker"} ${i + 1}`;
      if (r.role === Role.PROVING) {
        const nodes = r.nodes ? ` (${formatCount(r.nodes)} nodes)` : "";
        const known = r.threshold > 0 && r.threshold >= lower;
        return `${name} is proving ${known ? `optimal ≥ ${r.threshold + 2}` : "the lower bound"}${nodes}`;
      }
      if (r.role === Role.IMPROVING) return `${name} is improving the answer${best !== null ? ` (best ${best} moves)` : ""}`;
      return `${name} is ${r.role === Role.STARTING ? "starting" : "idle"}`;
    })
    .join(" · ");
}
