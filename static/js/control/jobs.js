// The page's jobs: everything the page asks of the solver, one job at a time.
//
// The solver (its first worker, where every request but a parallel search's tasks runs)
// serves one request at a time, in order: a request sent while another runs waits behind
// it.  So every request goes through here, as a job of a kind (JobKind), and:
//
//   * one job runs at a time; the others wait in order, and a job of a kind that is already
//     waiting replaces it (a newer explain of the board replaces an older one);
//   * every job but the quiet ones (a check of the typed text, the bounds line, the warm-up)
//     is shown while it runs: the status line names it, with its seconds (of its budget)
//     and a Stop (Jobs.status());
//   * a job the user starts (a click) while a long job runs stops that job first and says
//     so ("stopping the comparison first"); a job the page starts by itself (a card that
//     follows the board) waits and says what for;
//   * a long job has a time budget where it can run long (a hint: the one search it needs
//     may take minutes); when it runs out the job is stopped and its owner is told why;
//   * a change of position stops the jobs that belong to the old one (positionChanged);
//   * a short job (quick: milliseconds) is never stopped: a stop lets it end and its answer is
//     dropped.
//
// Stopping is the solver's cancel (SolverPool.cancel: a CANCEL that the worker hears between two
// time slices of its call, within tens of milliseconds; only a worker that does not answer is
// restarted); the next job starts once the solver is usable again.  A stopped job's promise rejects with a CANCELLED error whose `why`
// (Why) says what stopped it and `by` which job did.  Pure of the DOM: the status line is
// drawn by the caller from status() when onChange fires (tests/js/jobs.test.mjs).

import { ErrorType } from "../solver/protocol.js";

/** The kinds of job. */
export const JobKind = Object.freeze({
  SOLVE: "solve",
  HINT: "hint",
  MOVES: "moves", // every optimal move (a hint)
  COMPARE: "compare",
  TRACE: "trace",
  EXPLAIN: "explain",
  EXPLORE: "explore",
  PACK: "pack",
  CHECK: "check", // a typed text or a link's position, checked by the solver's parser
  BOUNDS: "bounds",
  WARMUP: "warmup",
  INFO: "info",
});

/**
 * What each kind is.  title: the status line's words; name: the job in a sentence ("stopping
 * the hint first"); long: it may run long (it can be
 * stopped, and a user's new job stops it first); budget: seconds it may run before it is
 * stopped; position: it belongs to the position (a new one stops it); moves: it is a change of
 * position under way (what it stops, it stops for that reason); quiet: never shown;
 * idle: run only when nothing else runs or waits (else skipped); keep: a user's new job waits
 * for it instead of stopping it (a pack's download, stopped only by its own Cancel).
 */
export const KINDS = Object.freeze({
  [JobKind.SOLVE]: { title: "Solving", name: "the solve", long: true },
  [JobKind.HINT]: { title: "Hint: looking for the next optimal move", name: "the hint", long: true, budget: 30, position: true },
  [JobKind.MOVES]: { title: "Hint: looking at every move", name: "the hint", long: true, budget: 60, position: true },
  [JobKind.COMPARE]: { title: "Comparing bounds", name: "the comparison", long: true, position: true },
  [JobKind.PACK]: { title: "Downloading a pack", name: "the download", long: true, keep: true },
  [JobKind.TRACE]: { title: "Tracing the bounds along the solution", name: "the bound trace", position: true },
  [JobKind.EXPLAIN]: { title: "Explaining the bounds", name: "the explanation", position: true },
  [JobKind.EXPLORE]: { title: "Reading the explorer's table", name: "the explorer", position: true },
  [JobKind.CHECK]: { title: "Checking the position", name: "the check", quiet: true, moves: true },
  [JobKind.BOUNDS]: { title: "Computing the bounds", name: "the bounds", quiet: true },
  [JobKind.WARMUP]: { title: "Warming up", name: "the warm-up", quiet: true, idle: true },
  [JobKind.INFO]: { title: "Asking the solver", name: "a question", quiet: true },
});

/** Why a job was stopped (the CANCELLED error's `why`). */
export const Why = Object.freeze({
  USER: "user", // its Stop (or Cancel)
  REPLACED: "replaced", // a job the user started (`by`)
  POSITION: "position", // the position changed
  BUDGET: "budget", // its time budget ran out
  NEWER: "newer", // a newer job of its kind took its place while it waited
});

/** A short job is shown in the status line only once it has run this long (ms): no flicker. */
export const SHOW_AFTER_MS = 400;

const defaultClock = {
  now: () => performance.now(),
  setTimeout: (f, ms) => setTimeout(f, ms),
  clearTimeout: (t) => clearTimeout(t),
};

/** The error a stopped job's promise rejects with. */
export class JobStopped extends Error {
  constructor(job) {
    super(stoppedText(job));
    this.type = ErrorType.CANCELLED;
    this.why = job.why;
    this.by = job.by;
    this.kind = job.kind;
    this.budget = job.budget;
  }
}

/** "Stopped for the solve.", ... (how the owner of a stopped job may say it). */
export function stoppedText(job) {
  switch (job.why) {
    case Why.BUDGET:
      return `No answer within the budget of ${job.budget} s.`;
    case Why.POSITION:
      return "Stopped: the position changed.";
    case Why.REPLACED:
      return `Stopped for ${job.by || "another job"}.`;
    case Why.NEWER:
      return "Replaced by a newer request.";
    default:
      return "Stopped.";
  }
}

let seq = 0;

export class Jobs {
  /**
   * client: the solver: cancel() stops what runs in it and resolves once it is usable again.
   * onChange(): what status() says changed (a job started, waits, ended, a second passed).
   * clock: now(), setTimeout, clearTimeout (the tests' fake clock).
   */
  constructor(client, { onChange = () => {}, clock = defaultClock } = {}) {
    this.client = client;
    this.onChange = onChange;
    this.clock = clock;
    this.running = null; // the job in the solver
    this.queue = []; // jobs waiting, in order
    this.stopping = null; // {job, promise}: a stop under way (the solver is not usable until it ends)
    this.ticker = 0; // the status line's once-a-second timer
  }

  /**
   * Run `work(job)` (a promise of its result, asking the solver) as a job of `kind`.
   * options: user (a click started it: a long job running is stopped first), title (instead
   * of the kind's), budget (seconds, instead of the kind's), onWait(text) (told when it has to
   * wait, and for what).  Returns the promise of work's result; a stopped job's rejects with
   * JobStopped; an `idle` job that cannot run at once resolves to null without running.
   */
  run(kind, work, { user = false, title, budget, onWait } = {}) {
    const spec = KINDS[kind];
    if (!spec) throw new Error(`unknown job kind ${kind}`);
    if (spec.idle && (this.running || this.stopping || this.queue.length)) return Promise.resolve(null);
    const job = {
      id: ++seq,
      kind,
      title: title || spec.title,
      name: spec.name,
      long: !!spec.long,
      quiet: !!spec.quiet,
      position: !!spec.position,
      keep: !!spec.keep,
      moves: !!spec.moves,
      budget: budget ?? spec.budget ?? null,
      user,
      work,
      onWait,
      startedAt: null,
      why: null,
      by: null,
      timer: 0,
    };
    job.promise = new Promise((resolve, reject) => {
      job.resolve = resolve;
      job.reject = reject;
    });
    // A newer job of the same kind replaces one that still waits.
    for (const old of this.queue.filter((j) => j.kind === kind)) this.drop(old, Why.NEWER);
    const blocker = this.stopping?.job || this.running;
    if (blocker && blocker.long && user && !blocker.keep) {
      this.queue.unshift(job); // first once the solver is free again
      if (!this.stopping) this.stop(blocker, job.moves ? Why.POSITION : Why.REPLACED, job.name);
    } else {
      this.queue.push(job);
    }
    if (blocker && blocker.long) onWait?.(this.waitText(job));
    this.pump();
    this.changed();
    return job.promise;
  }

  /** What `job`, waiting, waits for. */
  waitText(job) {
    const blocker = this.stopping?.job || this.running;
    if (!blocker) return "";
    if (this.stopping || (job.user && !blocker.keep)) return `Stopping ${blocker.name} first…`;
    return `Waiting for ${blocker.name} to end…`;
  }

  /** Start the next job when the solver is free. */
  pump() {
    if (this.running || this.stopping) return;
    const job = this.queue.shift();
    if (!job) return;
    this.running = job;
    job.startedAt = this.clock.now();
    if (job.budget) job.timer = this.clock.setTimeout(() => this.stop(job, Why.BUDGET), job.budget * 1000);
    this.tick();
    let out;
    try {
      out = Promise.resolve(job.work(job));
    } catch (e) {
      out = Promise.reject(e);
    }
    out.then(
      (result) => this.ended(job, null, result),
      (error) => this.ended(job, error ?? new Error("failed"), undefined),
    );
  }

  ended(job, error, result) {
    this.clock.clearTimeout(job.timer);
    if (this.running === job) this.running = null;
    if (job.why) job.reject(new JobStopped(job));
    else if (error) job.reject(error);
    else job.resolve(result);
    this.pump();
    this.changed();
  }

  /** Take a waiting job out of the queue: its promise rejects (JobStopped, `why`). */
  drop(job, why) {
    this.queue = this.queue.filter((j) => j !== job);
    job.why = why;
    job.reject(new JobStopped(job));
  }

  /**
   * Stop `job` (the running one by default; a waiting one leaves the queue) for `why`
   * (`by`: the title of the job it makes way for).  A long job is stopped in the solver;
   * a short one is let to end, its answer dropped.  Resolves with {restarted, seconds} once the
   * solver is usable again (restarted: the worker had to be started afresh).
   */
  stop(job = this.running, why = Why.USER, by = null) {
    if (!job) return Promise.resolve({ restarted: false, seconds: 0 });
    if (this.queue.includes(job)) {
      this.drop(job, why);
      return Promise.resolve({ restarted: false, seconds: 0 });
    }
    if (job !== this.running) return this.stopping?.job === job ? this.stopping.promise : Promise.resolve({ restarted: false, seconds: 0 });
    job.why ??= why;
    job.by ??= by;
    if (!job.long) return Promise.resolve({ restarted: false, seconds: 0 }); // it ends by itself
    return this.cancel(job);
  }

  /** Cancel what runs in the solver (for `job`); resolves with {restarted, seconds} once it is usable. */
  cancel(job) {
    const t0 = this.clock.now();
    const stopping = { job, restarted: false, skip: false, promise: null };
    this.stopping = stopping; // (before the cancel: a restart it causes is reported at once)
    let cancelled;
    try {
      cancelled = Promise.resolve(this.client.cancel());
    } catch (e) {
      cancelled = Promise.reject(e);
    }
    const done = () => this.stopDone(stopping, t0);
    stopping.promise = cancelled.then(done, done);
    this.changed();
    return stopping.promise;
  }

  stopDone(stopping, t0) {
    if (this.stopping === stopping) this.stopping = null;
    this.pump();
    this.changed();
    return { restarted: stopping.restarted, seconds: (this.clock.now() - t0) / 1000 };
  }

  /** Resolves once no stop is under way (the solver is usable again). */
  settled() {
    return this.stopping ? this.stopping.promise.then(() => this.settled()) : Promise.resolve();
  }

  /** The solver's worker had to be started afresh (a stop under way restarted it). */
  workerRestarted() {
    if (this.stopping) this.stopping.restarted = true;
  }

  /** Stop the running job's current request only (the comparison's Skip); the job goes on. */
  skip() {
    const job = this.running;
    if (!job || !job.long || this.stopping) return Promise.resolve();
    const skipped = this.cancel(job);
    this.stopping.skip = true;
    return skipped;
  }

  /** The position changed: the jobs that belong to the old one stop (a solve is the model's). */
  positionChanged() {
    for (const job of this.queue.filter((j) => j.position)) this.drop(job, Why.POSITION);
    if (this.running?.position) this.stop(this.running, Why.POSITION);
  }

  /** What runs, stops and waits, in a line ("bounds · waiting: warmup, info"; "" when idle): #status[data-jobs], for the tests. */
  describe() {
    const now = this.stopping ? `stopping ${this.stopping.job.kind}` : this.running?.kind || "";
    const waiting = this.queue.map((j) => j.kind).join(", ");
    return waiting ? `${now || "idle"} · waiting: ${waiting}` : now;
  }

  /** True while a job runs, stops or waits. */
  busy() {
    return !!(this.running || this.stopping || this.queue.length);
  }

  /** The job of `kind` that runs, stops or waits (the first), or null. */
  find(kind) {
    if (this.running?.kind === kind) return this.running;
    return this.queue.find((j) => j.kind === kind) || null;
  }

  /**
   * What the status line shows: null, or {kind, text, seconds, budget, stoppable} for the job
   * the user should see (a quiet one never; a short one after SHOW_AFTER_MS).
   */
  status() {
    const job = this.stopping?.job || this.running;
    if (!job || job.quiet) return null;
    const seconds = (this.clock.now() - (job.startedAt ?? this.clock.now())) / 1000;
    if (!job.long && seconds * 1000 < SHOW_AFTER_MS) return null;
    const waiting = this.queue.find((j) => !j.quiet && j.user);
    let text;
    if (this.stopping?.skip) text = `${job.title}…`;
    else if (this.stopping && waiting) text = `${waiting.title} · stopping ${job.name} first…`;
    else if (this.stopping) text = `Stopping ${job.name}…`;
    else text = `${job.title}…`;
    return { kind: job.kind, text, seconds: Math.floor(seconds), budget: job.budget, stoppable: job.long && !this.stopping };
  }

  /** Tell the caller, and keep telling it once a second while a job is shown. */
  changed() {
    this.onChange();
  }

  /** Schedule the status line's updates while a job runs: once at SHOW_AFTER_MS, then every second. */
  tick() {
    this.clock.clearTimeout(this.ticker);
    const job = this.running;
    if (!job || job.quiet) return;
    const elapsed = this.clock.now() - job.startedAt;
    const next = elapsed < SHOW_AFTER_MS ? SHOW_AFTER_MS - elapsed : 1000 - ((elapsed - SHOW_AFTER_MS) % 1000);
    this.ticker = this.clock.setTimeout(() => {
      if (this.running !== job) return;
      this.changed();
      this.tick();
    }, next);
  }
}
