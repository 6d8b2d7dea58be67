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

/** Bytes as the page says them, in decimal units (1 MB = 10^6 bytes, as the README's sizes). */
export function formatBytes(b) {
  if (!b && b !== 0) return "";
  if (b < 1e3) return `${b} B`;
  if (b < 1e6) return `${(b / 1e3).toFixed(0)} kB`;
  if (b < 1e9) return `${(b / 1e6).toFixed(1)} MB`;
  return `${(b / 1e9).toFixed(2)} GB`;
}

/**
 * The status line's download figure from the first load's steps, each {loaded, bytes} (bytes 0
 * while its size is not known): " 4.2 MB of 14.9 MB (28 %)"; only " 3.2 MB" while a step that
 * has begun has no size (a share of a partial total would pass 100 %); "" before any is known.
 */
export function downloadFigure(steps) {
  let loaded = 0;
  let bytes = 0;
  let unsized = false;
  for (const s of steps) {
    if (!s.bytes && s.loaded > 0) unsized = true;
    bytes += s.bytes;
    loaded += s.bytes ? Math.min(s.loaded, s.bytes) : s.loaded;
  }
  if (unsized) return ` ${formatBytes(loaded)}`;
  if (!bytes) return "";
  return ` ${formatBytes(loaded)} of ${formatBytes(bytes)} (${Math.floor((100 * loaded) / bytes)} %)`;
}

const MB = 1e6;

/** A pack's size: whole megabytes from 1 MB on. */
export const formatPackSize = (b) => (b >= MB ? `${Math.round(b / MB)} MB` : formatBytes(b));

/** The pack's table, plus while loading the downloaded file and, for xz, the decoder's 64 MiB dictionary. */
export function packMemoryText(pack) {
  if (!pack.memory_bytes) return "needs about 400 MB of memory while loading";
  const bytes = pack.memory_bytes + (pack.bytes || 0) + (pack.compression === "xz" ? 64 * 2 ** 20 : 0);
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

/** A duration rounded to one unit (s, min, h, days): estimates are not precise (fifteen.search.estimate.rough_duration). */
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

/** "×9.8–×11.1": the growth per iteration an estimate assumes. */
const growthText = ([low, high]) => (low.toFixed(1) === high.toFixed(1) ? `×${low.toFixed(1)}` : `×${low.toFixed(1)}–×${high.toFixed(1)}`);

/**
 * What the progress line says of the time ahead, from the solver's estimate (p.estimate: the one
 * rule, fifteen.search.estimate; {bound, growth, running, longest, whole, soonest_share}, node
 * counts from the running iteration's start, pairs [soonest, latest]) at `rate` nodes/s, the
 * running iteration having searched p.iteration_nodes.  `limits`: the solver's (info.limits:
 * out_of_reach_seconds); `suggestion`: what to try when the search is long.
 * Returns {text, offer, outOfReach}, decided as Estimate.slow and Estimate.out_of_reach decide:
 * `offer` when the running iteration, if it holds no solution, needs more than
 * out_of_reach_seconds (a fast answer is the better offer; the iteration may still hold the
 * solution); `outOfReach` when even its soonest end (soonest_share of what is left of it) is
 * farther.  The text: the running iteration's time if it holds no solution, and the whole
 * search's when the solver gives one (near the board's longest optimum), as a range "if the
 * shortest solution has M moves, the most this position can need".
 */
export function estimateText(p, rate, { limits = null, suggestion = "" } = {}) {
  const none = { text: "", offer: false, outOfReach: false };
  const e = p.estimate;
  if (!e || !rate || e.bound !== p.bound) {
    return (p.iterations || []).length && !p.found ? { ...none, text: "No time estimate yet: it needs three finished iterations that grow alike." } : none;
  }
  const left = (nodes) => Math.max(0, nodes - (p.iteration_nodes || 0)) / rate;
  const limit = limits?.out_of_reach_seconds ?? Infinity;
  const last = !!e.whole && e.bound >= e.longest; // the last iteration the longest optimum allows: it holds the solution
  const outOfReach = e.soonest_share * left(e.running[0]) > limit;
  const offer = outOfReach || left(last ? e.whole[0] : e.running[0]) > limit;
  const running = formatRange(...e.running.map(left));
  if (outOfReach) {
    return {
      text: `The optimal search is out of reach here: bound ${e.bound} alone needs ${running} at this rate, and even if it holds the solution it most likely ends after more than ${formatRough(limit)}. A fast answer takes seconds; this search may go on. ${suggestion}`.trim(),
      offer,
      outOfReach,
    };
  }
  const parts = [];
  if (!last && (p.iteration_nodes || 0) > e.running[1]) {
    parts.push(`Bound ${e.bound} is taking longer than the last iterations' growth (${growthText(e.growth)}) predicted.`);
  } else if (!last) {
    const more = offer ? ": a fast answer takes seconds." : ".";
    parts.push(`If no solution has ${e.bound} moves, bound ${e.bound} ends in ${running} (growth ${growthText(e.growth)} per iteration)${more}`);
  }
  if (e.whole) {
    parts.push(`If the shortest solution has ${e.longest} moves, the most this position can need, the search ends in ${formatRange(...e.whole.map(left))} at this rate; sooner if it has fewer.`);
  }
  return { text: parts.join(" "), offer, outOfReach };
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
