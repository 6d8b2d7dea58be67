"""The container format every database travels in (:mod:`fifteen.db.container`); the registry of
loaded databases is :mod:`fifteen.bounds.databases`, with the bounds it serves."""
