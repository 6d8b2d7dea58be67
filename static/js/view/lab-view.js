// View of the heuristic lab: the Compare bounds card (chart, tables, buttons),
// the bound trace under the playback controls, and the Explain card (with the
// board's tiles coloured).  Writes the DOM only; every decision is control/lab.js's.
// The charts are inline SVG built from model/lab-chart.js's models; colours come from
// classes (app.css), never from style attributes (CSP: style-src 'self').

import { nodesChart, traceChart } from "../model/lab-chart.js";
import { iterationTable, summaryTable } from "../model/lab-table.js";
import { $, html, svg } from "./dom.js";

/** A series' colour class: s-md, s-pdb663, ..., s-left (the staircase). */
const seriesClass = (name) => `s-${String(name).replace(/[^a-z0-9]/gi, "")}`;

// Series are told apart by more than colour (WCAG 1.4.1): each bound has its own dash pattern
// and marker shape, shown in the legend too, and each line of the nodes chart is labelled at its end.
const SERIES_ORDER = ["left", "md", "lc", "id", "wd", "wdid", "pdb555", "pdb663", "pdb771", "pdb78", "pdb55554"];
const DASHES = ["", "", "7 3", "2 3", "9 3 2 3", "", "4 2", "1 2", "6 2 1 2", "12 3", "3 3"];
const MARKERS = ["circle", "circle", "square", "triangle", "diamond", "down", "square", "diamond", "down", "triangle", "circle"];

/** The index of a series' style (a name the list does not know: by its characters). */
function seriesIndex(name) {
  const i = SERIES_ORDER.indexOf(name);
  return i >= 0 ? i : 1 + ([...String(name)].reduce((a, c) => a + c.charCodeAt(0), 0) % (SERIES_ORDER.length - 1));
}

/** A series' look besides its colour: its dash pattern ("" solid) and marker shape. */
export const seriesStyle = (name) => ({ dash: DASHES[seriesIndex(name)], marker: MARKERS[seriesIndex(name)] });

/** The dash pattern of a series' line (a presentation attribute: no style attribute under the CSP). */
const dashAttrs = (name) => {
  const { dash } = seriesStyle(name);
  return dash ? { "stroke-dasharray": dash } : {};
};

/** A series' marker at (x, y) of radius r: an SVG element (a circle or a path). */
function marker(name, x, y, r, attrs = {}) {
  const shape = seriesStyle(name).marker;
  if (shape === "circle") return svg("circle", { cx: x, cy: y, r, ...attrs });
  const k = r * 1.25;
  const d = {
    square: `M${x - r} ${y - r}h${2 * r}v${2 * r}h${-2 * r}Z`,
    triangle: `M${x} ${y - k}L${x + k} ${y + r}L${x - k} ${y + r}Z`,
    down: `M${x} ${y + k}L${x + k} ${y - r}L${x - k} ${y - r}Z`,
    diamond: `M${x} ${y - k}L${x + k} ${y}L${x} ${y + k}L${x - k} ${y}Z`,
  }[shape];
  return svg("path", { d, ...attrs });
}

/** The legend's picture of a series: a short line in its dash pattern with its marker. */
function seriesIcon(name) {
  const icon = svg("svg", { class: `series-icon ${seriesClass(name)}`, viewBox: "0 0 28 12", width: 28, height: 12, "aria-hidden": "true", focusable: "false" });
  icon.append(svg("line", { x1: 1, x2: 27, y1: 6, y2: 6, ...dashAttrs(name) }), marker(name, 14, 6, 3.5));
  return icon;
}

/** Labels at the lines' ends ({name, x, y}), moved apart vertically so that none overlaps another. */
function endLabels(el, ends, gap = 11) {
  const placed = [];
  for (const e of [...ends].sort((a, b) => a.y - b.y)) {
    const y = placed.length ? Math.max(e.y - 6, placed[placed.length - 1] + gap) : e.y - 6;
    placed.push(y);
    el.append(svg("text", { class: `series-label ${seriesClass(e.name)}`, x: e.x - 5, y, "text-anchor": "end" }, e.name));
  }
}

/** Axes, grid and tick labels of a chart model into `el` (an <svg>). */
function drawAxes(el, model, { xLabel, yLabel }) {
  const { frame: f } = model;
  el.setAttribute("viewBox", `0 0 ${model.width} ${model.height}`);
  const g = svg("g", { class: "axes", "aria-hidden": "true" });
  for (const t of model.yTicks) {
    g.append(svg("line", { class: "grid", x1: f.x0, x2: f.x1, y1: t.pos, y2: t.pos }));
    g.append(svg("text", { class: "tick", x: f.x0 - 4, y: t.pos + 3, "text-anchor": "end" }, t.label));
  }
  for (const t of model.xTicks) {
    g.append(svg("line", { class: "tickmark", x1: t.pos, x2: t.pos, y1: f.y0, y2: f.y0 + 4 }));
    g.append(svg("text", { class: "tick", x: t.pos, y: f.y0 + 14, "text-anchor": "middle" }, t.label));
  }
  g.append(svg("line", { class: "axis", x1: f.x0, x2: f.x1, y1: f.y0, y2: f.y0 }));
  g.append(svg("line", { class: "axis", x1: f.x0, x2: f.x0, y1: f.y0, y2: f.y1 }));
  g.append(svg("text", { class: "axis-label", x: (f.x0 + f.x1) / 2, y: model.height - 4, "text-anchor": "middle" }, xLabel));
  g.append(svg("text", { class: "axis-label", x: 10, y: (f.y0 + f.y1) / 2, "text-anchor": "middle", transform: `rotate(-90 10 ${(f.y0 + f.y1) / 2})` }, yLabel));
  el.append(g);
}

function legend(ul, items) {
  ul.replaceChildren(
    ...items.map(({ name, label, note }) => {
      const li = html("li", { cls: "legend-item" });
      li.append(seriesIcon(name), html("span", { text: `${name}${label ? ` — ${label}` : ""}${note ? ` ${note}` : ""}` }));
      return li;
    }),
  );
}

function fillRows(tbody, rows, decorate = () => {}) {
  tbody.replaceChildren(
    ...rows.map((row, i) => {
      const tr = html("tr");
      row.forEach((cell, j) => tr.append(html(j === 0 ? "th" : "td", { text: cell, attrs: j === 0 ? { scope: "row" } : {} })));
      decorate(tr, i);
      return tr;
    }),
  );
}

// ------------------------------------------------------------------ compare bounds
export class CompareView {
  /** The preset menu: [{id, name, optimal}]. */
  setPresets(presets) {
    $("lab-preset").append(...presets.map((p) => html("option", { text: `${p.name} — ${p.optimal} moves`, attrs: { value: p.id } })));
  }

  selectPreset(id, text = "") {
    $("lab-preset").value = id;
    $("lab-preset-text").textContent = text;
  }

  /** One checkbox per bound: [{name, label, checked}]. */
  setBounds(bounds, { disabled = false } = {}) {
    const fs = $("lab-bounds");
    const legendEl = fs.querySelector("legend");
    fs.replaceChildren(
      legendEl,
      ...bounds.map(({ name, label, checked }) => {
        const l = html("label", { cls: "check" });
        const box = html("input", { attrs: { type: "checkbox", value: name } });
        box.checked = checked;
        box.disabled = disabled;
        l.append(box, seriesIcon(name), html("span", { text: `${name} (${label})` }));
        return l;
      }),
    );
  }

  setBudget(text) {
    $("lab-budget").value = text;
  }

  budgetError(message) {
    $("lab-budget").setAttribute("aria-invalid", message ? "true" : "false");
    if (message) this.status(message);
  }

  /** Buttons for the state: idle (can run?) or running. */
  setRunning(running, { canRun = true, hasResult = false } = {}) {
    $("lab-run").hidden = running;
    $("lab-run").disabled = !canRun;
    $("lab-skip").hidden = !running;
    $("lab-stop").hidden = !running;
    for (const box of $("lab-bounds").querySelectorAll("input")) box.disabled = running;
    $("lab-budget").disabled = running;
    $("lab-preset").disabled = running;
    for (const id of ["lab-copy-tsv", "lab-copy-md", "lab-share"]) $(id).disabled = running || !hasResult;
    $("lab-compare").dataset.state = running ? "running" : hasResult ? "done" : "idle";
  }

  /** The comparison's own link ("" hides it). */
  shareLink(href) {
    $("lab-share-link").hidden = !href;
    $("lab-share-link").href = href || "#";
  }

  /** A comparison ended (#lab-compare[data-runs] counts them: a hook for automation). */
  ended(count) {
    $("lab-compare").dataset.runs = String(count);
  }

  focusStop() {
    $("lab-stop").focus();
  }

  focusRun() {
    $("lab-run").focus();
  }

  status(text) {
    $("lab-status").textContent = text;
  }

  /** The comparison so far: runs (model/lab-table.js's run objects), optimum (or null), labels {name: label}. */
  render(runs, { optimum = null, labels = {} } = {}) {
    const el = $("lab-chart");
    el.replaceChildren();
    const model = nodesChart(runs, { optimum });
    drawAxes(el, model, { xLabel: "cost bound of the iteration", yLabel: "nodes" });
    if (model.optimum) {
      const f = model.frame;
      el.append(svg("line", { class: "optimum", x1: model.optimum.x, x2: model.optimum.x, y1: f.y0, y2: f.y1 }));
      el.append(svg("text", { class: "optimum-label", x: model.optimum.x - 4, y: f.y1 + 10, "text-anchor": "end" }, `optimum ${model.optimum.value}`));
    }
    const ends = [];
    for (const line of model.lines) {
      const g = svg("g", { class: `series ${seriesClass(line.name)}${line.finished ? "" : " unfinished"}` });
      g.append(svg("path", { d: line.d, ...dashAttrs(line.name) }));
      for (const p of line.points) {
        const c = marker(line.name, p.x, p.y, 3.5, { class: p.finished ? "" : "open" });
        c.append(svg("title", {}, `${line.name}: ${p.nodes.toLocaleString("en-US")} nodes at bound ${p.bound}${p.finished ? "" : " (unfinished)"}`));
        g.append(c);
      }
      el.append(g);
      const last = line.points[line.points.length - 1];
      if (last) ends.push({ name: line.name, x: last.x, y: last.y });
    }
    endLabels(el, ends);
    legend(
      $("lab-legend"),
      runs.map((r) => ({ name: r.name, label: labels[r.name], note: r.finished ? "" : r.running ? "(running)" : r.iterations?.length ? "(unfinished)" : "" })),
    );
    const summary = summaryTable(runs);
    fillRows($("lab-summary").tBodies[0], summary.rows, (tr, i) => {
      const r = runs[i];
      tr.dataset.bound = r.name;
      tr.dataset.finished = r.finished ? "true" : "false";
      tr.dataset.length = r.length ?? "";
      tr.dataset.nodes = String(r.nodes ?? 0);
      tr.classList.toggle("running", !!r.running);
    });
    const its = iterationTable(runs);
    const head = html("tr");
    its.header.forEach((h) => head.append(html("th", { text: h, attrs: { scope: "col" } })));
    $("lab-iterations").tHead.replaceChildren(head);
    fillRows($("lab-iterations").tBodies[0], its.rows);
  }

  /** Open the card (a comparison link). */
  open() {
    $("lab-compare").open = true;
  }
}

// ------------------------------------------------------------------ bound trace
export class TraceView {
  hide() {
    $("trace-panel").hidden = true;
  }

  note(text) {
    $("trace-note").textContent = text;
  }

  /** trace: fifteen's trace result; step: the playback's position in the solution. */
  render(trace, step, labels = {}) {
    $("trace-panel").hidden = false;
    const el = $("trace-chart");
    el.replaceChildren();
    const model = traceChart(trace, { step });
    drawAxes(el, model, { xLabel: "step of the solution", yLabel: "moves" });
    for (const line of model.lines) {
      const g = svg("g", { class: `series trace-line ${seriesClass(line.name)}` });
      g.append(svg("path", { d: line.d, ...dashAttrs(line.name) }));
      el.append(g);
    }
    if (model.marker) {
      const f = model.frame;
      el.append(svg("line", { class: "marker", x1: model.marker.x, x2: model.marker.x, y1: f.y0, y2: f.y1 }));
    }
    legend($("trace-legend"), [{ name: "left", label: "moves left (exact)" }, ...(trace.names || []).map((n) => ({ name: n, label: labels[n] }))]);
    const i = Math.min(step ?? 0, (trace.remaining || []).length - 1);
    const values = (trace.names || []).map((n) => `${n} ${trace.values[n][i]}`).join(", ");
    this.note(`Step ${i}: ${trace.remaining[i]} moves left; ${values}.`);
    $("trace-panel").dataset.step = String(i);
  }
}

// ------------------------------------------------------------------ explain
const GROUP_CLASSES = 4; // group-0 .. group-3 in app.css

export class ExplainView {
  constructor() {
    this.colour = { lc: [], groups: [] };
  }

  isOpen() {
    return $("lab-explain").open;
  }

  /** The colour choices: "", "lc", then one per pattern database ("pdb663", "pdb663r", ...). */
  setColourChoices(choices, selected) {
    const fs = $("explain-colour");
    const legendEl = fs.querySelector("legend");
    fs.replaceChildren(
      legendEl,
      ...choices.map(([value, label]) => {
        const l = html("label");
        const r = html("input", { attrs: { type: "radio", name: "explain-colour", value } });
        r.checked = value === selected;
        l.append(r, document.createTextNode(` ${label}`));
        return l;
      }),
    );
  }

  message(text) {
    $("explain-body").replaceChildren(html("p", { cls: "help", text }));
  }

  /** ex: fifteen's explain result. */
  render(ex, labels = {}) {
    const body = $("explain-body");
    const parts = [];
    const section = (title, ...children) => {
      const s = html("section", { cls: "explain-part" });
      s.append(html("h3", { text: title }), ...children);
      parts.push(s);
    };
    const tiles = ex.md.tiles.map((d, t) => (t ? `${t}:${d}` : null)).filter(Boolean); // indexed by tile number
    section(`Manhattan distance ${ex.md.value}`, html("p", { cls: "mono", text: `tile:distance  ${tiles.join("  ")}` }));
    const lcLines = ex.lc.lines.filter((l) => l.extra > 0).map((l) => `${l.axis} ${l.index + 1}: [${l.tiles.join(", ")}] keeps [${l.kept.join(", ")}], out [${l.removed.join(", ")}] +${l.extra}`);
    section(
      `Linear conflict ${ex.lc.value} = MD ${ex.md.value} + ${ex.lc.extra}`,
      html("p", { text: lcLines.length ? lcLines.join("; ") : "No two tiles of a line are in each other's way." }),
    );
    if (ex.id) {
      const axis = (name, a) => html("li", { text: `${name}: ${a.inversions} inversions, a move jumps ${a.jump} tiles: ${a.formula}` });
      const ul = html("ul");
      ul.append(axis("vertical", ex.id.vertical), axis("horizontal", ex.id.horizontal));
      section(`Inversion distance ${ex.id.value} = ${ex.id.vertical.moves} + ${ex.id.horizontal.moves}`, ul);
    }
    if (ex.wd) {
      const table = (axisName, a, what) => {
        const t = html("table", { cls: "wd-table" });
        t.append(html("caption", { text: `${axisName}: ${what} r holds k tiles whose home ${what} is g (gap in ${what} ${a.blank + 1}); ${a.distance} moves` }));
        const head = html("tr");
        head.append(html("th", { text: `${what} \\ g`, attrs: { scope: "col" } }), ...a.counts[0].map((_, g) => html("th", { text: `g=${g + 1}`, attrs: { scope: "col" } })));
        const thead = html("thead");
        thead.append(head);
        const tbody = html("tbody");
        a.counts.forEach((row, r) => {
          const tr = html("tr");
          tr.append(html("th", { text: `${what} ${r + 1}`, attrs: { scope: "row" } }), ...row.map((k) => html("td", { text: String(k) })));
          tbody.append(tr);
        });
        t.append(thead, tbody);
        return t;
      };
      const wrap = html("div", { cls: "wd-tables" });
      wrap.append(table("vertical", ex.wd.vertical, "row"), table("horizontal", ex.wd.horizontal, "column"));
      section(`Walking distance ${ex.wd.value} = ${ex.wd.vertical.distance} + ${ex.wd.horizontal.distance}`, wrap);
    }
    if (ex.wdid) section(`WD+ID ${ex.wdid.value} = max(WD, ID) vertical ${ex.wdid.vertical} + horizontal ${ex.wdid.horizontal}`);
    for (const [name, p] of Object.entries(ex.pdb || {})) {
      const ul = html("ul");
      const lookup = (what, l) => {
        if (!l) return;
        const groups = l.groups.map((g, i) => `group ${i + 1} [${g.tiles.join(" ")}] ${g.value}`).join(" + ");
        ul.append(html("li", { text: `${what}: ${groups} = ${l.value}` }));
      };
      lookup("plain", p.plain);
      lookup("reflected", p.reflected);
      section(`${labels[name] || p.label || name}: ${p.value}`, ul);
    }
    body.replaceChildren(...parts);
  }

  /** Colour the board's tiles: lcOut = tiles the linear conflict takes out; groups = [[tiles], ...]. */
  colourBoard({ lcOut = [], groups = [] } = {}) {
    this.colour = { lc: lcOut, groups };
    this.applyColour();
  }

  /** Re-apply the colours (the board view may have rebuilt its tiles). */
  applyColour() {
    const board = $("board");
    for (const tile of board.querySelectorAll(".tile")) {
      tile.classList.remove("lc-out");
      for (let i = 0; i < GROUP_CLASSES; i++) tile.classList.remove(`group-${i}`);
    }
    board.classList.toggle("coloured", this.colour.lc.length > 0 || this.colour.groups.length > 0);
    const tileEl = (t) => board.querySelector(`.tile[data-tile="${t}"]`);
    for (const t of this.colour.lc) tileEl(t)?.classList.add("lc-out");
    this.colour.groups.forEach((g, i) => g.forEach((t) => tileEl(t)?.classList.add(`group-${i % GROUP_CLASSES}`)));
  }
}
