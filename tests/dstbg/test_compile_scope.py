"""What a cold level-1 run compiles: each kernel function once, and no string code (issue 13: compile only
what runs). Run in a fresh process with an empty Numba cache, so everything is compiled and seen."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from numba import config

pytestmark = pytest.mark.skipif(config.DISABLE_JIT, reason="compiling is what is measured")

_PROBE = """
import json
from numba.core import event
from dsim.bench import select_workloads
from dsim.games import load_game
from dsim.rng import stream_key

workload = select_workloads(["l1-2p"])[0]
game = load_game(workload.game, workload.game_module)
with event.install_recorder("numba:compile") as recorder:
    game.play(workload.settings, 1, stream_key(json.dumps(workload.settings, sort_keys=True)), 0, 2)
compiled = [(e.data["dispatcher"].py_func.__module__, e.data["dispatcher"].py_func.__qualname__, str(e.data["args"]))
            for _, e in recorder.buffer if e.is_start]
print(json.dumps(compiled))
"""


def test_a_cold_level_1_run_compiles_each_kernel_function_once_and_no_string_code(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    compiled = json.loads(run.stdout.strip().splitlines()[-1])
    kernel = [(module, name) for module, name, _ in compiled if module.startswith("dsim.games.dstbg.kernel")]
    assert len(kernel) > 50  # the probe saw the kernel compile (not a load from some cache)
    assert len(kernel) == len(set(kernel)), "a kernel function compiled for two argument types"
    strings = [f"{module}.{name}" for module, name, _ in compiled if "unicode" in module or "unicode" in name]
    assert strings == []  # e.g. an f-string in a raise, or a slice assignment's shape-error message
    steps = {"boss_activation", "boss_setup", "check_heat_up", "pair_survivor",
             "next_card_in_battle"}  # compiled as `return 0`
    boss_code = [name for module, name in kernel if module.endswith((".boss", ".deck")) and name not in steps]
    assert boss_code == []  # an encounter meets no boss: the boss and behaviour-deck rules stay out of its kernel


def test_boss_steps_compile_as_a_no_op_for_an_encounter_and_whole_for_a_boss_battle() -> None:
    """jit.boss_step: an encounter's Tables type gets `return 0`, a boss battle's BossTables the rules (R-12)."""
    from numba import typeof

    from dsim.bench import select_workloads
    from dsim.games.dstbg.game import prepare
    from dsim.games.dstbg.kernel import boss, context as X
    from dsim.games.dstbg.policy import BATTLE_TYPE, PolicyFunctionType
    from dsim.numba_ref import Ref

    for workload, kind, compiled_as in (("l1-2p", X.Tables, "boss_activation_without_bosses"),
                                        ("mini-boss-2p", X.BossTables, "boss_activation")):
        tables = prepare(select_workloads([workload])[0].settings).compiled.tables
        assert type(tables) is kind
        args = (Ref(typeof(tables)), Ref(BATTLE_TYPE), PolicyFunctionType)  # as enemy_turn calls it
        boss.boss_activation.compile(args)
        assert boss.boss_activation.overloads[args].fndesc.qualname == compiled_as
