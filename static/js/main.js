// The controller ("game manager" in the 2048 game's terms): the page's state
// and every decision.  It never touches the DOM: what the page shows goes
// through the view (view/page.js), what the user does arrives through input/page.js as
// the intents below; the solver runs behind SolverPool (solver/pool.js,
// solver/client.js, solver/protocol.js), share links and preferences in model/share.js, offline support in
// offline.js, the board model in model/board.js.

import { Board, SHAPES, parseShape, randomTiles } from "./model/board.js";
import { SolverPool, WORKER_BASE_BYTES, poolLimits } from "./solver/pool.js";
import { pageControlled, startedWorkerAt } from "./solver/start.js";
import { PoolView } from "./view/pool.js";
import { ErrorType, LoadState, Method, Stage, warmUpParams } from "./solver/protocol.js";
import { PageView } from "./view/page.js";
import { PackState } from "./view/solve.js";
import { currentIteration, formatSeconds, phasesText } from "./model/format.js";
import { PageModel, Source } from "./model/page-model.js";
import { parseMoveString, replayVerdict } from "./model/moves.js";
import { bindInput } from "./input/page.js";
import { Playback, SPEEDS } from "./model/playback.js";
import { readHash, writeHash, shareUrl, prefs } from "./model/share.js";
import { registerOffline, precacheAll } from "./offline.js";
import { Lab } from "./lab/lab.js";
import { bindLabInput } from "./input/lab.js";

/**
 * The page's state.  Everything the page shows follows from it (and from the
 * solver's answers); input changes it only through the intents below.
 */
const state = {
  text: "", // the tiles text field's content
  textSeq: 0, // the latest text check (older answers are dropped)
  pendingLink: null, // a share link waiting for the solver's parser
  textDirty: false, // the text was edited since the board last matched it
  shapeChoice: "4x4", // the size menu's selection (the board's shape, or a share link's)
  bound: "auto", // the bound menu's selection
  speedIndex: 2, // playback speed: an index into SPEEDS
  ready: false, // the solver can take requests
  onRestart: null, // set while a cancel waits: told when the worker had to restart
  info: null, // the solver's "info" result: shapes, bounds per shape, bound labels
  examples: [],
  buildInfo: null,
  firstReady: true,
  cachedStart: pageControlled(), // this build's service worker served the page
  readySeconds: 0, // seconds from opening the page (its navigation's start) to the first READY
  phases: {}, // the first start-up's phases in seconds: runtime, solver, databases, warmup (model/format.js PHASES)
  loadWarning: false,
  warnings: [], // messages of the current load (missing or skipped databases)
  damaged: null, // a damaged database file the user may skip
  boundsSeq: 0,
  knownShapes: new Set(),
  warmed: new Set(), // shapes the current worker has already searched once
  packs: [], // the manifest's optional packs, each with `loaded` (from the worker)
  pack: { busy: false, error: null }, // the download in progress / its last failure
};

/** Position, solution, playback, solve job and status: model/page-model.js. */
const model = new PageModel(new Board(4, 4));

const view = new PageView();

/** The lab (lab/lab.js: Compare bounds, bound trace, Explain, explorer, hints): its own state, this page's board. */
const lab = new Lab({
  client: null, // set below, once the client exists
  board: () => model.position,
  shownBoard: () => model.shownBoard(),
  load: (board) => changePosition(board, Source.LAB),
  move: (direction) => run(model.applyMoves([direction])),
  ready: () => state.ready,
  solving: () => !!model.job,
  info: () => state.info,
  copy: (text, messages) => view.copyText(text, messages),
});

/** A bound's label, from the solver (info.labels); the name itself when unknown. */
const boundLabel = (b) => state.info?.labels?.[b] || b;

const STAGE_WHAT = { [Stage.RUNTIME]: "Python runtime", [Stage.SOLVER]: "solver", [Stage.DATABASES]: "databases" };

// ------------------------------------------------------------------ solver client
const client = new SolverPool({
  loading(msg) {
    // build-info's sizes are what a first visit downloads; a cached start shows none
    view.loading.update(msg, state.cachedStart ? {} : stageSizes());
    if (state.firstReady && msg.state === LoadState.DONE && Number.isFinite(msg.seconds)) {
      const p = state.phases;
      p[msg.stage] = msg.stage === Stage.DATABASES ? (p[msg.stage] || 0) + msg.seconds : msg.seconds;
    }
    if (!state.ready && !model.job && msg.state !== LoadState.DONE && model.status.state === "loading") {
      run([model.setStatus("loading", `Loading the ${STAGE_WHAT[msg.stage]}…`)]);
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
    const seconds = performance.now() / 1000; // since the page was opened (performance.timeOrigin)
    if (state.firstReady) {
      state.readySeconds = seconds;
      state.firstReady = false;
      view.markReady(seconds, state.phases);
      view.loading.summary([readyText(seconds), ...state.warnings].join(" "));
      // The service worker is registered once the solver is ready (its install would compete
      // with the runtime's start), then everything of the build is cached for offline use.
      // Both wait for the worker's reply to a first request, which comes once its start-up
      // work is done: the copy of the runtime's wasm that the precache takes is stored by then
      // (worker/boot.js, downloadKept).
      buildInfoRead
        .then(() => client.call(Method.INFO, {}).catch(() => {}))
        .then(() => registerOffline(state.buildInfo, { onUpdate: () => view.toast("A new version was installed: reload the page to use it.", 8000) }))
        .then(() => precacheAll(state.buildInfo))
        .then(
          (summary) => summary && view.offlineReady(summary),
          () => {},
        );
    }
    if (!state.loadWarning) setTimeout(() => state.ready && view.loading.hide(), 2500);
    if (state.info?.shapes) view.setShapes(state.info.shapes.map((s) => [s, shapeLabel(s)]), model.position.shape);
    fillBoundMenu();
    renderPack();
    renderPool();
    view.setSolveEnabled(true);
    view.hideError();
    run(model.solverReady());
    if (state.pendingLink) {
      const h = state.pendingLink;
      state.pendingLink = null;
      loadLink(h, state.pendingLinkSource);
    } else if (state.textDirty) {
      syncText({ force: true });
    }
    refreshBounds({ force: true });
    lab.solverReady();
  },
  fatal(err) {
    state.ready = false;
    view.loading.fail();
    view.loading.show();
    view.setSolveEnabled(false);
    const title = err.type === ErrorType.ASSET ? "A database file is damaged" : "The solver could not start";
    run(model.solverLost());
    if (model.job) run(model.solveFailed(model.job, err));
    run([model.setStatus("error", `Error: ${err.message}`)]);
    state.damaged = err.type === ErrorType.ASSET ? err.file : null;
    view.showError(title, err.message, { skip: !!state.damaged });
    endSolving();
  },
  restart() {
    state.ready = false;
    state.onRestart?.();
    run(model.solverLost());
    setTimeout(() => lab.busyChanged());
    state.pack.busy = false;
    state.loadWarning = false;
    state.warnings = [];
    view.setSolveEnabled(false);
    view.loading.reset();
  },
  pool: () => renderPool(),
});
lab.client = client;

// ------------------------------------------------------------------ the pool of workers
// How many solver workers (solver/pool.js): the user's choice (remembered), else one per
// core but one, within half the device's memory; the memory it takes is shown.
const poolView = new PoolView();
const cores = globalThis.navigator?.hardwareConcurrency || 1;

/** Bytes of one worker: the runtime and databases, plus the pack when loaded. */
function workerBytes() {
  const pack = state.packs.find((p) => p.loaded && p.memory_bytes);
  return { perWorker: WORKER_BASE_BYTES + (pack ? pack.memory_bytes : 0), packBytes: pack ? pack.memory_bytes : 0 };
}

function renderPool() {
  poolView.render(client.status(), { ...workerBytes(), cores });
}

function setUpPool() {
  const limits = poolLimits(globalThis.navigator || {}, workerBytes().perWorker);
  const max = Math.max(limits.max, 2); // two workers can always be tried (one core: slower, not wrong)
  const stored = Number(prefs.get("workers", 0));
  const size = stored >= 1 && stored <= max ? stored : limits.suggested;
  client.setSize(size);
  poolView.setChoices(max, size, (n) => {
    prefs.set("workers", n);
    client.setSize(n);
  });
  renderPool();
}
globalThis.fifteenPool = client; // for automation and the e2e tests (e.g. a worker killed mid-solve)

/** Bytes of each loading stage, from build-info.json. */
function stageSizes() {
  const files = state.buildInfo?.files || {};
  const sum = (prefix) => Object.entries(files).filter(([p]) => p.startsWith(prefix)).reduce((a, [, f]) => a + f.bytes, 0);
  return { [Stage.RUNTIME]: sum("static/vendor/pyodide/"), [Stage.SOLVER]: sum("static/wheels/") };
}

// ------------------------------------------------------------------ effects of the model
/** Carry out the effects that the model's transitions return (model/page-model.js). */
function run(effects) {
  for (const e of effects || []) {
    switch (e.type) {
      case "status":
        view.setStatus(e.state, e.text);
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
      case "solve":
        runSolve(e.job);
        break;
      case "cancel":
        runCancel(e.job, e.why);
        break;
      case "solvingEnded":
        endSolving();
        break;
      case "focusResult":
        view.focusResult();
        break;
      case "focusText":
        view.focusText();
        break;
      case "solveWhenReady":
        client.readyPromise.then(() => solve(), () => {});
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
  const shapeChanged = state.shapeChoice !== board.shape;
  state.shapeChoice = board.shape;
  view.selectShape(board.shape);
  if (tokens(state.text).join(" ") !== board.text() && !model.textError) {
    setText(board.gridText());
    showTextError("");
  }
  view.setExample(model.example, model.example ? exampleNote(model.example) : "");
  view.setUndoEnabled(model.canUndo);
  if (!model.solution) view.setReplayResult("");
  if (shapeChanged) fillBoundMenu();
  refreshBounds();
  renderPack();
  lab.positionChanged();
}

/** A new position from `source` (model/page-model.js Source). */
function changePosition(board, source, example = "") {
  view.setNotice("");
  run(model.setPosition(board, { source, example }));
}

const tokens = (text) => String(text).split(/[\s,;]+/).filter(Boolean);

function setText(text) {
  state.text = text;
  state.textDirty = false;
  view.setTilesText(text);
}

function showTextError(message, fix = null) {
  view.setTextError(message, fix);
}

/** The shape to send with a text: the selected one when the count fits it. */
function shapeForText(text) {
  const count = tokens(text).length;
  const dims = parseShape(state.shapeChoice);
  if (dims && dims.rows * dims.cols === count) return state.shapeChoice;
  const fits = supportedShapes().filter((s) => {
    const d = parseShape(s);
    return d.rows * d.cols === count;
  });
  return fits.length === 1 ? fits[0] : null;
}

/** The shapes the solver supports (its info), else the built-in menu's. */
const supportedShapes = () => state.info?.shapes || SHAPES;

/**
 * A one-click fix for an unsolvable text: swap the two largest tiles (one swap
 * of two tiles always changes the parity that decides solvability).
 */
function unsolvableFix(text) {
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

/** The solver's message in plain words (the details stay in the title). */
function plainInputError(message) {
  if (/^unsolvable/.test(message)) {
    return "This position can't be solved: no sequence of slides reaches the goal from it. It is the mirror image of a solvable one: swapping any two tiles makes it solvable.";
  }
  return message;
}

/** Validate the text field with the solver; on success the board follows it. */
async function syncText({ force = false } = {}) {
  const text = state.text.trim();
  if (!force && !state.textDirty) return true;
  if (!state.ready) return false;
  const shape = shapeForText(text);
  const seq = ++state.textSeq;
  try {
    const r = await client.call(Method.PARSE, { text, shape });
    if (seq !== state.textSeq) return false;
    const board = new Board(r.rows, r.cols, r.tiles);
    state.textDirty = false;
    model.textError = "";
    showTextError("");
    changePosition(board, Source.TEXT);
    return true;
  } catch (err) {
    if (err.type === ErrorType.CANCELLED || seq !== state.textSeq) return false;
    const unsolvable = /^unsolvable/.test(err.message);
    showTextError(plainInputError(err.message), unsolvable ? unsolvableFix(text) : null);
    run(model.textInvalid(err.message));
    view.bounds.clear("");
    return false;
  }
}

/**
 * The text changed (each keystroke): it is checked only once its count of
 * numbers fits the selected size (or on blur / Enter: textCommitted), never
 * while a longer position is still being typed.
 */
let textTimer = 0;
function textEdited(text) {
  state.text = text;
  state.textDirty = true;
  clearTimeout(textTimer);
  const dims = parseShape(state.shapeChoice);
  if (dims && tokens(text).length === dims.rows * dims.cols) textTimer = setTimeout(() => syncText(), 200);
}

/** Blur or Enter in the text field: check it now whatever its count. */
function textCommitted() {
  clearTimeout(textTimer);
  if (state.textDirty && state.text.trim()) syncText();
}

function applyTextFix(text) {
  setText(text);
  state.textDirty = true;
  syncText({ force: true });
}

/** The bounds line for the last "bounds" answer, LB for the selected bound. */
function renderBounds() {
  const r = state.lastBounds;
  if (!r || r.tiles.join(" ") !== model.position.text()) return;
  view.bounds.render(r, { selected: state.bound || "auto", label: boundLabel(state.bound || "auto") });
}

let boundsTimer = 0;
let boundsKey = "";
function refreshBounds({ force = false } = {}) {
  clearTimeout(boundsTimer);
  if (!state.ready || model.job) return;
  const board = model.position;
  const key = `${board.shape}:${board.text()}`;
  if (key === boundsKey && !force) return;
  boundsTimer = setTimeout(async () => {
    const seq = ++state.boundsSeq;
    const newShape = !state.knownShapes.has(board.shape);
    try {
      const r = await client.call(Method.BOUNDS, { text: board.text(), shape: board.shape });
      if (seq !== state.boundsSeq) return;
      boundsKey = key;
      state.lastBounds = r;
      renderBounds();
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
  const t0 = performance.now();
  const first = state.phases.warmup === undefined;
  client.call(Method.SOLVE, warmUpParams(shape)).then(
    () => {
      if (!first || state.phases.warmup !== undefined) return;
      // the first start-up's last phase: on the timing line and html[data-phases]
      state.phases.warmup = (performance.now() - t0) / 1000;
      view.markReady(state.readySeconds, state.phases);
      if (!state.loadWarning) view.loading.summary(readyText(state.readySeconds));
    },
    () => state.warmed.delete(shape),
  );
}

/** "Ready in 4.1 s (runtime 3.2 s · solver 180 ms · databases 420 ms · warm-up 610 ms)." */
const readyText = (seconds) => {
  const phases = phasesText(state.phases);
  return `Ready in ${formatSeconds(seconds)}${phases ? ` (${phases})` : ""}.`;
};

// ------------------------------------------------------------------ moves
function moveRequested(directions) {
  run(model.moveRequested(directions));
}

/** A playback key; true when it was used (the input layer then prevents its default). */
function playbackKey(key) {
  const effects = model.playbackKey(key);
  if (!effects) return false;
  run(effects);
  return true;
}

/** A pasted move string (tile numbers or U/D/L/R), replayed from the position shown. */
function replayMoves(text) {
  const r = parseMoveString(model.position, text);
  if (r.error) {
    view.setReplayResult(r.error);
    return;
  }
  run(model.replay(r));
  const known = knownOptimal();
  view.setReplayResult(replayVerdict(r, known));
}

/** The optimal length of the position, when the page knows it (a solve of it, or its example). */
function knownOptimal() {
  const s = model.lastSolved;
  if (s && s.text === model.position.text() && s.shape === model.position.shape) return s.length;
  const ex = state.examples.find((x) => x.id === model.example);
  return ex ? ex.optimal : null;
}

// ------------------------------------------------------------------ shape, shuffle, examples, share
const SHAPE_NAMES = { "3x3": "3×3 · 8", "3x4": "3×4 · 11", "4x3": "4×3 · 11", "4x4": "4×4 · 15" };
const shapeLabel = (s) => SHAPE_NAMES[s] || `${s.replace("x", "×")} · ${parseShape(s).rows * parseShape(s).cols - 1}`;

function newRandomBoard(rows, cols, source = Source.SHUFFLE) {
  changePosition(new Board(rows, cols, randomTiles(rows, cols)), source);
}

function shapeChosen(shape) {
  const d = parseShape(shape);
  newRandomBoard(d.rows, d.cols, Source.SHAPE);
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

function exampleNote(id) {
  const ex = state.examples.find((x) => x.id === id);
  return ex ? `Optimal: ${ex.optimal} ${ex.optimal === 1 ? "move" : "moves"}${ex.note ? ` — ${ex.note}` : ""}.` : "";
}

function exampleChosen(id) {
  const ex = state.examples.find((x) => x.id === id);
  if (!ex) return;
  const d = parseShape(ex.shape);
  changePosition(new Board(d.rows, d.cols, ex.tiles), Source.EXAMPLE, id);
}

/** Longest fragment a position can need (25 squares); anything longer is refused unread. */
const MAX_LINK_CHARS = 400;

/** The address bar's fragment changed: Back/Forward, or a link typed or pasted. */
function hashChanged(hash) {
  if (String(hash).length > MAX_LINK_CHARS) {
    refuseLink(`This link is too long to be a position (${String(hash).length.toLocaleString("en")} characters).`);
    return;
  }
  const h = readHash(hash);
  if (h?.bound) prefs.set("bound", h.bound);
  const same = h?.tiles && h.shape === model.position.shape && h.tiles.join(" ") === model.position.text();
  const loaded = h && !same ? loadLink(h, Source.HISTORY) : Promise.resolve();
  loaded.then(() => lab.linkOpened(hash)); // a comparison link (lab/lab.js), on its position
}

/**
 * A link's position, checked by the same rules as typed input before anything
 * is drawn: a position on a shape of the built-in menu is drawn at once; any
 * other goes through the solver's parser (once it has loaded), and a refused
 * one keeps the board and says why.
 */
async function loadLink(h, source) {
  if (h.tiles && SHAPES.includes(h.shape)) {
    changePosition(new Board(parseShape(h.shape).rows, parseShape(h.shape).cols, h.tiles), source);
    return;
  }
  if (!state.ready) {
    state.pendingLink = h; // checked when the solver is ready
    state.pendingLinkSource = source;
    return;
  }
  try {
    const r = await client.call(Method.PARSE, { text: h.text, shape: h.shape || null });
    changePosition(new Board(r.rows, r.cols, r.tiles), source);
  } catch (err) {
    if (err.type === ErrorType.CANCELLED) return;
    refuseLink(`This link's position was refused: ${plainInputError(err.message)}`);
  }
}

/** Keep the board, put its own link back in the address bar, say why. */
function refuseLink(message) {
  view.setNotice(`${message} The board was kept.`);
  writeHash(model.position, { push: false });
}

// ------------------------------------------------------------------ bound menu
function fillBoundMenu() {
  const list = state.info?.bounds?.[model.position.shape] || ["auto"];
  const wanted = state.bound || prefs.get("bound", "auto");
  state.bound = list.includes(wanted) ? wanted : list[0];
  view.setBoundMenu(
    list.map((b) => [b, boundLabel(b)]),
    state.bound,
    { disabled: !!model.job || !state.ready },
  );
  renderBounds();
}

function boundChosen(bound) {
  state.bound = bound;
  prefs.set("bound", bound);
  renderBounds();
}

// ------------------------------------------------------------------ optional pack
/** The optional pack that serves the current board's shape, if the site has one. */
const currentPack = () => state.packs.find((p) => Array.isArray(p.shapes) && p.shapes.includes(model.position.shape));

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
  view.pack.render(pack, st, { enabled: state.ready && !model.job, error: state.pack.error });
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
    model.boundsChanged();
    state.pack = { busy: false, error: null };
    if (result.info) state.info = result.info;
    fillBoundMenu();
    renderPack();
    renderPool();
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
function endSolving() {
  view.setSolving(false, { ready: state.ready });
  lab.busyChanged();
  fillBoundMenu();
  renderPack();
}

function solve() {
  if (model.job) return;
  if (lab.running) {
    view.toast("A comparison of bounds is running: stop it first.");
    return;
  }
  view.hideError();
  if (tokens(state.text).join(" ") !== model.position.text()) state.textDirty = true;
  if (state.textDirty && state.ready) {
    // the click must use the typed text even before its check ran
    syncText({ force: true }).then(() => run(model.solveRequested(state.bound || "auto", performance.now())));
    return;
  }
  run(model.solveRequested(state.bound || "auto", performance.now()));
}

async function runSolve(job) {
  view.setSolving(true);
  lab.busyChanged();
  view.progress.reset();
  poolView.hideProgress();
  view.progress.reveal();
  renderPack();
  const t0 = performance.now();
  try {
    const result = await client.solve({ text: job.board.text(), shape: job.board.shape, bound: job.bound }, (p) => {
      if (model.job !== job) return;
      view.progress.update(p, { suggestion: progressSuggestion(job) });
      poolView.progress(p);
      run(model.solveProgress(job, currentIteration(p).bound));
    });
    if (model.job === job && !job.cancelling) {
      view.progress.update({ ...result, bound: result.length, iteration_nodes: 0 }, { final: true });
    }
    model.lastSolved = { text: job.board.text(), shape: job.board.shape, length: result.length };
    run(model.solveDone(job, result, { seconds: formatSeconds((performance.now() - t0) / 1000) }));
    if (model.solution?.result === result) lab.solved(job.board, result);
  } catch (err) {
    if (model.job === job && !job.cancelling && err.type === ErrorType.INPUT) showTextError(plainInputError(err.message));
    run(model.solveFailed(job, err));
    if (!model.job) view.progress.hide();
  }
}

/** What could make a search that is beyond reach feasible, for the progress line. */
function progressSuggestion(job) {
  const tips = [];
  const list = state.info?.bounds?.[job.board.shape] || [];
  if (job.bound !== "auto" && job.bound !== list[1]) tips.push("choose “Strongest available”");
  const pack = currentPack();
  if (pack && !pack.loaded) tips.push("download the hard-positions pack");
  return tips.length ? `Try: ${tips.join(", or ")}.` : "This position needs a stronger bound than this page has.";
}

function cancel() {
  run(model.cancelRequested(performance.now()));
}

/** Stop `job` in the solver; the status then says how it stopped. */
function runCancel(job, why) {
  view.progress.hide();
  view.setCancelling();
  const hard = !client.interrupt;
  const t0 = performance.now();
  let restarted = hard;
  state.onRestart = () => (restarted = true);
  client.cancel().then(() => {
    state.onRestart = null;
    run(model.cancelDone(job, { restarted, seconds: formatSeconds((performance.now() - t0) / 1000), why }));
    view.focusSolve();
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
  run([model.setStatus("loading", skip ? "Restarting without the damaged database…" : "Retrying…")]);
  view.loading.reset();
  client.start(model.position.shape);
}

// ------------------------------------------------------------------ playback
let playback = null; // the Playback of model.solution

function stopPlayback() {
  playback?.pause();
  playback = null;
}

/** Show model.solution (a solve's result or a replayed move string) and its playback. */
function showSolution(focus) {
  const { start, result, kind } = model.solution;
  if (kind !== "replay") view.solution.show(result, { boundLabel: boundLabel(result.bound || model.solution.bound) });
  view.playback.show();
  const pb = new Playback(start, result.directions, (b, i) => {
    model.playbackAt(i);
    view.board.render(b, { busy: false });
    lab.boardRendered();
    lab.playbackAt(i);
    if (kind !== "replay") view.solution.highlight(i - 1);
    view.playback.render({ index: i, length: pb.length, playing: pb.playing });
  });
  pb.speed = SPEEDS[state.speedIndex];
  playback = pb;
  model.playbackAt(0);
  view.board.render(start, { busy: false });
  view.playback.render({ index: 0, length: pb.length, playing: false });
  if (kind === "replay") pb.play();
  view.progress.scrollToEnd();
  if (focus) view.focusResult();
}

function speedChosen(index) {
  state.speedIndex = index;
  const s = SPEEDS[index];
  view.playback.speed(index, s);
  prefs.set("speed", index);
  if (playback) playback.speed = s;
}

function copySolution() {
  const r = model.solution?.result;
  if (!r) return;
  const text = `${r.length} moves\ntiles: ${r.moves.join(" ")}\nblank: ${r.directions}\n`;
  view.copyText(text, { done: "Solution copied", ask: "Copy the solution:" });
}

// ------------------------------------------------------------------ input
bindInput({
  board: {
    getBoard: () => model.shownBoard(),
    moves: moveRequested,
    isBusy: () => !!model.job || !!playback?.playing,
    playbackKey,
  },
  textEdited,
  textCommitted,
  textFix: applyTextFix,
  solve,
  cancel,
  undo: () => run(model.undo()),
  shapeChosen,
  shuffle: () => newRandomBoard(model.position.rows, model.position.cols),
  goal: () => changePosition(new Board(model.position.rows, model.position.cols), Source.GOAL),
  exampleChosen,
  share: () => view.copyText(shareUrl(model.position), { done: "Link copied", ask: "Copy this link:" }),
  hashChanged,
  boundChosen,
  downloadPack,
  skipDamaged: () => restartSolver({ skip: true }),
  retry: () => restartSolver({ skip: false }),
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
/** This build's file list (static/build-info.json) in state.buildInfo; null when it cannot be read. */
let buildInfoRead = null;
async function readBuildInfo() {
  try {
    const resp = await fetch("static/build-info.json", { cache: "no-cache" });
    if (resp.ok) state.buildInfo = await resp.json();
  } catch {
    /* offline without a cached copy: sizes are unknown */
  }
}

async function main() {
  view.setShapes(
    SHAPES.map((s) => [s, shapeLabel(s)]),
    model.position.shape,
  );
  const speed = Number(prefs.get("speed", 2));
  state.speedIndex = SPEEDS[speed] ? speed : 2; // a stored index this build no longer has: the default
  view.playback.speed(state.speedIndex, SPEEDS[state.speedIndex]);
  const hashAtStart = location.hash;
  const h = hashAtStart.length > MAX_LINK_CHARS ? null : readHash();
  const linked = h?.tiles && SHAPES.includes(h.shape);
  const first = linked ? new Board(parseShape(h.shape).rows, parseShape(h.shape).cols, h.tiles) : new Board(4, 4, randomTiles(4, 4));
  run(model.setPosition(first, { source: Source.START }));
  if (location.hash.length > MAX_LINK_CHARS) refuseLink(`This link is too long to be a position (${location.hash.length.toLocaleString("en")} characters).`);
  else if (h && !linked) {
    history.replaceState(null, "", location.href.replace(/#.*$/, "") + hashAtStart); // kept until checked
    loadLink(h, Source.LINK);
  }
  if (h?.bound) prefs.set("bound", h.bound);
  view.loading.reset();
  // The solver worker first: the runtime's start is the longest part of the page's, and
  // nothing of it needs what follows (the files' sizes reach the client when known).
  setUpPool();
  client.start(model.position.shape);
  // opening the page until its solver worker started (solver/start.js: before this module's graph)
  state.phases.page = (startedWorkerAt() ?? performance.now()) / 1000;
  buildInfoRead = readBuildInfo();
  loadExamples();
  bindLabInput(lab);
  lab.start();

  await buildInfoRead;
  if (state.buildInfo) view.buildDownload(state.buildInfo, { cached: state.cachedStart });
  const files = state.buildInfo?.files || {};
  client.runtimeBytes = Object.fromEntries(
    Object.entries(files)
      .filter(([p]) => p.startsWith("static/vendor/pyodide/"))
      .map(([p, f]) => [p.split("/").pop(), f.bytes]),
  );
}

main();
