"""Run the CLI as a terminal would for a Ctrl-C test: in its own process group (so a SIGINT to
the group reaches it and its workers, not pytest) and with SIGINT handled by default.

A job started in the background of a non-interactive shell (``make test &`` in a script, CI
runners) inherits SIGINT *ignored*, and Python then leaves it ignored: without the reset, such
a run would test nothing but the inherited setting."""

from __future__ import annotations

import signal
import subprocess
from typing import Any


def _interruptible() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def popen_interruptible(args: list[str], **kw: Any) -> subprocess.Popen:
    """:class:`subprocess.Popen` in a new session with SIGINT at its default."""
    return subprocess.Popen(args, start_new_session=True, preexec_fn=_interruptible, **kw)
