// The page's state model: the one object holding what the page shows and knows — the
// position, the shown solution, its playback, the solve job, the status, the tiles text, the
// choices of the menus, what the solver said about itself — and one method per user action
// or solver event that says what happens to each of them.  Nothing else keeps page state
// (the controllers keep only their timers), and nothing writes these fields but the methods
// below.  Pure: no DOM, no timers, no worker (tests/js/page-model.test.mjs drives it under
// node --test).  Each method that changes what is shown returns a list of effects (plain
// objects) that main.js carries out: write the URL, render, focus the result, ask before
// discarding a solution, stop a solve that a position change from the address bar cancels.  A
// solve is started, stopped and ended by control/solving.js, which calls these methods itself.
//
// The rules, in short:
//   * Every change of position (shuffle, goal, size, example, valid text, a
//     manual move, a link, Back/Forward, undo) clears the shown solution and
//     its playback, resets the status to "Ready" (when the solver is) and the
//     example name unless the change is that example; it is undoable and goes
//     into the browser history (Back/Forward restore it; they never push).
//   * Solve never starts a second job, never restarts a finished solve of the
//     same position and bound, and a Cancel within CLICK_GUARD_MS of the
//     solve's start is ignored (a double click on Solve is one click).
//   * A position change from the history (Back/Forward) or a link while a
//     job runs cancels the job first: the URL and the job always agree.
//   * While a solution is shown, moves that follow it (or go back along it)
//     step the playback; any other move asks before discarding the solution.
//   * The status says what really happened: "Cancelled" only once the solver
//     stopped, with the time and whether it had to restart.

import { OPPOSITE } from "./board.js";
import { STOPPED_TEXT, anytimeText } from "./anytime.js";

/** #status[data-state] values. */
export const Status = Object.freeze({
  LOADING: "loading",
  READY: "ready",
  SOLVING: "solving",
  SOLVED: "solved",
  CANCELLED: "cancelled",
  ERROR: "error",
});

/** Where a new position comes from. */
export const Source = Object.freeze({
  START: "start", // the page opened (replaces the history entry)
  SHUFFLE: "shuffle",
  GOAL: "goal",
  SHAPE: "shape",
  EXAMPLE: "example",
  TEXT: "text",
  MOVE: "move",
  LINK: "link", // the share link the page was opened with (checked once the solver loaded)
  HISTORY: "history", // Back / Forward
  UNDO: "undo",
  REPLAY: "replay", // a pasted move string replayed on the board
  LAB: "lab", // a position the lab opened (explorer, presets)
});

/**
 * A Cancel this soon (ms) after Solve is the second half of a double click (or
 * a repeated key), not a request: Cancel never takes Solve's place or focus,
 * so this is a second line of defence.
 */
export const CLICK_GUARD_MS = 300;

/** A position's key ("4x4:1 2 3 ...", with its goal when not the standard one: Board.key). */
const positionKey = (board) => board.key();

/** At most this many undo steps are kept. */
export const UNDO_LIMIT = 200;

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "optimal" for the optimal search's answer; "proven optimal" for an anytime answer whose lower bound met its length. */
const optimalWord = (result) => (result.stopped !== undefined ? "proven optimal" : "optimal");

/**
 * Why a solve's `result` cannot be shown as the answer for `board`, or "": its blank directions
 * must replay from the board to its goal, slide the tiles its `moves` name, number `length`,
 * and no lower bound proven for it (the result's own, or `proven` by a search stopped before)
 * may exceed that length.  The rule of fifteen.optimal.check_answer, checked once more where
 * the answer is shown: the solver replays its answers, and a page must not trust a worker's.
 */
export function answerProblem(board, result, proven = 0) {
  const directions = result?.directions;
  const moves = result?.moves;
  if (typeof directions !== "string" || !Array.isArray(moves) || moves.length !== directions.length || result.length !== moves.length) {
    return "The solver's answer is malformed (its moves and directions do not agree). Reload the page.";
  }
  const b = board.clone();
  for (let i = 0; i < directions.length; i++) {
    if (b.moveBlank(directions[i]) !== moves[i]) return `The solver's answer does not replay: move ${i + 1} is not a move of this position. ${DAMAGED}`;
  }
  if (!b.isGoal()) return `The solver's ${result.length}-move answer does not reach the goal. ${DAMAGED}`;
  const lower = Math.max(result.lower_bound ?? 0, proven || 0);
  if (lower > result.length) return `The solver's ${result.length}-move answer is shorter than the lower bound ${lower} it proved. ${DAMAGED}`;
  return "";
}

/** What a contradicting answer says of its cause and cure. */
const DAMAGED = "A database file is damaged: reload the page to fetch it again; if it stays, rebuild the databases (make db).";

export class PageModel {
  /** board: the first position shown. */
  constructor(board) {
    // ---- the position and what is shown of it
    this.position = board;
    this.solution = null; // {start: Board, bound, result, kind?, epoch} the solution shown (start === position); kind: "replay" or "given" (a link's moves), none for a solve's
    this.playbackIndex = 0; // moves of the solution played on the board
    this.example = ""; // the example shown, "" when the position is not (any more) an example
    this.undoStack = []; // [{position, solution, example}]
    this.lastSolved = null; // {key (Board.key), length} of the last finished solve (or the one Back/Forward brought back)
    this.lastBounds = null; // the solver's last "bounds" answer (the board shown's once it arrives)
    this.notice = ""; // a note on the position (a refused link), "" for none
    // ---- the solve job and the status line
    this.job = null; // {id, board, bound, startedAt, cancelling, proven, anytime, best}: best = the anytime search's best solution so far (model/anytime.js)
    this.jobSeq = 0;
    this.status = { state: Status.LOADING, text: "Loading the solver…" };
    // ---- the tiles text field
    this.text = ""; // its content
    this.textDirty = false; // edited since the board last matched it
    this.textError = ""; // its last validation message ("" = valid)
    // ---- the menus and preferences
    this.bound = "auto"; // the bound menu's selection
    this.speedIndex = 2; // playback speed: an index into playback.js's SPEEDS
    this.examples = []; // the examples menu: [{id, name, shape, tiles, optimal, note}]
    // ---- the solver
    this.ready = false; // it takes requests
    this.info = null; // its "info" answer: shapes, bounds per shape, bound labels
    this.packs = []; // the manifest's optional packs, each with `loaded`
    this.packDownload = { busy: false, error: null }; // the pack download under way / its last failure
    this.damaged = null; // a damaged database file the user may go on without
    this.solverEpoch = 0; // counts the times the solver's bounds changed (a pack loaded)
    this.pendingLink = null; // {link, source}: a share link waiting for the solver's parser
    this.entry = null; // the tag of the history entry showing the position (main.js historyEntry)
    this.shownBefore = new Map(); // history entry tag -> the solution it showed when the board left it (keepSolution)
  }

  setStatus(state, text) {
    this.status = { state, text };
    return { type: "status", state, text };
  }

  /** The status a position change leaves behind. */
  idleStatus() {
    return this.ready ? this.setStatus(Status.READY, "Ready") : this.setStatus(Status.LOADING, this.status.text);
  }

  /** The board on screen: the playback's position while a solution is shown. */
  shownBoard() {
    if (!this.solution) return this.position;
    const b = this.solution.start.clone();
    for (let i = 0; i < this.playbackIndex; i++) b.moveBlank(this.solution.result.directions[i]);
    return b;
  }

  // ---------------------------------------------------------------- solver life
  /** The solver is (again) ready; `info` and `packs` from its READY. */
  solverReady(info = this.info, packs = this.packs) {
    this.ready = true;
    this.info = info;
    this.packs = packs || [];
    this.packDownload = { busy: false, error: this.packDownload.error };
    if (this.job) return [];
    if (this.status.state === Status.LOADING) return [this.setStatus(Status.READY, "Ready")];
    return [];
  }

  solverLost() {
    this.ready = false;
    return [];
  }

  /** The solver's info changed (a shape's tables loaded, a pack added a bound). */
  solverInfo(info) {
    if (info) this.info = info;
  }

  /** The bounds the solver offers for `shape` (info), "auto" first; ["auto"] before it said. */
  boundsFor(shape = this.position.shape) {
    return this.info?.bounds?.[shape] || ["auto"];
  }

  /** The bound menu's selection, kept when `shape` offers it, else its first. */
  chooseBound(bound, shape = this.position.shape) {
    const list = this.boundsFor(shape);
    this.bound = list.includes(bound) ? bound : list[0];
    return this.bound;
  }

  speedChosen(index) {
    this.speedIndex = index;
  }

  examplesLoaded(examples) {
    this.examples = examples || [];
  }

  /** A database file turned out damaged (null: forget it, the user went on without it). */
  damagedFile(file) {
    this.damaged = file || null;
  }

  /** A pack's download began. */
  packStarted() {
    this.packDownload = { busy: true, error: null };
  }

  /** A pack's download ended: loaded (with the solver's new info), or failed with `error` (text). */
  packEnded({ file = null, info = null, error = null } = {}) {
    this.packDownload = { busy: false, error };
    if (error) return;
    this.packLoaded(file);
    if (info) this.info = info;
    this.boundsChanged();
  }

  /** An optional pack that adds no bound (an explorer table) was loaded. */
  packLoaded(file) {
    this.packs = this.packs.map((p) => (p.file === file ? { ...p, loaded: true } : p));
  }

  /** The solver's bounds changed (a pack loaded): Solve may now answer differently, so it runs again. */
  boundsChanged() {
    this.solverEpoch += 1;
  }

  /** The solver's "bounds" answer for a position. */
  boundsAnswered(result) {
    this.lastBounds = result;
  }

  /** The last "bounds" answer when it is the board shown's (the position, or a step of its playback), else null. */
  positionBounds() {
    const r = this.lastBounds;
    const shown = this.shownBoard();
    return r && r.tiles.join(" ") === shown.text() && (!r.goal || r.goal.join(" ") === shown.goalText()) ? r : null;
  }

  /** A share link to check once the solver has loaded (null: taken). */
  linkPending(link, source) {
    this.pendingLink = link ? { link, source } : null;
  }

  /** A note on the position ("" for none). */
  setNotice(text) {
    this.notice = text;
  }

  // ---------------------------------------------------------------- the tiles text
  /** The user typed `text` (each keystroke). */
  textEdited(text) {
    this.text = text;
    this.textDirty = true;
  }

  /** The field shows `text`, which matches the board. */
  textShown(text) {
    this.text = text;
    this.textDirty = false;
  }

  /** The text field was emptied: no old error stays, and the board is what a Solve solves. */
  textCleared() {
    this.text = "";
    this.textDirty = false;
    const had = this.textError;
    this.textError = "";
    return had && !this.job && this.ready ? [this.solution ? this.solvedStatus() : this.idleStatus()] : [];
  }

  /** The text was checked and is the position (the board follows through setPosition). */
  textValid() {
    this.textDirty = false;
    this.textError = "";
  }

  // ---------------------------------------------------------------- positions
  /**
   * A new position.  options: {source (Source), example: id when the position
   * is that example}.  Returns effects; an empty list when nothing changed.
   */
  setPosition(board, { source, example = "", entry = null } = {}) {
    const effects = [];
    if (this.job) {
      // Controls are disabled while solving; only the address bar can get here.
      if (source !== Source.HISTORY && source !== Source.LINK) return [];
      const job = this.job;
      if (!job.cancelling) effects.push(...this.cancelJob("the position changed"), { type: "cancel", job, why: "the position changed" });
    }
    const same = positionKey(board) === positionKey(this.position);
    if (same && source !== Source.EXAMPLE && source !== Source.START && !this.solution) {
      if (!this.job) effects.push(this.idleStatus());
      return effects;
    }
    if (source !== Source.START && source !== Source.UNDO && source !== Source.HISTORY) {
      this.undoStack.push({ position: this.position, solution: this.solution, example: this.example });
      if (this.undoStack.length > UNDO_LIMIT) this.undoStack.shift();
    }
    if (this.solution && this.entry) this.keepSolution();
    this.position = board;
    // Back / Forward return to a history entry with the solution it showed (`entry`: its tag)
    const before = source === Source.HISTORY && entry ? this.shownBefore.get(entry) : null;
    this.solution = before && positionKey(before.start) === positionKey(board) ? before : null;
    if (this.solution && !this.solution.kind) this.lastSolved = { key: positionKey(board), length: this.solution.result.length };
    if (source === Source.HISTORY) this.entry = entry;
    this.playbackIndex = 0;
    this.example = source === Source.EXAMPLE ? example : "";
    this.textError = "";
    this.notice = "";
    effects.push({ type: "positionChanged" }, { type: "clearSolution" });
    if (this.solution) effects.push({ type: "showSolution", focus: false });
    effects.push({ type: "render" });
    if (source === Source.START || source === Source.LINK) effects.push({ type: "url", mode: "replace" });
    else if (source !== Source.HISTORY) effects.push({ type: "url", mode: "push" });
    if (!this.job) effects.push(this.solution && !this.solution.kind ? this.solvedStatus() : this.idleStatus());
    return effects;
  }

  /** The text field holds something that is not a valid position. */
  textInvalid(message) {
    this.textError = message;
    const effects = [];
    if (this.solution) {
      // The board no longer matches the text: the old playback must not stay playable.
      this.solution = null;
      this.playbackIndex = 0;
      effects.push({ type: "clearSolution" }, { type: "render" });
    }
    if (!this.job && this.ready) effects.push(this.setStatus(Status.READY, "Ready · the tiles text needs fixing"));
    return effects;
  }

  get canUndo() {
    return this.undoStack.length > 0 && !this.job;
  }

  /** The history entry (its tag) that shows the position now: the address bar was written. */
  entryShown(entry) {
    this.entry = entry;
  }

  /** Remember the solution shown in the current history entry (Back / Forward bring it back), the latest UNDO_LIMIT entries'. */
  keepSolution() {
    this.shownBefore.delete(this.entry);
    this.shownBefore.set(this.entry, this.solution);
    if (this.shownBefore.size > UNDO_LIMIT) this.shownBefore.delete(this.shownBefore.keys().next().value);
  }

  undo() {
    if (!this.canUndo) return [];
    const prev = this.undoStack.pop();
    this.position = prev.position;
    this.solution = prev.solution;
    this.playbackIndex = 0;
    this.example = prev.example;
    this.textError = "";
    const effects = [{ type: "positionChanged" }, { type: "clearSolution" }];
    if (this.solution) effects.push({ type: "showSolution", focus: false });
    effects.push({ type: "render" }, { type: "url", mode: "push" });
    effects.push(this.solution ? this.solvedStatus() : this.idleStatus());
    return effects;
  }

  // ---------------------------------------------------------------- moves and playback
  /**
   * The user moved the blank along `directions` (a tile click, a swipe, an
   * arrow key).  With a solution shown: the next moves of the solution step
   * the playback, the reverse of the last ones step back, anything else asks.
   */
  moveRequested(moves) {
    const directions = [...moves].join(""); // an array of letters or a string
    if (this.job || !directions.length) return [];
    if (this.solution) {
      const dirs = this.solution.result.directions;
      const i = this.playbackIndex;
      const forward = dirs.slice(i, i + directions.length);
      if (forward === directions) return [{ type: "seek", index: i + directions.length }];
      const reverse = [...directions].map((d) => OPPOSITE[d]).join("");
      const backward = [...dirs.slice(i - directions.length, i)].reverse().join("");
      if (i >= directions.length && backward === reverse) return [{ type: "seek", index: i - directions.length }];
      return [{ type: "ask", question: "Discard the solution shown and move the tile?", then: { type: "applyMoves", directions } }];
    }
    return [{ type: "applyMoves", directions }];
  }

  /** Apply `directions` to the board shown (after moveRequested, or once the user agreed). */
  applyMoves(directions) {
    if (this.job) return [];
    const b = this.shownBoard().clone();
    let moved = false;
    for (const d of directions) moved = b.moveBlank(d) !== 0 || moved;
    if (!moved) return [];
    return this.setPosition(b, { source: Source.MOVE });
  }

  /** The playback moved to `index` (main.js reports every step). */
  playbackAt(index) {
    this.playbackIndex = index;
  }

  /** A playback key (space, ArrowLeft/Right, Home/End): effects, or null when the key is not for the playback. */
  playbackKey(key) {
    if (!this.solution || this.job) return null;
    const n = this.solution.result.directions.length;
    switch (key) {
      case " ":
        return [{ type: "playToggle" }];
      case "ArrowRight":
        return [{ type: "seek", index: Math.min(n, this.playbackIndex + 1) }];
      case "ArrowLeft":
        return [{ type: "seek", index: Math.max(0, this.playbackIndex - 1) }];
      case "Home":
        return [{ type: "seek", index: 0 }];
      case "End":
        return [{ type: "seek", index: n }];
      default:
        return null;
    }
  }

  /**
   * A pasted move string, checked (model/moves.js): it plays on the board from the
   * position like a solution, which it replaces (undoably).
   */
  /**
   * Moves checked by replay (model/moves.js) are the solution shown: `kind` "replay" (pasted in
   * Check your own moves: played at once) or "given" (a link's &moves=: shown as a solution).
   */
  replay({ directions, moves }, kind = "replay") {
    if (this.job) return [];
    if (this.solution) this.undoStack.push({ position: this.position, solution: this.solution, example: this.example });
    this.solution = { start: this.position, bound: null, kind, result: { directions, moves, length: moves.length } };
    this.playbackIndex = 0;
    return [{ type: "clearSolution" }, { type: "showSolution", focus: false }, this.idleStatus(), { type: "render" }];
  }

  // ---------------------------------------------------------------- solve and cancel
  /**
   * Solve was clicked (or Ctrl+Enter) at time `now` (ms) with bound `bound`; `anytime`: a fast
   * answer improved while it runs (model/anytime.js), not the optimal search; `proven`: a lower
   * bound already proven (by an optimal search stopped for it).  A solve that starts is
   * `this.job` (control/solving.js runs it); the effects only show it.
   */
  solveRequested(bound, now, { anytime = false, proven = null } = {}) {
    if (this.job) return [];
    // (a Fast answer waits as one: the solver may be restarting after the optimal search it stopped)
    if (!this.ready) return [this.setStatus(this.status.state, "Waiting for the solver to finish loading…"), { type: "solveWhenReady", options: { anytime, proven } }];
    if (this.textError) return [this.setStatus(Status.READY, "Fix the tiles text first (see the message under it)."), { type: "focusText" }];
    const s = this.solution;
    const same = s && s.bound === bound && s.epoch === this.solverEpoch && s.result.optimal !== false && !anytime;
    if (same && positionKey(s.start) === positionKey(this.position)) {
      return [{ type: "focusResult" }]; // solved already: a second click changes nothing
    }
    this.job = { id: ++this.jobSeq, board: this.position.clone(), bound, startedAt: now, cancelling: false, proven, anytime, best: null };
    this.solution = null;
    this.playbackIndex = 0;
    return [{ type: "clearSolution" }, this.setStatus(Status.SOLVING, "Solving…"), { type: "render" }];
  }

  /** Cancel was clicked (or Escape) at time `now` (ms). */
  cancelRequested(now) {
    if (!this.job || this.job.cancelling) return [];
    if (now - this.job.startedAt < CLICK_GUARD_MS) return []; // the second click of a double click on Solve
    return this.cancelJob("");
  }

  /** The solve is being cancelled (`why`: "" for the user's Cancel); whoever cancels it stops it in the solver (control/solving.js stop). */
  cancelJob(why) {
    if (!this.job || this.job.cancelling) return [];
    this.job.cancelling = true;
    return [this.setStatus(Status.CANCELLED, `Cancelling${why ? ` (${why})` : ""}…`)];
  }

  /** The solver stopped after a cancel: restarted (the worker had to be replaced) or not, after `seconds`. */
  cancelDone(job, { restarted, seconds, why = "" }) {
    if (this.job !== job) return [];
    this.job = null;
    const how = restarted ? `the solver had to restart (${seconds})` : `stopped in ${seconds}, no restart needed`;
    const reason = why ? ` because ${why}` : "";
    if (job.best && !why) return this.keepBest(job, `Stopped in ${seconds}${restarted ? " (the solver restarted)" : ""}; the best found is kept`);
    return [this.setStatus(Status.CANCELLED, `Cancelled${reason}: ${how}.${this.provenText(job)}`), { type: "render" }];
  }

  /** An improvement of the anytime search of `job`: `best` (model/anytime.js anytimeSolution) is kept; the status says it. */
  anytimeProgress(job, best) {
    if (this.job !== job || job.cancelling || !best) return [];
    job.best = best;
    return [this.setStatus(Status.SOLVING, `Solving · ${anytimeText(best, job.proven)}`)];
  }

  /** The anytime search of `job` stopped early: its best solution is the one shown, playable; `what` begins the status. */
  keepBest(job, what) {
    this.solution = { start: job.board, bound: job.bound, result: job.best, epoch: this.solverEpoch };
    this.playbackIndex = 0;
    const status = this.setStatus(Status.CANCELLED, `${what}: ${anytimeText(job.best, job.proven)}.`);
    return [{ type: "showSolution", focus: true }, status, { type: "render" }];
  }

  /** A progress report for `job`: the status speaks only when the bound rises (throttled announcements). */
  solveProgress(job, bound) {
    if (this.job !== job || job.cancelling) return [];
    job.proven = Math.max(job.proven ?? 0, bound);
    const text = `Solving · the shortest solution has at least ${plural(bound, "move")}`;
    if (this.status.text === text) return [];
    return [this.setStatus(Status.SOLVING, text)];
  }

  /** " The shortest solution has at least N moves." when the stopped search had proved it, else "". */
  provenText(job) {
    return job.proven ? ` The shortest solution has at least ${plural(job.proven, "move")}.` : "";
  }

  solvedStatus() {
    const r = this.solution.result;
    if (r.optimal === false) return this.setStatus(Status.SOLVED, `Best found: ${anytimeText(r)}.`);
    return this.setStatus(Status.SOLVED, `Solved: ${plural(r.length, "move")}, ${optimalWord(r)}.`);
  }

  /**
   * The solver answered `result` for `job`.  An answer is put on the board only when it replays
   * (answerProblem): one that does not is a damaged database's error, never a solution shown.
   */
  solveDone(job, result, { seconds = "" } = {}) {
    if (this.job !== job || job.cancelling) return []; // a stale answer, or cancelDone will follow
    const problem = answerProblem(job.board, result, job.proven);
    if (problem) return this.solveFailed(job, { type: "asset", code: "asset_corrupt", message: problem });
    this.job = null;
    if (job.proven && result.lower_bound !== undefined) result.lower_bound = Math.max(result.lower_bound, job.proven);
    if (result.optimal === false && result.lower_bound >= result.length) result.optimal = true; // proven by the search stopped before
    if (result.optimal !== false) this.lastSolved = { key: positionKey(job.board), length: result.length };
    this.solution = { start: job.board, bound: job.bound, result, epoch: this.solverEpoch };
    this.playbackIndex = 0;
    const status = this.solvedStatus();
    if (result.optimal === false) {
      const why = STOPPED_TEXT[result.stopped];
      status.text = this.status.text = `Best found${seconds ? ` in ${seconds}` : ""}: ${anytimeText(result)}${why ? ` (${why})` : ""}.`;
    } else if (seconds) status.text = this.status.text = `Solved in ${seconds}: ${plural(result.length, "move")}, ${optimalWord(result)}.`;
    return [{ type: "showSolution", focus: true }, status, { type: "render" }];
  }

  /** The solve of `job` was stopped to make way for another job; `reason`: "Stopped for the comparison." */
  solveStopped(job, reason) {
    if (this.job !== job || job.cancelling) return [];
    this.job = null;
    if (job.best) return this.keepBest(job, `Solve ${reason.charAt(0).toLowerCase()}${reason.slice(1, -1)}; the best found is kept`);
    return [this.setStatus(Status.CANCELLED, `Solve ${reason.charAt(0).toLowerCase()}${reason.slice(1)}${this.provenText(job)}`), { type: "render" }];
  }

  /** The solve of `job` failed with `error` ({type, message}). */
  solveFailed(job, error) {
    if (this.job !== job || job.cancelling) return []; // cancelDone will follow
    this.job = null;
    if (error.type === "cancelled") return [this.setStatus(Status.CANCELLED, "Cancelled: the solver stopped."), { type: "render" }];
    return [this.setStatus(Status.ERROR, `Error: ${error.message}`), { type: "showError", error }, { type: "render" }];
  }
}
