"""Numba's on-disk cache, made safe across files: a cache folder named by a hash of the sources.

Numba checks only a cached function's own source file, so after an edit to a module whose
functions it calls (and links into its machine code), it would load stale code. Compiling under
:func:`cache_under` a folder from :func:`cache_folder` ties the cache to every source listed; every game lists
:func:`imported_sources` of its kernel's modules and its engine (whose entries' compile options Numba's own key
ignores): the files they import, found by reading their imports, never a list kept by hand.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import shutil
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from numba.core import config


STALE_AFTER_S = 3600.0  # a folder of other sources left untouched this long is pruned (no process still fills it)


def cache_folder(name: str, sources: Iterable[Path], default_base: Path) -> str:
    """``<NUMBA_CACHE_DIR or default_base>/<name>-<hash of the sources' names and bytes>``; under ``default_base``
    the folders of ``name`` for other sources are pruned (:func:`prune_stale`)."""
    digest = hashlib.sha256()
    for path in sources:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    folder = os.path.join(chosen or str(default_base), f"{name}-{digest.hexdigest()[:16]}")
    if not chosen:
        prune_stale(Path(default_base), name, folder)
    return folder


def _module_imports(path: Path, package: list[str]) -> list[str]:
    """Dotted names a source file imports when it is imported: its module-level imports, those inside ``if``/``try``
    blocks too, but none under ``if TYPE_CHECKING:`` (never run) nor inside a function or class (run later, if ever;
    compiled code cannot import)."""
    names: list[str] = []
    stack: list[ast.AST] = list(ast.parse(path.read_bytes(), str(path)).body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If):
            if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                stack.extend(node.body)
            stack.extend(node.orelse)
        elif isinstance(node, ast.Try):
            stack.extend([*node.body, *node.orelse, *node.finalbody, *(s for h in node.handlers for s in h.body)])
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            names += [base, *(f"{base}.{alias.name}" for alias in node.names)]
    return names


class _ImportsMemo:
    """:func:`_module_imports` of each file, kept in ``<top package>/__pycache__/dsim-imports.json`` by the file's
    size and modification time, as Python keeps its bytecode: parsing a kernel's fifty files took 0.6 s of every
    start. A memo that cannot be read or written is only slower."""

    def __init__(self, top: Path) -> None:
        self.path = top / "__pycache__" / "dsim-imports.json"
        try:
            self.known = json.loads(self.path.read_text())
        except (OSError, ValueError):
            self.known = {}
        self.changed = False

    def imports(self, path: Path, package: list[str]) -> list[str]:
        stat = path.stat()
        stamp = [stat.st_mtime_ns, stat.st_size]
        entry = self.known.get(str(path))
        if not (isinstance(entry, list) and len(entry) == 2 and entry[0] == stamp):
            entry = [stamp, _module_imports(path, package)]
            self.known[str(path)] = entry
            self.changed = True
        return list(entry[1])

    def save(self) -> None:
        if not self.changed:
            return
        try:
            self.path.parent.mkdir(exist_ok=True)
            scratch = self.path.with_name(f"{self.path.name}.{os.getpid()}.{threading.get_ident()}")
            scratch.write_text(json.dumps(self.known))
            os.replace(scratch, self.path)
        except OSError:
            pass


def imported_sources(files: Iterable[Path]) -> list[Path]:
    """``files`` and every source file of their top packages that they import, directly or not (sorted): what a
    kernel's cache key must cover, found from the imports rather than listed by hand (a list kept by hand forgets
    the callee a later edit adds). A package's ``__init__`` counts only when imported from by name."""
    return list(_closure(tuple(sorted(Path(f).resolve() for f in files))))


@lru_cache(maxsize=None)
def _closure(files: tuple[Path, ...]) -> tuple[Path, ...]:
    """:func:`imported_sources` of resolved, sorted ``files`` (once per process: kernels and entries ask again)."""
    top = files[0].parent
    while (top.parent / "__init__.py").exists():
        top = top.parent
    root, packages = top.parent, {top.name}

    def module_of(path: Path) -> list[str]:
        parts = list(path.relative_to(root).with_suffix("").parts)
        return parts[:-1] if parts[-1] == "__init__" else parts

    def source(dotted: str) -> Path | None:
        parts = dotted.split(".")
        if parts[0] not in packages:
            return None
        base = root.joinpath(*parts)
        for path in (base.with_suffix(".py"), base / "__init__.py"):
            if path.is_file():
                return path
        return None

    memo = _ImportsMemo(top)
    found: set[Path] = set()
    todo = list(files)
    while todo:
        path = todo.pop()
        if path in found:
            continue
        found.add(path)
        parts = module_of(path)
        package = parts if path.name == "__init__.py" else parts[:-1]
        for dotted in memo.imports(path, package):
            target = source(dotted)
            if target is not None:
                todo.append(target)
    memo.save()
    return tuple(sorted(found))


def prune_stale(base: Path, name: str, keep: str) -> None:
    """Remove the folders ``<name>-<16 hex digits>`` in ``base`` but ``keep`` that were not written to for
    :data:`STALE_AFTER_S`: each edit or upgrade of the sources leaves one behind (a working copy had gathered
    2.2 GB). Only under the sources' own ``__pycache__``: a chosen ``NUMBA_CACHE_DIR`` may be shared with another
    checkout whose folders are in use. Best effort: a folder that cannot be read or removed stays."""
    pattern = re.compile(re.escape(name) + r"-[0-9a-f]{16}")
    try:
        entries = list(os.scandir(base))
    except OSError:
        return
    now = time.time()
    for entry in entries:
        try:
            stale = (entry.path != keep and pattern.fullmatch(entry.name) is not None
                     and entry.is_dir(follow_symlinks=False) and now - entry.stat().st_mtime > STALE_AFTER_S)
        except OSError:
            continue
        if stale:
            shutil.rmtree(entry.path, ignore_errors=True)


_CACHE_DIR_LOCK = threading.RLock()


@contextmanager
def cache_under(folder: str) -> Iterator[None]:
    """Functions decorated (or compiled with an explicit signature) inside cache under ``folder``. Numba's cache
    folder is one setting for the process, so one thread at a time (Numba compiles one at a time anyway)."""
    with _CACHE_DIR_LOCK:
        previous = config.CACHE_DIR
        config.CACHE_DIR = folder
        try:
            yield
        finally:
            config.CACHE_DIR = previous


class KernelCompiler:
    """The decorators of one game's kernel, every function cached under one folder hashed over the kernel's
    sources (so an edit to any of them recompiles all): ``jit`` for step functions, ``allocating`` for the few
    that make arrays, ``cache()`` for entries compiled with an explicit signature."""

    def __init__(self, name: str, sources: Iterable[Path], default_base: Path) -> None:
        self.folder = cache_folder(name, sources, default_base)

    def cache(self):
        """Compile under :attr:`folder`."""
        return cache_under(self.folder)

    def jit(self, func=None, *, inline: bool = False):
        """A cached kernel function that never allocates, so it runs without reference counting (passing a
        many-array state would otherwise cost two atomic counter updates per array per call); plain Python
        under ``NUMBA_DISABLE_JIT=1``. ``inline=True`` inlines it into its callers (Numba IR): a call passes
        the state and tables as a few hundred machine words, which costs more than a small hot step itself."""
        from numba import njit

        if func is None:
            return lambda f: self.jit(f, inline=inline)
        with self.cache():
            return njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True,
                        inline="always" if inline else "never")(func)

    def entry(self, impl):
        """A Python-callable entry compiled (or loaded from the cache) now, with reference counting; ``impl``
        itself under ``NUMBA_DISABLE_JIT=1``."""
        from numba import config, njit

        if config.DISABLE_JIT:
            return impl
        with self.cache():
            return njit(cache=True)(impl)

    def allocating(self, func):
        """A cached kernel function that allocates (with reference counting)."""
        from numba import njit

        with self.cache():
            return njit(cache=True)(func)
