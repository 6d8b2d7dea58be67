// View of what runs: the loading steps (runtime, solver, databases) and a
// solve's live progress (bound, nodes, rate, iterations, estimate).

import { Stage, LoadState } from "../solver/protocol.js";
import { currentIteration, estimateText, formatBytes, formatCount, formatSeconds, lowerBoundText, nodeRate } from "../model/format.js";

import { $, html, keepInView } from "./dom.js";

const span = (cls) => html("span", { cls });

// ------------------------------------------------------------------ loading steps
const STAGE_NAMES = { [Stage.RUNTIME]: "Python runtime", [Stage.SOLVER]: "Solver", [Stage.DATABASES]: "Database" };

/**
 * The loading steps.  Nothing moves while they run (an animation has the compositor draw
 * every frame, CPU taken from the start: app.css): a step under way shows, once a second, the
 * whole seconds it has taken so far after its size ("12.9 MB · 3 s").
 */
export class LoadingView {
  constructor() {
    this.card = $("loading-card");
    this.list = $("loading-steps");
    this.items = new Map();
    this.ticker = 0; // the interval that shows the seconds of the steps under way
  }

  /** Start afresh; `show`: the card comes into view (not for a restart after a stop). */
  reset({ show = true } = {}) {
    this.list.replaceChildren();
    this.items.clear();
    this.tick();
    $("loading-summary").textContent = "";
    if (show) this.card.hidden = false;
  }

  show() {
    this.card.hidden = false;
  }

  hide() {
    this.card.hidden = true;
  }

  item(key, label) {
    let li = this.items.get(key);
    if (!li) {
      li = html("li");
      const mark = span("mark");
      mark.setAttribute("aria-hidden", "true");
      li.append(mark, span("label"), span("size"));
      this.list.append(li);
      this.items.set(key, li);
    }
    if (label) li.querySelector(".label").textContent = label;
    return li;
  }

  /** A step under way: its size text (`size`, kept for the ticker) and its seconds so far. */
  active(li, size) {
    if (li.className !== "active") {
      li.className = "active";
      li.since = performance.now();
    }
    li.sizeText = size;
    this.showActive(li);
    if (!this.ticker) this.ticker = setInterval(() => this.tick(), 1000);
  }

  showActive(li) {
    const seconds = Math.floor((performance.now() - li.since) / 1000);
    li.querySelector(".size").textContent = [li.sizeText, seconds >= 1 ? `${seconds} s` : ""].filter(Boolean).join(" · ");
  }

  /** Once a second while a step is under way: show its seconds; stop when none is. */
  tick() {
    const active = [...this.items.values()].filter((li) => li.className === "active");
    for (const li of active) this.showActive(li);
    if (!active.length) {
      clearInterval(this.ticker);
      this.ticker = 0;
    }
  }

  /** msg: a LOADING message; sizes: {stage: bytes} known in advance (build-info.json). */
  update(msg, sizes) {
    const key = msg.stage === Stage.DATABASES ? `db:${msg.label}` : msg.stage;
    const label =
      msg.stage === Stage.DATABASES
        ? `Database ${msg.label}`
        : `${STAGE_NAMES[msg.stage] || msg.stage}${msg.state === LoadState.DONE && msg.label ? ` — ${msg.label}` : ""}`;
    const before = this.items.get(key);
    // a late progress report (a download counted on a copy that streams on) never undoes DONE
    if (msg.state === LoadState.PROGRESS && before?.className === "done") return;
    const li = this.item(key, label);
    const size = li.querySelector(".size");
    // a size is a download: none for what the offline cache served (msg.cached)
    const known = msg.cached ? 0 : msg.bytes || sizes[msg.stage] || 0;
    if (msg.state === LoadState.START) {
      this.active(li, known ? formatBytes(known) : "");
    } else if (msg.state === LoadState.PROGRESS && msg.compiling) {
      li.compiling = true; // the runtime compiles: said beside its download (which may still count on)
      this.active(li, [li.sizeText, "compiling"].filter(Boolean).join(" · "));
    } else if (msg.state === LoadState.PROGRESS) {
      let bar = li.querySelector(".bar");
      if (!bar) {
        bar = span("bar");
        bar.append(html("i"));
        li.append(bar);
      }
      const pct = msg.bytes ? Math.min(100, (100 * msg.loaded) / msg.bytes) : 0;
      bar.firstChild.style.width = `${pct}%`;
      const counted = msg.bytes ? `${formatBytes(msg.loaded)} / ${formatBytes(msg.bytes)}` : formatBytes(msg.loaded);
      this.active(li, li.compiling ? `${counted} · compiling` : counted);
    } else if (msg.state === LoadState.DONE) {
      li.className = msg.missing ? "missing" : "done";
      li.querySelector(".bar")?.remove();
      const bytes = msg.cached ? 0 : msg.bytes || known;
      size.textContent = msg.missing
        ? "missing"
        : msg.snapshot && msg.stage === Stage.DATABASES
          ? "in the snapshot"
          : `${bytes ? `${formatBytes(bytes)} · ` : ""}${formatSeconds(msg.seconds)}`;
      this.tick();
    }
  }

  fail() {
    for (const li of this.items.values()) if (li.className === "active") li.className = "failed";
    this.tick();
  }

  summary(text) {
    $("loading-summary").textContent = text;
  }
}

// ------------------------------------------------------------------ solve progress
/**
 * A solve's live progress: the Bound, Nodes, Nodes/s and Elapsed figures, the line of what is
 * proven, the estimate and the finished iterations.  Elapsed ticks once a second between reports
 * (an anytime answer may report nothing for many seconds): the last report's seconds plus the time
 * since it came.
 */
export class ProgressView {
  constructor() {
    this.root = $("progress");
    this.tbody = document.querySelector("#p-iterations tbody");
    this.limits = null; // the solver's (info.limits): out_of_reach_seconds
    this.clock = null; // {seconds, at}: the last report's seconds and when it came
    this.ticker = 0;
  }

  /** The solver's limits (its info's `limits`), for the estimate. */
  setLimits(limits) {
    this.limits = limits || null;
  }

  reset() {
    this.root.hidden = false;
    $("results").classList.add("used"); // its room is kept from now on (app.css .results)
    this.tbody.replaceChildren();
    $("p-bound").textContent = "–";
    $("p-nodes").textContent = "0";
    $("p-rate").textContent = "–";
    $("p-estimate").textContent = "";
    $("p-lower").textContent = "";
    delete this.root.dataset.anytime;
    delete this.root.dataset.outOfReach;
    delete this.root.dataset.offer;
    this.elapsed(0);
    clearInterval(this.ticker);
    this.ticker = setInterval(() => this.tick(), 1000);
  }

  hide() {
    this.root.hidden = true;
    this.stopClock();
  }

  /** Elapsed: `seconds` as of now (the clock ticks on from there). */
  elapsed(seconds) {
    this.clock = { seconds: seconds || 0, at: performance.now() };
    $("p-elapsed").textContent = formatSeconds(this.clock.seconds);
  }

  tick() {
    if (!this.clock) return;
    $("p-elapsed").textContent = formatSeconds(this.clock.seconds + (performance.now() - this.clock.at) / 1000);
  }

  stopClock() {
    clearInterval(this.ticker);
    this.ticker = 0;
    this.clock = null;
  }

  /**
   * The search was stopped: its figures stay, the running row and the estimate go, and the
   * line under the figures says what it proved (the bound it had reached).
   */
  stopped() {
    this.stopClock();
    if (this.root.hidden) return;
    this.tbody.querySelector("tr.current")?.remove();
    $("p-estimate").textContent = "";
    if (this.root.dataset.anytime) {
      $("p-lower").textContent = `Stopped: ${$("p-lower").textContent.replace(/^Stopped: /, "")}`;
      return;
    }
    const bound = $("p-bound").textContent;
    $("p-lower").textContent = /^\d+$/.test(bound) ? `Stopped: the shortest solution has at least ${bound} moves.` : "Stopped.";
  }

  /** When a solve starts, bring its first figures into view (on a phone), the board kept on the screen. */
  reveal() {
    keepInView($("p-lower"));
  }

  /** Show the last iterations (the table may have just become shorter). */
  scrollToEnd() {
    const wrap = this.tbody.closest(".table-wrap");
    wrap.scrollTop = wrap.scrollHeight;
  }

  /** The finished iterations [{bound, nodes, seconds}] and the running one (`running`: {bound, nodes}), last in view. */
  iterations(its, running = null) {
    const row = (values, className) => {
      const tr = html("tr", { cls: className });
      for (const v of values) tr.append(html("td", { text: v }));
      return tr;
    };
    this.tbody.replaceChildren(
      ...its.map((it, i) => {
        const growth = i > 0 && its[i - 1].nodes > 0 ? `×${(it.nodes / its[i - 1].nodes).toFixed(1)}` : "";
        return row([it.bound, formatCount(it.nodes), growth, formatSeconds(it.seconds)]);
      }),
    );
    if (running) this.tbody.append(row([running.bound, formatCount(running.nodes), "", "running"], "current"));
    this.scrollToEnd();
  }

  /**
   * An anytime search's line (model/anytime.js anytimeText: "82 moves found · optimal ≥ 78"),
   * in the place of the proven bound's; `seconds` since the solve began; `lower` the proven
   * lower bound (the Bound figure); `limit` its time limit.
   */
  anytime(text, seconds, { lower = null, limit = 0 } = {}) {
    this.root.hidden = false;
    if (!this.root.dataset.anytime) $("p-nodes").textContent = "–"; // until a prover reports its nodes
    $("p-lower").textContent = text;
    this.elapsed(seconds);
    if (lower) $("p-bound").textContent = `≥ ${lower}`;
    $("p-estimate").textContent = `Each better solution is shown as it is found. The search stops when it proves one optimal${limit ? `, or after ${formatSeconds(limit)}` : ""}; Cancel keeps the best found.`;
    this.root.dataset.anytime = "true";
  }

  /**
   * An anytime report: a pool's (model/anytime.js AnytimeTally.report), or one worker's (the API's
   * anytime progress, fifteen.anytime.Improvement.progress_json, with no `workers`): the prover's
   * figures, its nodes (finished iterations and the running one's), its finished iterations with
   * the running one, the proven lower bound, and the elapsed time.  The rate only when the prover
   * has a worker of its own: one worker shares its time with the improver, so nodes over the
   * elapsed time would not be the search's rate.
   */
  anytimeWorkers(p) {
    const prover = (p.workers || []).find((w) => w.role === "proving");
    const its = p.iterations || [];
    const nodes = its.reduce((a, it) => a + it.nodes, 0) + (prover?.nodes || 0);
    if (p.seconds !== undefined) this.elapsed(p.seconds);
    if (p.lower_bound) $("p-bound").textContent = `≥ ${p.lower_bound}`;
    if (!its.length && !prover) return;
    $("p-nodes").textContent = formatCount(nodes);
    const rate = prover ? nodeRate({ nodes, seconds: p.seconds }) : null;
    $("p-rate").textContent = rate ? `${formatCount(rate)}/s` : "–";
    const running = prover && prover.threshold >= (p.lower_bound || 0) - 2 && prover.threshold > 0 ? { bound: prover.threshold, nodes: prover.nodes || 0 } : null;
    this.iterations(its, running);
  }

  /**
   * p = {bound, nodes, iteration_nodes, seconds, iterations: [{bound, nodes, seconds}], estimate};
   * suggestion: what to try when the search is out of reach; anytime: the figures are those of
   * the optimal search under an anytime one (its line stays).  Returns {offer, outOfReach}
   * (model/format.js estimateText): a fast answer is the better offer; the search is out of reach here.
   */
  update(p, { suggestion = "", anytime = false } = {}) {
    const its = p.iterations || [];
    p = currentIteration(p);
    $("p-bound").textContent = p.bound ?? "–";
    $("p-nodes").textContent = formatCount(p.nodes);
    const rate = nodeRate(p);
    $("p-rate").textContent = rate ? `${formatCount(rate)}/s` : "–";
    this.elapsed(p.seconds);
    this.iterations(its, p.bound !== undefined ? { bound: p.bound, nodes: p.iteration_nodes } : null);
    // (globalThis.fifteenLimits: an automation's shorter limits, docs/web-app.md "Hooks for automation")
    const limits = globalThis.fifteenLimits ? { ...this.limits, ...globalThis.fifteenLimits } : this.limits;
    const { text, offer, outOfReach } = estimateText(p, rate, { limits, suggestion });
    $("p-estimate").textContent = text;
    this.root.dataset.outOfReach = String(outOfReach);
    this.root.dataset.offer = String(offer);
    if (!anytime) $("p-lower").textContent = lowerBoundText(p.bound);
    return { offer, outOfReach };
  }
}
