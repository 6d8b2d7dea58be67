// The tiles text field: what the user types, checked by the solver's parser (fifteen.api
// "parse") once its count of numbers fits the selected size (or on blur / Enter); a valid text
// becomes the board's position, an invalid one gets a message in plain words, with a
// one-click fix where there is one.  The messages' rules are pure functions below
// (tests/js/text.test.mjs); the controller keeps only its timer and the latest check's number.

import { Board, SHAPES, goalLike, isSolvable, parseShape } from "../model/board.js";
import { Source } from "../model/page-model.js";
import { ErrorCode, ErrorType, Method } from "../solver/protocol.js";
import { JobKind } from "./jobs.js";

/** The numbers (or words) of a text, split at spaces, commas and semicolons. */
export const tokens = (text) => String(text).split(/[\s,;]+/).filter(Boolean);

/**
 * A one-click fix for an unsolvable text: swap the two largest tiles (one swap
 * of two tiles always changes the parity that decides solvability).
 */
export function unsolvableFix(text) {
  const t = tokens(text).map(Number);
  const n = t.length;
  if (n < 3 || !t.every((x) => Number.isInteger(x) && x >= 0 && x < n)) return null;
  const a = n - 2;
  const b = n - 1;
  const ia = t.indexOf(a);
  const ib = t.indexOf(b);
  if (ia < 0 || ib < 0) return null;
  t[ia] = b;
  t[ib] = a;
  return { label: `Swap tiles ${a} and ${b}`, text: t.join(" ") };
}

const plural = (n, word) => `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;

/**
 * The solver's refusal of `text` (for a board of `shape`, when one was given) in plain words,
 * told apart by the error's code; other errors keep the solver's message.
 */
export function plainInputError(err, { text = "", shape = null } = {}) {
  if (err.code === ErrorCode.UNSOLVABLE) {
    return "This position can't be solved: no sequence of slides reaches the goal from it. It is the mirror image of a solvable one: swapping any two tiles makes it solvable.";
  }
  if (err.code === ErrorCode.TOO_LONG && text) {
    return `This text is too long to be a position (${plural(String(text).length, "character")}).`;
  }
  const dims = parseShape(shape);
  const count = tokens(text).length;
  if (err.code === ErrorCode.COUNT && dims && count) {
    const need = dims.rows * dims.cols;
    const off = Math.abs(need - count);
    const what = off === 1 ? "One number" : `${off.toLocaleString("en")} numbers`;
    const where = `a ${shape} board takes ${need} (0 for the gap), this text has ${count.toLocaleString("en")}`;
    if (count < need) return `${what} ${off === 1 ? "is" : "are"} missing: ${where}.`;
    if (count > need) return `${what} too many: ${where}.`;
  }
  return err.message;
}

/** A link's position that needs no check by the solver: one solvable for its goal, on a size of the menu. */
export function linkDrawable(link) {
  const d = link?.tiles && link.goal && SHAPES.includes(link.shape) ? parseShape(link.shape) : null;
  return !!d && isSolvable(link.tiles, d.rows, d.cols, link.goal);
}

export class TextField {
  /**
   * hooks (main.js): model (PageModel), view (PageView), ask(kind, method, params, options) (a
   * request to the solver as a job), run(effects), changePosition(board, source), shapes() the
   * sizes the solver supports, bounds (the bounds line, bounds.js: it takes a checked text's
   * bounds).
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.seq = 0; // the latest check (older answers are dropped)
    this.timer = 0; // the check after a keystroke
  }

  /** The field shows `text` (matching the board) and no error. */
  show(text) {
    const { model, view } = this.hooks;
    model.textShown(text);
    view.setTilesText(text);
    this.showError("");
  }

  showError(message, fix = null) {
    this.hooks.view.setTextError(message, fix);
  }

  /** The board shows `board`: the field follows it unless it holds an error being fixed. */
  follow(board) {
    const { model } = this.hooks;
    if (tokens(model.text).join(" ") !== board.text() && !model.textError) this.show(board.gridText());
  }

  /** The field's text differs from the board (a click on Solve must use it). */
  differs() {
    const { model } = this.hooks;
    return tokens(model.text).join(" ") !== model.position.text();
  }

  /**
   * The shape to send with a text: the selected size when the count fits it, else the square
   * size of that count, else the one size the count fits, else the selected one (a count that
   * fits none, or several, is said to be short or long for the size the user chose).
   */
  shapeFor(text) {
    const count = tokens(text).length;
    const selected = this.hooks.model.position.shape;
    const dims = parseShape(selected);
    if (dims && dims.rows * dims.cols === count) return selected;
    const fits = this.hooks.shapes().filter((s) => {
      const d = parseShape(s);
      return d.rows * d.cols === count;
    });
    const square = fits.find((s) => parseShape(s).rows === parseShape(s).cols);
    return square || (fits.length === 1 ? fits[0] : selected);
  }

  /**
   * Check the text with the solver, towards `goal` (tiles; the position's goal, or its kind on
   * another size: model/board.js goalLike); on success the board follows it.  Resolves to true
   * when it did.  The same check already under way (the field's blur, then a click on Solve) is
   * awaited, not asked again.
   */
  sync(options = {}) {
    const key = `${this.hooks.model.text.trim()}|${options.goal ?? ""}`;
    if (this.checking?.key === key) return this.checking.promise;
    const promise = this.check(options);
    const checking = (this.checking = { key, promise });
    promise.finally(() => {
      if (this.checking === checking) this.checking = null;
    });
    return promise;
  }

  async check({ force = false, goal = null } = {}) {
    const { model, ask, changePosition } = this.hooks;
    const text = model.text.trim();
    if (!force && !model.textDirty) return true;
    if (!model.ready) return false;
    const shape = this.shapeFor(text);
    const seq = ++this.seq;
    try {
      const d = parseShape(shape);
      const target = goal && goal.length === d.rows * d.cols ? goal : goalLike(model.position, d.rows, d.cols);
      // One request checks the text and computes its bounds (the bounds line takes them: no second request)
      const r = await this.checked(ask, { text, shape, goal: target });
      if (seq !== this.seq) return false;
      model.textValid();
      this.showError("");
      const board = new Board(r.rows, r.cols, r.tiles, r.goal);
      if (r.bounds) this.hooks.bounds?.answered(board, r);
      changePosition(board, Source.TEXT);
      return true;
    } catch (err) {
      if (err.type === ErrorType.CANCELLED || seq !== this.seq) return false;
      this.refused(text, shape, err);
      return false;
    }
  }

  /**
   * The position of `params` ({text, shape, goal}) with its bounds (fifteen.api "bounds": parsed
   * and valued in one request); a damaged database is the bounds line's to say, and the
   * position is then checked alone ("parse").
   */
  async checked(ask, params) {
    try {
      return await ask(JobKind.CHECK, Method.BOUNDS, params, { user: true });
    } catch (err) {
      if (err.type !== ErrorType.ASSET) throw err;
      this.hooks.bounds?.failed(err);
      return ask(JobKind.CHECK, Method.PARSE, params, { user: true });
    }
  }

  /**
   * The solver's parser refused `text` (typed or a link's): the field says why in plain words,
   * with its one-click fix where there is one.  The board is kept, and so is its bounds line.
   */
  refused(text, shape, err) {
    const { model, run } = this.hooks;
    this.showError(plainInputError(err, { text, shape }), err.code === ErrorCode.UNSOLVABLE ? unsolvableFix(text) : null);
    run(model.textInvalid(err.message));
  }

  /**
   * The text changed (each keystroke): it is checked only once its count of
   * numbers fits the selected size (or on blur / Enter: committed), never
   * while a longer position is still being typed.
   */
  edited(text) {
    const { model } = this.hooks;
    model.textEdited(text);
    clearTimeout(this.timer);
    const dims = parseShape(model.position.shape);
    if (dims && tokens(text).length === dims.rows * dims.cols) this.timer = setTimeout(() => this.sync(), 200);
  }

  /** Blur or Enter in the text field: check it now whatever its count. */
  committed() {
    const { model } = this.hooks;
    clearTimeout(this.timer);
    if (model.textDirty && model.text.trim()) this.sync();
  }

  /** The fix button: its text replaces the field's, checked at once. */
  fix(text) {
    this.hooks.view.setTilesText(text);
    this.hooks.model.textEdited(text);
    this.sync({ force: true });
  }

  /**
   * A link's position, checked by the same rules as typed input before anything
   * is drawn: a solvable position on a shape of the built-in menu is drawn at once
   * (linkDrawable); any other goes through the solver's parser (once it has loaded),
   * and a refused one keeps the board: the field shows the link's text as if typed,
   * with the reason and its fix (refused), and the notice says the link was refused.
   */
  async checkLink(link, source, refuse) {
    const { model, ask, changePosition, view } = this.hooks;
    if (linkDrawable(link)) {
      const d = parseShape(link.shape);
      changePosition(new Board(d.rows, d.cols, link.tiles, link.goal), source);
      return;
    }
    if (!model.ready) {
      model.linkPending(link, source); // checked when the solver is ready
      return;
    }
    try {
      const r = await ask(JobKind.CHECK, Method.PARSE, { text: link.text, shape: link.shape || null, goal: link.goalText || null }, { user: true });
      changePosition(new Board(r.rows, r.cols, r.tiles, r.goal), source);
    } catch (err) {
      if (err.type === ErrorType.CANCELLED) return;
      view.setTilesText(link.text);
      model.textEdited(link.text);
      this.refused(link.text, link.shape, err);
      refuse("This link's position was refused: the tiles field says why.");
    }
  }
}
