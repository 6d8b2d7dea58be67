// Share links in the address bar: the fragment read when the page opens and when it changes
// (Back/Forward, a link typed or pasted), its position checked by the rules of typed text
// (text.js), its moves (&moves=) checked by replay and shown as the solution, a refused link
// said so; and the tags of the history entries (Back/Forward bring an entry's solution back).

import { Board, parseShape, randomTiles } from "../model/board.js";
import { Source } from "../model/page-model.js";
import { parseMoveString } from "../model/moves.js";
import { linkTooLong, prefs, readHash, writeHash } from "../model/share.js";
import { linkDrawable } from "./text.js";

const tooLongText = (hash) => `This link is too long to be a position (${String(hash).length.toLocaleString("en")} characters).`;

export class Links {
  /** hooks (main.js): model, view, text (the TextField), run(effects), linkOpened(hash) (the lab's comparison links). */
  constructor(hooks) {
    this.hooks = hooks;
    this.entrySeq = 0;
  }

  /** The page opens: its first position (the link's, when it can be drawn at once; else a random 4x4), then the link's check. */
  start() {
    const { model, run } = this.hooks;
    const hash = location.hash;
    const link = linkTooLong(hash) ? null : readHash(hash);
    const drawn = linkDrawable(link);
    const first = drawn ? new Board(parseShape(link.shape).rows, parseShape(link.shape).cols, link.tiles, link.goal) : new Board(4, 4, randomTiles(4, 4));
    run(model.setPosition(first, { source: Source.START }));
    if (linkTooLong(hash)) this.refuse(tooLongText(hash));
    else if (drawn) this.showMoves(link);
    else if (link) {
      history.replaceState(null, "", location.href.replace(/#.*$/, "") + hash); // kept until checked
      this.open(link, Source.LINK);
    }
    if (link?.bound) prefs.set("bound", link.bound);
  }

  /** The address bar's fragment changed: Back/Forward, or a link typed or pasted. */
  changed(hash) {
    const { model } = this.hooks;
    if (linkTooLong(hash)) {
      this.refuse(tooLongText(hash));
      return;
    }
    const link = readHash(hash);
    if (link?.bound) prefs.set("bound", link.bound);
    const same = link?.tiles && link.goal && link.shape === model.position.shape && link.tiles.join(" ") === model.position.text() && link.goal.join(" ") === model.position.goalText();
    const loaded = link && !same ? this.open(link, Source.HISTORY) : Promise.resolve(link && this.showMoves(link));
    loaded.then(() => this.hooks.linkOpened(hash));
  }

  /** A link's position, checked (text.js), then its moves (showMoves). */
  open(link, source) {
    return this.hooks.text.checkLink(link, source, (message) => this.refuse(message)).then(() => this.showMoves(link));
  }

  /**
   * A link's moves (&moves=), once its position is the board's: checked by replay and shown as
   * the solution, as given (shortest only when the page knows it); moves that do not solve the
   * position are said so in the notice.  The address bar keeps them.
   */
  showMoves(link) {
    const { model, run } = this.hooks;
    if (!link.moves || model.job || link.text !== model.position.text() || (link.shape && link.shape !== model.position.shape)) return;
    const shown = model.solution;
    if (shown?.kind === "given" && shown.result.directions === link.moves.toUpperCase()) return;
    const r = parseMoveString(model.position, link.moves);
    if (r.error || !r.solves) {
      this.notice(`This link's moves were not shown: ${r.error || "they do not solve the position."}`);
      writeHash(model.position);
      return;
    }
    run(model.replay(r, "given"));
    writeHash(model.position, { moves: r.directions });
  }

  /** Keep the board, put its own link back in the address bar, say why. */
  refuse(message) {
    this.notice(`${message} The board was kept.`);
    writeHash(this.hooks.model.position, { push: false });
  }

  notice(text) {
    this.hooks.model.setNotice(text);
    this.hooks.view.setNotice(this.hooks.model.notice);
  }

  /**
   * The tag of the history entry shown, kept in its state (given on first use): Back and Forward
   * return to an entry with the solution it showed; a link typed or pasted makes a new entry.
   */
  entry() {
    if (!history.state?.entry) history.replaceState({ ...history.state, entry: `${performance.timeOrigin}:${++this.entrySeq}` }, "");
    return history.state.entry;
  }
}
