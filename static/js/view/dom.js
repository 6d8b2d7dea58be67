// The page's one way to the DOM, for the views (view/) and the inputs (input/): find an
// element by its id, make an HTML or SVG element with its class, text and attributes, bring an
// element into view without losing the board.
// Never a style attribute or inline HTML (CSP: style-src 'self'; text is always text).

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/** A new HTML element: `cls` its class names, `text` its text, `attrs` its attributes. */
export function html(tag, { cls, text, attrs = {} } = {}) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text !== undefined) el.textContent = text;
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

const SVG = "http://www.w3.org/2000/svg";

/** A new SVG element with its attributes (and a text). */
export function svg(tag, attrs = {}, text = undefined) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/** An <option> of a menu. */
export const option = (value, label) => html("option", { text: label, attrs: { value } });

/**
 * Scroll the page by the least amount that shows `el` whole, but never so far that the board's
 * top leaves the screen (on a phone the board stays in view while a solve runs and its answer
 * plays back): nothing moves when `el` is in view already.  With `showBoard`, a board whose top
 * is above the screen comes back too (the page scrolls up to it, as far as `el` stays shown:
 * during playback the board and its controls belong together).
 */
export function keepInView(el, board = $("board"), { showBoard = false } = {}) {
  const r = el.getBoundingClientRect();
  const margin = 8;
  // the scroll dy (down > 0) must keep el's bottom on the screen (dy >= low) and its top
  // (dy <= high), and the board's top where it is on the screen, or bring it back (showBoard)
  const low = r.bottom > window.innerHeight ? r.bottom - window.innerHeight + margin : 0;
  let high = r.top < 0 ? r.top - margin : Infinity;
  if (board) {
    const top = board.getBoundingClientRect().top - margin;
    high = Math.min(high, showBoard ? top : Math.max(0, top));
  }
  const dy = low > high ? high : Math.min(Math.max(0, low), high);
  if (dy) window.scrollBy(0, dy);
}
