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
 * plays back): nothing moves when `el` is in view already.
 */
export function keepInView(el, board = $("board")) {
  const r = el.getBoundingClientRect();
  const margin = 8;
  let dy = 0;
  if (r.bottom > window.innerHeight) dy = r.bottom - window.innerHeight + margin;
  else if (r.top < 0) dy = r.top - margin;
  if (dy > 0 && board) dy = Math.min(dy, Math.max(0, board.getBoundingClientRect().top - margin));
  if (dy) window.scrollBy(0, dy);
}
