// How many workers the machine really runs at once.  navigator.hardwareConcurrency is not always
// the count of cores: WebKit reports 4 on a 2-CPU machine (a bucket against fingerprinting), and
// the pool (solver/pool.js poolLimits) sizes itself from it.  measureCores spins a few plain
// workers (worker/spin.js): one alone, then `max` at once; the rounds they make together over the
// rounds of the one alone is the count of cores they got.  About half a second, once per device
// (startup.js keeps the figure), run while the solver is idle.

/** A spin worker (worker/spin.js). */
export const newSpinWorker = () => new Worker(new URL("../worker/spin.js", import.meta.url));

/** One answer of `worker` to {ms}. */
function spin(worker, ms) {
  return new Promise((resolve, reject) => {
    worker.onmessage = (event) => resolve(event.data.rounds);
    worker.onerror = (event) => {
      event.preventDefault?.();
      reject(new Error(event.message || "the spin worker stopped"));
    };
    worker.postMessage({ ms });
  });
}

/**
 * The cores `max` workers get at once (1..max), measured over `ms` milliseconds; null when
 * workers cannot be started.  createWorker: makes a spin worker (tests pass fakes).
 */
export async function measureCores(max, { ms = 150, createWorker = newSpinWorker } = {}) {
  const workers = [];
  try {
    for (let i = 0; i < max; i++) workers.push(createWorker());
    await Promise.all(workers.map((w) => spin(w, 1))); // started and compiled: not measured
    const alone = await spin(workers[0], ms);
    const together = await Promise.all(workers.map((w) => spin(w, ms)));
    const sum = together.reduce((a, n) => a + n, 0);
    if (!(alone > 0)) return null;
    return Math.max(1, Math.min(max, Math.round(sum / alone)));
  } catch {
    return null;
  } finally {
    for (const w of workers) w.terminate();
  }
}
