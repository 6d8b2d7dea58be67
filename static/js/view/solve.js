// View of the Solve card's results: the solution (with the move being played
// highlighted) and the optional pack's panel.

import { PackPhase } from "../solver/protocol.js";
import { formatCount, formatPackSize, formatSeconds, goalFrameText, packMemoryText } from "../model/format.js";

import { $, html } from "./dom.js";

// ------------------------------------------------------------------ solution
function fillMoves(el, items, sep) {
  el.replaceChildren();
  items.forEach((m, i) => {
    el.append(html("span", { text: m, attrs: { "data-i": i } }));
    if (sep && i < items.length - 1) el.append(sep);
  });
}

export class SolutionView {
  constructor() {
    this.el = $("solution");
  }

  /**
   * result: the api's solve result, or moves a link gave ({moves, directions, length}: `given`,
   * with `optimal` the shortest length when the page knows it); boundLabel: the solve's bound.
   */
  show(result, { boundLabel = "", given = false, optimal = null }) {
    const el = this.el;
    el.hidden = false;
    $("results").classList.add("used"); // its room is kept from now on (app.css .results)
    el.dataset.length = String(result.length);
    el.dataset.moves = result.moves.join(" ");
    el.dataset.directions = result.directions;
    el.dataset.workers = String(result.workers || 1); // the pool's workers that searched
    el.dataset.given = String(given);
    el.dataset.bound = result.bound || "";
    el.dataset.goalFrame = result.goal_frame || "";
    $("solution-length").textContent = String(result.length);
    const unit = result.length === 1 ? "move" : "moves";
    const shortest = given ? optimal === result.length : result.optimal !== false;
    $("solution-unit").textContent = shortest ? `${unit}, optimal` : given ? unit : `${unit}, best found`;
    el.dataset.optimal = String(shortest);
    el.dataset.lowerBound = String(result.lower_bound ?? (shortest ? result.length : ""));
    if (!given && result.optimal === false) {
      // an anytime answer (model/anytime.js): how good it is, said plainly
      const lb = result.lower_bound ?? 0;
      const found = result.nodes ? `${formatCount(result.nodes)} nodes in ${formatSeconds(result.seconds)}` : `Found in ${formatSeconds(result.seconds)}`;
      $("solution-meta").textContent = `${found}: not proven shortest, the shortest solution has at least ${lb} moves (at most ${result.length - lb} more than the shortest).${result.goal_frame ? ` ${goalFrameText(result.goal_frame)}` : ""}`;
    } else if (given) {
      const known = optimal === null ? "Solve to know whether they are the shortest." : shortest ? "None is shorter." : `The shortest solution has ${optimal}.`;
      $("solution-meta").textContent = `The link's moves, checked by replay: they reach the goal. ${known}`;
    } else {
      const rate = result.seconds > 0 ? result.nodes / result.seconds : null;
      // the goal's frame (fifteen.frame): how a goal other than the standard one was searched
      $("solution-meta").textContent =
        `${formatCount(result.nodes)} nodes in ${formatSeconds(result.seconds)}` +
        `${rate ? ` (${formatCount(rate)}/s)` : ""} with the ${boundLabel} bound.${result.goal_frame ? ` ${goalFrameText(result.goal_frame)}` : ""}`;
    }
    fillMoves($("solution-tiles"), result.moves.map(String), " ");
    fillMoves($("solution-dirs"), result.directions.split(""), "");
  }

  hide() {
    const el = this.el;
    el.hidden = true;
    delete el.dataset.length;
    delete el.dataset.moves;
    delete el.dataset.directions;
    delete el.dataset.workers;
    delete el.dataset.given;
    delete el.dataset.bound;
    delete el.dataset.optimal;
    delete el.dataset.lowerBound;
    delete el.dataset.goalFrame;
  }

  /** Mark move i (0-based; -1: none) in both notations, scrolled into view. */
  highlight(i) {
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
}

// ------------------------------------------------------------------ optional pack
/** What the pack panel shows: data-state of #pack-panel. */
export const PackState = Object.freeze({ OFFERED: "offered", DOWNLOADING: "downloading", LOADED: "loaded", ERROR: "error" });

/** The words of the Solve card's pack panel (the explorer's tables have their own: view/explorer.js). */
const HARD_PACK = Object.freeze({
  heading: "Hard positions",
  about: "An optional database that solves the hardest positions far faster.",
  memory: "needs about 400 MB of memory while loading",
  caveat: ", more than some phones can spare",
  progress: "Downloading the pack",
  button: "Download hard-positions pack",
  noun: () => "the hard-positions pack",
  download: (pack, size) => `Download hard-positions pack (${size})`,
  loaded: () => "Hard-positions pack loaded: the strongest bound now uses it.",
});

/**
 * Fill the empty panel `panel` from index.html's #pack-template: its parts get the ids
 * prefix-heading, -note, -memory, -button, -cancel, -progress-label, -progress, -status and the
 * words' texts (heading: none for a panel without one).
 */
function fillPanel(panel, prefix, words) {
  if (panel.childElementCount) return;
  panel.append($("pack-template").content.cloneNode(true));
  const part = (name) => panel.querySelector(`[data-part="${name}"]`);
  for (const name of ["heading", "note", "memory", "button", "cancel", "progress-label", "progress", "status"]) part(name).id = `${prefix}-${name}`;
  if (words.heading) part("heading").textContent = words.heading;
  else part("heading").remove();
  part("about").textContent = words.about;
  part("memory").textContent = words.memory;
  part("caveat").textContent = words.caveat || "";
  part("progress-text").textContent = words.progress;
  part("progress-label").htmlFor = `${prefix}-progress`;
  part("button").textContent = words.button;
  part("button").setAttribute("aria-describedby", `${prefix}-note`);
}

/**
 * An optional pack's panel: its download button (with the size), Cancel, a progress bar and a
 * status line, made from index.html's #pack-template (fillPanel).  `prefix`: the ids' prefix
 * (prefix-button, prefix-cancel, prefix-progress, prefix-progress-label, prefix-status, and
 * prefix-panel or `panel`); `words`: {heading, about, memory, caveat, progress, button: the
 * panel's texts; noun(pack), download(pack, size), loaded(pack)}.
 */
export class PackView {
  constructor({ prefix = "pack", panel = `${prefix}-panel`, words = HARD_PACK } = {}) {
    this.prefix = prefix;
    this.words = words;
    this.panel = $(panel);
    fillPanel(this.panel, prefix, words);
    this.button = $(`${prefix}-button`);
    this.status = $(`${prefix}-status`);
    this.bar = $(`${prefix}-progress`);
    this.lastPct = -1;
    this.lastDecodePct = -1;
  }

  hide() {
    this.panel.hidden = true;
  }

  /** Show `pack` in `state` (PackState); enabled: the download button may be used; error: the last failure. */
  render(pack, state, { enabled, error }) {
    const panel = this.panel;
    panel.hidden = false;
    panel.dataset.file = pack.file;
    panel.dataset.state = state;
    const memory = $(`${this.prefix}-memory`);
    if (memory) memory.textContent = packMemoryText(pack);
    $(`${this.prefix}-progress-label`).hidden = state !== PackState.DOWNLOADING;
    const button = this.button;
    button.hidden = state === PackState.LOADED || state === PackState.DOWNLOADING;
    button.disabled = !enabled;
    $(`${this.prefix}-cancel`).hidden = state !== PackState.DOWNLOADING;
    const size = formatPackSize(pack.bytes);
    // the visible text is the accessible name (no aria-label that could drift from it)
    button.textContent = state === PackState.ERROR ? `Retry downloading ${this.words.noun(pack)} (${size})` : this.words.download(pack, size);
    if (state === PackState.LOADED) {
      this.status.textContent = this.words.loaded(pack);
    } else if (state === PackState.ERROR) {
      const why = /[.!?]$/.test(error) ? error : `${error}.`;
      this.status.textContent = `The pack could not be loaded: ${why} The solver keeps working without it.`;
    } else if (state === PackState.OFFERED) {
      this.status.textContent = "";
    }
  }

  /** A download of `pack` begins: empty bar. */
  begin(pack) {
    this.bar.max = pack.bytes || 1;
    this.bar.value = 0;
    this.lastPct = -1;
    this.lastDecodePct = -1;
    this.status.textContent = `Downloading ${this.words.noun(pack)} (${formatPackSize(pack.bytes)})…`;
  }

  /**
   * p: a LOAD_PACK progress report {phase, loaded, bytes}.  The live region
   * speaks every 10 %, not on every chunk.
   */
  progress(pack, p) {
    if (p.phase === PackPhase.DECODE) {
      // the downloaded xz being decompressed into the solver (the bar stays full)
      const pct = p.bytes ? Math.floor((100 * p.loaded) / p.bytes) : 0;
      if (pct >= this.lastDecodePct + 10 || this.lastDecodePct < 0) {
        this.lastDecodePct = pct;
        this.status.textContent = `Downloaded; unpacking the pack into the solver: ${pct} %…`;
      }
      return;
    }
    const total = p.bytes || pack.bytes || 0;
    if (total) this.bar.max = total;
    this.bar.value = Math.min(p.loaded, this.bar.max);
    const pct = total ? Math.floor((100 * p.loaded) / total) : 0;
    if (p.loaded >= total && total) {
      this.status.textContent = "Downloaded; loading the pack into the solver…";
    } else if (pct >= this.lastPct + 10 || this.lastPct < 0) {
      this.lastPct = pct;
      this.status.textContent = `Downloading ${this.words.noun(pack)}: ${pct} % of ${formatPackSize(total)}…`;
    }
  }

  /** The loaded pack could not be kept in Cache Storage. */
  notKept() {
    this.status.textContent += " (It could not be kept for offline use: it will be downloaded again next time.)";
  }
}
