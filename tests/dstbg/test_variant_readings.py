"""Each rule-variant reading (rules §16) changes the battle as it says, shown on replayed traces.

Battles are replayed with the same seed under two readings (common random numbers), so the two
traces are identical until the reading first matters; tests look at that point or count the
situations the reading governs. Scenarios come from ``tests/scenarios.py`` (a data overlay).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dsim.games.dstbg import engine
from dsim.games.dstbg.compile import compile_encounter
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.loader import load_game_data
from dsim.games.dstbg.policy import get_policy
from dsim.games.dstbg.trace import events
from tests.scenarios import write_overlay

Event = dict[str, Any]
FOUR = ["knight", "warrior", "herald", "assassin"]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return load_game_data(overlay=write_overlay(Path(tmp_path_factory.mktemp("scenarios"))))


@pytest.fixture(scope="module")
def play(data):
    policy = get_policy("baseline")

    def run(party: list[str], encounter: str, variants: dict[str, str] | None = None, index: int = 0, seed: int = 7) -> list[Event]:
        comp = compile_encounter(data, party, encounter, variants)
        return events(engine.play_one(comp.tables, policy.decide, policy.vector(), seed, 0, index), comp)

    return run


def battles(play, party, encounter, variants, count: int = 20) -> Iterator[list[Event]]:
    """The traces of battles 0..count-1 of a cell under ``variants``."""
    for index in range(count):
        yield play(party, encounter, variants, index)


def key(ev: Event) -> tuple:
    return ev["event"], ev["actor"], tuple(ev["values"])


def divergence(play, party, encounter, variants, count: int = 20) -> tuple[list[Event], list[Event], int]:
    """The first battle whose trace under ``variants`` differs from the default: (default, variant, first differing event)."""
    for index in range(count):
        a, b = play(party, encounter, None, index), play(party, encounter, variants, index)
        j = next((j for j, (x, y) in enumerate(zip(a, b)) if key(x) != key(y)), None)
        if j is not None:
            return a, b, j
    pytest.fail(f"{variants} never changed a battle of {'+'.join(party)} vs {encounter} in {count} battles")


def is_char(ev: Event) -> bool:
    return ev["actor"] != "game" and "#" not in ev["actor"]


def hook(ev: Event) -> str | None:
    """The policy hook of a decision event (None for other events)."""
    return ev.get("hook") if ev["event"] == "decision" else None


def options(ev: Event) -> int:
    """How many options a decision offered."""
    return ev["values"][2]


# --- A-2 first_side ------------------------------------------------------------------------------
@pytest.mark.parametrize("reading, character_first", [("enemies_first", False), ("characters_first", True)])
def test_A_2_first_side(play, reading, character_first):
    evs = play(["knight", "warrior"], "the_deeps", {"first_side": reading})
    first = next(e for e in evs if e["event"] == "activate")
    assert is_char(first) == character_first


# --- A-3 initial_aggro ---------------------------------------------------------------------------
def test_A_3_players_choice_asks_the_policy(play):
    evs = play(FOUR, "trap_hall", {"initial_aggro": "players_choice"})
    aggro = next(i for i, e in enumerate(evs) if e["event"] == "aggro")
    assert any(hook(e) == "aggro" for e in evs[:aggro]), "D-15: the players give the aggro token"


def test_A_3_first_activating_gives_aggro_to_the_first_character(play):
    for evs in battles(play, FOUR, "trap_hall", {"initial_aggro": "first_activating"}, 6):
        aggro = next(i for i, e in enumerate(evs) if e["event"] == "aggro")
        assert not any(hook(e) == "aggro" for e in evs[:aggro])
        first = next(e for e in evs if hook(e) == "first_char")  # D-5: the policy picks who activates first
        assert evs[aggro]["actor"] == FOUR[first["values"][1]]


def test_A_3_random_spreads_the_token(play):
    holders = set()
    for evs in battles(play, FOUR, "trap_hall", {"initial_aggro": "random"}, 16):
        aggro = next(i for i, e in enumerate(evs) if e["event"] == "aggro")
        assert not any(hook(e) == "aggro" for e in evs[:aggro])
        holders.add(evs[aggro]["actor"])
    assert len(holders) >= 3  # 16 draws over four characters


# --- A-13 stamina_last_slot ----------------------------------------------------------------------
def test_A_13_forbidden_never_fills_the_last_slot(play):
    for evs in battles(play, FOUR, "trap_hall", {"stamina_last_slot": "forbidden"}, 12):
        for ev in evs:
            if ev["event"] == "stamina":
                who = next(c for c in ev["state"]["characters"] if c["id"] == ev["actor"])
                assert who["stamina"] + who["damage"] <= 9 and who["alive"]


def test_A_13_forbidden_removes_the_options_that_would_fill_it(play):
    a, b, j = divergence(play, ["knight", "warrior", "herald"], "the_deeps", {"stamina_last_slot": "forbidden"})
    assert hook(a[j]) is not None
    assert (hook(b[j]) == hook(a[j]) and options(b[j]) < options(a[j])) or hook(b[j]) is None  # one option left: no decision


# --- A-20 push_into_full_node --------------------------------------------------------------------
def test_A_20_forbidden_drops_full_nodes_from_push_destinations(play):
    a, b, j = divergence(play, FOUR, "trap_hall", {"push_into_full_node": "forbidden"}, 8)
    assert hook(a[j]) == hook(b[j]) == "attack_push"
    assert options(b[j]) < options(a[j])


# --- A-22 node_limit_push_destination ------------------------------------------------------------
def test_A_22_away_from_entrant(play):
    from dsim.games.dstbg.board import standard_tile

    steps = standard_tile().steps
    a, b, j = divergence(play, ["knight", "warrior"], "two_brutes", {"node_limit_push_destination": "away_from_entrant"})
    assert hook(a[j]) == hook(b[j]) == "node_limit" and options(b[j]) < options(a[j])
    entrant = b[j - 1]
    assert entrant["event"] == "move"
    came_from, node = entrant["values"][:2]
    push = next(e for e in b[j:] if e["event"] == "push")
    assert push["values"][0] == node
    assert steps[push["values"][1], came_from] > steps[node, came_from]  # farther from where the entrant came from


# --- A-23 trap_trigger_moves ---------------------------------------------------------------------
def _pushed_into_traps(play, variants) -> int:
    count = 0
    for evs in battles(play, FOUR, "trap_hall", variants, 12):
        for prev, ev in zip(evs, evs[1:]):
            count += ev["event"] == "trap" and prev["event"] == "push" and prev["actor"] == ev["actor"]
    return count


def test_A_23_any_move_springs_traps_on_a_push(play):
    assert _pushed_into_traps(play, {"trap_trigger_moves": "any_move"}) > 0


def test_A_23_voluntary_only_never_on_a_push(play):
    assert _pushed_into_traps(play, {"trap_trigger_moves": "voluntary_only"}) == 0


# --- A-29 bleed_zero_damage ----------------------------------------------------------------------
def _blocked_while_bleeding(play, reading) -> list[tuple[Event, Event]]:
    """(defend, next event) for every fully blocked hit on a bleeding character."""
    found = []
    for evs in battles(play, ["knight"], "bleed_pit", {"bleed_zero_damage": reading}, 10):
        for prev, ev, nxt in zip(evs, evs[1:], evs[2:]):
            if ev["event"] == "defend" and ev["values"][0] in (0, 1) and ev["values"][2] == 0:
                if "bleed" in next(c for c in prev["state"]["characters"] if c["id"] == ev["actor"])["conditions"]:
                    found.append((ev, nxt))
    return found


def test_A_29_no_trigger_keeps_the_token(play):
    found = _blocked_while_bleeding(play, "no_trigger")
    assert found
    for ev, nxt in found:
        assert not (nxt["event"] == "damage" and nxt["values"][1] == L.SRC_BLEED)
        assert "bleed" in next(c for c in ev["state"]["characters"] if c["id"] == ev["actor"])["conditions"]


def test_A_29_trigger_on_hit_deals_two_and_clears(play):
    found = _blocked_while_bleeding(play, "trigger_on_hit")
    assert found
    for ev, nxt in found:
        assert nxt["event"] == "damage" and nxt["values"][:2] == [2, L.SRC_BLEED]
        assert "bleed" not in next(c for c in nxt["state"]["characters"] if c["id"] == ev["actor"])["conditions"]


# --- A-33 dodge_move -----------------------------------------------------------------------------
def test_A_33_mandatory_removes_staying_put(play):
    a, b, j = divergence(play, ["knight", "warrior"], "two_brutes", {"dodge_move": "mandatory"})
    assert hook(a[j]) == hook(b[j]) == "dodge_move"
    assert options(b[j]) == options(a[j]) - 1  # the "stay" option is gone


def test_A_33_mandatory_dodgers_always_move(play):
    for evs in battles(play, ["knight", "warrior"], "two_brutes", {"dodge_move": "mandatory"}, 8):
        for i, ev in enumerate(evs):
            if hook(ev) == "dodge_move":
                nxt = next(e for e in evs[i + 1:] if e["event"] != "decision")
                assert nxt["event"] in ("move", "stamina", "barrel"), nxt  # stamina/barrel: moving into a barrel


# --- A-36 push_damage_order ----------------------------------------------------------------------
@pytest.mark.parametrize("reading, first_hook", [("defend_then_push", "defence"), ("push_then_defend", "move_push")])
def test_A_36_push_damage_order(play, reading, first_hook):
    a, b, j = divergence(play, ["knight", "warrior"], "two_brutes", {"push_damage_order": "push_then_defend"})
    evs = a if reading == "defend_then_push" else b
    assert evs[j - 1]["event"] == "move" and evs[j - 1]["actor"].startswith("brute")  # the brute's push-damage move
    assert hook(evs[j]) == first_hook


# --- A-37 push_damage_dodged ---------------------------------------------------------------------
@pytest.mark.parametrize("reading, pushed", [("not_pushed", False), ("still_pushed", True)])
def test_A_37_push_damage_dodged(play, reading, pushed):
    a, b, j = divergence(play, ["knight", "warrior"], "two_brutes", {"push_damage_dodged": "still_pushed"})
    evs = a if reading == "not_pushed" else b
    dodge = evs[j - 1]
    assert dodge["event"] == "defend" and dodge["values"][0] == 2 and dodge["values"][2] == 1  # a successful dodge
    assert (hook(evs[j]) == "move_push") == pushed


# --- A-39 taunt_tiebreak_pool --------------------------------------------------------------------
def test_A_39_all_characters_changes_an_enemy_target(play):
    a, b, j = divergence(play, FOUR, "trap_hall", {"taunt_tiebreak_pool": "all_characters"})
    activation = next(e for e in reversed(a[:j]) if e["event"] == "activate")
    assert "#" in activation["actor"]  # decided inside an enemy activation
    assert a[:j] == b[:j]


# --- A-41 players_choice_policy ------------------------------------------------------------------
def test_A_41_random_no_longer_asks_the_players(play):
    a, b, j = divergence(play, ["knight", "warrior"], "two_brutes", {"players_choice_policy": "random"})
    assert hook(a[j]) in ("enemy_order", "enemy_step", "taunt_tie", "node_limit", "move_push")
    assert hook(b[j]) is None


# --- A-24 shift_into_barrel (the Warrior's trial blades shift before rolling) -----------------------
def test_A_24_pay_one_offers_the_barrel_node_to_a_shift(play):
    a, b, j = divergence(play, ["warrior", "knight"], "trap_hall", {"shift_into_barrel": "pay_one"})
    assert hook(a[j]) == hook(b[j]) == "shift"
    assert options(b[j]) == options(a[j]) + 1  # trap_hall has two barrels: one is now in reach


# --- A-28 repeat_icon (trial blades: repeat 2) ---------------------------------------------------------
@pytest.mark.parametrize("reading, pays_again", [("same_option_pay_each", True), ("pay_once_roll_each", False)])
def test_A_28_repeat_icon_cost(play, reading, pays_again):
    a, b, j = divergence(play, ["warrior"], "brute_pen", {"repeat_icon": "pay_once_roll_each"})
    evs = a if reading == "same_option_pay_each" else b
    assert hook(evs[j - 1]) == "attack"  # the repetition of a repeat-2 option
    assert (evs[j]["event"] == "stamina" and evs[j]["actor"] == "warrior") == pays_again


# --- A-31 stagger_on_push_damage (trial blades stagger) ------------------------------------------------
def test_A_31_yes_changes_the_defence_against_a_staggered_push(play):
    a, b, j = divergence(play, ["warrior"], "brute_pen", {"stagger_on_push_damage": "yes"})
    move = a[j - 1]
    assert move["event"] == "move" and move["actor"].startswith("brute")
    brute = next(e for e in move["state"]["enemies"] if e["id"] == "brute")
    assert "stagger" in brute["conditions"]  # only a staggered enemy's push damage differs
    assert hook(a[j]) == hook(b[j]) == "defence"


# --- A-38 frostbite_zero_move_push (the Assassin's frost estoc) ------------------------------------------
@pytest.mark.parametrize("reading, pushed", [("push_anyway", True), ("no_move_no_push", False)])
def test_A_38_frostbitten_brute_with_no_move(play, reading, pushed):
    a, b, j = divergence(play, ["assassin"], "brute_pen", {"frostbite_zero_move_push": "no_move_no_push"})
    evs = a if reading == "push_anyway" else b
    activation = evs[j - 1]
    assert activation["event"] == "activate" and activation["actor"].startswith("brute")
    brute = next(e for e in activation["state"]["enemies"] if e["id"] == "brute")
    assert "frostbite" in brute["conditions"]  # move 1 − 1 = 0
    assert (hook(evs[j]) == "move_push") == pushed
    if not pushed:
        assert evs[j]["event"] == "condition_end" and evs[j]["values"][0] == L.COND_FROSTBITE
