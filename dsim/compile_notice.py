"""Say when Numba starts compiling, so a command never goes quiet for a minute without a word.

A first run of a kind of play compiles its kernel (tens of seconds on 2 cores); later runs load it from the
on-disk cache in a second. The command line calls :func:`announce` with where to write; the kernels' first
import calls :func:`install` (it needs Numba, which this module does not import, so ``dsim --help`` stays
light). Numba signals a compile only on a cache miss, so a cached run says nothing. Library use is silent.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

FIRST_AFTER_S = 1.0  # the first line once a compile has lasted this long
HEARTBEAT_S = 30.0  # a line this often while compiling: a log or a non-terminal sees the command is alive
FIRST_LINE = ("Compiling the kernels for this run: the first run of this kind takes half a minute to a minute on a "
              "quiet 2-core machine (longer on a busy one), later ones load them from the disk cache (`dsim warm` "
              "compiles ahead).")

_say: Callable[[str], None] | None = None
_expected_cpu_s: float | None = None  # what the coming compile costs if nothing is cached (expect())


def wall_estimate(cpu_s: float, load: float | None = None, cores: int | None = None) -> float:
    """Seconds a compile of ``cpu_s`` CPU seconds takes now: Numba compiles on one core, which ``load`` runnable
    processes (the 1-minute load average) share among ``cores`` (both read from the machine when not given)."""
    if load is None:
        try:
            load = os.getloadavg()[0]
        except OSError:  # no load average on this platform: assume a quiet machine
            load = 0.0
    cores = cores or os.cpu_count() or 1
    return cpu_s * max(1.0, load / cores)


def estimate_text(cpu_s: float) -> str:
    """``about N s`` of a compile of ``cpu_s`` CPU seconds (measured on a quiet 2-core machine), with its likely length
    at this machine's load now when that is longer."""
    wall = wall_estimate(cpu_s)
    busy = f"; about {_duration(wall)} at this machine's load now" if wall > 1.5 * cpu_s else ""
    return f"about {_duration(cpu_s)} on a quiet 2-core machine{busy}"


def _duration(seconds: float) -> str:
    """``40 s`` or ``3 min``."""
    return f"{seconds:,.0f} s" if seconds < 120 else f"{seconds / 60:,.0f} min"


def expect(cpu_s: float | None) -> None:
    """A command about to play says what a compile would cost if nothing it needs is cached (CPU seconds on a quiet
    2-core machine, :attr:`dsim.games.base.Game.compile_cpu_s`); the first compile notice then gives the estimate.
    ``None``: no estimate."""
    global _expected_cpu_s
    _expected_cpu_s = cpu_s


def first_line() -> str:
    """The first compile notice: :data:`FIRST_LINE`, or with the estimate of :func:`expect` when there is one."""
    if _expected_cpu_s is None:
        return FIRST_LINE
    return (f"Compiling the kernels for this run: {estimate_text(_expected_cpu_s)} when none is cached (less when "
            "some are); later runs load them from the disk cache (`dsim warm` compiles ahead).")


def announce(say: Callable[[str], None] | None, first_line: bool = True) -> None:
    """Write compile notices with ``say`` from now on (``None``: be silent again); ``first_line=False`` for a
    command that has said already that it compiles (only the heartbeat then)."""
    global _say
    _say = say
    if not first_line:
        _COMPILES.said_first = True


class _Compiles:
    """Counts nested compiles (a kernel compiles its callees inside its own compile): the first outermost one that
    lasts :data:`FIRST_AFTER_S` says :func:`first_line`, and while any runs a heartbeat says how long so far."""

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
            say(first_line())
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
