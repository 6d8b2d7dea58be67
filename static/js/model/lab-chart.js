// Chart geometry for the heuristic lab (pure: no DOM).  view/lab-view.js turns the
// models built here into inline SVG elements; the CSP (style-src 'self') allows
// SVG attributes and classes, so nothing here needs a style attribute.
//
//   nodesChart(runs, opts)  nodes per iteration (log scale) against the cost bound,
//                           one line per lower bound, the optimum marked
//   traceChart(trace, opts) each bound's value at every step of a solution against
//                           the moves left (the staircase)

/** A linear map of [d0, d1] onto [r0, r1] (a constant when d0 == d1). */
export function linearScale(d0, d1, r0, r1) {
  const span = d1 - d0;
  return (v) => (span === 0 ? (r0 + r1) / 2 : r0 + ((v - d0) / span) * (r1 - r0));
}

/** A log10 map of [d0, d1] (both > 0) onto [r0, r1]. */
export function logScale(d0, d1, r0, r1) {
  const lin = linearScale(Math.log10(d0), Math.log10(d1), r0, r1);
  return (v) => lin(Math.log10(Math.max(v, d0)));
}

/** The decades [10^a, 10^b] that hold [min, max] (min >= 1): {lo, hi, ticks: [1, 10, 100, ...]}. */
export function decades(min, max) {
  const a = Math.floor(Math.log10(Math.max(1, min)));
  let b = Math.ceil(Math.log10(Math.max(1, max)));
  if (b === a) b = a + 1;
  const ticks = [];
  for (let e = a; e <= b; e++) ticks.push(10 ** e);
  return { lo: 10 ** a, hi: 10 ** b, ticks };
}

/** Integer ticks from lo to hi every `step`, at most `most` of them (the step grows by doubling). */
export function integerTicks(lo, hi, step = 1, most = 12) {
  let s = Math.max(1, step);
  while ((hi - lo) / s + 1 > most) s *= 2;
  const first = Math.ceil(lo / s) * s;
  const out = [];
  for (let v = first; v <= hi; v += s) out.push(v);
  return out;
}

/** A power of ten as a short label: 1, 10, 100, 1k, 10k, 100k, 1M, 10M, ... */
export function powerLabel(v) {
  if (v >= 1e9) return `${v / 1e9}G`;
  if (v >= 1e6) return `${v / 1e6}M`;
  if (v >= 1e3) return `${v / 1e3}k`;
  return String(v);
}

/** SVG path data through points [{x, y}] (one segment each; "" when empty). */
export function pathData(points) {
  return points.map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(" ");
}

const MARGIN = { top: 12, right: 14, bottom: 34, left: 48 };

function frame(width, height, margin) {
  return { x0: margin.left, x1: width - margin.right, y0: height - margin.bottom, y1: margin.top };
}

/**
 * The model of the nodes-per-iteration chart.  runs: [{name, iterations:
 * [{bound, nodes, finished}], finished, length}] (compare's run objects, in
 * order); optimum: the optimal length when known (marked by a vertical line).
 * Returns {width, height, frame, xTicks: [{value, pos, label}], yTicks,
 * lines: [{name, d, points: [{x, y, bound, nodes, finished}], finished}], optimum: {x, value} | null}.
 */
export function nodesChart(runs, { width = 560, height = 260, margin = MARGIN, optimum = null } = {}) {
  const f = frame(width, height, margin);
  const all = runs.flatMap((r) => r.iterations || []);
  const bounds = all.map((it) => it.bound);
  if (optimum !== null && optimum !== undefined) bounds.push(optimum);
  const bmin = bounds.length ? Math.min(...bounds) : 0;
  const bmax = bounds.length ? Math.max(...bounds) : 1;
  const lo = bmin - 1;
  const hi = Math.max(bmax + 1, lo + 2);
  const nodes = all.map((it) => Math.max(1, it.nodes));
  const dec = decades(nodes.length ? Math.min(...nodes) : 1, nodes.length ? Math.max(...nodes) : 10);
  const x = linearScale(lo, hi, f.x0, f.x1);
  const y = logScale(dec.lo, dec.hi, f.y0, f.y1);
  const lines = runs.map((r) => {
    const points = (r.iterations || []).map((it) => ({
      x: x(it.bound),
      y: y(Math.max(1, it.nodes)),
      bound: it.bound,
      nodes: it.nodes,
      finished: it.finished !== false,
    }));
    return { name: r.name, d: pathData(points), points, finished: !!r.finished };
  });
  return {
    width,
    height,
    frame: f,
    xTicks: integerTicks(Math.ceil(lo), Math.floor(hi), 2).map((v) => ({ value: v, pos: x(v), label: String(v) })),
    yTicks: dec.ticks.map((v) => ({ value: v, pos: y(v), label: powerLabel(v) })),
    lines,
    optimum: optimum === null || optimum === undefined ? null : { x: x(optimum), value: optimum },
  };
}

/**
 * The model of the bound trace.  trace: fifteen's trace result {names, remaining: [..],
 * values: {name: [..]}}; step: the playback's step to mark (or null).  The
 * staircase (moves left) is the line named "left".
 */
export function traceChart(trace, { width = 420, height = 200, margin = { top: 10, right: 12, bottom: 30, left: 36 }, step = null } = {}) {
  const f = frame(width, height, margin);
  const left = trace.remaining || [];
  const steps = Math.max(1, left.length - 1);
  const names = trace.names || Object.keys(trace.values || {});
  const top = Math.max(1, ...left, ...names.flatMap((n) => trace.values[n] || []));
  const x = linearScale(0, steps, f.x0, f.x1);
  const y = linearScale(0, top, f.y0, f.y1);
  const line = (name, values) => {
    // A staircase: each value holds for one step (a move changes it).
    const points = [];
    values.forEach((v, i) => {
      points.push({ x: x(i), y: y(v), step: i, value: v });
      if (i < values.length - 1) points.push({ x: x(i + 1), y: y(v), step: i, value: v });
    });
    return { name, d: pathData(points), points };
  };
  return {
    width,
    height,
    frame: f,
    xTicks: integerTicks(0, steps, 5, 10).map((v) => ({ value: v, pos: x(v), label: String(v) })),
    yTicks: integerTicks(0, top, 5, 8).map((v) => ({ value: v, pos: y(v), label: String(v) })),
    lines: [line("left", left), ...names.map((n) => line(n, trace.values[n] || []))],
    marker: step === null || step === undefined ? null : { x: x(Math.min(step, steps)), step },
  };
}
