// The Goal field: the arrangement the board is solved towards (fifteen.board.Goal), typed with
// the rules of the tiles field (checked by the solver's parser: fifteen.api "parse" with the
// position and the goal) or chosen with one click (the standard goal, the blank-first goal).
// The goal belongs to the position (model/board.js Board.goal): a new goal is a change of
// position (undoable, in the history and the share link: &goal=).  A position that cannot reach
// the new goal (the other half of the positions) is not kept: the tiles field's text is tried
// (typed for that goal), else a random position that can reach it is drawn, and the notice says so.

import { Board, GOALS, goalName, isSolvable, randomTiles } from "../model/board.js";
import { Source } from "../model/page-model.js";
import { ErrorType, Method } from "../solver/protocol.js";
import { JobKind } from "./jobs.js";
import { plainInputError } from "./text.js";

/** The goal as the field shows it: its name, or its tiles. */
export function goalFieldText(board) {
  return board.goalName || board.goalText();
}

/** "Goal: ..." under the board: what the board is solved towards, in words. */
export function goalLineText(board) {
  const n = board.tiles.length - 1;
  const name = board.goalName;
  if (name === "standard") return `Goal: 1 2 3 … ${n}, the gap last (standard)`;
  if (name === "blank-first") return `Goal: the gap first, then 1 2 3 … ${n} (blank first)`;
  const rows = [];
  for (let r = 0; r < board.rows; r++) rows.push(board.goal.slice(r * board.cols, (r + 1) * board.cols).join(" "));
  return `Goal: ${rows.join(" / ")}`;
}

export class GoalField {
  /**
   * hooks (main.js): model, view, ask(kind, method, params, options), changePosition(board, source),
   * text (the TextField: its text is tried with a new goal), notice(text) (the position's notice).
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.seq = 0; // the latest check
    this.editing = false; // the field holds text not yet checked, or refused
  }

  /** The board shows `board`: the field follows its goal unless it is being edited. */
  follow(board) {
    if (this.editing) return;
    this.hooks.view.setGoal(goalFieldText(board), "");
  }

  /** A keystroke in the field. */
  edited() {
    this.editing = true;
  }

  /** Blur or Enter in the field: the text is checked (an empty field is the standard goal). */
  async committed(text) {
    const { model, view, ask } = this.hooks;
    if (!this.editing) return;
    const b = model.position;
    const t = String(text).trim() || "standard";
    const named = GOALS[t.toLowerCase()];
    if (named) return this.apply(named(b.rows, b.cols));
    if (!model.ready) return; // checked at the next commit, once the solver has loaded
    const seq = ++this.seq;
    try {
      // the goal read as a position of the board's size (the parser's rules): its tiles, or why not
      const r = await ask(JobKind.CHECK, Method.PARSE, { text: t, shape: b.shape, goal: t }, { user: true });
      if (seq === this.seq) await this.apply(r.tiles);
    } catch (err) {
      if (seq !== this.seq || err.type === ErrorType.CANCELLED) return;
      view.setGoal(null, `The goal: ${plainInputError(err, { text: t, shape: b.shape })}`, err.code);
    }
  }

  /** A one-click goal: `name` ("standard", "blank-first") on the board's size. */
  chosen(name) {
    const b = this.hooks.model.position;
    this.editing = true;
    return this.apply(GOALS[name](b.rows, b.cols));
  }

  /** Make `goal` (tiles) the position's goal (see the module's comment). */
  async apply(goal) {
    const { model, changePosition, text, notice } = this.hooks;
    this.editing = false;
    this.hooks.view.setGoal(null, "");
    const b = model.position;
    if (model.textError && model.ready && (await text.sync({ force: true, goal }))) return; // the typed position, for this goal
    if (isSolvable(b.tiles, b.rows, b.cols, goal)) {
      changePosition(b.withGoal(goal), Source.GOAL);
      return;
    }
    changePosition(new Board(b.rows, b.cols, randomTiles(b.rows, b.cols, undefined, goal), goal), Source.GOAL);
    const what = goalName(goal, b.rows, b.cols) || "this";
    notice(`The position shown cannot reach the ${what} goal (no sequence of slides does): a random position that can was drawn. Undo brings the old one back.`);
  }
}
