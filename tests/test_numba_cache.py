"""dsim.numba_cache: a cache folder is named by its sources, found from the kernel's imports, and the folders of
older sources are pruned."""

from __future__ import annotations

import os
import time
from pathlib import Path

from dsim.numba_cache import STALE_AFTER_S, cache_folder, imported_sources


def _folder(base: Path, name: str, age_s: float) -> Path:
    path = base / name
    path.mkdir()
    (path / "index.nbi").write_bytes(b"x")
    then = time.time() - age_s
    os.utime(path, (then, then))
    return path


def test_folders_of_older_sources_are_pruned_and_nothing_else(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    source = tmp_path / "kernel.py"
    source.write_text("x = 1\n")
    base = tmp_path / "__pycache__"
    base.mkdir()
    old = _folder(base, "game-kernel-0123456789abcdef", 2 * STALE_AFTER_S)
    recent = _folder(base, "game-kernel-fedcba9876543210", 60)  # maybe still filled by a running process
    other = _folder(base, "game-kernel-extra-0123456789abcdef", 2 * STALE_AFTER_S)  # another name's folder
    not_ours = _folder(base, "game-kernel-notes", 2 * STALE_AFTER_S)
    current = Path(cache_folder("game-kernel", [source], base))
    assert current.parent == base and current.name.startswith("game-kernel-")
    assert not old.exists()
    assert recent.exists() and other.exists() and not_ours.exists()
    current.mkdir()
    source.write_text("x = 2\n")  # an edit: a new folder; the last one is recent, so it stays for now
    assert Path(cache_folder("game-kernel", [source], base)) != current and current.exists()


def test_a_chosen_numba_cache_dir_is_never_pruned(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    source = tmp_path / "kernel.py"
    source.write_text("x = 1\n")
    old = _folder(tmp_path, "game-kernel-0123456789abcdef", 2 * STALE_AFTER_S)
    assert Path(cache_folder("game-kernel", [source], tmp_path / "unused")).parent == tmp_path
    assert old.exists()  # another checkout sharing this folder may use it


def _package(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_kernels_sources_are_what_it_imports_at_module_level_transitively(tmp_path):
    """Every module a kernel imports when it is imported (directly, relatively, through another, in a ``try``) is
    a source; an import that never runs at import (``if TYPE_CHECKING:``, inside a function) or leaves the package
    (numpy) is not, nor is a module nobody imports."""
    _package(tmp_path, {
        "game/__init__.py": "",
        "game/kernel/__init__.py": "",
        "game/kernel/rules.py": "import numpy as np\nfrom game.kernel import layout as L\nfrom .helpers import step\n"
                                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from game import cli\n"
                                "def later():\n    from game import report\n",
        "game/kernel/layout.py": "try:\n    import game.rng\nexcept ImportError:\n    pass\n",
        "game/kernel/helpers.py": "from game.shared import table\n",
        "game/shared/__init__.py": "",
        "game/shared/table.py": "X = 1\n",
        "game/rng.py": "",
        "game/cli.py": "", "game/report.py": "", "game/unused.py": "",
    })
    found = {p.relative_to(tmp_path).as_posix() for p in imported_sources([tmp_path / "game/kernel/rules.py"])}
    assert found == {"game/kernel/rules.py", "game/kernel/__init__.py", "game/kernel/layout.py", "game/kernel/helpers.py",
                     "game/shared/__init__.py", "game/shared/table.py", "game/rng.py"}


def test_every_game_kernel_cache_covers_its_engine_and_the_shared_modules_it_calls():
    """The hand-kept lists disagreed between games (one forgot its engine, another numba_ref): now each kernel's
    sources are found from its imports and all cover their engine, rng and the cache module itself."""
    from dsim.games.bloodborne.kernel import jit as bloodborne
    from dsim.games.dark_maiden.kernel import jit as dark_maiden
    from dsim.games.dstbg.kernel import jit as dstbg
    from dsim.games.dstbg_game.kernel import jit as dstbg_game

    root = Path(__file__).resolve().parents[1]
    for name, sources in (("bloodborne", bloodborne.SOURCES), ("dark_maiden", dark_maiden.SOURCES),
                          ("dstbg", dstbg.kernel_sources()), ("dstbg_game", dstbg_game.GAME_SOURCES)):
        files = {p.relative_to(root).as_posix() for p in sources}
        assert {f"dsim/games/{name}/engine.py", "dsim/rng.py", "dsim/numba_cache.py"} <= files, name
    assert "dsim/numba_linking.py" in {p.relative_to(root).as_posix() for p in dstbg_game.GAME_SOURCES}
    battle_kernel = set((root / "dsim/games/dstbg/kernel").glob("*.py"))
    assert battle_kernel < set(dstbg.kernel_sources()) and battle_kernel < set(dstbg_game.GAME_SOURCES)  # it links them


def test_the_memo_of_imports_follows_an_edit(tmp_path):
    """Imports are parsed once per file version (a memo by size and modification time, under the package's
    ``__pycache__``): an edited file is parsed again."""
    from dsim.numba_cache import _closure

    _package(tmp_path, {"game/__init__.py": "", "game/a.py": "", "game/b.py": "", "game/k.py": "import game.a\n"})
    kernel = tmp_path / "game/k.py"
    assert {p.name for p in imported_sources([kernel])} == {"k.py", "a.py"}
    assert (tmp_path / "game/__pycache__/dsim-imports.json").is_file()
    kernel.write_text("import game.b\nimport game.a\n")
    _closure.cache_clear()  # a process computes a kernel's sources once; a new process would start here
    assert {p.name for p in imported_sources([kernel])} == {"k.py", "a.py", "b.py"}
