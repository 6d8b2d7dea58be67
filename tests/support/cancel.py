"""A cancel that stops a search inside its loop, told from the checks between iterations by
counting: :func:`fifteen.search.ida.ida_star` checks cancel once before each iteration and at
every tick inside one, and reports progress (``done``) at the end of each."""

from __future__ import annotations


class CancelInTheLoop:
    """Pass ``progress=c.progress, cancel=c.cancel``: ``c.cancel`` returns true at the first check
    made inside an iteration (the second since the last iteration ended), never between two.

    Afterwards ``checks`` counts the calls of ``cancel`` and ``iterations`` the iterations that
    ended: a search stopped in its loop made ``iterations + 2`` checks (one before each of the
    ``iterations + 1`` it began, and the one that stopped it)."""

    def __init__(self) -> None:
        self.checks = 0
        self.iterations = 0
        self._since_iteration = 0

    def progress(self, p) -> None:
        if p.done:
            self.iterations += 1
            self._since_iteration = 0

    def cancel(self) -> bool:
        self.checks += 1
        self._since_iteration += 1
        return self._since_iteration > 1
