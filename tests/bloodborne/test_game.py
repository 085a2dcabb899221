"""Bloodborne through the generic commands: run, explain, sweep/report/plot, compare and tune (BB-1.3 table
sizes, per-seat and per-policy shares, seating, common random numbers, one-line errors)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from dsim import results
from dsim.cli import app
from dsim.games import get_game

runner = CliRunner()
GAME = get_game("bloodborne")


def invoke(*args: str) -> dict | list:
    out = runner.invoke(app, list(args))
    assert out.exit_code == 0, out.output + str(out.exception)
    return json.loads(out.stdout)


def test_run_reports_the_win_share_of_each_seat_at_the_table():
    """Four hunters: four seats, each with a Wilson interval; ties credit every tied seat, so the shares sum to
    at least one; the seats of one policy are symmetric up to the first player's edge."""
    res = invoke("run", "--game", "bloodborne", "--hunters", "4", "--games", "20000", "--seed", "5", "--json")
    shares = res["win_share"]
    assert [s["seat"] for s in shares] == [0, 1, 2, 3] and res["games"] == 20000
    assert 1.0 <= sum(s["share"] for s in shares) < 1.1
    for s in shares:
        assert s["ci95"][0] <= s["share"] <= s["ci95"][1] and 0.2 < s["share"] < 0.3
    assert res["timeouts"] == 0 and 10 < res["mean_rounds"] < 40
    (alone,) = res["policy_share"]  # one policy in every seat: its share per seat is the mean of the seats
    assert alone["seats"] == 4 and abs(alone["share"] - sum(s["share"] for s in shares) / 4) < 1e-12


def test_play_is_the_same_whatever_the_chunking():
    settings = {"hunters": 3, "policy": "random_legal"}
    whole = GAME.play(settings, 9, 17, 0, 3000)
    parts = [GAME.play(settings, 9, 17, lo, 1000) for lo in (0, 1000, 2000)]
    for name, values in whole.items():
        assert np.array_equal(values, np.concatenate([p[name] for p in parts])), name


def test_rotating_seating_seats_the_listed_policies_from_seat_i_mod_hunters():
    """Game i's listed policy 0 sits at seat i % hunters (rotate) or at seat 0 (fixed)."""
    rot = GAME.play({"hunters": 4}, 3, 1, 0, 400)
    fixed = GAME.play({"hunters": 4, "seating": "fixed"}, 3, 1, 0, 400)
    seats = np.stack([rot[f"win_seat_{k}"] for k in range(4)], axis=1)
    assert np.array_equal(rot["win_listed_0"], seats[np.arange(400), np.arange(400) % 4])
    assert np.array_equal(fixed["win_listed_0"], fixed["win_seat_0"])


def test_permuted_seating_plays_every_order_of_the_seats_in_turn():
    """``permute``: game i takes the (i mod 4!)-th seat order, so in 24 games each listed policy sits in each
    seat 6 times and beside each neighbour equally often; its wins are read from the seat it held."""
    from dsim.games.bloodborne import engine

    orders = engine.seatings(4, "permute")[:, :4]
    assert len({tuple(o) for o in orders}) == 24 and all((orders == p).sum(axis=0).tolist() == [6] * 4 for p in range(4))
    cols = GAME.play({"hunters": 4, "policy": "greedy,greedy,random_legal,random_legal", "seating": "permute"},
                     3, 1, 0, 2400)
    seats = np.stack([cols[f"win_seat_{k}"] for k in range(4)], axis=1)
    at = np.argmax(orders[np.arange(2400) % 24] == 0, axis=1)  # the seat of the first-listed greedy
    assert np.array_equal(cols["win_listed_0"], seats[np.arange(2400), at])
    greedy = cols["win_listed_0"].mean() + cols["win_listed_1"].mean()
    assert greedy > 0.9  # two greedy hunters against two random ones


@pytest.mark.parametrize(("args", "message"), [
    (["--hunters", "2"], "--hunters"),
    (["--hunters", "6"], "hunters must be 3, 4 or 5"),
    (["--policy", "random_legal,random_legal"], "names one policy or 4"),
    (["--policy", "random_legal", "--opponents", "random_legal,random_legal"], "'opponents' names one policy or 3"),
    (["--policy", "nosuch"], "unknown policy 'nosuch'"),
    (["--seating", "shuffled"], "--seating: expected one of rotate, fixed"),
    (["--set", "hand_limit=0"], "hand_limit"),
    (["--set", "pistol_clash=sometimes"], "pistol_clash"),
    (["--party", "knight"], "not an option of bloodborne"),
])
def test_bad_table_settings_get_one_line_errors(args, message):
    out = runner.invoke(app, ["run", "--game", "bloodborne", "--games", "10", *args])
    assert out.exit_code != 0 and message in out.output and "Traceback" not in out.output


def test_explain_replays_the_game_that_run_played():
    """The replay of game 7 ends with the scores the batch kernel gave game 7 (same stream, same policies)."""
    from dsim.play import cell_stream

    settings = {"hunters": 4, "policy": "random_legal"}
    out = runner.invoke(app, ["explain", "--game", "bloodborne", "--hunters", "4", "--index", "7", "--json"])
    assert out.exit_code == 0, out.output
    events = [json.loads(line) for line in out.stdout.splitlines()]
    assert events[0]["event"] == "setup" and events[-1]["event"] == "end"
    scores = [e["score"] for e in events if e["event"] == "score"]
    cols = GAME.play(settings, 1, cell_stream(settings), 7, 1)
    assert scores == [int(cols[f"score_seat_{k}"][0]) for k in range(4)]
    assert all(e["rule"].startswith(("BB-", "card")) for e in events)


def test_explain_decisions_cite_the_rule_of_their_hook():
    """Every decision cited BB-5.1 (the step-1 play) whatever it decided: now each hook its rule."""
    out = runner.invoke(app, ["explain", "--game", "bloodborne", "--hunters", "4", "--index", "7", "--decisions",
                              "--json"])
    assert out.exit_code == 0, out.output
    decisions = [e for e in map(json.loads, out.stdout.splitlines()) if e["event"] == "decision"]
    hooks = {"play": "BB-5.1", "transform": "BB-6.1", "cancel": "BB-3.7", "upgrade": "BB-11.1", "discard": "BB-11.7"}
    assert {e["hook"] for e in decisions} > {"play"}  # the game asks more than the step-1 play
    assert all(e["rule"] == hooks[e["hook"]] for e in decisions)


def test_sweep_report_and_plot_a_bloodborne_experiment(tmp_path: Path):
    exp = tmp_path / "bb.toml"
    exp.write_text('game = "bloodborne"\nname = "tables"\nseed = 3\nbattles = 2000\nchunk = 1000\n'
                   '[grid]\nhunters = [3, 5]\n', encoding="utf-8")
    out = tmp_path / "res"
    done = runner.invoke(app, ["sweep", str(exp), "--out", str(out)])
    assert done.exit_code == 0, done.output
    cells = results.load(out)
    five = cells[cells["hunters"] == 5].iloc[0]
    three = cells[cells["hunters"] == 3].iloc[0]
    assert three["seats_taken"] == 3 and three["win_seat_4_mean"] == 0 and five["seats_taken"] == 5
    assert five["win_seat_4_ci_low"] <= five["win_seat_4_mean"] <= five["win_seat_4_ci_high"]
    table = runner.invoke(app, ["report", str(out)], env={"COLUMNS": "200"})
    assert table.exit_code == 0 and "seat 4 wins" in table.stdout, table.output
    assert "—" in table.stdout  # the 3-hunter cell's empty seats
    for kind in ("forest", "rounds", "survival", "scores"):  # seats' win shares; game lengths; final scores
        png = tmp_path / f"{kind}.png"
        plotted = runner.invoke(app, ["plot", str(out), "--kind", kind, "--out", str(png)])
        assert plotted.exit_code == 0, plotted.output
        assert png.stat().st_size > 1000
    refused = runner.invoke(app, ["plot", str(out), "--kind", "heatmap", "--out", str(tmp_path / "h.png")])
    assert refused.exit_code == 1 and "competitive" in refused.output


def test_compare_a_variant_on_a_named_measure():
    """BB-11.1: without the Dream's heal hunters die more often (paired games); a competitive game must name
    the yes/no outcome it compares."""
    res = invoke("compare", "--game", "bloodborne", "--setting", "dream_heals_full=no", "--measure",
                 "first_player_won", "--games", "4000", "--json")
    deaths = res["measures"]["deaths"]
    assert deaths["ci95"][0] > 0, deaths
    bare = runner.invoke(app, ["compare", "--game", "bloodborne", "--setting", "dream_heals_full=no", "--games", "10"])
    assert bare.exit_code == 1 and "--measure" in bare.output and "Traceback" not in bare.output


def test_tune_the_final_boss_health_to_a_game_length():
    """A tougher Final Boss lengthens the game: tune finds the extra health for a mean of 23 rounds."""
    res = invoke("tune", "--game", "bloodborne", "--rule", "final_boss_health", "--measure", "rounds", "--target", "23",
                 "--low", "0", "--high", "40", "--tolerance", "0.3", "--games", "3000", "--json")
    assert res["rate"] is False and res["measure"] == "rounds" and res["hit"], res
    values = [e["win_rate"] for e in res["evaluations"]]
    assert values == sorted(values)  # monotone in the health (common random numbers)
    assert 5 <= res["value"] <= 30
