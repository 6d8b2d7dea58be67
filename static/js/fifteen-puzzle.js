// <fifteen-puzzle tiles="..." goal="..." shape="..." bound="..." speed="4" preload>: a playable board with
// Solve and Stop, for any page (docs/embed.md).  Defined when static/js/fifteen.js (or this
// module) is imported: one script tag.
//
// A click on a tile in the gap's row or column slides it (and those between); the arrow keys
// slide a tile into the gap.  Solve finds a shortest solution with the solver (shared by every
// element of the page unless one is given: `element.solver = createSolver()`), then plays it on
// the board; Stop ends the search or the playback.  Events (bubbling, composed), each with its
// `detail`: fifteen-move {tile, direction, tiles}, fifteen-goal {tiles}, fifteen-progress
// {progress}, fifteen-solution {result} (the JSON of `fifteen solve --json`), fifteen-error
// {message, type, code}.

import { Board, GOALS, inferShape, isPermutation, isSolvable, parseShape } from "./model/board.js";
import { EmbeddedSolver } from "./solver/embedded-solver.js";
import { PuzzleView } from "./view/puzzle-view.js";

/** The blank's move for each arrow key: the tile beside the gap slides the arrow's way. */
const KEY_MOVES = { ArrowLeft: "R", ArrowRight: "L", ArrowUp: "D", ArrowDown: "U" };
/** Moves per second of a solution's playback (the `speed` attribute's default). */
const SPEED = 4;
const count = (n) => Number(n).toLocaleString("en-US");

let shared = null;
/** The solver of every element not given one, started at the first element that needs it. */
export const sharedSolver = () => (shared ||= new EmbeddedSolver());

/** Tiles from text ("1 2 3 ... 0", blank 0, _ or .), or null. */
function parseTiles(text) {
  const tokens = String(text).trim().split(/[\s,;]+/).filter(Boolean);
  const tiles = tokens.map((t) => (t === "_" || t === "." ? 0 : /^\d+$/.test(t) ? Number(t) : NaN));
  return tiles.length && tiles.every(Number.isInteger) ? tiles : null;
}

/** The Board of the element's attributes, or a sentence saying why there is none. */
function boardOf({ tiles, goal, shape }) {
  const given = tiles === null ? null : parseTiles(tiles);
  if (tiles !== null && !given) return `tiles="${tiles}" is not a list of numbers`;
  const named = shape || (given ? inferShape(given.length) : "4x4");
  const dims = parseShape(named);
  if (!dims) return given ? `${given.length} tiles: give the shape (shape="3x4")` : `shape="${shape}" is not RxC`;
  const n = dims.rows * dims.cols;
  const target = !goal ? null : GOALS[goal] ? GOALS[goal](dims.rows, dims.cols) : parseTiles(goal);
  if (goal && !isPermutation(target, n)) return `goal="${goal}" is not a goal of a ${named} board`;
  if (given && !isPermutation(given, n)) return `tiles="${tiles}" are not the numbers 0 to ${n - 1}, each once`;
  if (given && !isSolvable(given, dims.rows, dims.cols, target)) return "this position cannot reach the goal (swap two tiles)";
  return new Board(dims.rows, dims.cols, given, target);
}

export class FifteenPuzzle extends HTMLElement {
  static observedAttributes = ["tiles", "goal", "shape", "bound"]; // (speed is read at each move)

  #view;
  #board = null;
  #solver = null;
  #job = null; // the running solve's AbortController
  #playback = 0; // the playback's timer
  #busy = false;

  constructor() {
    super();
    this.#view = new PuzzleView(this.attachShadow({ mode: "open" }));
    this.#view.board.addEventListener("click", (event) => {
      const tile = Number(event.target.closest?.(".tile")?.dataset.tile);
      if (tile && this.#board) this.#slide(this.#board.pathToSquare(this.#board.tiles.indexOf(tile)));
    });
    this.#view.board.addEventListener("keydown", (event) => {
      if (!KEY_MOVES[event.key] || !this.#board) return;
      event.preventDefault();
      this.#slide([KEY_MOVES[event.key]]);
    });
    this.#view.solveButton.addEventListener("click", () => this.solve());
    this.#view.stopButton.addEventListener("click", () => this.stop());
  }

  connectedCallback() {
    this.#reset();
    if (this.hasAttribute("preload")) this.solver.ready().catch(() => {});
  }

  disconnectedCallback() {
    this.stop();
  }

  attributeChangedCallback() {
    if (this.isConnected) this.#reset();
  }

  /** The solver Solve uses: the page's shared one unless one was set (createSolver()). */
  get solver() {
    return this.#solver || sharedSolver();
  }

  set solver(solver) {
    this.#solver = solver;
  }

  /** The position shown (numbers, 0 the blank); setting it sets the `tiles` attribute. */
  get tiles() {
    return this.#board ? this.#board.tiles.slice() : [];
  }

  set tiles(tiles) {
    this.setAttribute("tiles", Array.isArray(tiles) ? tiles.join(" ") : String(tiles));
  }

  /** Whether a solve or a playback runs. */
  get busy() {
    return this.#busy;
  }

  #emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  #render() {
    if (this.#board) this.#view.render(this.#board, { busy: this.#busy });
    this.#view.buttons({ running: this.#busy });
    this.#view.solveButton.disabled ||= !this.#board;
  }

  #reset() {
    this.#job?.abort(); // (its solve then returns null quietly: it is no longer the element's job)
    this.#job = null;
    clearTimeout(this.#playback);
    this.#playback = 0;
    this.#busy = false;
    const board = boardOf({ tiles: this.getAttribute("tiles"), goal: this.getAttribute("goal"), shape: this.getAttribute("shape") });
    if (typeof board === "string") {
      this.#board = null;
      this.#render();
      this.#view.say(`This position cannot be used: ${board}.`);
      this.#emit("fifteen-error", { message: board, type: "input", code: "param" });
      return;
    }
    this.#board = board;
    this.#render();
    this.#view.say(board.isGoal() ? "Solved." : "Slide the tiles, or press Solve.");
  }

  /** Move the blank along `directions` (the user's move). */
  #slide(directions) {
    if (this.#busy || !directions.length) return;
    for (const d of directions) {
      const tile = this.#board.moveBlank(d);
      if (tile) this.#emit("fifteen-move", { tile, direction: d, tiles: this.tiles });
    }
    this.#render();
    if (this.#board.isGoal()) {
      this.#view.say("Solved.");
      this.#emit("fifteen-goal", { tiles: this.tiles });
    } else {
      this.#view.say("Slide the tiles, or press Solve.");
    }
  }

  /**
   * Solve the position shown and play the solution; resolves with the result (the JSON of
   * `fifteen solve --json`), or null when stopped or failed (a fifteen-error event says why).
   */
  async solve() {
    if (this.#busy || !this.#board) return null;
    const board = this.#board;
    const job = new AbortController();
    this.#job = job;
    this.#busy = true;
    this.#render();
    this.#view.say(this.solver.info ? "Searching…" : "Loading the solver…");
    const onProgress = (p) => {
      if (this.#job !== job) return;
      this.#emit("fifteen-progress", { progress: p });
      if (p.kind === "anytime") this.#view.say(`${count(p.length)} moves found · optimal ≥ ${p.lower_bound}`);
      else if (p.bound) this.#view.say(`Searching: shortest solution ≥ ${p.bound} moves, ${count(p.nodes)} nodes`);
    };
    try {
      const result = await this.solver.solve(board.text(), {
        shape: board.shape,
        goal: board.goalName === "standard" ? undefined : board.goal,
        bound: this.getAttribute("bound") || undefined,
        onProgress,
        signal: job.signal,
      });
      if (this.#job !== job) return null;
      this.#job = null;
      this.#emit("fifteen-solution", { result });
      this.#play(result);
      return result;
    } catch (e) {
      if (this.#job !== job) return null;
      this.#job = null;
      this.#busy = false;
      this.#render();
      if (job.signal.aborted) {
        this.#view.say("Stopped.");
      } else {
        this.#view.say(`The solver failed: ${e.message}`);
        this.#emit("fifteen-error", { message: e.message, type: e.type, code: e.code });
      }
      return null;
    }
  }

  /** Moves per second of the playback: the `speed` attribute (0.5 to 60), else SPEED. */
  get speed() {
    const speed = Number(this.getAttribute("speed"));
    return speed > 0 ? Math.min(60, Math.max(0.5, speed)) : SPEED;
  }

  /** Play `result`'s moves on the board, `speed` a second. */
  #play(result) {
    const moves = [...result.directions];
    const what = result.optimal === false ? `${count(result.length)} moves (optimal ≥ ${result.lower_bound})` : `${count(result.length)} moves, the shortest`;
    const searched = `${count(result.nodes)} nodes searched`;
    let done = 0;
    const step = () => {
      if (done === moves.length) {
        this.#playback = 0;
        this.#busy = false;
        this.#render();
        this.#view.say(`Solved in ${what} (${searched}).`);
        if (this.#board.isGoal()) this.#emit("fifteen-goal", { tiles: this.tiles });
        return;
      }
      this.#board.moveBlank(moves[done++]);
      this.#render();
      this.#view.say(`Solution: ${what}; move ${done} of ${moves.length}`);
      this.#playback = setTimeout(step, 1000 / this.speed);
    };
    this.#view.say(`Solution: ${what} (${searched})`);
    this.#playback = setTimeout(step, 1000 / this.speed);
  }

  /** Stop the search or the playback (the board stays where it is). */
  stop() {
    if (this.#job) {
      this.#job.abort();
      return;
    }
    if (this.#playback) {
      clearTimeout(this.#playback);
      this.#playback = 0;
      this.#busy = false;
      this.#render();
      this.#view.say("Stopped.");
    }
  }
}

if (!customElements.get("fifteen-puzzle")) customElements.define("fifteen-puzzle", FifteenPuzzle);
