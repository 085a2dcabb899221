"""The command line starts light (issue 47): `dsim --help` must answer in well under a second, so importing the CLI
and printing help load neither Numba nor numpy, pydantic or yaml; listing the games builds no policy registry
(Numba). Checked in a fresh interpreter, by the modules it has loaded, never by timing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
HEAVY = ("numba", "numpy", "pydantic", "yaml", "pandas", "scipy")
OURS = {"numba", "numpy", "yaml", "pandas", "scipy"}  # Typer itself imports pydantic to read a subcommand's options

PROBE = """
import json, sys
args = json.loads(sys.argv[1])
sys.argv = ["dsim", *args]
from dsim.cli import app
if args:
    try:
        app()
    except SystemExit:
        pass
print(json.dumps(sorted(m for m in {heavy} if m in sys.modules)), file=sys.stderr)
"""


def loaded_after(*args: str) -> set[str]:
    """The heavy modules a fresh interpreter holds after running ``dsim ARGS`` (no args: after the import alone)."""
    out = subprocess.run([sys.executable, "-c", PROBE.format(heavy=HEAVY), json.dumps(list(args))],
                         capture_output=True, text=True, cwd=REPO, timeout=120)
    return set(json.loads(out.stderr.strip().splitlines()[-1]))


def test_importing_the_cli_and_its_help_load_no_heavy_module():
    assert loaded_after() == set()
    assert loaded_after("--help") == set()


@pytest.mark.parametrize("args", [("run", "--help"), ("compare", "--help"), ("data", "--help")])
def test_a_commands_help_loads_no_kernel_or_numpy(args: tuple[str, ...]):
    assert not OURS & loaded_after(*args)


def test_listing_the_games_compiles_nothing():
    """`dsim games` says which capabilities a game has without building them (they import kernels). Typer itself
    imports pydantic to read any option's value, so only the project's heavy imports are checked."""
    assert not OURS & loaded_after("games")
