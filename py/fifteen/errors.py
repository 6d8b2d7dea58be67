"""The errors Fifteen raises for bad input or bad data: one hierarchy, each with a message meant
for a person and a stable code meant for a program.

::

    ValueError
     └─ FifteenError      anything this package refuses
         ├─ InputError    a position, shape, bound, move list, parameter or file that cannot be used
         └─ AssetError    a database asset that is missing, corrupt, truncated or of the wrong kind,
                          or one an answer contradicts (fifteen.optimal.check_answer)

The CLI prints them (exit status 2) and :func:`fifteen.api.call` reports them as
``{"type": "input", "code": ..., "message": ...}`` (or ``"type": "asset"``); never a traceback.
A message is one line of at most :data:`MESSAGE_CHARS` characters (control characters escaped, a
longer one cut), whatever it quotes.  Its wording may change; its :attr:`FifteenError.code`, one
of :data:`ERROR_CODES`, does not: a program (the page) tells errors apart by the code.

A database directory whose ``manifest.json`` cannot be used (not JSON, or JSON of the wrong
shape) is an :class:`AssetWarning`: the solver goes on without those databases.
"""

#: The longest message of a :class:`FifteenError` (longer ones are cut).
MESSAGE_CHARS = 300

#: The types of the API's errors (:func:`fifteen.api.call`): ``input`` and ``asset`` are
#: :class:`InputError` and :class:`AssetError`; ``cancelled`` a search stopped on request;
#: ``internal`` a bug.
ERROR_TYPES: tuple[str, ...] = ("input", "asset", "cancelled", "internal")

#: Every error code (a closed list: ``python -m fifteen schema`` prints it) and what it means.
ERROR_CODES: dict[str, str] = {
    # input: a position or a shape
    "too_long": "an input over a size limit: a text, the parameters, a number's digits, a list, the nesting",
    "token": "a piece of a position or shape that is not a number written with the digits 0-9",
    "range": "a number out of its range: a tile, a count of jobs or workers, a budget, a distance",
    "count": "the wrong number of tiles for the board (none, too few, too many)",
    "duplicate": "something given twice: a tile, the id of a batch line, a task's outcome",
    "unsolvable": "a position that cannot reach the goal (the parity of its tiles and blank)",
    "shape": "a board shape that is not of the form RxC, or not a supported size",
    # input: what to do with it
    "moves": "a move list that cannot be used: not tile numbers or directions, a tile not next to the blank, not reaching the goal",
    "bound": "an unknown bound, or one the board does not offer",
    "unavailable": "something this board or installation does not have: an explorer table, Dask",
    "param": "a parameter, option or record of the wrong kind, or one the method does not take",
    "method": "an unknown API method",
    "usage": "a command line the argument parser refused",
    "file": "a file or directory that cannot be read or written: missing, a directory, no permission, a full disk",
    # asset
    "asset_missing": "a database asset or directory that is not there or cannot be read",
    "asset_corrupt": (
        "a database asset that is corrupt (its checksum or SHA-256 differs, or an answer found with it does not replay),"
        " truncated, of another format version or of the wrong kind"
    ),
    # the others
    "worker": "worker processes kept dying or failed: no answer",
    "cancelled": "the call was cancelled",
    "internal": "a bug: the message names the error and where it happened",
}


#: The codes of errors that are no fault of the input: a database, a worker that died, a bug, a
#: cancel.  Every other code is an input's (a batch's resume runs the lines of these again).
NOT_INPUT_CODES: tuple[str, ...] = ("asset_missing", "asset_corrupt", "worker", "cancelled", "internal")


class FifteenError(ValueError):
    """Base class of the errors this package raises for bad input or data: a message for a
    person and a :attr:`code` (one of :data:`ERROR_CODES`) for a program."""

    code: str

    def __init__(self, message: object = "", *, code: str) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown error code {code!r}")
        text = str(message)
        if not text.isprintable():  # one line, whatever it quotes: control characters escaped
            text = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)
        if len(text) > MESSAGE_CHARS:
            text = text[: MESSAGE_CHARS - 3] + "..."
        super().__init__(text)
        self.code = code

    def __reduce__(self):  # pickled (a worker process's error) with its code
        return _rebuild, (type(self), str(self), self.code)


def _rebuild(cls: type[FifteenError], message: str, code: str) -> FifteenError:
    return cls(message, code=code)


class InputError(FifteenError):
    """A position, shape, bound, move list, parameter or file that cannot be used, with the reason."""


class AssetError(FifteenError):
    """A database asset is missing, corrupt, truncated or of the wrong kind."""


class AssetWarning(UserWarning):
    """A database directory's manifest cannot be used; its databases are left out."""
