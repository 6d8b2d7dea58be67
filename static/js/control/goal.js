// The Goal field: the arrangement the board is solved towards (fifteen.board.Goal), typed with
// the rules of the tiles field (checked by the solver's parser: fifteen.api "parse" with the
// position and the goal) or chosen with one click (the standard goal, the blank-first goal).
// The goal belongs to the position (model/board.js Board.goal): a new goal is a change of
// position (undoable, in the history and the share link: &goal=), the position kept.  A position
// that cannot reach the new goal (the other half of the positions: on 4x4 the standard and
// blank-first goals lie in different halves) keeps its goal too: the field says why and offers
// the fix, the position with two tiles swapped, towards the new goal (a text being fixed in the
// tiles field is tried first, typed for that goal).

import { Board, GOALS, goalName, isSolvable } from "../model/board.js";
import { Source } from "../model/page-model.js";
import { ErrorCode, ErrorType, Method } from "../solver/protocol.js";
import { JobKind } from "./jobs.js";
import { plainInputError, unsolvableFix } from "./text.js";

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
   * text (the TextField: its text is tried with a new goal).
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.seq = 0; // the latest check
    this.editing = false; // the field holds text not yet checked, or refused
    this.pending = null; // a goal the position cannot reach, with its fix: {goal (tiles), tiles (the position fixed), key (the position's)}
  }

  /** The board shows `board`: the field follows its goal unless it is being edited (a goal refused for another position goes). */
  follow(board) {
    if (this.pending && this.pending.key !== board.key()) {
      this.pending = null;
      this.editing = false;
    }
    if (this.editing) return;
    this.hooks.view.setGoal(goalFieldText(board), "");
  }

  /** A keystroke in the field. */
  edited() {
    this.editing = true;
    this.pending = null;
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
    this.hooks.view.setGoal(name);
    return this.apply(GOALS[name](b.rows, b.cols));
  }

  /**
   * Make `goal` (tiles) the position's goal (see the module's comment).  Whether the position
   * reaches it is the solver's to say ("parse" with the position and the goal); before the solver
   * has loaded the page's copy of the parity rule (model/board.js isSolvable) decides.
   */
  async apply(goal) {
    const { model, view, changePosition, text, ask } = this.hooks;
    this.editing = false;
    this.pending = null;
    view.setGoal(null, "");
    const b = model.position;
    if (model.textError && model.ready && (await text.sync({ force: true, goal }))) return; // the typed position, for this goal
    let reachable = isSolvable(b.tiles, b.rows, b.cols, goal);
    if (model.ready) {
      const seq = ++this.seq;
      try {
        await ask(JobKind.CHECK, Method.PARSE, { ...b.params(), goal }, { user: true });
        reachable = true;
      } catch (err) {
        if (seq !== this.seq || err.type === ErrorType.CANCELLED) return;
        if (err.code !== ErrorCode.UNSOLVABLE) {
          view.setGoal(null, `The goal: ${plainInputError(err)}`, err.code);
          this.editing = true;
          return;
        }
        reachable = false;
      }
      if (seq !== this.seq || model.position !== b) return; // another goal or position since
    }
    if (reachable) {
      changePosition(b.withGoal(goal), Source.GOAL);
      return;
    }
    // the position and its goal are kept; the field keeps the goal asked for, says why, offers the fix
    const fix = unsolvableFix(b.text());
    const what = goalName(goal, b.rows, b.cols);
    this.editing = true;
    this.pending = { goal, tiles: fix.text.split(" ").map(Number), key: b.key() };
    view.setGoal(
      null,
      `The position on the board cannot reach ${what ? `the ${what} goal` : "this goal"}: no sequence of slides does (it lies in the other half of the positions). Swapping two tiles makes it reachable.`,
      ErrorCode.UNSOLVABLE,
      { label: `${fix.label} for this goal` },
    );
  }

  /** The fix of a goal the position cannot reach: two tiles swapped, towards that goal. */
  fix() {
    const { model, view, changePosition } = this.hooks;
    const p = this.pending;
    if (!p) return;
    const b = model.position;
    this.pending = null;
    this.editing = false;
    view.setGoal(null, "");
    changePosition(new Board(b.rows, b.cols, p.tiles, p.goal), Source.GOAL);
  }
}
