"""``dsim sensitivity`` and ``dsim run --uncertain`` (issue 45): figures found in the data, nudges inside the schema,
paired effects that match a closed form, the Gargoyle's damage figures against the house rule that moves them all."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

import tests.figuretoy as toy
from dsim.cli import app
from dsim.compare import compare
from dsim.figures import Figure, FigureNote, Figures
from dsim.games import get_game
from dsim.games.loading import held, hold, release
from dsim.sensitivity import schedule, sensitivity, steps, uncertainty

runner = CliRunner()
TOY = {"policy": "steady"}


def toy_figures() -> Figures:
    support = toy.FigureToyDataSupport()
    return Figures(support.load(), support.kinds, support)


def within(value: float, interval: list[float]) -> bool:
    return interval[0] <= value <= interval[1]


def test_figures_are_found_with_their_schema_bounds_and_notes() -> None:
    figures = toy_figures().figures
    assert set(figures) == {"coins.heads.p", "coins.spare.p", "pools.main.dice", "pools.main.chance"}
    dice = figures["pools.main.dice"]
    assert (dice.value, dice.whole, dice.low, dice.high) == (3, True, 1, toy.MAX_DICE)
    assert figures["coins.heads.p"].whole is False and (figures["coins.heads.p"].low, figures["coins.heads.p"].high) == (0, 1)
    assert figures["coins.spare.p"].note.status == "placeholder" and figures["coins.heads.p"].note.status == "sourced"


def test_moved_copies_leave_the_data_alone() -> None:
    figures = toy_figures()
    moved = figures.moved({"pools.main.dice": 5, "coins.heads.p": 0.25, "coins.spare.p": 0.5})
    assert moved.pools["main"].dice == 5 and isinstance(moved.pools["main"].dice, int) and moved.coins["heads"].p == 0.25
    assert toy.SHIPPED.pools["main"].dice == 3 and toy.SHIPPED.coins["heads"].p == 0.6
    assert moved.coins["spare"].p == 0.5 and toy.SHIPPED.coins["spare"].p == 0.3  # two entries of one kind
    assert figures.moved({"pools.main.dice": 4}).coins["heads"] is toy.SHIPPED.coins["heads"]  # others shared


def test_a_moved_value_the_schema_refuses_is_a_one_line_error() -> None:
    with pytest.raises(ValueError, match="pools.main.dice: the moved value breaks the schema"):
        toy_figures().moved({"pools.main.dice": toy.MAX_DICE + 1})


def test_steps_stay_inside_the_bounds() -> None:
    note = FigureNote()
    assert steps(Figure("a", 1, True, 1, 8, note), 0.1) == (None, 2)  # at the least value: no step down
    assert steps(Figure("a", 8, True, 1, 8, note), 0.1) == (7, None)
    assert steps(Figure("a", 50, True, 0, None, note), 0.1) == (45, 55)  # large whole numbers: the relative step
    low, high = steps(Figure("a", 0.98, False, 0, 1, note), 0.1)
    assert low == pytest.approx(0.882) and high == 1


def test_held_data_sets_are_named_once() -> None:
    first, second = hold("a"), hold("b")
    assert first != second and held(first) == "a" and held(None) is None and held("some/folder") is None
    release(first)
    with pytest.raises(ValueError, match="not held"):
        held(first)
    release(second)


def test_budget_too_small_for_the_figures_says_so() -> None:
    with pytest.raises(ValueError, match="too small for 400 figures"):
        schedule(400, 10_000, 10, 3)
    rounds = schedule(30, 1_000_000, 5, 3)
    assert [r.rows for r in rounds] == [30, 10, 5] and rounds[1].plays == 3 * rounds[0].plays


def test_toy_sensitivities_match_the_closed_form() -> None:
    """Whole-number figures: the paired changes match the exact differences; real ones: the slope from one step
    down to one step up matches the derivative (exact for the coin, whose effect is linear); an unread figure
    changes no play; the variant enters as a rule. Six intervals are checked, each at 99.9% (the family's miss
    chance stays under 1%)."""
    result = sensitivity(get_game("figtoy"), TOY, seed=3, budget=300_000, refine=5, level=0.999).record()
    rows = {r["name"]: r for r in result["rows"]}
    p, n, c = 0.6, 3, 0.5
    f = toy.win_rate
    assert within(f(p, n, c), result["baseline"]["ci95"])
    dice = rows["pools.main.dice"]
    assert within(f(p, n - 1, c) - f(p, n, c), dice["down"]["ci95"]) and within(f(p, n + 1, c) - f(p, n, c), dice["up"]["ci95"])
    assert within(1 - (1 - c) ** n, rows["coins.heads.p"]["slope"]["ci95"])  # dP/dp
    assert within(p * n * (1 - c) ** (n - 1), rows["pools.main.chance"]["slope"]["ci95"])  # dP/dc (central step)
    assert within((1 - (1 - c) ** n) / 100, rows["variants.p_shift"]["slope"]["ci95"])  # per percentage point
    spare = rows["coins.spare.p"]
    assert spare["down"]["changed"] == spare["up"]["changed"] == 0 and spare["rank"] == len(rows)
    assert [r["name"] for r in result["rows"][:2]] == ["pools.main.dice", "coins.heads.p"]


def test_same_seed_same_table_and_fields_select() -> None:
    game = get_game("figtoy")
    one = sensitivity(game, TOY, seed=5, budget=60_000, fields=["pools.*"]).record()
    two = sensitivity(game, TOY, seed=5, budget=60_000, fields=["pools.*"]).record()
    assert json.dumps(one) == json.dumps(two)
    assert {r["name"] for r in one["rows"]} == {"pools.main.dice", "pools.main.chance"}
    kept = sensitivity(game, TOY, seed=5, budget=60_000, fields=["pools.*"], exclude=["*.chance"]).record()
    assert [r["name"] for r in kept["rows"]] == ["pools.main.dice"]
    placeholders = sensitivity(game, TOY, seed=5, budget=60_000, fields=["placeholders"]).record()
    assert [r["name"] for r in placeholders["rows"]] == ["coins.spare.p"]
    with pytest.raises(ValueError, match="matches no figure"):
        sensitivity(game, TOY, seed=5, budget=60_000, fields=["bosses.*"])


def test_a_group_moves_its_figures_together() -> None:
    result = sensitivity(get_game("figtoy"), TOY, seed=2, budget=100_000, fields=["coins.spare.p"],
                         groups=["*.p"]).record()
    group = next(r for r in result["rows"] if r["group"])
    assert group["members"] == ["coins.heads.p", "coins.spare.p"]
    p, n, c = 0.6, 3, 0.5
    assert within(toy.win_rate(p * 0.9, n, c) - toy.win_rate(p, n, c), group["down"]["ci95"])


def test_cli_table_json_and_tornado_plot(tmp_path) -> None:
    png = tmp_path / "tornado.png"
    out = runner.invoke(app, ["sensitivity", "--game", "figtoy", "--budget", "60000", "--plot", str(png), "--seed", "4"])
    assert out.exit_code == 0, out.output
    assert "dice" in out.output and "Holm" in out.output and png.stat().st_size > 10_000
    out = runner.invoke(app, ["sensitivity", "--game", "figtoy", "--budget", "60000", "--json", "--seed", "4"])
    record = json.loads(out.stdout)
    assert list(record) == ["game", "cell", "policy", "measure", "kind", "seed", "budget", "plays", "step",
                            "small_whole", "adjust", "rounds", "baseline", "rows"]
    out = runner.invoke(app, ["sensitivity", "--game", "figtoy", "--budget", "1000"])
    assert out.exit_code != 0 and "too small" in out.output and "Traceback" not in out.output


def test_uncertainty_spreads_over_the_placeholder_ranges() -> None:
    """The unread placeholder moves nothing: every draw gives the baseline's rate on the same plays."""
    game = get_game("figtoy")
    flat = uncertainty(game, TOY, seed=1, draws=5, plays=4000)
    assert set(flat.values) == {flat.base} and flat.shift == (0, 0) and flat.figures[0]["path"] == "coins.spare.p"
    moving = uncertainty(game, TOY, seed=1, draws=20, plays=4000, fields=["coins.heads.p"])
    assert moving.spread[0] < moving.spread[1]
    assert moving.spread[0] >= toy.win_rate(0.54, 3, 0.5) - 0.03 and moving.spread[1] <= toy.win_rate(0.66, 3, 0.5) + 0.03


@pytest.fixture(scope="module")
def gargoyle() -> dict:
    """Gargoyle with mid_game gear: its figures, the Titanite Demon's (never read here), and the group of every
    Gargoyle attack damage."""
    settings = {"party": ["knight", "warrior"], "boss": "gargoyle", "loadout": "mid_game", "policy": "baseline"}
    record = sensitivity(get_game("dstbg"), settings, seed=7, budget=90_000, refine=4,
                         fields=["bosses.gargoyle.cards.*.damage", "bosses.titanite_demon.figures.*"],
                         groups=["bosses.gargoyle.cards.*.damage"]).record()
    return {"settings": settings, "record": record}


def test_gargoyle_damage_ranks_above_figures_never_read(gargoyle) -> None:
    rows = gargoyle["record"]["rows"]
    unread = [r for r in rows if r["name"].startswith("bosses.titanite_demon")]
    damage = [r for r in rows if r["name"].startswith("bosses.gargoyle")]
    assert unread and damage
    for row in unread:
        for side in ("down", "up"):
            if row[side]:
                assert row[side]["changed"] == 0 and within(0.0, row[side]["ci95"])
    assert max(r["rank"] for r in damage) < min(r["rank"] for r in unread)
    assert all(r[side]["changed"] > 0 for r in damage if not r["group"] for side in ("down", "up"))
    group = next(r for r in damage if r["group"])
    assert group["rank"] == 1 and group["down"]["p_adjusted"] < 0.05 and group["up"]["p_adjusted"] < 0.05


def test_gargoyle_damage_group_agrees_with_the_house_rule(gargoyle) -> None:
    """Every Gargoyle attack damage one down (up) is ``enemy_damage_delta=-1`` (``=1``): same plays, same seed."""
    record = gargoyle["record"]
    group = next(r for r in record["rows"] if r["group"])
    assert len(group["members"]) == 8
    delta = compare(get_game("dstbg"), [gargoyle["settings"]],
                    [{}, {"house_rules": {"enemy_damage_delta": -1}}, {"house_rules": {"enemy_damage_delta": 1}}],
                    battles=group["plays"], seed=record["seed"])
    for side, rec in zip(("down", "up"), delta, strict=True):
        ours = group[side]
        assert rec["ci95"][0] <= ours["effect"] <= rec["ci95"][1] and ours["ci95"][0] <= rec["diff"] <= ours["ci95"][1]
        assert np.sign(ours["effect"]) == (1 if side == "down" else -1)


def test_run_uncertain_states_the_spread_beside_the_interval() -> None:
    out = runner.invoke(app, ["run", "--game", "figtoy", "--battles", "5000", "--uncertain", "8",
                              "--uncertain-fields", "coins.heads.p", "--json"])
    assert out.exit_code == 0, out.output
    drawn = json.loads(out.stdout)["uncertain"]
    assert drawn["draws"] == 8 and drawn["plays_per_draw"] == 5000 and drawn["figures"][0]["path"] == "coins.heads.p"
    assert drawn["spread"][0] < json.loads(out.stdout)["win_rate"] < drawn["spread"][1]
    out = runner.invoke(app, ["run", "--game", "figtoy", "--battles", "5000", "--uncertain", "8"])
    assert "with the guessed figures in their ranges" in " ".join(out.output.split())


def test_doubts_name_numbers_of_their_entry_and_hold_the_value() -> None:
    from dsim.games.dark_maiden.schema import Hero
    from dsim.figures import Doubt

    hero = {"id": "h", "name": "H", "source": "test", "vitality": 5, "max_potions": 3, "success_faces": [1, 2, 3],
            "special": "reroll_on_double", "special_text": "x"}
    ok = Hero.model_validate(hero | {"doubts": {"vitality": {"range": [4, None], "confidence": "low"}}})
    assert ok.doubts["vitality"].range == (4, None)
    for doubts, message in (({"vitalty": {"confidence": "low"}}, "names no number of this entry"),
                            ({"vitality": {"range": [6, 9]}}, "does not hold vitality's value 5"),
                            ({"vitality": {"range": [9, 6]}}, "runs backwards"),
                            ({"vitality": {}}, "gives a range"),
                            ({"vitality": {"confidence": "sure"}}, "low")):
        with pytest.raises(ValueError, match=message):
            Hero.model_validate(hero | {"doubts": doubts})
    assert Doubt(confidence="high").range is None


def test_stated_doubts_reach_the_figures_and_data_coverage() -> None:
    out = runner.invoke(app, ["data", "--game", "dark_maiden", "coverage", "--doubts", "--json"])
    stated = {r["path"]: r for r in json.loads(out.stdout)}
    assert stated["heroes.amazona.vitality"]["range"] == [4, None] and stated["heroes.amazona.vitality"]["confidence"] == "low"
    out = runner.invoke(app, ["data", "coverage", "--doubts", "--json"])
    assert {"items.broadsword.attacks.0.stamina": [0, 2]}.items() <= {r["path"]: r["range"] for r in json.loads(out.stdout)}.items()
    from dsim.sensitivity import ranges

    support = get_game("dark_maiden").data()
    figs = Figures(support.load(), support.kinds, support)
    (figure, low, high), = ranges(figs.select(["heroes.amazona.vitality"]), 0.1)
    assert (low, high) == (4, 6)  # the stated lower end; the open upper end one step above the value 5


def test_a_number_measure_is_a_paired_mean() -> None:
    """``rounds`` never reads the figures: every change is exactly zero, with p = 1; a bad step is one line."""
    record = sensitivity(get_game("figtoy"), TOY, seed=1, budget=60_000, measure="rounds").record()
    assert record["kind"] == "mean" and 1 <= record["baseline"]["value"] <= 4
    for row in record["rows"]:
        for side in ("down", "up"):
            if row[side]:
                assert row[side]["effect"] == 0 and row[side]["p"] == 1.0 and row[side]["ci95"] == [0.0, 0.0]
    out = runner.invoke(app, ["sensitivity", "--game", "figtoy", "--step", "2"])
    assert out.exit_code == 1 and "--step must be a share" in out.output
