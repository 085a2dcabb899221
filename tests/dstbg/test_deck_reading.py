"""Reading the boss's behaviour deck as players do (issue 44): ``deck.known_next_card`` knows the next card only from
what the table shows (R-12.5, R-12.6, R-12.7, A-48), move steps carry what that card will do (``layout.NEXT_*``), and
the veteran, having attacked, steps where it cannot hit (R-12.9, R-12.10, R-12.13, A-45) — never from the unseen
order."""

from __future__ import annotations

import numpy as np

from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.kernel.character import next_card_bits
from dsim.games.dstbg.kernel.deck import known_next_card
from dsim.games.dstbg.policy import ask, get_policy
from tests.kit import scene
from tests.dstbg.test_veteran import _scene

known = known_next_card.py_func  # kernel functions have no Python wrapper: their Python source is the rule
bits = next_card_bits.py_func
VET, TAC = get_policy("veteran"), get_policy("tactician")
N, S, W = 0, 4, 6  # directions (board.DIRECTIONS)
FR, RI, BA, LE = L.ARC_FRONT, L.ARC_RIGHT, L.ARC_BACK, L.ARC_LEFT


def _deck(cards: list[int], pos: int, drawn: int, heated: int = 0, revealed: int = 0) -> L.StateViews:
    """A state's views with the deck ``cards``, ``drawn`` cards drawn in all; the players know the cards drawn since
    the last shuffle: those before ``pos``, or all of them after a whole cycle with no heat-up (R-12.7)."""
    v = L.state_views(np.zeros(L.STATE_LEN, np.int32))
    v.deck[:len(cards)] = cards
    v.known[:] = -1
    seen = len(cards) if drawn >= len(cards) and not heated or pos >= len(cards) else pos
    v.known[:seen] = cards[:seen]
    v.glob[L.G_DECK_LEN], v.glob[L.G_DECK_POS], v.glob[L.G_CARDS_DRAWN] = len(cards), pos, drawn
    v.glob[L.G_HEATED], v.glob[L.G_REVEALED] = heated, revealed
    return v


def test_R_12_7_after_one_whole_cycle_the_next_card_is_known():
    assert known(_deck([5, 2, 7, 1], 1, 5)) == 2  # the deck repeats unshuffled: the card after the first
    assert known(_deck([5, 2, 7, 1], 0, 4)) == 5


def test_R_12_7_an_empty_draw_pile_turns_over_its_first_card_next():
    assert known(_deck([5, 2, 7, 1], 4, 4)) == 5
    assert known(_deck([5, 2, 7, 1, 9], 5, 9, heated=1)) == 5  # after a heat-up too: the pile is what was seen


def test_R_12_5_in_the_first_cycle_the_draw_pile_order_is_unknown():
    for pos in range(3):
        assert known(_deck([5, 2, 7, 1], pos, pos)) == -1


def test_R_12_5_A_48_the_last_card_is_known_when_a_gravestone_revealed_it():
    assert known(_deck([5, 2, 7, 1], 3, 3, revealed=1 << 1)) == 1
    assert known(_deck([5, 2, 7, 1], 3, 3, revealed=(1 << 1) | (1 << 5))) == 1  # the 5 was drawn: only the 1 is left
    assert known(_deck([5, 2, 7, 1], 2, 2, revealed=1 << 1)) == -1  # two left: which comes first is unseen


def test_R_12_6_after_a_heat_up_reshuffle_the_pattern_is_relearned():
    assert known(_deck([5, 2, 7, 1, 9], 2, 12, heated=1)) == -1


def test_R_12_7_known_next_card_never_reads_the_unseen_order():
    """On random decks, whatever the answer, it is the same when the cards not yet drawn this cycle are shuffled anew,
    unless one whole cycle has been seen without a heat-up (then the order is the repeat, R-12.7)."""
    rng = np.random.default_rng(3)
    for _ in range(400):
        size = int(rng.integers(1, L.MAX_DECK + 1))
        cards = [int(x) for x in rng.permutation(20)[:size]]
        st = _deck(cards, int(rng.integers(0, size + 1)), int(rng.integers(0, 3 * size)), int(rng.integers(0, 2)),
                   int(rng.integers(0, 1 << 20)))
        seen_cycle = st.glob[L.G_HEATED] == 0 and st.glob[L.G_CARDS_DRAWN] >= size
        pos = int(st.glob[L.G_DECK_POS])
        other = L.state_views(L.state_vector(st).copy())
        other.deck[pos:size] = rng.permutation(st.deck[pos:size])  # the unseen order, anew
        if not seen_cycle:
            assert known(other) == known(st)
        if known(st) >= 0 and not seen_cycle and pos < size:  # known in the first cycle: only by the reveals
            assert st.glob[L.G_REVEALED] >> known(st) & 1


def _gargoyle():
    return scene(["knight", "warrior"], boss="gargoyle", variants={"max_rounds": 1, "first_side": "characters_first"})


def test_R_12_13_next_card_bits_say_what_the_card_does():
    """Gargoyle Tail Whip attacks right and back at range 1 before it moves (weak arc: front); Halberd Thrust moves
    1 toward the aggro holder, then attacks at range 1 (its arcs alone do not say who it hits)."""
    pos = _gargoyle()
    t = pos.comp.tables
    whip = bits(t, pos.comp.card_ids.index("tail_whip"), 0)
    assert whip & L.NEXT_KNOWN and not whip & L.NEXT_LATER
    assert (whip >> L.NEXT_ARCS_SHIFT) & 15 == RI | BA and (whip >> L.NEXT_REACH_SHIFT) & 15 == 1
    assert (whip >> L.NEXT_WEAK_SHIFT) & 15 == FR
    thrust = bits(t, pos.comp.card_ids.index("halberd_thrust"), 0)
    assert thrust & L.NEXT_LATER and (thrust >> L.NEXT_REACH_SHIFT) & 15 == 2
    assert bits(t, -1, 0) == 0
    assert t.cards.shape[1] == X.CARD_FIELDS


def _after_attack_rows(known_bits: int):
    """The knight has attacked from the back of the boss's base; the next card hits right and back at range 1. Row
    0: stay (back); row 1: a node behind (back, range 1); row 2: round the boss to its left side (free)."""
    st, opts, dist = _scene(L.H_STEP, L.NEED_WIN, boss=1)
    st.glob[L.G_ACTIVE] = 0
    st.chars[0, L.C_USED0] = 1  # attacked this activation
    nxt = known_bits | ((RI | BA) << L.NEXT_ARCS_SHIFT) | (1 << L.NEXT_REACH_SHIFT) if known_bits else 0
    for i, (cost, rng_d, arcs) in enumerate(((0, 0, BA), (0, 1, BA), (0, 0, LE))):
        opts[i, :9] = [i, cost, 0, 0, rng_d, 1, rng_d, 1, arcs | nxt]
    return st, opts, dist


def test_R_12_10_the_veteran_having_attacked_rounds_the_boss_out_of_the_next_cards_arcs():
    st, opts, dist = _after_attack_rows(L.NEXT_KNOWN)
    assert ask(VET.decide, L.H_STEP, st, opts, 3, VET.vector(), dist) == 2
    assert ask(TAC.decide, L.H_STEP, st, opts, 3, TAC.vector(), dist) == 0
    assert ask(VET.decide, L.H_MOVE_ON, st, opts, 2, VET.vector(), dist) == 0  # looks on rather than stopping
    assert ask(VET.decide, L.H_STEP, st, opts, 3, VET.vector({"read_deck": 0}), dist) == 0


def test_R_12_7_with_the_next_card_unknown_the_veteran_stays_as_the_tactician_does():
    st, opts, dist = _after_attack_rows(0)
    assert ask(VET.decide, L.H_STEP, st, opts, 3, VET.vector(), dist) == 0
    assert ask(VET.decide, L.H_MOVE_ON, st, opts, 2, VET.vector(), dist) == \
        ask(TAC.decide, L.H_MOVE_ON, st, opts, 2, TAC.vector(), dist)


def test_R_12_13_a_node_beyond_the_next_cards_reach_is_safe_even_in_its_arcs():
    st, opts, dist = _after_attack_rows(L.NEXT_KNOWN | L.NEXT_LATER)  # it moves first: only the distance helps
    opts[1, 6] = 2  # row 1: range distance 2 > reach 1
    assert ask(VET.decide, L.H_STEP, st, opts, 3, VET.vector(), dist) == 1


def _knight_behind_the_gargoyle(drawn: int, order: list[str]):
    """R-12.9: the knight in the Gargoyle's node at the back of its base, the warrior far in front; the deck is
    ``order``, its position 0, ``drawn`` cards drawn before (4: one whole cycle seen, R-12.7)."""
    pos = _gargoyle()
    pos.enemy(0, (2, 2), facing=N).char("knight", (2, 2), side=S + 1).char("warrior", (0, 2))
    pos.deck([pos.comp.card_ids.index(name) for name in order], cycled=drawn >= len(order)).tokens(next_char=0, aggro=0)
    pos.glob[L.G_CARDS_DRAWN] = drawn
    return pos


def _knight_turn(pos):
    """The knight's decisions (hook, answer) and its side of the boss base when its activation ends."""
    from dsim.games.dstbg import engine

    b = engine.play_from(pos.comp.tables, VET.decide, VET.vector(), pos.state(), 5)
    rows = b.trace[:b.cursor[1]]
    decisions = []
    side = None
    for row in rows:
        if row[3] == L.EV_CARD:  # the boss's turn begins: the knight's activation is over
            break
        if row[3] == L.EV_DECISION:  # (hook, answer, options, the answer's node or id)
            decisions.append(tuple(int(x) for x in row[4:8]))
        side = int(L.state_views(row[L.EV_FIELDS:]).chars[0, L.C_ARC])
    return decisions, side


def test_R_12_7_R_12_10_the_veteran_reads_the_repeat_and_only_the_repeat():
    """Characters first (A-2), one round. With one whole cycle seen the knight knows Tail Whip comes next (right and
    back arcs, R-12.13): it attacks, then rounds the boss to its left side (R-12.10). In the first cycle it cannot
    know, stays at the back, and decides the same whatever the unseen order of the deck."""
    whip_first = ["tail_whip", "sweeping_strike", "halberd_thrust", "tail_sweep"]
    _, side = _knight_turn(_knight_behind_the_gargoyle(4, whip_first))
    assert side == W + 1
    blind, side = _knight_turn(_knight_behind_the_gargoyle(0, whip_first))
    assert side == S + 1
    for order in (whip_first[::-1], whip_first[1:] + whip_first[:1]):
        assert _knight_turn(_knight_behind_the_gargoyle(0, order))[0] == blind
