// The example of docs/embed.md: createSolver() from static/js/fifteen.js, shared with the page's
// <fifteen-puzzle>, and the element's events.  No inline script: the page's CSP allows none.

import { VERSION, createSolver } from "../static/js/fifteen.js";

const $ = (id) => document.getElementById(id);
const solver = createSolver({
  onLoading: (msg) => ($("module-status").textContent = `Loading the solver: ${msg.label || msg.stage}…`),
});
$("puzzle").solver = solver; // one solver (one worker) for the element and the form

solver.ready().then(
  (info) => ($("module-status").textContent = `Ready: solver ${info.version}, module API ${VERSION}.`),
  (e) => ($("module-status").textContent = `The solver did not start: ${e.message}`),
);

let job = null; // the AbortController of the running request

async function run(request) {
  job?.abort();
  job = new AbortController();
  const signal = job.signal;
  $("stop").disabled = false;
  $("module-output").textContent = "";
  try {
    const result = await request(signal);
    $("module-output").textContent = JSON.stringify(result, null, 1);
  } catch (e) {
    $("module-status").textContent = signal.aborted ? "Stopped." : `Error (${e.code || e.type}): ${e.message}`;
  } finally {
    $("stop").disabled = true;
  }
}

$("solve-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const tiles = $("tiles").value;
  run(async (signal) => {
    const onProgress = (p) => ($("module-status").textContent = `Searching: bound ${p.bound}, ${p.nodes.toLocaleString("en-US")} nodes`);
    const result = await solver.solve(tiles, { onProgress, signal });
    $("module-status").textContent = `${result.length} moves (${result.bound}, ${result.nodes.toLocaleString("en-US")} nodes): ${result.directions}`;
    return result;
  });
});

$("bounds").addEventListener("click", () => {
  run(async (signal) => {
    const result = await solver.bounds($("tiles").value, { signal });
    $("module-status").textContent = result.summary;
    return result;
  });
});

$("stop").addEventListener("click", () => job?.abort());

const log = (text) => ($("puzzle-events").textContent = text);
const puzzle = $("puzzle");
puzzle.addEventListener("fifteen-move", (e) => log(`fifteen-move: tile ${e.detail.tile} (${e.detail.direction})`));
puzzle.addEventListener("fifteen-solution", (e) => log(`fifteen-solution: ${e.detail.result.length} moves, ${e.detail.result.nodes} nodes`));
puzzle.addEventListener("fifteen-goal", () => log("fifteen-goal: solved"));
puzzle.addEventListener("fifteen-error", (e) => log(`fifteen-error: ${e.detail.message}`));
