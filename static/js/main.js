// The app controller: wires the board model, the view, input, the solver
// worker, share links, playback and the offline service worker together.

import { Board, SHAPES, parseShape, shapesForCount, randomTiles, goalTiles } from "./board.js";
import { SolverClient } from "./solver-client.js";
import { BoardView, LoadingView, ProgressView, renderBounds, clearBounds, renderSolution, hideSolution,
  highlightMove, setStatus, showError, hideError, toast, formatBytes, formatSeconds } from "./view.js";
import { bindInput } from "./input.js";
import { Playback, SPEEDS } from "./playback.js";
import { readHash, writeHash, shareUrl, prefs } from "./share.js";
import { registerOffline, precacheAll } from "./offline.js";

const $ = (id) => document.getElementById(id);

const BOUND_LABELS = {
  auto: "Strongest available",
  pdb78: "PDB 7-8 + reflection (pack)",
  pdb663: "PDB 6-6-3 + reflection",
  pdb555: "PDB 5-5-5 + reflection",
  pdb: "Pattern database",
  wdid: "WD + ID (the seed's)",
  wd: "Walking distance (WD)",
  id: "Inversion distance (ID)",
  lc: "MD + linear conflict",
  md: "Manhattan distance (MD)",
};
const boundLabel = (b) => BOUND_LABELS[b] || b;

const state = {
  board: new Board(4, 4),
  solving: false,
  ready: false,
  playback: null,
  solutionStart: null, // tiles string of the position the shown solution belongs to
  examples: [],
  buildInfo: null,
  t0: performance.now(),
  firstReady: true,
  readyAt: null,
  textDirty: false,
  boundsSeq: 0,
  knownShapes: new Set(),
  warnings: [], // messages of the current load (missing or skipped databases)
  warmed: new Set(), // shapes the current worker has already searched once
  packs: [], // the manifest's optional packs, each with `loaded` (from the worker)
  pack: { busy: false, error: null }, // the download in progress / its last failure
};

const boardView = new BoardView($("board"));
const loadingView = new LoadingView();
const progressView = new ProgressView();

// ------------------------------------------------------------------ solver client
const client = new SolverClient({
  loading(msg) {
    loadingView.update(msg, stageSizes());
    if (!state.ready && !state.solving) {
      const what = { runtime: "Python runtime", solver: "solver", databases: "databases" }[msg.stage];
      if (msg.state !== "done") setStatus(state.cancelled ? "cancelled" : "loading", `${state.cancelled ? "Cancelled · " : ""}Loading the ${what}…`);
    }
  },
  warning(msg) {
    console.warn(msg.message);
    state.loadWarning = true;
    state.warnings.push(msg.message);
    loadingView.summary(state.warnings.join(" "));
  },
  ready(msg) {
    state.ready = true;
    state.warmed.clear(); // a new worker
    state.info = msg.info;
    state.packs = msg.packs || [];
    const seconds = (performance.now() - state.t0) / 1000;
    if (state.firstReady) {
      state.firstReady = false;
      state.readyAt = seconds;
      document.documentElement.dataset.readySeconds = seconds.toFixed(2);
      loadingView.summary([`Ready in ${formatSeconds(seconds)}.`, ...state.warnings].join(" "));
      precacheAll(state.buildInfo).then(offlineDone, () => {});
    }
    if (!state.loadWarning) setTimeout(() => state.ready && ($("loading-card").hidden = true), 2500);
    fillBoundMenu();
    renderPack();
    $("solve-button").disabled = false;
    hideError();
    if (state.cancelled) {
      setStatus("cancelled", `Cancelled. The solver restarted in ${formatSeconds(msg.seconds)}; ready again.`);
    } else if (!state.solving) {
      setStatus("ready", "Ready");
    }
    syncText({ force: true });
  },
  fatal(err) {
    state.ready = false;
    loadingView.fail();
    $("loading-card").hidden = false;
    $("solve-button").disabled = true;
    const title = err.type === "asset" ? "A database file is damaged" : "The solver could not start";
    setStatus("error", `Error: ${err.message}`);
    state.damaged = err.type === "asset" ? err.file : null;
    showError(title, err.message, { skip: !!state.damaged });
    endSolving();
  },
  restart() {
    state.ready = false;
    state.pack.busy = false;
    state.loadWarning = false;
    state.warnings = [];
    $("solve-button").disabled = true;
    loadingView.reset();
  },
});

function stageSizes() {
  const files = state.buildInfo?.files || {};
  const sum = (prefix) => Object.entries(files).filter(([p]) => p.startsWith(prefix)).reduce((a, [, f]) => a + f.bytes, 0);
  return { runtime: sum("static/vendor/pyodide/"), solver: sum("static/wheels/") };
}

function offlineDone(summary) {
  if (!summary) return;
  document.documentElement.dataset.offline = "ready";
  $("build-line").textContent = `Available offline · build ${summary.version} · ${formatBytes(summary.bytes)} cached.`;
}

// ------------------------------------------------------------------ board & text
function setBoard(board, { fromText = false, keepSolution = false } = {}) {
  state.board = board;
  if (!keepSolution) clearSolution();
  boardView.render(board, { busy: state.solving });
  writeHash(board);
  const sel = $("shape-select");
  if (![...sel.options].some((o) => o.value === board.shape)) {
    // A shape the menu does not offer (e.g. from a share link): the solver supports it.
    const o = document.createElement("option");
    o.value = board.shape;
    o.textContent = board.shape.replace("x", "×");
    sel.append(o);
  }
  if (sel.value !== board.shape) sel.value = board.shape;
  if (!fromText) {
    $("tiles-input").value = board.gridText();
    setTextError("");
    state.textDirty = false;
  }
  if (!keepSolution) refreshBounds();
  renderPack();
}

function clearSolution() {
  if (state.playback) state.playback.pause();
  state.playback = null;
  $("playback").hidden = true;
  hideSolution();
  if (!state.solving) progressView.hide();
}

function setTextError(message) {
  $("tiles-error").textContent = message;
  $("tiles-input").setAttribute("aria-invalid", message ? "true" : "false");
}

/** The shape to send with a text: the selected one when the count fits it. */
function shapeForText(text) {
  const count = text.split(/[\s,;]+/).filter(Boolean).length;
  const selected = $("shape-select").value;
  const dims = parseShape(selected);
  if (dims && dims.rows * dims.cols === count) return selected;
  const fits = shapesForCount(count);
  return fits.length === 1 ? fits[0] : null;
}

/** Validate the text field with the solver; on success the board follows it. */
async function syncText({ force = false } = {}) {
  const text = $("tiles-input").value.trim();
  if (!force && !state.textDirty) return true;
  if (!state.ready && !force) return false;
  const shape = shapeForText(text);
  try {
    const r = await client.call("parse", { text, shape });
    const board = new Board(r.rows, r.cols, r.tiles);
    setTextError("");
    state.textDirty = false;
    if (board.text() !== state.board.text() || board.shape !== state.board.shape) {
      setBoard(board, { fromText: true });
    } else {
      refreshBounds();
    }
    return true;
  } catch (err) {
    if (err.type === "cancelled") return false;
    if (err.type === "input") {
      setTextError(err.message);
      clearBounds("");
    } else {
      setTextError(err.message);
    }
    return false;
  }
}

let textTimer = 0;
$("tiles-input").addEventListener("input", () => {
  state.textDirty = true;
  clearTimeout(textTimer);
  textTimer = setTimeout(() => syncText(), 350);
});
$("tiles-input").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    solve();
  }
});

let boundsTimer = 0;
function refreshBounds() {
  clearTimeout(boundsTimer);
  if (!state.ready || state.solving) return;
  boundsTimer = setTimeout(async () => {
    const seq = ++state.boundsSeq;
    const board = state.board;
    const newShape = !state.knownShapes.has(board.shape);
    try {
      const r = await client.call("bounds", { text: board.text(), shape: board.shape });
      if (seq !== state.boundsSeq) return;
      renderBounds(r);
      warmUp(board.shape);
      if (newShape) {
        state.knownShapes.add(board.shape);
        state.info = await client.call("info", {});
        fillBoundMenu();
      }
    } catch (err) {
      if (seq !== state.boundsSeq || err.type === "cancelled") return;
      if (err.type === "asset") {
        setStatus("error", `Error: ${err.message}`);
        state.damaged = err.file || null;
        showError("A database file is damaged", err.message, { skip: !!state.damaged });
      } else {
        clearBounds(err.message);
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
  client.call("solve", { text: t.join(" "), shape, bound: "auto" }).catch(() => state.warmed.delete(shape));
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

bindInput($("board"), {
  getBoard: () => state.board,
  onMoves: applyMoves,
  isBusy: () => state.solving || !!state.playback?.playing,
});

// ------------------------------------------------------------------ shape, shuffle, examples, share
function fillShapes() {
  const sel = $("shape-select");
  const names = { "3x3": "3×3 · 8", "3x4": "3×4 · 11", "4x3": "4×3 · 11", "4x4": "4×4 · 15" };
  sel.replaceChildren(
    ...SHAPES.map((s) => {
      const o = document.createElement("option");
      o.value = s;
      o.textContent = names[s] || s.replace("x", "×");
      return o;
    }),
  );
  sel.value = state.board.shape;
}

$("shape-select").addEventListener("change", (e) => {
  const d = parseShape(e.target.value);
  setBoard(new Board(d.rows, d.cols, randomTiles(d.rows, d.cols)));
  fillBoundMenu();
  $("examples").value = "";
  $("example-note").textContent = "";
});

$("shuffle-button").addEventListener("click", () => {
  const { rows, cols } = state.board;
  setBoard(new Board(rows, cols, randomTiles(rows, cols)));
  $("examples").value = "";
  $("example-note").textContent = "";
});

$("reset-button").addEventListener("click", () => {
  const { rows, cols } = state.board;
  setBoard(new Board(rows, cols, goalTiles(rows, cols)));
});

async function loadExamples() {
  try {
    const data = await (await fetch("static/data/examples.json")).json();
    state.examples = data.examples;
    const sel = $("examples");
    for (const ex of data.examples) {
      const o = document.createElement("option");
      o.value = ex.id;
      o.textContent = `${ex.name} — ${ex.optimal} moves`;
      sel.append(o);
    }
  } catch (e) {
    console.warn("examples", e);
  }
}

$("examples").addEventListener("change", (e) => {
  const ex = state.examples.find((x) => x.id === e.target.value);
  if (!ex) return;
  const d = parseShape(ex.shape);
  setBoard(new Board(d.rows, d.cols, ex.tiles));
  fillBoundMenu();
  $("example-note").textContent = `Optimal: ${ex.optimal} moves${ex.note ? ` — ${ex.note}` : ""}.`;
});

$("share-button").addEventListener("click", async () => {
  const link = shareUrl(state.board);
  try {
    await navigator.clipboard.writeText(link);
    toast("Link copied");
  } catch {
    prompt("Copy this link:", link);
  }
});

window.addEventListener("hashchange", () => {
  const h = readHash();
  if (!h || state.solving) return;
  if (h.tiles && h.text === state.board.tiles.join(" ") && h.shape === state.board.shape) return;
  loadFromHash(h);
});

function loadFromHash(h) {
  if (h.tiles) {
    const d = parseShape(h.shape);
    setBoard(new Board(d.rows, d.cols, h.tiles));
  } else {
    // Not a valid position: let the solver explain what is wrong.
    if (h.shape && parseShape(h.shape)) $("shape-select").value = h.shape;
    $("tiles-input").value = h.text;
    state.textDirty = true;
    if (state.ready) syncText();
  }
  if (h.bound) prefs.set("bound", h.bound);
}

// ------------------------------------------------------------------ bound menu
function fillBoundMenu() {
  const sel = $("bound-select");
  const shape = state.board.shape;
  const list = state.info?.bounds?.[shape] || ["auto"];
  const wanted = sel.value || prefs.get("bound", "auto");
  sel.replaceChildren(
    ...list.map((b) => {
      const o = document.createElement("option");
      o.value = b;
      o.textContent = boundLabel(b);
      return o;
    }),
  );
  sel.value = list.includes(wanted) ? wanted : list[0];
  sel.disabled = state.solving || !state.ready;
}
$("bound-select").addEventListener("change", (e) => prefs.set("bound", e.target.value));

// ------------------------------------------------------------------ optional pack
const MB = 1024 * 1024;
const packSize = (b) => (b >= MB ? `${Math.round(b / MB)} MB` : formatBytes(b));

/** The pack's table, plus while loading the downloaded file and, for xz, the decoder's 64 MiB dictionary. */
function packMemoryText(pack) {
  if (!pack.memory_bytes) return "needs about 400 MB of memory while loading";
  const bytes = pack.memory_bytes + (pack.bytes || 0) + (pack.compression === "xz" ? 64 * MB : 0);
  const mb = bytes / MB;
  const round = mb >= 100 ? Math.ceil(mb / 100) * 100 : Math.max(1, Math.ceil(mb));
  return `needs about ${round} MB of memory while loading`;
}

/** Show the optional pack that serves the current board shape, if the site has one. */
function renderPack() {
  const panel = $("pack-panel");
  const pack = state.packs.find((p) => Array.isArray(p.shapes) && p.shapes.includes(state.board.shape));
  if (!pack) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  panel.dataset.file = pack.file;
  const button = $("pack-button");
  const status = $("pack-status");
  $("pack-memory").textContent = packMemoryText(pack);
  let st;
  if (pack.loaded) st = "loaded";
  else if (state.pack.busy) st = "downloading";
  else if (state.pack.error) st = "error";
  else st = "offered";
  panel.dataset.state = st;
  $("pack-progress-label").hidden = st !== "downloading";
  button.hidden = st === "loaded" || st === "downloading";
  button.disabled = !state.ready || state.solving;
  const label = `hard-positions pack (${packSize(pack.bytes)})`;
  button.setAttribute("aria-label", st === "error" ? `Retry downloading the ${label}` : `Download the ${label}`);
  button.textContent = st === "error" ? `Retry the download (${packSize(pack.bytes)})` : `Download ${label}`;
  if (st === "loaded") {
    status.textContent = "Hard-positions pack loaded: the strongest bound now uses it.";
  } else if (st === "error") {
    const why = /[.!?]$/.test(state.pack.error) ? state.pack.error : `${state.pack.error}.`;
    status.textContent = `The pack could not be loaded: ${why} The solver keeps working without it.`;
  } else if (st === "offered") {
    status.textContent = "";
  }
}

async function downloadPack() {
  const file = $("pack-panel").dataset.file;
  const pack = state.packs.find((p) => p.file === file);
  if (!pack || state.pack.busy || !state.ready) return;
  state.pack = { busy: true, error: null };
  const bar = $("pack-progress");
  bar.max = pack.bytes || 1;
  bar.value = 0;
  $("pack-status").textContent = `Downloading the hard-positions pack (${packSize(pack.bytes)})…`;
  $("solve-button").disabled = true; // the worker serves one request at a time
  renderPack();
  let lastPct = -1;
  try {
    let lastDecodePct = -1;
    const result = await client.loadPack(file, (p) => {
      if (p.phase === "decode") {
        // the downloaded xz being decompressed into the solver (the bar stays full)
        const pct = p.bytes ? Math.floor((100 * p.loaded) / p.bytes) : 0;
        if (pct >= lastDecodePct + 10 || lastDecodePct < 0) {
          lastDecodePct = pct;
          $("pack-status").textContent = `Downloaded; unpacking the pack into the solver: ${pct} %…`;
        }
        return;
      }
      const total = p.bytes || pack.bytes || 0;
      if (total) bar.max = total;
      bar.value = Math.min(p.loaded, bar.max);
      const pct = total ? Math.floor((100 * p.loaded) / total) : 0;
      if (p.loaded >= total && total) {
        $("pack-status").textContent = "Downloaded; loading the pack into the solver…";
      } else if (pct >= lastPct + 10 || lastPct < 0) {
        lastPct = pct; // the live region speaks every 10 %, not on every chunk
        $("pack-status").textContent = `Downloading the hard-positions pack: ${pct} % of ${packSize(total)}…`;
      }
    });
    pack.loaded = true;
    state.pack = { busy: false, error: null };
    if (result.info) state.info = result.info;
    fillBoundMenu();
    renderPack();
    if (!result.cached) $("pack-status").textContent += " (It could not be kept for offline use: it will be downloaded again next time.)";
    refreshBounds();
    toast("Hard-positions pack loaded.");
  } catch (err) {
    state.pack = { busy: false, error: err.message || String(err) };
    if (err.type === "cancelled") state.pack.error = "the download was interrupted.";
    renderPack();
  } finally {
    $("solve-button").disabled = !state.ready;
  }
}
$("pack-button").addEventListener("click", downloadPack);

// ------------------------------------------------------------------ solve / cancel
function beginSolving() {
  state.solving = true;
  state.cancelled = false;
  $("solve-button").hidden = true;
  $("cancel-button").hidden = false;
  $("cancel-button").focus();
  for (const id of ["shape-select", "shuffle-button", "reset-button", "examples", "bound-select", "tiles-input", "pack-button"]) $(id).disabled = true;
  boardView.render(state.board, { busy: true });
}

function endSolving() {
  state.solving = false;
  $("solve-button").hidden = false;
  $("cancel-button").hidden = true;
  for (const id of ["shape-select", "shuffle-button", "reset-button", "examples", "bound-select", "tiles-input"]) $(id).disabled = false;
  $("bound-select").disabled = !state.ready;
  $("pack-button").disabled = !state.ready;
  boardView.render(state.board, { busy: false });
}

async function solve() {
  if (state.solving) return;
  hideError();
  if ($("tiles-input").value.trim() !== state.board.gridText().trim()) state.textDirty = true;
  if (!state.ready) {
    setStatus(state.cancelled ? "cancelled" : "loading", "Waiting for the solver to finish loading…");
    try {
      await client.readyPromise;
    } catch {
      return;
    }
  }
  if (state.textDirty && !(await syncText({ force: true }))) {
    setStatus("ready", "Fix the position first.");
    $("tiles-input").focus();
    return;
  }
  if (state.playback) state.playback.seek(0);
  const board = state.board.clone();
  const bound = $("bound-select").value || "auto";
  clearSolution();
  beginSolving();
  progressView.reset();
  setStatus("solving", `Solving with the ${boundLabel(bound)} bound…`);
  const t0 = performance.now();
  try {
    const result = await client.solve({ text: board.text(), shape: board.shape, bound }, (p) => {
      progressView.update(p);
      setStatus("solving", `Solving · bound ${p.bound} · ${formatSeconds(p.seconds)}`);
    });
    endSolving();
    progressView.update({ ...result, bound: result.length, iteration_nodes: 0 }, { final: true });
    const used = result.bound || bound;
    renderSolution(result, { boundLabel: boundLabel(used) });
    startPlayback(board, result);
    const wall = (performance.now() - t0) / 1000;
    setStatus("solved", `Solved: ${result.length} moves in ${formatSeconds(wall)}.`);
  } catch (err) {
    endSolving();
    if (err.type === "cancelled" || state.cancelled) return; // cancel() already set the status
    if (err.type === "input") {
      setTextError(err.message);
      setStatus("error", err.message);
    } else {
      setStatus("error", `Error: ${err.message}`);
      showError(err.type === "asset" ? "A database file is damaged" : "The solve failed", err.message);
    }
    progressView.hide();
  }
}

function cancel() {
  if (!state.solving) return;
  state.cancelled = true;
  const hard = !client.interrupt;
  setStatus("cancelled", hard ? "Cancelled. Restarting the solver…" : "Cancelled.");
  endSolving();
  progressView.hide();
  $("solve-button").focus();
  const t0 = performance.now();
  client.cancel().then(() => {
    if (!hard && state.cancelled && !state.solving) {
      setStatus("cancelled", `Cancelled (stopped in ${formatSeconds((performance.now() - t0) / 1000)}, no restart needed).`);
    }
  });
}

$("solve-button").addEventListener("click", solve);
$("cancel-button").addEventListener("click", cancel);
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && state.solving) cancel();
});

$("skip-button").addEventListener("click", () => {
  if (!state.damaged) return;
  client.skip = [...client.skip, state.damaged];
  state.damaged = null;
  state.loadWarning = false;
  state.warnings = [];
  hideError();
  state.cancelled = false;
  setStatus("loading", "Restarting without the damaged database…");
  loadingView.reset();
  client.start(state.board.shape);
});

$("retry-button").addEventListener("click", () => {
  hideError();
  state.cancelled = false;
  setStatus("loading", "Retrying…");
  loadingView.reset();
  client.start(state.board.shape);
});

// ------------------------------------------------------------------ playback
function startPlayback(board, result) {
  $("playback").hidden = false;
  const pb = new Playback(board, result.directions, (b, i) => {
    boardView.render(b, { busy: false });
    $("board").dataset.tiles = b.tiles.join(",");
    $("play-counter").textContent = `${i} / ${pb.length}`;
    highlightMove(i - 1);
    updatePlayButtons();
  });
  pb.speed = SPEEDS[Number($("play-speed").value)];
  state.playback = pb;
  $("play-counter").textContent = `0 / ${pb.length}`;
  updatePlayButtons();
}

const icon = (d) => `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path fill="currentColor" d="${d}"/></svg>`;
const PLAY_ICON = icon("M7 5v14l11-7z");
const PAUSE_ICON = icon("M6 5h4v14H6zM14 5h4v14h-4z");
$("play-toggle").innerHTML = PLAY_ICON;

function updatePlayButtons() {
  const pb = state.playback;
  if (!pb) return;
  const t = $("play-toggle");
  t.innerHTML = pb.playing ? PAUSE_ICON : PLAY_ICON;
  t.setAttribute("aria-label", pb.playing ? "Pause" : "Play");
  $("play-back").disabled = $("play-start").disabled = pb.index === 0;
  $("play-step").disabled = $("play-end").disabled = pb.index >= pb.length;
}

$("play-toggle").addEventListener("click", () => state.playback?.toggle());
$("play-step").addEventListener("click", () => {
  state.playback?.pause();
  state.playback?.step();
});
$("play-back").addEventListener("click", () => {
  state.playback?.pause();
  state.playback?.back();
});
$("play-start").addEventListener("click", () => state.playback?.seek(0));
$("play-end").addEventListener("click", () => state.playback?.seek(state.playback.length));
$("play-speed").addEventListener("input", (e) => {
  const s = SPEEDS[Number(e.target.value)];
  $("play-speed-label").textContent = `${s}/s`;
  e.target.setAttribute("aria-valuetext", `${s} moves per second`);
  prefs.set("speed", Number(e.target.value));
  if (state.playback) state.playback.speed = s;
});

$("copy-button").addEventListener("click", async () => {
  const el = $("solution");
  const text = `${el.dataset.length} moves\ntiles: ${el.dataset.moves}\nblank: ${el.dataset.directions}\n`;
  try {
    await navigator.clipboard.writeText(text);
    toast("Solution copied");
  } catch {
    prompt("Copy the solution:", text);
  }
});

// ------------------------------------------------------------------ start-up
async function main() {
  fillShapes();
  const speed = prefs.get("speed", 2);
  $("play-speed").value = String(speed);
  $("play-speed-label").textContent = `${SPEEDS[speed] || 4}/s`;
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
  setStatus("loading", "Loading the solver…");
  loadingView.reset();

  try {
    const resp = await fetch("static/build-info.json", { cache: "no-cache" });
    if (resp.ok) state.buildInfo = await resp.json();
  } catch {
    /* offline without a cached copy: sizes are unknown */
  }
  if (state.buildInfo) {
    const total = state.buildInfo.total_bytes;
    $("build-line").textContent = `Build ${state.buildInfo.version} · first visit downloads at most ${formatBytes(total)}.`;
  }
  const files = state.buildInfo?.files || {};
  client.runtimeBytes = Object.fromEntries(
    Object.entries(files)
      .filter(([p]) => p.startsWith("static/vendor/pyodide/"))
      .map(([p, f]) => [p.split("/").pop(), f.bytes]),
  );
  await registerOffline(state.buildInfo, {
    onUpdate: () => toast("A new version was installed: reload the page to use it.", 8000),
  });
  client.start(state.board.shape);
}

main();
