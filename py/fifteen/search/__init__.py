"""Searching: move tables with duplicate pruning, the IDA* driver and its searcher contract, the
template every inner loop is generated from (each bound's own loop is in :mod:`fifteen.bounds`) and
the whole search's estimate."""
