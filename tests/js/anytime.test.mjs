// model/anytime.js and the page model's anytime solve: the line that says how good the answer
// is, the best found kept through a Cancel (playable), the answer never called optimal unless it
// is; the limits are the solver's (info.limits), the choice per position its bounds' `anytime`.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Board, blankFirstTiles } from "../../static/js/model/board.js";
import {
  AnytimeTally,
  Role,
  anytimeByDefault,
  anytimeParams,
  anytimeSolution,
  anytimeText,
  workersText,
} from "../../static/js/model/anytime.js";
import { PageModel, Status } from "../../static/js/model/page-model.js";

/** The solver's limits (fifteen.schema.page_limits), as the info of a worker carries them. */
const LIMITS = { anytime_squares: 25, anytime_lower_bound: 50, time_limit: 60, cli_time_limit: 10, max_time_limit: 3600, out_of_reach_seconds: 600 };

const types = (effects) => effects.map((e) => e.type);

/** A 3x3 three moves from the goal (the blank moved up twice and left once). */
const start = () => {
  const b = new Board(3, 3);
  for (const d of "UUL") b.moveBlank(d);
  return b;
};
/** The tiles that slide for R, D, D from start(), and a longer (non-optimal) way: L R first. */
const SHORT = [2, 3, 6];
const LONG = [1, 1, 2, 3, 6];

describe("anytime answers", () => {
  test("the line says the gap plainly, and 'proven optimal' only when it is", () => {
    assert.equal(anytimeText({ length: 82, lower_bound: 78, optimal: false }), "82 moves found · optimal ≥ 78");
    assert.equal(anytimeText({ length: 82, lower_bound: 78, optimal: false }, 80), "82 moves found · optimal ≥ 80"); // proven before
    assert.equal(anytimeText({ length: 80, lower_bound: 80, optimal: false }), "80 moves · proven optimal");
    assert.equal(anytimeText({ length: 80, lower_bound: 76, optimal: true }), "80 moves · proven optimal");
    assert.equal(anytimeText({ length: 1, lower_bound: 1, optimal: true }), "1 move · proven optimal");
  });

  test("the solver says which positions get an anytime answer by default; the params ask fifteen.api for one", () => {
    // the position's bounds answer decides (fifteen.limits.past_optimal_reach: a 6x6 near its goal is solved optimally)
    assert.equal(anytimeByDefault(new Board(6, 6), { anytime: false }, LIMITS), false);
    assert.equal(anytimeByDefault(new Board(5, 5), { anytime: true }, LIMITS), true);
    // before that answer: by the board's size, the solver's limit
    assert.equal(anytimeByDefault(new Board(5, 5), null, LIMITS), false);
    assert.equal(anytimeByDefault(new Board(5, 6), null, LIMITS), true);
    assert.equal(anytimeByDefault(new Board(5, 6), null, { ...LIMITS, anytime_squares: 30 }), false);
    assert.equal(anytimeByDefault(new Board(10, 10), null, null), false); // no solver yet: nothing to decide with
    const b = new Board(3, 3, null, blankFirstTiles(3, 3));
    const params = { tiles: [0, 1, 2, 3, 4, 5, 6, 7, 8], shape: "3x3", goal: blankFirstTiles(3, 3), bound: "auto", anytime: true };
    assert.deepEqual(anytimeParams(b, "auto", LIMITS), { ...params, time_limit: 60 });
    assert.deepEqual(anytimeParams(b, "auto", { ...LIMITS, time_limit: 15 }), { ...params, time_limit: 15 });
    assert.deepEqual(anytimeParams(b, "auto"), params); // without limits: until proven optimal or cancelled
  });

  test("a progress report's moves become a playable solution; moves that do not solve the board are dropped", () => {
    const s = anytimeSolution(start(), { kind: "anytime", seconds: 1.5, length: 5, lower_bound: 3, optimal: false, moves: LONG });
    assert.deepEqual(s, { moves: LONG, directions: "LRRDD", length: 5, lower_bound: 3, optimal: false, seconds: 1.5, anytime: true });
    assert.equal(anytimeSolution(start(), { moves: [2, 5] }), null); // not at the goal
    assert.equal(anytimeSolution(start(), { moves: [7] }), null); // tile 7 is not next to the gap
  });
});

describe("the page model's anytime solve", () => {
  const ready = () => {
    const m = new PageModel(start());
    m.solverReady();
    return m;
  };

  test("each improvement is kept and said; Cancel keeps the best found as the solution shown", () => {
    const m = ready();
    m.solveRequested("auto", 1000, { anytime: true });
    const job = m.job;
    assert.equal(job.anytime, true);
    const first = anytimeSolution(m.position, { moves: LONG, lower_bound: 3, optimal: false, seconds: 0.2 });
    assert.deepEqual(types(m.anytimeProgress(job, first)), ["status"]);
    assert.equal(m.status.text, "Solving · 5 moves found · optimal ≥ 3");
    assert.equal(job.best, first);
    assert.deepEqual(m.anytimeProgress(job, null), []); // a report that does not replay changes nothing
    m.cancelRequested(5000);
    const effects = m.cancelDone(job, { restarted: true, seconds: "1.2 s" });
    assert.deepEqual(types(effects), ["showSolution", "status", "render"]);
    assert.equal(m.job, null);
    assert.equal(m.solution.result, first);
    assert.equal(m.status.state, Status.CANCELLED);
    assert.equal(m.status.text, "Stopped in 1.2 s (the solver restarted); the best found is kept: 5 moves found · optimal ≥ 3.");
    assert.equal(m.shownBoard().text(), start().text()); // playable from the start
    assert.equal(m.lastSolved, null); // not the shortest: nothing to compare a replay with
    // a new Solve runs again (a better answer may come), it does not just focus the old one
    m.solveRequested("auto", 9000);
    assert.ok(m.job);
  });

  test("a cancel before any solution says what was proven; a result not proven optimal is never called optimal", () => {
    const m = ready();
    m.solveRequested("auto", 1000, { anytime: true, proven: 3 });
    let job = m.job;
    m.cancelRequested(5000);
    m.cancelDone(job, { restarted: false, seconds: "5 ms" });
    assert.equal(m.solution, null);
    assert.match(m.status.text, /^Cancelled: stopped in 5 ms, no restart needed\. The shortest solution has at least 3 moves\.$/);
    m.solveRequested("auto", 9000, { anytime: true });
    job = m.job;
    m.solveDone(job, { length: 5, moves: LONG, directions: "LRRDD", lower_bound: 3, optimal: false, stopped: "time", nodes: 10, seconds: 60 }, { seconds: "1 min 00 s" });
    assert.equal(m.status.state, Status.SOLVED);
    assert.equal(m.status.text, "Best found in 1 min 00 s: 5 moves found · optimal ≥ 3 (its time ran out).");
    assert.equal(m.lastSolved, null);
    m.solveRequested("auto", 20000, { anytime: true });
    job = m.job;
    m.solveDone(job, { length: 3, moves: SHORT, directions: "RDD", lower_bound: 3, optimal: true, stopped: "optimal", nodes: 10, seconds: 1 }, { seconds: "1.0 s" });
    assert.equal(m.status.text, "Solved in 1.0 s: 3 moves, proven optimal.");
    assert.equal(m.lastSolved.length, 3);
  });

  test("a lower bound proven by the optimal search stopped for the fast answer counts", () => {
    const m = ready();
    m.solveRequested("auto", 1000, { anytime: true, proven: 5 });
    const job = m.job;
    m.solveDone(job, { length: 5, moves: LONG, directions: "LRRDD", lower_bound: 3, optimal: false, stopped: "time", seconds: 60 });
    assert.equal(m.solution.result.optimal, true);
    assert.equal(m.status.text, "Solved: 5 moves, proven optimal.");
  });
});

describe("the pool's anytime answer: the tally of a prover and improvers", () => {
  const path = (n) => Array.from({ length: n }, (_, i) => i % 4);
  test("the best is the shortest path offered, the lower bound the largest proven; optimal once they meet", () => {
    const t = new AnytimeTally({ proven: 40, workers: 2 });
    assert.equal(t.lower, 40);
    assert.equal(t.length, null);
    assert.equal(t.optimal, false);
    assert.equal(t.offer({ path: path(50), moves: ["a"] }), true);
    assert.equal(t.offer({ path: path(52), moves: ["b"] }), false, "a longer path is not kept");
    assert.equal(t.offer({ path: path(50), moves: ["c"] }), false, "nor one as long");
    assert.deepEqual(t.best.moves, ["a"]);
    assert.equal(t.raise(38), false, "a smaller bound (the root's) changes nothing");
    assert.equal(t.lower, 40);
    // the prover: a refuted threshold proves threshold + 2 (the solutions' parity); "stopped" proves nothing
    assert.equal(t.proved({ outcome: "refuted", threshold: 40 }), true);
    assert.equal(t.lower, 42);
    assert.equal(t.proved({ outcome: "stopped", threshold: 42 }), false);
    assert.equal(t.lower, 42);
    assert.equal(t.offer({ path: path(46), moves: ["d"] }), true);
    assert.equal(t.optimal, false);
    assert.equal(t.proved({ outcome: "refuted", threshold: 42 }), true);
    assert.equal(t.proved({ outcome: "refuted", threshold: 44 }), true);
    assert.deepEqual([t.lower, t.length, t.optimal], [46, 46, true]);
  });

  test("a threshold that finds a solution proves it optimal, shorter than the improvers' or not", () => {
    const t = new AnytimeTally({ workers: 3 });
    t.offer({ path: path(60), moves: ["x"] });
    t.raise(48);
    assert.equal(t.proved({ outcome: "found", threshold: 52, path: path(52), moves: ["y"] }), true);
    assert.deepEqual([t.lower, t.length, t.optimal, t.best.moves], [52, 52, true, ["y"]]);
    const u = new AnytimeTally({ workers: 2 });
    u.offer({ path: path(52), moves: ["z"] });
    assert.equal(u.proved({ outcome: "found", threshold: 52, path: path(52), moves: ["w"] }), true, "the bound rose");
    assert.deepEqual([u.lower, u.optimal, u.best.moves], [52, true, ["z"]], "the improvers' path of the same length stays");
  });

  test("each change is an improvement of the result and a report of the anytime contract with the workers' roles", () => {
    const t = new AnytimeTally({ proven: 0, workers: 2 });
    t.assign(0, Role.IMPROVING);
    t.assign(1, Role.PROVING, { threshold: 36 });
    const before = t.changed(0.1);
    assert.equal(before.kind, "workers", "no solution yet: only the workers' line");
    assert.deepEqual(t.improvements, []);
    t.raise(36);
    t.offer({ path: path(48), moves: [1, 2] });
    const r = t.changed(1.23456);
    assert.deepEqual(r, {
      kind: "anytime",
      seconds: 1.23456,
      length: 48,
      lower_bound: 36,
      optimal: false,
      moves: [1, 2],
      workers: [{ role: "improving" }, { role: "proving", threshold: 36 }],
      iterations: [],
    });
    t.proved({ outcome: "refuted", threshold: 36 });
    t.changed(2);
    assert.deepEqual(t.improvements, [
      { seconds: 1.235, length: 48, lower_bound: 36 },
      { seconds: 2, length: 48, lower_bound: 38 },
    ]);
    t.assign(3, Role.IMPROVING); // a helper that joined later
    assert.deepEqual(
      t.report(3).workers.map((w) => w.role),
      ["improving", "proving", "starting", "improving"],
    );
  });

  test("the workers line says what each worker does, in words", () => {
    const roles = [{ role: Role.IMPROVING }, { role: Role.PROVING, threshold: 76, nodes: 1_234_567 }, { role: Role.IDLE }, { role: Role.STARTING }];
    assert.equal(
      workersText(roles, 82, 76),
      "Worker 1 is improving the answer (best 82 moves) · worker 2 is proving optimal ≥ 78 (1.23 M nodes) · worker 3 is idle · worker 4 is starting",
    );
    assert.equal(workersText([{ role: Role.IMPROVING }, { role: Role.PROVING, threshold: 40 }]), "Worker 1 is improving the answer · worker 2 is proving optimal ≥ 42");
    // issue 33: the prover's first call goes out with threshold 0 (the solver raises it to the root's
    // bound): never "proving ≥ 2"; nor a threshold below what is proven already
    assert.equal(workersText([{ role: Role.IMPROVING }, { role: Role.PROVING, threshold: 0 }]), "Worker 1 is improving the answer · worker 2 is proving the lower bound");
    assert.equal(workersText([{ role: Role.PROVING, threshold: 30, nodes: 500 }], null, 52), "Worker 1 is proving the lower bound (500 nodes)");
  });

  test("the tally keeps the prover's finished iterations for the page's table", () => {
    const t = new AnytimeTally({ workers: 2 });
    t.proved({ outcome: "refuted", threshold: 52, nodes: 1000, seconds: 0.5 });
    t.proved({ outcome: "stopped", threshold: 54, nodes: 0, seconds: 0.1 }); // not an iteration
    t.proved({ outcome: "refuted", threshold: 54, nodes: 9000, seconds: 2 });
    assert.deepEqual(t.report(3).iterations, [
      { bound: 52, nodes: 1000, seconds: 0.5 },
      { bound: 54, nodes: 9000, seconds: 2 },
    ]);
    assert.equal(t.report(3).lower_bound, 56);
  });
});
