"""Reading the files users hand dsim (data overlays, experiment files, manifests) without hanging or filling memory.

A named pipe blocks ``open`` until someone writes to it, and a link to ``/dev/zero`` never ends: every file dsim
reads goes through :func:`read_regular`, which looks at what the path is before opening it and reads a bounded size.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_FILE_BYTES = 32 * 2**20  # the largest shipped data file is 60 kB, a large experiment's manifest a few MB

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


class NotARegularFile(Exception):
    """Why a path cannot be read as a file: one phrase without the path (the caller names it in its own error)."""


def kind_of(mode: int) -> str:
    """``a named pipe (FIFO)``, ``a directory``, …: what a ``stat`` mode says a path is."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_regular(path: str | os.PathLike[str], expected: str = "a YAML file", limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of ``path`` (links followed), which must be a regular file of at most ``limit`` bytes; anything else
    raises :class:`NotARegularFile` ("expected a YAML file, found a named pipe (FIFO)") before a byte is read."""
    try:
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):
            raise NotARegularFile(f"expected {expected}, found {kind_of(mode)}")
        # O_NONBLOCK: should the path become a pipe after the stat, open returns at once and fstat refuses it
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise NotARegularFile(f"cannot read file: {exc.strerror or exc}") from None
    with os.fdopen(descriptor, "rb") as handle:
        mode = os.fstat(handle.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise NotARegularFile(f"expected {expected}, found {kind_of(mode)}")
        try:
            data = handle.read(limit + 1)  # bounded even when the file grows while it is read
        except OSError as exc:
            raise NotARegularFile(f"cannot read file: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise NotARegularFile(f"larger than {limit:,} bytes; expected {expected}")
    return data


def what_is(path: Path) -> str:
    """What a path that is not what was wanted is, for an error line: ``a file``, ``a named pipe (FIFO)``, …"""
    try:
        mode = path.stat().st_mode
    except OSError:
        return "missing"
    return "a file" if stat.S_ISREG(mode) else kind_of(mode)
