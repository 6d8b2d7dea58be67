// The controller ("game manager" in the 2048 game's terms): the page's state
// and every decision.  It never touches the DOM: what the page shows goes
// through the view (view.js), what the user does arrives through input.js as
// the intents below; the solver runs behind SolverClient (solver-client.js,
// protocol.js), share links and preferences in share.js, offline support in
// offline.js, the board model in board.js.

import { Board, SHAPES, parseShape, shapesForCount, randomTiles, goalTiles } from "./board.js";
import { SolverClient } from "./solver-client.js";
import { ErrorType, LoadState, Method, Stage } from "./protocol.js";
import { PageView } from "./view.js";
import { PackState } from "./view-solve.js";
import { formatSeconds } from "./format.js";
import { bindInput } from "./input.js";
import { Playback, SPEEDS } from "./playback.js";
import { readHash, writeHash, shareUrl, prefs } from "./share.js";
import { registerOffline, precacheAll } from "./offline.js";
import { Lab } from "./lab.js";
import { bindLabInput } from "./input-lab.js";

/**
 * The page's state.  Everything the page shows follows from it (and from the
 * solver's answers); input changes it only through the intents below.
 */
const state = {
  board: new Board(4, 4), // the position shown (and solved)
  text: "", // the tiles text field's content
  textDirty: false, // the text was edited since the board last matched it
  shapeChoice: "4x4", // the size menu's selection (the board's shape, or a share link's)
  bound: "auto", // the bound menu's selection
  speedIndex: 2, // playback speed: an index into SPEEDS
  solving: false,
  cancelled: false, // the last solve was cancelled (and the worker maybe restarting)
  ready: false, // the solver can take requests
  info: null, // the solver's "info" result: shapes, bounds per shape, bound labels
  playback: null, // Playback of the shown solution
  solution: null, // the shown solution (the api's solve result)
  examples: [],
  buildInfo: null,
  t0: performance.now(),
  firstReady: true,
  loadWarning: false,
  warnings: [], // messages of the current load (missing or skipped databases)
  damaged: null, // a damaged database file the user may skip
  boundsSeq: 0,
  knownShapes: new Set(),
  warmed: new Set(), // shapes the current worker has already searched once
  packs: [], // the manifest's optional packs, each with `loaded` (from the worker)
  pack: { busy: false, error: null }, // the download in progress / its last failure
};

const view = new PageView();

/** The lab (lab.js: Compare bounds, bound trace, Explain, explorer, hints): its own state, this page's board. */
const lab = new Lab({
  client: null, // set below, once the client exists
  board: () => state.board,
  shownBoard: () => (state.playback ? state.playback.board : state.board),
  load: (board) => {
    setBoard(board);
    fillBoundMenu();
    view.setExample("", "");
  },
  move: (direction) => applyMoves([direction]),
  ready: () => state.ready,
  solving: () => state.solving,
  info: () => state.info,
  copy: (text, messages) => view.copyText(text, messages),
});

/** A bound's label, from the solver (info.labels); the name itself when unknown. */
const boundLabel = (b) => state.info?.labels?.[b] || b;

const STAGE_WHAT = { [Stage.RUNTIME]: "Python runtime", [Stage.SOLVER]: "solver", [Stage.DATABASES]: "databases" };

// ------------------------------------------------------------------ solver client
const client = new SolverClient({
  loading(msg) {
    view.loading.update(msg, stageSizes());
    if (!state.ready && !state.solving && msg.state !== LoadState.DONE) {
      const prefix = state.cancelled ? "Cancelled · " : "";
      view.setStatus(state.cancelled ? "cancelled" : "loading", `${prefix}Loading the ${STAGE_WHAT[msg.stage]}…`);
    }
  },
  warning(msg) {
    console.warn(msg.message);
    state.loadWarning = true;
    state.warnings.push(msg.message);
    view.loading.summary(state.warnings.join(" "));
  },
  ready(msg) {
    state.ready = true;
    state.warmed.clear(); // a new worker
    state.info = msg.info;
    state.packs = msg.packs || [];
    const seconds = (performance.now() - state.t0) / 1000;
    if (state.firstReady) {
      state.firstReady = false;
      view.markReady(seconds);
      view.loading.summary([`Ready in ${formatSeconds(seconds)}.`, ...state.warnings].join(" "));
      precacheAll(state.buildInfo).then(
        (summary) => summary && view.offlineReady(summary),
        () => {},
      );
    }
    if (!state.loadWarning) setTimeout(() => state.ready && view.loading.hide(), 2500);
    fillBoundMenu();
    renderPack();
    view.setSolveEnabled(true);
    view.hideError();
    if (state.cancelled) {
      view.setStatus("cancelled", `Cancelled. The solver restarted in ${formatSeconds(msg.seconds)}; ready again.`);
    } else if (!state.solving) {
      view.setStatus("ready", "Ready");
    }
    syncText({ force: true });
    lab.solverReady();
  },
  fatal(err) {
    state.ready = false;
    view.loading.fail();
    view.loading.show();
    view.setSolveEnabled(false);
    const title = err.type === ErrorType.ASSET ? "A database file is damaged" : "The solver could not start";
    view.setStatus("error", `Error: ${err.message}`);
    state.damaged = err.type === ErrorType.ASSET ? err.file : null;
    view.showError(title, err.message, { skip: !!state.damaged });
    endSolving();
  },
  restart() {
    state.ready = false;
    setTimeout(() => lab.busyChanged());
    state.pack.busy = false;
    state.loadWarning = false;
    state.warnings = [];
    view.setSolveEnabled(false);
    view.loading.reset();
  },
});
lab.client = client;

/** Bytes of each loading stage, from build-info.json. */
function stageSizes() {
  const files = state.buildInfo?.files || {};
  const sum = (prefix) => Object.entries(files).filter(([p]) => p.startsWith(prefix)).reduce((a, [, f]) => a + f.bytes, 0);
  return { [Stage.RUNTIME]: sum("static/vendor/pyodide/"), [Stage.SOLVER]: sum("static/wheels/") };
}

// ------------------------------------------------------------------ board & text
function setBoard(board, { fromText = false, keepSolution = false } = {}) {
  state.board = board;
  if (!keepSolution) clearSolution();
  view.board.render(board, { busy: state.solving });
  lab.boardRendered();
  writeHash(board);
  state.shapeChoice = board.shape;
  view.selectShape(board.shape);
  if (!fromText) {
    setText(board.gridText());
    view.setTextError("");
  }
  if (!keepSolution) refreshBounds();
  renderPack();
  lab.positionChanged();
}

function setText(text) {
  state.text = text;
  state.textDirty = false;
  view.setTilesText(text);
}

function clearSolution() {
  if (state.playback) state.playback.pause();
  state.playback = null;
  state.solution = null;
  view.playback.hide();
  view.solution.hide();
  lab.solutionCleared();
  if (!state.solving) view.progress.hide();
}

/** The shape to send with a text: the selected one when the count fits it. */
function shapeForText(text) {
  const count = text.split(/[\s,;]+/).filter(Boolean).length;
  const dims = parseShape(state.shapeChoice);
  if (dims && dims.rows * dims.cols === count) return state.shapeChoice;
  const fits = shapesForCount(count);
  return fits.length === 1 ? fits[0] : null;
}

/** Validate the text field with the solver; on success the board follows it. */
async function syncText({ force = false } = {}) {
  const text = state.text.trim();
  if (!force && !state.textDirty) return true;
  if (!state.ready && !force) return false;
  const shape = shapeForText(text);
  try {
    const r = await client.call(Method.PARSE, { text, shape });
    const board = new Board(r.rows, r.cols, r.tiles);
    view.setTextError("");
    state.textDirty = false;
    if (board.text() !== state.board.text() || board.shape !== state.board.shape) {
      setBoard(board, { fromText: true });
    } else {
      refreshBounds();
    }
    return true;
  } catch (err) {
    if (err.type === ErrorType.CANCELLED) return false;
    view.setTextError(err.message);
    if (err.type === ErrorType.INPUT) view.bounds.clear("");
    return false;
  }
}

let textTimer = 0;
function textEdited(text) {
  state.text = text;
  state.textDirty = true;
  clearTimeout(textTimer);
  textTimer = setTimeout(() => syncText(), 350);
}

let boundsTimer = 0;
function refreshBounds() {
  clearTimeout(boundsTimer);
  if (!state.ready || state.solving) return;
  boundsTimer = setTimeout(async () => {
    const seq = ++state.boundsSeq;
    const board = state.board;
    const newShape = !state.knownShapes.has(board.shape);
    try {
      const r = await client.call(Method.BOUNDS, { text: board.text(), shape: board.shape });
      if (seq !== state.boundsSeq) return;
      view.bounds.render(r);
      warmUp(board.shape);
      if (newShape) {
        state.knownShapes.add(board.shape);
        state.info = await client.call(Method.INFO, {});
        fillBoundMenu();
      }
    } catch (err) {
      if (seq !== state.boundsSeq || err.type === ErrorType.CANCELLED) return;
      if (err.type === ErrorType.ASSET) {
        view.setStatus("error", `Error: ${err.message}`);
        state.damaged = err.file || null;
        view.showError("A database file is damaged", err.message, { skip: !!state.damaged });
      } else {
        view.bounds.clear(err.message);
      }
    }
  }, 60);
}

/**
 * The solver prepares some tables on its first search of a shape (about a
 * second in the browser): do that with a one-move search while the user is
 * still looking at the board, so the first real Solve starts at once.
 */
function warmUp(shape) {
  if (state.warmed.has(shape)) return;
  state.warmed.add(shape);
  const { rows, cols } = parseShape(shape);
  const t = goalTiles(rows, cols);
  [t[t.length - 1], t[t.length - 2]] = [t[t.length - 2], 0];
  client.call(Method.SOLVE, { text: t.join(" "), shape, bound: "auto" }).catch(() => state.warmed.delete(shape));
}

// ------------------------------------------------------------------ moves
function applyMoves(directions) {
  if (state.solving) return;
  // During playback, a manual move edits the position shown on the board.
  const b = (state.playback ? state.playback.board : state.board).clone();
  let moved = false;
  for (const d of directions) moved = b.moveBlank(d) !== 0 || moved;
  if (!moved) return;
  setBoard(b);
}

// ------------------------------------------------------------------ shape, shuffle, examples, share
const SHAPE_NAMES = { "3x3": "3×3 · 8", "3x4": "3×4 · 11", "4x3": "4×3 · 11", "4x4": "4×4 · 15" };

function newRandomBoard(rows, cols) {
  setBoard(new Board(rows, cols, randomTiles(rows, cols)));
  view.setExample("", "");
}

function shapeChosen(shape) {
  const d = parseShape(shape);
  newRandomBoard(d.rows, d.cols);
  fillBoundMenu();
}

async function loadExamples() {
  try {
    const data = await (await fetch("static/data/examples.json")).json();
    state.examples = data.examples;
    view.addExamples(data.examples);
  } catch (e) {
    console.warn("examples", e);
  }
}

function exampleChosen(id) {
  const ex = state.examples.find((x) => x.id === id);
  if (!ex) return;
  const d = parseShape(ex.shape);
  setBoard(new Board(d.rows, d.cols, ex.tiles));
  fillBoundMenu();
  view.setExampleNote(`Optimal: ${ex.optimal} moves${ex.note ? ` — ${ex.note}` : ""}.`);
}

function hashChanged(hash) {
  const h = readHash(hash);
  if (!h || state.solving) return;
  if (!(h.tiles && h.text === state.board.tiles.join(" ") && h.shape === state.board.shape)) loadFromHash(h);
  lab.linkOpened(hash); // a comparison link (lab.js)
}

function loadFromHash(h) {
  if (h.tiles) {
    const d = parseShape(h.shape);
    setBoard(new Board(d.rows, d.cols, h.tiles));
  } else {
    // Not a valid position: let the solver explain what is wrong.
    if (h.shape && parseShape(h.shape)) {
      state.shapeChoice = h.shape;
      view.selectShape(h.shape);
    }
    view.setTilesText(h.text);
    state.text = h.text;
    state.textDirty = true;
    if (state.ready) syncText();
  }
  if (h.bound) prefs.set("bound", h.bound);
}

// ------------------------------------------------------------------ bound menu
function fillBoundMenu() {
  const list = state.info?.bounds?.[state.board.shape] || ["auto"];
  const wanted = state.bound || prefs.get("bound", "auto");
  state.bound = list.includes(wanted) ? wanted : list[0];
  view.setBoundMenu(
    list.map((b) => [b, boundLabel(b)]),
    state.bound,
    { disabled: state.solving || !state.ready },
  );
}

function boundChosen(bound) {
  state.bound = bound;
  prefs.set("bound", bound);
}

// ------------------------------------------------------------------ optional pack
/** The optional pack that serves the current board's shape, if the site has one. */
const currentPack = () => state.packs.find((p) => Array.isArray(p.shapes) && p.shapes.includes(state.board.shape));

function renderPack() {
  const pack = currentPack();
  if (!pack) {
    view.pack.hide();
    return;
  }
  let st;
  if (pack.loaded) st = PackState.LOADED;
  else if (state.pack.busy) st = PackState.DOWNLOADING;
  else if (state.pack.error) st = PackState.ERROR;
  else st = PackState.OFFERED;
  view.pack.render(pack, st, { enabled: state.ready && !state.solving, error: state.pack.error });
}

async function downloadPack() {
  const pack = currentPack();
  if (!pack || state.pack.busy || !state.ready) return;
  state.pack = { busy: true, error: null };
  view.pack.begin(pack);
  view.setSolveEnabled(false); // the worker serves one request at a time
  renderPack();
  try {
    const result = await client.loadPack(pack.file, (p) => view.pack.progress(pack, p));
    pack.loaded = true;
    state.pack = { busy: false, error: null };
    if (result.info) state.info = result.info;
    fillBoundMenu();
    renderPack();
    if (!result.cached) view.pack.notKept();
    refreshBounds();
    view.toast("Hard-positions pack loaded.");
  } catch (err) {
    state.pack = { busy: false, error: err.message || String(err) };
    if (err.type === ErrorType.CANCELLED) state.pack.error = "the download was interrupted.";
    renderPack();
  } finally {
    view.setSolveEnabled(state.ready);
  }
}

// ------------------------------------------------------------------ solve / cancel
function beginSolving() {
  state.solving = true;
  state.cancelled = false;
  view.setSolving(true);
  view.focusCancel();
  view.board.render(state.board, { busy: true });
  lab.busyChanged();
}

function endSolving() {
  state.solving = false;
  view.setSolving(false, { ready: state.ready });
  view.board.render(state.board, { busy: false });
  lab.busyChanged();
}

async function solve() {
  if (state.solving) return;
  if (lab.running) {
    view.toast("A comparison of bounds is running: stop it first.");
    return;
  }
  view.hideError();
  if (state.text.trim() !== state.board.gridText().trim()) state.textDirty = true;
  if (!state.ready) {
    view.setStatus(state.cancelled ? "cancelled" : "loading", "Waiting for the solver to finish loading…");
    try {
      await client.readyPromise;
    } catch {
      return;
    }
  }
  if (state.textDirty && !(await syncText({ force: true }))) {
    view.setStatus("ready", "Fix the position first.");
    view.focusText();
    return;
  }
  if (state.playback) state.playback.seek(0);
  const board = state.board.clone();
  const bound = state.bound || "auto";
  clearSolution();
  beginSolving();
  view.progress.reset();
  view.setStatus("solving", `Solving with the ${boundLabel(bound)} bound…`);
  const t0 = performance.now();
  try {
    const result = await client.solve({ text: board.text(), shape: board.shape, bound }, (p) => {
      view.progress.update(p);
      view.setStatus("solving", `Solving · bound ${p.bound} · ${formatSeconds(p.seconds)}`);
    });
    endSolving();
    view.progress.update({ ...result, bound: result.length, iteration_nodes: 0 }, { final: true });
    state.solution = result;
    view.solution.show(result, { boundLabel: boundLabel(result.bound || bound) });
    startPlayback(board, result);
    lab.solved(board, result);
    const wall = (performance.now() - t0) / 1000;
    view.setStatus("solved", `Solved: ${result.length} moves in ${formatSeconds(wall)}.`);
  } catch (err) {
    endSolving();
    if (err.type === ErrorType.CANCELLED || state.cancelled) return; // cancel() already set the status
    if (err.type === ErrorType.INPUT) {
      view.setTextError(err.message);
      view.setStatus("error", err.message);
    } else {
      view.setStatus("error", `Error: ${err.message}`);
      view.showError(err.type === ErrorType.ASSET ? "A database file is damaged" : "The solve failed", err.message);
    }
    view.progress.hide();
  }
}

function cancel() {
  if (!state.solving) return;
  state.cancelled = true;
  const hard = !client.interrupt;
  view.setStatus("cancelled", hard ? "Cancelled. Restarting the solver…" : "Cancelled.");
  endSolving();
  view.progress.hide();
  view.focusSolve();
  const t0 = performance.now();
  client.cancel().then(() => {
    if (!hard && state.cancelled && !state.solving) {
      view.setStatus("cancelled", `Cancelled (stopped in ${formatSeconds((performance.now() - t0) / 1000)}, no restart needed).`);
    }
  });
}

/** Start the worker again (after a fatal error), going on without the damaged file when `skip`. */
function restartSolver({ skip }) {
  if (skip) {
    if (!state.damaged) return;
    client.skip = [...client.skip, state.damaged];
    state.damaged = null;
    state.loadWarning = false;
    state.warnings = [];
  }
  view.hideError();
  state.cancelled = false;
  view.setStatus("loading", skip ? "Restarting without the damaged database…" : "Retrying…");
  view.loading.reset();
  client.start(state.board.shape);
}

// ------------------------------------------------------------------ playback
function startPlayback(board, result) {
  view.playback.show();
  const pb = new Playback(board, result.directions, (b, i) => {
    view.board.render(b, { busy: false });
    lab.boardRendered();
    lab.playbackAt(i);
    view.solution.highlight(i - 1);
    view.playback.render({ index: i, length: pb.length, playing: pb.playing });
  });
  pb.speed = SPEEDS[state.speedIndex];
  state.playback = pb;
  view.playback.render({ index: 0, length: pb.length, playing: false });
}

function speedChosen(index) {
  state.speedIndex = index;
  const s = SPEEDS[index];
  view.playback.speed(index, s);
  prefs.set("speed", index);
  if (state.playback) state.playback.speed = s;
}

function copySolution() {
  const r = state.solution;
  if (!r) return;
  const text = `${r.length} moves\ntiles: ${r.moves.join(" ")}\nblank: ${r.directions}\n`;
  view.copyText(text, { done: "Solution copied", ask: "Copy the solution:" });
}

// ------------------------------------------------------------------ input
bindInput({
  board: {
    getBoard: () => state.board,
    moves: applyMoves,
    isBusy: () => state.solving || !!state.playback?.playing,
  },
  textEdited,
  solve,
  cancel,
  shapeChosen,
  shuffle: () => newRandomBoard(state.board.rows, state.board.cols),
  goal: () => setBoard(new Board(state.board.rows, state.board.cols, goalTiles(state.board.rows, state.board.cols))),
  exampleChosen,
  share: () => view.copyText(shareUrl(state.board), { done: "Link copied", ask: "Copy this link:" }),
  hashChanged,
  boundChosen,
  downloadPack,
  skipDamaged: () => restartSolver({ skip: true }),
  retry: () => restartSolver({ skip: false }),
  playToggle: () => state.playback?.toggle(),
  playStep: () => {
    state.playback?.pause();
    state.playback?.step();
  },
  playBack: () => {
    state.playback?.pause();
    state.playback?.back();
  },
  playStart: () => state.playback?.seek(0),
  playEnd: () => state.playback?.seek(state.playback.length),
  speedChosen,
  copySolution,
});

// ------------------------------------------------------------------ start-up
async function main() {
  view.setShapes(
    SHAPES.map((s) => [s, SHAPE_NAMES[s] || s.replace("x", "×")]),
    state.board.shape,
  );
  const speed = Number(prefs.get("speed", 2));
  state.speedIndex = SPEEDS[speed] ? speed : 2; // a stored index this build no longer has: the default
  view.playback.speed(state.speedIndex, SPEEDS[state.speedIndex]);
  const h = readHash();
  if (h && h.tiles) {
    const d = parseShape(h.shape);
    state.board = new Board(d.rows, d.cols, h.tiles);
  } else if (!h) {
    state.board = new Board(4, 4, randomTiles(4, 4));
  }
  setBoard(state.board);
  if (h && !h.tiles) loadFromHash(h);
  if (h && h.bound) prefs.set("bound", h.bound);
  loadExamples();
  bindLabInput(lab);
  lab.start();
  view.setStatus("loading", "Loading the solver…");
  view.loading.reset();

  try {
    const resp = await fetch("static/build-info.json", { cache: "no-cache" });
    if (resp.ok) state.buildInfo = await resp.json();
  } catch {
    /* offline without a cached copy: sizes are unknown */
  }
  if (state.buildInfo) view.buildDownload(state.buildInfo);
  const files = state.buildInfo?.files || {};
  client.runtimeBytes = Object.fromEntries(
    Object.entries(files)
      .filter(([p]) => p.startsWith("static/vendor/pyodide/"))
      .map(([p, f]) => [p.split("/").pop(), f.bytes]),
  );
  await registerOffline(state.buildInfo, {
    onUpdate: () => view.toast("A new version was installed: reload the page to use it.", 8000),
  });
  client.start(state.board.shape);
}

main();
