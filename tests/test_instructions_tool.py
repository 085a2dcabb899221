"""`benchmarks/instructions.py`: Numba symbols read as module.function, callgrind's call counts, and a
counted run that names the kernel's functions and counts the same instructions twice."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys

import pytest

from dsim.bench import select_workloads
from dsim.paths import REPO_ROOT

TOOL = REPO_ROOT / "benchmarks" / "instructions.py"
_spec = importlib.util.spec_from_file_location("instructions_tool", TOOL)
tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tool)

DECIDE = ("_ZN4dsim5games5dstbg6kernel4core6decideB3v90B62c8tJTIeFIjxB2IKSgI4CrvSCKg1MMfAwQ4s_2bqELMyIZLgH0J5mkCAA"
          "_3d_3dE425Ref_28Battle_28array_28int32_2c_201d_2c_20C_29_29_29")


def test_numba_symbols_read_as_module_and_function():
    assert tool.demangle(DECIDE) == "core.decide"
    assert tool.demangle("cfunc." + DECIDE) == "cfunc core.decide"
    assert tool.demangle("_ZN7cpython4dsim5games6battle4playB3v11E") == "cpython battle.play"
    assert tool.demangle("memset") == "memset"


def test_calls_are_summed_per_callee(tmp_path):
    out = tmp_path / "callgrind.out"
    out.write_text("\n".join([
        "events: Ir", "fn=(1) 0x0000000000001000", "0 5",
        "cfn=(2) 0x0000000000002000", "calls=3 0", "0 30",
        "cfn=(2)", "calls=4 0", "0 40",
        "fn=(2)", "0 70",
    ]))
    calls = tool._calls(out)
    assert calls["0x0000000000002000"] == 7
    assert tool._name("0x0000000000002000", {0x2000: "core.decide"}) == "core.decide"
    assert tool._name("???:0x0000000000003000 [???]", {}) == "0x0000000000003000"


@pytest.mark.skipif(not shutil.which("valgrind"), reason="valgrind is not installed")
def test_a_counted_run_names_the_kernel_and_is_repeatable():
    workload = select_workloads(["l1-2p"])[0]
    first = tool.count(workload, 20)
    rounds, costs, calls, total = first
    assert rounds > 1
    assert costs["core.decide"] > 0 and calls["core.decide"] >= 20  # at least one decision per battle
    assert costs["character.step_features"] > 0
    assert sum(costs.values()) <= total
    again = tool.count(workload, 20)
    for name in ("core.decide", "character.step_features", "character.move_phase", "battle.setup"):
        assert again[1][name] == costs[name]  # the kernel's counts, unlike seconds, repeat exactly
    assert abs(again[3] - total) < 0.01 * total  # Python's own share varies a little (hash seeds)


def test_the_tool_refuses_an_unknown_workload_in_one_line():
    done = subprocess.run([sys.executable, str(TOOL), "nope"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "no workload matches 'nope'" in done.stderr and "Traceback" not in done.stderr
