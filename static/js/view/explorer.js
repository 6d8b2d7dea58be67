// View of the small-board explorer and of hints: the histogram (one button per
// distance, so a bar is keyboard-operable), the hardest positions, the current
// position's exact distance and optimal moves, and the hint card.  Writes the
// DOM only; every decision is control/lab.js's.  A bar's height is a CSS custom
// property set through the CSSOM (allowed by style-src 'self').

import { $, html } from "./dom.js";
import { PackView } from "./solve.js";

const count = (n) => n.toLocaleString("en-US");
const moveText = (m) => `${m.tile} (${m.direction})`;

/** The words of an optional explorer table's panel (its pack's label names the board). */
const TABLE_PACK = Object.freeze({
  about: "An optional table of this board's exact distances.",
  memory: "needs memory while loading",
  progress: "Downloading the table",
  button: "Download the table",
  noun: (pack) => `the ${shapeOf(pack)} table`,
  download: (pack, size) => `Download the ${shapeOf(pack)} table (${size})`,
  loaded: (pack) => `The ${shapeOf(pack)} table is loaded and kept for offline use.`,
});
const shapeOf = (pack) => (pack.shapes || []).join(" and ").replace(/x/g, "×");

export class ExplorerView {
  constructor() {
    this.pack = new PackView({ prefix: "explorer-pack", panel: "explorer-pack", words: TABLE_PACK });
  }

  isOpen() {
    return $("lab-explorer").open;
  }

  /** The board menu: [[value, label]], after a "Choose a board" entry (the board shown may have no table). */
  setShapes(shapes, selected) {
    const choose = html("option", { text: "Choose a board…", attrs: { value: "", disabled: "" } });
    $("explorer-shape").replaceChildren(choose, ...shapes.map(([v, l]) => html("option", { text: l, attrs: { value: v } })));
    this.selectShape(selected);
  }

  /** Show `shape` in the menu; "Choose a board…" when the menu does not list it. */
  selectShape(shape) {
    const listed = [...$("explorer-shape").options].some((o) => o.value === shape && shape);
    $("explorer-shape").value = listed ? shape : "";
  }

  status(text) {
    $("explorer-status").textContent = text;
  }

  /** No table for this board: say so and hide the rest. */
  noTable(text) {
    $("explorer-info").hidden = true;
    $("explorer-position").replaceChildren();
    $("lab-explorer").dataset.shape = "";
    this.status(text);
  }

  /**
   * info: fifteen's explore_info result; onBar(distance) and onHardest(tiles)
   * are called by input/lab-input.js through the buttons' data attributes.
   */
  renderInfo(info) {
    $("explorer-info").hidden = false;
    $("lab-explorer").dataset.shape = info.shape;
    $("explorer-summary").textContent =
      `${info.shape}: ${count(info.positions)} positions, radius ${info.radius} (${count(info.hardest_count)} at it)` +
      (info.transposed ? `, read from the ${info.table_shape} table transposed.` : ".");
    const top = Math.max(...info.histogram);
    const bars = info.histogram.map((n, d) => {
      const b = html("button", {
        cls: "bar",
        attrs: { type: "button", "data-distance": d, "aria-label": `Distance ${d}: ${count(n)} positions. Load a random one.`, title: `${d} moves: ${count(n)}` },
      });
      b.style.setProperty("--h", String(Math.max(0.01, Math.log10(n + 1) / Math.log10(top + 1))));
      // a label every 5 moves (and at the radius): the bars may be narrower than a number
      if (d % 5 === 0 || d === info.histogram.length - 1) b.append(html("span", { cls: "bar-label", text: String(d), attrs: { "aria-hidden": "true" } }));
      return b;
    });
    $("explorer-histogram").replaceChildren(...bars);
    $("explorer-hardest").replaceChildren(
      ...info.hardest.slice(0, 20).map((tiles) => {
        const li = html("li");
        li.append(html("button", { cls: "btn btn-quiet mono", text: tiles.join(" "), attrs: { type: "button", "data-tiles": tiles.join(","), "aria-label": `Load ${tiles.join(" ")}` } }));
        return li;
      }),
    );
  }

  /** The shown bar (the board's distance). */
  markDistance(d) {
    for (const b of $("explorer-histogram").querySelectorAll(".bar")) b.classList.toggle("current", Number(b.dataset.distance) === d);
  }

  /** pos: fifteen's explore_position result. */
  renderPosition(pos) {
    const el = $("explorer-position");
    el.dataset.distance = String(pos.distance);
    el.dataset.optimal = pos.optimal.map((m) => m.tile).join(",");
    const p = html("p");
    p.append(html("strong", { text: `Exact distance ${pos.distance}` }), document.createTextNode(pos.distance ? ". Every move from here (optimal ones marked):" : ": this is the goal."));
    const ul = html("ul", { cls: "moves-list" });
    for (const m of pos.moves) {
      const li = html("li");
      const b = html("button", {
        cls: `btn ${m.optimal ? "btn-primary" : "btn-quiet"}`,
        text: `${moveText(m)} → ${m.distance}`,
        attrs: { type: "button", "data-direction": m.direction, title: `Slide tile ${m.tile} (the gap moves ${m.direction})` },
      });
      if (m.optimal) b.append(html("span", { text: " ✓", attrs: { "aria-hidden": "true" } }), html("span", { cls: "sr-only", text: " optimal" }));
      li.append(b);
      ul.append(li);
    }
    el.replaceChildren(p, ...(pos.distance ? [ul] : []));
  }

  clearPosition() {
    $("explorer-position").replaceChildren();
  }
}

export class HintView {
  /** The buttons: a hint running shows its Stop instead of the two asks. */
  setRunning(running, { canRun = true } = {}) {
    $("hint-next").disabled = !canRun || running;
    $("hint-all").disabled = !canRun || running;
    $("hint-stop").hidden = !running;
  }

  busy(text) {
    $("hint-apply").hidden = true;
    $("hint-result").textContent = text;
  }

  /** hint: fifteen's hint result. */
  render(hint) {
    const el = $("hint-result");
    el.dataset.distance = String(hint.distance);
    el.dataset.tile = hint.next ? String(hint.next.tile) : "";
    el.dataset.direction = hint.next ? hint.next.direction : "";
    if (!hint.next) {
      el.textContent = "Solved: no move needed.";
      $("hint-apply").hidden = true;
      return;
    }
    this.markTiles([hint.next.tile, ...(hint.optimal || []).map((m) => m.tile)]);
    let text = `Next optimal move: tile ${moveText(hint.next)}; ${hint.distance} moves from here.`;
    if (hint.optimal) {
      text += ` All optimal moves: ${hint.optimal.map(moveText).join(", ")}.`;
      if (hint.undecided?.length) text += ` Undecided within the node budget: ${hint.undecided.map(moveText).join(", ")}.`;
    }
    el.textContent = text;
    $("hint-apply").hidden = false;
  }

  /** Outline the tiles of the hinted moves on the board (none: []). */
  markTiles(tiles) {
    for (const t of $("board").querySelectorAll(".tile.hinted")) t.classList.remove("hinted");
    for (const n of tiles) $("board").querySelector(`.tile[data-tile="${n}"]`)?.classList.add("hinted");
  }

  clear() {
    this.markTiles([]);
    const el = $("hint-result");
    el.textContent = "";
    delete el.dataset.tile;
    delete el.dataset.distance;
    $("hint-apply").hidden = true;
  }

  error(text) {
    $("hint-result").textContent = text;
    $("hint-apply").hidden = true;
  }
}
