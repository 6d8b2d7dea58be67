// Numbers and estimates as the page shows them: pure functions, no DOM.

export function formatCount(n) {
  if (n === null || n === undefined || Number.isNaN(n)) return "–";
  if (n < 1e4) return String(Math.round(n));
  if (n < 1e6) return `${(n / 1e3).toFixed(n < 1e5 ? 1 : 0)} k`;
  if (n < 1e9) return `${(n / 1e6).toFixed(n < 1e7 ? 2 : 1)} M`;
  return `${(n / 1e9).toFixed(2)} G`;
}

/**
 * A solve's nodes per second so far, over its whole time: the one rate the page shows (the
 * Nodes/s figure and the workers line); none in its first second, when a few nodes over a few
 * milliseconds say nothing.
 */
export const nodeRate = (p) => (p && p.seconds >= 1 ? p.nodes / p.seconds : null);

export function formatSeconds(s) {
  if (s === null || s === undefined || !Number.isFinite(s)) return "–";
  if (s < 1) return `${(s * 1000).toFixed(0)} ms`;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(Math.floor(s % 60)).padStart(2, "0")} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
}

/** A message cut to `max` characters (a 1 MB token echoed back must not flood the page). */
export function shorten(text, max = 300) {
  const t = String(text ?? "");
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

export function formatBytes(b) {
  if (!b && b !== 0) return "";
  if (b < 1024) return `${b} B`;
  if (b < 1024 * 1024) return `${(b / 1024).toFixed(0)} KB`;
  return `${(b / 1024 / 1024).toFixed(1)} MB`;
}

const MB = 1024 * 1024;

/** A pack's size: whole megabytes from 1 MB on. */
export const formatPackSize = (b) => (b >= MB ? `${Math.round(b / MB)} MB` : formatBytes(b));

/** The pack's table, plus while loading the downloaded file and, for xz, the decoder's 64 MiB dictionary. */
export function packMemoryText(pack) {
  if (!pack.memory_bytes) return "needs about 400 MB of memory while loading";
  const bytes = pack.memory_bytes + (pack.bytes || 0) + (pack.compression === "xz" ? 64 * MB : 0);
  const mb = bytes / MB;
  const round = mb >= 100 ? Math.ceil(mb / 100) * 100 : Math.max(1, Math.ceil(mb));
  return `needs about ${round} MB of memory while loading`;
}

/**
 * A report sent just after an iteration finished names that iteration's bound;
 * the search has then moved on to the next bound (bound + 2) with no nodes yet —
 * unless that iteration found a solution (`found`): then nothing beyond its bound
 * is proven, and the report stays as it is.
 */
export function currentIteration(p) {
  const its = p.iterations || [];
  const last = its[its.length - 1];
  if (last && p.bound !== undefined && last.bound >= p.bound && !p.found) {
    return { ...p, bound: last.bound + 2, iteration_nodes: 0 };
  }
  return p;
}

/** Spread of growth ratios (max/min) beyond which no estimate is given. */
export const MAX_GROWTH_SPREAD = 3;

/** A search whose next iteration would take longer than this (s) is called beyond reach. */
export const BEYOND_REACH_SECONDS = 3600;

/** A duration rounded to one unit (s, min, h, days): estimates are not precise. */
export function formatRough(s) {
  if (s < 60) return `${Math.max(1, Math.round(s))} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 86400 * 2) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} days`;
}

/** "30 s – 3 min": a range of durations, rounded so that it does not look more precise than it is. */
export function formatRange(low, high) {
  const a = formatRough(low);
  const b = formatRough(high);
  return a === b ? `about ${a}` : `${a} – ${b}`;
}

/**
 * The progress line's estimate for p = {bound, iteration_nodes, iterations}
 * at `rate` nodes/s: an ETA only when the last iterations support it (at
 * least three finished, so two growth ratios, agreeing within a factor
 * MAX_GROWTH_SPREAD), as a range from the smallest to the largest recent
 * growth; "beyond reach" when even the smallest growth puts the rest of the
 * current iteration past BEYOND_REACH_SECONDS.  `suggestion` is appended then.
 */
export function estimateText(p, rate, { suggestion = "" } = {}) {
  const its = (p.iterations || []).filter((it) => it.nodes > 0);
  if (its.length < 3 || !rate) {
    return its.length ? "No time estimate yet: it needs the growth of three finished iterations." : "";
  }
  const ratios = [];
  for (let i = Math.max(1, its.length - 3); i < its.length; i++) ratios.push(its[i].nodes / its[i - 1].nodes);
  const low = Math.min(...ratios);
  const high = Math.max(...ratios);
  if (low <= 1 || high / low > MAX_GROWTH_SPREAD) {
    return `No time estimate: the iterations grow irregularly (×${low.toFixed(1)} to ×${high.toFixed(1)}).`;
  }
  const last = its[its.length - 1].nodes;
  const done = p.iteration_nodes || 0;
  const leftLow = Math.max(0, last * low - done) / rate;
  const leftHigh = Math.max(0, last * high - done) / rate;
  if (leftLow > BEYOND_REACH_SECONDS) {
    return `Beyond reach with this bound: bound ${p.bound} alone needs more than ${formatRange(leftLow, leftLow)} at this speed. ${suggestion}`.trim();
  }
  if (done > last * high) {
    return `Bound ${p.bound} is taking longer than the last iterations' growth (×${low.toFixed(1)}–×${high.toFixed(1)}) predicted.`;
  }
  return `If no solution has ${p.bound} moves, bound ${p.bound} ends in ${formatRange(leftLow, leftHigh)} (growth ×${low.toFixed(1)}–×${high.toFixed(1)} per iteration).`;
}

/**
 * How long an example (static/data/examples.json) takes to solve in the page: its `page_seconds`,
 * measured on the machine that built the site (tools/web_bench.py), said as such, or its
 * `page_over_seconds` (a measurement stopped unfinished); "" when not measured.
 */
export function exampleTimeText(ex) {
  if (ex?.page_over_seconds) return `More than ${formatRough(ex.page_over_seconds)} in the page (measured on the machine that built this site, unfinished; yours may differ).`;
  if (!ex?.page_seconds) return "";
  return `Solved in the page in ${ex.page_seconds < 1 ? "under a second" : `about ${formatRough(ex.page_seconds)}`} (measured on the machine that built this site; yours may differ).`;
}

/** What a solve's or bounds' goal_frame (fifteen.frame) says, as a sentence ("" for the standard goal). */
export function goalFrameText(frame) {
  return frame ? `Goal: ${frame.charAt(0).toLowerCase()}${frame.slice(1)}.` : "";
}

/**
 * The whole optimal search, not only its running iteration.  The model: IDA* runs one iteration
 * per cost bound (b, b+2, b+4 ...), each about the same factor g larger than the one before (g:
 * the geometric mean of the last growth ratios, up to three, when they agree within
 * MAX_GROWTH_SPREAD); nothing says where the optimum lies, so the estimate assumes a plausible
 * one, WHOLE_STEPS more iterations after the running one (bound b + 2 * WHOLE_STEPS: the
 * optimum is usually that close once the bound has risen for three iterations with a strong
 * bound, and an estimate that assumes less would promise too much).  With N the last finished
 * iteration's nodes and d the running one's nodes so far, the search left is
 *     N * (g + g^2 + ... + g^(WHOLE_STEPS + 1)) - d   nodes
 * at `rate` nodes per second.  Returns {seconds, bound, growth} (bound: the last iteration it
 * counts), or null when there is no estimate (fewer than three finished iterations, no rate,
 * growth irregular or not above 1).
 */
export const WHOLE_STEPS = 2;

/** A whole search longer than this (s) at its rate is out of reach here: the page says so and offers a fast answer. */
export const OUT_OF_REACH_SECONDS = 600;

export function wholeSearch(p, rate) {
  const its = (p.iterations || []).filter((it) => it.nodes > 0);
  if (its.length < 3 || !rate || p.bound === undefined) return null;
  const ratios = [];
  for (let i = Math.max(1, its.length - 3); i < its.length; i++) ratios.push(its[i].nodes / its[i - 1].nodes);
  const low = Math.min(...ratios);
  const high = Math.max(...ratios);
  if (low <= 1 || high / low > MAX_GROWTH_SPREAD) return null;
  const g = Math.exp(ratios.reduce((a, r) => a + Math.log(r), 0) / ratios.length);
  let nodes = 0;
  let next = its[its.length - 1].nodes;
  for (let k = 0; k <= WHOLE_STEPS; k++) {
    next *= g;
    nodes += next;
  }
  return { seconds: Math.max(0, nodes - (p.iteration_nodes || 0)) / rate, bound: p.bound + 2 * WHOLE_STEPS, growth: g };
}

/**
 * The whole search's estimate in words: "" when there is none; past OUT_OF_REACH_SECONDS, that
 * the optimal search is out of reach here (it may go on).
 */
export function wholeSearchText(whole) {
  if (!whole) return "";
  const time = formatRange(whole.seconds, whole.seconds);
  if (whole.seconds > OUT_OF_REACH_SECONDS) {
    return `The optimal search is out of reach here: ${time} at this rate (up to bound ${whole.bound}, growth ×${whole.growth.toFixed(1)}). A fast answer takes seconds; this search may go on.`;
  }
  return `The whole search: ${time} at this rate if the shortest solution has at most ${whole.bound} moves.`;
}

/** "Shortest solution ≥ N moves": what the search has proved so far (the current bound). */
export function lowerBoundText(bound) {
  return bound === undefined || bound === null ? "" : `Shortest solution ≥ ${bound} moves`;
}

/** The start-up phases, in order, with the names the timing line gives them. */
export const PHASES = Object.freeze([
  ["page", "page"],
  ["runtime", "runtime"],
  ["solver", "solver"],
  ["databases", "databases"],
  ["warmup", "warm-up"],
]);

/**
 * Start-up phases {page, runtime, solver, databases, warmup} (seconds; a missing one is left out; page: from
 * opening the page until its solver worker starts) as the page's timing line ("runtime 3.2 s · solver 180 ms · databases 420 ms · warm-up 610 ms")
 * and as html[data-phases] ("runtime=3.200 solver=0.180 ..."), read by tools/web_bench.py.
 */
export function phasesText(phases) {
  return PHASES.filter(([k]) => Number.isFinite(phases?.[k]))
    .map(([k, name]) => `${name} ${formatSeconds(phases[k])}`)
    .join(" · ");
}

export function phasesAttr(phases) {
  return PHASES.filter(([k]) => Number.isFinite(phases?.[k]))
    .map(([k]) => `${k}=${phases[k].toFixed(3)}`)
    .join(" ");
}
