#!/usr/bin/env python3
"""The page in the three browser engines side by side (not a test): start-up, Korf #1, Stop.

    .venv/bin/python bench/engines.py [--reps N] [--engines chromium,firefox,webkit]
    .venv/bin/python bench/engines.py --starts 10 --engines webkit    # consecutive starts, errors only

Each repetition runs, in each engine in turn (engines alternated, each in a fresh profile: a
first visit), what tests/e2e/test_engines.py checks: the first visit until Solve is enabled
(``html[data-ready-seconds]``, the page's clock, and its phases), Korf #1 (harness seconds from
Solve to the answer shown), Stop during the transposed goal's search (seconds until the page says
cancelled, and until the solver is usable again; whether worker 1 was restarted), a 5x5 optimal
search stopped then *Fast answer* (seconds from Stop to the first answer shown), and a reload with
the server stopped (a warm, offline start: ready by the page's clock).  Medians are printed as a
Markdown table with the load average before and after (bench/startup.md, "Engines").

``--starts N`` instead opens the page N times in a row in a fresh profile each, waits until it is
ready, solves Korf #1 and stops a long solve (a worker restart when not isolated), and reports any
error the page shows (its error panel; the console where the engine gives it).

The site is served from the repository root (``make web`` first) by the e2e tests' server, in
this process; the engines are those of tests/e2e/engines.py.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "py")]

from tests.e2e.conftest import SiteServer  # noqa: E402
from tests.e2e.engines import ENGINES, EngineApp, launch  # noqa: E402

EXAMPLES = {e["id"]: e for e in json.loads((ROOT / "static/data/examples.json").read_text())["examples"]}
KORF1 = EXAMPLES["korf1"]["tiles"]
TRANSPOSED = EXAMPLES["transposed"]["tiles"]
# a random 5x5 (tests/e2e/test_engines.py _random_5(34))
FIVE = [3, 15, 6, 10, 19, 20, 17, 14, 22, 24, 8, 9, 1, 5, 4, 13, 2, 23, 12, 21, 7, 0, 18, 11, 16]


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def errors_of(app: EngineApp) -> list[str]:
    found = [m for m in app.page.console() if m.startswith(("error:", "pageerror:"))]
    panel = app.page.errors()
    return found + ([f"panel: {panel}"] if panel else [])


def one_run(engine: str) -> dict:
    site = SiteServer(ROOT).start()
    page = launch(engine)
    app = EngineApp(page, site.url)
    out: dict = {"engine": engine, "version": page.version}
    try:
        first = app.open()
        out["ready"] = first["ready"]
        out["phases"] = first["phases"]
        app.set_position(KORF1)
        t0 = time.monotonic()
        sol = app.solve()
        out["korf1"] = round(time.monotonic() - t0, 2)
        assert sol["length"] == 57, sol
        app.start_long_solve(TRANSPOSED)
        stop = app.stop()
        out["stop_answered"] = stop["answered_seconds"]
        out["stop_usable"] = stop["usable_seconds"]
        out["stop_restarted"] = stop["restarted"]
        app.start_long_solve(FIVE, "5x5")
        fast = app.stop_then(app.fast_answer)
        out["fast_after_stop"] = fast["action_seconds"]
        app.cancel_if_running()
        app.wait_offline_ready()
        site.stop()
        warm = app.reload()
        out["warm_ready"] = warm["ready"]
        out["warm_phases"] = warm["phases"]
        out["errors"] = errors_of(app)
    finally:
        page.close()
        site.stop()
    return out


def starts(engine: str, count: int) -> int:
    failed = 0
    for i in range(count):
        site = SiteServer(ROOT).start()
        page = launch(engine)
        app = EngineApp(page, site.url)
        try:
            first = app.open()
            app.set_position(KORF1)
            length = app.solve()["length"]
            app.start_long_solve(TRANSPOSED)
            stop = app.stop()
            app.set_position(EXAMPLES["8p31a"]["tiles"], "3x3")
            again = app.solve()["length"]
            errors = errors_of(app)
            starts_seen = app.solver_starts()
            line = (
                f"ready {first['ready']:.1f} s, Korf #1 {length}, Stop usable after {stop['usable_seconds']:.1f} s, "
                f"then 3x3 {again}, worker starts {starts_seen}"
            )
        except Exception as exc:  # noqa: BLE001 - reported, counted as a failed start
            errors, line = [f"{type(exc).__name__}: {exc}"], "failed"
        finally:
            page.close()
            site.stop()
        failed += bool(errors)
        print(f"{engine} start {i + 1}/{count}: {line}; errors: {errors or 'none'}", flush=True)
    print(f"{engine}: {count - failed} of {count} starts without an error (load {load()})")
    return failed


def median(rows: list[dict], key: str) -> str:
    values = [r[key] for r in rows if isinstance(r.get(key), (int, float)) and not isinstance(r.get(key), bool)]
    return f"{statistics.median(values):.2f} s" if values else "–"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reps", type=int, default=1, help="repetitions of the whole run (default 1)")
    parser.add_argument("--engines", default=",".join(ENGINES), help="comma-separated, of " + ", ".join(ENGINES))
    parser.add_argument("--starts", type=int, default=0, help="instead: N consecutive starts per engine, errors reported")
    parser.add_argument("--json", type=Path, help="also write every run's figures there")
    args = parser.parse_args(argv)
    engines = [e for e in args.engines.split(",") if e]
    if args.starts:
        return 1 if sum(starts(e, args.starts) for e in engines) else 0
    before = load()
    runs: dict[str, list[dict]] = {e: [] for e in engines}
    for rep in range(args.reps):
        for engine in engines:
            r = one_run(engine)
            runs[engine].append(r)
            print(f"rep {rep + 1} {json.dumps(r)}", flush=True)
    after = load()
    if args.json:
        args.json.write_text(json.dumps(runs, indent=2) + "\n")
    print(f"\nMedians of {args.reps}, load average (1, 5, 15 min) {before} before, {after} after:\n")
    cols = [
        ("ready, first visit", "ready"),
        ("ready, warm reload (offline)", "warm_ready"),
        ("Korf #1 (57)", "korf1"),
        ("Stop: cancelled shown", "stop_answered"),
        ("Stop: solver usable", "stop_usable"),
        ("5x5 fast answer after Stop", "fast_after_stop"),
    ]
    print("| | " + " | ".join(f"{r[0]['engine']} {r[0]['version']}" for r in runs.values() if r) + " |")
    print("|---|" + "---:|" * len(runs))
    for label, key in cols:
        print(f"| {label} | " + " | ".join(median(rows, key) for rows in runs.values()) + " |")
    restarted = [f"{sum(r['stop_restarted'] for r in rows)} of {len(rows)}" for rows in runs.values()]
    print("| Stop restarted the worker | " + " | ".join(restarted) + " |")
    print("| phases, first visit | " + " | ".join(rows[-1]["phases"] for rows in runs.values()) + " |")
    print("| errors | " + " | ".join(str(sum(len(r["errors"]) for r in rows)) for rows in runs.values()) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
