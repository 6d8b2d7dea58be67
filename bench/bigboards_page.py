"""DeepCubeA's big-board positions answered by the page's pool of workers in headless Chromium:
bench/anytime.md's figures for "in the page, the pool reaches the same lengths within 2x the
time" (issue 38).

    .venv/bin/python bench/bigboards_page.py [--boards 5,6,7] [--count 3] [--limit 120]
        [--marks 1,10,60,120] [--workers 2] [--out bench/data/bigboards-deepcubea-page.jsonl]

The embeddable solver (static/js/fifteen.js, docs/embed.md) is created on examples/embed.html
with ``workers`` workers and the board's shape (once per board; its helpers get ``--settle``
seconds to start), and each position is given to
``solver.anytime(tiles, {timeLimit})``: one worker proves the lower bound while the others
improve the best path (static/js/solver/anytime-solve.js).  The best length at each mark is read
from the result's ``improvements`` (seconds are wall clock from the request); the answer's moves
are replayed to the goal here and the lower bound checked against the length (and the optimum
where DeepCubeA's file gives it).  One JSON line per position (``workers``: how many took part,
from the result).  The site is this checkout
(``make assets`` first).  Wall clock on a shared machine: give the load beside the figures.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(ROOT / "bench"))

_e2e = importlib.import_module("e2e.conftest")  # the e2e tests' server and browser flags
bigboards = importlib.import_module("bigboards")  # DeepCubeA's positions

#: One solver per board (the workers load that board's databases), kept on the page; its helpers
#: start one after the other once the first worker is ready: the first request waits *settle*
#: seconds for them.
START = """async ({ shape, workers, settle }) => {
  const { createSolver } = await import("../static/js/fifteen.js");
  window.__solver?.close();
  const t0 = performance.now();
  window.__solver = createSolver({ workers, shape });
  await window.__solver.ready();
  const ready = (performance.now() - t0) / 1000;
  await new Promise((resolve) => setTimeout(resolve, settle * 1000));
  return ready;
}"""
ANYTIME = """({ tiles, shape, limit }) => window.__solver.anytime(tiles, { shape, timeLimit: limit })"""


def best_at(improvements: list[dict], marks: list[float]) -> list[int | None]:
    """The best length found by each mark (None before the first answer)."""
    out: list[int | None] = []
    for mark in marks:
        found = [imp["length"] for imp in improvements if imp["seconds"] <= mark]
        out.append(min(found) if found else None)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", default="5,6,7")
    ap.add_argument("--count", type=int, default=3)
    ap.add_argument("--limit", type=float, default=120.0, help="wall seconds per position")
    ap.add_argument("--marks", default="1,10,60,120")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--settle", type=float, default=20.0, help="seconds the helpers get to start, once per board")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    marks = [m for m in (float(x) for x in args.marks.split(",")) if m <= args.limit]
    from playwright.sync_api import sync_playwright

    server = _e2e.SiteServer(ROOT).start()
    lines = []
    try:
        with sync_playwright() as p:
            kw: dict[str, Any] = {"args": _e2e.CHROMIUM_ARGS, "headless": True}
            if _e2e._chromium_path():
                kw["executable_path"] = _e2e._chromium_path()
            browser = p.chromium.launch(**kw)
            page = browser.new_context().new_page()
            page.goto(server.url + "examples/embed.html")
            sides = [int(s) for s in args.boards.split(",")]
            started = None
            for ident, board, deepcubea, optimum in bigboards.positions("deepcubea", sides, args.count):
                shape = f"{board.shape.rows}x{board.shape.cols}"
                if started != shape:
                    ready = page.evaluate(START, {"shape": shape, "workers": args.workers, "settle": args.settle})
                    started = shape
                load0 = os.getloadavg()[0]
                res = page.evaluate(ANYTIME, {"tiles": " ".join(map(str, board.tiles)), "shape": shape, "limit": args.limit})
                assert board.solves(res["moves"]), f"{ident}: the answer does not reach the goal"
                assert res["lower_bound"] <= res["length"], ident
                assert optimum is None or res["lower_bound"] <= optimum, ident
                line = {
                    "id": ident,
                    "deepcubea": deepcubea,
                    "optimum": optimum,
                    "workers": res.get("workers", 1),
                    "marks": marks,
                    "lengths": best_at(res["improvements"], marks),
                    "length": res["length"],
                    "lower_bound": res["lower_bound"],
                    "seconds": res.get("seconds"),
                    "ready_seconds": round(ready, 2),
                    "load": [round(load0, 1), round(os.getloadavg()[0], 1)],
                }
                lines.append(line)
                print(json.dumps(line), flush=True)
            browser.close()
    finally:
        server.stop()
    if args.out:
        args.out.write_text("".join(json.dumps(line) + "\n" for line in lines))
    for side in sorted({int(line["id"][1]) for line in lines}):
        rows = [line for line in lines if int(line["id"][1]) == side]
        means = [sum(r["lengths"][i] or 0 for r in rows) / len(rows) for i in range(len(marks))]
        dca = sum(r["deepcubea"] for r in rows) / len(rows)
        print(f"{side}x{side}: " + " / ".join(f"{m:.2f}" for m in means) + f" at {args.marks} s; DeepCubeA {dca:.2f}")


if __name__ == "__main__":
    main()
