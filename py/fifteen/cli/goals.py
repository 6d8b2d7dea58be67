"""The command line's ``--goal`` option and what the output says about a goal."""

from __future__ import annotations

import argparse

from fifteen.board import Board
from fifteen.bounds import summary
from fifteen.frame import frame_for

GOAL_HELP = "the goal: blank-first (0 1 2 ... N-1), standard (the default: 1 2 ... N-1 0) or its tiles row by row"


def add_goal_option(parser: argparse.ArgumentParser) -> None:
    """``--goal`` (every command that takes a position)."""
    parser.add_argument("--goal", help=GOAL_HELP)


def goal_lines(board: Board) -> list[str]:
    """What the text output says about a goal other than the standard one (nothing for it)."""
    goal = board.target
    if goal.is_standard:
        return []
    return [f"goal: {goal}; {frame_for(goal).describe()}"]


def print_position(board: Board, values: dict[str, int]) -> None:
    """The head of a text output: the board, what is said about its goal, its bounds (the seed's summary)."""
    print(board)
    for line in goal_lines(board):
        print(line)
    print(summary(values))
