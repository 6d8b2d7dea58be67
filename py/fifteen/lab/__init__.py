"""The heuristic lab: bounds compared and explained, the small-board explorer, hints."""
