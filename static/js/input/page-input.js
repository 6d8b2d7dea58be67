// Input: every DOM event the page listens to, turned into a call of the
// controller's intents (main.js) with plain values; no decisions here.
//
// The board: clicks/taps on tiles, swipes, arrow keys, emitted as blank
// directions ("U","D","L","R") through moves(directions).  Arrow keys and
// swipes move a TILE in that direction, i.e. the blank moves the opposite way:
// ArrowLeft slides the tile right of the gap to the left.

import { $ } from "../view/dom.js";

/** Keys that step a shown solution's playback (space: play/pause). */
const PLAYBACK_KEYS = new Set([" ", "ArrowLeft", "ArrowRight", "Home", "End"]);

const KEY_TO_BLANK = {
  ArrowLeft: "R",
  ArrowRight: "L",
  ArrowUp: "D",
  ArrowDown: "U",
};

/**
 * Board gestures.  getBoard() is the board shown; isBusy() blocks moves (a
 * solve or a playback runs), and a click or swipe then calls blocked() (the page says why);
 * moves(directions) receives the blank's moves;
 * playbackKey(key) gets space, ArrowLeft/Right, Home and End first and
 * returns true when a shown solution used it.
 */
export function bindBoard(boardEl, { getBoard, moves, isBusy, blocked = () => {}, playbackKey }) {
  let swipe = null;
  let suppressClick = false;

  boardEl.addEventListener("click", (event) => {
    if (suppressClick) {
      suppressClick = false;
      return;
    }
    const tile = event.target.closest(".tile");
    if (!tile) return;
    if (isBusy()) {
      blocked();
      return;
    }
    const path = getBoard().pathToSquare(Number(tile.dataset.index));
    if (path.length) moves(path);
  });

  boardEl.addEventListener("pointerdown", (event) => {
    swipe = { x: event.clientX, y: event.clientY, id: event.pointerId };
  });
  boardEl.addEventListener("pointerup", (event) => {
    if (!swipe || swipe.id !== event.pointerId) return;
    const dx = event.clientX - swipe.x;
    const dy = event.clientY - swipe.y;
    swipe = null;
    const min = Math.max(24, boardEl.clientWidth / 12);
    if (Math.max(Math.abs(dx), Math.abs(dy)) < min) return;
    suppressClick = true;
    setTimeout(() => (suppressClick = false), 0);
    if (isBusy()) {
      blocked();
      return;
    }
    // Swiping a tile right moves the blank left, etc.
    const d = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "L" : "R") : dy > 0 ? "U" : "D";
    moves([d]);
  });
  boardEl.addEventListener("pointercancel", () => (swipe = null));

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const t = event.target;
    const typing = t && (t.tagName === "TEXTAREA" || t.tagName === "INPUT" || t.tagName === "SELECT" || t.isContentEditable);
    if (typing) return;
    const control = t && (t.tagName === "BUTTON" || t.tagName === "A" || t.tagName === "SUMMARY");
    if (PLAYBACK_KEYS.has(event.key) && !(event.key === " " && control) && playbackKey(event.key)) {
      event.preventDefault();
      return;
    }
    const d = KEY_TO_BLANK[event.key];
    if (!d || isBusy()) return;
    event.preventDefault();
    moves([d]);
  });
}

const on = (id, type, handler) => $(id).addEventListener(type, handler);
const click = (id, handler) => on(id, "click", () => handler());

/**
 * Every control of the page.  `intents` (all functions) are the controller's:
 *   board: {getBoard, moves, isBusy, blocked}   see bindBoard
 *   textEdited(text)                      the tiles text changed (each keystroke)
 *   textCommitted()                       blur, or Enter, in the tiles text
 *   textFix(text)                         the unsolvable message's fix button (its text)
 *   textGoal(name)                        its other fix: the named goal the text can reach
 *   undo()                                the Undo button / Ctrl+Z outside text fields
 *   replayMoves(text)                     the move-string box's Replay button / Enter
 *   solve(), fast(), cancel()             Solve / Ctrl+Enter in the text; Fast answer; Cancel
 *   stopJob()                             the status line's Stop / Escape: whatever job runs
 *   shapeChosen(shape), shuffle(), goal() the Position card's buttons
 *   goalEdited(), goalCommitted(text), goalChosen(name)   the Goal field (blur / Enter), its one-click goals
 *   goalFix()                             the Goal field's fix: two tiles swapped so that the position reaches it
 *   exampleChosen(id), share()
 *   hashChanged(hash)                     the address bar's fragment changed (Back, a link)
 *   boundChosen(bound), workersChosen(n), downloadPack(), cancelPack()   the Solve card
 *   skipDamaged(), retry()                the error banner
 *   playToggle(), playStep(), playBack(), playStart(), playEnd(), speedChosen(index), copySolution()
 */
export function bindInput(intents) {
  bindBoard($("board"), intents.board);

  on("tiles-input", "input", (e) => intents.textEdited(e.target.value));
  on("tiles-input", "keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      intents.textCommitted();
      intents.solve();
    } else if (e.key === "Enter") {
      intents.textCommitted();
    }
  });
  on("tiles-input", "blur", () => intents.textCommitted());
  on("fix-button", "click", (e) => intents.textFix(e.currentTarget.dataset.text));
  on("text-goal-button", "click", (e) => intents.textGoal(e.currentTarget.dataset.goal));
  click("undo-button", intents.undo);
  document.addEventListener("keydown", (e) => {
    if (e.key !== "z" || !(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey) return;
    const t = e.target;
    if (t && (t.tagName === "TEXTAREA" || t.tagName === "INPUT" || t.isContentEditable)) return; // the field's own undo
    e.preventDefault();
    intents.undo();
  });
  click("replay-button", () => intents.replayMoves($("moves-input").value));
  on("moves-input", "keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      intents.replayMoves(e.target.value);
    }
  });
  on("shape-select", "change", (e) => intents.shapeChosen(e.target.value));
  click("shuffle-button", intents.shuffle);
  click("reset-button", intents.goal);
  on("goal-input", "input", () => intents.goalEdited());
  on("goal-input", "keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      intents.goalCommitted(e.target.value);
    }
  });
  on("goal-input", "blur", (e) => intents.goalCommitted(e.target.value));
  click("goal-standard", () => intents.goalChosen("standard"));
  click("goal-blank-first", () => intents.goalChosen("blank-first"));
  click("goal-fix", intents.goalFix);
  on("examples", "change", (e) => intents.exampleChosen(e.target.value));
  click("share-button", intents.share);
  window.addEventListener("hashchange", () => intents.hashChanged(location.hash));

  on("bound-select", "change", (e) => intents.boundChosen(e.target.value));
  on("workers-select", "change", (e) => intents.workersChosen(Number(e.target.value)));
  click("pack-button", intents.downloadPack);
  click("solve-button", intents.solve);
  click("fast-button", intents.fast);
  click("cancel-button", intents.cancel);
  click("job-stop", intents.stopJob);
  click("pack-cancel", intents.cancelPack);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") intents.stopJob();
  });
  click("skip-button", intents.skipDamaged);
  click("retry-button", intents.retry);

  click("play-toggle", intents.playToggle);
  click("play-step", intents.playStep);
  click("play-back", intents.playBack);
  click("play-start", intents.playStart);
  click("play-end", intents.playEnd);
  on("play-speed", "input", (e) => intents.speedChosen(Number(e.target.value)));
  click("copy-button", intents.copySolution);
}
