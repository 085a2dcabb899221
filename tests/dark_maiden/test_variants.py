"""Every Dark Maiden variant (``VARIANTS.listed()``): each non-default reading, beside the default on the same hand-set
scene with the same forced dice, changes the outcome as its doc says. ``test_every_variant_has_a_test`` makes a new
variant without its ``test_variant_<id>_<reading>`` (numeric: ``test_variant_<id>_custom``) fail."""

from __future__ import annotations

import pytest

from dsim.games.dark_maiden.game import Cell, DarkMaiden, prepare
from dsim.games.dark_maiden.kernel import layout as L
from dsim.games.dark_maiden.kernel.state import State
from dsim.games.dark_maiden.variants import VARIANTS
from tests.dark_maiden import kit

FOUR = ("amazona", "barbara", "guerrero", "amazona")


attack, foes = kit.attack, kit.foe_damage


def rolls(s: State) -> list[tuple[int, int, str]]:
    """``(white, red, kind)`` of every roll event."""
    return [(e["white"], e["red"], e["roll"]) for e in kit.events(s, "roll")]


def cell(**settings: object) -> Cell:
    """The game's cell for ``settings`` (with the shipped ``random_legal`` policy: the policy plays no part here)."""
    return prepare({"policy": "random_legal", **settings})


def test_every_variant_has_a_test() -> None:
    want = [f"test_variant_{v.id}_{r}" for v in VARIANTS.listed() for r in v.readings[1:]]
    want += [f"test_variant_{v.id}_custom" for v in VARIANTS.listed() if not v.readings]
    assert [name for name in want if not callable(globals().get(name))] == []


# ---------------------------------------------------------------- lives and deaths
@pytest.mark.parametrize("reading,out", [("spare", 0), ("total", 1)])
def test_variant_life_counter_total(reading: str, out: int) -> None:
    """Two lives for two heroes in play: a spare life under ``spare``, none beyond those in play under ``total``."""
    s = kit.scene(("amazona", "barbara"), lives=2, vary={"life_counter": reading})
    kit.add_foe(s, "asesino")
    s.heroes[0, L.H_DAMAGE] = 4
    attack(s, 0, 6, 3, 6)  # the asesino's 3 kills her; the bonus attack misses
    assert s.heroes[0, L.H_OUT] == out and s.table[L.T_LIVES] == 1 and s.table[L.T_OVER] == L.OVER_RUNNING


@pytest.mark.parametrize("reading,lives,after", [
    ("death", 12, (0, 0, 1, 0, 11)), ("life_only", 12, (3, 1, 0, 0, 11)),
    ("death", 0, (0, 0, 1, 1, 0)), ("life_only", 0, (3, 1, 0, 0, 0))])
def test_variant_precipice_fall_life_only(reading: str, lives: int, after: tuple) -> None:
    """A fall is a death (damage and exhaustion cleared, out at 0) or only costs a life from the counter."""
    s = kit.scene(("amazona",), lives=lives, vary={"precipice_fall": reading})
    s.heroes[0, L.H_DAMAGE], s.heroes[0, L.H_EXHAUSTED] = 3, 1
    kit.force(s, 1, 1)
    kit.step(s, "precipice")
    row = s.heroes[0]
    assert (row[L.H_DAMAGE], row[L.H_EXHAUSTED], row[L.H_DEATHS], row[L.H_OUT], s.table[L.T_LIVES]) == after


@pytest.mark.parametrize("reading,goblin,potions,damage", [("fixed", "red for potions", 2, 0),
                                                           ("choose", "white for potions", 2, 0),
                                                           ("choose", "red for potions", 5, 3)])
def test_variant_goblin_dice_choose(reading: str, goblin: str, potions: int, damage: int) -> None:
    """A level-2 goblin's white 1 and red 4: fixed, white gives potions and red heals; ``choose`` may swap them."""
    s = kit.scene(("amazona",), vary={"goblin_dice": reading})
    s.heroes[0, L.H_DAMAGE] = 4
    kit.force(s, 1, 4)
    kit.step(s, "goblin", kit.comp().goblin_ids.index("goblin_2"), kit.script(goblin=goblin))
    assert (s.heroes[0, L.H_POTIONS], s.heroes[0, L.H_DAMAGE]) == (potions, damage)


@pytest.mark.parametrize("reading,red,damage", [("die_value", 6, 0), ("one_to_four", 6, 4),
                                                ("die_value", 3, 1), ("one_to_four", 3, 1)])
def test_variant_goblin_heal_one_to_four(reading: str, red: int, damage: int) -> None:
    s = kit.scene(("amazona",), vary={"goblin_heal": reading})
    s.heroes[0, L.H_DAMAGE] = 4
    kit.force(s, 6, red)
    kit.step(s, "goblin", kit.comp().goblin_ids.index("goblin_2"))
    assert s.heroes[0, L.H_DAMAGE] == damage


# ---------------------------------------------------------------- when bosses enter, what is left after them
@pytest.mark.parametrize("reading,taken,deaths", [("rolled_before", 0, 0), ("join", 6, 1)])
def test_variant_late_foes_join(reading: str, taken: int, deaths: int) -> None:
    """DM-7.1: the Amazona's white 1 lands first, kills the riding amazon and completes the Village (11 + 1): the
    Lords (faces 3-5) enter at once. The red 3 was rolled before them: by default they do not strike with it;
    under ``join`` each deals 3 and she dies (5 vitality; the bonus attack's 6 misses)."""
    assert VARIANTS.by_id["late_foes"].default == "rolled_before"
    s = kit.scene(("amazona",), vary={"late_foes": reading})
    s.table[L.T_ADVANCE] = 11
    kit.add_foe(s, "amazona_jinete", damage=2)
    kit.force(s, 1, 3, 6)
    kit.step(s, "attack", 0)
    assert kit.foe_units(s) == ["lord", "lord"] and s.heroes[0, L.H_DEATHS] == deaths
    assert [e["damage"] for e in kit.events(s, "enemies_hit")] == ([taken] if taken else [])
    assert s.table[L.T_FORCED_NEXT] == 2 + deaths and list(s.foes[:2, L.F_LATE]) == [0, 0]  # cleared after


def village_in_phase_1(reading: str) -> State:
    """The Amazona walks from 11 to the Village's 12 and draws nothing: the Lords enter in phase 1. The Guerrero,
    exhausted, would recover in a bonus phase. Every white 3 deals 3 (Lords have 5 vitality), every red 6
    misses; the Village's goblin rolls 5 and 5 (nothing)."""
    s = kit.scene(("amazona", "guerrero"), vary={"bonus_after_bosses": reading})
    s.table[L.T_ADVANCE] = 11
    s.heroes[1, L.H_EXHAUSTED] = 1
    kit.force(s, 3, 6, 3, 6, 3, 6, 3, 6, 5, 5)
    kit.step(s, "turn", 0, kit.script(target="lord", bonus="recover"))
    assert [e["unit"] for e in kit.events(s, "kill")] == ["lord", "lord"] and s.table[L.T_SITE] == 1
    return s


@pytest.mark.parametrize("reading,recovered", [("after_phase_1", True), ("never", False), ("always", True)])
def test_variant_bonus_after_bosses_never(reading: str, recovered: bool) -> None:
    """DM-8.4: bosses called in phase 1 and beaten in the attacks: a bonus phase follows (seed L36 «no hay fase
    de bonus sino hasta que estos jefes son derrotados»; L110 speaks of enemy points only), but not under
    ``never`` (the digest's DM-4.5 a)."""
    s = village_in_phase_1(reading)
    assert [e["seat"] for e in kit.events(s, "bonus")] == ([1] if recovered else [])
    assert s.heroes[1, L.H_EXHAUSTED] == (0 if recovered else 1)


@pytest.mark.parametrize("reading,recovered", [("after_phase_1", False), ("never", False), ("always", True)])
def test_variant_bonus_after_bosses_always(reading: str, recovered: bool) -> None:
    """DM-8.4: enemy points (the potions kill the riding amazon: 11 + 1) call the Lords; once they are beaten
    there is no bonus phase (seed L110 «y ya no hay fase de bonus»), but there is under ``always``."""
    s = kit.scene(("amazona",), vary={"bonus_after_bosses": reading})
    s.table[L.T_ADVANCE] = 10
    s.heroes[0, L.H_EXHAUSTED] = 1  # walks to 11; would recover in a bonus phase
    s.heroes[0, L.H_POTIONS] = 5
    kit.add_foe(s, "amazona_jinete")
    kit.force(s, 6, 6, 3, 6, 2, 6, 3, 6, 2, 6, 5)
    kit.step(s, "turn", 0, kit.script(potions="drink", bonus="recover"))
    assert [e["unit"] for e in kit.events(s, "kill")] == ["amazona_jinete", "lord", "lord"]
    assert s.table[L.T_SITE] == 1 and s.heroes[0, L.H_EXHAUSTED] == (0 if recovered else 1)


@pytest.mark.parametrize("reading,ridden,middle", [("no", -1, 1), ("at_once", 0, 0)])
def test_variant_amazon_takes_middle_at_once(reading: str, ridden: int, middle: int) -> None:
    """DM-5.4.1: a riding amazon drawn while a mount waits in the middle: by default she leaves it there (seed
    L41 covers mounts drawn or dismounted while she is in play); under ``at_once`` she takes it as she enters."""
    s = kit.scene(("amazona",), deck=(kit.card("amazona_jinete"),), vary={"amazon_takes_middle": reading})
    m = kit.comp().mount_ids.index("mount_2")
    s.middle[0, L.M_MOUNT], s.middle[0, L.M_CARD], s.middle[0, L.M_DAMAGE] = m, kit.card("mount_2"), 1
    s.table[L.T_MIDDLE] = 1
    kit.step(s, "draw", 0)
    assert kit.foe_units(s) == ["amazona_jinete"] and s.table[L.T_MIDDLE] == middle
    assert s.foes[0, L.F_MOUNT] == (m if ridden == 0 else -1)
    assert s.foes[0, L.F_MOUNT_DAMAGE] == (1 if ridden == 0 else 0)

@pytest.mark.parametrize("reading,bosses_first", [("at_once", True), ("after_cards", False)])
def test_variant_bosses_enter_after_cards(reading: str, bosses_first: bool) -> None:
    """The walk and a go card reach the Village's 12 in phase 1: the Lords join the round against the asesino, or
    enter after it. Each white 3 deals 3 and no red 6 strikes: asesino, Lord, Lord, then the printed goblin's 6."""
    s = kit.scene(("amazona",), deck=(kit.card("go"),), vary={"bosses_enter": reading})
    s.table[L.T_ADVANCE] = 10
    kit.add_foe(s, "asesino")
    kit.force(s, *[3, 6] * 5, 6)
    kit.step(s, "turn", 0, kit.script(target="asesino"))
    order = [e["event"] for e in kit.events(s) if e["event"] in ("boss_enters", "kill")]
    assert order == (["boss_enters"] * 2 + ["kill"] * 3 if bosses_first else ["kill", "boss_enters", "boss_enters",
                                                                               "kill", "kill"])
    assert s.table[L.T_FORCED_NEXT] == 11 and s.table[L.T_SITE] == 1


@pytest.mark.parametrize("reading,expected", [("fight_on", [(5, 6, "attack"), (3, 6, "attack")]),
                                              ("next_turns", [(5, 6, "attack"), (3, 0, "bonus strike")])])
def test_variant_leftover_enemies_fight_on(reading: str, expected: list) -> None:
    """An asesino left once the Village's bosses are dead: one round then the bonus phase (the default, seed L39
    «SOLO UN ATAQUE POR JUGADOR»), or attacked until dead."""
    assert VARIANTS.by_id["leftover_enemies"].default == "next_turns"
    s = kit.scene(("amazona",), vary={"leftover_enemies": reading})
    s.table[L.T_BOSSES_IN] = 1
    kit.add_foe(s, "asesino")
    kit.force(s, 5, 6, 3, 6, 6)
    kit.step(s, "turn", 0, kit.script(bonus="strike"))
    assert rolls(s) == expected and kit.events(s, "move") == []
    assert kit.foe_units(s) == [] and s.table[L.T_SITE] == 1


# ---------------------------------------------------------------- the attack
@pytest.mark.parametrize("reading,reroll,taken,used", [("both", (4, 1), 0, 4), ("white", (4, 2), 2, 3)])
def test_variant_barbara_reroll_white(reading: str, reroll: tuple, taken: int, used: int) -> None:
    """Bárbara's double 2 rerolled with 4, 1 forced: both dice (white 4, red 1) or only hers (white 4, red 2)."""
    s = kit.scene(("barbara",), vary={"barbara_reroll": reading})
    kit.add_foe(s, "asesino")
    kit.force(s, 2, 2, 4, 1)
    kit.step(s, "attack", 0, kit.script(double="reroll"))
    assert [(e["white"], e["red"]) for e in kit.events(s, "reroll")] == [reroll]
    assert kit.foe_units(s) == [] and s.heroes[0, L.H_DAMAGE] == taken and s.table[L.T_FORCED_NEXT] == used


@pytest.mark.parametrize("reading,left,taken", [("no", [], 0), ("yes", [("asesino", 0)], 2)])
def test_variant_grab_needs_face_yes(reading: str, left: list, taken: int) -> None:
    """Bárbara (faces 2-4) grabs on a double 2 and rolls a 5: it beats the red 2 but is not one of her faces."""
    s = kit.scene(("barbara",), vary={"grab_needs_face": reading})
    kit.add_foe(s, "asesino")
    attack(s, 0, 2, 2, 5, double="grab", split="asesino")
    assert foes(s) == left and s.heroes[0, L.H_DAMAGE] == taken


@pytest.mark.parametrize("reading,level,white,dealt", [
    ("printed", 3, 5, 0), ("hero_faces_level_3", 3, 5, 4), ("printed", 3, 2, 2), ("hero_faces_level_3", 3, 2, 0),
    ("printed", 1, 5, 0), ("hero_faces_level_3", 1, 5, 0)])
def test_variant_mounted_faces_hero_faces_level_3(reading: str, level: int, white: int, dealt: int) -> None:
    """Guerrero (faces 3-5) on a level-3 mount (faces 1-4, the die's damage): its faces, or his capped at 4; a
    level-1 mount keeps its printed faces either way."""
    s = kit.scene(("guerrero",), vary={"mounted_faces": reading})
    kit.add_foe(s, "paladin", role=L.ROLE_FINAL)  # strikes on 3-6: not on the red 1
    kit.mount_hero(s, 0, level=level)
    attack(s, 0, white, 1)
    assert foes(s) == [("paladin", dealt)]


@pytest.mark.parametrize("reading,left,middle_damage,advance", [("full_and_dismount", [], 0, 1),
                                                                 ("one_and_one", [("amazona_jinete", 1)], 1, 0)])
def test_variant_mounted_amazon_one_and_one(reading: str, left: list, middle_damage: int, advance: int) -> None:
    """Amazona's 3 on a riding amazon (vitality 3) on a level-1 mount: dismounted and killed (her point gained), or
    she takes 1 and the mount 1."""
    s = kit.scene(("amazona",), vary={"mounted_amazon": reading})
    f = kit.add_foe(s, "amazona_jinete")
    s.foes[f, L.F_MOUNT], s.foes[f, L.F_MOUNT_CARD] = 0, kit.card("mount_1")
    attack(s, 0, 3, 6)
    assert foes(s) == left and s.table[L.T_ADVANCE] == advance
    assert s.table[L.T_MIDDLE] == 1 and s.middle[0, L.M_DAMAGE] == middle_damage


# ---------------------------------------------------------------- the final bosses
def castle(party: tuple[str, ...], vary: dict[str, str], *faces: int) -> State:
    """The Castle's go card (4) takes the advance from 23 to its target 24 in phase 1: the final boss(es) enter."""
    s = kit.scene(party, site=3, deck=(kit.card("go"),), vary=vary)
    s.table[L.T_ADVANCE] = 23
    kit.force(s, *faces)
    kit.step(s, "draw", 0)
    assert s.table[L.T_FORCED_NEXT] == len(faces)
    return s


@pytest.mark.parametrize("reading,finals", [("dark_maiden", ["dama_negra"]), ("paladin", ["paladin"])])
def test_variant_final_boss_paladin(reading: str, finals: list) -> None:
    assert kit.foe_units(castle(("amazona",), {"final_boss": reading})) == finals


@pytest.mark.parametrize("die,finals", [(1, ["paladin"]), (3, ["paladin"]), (4, ["dama_negra"]), (6, ["dama_negra"])])
def test_variant_final_boss_roll(die: int, finals: list) -> None:
    """A d6 when the Castle is completed: 1-3 the Paladin, 4-6 the Dark Maiden."""
    assert kit.foe_units(castle(("amazona",), {"final_boss": "roll"}, die)) == finals


@pytest.mark.parametrize("reading,first", [("together", ["dama_negra", "paladin"]), ("sequential", ["dama_negra"])])
def test_variant_final_4p_sequential(reading: str, first: list) -> None:
    """Four heroes: both finals enter at once, or the Paladin when the Dark Maiden dies."""
    s = castle(FOUR, {"final_4p": reading})
    assert kit.foe_units(s) == first
    s.foes[0, L.F_DAMAGE] = 11
    attack(s, 0, 1, 2)  # white 1 first: the Dark Maiden dies before striking
    assert foes(s) == [("paladin", 0)] and s.table[L.T_OVER] == L.OVER_RUNNING
    assert [e["event"] for e in kit.events(s) if e["event"] in ("boss_enters", "kill")][-2:] == (
        ["boss_enters", "kill"] if reading == "together" else ["kill", "boss_enters"])


# ---------------------------------------------------------------- sites
@pytest.mark.parametrize("reading,advance", [("zero", 0), ("none", -1)])
def test_variant_advance_floor_none(reading: str, advance: int) -> None:
    """A −2 go card (the Forest's ability side) at advance 1."""
    s = kit.scene(("amazona",), site=1, deck=(kit.card("go"),), vary={"advance_floor": reading})
    s.table[L.T_GO], s.table[L.T_ADVANCE] = -2, 1
    kit.step(s, "draw", 0)
    assert s.table[L.T_ADVANCE] == advance


@pytest.mark.parametrize("reading,go,advance", [("basic", 2, 5), ("ability", -2, 1)])
def test_variant_site_side_ability(reading: str, go: int, advance: int) -> None:
    """The Village completed (its printed goblin's 6 gives nothing): the Forest's go cards are worth its side's."""
    s = kit.scene(("amazona",), vary={"site_side": reading})
    s.table[L.T_BOSSES_IN] = 1
    kit.force(s, 6)
    kit.step(s, "check_site")
    assert s.table[L.T_SITE] == 1 and s.table[L.T_GO] == go
    kit.set_deck(s, (kit.card("go"),))
    s.table[L.T_ADVANCE] = 3
    kit.step(s, "draw", 0)
    assert s.table[L.T_ADVANCE] == advance


# ---------------------------------------------------------------- house rules and the turn cap
@pytest.mark.parametrize("reading", ["off", "on"])
def test_variant_special_items_on(reading: str) -> None:
    """Items by difficulty (kept, lost on death, in the deck); held from the start in easy and normal, where item A
    adds 1 to a hit."""
    rules = [cell(difficulty=d, variants={"special_items": reading}).items
             for d in ("easy", "normal", "hard")]
    assert rules == ([L.ITEMS_KEPT, L.ITEMS_LOST_ON_DEATH, L.ITEMS_IN_DECK] if reading == "on" else [-1, -1, -1])
    s = kit.scene(("amazona",), items=rules[1])
    kit.add_foe(s, "paladin", role=L.ROLE_FINAL)
    attack(s, 0, 2, 1)
    held = 0b11 if reading == "on" else 0
    assert s.heroes[0, L.H_ITEMS] == held and foes(s) == [("paladin", 3 if held else 2)]


@pytest.mark.parametrize("party,lives,same,scaled", [
    (["amazona"], {}, 12, 4), (["amazona", "barbara"], {}, 12, 8), (list(FOUR), {}, 12, 16),
    (["amazona", "barbara"], {"lives": 10}, 10, 7), (["amazona"], {"lives": 10}, 10, 3)])
def test_variant_lives_by_players_scaled(party: list, lives: dict, same: int, scaled: int) -> None:
    """The life counter × heroes / 3, rounded half up (normal: 12)."""
    for reading, want in (("same", same), ("scaled", scaled)):
        assert cell(party=party, variants={"lives_by_players": reading, **lives}).lives == want


@pytest.mark.parametrize("difficulty,default", [("easy", 15), ("normal", 12), ("hard", 9)])
def test_variant_lives_custom(difficulty: str, default: int) -> None:
    """``lives`` overrides the difficulty's count (seed L117) and the kernel's counter starts there."""
    assert cell(difficulty=difficulty).lives == default
    lives = cell(difficulty=difficulty, variants={"lives": 7}).lives
    assert lives == 7 and kit.scene(("amazona",), lives=lives).table[L.T_LIVES] == 7
    with pytest.raises(ValueError, match="lives"):
        DarkMaiden().check_settings({"policy": "random_legal", "difficulty": difficulty, "variants": {"lives": 100}})


@pytest.mark.parametrize("cap,over", [(300, L.OVER_RUNNING), (10, L.OVER_TIMEOUT)])
def test_variant_max_turns_custom(cap: int, over: int) -> None:
    """The 11th turn of a game capped at 10 turns stops it as a timeout."""
    s = kit.scene(("amazona",), vary={"max_turns": cap})
    s.table[L.T_TURN] = 10
    out = kit.step(s, "turn")
    assert s.table[L.T_OVER] == over
    assert out[L.OUT_OVER] == (L.OVER_TIMEOUT if over == L.OVER_TIMEOUT else 0)


# ---------------------------------------------------------------- GAP defaults made readings
@pytest.mark.parametrize("reading,left,taken", [("per_enemy", [("armadura_2", 2)], 0),
                                                ("per_point", [("armadura_2", 0)], 0)])
def test_variant_grab_armour_per_point(reading: str, left: list, taken: int) -> None:
    """Guerrero grabs on a double 4 and rolls a 6: all 3 points to an Armadura (armour 1): 2 land (the first is
    lost), or none (each point loses 1)."""
    s = kit.scene(("guerrero",), vary={"grab_armour": reading})
    kit.add_foe(s, "armadura_2", role=L.ROLE_SUB_BOSS)
    attack(s, 0, 4, 4, 6, double="grab", split="armadura_2")
    assert foes(s) == left and s.heroes[0, L.H_DAMAGE] == taken


@pytest.mark.parametrize("reading,offered", [("allowed", ["potions", "attack", "double"]),
                                             ("not_mounted", ["potions"])])
def test_variant_mounted_specials_not_mounted(reading: str, offered: list) -> None:
    """A mounted Amazona with a potion rolls a double 5 (no hit on the mount's faces, no strike): a quick strike and
    a grab are offered (DM-7.12 default) or not; with the grab gone, her double has a single row, so it is not
    asked at all."""
    s = kit.scene(("amazona",), vary={"mounted_specials": reading})
    kit.add_foe(s, "mercenaria")
    kit.mount_hero(s, 0, level=1)
    attack(s, 0, 5, 5)
    assert [e["hook"] for e in kit.events(s, "decision")] == offered


@pytest.mark.parametrize("reading,exhausted", [("yes", 0), ("no", 1)])
def test_variant_death_clears_exhaustion_no(reading: str, exhausted: int) -> None:
    """An exhausted Amazona dies to an Asesino's 3 (her bonus attack misses on a 6): ready again, or still
    exhausted."""
    s = kit.scene(("amazona",), vary={"death_clears_exhaustion": reading})
    kit.add_foe(s, "asesino")
    s.heroes[0, L.H_DAMAGE], s.heroes[0, L.H_EXHAUSTED] = 4, 1
    attack(s, 0, 6, 3, 6)
    assert s.heroes[0, L.H_DEATHS] == 1 and s.heroes[0, L.H_EXHAUSTED] == exhausted


@pytest.mark.parametrize("reading,damage,strikers", [("others_strike", 1, 1), ("nobody_strikes", 0, 0)])
def test_variant_reinforcement_strikes_nobody_strikes(reading: str, damage: int, strikers: int) -> None:
    """A red 1 beside the Dark Maiden and a Mercenaria (faces 1-2): she calls a card (a go card: discarded) and the
    Mercenaria strikes for 1, or the call is nobody's strike."""
    s = kit.scene(("guerrero",), deck=(kit.card("go"),), vary={"reinforcement_strikes": reading})
    kit.add_foe(s, "dama_negra", role=L.ROLE_FINAL)
    kit.add_foe(s, "mercenaria")
    attack(s, 0, 6, 1)  # Guerrero misses on 6
    assert s.heroes[0, L.H_DAMAGE] == damage and len(kit.events(s, "enemies_hit")) == strikers
    assert len(kit.events(s, "reinforcements")) == 1


def finish_village(vary: dict[str, str]) -> State:
    """The Village completed with a hurt, exhausted Amazona and a level-1 mount in the middle (its goblin rolls 5)."""
    s = kit.scene(("amazona",), vary=vary)
    s.heroes[0, L.H_DAMAGE], s.heroes[0, L.H_EXHAUSTED] = 3, 1
    s.middle[0, L.M_MOUNT], s.middle[0, L.M_CARD], s.middle[0, L.M_DAMAGE] = 0, kit.card("mount_1"), 1
    s.table[L.T_MIDDLE], s.table[L.T_BOSSES_IN] = 1, 1
    kit.force(s, 5)
    kit.step(s, "check_site")
    assert s.table[L.T_SITE] == 1
    return s


@pytest.mark.parametrize("reading,hero", [("carry", (3, 1)), ("rest", (0, 0))])
def test_variant_carry_over_rest(reading: str, hero: tuple) -> None:
    s = finish_village({"carry_over": reading})
    assert (s.heroes[0, L.H_DAMAGE], s.heroes[0, L.H_EXHAUSTED]) == hero


@pytest.mark.parametrize("reading,middle,deck", [("stay", 1, 5), ("shuffled", 0, 6)])
def test_variant_middle_mounts_shuffled(reading: str, middle: int, deck: int) -> None:
    """The Forest's deck is the level-2 pile (5 cards) alone here, plus the free mount under ``shuffled``."""
    s = finish_village({"middle_mounts": reading})
    assert s.table[L.T_MIDDLE] == middle and s.table[L.T_DECK] == deck
