"""Anytime solving past optimal reach: an answer at once for every solvable position of every
shape (2x2 to 10x10) and goal, improved while time allows, with a proven lower bound beside it.

``anytime_solve(board, time_limit=10)`` (:mod:`fifteen.anytime.driver`) returns an
:class:`AnytimeResult`: the best solution found, the lower bound proven by the package's IDA*
(*82 moves found · optimal >= 78*), ``optimal`` when they meet.  The parts, one per concept:

* :mod:`fifteen.anytime.tables` — labelled positions (tiles named by their target square) and
  the MD + LC tables that serve every target of one shape;
* :mod:`fifteen.anytime.beam` — beam search (the first solution up to 5x5; doubling widths
  pruned by the best length as the main improver);
* :mod:`fifteen.anytime.rank` — the beams' ranking estimate (MD weighted by where each tile
  belongs, plus LC; fitted offline, ranking only);
* :mod:`fifteen.anytime.decompose` — row-and-column decomposition (the first solution past
  5x5, and whenever a beam finds nothing);
* :mod:`fifteen.anytime.windows` — window shortening of a path by optimal re-solving;
* :mod:`fifteen.anytime.driver` — the schedule: prover and improvers sharing one thread.

On several workers (:mod:`fifteen.parallel`, the layer above): one step of the prover or of an
improver (:mod:`fifteen.parallel.anytime_steps`), handed to ``--jobs N`` processes
(:mod:`fifteen.parallel.anytime_processes`) or to the page's pool of workers, call by call
(:mod:`fifteen.parallel.anytime_page`).

Methods compared and figures: ``bench/anytime.md``.
"""

from fifteen.anytime.driver import MAX_TIME_LIMIT, STOPS, AnytimeResult, Improvement, anytime_solve, anytime_solve_steps, check_time_limit

__all__ = ["MAX_TIME_LIMIT", "STOPS", "AnytimeResult", "Improvement", "anytime_solve", "anytime_solve_steps", "check_time_limit"]
