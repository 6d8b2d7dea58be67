// Numbers and estimates as the page shows them: pure functions, no DOM.

export function formatCount(n) {
  if (n === null || n === undefined || Number.isNaN(n)) return "–";
  if (n < 1e4) return String(Math.round(n));
  if (n < 1e6) return `${(n / 1e3).toFixed(n < 1e5 ? 1 : 0)} k`;
  if (n < 1e9) return `${(n / 1e6).toFixed(n < 1e7 ? 2 : 1)} M`;
  return `${(n / 1e9).toFixed(2)} G`;
}

export function formatSeconds(s) {
  if (s === null || s === undefined || !Number.isFinite(s)) return "–";
  if (s < 1) return `${(s * 1000).toFixed(0)} ms`;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(Math.floor(s % 60)).padStart(2, "0")} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
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
 * the search has then moved on to the next bound (bound + 2) with no nodes yet.
 */
export function currentIteration(p) {
  const its = p.iterations || [];
  const last = its[its.length - 1];
  if (last && p.bound !== undefined && last.bound >= p.bound) {
    return { ...p, bound: last.bound + 2, iteration_nodes: 0 };
  }
  return p;
}

/**
 * Estimate the current iteration's cost from the growth of the finished ones:
 * IDA* iterations grow roughly geometrically, so next ≈ last × ratio.
 */
export function estimateText(p, rate) {
  const its = (p.iterations || []).filter((it) => it.nodes > 0);
  if (its.length < 2 || !rate) {
    return its.length ? "Estimating the next iteration's cost after one more iteration…" : "";
  }
  const ratios = [];
  for (let i = Math.max(1, its.length - 3); i < its.length; i++) ratios.push(its[i].nodes / its[i - 1].nodes);
  const growth = Math.exp(ratios.reduce((a, r) => a + Math.log(r), 0) / ratios.length);
  const est = its[its.length - 1].nodes * growth;
  const left = Math.max(0, est - (p.iteration_nodes || 0)) / rate;
  const after = (est * growth) / rate;
  return (
    `Bound ${p.bound}: about ${formatCount(est)} nodes if it holds no solution (growth ×${growth.toFixed(1)} per iteration), ` +
    `~${formatSeconds(left)} left in it; the next bound would take ~${formatSeconds(after)}.`
  );
}
