// The shadow DOM of <fifteen-puzzle> (static/js/fifteen-puzzle.js): the board, Solve and Stop,
// and a status line.  Writes the DOM only; the element decides.  Its look is
// static/css/fifteen-puzzle.css (a stylesheet file: the strict CSP allows no inline style),
// themable from outside with CSS custom properties and ::part() (docs/embed.md).

import { html } from "./dom.js";

/** The stylesheet of the element, beside this module's folder (static/css/). */
const STYLESHEET = new URL("../../css/fifteen-puzzle.css", import.meta.url).href;

export class PuzzleView {
  /** Build the element's parts in `root` (its shadow root). */
  constructor(root) {
    const sheet = html("link", { attrs: { rel: "stylesheet", href: STYLESHEET } });
    this.board = html("div", { cls: "board", attrs: { part: "board", role: "group", tabindex: "0" } });
    this.solveButton = html("button", { cls: "solve", text: "Solve", attrs: { type: "button", part: "button solve" } });
    this.stopButton = html("button", { cls: "stop", text: "Stop", attrs: { type: "button", part: "button stop", disabled: "" } });
    const controls = html("div", { cls: "controls", attrs: { part: "controls" } });
    controls.append(this.solveButton, this.stopButton);
    this.status = html("p", { cls: "status", attrs: { part: "status", role: "status", "aria-live": "polite" } });
    const frame = html("div", { cls: "frame", attrs: { part: "frame" } });
    frame.append(this.board, controls, this.status);
    root.replaceChildren(sheet, frame);
    this.tiles = new Map(); // tile number -> button
    this.shape = "";
  }

  /** Show `board` (model/board.js Board); `busy`: a solve or a playback runs (no tile is movable). */
  render(board, { busy = false } = {}) {
    if (this.shape !== board.shape) {
      this.board.replaceChildren();
      this.tiles.clear();
      this.shape = board.shape;
      this.board.style.setProperty("--rows", board.rows);
      this.board.style.setProperty("--cols", board.cols);
      this.board.setAttribute("aria-label", `Sliding puzzle, ${board.rows} by ${board.cols}: arrow keys slide a tile into the gap`);
      for (let t = 1; t < board.tiles.length; t++) {
        const b = html("button", { cls: "tile", attrs: { type: "button", tabindex: "-1", part: "tile", "data-tile": t } });
        b.append(html("span", { text: String(t) }));
        this.board.append(b);
        this.tiles.set(t, b);
      }
    }
    const blank = board.blank;
    board.tiles.forEach((t, i) => {
      if (t === 0) return;
      const b = this.tiles.get(t);
      const r = Math.floor(i / board.cols);
      const c = i % board.cols;
      b.style.setProperty("--r", r);
      b.style.setProperty("--c", c);
      const home = t === board.goal[i];
      b.setAttribute("part", home ? "tile home" : "tile");
      b.classList.toggle("movable", !busy && (r === Math.floor(blank / board.cols) || c === blank % board.cols));
      b.setAttribute("aria-label", `Tile ${t}, row ${r + 1}, column ${c + 1}${home ? ", in place" : ""}`);
    });
    this.board.classList.toggle("busy", busy);
    this.board.classList.toggle("solved", board.isGoal());
  }

  /** Solve and Stop: Solve while nothing runs, Stop while something does. */
  buttons({ running }) {
    this.solveButton.disabled = running;
    this.stopButton.disabled = !running;
  }

  say(text) {
    this.status.textContent = text;
  }
}
