// A move string pasted by the user: tile numbers (the seed's notation, the
// tiles that slide) or the blank's moves U/D/L/R, checked against a position.
// Pure: no DOM (tests/js/moves.test.mjs).

const MAX_MOVES = 2000;

/**
 * Parse `text` as moves from `board`.  Returns {directions, moves, solves}
 * (moves: the tile numbers; solves: the goal is reached at the end) or
 * {error} saying, in plain words, which move is impossible.
 */
export function parseMoveString(board, text) {
  const t = String(text).trim();
  if (!t) return { error: "Paste moves first: tile numbers (4 5 10 …) or the gap's moves (U D L R)." };
  if (t.length > MAX_MOVES * 3) return { error: `That is too long for a move list (at most ${MAX_MOVES} moves).` };
  const b = board.clone();
  const directions = [];
  const moves = [];
  if (/^[UDLRudlr\s,]+$/.test(t)) {
    const letters = t.toUpperCase().replace(/[\s,]/g, "");
    for (let i = 0; i < letters.length; i++) {
      const tile = b.moveBlank(letters[i]);
      if (!tile) return { error: `Move ${i + 1} (${letters[i]}) is impossible: the gap is at the edge.` };
      directions.push(letters[i]);
      moves.push(tile);
    }
  } else {
    const parts = t.split(/[\s,;]+/).filter(Boolean);
    if (parts.length > MAX_MOVES) return { error: `That is too long for a move list (at most ${MAX_MOVES} moves).` };
    const letter = parts.findIndex((p) => /^[UDLR]+$/i.test(p));
    if (letter >= 0 && parts.some((p) => /^\d+$/.test(p))) {
      return {
        error: `Move ${letter + 1} (${parts[letter].slice(0, 20)}) is a gap move among tile numbers: write the whole list in one notation, tile numbers (4 5 10 …) or the gap's moves (U D L R).`,
      };
    }
    for (let i = 0; i < parts.length; i++) {
      const tile = /^\d{1,3}$/.test(parts[i]) ? Number(parts[i]) : NaN;
      if (!Number.isInteger(tile) || tile < 1 || tile >= b.tiles.length) {
        return { error: `Move ${i + 1} (${parts[i].slice(0, 20)}) is not a tile number or U/D/L/R.` };
      }
      const d = b.directionOfTile(tile);
      if (!d) return { error: `Move ${i + 1}: tile ${tile} is not next to the gap.` };
      b.moveBlank(d);
      directions.push(d);
      moves.push(tile);
    }
  }
  return { directions: directions.join(""), moves, solves: b.isGoal() };
}

/** One sentence on a replayed move list: does it solve the position, and how far from optimal. */
export function replayVerdict({ moves, solves }, optimal) {
  const n = moves.length;
  const count = `${n} ${n === 1 ? "move" : "moves"}`;
  if (!solves) return `These ${count} do not solve the position (the board shows where they lead).`;
  if (optimal === null || optimal === undefined) return `These ${count} solve the position. Solve it to compare with the shortest solution.`;
  if (n === optimal) return `These ${count} solve the position optimally.`;
  const extra = n - optimal;
  return `These ${count} solve the position: ${extra} more than the shortest solution (${optimal}).`;
}
