// View ("actuator"): everything that writes to the DOM.  No state decisions here.

const $ = (id) => document.getElementById(id);

export function formatCount(n) {
  if (n === null || n === undefined || Number.isNaN(n)) return "–";
  if (n < 1e4) return String(Math.round(n));
  if (n < 1e6) return `${(n / 1e3).toFixed(n < 1e5 ? 1 : 0)} k`;
  if (n < 1e9) return `${(n / 1e6).toFixed(n < 1e7 ? 2 : 1)} M`;
  return `${(n / 1e9).toFixed(2)} G`;
}

export function formatSeconds(s) {
  if (s === null || s === undefined || !Number.isFinite(s)) return "–";
  if (s < 1) return `${(s * 1000).toFixed(0)} ms`;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(Math.floor(s % 60)).padStart(2, "0")} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
}

export function formatBytes(b) {
  if (!b && b !== 0) return "";
  if (b < 1024) return `${b} B`;
  if (b < 1024 * 1024) return `${(b / 1024).toFixed(0)} KB`;
  return `${(b / 1024 / 1024).toFixed(1)} MB`;
}

// ------------------------------------------------------------------ status
export function setStatus(state, text) {
  const el = $("status");
  el.dataset.state = state;
  $("status-text").textContent = text;
}

export function showError(title, message, { retry = true, skip = false } = {}) {
  $("error-title").textContent = title;
  $("error-message").textContent = message;
  $("retry-button").hidden = !retry;
  $("skip-button").hidden = !skip;
  $("error-panel").hidden = false;
}

export function hideError() {
  $("error-panel").hidden = true;
}

let toastTimer = 0;
export function toast(text, ms = 2200) {
  const el = $("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.hidden = true), ms);
}

// ------------------------------------------------------------------ board
export class BoardView {
  constructor(el) {
    this.el = el;
    this.tiles = new Map(); // tile number -> element
    this.shape = "";
  }

  render(board, { busy = false } = {}) {
    const el = this.el;
    if (this.shape !== board.shape) {
      el.replaceChildren();
      this.tiles.clear();
      this.shape = board.shape;
      el.style.setProperty("--rows", board.rows);
      el.style.setProperty("--cols", board.cols);
      for (let t = 1; t < board.tiles.length; t++) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "tile";
        b.tabIndex = -1;
        b.dataset.tile = String(t);
        const span = document.createElement("span");
        span.textContent = String(t);
        b.append(span);
        el.append(b);
        this.tiles.set(t, b);
      }
    }
    const blank = board.blank;
    const br = Math.floor(blank / board.cols);
    const bc = blank % board.cols;
    board.tiles.forEach((t, i) => {
      if (t === 0) return;
      const b = this.tiles.get(t);
      const r = Math.floor(i / board.cols);
      const c = i % board.cols;
      b.style.setProperty("--r", r);
      b.style.setProperty("--c", c);
      b.dataset.index = String(i);
      const home = t === i + 1;
      const movable = !busy && (r === br || c === bc);
      b.classList.toggle("home", home);
      b.classList.toggle("movable", movable);
      b.setAttribute("aria-label", `Tile ${t}, row ${r + 1}, column ${c + 1}${home ? ", in place" : ""}`);
    });
    el.dataset.tiles = board.tiles.join(",");
    el.dataset.shape = board.shape;
    el.classList.toggle("busy", busy);
    el.classList.toggle("solved-glow", board.isGoal() && !busy);
  }
}

// ------------------------------------------------------------------ bounds
const BOUND_KEYS = [
  ["md", "MD"],
  ["lc", "LC"],
  ["wd", "WD", "wd_v", "wd_h"],
  ["id", "ID", "id_v", "id_h"],
  ["wdid", "WD+ID"],
  ["pdb", "PDB", "pdb", "pdb_r"],
  ["lb", "LB"],
];

export function renderBounds(result) {
  const el = $("bounds");
  const b = (result && result.bounds) || {};
  const parts = [];
  for (const [key, label, a, c] of BOUND_KEYS) {
    if (a && b[a] !== undefined && b[a] !== null) {
      const second = b[c] !== undefined && b[c] !== null ? `/${b[c]}` : "";
      parts.push([label, `${b[a]}${second}`]);
    } else if (b[key] !== undefined && b[key] !== null) {
      parts.push([label, String(b[key])]);
    }
  }
  el.replaceChildren();
  if (!parts.length) {
    el.textContent = result && result.summary ? result.summary : "";
    return;
  }
  parts.forEach(([label, value], i) => {
    if (i) {
      const s = document.createElement("span");
      s.className = "sep";
      s.textContent = "·";
      s.setAttribute("aria-hidden", "true");
      el.append(" ", s, " "); // spaces: the line may wrap between bounds, never inside one
    }
    const span = document.createElement("span");
    span.append(`${label} `);
    const v = document.createElement("b");
    v.textContent = value;
    span.append(v);
    el.append(span);
  });
  if (result.summary) el.title = `Lower bounds: ${result.summary}`;
}

export function clearBounds(text = "") {
  const el = $("bounds");
  el.replaceChildren();
  if (text) {
    const s = document.createElement("span");
    s.className = "muted";
    s.textContent = text;
    el.append(s);
  }
}

// ------------------------------------------------------------------ loading steps
export class LoadingView {
  constructor() {
    this.list = $("loading-steps");
    this.items = new Map();
  }

  reset() {
    this.list.replaceChildren();
    this.items.clear();
    $("loading-summary").textContent = "";
    $("loading-card").hidden = false;
  }

  item(key, label) {
    let li = this.items.get(key);
    if (!li) {
      li = document.createElement("li");
      li.innerHTML = '<span class="mark" aria-hidden="true"></span><span class="label"></span><span class="size"></span>';
      this.list.append(li);
      this.items.set(key, li);
    }
    if (label) li.querySelector(".label").textContent = label;
    return li;
  }

  update(msg, sizes) {
    const key = msg.stage === "databases" ? `db:${msg.label}` : msg.stage;
    const names = { runtime: "Python runtime", solver: "Solver", databases: "Database" };
    const label = msg.stage === "databases" ? `Database ${msg.label}` : `${names[msg.stage] || msg.stage}${msg.state === "done" && msg.label ? ` — ${msg.label}` : ""}`;
    const li = this.item(key, label);
    const size = li.querySelector(".size");
    const known = msg.bytes || sizes[msg.stage] || 0;
    if (msg.state === "start") {
      li.className = "active";
      size.textContent = known ? formatBytes(known) : "";
    } else if (msg.state === "progress") {
      li.className = "active";
      let bar = li.querySelector(".bar");
      if (!bar) {
        bar = document.createElement("span");
        bar.className = "bar";
        bar.innerHTML = "<i></i>";
        li.append(bar);
      }
      const pct = msg.bytes ? Math.min(100, (100 * msg.loaded) / msg.bytes) : 0;
      bar.firstChild.style.width = `${pct}%`;
      size.textContent = msg.bytes ? `${formatBytes(msg.loaded)} / ${formatBytes(msg.bytes)}` : formatBytes(msg.loaded);
    } else if (msg.state === "done") {
      li.className = msg.missing ? "missing" : "done";
      li.querySelector(".bar")?.remove();
      const bytes = msg.bytes || known;
      size.textContent = msg.missing ? "missing" : `${bytes ? `${formatBytes(bytes)} · ` : ""}${formatSeconds(msg.seconds)}`;
    }
  }

  fail() {
    for (const li of this.items.values()) if (li.className === "active") li.className = "failed";
  }

  summary(text) {
    $("loading-summary").textContent = text;
  }
}

// ------------------------------------------------------------------ solve progress
export class ProgressView {
  constructor() {
    this.root = $("progress");
    this.tbody = document.querySelector("#p-iterations tbody");
  }

  reset() {
    this.root.hidden = false;
    this.tbody.replaceChildren();
    $("p-bound").textContent = "–";
    $("p-nodes").textContent = "0";
    $("p-rate").textContent = "–";
    $("p-elapsed").textContent = "0 s";
    $("p-estimate").textContent = "";
    this.shown = 0;
  }

  hide() {
    this.root.hidden = true;
  }

  /** p = {bound, nodes, iteration_nodes, seconds, iterations: [{bound, nodes, seconds}]} */
  update(p, { final = false } = {}) {
    const its = p.iterations || [];
    if (!final) p = currentIteration(p);
    $("p-bound").textContent = p.bound ?? "–";
    $("p-nodes").textContent = formatCount(p.nodes);
    const rate = p.seconds > 0 ? p.nodes / p.seconds : null;
    $("p-rate").textContent = rate ? `${formatCount(rate)}/s` : "–";
    $("p-elapsed").textContent = formatSeconds(p.seconds);
    this.tbody.replaceChildren();
    its.forEach((it, i) => {
      const tr = document.createElement("tr");
      const growth = i > 0 && its[i - 1].nodes > 0 ? `×${(it.nodes / its[i - 1].nodes).toFixed(1)}` : "";
      for (const v of [it.bound, formatCount(it.nodes), growth, formatSeconds(it.seconds)]) {
        const td = document.createElement("td");
        td.textContent = v;
        tr.append(td);
      }
      this.tbody.append(tr);
    });
    if (!final && p.bound !== undefined) {
      const tr = document.createElement("tr");
      tr.className = "current";
      for (const v of [p.bound, formatCount(p.iteration_nodes), "", "running"]) {
        const td = document.createElement("td");
        td.textContent = v;
        tr.append(td);
      }
      this.tbody.append(tr);
    }
    const wrap = this.tbody.closest(".table-wrap");
    wrap.scrollTop = wrap.scrollHeight;
    $("p-estimate").textContent = final ? "" : estimateText(p, rate);
  }
}

/**
 * A report sent just after an iteration finished names that iteration's bound;
 * the search has then moved on to the next bound (bound + 2) with no nodes yet.
 */
function currentIteration(p) {
  const its = p.iterations || [];
  const last = its[its.length - 1];
  if (last && p.bound !== undefined && last.bound >= p.bound) {
    return { ...p, bound: last.bound + 2, iteration_nodes: 0 };
  }
  return p;
}

/**
 * Estimate the current iteration's cost from the growth of the finished ones:
 * IDA* iterations grow roughly geometrically, so next ≈ last × ratio.
 */
export function estimateText(p, rate) {
  const its = (p.iterations || []).filter((it) => it.nodes > 0);
  if (its.length < 2 || !rate) {
    return its.length ? "Estimating the next iteration's cost after one more iteration…" : "";
  }
  const ratios = [];
  for (let i = Math.max(1, its.length - 3); i < its.length; i++) ratios.push(its[i].nodes / its[i - 1].nodes);
  const growth = Math.exp(ratios.reduce((a, r) => a + Math.log(r), 0) / ratios.length);
  const est = its[its.length - 1].nodes * growth;
  const left = Math.max(0, est - (p.iteration_nodes || 0)) / rate;
  const after = (est * growth) / rate;
  return (
    `Bound ${p.bound}: about ${formatCount(est)} nodes if it holds no solution (growth ×${growth.toFixed(1)} per iteration), ` +
    `~${formatSeconds(left)} left in it; the next bound would take ~${formatSeconds(after)}.`
  );
}

// ------------------------------------------------------------------ solution
export function renderSolution(result, extra) {
  const el = $("solution");
  el.hidden = false;
  el.dataset.length = String(result.length);
  el.dataset.moves = result.moves.join(" ");
  el.dataset.directions = result.directions;
  $("solution-length").textContent = String(result.length);
  $("solution-unit").textContent = result.length === 1 ? "move, optimal" : "moves, optimal";
  const rate = result.seconds > 0 ? result.nodes / result.seconds : null;
  $("solution-meta").textContent =
    `${formatCount(result.nodes)} nodes in ${formatSeconds(result.seconds)}` +
    `${rate ? ` (${formatCount(rate)}/s)` : ""} with the ${extra.boundLabel} bound.`;
  fillMoves($("solution-tiles"), result.moves.map(String), " ");
  fillMoves($("solution-dirs"), result.directions.split(""), "");
}

function fillMoves(el, items, sep) {
  el.replaceChildren();
  items.forEach((m, i) => {
    const s = document.createElement("span");
    s.textContent = m;
    s.dataset.i = String(i);
    el.append(s);
    if (sep && i < items.length - 1) el.append(sep);
  });
}

export function highlightMove(i) {
  for (const id of ["solution-tiles", "solution-dirs"]) {
    const el = $(id);
    el.querySelector(".cur")?.classList.remove("cur");
    const s = el.querySelector(`[data-i="${i}"]`);
    if (s) {
      s.classList.add("cur");
      const top = s.offsetTop - el.offsetTop;
      if (top < el.scrollTop || top > el.scrollTop + el.clientHeight - 20) el.scrollTop = top - 20;
    }
  }
}

export function hideSolution() {
  const el = $("solution");
  el.hidden = true;
  delete el.dataset.length;
  delete el.dataset.moves;
  delete el.dataset.directions;
}
