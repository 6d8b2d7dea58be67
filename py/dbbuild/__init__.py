"""Build-time code of Fifteen's database assets (native only: numpy, numba for the 7-8 pack).

Not part of the runtime package :mod:`fifteen` nor of its wheel: the solver
only *reads* what this package writes (the container of :mod:`fifteen.db.container`).

* :mod:`dbbuild.regions` -- board geometry for the builders (neighbours, blank regions);
* :mod:`dbbuild.pattern` -- the additive pattern databases 6-6-3 / 5-5-5 (dense index);
* :mod:`dbbuild.pack78` -- the optional 7-8 pack (mixed-radix index, 4-bit entries);
* :mod:`dbbuild.specs` -- every asset (file, kind, shapes, builder, build version, parameters);
* :mod:`dbbuild.cache` -- the build cache and its keys;
* :mod:`dbbuild.manifest` -- ``manifest.json``;
* :mod:`dbbuild.cli` -- the command line behind ``build_db.py``.
"""
