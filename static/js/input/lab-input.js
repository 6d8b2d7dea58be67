// Input of the lab's cards (control/lab.js): every DOM event of the Compare bounds,
// Explain, explorer and hint cards, turned into a call of the lab's intents
// with plain values; no decisions here (as input/page-input.js for the rest of the page).

import { $ } from "../view/dom.js";

/** lab: the Lab controller (control/lab.js). */
export function bindLabInput(lab) {
  $("lab-preset").addEventListener("change", (e) => lab.presetChosen(e.target.value));
  $("lab-bounds").addEventListener("change", (e) => {
    if (e.target.type === "checkbox") lab.boundToggled(e.target.value, e.target.checked);
  });
  $("lab-budget").addEventListener("change", (e) => lab.budgetTyped(e.target.value));
  $("lab-budget").addEventListener("keydown", (e) => {
    if (e.key === "Enter") lab.run({ budgetText: e.target.value });
  });
  $("lab-run").addEventListener("click", () => lab.run({ budgetText: $("lab-budget").value }));
  $("lab-skip").addEventListener("click", () => lab.skip());
  $("lab-stop").addEventListener("click", () => lab.stop());
  $("lab-copy-tsv").addEventListener("click", () => lab.copyTable("tsv"));
  $("lab-copy-md").addEventListener("click", () => lab.copyTable("md"));
  $("lab-share").addEventListener("click", () => lab.shareLink());

  $("lab-explain").addEventListener("toggle", (e) => lab.explainToggled(e.target.open));
  $("explain-colour").addEventListener("change", (e) => {
    if (e.target.name === "explain-colour") lab.colourChosen(e.target.value);
  });

  $("lab-explorer").addEventListener("toggle", (e) => lab.explorerToggled(e.target.open));
  $("explorer-shape").addEventListener("change", (e) => lab.explorerShapeChosen(e.target.value));
  $("explorer-pack-button").addEventListener("click", () => lab.downloadTable());
  $("explorer-pack-cancel").addEventListener("click", () => lab.cancelTable());
  $("explorer-histogram").addEventListener("click", (e) => {
    const bar = e.target.closest("[data-distance]");
    if (bar) lab.barChosen(Number(bar.dataset.distance));
  });
  $("explorer-hardest").addEventListener("click", (e) => {
    const b = e.target.closest("[data-tiles]");
    if (b) lab.hardestChosen(b.dataset.tiles.split(",").map(Number));
  });
  $("explorer-position").addEventListener("click", (e) => {
    const b = e.target.closest("[data-direction]");
    if (b) lab.explorerMove(b.dataset.direction);
  });

  $("hint-next").addEventListener("click", () => lab.askHint());
  $("hint-all").addEventListener("click", () => lab.askHint({ all: true }));
  $("hint-apply").addEventListener("click", () => lab.applyHint());
  $("hint-stop").addEventListener("click", () => lab.stopHint());
}
