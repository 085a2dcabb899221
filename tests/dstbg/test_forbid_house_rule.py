"""House rule ``forbid`` (restricted play): on a hand-placed battle a policy that takes every dodge, estus, luck
reroll and heroic action offered is never offered the forbidden ones; the others still are."""

from __future__ import annotations

import pytest

from dsim.games.dstbg import house_rules as H
from dsim.games.dstbg.kernel import layout as L
from tests.kit import play
from tests.dstbg.test_rules_placed import all_of, empty, slot

GREEDY = {"H_DEFENCE": 1, "H_ESTUS": 1, "H_LUCK": 1, "H_HEROIC": 1, "H_TRAP": 1}  # take it whenever offered


def _battle(forbid: str):
    """Knight and Warrior next to a hollow soldier for four rounds, everything taken when offered."""
    pos = empty(["knight", "warrior"], rounds=4)
    pos.comp = H.apply_house_rules(pos.comp, {"forbid": forbid})
    pos.enemy(slot(pos, "hollow_soldier"), 6).char("knight", 6).char("warrior", 6)
    _, evs = play(pos, seed=3, **GREEDY)
    dodges = [ev for ev in all_of(evs, "defend") if ev["values"][0] == 2]
    return {"dodge": len(dodges), "estus": len(all_of(evs, "estus")), "luck": len(all_of(evs, "luck")),
            "heroic": len(all_of(evs, "heroic"))}


def test_forbid_parses_names_into_bits_and_refuses_others():
    assert H.parse_forbid("dodge, estus") == L.FORBID_DODGE | L.FORBID_ESTUS
    assert H.parse_forbid("") == 0
    with pytest.raises(ValueError, match="forbid 'parry'"):
        H.coerce("forbid", "dodge,parry")


def test_forbid_nothing_offers_every_choice():
    seen = _battle("")
    assert all(seen[k] > 0 for k in ("dodge", "estus", "luck", "heroic")), seen


@pytest.mark.parametrize("what", ["dodge", "estus", "luck", "heroic"])
def test_forbid_never_offers_the_forbidden_option(what):
    seen = _battle(what)
    assert seen[what] == 0, seen
    assert all(seen[k] > 0 for k in seen if k != what and not (what == "dodge" and k == "luck")), seen


def test_forbid_everything_leaves_only_block_and_attacks():
    assert _battle("dodge,estus,luck,heroic") == {"dodge": 0, "estus": 0, "luck": 0, "heroic": 0}
