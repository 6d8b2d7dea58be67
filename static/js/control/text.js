// The tiles text field: what the user types, checked by the solver's parser (fifteen.api
// "parse") once its count of numbers fits the selected size (or on blur / Enter); a valid text
// becomes the board's position, an invalid one gets a message in plain words, with a
// one-click fix where there is one.  The messages' rules are pure functions below
// (tests/js/text.test.mjs); the controller keeps only its timer and the latest check's number.

import { Board, GOALS, SHAPES, goalLike, isSolvable, parseShape } from "../model/board.js";
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

/**
 * The named goals of a board of `shape` other than `goal` (tiles): those an unsolvable text may
 * reach instead (the solver says which: TextField.refused asks it), as [name, tiles].  On 4x4 a
 * text typed for the blank-first goal (0 1 2 ... 15) under the standard one reaches that goal.
 */
export function otherGoals(shape, goal) {
  const d = parseShape(shape);
  if (!d) return [];
  return Object.entries(GOALS)
    .map(([name, make]) => [name, make(d.rows, d.cols)])
    .filter(([, g]) => !goal || g.join(" ") !== goal.join(" "));
}

/**
 * The shape a text of `count` numbers is read as when it does not fit the `selected` size: a
 * square, else (unless the count is one off the selected size: a number missing or one too
 * many, said so) the one shape of the solver's `shapes` it fits, or of several the squarest,
 * wider than high (12 numbers: 3x4, not 2x6, 4x3 or 6x2; the Size menu has the others); else the
 * selected size (the count is then said to be short or long for it).
 */
export function shapeForCount(count, selected, shapes) {
  const dims = parseShape(selected);
  if (dims && dims.rows * dims.cols === count) return selected;
  const fits = shapes.filter((s) => {
    const d = parseShape(s);
    return d && d.rows * d.cols === count;
  });
  const square = fits.find((s) => parseShape(s).rows === parseShape(s).cols);
  if (square) return square;
  if (!fits.length || (dims && Math.abs(dims.rows * dims.cols - count) === 1)) return selected;
  const wide = fits.filter((s) => parseShape(s).rows <= parseShape(s).cols);
  const gap = (s) => parseShape(s).cols - parseShape(s).rows;
  return (wide.length ? wide : fits).reduce((a, b) => (gap(b) < gap(a) ? b : a));
}

const plural = (n, word) => `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;

/**
 * The solver's refusal of `text` (for a board of `shape`, when one was given) in plain words,
 * told apart by the error's code; other errors keep the solver's message.
 */
export function plainInputError(err, { text = "", shape = null } = {}) {
  if (err.code === ErrorCode.UNSOLVABLE) {
    return "This position can't be solved: no sequence of slides reaches the goal from it. Swapping two tiles makes it solvable.";
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

  showError(message, fix = null, goalFix = null) {
    this.hooks.view.setTextError(message, fix, goalFix);
  }

  /** The board shows `board`: the field follows it unless it holds an error being fixed. */
  follow(board) {
    const { model } = this.hooks;
    if (tokens(model.text).join(" ") !== board.text() && !model.textError) this.show(board.gridText());
  }

  /** The field's text differs from the board (a click on Solve must use it); an empty field does not. */
  differs() {
    const { model } = this.hooks;
    const t = tokens(model.text);
    return t.length > 0 && t.join(" ") !== model.position.text();
  }

  /** The shape to send with a text (shapeForCount). */
  shapeFor(text) {
    return shapeForCount(tokens(text).length, this.hooks.model.position.shape, this.hooks.shapes());
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
    if (!text) return true; // an empty field: the board is the position
    if (!model.ready) return false;
    const shape = this.shapeFor(text);
    const seq = ++this.seq;
    const d = parseShape(shape);
    const target = goal && goal.length === d.rows * d.cols ? goal : goalLike(model.position, d.rows, d.cols);
    try {
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
      this.refused(text, shape, err, target);
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
   * The solver's parser refused `text` (typed or a link's), for `goal` (tiles): the field says why
   * in plain words, with its one-click fixes where there are some: a swap of two tiles, and, when
   * the solver finds the position solvable for another named goal, that goal.  The board is
   * kept, and so is its bounds line.
   */
  async refused(text, shape, err, goal = null) {
    const { model, run, ask } = this.hooks;
    const unsolvable = err.code === ErrorCode.UNSOLVABLE;
    const message = plainInputError(err, { text, shape });
    const fix = unsolvable ? unsolvableFix(text) : null;
    this.showError(message, fix);
    run(model.textInvalid(err.message));
    if (!unsolvable || !model.ready) return;
    const seq = this.seq;
    for (const [name, tiles] of otherGoals(shape, goal)) {
      try {
        await ask(JobKind.CHECK, Method.PARSE, { text, shape, goal: tiles });
      } catch {
        continue; // not for this goal either (or the check was stopped)
      }
      if (seq !== this.seq || model.text.trim() !== text.trim()) return; // the field moved on
      this.showError(`${message} It can reach the ${name} goal instead.`, fix, { label: `Use the ${name} goal`, goal: name });
      return;
    }
  }

  /** The other-goal fix: the text checked again towards the named goal `name`. */
  useGoal(name) {
    const { model } = this.hooks;
    const d = parseShape(this.shapeFor(model.text));
    if (!d || !GOALS[name]) return;
    this.sync({ force: true, goal: GOALS[name](d.rows, d.cols) });
  }

  /**
   * The text changed (each keystroke): it is checked only once its count of
   * numbers fits the selected size (or on blur / Enter: committed), never
   * while a longer position is still being typed.
   */
  edited(text) {
    const { model, run } = this.hooks;
    clearTimeout(this.timer);
    if (!tokens(text).length) {
      // an emptied field: no old error stays (the next position fills it again)
      this.showError("");
      run(model.textCleared());
      return;
    }
    model.textEdited(text);
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
      this.refused(link.text, link.shape, err, link.goal);
      refuse("This link's position was refused: the tiles field says why.");
    }
  }
}
