// The bounds line under the board and the Solve card's bound menu: the solver's "bounds"
// answer for the position (asked once the board settles), LB for the selected bound, the
// bounds each shape offers with their labels, the remembered choice; and the databases that
// come after Ready (the 7-7-1, swapped in when it has arrived) or only when asked (the 6-6-3):
// their bounds are offered with what they take, and the page says when one has arrived.

import { ErrorType, LoadState, Method, Stage } from "../solver/protocol.js";
import { formatBytes } from "../model/format.js";
import { prefs } from "../model/share.js";
import { JobKind, Why } from "./jobs.js";
import { goalLineText } from "./goal.js";
import { goalFrameText } from "../model/format.js";

/** How many times a bounds request stopped on its way is asked again, and after how long (ms). */
const RETRIES = 3;
const RETRY_MS = 250;

export class BoundsLine {
  /**
   * hooks (main.js): model, view, ask(kind, method, params) (a request to the solver as a job),
   * and warmUp(shape) (after a shape's first bounds:
   * its first search prepared while the user looks).
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.timer = 0; // the request after the board settled (or its retry)
    this.key = ""; // "shape:tiles" of the last answer
    this.knownShapes = new Set(); // shapes whose tables the solver loaded (its info then lists their bounds)
    this.arriving = new Map(); // database file -> percent downloaded (after Ready)
  }

  /** A bound's label, from the solver (info.labels); the name itself when unknown. */
  label(bound) {
    return this.hooks.model.info?.labels?.[bound] || bound;
  }

  /**
   * A bound's label in the bound menu: with, for one whose database is not in the solver yet
   * (info.pending), how far it has come (an "idle" one, on its way since Ready) or what choosing
   * it downloads (an "asked" one); "auto" says which database is on its way.
   */
  menuLabel(bound) {
    const { model } = this.hooks;
    const pending = model.info?.pending || {};
    const coming = (p) => {
      const pct = this.arriving.get(p.file);
      return pct === undefined ? `${formatBytes(p.bytes)} on its way` : `arriving: ${pct} % of ${formatBytes(p.bytes)}`;
    };
    if (bound === "auto") {
      const shape = model.position.shape;
      const idle = Object.entries(pending).find(([, p]) => p.load === "idle" && (p.shapes || []).includes(shape));
      return idle ? `${this.label("auto")} (the ${this.label(idle[0])} once it has arrived: ${coming(idle[1])})` : this.label("auto");
    }
    const p = pending[bound];
    if (!p) return this.label(bound);
    return p.load === "idle" ? `${this.label(bound)} (${coming(p)})` : `${this.label(bound)} (downloads ${formatBytes(p.bytes)} when chosen)`;
  }

  /**
   * A LOADING message after Ready (startup.js): a database's download (the menu says how far it
   * has come, every 10 %) or its arrival (its bound joins the solver's: the menu, the bounds
   * line and a toast say so).
   */
  later(msg) {
    const { model, view } = this.hooks;
    if (msg.stage !== Stage.DATABASES) return;
    if (msg.state === LoadState.DONE) {
      this.arriving.delete(msg.label);
      if (!msg.info) return; // (missing: the bound stays offered, a later choice tries again)
      const arrived = Object.entries(model.info?.pending || {}).find(([, p]) => p.file === msg.label);
      model.solverInfo(msg.info);
      this.fillMenu();
      this.refresh({ force: true });
      if (arrived && arrived[1].load === "idle") view.toast(`The ${this.label(arrived[0])} has arrived: Solve uses it now.`, 5000);
      return;
    }
    const pct = msg.bytes ? Math.floor((100 * (msg.loaded || 0)) / msg.bytes / 10) * 10 : 0;
    if (this.arriving.get(msg.label) === pct) return;
    this.arriving.set(msg.label, pct);
    this.fillMenu();
  }

  /** The line for the position's "bounds" answer, LB for the selected bound. */
  render() {
    const { model, view } = this.hooks;
    const r = model.positionBounds();
    if (!r) return;
    view.bounds.render(r, { selected: model.bound, label: this.label(model.bound) });
    const board = model.shownBoard();
    view.setGoalLine(goalLineText(board), `${goalLineText(board)}. ${goalFrameText(r.goal_frame)}`.trim());
  }

  /**
   * Ask the solver for the bounds of the board shown (the position, or a step of its playback)
   * unless it answered for it already, or `force`.  Not while the solver is not ready or a solve
   * runs: its READY and the solve's end draw the board again, which asks then.
   */
  refresh({ force = false } = {}) {
    const { model } = this.hooks;
    clearTimeout(this.timer);
    if (!model.ready || model.job) return;
    const board = model.shownBoard();
    const key = board.key();
    if (key === this.key && !force) {
      this.render(); // (answered already: a checked text's bounds came with its check)
      return;
    }
    this.timer = setTimeout(() => this.request(board, RETRIES), 60);
  }

  /**
   * Ask for `board`'s bounds.  The answer is taken when `board` is still the one shown (an answer
   * for a board left meanwhile is dropped, whatever order the answers come in); a request stopped
   * on its way (CANCELLED: the solver's worker stopped under it) is asked again, `retries` times,
   * unless a newer request of the bounds took its place, or the board is no longer shown.
   */
  async request(board, retries) {
    const { model, ask, view } = this.hooks;
    const shown = () => model.shownBoard().key() === board.key();
    let r;
    try {
      r = await ask(JobKind.BOUNDS, Method.BOUNDS, board.params());
    } catch (err) {
      if (!shown()) return;
      if (err.type !== ErrorType.CANCELLED) {
        if (err.type === ErrorType.ASSET) this.failed(err);
        else view.bounds.clear(err.message);
      } else if (err.why !== Why.NEWER && retries > 0) {
        console.debug(`bounds: the request for ${board.key()} was stopped (${err.message}); asked again`);
        this.timer = setTimeout(() => this.request(board, retries - 1), RETRY_MS);
      }
      return;
    }
    if (shown()) this.answered(board, r);
  }

  /** The solver's "bounds" answer `r` for `board` (asked here, or with a typed text's check: text.js). */
  async answered(board, r) {
    const { model, ask } = this.hooks;
    clearTimeout(this.timer);
    this.key = board.key();
    model.boundsAnswered(r);
    this.render();
    this.hooks.warmUp(board.shape);
    if (this.knownShapes.has(board.shape)) return;
    this.knownShapes.add(board.shape);
    try {
      model.solverInfo(await ask(JobKind.INFO, Method.INFO, {})); // (the bounds of the shape's tables, loaded now)
      this.fillMenu();
    } catch {
      this.knownShapes.delete(board.shape); // asked again with the next answer
    }
  }

  /** A damaged database (an ASSET error of a "bounds" request): the page says so and offers to go on without it. */
  failed(err) {
    const { model, view } = this.hooks;
    view.setStatus("error", `Error: ${err.message}`);
    model.damagedFile(err.file);
    view.showError("A database file is damaged", err.message, { skip: !!model.damaged });
  }

  /**
   * A solver worker started (the first, or one after a cancel or a crash): its info lists the
   * bounds of the tables it loaded, which may lack a shape's tables an earlier worker had (the
   * 5x5 tables load only for 5x5), so each shape is asked for again.
   */
  solverStarted() {
    this.knownShapes.clear();
  }

  /** The bound menu: the shape's bounds, the choice kept (or remembered) when offered. */
  fillMenu() {
    const { model, view } = this.hooks;
    const bound = model.chooseBound(model.bound || prefs.get("bound", "auto"));
    view.setBoundMenu(
      model.boundsFor().map((b) => [b, this.menuLabel(b)]),
      bound,
      { disabled: !!model.job || !model.ready },
    );
    this.render();
  }

  /** The user chose `bound` (remembered). */
  chosen(bound) {
    this.hooks.model.chooseBound(bound);
    prefs.set("bound", bound);
    this.render();
  }
}
