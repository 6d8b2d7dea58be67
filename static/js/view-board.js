// View of the board panel: the tiles, the bounds line under them and the
// playback controls.  Writes the DOM only; every decision is the caller's.

const $ = (id) => document.getElementById(id);

// ------------------------------------------------------------------ board
export class BoardView {
  constructor(el = $("board")) {
    this.el = el;
    this.tiles = new Map(); // tile number -> element
    this.shape = "";
  }

  /** Show `board`; with busy, no tile is marked movable (a solve runs). */
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

// ------------------------------------------------------------------ bounds line
const BOUND_KEYS = [
  ["md", "MD"],
  ["lc", "LC"],
  ["wd", "WD", "wd_v", "wd_h"],
  ["id", "ID", "id_v", "id_h"],
  ["wdid", "WD+ID"],
  ["pdb", "PDB", "pdb", "pdb_r"],
  ["lb", "LB"],
];

export class BoundsView {
  constructor(el = $("bounds")) {
    this.el = el;
  }

  /** result: the api's "bounds" result ({bounds: {md, lc, ...}, summary}). */
  render(result) {
    const el = this.el;
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

  /** Empty the line, or show `text` (muted) instead of bounds. */
  clear(text = "") {
    const el = this.el;
    el.replaceChildren();
    if (text) {
      const s = document.createElement("span");
      s.className = "muted";
      s.textContent = text;
      el.append(s);
    }
  }
}

// ------------------------------------------------------------------ playback controls
const SVG = "http://www.w3.org/2000/svg";

function icon(path) {
  const svg = document.createElementNS(SVG, "svg");
  for (const [k, v] of [["viewBox", "0 0 24 24"], ["width", "22"], ["height", "22"], ["aria-hidden", "true"], ["focusable", "false"]]) {
    svg.setAttribute(k, v);
  }
  const p = document.createElementNS(SVG, "path");
  p.setAttribute("fill", "currentColor");
  p.setAttribute("d", path);
  svg.append(p);
  return svg;
}

const PLAY_PATH = "M7 5v14l11-7z";
const PAUSE_PATH = "M6 5h4v14H6zM14 5h4v14h-4z";

export class PlaybackView {
  constructor() {
    this.root = $("playback");
    this.toggle = $("play-toggle");
    this.toggle.replaceChildren(icon(PLAY_PATH));
  }

  show() {
    this.root.hidden = false;
  }

  hide() {
    this.root.hidden = true;
  }

  /** The controls for move `index` of `length`, playing or paused. */
  render({ index, length, playing }) {
    $("play-counter").textContent = `${index} / ${length}`;
    this.toggle.replaceChildren(icon(playing ? PAUSE_PATH : PLAY_PATH));
    this.toggle.setAttribute("aria-label", playing ? "Pause" : "Play");
    $("play-back").disabled = $("play-start").disabled = index === 0;
    $("play-step").disabled = $("play-end").disabled = index >= length;
  }

  /** The speed slider at `index`, showing `movesPerSecond`. */
  speed(index, movesPerSecond) {
    $("play-speed").value = String(index);
    $("play-speed-label").textContent = `${movesPerSecond}/s`;
    $("play-speed").setAttribute("aria-valuetext", `${movesPerSecond} moves per second`);
  }
}
