"""Boss rules (R-12) one at a time on hand-placed scenes: forced dice, a stacked behaviour deck, and the
resulting state checked (facing, node, arcs hit, cubes, wounds, deck order, heat-up).

Board geometry used throughout (a standard tile, ``(row, col)``, 13 nodes on a checkerboard)::

    (0,0)     (0,2)     (0,4)          directions: 0 N, 1 NE, 2 E, 3 SE, 4 S, 5 SW, 6 W, 7 NW
         (1,1)     (1,3)               (an orthogonal neighbour is 2 rows or 2 cols away,
    (2,0)     (2,2)     (2,4)           a diagonal one 1 row and 1 col away)
         (3,1)     (3,3)
    (4,0)     (4,2)     (4,4)

Unless a test says otherwise the battle is capped at one round (``max_rounds``) and enemies act
first (A-2), so round 1 is: the boss draws the top card and resolves it, then one character activates.
The aggro token is on the first party member (the knight).
"""

from __future__ import annotations

import copy

import pytest

from dsim.games.dstbg import engine
from dsim.games.dstbg.board import joined_tiles, standard_tile
from dsim.games.dstbg.compile import ARC_BITS, compile_boss
from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.position import Position
from dsim.games.dstbg.trace import FACINGS, describe, events
from tests.kit import data, first, play, scene, script, scripted
from tests.dstbg.test_boss_rules import _decode_step as decode_step
from tests.dstbg.test_data_counts import BOSS_TABLES, FACTS as REFERENCE, ident
from tests.dstbg.test_data_counts import _arcs as reference_arcs, _sequence as reference_sequence
from tests.dstbg.test_data_counts import number as reference_number, table as reference_table

N, NE, E, SE, S, SW, W, NW = range(8)
FR, RI, BA, LE = L.ARC_FRONT, L.ARC_RIGHT, L.ARC_BACK, L.ARC_LEFT
ONE = {"max_rounds": 1}
CHARS_FIRST = {"max_rounds": 1, "first_side": "characters_first"}
BOSS = "#0"


def card(pos: Position, name: str) -> int:
    return pos.comp.card_ids.index(name)


def boss_part(evs: list[dict]) -> list[dict]:
    """The events of round 1 up to the first character activation (the boss's turn)."""
    out = []
    for ev in evs:
        if ev["event"] == "activate" and "#" not in ev["actor"]:
            break
        out.append(ev)
    return out


def after_boss(evs: list[dict]) -> dict:
    """The state once the boss's turn of round 1 is over."""
    return boss_part(evs)[-1]["state"]


def rc(figure: dict) -> tuple[int, int]:
    return tuple(figure["rc"])


def facing(state: dict, e: int = 0) -> int:
    return FACINGS.index(state["enemies"][e]["facing"])


def deck_cards(b) -> list[int]:
    return [int(x) for x in b.deck[:b.glob[L.G_DECK_LEN]]]


# --------------------------------------------------------------------------- arcs (R-12.8, board only)

# Boss on (2,2): the arcs of every other node, written out by hand from R-12.8 (90° sectors centred on
# the facing; nodes exactly on a dividing line are in both arcs).
ARCS_FACING_N = {
    (0, 0): FR | LE, (0, 2): FR, (0, 4): FR | RI,
    (1, 1): FR | LE, (1, 3): FR | RI,
    (2, 0): LE, (2, 4): RI,
    (3, 1): BA | LE, (3, 3): BA | RI,
    (4, 0): BA | LE, (4, 2): BA, (4, 4): BA | RI,
}  # fmt: skip
ARCS_FACING_NE = {
    (0, 0): LE, (0, 2): FR | LE, (0, 4): FR,
    (1, 1): LE, (1, 3): FR,
    (2, 0): BA | LE, (2, 4): FR | RI,
    (3, 1): BA, (3, 3): RI,
    (4, 0): BA, (4, 2): BA | RI, (4, 4): RI,
}  # fmt: skip


@pytest.mark.parametrize("face, table", [(N, ARCS_FACING_N), (NE, ARCS_FACING_NE)], ids=["orthogonal_N", "diagonal_NE"])
def test_R_12_8_arcs_of_every_node(face, table):
    board = standard_tile()
    boss = board.node(2, 2)
    got = {tuple(int(v) for v in board.coords[n]): int(board.arc_mask[face, boss, n])
           for n in range(board.n_nodes) if n != boss}  # fmt: skip
    assert got == table
    assert board.arc_mask[face, boss, boss] == 0  # the boss's own node: characters there carry their side


def test_R_12_8_arcs_turn_with_the_boss():
    """Facing S is facing N rotated by 180°: front and back, left and right swap."""
    board = standard_tile()
    boss = board.node(2, 2)
    swap = {FR: BA, BA: FR, LE: RI, RI: LE}
    for (r, c), arcs in ARCS_FACING_N.items():
        rotated = sum(swap[bit] for bit in (FR, RI, BA, LE) if arcs & bit)
        assert board.arc_mask[S, boss, board.node(r, c)] == rotated, (r, c)


@pytest.mark.parametrize("board", [standard_tile(), joined_tiles()], ids=["tile", "arena"])
def test_R_12_8_every_node_is_in_one_or_two_adjacent_arcs(board):
    for f in range(8):
        for b in range(board.n_nodes):
            for n in range(board.n_nodes):
                if n == b:
                    continue
                m = int(board.arc_mask[f, b, n])
                assert m in (FR, RI, BA, LE, FR | RI, RI | BA, BA | LE, LE | FR), (f, b, n, m)


# --------------------------------------------------------------------------- moves and facing

@pytest.mark.parametrize("step, to_facing, to_node", [(0, E, (2, 4)), (1, SE, (3, 3)), (2, S, (4, 2))])
def test_R_12_14_move_toward_turns_the_front_to_a_closer_node_then_steps_into_it(step, to_facing, to_node):
    """Gargoyle Halberd Thrust (face the aggro holder, forward 1): from (2,2) facing N toward the knight
    on (4,4), the closer adjacent nodes are (2,4), (3,3) and (4,2) (D-31 picks among them)."""
    pos = scene(["knight", "warrior"], boss="gargoyle", variants=ONE)
    pos.enemy(0, (2, 2), facing=N).char("knight", (4, 4)).char("warrior", (0, 0))
    pos.deck([card(pos, "halberd_thrust")])
    _, evs = play(pos, H_ENEMY_STEP=step)
    turn = first(evs, "turn", actor="gargoyle" + BOSS)
    move = first(evs, "move", actor="gargoyle" + BOSS)
    assert evs.index(turn) < evs.index(move)  # it turns first, then moves straight ahead
    st = move["state"]
    assert facing(st) == to_facing and rc(st["enemies"][0]) == to_node
    board = pos.comp.board
    assert board.steps[pos.node(to_node), pos.node((4, 4))] < board.steps[pos.node((2, 2)), pos.node((4, 4))]


@pytest.mark.parametrize("step", range(5))
def test_R_12_15_move_away_turns_the_back_to_a_farther_node_and_backs_into_it(step):
    """Gargoyle Tail Whip ends with 'back 1 facing the aggro holder': the back arc's centre goes to an
    adjacent node farther from the knight and the boss backs into it without turning again."""
    pos = scene(["knight", "warrior"], boss="gargoyle", variants=ONE)
    pos.enemy(0, (2, 2), facing=N).char("knight", (0, 2)).char("warrior", (4, 0))
    pos.deck([card(pos, "tail_whip")])
    _, evs = play(pos, H_ENEMY_STEP=step)
    st = after_boss(evs)
    board = pos.comp.board
    start, knight = pos.node((2, 2)), pos.node((0, 2))
    now = pos.node(rc(st["enemies"][0]))
    f = facing(st)
    assert now == board.neighbour[start, (f + 4) % 8]  # moved straight back, facing kept after the turn
    assert board.steps[now, knight] > board.steps[start, knight]
    assert board.arc_mask[f, now, knight] & FR  # it never turns its back on the target (F-12.6)


def test_F_12_6_a_boss_that_cannot_move_away_only_turns_to_face_the_target():
    """Cornered on (0,0) with a chest on (0,2): no adjacent node is farther from the knight on (4,0),
    so Tail Whip's backward move is only a turn, front on (2,0), the adjacent node closest to him."""
    pos = scene(["knight", "warrior"], boss="gargoyle", variants=ONE)
    pos.enemy(0, (0, 0), facing=E).char("knight", (4, 0)).char("warrior", (4, 4)).terrain((0, 2), L.TERRAIN_CHEST)
    pos.deck([card(pos, "tail_whip")])
    _, evs = play(pos)
    st = after_boss(evs)
    assert facing(st) == S and rc(st["enemies"][0]) == (0, 0)
    assert not [ev for ev in boss_part(evs) if ev["event"] == "move"]


def test_R_12_16_target_in_the_boss_node_the_boss_turns_instead_of_moving():
    """Electric Breath (face the nearest, move 0): the knight stands in the boss's node on its east side,
    so the boss turns east; the knight does not move."""
    pos = scene(["knight", "warrior"], boss="gargoyle", variants=ONE)
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 2), side=E + 1).char("warrior", (4, 4))
    pos.deck([card(pos, "electric_breath")])
    _, evs = play(pos)
    st = first(evs, "turn", actor="gargoyle" + BOSS)["state"]
    assert facing(st) == E
    knight = after_boss(evs)["characters"][0]
    assert rc(knight) == (2, 2) and knight["side"] == "E"
    assert rc(after_boss(evs)["enemies"][0]) == (2, 2)


@pytest.mark.parametrize("choice", range(3))
def test_R_12_17_entering_a_character_node_puts_it_on_the_arc_that_faced_it_then_R_12_23_pushes_it_in_that_arc(choice):
    """Sweeping Strike (forward 1 toward the nearest, push) from (4,2) facing N onto the knight on (2,2):
    the knight is placed on the boss's front side, then pushed to an adjacent node of the front arc."""
    pos = scene(["knight", "warrior"], boss="gargoyle", variants=ONE)
    pos.enemy(0, (4, 2), facing=N).char("knight", (2, 2)).char("warrior", (0, 0))
    pos.deck([card(pos, "sweeping_strike")])
    _, evs = play(pos, H_MOVE_PUSH=choice)
    move = first(evs, "move", actor="gargoyle" + BOSS)
    assert rc(move["state"]["enemies"][0]) == (2, 2) and facing(move["state"]) == N
    assert move["state"]["characters"][0]["side"] == "N"  # the front side, which faced the knight
    push = first(evs, "push", actor="knight")
    dest = pos.node(rc(push["state"]["characters"][0]))
    assert pos.comp.board.arc_mask[N, pos.node((2, 2)), dest] & FR
    assert rc(push["state"]["characters"][0]) == [(0, 2), (1, 3), (1, 1)][choice]


@pytest.mark.parametrize("choice", range(5))
def test_F_12_8_push_out_of_the_boss_node_with_no_node_in_the_arc_goes_along_the_wall(choice):
    """Boreal Outrider Knight Overhand Slash (sidestep left 1, push) from (2,2) facing N onto the knight on
    (2,0): the knight is on the boss's left side, against the west wall, where the left arc has no node;
    it goes to an adjacent node along the wall, (0,0) or (4,0) — never (1,1), (2,2) or (3,1)."""
    pos = scene(["knight", "warrior"], boss="boreal_outrider_knight", variants=ONE)
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 0)).char("warrior", (4, 4))
    pos.deck([card(pos, "overhand_slash")])
    _, evs = play(pos, H_MOVE_PUSH=choice)
    move = first(evs, "move", actor="boreal_outrider_knight" + BOSS)
    assert move["state"]["characters"][0]["side"] == "W"
    push = first(evs, "push", actor="knight")
    assert rc(push["state"]["characters"][0]) == [(0, 0), (4, 0)][min(choice, 1)]


def test_R_12_18_sidestep_left_moves_to_the_left_arc_centre_without_turning():
    pos = scene(["knight", "warrior"], boss="boreal_outrider_knight", variants=ONE)
    pos.enemy(0, (2, 2), facing=N).char("knight", (4, 4)).char("warrior", (4, 0))
    pos.deck([card(pos, "overhand_slash")])
    _, evs = play(pos)
    st = after_boss(evs)
    assert rc(st["enemies"][0]) == (2, 0) and facing(st) == N
    assert not [ev for ev in boss_part(evs) if ev["event"] == "turn"]


def test_F_12_7_sidestep_from_a_diagonal_facing_goes_to_the_centre_of_the_left_arc():
    pos = scene(["knight", "warrior"], boss="boreal_outrider_knight", variants=ONE)
    pos.enemy(0, (2, 2), facing=NE).char("knight", (4, 4)).char("warrior", (4, 0))
    pos.deck([card(pos, "overhand_slash")])
    _, evs = play(pos)
    st = after_boss(evs)
    assert rc(st["enemies"][0]) == (1, 1) and facing(st) == NE


def test_F_12_7_directional_move_into_a_blocked_arc_centre_does_not_move():
    """The left arc's centre (2,0) holds a chest: no move, and no diagonal step instead."""
    pos = scene(["knight", "warrior"], boss="boreal_outrider_knight", variants=ONE)
    pos.enemy(0, (2, 2), facing=N).char("knight", (4, 4)).char("warrior", (4, 0)).terrain((2, 0), L.TERRAIN_CHEST)
    pos.deck([card(pos, "overhand_slash")])
    _, evs = play(pos)
    st = after_boss(evs)
    assert rc(st["enemies"][0]) == (2, 2) and facing(st) == N


def test_R_12_19_turn_icons_and_R_12_7_repeat_the_whole_action():
    """Dancer Double Slash: forward 1, turn 90° right, attack; repeated twice. From (2,2) facing N:
    (0,2) facing E, then (0,4) facing S."""
    pos = scene(["knight", "warrior"], boss="dancer_of_the_boreal_valley", variants=ONE)
    pos.enemy(0, (2, 2), facing=N).char("knight", (4, 10)).char("warrior", (4, 8))
    pos.deck([card(pos, "double_slash")])
    _, evs = play(pos)
    part = boss_part(evs)
    moves = [rc(ev["state"]["enemies"][0]) for ev in part if ev["event"] == "move"]
    turns = [facing(ev["state"]) for ev in part if ev["event"] == "turn"]
    attacks = [facing(ev["state"]) for ev in part if ev["event"] == "attack"]
    assert moves == [(0, 2), (0, 4)] and turns == [E, S] and attacks == [E, S]


@pytest.mark.parametrize("start", [N, E, SW])
def test_R_12_19_turn_180(start):
    """Titanite Demon Vicious Swing turns 180° in place before its attack."""
    pos = scene(["knight", "warrior"], boss="titanite_demon", variants=ONE)
    pos.enemy(0, (2, 2), facing=start).char("knight", (4, 4)).char("warrior", (0, 0))
    pos.deck([card(pos, "vicious_swing")])
    _, evs = play(pos)
    st = first(evs, "attack", actor="titanite_demon" + BOSS)["state"]
    assert facing(st) == (start + 4) % 8 and rc(st["enemies"][0]) == (2, 2)


@pytest.mark.parametrize("choice", range(3))
def test_R_12_20_leap_lands_on_the_target_node_keeps_facing_and_pushes_to_any_adjacent_node(choice):
    """Leaping Frost from (0,0) facing S onto the knight and the warrior on (4,4). Facing S, every node
    next to (4,4) is behind or beside the boss, yet a leap pushes to any adjacent node (R-12.20)."""
    pos = scene(["knight", "warrior"], boss="boreal_outrider_knight", variants=ONE)
    pos.enemy(0, (0, 0), facing=S).char("knight", (4, 4)).char("warrior", (4, 4))
    pos.deck([card(pos, "leaping_frost")])
    _, evs = play(pos, H_MOVE_PUSH=choice)
    leap = first(evs, "leap", actor="boreal_outrider_knight" + BOSS)
    after = evs[evs.index(leap) + 1]["state"]
    assert rc(after["enemies"][0]) == (4, 4) and facing(after) == S
    push = first(evs, "push", actor="knight")
    assert rc(push["state"]["characters"][0]) == [(2, 4), (4, 2), (3, 3)][choice]


def test_R_12_9_a_character_walking_into_the_boss_node_stands_in_the_arc_it_came_from():
    """The knight walks from (0,2), in the front arc, into the boss's node: he stands on its front side."""
    pos = scene(["knight", "warrior"], boss="gargoyle", variants=CHARS_FIRST)
    pos.enemy(0, (2, 2), facing=N).char("knight", (0, 2)).char("warrior", (4, 4))
    _, evs = play(pos, H_STEP=3)  # options: stop, then (0,4), (1,3), (2,2), (1,1), (0,0)
    knight = first(evs, "move", actor="knight")["state"]["characters"][0]
    assert rc(knight) == (2, 2) and knight["side"] == "N"


@pytest.mark.parametrize("choice, side", [(0, "N"), (1, "E")])
def test_R_12_9_D_25_a_character_entering_the_boss_node_from_a_line_takes_either_arc(choice, side):
    """The knight walks from (1,3), on the line between the front and right arcs of a boss facing north,
    into its node: the players choose the side, north (front) or east (right)."""
    pos = scene(["knight", "warrior"], boss="gargoyle", variants=CHARS_FIRST)
    pos.enemy(0, (2, 2), facing=N).char("knight", (1, 3)).char("warrior", (4, 4))
    _, evs = play(pos, H_STEP=4, H_LINE_ARC=choice)  # options: stop, (0,4), (2,4), (3,3), (2,2), (1,1), (0,2)
    decision = first(evs, "decision", hook="line_arc")
    assert decision["values"][2] == 2  # two sides offered
    knight = first(evs, "move", actor="knight")["state"]["characters"][0]
    assert rc(knight) == (2, 2) and knight["side"] == side


def test_R_2_6_R_12_9_a_character_pushed_out_of_the_boss_node_by_the_node_limit_stays_in_its_arc():
    """Knight and warrior stand on the front side of a boss facing north; the herald walks in from (0,2)
    (front): four figures, so one character leaves (R-2.6), but only to the front arc's nodes (0,2),
    (1,1) and (1,3): two characters times three nodes, not every free neighbour."""
    pos = scene(["knight", "warrior", "herald"], boss="gargoyle", variants=CHARS_FIRST)
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 2), side=N + 1).char("warrior", (2, 2), side=N + 1)
    pos.char("herald", (0, 2)).tokens(next_char=2)
    _, evs = play(pos, H_STEP=3)  # options: stop, (0,4), (1,3), (2,2)
    limit = first(evs, "decision", hook="node_limit")
    assert limit["values"][2] == 6
    push = first(evs, "push", actor="knight")
    assert rc(push["state"]["characters"][0]) == (0, 2)  # the first option: back where the herald came from


def test_R_2_6_R_12_9_a_character_pushed_into_the_boss_node_by_the_node_limit_stands_at_the_side_it_came_from():
    """Knight, warrior and herald fill (0,2); the assassin walks in from (0,4) and the knight is pushed
    south into the boss's node (2,2): he stands at its north (front) side."""
    pos = scene(["knight", "warrior", "herald", "assassin"], boss="gargoyle", variants=CHARS_FIRST)
    pos.enemy(0, (2, 2), facing=N).char("knight", (0, 2)).char("warrior", (0, 2)).char("herald", (0, 2))
    pos.char("assassin", (0, 4)).tokens(next_char=3)
    _, evs = play(pos, H_STEP=3, H_NODE_LIMIT=2)  # steps: stop, (2,4), (1,3), (0,2); pushes: (0,4), (1,3), (2,2) …
    knight = first(evs, "push", actor="knight")["state"]["characters"][0]
    assert rc(knight) == (2, 2) and knight["side"] == "N"


@pytest.mark.parametrize("step, dest", [(1, (1, 3)), (2, (2, 4)), (3, (3, 3))])
def test_R_12_9_F_12_5_a_character_leaving_the_boss_node_stays_in_its_arc(step, dest):
    """The knight on the boss's east (right) side walks out: only (1,3), (2,4) and (3,3), the adjacent
    nodes of the right arc, are offered (plus stopping, and the two moves round the boss, R-12.10)."""
    pos = scene(["knight", "warrior"], boss="gargoyle", variants=CHARS_FIRST)
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 2), side=E + 1).char("warrior", (4, 4))
    _, evs = play(pos, H_STEP=step)
    step_decision = next(ev for ev in evs if ev["event"] == "decision" and ev.get("hook") == "step")
    assert step_decision["values"][2] == 6  # stop + three nodes + round the boss either way
    knight = first(evs, "move", actor="knight")["state"]["characters"][0]
    assert rc(knight) == dest and pos.comp.board.arc_mask[N, pos.node((2, 2)), pos.node(dest)] & RI


def round_events(evs: list[dict]) -> list[dict]:
    return [ev for ev in evs if ev["event"] == "round_boss"]


@pytest.mark.parametrize("row, side, arc", [(4, "N", FR), (5, "S", BA)])
def test_R_12_10_A_43_a_walk_in_the_boss_node_may_go_round_the_boss_into_the_next_arc(row, side, arc):
    """The knight on the east (right) side of a boss facing north: after stop and the three nodes of the
    right arc, rows 4 and 5 move him round the boss, counter-clockwise to the front (north side), clockwise
    to the back (south side). He stays on the boss's node; the step is his free walk (no stamina)."""
    pos = scene(["knight", "warrior"], boss="gargoyle", variants=CHARS_FIRST)
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 2), side=E + 1).char("warrior", (4, 4))
    _, evs = play(pos, H_STEP=row)
    decision = first(evs, "decision", hook="step")
    assert decision["values"][2] == 6
    shift = round_events(evs)[0]
    knight = shift["state"]["characters"][0]
    assert rc(knight) == (2, 2) and knight["side"] == side and knight["stamina"] == 0
    assert shift["values"][1] == FACINGS.index(side) + 1 and shift["values"][3] == arc
    assert "moves round gargoyle#0 to its" in describe(shift, pos.comp)


def test_R_12_10_front_to_back_round_the_boss_costs_a_walk_and_a_run():
    """000's example: from the front to the back costs 1 stamina, the walk to the right arc then a run on
    to the back (the scripted policy keeps taking row 5, clockwise)."""
    pos = scene(["knight", "warrior"], boss="gargoyle", variants=CHARS_FIRST)
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 2), side=N + 1).char("warrior", (4, 4))
    _, evs = play(pos, H_STEP=5)  # stop, (0,2), (1,3), (1,1), round counter-clockwise, round clockwise
    first_two = [ev["state"]["characters"][0] for ev in round_events(evs)[:2]]
    assert [(k["side"], k["stamina"]) for k in first_two] == [("E", 0), ("S", 1)]
    assert all(rc(k) == (2, 2) for k in first_two)


@pytest.mark.parametrize("row, side, arc", [(6, "SW", BA), (7, "SE", RI)])
def test_R_12_10_from_a_line_the_next_arcs_are_the_ones_it_is_not_in_yet(row, side, arc):
    """The boss faces north-east; the knight stands at its north side, on the line between its left and
    front arcs (five nodes of those arcs to leave by): going round leads on to the back arc (south-west
    side, counter-clockwise) or the right arc (south-east side, clockwise)."""
    pos = scene(["knight", "warrior"], boss="gargoyle", variants=CHARS_FIRST)
    pos.enemy(0, (2, 2), facing=NE).char("knight", (2, 2), side=N + 1).char("warrior", (4, 4))
    _, evs = play(pos, H_STEP=row)
    assert first(evs, "decision", hook="step")["values"][2] == 8  # stop, five nodes, two ways round
    shift = round_events(evs)[0]
    assert shift["state"]["characters"][0]["side"] == side and shift["values"][3] == arc


def test_A_43_forbidden_offers_no_move_round_the_boss():
    pos = scene(["knight", "warrior"], boss="gargoyle", variants={**CHARS_FIRST, "boss_arc_shift_in_node": "forbidden"})
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 2), side=E + 1).char("warrior", (4, 4))
    _, evs = play(pos, H_STEP=5)
    assert first(evs, "decision", hook="step")["values"][2] == 4  # stop + the right arc's three nodes
    assert round_events(evs) == []


@pytest.mark.parametrize("row, side, arc", [(1, "S", RI), (2, "W", BA), (3, "N", LE)])
def test_R_12_11_a_dodge_in_the_boss_node_may_go_to_any_arc(row, side, arc):
    """Electric Breath: the gargoyle turns to face the knight on its east side (R-12.16) and breathes on its
    front arc. The knight dodges: after staying, rows 1-3 are the other arcs' sides (now right, back, left),
    then the eight adjacent nodes, every one open whatever its arc (R-12.11 ignores the arc rules)."""
    pos = scene(["knight", "warrior"], boss="gargoyle", variants=ONE)
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 2), side=E + 1).char("warrior", (4, 4))
    pos.deck([card(pos, "electric_breath")])
    _, evs = play(pos, H_DEFENCE=1, H_DODGE_MOVE=row)
    assert first(evs, "decision", hook="dodge_move")["values"][2] == 1 + 3 + 8
    shift = round_events(evs)[0]
    knight = shift["state"]["characters"][0]
    assert rc(knight) == (2, 2) and knight["side"] == side and shift["values"][3] == arc
    assert facing(shift["state"]) == E


@pytest.mark.parametrize("choice", range(3))
def test_R_12_24_a_move_with_push_first_pushes_everyone_in_the_boss_node_within_their_own_arcs(choice):
    """Chilling Thrust (move 2 toward the aggro holder, push) with the knight on the boss's front side and
    the warrior on its back side: each is pushed first to an adjacent node of its own arc (R-12.24 a)."""
    pos = scene(["knight", "warrior"], boss="boreal_outrider_knight", variants=ONE)
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 2), side=N + 1).char("warrior", (2, 2), side=S + 1)
    pos.deck([card(pos, "chilling_thrust")])
    _, evs = play(pos, H_MOVE_PUSH=choice)
    part = boss_part(evs)
    assert part.index(first(part, "push", actor="knight")) < part.index(first(part, "move", actor="boreal_outrider_knight" + BOSS))
    arcs = pos.comp.board.arc_mask[N, pos.node((2, 2))]
    knight = first(part, "push", actor="knight")["state"]["characters"][0]
    warrior = first(part, "push", actor="warrior")["state"]["characters"][1]
    assert arcs[pos.node(rc(knight))] & FR and arcs[pos.node(rc(warrior))] & BA


@pytest.mark.parametrize("frost, node, face", [(0, (2, 4), E), (L.COND_FROSTBITE, (2, 2), E)])
def test_R_12_26_frostbite_on_a_boss_reduces_its_move_by_one(frost, node, face):
    """Sweeping Strike (forward 1 toward the nearest): frostbitten, the move is 0, so the boss only turns."""
    pos = scene(["knight", "warrior"], boss="gargoyle", variants=ONE)
    pos.enemy(0, (2, 2), facing=N, conditions=frost).char("knight", (4, 4)).char("warrior", (0, 0))
    pos.deck([card(pos, "sweeping_strike")])
    _, evs = play(pos)
    st = first(evs, "attack", actor="gargoyle" + BOSS)["state"]
    assert rc(st["enemies"][0]) == node and facing(st) == face


@pytest.mark.parametrize("choice", range(3))
def test_R_12_25_a_boss_moving_onto_the_other_boss_pushes_it(choice):
    """Ornstein (forward 1 toward the aggro holder) on (0,0) facing E, Smough on (0,2) in his way, the
    knight far east: Ornstein enters (0,2) and Smough goes to a free adjacent node (D-33)."""
    pos = scene(["knight", "warrior"], boss="ornstein_and_smough", variants=ONE)
    pos.enemy(0, (0, 0), facing=E).enemy(1, (0, 2), facing=S).char("knight", (0, 10)).char("warrior", (4, 10))
    pos.deck([card(pos, "gliding_stab_and_hammer_smash")] + list(range(1, 5)))
    _, evs = play(pos, H_NODE_LIMIT=choice)
    move = first(evs, "move", actor="ornstein#0")
    ornstein, smough = (rc(e) for e in move["state"]["enemies"])
    assert ornstein == (0, 2) and smough != (0, 2)
    assert pos.comp.board.steps[pos.node(smough), pos.node((0, 2))] == 1


@pytest.mark.parametrize("dice, taken", [([1, 1], 4), ([2, 2], 2)])
def test_R_12_20_leap_push_damage_is_a_physical_attack_each_pushed_character_blocks(dice, taken):
    """Dancer Plunging Attack: leap onto the nearest (the knight on (4,4)) with 6 push damage; the knight
    blocks (2 dice) and takes 6 minus his roll, then is pushed off the landing node."""
    pos = scene(["knight", "warrior"], boss="dancer_of_the_boreal_valley", variants=ONE)
    pos.enemy(0, (0, 0), facing=S).char("knight", (4, 4)).char("warrior", (4, 10))
    pos.deck([card(pos, "plunging_attack")])
    _, evs = play(pos, forced=dice)
    part = boss_part(evs)
    block = first(part, "defend", actor="knight")
    assert block["values"][:3] == [0, sum(dice), taken]
    push = first(part, "push", actor="knight")
    assert part.index(block) < part.index(push)
    assert rc(push["state"]["enemies"][0]) == (4, 4) and rc(push["state"]["characters"][0]) != (4, 4)
    assert push["state"]["characters"][0]["damage"] == taken


def test_R_12_11_a_dodge_offers_only_arcs_the_character_is_not_in():
    """The knight stands in the boss's node with no side recorded (C_ARC 0, read as the front): Electric Breath
    leaves the boss's facing and hits him; his dodge offers the right, back and left arcs, not the front he is
    in (a row that moved nobody)."""
    pos = scene(["knight", "warrior"], boss="gargoyle", variants=ONE)
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 2)).char("warrior", (4, 4))
    pos.deck([card(pos, "electric_breath")])
    _, evs = play(pos, H_DEFENCE=1, H_DODGE_MOVE=3)
    assert first(evs, "decision", hook="dodge_move")["values"][2] == 1 + 3 + 8
    shift = round_events(evs)[0]
    assert shift["values"][3] == LE and shift["state"]["characters"][0]["side"] == "W"


def test_A_36_push_then_defend_a_leap_pushes_first_and_the_knight_defends_where_he_lands():
    """As above under A-36 ``push_then_defend``: the knight is pushed off the landing node first, then
    blocks the 6 push damage there."""
    pos = scene(["knight", "warrior"], boss="dancer_of_the_boreal_valley",
                variants={**ONE, "push_damage_order": "push_then_defend"})
    pos.enemy(0, (0, 0), facing=S).char("knight", (4, 4)).char("warrior", (4, 10))
    pos.deck([card(pos, "plunging_attack")])
    _, evs = play(pos, forced=[1, 1])
    part = boss_part(evs)
    block = first(part, "defend", actor="knight")
    push = first(part, "push", actor="knight")
    assert part.index(push) < part.index(block) and block["values"][:3] == [0, 2, 4]
    knight = after_boss(evs)["characters"][0]
    assert rc(knight) == rc(block["state"]["characters"][0]) != (4, 4) and knight["damage"] == 4


@pytest.mark.parametrize("dice, frozen", [([1, 1], False), ([1, 0], True)])
def test_R_9_2_a_dodged_attack_is_no_hit_so_it_gives_no_condition(dice, frozen):
    """Chilling Thrust (move 2 toward the aggro holder, then magic 4 with frostbite, dodge 2): the assassin
    on (4,2) dodges with her two green dice. Two symbols: not hit, no damage and no frostbite; one: the
    dodge fails, she is hit, 4 damage and frostbite."""
    pos = scene(["assassin", "knight"], boss="boreal_outrider_knight", variants=ONE)
    pos.enemy(0, (0, 0), facing=S).char("assassin", (4, 2)).char("knight", (0, 4))
    pos.deck([card(pos, "chilling_thrust")])
    _, evs = play(pos, forced=dice, H_DEFENCE=1)
    assert first(evs, "defend", actor="assassin")["values"][:2] == [2, sum(dice)]
    assassin = after_boss(evs)["characters"][0]
    assert ("frostbite" in assassin["conditions"]) is frozen and assassin["damage"] == (4 if frozen else 0)


# --------------------------------------------------------------------------- attacks

def test_R_12_22_area_attack_hits_exactly_the_characters_in_its_arcs_within_range():
    """Tail Whip: area attack, right and back arcs, range 1, boss on (2,2) facing N.
    knight (2,4): right, range 1 → hit; warrior (0,2): front → not hit;
    herald (3,1): back and left (on the line), range 1 → hit; assassin (4,4): back, range 2 → not hit."""
    pos = scene(["knight", "warrior", "herald", "assassin"], boss="gargoyle", variants=ONE)
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 4)).char("warrior", (0, 2)).char("herald", (3, 1))
    pos.char("assassin", (4, 4)).deck([card(pos, "tail_whip")])
    _, evs = play(pos)
    attack = first(evs, "attack", actor="gargoyle" + BOSS)
    assert attack["values"][1] == 0b0101
    defenders = [ev["actor"] for ev in boss_part(evs) if ev["event"] == "defend"]
    assert sorted(defenders) == ["herald", "knight"]


def test_R_12_22_area_attack_from_a_diagonal_facing():
    """Winged Knight Diagonal Uppercut: area, front and right arcs, range 1, boss on (2,2) facing NE.
    knight (4,2): back and right → hit; warrior (1,1): left → not hit; herald (2,4): front and right → hit;
    assassin (3,1): back → not hit."""
    pos = scene(["knight", "warrior", "herald", "assassin"], boss="winged_knight", variants=ONE)
    pos.enemy(0, (2, 2), facing=NE).char("knight", (4, 2)).char("warrior", (1, 1)).char("herald", (2, 4))
    pos.char("assassin", (3, 1)).deck([card(pos, "diagonal_uppercut")])
    _, evs = play(pos)
    attack = first(evs, "attack", actor="winged_knight" + BOSS)
    assert attack["values"][1] == 0b0101
    assert facing(attack["state"]) == NE  # no turn to attack


def test_R_12_9_characters_in_the_boss_node_are_hit_by_the_arc_of_their_side():
    """Tail Whip (right and back arcs) with the knight in the boss's node on its east (right) side and the
    warrior there on its north (front) side: only the knight is hit."""
    pos = scene(["knight", "warrior"], boss="gargoyle", variants=ONE)
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 2), side=E + 1).char("warrior", (2, 2), side=N + 1)
    pos.deck([card(pos, "tail_whip")])
    _, evs = play(pos)
    assert first(evs, "attack", actor="gargoyle" + BOSS)["values"][1] == 0b01


@pytest.mark.parametrize("choice", range(3))
def test_R_12_23_boss_attack_push_from_another_node_goes_to_the_adjacent_node_farthest_from_the_boss(choice):
    """Titanite Demon Grab & Smash (face the nearest, 6 damage with push) on the knight on (2,4): of its
    neighbours, (0,4) and (4,4) are 2 steps from the boss, the others 1 or 0."""
    pos = scene(["knight", "warrior"], boss="titanite_demon", variants=ONE)
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 4)).char("warrior", (0, 0))
    pos.deck([card(pos, "grab_and_smash")])
    _, evs = play(pos, forced=[1, 1], H_ATTACK_PUSH=choice)
    assert first(evs, "defend", actor="knight")["values"][2] == 4
    push = first(evs, "push", actor="knight")
    assert rc(push["state"]["characters"][0]) == [(0, 4), (4, 4)][min(choice, 1)]


@pytest.mark.parametrize("choice", range(3))
def test_R_12_23_boss_attack_push_out_of_its_own_node_keeps_the_arc(choice):
    """Grab & Smash on the knight inside the boss's node: the boss turns to him (east side), hits him,
    and the push goes to an adjacent node of the front arc, not simply away from the boss."""
    pos = scene(["knight", "warrior"], boss="titanite_demon", variants=ONE)
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 2), side=E + 1).char("warrior", (0, 0))
    pos.deck([card(pos, "grab_and_smash")])
    _, evs = play(pos, forced=[1, 1], H_MOVE_PUSH=choice, H_ATTACK_PUSH=choice)
    push = first(evs, "push", actor="knight")
    assert facing(push["state"]) == E
    dest = pos.node(rc(push["state"]["characters"][0]))
    assert pos.comp.board.arc_mask[E, pos.node((2, 2)), dest] & FR


@pytest.mark.parametrize("stagger, damage", [(0, 4), (L.COND_STAGGER, 3)])
def test_R_12_22_stagger_on_a_boss_reduces_its_attack_damage_by_one(stagger, damage):
    pos = scene(["knight", "warrior"], boss="gargoyle", variants=ONE)
    pos.enemy(0, (2, 2), facing=N, conditions=stagger).char("knight", (2, 4)).char("warrior", (0, 0))
    pos.deck([card(pos, "tail_whip")])
    _, evs = play(pos)
    attack = first(evs, "attack", actor="gargoyle" + BOSS)
    assert attack["values"][1] == 0b01 and attack["values"][3] == damage


@pytest.mark.parametrize("side, weak, extra", [
    (S + 1, BA, 1),        # attacking from the weak (back) arc: one extra black die
    (N + 1, BA, 0),        # from the front: none
    (NE + 1, FR | RI, 1),  # on the front/right line with both arcs weak: still only one extra die
])  # fmt: skip
def test_R_12_12_weak_arc_adds_one_black_die(side, weak, extra):
    """The knight attacks with the Long Sword's first line (1 blue die) from inside the boss's node."""
    pos = scene(["knight", "warrior"], boss="gargoyle", variants=CHARS_FIRST)
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 2), side=side).char("warrior", (4, 4))
    pos.enemies[0, L.E_WEAK] = weak  # as left by the last card drawn
    _, evs = play(pos, H_ATTACK=1)
    attack = first(evs, "attack", actor="knight")
    line = pos.comp.tables.lines[attack["values"][0]]
    assert pos.comp.line_names[attack["values"][0]] == "long_sword #1"
    assert len(attack["dice"]) == line[L.L_K] + line[L.L_U] + line[L.L_O] + extra


def test_R_12_12_the_weak_arc_is_the_one_shown_on_the_card_just_drawn():
    pos = scene(["knight", "warrior"], boss="gargoyle", variants=ONE)
    pos.enemy(0, (0, 0), facing=S).char("knight", (4, 4)).char("warrior", (4, 4))
    pos.deck([card(pos, "halberd_thrust")])
    _, evs = play(pos)
    assert after_boss(evs)["enemies"][0]["weak_arcs"] == ["left"]


# --------------------------------------------------------------------------- deck and heat-up

def test_R_12_7_an_empty_deck_is_turned_over_without_shuffling():
    """Deck stacked [Tail Whip, Halberd Thrust, Sweeping Strike, Tail Sweep] with three already drawn:
    round 1 draws Tail Sweep, round 2 finds the deck empty and draws Tail Whip again, same order kept."""
    pos = scene(["knight", "warrior"], boss="gargoyle", variants={"max_rounds": 2})
    order = [card(pos, k) for k in ("tail_whip", "halberd_thrust", "sweeping_strike", "tail_sweep")]
    pos.enemy(0, (0, 0), facing=S).char("knight", (4, 4)).char("warrior", (4, 4)).deck(order, pos=3)
    b, evs = play(pos)
    drawn = [ev["values"][0] for ev in evs if ev["event"] == "card"]
    assert drawn == [order[3], order[0]]
    assert deck_cards(b) == order and b.glob[L.G_DECK_POS] == 1
    assert first(evs, "card", round=2)["state"]["deck"]["discard"] == ["tail_whip"]


def _setup(boss: str, seed: int, gravestones: int = 0, variants=ONE):
    """A battle from its own setup (not hand-placed): the trace, and the raw state after the deck is built."""
    comp = compile_boss(data(), ["knight", "warrior"], boss, gravestones, variants)
    b = engine.play_one(comp.tables, scripted, script(), seed, 0, 0)
    evs = events(b, comp)
    i = evs.index(first(evs, "deck"))
    return comp, evs, evs[i]["state"], b.trace[i, L.EV_FIELDS :]


@pytest.mark.parametrize("boss", ["gargoyle", "dancer_of_the_boreal_valley"])
def test_R_12_5_the_deck_is_n_random_standard_cards_and_F_12_2_new_each_battle(boss):
    decks = set()
    for seed in range(8):
        comp, _, _, raw = _setup(boss, seed)
        deck = [int(k) for k in L.state_views(raw).deck[: raw[L.G_DECK_LEN]]]
        assert len(deck) == comp.tables.scen[X.SC_DECK_SIZE] == len(set(deck)) and raw[L.G_DECK_POS] == 0
        assert all(comp.tables.cards[k, X.CARD_HEATUP] == 0 for k in deck)
        decks.add(tuple(deck))
    assert len(decks) > 1


@pytest.mark.parametrize("gravestones", [0, 1, 2])
def test_R_12_5_one_card_of_the_deck_revealed_per_gravestone(gravestones):
    for seed in range(4):
        _, _, _, raw = _setup("gargoyle", seed, gravestones)
        deck = {int(k) for k in L.state_views(raw).deck[: raw[L.G_DECK_LEN]]}
        revealed = {k for k in range(16) if int(raw[L.G_REVEALED]) >> k & 1}
        assert len(revealed) == gravestones and revealed <= deck


@pytest.mark.parametrize("boss", ["gargoyle", "ornstein_and_smough"])
def test_A_42_the_boss_starts_facing_toward_the_entry_door(boss):
    comp, _, st, _ = _setup(boss, 0)
    sc = comp.tables.scen
    entry = [int(n) for n in sc[X.SC_ENTRY : X.SC_ENTRY + sc[X.SC_N_ENTRY]]]
    middle = min(entry, key=lambda n: abs(int(comp.board.coords[n][1]) - 2))  # the door's middle node
    for e, figure in enumerate(st["enemies"]):
        f = FACINGS.index(figure["facing"])
        assert comp.board.arc_mask[f, figure["node"], middle] & FR, (e, figure)


def test_A_42_toward_the_nearest_character():
    comp, _, st, _ = _setup("gargoyle", 0, variants={"max_rounds": 1, "boss_initial_facing": "toward_nearest_character"})
    boss = st["enemies"][0]
    f = FACINGS.index(boss["facing"])
    steps = comp.board.steps
    nearest = min(steps[boss["node"], ch["node"]] for ch in st["characters"])
    target = next(ch["node"] for ch in st["characters"] if steps[boss["node"], ch["node"]] == nearest)
    ahead = comp.board.neighbour[boss["node"], f]
    assert ahead >= 0 and steps[ahead, target] < steps[boss["node"], target]


def _poisoned(boss: str, wounds: int, heated: int = 0, variants=ONE):
    pos = scene(["knight", "warrior"], boss=boss, variants=variants)
    pos.enemy(0, (0, 0), facing=S, wounds=wounds, conditions=L.COND_POISON)
    pos.char("knight", (4, 4)).char("warrior", (4, 4)).tokens(heated=heated)
    return pos


def test_R_12_6_heat_up_when_poison_takes_the_boss_to_its_heat_up_point():
    """Gargoyle (26 health, heat-up 12) on 13 health and poisoned: the poison at the end of its activation
    takes it to 12; it heats up at once, before the next character turn; one heat-up card joins the deck
    and the whole deck is shuffled (A-46 whole_deck); the weak arc of the card stays (F-12.3)."""
    pos = _poisoned("gargoyle", 13)
    standard = [card(pos, k) for k in ("tail_whip", "halberd_thrust", "sweeping_strike", "tail_sweep")]
    pos.deck(standard)
    b, evs = play(pos)
    i = next(i for i, ev in enumerate(evs) if ev["event"] == "damage" and ev["values"][1] == L.SRC_POISON)
    assert evs[i + 1]["event"] == "heat_up" and evs[i + 1]["actor"] == "gargoyle" + BOSS
    assert evs[i + 1]["state"]["enemies"][0]["wounds"] == 14
    assert evs.index(first(evs, "activate", actor="knight")) > i + 1
    cards = deck_cards(b)
    assert len(cards) == 5 and sorted(k for k in cards if k in standard) == sorted(standard)
    added = [k for k in cards if k not in standard]
    assert len(added) == 1 and pos.comp.tables.cards[added[0], X.CARD_HEATUP] == 1
    assert b.glob[L.G_DECK_POS] == 0 and b.glob[L.G_HEATED] == 1 and b.glob[L.G_HEATUP_ROUND] == 1
    assert after_boss(evs)["enemies"][0]["weak_arcs"] == ["front"]  # Tail Whip's weak arc


def test_R_12_6_the_heat_up_card_is_a_random_one_of_the_boss_heat_up_cards():
    added = set()
    for seed in range(12):
        pos = _poisoned("gargoyle", 13)
        standard = [card(pos, k) for k in ("tail_whip", "halberd_thrust", "sweeping_strike", "tail_sweep")]
        pos.deck(standard)
        b, _ = play(pos, seed=seed)
        added |= {k for k in deck_cards(b) if k not in standard}
    heat = {k for k in range(len(pos.comp.card_ids)) if pos.comp.tables.cards[k, X.CARD_HEATUP] == 1}
    assert added <= heat and len(added) > 1


def test_R_12_6_no_heat_up_above_the_heat_up_point():
    pos = _poisoned("gargoyle", 12)  # 14 health → 13 after the poison, still above 12
    pos.deck([card(pos, "tail_whip"), card(pos, "halberd_thrust"), card(pos, "sweeping_strike"), card(pos, "tail_sweep")])
    b, evs = play(pos)
    assert not [ev for ev in evs if ev["event"] == "heat_up"]
    assert b.glob[L.G_DECK_LEN] == 4 and b.glob[L.G_HEATED] == 0


def test_R_12_6_heat_up_happens_once_per_battle():
    pos = _poisoned("gargoyle", 16, heated=1)
    pos.deck([card(pos, "tail_whip"), card(pos, "halberd_thrust"), card(pos, "sweeping_strike"), card(pos, "tail_sweep")])
    b, evs = play(pos)
    assert not [ev for ev in evs if ev["event"] == "heat_up"]
    assert b.glob[L.G_DECK_LEN] == 4 and b.glob[L.G_DECK_POS] == 1


def test_A_46_draw_pile_only_keeps_the_discard_pile():
    pos = _poisoned("gargoyle", 13, variants={"max_rounds": 1, "heatup_shuffle_scope": "draw_pile_only"})
    standard = [card(pos, k) for k in ("tail_whip", "halberd_thrust", "sweeping_strike", "tail_sweep")]
    pos.deck(standard)
    b, evs = play(pos)
    assert first(evs, "heat_up")
    cards = deck_cards(b)
    assert len(cards) == 5 and cards[0] == standard[0] and b.glob[L.G_DECK_POS] == 1


@pytest.mark.parametrize("wounds, heats", [(11, True), (10, False)])
def test_F_12_1_titanite_demon_heats_up_at_10(wounds, heats):
    """22 health: 11 left, poisoned to 10 → heat-up (the card's 10, not the dial's 12); 12 left → 11: none."""
    pos = _poisoned("titanite_demon", wounds)
    _, evs = play(pos)
    assert bool([ev for ev in evs if ev["event"] == "heat_up"]) == heats


# --------------------------------------------------------------------------- special abilities

def _knight_conditions_data():
    """Core data with the Knight's Long Sword lines giving frostbite and stagger (to test who takes them)."""
    d = copy.deepcopy(data())
    sword = d.items["long_sword"]
    attacks = [a.model_copy(update={"conditions": ["frostbite", "stagger"]}) for a in sword.attacks]
    d.items["long_sword"] = sword.model_copy(update={"attacks": attacks})
    return d


@pytest.mark.parametrize("boss, immune", [("boreal_outrider_knight", True), ("gargoyle", False)])
def test_boreal_outrider_knight_never_takes_frostbite_or_stagger(boss, immune):
    comp = compile_boss(_knight_conditions_data(), ["knight", "warrior"], boss, 0, CHARS_FIRST)
    pos = Position(comp)
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 2), side=S + 1).char("warrior", (4, 4))
    _, evs = play(pos, H_ATTACK=1)
    attack = first(evs, "attack", actor="knight")
    after = evs[evs.index(attack) + 1 :]
    got = [ev for ev in after if ev["event"] == "condition" and "#" in ev["actor"]]
    if immune:
        assert not got
        assert all(not ev["state"]["enemies"][0]["conditions"] for ev in after)
    else:
        assert got and set(got[0]["state"]["enemies"][0]["conditions"]) == {"frostbite", "stagger"}


@pytest.mark.parametrize("boss, heated, cost", [("gargoyle", 1, 1), ("gargoyle", 0, 0), ("winged_knight", 1, 0)])
def test_gargoyle_after_heat_up_attacks_from_its_node_cost_one_more_stamina(boss, heated, cost):
    """The knight attacks from inside the boss's node with the Long Sword's first line (0 stamina):
    1 stamina against a heated-up Gargoyle, 0 before its heat-up or against another heated-up boss."""
    pos = scene(["knight", "warrior"], boss=boss, variants=CHARS_FIRST)
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 2), side=S + 1, stamina=0)
    pos.char("warrior", (4, 4)).tokens(heated=heated)
    _, evs = play(pos, H_ATTACK=1)
    attack = first(evs, "attack", actor="knight")
    assert pos.comp.line_names[attack["values"][0]] == "long_sword #1"
    assert attack["state"]["characters"][0]["stamina"] == cost


@pytest.mark.parametrize("dice, wounds", [([2, 3, 2], 3), ([2, 3, 1], 2), ([1, 3, 1], 2), ([1, 2, 1], 1)])
def test_titanite_demon_reduces_damage_of_3_or_more_from_one_attack_by_1(dice, wounds):
    """Long Sword line 2 (black + blue) plus the weak-arc black die, against block 3:
    totals 7, 6, 5, 4 → damage 4, 3, 2, 1 → wounds 3, 2, 2, 1."""
    pos = scene(["knight", "warrior"], boss="titanite_demon", variants=CHARS_FIRST)
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 2), side=S + 1).char("warrior", (4, 4))
    pos.enemies[0, L.E_WEAK] = BA
    _, evs = play(pos, forced=dice, H_ATTACK=2)
    attack = first(evs, "attack", actor="knight")
    assert pos.comp.line_names[attack["values"][0]] == "long_sword #2" and attack["values"][3] == sum(dice)
    hit = evs[evs.index(attack) + 1]
    assert hit["event"] == "damage" and hit["actor"] == "titanite_demon" + BOSS
    assert hit["values"][0] == wounds and hit["state"]["enemies"][0]["wounds"] == wounds


@pytest.mark.parametrize("boss, card_name, dice, penalty", [
    ("winged_knight", "diagonal_uppercut", [1, 2], 1),   # block roll 3 against the Winged Knight
    ("winged_knight", "diagonal_uppercut", [1, 1], 0),   # block roll 2
    ("gargoyle", "tail_whip", [1, 2], 0),                # block roll 3 against another boss
])  # fmt: skip
def test_winged_knight_block_roll_of_3_or_more_costs_a_stamina_cube(boss, card_name, dice, penalty):
    """The knight (2 block dice) on (2,4), in the right arc of the boss on (2,2) facing N, blocks an area
    attack of 5 (Winged Knight) or 4 (Gargoyle)."""
    pos = scene(["knight", "warrior"], boss=boss, variants=ONE)
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 4), stamina=0).char("warrior", (0, 0))
    pos.deck([card(pos, card_name)])
    _, evs = play(pos, forced=dice)
    block = first(evs, "defend", actor="knight")
    assert block["values"][0] == 0 and block["values"][1] == sum(dice)
    assert after_boss(evs)["characters"][0]["stamina"] == penalty


@pytest.mark.parametrize("boss, heat_card, reshuffled", [
    ("dancer_of_the_boreal_valley", "blade_dance", True),
    ("gargoyle", "flying_tail_whip", False),
])  # fmt: skip
def test_dancer_reshuffles_the_deck_after_resolving_a_heat_up_card(boss, heat_card, reshuffled):
    pos = scene(["knight", "warrior"], boss=boss, variants=ONE)
    pos.enemy(0, (0, 0), facing=S).char("knight", (4, 4)).char("warrior", (4, 4)).tokens(heated=1)
    cards = pos.comp.tables.cards
    standard = [k for k in range(cards.shape[0]) if cards[k, X.CARD_HEATUP] == 0][: pos.comp.tables.scen[X.SC_DECK_SIZE]]
    pos.deck([card(pos, heat_card)] + standard)
    b, evs = play(pos)
    assert first(evs, "card")["values"][0] == card(pos, heat_card)
    assert sorted(deck_cards(b)) == sorted([card(pos, heat_card)] + standard)
    if reshuffled:
        # no event follows the reshuffle inside the boss's turn: read the deck as the knight's turn starts
        assert b.glob[L.G_DECK_POS] == 0 and first(evs, "activate", actor="knight")["state"]["deck"]["discard"] == []
    else:
        assert b.glob[L.G_DECK_POS] == 1 and deck_cards(b)[0] == card(pos, heat_card)
        assert first(evs, "activate", actor="knight")["state"]["deck"]["discard"] == [heat_card]


@pytest.mark.parametrize("dead, survivor, heal", [(0, 1, 15), (1, 0, 10)])
def test_ornstein_and_smough_survivor_heals_and_its_heat_up_cards_become_the_deck(dead, survivor, heal):
    """One figure on its last health point and poisoned dies at the end of its activation; the survivor
    heals (Smough 15 when Ornstein dies, Ornstein 10 when Smough dies; facts §5.3) and its own five
    heat-up cards become the whole deck."""
    pos = scene(["knight", "warrior"], boss="ornstein_and_smough", variants=ONE)
    health = [int(pos.comp.tables.etypes[pos.enemies[e, L.E_TYPE], L.ET_HEALTH]) for e in (0, 1)]
    pos.enemy(0, (0, 0), facing=S).enemy(1, (0, 4), facing=S)
    pos.enemy(dead, wounds=health[dead] - 1, conditions=L.COND_POISON).enemy(survivor, wounds=12)
    pos.char("knight", (4, 10)).char("warrior", (4, 10))
    pos.deck([card(pos, "gliding_stab_and_hammer_smash")] + list(range(1, 5)))
    b, evs = play(pos)
    death = first(evs, "death", actor=pos.comp.enemy_ids[dead] + f"#{dead}")
    heat = first(evs, "heat_up")
    assert heat["actor"] == pos.comp.enemy_ids[survivor] + f"#{survivor}" and evs.index(heat) > evs.index(death)
    assert heat["state"]["enemies"][survivor]["wounds"] == max(0, 12 - heal)  # healed, not beyond full health
    own = sorted(k for k in range(pos.comp.tables.cards.shape[0])
                 if pos.comp.tables.cards[k, X.CARD_HEATUP] == 1 and pos.comp.tables.cards[k, X.CARD_OWNER] == survivor)  # fmt: skip
    assert len(own) == 5 and sorted(deck_cards(b)) == own
    assert b.glob[L.G_DECK_POS] == 0 and b.glob[L.G_HEATED] == 1


def test_ornstein_and_smough_one_card_activates_both_figures():
    pos = scene(["knight", "warrior"], boss="ornstein_and_smough", variants=ONE)
    pos.enemy(0, (0, 0), facing=S).enemy(1, (0, 4), facing=S).char("knight", (4, 10)).char("warrior", (4, 10))
    pos.deck([card(pos, "gliding_stab_and_hammer_smash")] + list(range(1, 5)))
    _, evs = play(pos)
    part = boss_part(evs)
    assert [ev["event"] for ev in part].count("card") == 1
    assert [ev["actor"] for ev in part if ev["event"] == "activate"] == ["ornstein#0", "smough#1"]


# --------------------------------------------------------------------------- compiled cards = reference tables

@pytest.mark.skipif(not REFERENCE.is_file(), reason=f"reference tables {REFERENCE} not available")
@pytest.mark.parametrize("boss_id", sorted(BOSS_TABLES))
def test_R_12_3_every_compiled_behaviour_card_equals_the_reference_card(boss_id):
    """Card by card, straight from the tables of facts.md §5.4 to the compiled program (the data files
    in between are checked against each side by test_data_counts and test_boss_rules)."""
    comp = compile_boss(data(), ["knight"], boss_id)
    t = comp.tables
    seen = set()
    k = -1
    for start, stop, owner in BOSS_TABLES[boss_id]:
        for row in reference_table(start, stop):
            if row["Card"]:  # a dual card's second row (Smough's half) leaves the Card cell empty
                k = comp.card_ids.index(ident(row["Card"]))
                seen.add(k)
            figure = row["Who"].lower() if "Who" in row else owner or comp.enemy_ids[0]
            assert t.cards[k, X.CARD_HEATUP] == int(row.get("HU") == "HU" or owner is not None), comp.card_ids[k]
            halves = [h for h in range(t.cards[k, X.CARD_HALVES])
                      if comp.enemy_ids[t.cards[k, X.CARD_HALF + h * X.HALF_FIELDS + X.HALF_SLOT]] == figure]  # fmt: skip
            assert len(halves) == 1, (comp.card_ids[k], figure)
            base = X.CARD_HALF + halves[0] * X.HALF_FIELDS
            steps, repeat = reference_sequence(row["Sequence"], row["AoE"])
            assert t.cards[k, base + X.HALF_REPEAT] == repeat, comp.card_ids[k]
            assert t.cards[k, base + X.HALF_WEAK] == sum(ARC_BITS[a] for a in reference_arcs(row["Weak"]))
            first_step, count = t.cards[k, base + X.HALF_PROG], t.cards[k, base + X.HALF_LEN]
            rows = t.prog[first_step : first_step + count]
            expected = []
            for step in steps:
                step = dict(step)
                if step["op"] == "leap":
                    step.pop("push")  # every leap pushes
                if step["op"] == "attack":
                    step["arcs"] = sorted(step["arcs"])
                    step.pop("conditions")
                expected.append(step)
            assert [decode_step(r) for r in rows] == expected, comp.card_ids[k]
            conditions = [sum(L.COND_FROSTBITE for c in s.get("conditions", []) if c == "frostbite") for s in steps]
            rng = reference_number(row["Rng"])
            for r, cond in zip(rows, conditions, strict=True):
                assert r[L.S_DODGE] == int(row["Dodge"]) and r[L.S_RANGE] == (-1 if rng is None else rng)
                if r[L.S_OP] == L.OP_ATTACK:
                    assert r[L.S_COND] == cond, comp.card_ids[k]
    assert seen == set(range(len(comp.card_ids)))
