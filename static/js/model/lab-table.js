// The heuristic lab's numbers as text (pure: no DOM): the summary and the
// nodes-per-iteration tables (the same rows as `python -m fifteen compare
// --format tsv|markdown`), their TSV and Markdown forms, the EBF display, and
// the "share this comparison" fragment.
//
// A run is one bound's object of fifteen's `compare` result (fifteen.lab.compare):
// {name, label, h0, iterations: [{bound, nodes, seconds, finished}], nodes,
// seconds, nodes_per_second, ebf, growth, finished, length, budget}; the page
// adds `stopped` when the user stopped it.

/** Nodes per iteration: header ["threshold", name...], one row per cost bound, then "total"; "+" marks a partial count. */
export function iterationTable(runs) {
  const header = ["threshold", ...runs.map((r) => r.name)];
  const cells = new Map(); // bound -> Map(name -> text)
  for (const r of runs) {
    for (const it of r.iterations || []) {
      if (!cells.has(it.bound)) cells.set(it.bound, new Map());
      cells.get(it.bound).set(r.name, `${it.nodes}${it.finished === false ? "+" : ""}`);
    }
  }
  const rows = [...cells.keys()].sort((a, b) => a - b).map((b) => [String(b), ...runs.map((r) => cells.get(b).get(r.name) ?? "")]);
  rows.push(["total", ...runs.map((r) => `${r.nodes}${r.finished ? "" : "+"}`)]);
  return { header, rows };
}

/** The effective branching factor as shown: three decimals, or "–" (unfinished runs have none). */
export function formatEbf(ebf) {
  return typeof ebf === "number" && Number.isFinite(ebf) ? ebf.toFixed(3) : "–";
}

/** How a run ended, in words. */
export function runState(run) {
  if (run.finished) return "yes";
  if (run.stopped) return "no (stopped)";
  if (run.running) return "running…";
  return "no (budget)";
}

const group = (n) => (typeof n === "number" ? Math.round(n).toLocaleString("en-US") : "–");

/** One row per bound: bound, h0, iterations, nodes, time (s), nodes/s, EBF, finished, length. */
export function summaryTable(runs) {
  const header = ["bound", "h0", "iterations", "nodes", "time (s)", "nodes/s", "EBF", "finished", "length"];
  const rows = runs.map((r) => [
    r.name,
    String(r.h0 ?? "–"),
    String((r.iterations || []).length),
    group(r.nodes),
    typeof r.seconds === "number" ? r.seconds.toFixed(2) : "–",
    group(r.nodes_per_second),
    formatEbf(r.ebf),
    runState(r),
    r.length === null || r.length === undefined ? "–" : String(r.length),
  ]);
  return { header, rows };
}

/** Tab-separated values, one line per row (header first). */
export function toTSV({ header, rows }) {
  return [header, ...rows].map((row) => row.join("\t")).join("\n");
}

/** A Markdown table: the first column left-aligned, the others right-aligned (as the CLI prints it). */
export function toMarkdown({ header, rows }) {
  const line = (row) => `| ${row.join(" | ")} |`;
  const rule = `|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`;
  return [line(header), rule, ...rows.map(line)].join("\n");
}

/** The optimum the runs agree on (the length of any finished run), or null. */
export function optimumOf(runs) {
  const done = runs.find((r) => r.finished && typeof r.length === "number");
  return done ? done.length : null;
}

/**
 * The fragment of a comparison link: the position's own fragment (model/share.js's
 * makeHash) plus `lab=md,lc,...` and `budget=N`.
 */
export function labHash(positionHash, { bounds, budget }) {
  return `${positionHash}&lab=${bounds.join(",")}&budget=${budget}`;
}

/** {bounds: [names], budget} from a location hash with `lab=`, else null. */
export function readLabHash(hash) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ""));
  const lab = params.get("lab");
  if (lab === null) return null;
  const bounds = lab
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => /^[a-z0-9]+$/.test(s));
  const budget = Number(params.get("budget"));
  return { bounds, budget: Number.isInteger(budget) && budget > 0 ? budget : null };
}

/** A budget typed by the user: a positive whole number of nodes ("2,000,000", "2e6", "2M" and "500k" allowed), else null. */
export function parseBudget(text) {
  const m = String(text)
    .trim()
    .replace(/[,_\s]/g, "")
    .match(/^(\d+(?:\.\d+)?(?:e\d+)?)([kKmM]?)$/);
  if (!m) return null;
  const n = Number(m[1]) * ({ k: 1e3, m: 1e6 }[m[2].toLowerCase()] || 1);
  return Number.isFinite(n) && n >= 1 ? Math.round(n) : null;
}
