"""``dsim warm`` compiles ahead what runs need (issue 47: compile once, early, visibly)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from dsim.cli import app
from dsim.cli.warm import plan
from dsim.games import game_names, get_game

runner = CliRunner()


def test_the_plan_has_every_scripted_policy_of_every_game_once() -> None:
    items = plan(game_names(), None, searchers=False)
    for name in game_names():
        game = get_game(name)  # a test's toy game, registered by an earlier test, may have no registry
        registry = game.policies()
        expected = sorted(p.name for p in registry.all()) if registry is not None else [game.default_policy]
        assert sorted(i.policy for i in items if i.game == name) == expected
    assert all(i.settings["policy"] == i.policy for i in items)


def test_the_plan_adds_the_searchers_only_when_asked() -> None:
    searchers = {i.policy for i in plan(["dstbg"], None, searchers=True)} - {i.policy for i in plan(["dstbg"], None, False)}
    assert searchers == set(get_game("dstbg").searchers())


def test_the_plan_keeps_only_the_named_policies_a_game_has() -> None:
    items = plan(["dark_maiden", "bloodborne"], ["random_legal", "tactician"], searchers=False)
    assert {(i.game, i.policy) for i in items} == {("dark_maiden", "random_legal"), ("dark_maiden", "tactician"),
                                                    ("bloodborne", "random_legal")}


def test_warm_compiles_then_reports_each_kind_of_play() -> None:
    result = runner.invoke(app, ["warm", "--game", "dark_maiden", "--policy", "random_legal"])
    assert result.exit_code == 0, result.output
    assert "dark_maiden" in result.output and "random_legal" in result.output
    assert "compiled" in result.output or "cached" in result.output


def test_warm_refuses_an_unknown_game_or_policy_in_one_line() -> None:
    for args, said in ((["--game", "chess"], "unknown game 'chess'"), (["--policy", "nobody"], "none of 'nobody'")):
        result = runner.invoke(app, ["warm", *args])
        assert result.exit_code == 1
        assert said in result.output and len(result.output.strip().splitlines()) == 1


def test_the_estimate_counts_each_game_s_first_kind_of_play_and_its_further_policies() -> None:
    from dsim.cli.warm import estimate_cpu_s

    items = plan(["dstbg", "bloodborne"], None, searchers=False)
    figures = {name: get_game(name).compile_cpu_s for name in ("dstbg", "bloodborne")}
    n = {name: sum(i.game == name for i in items) for name in figures}
    assert n["dstbg"] > 1 and n["bloodborne"] > 1
    assert estimate_cpu_s(items) == pytest.approx(sum(f[0] + (n[g] - 1) * f[1] for g, f in figures.items()))


def test_a_game_without_figures_gets_no_estimate(monkeypatch: pytest.MonkeyPatch) -> None:
    from dsim.cli.warm import estimate_cpu_s

    monkeypatch.setattr(type(get_game("bloodborne")), "compile_cpu_s", None)
    assert estimate_cpu_s(plan(["dstbg", "bloodborne"], None, searchers=False)) is None
