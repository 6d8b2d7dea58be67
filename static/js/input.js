// Input: clicks/taps on tiles, swipes on the board, arrow keys.
// Emits blank directions ("U","D","L","R") through onMoves(directions).
//
// Arrow keys and swipes move a TILE in that direction, i.e. the blank moves
// the opposite way: ArrowLeft slides the tile right of the gap to the left.

const KEY_TO_BLANK = {
  ArrowLeft: "R",
  ArrowRight: "L",
  ArrowUp: "D",
  ArrowDown: "U",
};

export function bindInput(boardEl, { getBoard, onMoves, isBusy }) {
  let swipe = null;
  let suppressClick = false;

  boardEl.addEventListener("click", (event) => {
    if (suppressClick) {
      suppressClick = false;
      return;
    }
    if (isBusy()) return;
    const tile = event.target.closest(".tile");
    if (!tile) return;
    const path = getBoard().pathToSquare(Number(tile.dataset.index));
    if (path.length) onMoves(path);
  });

  boardEl.addEventListener("pointerdown", (event) => {
    swipe = { x: event.clientX, y: event.clientY, id: event.pointerId };
  });
  boardEl.addEventListener("pointerup", (event) => {
    if (!swipe || swipe.id !== event.pointerId) return;
    const dx = event.clientX - swipe.x;
    const dy = event.clientY - swipe.y;
    swipe = null;
    const min = Math.max(24, boardEl.clientWidth / 12);
    if (Math.max(Math.abs(dx), Math.abs(dy)) < min || isBusy()) return;
    suppressClick = true;
    setTimeout(() => (suppressClick = false), 0);
    // Swiping a tile right moves the blank left, etc.
    const d = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "L" : "R") : dy > 0 ? "U" : "D";
    onMoves([d]);
  });
  boardEl.addEventListener("pointercancel", () => (swipe = null));

  document.addEventListener("keydown", (event) => {
    const d = KEY_TO_BLANK[event.key];
    if (!d || event.altKey || event.ctrlKey || event.metaKey) return;
    const t = event.target;
    const typing = t && (t.tagName === "TEXTAREA" || t.tagName === "INPUT" || t.tagName === "SELECT" || t.isContentEditable);
    if (typing) return;
    if (isBusy()) return;
    event.preventDefault();
    onMoves([d]);
  });
}
