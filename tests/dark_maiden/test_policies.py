"""Dark Maiden policies (``policies/dark_maiden``): every registered policy answers every hook with a legal row on
fuzzed tables, plays whole games, keeps its parameters in bounds; the tactician (the game's default) beats the
other styles beyond their Wilson intervals; each style's defining choice shows on hand-set decisions.

Hand-set decisions call the compiled ``decide`` directly on a public matrix built here (``layout.R_*`` rows) with
the shipped heroes' and enemies' statistics, and the option rows the kernel would offer (``kernel/rules.py``).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from dsim.games.dark_maiden.game import BASIC_PARTY, DarkMaiden, compiled_data
from dsim.games.dark_maiden.kernel import layout as L
from dsim.games.dark_maiden.policy import REGISTRY
from dsim.policy import compiled
from dsim.stats import wilson_interval

STYLES = ("cautious", "bold", "tactician")
SEED = 20240611
GAMES = 2000
FUZZ = 300


# ---------------------------------------------------------------- whole games
@lru_cache(maxsize=None)
def games(name: str) -> dict[str, np.ndarray]:
    """Outcome columns of :data:`GAMES` games of the three basic heroes on normal under policy ``name``."""
    settings = {"party": list(BASIC_PARTY), "difficulty": "normal", "policy": name}
    return DarkMaiden().play(settings, SEED, 0, 0, GAMES)


def test_the_styles_and_the_floor_are_registered_with_bounded_parameters():
    names = {p.name for p in REGISTRY.all()}
    assert set(STYLES) | {"random_legal"} <= names
    assert DarkMaiden.default_policy == "tactician"
    for policy in REGISTRY.all():
        assert policy.description and ":" in policy.description
        vector = policy.vector()
        for k, p in enumerate(policy.params):
            assert p.low <= p.default <= p.high and p.doc, (policy.name, p.name)
            assert vector[k] == p.default
            assert policy.vector({p.name: p.low})[k] == p.low and policy.vector({p.name: p.high})[k] == p.high
            with pytest.raises(ValueError, match="outside"):
                policy.vector({p.name: p.high + 1.0})


@pytest.mark.parametrize("name", ["random_legal", *STYLES])
def test_every_policy_plays_whole_games(name):
    """2,000 games each: every one ends won or lost (no timeout), inside the turn cap, with sites cleared in
    order."""
    cols = games(name)
    assert len(cols["win"]) == GAMES
    assert not cols["timeout"].any(), name
    assert (cols["turns"] >= 1).all()
    assert (cols["sites_cleared"][cols["win"]] == 4).all()
    assert (cols["sites_cleared"][~cols["win"]] < 4).all()


@pytest.mark.parametrize("other", ["random_legal", "cautious", "bold"])
def test_the_tactician_beats_the_other_styles_beyond_their_wilson_intervals(other):
    """Same seed, 2,000 games each: the tactician's 95% interval lies above the other's (measured with 20,000
    games: tactician 0.55, cautious 0.21, bold 0.20, random_legal 0.07; ``policies/dark_maiden/README.md``)."""
    won, lost = int(games("tactician")["win"].sum()), int(games(other)["win"].sum())
    low, _ = wilson_interval(won, GAMES)
    _, high = wilson_interval(lost, GAMES)
    assert low > high, (other, won / GAMES, lost / GAMES)


# ---------------------------------------------------------------- fuzzed decisions
def fuzzed(rng: np.random.Generator, hook: int) -> tuple[np.ndarray, int, int]:
    """(public, seat, n): a random plausible table for ``hook`` and the option rows the kernel would offer."""
    public = np.zeros((L.PUBLIC_ROWS, L.PUBLIC_WIDTH), np.int32)
    table, heroes = public[L.R_TABLE], public[L.R_HEROES:L.R_FOES]
    foes, opts = public[L.R_FOES:L.R_OPTS], public[L.R_OPTS:]
    nh = int(rng.integers(1, L.MAX_HEROES + 1))
    nf = int(rng.integers(1 if hook in (L.HOOK_POTIONS, L.HOOK_ATTACK, L.HOOK_DOUBLE, L.HOOK_TARGET, L.HOOK_SPLIT,
                                        L.HOOK_FALL) else 0, 9))
    table[L.T_HEROES], table[L.T_FOES], table[L.T_SITE] = nh, nf, rng.integers(0, 4)
    table[L.T_LIVES], table[L.T_NONCE], table[L.T_ITEMS] = rng.integers(0, 16), rng.integers(0, 2**31 - 1), -1
    table[L.T_TARGET] = 12 + 4 * table[L.T_SITE]
    table[L.T_ADVANCE] = rng.integers(0, table[L.T_TARGET])
    for h in range(nh):
        row = heroes[h]
        low = int(rng.integers(1, 5))
        row[L.H_KIND], row[L.H_VITALITY] = rng.integers(0, 3), rng.integers(4, 9)
        row[L.H_DAMAGE] = rng.integers(0, row[L.H_VITALITY])
        row[L.H_MAX_POTIONS] = rng.integers(3, 6)
        row[L.H_POTIONS] = rng.integers(0, row[L.H_MAX_POTIONS] + 1)
        row[L.H_FACES] = sum(1 << f for f in range(low, low + 3))
        row[L.H_SPECIAL], row[L.H_EXHAUSTED] = rng.integers(0, 4), rng.integers(0, 2)
        row[L.H_MOUNT] = rng.integers(-1, 3)
        row[L.H_MOUNT_CARD] = -1 if row[L.H_MOUNT] < 0 else 30 + row[L.H_MOUNT]
        if row[L.H_MOUNT] >= 0:
            row[L.H_MOUNT_FACES], row[L.H_MOUNT_HIT] = int(rng.integers(1, 64)) << 1, rng.integers(0, 4)
        row[L.H_ITEMS] = rng.integers(0, 4)
    for f in range(nf):
        row = foes[f]
        row[L.F_UNIT], row[L.F_ROLE], row[L.F_VITALITY] = rng.integers(0, 11), rng.integers(0, 4), rng.integers(2, 13)
        row[L.F_DAMAGE] = rng.integers(0, row[L.F_VITALITY])
        row[L.F_FACES] = int(rng.integers(1, 64)) << 1
        row[L.F_ARMOUR], row[L.F_POINTS], row[L.F_SPECIAL] = rng.integers(0, 2), rng.integers(0, 4), rng.integers(0, 5)
        row[L.F_MOUNT] = -1
        row[L.F_MOUNT_CARD] = -1
    seat = int(rng.integers(0, nh))
    hero = heroes[seat]
    white, red = int(rng.integers(1, 7)), int(rng.integers(1, 7))
    table[L.T_WHITE], table[L.T_RED] = white, red

    def add(action: int) -> int:
        k = n_rows[0]
        opts[k, :] = 0
        opts[k, L.OPT_ACTION], opts[k, L.OPT_FOE], opts[k, L.OPT_MOUNT] = action, -1, -1
        n_rows[0] += 1
        return k

    n_rows = [0]
    if hook == L.HOOK_MOVE:
        add(L.A_WALK), add(L.A_RUN)
    elif hook == L.HOOK_POTIONS:
        hero[L.H_POTIONS] = max(1, hero[L.H_POTIONS])
        add(L.A_KEEP)
        k = add(L.A_DRINK)
        opts[k, L.OPT_DAMAGE] = hero[L.H_POTIONS]
        for f in range(nf):
            if hero[L.H_POTIONS] - foes[f, L.F_ARMOUR] >= foes[f, L.F_VITALITY] - foes[f, L.F_DAMAGE]:
                opts[k, L.OPT_KILLS] += 1
                opts[k, L.OPT_POINTS] += foes[f, L.F_POINTS]
    elif hook == L.HOOK_ATTACK:
        hero[L.H_EXHAUSTED] = 0
        add(L.A_ROLL), add(L.A_QUICK)
    elif hook == L.HOOK_DOUBLE:
        hero[L.H_EXHAUSTED] = 0
        table[L.T_RED] = white
        add(L.A_ACCEPT)
        if hero[L.H_SPECIAL] == L.HS_REROLL and rng.random() < 0.5:
            add(L.A_REROLL)
        add(L.A_GRAB)
    elif hook in (L.HOOK_TARGET, L.HOOK_SPLIT, L.HOOK_FALL):
        if hook == L.HOOK_SPLIT:
            table[L.T_SPLIT_LEFT] = rng.integers(1, 5)
        table[L.T_STOPS] = rng.integers(0, 3)
        if hook == L.HOOK_TARGET and rng.random() < 0.3:
            table[L.T_RED], table[L.T_STOPS] = 0, L.STOPS_NOTHING  # a bonus-phase strike (DM-8.1)
        if hook == L.HOOK_FALL:
            foes[0, L.F_ROLE] = L.ROLE_ENEMY
        damage = int(rng.integers(0, 7))
        for f in range(nf):
            if hook == L.HOOK_FALL and foes[f, L.F_ROLE] >= L.ROLE_BOSS:
                continue
            k = add(L.A_FOE)
            left = foes[f, L.F_VITALITY] - foes[f, L.F_DAMAGE]
            dealt = foes[f, L.F_VITALITY] if hook == L.HOOK_FALL else max(0, damage - foes[f, L.F_ARMOUR])
            if hook == L.HOOK_SPLIT:
                dealt = int(rng.integers(0, 2))
            opts[k, L.OPT_FOE], opts[k, L.OPT_DAMAGE], opts[k, L.OPT_LEFT] = f, dealt, left
            opts[k, L.OPT_KILLS] = dealt >= left
            opts[k, L.OPT_POINTS] = foes[f, L.F_POINTS] if dealt >= left else 0
            opts[k, L.OPT_STRIKES] = (foes[f, L.F_FACES] >> table[L.T_RED]) & 1
            opts[k, L.OPT_ROLE] = foes[f, L.F_ROLE]
    elif hook == L.HOOK_BONUS:
        add(L.A_PASS)
        if nf > 0:
            add(L.A_STRIKE)
        if hero[L.H_EXHAUSTED] == 1:
            add(L.A_RECOVER)
        if hero[L.H_MOUNT] < 0:
            for m in range(int(rng.integers(0, 4))):
                k = add(L.A_MOUNT)
                opts[k, L.OPT_MOUNT], opts[k, L.OPT_LEVEL] = m, rng.integers(1, 4)
                opts[k, L.OPT_DAMAGE], opts[k, L.OPT_LEFT] = rng.integers(0, 4), rng.integers(1, 5)
    else:
        potions, heal = int(rng.integers(1, 7)), int(rng.integers(1, 7))
        for k, (a, b) in enumerate(((potions, heal), (heal, potions))):
            add(L.A_WHITE_POTIONS + k)
            opts[k, L.OPT_POTIONS], opts[k, L.OPT_HEAL] = a, b
    return public, seat, n_rows[0]


@pytest.mark.parametrize("name", ["random_legal", *STYLES])
def test_every_hook_is_answered_with_a_legal_row_on_fuzzed_tables(name):
    """Random plausible tables and option rows for every hook (several hundred each), and random row counts on
    random rows: the answer is always one of the ``n`` rows offered (the kernel would silently take row 0)."""
    rng = np.random.default_rng(SEED)
    policy = REGISTRY.get(name)
    decide, vector = compiled(policy.decide), policy.vector()
    for hook in range(len(L.HOOK_NAMES)):
        for _ in range(FUZZ):
            public, seat, n = fuzzed(rng, hook)
            if n == 0:
                continue
            k = decide(hook, seat, public, n, vector)
            assert 0 <= k < n, (name, L.HOOK_NAMES[hook], k, n)
        for _ in range(FUZZ // 3):  # any row count over the same kind of table
            public, seat, _ = fuzzed(rng, hook)
            n = int(rng.integers(1, L.MAX_OPTS + 1))
            k = decide(hook, seat, public, n, vector)
            assert 0 <= k < n, (name, L.HOOK_NAMES[hook], k, n)


# ---------------------------------------------------------------- hand-set decisions
def blank() -> np.ndarray:
    """An empty public matrix: no hero, no enemy, no option row."""
    public = np.zeros((L.PUBLIC_ROWS, L.PUBLIC_WIDTH), np.int32)
    public[L.R_TABLE, L.T_LIVES] = 6
    public[L.R_TABLE, L.T_ITEMS] = -1
    return public


def put_hero(public: np.ndarray, seat: int, hero_id: str, damage: int = 0, potions: int = 1,
             exhausted: int = 0) -> None:
    """Seat ``seat`` holds the shipped hero ``hero_id`` (its vitality, potion maximum, faces, special)."""
    comp = compiled_data(None)
    k = comp.hero_ids.index(hero_id)
    t = comp.tables.heroes[k]
    row = public[L.R_HEROES + seat]
    row[:] = 0
    row[L.H_KIND], row[L.H_VITALITY], row[L.H_DAMAGE] = k, t[L.HT_VITALITY], damage
    row[L.H_POTIONS], row[L.H_MAX_POTIONS], row[L.H_FACES] = potions, t[L.HT_MAX_POTIONS], t[L.HT_FACES]
    row[L.H_SPECIAL], row[L.H_EXHAUSTED], row[L.H_MOUNT], row[L.H_MOUNT_CARD] = t[L.HT_SPECIAL], exhausted, -1, -1
    public[L.R_TABLE, L.T_HEROES] = max(public[L.R_TABLE, L.T_HEROES], seat + 1)


def put_foe(public: np.ndarray, unit_id: str, role: int = L.ROLE_ENEMY, damage: int = 0) -> int:
    """The shipped enemy or boss ``unit_id`` enters play with ``damage`` on it; its foe row."""
    comp = compiled_data(None)
    u = comp.unit_ids.index(unit_id)
    t = comp.tables.units[u]
    f = int(public[L.R_TABLE, L.T_FOES])
    row = public[L.R_FOES + f]
    row[:] = 0
    row[L.F_UNIT], row[L.F_ROLE], row[L.F_VITALITY], row[L.F_DAMAGE] = u, role, t[L.U_VITALITY], damage
    row[L.F_FACES], row[L.F_ARMOUR], row[L.F_SPECIAL] = t[L.U_FACES], t[L.U_ARMOUR], t[L.U_SPECIAL]
    row[L.F_POINTS] = t[L.U_POINTS] if role <= L.ROLE_SUB_BOSS else 0
    row[L.F_MOUNT], row[L.F_MOUNT_CARD] = -1, -1
    public[L.R_TABLE, L.T_FOES] = f + 1
    return f


def put_rows(public: np.ndarray, *actions: int) -> int:
    """Option rows with these actions (no foe, no mount), as ``rules.set_opt`` fills them; their count."""
    for k, action in enumerate(actions):
        o = public[L.R_OPTS + k]
        o[:] = 0
        o[L.OPT_ACTION], o[L.OPT_FOE], o[L.OPT_MOUNT] = action, -1, -1
    return len(actions)


def foe_rows(public: np.ndarray, damage: int, mode: int = 0) -> int:
    """One row per foe in play as ``rules.foe_rows`` fills them (``mode`` 0 a hit of ``damage``, 1 a grab's
    point, 2 a precipice fall); their count."""
    table, foes = public[L.R_TABLE], public[L.R_FOES:L.R_OPTS]
    white, red = table[L.T_WHITE], table[L.T_RED]
    n = 0
    for f in range(table[L.T_FOES]):
        row, o = foes[f], public[L.R_OPTS + n]
        if mode == 2 and row[L.F_ROLE] >= L.ROLE_BOSS:
            continue
        dealt = row[L.F_VITALITY] if mode == 2 else max(0, damage - row[L.F_ARMOUR])
        left = row[L.F_VITALITY] - row[L.F_DAMAGE]
        o[:] = 0
        o[L.OPT_ACTION], o[L.OPT_FOE], o[L.OPT_MOUNT] = L.A_FOE, f, -1
        o[L.OPT_DAMAGE], o[L.OPT_ROLE], o[L.OPT_LEFT] = dealt, row[L.F_ROLE], left
        o[L.OPT_KILLS] = dealt >= left
        o[L.OPT_POINTS] = row[L.F_POINTS] if dealt >= left else 0
        o[L.OPT_STRIKES] = (row[L.F_FACES] >> red) & 1 == 1 or (row[L.F_FACES] >> white) & 1 == 1
        n += 1
    return n


def answer(name: str, hook: int, public: np.ndarray, n: int, seat: int = 0, **params: float) -> int:
    """``name``'s row for ``hook``, its parameters overridden by ``params``."""
    policy = REGISTRY.get(name)
    k = compiled(policy.decide)(hook, seat, public, n, policy.vector(params))
    assert 0 <= k < n
    return int(public[L.R_OPTS + k, L.OPT_FOE]) if hook in (L.HOOK_TARGET, L.HOOK_SPLIT, L.HOOK_FALL) else int(
        public[L.R_OPTS + k, L.OPT_ACTION])


def test_moving_bold_runs_cautious_walks_and_the_tactician_runs_only_when_told():
    """DM-4.1: bold runs, cautious walks; the tactician walks by default and runs on a clear, fresh table once
    ``run_below`` is above the party's damage fraction — but not with an enemy in play."""
    public = blank()
    for seat, hero in enumerate(BASIC_PARTY):
        put_hero(public, seat, hero)
    n = put_rows(public, L.A_WALK, L.A_RUN)
    assert answer("bold", L.HOOK_MOVE, public, n) == L.A_RUN
    assert answer("cautious", L.HOOK_MOVE, public, n) == L.A_WALK
    assert answer("tactician", L.HOOK_MOVE, public, n) == L.A_WALK
    assert answer("tactician", L.HOOK_MOVE, public, n, run_below=0.5) == L.A_RUN
    put_foe(public, "mercenaria")
    n = put_rows(public, L.A_WALK, L.A_RUN)
    assert answer("tactician", L.HOOK_MOVE, public, n, run_below=0.5) == L.A_WALK


def test_attacking_bold_quick_strikes_and_cautious_only_when_nearly_dead():
    """DM-7.6: bold always quick strikes; cautious rolls unless its vitality left is at most ``last_stand``."""
    public = blank()
    put_hero(public, 0, "guerrero")
    put_foe(public, "asesino")
    n = put_rows(public, L.A_ROLL, L.A_QUICK)
    assert answer("bold", L.HOOK_ATTACK, public, n) == L.A_QUICK
    assert answer("cautious", L.HOOK_ATTACK, public, n) == L.A_ROLL
    put_hero(public, 0, "guerrero", damage=6)  # 1 vitality left
    n = put_rows(public, L.A_ROLL, L.A_QUICK)
    assert answer("cautious", L.HOOK_ATTACK, public, n) == L.A_QUICK
    assert answer("cautious", L.HOOK_ATTACK, public, n, last_stand=0) == L.A_ROLL


def test_the_tactician_quick_strikes_a_lone_heavy_hitter_unless_exhaustion_costs_too_much():
    """DM-7.6, Amazona (faces 1–3) against one armoured Armadura (faces 4–6): her hits lose a point to the armour
    and a normal roll takes a 4–6 half the time, while a quick strike that lands stuns the boss and one that
    fails leaves it only the low dice of a total under 7 — worth the exhaustion at the default cost, not at the
    top of the ``exhaust`` bound."""
    public = blank()
    put_hero(public, 0, "amazona")
    put_foe(public, "armadura_2", role=L.ROLE_BOSS)
    n = put_rows(public, L.A_ROLL, L.A_QUICK)
    assert answer("tactician", L.HOOK_ATTACK, public, n) == L.A_QUICK
    assert answer("tactician", L.HOOK_ATTACK, public, n, exhaust=6.0) == L.A_ROLL


def test_potions_cautious_drinks_when_it_kills_bold_at_once_the_tactician_by_its_thresholds():
    """DM-6: 2 potions against two Mercenarias with 1 vitality left each and a fresh Dark Maiden. Cautious drinks
    (they kill); bold drinks; the tactician keeps them by default (two weak kills do not pay for two potions
    saved for the final boss…) but drinks once ``drink_kills`` is 2."""
    public = blank()
    put_hero(public, 0, "amazona", potions=2)
    put_foe(public, "mercenaria", damage=1)
    put_foe(public, "mercenaria", damage=1)
    put_foe(public, "lord", role=L.ROLE_BOSS)
    n = put_rows(public, L.A_KEEP, L.A_DRINK)
    public[L.R_OPTS + 1, L.OPT_DAMAGE], public[L.R_OPTS + 1, L.OPT_KILLS] = 2, 2
    assert answer("cautious", L.HOOK_POTIONS, public, n) == L.A_DRINK
    assert answer("bold", L.HOOK_POTIONS, public, n) == L.A_DRINK
    assert answer("bold", L.HOOK_POTIONS, public, n, drink_at=3) == L.A_KEEP
    assert answer("tactician", L.HOOK_POTIONS, public, n, potion=5.0, potion_boss=5.0) == L.A_KEEP
    assert answer("tactician", L.HOOK_POTIONS, public, n, potion=5.0, potion_boss=5.0, drink_kills=2) == L.A_DRINK


def test_doubles_bold_grabs_cautious_grabs_only_when_likely_and_the_tactician_weighs_them():
    """DM-7.5/7.7. A double 5 against an Asesino (faces 2–3, it does not strike on 5): bold grabs; cautious
    accepts (a grab needs a 6: 1/6); the tactician, Guerrero hitting 5 for the kill, accepts. A double 1 (the
    grab wins on 2–6): cautious and the tactician grab."""
    public = blank()
    put_hero(public, 0, "guerrero")
    put_foe(public, "asesino")
    public[L.R_TABLE, L.T_WHITE] = public[L.R_TABLE, L.T_RED] = 5
    n = put_rows(public, L.A_ACCEPT, L.A_GRAB)
    assert answer("bold", L.HOOK_DOUBLE, public, n) == L.A_GRAB
    assert answer("cautious", L.HOOK_DOUBLE, public, n) == L.A_ACCEPT
    assert answer("tactician", L.HOOK_DOUBLE, public, n) == L.A_ACCEPT
    public[L.R_TABLE, L.T_WHITE] = public[L.R_TABLE, L.T_RED] = 1
    assert answer("cautious", L.HOOK_DOUBLE, public, n) == L.A_GRAB
    assert answer("tactician", L.HOOK_DOUBLE, public, n) == L.A_GRAB


def test_targets_cautious_and_the_tactician_kill_a_striker_bold_hits_the_boss():
    """DM-7.4: white 2 < red 3, so the hit lands first: killing the Asesino (1 left, strikes on 3) stops its
    strike, which cautious and the tactician prefer to 2 damage on a fresh Lord; bold puts its damage where it
    is worth most (the Lord's threat). In the bonus phase (no strike back) the tactician kills an Asesino, the
    bigger threat, rather than a Mercenaria."""
    public = blank()
    put_hero(public, 0, "amazona")
    lord = put_foe(public, "lord", role=L.ROLE_BOSS)
    asesino = put_foe(public, "asesino", damage=2)
    public[L.R_TABLE, L.T_WHITE], public[L.R_TABLE, L.T_RED] = 2, 3
    public[L.R_TABLE, L.T_ATTACK], public[L.R_TABLE, L.T_STOPS] = L.ATTACK_ROLL, L.STOPS_KILLED  # as the kernel says
    n = foe_rows(public, 2)
    assert answer("cautious", L.HOOK_TARGET, public, n) == asesino
    assert answer("tactician", L.HOOK_TARGET, public, n) == asesino
    assert answer("bold", L.HOOK_TARGET, public, n) == lord
    public = blank()  # a bonus-phase strike (red 0): nothing strikes back
    put_hero(public, 0, "amazona")
    put_foe(public, "mercenaria", damage=1)
    asesino = put_foe(public, "asesino", damage=2)
    public[L.R_TABLE, L.T_WHITE] = 2
    n = foe_rows(public, 2)
    assert answer("tactician", L.HOOK_TARGET, public, n) == asesino


def test_a_precipice_throws_the_sub_boss_and_a_grab_kills_before_spreading():
    """DM-5.2.4: the fall takes the sub-boss Armadura rather than a Mercenaria (every style). DM-7.7: with 3 grab
    points against two Asesinos 1 short of death and a fresh Mercenaria, cautious and the tactician give the
    first point to an Asesino (both die, the last point hurts the Mercenaria); against a Mercenaria and an
    armoured Armadura, cautious kills the Mercenaria first (2 points) rather than lose one to the armour."""
    public = blank()
    put_hero(public, 0, "guerrero")
    put_foe(public, "mercenaria")
    armadura = put_foe(public, "armadura_2", role=L.ROLE_SUB_BOSS)
    n = foe_rows(public, 0, mode=2)
    for name in STYLES:
        assert answer(name, L.HOOK_FALL, public, n) == armadura, name
    public[L.R_TABLE, L.T_SPLIT_LEFT] = 3
    n = foe_rows(public, 1, mode=1)
    assert answer("cautious", L.HOOK_SPLIT, public, n) == 0
    public = blank()
    put_hero(public, 0, "guerrero")
    put_foe(public, "mercenaria")
    put_foe(public, "asesino", damage=2)
    put_foe(public, "asesino", damage=2)
    public[L.R_TABLE, L.T_SPLIT_LEFT] = 3
    n = foe_rows(public, 1, mode=1)
    for name in ("cautious", "tactician"):
        assert answer(name, L.HOOK_SPLIT, public, n) in (1, 2), name


def test_bonus_phase_cautious_recovers_bold_strikes_the_tactician_by_worth():
    """DM-8.1 for an exhausted, unmounted Bárbara with an enemy in play and a level-1 mount in the middle:
    cautious recovers, bold strikes; the tactician takes the mount when mounts are worth most and recovers when
    recovery is. A fresh Guerrero (faces 3–5) would lose by riding a level-1 mount (2 damage on 1–3, DM-7.11):
    the tactician strikes instead, unless ``mount_attack`` ignores the attack lost."""
    public = blank()
    put_hero(public, 0, "barbara", exhausted=1)
    put_foe(public, "mercenaria")
    n = put_rows(public, L.A_PASS, L.A_STRIKE, L.A_RECOVER, L.A_MOUNT)
    public[L.R_OPTS + 3, L.OPT_MOUNT], public[L.R_OPTS + 3, L.OPT_LEVEL] = 0, 1
    public[L.R_OPTS + 3, L.OPT_DAMAGE], public[L.R_OPTS + 3, L.OPT_LEFT] = 2, 2
    public[L.R_OPTS + 3, L.OPT_FACES] = 0b1110  # hits on 1–3 (DM-7.11)
    assert answer("cautious", L.HOOK_BONUS, public, n) == L.A_RECOVER
    assert answer("bold", L.HOOK_BONUS, public, n) == L.A_STRIKE
    assert answer("tactician", L.HOOK_BONUS, public, n, mount=6.0, recover=1.0) == L.A_MOUNT
    assert answer("tactician", L.HOOK_BONUS, public, n, mount=1.0, recover=6.0) == L.A_RECOVER
    put_hero(public, 0, "guerrero")
    n = put_rows(public, L.A_PASS, L.A_STRIKE, L.A_MOUNT)
    public[L.R_OPTS + 2, L.OPT_MOUNT], public[L.R_OPTS + 2, L.OPT_LEVEL] = 0, 1
    public[L.R_OPTS + 2, L.OPT_DAMAGE], public[L.R_OPTS + 2, L.OPT_LEFT] = 2, 2
    assert answer("tactician", L.HOOK_BONUS, public, n) == L.A_STRIKE
    assert answer("tactician", L.HOOK_BONUS, public, n, mount_attack=0.0, mount=6.0) == L.A_MOUNT


def test_goblin_dice_heal_a_hurt_hero_and_give_potions_to_a_fresh_one():
    """DM-5.3.3 reading ``choose``: potions 1 / heal 4 or potions 4 / heal 1. A hero 4 damage down heals first
    (cautious, the tactician); a fresh hero with no potions takes the 4 potions (every style)."""
    public = blank()
    put_hero(public, 0, "amazona", damage=4, potions=0)
    n = put_rows(public, L.A_WHITE_POTIONS, L.A_RED_POTIONS)
    public[L.R_OPTS, L.OPT_POTIONS], public[L.R_OPTS, L.OPT_HEAL] = 1, 4
    public[L.R_OPTS + 1, L.OPT_POTIONS], public[L.R_OPTS + 1, L.OPT_HEAL] = 4, 1
    assert answer("cautious", L.HOOK_GOBLIN, public, n) == L.A_WHITE_POTIONS
    assert answer("tactician", L.HOOK_GOBLIN, public, n, potion=0.5) == L.A_WHITE_POTIONS
    assert answer("bold", L.HOOK_GOBLIN, public, n) == L.A_RED_POTIONS
    put_hero(public, 0, "amazona", damage=0, potions=0)
    for name in STYLES:
        assert answer(name, L.HOOK_GOBLIN, public, n) == L.A_RED_POTIONS, name
