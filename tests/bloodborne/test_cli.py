"""Bloodborne through the generic data commands: `dsim data` and `dsim dice roll` (play: test_game.py)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from dsim.cli import app

runner = CliRunner()


def test_data_validate_list_and_coverage_name_the_bloodborne_cards():
    ok = runner.invoke(app, ["data", "--game", "bloodborne", "validate"])
    assert ok.exit_code == 0 and "18 monsters" in ok.stdout and "7 bosses" in ok.stdout
    monsters = json.loads(runner.invoke(app, ["data", "--game", "bloodborne", "list", "monsters", "--json"]).stdout)
    assert len(monsters) == 18
    uses = json.loads(runner.invoke(app, ["data", "--game", "bloodborne", "coverage", "--json"]).stdout)
    assert uses and all(u["kind"] == "placeholder" and u["text"] for u in uses)


def test_BB_8_2_dice_roll_prints_the_exact_combo_distribution():
    out = runner.invoke(app, ["dice", "roll", "--game", "bloodborne", "red", "--json"])
    assert out.exit_code == 0, out.output
    res = json.loads(out.stdout)
    mass = sum(p for _, p in res["pmf"])
    assert 1 - 1e-11 < mass <= 1 and abs(res["mean"] - sum(v * p for v, p in res["pmf"])) < 1e-9
    bad = runner.invoke(app, ["dice", "roll", "--game", "bloodborne", "purple"])
    assert bad.exit_code == 1 and "purple" in bad.stderr and "Traceback" not in bad.stderr


def test_BB_8_2_dice_roll_exact_prints_the_exact_mean_and_tails_of_a_truncated_pmf():
    """Green: 0, 0, 1, 2 plain, 1+ twice, so the total's mean is exactly 5/4 (closed form); the listed totals stop
    at a 1e-12 tail, which every P(≥ value) must still count (P(≥ 0) = 1)."""
    out = runner.invoke(app, ["dice", "roll", "--game", "bloodborne", "green", "--exact"])
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert "mean: 5/4" in lines
    row0 = next(line for line in lines if line.replace("│", " ").split()[:1] == ["0"])
    assert row0.replace("│", " ").split() == ["0", "1/3", "1"]
    res = json.loads(runner.invoke(app, ["dice", "roll", "--game", "bloodborne", "green", "--exact", "--json"]).stdout)
    assert res["mean"] == "5/4"


EXTERNAL = '''
"""A policy from outside the package: always the first option."""
from dsim.games.bloodborne.policy import Policy, policy_function, register


@policy_function
def decide(hook, seat, public, n, params):
    """Row 0."""
    return 0


register(Policy("first_row", "Always the first option.", decide))
'''


def test_an_external_policy_file_plays_from_its_own_cache_in_a_second_process(tmp_path):
    """`--policy path.py:name` compiles the policy into the file's own cache on the first run; a second process
    loads it from there (it used to fail: the module was not importable by name when Numba unpickled it)."""
    import subprocess
    import sys

    module = tmp_path / "mine.py"
    module.write_text(EXTERNAL)
    command = [sys.executable, "-m", "dsim", "run", "--game", "bloodborne", "--hunters", "4", "--games", "400",
               "--policy", f"{module}:first_row,random_legal,random_legal,random_legal", "--json"]
    runs = [subprocess.run(command, capture_output=True, text=True, timeout=600) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr[-2000:]
    assert any(tmp_path.joinpath("__pycache__").iterdir()), "the first run cached the policy beside its file"
    first, second = (json.loads(run.stdout) for run in runs)
    assert first["win_share"] == second["win_share"]  # the same games, from the compiled and the cached policy
    shares = {p["policy"]: p["seats"] for p in first["policy_share"]}
    assert shares == {"first_row": 1, "random_legal": 3}


def test_policies_compare_titles_the_table_of_every_policy_not_the_last():
    """The title said "4 hunters: banker" for `--policies greedy,banker` (audit, session 14)."""
    out = runner.invoke(app, ["policies", "compare", "--game", "bloodborne", "--policies", "greedy,banker",
                              "--games", "50"], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    assert "4 hunters: each policy (rotate seating)" in out.stdout and "hunters: banker" not in out.stdout

    mixed = runner.invoke(app, ["policies", "compare", "--game", "bloodborne", "--policies", "greedy,banker",
                                "--opponents", "banker", "--games", "50"], env={"COLUMNS": "200"})
    assert mixed.exit_code == 0, mixed.output  # each policy holds one seat against three bankers, not every seat
    assert "4 hunters: each policy, banker, banker, banker" in " ".join(mixed.stdout.split())


def test_report_of_a_sweep_says_which_style_wins(tmp_path):
    """Issue 47: a Bloodborne sweep stored per-seat shares only; the report now gives each policy's wins per seat it
    held (from the stored ``win_listed_k``), with intervals, for each cell of several policies."""
    experiment = tmp_path / "styles.toml"
    experiment.write_text('game = "bloodborne"\nname = "styles"\nseed = 3\ngames = 400\n[fixed]\nhunters = 4\n'
                          '[grid]\npolicy = ["greedy,banker,aggressor,spoiler", "random_legal"]\n', encoding="utf-8")
    out = tmp_path / "out"
    swept = runner.invoke(app, ["sweep", str(experiment), "--out", str(out)])
    assert swept.exit_code == 0, swept.output
    shown = runner.invoke(app, ["report", str(out)], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.stdout.split())
    assert "which style wins" in text
    assert all(f"{name} (1 seat)" in text for name in ("greedy", "banker", "aggressor", "spoiler"))
    assert "random_legal (4 seats)" in text

    from dsim import results
    from dsim.cli.reporting import policy_shares
    from dsim.games import get_game

    shares = policy_shares(results.load(out), get_game("bloodborne").listed_policies)
    mixed = {s["policy"]: s for s in shares if s["seats"] == 1}
    assert mixed["greedy"]["share"] > mixed["banker"]["share"]  # docs/bloodborne-policies.md: 43.7% against 4.5%


def test_policies_compare_says_what_a_competitive_figure_means():
    """Issue 47: each policy played copies of itself, so every one read about 25% unexplained. The game says which
    seat the policy holds and against whom (checked without playing: the note depends on the settings alone)."""
    from dsim.games import get_game

    game = get_game("bloodborne")
    mirror = game.compare_note({"hunters": 4, "policy": "greedy"})
    assert "4 copies of itself" in mirror and "about 1/4" in mirror and "--opponents" in mirror
    field = game.compare_note({"hunters": 3, "policy": "greedy", "opponents": "random_legal"})
    assert "against 2 hunters playing random_legal" in field and "1/3 is an even share" in field
    assert game.played_with({"hunters": 4, "policy": "greedy,banker,aggressor,spoiler", "seating": "permute"}) == [
        "policies by listed seat: greedy, banker, aggressor, spoiler · seating: permute"]
