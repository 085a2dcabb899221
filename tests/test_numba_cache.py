"""dsim.numba_cache: a cache folder is named by its sources, and the folders of older sources are pruned."""

from __future__ import annotations

import os
import time
from pathlib import Path

from dsim.numba_cache import STALE_AFTER_S, cache_folder


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
