// model/page-model.js: every action's effect on position, solution, playback, job and status.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

import { Board } from "../../static/js/model/board.js";
import { CLICK_GUARD_MS, PageModel, Source, Status, answerProblem } from "../../static/js/model/page-model.js";

// The goal with the blank moved up twice and left once: solved by R, D, D (tiles 8... below).
const start = () => {
  const b = new Board(3, 3);
  for (const d of "UUL") b.moveBlank(d);
  return b;
};
const RESULT = { length: 3, directions: "RDD", moves: [2, 3, 6], nodes: 4, seconds: 0.01 };
const types = (effects) => effects.map((e) => e.type);

/** A ready model with `start()` solved and the solution shown. */
function solvedModel() {
  const m = new PageModel(start());
  m.solverReady();
  const job = started(m, "auto", 1000);
  m.solveDone(job, RESULT);
  return m;
}

/** The job that Solve at `now` starts (control/solving.js takes it from the model). */
function started(m, bound, now) {
  m.solveRequested(bound, now);
  return m.job;
}

test("ready after loading; a new position resets a stale status and the example name", () => {
  const m = new PageModel(start());
  assert.equal(m.status.state, Status.LOADING);
  m.solverReady();
  assert.deepEqual(m.status, { state: Status.READY, text: "Ready" });
  m.setPosition(new Board(3, 3), { source: Source.EXAMPLE, example: "ex1" });
  assert.equal(m.example, "ex1");
  const effects = m.setPosition(start(), { source: Source.SHUFFLE });
  assert.equal(m.example, "");
  assert.deepEqual(types(effects), ["positionChanged", "clearSolution", "render", "url", "status"]);
  assert.equal(effects[3].mode, "push");
});

test("solve then shuffle, size change and typing: the status never stays 'Solved'", () => {
  for (const source of [Source.SHUFFLE, Source.SHAPE, Source.TEXT, Source.GOAL, Source.MOVE]) {
    const m = solvedModel();
    assert.equal(m.status.state, Status.SOLVED);
    assert.equal(m.status.text, "Solved: 3 moves, optimal.");
    m.setPosition(new Board(2, 2), { source });
    assert.equal(m.status.state, Status.READY, source);
    assert.equal(m.solution, null);
  }
  const m = solvedModel();
  m.textInvalid("duplicate: tile 7");
  assert.equal(m.solution, null, "invalid text drops the old playback");
  assert.equal(m.status.state, Status.READY);
  assert.match(m.status.text, /needs fixing/);
  assert.deepEqual(types(m.solveRequested("auto", 5000)), ["status", "focusText"]);
  assert.equal(m.job, null);
});

test("an emptied text field drops its old error: the status says Ready again and Solve solves the board", () => {
  const m = new PageModel(start());
  m.solverReady();
  m.textEdited("1 2 2");
  m.textInvalid("duplicate: tile 2");
  assert.match(m.status.text, /needs fixing/);
  assert.deepEqual(types(m.textCleared()), ["status"]);
  assert.deepEqual([m.textError, m.textDirty, m.text, m.status.text], ["", false, "", "Ready"]);
  m.solveRequested("auto", 1000);
  assert.ok(m.job, "Solve solves the board");
  assert.deepEqual(new PageModel(start()).textCleared(), [], "nothing to say without an error");
});

test("a double click on Solve starts one job and never cancels it", () => {
  const m = new PageModel(start());
  m.solverReady();
  const first = m.solveRequested("auto", 1000);
  assert.deepEqual(types(first), ["clearSolution", "status", "render"]);
  assert.ok(m.job && m.job.startedAt === 1000, "the job starts (control/solving.js runs it)");
  assert.deepEqual(m.solveRequested("auto", 1100), [], "a second Solve while solving does nothing");
  assert.deepEqual(m.cancelRequested(1000 + CLICK_GUARD_MS - 1), [], "Cancel right after Solve is the double click's second half");
  assert.ok(m.job && !m.job.cancelling);
  assert.deepEqual(types(m.cancelRequested(1000 + CLICK_GUARD_MS)), ["status"]);
  assert.ok(m.job.cancelling, "cancelling: whoever cancelled it stops it");
  assert.deepEqual(m.cancelRequested(1000 + CLICK_GUARD_MS + 5), [], "one cancel per job");
});

test("Solve again on the solution shown does not start a second solve", () => {
  const m = solvedModel();
  assert.deepEqual(types(m.solveRequested("auto", 9000)), ["focusResult"]);
  assert.equal(m.job, null);
  m.boundsChanged(); // a pack loaded: the same bound may now search differently
  m.solveRequested("auto", 9000);
  assert.ok(m.job);
  const again = solvedModel();
  again.solveRequested("md", 9000);
  assert.ok(again.job, "another bound solves again");
});

test("the cancel status says what happened, only once the solver stopped", () => {
  const m = new PageModel(start());
  m.solverReady();
  const job = started(m, "auto", 0);
  m.cancelRequested(5000);
  assert.match(m.status.text, /^Cancelling/);
  assert.deepEqual(m.solveDone(job, RESULT), [], "an answer racing the cancel is dropped");
  assert.deepEqual(m.solveFailed(job, { type: "cancelled", message: "" }), []);
  m.cancelDone(job, { restarted: true, seconds: "7.5 s" });
  assert.equal(m.status.state, Status.CANCELLED);
  assert.equal(m.status.text, "Cancelled: the solver had to restart (7.5 s).");
  assert.equal(m.job, null);
  const job2 = started(m, "auto", 9000);
  m.cancelRequested(20000);
  m.cancelDone(job2, { restarted: false, seconds: "40 ms" });
  assert.equal(m.status.text, "Cancelled: stopped in 40 ms, no restart needed.");
  // what the search had proved stays said
  const job3 = started(m, "auto", 30000);
  m.solveProgress(job3, 64);
  m.solveProgress(job3, 66);
  m.cancelRequested(40000);
  m.cancelDone(job3, { restarted: false, seconds: "1.2 s" });
  assert.equal(m.status.text, "Cancelled: stopped in 1.2 s, no restart needed. The shortest solution has at least 66 moves.");
});

test("Back/Forward during a solve cancels it and shows the position, without pushing history", () => {
  const m = new PageModel(start());
  m.solverReady();
  const job = started(m, "auto", 0);
  assert.deepEqual(m.setPosition(new Board(3, 3), { source: Source.SHUFFLE }), [], "controls are inert while solving");
  const effects = m.setPosition(new Board(3, 3), { source: Source.HISTORY });
  assert.deepEqual(types(effects), ["status", "cancel", "positionChanged", "clearSolution", "render"]);
  assert.ok(job.cancelling);
  assert.ok(m.position.isGoal());
  m.cancelDone(job, { restarted: false, seconds: "1 s", why: effects[1].why });
  assert.equal(m.status.text, "Cancelled because the position changed: stopped in 1 s, no restart needed.");
  assert.deepEqual(m.solveDone(job, RESULT), [], "the old position's answer is never shown");
  assert.equal(m.solution, null);
});

test("Back then Forward return to a history entry with the solution it showed", () => {
  const m = solvedModel();
  m.entryShown("e1");
  const solved = m.position;
  const shown = m.solution;
  m.setPosition(new Board(3, 3), { source: Source.SHUFFLE });
  m.entryShown("e2");
  assert.equal(m.solution, null);
  const back = m.setPosition(solved.clone(), { source: Source.HISTORY, entry: "e1" });
  assert.equal(m.solution, shown);
  assert.ok(types(back).includes("showSolution"));
  assert.match(m.status.text, /^Solved: /);
  m.setPosition(new Board(3, 3), { source: Source.HISTORY, entry: "e2" }); // Forward: the goal, never solved
  assert.equal(m.solution, null);
  // the same position in a new entry (a link typed or pasted) is not brought back with its solution
  m.setPosition(solved.clone(), { source: Source.HISTORY, entry: "e3" });
  assert.equal(m.solution, null);
});

test("progress announces only when the bound rises", () => {
  const m = new PageModel(start());
  m.solverReady();
  const job = started(m, "auto", 0);
  assert.equal(m.solveProgress(job, 21).length, 1);
  assert.equal(m.status.text, "Solving · the shortest solution has at least 21 moves");
  assert.deepEqual(m.solveProgress(job, 21), []);
  assert.equal(m.solveProgress(job, 23).length, 1);
});

test("moves during playback step it, back along it, or ask before discarding", () => {
  const m = solvedModel();
  assert.deepEqual(m.moveRequested(["R"]), [{ type: "seek", index: 1 }]);
  m.playbackAt(1);
  assert.deepEqual(m.moveRequested("DD"), [{ type: "seek", index: 3 }], "a click sliding two tiles of the solution");
  assert.deepEqual(m.moveRequested(["L"]), [{ type: "seek", index: 0 }], "the reverse of the last move");
  m.playbackAt(2); // the blank in the middle of the right column
  const [ask] = m.moveRequested(["L"]);
  assert.equal(ask.type, "ask");
  assert.ok(m.solution, "asking keeps the solution");
  // The user agrees: the move applies to the board shown (one move played), undoably.
  const effects = m.applyMoves(ask.then.directions);
  assert.ok(types(effects).includes("clearSolution"));
  assert.equal(m.solution, null);
  assert.equal(m.status.state, Status.READY);
  const shown = start();
  for (const d of "RDL") shown.moveBlank(d);
  assert.equal(m.position.text(), shown.text());
  // Undo brings back the position and its solution.
  m.undo();
  assert.equal(m.position.text(), start().text());
  assert.ok(m.solution);
  assert.equal(m.status.state, Status.SOLVED);
});

test("playback keys only act on a shown solution", () => {
  const m = new PageModel(start());
  m.solverReady();
  assert.equal(m.playbackKey("ArrowRight"), null);
  const s = solvedModel();
  assert.deepEqual(s.playbackKey("End"), [{ type: "seek", index: 3 }]);
  assert.deepEqual(s.playbackKey("ArrowLeft"), [{ type: "seek", index: 0 }]);
  assert.deepEqual(s.playbackKey(" "), [{ type: "playToggle" }]);
  assert.equal(s.playbackKey("x"), null);
});

test("undo walks back through every position change; history moves are not undo steps", () => {
  const m = new PageModel(start());
  m.solverReady();
  m.setPosition(new Board(3, 3), { source: Source.GOAL });
  m.setPosition(new Board(2, 2), { source: Source.SHAPE });
  m.setPosition(new Board(4, 4), { source: Source.HISTORY });
  assert.equal(m.undoStack.length, 2);
  assert.deepEqual(types(m.undo()), ["positionChanged", "clearSolution", "render", "url", "status"]);
  assert.equal(m.position.shape, "3x3");
  m.undo();
  assert.equal(m.position.text(), start().text());
  assert.deepEqual(m.undo(), []);
});

test("a solve requested while loading waits for the solver", () => {
  const m = new PageModel(start());
  assert.deepEqual(types(m.solveRequested("auto", 0)), ["status", "solveWhenReady"]);
  assert.equal(m.job, null);
  // a Fast answer after a stopped optimal search (the solver restarting) waits as a Fast answer, its proven bound kept
  const [, wait] = m.solveRequested("auto", 0, { anytime: true, proven: 70 });
  assert.deepEqual(wait, { type: "solveWhenReady", options: { anytime: true, proven: 70 } });
});

test("the page's state is declared in the constructor and changed only through the model's actions", () => {
  const m = new PageModel(start());
  const declared = Object.keys(m).sort();
  // every action, then the keys again: none was added on the way
  m.solverReady({ shapes: ["3x3"], bounds: { "3x3": ["auto", "wd", "md"] }, labels: {} }, [{ file: "p.f15", shapes: ["3x3"] }]);
  assert.equal(m.chooseBound("md"), "md");
  assert.equal(m.chooseBound("pdb663"), "auto", "a bound the shape does not offer: its first");
  m.speedChosen(4);
  m.examplesLoaded([{ id: "x" }]);
  m.damagedFile("wd.f15");
  m.packStarted();
  assert.deepEqual(m.packDownload, { busy: true, error: null });
  m.packEnded({ file: "p.f15", info: m.info });
  assert.equal(m.packs[0].loaded, true);
  assert.equal(m.solverEpoch, 1);
  m.boundsAnswered({ tiles: m.position.tiles, bounds: {} });
  assert.ok(m.positionBounds());
  m.linkPending({ text: "1 2" }, Source.LINK);
  m.setNotice("kept");
  m.textEdited("1 2 3");
  assert.ok(m.textDirty);
  m.textShown("1 2 3");
  m.textValid();
  const job = started(m, "auto", 0);
  m.solveProgress(job, 3);
  m.solveDone(job, RESULT);
  assert.deepEqual(m.lastSolved, { key: `3x3:${start().text()}`, length: 3 });
  m.replay({ directions: "RDD", moves: [1, 2, 3] });
  m.setPosition(new Board(3, 3), { source: Source.GOAL });
  assert.equal(m.positionBounds(), null, "the last answer was the old position's");
  assert.equal(m.notice, "", "a new position clears the notice");
  m.undo();
  m.solverLost();
  assert.deepEqual(Object.keys(m).sort(), declared);

  // No other module assigns to the model's fields.
  const root = new URL("../../static/js/", import.meta.url);
  const writes = [];
  for (const f of readdirSync(root, { recursive: true })) {
    if (!f.endsWith(".js") || f === "model/page-model.js") continue;
    const code = readFileSync(new URL(f, root), "utf8");
    for (const w of code.matchAll(/\bmodel\.\w+(?:\.\w+|\[[^\]]*\])*\s*(?:[-+*/]?=(?!=)|\+\+|--)/g)) writes.push(`${f}: ${w[0]}`);
  }
  assert.deepEqual(writes, []);
});

test("a solve stopped for another job (a comparison started) ends with that reason", () => {
  const m = new PageModel(start());
  m.solverReady();
  const job = started(m, "auto", 0);
  assert.deepEqual(types(m.solveStopped(job, "Stopped for the comparison.")), ["status", "render"]);
  assert.deepEqual(m.status, { state: Status.CANCELLED, text: "Solve stopped for the comparison." });
  assert.equal(m.job, null);
  assert.deepEqual(m.solveStopped(job, "Stopped."), [], "once");
});

test("an answer that does not replay is never put on the board: a damaged database's error instead", () => {
  const m = new PageModel(start());
  m.solverReady();
  assert.equal(answerProblem(start(), RESULT), "");
  assert.equal(answerProblem(start(), { length: 0, directions: "", moves: [] }).includes("does not reach the goal"), true);
  const bad = [
    [{ ...RESULT, length: 1, directions: "R", moves: [2] }, "The solver's 1-move answer does not reach the goal."], // a zeroed database's "solution"
    [{ ...RESULT, directions: "RDU", moves: [2, 3, 3] }, "The solver's 3-move answer does not reach the goal."],
    [{ ...RESULT, directions: "RDD", moves: [2, 3, 5] }, "move 3 is not a move of this position"],
    [{ ...RESULT, directions: "LDD" }, "move 1 is not a move of this position"],
    [{ ...RESULT, moves: [2, 3] }, "malformed"],
    [{ ...RESULT, length: 4 }, "malformed"],
    [{ ...RESULT, lower_bound: 5, optimal: false }, "shorter than the lower bound 5 it proved"],
  ];
  for (const [result, message] of bad) {
    const job = started(m, "auto", 1000);
    const effects = m.solveDone(job, result);
    assert.ok(answerProblem(start(), result).includes(message), answerProblem(start(), result));
    assert.deepEqual(types(effects), ["status", "showError", "render"]);
    assert.equal(effects[1].error.type, "asset");
    assert.equal(m.solution, null, "nothing on the board");
    assert.equal(m.status.state, Status.ERROR);
    assert.match(m.status.text, message === "malformed" ? /Reload the page/ : /A database file is damaged: reload the page/);
    assert.equal(m.job, null);
  }
  // a bound proven by an optimal search stopped before (Fast answer) counts too
  m.solveRequested("auto", 1000, { anytime: true, proven: 5 });
  m.solveDone(m.job, { ...RESULT, lower_bound: 1, optimal: false, stopped: "time" });
  assert.equal(m.solution, null);
  const again = started(m, "auto", 1000);
  m.solveDone(again, RESULT);
  assert.equal(m.solution.result, RESULT);
});
