"""The package's version: the one place it is written (``pyproject.toml`` reads it from here,
``fifteen.__version__`` and the JSON API's ``info`` give it)."""

__version__ = "0.1.0"
