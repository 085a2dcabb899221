"""Properties of whole random Dark Maiden games (random legal choices, fixed seeds, 1–4 heroes, every difficulty).

Games are set up by ``engine.new_game`` and stepped turn by turn (``engine.step(..., "turn")``); a small Numba
function checks the invariants after setup and after every turn, and each stepped game must end as the batch
kernel's game of the same index did. Also: bit-identical results for 1 and 2 Numba threads and for any chunking,
and outcome columns that agree with each other.
"""

from __future__ import annotations

from pathlib import Path

import numba
import numpy as np
import pytest
from numba import njit

from dsim.games.dark_maiden import engine
from dsim.games.dark_maiden.game import BASIC_PARTY, DarkMaiden, prepare
from dsim.games.dark_maiden.kernel import layout as L
from dsim.games.dark_maiden.kernel.jit import SOURCES
from dsim.games.dark_maiden.variants import V_MAX_TURNS
from dsim.numba_cache import cache_folder, cache_under

GAMES = 1000
"""Games per party size, difficulty and special-items reading (24 000 in all)."""
SEED = 7
PARTIES = {1: ["guerrero"], 2: ["barbara", "amazona"], 3: list(BASIC_PARTY), 4: [*BASIC_PARTY, "barbara"]}
DIFFICULTIES = ("easy", "normal", "hard")
GAME = DarkMaiden()
_HERE = Path(__file__).resolve()


def settings(heroes: int, difficulty: str, **variants: object) -> dict:
    """A random_legal cell of ``heroes`` heroes."""
    return {"party": PARTIES[heroes], "difficulty": difficulty, "policy": "random_legal",
            "variants": dict(variants)}


CHECKS = ("lives never negative (DM-2.6)", "hero damage in 0 .. vitality-1 (DM-7.9)",
          "foe damage in 0 .. vitality-1 (DM-10.1)", "potions in 0 .. max (DM-5.3.1)",
          "advance never negative (DM-4.3 zero)", "exhaustion is 0 or 1 (DM-4.2)",
          "a hero out of the game holds no potion, mount or damage (DM-6.5, DM-7.9)",
          "a running game has a hero in it (DM-1.3)", "no drawn card left unresolved (DM-5.1)",
          "the turn-sequence card with a hero in the game (DM-8.6)", "no card in two places",
          "every level-1 card somewhere while the game runs (DM-2.5, DM-4.6)")


def check_impl(s, t, places, bad):
    """Count each broken invariant (indices of :data:`CHECKS`) of the state between turns; ``places`` is scratch
    for one count per card."""
    running = s.table[L.T_OVER] == L.OVER_RUNNING
    if s.table[L.T_LIVES] < 0:
        bad[0] += 1
    playing = 0
    for h in range(s.table[L.T_HEROES]):
        row = s.heroes[h]
        if row[L.H_DAMAGE] < 0 or row[L.H_DAMAGE] >= row[L.H_VITALITY]:
            bad[1] += 1
        if row[L.H_POTIONS] < 0 or row[L.H_POTIONS] > row[L.H_MAX_POTIONS]:
            bad[3] += 1
        if row[L.H_EXHAUSTED] != 0 and row[L.H_EXHAUSTED] != 1:
            bad[5] += 1
        if row[L.H_OUT] == 1 and (row[L.H_POTIONS] != 0 or row[L.H_MOUNT] >= 0 or row[L.H_DAMAGE] != 0):
            bad[6] += 1
        playing += 1 - row[L.H_OUT]
    for f in range(s.table[L.T_FOES]):
        if s.foes[f, L.F_DAMAGE] < 0 or s.foes[f, L.F_DAMAGE] >= s.foes[f, L.F_VITALITY]:
            bad[2] += 1
    if s.table[L.T_ADVANCE] < 0:
        bad[4] += 1
    if running and playing == 0:
        bad[7] += 1
    if s.table[L.T_DRAWN] != 0:
        bad[8] += 1
    if running and s.heroes[s.table[L.T_FIRST], L.H_OUT] == 1:
        bad[9] += 1
    places[:] = 0
    for k in range(s.table[L.T_DECK]):
        places[s.deck[k]] += 1
    for k in range(s.table[L.T_DISCARD]):
        places[s.discard[k]] += 1
    for f in range(s.table[L.T_FOES]):
        places[s.foes[f, L.F_CARD]] += 1
        if s.foes[f, L.F_MOUNT] >= 0:
            places[s.foes[f, L.F_MOUNT_CARD]] += 1
    for m in range(s.table[L.T_MIDDLE]):
        places[s.middle[m, L.M_CARD]] += 1
    for h in range(s.table[L.T_HEROES]):
        if s.heroes[h, L.H_MOUNT] >= 0:
            places[s.heroes[h, L.H_MOUNT_CARD]] += 1
        for c in range(t.cards.shape[0]):
            if t.cards[c, L.CD_KIND] == L.K_ITEM and (s.heroes[h, L.H_ITEMS] >> t.cards[c, L.CD_REF]) & 1:
                places[c] += 1
    for c in range(t.cards.shape[0]):
        if places[c] > 1:
            bad[10] += 1
        if running and t.cards[c, L.CD_PILE] == 1 and places[c] != 1:
            bad[11] += 1


with cache_under(cache_folder("dm-test-properties", SOURCES + [_HERE], _HERE.parent / "__pycache__")):
    check = njit(cache=True)(check_impl)


@pytest.mark.parametrize("special_items", ["off", "on"])
@pytest.mark.parametrize("difficulty", DIFFICULTIES)
@pytest.mark.parametrize("heroes", [1, 2, 3, 4])
def test_invariants_hold_after_every_turn_of_random_games(heroes, difficulty, special_items):
    """Lives, damage, potions and the advance stay in range, no card is lost or doubled, every game ends within
    ``max_turns`` turns, and the stepped game ends as game ``i`` of the batch kernel did."""
    cell = prepare(settings(heroes, difficulty, special_items=special_items))
    t, policy = cell.compiled.tables, cell.function()
    max_turns = int(cell.variants[V_MAX_TURNS])
    batch = engine.play_batch(t, policy, cell.params, cell.variants, cell.party, cell.lives, cell.items, SEED, 0,
                              0, GAMES)
    bad, places = np.zeros(len(CHECKS), np.int64), np.zeros(t.cards.shape[0], np.int64)
    for i in range(GAMES):
        s = engine.new_game(t, cell.variants, cell.party, cell.lives, cell.items, seed=SEED, index=i,
                            trace_events=0)
        check(s, t, places, bad)
        for _ in range(max_turns + 1):
            out = engine.step(t, s, policy, cell.params, "turn")
            check(s, t, places, bad)
            if s.table[L.T_OVER] != L.OVER_RUNNING:
                break
        assert s.table[L.T_OVER] != L.OVER_RUNNING, f"game {i} still running after {max_turns} turns"
        assert np.array_equal(out, batch[i]), f"game {i}: stepped {out.tolist()}, batch {batch[i].tolist()}"
    assert dict(zip(CHECKS, bad.tolist())) == dict.fromkeys(CHECKS, 0)
    assert len(np.unique(batch[:, L.OUT_TURNS])) > 3 and (batch[:, L.OUT_SITES] >= 3).any()  # some reach the Castle


def _rows(settings_: dict, start: int, count: int) -> dict[str, np.ndarray]:
    return GAME.play(settings_, 11, 5, start, count)


def _same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    assert a.keys() == b.keys()
    for name in a:
        assert np.array_equal(a[name], b[name]), name


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs two Numba threads")
def test_results_are_bit_identical_for_1_and_2_threads():
    cell = settings(3, "normal")
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = _rows(cell, 0, 4000)
        numba.set_num_threads(2)
        two = _rows(cell, 0, 4000)
    finally:
        numba.set_num_threads(before)
    _same(one, two)
    assert len(np.unique(one["turns"])) > 5


@pytest.mark.parametrize("variants", [{}, {"special_items": "on", "final_boss": "roll", "life_counter": "total"}])
def test_results_do_not_depend_on_the_chunking(variants, monkeypatch):
    """Games 0..N at once, in two uneven halves, and with the engine's pieces cut to 37 games: the same games."""
    cell = settings(4, "hard", **variants)
    whole = _rows(cell, 0, 5000)
    _same(whole, {k: np.concatenate([a, b]) for (k, a), b in
                  zip(_rows(cell, 0, 2345).items(), _rows(cell, 2345, 2655).values())})
    _same({k: v[3000:3500] for k, v in whole.items()}, _rows(cell, 3000, 500))
    monkeypatch.setattr(engine, "GAME_PIECE", 37)
    _same(whole, _rows(cell, 0, 5000))


@pytest.mark.parametrize("cell", [settings(1, "easy"), settings(4, "normal"),
                                  settings(2, "easy", lives=40, max_turns=12),
                                  settings(3, "hard", precipice_fall="life_only", special_items="on")])
def test_outcome_columns_agree_with_each_other(cell):
    """A win has cleared the 4 sites (DM-1.1) and is no timeout; every other game is lost at exactly one site, the
    one after those it cleared; cleared sites come in order; a lost game (no timeout) names what ended it, and a
    timeout has played ``max_turns`` turns."""
    cols = GAME.play(cell, 3, 1, 0, 3000)
    cols |= GAME.derive(cols, cell)
    win, timeout = cols["win"], cols["timeout"]
    lost_at = np.stack([cols[f"lost_at_site_{k}"] for k in range(1, 5)], axis=1)
    cleared = np.stack([cols[f"cleared_site_{k}"] for k in range(1, 5)], axis=1)
    assert ((cols["sites_cleared"] == 4) & ~timeout)[win].all()
    assert (lost_at.sum(axis=1) + win == 1).all()
    assert (cols["end_site"][~win] == cols["sites_cleared"][~win]).all()
    assert (np.diff(cleared.astype(int), axis=1) <= 0).all() and (cleared.sum(axis=1) == cols["sites_cleared"]).all()
    assert (cols["deaths"] == sum(cols[f"deaths_seat_{h}"] for h in range(L.MAX_HEROES))).all()
    assert (cols["lives_left"] >= 0).all()
    ended = np.stack([v for k, v in cols.items() if k.startswith("ended_by_")], axis=1).sum(axis=1)
    assert (ended == (~win & ~timeout)).all()
    max_turns = int(prepare(cell).variants[V_MAX_TURNS])
    assert (cols["turns"][timeout] == max_turns).all() and (cols["turns"] <= max_turns).all()
    if "max_turns" in cell["variants"]:
        assert timeout.any()
