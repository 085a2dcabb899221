"""A DS:TBG policy is handed what the players at the table know and nothing else (issue 46; rules §17; R-12.5,
R-12.7): the board, every figure's visible state, the behaviour cards seen and where they lie in the deck, the
gravestone reveals, the deck's size and position, the party's hands; never the unseen deck order, a face-down trap
or the random stream. So two battles that differ only in hidden information play alike until it is revealed."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from dsim.games.dstbg import engine
from dsim.games.dstbg.game import prepare
from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.kernel.deck import known_next_card
from dsim.games.dstbg.policy import POLICY_SIG, VIEW_TYPE, all_policies
from dsim.numba_ref import Ref

SEED = 46
BATTLES = 6
KEY = 0xC0FFEE46  # the other battle's hidden state is redrawn from this key before its first decision after setup
CELLS = {  # a boss with a gravestone reveal, the pair, an encounter with face-down traps
    "gargoyle": {"party": ["knight", "warrior"], "boss": "gargoyle", "gravestones": 1},
    "ornstein_and_smough": {"party": ["knight", "warrior", "assassin"], "boss": "ornstein_and_smough"},
    "the_forgotten": {"party": ["knight", "warrior"], "encounter": "the_forgotten"},
}
REVEALS = (L.EV_CARD, L.EV_TRAP)  # the events that show hidden information: a card drawn, a trap


@lru_cache(maxsize=None)
def _tables(cell: str) -> X.Tables:
    return prepare({**CELLS[cell], "policy": "baseline"}).compiled.tables


def _public(row: np.ndarray) -> tuple:
    """A trace event as the players see it: the event, then the state's public views after it (a face-down
    trap's token masked, the deck's order left out)."""
    v = L.state_views(row[L.EV_FIELDS:].copy())
    down = v.nodes[:, L.N_TRAP_UP] == 0
    v.nodes[down, L.N_TRAP] = np.where(v.nodes[down, L.N_TRAP] >= 0, 0, -1)
    return (tuple(row[:L.EV_FIELDS].tolist()), v.glob.tobytes(), v.chars.tobytes(), v.enemies.tobytes(),
            v.nodes.tobytes(), v.known.tobytes())


def test_a_policy_is_handed_the_view_and_the_view_holds_no_hidden_information() -> None:
    assert POLICY_SIG.args[2] == Ref(VIEW_TYPE)
    assert set(X.View._fields) == {"glob", "chars", "enemies", "known", "opts", "params", "dwalk", "figs"}
    b = X.new_battle(4, np.zeros(1), trace_events=4, search=X.SR_CHOICES)
    hidden = (b.deck, b.nodes, b.rng, b.forced, b.search, b.trace, b.tdice, b.dice, b.dcol, b.cursor)
    assert not any(np.shares_memory(p, h) for p in b.pub for h in hidden)
    assert all(np.shares_memory(p, b.st) for p in (b.pub.glob, b.pub.chars, b.pub.enemies, b.pub.known))


@pytest.mark.parametrize("cell", list(CELLS))
@pytest.mark.parametrize("policy", [p.name for p in all_policies()])
def test_battles_differing_only_in_hidden_information_play_alike_until_it_is_revealed(cell: str, policy: str) -> None:
    pol = next(p for p in all_policies() if p.name == policy)
    tables = _tables(cell)
    diverged = decisions = 0
    for index in range(BATTLES):
        true = engine.play_one(tables, pol.decide, pol.vector(), SEED, 0, index)
        events = true.trace[: true.cursor[1], 3]
        at = int(np.sum(events[: np.argmax(events == L.EV_ROUND)] == L.EV_DECISION))  # the first after setup
        plays = [true, engine.play_one(tables, pol.decide, pol.vector(), SEED, 0, index, hidden=(at, KEY))]
        rows = [b.trace[: b.cursor[1]] for b in plays]
        assert all(b.cursor[1] < b.trace.shape[0] for b in plays), "trace too short for the battle"
        seen = [[_public(r) for r in rs] for rs in rows]
        first = next((k for k, (x, y) in enumerate(zip(*seen)) if x != y), None)
        if first is None:
            assert len(seen[0]) == len(seen[1])  # never revealed differently: the same battle to the end
        else:
            diverged += 1
            assert rows[0][first, 3] in REVEALS and rows[0][first, 3] == rows[1][first, 3], \
                f"battle {index}: the plays part at event {rows[0][first, 3]}, before any hidden card or trap shows"
        stop = len(seen[0]) if first is None else first
        decisions += int(np.sum(rows[0][:stop, 3] == L.EV_DECISION))
    assert decisions > 0  # decisions were compared
    if cell != "the_forgotten":
        assert diverged > 0  # the redrawn deck order shows in the end: the comparison can fail


@pytest.mark.parametrize("cell", ["gargoyle", "ornstein_and_smough"])
def test_R_12_7_the_known_deck_is_what_was_drawn_since_the_last_shuffle(cell: str) -> None:
    """``known[i]`` is the card at deck position ``i`` once drawn since the deck was shuffled, and -1 before; after
    a whole cycle without a shuffle the deck repeats (R-12.7) and every position is known."""
    pol = next(p for p in all_policies() if p.name == "baseline")
    full = foreseen = 0
    for index in range(BATTLES):
        b = engine.play_one(_tables(cell), pol.decide, pol.vector(), SEED, 0, index)
        ahead = -1
        for row in b.trace[: b.cursor[1]]:
            v = L.state_views(row[L.EV_FIELDS:])
            size = int(v.glob[L.G_DECK_LEN])
            known, deck = v.known[:size], v.deck[:size]
            assert np.all((known == -1) | (known == deck))
            if row[3] == L.EV_CARD:
                assert v.known[int(v.glob[L.G_DECK_POS]) - 1] == row[4]  # the card drawn is known where it lay
                if ahead >= 0:  # deck.known_next_card foresaw it: the deck repeats unshuffled
                    assert ahead == row[4]
                    foreseen += 1
            ahead = known_next_card.py_func(v) if row[3] != L.EV_HEATUP else -1  # logged before a heat-up's reshuffle
            if size and np.all(known == deck):
                full += 1
    assert full > 0 and foreseen > 0
