"""The battle kernel's decorators: :data:`kernel`, :data:`allocating` and :data:`boss_step` compile under one cache
folder hashed over the kernel's sources, with the shared machinery of :mod:`dsim.numba_linking` (kernel functions
linked into the entries, which optimise and generate them once); the rule helpers are in ``core``. The small
decorators and pipelines the kernel's files also use (``always_inline``, ``cold``, ``step_reads``, ``in_batch``,
``EntryPipeline`` …) they take from :mod:`dsim.numba_linking` itself."""

from __future__ import annotations

from pathlib import Path
from types import FunctionType

from dsim.numba_linking import KernelDispatcher, KernelPipeline, compiled_under

from numba.core import sigutils, types  # noqa: I001  (after dsim.numba_linking, which checks Numba's version first)
from numba.core.compiler_lock import global_compiler_lock
from numba.core.dispatcher import _FunctionCompiler

from dsim.numba_cache import cache_folder, cache_under, imported_sources


def kernel_sources() -> list[Path]:
    """Every source file whose code is compiled into the kernel (its callees included), and ``engine.py``, whose
    entries' compile options (signature, pipeline) Numba's cache key does not cover, with what they import."""
    here = Path(__file__).resolve().parent
    return imported_sources([*here.glob("*.py"), here.parent / "engine.py"])


KERNEL_CACHE_DIR = cache_folder("dstbg-kernel", kernel_sources(), Path(__file__).resolve().parent / "__pycache__")


def kernel_cache():
    """Cache what is compiled inside under :data:`KERNEL_CACHE_DIR` (:mod:`dsim.numba_cache`)."""
    return cache_under(KERNEL_CACHE_DIR)


def plays_bosses(tables_type: types.Type) -> bool:
    """Whether kernels compiled for this tables type (a reference to one) may meet a boss: the class
    :class:`~dsim.games.dstbg.kernel.context.BossTables`, or any tables type but an encounter's ``Tables``."""
    from dsim.games.dstbg.kernel.context import Tables

    tup = getattr(tables_type, "dtype", tables_type)  # numba_ref.Ref(named tuple) or the named tuple
    return getattr(tup, "instance_class", None) is not Tables


def _without_bosses(t, b, x):
    return 0


class _BossStepDispatcher(KernelDispatcher):
    """A step of the boss rules (R-12) called from rule code every battle runs: for an encounter's tables
    (:func:`plays_bosses` false; its enemy types hold no boss, so the step is never reached) it compiles as
    ``return 0``, so that an encounter's kernel never types or generates the boss and behaviour-deck code
    (a level-1 cold compile went 30.0 -> 22.4 s). Steps of three arguments ``(t, b, x)``."""

    def __init__(self, py_func, locals={}, targetoptions={}, pipeline_class=KernelPipeline):
        super().__init__(py_func, locals=locals, targetoptions=targetoptions, pipeline_class=pipeline_class)
        stub = FunctionType(_without_bosses.__code__, _without_bosses.__globals__, f"{py_func.__name__}_without_bosses")
        stub.__qualname__ = f"{py_func.__qualname__}_without_bosses"
        stub.__module__ = py_func.__module__
        self._skipping = _FunctionCompiler(stub, self.targetdescr, targetoptions, locals, pipeline_class)

    def compile(self, sig):
        args, _ = sigutils.normalize_signature(sig)
        if plays_bosses(args[0]):
            return super().compile(sig)
        with global_compiler_lock:  # the stub's result is cached under this signature, as the step's own would be
            steps, self._compiler = self._compiler, self._skipping
            try:
                return super().compile(sig)
            finally:
                self._compiler = steps


def _compiled(nrt: bool):
    """Decorator: a cached battle-kernel function with or without reference counting."""
    return compiled_under(KERNEL_CACHE_DIR, nrt)


kernel = _compiled(nrt=False)
boss_step = compiled_under(KERNEL_CACHE_DIR, False, _BossStepDispatcher)  # decorator: see _BossStepDispatcher
allocating = _compiled(nrt=True)
