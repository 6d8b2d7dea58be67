"""Searching: move tables with duplicate pruning, the IDA* driver and its generated inner loops."""
