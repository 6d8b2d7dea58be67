// SolverPool (solver/pool.js) against scripted fake workers that speak solver/protocol.js,
// through real SolverClients: helpers start only after the primary is ready, one after
// the other; with no helper a solve is the serial SOLVE call; a parallel solve sends
// PARALLEL_BEGIN to the primary, hands bundles largest first to free workers,
// aggregates their progress, steps the scheduler when an iteration's tasks are all
// done, stops the others when one finds a solution and asks that one for the result;
// a helper that dies has its bundle re-run; cancel stops every worker (a CANCEL each, no
// restart; a worker that does not answer is restarted).  An anytime solve
// with a helper: the primary finds the first solution and improves it, the helper proves the
// lower bound an IDA* iteration at a time, and the answer ends proven optimal when they meet.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { ErrorType, FromWorker, LoadState, Method, SIGINT, Stage, ToWorker, message } from "../../static/js/solver/protocol.js";
import { SolverClient } from "../../static/js/solver/client.js";
import { MAX_WORKERS, SolverPool, poolLimits } from "../../static/js/solver/pool.js";
import { NOISY_IMPROVERS } from "../../static/js/solver/anytime-solve.js";
import { FakeWorker } from "./fake-worker.mjs";

const tick = () => new Promise((r) => setTimeout(r, 0));
const READY = (interrupt = null) => message.ready({ info: { bounds: { "4x4": ["auto"] } }, seconds: 1, interrupt });
/** A worker's background work is done (protocol.js BACKGROUND): the primary's lets the helpers start. */
const SETTLED = message.loading(Stage.BACKGROUND, LoadState.DONE, "memory snapshot kept", { later: true, snapshot: true, seconds: 1 });

/** A pool of `size` workers with fake Web Workers; workers[k] = the k-th Worker made. */
function setup(size = 2, { isolated = false, cancelWait, interruptAfter } = {}) {
  const workers = [];
  const events = [];
  const record =
    (name) =>
    (...args) =>
      events.push([name, ...args]);
  const pool = new SolverPool(
    { loading: record("loading"), ready: record("ready"), fatal: record("fatal"), restart: record("restart"), pool: record("pool"), started: record("started") },
    {
      size,
      helperDelay: 0,
      createClient: (h) =>
        new SolverClient(h, {
          createWorker: () => {
            const w = new FakeWorker();
            workers.push(w);
            return w;
          },
          cancelWait,
          interruptAfter,
        }),
    },
  );
  // READY, then the end of the worker's background work
  const ready = async (w) => {
    w.emit(READY(isolated ? new SharedArrayBuffer(4) : null));
    w.emit(SETTLED);
    await tick();
    const warmUp = w.calls(Method.SOLVE)[0]; // a helper's warm-up search: done at once
    if (warmUp && !w.answered.has(warmUp.id)) w.emit(message.result(warmUp.id, { length: 1 }));
  };
  return { pool, workers, events, ready };
}

/** Start the pool and bring the primary and one helper up. */
async function upWithHelper(opts) {
  const s = setup(2, opts);
  s.pool.start("4x4");
  assert.equal(s.workers.length, 1, "the helper waits for the primary");
  await s.ready(s.workers[0]);
  await tick();
  assert.equal(s.workers.length, 2, "the helper starts once the primary is ready");
  await s.ready(s.workers[1]);
  return s;
}

/** A pool of `size` workers, each started and ready in turn. */
async function upWithAll(size) {
  const s = setup(size);
  s.pool.start("4x4");
  for (let k = 0; k < size; k++) {
    await s.ready(s.workers[k]);
    await tick();
  }
  return s;
}

const task = (id, estimate, path = [id]) => ({ id, bound: "md", shape: "4x4", mirror_closed: false, board: [], state: 0, budget: 9, path, estimate });
const WORK = {
  search: 7,
  bound: 40,
  h0: 38,
  split_nodes: 5,
  iterations: [{ bound: 38, nodes: 100, seconds: 0.1 }],
  bundles: [[task(1, 900)], [task(2, 500)], [task(3, 10), task(4, 5)]],
  bound_name: "md",
  setup_seconds: 0.2,
};

/** Answer the last CALL of `method` on worker w. */
function answer(w, method, result) {
  const req = w.calls(method).at(-1);
  assert.ok(req, `no ${method} request`);
  w.emit(message.result(req.id, result));
  return req;
}

describe("poolLimits", () => {
  test("one core left for the page, within the device's memory (tests/js/worker-memory.test.mjs: the memory rule)", () => {
    assert.deepEqual(poolLimits({ hardwareConcurrency: 8, deviceMemory: 8 }), { max: 8, suggested: 7 });
    assert.deepEqual(poolLimits({ hardwareConcurrency: 2, deviceMemory: 8 }), { max: 2, suggested: 1 });
    assert.deepEqual(poolLimits({ deviceMemory: 8 }), { max: 2, suggested: 1 }, "two can always be tried (one core: slower, not wrong)");
    assert.deepEqual(poolLimits({ hardwareConcurrency: 64, deviceMemory: 8 }), { max: Math.min(MAX_WORKERS, 14), suggested: 7 });
  });
});

describe("SolverPool", () => {
  test("one worker: a solve is the serial SOLVE on the primary, no helper ever starts", async () => {
    const { pool, workers, ready } = setup(1);
    pool.start("4x4");
    await ready(workers[0]);
    await tick();
    assert.equal(workers.length, 1);
    const solving = pool.solve({ text: "1 2", shape: "4x4", bound: "md" }, () => {});
    const req = workers[0].sent.at(-1);
    assert.deepEqual([req.type, req.method, req.progress], [ToWorker.CALL, Method.SOLVE, true]);
    workers[0].emit(message.result(req.id, { length: 3 }));
    assert.deepEqual(await solving, { length: 3 });
  });

  test("helpers wait for the primary's background work, which the page asks every worker for once it is ready", async () => {
    const { pool, workers } = setup(2);
    pool.start("4x4");
    workers[0].emit(READY());
    await tick();
    await tick();
    assert.equal(workers.length, 1, "no helper before the primary's background work is done");
    assert.equal(workers[0].sent.filter((m) => m.type === ToWorker.BACKGROUND).length, 0, "nothing fetched after READY before the page asks");
    pool.background("4x4");
    assert.deepEqual(workers[0].sent.at(-1), message.background("4x4"));
    workers[0].emit(SETTLED);
    await tick();
    await tick();
    assert.equal(workers.length, 2, "the helper starts once the primary settled");
    workers[1].emit(READY());
    await tick();
    assert.equal(workers[1].sent.filter((m) => m.type === ToWorker.BACKGROUND).length, 1, "a helper is asked at its READY");
  });

  test("helpers start one after the other, report their state, and leave the page's handlers alone", async () => {
    const { pool, workers, events, ready } = setup(3);
    pool.start("3x3");
    await ready(workers[0]);
    await tick();
    assert.equal(workers.length, 2, "one helper at a time");
    await ready(workers[1]);
    await tick();
    assert.equal(workers.length, 3);
    await ready(workers[2]);
    assert.deepEqual(pool.status(), { size: 3, ready: 3, starting: 0 });
    assert.equal(events.filter((e) => e[0] === "ready").length, 1, "only the primary's READY reaches the page");
    // each helper got INIT for the shape, then a one-move warm-up search
    assert.equal(workers[1].sent[0].shape, "3x3");
    assert.equal(workers[1].calls(Method.SOLVE)[0].params.text, "1 2 3 4 5 6 7 0 8");
    pool.setSize(2);
    assert.ok(workers[2].terminated);
    assert.deepEqual(pool.status(), { size: 2, ready: 2, starting: 0 });
  });

  test("an anytime solve with one worker is the primary's serial SOLVE, with the goal", async () => {
    const { pool, workers, ready } = setup(1);
    pool.start("4x4");
    await ready(workers[0]);
    const [primary] = workers;
    const progress = [];
    const solving = pool.solve({ text: "t", shape: "4x4", bound: "auto", goal: [0, 1], anytime: true, time_limit: 60 }, (p) => progress.push(p), { proven: 40 });
    const req = primary.sent.at(-1);
    assert.deepEqual([req.type, req.method], [ToWorker.CALL, Method.SOLVE]);
    assert.deepEqual(req.params, { text: "t", shape: "4x4", bound: "auto", goal: [0, 1], anytime: true, time_limit: 60 });
    primary.emit(message.progress(req.id, { kind: "anytime", length: 9, lower_bound: 5, optimal: false, moves: [] }));
    primary.emit(message.result(req.id, { length: 9, optimal: false }));
    assert.deepEqual(await solving, { length: 9, optimal: false });
    assert.equal(progress[0].kind, "anytime");
  });

  test("a parallel solve passes the goal on", async () => {
    const { pool, workers } = await upWithHelper();
    pool.solve({ text: "t", shape: "4x4", bound: "auto", goal: [0, 1] }, () => {}).catch(() => {});
    assert.deepEqual(workers[0].calls(Method.PARALLEL_BEGIN).at(-1).params.goal, [0, 1]);
  });

  test("an anytime solve with a helper: the primary improves, the helper proves, the prover's last refutation proves the best optimal", async () => {
    const { pool, workers } = await upWithHelper();
    const [primary, helper] = workers;
    const progress = [];
    const params = { text: "t", shape: "4x4", bound: "auto", goal: [0, 1], anytime: true, time_limit: 60 };
    const solving = pool.solve(params, (p) => progress.push(p), { proven: 4 });
    const pos = { text: "t", shape: "4x4", goal: [0, 1] };
    assert.equal(primary.calls(Method.SOLVE).length, 0, "no serial anytime SOLVE");
    assert.deepEqual(primary.calls(Method.ANYTIME_FIRST).at(-1).params, { ...pos, bound: "auto" });
    // the prover starts at once, from the bound the stopped optimal search proved
    const p1 = helper.calls(Method.ANYTIME_PROVE).at(-1);
    assert.equal(p1.progress, true);
    assert.equal(p1.params.threshold, 4);
    assert.equal(p1.params.bound, "auto");
    assert.ok(p1.params.time_limit > 59 && p1.params.time_limit <= 60, p1.params.time_limit);
    // the first solution: 10 moves, the root's bound 2 (the 4 proven before counts)
    answer(primary, Method.ANYTIME_FIRST, { path: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], moves: [9, 8, 7, 6, 5, 4, 3, 2, 1, 9], lower_bound: 2, bound: "pdb663" });
    await tick();
    const first = progress.filter((p) => p.kind === "anytime").at(-1);
    assert.deepEqual([first.length, first.lower_bound, first.optimal, first.moves], [10, 4, false, [9, 8, 7, 6, 5, 4, 3, 2, 1, 9]]);
    assert.deepEqual(
      first.workers.map((w) => w.role),
      ["improving", "proving"],
    );
    assert.equal(first.workers[1].threshold, 4);
    const i1 = primary.calls(Method.ANYTIME_IMPROVE).at(-1);
    assert.deepEqual([i1.params.path, i1.params.mode, i1.params.beams_from, i1.params.carried], [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "beam+windows", "both", {}]);
    // the improver shortens the path to 8 moves; what it carries goes out with its next call
    answer(primary, Method.ANYTIME_IMPROVE, { path: [1, 2, 3, 4, 5, 6, 7, 8], moves: [9, 8, 7, 6, 5, 4, 3, 2], carried: { width: 512 }, done: false, nodes: 100 });
    await tick();
    assert.deepEqual([progress.at(-1).kind, progress.at(-1).length, progress.at(-1).lower_bound], ["anytime", 8, 4]);
    const i2 = primary.calls(Method.ANYTIME_IMPROVE).at(-1);
    assert.deepEqual([i2.params.path, i2.params.carried], [[1, 2, 3, 4, 5, 6, 7, 8], { width: 512 }]);
    // the prover refutes 4, then 6 (its live nodes in the workers' roles)
    answer(helper, Method.ANYTIME_PROVE, { outcome: "refuted", threshold: 4, nodes: 7, seconds: 0.5 });
    await tick();
    assert.deepEqual([progress.at(-1).length, progress.at(-1).lower_bound, progress.at(-1).optimal], [8, 6, false]);
    const p2 = helper.calls(Method.ANYTIME_PROVE).at(-1);
    assert.equal(p2.params.threshold, 6);
    await new Promise((r) => setTimeout(r, 260));
    helper.emit(message.progress(p2.id, { nodes: 1234 }));
    assert.deepEqual(progress.at(-1).kind, "workers");
    assert.deepEqual(progress.at(-1).workers[1], { role: "proving", threshold: 6, nodes: 1234 });
    answer(helper, Method.ANYTIME_PROVE, { outcome: "refuted", threshold: 6, nodes: 70, seconds: 1.5 });
    await tick();
    // 8 proven = the 8 moves found: proven optimal; the result from the prover, the primary left to end its call
    const last = progress.at(-1);
    assert.deepEqual([last.kind, last.length, last.lower_bound, last.optimal], ["anytime", 8, 8, true]);
    assert.ok(!primary.terminated);
    assert.equal(helper.calls(Method.ANYTIME_PROVE).length, 2, "no iteration past the proof");
    const res = helper.calls(Method.ANYTIME_RESULT).at(-1);
    const { seconds, improvements, ...rest } = res.params;
    assert.ok(seconds >= 0);
    assert.deepEqual(rest, {
      ...pos,
      bound: "pdb663",
      path: [1, 2, 3, 4, 5, 6, 7, 8],
      lower_bound: 8,
      h0: 2,
      stopped: "optimal",
      iterations: [
        { bound: 4, nodes: 7, seconds: 0.5 },
        { bound: 6, nodes: 70, seconds: 1.5 },
      ],
      workers: 2,
      worker_nodes: [100, 77],
    });
    assert.deepEqual(
      improvements.map((m) => [m.length, m.lower_bound]),
      [
        [10, 4],
        [8, 4],
        [8, 6],
        [8, 8],
      ],
    );
    helper.emit(message.result(res.id, { length: 8, optimal: true }));
    assert.deepEqual(await solving, { length: 8, optimal: true });
    assert.equal(pool.current, null);
  });

  test("an anytime solve: the improver reaching the lower bound ends it, the prover is stopped; a prover's solution is optimal", async () => {
    const { pool, workers } = await upWithHelper({ isolated: true });
    const [primary, helper] = workers;
    const solving = pool.solve({ text: "t", shape: "4x4", bound: "md", anytime: true, time_limit: 60 });
    answer(primary, Method.ANYTIME_FIRST, { path: [1, 2, 3, 4, 5, 6], moves: [1, 2, 3, 4, 5, 6], lower_bound: 4, bound: "md" });
    await tick();
    answer(primary, Method.ANYTIME_IMPROVE, { path: [1, 2, 3, 4], moves: [1, 2, 3, 4], carried: {}, done: false, nodes: 5 });
    await tick();
    assert.equal(helper.last(ToWorker.CANCEL).id, helper.calls(Method.ANYTIME_PROVE).at(-1).id, "the prover's iteration is cancelled");
    const res = primary.calls(Method.ANYTIME_RESULT).at(-1);
    assert.deepEqual([res.params.stopped, res.params.lower_bound, res.params.path, res.params.bound], ["optimal", 4, [1, 2, 3, 4], "md"]);
    primary.emit(message.result(res.id, { length: 4 }));
    assert.deepEqual(await solving, { length: 4 });
    // the prover finds a solution: optimal at once, shorter than the improvers' best
    const again = pool.solve({ text: "t", shape: "4x4", bound: "md", anytime: true, time_limit: 60 });
    answer(primary, Method.ANYTIME_FIRST, { path: [1, 2, 3, 4, 5, 6, 7, 8], moves: [1, 2, 3, 4, 5, 6, 7, 8], lower_bound: 2, bound: "md" });
    await tick();
    answer(helper, Method.ANYTIME_PROVE, { outcome: "found", threshold: 2, nodes: 3, seconds: 0.1, path: [7, 8], moves: [7, 8] });
    await tick();
    const res2 = helper.calls(Method.ANYTIME_RESULT).at(-1);
    assert.deepEqual([res2.params.stopped, res2.params.lower_bound, res2.params.path], ["optimal", 2, [7, 8]]);
    helper.emit(message.result(res2.id, { length: 2 }));
    assert.deepEqual(await again, { length: 2 });
  });

  test("an anytime solve with the helper still starting (Fast answer after a cancel): the primary improves alone, the helper proves once ready", async () => {
    const s = setup(2);
    s.pool.start("4x4");
    await s.ready(s.workers[0]);
    await tick();
    const [primary, helper] = s.workers;
    assert.deepEqual(s.pool.status(), { size: 2, ready: 1, starting: 1 });
    const progress = [];
    const solving = s.pool.solve({ text: "t", shape: "4x4", bound: "md", anytime: true, time_limit: 60 }, (p) => progress.push(p), { proven: 4 });
    assert.equal(primary.calls(Method.SOLVE).length, 0, "not the serial anytime search");
    answer(primary, Method.ANYTIME_FIRST, { path: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], moves: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], lower_bound: 6, bound: "md" });
    await tick();
    assert.deepEqual([progress.at(-1).length, progress.at(-1).lower_bound], [10, 6]);
    // nothing left for the improver on this path, nobody proving yet: the answer waits for the helper
    answer(primary, Method.ANYTIME_IMPROVE, { path: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], moves: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], carried: {}, done: true, nodes: 9 });
    await tick();
    assert.equal(primary.calls(Method.ANYTIME_IMPROVE).length, 1);
    assert.equal(primary.calls(Method.ANYTIME_RESULT).length, 0, "not exhausted while a helper starts");
    await s.ready(helper);
    await tick();
    // it proves from the largest bound proven so far (the root's 6, above the 4 proven before)
    const p1 = helper.calls(Method.ANYTIME_PROVE).at(-1);
    assert.equal(p1.params.threshold, 6);
    await new Promise((r) => setTimeout(r, 260)); // past the workers line's throttle
    helper.emit(message.progress(p1.id, { nodes: 5 }));
    assert.deepEqual(
      progress.at(-1).workers.map((w) => w.role),
      ["idle", "proving"],
    );
    answer(helper, Method.ANYTIME_PROVE, { outcome: "found", threshold: 6, nodes: 50, seconds: 0.2, path: [1, 2, 3, 4, 5, 6], moves: [1, 2, 3, 4, 5, 6] });
    await tick();
    const res = helper.calls(Method.ANYTIME_RESULT).at(-1);
    assert.deepEqual([res.params.stopped, res.params.lower_bound, res.params.path, res.params.workers, res.params.worker_nodes], ["optimal", 6, [1, 2, 3, 4, 5, 6], 2, [9, 50]]);
    helper.emit(message.result(res.id, { length: 6 }));
    assert.deepEqual(await solving, { length: 6 });
  });

  test("an anytime solve on 4 workers: the primary's beams start from the position, the third's from the target, the fourth's rank with noise family 1 from its own window offset; a first solution at the root's bound ends it at once", async () => {
    const s = await upWithAll(4);
    const [primary, prover, third, fourth] = s.workers;
    const solving = s.pool.solve({ text: "t", shape: "4x4", bound: "md", anytime: true, time_limit: 60 });
    answer(primary, Method.ANYTIME_FIRST, { path: [1, 2, 3, 4, 5, 6], moves: [1, 2, 3, 4, 5, 6], lower_bound: 2, bound: "md" });
    await tick();
    assert.equal(prover.calls(Method.ANYTIME_PROVE).length, 1);
    assert.equal(prover.calls(Method.ANYTIME_IMPROVE).length, 0);
    const w = fourth.calls(Method.ANYTIME_IMPROVE).at(-1);
    assert.deepEqual([w.params.mode, w.params.beams_from, w.params.noise_family, w.params.carried], ["beam+windows", "both", 1, { offset: 9 }]);
    const b = third.calls(Method.ANYTIME_IMPROVE).at(-1);
    assert.deepEqual([b.params.mode, b.params.beams_from, b.params.noise_family, b.params.carried], ["beam+windows", "target", 0, { offset: 6 }]);
    const a = primary.calls(Method.ANYTIME_IMPROVE).at(-1);
    assert.deepEqual([a.params.mode, a.params.beams_from, a.params.noise_family, a.params.carried], ["beam+windows", "position", 0, {}]);
    answer(third, Method.ANYTIME_IMPROVE, { path: [1, 2], moves: [1, 2], carried: { width: 256 }, done: false, nodes: 3 });
    await tick();
    // 2 moves = the root's bound: proven optimal, the result from the improver that found it, the prover stopped
    const res = third.calls(Method.ANYTIME_RESULT).at(-1);
    assert.deepEqual([res.params.stopped, res.params.path, res.params.lower_bound, res.params.workers], ["optimal", [1, 2], 2, 4]);
    assert.deepEqual(prover.cancels(), [{ type: ToWorker.CANCEL, id: prover.calls(Method.ANYTIME_PROVE)[0].id }], "the prover is stopped");
    assert.ok(!prover.terminated);
    third.emit(message.result(res.id, { length: 2 }));
    assert.deepEqual(await solving, { length: 2 });
    // the goal itself: its first "solution" (no move) is optimal at once, nothing else is asked
    const goal = s.pool.solve({ text: "g", shape: "4x4", bound: "md", anytime: true, time_limit: 60 });
    await tick();
    answer(primary, Method.ANYTIME_FIRST, { path: [], moves: [], lower_bound: 0, bound: "md" });
    await tick();
    const r2 = primary.calls(Method.ANYTIME_RESULT).at(-1);
    assert.deepEqual([r2.params.stopped, r2.params.path, r2.params.lower_bound], ["optimal", [], 0]);
    primary.emit(message.result(r2.id, { length: 0 }));
    assert.deepEqual(await goal, { length: 0 });
  });

  test("an anytime solve on 6 workers: NOISY_IMPROVERS (2) improvers past the beam helper rank with noise families 1 and 2, the sixth shortens windows; when the first noisy one dies the next takes family 1", async () => {
    assert.equal(NOISY_IMPROVERS, 2);
    const s = await upWithAll(6);
    const [primary, prover, third, fourth, fifth, sixth] = s.workers;
    const solving = s.pool.solve({ text: "t", shape: "4x4", bound: "md", anytime: true, time_limit: 60 });
    solving.catch(() => {});
    answer(primary, Method.ANYTIME_FIRST, { path: [1, 2, 3, 4, 5, 6], moves: [1, 2, 3, 4, 5, 6], lower_bound: 2, bound: "md" });
    await tick();
    assert.equal(prover.calls(Method.ANYTIME_PROVE).length, 1);
    const roles = (w) => {
      const c = w.calls(Method.ANYTIME_IMPROVE).at(-1).params;
      return [c.mode, c.beams_from, c.noise_family];
    };
    assert.deepEqual([primary, third, fourth, fifth, sixth].map(roles), [
      ["beam+windows", "position", 0],
      ["beam+windows", "target", 0],
      ["beam+windows", "both", 1],
      ["beam+windows", "both", 2],
      ["windows", "both", 0],
    ]);
    fourth.onerror({ message: "out of memory", preventDefault() {} });
    await tick();
    answer(fifth, Method.ANYTIME_IMPROVE, { path: [1, 2, 3, 4, 5], moves: [1, 2, 3, 4, 5], carried: { width: 512 }, done: false, nodes: 5 });
    answer(sixth, Method.ANYTIME_IMPROVE, { path: [1, 2, 3, 4, 5, 6], moves: [1, 2, 3, 4, 5, 6], carried: { offset: 15 }, done: false, nodes: 5 });
    await tick();
    assert.deepEqual([fifth, sixth].map(roles), [
      ["beam+windows", "both", 1],
      ["beam+windows", "both", 2],
    ]);
    const done = s.pool.cancel();
    await done;
  });

  test("an anytime solve on 3 workers: when the beam helper dies the primary's beams start from both ends again", async () => {
    const s = await upWithAll(3);
    const [primary, prover, third] = s.workers;
    const solving = s.pool.solve({ text: "t", shape: "4x4", bound: "md", anytime: true, time_limit: 60 });
    solving.catch(() => {});
    answer(primary, Method.ANYTIME_FIRST, { path: [1, 2, 3, 4, 5, 6], moves: [1, 2, 3, 4, 5, 6], lower_bound: 2, bound: "md" });
    await tick();
    assert.equal(prover.calls(Method.ANYTIME_PROVE).length, 1);
    assert.equal(third.calls(Method.ANYTIME_IMPROVE).at(-1).params.beams_from, "target");
    assert.equal(primary.calls(Method.ANYTIME_IMPROVE).at(-1).params.beams_from, "position");
    third.onerror({ message: "out of memory", preventDefault() {} });
    await tick();
    answer(primary, Method.ANYTIME_IMPROVE, { path: [1, 2, 3, 4, 5], moves: [1, 2, 3, 4, 5], carried: { width: 512 }, done: false, nodes: 5 });
    await tick();
    const next = primary.calls(Method.ANYTIME_IMPROVE).at(-1);
    assert.deepEqual([next.params.mode, next.params.beams_from, next.params.carried], ["beam+windows", "both", { width: 512 }]);
    const done = s.pool.cancel();
    await done;
  });

  test("an anytime solve past its time limit: the calls end by themselves, the best found is the answer", async () => {
    const { pool, workers } = await upWithHelper();
    const [primary, helper] = workers;
    const solving = pool.solve({ text: "t", shape: "4x4", bound: "md", anytime: true, time_limit: 0.2 });
    answer(primary, Method.ANYTIME_FIRST, { path: [1, 2, 3, 4, 5, 6], moves: [1, 2, 3, 4, 5, 6], lower_bound: 2, bound: "md" });
    await tick();
    const improving = primary.calls(Method.ANYTIME_IMPROVE).at(-1);
    assert.ok(improving.params.time_limit > 0 && improving.params.time_limit <= 0.2, improving.params.time_limit);
    await new Promise((r) => setTimeout(r, 250));
    answer(helper, Method.ANYTIME_PROVE, { outcome: "stopped", threshold: 2, nodes: 0, seconds: 0.2 });
    await tick();
    assert.equal(primary.calls(Method.ANYTIME_RESULT).length, 0, "the improver's call still runs");
    answer(primary, Method.ANYTIME_IMPROVE, { path: [1, 2, 3, 4], moves: [1, 2, 3, 4], carried: {}, done: false, nodes: 8 });
    await tick();
    assert.equal(primary.calls(Method.ANYTIME_IMPROVE).length, 1, "no call past the time limit");
    assert.equal(helper.calls(Method.ANYTIME_PROVE).length, 1);
    const res = primary.calls(Method.ANYTIME_RESULT).at(-1);
    assert.deepEqual([res.params.stopped, res.params.path, res.params.lower_bound, res.params.iterations], ["time", [1, 2, 3, 4], 2, []]);
    primary.emit(message.result(res.id, { length: 4, optimal: false }));
    assert.deepEqual(await solving, { length: 4, optimal: false });
  });

  test("an anytime solve: a prover that dies hands proving to nobody (the bound stays), cancel keeps nothing running", async () => {
    const { pool, workers } = await upWithHelper();
    const [primary, helper] = workers;
    const progress = [];
    const solving = pool.solve({ text: "t", shape: "4x4", bound: "md", anytime: true, time_limit: 60 }, (p) => progress.push(p));
    answer(primary, Method.ANYTIME_FIRST, { path: [1, 2, 3, 4, 5, 6], moves: [1, 2, 3, 4, 5, 6], lower_bound: 4, bound: "md" });
    await tick();
    helper.onerror({ message: "out of memory", preventDefault() {} });
    await tick();
    const i1 = primary.calls(Method.ANYTIME_IMPROVE).at(-1);
    answer(primary, Method.ANYTIME_IMPROVE, { path: [1, 2, 3, 4, 5, 6], moves: [1, 2, 3, 4, 5, 6], carried: {}, done: false, nodes: 5 });
    await tick();
    assert.notEqual(primary.calls(Method.ANYTIME_IMPROVE).at(-1).id, i1.id, "the primary goes on improving");
    assert.equal(progress.filter((p) => p.kind === "anytime").at(-1).lower_bound, 4);
    const started = pool.workersStarted;
    const done = pool.cancel();
    await assert.rejects(solving, (e) => e.type === ErrorType.CANCELLED);
    await done;
    assert.equal(primary.last(ToWorker.CANCEL).id, primary.calls(Method.ANYTIME_IMPROVE).at(-1).id, "the improver's call is cancelled");
    assert.ok(!primary.terminated);
    assert.equal(pool.workersStarted, started, "no restart");
  });

  test("a parallel solve: largest first, aggregated progress, a step per iteration, the finder's result", async () => {
    const { pool, workers } = await upWithHelper();
    const [primary, helper] = workers;
    const progress = [];
    const solving = pool.solve({ text: "t", shape: "4x4", bound: "auto" }, (p) => progress.push(p));
    const begin = primary.calls(Method.PARALLEL_BEGIN).at(-1);
    assert.deepEqual(begin.params, { text: "t", shape: "4x4", bound: "auto", workers: 2 });
    answer(primary, Method.PARALLEL_BEGIN, WORK);
    await tick();
    // the two largest bundles go out first, one per worker
    const t1 = primary.calls(Method.PARALLEL_TASKS).at(-1);
    const t2 = helper.calls(Method.PARALLEL_TASKS).at(-1);
    assert.deepEqual(
      t1.params.tasks.map((t) => t.id),
      [1],
    );
    assert.deepEqual(
      t2.params.tasks.map((t) => t.id),
      [2],
    );
    assert.equal(t1.progress, true);
    // live progress from both workers is summed
    primary.emit(message.progress(t1.id, { nodes: 300 }));
    await new Promise((r) => setTimeout(r, 260));
    helper.emit(message.progress(t2.id, { nodes: 200 }));
    const last = progress.at(-1);
    assert.equal(last.bound, 40);
    assert.equal(last.iteration_nodes, 5 + 300 + 200);
    assert.equal(last.nodes, 100 + 5 + 300 + 200);
    assert.deepEqual(
      last.workers.map((w) => w.nodes),
      [300, 200],
    );
    // the helper finishes first and takes the third bundle
    helper.emit(message.result(t2.id, { outcomes: [{ id: 2, path: null, nodes: 250, stopped: false }] }));
    await tick();
    const t3 = helper.calls(Method.PARALLEL_TASKS).at(-1);
    assert.deepEqual(
      t3.params.tasks.map((t) => t.id),
      [3, 4],
    );
    helper.emit(message.result(t3.id, { outcomes: [{ id: 3, path: null, nodes: 7, stopped: false }, { id: 4, path: null, nodes: 2, stopped: false }] }));
    await tick();
    assert.equal(primary.calls(Method.PARALLEL_STEP).length, 0, "no step while a task runs");
    primary.emit(message.result(t1.id, { outcomes: [{ id: 1, path: null, nodes: 1000, stopped: false }] }));
    await tick();
    const step = primary.calls(Method.PARALLEL_STEP).at(-1);
    assert.equal(step.params.search, 7);
    assert.deepEqual(
      step.params.outcomes.map((o) => [o.id, o.nodes]).sort(),
      [
        [1, 1000],
        [2, 250],
        [3, 7],
        [4, 2],
      ],
    );
    // next iteration: the helper's task finds the solution; the primary's is stopped (a CANCEL: no restart)
    answer(primary, Method.PARALLEL_STEP, { ...WORK, bound: 42, split_nodes: 1, iterations: [...WORK.iterations, { bound: 40, nodes: 1264, seconds: 1 }], bundles: [[task(5, 9, [4, 8])], [task(6, 3, [1])]] });
    await tick();
    const t5 = primary.calls(Method.PARALLEL_TASKS).at(-1);
    const t6 = helper.calls(Method.PARALLEL_TASKS).at(-1);
    assert.equal(t5.params.tasks[0].id, 5);
    helper.emit(message.result(t6.id, { outcomes: [{ id: 6, path: [2, 3], nodes: 11, stopped: false }] }));
    await tick();
    assert.equal(primary.last(ToWorker.CANCEL).id, t5.id, "the primary's task was stopped");
    assert.ok(!primary.terminated);
    assert.equal(workers.length, 2, "no worker restarts");
    const res = helper.calls(Method.PARALLEL_RESULT).at(-1);
    assert.deepEqual(res.params.path, [1, 2, 3]);
    assert.equal(res.params.bound, "md");
    assert.equal(res.params.workers, 2);
    assert.deepEqual(
      res.params.iterations.map((it) => [it.bound, it.nodes]),
      [
        [38, 100],
        [40, 1264],
        [42, 12],
      ],
    );
    assert.deepEqual(res.params.worker_nodes, [1000, 270]);
    helper.emit(message.result(res.id, { length: 3, moves: [1, 2, 3] }));
    assert.deepEqual(await solving, { length: 3, moves: [1, 2, 3] });
  });

  test("a primary that does not answer the stop after a solution found elsewhere restarts silently: the page sees no restart", async () => {
    const { pool, workers, events } = await upWithHelper({ cancelWait: 10 });
    const solving = pool.solve({ text: "t", shape: "4x4", bound: "md" });
    answer(workers[0], Method.PARALLEL_BEGIN, WORK);
    await tick();
    workers[0].stuck = true;
    const t2 = workers[1].calls(Method.PARALLEL_TASKS).at(-1);
    workers[1].emit(message.result(t2.id, { outcomes: [{ id: 2, path: [5], nodes: 1, stopped: false }] }));
    await tick();
    answer(workers[1], Method.PARALLEL_RESULT, { length: 2 });
    await solving;
    await new Promise((r) => setTimeout(r, 30));
    assert.ok(workers[0].terminated, "the stuck primary is restarted");
    assert.equal(pool.workersStarted, 3);
    // the page hears worker 1's starts, the silent restart included (html[data-solver-starts])
    assert.deepEqual(events.filter((e) => e[0] === "started").map((e) => e[1]), [1, 2]);
    const before = events.length;
    workers[2].emit(READY());
    await tick();
    assert.deepEqual(
      events.slice(before).filter((e) => e[0] !== "pool"),
      [],
    );
    assert.equal(events.filter((e) => e[0] === "restart").length, 0);
  });

  test("a helper that dies mid-task: its bundle is searched again by another worker", async () => {
    const { pool, workers } = await upWithHelper();
    const [primary, helper] = workers;
    const solving = pool.solve({ text: "t", shape: "4x4", bound: "md" });
    answer(primary, Method.PARALLEL_BEGIN, { ...WORK, bundles: [[task(1, 9)], [task(2, 5)]] });
    await tick();
    const t1 = primary.calls(Method.PARALLEL_TASKS).at(-1);
    assert.equal(helper.calls(Method.PARALLEL_TASKS).at(-1).params.tasks[0].id, 2);
    helper.onerror({ message: "out of memory", preventDefault() {} });
    await tick();
    primary.emit(message.result(t1.id, { outcomes: [{ id: 1, path: null, nodes: 40, stopped: false }] }));
    await tick();
    const again = primary.calls(Method.PARALLEL_TASKS).at(-1);
    assert.deepEqual(
      again.params.tasks.map((t) => t.id),
      [2],
      "the dead helper's task runs on the primary",
    );
    primary.emit(message.result(again.id, { outcomes: [{ id: 2, path: [3], nodes: 6, stopped: false }] }));
    await tick();
    const res = answer(primary, Method.PARALLEL_RESULT, { length: 2 });
    assert.deepEqual(res.params.path, [2, 3]);
    assert.deepEqual(res.params.worker_nodes, [46, 0], "the dead helper's partial work counts for nothing");
    assert.deepEqual(await solving, { length: 2 });
    await tick();
    assert.equal(workers.length, 3, "a new helper is started in the background");
  });

  test("cancel with interrupt buffers of workers that do not hear it: SIGINT to every busy worker, none restarted", async () => {
    const { pool, workers } = await upWithHelper({ isolated: true, interruptAfter: 5 });
    const solving = pool.solve({ text: "t", shape: "4x4", bound: "md" });
    answer(workers[0], Method.PARALLEL_BEGIN, WORK);
    await tick();
    for (const w of workers) w.stuck = true;
    const done = pool.cancel();
    await assert.rejects(solving, (e) => e.type === ErrorType.CANCELLED);
    await new Promise((r) => setTimeout(r, 20));
    for (const w of workers) {
      const client = w === workers[0] ? pool.primary : pool.helpers[0].client;
      assert.equal(Atomics.load(client.interrupt, 0), SIGINT);
      const req = w.calls(Method.PARALLEL_TASKS).at(-1);
      w.emit(message.error(req.id, { type: ErrorType.CANCELLED, message: "Cancelled." }));
    }
    workers[0].emit(message.result(workers[0].calls(Method.PARALLEL_DROP).at(-1).id, {}));
    await done;
    assert.equal(workers.length, 2, "no worker restarted");
    assert.ok(!workers[0].terminated && !workers[1].terminated);
  });

  test("cancel without interrupt buffers (a first visit, any engine): a CANCEL to every busy worker, none restarted", async () => {
    const { pool, workers, events } = await upWithHelper();
    const solving = pool.solve({ text: "t", shape: "4x4", bound: "md" });
    answer(workers[0], Method.PARALLEL_BEGIN, WORK);
    await tick();
    assert.equal(pool.workersStarted, 2);
    const done = pool.cancel();
    await assert.rejects(solving, (e) => e.type === ErrorType.CANCELLED);
    await done;
    for (const w of workers) assert.equal(w.last(ToWorker.CANCEL).id, w.calls(Method.PARALLEL_TASKS).at(-1).id);
    assert.ok(!workers[0].terminated && !workers[1].terminated);
    assert.equal(workers.length, 2);
    assert.equal(pool.workersStarted, 2, "no restart");
    assert.equal(events.filter((e) => e[0] === "restart").length, 0);
    // the next solve starts at once on the same workers
    const next = pool.solve({ text: "t", shape: "4x4", bound: "md" });
    answer(workers[0], Method.PARALLEL_BEGIN, { ...WORK, solved_path: [1], iterations: [] });
    await tick();
    answer(workers[0], Method.PARALLEL_RESULT, { length: 1 });
    assert.deepEqual(await next, { length: 1 });
    assert.equal(FromWorker.READY, "ready");
  });

  test("cancel of a stuck worker: restarted once it has not answered in time (the page is told)", async () => {
    const { pool, workers, events } = await upWithHelper({ cancelWait: 10 });
    const solving = pool.solve({ text: "t", shape: "4x4", bound: "md" });
    answer(workers[0], Method.PARALLEL_BEGIN, WORK);
    await tick();
    workers[0].stuck = true;
    const done = pool.cancel();
    await assert.rejects(solving, (e) => e.type === ErrorType.CANCELLED);
    await tick();
    assert.ok(!workers[1].terminated, "the helper answered");
    await new Promise((r) => setTimeout(r, 30));
    assert.ok(workers[0].terminated);
    assert.equal(workers[2].sent[0].type, ToWorker.INIT);
    assert.equal(events.filter((e) => e[0] === "restart").length, 1, "the page sees its solver restart");
    workers[2].emit(READY());
    await done;
  });
});
