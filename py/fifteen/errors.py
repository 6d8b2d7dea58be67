"""The errors Fifteen raises for bad input or bad data: one hierarchy, each with a message meant for a person.

::

    ValueError
     └─ FifteenError      anything this package refuses
         ├─ InputError    a position, shape, bound or move list that cannot be used
         └─ AssetError    a database asset that is missing, corrupt, truncated or of the wrong kind

The CLI prints them (exit status 2) and :func:`fifteen.api.call` reports them as
``{"type": "input"}`` or ``{"type": "asset"}``; never a traceback.  A message is one line of
at most :data:`MESSAGE_CHARS` characters (control characters escaped, a longer one cut),
whatever it quotes.

A database directory whose ``manifest.json`` cannot be used (not JSON, or JSON of the wrong
shape) is an :class:`AssetWarning`: the solver goes on without those databases.
"""

#: The longest message of a :class:`FifteenError` (longer ones are cut).
MESSAGE_CHARS = 300


class FifteenError(ValueError):
    """Base class of the errors this package raises for bad input or data."""

    def __init__(self, message: object = "") -> None:
        text = str(message)
        if not text.isprintable():  # one line, whatever it quotes: control characters escaped
            text = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)
        if len(text) > MESSAGE_CHARS:
            text = text[: MESSAGE_CHARS - 3] + "..."
        super().__init__(text)


class InputError(FifteenError):
    """A position, shape, bound or move list that cannot be used, with the reason."""


class AssetError(FifteenError):
    """A database asset is missing, corrupt, truncated or of the wrong kind."""


class AssetWarning(UserWarning):
    """A database directory's manifest cannot be used; its databases are left out."""
