// View of the board panel: the tiles, the bounds line under them and the
// playback controls.  Writes the DOM only; every decision is the caller's.

import { $, html, svg } from "./dom.js";

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
        const b = html("button", { cls: "tile", attrs: { type: "button", tabindex: -1, "data-tile": t } });
        b.append(html("span", { text: String(t) }));
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
      const home = t === board.goal[i];
      const movable = !busy && (r === br || c === bc);
      b.classList.toggle("home", home);
      b.classList.toggle("movable", movable);
      b.setAttribute("aria-label", `Tile ${t}, row ${r + 1}, column ${c + 1}${home ? ", in place" : ""}`);
    });
    el.dataset.tiles = board.tiles.join(",");
    el.dataset.goal = board.goal.join(",");
    el.dataset.shape = board.shape;
    el.classList.toggle("busy", busy);
    el.classList.toggle("solved-glow", board.isGoal() && !busy);
  }
}

// ------------------------------------------------------------------ bounds line
/**
 * [label, value key, parts] per bound; a pair (v, h) is shown summed
 * ("WD 26+17 = 43"), the pattern database as plain/reflected with its max.
 */
const BOUND_PARTS = [
  ["MD", "md"],
  ["LC", "lc"],
  ["LC+LM", "lclm"],
  ["WD", "wd", ["wd_v", "wd_h"]],
  ["ID", "id", ["id_v", "id_h"]],
  ["WD+ID", "wdid"],
];

const known = (v) => v !== undefined && v !== null;

export class BoundsView {
  constructor(el = $("bounds")) {
    this.el = el;
  }

  /**
   * result: the api's "bounds" result ({bounds: {md, lc, ...}, start: {bound
   * name: value its search starts from}, auto, summary}); selected: the bound
   * menu's choice, label its label.  LB is what the selected bound starts from.
   */
  render(result, { selected = "auto", label = "" } = {}) {
    const el = this.el;
    const b = (result && result.bounds) || {};
    const parts = [];
    for (const [name, key, pair] of BOUND_PARTS) {
      if (!known(b[key])) continue;
      const value = pair && known(b[pair[0]]) ? `${b[pair[0]]}+${b[pair[1]]} = ${b[key]}` : String(b[key]);
      parts.push([name, value]);
    }
    if (known(b.pdb)) parts.push(["PDB", `${b.pdb}/${b.pdb_r} → ${Math.max(b.pdb, b.pdb_r)}`]);
    const start = result?.start || {};
    const lb = known(start[selected]) ? start[selected] : b.lb;
    if (known(lb)) parts.push(["LB", String(lb)]);
    el.replaceChildren();
    if (!parts.length) {
      el.textContent = result && result.summary ? result.summary : "";
      return;
    }
    parts.forEach(([name, value], i) => {
      if (i) {
        el.append(" ", html("span", { cls: "sep", text: "·", attrs: { "aria-hidden": "true" } }), " "); // spaces: the line may wrap between bounds, never inside one
      }
      const span = html("span", { cls: `bound bound-${name.toLowerCase().replace("+", "")}` });
      span.append(`${name} `, html("b", { text: value }));
      el.append(span);
    });
    el.dataset.lb = known(lb) ? String(lb) : "";
    el.dataset.tiles = (result?.tiles || []).join(","); // the position these bounds are of
    const used = selected === "auto" && result?.auto ? `${label || "auto"}: ${result.auto}` : label || selected;
    el.title = `Lower bounds on the number of moves. LB: where the search with the selected bound (${used}) starts.`;
  }

  /** Empty the line, or show `text` (muted) instead of bounds. */
  clear(text = "") {
    const el = this.el;
    el.replaceChildren();
    if (text) {
      el.append(html("span", { cls: "muted", text }));
    }
  }
}

// ------------------------------------------------------------------ playback controls
function icon(path) {
  const el = svg("svg", { viewBox: "0 0 24 24", width: 22, height: 22, "aria-hidden": "true", focusable: "false" });
  el.append(svg("path", { fill: "currentColor", d: path }));
  return el;
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
    $("results").classList.add("used"); // its room is kept from now on (app.css .results)
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
