"""`dsim area` as a special case of whole games: the share of games that beat the mini boss per spark dial value."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from dsim.cli import app
from dsim.games import get_game
from dsim.play import cell_stream, play_sums

runner = CliRunner()


def test_area_is_the_whole_games_share_that_beats_the_mini_boss_per_spark_value():
    result = runner.invoke(app, ["area", "--party", "knight,warrior", "--mini-boss", "gargoyle", "--sparks", "1",
                                 "--sparks", "4", "--games", "400", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert [r["sparks"] for r in out["sparks"]] == [1, 4] and [r["default"] for r in out["sparks"]] == [False, True]
    game = get_game("dstbg_game")
    for row in out["sparks"]:
        settings = out["settings"] | {"variants": {"sparks_delta": row["sparks"] - 4}}
        totals = play_sums(game, settings, 400, 1, cell_stream(settings))
        assert row["chance"] == totals["beat_mini_boss"] / 400  # the very same games
        assert row["ci95"][0] <= row["chance"] <= row["ci95"][1]


def test_R_1_4_R_5_10_the_spark_dial_bounds_the_battles_lost():
    game = get_game("dstbg_game")
    for sparks in (0, 2):
        settings = {"party": ["knight", "warrior"], "policy": "rush", "variants": {"sparks_delta": sparks - 4}}
        cols = game.play(settings, 1, cell_stream(settings), 0, 300)
        first_area = cols["stage"] < 2
        assert (cols["battles_lost"][first_area] <= sparks + 1).all()  # s sparks: s + 1 defeats end the game
        assert (cols["sparks_left"] <= sparks).all()  # the house rule also sets the dial after the mini boss


def test_a_main_boss_area_is_a_clear_error():
    result = runner.invoke(app, ["area", "--party", "knight", "--mini-boss", "ornstein_and_smough", "--games", "10"])
    assert result.exit_code == 1 and "main boss" in result.output and "Traceback" not in result.output


def test_area_options_it_cannot_honour_are_one_line_errors_and_a_repeated_dial_value_is_refused():
    base = ["area", "--party", "knight,warrior", "--mini-boss", "gargoyle", "--games", "20"]
    out = runner.invoke(app, [*base, "--set", "sparks_delta=2"])
    assert out.exit_code == 1 and "--set sparks_delta: `dsim area` sets the spark dial per row" in out.output
    out = runner.invoke(app, [*base, "--sparks", "99"])  # 4 sparks by, the house rule adds at most 94
    assert out.exit_code == 1 and "--sparks 99: a party of 2 starts with at most 98 sparks" in out.output
    out = runner.invoke(app, [*base, "--sparks", "2", "--sparks", "2", "--json"])  # one row was shown, silently
    assert out.exit_code == 1 and "--sparks 2 is given twice" in out.output


def test_games_cut_off_by_the_battle_cap_are_counted_and_named():
    """`dsim area --sparks 98` reported 0.625 while more than half its games had hit the battle cap, without a
    word (audit, session 15): the JSON counts them per row and the table says how they were counted."""
    args = ["area", "--party", "knight,warrior", "--mini-boss", "gargoyle", "--games", "40", "--sparks", "4",
            "--set", "max_battles=3"]
    rows = json.loads(runner.invoke(app, [*args, "--json"]).stdout)["sparks"]
    assert rows[0]["capped"] > 0 and rows[0]["chance"] <= 1 - rows[0]["capped"] / 40
    text = " ".join(runner.invoke(app, args).stdout.split())
    assert f"4 sparks: {rows[0]['capped']} games of 40 reached the battle cap" in text
    assert "count as not beating it" in text
