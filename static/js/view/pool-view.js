// View of the pool of solver workers: the Solve card's worker count (with the
// memory it takes) and, during a parallel solve, each worker's nodes and rate (an anytime
// answer: what each worker does).

import { formatCount, nodeRate } from "../model/format.js";
import { workersText } from "../model/anytime.js";
import { $, option } from "./dom.js";

const MB = 1e6;

/** "about 410 MB" style, in decimal units as every size of the page (model/format.js formatBytes), rounded up to 10 MB (100 MB from 1 GB on). */
export function memoryText(bytes) {
  const mb = bytes / MB;
  if (mb >= 1000) return `${(Math.ceil(mb / 100) / 10).toFixed(1)} GB`;
  return `${Math.ceil(mb / 10) * 10} MB`;
}

export class PoolView {
  constructor() {
    this.select = $("workers-select");
    this.note = $("workers-note");
    this.line = $("p-workers");
  }

  /** The menu 1..max with `size` selected (input/page-input.js reports a choice: workersChosen). */
  setChoices(max, size) {
    this.select.replaceChildren(
      ...Array.from({ length: max }, (_, i) => option(String(i + 1), String(i + 1))),
    );
    this.select.value = String(size);
    this.select.disabled = max <= 1;
  }

  /**
   * status = {size, ready, starting}; perWorker: bytes of one worker (the pack included when
   * loaded); heapBytes: the largest wasm memory a worker reported, 0 before any (data-heap-bytes).
   */
  render(status, { perWorker, packBytes = 0, heapBytes = 0, cores }) {
    this.select.value = String(status.size);
    const parts = [];
    if (status.size > 1) parts.push(`${status.ready} of ${status.size} ready${status.starting ? " (more starting)" : ""}`);
    const each = status.size > 1 ? `, ${memoryText(perWorker)} per worker` : "";
    parts.push(`about ${memoryText(perWorker * status.size)} of memory${each}${packBytes ? " with the pack" : ""}`);
    if (cores) parts.push(`${cores} cores here`);
    this.note.textContent = `${parts.join(" · ")}.`;
    this.note.dataset.ready = String(status.ready);
    this.note.dataset.heapBytes = String(heapBytes);
  }

  /**
   * p: a parallel solve's progress ({nodes, seconds, workers: [{nodes, busy}]}), or a serial one
   * (hidden).  Each worker's nodes and share; the rate is the Nodes/s figure's (nodeRate).
   */
  progress(p) {
    if (!p || !Array.isArray(p.workers) || p.workers.length < 2) {
      this.line.hidden = true;
      return;
    }
    this.line.hidden = false;
    this.line.dataset.workers = String(p.workers.length);
    const sum = p.workers.reduce((a, w) => a + w.nodes, 0);
    const parts = p.workers.map((w, i) => `#${i + 1} ${formatCount(w.nodes)}${sum ? ` (${Math.round((100 * w.nodes) / sum)} %)` : ""}`);
    const rate = nodeRate(p);
    this.line.textContent = `${p.workers.length} workers: ${parts.join(" · ")} — total ${rate ? `${formatCount(rate)}/s` : "–"}`;
  }

  /**
   * p: a report of the pool's anytime answer (solver/anytime-solve.js) with `workers`, each
   * worker's role; `best`: the best length so far.  "worker 1: improving, best 82 · worker 2: proving ≥ 80".
   */
  anytime(p, best) {
    if (!Array.isArray(p.workers) || p.workers.length < 2) return;
    this.line.hidden = false;
    this.line.dataset.workers = String(p.workers.length);
    this.line.dataset.roles = p.workers.map((w) => w.role).join(" ");
    this.line.textContent = workersText(p.workers, best, p.lower_bound || 0);
  }

  hideProgress() {
    this.line.hidden = true;
  }
}
