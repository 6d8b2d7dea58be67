// Start-up and the solver's life: the pool of solver workers (solver/pool.js) and its
// handlers, the Loading card (each step's size and seconds, the timing line, html[data-ready-
// seconds] and html[data-phases]) and the status line's download figure (format.js downloadFigure), the
// Workers menu, this build's file list (static/build-info.json: download sizes, the service
// worker's version), offline support (offline.js: the service worker registered while the
// runtime starts, the precache once the solver is ready), the workers' background work
// (protocol.js BACKGROUND: the databases that come after Ready, the snapshot), the warm-up of
// each shape's first search, and a restart after a fatal error.  What the page does once the
// solver is (again) ready, lost or broken is main.js's (the hooks).

import { MAX_WORKERS, SolverPool, poolLimits } from "../solver/pool.js";
import { measureCores } from "../solver/cores.js";
import { SolverClient } from "../solver/client.js";
import { PAGE_BYTES, bytesPerWorker } from "../solver/memory.js";
import { pageControlled, startedWorkerAt } from "../solver/start.js";
import { ErrorType, LoadState, Stage, warmUpParams } from "../solver/protocol.js";
import { downloadFigure, formatSeconds, phasesText } from "../model/format.js";
import { prefs } from "../model/share.js";
import { registerOffline, precacheAll, serviceWorkerControls } from "./offline.js";
import { PoolView } from "../view/pool-view.js";

const STAGE_WHAT = { [Stage.RUNTIME]: "Python runtime", [Stage.SOLVER]: "solver", [Stage.DATABASES]: "databases" };

/** The error banner's title for a fatal error. */
export const fatalTitle = (err) => (err.type === ErrorType.ASSET ? "A database file is damaged" : "The solver could not start");

export class Startup {
  /**
   * hooks (main.js): model (PageModel), view (PageView), run(effects), and the page's part of
   * the solver's life: ready(msg), lost() (a restart began), failed(err) (a fatal error),
   * later(msg) (a LOADING message after READY: a database that came after Ready, protocol.js).
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.firstReady = true; // no READY yet
    this.cachedStart = pageControlled(); // this build's service worker served the page
    this.readySeconds = 0; // seconds from opening the page (its navigation's start) to the first READY
    this.phases = {}; // the first start-up's phases in seconds (format.js PHASES)
    this.warnings = []; // messages of the current load (missing or skipped databases)
    this.buildInfo = null; // static/build-info.json, once read (null when it cannot be)
    this.buildInfoRead = null; // the promise of reading it
    this.warmed = new Set(); // shapes the current worker has searched once
    this.poolView = new PoolView();
    this.cores = globalThis.navigator?.hardwareConcurrency || 1;
    this.heapBytes = 0; // the largest wasm memory a worker reported (solver/memory.js)
    this.downloads = new Map(); // the first load's downloads: step -> {loaded, bytes, done} (the status line's figure)
    this.loadingStage = undefined; // the load's step the status line names (a Stage)
    this.registered = null; // the service worker's registration under way (offline.js)
    this.client = new SolverPool(
      {
        loading: (msg) => this.loading(msg),
        warning: (msg) => this.warning(msg),
        ready: (msg) => this.ready(msg),
        fatal: (err) => this.fatal(err),
        restart: () => this.restart(),
        pool: () => this.renderPool(),
        // worker 1's starts, restarts included: html[data-solver-starts] (docs/web-app.md, hooks)
        started: (count) => {
          if (globalThis.document) document.documentElement.dataset.solverStarts = String(count);
        },
      },
      // every worker's (the helpers' too) reports of its memory
      { createClient: (handlers) => new SolverClient({ ...handlers, heap: (bytes) => this.heapReported(bytes) }) },
    );
    globalThis.fifteenPool = this.client; // for automation and the e2e tests (e.g. a worker killed mid-solve)
  }

  // ---------------------------------------------------------------- the solver's handlers
  loading(msg) {
    const { view } = this.hooks;
    if (msg.later) {
      // after READY: a database deferred to then or asked for, the background work (main.js)
      if (Number.isFinite(msg.heap_bytes)) this.heapReported(msg.heap_bytes);
      this.hooks.later?.(msg);
      return;
    }
    // build-info's sizes are what a first visit downloads; a cached start shows none
    view.loading.update(msg, this.cachedStart ? {} : this.stageSizes());
    if (this.firstReady && msg.state === LoadState.DONE && Number.isFinite(msg.seconds)) {
      const p = this.phases;
      p[msg.stage] = msg.stage === Stage.DATABASES ? (p[msg.stage] || 0) + msg.seconds : msg.seconds;
    }
    this.countDownload(msg);
    if (msg.state !== LoadState.DONE) this.showLoading(msg.stage);
  }

  /** The status line while the first load runs: its step (`stage`) and the download figure. */
  showLoading(stage) {
    const { model, run } = this.hooks;
    this.loadingStage = stage;
    if (model.ready || model.job || model.status.state !== "loading") return;
    run([model.setStatus("loading", `Loading the ${STAGE_WHAT[stage]}…${this.downloaded()}`)]);
  }

  /** Counts `msg` (a LOADING message) in the first load's downloads. */
  countDownload(msg) {
    if (!this.firstReady || this.cachedStart) return;
    const key = msg.stage === Stage.DATABASES ? `db:${msg.label}` : msg.stage;
    const step = this.downloads.get(key) || { loaded: 0, bytes: 0, done: false };
    if (!msg.cached && !msg.snapshot && !msg.missing) {
      step.bytes = msg.bytes || step.bytes;
      if (Number.isFinite(msg.loaded)) step.loaded = Math.max(step.loaded, msg.loaded);
      if (msg.state === LoadState.DONE) step.done = true;
      this.downloads.set(key, step);
    } else if (msg.cached) {
      this.downloads.delete(key);
    }
  }

  /**
   * The first load's downloads so far for the status line (format.js downloadFigure): a step's
   * size is its messages', else build-info's for its stage (which may come after the step began);
   * "" when nothing is downloaded (a start served by the service worker).
   */
  downloaded() {
    if (!this.firstReady || this.cachedStart) return "";
    const sizes = this.stageSizes();
    const steps = [...this.downloads].map(([key, s]) => {
      const bytes = s.bytes || sizes[key] || 0;
      return { bytes, loaded: s.done && bytes ? bytes : s.loaded };
    });
    return downloadFigure(steps);
  }

  warning(msg) {
    console.warn(msg.message);
    this.warnings.push(msg.message);
    this.hooks.view.loading.summary(this.warnings.join(" "));
  }

  ready(msg) {
    const { view } = this.hooks;
    this.warmed.clear(); // a new worker
    const seconds = performance.now() / 1000; // since the page was opened (performance.timeOrigin)
    if (this.firstReady) {
      this.readySeconds = seconds;
      this.firstReady = false;
      view.markReady(seconds, this.phases);
      view.loading.summary([this.readyText(seconds), ...this.warnings].join(" "));
      this.goOffline();
    }
    if (!this.warnings.length) setTimeout(() => this.hooks.model.ready && view.loading.hide(), 2500);
    this.hooks.ready(msg);
    this.renderPool();
  }

  fatal(err) {
    const { view } = this.hooks;
    view.loading.fail();
    view.loading.show();
    this.hooks.failed(err);
  }

  /** The worker restarts (a stop without the interrupt buffer): its steps are followed, not shown (the status line says it). */
  restart() {
    this.warnings = [];
    this.hooks.lost();
    this.hooks.view.loading.reset({ show: false });
  }

  /**
   * Once the solver is ready: its background work is asked for (the databases that come after
   * Ready, the snapshot: protocol.js BACKGROUND) once the service worker serves the page and
   * its workers, so that what they fetch from then on is kept for offline use as it passes
   * (sw.js), and everything else of the build is cached (precacheAll: what was downloaded
   * before the service worker took over, from the browser's caches).  The service worker was
   * registered while the runtime started (start()); what Ready needs offline is kept by then
   * (the worker stores its downloads' copies before READY, sw.js falls back on them).
   */
  goOffline() {
    const { view, model } = this.hooks;
    // (start() registers the service worker as soon as build-info.json is read: after that)
    this.buildInfoRead
      .then(() => this.registered || false)
      .then((registered) => registered && serviceWorkerControls())
      .then(() => {
        this.client.background(model.position.shape);
        // the cores, measured once the worker's background work is done (a quiet time)
        this.client.settledOnce.then(() => this.fitPoolToCores()).catch(() => {});
      })
      .then(() => precacheAll(this.buildInfo))
      .then(
        (summary) => summary && view.offlineReady(summary),
        (e) => console.warn("offline cache:", e),
      );
  }

  /** "Ready in 4.1 s (runtime 3.2 s · solver 180 ms · databases 420 ms · warm-up 610 ms)." */
  readyText(seconds) {
    const phases = phasesText(this.phases);
    return `Ready in ${formatSeconds(seconds)}${phases ? ` (${phases})` : ""}.`;
  }

  /** Bytes of each loading stage, from build-info.json. */
  stageSizes() {
    const files = this.buildInfo?.files || {};
    const sum = (prefix) => Object.entries(files).filter(([p]) => p.startsWith(prefix)).reduce((a, [, f]) => a + f.bytes, 0);
    return { [Stage.RUNTIME]: sum("static/vendor/pyodide/"), [Stage.SOLVER]: sum("static/wheels/") };
  }

  /**
   * The solver prepares some tables on its first search of a shape (about a second in the
   * browser): do that with a one-move search while the user is still looking at the board, so
   * the first real Solve starts at once.  `search(params)` runs it (a job that runs only when
   * the solver is idle: it resolves to null when it did not run).
   */
  warmUp(shape, search) {
    if (this.warmed.has(shape)) return;
    this.warmed.add(shape);
    const t0 = performance.now();
    const first = this.phases.warmup === undefined;
    search(warmUpParams(shape)).then(
      (r) => {
        if (r === null) this.warmed.delete(shape); // not run: the solver was busy
        if (r === null || !first || this.phases.warmup !== undefined) return;
        // the first start-up's last phase: on the timing line and html[data-phases]
        this.phases.warmup = (performance.now() - t0) / 1000;
        this.hooks.view.markReady(this.readySeconds, this.phases);
        if (!this.warnings.length) this.hooks.view.loading.summary(this.readyText(this.readySeconds));
      },
      () => this.warmed.delete(shape),
    );
  }

  // ---------------------------------------------------------------- the pool of workers
  // How many solver workers (solver/pool.js poolLimits): the user's choice (remembered), else
  // one per core but one, within an eighth of the device's memory (the menu: a quarter); the
  // memory it takes is shown.

  /** Bytes of one worker (solver/memory.js): from the workers' reports, the pack included when loaded. */
  workerBytes() {
    const pack = this.hooks.model.packs.find((p) => p.loaded && p.memory_bytes);
    const packBytes = pack ? pack.memory_bytes : 0;
    return { perWorker: bytesPerWorker(this.heapBytes, packBytes), packBytes, heapBytes: this.heapBytes };
  }

  /** A worker told its wasm memory: the card counts the largest. */
  heapReported(bytes) {
    if (bytes <= this.heapBytes) return;
    this.heapBytes = bytes;
    this.renderPool();
  }

  renderPool() {
    this.poolView.render(this.client.status(), { ...this.workerBytes(), pageBytes: PAGE_BYTES, cores: this.cores });
  }

  /**
   * The cores the default pool counts: navigator.hardwareConcurrency, capped by the cores measured
   * on this device (solver/cores.js; kept with the figure the browser reported then), and
   * whether that figure still needs measuring (more than 2 reported, none measured yet).
   */
  coresToCount() {
    const reported = Math.max(1, Math.floor(Number(globalThis.navigator?.hardwareConcurrency) || 1));
    const kept = prefs.get("cores", null);
    if (kept && kept.reported === reported && kept.measured >= 1) return { cores: Math.min(reported, kept.measured), unmeasured: false };
    return { cores: reported, unmeasured: reported > 2 };
  }

  setUpPool() {
    // (sized by the cores and the device's memory, solver/pool.js; a choice past the memory's limit is not kept)
    const nav = globalThis.navigator || {};
    const perWorker = this.workerBytes().perWorker;
    const { max } = poolLimits(nav, perWorker); // the menu: up to the cores the browser reports
    const { cores, unmeasured } = this.coresToCount();
    const fitted = poolLimits({ hardwareConcurrency: cores, deviceMemory: nav.deviceMemory }, perWorker);
    const stored = Number(prefs.get("workers", 0));
    // the default: the fitted suggestion; one worker until the cores are measured (fitPoolToCores)
    const size = stored >= 1 && stored <= max ? stored : unmeasured ? 1 : fitted.suggested;
    this.client.setSize(size);
    this.poolView.setChoices(max, size);
    this.renderPool();
  }

  /**
   * Once the solver is idle after its first start: when the browser reports more than 2 cores and
   * none were measured on this device, measure them (solver/cores.js, about half a second; kept)
   * and size the pool by them, unless the user chose a size.
   */
  async fitPoolToCores() {
    const { unmeasured } = this.coresToCount();
    if (!unmeasured) return;
    const reported = Math.floor(Number(globalThis.navigator?.hardwareConcurrency) || 1);
    const measured = await measureCores(Math.min(reported, MAX_WORKERS));
    prefs.set("cores", { reported, measured: measured ?? reported });
    this.setUpPool();
  }

  /** The user picked `n` workers (the Solve card's menu): kept for later visits. */
  workersChosen(n) {
    prefs.set("workers", n);
    this.client.setSize(n);
  }

  // ---------------------------------------------------------------- start and restart
  /** Start the solver for the board's `shape`; reads this build's file list alongside. */
  async start(shape) {
    const { view } = this.hooks;
    view.loading.reset();
    // The solver worker first: the runtime's start is the longest part of the page's, and
    // nothing of it needs what follows (the files' sizes reach the client when known).
    this.setUpPool();
    this.client.start(shape);
    // opening the page until its solver worker started (solver/start.js: before this module's graph)
    this.phases.page = (startedWorkerAt() ?? performance.now()) / 1000;
    this.buildInfoRead = this.readBuildInfo();
    await this.buildInfoRead;
    if (this.buildInfo) view.buildDownload(this.buildInfo, { cached: this.cachedStart });
    // the solver package downloads while the runtime starts (its LOADING comes after): counted from now
    const solverBytes = this.stageSizes()[Stage.SOLVER];
    if (solverBytes && !this.cachedStart && !this.downloads.has(Stage.SOLVER)) this.downloads.set(Stage.SOLVER, { loaded: 0, bytes: solverBytes, done: false });
    // the sizes may come after the load's first steps: their figure now, not at the next message
    if (this.loadingStage !== undefined) this.showLoading(this.loadingStage);
    // The service worker now, while the runtime starts (it caches nothing on install): it
    // serves the page from the moment the solver is ready, offline too (goOffline).
    this.registered = registerOffline(this.buildInfo, { onUpdate: () => view.toast("A new version was installed: reload the page to use it.", 8000) });
    const files = this.buildInfo?.files || {};
    this.client.runtimeBytes = Object.fromEntries(
      Object.entries(files)
        .filter(([p]) => p.startsWith("static/vendor/pyodide/"))
        .map(([p, f]) => [p.split("/").pop(), f.bytes]),
    );
  }

  /** This build's file list (static/build-info.json) in this.buildInfo; null when it cannot be read. */
  async readBuildInfo() {
    try {
      const resp = await fetch("static/build-info.json", { cache: "no-cache" });
      if (resp.ok) this.buildInfo = await resp.json();
    } catch {
      /* offline without a cached copy: sizes are unknown */
    }
  }

  /** Start the worker again (after a fatal error), going on without the damaged file when `skip`. */
  restartSolver({ skip }) {
    const { model, view, run } = this.hooks;
    if (skip) {
      if (!model.damaged) return;
      this.client.skip = [...this.client.skip, model.damaged];
      model.damagedFile(null);
      this.warnings = [];
    }
    view.hideError();
    run([model.setStatus("loading", skip ? "Restarting without the damaged database…" : "Retrying…")]);
    view.loading.reset();
    this.client.start(model.position.shape);
  }
}
