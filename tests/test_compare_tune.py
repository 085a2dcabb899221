"""`dsim compare` (paired CRN comparisons), `dsim tune` (bisection with CRN) and `dsim explain --where`."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from dsim.cli import app
from dsim.compare import crn_stream, paired_summary, with_rules
from dsim.games.base import Game
from dsim.games.dstbg.game import DSTBG
from dsim.rng import stream_key
from dsim.tune import tune

runner = CliRunner()
CELL = {"party": ["knight", "warrior"], "encounter": "the_forgotten", "policy": "baseline"}


def _compare(*args: str) -> dict:
    out = runner.invoke(app, ["compare", "--policy", "baseline", "--party", "knight,warrior", "--battles", "1500", "--seed", "4", "--json", *args])
    assert out.exit_code == 0, out.stdout + str(out.exception)
    return json.loads(out.stdout)


def test_compare_A_29_changes_nothing_without_a_bleed_source():
    # No core-set regular enemy nor starting kit inflicts bleed: the reading cannot matter here.
    res = _compare("--encounter", "the_forgotten", "--variant", "bleed_zero_damage")
    assert res["win_rate_a"] == res["win_rate_b"] and res["diff"] == 0.0
    assert res["won_only_a"] == res["won_only_b"] == 0 and res["changed_battles"] == 0
    low, high = res["ci95"]  # no discordant battle: Tango's interval still bounds what so many could hide
    assert res["p_value"] == 1.0 and low == pytest.approx(-high) and 0 < high < 4 / res["battles"]
    assert "changes no battle's result" in res["verdict"]


def test_compare_enemy_health_matters_and_is_significant():
    res = _compare("--encounter", "the_forgotten", "--setting", "enemy_health_delta=2")
    assert res["diff"] < 0 and res["ci95"][1] < 0
    assert res["p_value"] < 1e-6 and "lowers the win rate significantly" in res["verdict"]
    assert res["measures"]["rounds"]["diff"] > 0  # tougher enemies take longer to kill


def test_compare_A_36_push_damage_order_matters_for_a_full_party():
    out = runner.invoke(app, ["compare", "--policy", "baseline", "--party", "knight,warrior,herald,assassin", "--encounter", "burned_gardens",
                              "--variant", "push_damage_order", "--battles", "1500", "--seed", "4", "--json"])
    res = json.loads(out.stdout)
    assert res["p_value"] < 1e-4 and res["ci95"][0] > 0 and "significantly" in res["verdict"]


def test_paired_crn_interval_is_narrower_than_unpaired():
    # +1 health changes each battle a little: the paired battles stay strongly correlated
    res = _compare("--encounter", "the_forgotten", "--setting", "enemy_health_delta=1")
    paired = res["ci95"][1] - res["ci95"][0]
    unpaired = res["ci95_unpaired"][1] - res["ci95_unpaired"][0]
    assert res["changed_battles"] > 0
    assert paired < 0.8 * unpaired


def test_compare_grid_adjusts_p_values():
    out = runner.invoke(app, ["compare", "--policy", "baseline", "--party", "knight,warrior,herald", "--sizes", "1,3", "--encounter", "the_forgotten",
                              "--encounter", "dark_hollow", "--setting", "first_side=characters_first",
                              "--battles", "500", "--json"])
    assert out.exit_code == 0, out.stdout
    cells = json.loads(out.stdout)["cells"]
    assert [len(c["cell"]["party"]) for c in cells] == [1, 1, 3, 3]
    for c in cells:
        assert {"win_rate_a", "win_rate_b", "diff", "ci95", "p_value"} <= set(c)
        assert c["p_adjusted"] >= c["p_value"]


def test_compare_table_at_80_columns_keeps_every_figure_and_breaks_names_between_words(monkeypatch):
    """The paired-comparison table folded "knight+warri|or" and "initial_aggro=first_activa|ting" (audit, session 14)."""
    from dsim.cli import rules

    monkeypatch.setattr(rules.console, "_width", 80)  # restored as it was, not pinned
    out = runner.invoke(app, ["compare", "--policy", "baseline", "--party", "knight,warrior", "--encounter", "the_forgotten",
                              "--variant", "initial_aggro", "--battles", "300"]).stdout
    table = out[: out.index("└")]
    assert max(len(line) for line in table.splitlines()) <= 80
    words = " ".join(table.split())
    assert "knight+ │" in words or "knight+warrior" in words
    assert "warri │" not in words and "activa │" not in words and "(95% CI)" in words


def test_compare_boss_health_house_rule_with_a_loadout():
    # starting gear almost never beats the Gargoyle; with mid-game gear lower boss health matters
    res = _compare("--boss", "gargoyle", "--loadout", "mid_game", "--setting", "boss_health_delta=-5")
    assert res["cell"]["loadout"] == "mid_game"
    assert res["win_rate_a"] > 0.05 and res["ci95"][0] > 0


def test_compare_boss_cells_fail_cleanly():
    out = runner.invoke(app, ["compare", "--policy", "baseline", "--party", "knight", "--boss", "no_such_boss", "--setting", "first_side=characters_first",
                              "--battles", "10"])
    assert out.exit_code == 1 and "boss" in out.stderr
    assert isinstance(out.exception, SystemExit)  # a clean exit, not a traceback


def test_paired_summary_counts_discordant_battles():
    a = {"win": np.array([1, 1, 0, 0, 1], bool), "rounds": np.array([3, 4, 5, 6, 7]), "result": np.array([1, 1, 2, 2, 1])}
    b = {"win": np.array([1, 0, 1, 1, 1], bool), "rounds": np.array([3, 5, 5, 6, 7]), "result": np.array([1, 2, 1, 1, 1])}
    rec = paired_summary(a, b)
    assert (rec["won_only_a"], rec["won_only_b"], rec["changed_battles"]) == (1, 2, 3)
    assert rec["diff"] == pytest.approx(0.2) and rec["measures"]["rounds"]["diff"] == pytest.approx(0.2)


def test_tune_hits_a_reachable_target_within_tolerance():
    game = DSTBG()
    battles = 1500
    at_two = game.play(with_rules(CELL, {"house_rules": {"enemy_health_delta": 2}}), 3, crn_stream(CELL), 0, battles)
    target = float(np.mean(at_two["win"]))
    result = tune(game, CELL, "enemy_health_delta", "house_rules", target, -1, 6, battles, 3, tolerance=0.01)
    assert result.hit and abs(result.win_rate - target) <= 0.01
    assert result.ci95[0] <= result.win_rate <= result.ci95[1]
    assert len(result.evaluations) <= 5  # bisection, not a scan of all 8 values


def test_tune_cli_reports_an_unreachable_target():
    out = runner.invoke(app, ["tune", "--policy", "baseline", "--party", "knight,warrior", "--encounter", "the_forgotten", "--rule", "enemy_health_delta",
                              "--target", "1.0", "--low", "0", "--high", "2", "--battles", "400", "--tolerance", "0.001", "--json"])
    assert out.exit_code == 0, out.stdout
    res = json.loads(out.stdout)
    # the range widens toward easier enemies until the rule's bound or the widening limit, then says so
    assert not res["hit"] and res["searched"][0] < 0 and res["searched"][1] == 2
    assert res["value"] == res["searched"][0]  # the easiest value tried is closest to a 100% target


def test_tune_widens_its_range_until_it_brackets_the_target():
    """The Gargoyle at starting gear is out of reach of the default -3..6: the search widens
    downward until the win rates lie on both sides of 50%, then bisects."""
    game = DSTBG()
    cell = {"party": ["knight", "warrior"], "boss": "gargoyle", "policy": "baseline"}
    result = tune(game, cell, "boss_health_delta", "house_rules", 0.5, -3, 6, 600, 3, bounds=(-10_000, 10_000))
    assert result.searched[0] < -3
    rates = sorted(result.evaluations.items())
    assert rates[0][1][0] > 0.5 > rates[-1][1][0]  # bracketed: easier below, harder above
    assert result.interpolated is not None and result.searched[0] <= result.interpolated <= result.searched[1]


def test_tune_rejects_non_numeric_rules():
    out = runner.invoke(app, ["tune", "--policy", "baseline", "--party", "knight", "--encounter", "the_forgotten", "--rule", "first_side"])
    assert out.exit_code == 1 and "not a whole-number rule" in out.stderr


def test_explain_where_replays_the_first_matching_battle():
    args = ["explain", "--policy", "baseline", "--party", "knight", "--encounter", "ruined_keep", "--seed", "2", "--json"]
    out = runner.invoke(app, [*args, "--where", "lost and rounds >= 3"])
    assert out.exit_code == 0, out.stdout
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert lines[-1]["event"] == "end" and lines[-1]["values"][0] == 2 and lines[-1]["values"][1] >= 3
    found = int(out.stderr.split()[1])
    settings = {"party": ["knight"], "encounter": "ruined_keep", "policy": "baseline"}
    cols = DSTBG().play(settings, 2, stream_key(json.dumps(settings, sort_keys=True)), 0, found + 1)
    matches = (cols["result"] == 2) & (cols["rounds"] >= 3)
    assert matches[found] and not matches[:found].any()
    bad = runner.invoke(app, [*args, "--where", "lost and nonsense > 1"])
    assert bad.exit_code == 1 and "cannot evaluate" in bad.stderr
    none = runner.invoke(app, [*args, "--where", "rounds > 1000", "--search", "50"])
    assert none.exit_code == 1 and "no battle in 0..49" in none.stderr


def _flat(text: str) -> str:
    """Rich output with its box edges and line wrapping taken out."""
    return " ".join(text.replace("│", " ").split())


@pytest.mark.parametrize(("sizes", "message"), [
    (["--sizes", "3"], "--sizes 3: the party knight,warrior has 2 characters"),
    (["--sizes", "0,5"], "--sizes 0: a party size is at least 1"),
    (["--sizes", "1,5", "--json"], "--sizes 5: the party knight,warrior has 2 characters"),
    (["--sizes", "1", "--sizes", "2"], "--sizes: give it once"),
])
def test_compare_sizes_must_fit_every_party(sizes, message):
    """--sizes N plays the first N characters of each --party: a size that fits no party (or only some) was
    dropped from the grid, so an empty grid crashed (or printed no cells with --json and exit 0)."""
    out = runner.invoke(app, ["compare", "--policy", "baseline", "--party", "knight,warrior", "--boss", "gargoyle", *sizes,
                              "--setting", "boss_health_delta=-5", "--battles", "100"])
    assert out.exit_code == 1 and message in out.stderr, out.output
    assert isinstance(out.exception, SystemExit) and out.stdout == ""


def test_compare_refuses_a_variant_with_settings_or_a_set_of_itself():
    """--variant compares the variant's readings; a --setting beside it used to be silently dropped."""
    base = ["compare", "--policy", "baseline", "--party", "knight,warrior", "--boss", "gargoyle", "--variant", "bleed_zero_damage",
            "--battles", "100"]
    both = runner.invoke(app, [*base, "--setting", "boss_health_delta=1"])
    assert both.exit_code == 1 and "--variant or --setting, not both" in both.stderr, both.output
    itself = runner.invoke(app, [*base, "--set", "bleed_zero_damage=trigger_on_hit"])
    assert itself.exit_code == 1 and "compares every reading of bleed_zero_damage" in itself.stderr, itself.output


def test_compare_variant_readings_under_a_set_rule():
    """What the --variant help promises: rules fixed with --set apply to every reading (both A and B)."""
    res = _compare("--encounter", "the_forgotten", "--variant", "bleed_zero_damage", "--set", "enemy_health_delta=2")
    assert res["cell"]["house_rules"] == {"enemy_health_delta": "2"}
    easy = _compare("--encounter", "the_forgotten", "--setting", "enemy_health_delta=2")
    assert res["win_rate_a"] == res["win_rate_b"] == easy["win_rate_b"]


def test_compare_errors_name_the_option_given():
    base = ["compare", "--policy", "baseline", "--party", "knight,warrior", "--encounter", "the_forgotten", "--battles", "100"]
    bare = runner.invoke(app, [*base, "--setting", "enemy_health_delta"])
    assert bare.exit_code == 1 and "--setting: expected variant_id=value, got 'enemy_health_delta'" in bare.stderr
    twice = runner.invoke(app, [*base, "--setting", "enemy_health_delta=1 enemy_health_delta=2"])
    assert twice.exit_code == 1 and "--setting enemy_health_delta is given twice (1 and 2)" in twice.stderr
    assert "--set:" not in bare.stderr
    empty = runner.invoke(app, [*base, "--setting", " "])
    assert empty.exit_code == 1 and "--setting: expected" in empty.stderr, empty.output
    unknown = runner.invoke(app, [*base, "--setting", "enemy_health_delta=1", "--measure", "nonsense"])
    assert unknown.exit_code == 1 and "no outcome 'nonsense'" in unknown.stderr, unknown.output
    assert isinstance(unknown.exception, SystemExit)  # was a KeyError traceback


def test_compare_verdicts_label_adjusted_p_values():
    base = ["compare", "--policy", "baseline", "--party", "knight,warrior", "--encounter", "the_forgotten", "--setting", "enemy_health_delta=2",
            "--battles", "100", "--json"]
    grid = json.loads(runner.invoke(app, [*base, "--sizes", "1,2"]).stdout)["cells"]
    assert all("McNemar p (Holm-adjusted, 2 tests) = " in c["verdict"] for c in grid)
    bh = json.loads(runner.invoke(app, [*base, "--sizes", "1,2", "--adjust", "bh"]).stdout)["cells"]
    assert all("McNemar p (BH-adjusted, 2 tests) = " in c["verdict"] for c in bh)
    single = json.loads(runner.invoke(app, base).stdout)
    assert "McNemar p = " in single["verdict"]  # one test: nothing to adjust


def test_compare_header_names_the_games_unit():
    from dsim.games import get_game

    assert get_game("dark_maiden").outcome.unit == "game"
    out = runner.invoke(app, ["compare", "--game", "dark_maiden", "--party", "amazona", "--variant", "final_boss",
                              "--games", "50"])
    assert out.exit_code == 0, out.output
    assert "50 games per cell" in _flat(out.stdout) and "battles per cell" not in _flat(out.stdout)


def test_compare_and_tune_have_their_own_measure_help():
    compare_help = _flat(runner.invoke(app, ["compare", "--help"], env={"COLUMNS": "250"}).stdout)
    tune_help = _flat(runner.invoke(app, ["tune", "--help"], env={"COLUMNS": "250"}).stdout)
    assert "Yes/no outcome column to compare" in compare_help and "tune" not in compare_help
    assert "a number (its mean, e.g. rounds)" in tune_help


def test_tune_stops_widening_where_the_measure_stops_changing():
    """Enemy health floors at 1: below enemy_health_delta = 0 the Forgotten's battles are all the same, so
    the range used to widen to -6555 (six times) for nothing and end without saying the target is out of reach."""
    args = ["tune", "--policy", "baseline", "--party", "knight,warrior", "--encounter", "the_forgotten", "--rule", "enemy_health_delta",
            "--measure", "rounds", "--target", "5", "--battles", "200"]
    out = runner.invoke(app, [*args, "--json"])
    assert out.exit_code == 0, out.output
    res = json.loads(out.stdout)
    assert res["searched"] == [-21, 6] and [e["value"] for e in res["evaluations"]] == [-21, -3, 6]
    assert not res["hit"] and not res["bracketed"] and res["stopped"] == "it does not change from -3 to -21"
    text = _flat(runner.invoke(app, args).stdout)
    assert ("The target 5.00 is not reachable with enemy_health_delta from -21 to 6: the mean rounds is 3.8600 at -21 "
            "and 3.4650 at 6") in text


class _Ramp(Game):
    """A fake game: play i is won when the rule ``x`` is at least 50 + i % 10 (never below 50). ``rounds``
    falls as ``x`` grows from 0 to ``cap``; outside that nothing changes any more."""

    name = "ramp"

    def __init__(self, cap: int) -> None:
        self.cap = cap

    def play(self, settings, seed, stream, start, count):
        x = min(max(int(settings["house_rules"]["x"]), 0), self.cap)
        i = np.arange(start, start + count)
        return {"win": x >= 50 + i % 10, "rounds": np.maximum(1, 200 - x + i % 3)}


def test_tune_widens_across_a_zero_rate_while_the_plays_still_change():
    """0% at both ends is flat in the rate, yet the battles still change (rounds): keep widening."""
    result = tune(_Ramp(10**6), {}, "x", "house_rules", 0.5, -3, 6, 100, 1)
    assert result.bracketed and result.hit and 50 <= result.value <= 60 and result.stopped is None


def test_tune_reports_why_an_unreachable_target_stopped_the_search():
    capped = tune(_Ramp(30), {}, "x", "house_rules", 0.5, -3, 6, 100, 1)  # nothing changes above x = 30
    assert not capped.bracketed and not capped.hit and capped.searched == (-21, 384)
    assert sorted(capped.evaluations) == [-21, -3, 6, 24, 114, 384]
    assert capped.stopped == "it does not change from -3 to -21 and it does not change from 114 to 384"
    bounded = tune(_Ramp(10**6), {}, "x", "house_rules", 0.5, -3, 6, 100, 1, bounds=(-5, 20))
    assert not bounded.bracketed and bounded.searched == (-5, 20)
    assert "x takes no value above 20" in bounded.stopped
    limited = tune(_Ramp(10**6), {}, "x", "house_rules", 0.5, -3, 6, 100, 1, widen=1)
    assert not limited.bracketed and limited.searched == (-21, 24) and "widened 1 time (give a wider" in limited.stopped
    with pytest.raises(ValueError, match="leaves no room"):
        tune(_Ramp(10**6), {}, "x", "house_rules", 0.5, 30, 40, 100, 1, bounds=(0, 20))


def test_compare_header_names_the_set_rules_a_plays_under():
    args = ["compare", "--policy", "baseline", "--party", "knight", "--encounter", "the_forgotten", "--setting", "enemy_health_delta=2",
            "--battles", "50"]
    plain = runner.invoke(app, args, env={"COLUMNS": "200"})
    ruled = runner.invoke(app, [*args, "--set", "enemy_health_delta=1"], env={"COLUMNS": "200"})
    assert "Paired comparison (A = the defaults)" in plain.stdout
    assert "Paired comparison (A = enemy_health_delta=1)" in ruled.stdout
    said = " ".join(ruled.stdout.split())
    assert "knight vs the_forgotten: enemy_health_delta=1 → enemy_health_delta=2 " in said  # the verdict agrees


def test_tune_starts_inside_the_rules_values_when_no_range_is_given():
    """max_turns takes 10 and up: without --low/--high the first range starts at 10, not at -3 (an error)."""
    out = runner.invoke(app, ["tune", "--game", "dark_maiden", "--party", "amazona", "--rule", "max_turns",
                              "--target", "0.1", "--battles", "50", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["searched"][0] >= 10


def test_compare_plays_each_gravestones_value_it_is_given():
    """compare dropped --gravestones without a word (audit, session 15): each value is now a cell of its own, as
    `run --gravestones` plays it (R-12.5), and its label names it."""
    out = runner.invoke(app, ["compare", "--policy", "baseline", "--party", "knight,warrior", "--boss", "gargoyle", "--loadout", "mid_game",
                              "--gravestones", "0", "--gravestones", "4", "--setting", "boss_health_delta=-3",
                              "--battles", "400", "--seed", "2", "--json"])
    assert out.exit_code == 0, out.output
    cells = json.loads(out.stdout)["cells"]
    assert [c["cell"]["gravestones"] for c in cells] == [0, 4]
    assert cells[0]["win_rate_a"] != cells[1]["win_rate_a"]  # four cards revealed at setup play other battles
    text = runner.invoke(app, ["compare", "--policy", "baseline", "--party", "knight,warrior", "--boss", "gargoyle", "--loadout", "mid_game",
                               "--gravestones", "4", "--setting", "boss_health_delta=-3", "--battles", "400"]).stdout
    assert "(4 gravestones)" in " ".join(text.split())


@pytest.mark.parametrize("command", [
    ["compare", "--variant", "first_side"],
    ["tune", "--rule", "enemy_health_delta", "--target", "0.5"],
])
@pytest.mark.parametrize("column", ["next_first_char", "result"])
def test_compare_and_tune_refuse_an_id_or_code_column_as_the_measure(command, column):
    """``next_first_char`` is a character's index and ``result`` a code: tune searched a rule to bring the index's
    mean to 0.5; both commands now refuse the game's internal columns in one line."""
    out = runner.invoke(app, [*command, "--policy", "baseline", "--party", "knight", "--encounter", "the_forgotten", "--battles", "500",
                              "--measure", column])
    assert out.exit_code == 1 and "ids or codes, not a statistic" in out.stderr and "Traceback" not in out.output


def test_tune_still_aims_a_measure_that_reports_do_not_show():
    """``stage`` (how far a whole game got) is internal to reports but a real measure: the README tunes the spark
    dial on it; only id and code columns are refused."""
    out = runner.invoke(app, ["tune", "--game", "dstbg_game", "--party", "knight,warrior", "--rule", "sparks_delta",
                              "--measure", "stage", "--target", "1", "--low", "0", "--games", "20", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["measure"] == "stage"
