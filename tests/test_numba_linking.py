"""The shared compile machinery (dsim.numba_linking): it refuses an untested Numba with one line, and its one
process-wide change to Numba (at import) touches nothing else."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dsim.numba_version import TESTED, UnsupportedNumba, check

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("version", ["0.60.0", "0.67.9", "0.69.0", "1.0.0", "0.68", "dev"])
def test_a_numba_outside_the_tested_range_is_refused_in_one_line(version: str) -> None:
    if version == "0.68":  # a bare minor version inside the range is fine
        check(version)
        return
    with pytest.raises(UnsupportedNumba) as caught:
        check(version)
    message = str(caught.value)
    assert "\n" not in message and f"numba {version}:" in message and "numba>=0.68,<0.69" in message


def test_the_installed_numba_is_in_the_range_pyproject_pins() -> None:
    import numba

    check(numba.__version__)
    (low_major, low_minor), (high_major, high_minor) = TESTED
    pin = f'"numba>={low_major}.{low_minor},<{high_major}.{high_minor}"'
    assert pin in (ROOT / "pyproject.toml").read_text()


def _python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_the_command_line_says_one_line_on_an_untested_numba() -> None:
    """`dsim run` with a Numba reporting 0.60.0 (monkeypatched in the process) ends before compiling anything."""
    run = _python("""
        import sys
        import numba
        numba.__version__ = "0.60.0"
        sys.argv = ["dsim", "run", "--party", "knight", "--encounter", "the_forgotten", "--battles", "10"]
        from dsim.cli import main
        main()
    """)
    assert run.returncode == 1, run.stderr[-2000:]
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: dsim's kernels are tested on numba >=0.68,<0.69"), lines
    assert "Traceback" not in run.stderr


def test_importing_the_machinery_changes_only_the_integer_index_fix_up_of_numba() -> None:
    """Every attribute of every Numba and llvmlite module loaded before the import is the same object after it,
    except ``numba.np.arrayobj.fix_integer_index``; ordinary compiled code still reads ``a[-1]`` from the end, and
    the two link-time constants are process-wide symbols under dsim's own names."""
    run = _python("""
        import sys, types
        import numpy as np
        import llvmlite.binding as ll
        import numba
        from numba.core import cgutils, codegen, compiler, compiler_machinery, config, dispatcher, registry
        from numba.core import itanium_mangler, typed_passes
        from numba.np import arrayobj

        def snapshot():
            return {(name, attr): id(value) for name, module in list(sys.modules.items())
                    if name.split(".")[0] in ("numba", "llvmlite") and module is not None
                    for attr, value in list(vars(module).items()) if not isinstance(value, types.ModuleType)}

        before = snapshot()
        original = arrayobj.fix_integer_index
        import dsim.numba_linking as linking
        after = snapshot()
        changed = sorted(key for key in before if after.get(key) != before[key])
        print(changed)
        print(arrayobj.fix_integer_index is linking._kernel_integer_index, linking._wrapping_integer_index is original)
        print(numba.njit(lambda a, i: a[i])(np.arange(5), -1), numba.njit(lambda a: a[-2])(np.arange(5)))
        print(ll.address_of_symbol("dsim_entry_step_reads") != 0, ll.address_of_symbol("dsim_entry_batch") != 0)
        import importlib
        importlib.reload(linking)  # a second import wraps Numba's own function again, not its own wrapper
        print(linking._wrapping_integer_index is original)
    """)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split("\n")[:5] == ["[('numba.np.arrayobj', 'fix_integer_index')]", "True True", "4 3",
                                          "True True", "True"], run.stdout
