"""The whole optimal search's estimate (fifteen.search.estimate) and the command line's lines
that say it: the rest of the search at the rate seen, or that it is out of reach here."""

from __future__ import annotations

import doctest

import pytest

from fifteen.search import estimate
from fifteen.search.estimate import WholeSearch, rough_duration, whole_search
from fifteen.search.ida import Iteration
from support.cli import run_cli

KORF1 = "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2"


def its(*nodes: int, first: int = 40) -> list[Iteration]:
    return [Iteration(first + 2 * i, n, 0.0) for i, n in enumerate(nodes)]


def test_the_model_sums_the_next_iterations_at_the_mean_growth():
    # ratios 4 and 9: geometric mean 6; 3 more iterations of 3,600 * 6, * 36, * 216 nodes, up to bound 44 + 6
    w = whole_search(its(100, 400, 3_600), running_nodes=0, rate=1.0)
    assert w == WholeSearch(pytest.approx(3_600 * (6 + 36 + 216)), 50, pytest.approx(6.0))
    # the running iteration's nodes are subtracted; never below zero
    assert whole_search(its(100, 400, 3_600), running_nodes=100_000, rate=1.0).seconds == pytest.approx(3_600 * 258 - 100_000)
    assert whole_search(its(1, 2, 4), running_nodes=10**9, rate=1.0).seconds == 0.0
    # only the last three ratios count, the rate divides
    assert whole_search(its(1, 1_000, 2_000, 4_000, 8_000), running_nodes=0, rate=8_000.0).seconds == pytest.approx(14.0)


def test_no_estimate_without_a_regular_growth():
    assert whole_search(its(10, 100), 0, 1.0) is None  # two iterations: one ratio
    assert whole_search(its(10, 100, 1_000), 0, 0.0) is None  # no rate
    assert whole_search(its(10, 10, 10), 0, 1.0) is None  # growth not above 1
    assert whole_search(its(10, 20, 200), 0, 1.0) is None  # x2 then x10: spread 5 > 3
    assert whole_search(its(10, 20, 60), 0, 1.0) is not None  # x2 then x3: spread 1.5
    assert whole_search(its(10, 20, 120), 0, 1.0) is not None  # x2 then x6: a spread of 3 is still regular
    assert whole_search(its(0, 10, 20, 40), 0, 1.0).bound == 52  # empty iterations ignored, bound from the last


def test_out_of_reach_past_ten_minutes():
    assert WholeSearch(600.0, 50, 5.0).out_of_reach is False
    assert WholeSearch(600.5, 50, 5.0).out_of_reach is True
    assert [rough_duration(s) for s in (0.2, 59.4, 60, 3599, 3600, 5_400, 172_799, 172_800, 302_400)] == [
        "1 s",
        "59 s",
        "1 min",
        "60 min",
        "1 h",
        "2 h",  # 1.5 h rounds up: hours are 3,600 s exactly
        "48 h",
        "2 days",
        "4 days",  # 3.5 days: days are 86,400 s exactly
    ]


def test_the_module_examples():
    assert doctest.testmod(estimate).failed == 0


def test_the_command_line_says_the_rest_of_the_search():
    r = run_cli("solve", KORF1, "--bound", "pdb663")
    assert r.returncode == 0, r.stderr
    lines = [line.strip() for line in r.stderr.splitlines() if "rest of the search" in line]
    # after bounds 51, 53 and 55 (three finished iterations are needed), not after the last
    assert [line.rsplit(" ", 1)[1] for line in lines] == ["57", "59", "61"]
    assert all("at this rate if the optimum is at most" in line for line in lines)
    assert "out of reach" not in r.stderr
    assert "rest of the search" not in run_cli("solve", KORF1, "--bound", "pdb663", "--quiet").stderr


def test_the_command_line_says_when_the_optimal_search_is_out_of_reach(monkeypatch, capsys):
    from fifteen import cli

    monkeypatch.setattr(estimate, "OUT_OF_REACH_SECONDS", 0.0)
    assert cli.main(["solve", KORF1, "--bound", "pdb663"]) == 0
    err = capsys.readouterr().err
    assert err.count("the optimal search is out of reach here") == 3
    assert "--anytime answers in seconds with a proven lower bound" in err
