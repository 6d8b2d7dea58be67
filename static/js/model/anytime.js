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
