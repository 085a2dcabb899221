"""docs/make_ornstein_smough.py: the figures it computes from data without playing (exact expected damage through a
block, the printed damage of each dual card, every late_game weapon line of the party)."""

from __future__ import annotations

import itertools
import sys

import pytest
import yaml

from dsim.paths import REPO_ROOT

sys.path.insert(0, str(REPO_ROOT / "docs"))
import make_ornstein_smough as MOS  # noqa: E402

BLACK = (0, 1, 1, 1, 2, 2)  # data/dstbg/dice.yaml, facts.md §1


def test_expected_damage_through_a_block_is_exact():
    from dsim.games.dstbg.datasupport import DSTBGDice

    brute = sum(max(0, sum(roll) - 3) for roll in itertools.product(BLACK, repeat=3)) / 6 ** 3
    assert MOS._expected_over(DSTBGDice(), "KKK", 3) == pytest.approx(brute)
    assert MOS._expected_over(DSTBGDice(), "KKK", 7) == 0.0  # 6 pips at most never beat block 7


def test_card_damage_sums_both_halves_of_each_starting_card():
    data = yaml.safe_load(MOS.BOSS_FILE.read_text(encoding="utf-8"))
    damage = MOS.card_damage(data)
    assert len(damage) == 5  # the five dual cards (facts.md §5.3), no heat-up card
    assert damage["Lightning Bolt & Jumping Slam"] == 5 + 6  # Ornstein's bolt, Smough's slam
    assert damage["Evasive Sweep & Trampling Charge"] == 4 + 5  # a sweep, then the charge's push damage


def test_attack_lines_cover_each_weapon_line_with_its_upgrade():
    lines = MOS.attack_lines()
    assert [(a["character"], a["pool"]) for a in lines] == [
        ("knight", "KKK"), ("knight", "KUK"), ("knight", "UUK"), ("warrior", "KKKK"), ("warrior", "KKKK")]
    for a in lines:  # the weak-arc die never lowers the expected damage; Smough's block 2 lets more through
        assert a["hit"][("ornstein", "K")] > a["hit"][("ornstein", "")] < a["hit"][("smough", "")]
