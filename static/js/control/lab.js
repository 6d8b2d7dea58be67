// The lab's controller: the state and decisions of the Compare bounds card, the
// bound trace, the Explain card, the small-board explorer and hints.  Like
// main.js it never touches the DOM (view/lab-view.js, view/explorer.js) and gets the
// user's actions from input/lab-input.js; it talks to the solver through the same
// SolverClient as the rest of the page (fifteen.api methods compare, trace,
// explain, explore_*, hint; see py/fifteen/api.py), each request a job of the page's jobs
// (jobs.js): shown while it runs, with Stop, stopped when the position changes.  main.js owns
// the board: the lab reads it and asks for changes through the hooks it is given.

import { Board, parseShape, randomTiles } from "../model/board.js";
import { ErrorType, Method } from "../solver/protocol.js";
import { JobKind, JobStopped, Why, stoppedText } from "./jobs.js";
import { labHash, optimumOf, parseBudget, readLabHash, toMarkdown, toTSV, iterationTable, summaryTable } from "../model/lab-table.js";
import { makeHash } from "../model/share.js";
import { CompareView, ExplainView, TraceView } from "../view/lab-view.js";
import { ExplorerView, HintView } from "../view/explorer.js";
import { PackState } from "../view/solve.js";
import { formatPackSize } from "../model/format.js";

/** Boards whose exact-distance tables `make db` builds (fifteen.bounds.exact); the packs add 3x4, 4x3, 2x6, 6x2. */
export const EXPLORER_SHAPES = ["3x3", "2x4", "4x2", "2x5", "5x2"];

/** The page's default node budget per bound (about 2-5 s each in Pyodide). */
export const DEFAULT_BUDGET = 1_000_000;

const isCancel = (err) => err && err.type === ErrorType.CANCELLED;

export class Lab {
  /**
   * hooks (main.js): client (the solver), jobs (jobs.js); board() the position solved and
   * compared; shownBoard() the position on screen (a playback step);
   * load(board) show a new position; move(direction) slide the blank;
   * ready(); info() the solver's info (bounds per shape, labels); packs() the site's optional
   * packs (each with `loaded`); packLoaded(file) one of them was loaded; copy(text, {done, ask}).
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.client = hooks.client;
    this.jobs = hooks.jobs;
    this.compareView = new CompareView();
    this.traceView = new TraceView();
    this.explainView = new ExplainView();
    this.explorerView = new ExplorerView();
    this.hintView = new HintView();
    this.presets = [];
    this.preset = null; // the chosen preset (its position is on the board)
    this.budget = DEFAULT_BUDGET;
    this.unchecked = new Set(); // bounds the user left out
    this.running = false; // a comparison runs (or waits for the solver)
    this.stopRequested = false;
    this.comparison = null; // {board, budget, runs}
    this.pendingLink = readLabHash(location.hash); // a comparison link: run it once the solver is ready
    this.offered = null; // "shape:bounds" the bound list was made for
    this.trace = null; // {board, result, trace}
    this.step = 0;
    this.explainSeq = 0;
    this.explained = null; // the last explain result
    this.colour = "";
    this.explorerSeq = 0;
    this.explorerInfo = new Map(); // shape -> explore_info result
    this.explorerShown = null; // the shape whose histogram is shown
    this.tableDownload = { file: null, error: null }; // an explorer table's download under way / its last failure
    this.hintSeq = 0;
    this.hint = null;
    this.hinting = false; // a hint runs (or waits for the solver)
    this.shownKey = ""; // "shape:tiles" of the board shown when the cards last followed it
  }

  labels() {
    return this.hooks.info()?.labels || {};
  }

  /** The lab's bounds for a shape, weakest first (info lists them strongest first, after "auto"). */
  boundsFor(shape) {
    return (this.hooks.info()?.bounds?.[shape] || []).filter((b) => b !== "auto").reverse();
  }

  // ---------------------------------------------------------------- life cycle
  async start() {
    this.renderExplorerMenu();
    if (this.pendingLink) {
      if (this.pendingLink.budget) this.budget = this.pendingLink.budget;
      this.compareView.open();
      this.compareView.status("A shared comparison: it runs as soon as the solver is ready.");
    }
    this.compareView.setBudget(this.budget.toLocaleString("en-US"));
    this.renderControls();
    try {
      const data = await (await fetch("static/data/lab-presets.json")).json();
      this.presets = data.presets || [];
      this.compareView.setPresets(this.presets);
    } catch (e) {
      console.warn("lab presets", e);
    }
  }

  /** The solver is (again) ready: offer the shape's bounds; run a comparison link. */
  solverReady() {
    this.offered = null;
    this.renderExplorerMenu();
    this.renderControls();
    this.runLink();
    this.refreshOpen();
  }

  /** main.js: the address bar's fragment changed (its position is on the board): a comparison link runs. */
  linkOpened(hash) {
    const link = readLabHash(hash);
    if (!link || this.running) return;
    this.pendingLink = link;
    if (link.budget) this.budget = link.budget;
    this.compareView.setBudget(this.budget.toLocaleString("en-US"));
    this.compareView.open();
    if (this.hooks.ready()) this.runLink();
  }

  /** Run the comparison link's bounds (those the board offers) once. */
  runLink() {
    const link = this.pendingLink;
    if (!link || this.running || !this.hooks.ready()) return;
    this.pendingLink = null;
    this.offered = null;
    const offered = this.boundsFor(this.hooks.board().shape);
    const wanted = link.bounds.filter((b) => offered.includes(b));
    if (wanted.length) this.unchecked = new Set(offered.filter((b) => !wanted.includes(b)));
    this.renderControls();
    this.run();
  }

  /** Enable what the solver's state allows; rebuild the bound list when the shape changed. */
  renderControls() {
    const shape = this.hooks.board().shape;
    const offered = `${shape}:${this.boundsFor(shape).join(",")}`; // a pack load adds a bound
    if (offered !== this.offered && this.hooks.info()) {
      this.offered = offered;
      const labels = this.labels();
      this.compareView.setBounds(this.boundsFor(shape).map((name) => ({ name, label: labels[name] || name, checked: !this.unchecked.has(name) })));
    }
    const can = this.hooks.ready();
    this.compareView.setRunning(this.running, { canRun: can, hasResult: !!this.comparison && this.comparison.runs.length > 0 });
    this.hintView.setRunning(this.hinting, { canRun: can });
  }

  /** main.js: the board shows a new position (a move, a new board, a playback step). */
  positionChanged() {
    if (this.preset && this.hooks.board().text() !== new Board(...dims(this.preset.shape), this.preset.tiles).text()) {
      this.preset = null;
      this.compareView.selectPreset("", "");
    }
    const shown = this.hooks.shownBoard();
    const key = `${shown.shape}:${shown.text()}`;
    if (key === this.shownKey) {
      this.renderControls(); // drawn again, the same board
      return;
    }
    this.shownKey = key;
    this.hint = null;
    this.hintSeq += 1; // a hint under way was the old position's (its job is stopped: jobs.js)
    this.hinting = false;
    this.renderControls();
    this.hintView.clear();
    this.refreshOpen();
  }

  /** main.js: a solve, a cancel or a pack load changed what may run. */
  busyChanged() {
    this.renderControls();
  }

  /** Refresh the open cards that follow the position. */
  refreshOpen() {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      if (this.explainView.isOpen()) this.explain();
      if (this.explorerView.isOpen()) this.explore();
    }, 80);
  }

  // ---------------------------------------------------------------- compare bounds
  presetChosen(id) {
    const p = this.presets.find((x) => x.id === id);
    this.preset = p || null;
    if (!p) {
      this.compareView.selectPreset("", "");
      return;
    }
    this.hooks.load(new Board(...dims(p.shape), p.tiles));
    this.preset = p; // load() cleared it through positionChanged
    this.budget = p.budget || this.budget;
    this.compareView.setBudget(this.budget.toLocaleString("en-US"));
    this.compareView.selectPreset(p.id, `${p.text} (Optimal: ${p.optimal} moves; budget ${p.budget.toLocaleString("en-US")} nodes per bound.)`);
  }

  boundToggled(name, checked) {
    if (checked) this.unchecked.delete(name);
    else this.unchecked.add(name);
  }

  budgetTyped(text) {
    const b = parseBudget(text);
    if (b === null) {
      this.compareView.budgetError("The budget must be a whole number of nodes, e.g. 1000000, 2M or 500k.");
      return false;
    }
    this.compareView.budgetError("");
    this.budget = b;
    return true;
  }

  /**
   * Run every checked bound, one call each, so that Skip stops only the current one: one job
   * (a comparison started while another job runs stops that one first, and says so).
   */
  async run({ budgetText = null } = {}) {
    if (this.running || !this.hooks.ready()) return;
    if (budgetText !== null && !this.budgetTyped(budgetText)) return;
    const board = this.hooks.board().clone();
    const names = this.boundsFor(board.shape).filter((b) => !this.unchecked.has(b));
    if (!names.length) {
      this.compareView.status("Choose at least one bound.");
      return;
    }
    const budget = this.budget;
    const runs = names.map((name) => ({ name, iterations: [], nodes: 0, finished: false, queued: true }));
    this.comparison = { board, budget, runs };
    this.compareView.shareLink("");
    this.running = true;
    this.stopRequested = false;
    this.renderControls();
    this.compareView.focusStop();
    const t0 = performance.now();
    let stopped = null; // why the job was stopped from outside (a new position, another job)
    try {
      await this.jobs.run(JobKind.COMPARE, (job) => this.compareRuns(job, board, budget, runs), {
        user: true,
        onWait: (text) => this.compareView.status(text),
      });
    } catch (err) {
      if (!(err instanceof JobStopped)) throw err;
      if (err.why !== Why.USER) stopped = err;
      for (const r of runs.filter((x) => x.running)) Object.assign(r, { running: false, stopped: true, finished: false });
    }
    const ran = runs.filter((r) => !r.queued);
    this.comparison.runs = ran;
    this.running = false;
    this.runCount = (this.runCount || 0) + 1;
    this.compareView.ended(this.runCount);
    this.compareView.shareLink(ran.length ? this.linkUrl() : "");
    this.renderControls();
    this.draw();
    const optimum = optimumOf(ran);
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    const how = stopped ? stoppedText(stopped).replace(/\.$/, "") : this.stopRequested ? "Stopped" : "Done";
    this.compareView.status(
      `${how} in ${seconds} s: ${ran.filter((r) => r.finished).length} of ${runs.length} bounds finished` +
        (optimum !== null ? `, optimum ${optimum} moves.` : "; none within the budget."),
    );
    this.compareView.focusRun();
  }

  /** The comparison's job: each bound in turn, until the job is stopped or a bound fails. */
  async compareRuns(job, board, budget, runs) {
    for (const run of runs) {
      if (this.stopRequested || job.why) break;
      Object.assign(run, { queued: false, running: true });
      this.compareView.status(`Searching with ${run.name} (${this.labels()[run.name] || run.name})…`);
      this.draw();
      try {
        const result = await this.client.call(Method.COMPARE, { tiles: board.tiles, shape: board.shape, goal: board.goal, bounds: [run.name], budget }, (p) => {
          Object.assign(run, p, { running: true });
          this.draw();
        });
        Object.assign(run, result.bounds[run.name], { running: false });
      } catch (err) {
        run.running = false;
        if (!isCancel(err)) {
          run.error = err.message;
          this.compareView.status(`${run.name}: ${err.message}`);
          this.stopRequested = true;
        } else {
          run.stopped = true;
          run.finished = false;
          const last = run.iterations.at(-1);
          if (last) last.finished = false;
          await this.jobs.settled(); // (Skip: the solver may have restarted)
        }
      }
      this.draw();
    }
  }

  draw() {
    const runs = this.comparison.runs.filter((r) => !r.queued);
    this.compareView.render(runs, { optimum: optimumOf(runs), labels: this.labels() });
  }

  /** Stop the running bound and go on with the next one. */
  skip() {
    if (this.running && this.jobs.find(JobKind.COMPARE) === this.jobs.running) this.jobs.skip();
  }

  /** Stop the running bound and the rest. */
  stop() {
    if (!this.running) return;
    this.stopRequested = true;
    const job = this.jobs.find(JobKind.COMPARE);
    if (job) this.jobs.stop(job, Why.USER);
  }

  copyTable(format) {
    if (!this.comparison) return;
    const runs = this.comparison.runs;
    const b = this.comparison.board;
    const head = `${b.shape} ${b.tiles.join(" ")} · budget ${this.comparison.budget} nodes per bound`;
    const text =
      format === "md"
        ? `${head}\n\n${toMarkdown(summaryTable(runs))}\n\n${toMarkdown(iterationTable(runs))}\n`
        : `${toTSV(summaryTable(runs))}\n\n${toTSV(iterationTable(runs))}\n`;
    this.hooks.copy(text, { done: format === "md" ? "Markdown table copied" : "TSV copied", ask: "Copy the table:" });
  }

  /** The address of this comparison: the position, its bounds and budget (model/lab-table.js, labHash). */
  linkUrl() {
    const u = new URL(location.href);
    u.hash = labHash(makeHash(this.comparison.board), { bounds: this.comparison.runs.map((r) => r.name), budget: this.comparison.budget }).slice(1);
    return u.href;
  }

  shareLink() {
    if (!this.comparison) return;
    this.hooks.copy(this.linkUrl(), { done: "Comparison link copied", ask: "Copy this link:" });
  }

  // ---------------------------------------------------------------- bound trace
  /** main.js: a solution is shown (board = its start). */
  async solved(board, result) {
    this.trace = null;
    this.step = 0;
    try {
      const t = await this.jobs.run(JobKind.TRACE, () => this.client.call(Method.TRACE, { tiles: board.tiles, shape: board.shape, goal: board.goal, moves: result.moves }));
      this.trace = t;
      this.traceView.render(t, 0, this.labels());
    } catch (err) {
      if (!isCancel(err)) this.traceView.note(`No bound trace: ${err.message}`);
    }
  }

  /** main.js: playback shows step i of the solution. */
  playbackAt(i) {
    this.step = i;
    if (this.trace) this.traceView.render(this.trace, i, this.labels());
    this.positionChanged();
  }

  /** main.js: the solution is gone. */
  solutionCleared() {
    this.trace = null;
    this.traceView.hide();
  }

  // ---------------------------------------------------------------- explain
  async explain() {
    if (!this.hooks.ready()) {
      this.explainView.message("The solver is loading…");
      return;
    }
    const board = this.hooks.shownBoard();
    const seq = ++this.explainSeq;
    try {
      const ex = await this.jobs.run(JobKind.EXPLAIN, () => this.client.call(Method.EXPLAIN, { tiles: board.tiles, shape: board.shape, goal: board.goal }), {
        onWait: (text) => this.explainView.message(text),
      });
      if (seq !== this.explainSeq) return;
      this.explained = ex;
      this.explainView.render(ex, this.labels());
      const choices = [
        ["", "nothing"],
        ["lc", "linear conflicts (tiles taken out of their line)"],
      ];
      for (const [name, p] of Object.entries(ex.pdb || {})) {
        choices.push([name, `${name} groups`]);
        if (p.reflected) choices.push([`${name}r`, `${name} groups, reflected lookup`]);
      }
      if (!choices.some(([v]) => v === this.colour)) this.colour = "";
      this.explainView.setColourChoices(choices, this.colour);
      this.applyColour();
    } catch (err) {
      if (seq === this.explainSeq && !isCancel(err)) this.explainView.message(err.message);
    }
  }

  colourChosen(value) {
    this.colour = value;
    this.applyColour();
  }

  applyColour() {
    const ex = this.explained;
    if (!ex || !this.explainView.isOpen()) {
      this.explainView.colourBoard({});
      return;
    }
    if (this.colour === "lc") {
      this.explainView.colourBoard({ lcOut: ex.lc.lines.flatMap((l) => l.removed) });
    } else if (this.colour) {
      const reflected = this.colour.endsWith("r");
      const p = ex.pdb?.[reflected ? this.colour.slice(0, -1) : this.colour];
      const lookup = p && (reflected ? p.reflected : p.plain);
      this.explainView.colourBoard({ groups: lookup ? lookup.groups.map((g) => g.tiles) : [] });
    } else {
      this.explainView.colourBoard({});
    }
  }

  /** The Explain card opened or closed. */
  explainToggled(open) {
    if (open) this.explain();
    else this.explainView.colourBoard({});
  }

  /** main.js: the board view rebuilt its tiles (a new shape). */
  boardRendered() {
    this.explainView.applyColour();
  }

  // ---------------------------------------------------------------- explorer
  /** The site's optional explorer table for `shape` (a pack of kind "explore"), if any. */
  tablePack(shape) {
    return (this.hooks.packs?.() || []).find((p) => p.kind === "explore" && Array.isArray(p.shapes) && p.shapes.includes(shape));
  }

  /** The explorer's menu: the built-in tables' boards, then the optional tables' (with their size). */
  renderExplorerMenu() {
    const optional = (this.hooks.packs?.() || []).filter((p) => p.kind === "explore").flatMap((p) => (p.shapes || []).map((s) => [s, p]));
    const entries = [
      ...EXPLORER_SHAPES.filter((s) => !optional.some(([o]) => o === s)).map((s) => [s, s.replace("x", "×")]),
      ...optional.map(([s, p]) => [s, `${s.replace("x", "×")}${p.loaded ? "" : ` (optional, ${formatPackSize(p.bytes)})`}`]),
    ];
    this.explorerView.setShapes(entries, this.hooks.shownBoard?.()?.shape);
  }

  /** The optional table of the board shown: offered (not loaded), downloading, loaded or failed; hidden when none. */
  renderTablePack(shape) {
    const pack = this.tablePack(shape);
    const view = this.explorerView.pack;
    if (!pack) {
      view.hide();
      return;
    }
    const { file, error } = this.tableDownload;
    const state = pack.loaded ? PackState.LOADED : file === pack.file ? PackState.DOWNLOADING : error ? PackState.ERROR : PackState.OFFERED;
    view.render(pack, state, { enabled: this.hooks.ready() && !file, error });
  }

  /** The Download button of an optional explorer table: fetched, loaded into the solver and kept, like the 7-8 pack. */
  async downloadTable() {
    const shape = this.hooks.shownBoard().shape;
    const pack = this.tablePack(shape);
    if (!pack || pack.loaded || this.tableDownload.file || !this.hooks.ready()) return;
    this.tableDownload = { file: pack.file, error: null };
    this.explorerView.pack.begin(pack);
    this.renderTablePack(shape);
    try {
      const title = `Downloading the ${shape} explorer table`;
      await this.jobs.run(JobKind.PACK, () => this.client.loadPack(pack.file, (p) => this.explorerView.pack.progress(pack, p)), { user: true, title });
      this.tableDownload = { file: null, error: null };
      this.hooks.packLoaded(pack.file);
      this.renderExplorerMenu();
      this.renderTablePack(shape);
      this.explore();
    } catch (err) {
      const why = err.why === Why.USER ? "the download was cancelled." : isCancel(err) ? "the download was interrupted." : err.message || String(err);
      this.tableDownload = { file: null, error: why };
      this.renderTablePack(shape);
    }
  }

  /** Cancel an explorer table's download. */
  cancelTable() {
    const job = this.jobs.find(JobKind.PACK);
    if (job && this.tableDownload.file) this.jobs.stop(job, Why.USER);
  }

  async explore() {
    if (!this.hooks.ready()) {
      this.explorerView.status("The solver is loading…");
      return;
    }
    const board = this.hooks.shownBoard();
    const shape = board.shape;
    const seq = ++this.explorerSeq;
    this.explorerView.selectShape(shape);
    this.renderTablePack(shape);
    const pack = this.tablePack(shape);
    if (pack && !pack.loaded) {
      this.explorerShown = null;
      this.explorerView.noTable(`The ${shape} table is an optional download: it is fetched only if you ask.`);
      return;
    }
    if (board.goalName !== "standard") {
      // the tables hold the distances to the standard goal
      this.explorerShown = null;
      this.explorerView.noTable("The explorer's tables hold the distances to the standard goal: choose Standard in the Goal field to explore this board.");
      return;
    }
    try {
      const { info, pos } = await this.jobs.run(
        JobKind.EXPLORE,
        async () => {
          let known = this.explorerInfo.get(shape);
          if (!known) {
            this.explorerView.status(`Reading the ${shape} table…`);
            known = await this.client.call(Method.EXPLORE_INFO, { shape });
            this.explorerInfo.set(shape, known);
          }
          return { info: known, pos: await this.client.call(Method.EXPLORE_POSITION, { tiles: board.tiles, shape }) };
        },
        { onWait: (text) => this.explorerView.status(text) },
      );
      if (seq !== this.explorerSeq) return;
      if (this.explorerShown !== shape) {
        this.explorerView.renderInfo(info);
        this.explorerShown = shape;
      }
      this.explorerView.status("");
      this.explorerView.renderPosition(pos);
      this.explorerView.markDistance(pos.distance);
    } catch (err) {
      if (seq !== this.explorerSeq || isCancel(err)) return;
      this.explorerShown = null;
      this.explorerView.noTable(`${err.message}. Choose a board above to explore one.`.replace(/\.\. /, ". "));
    }
  }

  explorerToggled(open) {
    if (open) this.explore();
  }

  /** A board from the explorer's menu: a random position of it. */
  explorerShapeChosen(shape) {
    const d = parseShape(shape);
    this.hooks.load(new Board(d.rows, d.cols, randomTiles(d.rows, d.cols)));
  }

  /** A histogram bar: a uniformly random position at exactly that distance. */
  async barChosen(distance) {
    const shape = this.hooks.shownBoard().shape;
    this.explorerView.status(`Drawing a position at distance ${distance}…`);
    try {
      const r = await this.jobs.run(JobKind.EXPLORE, () => this.client.call(Method.EXPLORE_RANDOM, { shape, distance }), { user: true });
      this.hooks.load(new Board(r.rows, r.cols, r.tiles));
      this.explorerView.status(`A random position at distance ${distance} (seed ${r.seed}).`);
    } catch (err) {
      if (!isCancel(err)) this.explorerView.status(err.message);
    }
  }

  hardestChosen(tiles) {
    const shape = this.hooks.shownBoard().shape;
    this.hooks.load(new Board(...dims(shape), tiles));
  }

  // ---------------------------------------------------------------- hints
  /**
   * The next optimal move (or every optimal move): a job with a time budget (without a
   * table it needs a search of its own, which on a hard position takes longer than a hint
   * should); Stop ends it, a new position too.
   */
  async askHint({ all = false } = {}) {
    if (!this.hooks.ready() || this.hinting) return;
    const board = this.hooks.shownBoard();
    const seq = ++this.hintSeq;
    this.hinting = true;
    this.renderControls();
    this.hintView.busy(all ? "Looking at every move…" : "Looking for the next optimal move…");
    try {
      const h = await this.jobs.run(all ? JobKind.MOVES : JobKind.HINT, () => this.client.call(Method.HINT, { tiles: board.tiles, shape: board.shape, goal: board.goal, all }), {
        user: true,
        onWait: (text) => this.hintView.busy(text),
      });
      if (seq !== this.hintSeq) return;
      this.hint = h;
      this.hintView.render(h);
    } catch (err) {
      if (seq !== this.hintSeq) return;
      if (err instanceof JobStopped) {
        if (err.why === Why.BUDGET) {
          this.hintView.error(`${stoppedText(err)} This position needs a longer search than a hint's: Solve it instead (it shows its progress and runs as long as needed).`);
        } else if (err.why !== Why.POSITION) {
          this.hintView.error(stoppedText(err));
        }
      } else if (!isCancel(err)) {
        this.hintView.error(err.message);
      }
    } finally {
      if (seq === this.hintSeq) this.hinting = false;
      this.renderControls();
    }
  }

  /** The hint card's Stop. */
  stopHint() {
    const job = this.jobs.find(JobKind.HINT) || this.jobs.find(JobKind.MOVES);
    if (job) this.jobs.stop(job, Why.USER);
  }

  applyHint() {
    if (this.hint?.next) this.hooks.move(this.hint.next.direction);
  }

  explorerMove(direction) {
    this.hooks.move(direction);
  }
}

/** [rows, cols] of "RxC". */
function dims(shape) {
  const d = parseShape(shape);
  return [d.rows, d.cols];
}
