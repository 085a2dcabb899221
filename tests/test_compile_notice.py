"""The command line says when a run compiles (issue 47: no minute of silence), and only then."""

from __future__ import annotations

import threading

import pytest
from numba import njit

from dsim import compile_notice
import dsim.rng  # noqa: F401  (importing the kernels' randomness installs the listener)


@pytest.fixture
def said(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    lines: list[str] = []
    monkeypatch.setattr(compile_notice, "_COMPILES", compile_notice._Compiles())
    monkeypatch.setattr(compile_notice, "_expected_cpu_s", None)  # an earlier run in this worker may have set one
    compile_notice.announce(lines.append)
    yield lines
    compile_notice.announce(None)


def test_a_compile_is_announced_once_per_process(said: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    announced = threading.Event()
    monkeypatch.setattr(compile_notice, "FIRST_AFTER_S", 0.0)
    compile_notice.announce(lambda line: (said.append(line), announced.set()))
    njit(lambda x: x + 1)(1)  # a new function: no cache to load, so Numba compiles
    assert announced.wait(10)
    njit(lambda x: x + 2)(1)
    assert said == [compile_notice.FIRST_LINE]


def test_a_short_compile_goes_unsaid(said: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compile_notice, "FIRST_AFTER_S", 3_600.0)
    njit(lambda x: x + 4)(1)
    assert said == []


def test_a_loaded_function_says_nothing(said: list[str]) -> None:
    add = njit(lambda x: x + 3)
    add(1)
    said.clear()
    add(2)  # compiled already: no compile event
    assert said == []


def test_library_use_is_silent() -> None:
    compile_notice.announce(None)
    njit(lambda x: x * 5)(1)  # would raise in the listener if it wrote without a destination


def test_a_long_compile_keeps_saying_it_is_alive(monkeypatch: pytest.MonkeyPatch, said: list[str]) -> None:
    beat = threading.Event()
    monkeypatch.setattr(compile_notice, "HEARTBEAT_S", 0.01)
    monkeypatch.setattr(compile_notice, "FIRST_AFTER_S", 0.0)
    compile_notice.announce(lambda line: (said.append(line), "still compiling" in line and beat.set()))
    compiles = compile_notice._COMPILES
    compiles.start()
    compiles.start()  # a callee compiled inside: no second first line
    try:
        assert beat.wait(10), said
    finally:
        compiles.end()
        compiles.end()
    assert said[0] == compile_notice.FIRST_LINE and said.count(compile_notice.FIRST_LINE) == 1
    assert compiles.depth == 0 and compiles.stop.is_set()


def test_the_wall_estimate_scales_the_cpu_seconds_by_the_load_per_core() -> None:
    assert compile_notice.wall_estimate(40.0, load=1.0, cores=2) == 40.0  # a quiet machine: one core is free
    assert compile_notice.wall_estimate(40.0, load=8.0, cores=2) == 160.0  # four runnable processes a core


def test_the_first_notice_gives_the_expected_compile_and_its_length_at_the_load_now(
        said: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compile_notice.os, "getloadavg", lambda: (8.0, 8.0, 8.0))
    monkeypatch.setattr(compile_notice.os, "cpu_count", lambda: 2)
    compile_notice.expect(39.0)
    try:
        assert "about 39 s on a quiet 2-core machine; about 3 min at this machine's load now" in \
            compile_notice.first_line()
        monkeypatch.setattr(compile_notice.os, "getloadavg", lambda: (0.5, 0.5, 0.5))
        assert "at this machine's load" not in compile_notice.first_line()  # quiet: the quiet figure only
        announced = threading.Event()
        monkeypatch.setattr(compile_notice, "FIRST_AFTER_S", 0.0)
        compile_notice.announce(lambda line: (said.append(line), announced.set()))
        njit(lambda x: x + 6)(1)
        assert announced.wait(10)
        assert said == [compile_notice.first_line()] and "about 39 s" in said[0]
    finally:
        compile_notice.expect(None)
    assert compile_notice.first_line() == compile_notice.FIRST_LINE


def test_a_command_line_run_expects_its_game_s_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    import tests.toygame  # noqa: F401  (registers "toy")
    from dsim.games import get_game
    from dsim.play import run_cell

    expected: list[float | None] = []
    monkeypatch.setattr(compile_notice, "expect", expected.append)
    game = get_game("toy")
    monkeypatch.setattr(type(game), "compile_cpu_s", (12.0, 3.0))
    run_cell(game, {}, 10, seed=1)
    assert expected == [12.0]
