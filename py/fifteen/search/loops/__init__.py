"""The IDA* inner loops: one template (:mod:`fifteen.search.loops.template`) and the bound families' parts."""
