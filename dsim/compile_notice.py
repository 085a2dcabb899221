"""Say when Numba starts compiling, so a command never goes quiet for a minute without a word.

A first run of a kind of play compiles its kernel (tens of seconds on 2 cores); later runs load it from the
on-disk cache in a second. The command line calls :func:`announce` with where to write; the kernels' first
import calls :func:`install` (it needs Numba, which this module does not import, so ``dsim --help`` stays
light). Numba signals a compile only on a cache miss, so a cached run says nothing. Library use is silent.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

FIRST_AFTER_S = 1.0  # the first line once a compile has lasted this long
HEARTBEAT_S = 30.0  # a line this often while compiling: a log or a non-terminal sees the command is alive
FIRST_LINE = ("Compiling the kernels for this run: the first run of this kind takes a minute or two on 2 cores, "
              "later ones load them from the disk cache (`dsim warm` compiles ahead).")

_say: Callable[[str], None] | None = None


def announce(say: Callable[[str], None] | None, first_line: bool = True) -> None:
    """Write compile notices with ``say`` from now on (``None``: be silent again); ``first_line=False`` for a
    command that has said already that it compiles (only the heartbeat then)."""
    global _say
    _say = say
    if not first_line:
        _COMPILES.said_first = True


class _Compiles:
    """Counts nested compiles (a kernel compiles its callees inside its own compile): the first outermost one that
    lasts :data:`FIRST_AFTER_S` says :data:`FIRST_LINE`, and while any runs a heartbeat says how long so far."""

    def __init__(self) -> None:
        self.depth = 0
        self.said_first = False
        self.total_s = 0.0
        self.started = 0.0
        self.stop = threading.Event()

    def start(self) -> None:
        self.depth += 1
        if self.depth > 1:
            return
        self.started = time.perf_counter()
        if _say is None:
            return
        self.stop = threading.Event()
        threading.Thread(target=self._beat, args=(self.stop,), daemon=True).start()

    def end(self) -> None:
        self.depth = max(self.depth - 1, 0)
        if self.depth == 0 and self.started:
            self.total_s += time.perf_counter() - self.started
            self.started = 0.0
            self.stop.set()

    def _beat(self, stop: threading.Event) -> None:
        if stop.wait(FIRST_AFTER_S):  # a compile this short goes unsaid (and a run that fails at once says only why)
            return
        say = _say
        if say is not None and not self.said_first:
            self.said_first = True
            say(FIRST_LINE)
        while not stop.wait(HEARTBEAT_S):
            say = _say
            if say is not None and self.started:
                say(f"… still compiling ({self.total_s + time.perf_counter() - self.started:,.0f} s so far)")


_COMPILES = _Compiles()


def seconds_compiling() -> float:
    """Seconds this process has spent in Numba compiles so far (0 when every kernel came from the cache)."""
    running = time.perf_counter() - _COMPILES.started if _COMPILES.started else 0.0
    return _COMPILES.total_s + running


def install() -> None:
    """Listen to Numba's compile events (once per process; called where the kernels first import Numba)."""
    from numba.core import event

    if getattr(install, "done", False):
        return
    install.done = True  # type: ignore[attr-defined]

    class Listener(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            _COMPILES.start()

        def on_end(self, ev: event.Event) -> None:
            _COMPILES.end()

    event.register("numba:compile", Listener())
