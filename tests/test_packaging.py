"""A non-editable install carries the game data: setuptools lays out the wheel's contents from ``pyproject.toml``
(the repository's ``data/`` as the package data ``dsim/data``), and dsim run from that layout, outside the checkout,
finds and loads its data."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _packages_in_tree() -> set[str]:
    """Every folder of Python code under dsim/ and policies/, and every data folder, as a package name."""
    found = {"dsim.data"}  # the data root, mapped to data/
    for top in ("dsim", "policies"):
        for path in (ROOT / top).rglob("*.py"):
            if "__pycache__" not in path.parts:
                found.add(".".join(path.parent.relative_to(ROOT).parts))
    for path in (ROOT / "data").rglob("*.yaml"):
        found.add(".".join(("dsim", "data", *path.parent.relative_to(ROOT / "data").parts)))
    return found


def test_pyproject_lists_every_package_and_data_folder() -> None:
    """The package list is spelled out (the data folder is mapped into dsim); a new game's folders must join it."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert set(config["packages"]) == _packages_in_tree()
    assert config["package-dir"] == {"dsim.data": "data"}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What the wheel installs (setuptools' build_py from a copy of the sources, so the checkout stays clean)."""
    source, lib = tmp_path_factory.mktemp("source"), tmp_path_factory.mktemp("lib")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("dsim", "policies", "data"):
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    run = subprocess.run([sys.executable, "-c", "from setuptools import setup; setup()", "-q", "build_py",
                          "--build-lib", str(lib)], cwd=source, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "deprecated" not in run.stderr, run.stderr[-2000:]  # e.g. a data folder installed without being listed
    return lib


def test_the_wheel_carries_every_data_file(built: Path) -> None:
    shipped = sorted(p.relative_to(ROOT / "data").as_posix() for p in (ROOT / "data").rglob("*.yaml"))
    packaged = sorted(p.relative_to(built / "dsim" / "data").as_posix() for p in (built / "dsim" / "data").rglob("*.yaml"))
    assert len(shipped) > 20 and packaged == shipped
    assert (built / "dsim" / "data" / "dstbg" / "bosses" / "gargoyle.yaml").read_bytes() == \
        (ROOT / "data" / "dstbg" / "bosses" / "gargoyle.yaml").read_bytes()


def test_an_installed_dsim_finds_its_data_outside_the_checkout(built: Path, tmp_path: Path) -> None:
    """From another folder, with only the built layout on the path: the data root is the package's, and every
    game's data validates."""
    code = ("import dsim.paths as p; print(p.DATA_ROOT); from dsim.cli import main; import sys; "
            "sys.argv = ['dsim', 'data', 'validate']; main()")
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                         env={"PYTHONPATH": str(built), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.splitlines()[0] == str(built / "dsim" / "data")
