// The solver worker, started as the page opens.
//
// index.html loads this module before main.js, whose graph of some twenty modules takes
// 0.2-0.5 s to arrive: the worker's runtime (the longest part of the start) begins that
// much earlier.  The worker learns what it needs before INIT from its name (solver/protocol.js,
// "Boot options"), so it starts the runtime at once.  SolverClient takes this worker
// (takeStartedWorker) when it first starts one; the messages the worker sent before are
// held and delivered once the client has set its handlers (`worker.replay()`).
// Only a page that loads this module with its own <script> tag starts the worker so: another
// page's import of the solver (static/js/fifteen.js) starts one when it asks for a solver.

/** Whether this build's service worker serves the page (and so the workers it starts). */
export const pageControlled = () => !!globalThis.navigator?.serviceWorker?.controller;

/** The boot options a worker started now reads from its name (solver/protocol.js). */
const bootName = () => JSON.stringify({ controlled: pageControlled() });

/** A new solver worker (a module worker, static/js/worker/worker.js), told its boot options. */
export const newSolverWorker = () => new Worker(new URL("../worker/worker.js", import.meta.url), { type: "module", name: bootName() });

let started = null; // {worker, at}: the worker started as the page opened, until taken
let startedAt = null;

/** When (performance.now()) the worker was started as the page opened; null if it was not. */
export const startedWorkerAt = () => startedAt;

/**
 * The worker started as the page opened and when (`at`, performance.now()), once: null
 * afterwards, or when it could not be started (SolverClient then starts one and reports why
 * that fails).  Its held messages and errors reach the handlers set on it at `replay()`.
 */
export function takeStartedWorker() {
  const taken = started;
  started = null;
  return taken;
}

/** Whether the page loads this module with a <script> tag of its own (index.html), not as an import. */
const loadedByThePage = () => [...document.querySelectorAll("script[type=module][src]")].some((s) => s.src === import.meta.url);

if (typeof document === "object" && typeof Worker === "function" && loadedByThePage()) {
  try {
    const worker = newSolverWorker();
    const held = [];
    worker.onmessage = (event) => held.push(["onmessage", event]);
    worker.onerror = (event) => {
      event.preventDefault();
      held.push(["onerror", event]);
    };
    worker.replay = () => {
      for (const [handler, event] of held.splice(0)) worker[handler]?.(event);
    };
    startedAt = performance.now();
    started = { worker, at: startedAt };
  } catch {
    // (SolverClient starts the worker itself, and says why when it cannot)
  }
}
