// jobs.js: one job at a time in the solver; a user's job stops a long one first and says so;
// the others wait and say what for; budgets, position changes, short jobs never stopped; what
// the status line shows.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { JobKind, JobStopped, Jobs, SHOW_AFTER_MS, Why, stoppedText } from "../../static/js/control/jobs.js";

/** A promise with its resolve and reject. */
function deferred() {
  let resolve;
  let reject;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A manual clock: timers run when the test advances it. */
class Clock {
  constructor() {
    this.t = 0;
    this.timers = new Map();
    this.seq = 0;
  }
  now() {
    return this.t;
  }
  setTimeout(f, ms) {
    const id = ++this.seq;
    this.timers.set(id, { at: this.t + ms, f });
    return id;
  }
  clearTimeout(id) {
    this.timers.delete(id);
  }
  advance(ms) {
    const end = this.t + ms;
    for (;;) {
      const next = [...this.timers.entries()].filter(([, x]) => x.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!next) break;
      this.timers.delete(next[0]);
      this.t = next[1].at;
      next[1].f();
    }
    this.t = end;
  }
}

/**
 * A solver whose requests the test settles: each `request()` is pending until answered; cancel()
 * fails the pending one as cancelled (as the worker's KeyboardInterrupt or restart does) and
 * resolves once the test says the solver is usable again.
 */
class FakeSolver {
  constructor() {
    this.pending = [];
    this.cancels = 0;
    this.usable = null;
  }
  request(name) {
    const d = deferred();
    d.name = name;
    this.pending.push(d);
    return d.promise;
  }
  answer(name, value = name) {
    const i = this.pending.findIndex((d) => d.name === name);
    assert.ok(i >= 0, `no pending ${name}: ${this.pending.map((d) => d.name)}`);
    this.pending.splice(i, 1)[0].resolve(value);
  }
  cancel() {
    this.cancels += 1;
    for (const d of this.pending.splice(0)) d.reject(Object.assign(new Error("Cancelled."), { type: "cancelled" }));
    this.usable = deferred();
    return this.usable.promise;
  }
}

const flush = () => new Promise((r) => setTimeout(r, 0));

function setup() {
  const clock = new Clock();
  const solver = new FakeSolver();
  let changes = 0;
  const jobs = new Jobs(solver, { clock, onChange: () => changes++ });
  return { clock, solver, jobs, changes: () => changes };
}

/** The promise's outcome, without rejecting: ["ok", value] or ["stopped", why, by] or ["error", message]. */
const outcome = (p) => p.then(
  (v) => ["ok", v],
  (e) => (e instanceof JobStopped ? ["stopped", e.why, e.by] : ["error", e.message]),
);

/** The stopped job's text, as its owner says it. */
const stoppedMessage = (p) => p.then(
  () => null,
  (e) => stoppedText(e),
);

describe("one job at a time", () => {
  test("jobs run in order, each once the one before ended", async () => {
    const { solver, jobs } = setup();
    const a = outcome(jobs.run(JobKind.BOUNDS, () => solver.request("bounds")));
    const b = outcome(jobs.run(JobKind.EXPLAIN, () => solver.request("explain")));
    await flush();
    assert.deepEqual(solver.pending.map((d) => d.name), ["bounds"], "the second waits: nothing queues in the worker");
    solver.answer("bounds");
    await flush();
    assert.deepEqual(solver.pending.map((d) => d.name), ["explain"]);
    solver.answer("explain");
    assert.deepEqual(await a, ["ok", "bounds"]);
    assert.deepEqual(await b, ["ok", "explain"]);
    assert.equal(jobs.busy(), false);
  });

  test("describe() says what runs, stops and waits", async () => {
    const { solver, jobs } = setup();
    assert.equal(jobs.describe(), "");
    jobs.run(JobKind.COMPARE, () => solver.request("compare")).catch(() => {});
    jobs.run(JobKind.BOUNDS, () => solver.request("bounds")).catch(() => {});
    jobs.run(JobKind.INFO, () => solver.request("info")).catch(() => {});
    assert.equal(jobs.describe(), "compare · waiting: bounds, info");
    jobs.stop();
    assert.equal(jobs.describe(), "stopping compare · waiting: bounds, info");
    solver.usable.resolve();
    await flush();
    assert.equal(jobs.describe(), "bounds · waiting: info");
  });

  test("a newer job of a kind takes the place of one that still waits", async () => {
    const { solver, jobs } = setup();
    jobs.run(JobKind.BOUNDS, () => solver.request("first"));
    const older = outcome(jobs.run(JobKind.EXPLAIN, () => solver.request("explain 1")));
    const newer = outcome(jobs.run(JobKind.EXPLAIN, () => solver.request("explain 2")));
    assert.deepEqual(await older, ["stopped", Why.NEWER, null]);
    solver.answer("first");
    await flush();
    solver.answer("explain 2");
    assert.deepEqual(await newer, ["ok", "explain 2"]);
  });

  test("an idle job runs only when nothing else runs or waits", async () => {
    const { solver, jobs } = setup();
    jobs.run(JobKind.BOUNDS, () => solver.request("bounds"));
    assert.equal(await jobs.run(JobKind.WARMUP, () => solver.request("warm-up")), null);
    solver.answer("bounds");
    await flush();
    const warm = jobs.run(JobKind.WARMUP, () => solver.request("warm-up"));
    await flush();
    solver.answer("warm-up");
    assert.equal(await warm, "warm-up");
  });
});

describe("a job the user starts while a long one runs", () => {
  test("stops it first, says so, and runs once the solver is usable again", async () => {
    const { solver, jobs } = setup();
    const hint = outcome(jobs.run(JobKind.HINT, () => solver.request("hint"), { user: true }));
    await flush();
    const waits = [];
    const solve = outcome(jobs.run(JobKind.SOLVE, () => solver.request("solve"), { user: true, onWait: (t) => waits.push(t) }));
    assert.deepEqual(waits, ["Stopping the hint first…"]);
    assert.equal(solver.cancels, 1);
    assert.equal(jobs.status().text, "Solving · stopping the hint first…");
    assert.deepEqual(await hint, ["stopped", Why.REPLACED, "the solve"]);
    await flush();
    assert.deepEqual(solver.pending.map((d) => d.name), [], "nothing is sent before the solver is usable");
    solver.usable.resolve();
    await flush();
    assert.deepEqual(solver.pending.map((d) => d.name), ["solve"]);
    solver.answer("solve", 57);
    assert.deepEqual(await solve, ["ok", 57]);
  });

  test("a page's own job (a card following the board) waits instead, and says what for", async () => {
    const { solver, jobs } = setup();
    jobs.run(JobKind.COMPARE, () => solver.request("compare"), { user: true });
    await flush();
    const waits = [];
    const explain = outcome(jobs.run(JobKind.EXPLAIN, () => solver.request("explain"), { onWait: (t) => waits.push(t) }));
    assert.deepEqual(waits, ["Waiting for the comparison to end…"]);
    assert.equal(solver.cancels, 0);
    solver.answer("compare");
    await flush();
    solver.answer("explain");
    assert.deepEqual(await explain, ["ok", "explain"]);
  });

  test("a pack's download is never stopped by another job: the user's job waits for it", async () => {
    const { solver, jobs } = setup();
    jobs.run(JobKind.PACK, () => solver.request("pack"), { user: true });
    await flush();
    const waits = [];
    jobs.run(JobKind.HINT, () => solver.request("hint"), { user: true, onWait: (t) => waits.push(t) });
    assert.equal(solver.cancels, 0);
    assert.deepEqual(waits, ["Waiting for the download to end…"]);
  });

  test("a change of position under way (a typed text's check) stops a long job for that reason", async () => {
    const { solver, jobs } = setup();
    const compare = outcome(jobs.run(JobKind.COMPARE, () => solver.request("compare"), { user: true }));
    await flush();
    jobs.run(JobKind.CHECK, () => solver.request("parse"), { user: true });
    assert.deepEqual(await compare, ["stopped", Why.POSITION, "the check"]);
  });
});

describe("stopping", () => {
  test("Stop: the job's promise says so; the solver's answer is {restarted, seconds}", async () => {
    const { clock, solver, jobs } = setup();
    const hint = outcome(jobs.run(JobKind.HINT, () => solver.request("hint"), { user: true }));
    await flush();
    const stopped = jobs.stop();
    assert.equal(jobs.status().text, "Stopping the hint…");
    assert.equal(jobs.status().stoppable, false, "no second Stop while it stops");
    jobs.workerRestarted(); // (no interrupt buffer: the worker was started afresh)
    clock.advance(1500);
    solver.usable.resolve();
    assert.deepEqual(await stopped, { restarted: true, seconds: 1.5 });
    assert.deepEqual(await hint, ["stopped", Why.USER, null]);
    assert.equal(stoppedText({ why: Why.USER }), "Stopped.");
  });

  test("a waiting job leaves the queue without a word to the solver", async () => {
    const { solver, jobs } = setup();
    jobs.run(JobKind.BOUNDS, () => solver.request("bounds"));
    const solve = outcome(jobs.run(JobKind.SOLVE, () => solver.request("solve"), { user: true }));
    jobs.stop(jobs.find(JobKind.SOLVE));
    assert.deepEqual(await solve, ["stopped", Why.USER, null]);
    assert.equal(solver.cancels, 0);
  });

  test("a short job is never stopped in the solver: it ends, its answer dropped", async () => {
    const { solver, jobs } = setup();
    const explain = outcome(jobs.run(JobKind.EXPLAIN, () => solver.request("explain")));
    await flush();
    jobs.stop(jobs.find(JobKind.EXPLAIN), Why.POSITION);
    assert.equal(solver.cancels, 0);
    solver.answer("explain");
    assert.deepEqual(await explain, ["stopped", Why.POSITION, null]);
  });

  test("the budget: a long job is stopped when it runs out, and its owner is told why", async () => {
    const { clock, solver, jobs } = setup();
    const run = jobs.run(JobKind.HINT, () => solver.request("hint"), { user: true });
    const hint = outcome(run);
    const message = stoppedMessage(run);
    await flush();
    clock.advance(29_000);
    assert.equal(solver.cancels, 0);
    assert.deepEqual(jobs.status(), { kind: JobKind.HINT, text: "Hint: looking for the next optimal move…", seconds: 29, budget: 30, stoppable: true });
    clock.advance(1_000);
    assert.equal(solver.cancels, 1);
    assert.deepEqual(await hint, ["stopped", Why.BUDGET, null]);
    assert.equal(await message, "No answer within the budget of 30 s.");
  });

  test("a new position stops the jobs of the old one (not a solve: the model cancels it) and drops those waiting", async () => {
    const { solver, jobs } = setup();
    const compare = outcome(jobs.run(JobKind.COMPARE, () => solver.request("compare"), { user: true }));
    await flush();
    const explain = outcome(jobs.run(JobKind.EXPLAIN, () => solver.request("explain")));
    const bounds = jobs.run(JobKind.BOUNDS, () => solver.request("bounds"));
    jobs.positionChanged();
    assert.deepEqual(await compare, ["stopped", Why.POSITION, null]);
    assert.deepEqual(await explain, ["stopped", Why.POSITION, null]);
    solver.usable.resolve();
    await flush();
    assert.deepEqual(solver.pending.map((d) => d.name), ["bounds"], "the bounds line is not the position's job: it runs");
    solver.answer("bounds");
    assert.equal(await bounds, "bounds");

    const solve = jobs.run(JobKind.SOLVE, () => solver.request("solve"), { user: true });
    await flush();
    jobs.positionChanged();
    assert.equal(solver.cancels, 1, "a solve is not stopped here");
    solver.answer("solve");
    assert.equal(await solve, "solve");
  });

  test("Skip stops the running request only: the job goes on once the solver is usable", async () => {
    const { solver, jobs } = setup();
    const calls = [];
    const compare = jobs.run(
      JobKind.COMPARE,
      async () => {
        for (const b of ["md", "pdb"]) {
          try {
            calls.push(await solver.request(b));
          } catch {
            calls.push(`${b} skipped`);
            await jobs.settled();
          }
        }
        return calls;
      },
      { user: true },
    );
    await flush();
    const skipped = jobs.skip();
    await flush();
    assert.deepEqual(solver.pending, [], "the next bound waits for the solver");
    solver.usable.resolve();
    await skipped;
    await flush();
    solver.answer("pdb");
    assert.deepEqual(await compare, ["md skipped", "pdb"]);
  });
});

describe("the status line", () => {
  test("quiet jobs never show; a short one only after SHOW_AFTER_MS; a long one at once with its seconds", async () => {
    const { clock, solver, jobs } = setup();
    jobs.run(JobKind.BOUNDS, () => solver.request("bounds"));
    await flush();
    assert.equal(jobs.status(), null);
    solver.answer("bounds");
    await flush();
    jobs.run(JobKind.EXPLAIN, () => solver.request("explain"));
    await flush();
    assert.equal(jobs.status(), null);
    clock.advance(SHOW_AFTER_MS);
    assert.equal(jobs.status().text, "Explaining the bounds…");
    assert.equal(jobs.status().stoppable, false, "a short job has no Stop");
    solver.answer("explain");
    await flush();
    jobs.run(JobKind.COMPARE, () => solver.request("compare"), { user: true });
    await flush();
    assert.deepEqual(jobs.status(), { kind: JobKind.COMPARE, text: "Comparing bounds…", seconds: 0, budget: null, stoppable: true });
  });

  test("onChange fires when a job starts, ends, and once a second while one is shown", async () => {
    const { clock, solver, jobs, changes } = setup();
    jobs.run(JobKind.COMPARE, () => solver.request("compare"), { user: true });
    await flush();
    const before = changes();
    clock.advance(3_000);
    assert.ok(changes() - before >= 3, `${changes() - before} updates in 3 s`);
    solver.answer("compare");
    await flush();
    const after = changes();
    clock.advance(3_000);
    assert.equal(changes(), after, "no updates once nothing runs");
  });
});
