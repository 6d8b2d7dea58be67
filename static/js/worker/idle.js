// Solver worker, idle work: what the worker does for itself after READY (handing a database
// that arrived late to Python, the warm-up search, the memory snapshot) runs only while no
// request of the page waits or runs, one step at a time, so that a request never waits behind
// it: a request that arrives while a step runs (each step is one synchronous call into
// Python: ~0.7 s for the 7-7-1's 15.9 MB, ~0.3 s for a snapshot of ~130 MB) waits for that
// step only, never for the steps after it.

/** Resolves on the next turn of the event loop (a message already posted is delivered first). */
const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

export class IdleWork {
  constructor() {
    this.busy = 0; // requests queued or running
    this.quietSince = performance.now(); // when the last request ended
    this.wake = null; // resolves the step waiting for the requests to end
  }

  /** A request was queued (worker.js's dispatch). */
  requestQueued() {
    this.busy += 1;
  }

  /** A request ended. */
  requestEnded() {
    this.busy = Math.max(0, this.busy - 1);
    if (!this.busy) {
      this.quietSince = performance.now();
      const wake = this.wake;
      this.wake = null;
      wake?.();
    }
  }

  /**
   * Run `step` (a function; its result is returned) once no request is queued or running and
   * none has been for `quietMs` milliseconds.
   */
  async run(step, { quietMs = 0 } = {}) {
    for (;;) {
      await nextTurn();
      if (this.busy) {
        await new Promise((resolve) => {
          const previous = this.wake;
          this.wake = () => {
            previous?.();
            resolve();
          };
        });
        continue;
      }
      const left = quietMs - (performance.now() - this.quietSince);
      if (left > 0) {
        await new Promise((resolve) => setTimeout(resolve, left));
        continue;
      }
      return step();
    }
  }
}
