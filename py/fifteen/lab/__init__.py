"""The heuristic lab: bounds compared and explained, hints (the small-board explorer's exact-distance
tables are :mod:`fifteen.bounds.exact`)."""
