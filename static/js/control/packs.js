// The optional packs (static/db/manifest.json "packs"): the hard-positions pack offered in the
// Solve card for the shapes it serves, downloaded only when asked (with its size, progress and
// the memory it needs), then kept by the worker for offline use.

import { ErrorType } from "../solver/protocol.js";
import { PackState } from "../view/solve.js";
import { JobKind, Why } from "./jobs.js";

export class PackOffer {
  /** hooks (main.js): model, view, client, jobs, and loaded() (the solver's bounds changed). */
  constructor(hooks) {
    this.hooks = hooks;
  }

  /** The optional pack of a bound that serves the board's shape, if the site has one (the explorer's tables are the lab's: control/lab.js). */
  current() {
    const { model } = this.hooks;
    return model.packs.find((p) => p.kind !== "explore" && Array.isArray(p.shapes) && p.shapes.includes(model.position.shape));
  }

  render() {
    const { model, view } = this.hooks;
    const pack = this.current();
    if (!pack) {
      view.pack.hide();
      return;
    }
    const { busy, error } = model.packDownload;
    const st = pack.loaded ? PackState.LOADED : busy ? PackState.DOWNLOADING : error ? PackState.ERROR : PackState.OFFERED;
    view.pack.render(pack, st, { enabled: model.ready && !model.job, error });
  }

  async download() {
    const { model, view, client, jobs } = this.hooks;
    const pack = this.current();
    if (!pack || model.packDownload.busy || !model.ready) return;
    model.packStarted();
    view.pack.begin(pack);
    view.setSolveEnabled(false); // the worker serves one request at a time
    this.render();
    try {
      const title = `Downloading the ${pack.label || "pack"}`;
      const result = await jobs.run(JobKind.PACK, () => client.loadPack(pack.file, (p) => view.pack.progress(pack, p)), { user: true, title });
      model.packEnded({ file: pack.file, info: result.info });
      this.render();
      if (!result.cached) view.pack.notKept();
      this.hooks.loaded();
      view.toast("Hard-positions pack loaded.");
    } catch (err) {
      const why = err.why === Why.USER ? "the download was cancelled." : err.type === ErrorType.CANCELLED ? "the download was interrupted." : err.message || String(err);
      model.packEnded({ error: why });
      this.render();
    } finally {
      view.setSolveEnabled(model.ready);
    }
  }

  /** Cancel the download under way. */
  cancel() {
    const job = this.hooks.jobs.find(JobKind.PACK);
    if (job) this.hooks.jobs.stop(job, Why.USER);
  }
}
