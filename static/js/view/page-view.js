// View ("actuator" in the 2048 game's terms): every write to the DOM goes
// through the PageView below or the area views it holds; no decisions here.
//
//   view/page-view.js           PageView: status, errors, toasts, the Position card's
//                     controls, the bound menu, Solve/Cancel, the footer
//   view/board-view.js     the board, the bounds line, the playback controls
//   view/progress.js  the loading steps, a solve's live progress
//   view/solve.js     the solution, the optional pack's panel
//
// A new view of the page (another tab, e.g. a heuristic lab) is one more area
// module, held here next to the others.

import { BoardView, BoundsView, PlaybackView } from "./board-view.js";
import { LoadingView, ProgressView } from "./progress.js";
import { PackView, SolutionView } from "./solve.js";
import { formatBytes, formatRough, phasesAttr, shorten } from "../model/format.js";
import { $, keepInView, option } from "./dom.js";


/** Controls that a running solve disables. */
const POSITION_CONTROLS = ["shape-select", "shuffle-button", "reset-button", "examples", "bound-select", "tiles-input", "goal-input", "goal-standard", "goal-blank-first"];

export class PageView {
  constructor() {
    this.board = new BoardView();
    this.bounds = new BoundsView();
    this.playback = new PlaybackView();
    this.loading = new LoadingView();
    this.progress = new ProgressView();
    this.solution = new SolutionView();
    this.pack = new PackView();
    this.toastTimer = 0;
  }

  // ---------------------------------------------------------------- status, errors, toasts
  /**
   * The status line: `state` is #status[data-state] (loading, ready, busy, solving, solved,
   * cancelled, error); `time` a running job's seconds (shown, not read aloud: the live region
   * speaks when the text changes, not every second); `stop` shows the job's Stop.
   */
  setStatus(state, text, { time = "", stop = false, jobs = "" } = {}) {
    const el = $("status");
    el.dataset.state = state;
    el.dataset.jobs = jobs;
    const t = shorten(text);
    if ($("status-text").textContent !== t) $("status-text").textContent = t;
    el.title = t;
    $("status-time").textContent = time;
    $("job-stop").hidden = !stop;
  }

  showError(title, message, { retry = true, skip = false } = {}) {
    $("error-title").textContent = title;
    $("error-message").textContent = shorten(message, 600);
    $("retry-button").hidden = !retry;
    $("skip-button").hidden = !skip;
    $("error-panel").hidden = false;
  }

  hideError() {
    $("error-panel").hidden = true;
  }

  toast(text, ms = 2200) {
    const el = $("toast");
    el.textContent = text;
    el.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => (el.hidden = true), ms);
  }

  /** Copy `text` to the clipboard and say `done`; where the clipboard is refused, show it in a prompt. */
  async copyText(text, { done, ask }) {
    try {
      await navigator.clipboard.writeText(text);
      this.toast(done);
    } catch {
      prompt(ask, text);
    }
  }

  // ---------------------------------------------------------------- position card
  /**
   * The size menu: `shapes` = [[value, label], ...], in groups: the square boards first, then
   * the others by their number of rows.
   */
  setShapes(shapes, selected) {
    const groups = new Map([["Square", []]]);
    for (const [value, label] of shapes) {
      const [rows, cols] = value.split("x");
      const name = rows === cols ? "Square" : `${rows} rows`;
      if (!groups.has(name)) groups.set(name, []);
      groups.get(name).push(option(value, label));
    }
    const sel = $("shape-select");
    sel.replaceChildren(
      ...[...groups].filter(([, opts]) => opts.length).map(([name, opts]) => {
        const g = document.createElement("optgroup");
        g.label = name;
        g.append(...opts);
        return g;
      }),
    );
    sel.value = selected;
  }

  /**
   * The Goal field: its text (null: kept as typed) and its error ("" = none; `code`: the
   * solver's error code, kept in data-code), with an optional one-click fix {label}.
   */
  setGoal(text, error = "", code = "", fix = null) {
    if (text !== null) $("goal-input").value = text;
    const message = shorten(error);
    if ($("goal-error").textContent !== message) $("goal-error").textContent = message;
    $("goal-error").dataset.code = code || "";
    $("goal-input").setAttribute("aria-invalid", message ? "true" : "false");
    $("goal-fix").hidden = !fix;
    if (fix) $("goal-fix").textContent = fix.label;
  }

  /** Select `shape` in the size menu (which lists only the supported shapes); true when it showed another. */
  selectShape(shape) {
    const sel = $("shape-select");
    const changed = sel.value !== shape;
    if (changed && [...sel.options].some((o) => o.value === shape)) sel.value = shape;
    return changed;
  }

  /** The line under the board that says the goal (`title`: more about how it is searched). */
  setGoalLine(text, title = "") {
    $("goal-line").textContent = text;
    $("goal-line").title = title || text;
  }

  setTilesText(text) {
    $("tiles-input").value = text;
  }

  /**
   * The text field's error ("" = none) and its optional one-click fixes: `fix` {label, text} (the
   * text fixed), `goalFix` {label, goal} (a named goal the text can reach).
   */
  setTextError(message, fix = null, goalFix = null) {
    message = shorten(message);
    if ($("tiles-error").textContent !== message) $("tiles-error").textContent = message;
    $("tiles-input").setAttribute("aria-invalid", message ? "true" : "false");
    const button = $("fix-button");
    button.hidden = !fix;
    if (fix) {
      button.textContent = fix.label;
      button.dataset.text = fix.text;
    }
    const other = $("text-goal-button");
    other.hidden = !goalFix;
    if (goalFix) {
      other.textContent = goalFix.label;
      other.dataset.goal = goalFix.goal;
    }
    $("fixes").hidden = !fix && !goalFix;
  }

  /** A note on the position (a refused link); "" hides it. */
  setNotice(text) {
    const el = $("position-notice");
    el.textContent = shorten(text);
    el.hidden = !text;
  }

  setUndoEnabled(enabled) {
    $("undo-button").disabled = !enabled;
  }

  /** The move-string box's verdict. */
  setReplayResult(text) {
    $("replay-result").textContent = text;
  }

  /** Ask a yes/no question (discarding a solution). */
  confirm(question) {
    return window.confirm(question);
  }

  focusText() {
    $("tiles-input").focus();
  }

  /** The examples menu: [{id, name, optimal}], after its placeholder option. */
  addExamples(examples) {
    // with the time it takes in the page, measured on the machine that built the site (its note says so)
    const time = (ex) => (ex.page_over_seconds ? ` · over ${formatRough(ex.page_over_seconds)}` : ex.page_seconds ? ` · ${formatRough(ex.page_seconds)}` : "");
    $("examples").append(...examples.map((ex) => option(ex.id, `${ex.name} — ${ex.optimal} moves${time(ex)}`)));
  }

  /** Select example `id` ("" = none) and show `note` under the menu. */
  setExample(id, note = "") {
    $("examples").value = id;
    $("example-note").textContent = note;
  }

  /** Only the note (the menu keeps its selection). */
  setExampleNote(note) {
    $("example-note").textContent = note;
  }

  // ---------------------------------------------------------------- solve card
  /** The bound menu: `options` = [[value, label], ...]. */
  setBoundMenu(options, selected, { disabled }) {
    const sel = $("bound-select");
    sel.replaceChildren(...options.map(([value, label]) => option(value, label)));
    sel.value = selected;
    sel.disabled = disabled;
  }

  setSolveEnabled(enabled) {
    $("solve-button").disabled = !enabled;
    $("fast-button").disabled = !enabled;
  }

  /**
   * Fast answer: usable when the solver is and no anytime search runs (during an optimal search
   * it stops it for one); `offer`: the optimal search is long (or out of reach), the button is highlighted.
   */
  setFast({ enabled, offer = false }) {
    const b = $("fast-button");
    b.disabled = !enabled;
    b.classList.toggle("btn-primary", offer);
    b.dataset.offer = String(offer);
  }

  /**
   * While solving, Cancel appears NEXT to Solve (never under the pointer in
   * its place: a double click stays one Solve) and the position's controls are
   * disabled.  Solve keeps its focus (aria-disabled, not disabled).
   */
  setSolving(solving, { ready = true } = {}) {
    const solve = $("solve-button");
    solve.setAttribute("aria-disabled", solving ? "true" : "false");
    solve.textContent = solving ? "Solving…" : "Solve";
    $("cancel-button").hidden = !solving;
    $("undo-button").disabled = solving || $("undo-button").disabled;
    $("replay-button").disabled = solving;
    for (const id of POSITION_CONTROLS) $(id).disabled = solving;
    if (solving) {
      $("pack-button").disabled = true;
    } else {
      $("bound-select").disabled = !ready;
      $("pack-button").disabled = !ready;
    }
  }

  /** Back to Solve, when the focus was lost (on the Cancel button that just went away). */
  focusSolve() {
    const active = document.activeElement;
    if (active && active !== document.body && active !== $("cancel-button")) return;
    $("solve-button").focus();
  }

  /** Cancel was asked for: its button goes (Solve, still inactive, says so) until the solver stopped. */
  setCancelling() {
    $("cancel-button").hidden = true;
    $("solve-button").textContent = "Cancelling…";
  }

  /**
   * A solve ended: the answer takes the focus, and its playback comes into view with the board
   * (on a phone the page scrolls no further than keeps the board's top on the screen).
   */
  focusResult() {
    const el = $("solution");
    if (el.hidden) return;
    el.focus({ preventScroll: true });
    keepInView($("playback").hidden ? el : $("playback"), undefined, { showBoard: true });
  }

  /**
   * While the answer plays: its controls stay on the screen with the board (the bounds line
   * above them follows each position shown and may take a line more or less), as far as
   * keepInView scrolls.
   */
  keepPlaybackInView() {
    keepInView($("playback"), undefined, { showBoard: true });
  }

  // ---------------------------------------------------------------- footer and page markers
  setBuildLine(text) {
    $("build-line").textContent = text;
  }

  /** The build line before anything is cached: what a first visit downloads. */
  buildDownload(buildInfo, { cached = false } = {}) {
    // under the service worker nothing (or only what changed) is downloaded: no size then
    this.setBuildLine(
      cached ? `Build ${buildInfo.version}.` : `Build ${buildInfo.version} · first visit downloads at most ${formatBytes(buildInfo.total_bytes)}.`,
    );
  }

  /** Everything of this build is cached: html[data-offline=ready]. */
  offlineReady(summary) {
    document.documentElement.dataset.offline = "ready";
    this.setBuildLine(`Available offline · build ${summary.version} · ${formatBytes(summary.bytes)} cached.`);
  }

  /**
   * The first time the solver was ready: html[data-ready-seconds] (seconds since the page was
   * opened, by its own clock: tools/web_bench.py reads it), and html[data-phases] with
   * each start-up phase's seconds (model/format.js phasesAttr; the warm-up joins it when done).
   */
  markReady(seconds, phases = {}) {
    document.documentElement.dataset.readySeconds = seconds.toFixed(2);
    document.documentElement.dataset.phases = phasesAttr(phases);
  }
}
