// Fifteen for other pages: the optimal solver as an ES module, and <fifteen-puzzle>
// (docs/embed.md).  The public surface, versioned by VERSION (semver: a change that breaks a
// caller bumps the major):
//
//   import { createSolver } from "./static/js/fifteen.js";
//   const solver = createSolver();
//   const result = await solver.solve("13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2"); // fifteen solve --json
//   result.length; // 57
//
//   <script type="module" src="static/js/fifteen.js"></script>
//   <fifteen-puzzle tiles="13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2"></fifteen-puzzle>
//
// The solver runs in Web Workers of its own (solver/pool.js, worker/worker.js), which fetch the
// runtime, the solver package and the databases relative to this module's URL: serve the
// site's static/ folder (make dist) from the embedding page's origin.

import { EmbeddedSolver } from "./solver/embedded-solver.js";

export { SolverError } from "./solver/client.js";
export { FifteenPuzzle, sharedSolver } from "./fifteen-puzzle.js";

/** The version of this module's API (not of the solver: `(await solver.ready()).version`). */
export const VERSION = "1.0.0";

/**
 * A solver: {solve(tiles, options), anytime(tiles, options), bounds(tiles, options), ready(),
 * info, cancel(), close()} (solver/embedded-solver.js).  options: {workers = 1, shape = "4x4",
 * start = true, onLoading, onWarning}.
 */
export function createSolver(options = {}) {
  return new EmbeddedSolver(options);
}
