// Anytime answers: a first solution fast, better ones while the user waits, each with the
// proven lower bound beside it, so the gap is always said ("82 moves found · optimal ≥ 78").
// Pure (tests/js/anytime.test.mjs).
//
// The solver's side (fifteen.api "solve" with {anytime: true, time_limit}): each improvement is
// a progress report {kind: "anytime", seconds, length, lower_bound, optimal, moves: [tiles]};
// the result is the solve's JSON plus lower_bound, optimal, improvements [{seconds, length,
// lower_bound}] and stopped ("optimal" | "time" | "cancelled" | "exhausted").  The page keeps
// the last report: a Cancel (which may have to terminate the worker, losing its result) still
// shows the best solution found, playable.

import { directionsToTiles } from "./board.js";
import { formatCount } from "./format.js";

/** A Solve of a board with more squares than this gives an anytime answer (the optimal search is out of reach past 5x5). */
export const ANYTIME_SQUARES = 25;

/** Seconds an anytime solve improves its answer before it stops (Stop keeps the best before). */
export const ANYTIME_SECONDS = 60;

/** The progress reports of an anytime solve carry this kind. */
export const ANYTIME_KIND = "anytime";

/** True when a Solve of `board` runs the anytime search by default. */
export const anytimeByDefault = (board) => board.tiles.length > ANYTIME_SQUARES;

/** The solve's params for an anytime answer of `board` (fifteen.api's solve). */
export const anytimeParams = (board, bound) => ({ ...board.params(), bound, anytime: true, time_limit: ANYTIME_SECONDS });

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

  /** The progress report of the anytime contract (model/anytime.js's top), with `workers`: each worker's role. */
  report(seconds) {
    return {
      kind: this.best ? ANYTIME_KIND : WORKERS_KIND,
      seconds,
      length: this.length,
      lower_bound: this.lower,
      optimal: this.optimal,
      moves: this.best ? this.best.moves : null,
      workers: this.roles.map((r) => ({ ...r })),
    };
  }
}

/**
 * The workers line of a pool's anytime answer: "worker 1: improving, best 82 · worker 2:
 * proving ≥ 80" (proving ≥ N: the IDA* iteration running would prove N when it ends without a
 * solution); `best`: the best length so far.
 */
export function workersText(roles, best = null) {
  return roles
    .map((r, i) => {
      const name = `worker ${i + 1}`;
      if (r.role === Role.PROVING) return `${name}: proving ≥ ${r.threshold + 2}${r.nodes ? ` (${formatCount(r.nodes)} nodes)` : ""}`;
      if (r.role === Role.IMPROVING) return `${name}: improving${best !== null ? `, best ${best}` : ""}`;
      return `${name}: ${r.role}`;
    })
    .join(" · ");
}
