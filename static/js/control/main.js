// The controller ("game manager" in the 2048 game's terms): the page's decisions.  It never
// touches the DOM: what the page shows goes through the view (view/), what the user does
// arrives through input/ as the intents below.  The page's state is the model's
// (model/page-model.js), changed only through its actions; the solver runs behind the pool
// that startup.js starts; the tiles text is text.js's, the address bar's links links.js's, the lab control/lab.js's.

import { Board, SHAPES, goalLike, parseShape, randomTiles } from "../model/board.js";
import { ErrorType, Method } from "../solver/protocol.js";
import { PageView } from "../view/page-view.js";
import { PageModel, Source } from "../model/page-model.js";
import { exampleTimeText } from "../model/format.js";
import { parseMoveString, replayVerdict } from "../model/moves.js";
import { bindInput } from "../input/page-input.js";
import { Playback, SPEEDS } from "../model/playback.js";
import { writeHash, shareUrl, prefs } from "../model/share.js";
import { Lab } from "./lab.js";
import { bindLabInput } from "../input/lab-input.js";
import { Startup, fatalTitle } from "./startup.js";
import { TextField } from "./text.js";
import { Links } from "./links.js";
import { BoundsLine } from "./bounds.js";
import { PackOffer } from "./packs.js";
import { JobKind, Jobs } from "./jobs.js";
import { Solving } from "./solving.js";
import { GoalField, goalLineText } from "./goal.js";

const model = new PageModel(new Board(4, 4));
const view = new PageView();

let playback = null; // the Playback of model.solution (the controller's only own state: a timer)

const startup = new Startup({ model, view, run, ready: solverReady, lost: solverLost, failed: solverFailed, later: (msg) => bounds.later(msg) });
const client = startup.client;
/** Everything the page asks of the solver, one job at a time (jobs.js); the status line shows it. */
const jobs = new Jobs(client, { onChange: renderStatus });
/** A short request to the solver as a job of `kind`. */
const ask = (kind, method, params, options) => jobs.run(kind, () => client.call(method, params), options);

const text = new TextField({
  model,
  view,
  ask,
  run,
  changePosition,
  shapes: () => model.info?.shapes || SHAPES,
  bounds: { answered: (board, r) => bounds.answered(board, r), failed: (err) => bounds.failed(err) },
});
/** Share links in the address bar (links.js). */
const links = new Links({ model, view, text, run, linkOpened: (hash) => lab.linkOpened(hash) });
const bounds = new BoundsLine({ model, view, ask, warmUp: (shape) => startup.warmUp(shape, (params) => ask(JobKind.WARMUP, Method.SOLVE, params)) });
const packs = new PackOffer({ model, view, client, jobs, loaded: packLoaded });
const solving = new Solving({ model, view, client, jobs, startup, lab: { busyChanged: () => lab.busyChanged(), solved: (b, r) => lab.solved(b, r) }, packs, bounds, text, run });
const goal = new GoalField({ model, view, ask, changePosition, text });

/** The lab (control/lab.js: Compare bounds, bound trace, Explain, explorer, hints): its own state, this page's board. */
const lab = new Lab({
  client,
  jobs,
  board: () => model.position,
  shownBoard: () => model.shownBoard(),
  load: (board) => changePosition(board, Source.LAB),
  move: (direction) => run(model.applyMoves([direction])),
  ready: () => model.ready,
  info: () => model.info,
  packs: () => model.packs,
  packLoaded: (file) => model.packLoaded(file),
  copy: (what, messages) => view.copyText(what, messages),
});

// ------------------------------------------------------------------ the solver's life
function solverReady(msg) {
  run(model.solverReady(msg.info, msg.packs));
  view.progress.setLimits(model.info?.limits);
  bounds.solverStarted();
  if (model.info?.shapes) view.setShapes(model.info.shapes.map((s) => [s, shapeLabel(s)]), model.position.shape);
  bounds.fillMenu();
  packs.render();
  view.setSolveEnabled(true);
  view.hideError();
  const pending = model.pendingLink;
  if (pending) {
    model.linkPending(null);
    links.open(pending.link, pending.source);
  } else if (model.textDirty) {
    text.sync({ force: true });
  }
  bounds.refresh({ force: true });
  lab.solverReady();
}

function solverLost() {
  jobs.workerRestarted();
  run(model.solverLost());
  setTimeout(() => lab.busyChanged());
  view.setSolveEnabled(false);
}

function solverFailed(err) {
  run(model.solverLost());
  view.setSolveEnabled(false);
  const failed = model.job ? model.solveFailed(model.job, err) : [];
  solving.ended(failed);
  run([model.setStatus("error", `Error: ${err.message}`)]);
  model.damagedFile(err.type === ErrorType.ASSET ? err.file : null);
  view.showError(fatalTitle(err), err.message, { skip: !!model.damaged });
}

// ------------------------------------------------------------------ effects of the model
/** Carry out the effects that the model's transitions return (model/page-model.js). */
function run(effects) {
  for (const e of effects || []) {
    switch (e.type) {
      case "status":
        renderStatus();
        break;
      case "positionChanged":
        jobs.positionChanged();
        break;
      case "clearSolution":
        stopPlayback();
        view.playback.hide();
        view.solution.hide();
        lab.solutionCleared();
        if (!model.job) view.progress.hide();
        break;
      case "render":
        renderPosition();
        break;
      case "url":
        writeHash(model.position, { push: e.mode === "push" });
        model.entryShown(links.entry());
        break;
      case "showSolution":
        showSolution(e.focus);
        break;
      case "seek":
        playback?.seek(e.index);
        break;
      case "playToggle":
        playback?.toggle();
        break;
      case "ask":
        if (view.confirm(e.question)) run(model.applyMoves(e.then.directions));
        break;
      case "applyMoves":
        run(model.applyMoves(e.directions));
        break;
      case "cancel": // a position change from the address bar stops the solve
        solving.stop(e.job, e.why);
        break;
      case "focusResult":
        view.focusResult();
        break;
      case "focusText":
        view.focusText();
        break;
      case "solveWhenReady":
        client.readyPromise.then(() => solving.solve(e.options), () => {});
        break;
      case "showError":
        view.showError(e.error.type === ErrorType.ASSET ? "A database file is damaged" : "The solve failed", e.error.message);
        break;
    }
  }
}

/** Show the model's position: board, text, size menu, example, undo, bounds, pack. */
function renderPosition() {
  const board = model.position;
  view.board.render(model.shownBoard(), { busy: !!model.job });
  lab.boardRendered();
  const shapeChanged = view.selectShape(board.shape);
  text.follow(board);
  goal.follow(board);
  view.setGoalLine(goalLineText(board));
  view.setNotice(model.notice);
  view.setExample(model.example, model.example ? exampleNote(model.example) : "");
  view.setUndoEnabled(model.canUndo);
  if (!model.solution) view.setReplayResult("");
  if (shapeChanged) bounds.fillMenu();
  bounds.refresh();
  packs.render();
  lab.positionChanged();
}

/**
 * The status line: what runs in the solver when the user should see it (jobs.js), else the
 * model's status; with the seconds a job has run (of its budget) and its Stop.
 */
function renderStatus() {
  const j = jobs.status();
  if (j && j.kind !== JobKind.SOLVE) {
    view.setStatus("busy", j.text, { time: j.budget ? `${j.seconds} s of ${j.budget} s` : j.seconds ? `${j.seconds} s` : "", stop: j.stoppable, jobs: jobs.describe() });
  } else {
    view.setStatus(model.status.state, model.status.text, { stop: !!j?.stoppable && !model.job?.cancelling, jobs: jobs.describe() });
  }
}

/** Stop (the status line's button, or Escape): the solve through its Cancel, any other job at once. */
function stopJob() {
  if (model.job) solving.cancel();
  else if (jobs.status()?.stoppable) jobs.stop();
}

/** A new position from `source` (model/page-model.js Source). */
function changePosition(board, source, example = "") {
  run(model.setPosition(board, { source, example, entry: source === Source.HISTORY ? links.entry() : null }));
}

/** A pack loaded: its bound joins the menu, the memory per worker grows, the bounds may rise. */
function packLoaded() {
  bounds.fillMenu();
  startup.renderPool();
  bounds.refresh();
}

// ------------------------------------------------------------------ solve / cancel: solving.js
// ------------------------------------------------------------------ playback
function stopPlayback() {
  playback?.pause();
  playback = null;
}

/** Show model.solution (a solve's result or a replayed move string) and its playback. */
function showSolution(focus) {
  const { start, result, kind } = model.solution;
  if (kind === "given") view.solution.show(result, { given: true, optimal: knownOptimal() });
  else if (kind !== "replay") view.solution.show(result, { boundLabel: bounds.label(result.bound || model.solution.bound) });
  view.playback.show();
  const pb = new Playback(start, result.directions, (b, i) => {
    model.playbackAt(i);
    view.board.render(b, { busy: false });
    lab.boardRendered();
    lab.playbackAt(i);
    if (kind !== "replay") view.solution.highlight(i - 1);
    view.playback.render({ index: i, length: pb.length, playing: pb.playing });
    bounds.refresh(); // the bounds line follows the board shown
    if (pb.playing) view.keepPlaybackInView();
  });
  pb.speed = SPEEDS[model.speedIndex];
  playback = pb;
  model.playbackAt(0);
  view.board.render(start, { busy: false });
  view.playback.render({ index: 0, length: pb.length, playing: false });
  if (kind === "replay") pb.play();
  view.progress.scrollToEnd();
  if (focus) view.focusResult();
}

function speedChosen(index) {
  model.speedChosen(index);
  const s = SPEEDS[index];
  view.playback.speed(index, s);
  prefs.set("speed", index);
  if (playback) playback.speed = s;
}

function copySolution() {
  const r = model.solution?.result;
  if (!r) return;
  const t = `${r.length} moves\ntiles: ${r.moves.join(" ")}\nblank: ${r.directions}\n`;
  view.copyText(t, { done: "Solution copied", ask: "Copy the solution:" });
}

// ------------------------------------------------------------------ moves
/** A playback key; true when it was used (the input layer then prevents its default). */
function playbackKey(key) {
  const effects = model.playbackKey(key);
  if (!effects) return false;
  run(effects);
  return true;
}

/** A pasted move string (tile numbers or U/D/L/R), replayed from the position shown. */
function replayMoves(moves) {
  const r = parseMoveString(model.position, moves);
  if (r.error) {
    view.setReplayResult(r.error);
    return;
  }
  run(model.replay(r));
  view.setReplayResult(replayVerdict(r, knownOptimal()));
}

/** The optimal length of the position, when the page knows it (a solve of it, or its example). */
function knownOptimal() {
  const s = model.lastSolved;
  if (s && s.key === model.position.key()) return s.length;
  const ex = model.position.goalName === "standard" && model.examples.find((x) => x.id === model.example);
  return ex ? ex.optimal : null;
}

// ------------------------------------------------------------------ shape, shuffle, examples, share
const SHAPE_NAMES = { "3x3": "3×3 · 8", "3x4": "3×4 · 11", "4x3": "4×3 · 11", "4x4": "4×4 · 15" };
const shapeLabel = (s) => SHAPE_NAMES[s] || `${s.replace("x", "×")} · ${parseShape(s).rows * parseShape(s).cols - 1}`;

/** A random position of rows x cols, towards the goal of its kind (model/board.js goalLike). */
function newRandomBoard(rows, cols, source = Source.SHUFFLE) {
  const target = goalLike(model.position, rows, cols);
  changePosition(new Board(rows, cols, randomTiles(rows, cols, undefined, target), target), source);
}

function shapeChosen(shape) {
  const d = parseShape(shape);
  newRandomBoard(d.rows, d.cols, Source.SHAPE);
}

async function loadExamples() {
  try {
    const data = await (await fetch("static/data/examples.json")).json();
    model.examplesLoaded(data.examples);
    view.addExamples(data.examples);
  } catch (e) {
    console.warn("examples", e);
  }
}

function exampleNote(id) {
  const ex = model.examples.find((x) => x.id === id);
  return ex ? `Optimal: ${ex.optimal} ${ex.optimal === 1 ? "move" : "moves"}${ex.note ? ` — ${ex.note}` : ""}. ${exampleTimeText(ex)}`.trim() : "";
}

function exampleChosen(id) {
  const ex = model.examples.find((x) => x.id === id);
  if (!ex) return;
  const d = parseShape(ex.shape);
  changePosition(new Board(d.rows, d.cols, ex.tiles), Source.EXAMPLE, id);
}

// ------------------------------------------------------------------ input
bindInput({
  board: {
    getBoard: () => model.shownBoard(),
    moves: (directions) => run(model.moveRequested(directions)),
    isBusy: () => !!model.job || !!playback?.playing,
    // a tile clicked while the board cannot move: said, not ignored
    blocked: () => view.toast(model.job ? "The board waits while the solver works: Cancel to move tiles." : "The solution is playing: pause it to move tiles."),
    playbackKey,
  },
  textEdited: (t) => text.edited(t),
  textCommitted: () => text.committed(),
  textFix: (t) => text.fix(t),
  textGoal: (name) => text.useGoal(name),
  solve: () => solving.solve(),
  fast: () => solving.fast(),
  cancel: () => solving.cancel(),
  stopJob,
  undo: () => run(model.undo()),
  shapeChosen,
  shuffle: () => newRandomBoard(model.position.rows, model.position.cols),
  goal: () => changePosition(new Board(model.position.rows, model.position.cols, null, model.position.goal), Source.GOAL),
  goalEdited: () => goal.edited(),
  goalCommitted: (t) => goal.committed(t),
  goalChosen: (name) => goal.chosen(name),
  goalFix: () => goal.fix(),
  exampleChosen,
  share: () => view.copyText(shareUrl(model.position, { moves: model.solution?.result.directions }), { done: "Link copied", ask: "Copy this link:" }),
  hashChanged: (hash) => links.changed(hash),
  boundChosen: (b) => bounds.chosen(b),
  workersChosen: (n) => startup.workersChosen(n),
  downloadPack: () => packs.download(),
  cancelPack: () => packs.cancel(),
  skipDamaged: () => startup.restartSolver({ skip: true }),
  retry: () => startup.restartSolver({ skip: false }),
  playToggle: () => playback?.toggle(),
  playStep: () => {
    playback?.pause();
    playback?.step();
  },
  playBack: () => {
    playback?.pause();
    playback?.back();
  },
  playStart: () => playback?.seek(0),
  playEnd: () => playback?.seek(playback.length),
  speedChosen,
  copySolution,
  replayMoves,
});

// ------------------------------------------------------------------ start-up
function main() {
  view.setShapes(
    SHAPES.map((s) => [s, shapeLabel(s)]),
    model.position.shape,
  );
  const speed = Number(prefs.get("speed", 2));
  model.speedChosen(SPEEDS[speed] ? speed : 2); // a stored index this build no longer has: the default
  view.playback.speed(model.speedIndex, SPEEDS[model.speedIndex]);
  links.start();
  startup.start(model.position.shape);
  loadExamples();
  bindLabInput(lab);
  lab.start();
}

main();
