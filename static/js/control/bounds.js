// The bounds line under the board and the Solve card's bound menu: the solver's "bounds"
// answer for the position (asked once the board settles), LB for the selected bound, the
// bounds each shape offers with their labels, the remembered choice.

import { ErrorType, Method } from "../solver/protocol.js";
import { prefs } from "../model/share.js";
import { JobKind } from "./jobs.js";
import { goalLineText } from "./goal.js";
import { goalFrameText } from "../model/format.js";

export class BoundsLine {
  /**
   * hooks (main.js): model, view, ask(kind, method, params) (a request to the solver as a job),
   * and warmUp(shape) (after a shape's first bounds:
   * its first search prepared while the user looks).
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.timer = 0; // the request after the board settled
    this.seq = 0; // the latest request (older answers are dropped)
    this.key = ""; // "shape:tiles" of the last answer
    this.knownShapes = new Set(); // shapes whose tables the solver loaded (its info then lists their bounds)
  }

  /** A bound's label, from the solver (info.labels); the name itself when unknown. */
  label(bound) {
    return this.hooks.model.info?.labels?.[bound] || bound;
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
   * unless it answered for it already, or `force`.
   */
  refresh({ force = false } = {}) {
    const { model, ask } = this.hooks;
    clearTimeout(this.timer);
    if (!model.ready || model.job) return;
    const board = model.shownBoard();
    const key = board.key();
    if (key === this.key && !force) {
      this.render(); // (answered already: a checked text's bounds came with its check)
      return;
    }
    this.timer = setTimeout(async () => {
      const seq = ++this.seq;
      try {
        const r = await ask(JobKind.BOUNDS, Method.BOUNDS, board.params());
        if (seq === this.seq) this.answered(board, r);
      } catch (err) {
        if (seq !== this.seq || err.type === ErrorType.CANCELLED) return;
        if (err.type === ErrorType.ASSET) this.failed(err);
        else this.hooks.view.bounds.clear(err.message);
      }
    }, 60);
  }

  /** The solver's "bounds" answer `r` for `board` (asked here, or with a typed text's check: text.js). */
  async answered(board, r) {
    const { model, ask } = this.hooks;
    this.seq++; // (an older answer still on its way is dropped)
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
      model.boundsFor().map((b) => [b, this.label(b)]),
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
