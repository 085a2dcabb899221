"""`dsim dice roll --game dark_maiden`: exact sums of d6 and the damage of one die (DM-5.2.1, DM-7.2, DM-7.3, DM-7.11)."""

from __future__ import annotations

import json
from fractions import Fraction

from typer.testing import CliRunner

from dsim.cli import app
from dsim.games.dark_maiden.exact import DarkMaidenDice, strike_distribution, sum_distribution

runner = CliRunner()


def test_DM_5_2_1_two_d6_pass_seven_or_more_with_21_of_36() -> None:
    pmf = sum_distribution(2)
    assert sum(p for total, p in pmf.items() if total >= 7) == Fraction(21, 36)
    assert sum(pmf.values()) == 1 and pmf[2] == Fraction(1, 36) and pmf[7] == Fraction(6, 36)


def test_DM_7_2_a_hero_die_deals_its_value_on_the_printed_faces() -> None:
    dist = DarkMaidenDice().roll("amazona")
    assert dist.pmf == {0: Fraction(1, 2), 1: Fraction(1, 6), 2: Fraction(1, 6), 3: Fraction(1, 6)}


def test_DM_7_11_a_mount_deals_its_fixed_damage_or_the_die() -> None:
    assert DarkMaidenDice().roll("mount_1").pmf == {0: Fraction(1, 2), 2: Fraction(1, 2)}
    assert DarkMaidenDice().roll("mount_3").pmf == strike_distribution((1, 2, 3, 4))


def test_cli_json_and_one_line_errors() -> None:
    out = runner.invoke(app, ["dice", "roll", "--game", "dark_maiden", "mercenaria", "--json"])
    assert out.exit_code == 0, out.output
    rec = json.loads(out.stdout)
    assert rec["mean"] == 0.5  # (1 + 2) / 6
    for bad in ("bogus", "11d6", "0d6"):
        out = runner.invoke(app, ["dice", "roll", "--game", "dark_maiden", bad])
        assert out.exit_code == 1 and "Traceback" not in out.output and len(out.output.strip().splitlines()) == 1, bad
