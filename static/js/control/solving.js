// Solve, Fast answer and Cancel: a solve's run in the solver (a job of jobs.js), its progress on
// the page, its answer, its cancel.  Two kinds of solve:
//   * the optimal search (IDA*): its iterations, the bound it has proven, the estimate of the
//     running iteration and of the whole search (the solver's, fifteen.search.estimate, said by
//     model/format.js estimateText); when its running iteration is long, Fast answer is offered,
//     and when the search is out of reach here the page says so (a click on Fast answer stops
//     the optimal search, keeping the bound it proved, and starts the anytime search);
//   * the anytime search (model/anytime.js): a Solve of a board past 5x5, or Fast answer on any
//     board: a first solution in seconds, better ones while it runs, each with the proven lower
//     bound ("82 moves found · optimal ≥ 78"); Cancel keeps the best found, playable.  With two
//     workers or more, one proves the lower bound while the others improve (solver/anytime-solve.js):
//     the workers line says what each does.

import { ErrorType } from "../solver/protocol.js";
import { currentIteration, formatSeconds } from "../model/format.js";
import { ANYTIME_KIND, WORKERS_KIND, anytimeByDefault, anytimeParams, anytimeSolution, anytimeText } from "../model/anytime.js";
import { JobKind, JobStopped, Why, stoppedText } from "./jobs.js";
import { plainInputError } from "./text.js";

export class Solving {
  /**
   * hooks (main.js): model, view, client (the pool), jobs, startup (its poolView), lab, packs,
   * bounds, text, run(effects) (what the model's transitions show).  A solve is this class's
   * from start to end: it asks the model for the job, runs it as a job of jobs.js, stops it and
   * ends it; main.js only renders what the model says (and stops a solve that a position change
   * from the address bar cancels: stop()).
   */
  constructor(hooks) {
    this.hooks = hooks;
    this.next = null; // the solve to start once the one being cancelled has stopped (Fast answer)
  }

  /** The Solve button (or Ctrl+Enter): an anytime answer past 5x5, else the optimal search. */
  solve({ anytime = null, proven = null } = {}) {
    const { model, view, text, run } = this.hooks;
    if (model.job) return;
    view.hideError();
    if (text.differs()) model.textEdited(model.text);
    const request = () => {
      const bounds = model.positionBounds();
      const fast = anytime ?? anytimeByDefault(model.position, bounds, model.info?.limits);
      // an anytime answer starts from the root's first cost bound, a proven lower bound: the prover's first threshold
      const root = fast ? (bounds?.start?.[model.bound] ?? null) : null;
      const before = model.job;
      run(model.solveRequested(model.bound, performance.now(), { anytime: fast, proven: proven ?? root }));
      if (model.job && model.job !== before) this.run(model.job);
    };
    if (model.textDirty && model.ready) {
      // the click must use the typed text even before its check ran
      text.sync({ force: true }).then(request);
      return;
    }
    request();
  }

  /** Fast answer: the anytime search now; an optimal search running is stopped for it first (what it proved is kept). */
  fast() {
    const { model } = this.hooks;
    const job = model.job;
    if (!job) return this.solve({ anytime: true });
    if (job.anytime) return;
    this.next = { anytime: true, proven: job.proven };
    if (job.cancelling) return; // (a Stop just clicked: the anytime search starts once it has stopped)
    // not Cancel's double-click guard: Fast answer is never under the pointer in Solve's place, and
    // a click it ignored would leave `next` for the next Cancel
    this.hooks.run(model.cancelJob(""));
    this.stop(job, "");
  }

  cancel() {
    const { model, run } = this.hooks;
    const job = model.job;
    run(model.cancelRequested(performance.now()));
    if (job?.cancelling) this.stop(job, "");
  }

  /** The solving ended (answer, cancel or failure): the controls come back, then `effects` (the model's) are shown. */
  ended(effects = []) {
    const { model, view, lab, bounds, packs } = this.hooks;
    view.setSolving(false, { ready: model.ready });
    view.setFast({ enabled: model.ready });
    lab.busyChanged();
    bounds.fillMenu();
    packs.render();
    this.hooks.run(effects);
  }

  /** The model's answer to `job`'s end (`effects`), when it ended it: the controls come back first. */
  end(job, effects) {
    const { model, run } = this.hooks;
    if (model.job === job) run(effects); // (the job goes on: its status, nothing else)
    else if (effects.length) this.ended(effects);
  }

  async run(job) {
    const { model, view, client, jobs, startup, lab, packs, text, run } = this.hooks;
    view.setSolving(true);
    view.setFast({ enabled: !job.anytime });
    lab.busyChanged();
    view.progress.reset();
    startup.poolView.hideProgress();
    view.progress.reveal();
    packs.render();
    const t0 = performance.now();
    const limits = model.info?.limits; // the solver's (fifteen.schema.page_limits)
    if (job.anytime) {
      const first = job.proven ? `Looking for a first solution · optimal ≥ ${job.proven}` : "Looking for a first solution…";
      view.progress.anytime(first, 0, { lower: job.proven, limit: limits?.time_limit });
    }
    try {
      const params = job.anytime ? anytimeParams(job.board, job.bound, limits) : { ...job.board.params(), bound: job.bound };
      const onProgress = (p) => {
        if (model.job !== job) return;
        if (p.kind === WORKERS_KIND) {
          startup.poolView.anytime(p, job.best?.length ?? null);
          view.progress.anytimeWorkers(p); // the prover's figures, the clock
          return;
        }
        if (p.kind === ANYTIME_KIND) {
          run(model.anytimeProgress(job, anytimeSolution(job.board, p)));
          startup.poolView.anytime(p, job.best?.length ?? null);
          if (job.best) {
            const lower = Math.max(job.best.lower_bound, job.proven || 0);
            view.progress.anytime(anytimeText(job.best, job.proven), p.seconds ?? (performance.now() - t0) / 1000, { lower, limit: limits?.time_limit });
          }
          view.progress.anytimeWorkers(p);
          return;
        }
        // a report that comes after Stop was clicked changes neither the model (solveProgress)
        // nor the figures, which say what the stopped search had proved
        if (job.cancelling) return;
        const { offer } = view.progress.update(p, { suggestion: this.suggestion(job), anytime: job.anytime });
        if (!job.anytime) view.setFast({ enabled: true, offer });
        startup.poolView.progress(p);
        if (!job.anytime) run(model.solveProgress(job, currentIteration(p).bound));
      };
      const result = await jobs.run(JobKind.SOLVE, () => client.solve(params, onProgress, { proven: job.proven || 0 }), { user: true });
      // the answer takes the progress's place (its summary says the same), before it is shown and focused
      if (model.job === job && !job.cancelling) view.progress.hide();
      this.end(job, model.solveDone(job, result, { seconds: formatSeconds((performance.now() - t0) / 1000) }));
      if (model.solution?.result === result) lab.solved(job.board, result);
    } catch (err) {
      if (model.job === job && !job.cancelling && err.type === ErrorType.INPUT) text.showError(plainInputError(err));
      if (err instanceof JobStopped && err.why !== Why.USER) {
        view.progress.stopped(); // what it proved stays shown
        this.end(job, model.solveStopped(job, stoppedText(err)));
        if (job.best) view.progress.hide(); // the best found takes its place
      } else {
        this.end(job, model.solveFailed(job, err));
        if (!model.job && err.type !== ErrorType.CANCELLED) view.progress.hide();
      }
    }
  }

  /** What could make a search that is out of reach feasible, for the progress line. */
  suggestion(job) {
    const { model, packs } = this.hooks;
    const tips = [];
    const list = model.boundsFor(job.board.shape);
    if (job.bound !== "auto" && job.bound !== list[1]) tips.push("choose “Strongest available”");
    const pack = packs.current();
    if (pack && !pack.loaded) tips.push("download the hard-positions pack");
    return tips.length ? `Try: ${tips.join(", or ")}.` : "This position needs a stronger bound than this page has, or a Fast answer.";
  }

  /**
   * Stop `job` (the model marked it cancelling) in the solver; the status then says how it
   * stopped (an anytime search: its best found is shown).
   */
  stop(job, why) {
    const { model, view, jobs } = this.hooks;
    view.progress.stopped(); // what it proved stays shown
    view.setCancelling();
    jobs.stop(jobs.find(JobKind.SOLVE), Why.USER).then(({ restarted, seconds }) => {
      this.end(job, model.cancelDone(job, { restarted, seconds: formatSeconds(seconds), why }));
      if (job.best && !why) view.progress.hide(); // the best found takes its place
      const next = this.next;
      this.next = null;
      if (next) this.solve(next);
      else view.focusSolve();
    });
  }
}
