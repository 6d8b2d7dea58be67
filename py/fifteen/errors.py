"""The errors Fifteen raises for bad input or bad data: one hierarchy, each with a message meant for a person.

::

    ValueError
     └─ FifteenError      anything this package refuses
         ├─ InputError    a position, shape, bound or move list that cannot be used
         └─ AssetError    a database asset that is missing, corrupt, truncated or of the wrong kind

The CLI prints them (exit status 2) and :func:`fifteen.api.call` reports them as
``{"type": "input"}`` or ``{"type": "asset"}``; never a traceback.
"""


class FifteenError(ValueError):
    """Base class of the errors this package raises for bad input or data."""


class InputError(FifteenError):
    """A position, shape, bound or move list that cannot be used, with the reason."""


class AssetError(FifteenError):
    """A database asset is missing, corrupt, truncated or of the wrong kind."""
