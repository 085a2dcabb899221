"""`dsim policies list/show/compare` and `dsim tune-policy` through Typer's test runner."""

from __future__ import annotations

import json
import textwrap

from typer.testing import CliRunner

from dsim.cli import app

runner = CliRunner()
STYLES = {"naive", "aggressive", "careful", "tactician", "random_legal"}


def test_policies_list_json_has_name_description_parameters():
    out = runner.invoke(app, ["policies", "list", "--json"])
    assert out.exit_code == 0, out.output
    items = json.loads(out.stdout)
    assert STYLES <= {p["name"] for p in items}
    for p in items:
        assert p["description"] and isinstance(p["parameters"], list)
        for q in p["parameters"]:
            assert q["low"] <= q["default"] <= q["high"] and q["doc"]


def test_policies_show_prints_bounds_and_defaults():
    out = runner.invoke(app, ["policies", "show", "careful"])
    assert out.exit_code == 0, out.output
    assert "stamina_reserve" in out.stdout and "estus_at" in out.stdout and "survivor" in out.stdout
    data = json.loads(runner.invoke(app, ["policies", "show", "careful", "--json"]).stdout)
    reserve = next(p for p in data["parameters"] if p["name"] == "stamina_reserve")
    assert (reserve["default"], reserve["low"], reserve["high"], reserve["whole"]) == (4.0, 1.0, 9.0, True)
    assert "whole" in out.stdout and "real" in out.stdout  # stamina_value is a real weight


def test_whole_policy_parameters_are_counts_and_switches():
    """A parameter compared with a count (cubes, slots, sparks) or used as an on/off switch is whole, so
    tuning never wastes candidates on fractions that act like the next whole number."""
    for name in ("baseline", "careful", "tactician"):
        params = {p["name"]: p for p in json.loads(runner.invoke(app, ["policies", "show", name, "--json"]).stdout)["parameters"]}
        assert params["estus_at"]["whole"] and params["stamina_reserve"]["whole"]
    tactician = {p["name"]: p["whole"] for p in json.loads(runner.invoke(app, ["policies", "show", "tactician", "--json"]).stdout)["parameters"]}
    assert tactician["kite"] and tactician["pair_focus"] and not tactician["stamina_value"] and not tactician["dodge_edge"]


def test_policies_show_unknown_is_a_one_line_error():
    out = runner.invoke(app, ["policies", "show", "nobody"])
    assert out.exit_code == 1
    assert "unknown policy" in out.output and "Traceback" not in out.output


def test_policies_show_loads_a_module_from_outside_the_package(tmp_path, monkeypatch):
    from dsim.games.dstbg.policy import REGISTRY

    monkeypatch.setattr(REGISTRY, "_policies", dict(REGISTRY._policies))  # the policy it registers leaves with it
    module = tmp_path / "mine.py"
    module.write_text(textwrap.dedent('''
        from numba import njit
        from dsim.games.dstbg.policy import POLICY_SIG, Param, Policy, register

        @njit(POLICY_SIG, cache=False)
        def decide(hook, n, battle):
            return n - 1

        register(Policy("last_row", "Always the last option.", decide, (Param("x", 1.0, 0.0, 2.0, "unused"),)))
    '''))
    out = runner.invoke(app, ["policies", "show", f"{module}:last_row", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["name"] == "last_row"


def test_tune_policy_needs_exactly_one_cell():
    out = runner.invoke(app, ["tune-policy", "--policy", "careful", "--party", "knight"])
    assert out.exit_code == 1 and "--encounter or --boss" in out.output


def test_tune_policy_is_reproducible_with_a_seed():
    args = ["tune-policy", "--policy", "careful", "--party", "knight,warrior", "--encounter", "ruined_keep",
            "--budget", "1200", "--candidates", "4", "--eta", "2", "--seed", "3", "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    second = runner.invoke(app, args)
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    assert a == b
    assert set(a["best"]) == set(a["defaults"]) and a["validation_battles"] == 240
    assert a["best_ci95"][0] <= a["best_win_rate"] <= a["best_ci95"][1]


def test_policies_compare_plays_the_same_battles_for_each_policy():
    args = ["policies", "compare", "--party", "knight", "--encounter", "ruined_keep", "--battles", "200",
            "--policies", "naive,careful", "--json"]
    out = runner.invoke(app, args)
    assert out.exit_code == 0, out.output
    rows = json.loads(out.stdout)
    assert [r["policy"] for r in rows] == ["naive", "careful"]
    assert all(r["battles"] == 200 and r["ci95"][0] <= r["win_rate"] <= r["ci95"][1] for r in rows)
    assert json.loads(runner.invoke(app, args).stdout) == rows


def test_policies_compare_refuses_an_empty_list_and_plays_a_repeated_name_once():
    base = ["policies", "compare", "--party", "knight", "--encounter", "the_forgotten", "--battles", "50"]
    out = runner.invoke(app, [*base, "--policies", " , "])
    assert out.exit_code == 1 and "--policies: expected comma-separated policy names, got none" in out.output
    out = runner.invoke(app, [*base, "--policies", "careful,careful", "--json"])
    assert out.exit_code == 0 and [r["policy"] for r in json.loads(out.stdout)] == ["careful"]
