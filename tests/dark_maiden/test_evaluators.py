"""The tactician's 36-dice evaluators (``policies/dark_maiden/common.py``) give the very numbers of their definition:
the compiled ones work from tables of the standing enemies built once per evaluation (issue 43: twenty times fewer
instructions), the definition below walks every die face and every enemy as the rules read (DM-7.1–7.7, DM-8.1).
Compared for equality, bit for bit, on fuzzed tables with fuzzed weights: a decision between two close worths
must not change with the speed-up."""

from __future__ import annotations

import numpy as np
import pytest

from dsim.games.dark_maiden.kernel import layout as L
from policies.dark_maiden import common as C
from tests.dark_maiden.test_policies import fuzzed

TABLES = 400
STD = C.STD_VITALITY


# ---------------------------------------------------------------- the definition, die face by die face
def foe_left(foes, f, pre):
    return int(foes[f, L.F_VITALITY] - foes[f, L.F_DAMAGE] - max(0, pre - foes[f, L.F_ARMOUR]))


def foe_hit(foes, f, red):
    if red == L.DARK_MAIDEN_CALL and foes[f, L.F_SPECIAL] == L.SP_REINFORCEMENTS:
        return 0
    return red if (int(foes[f, L.F_FACES]) >> red) & 1 else 0


def threat(foes, f):
    return sum(foe_hit(foes, f, face) for face in range(1, 7)) / 6.0


def strike_value(foes, f, eff, left, w):
    if eff <= 0 or left <= 0:
        return 0.0
    t = threat(foes, f)
    if eff >= left:
        return t * (w[0] * left + w[1]) + w[2] * int(foes[f, L.F_POINTS])
    return t * w[0] * eff


def hit_damage(heroes, h, white):
    faces, fixed = ((heroes[h, L.H_MOUNT_FACES], heroes[h, L.H_MOUNT_HIT]) if heroes[h, L.H_MOUNT] >= 0
                    else (heroes[h, L.H_FACES], L.DIE))
    if not (int(faces) >> white) & 1:
        return 0
    return int((white if fixed == L.DIE else fixed) + ((heroes[h, L.H_ITEMS] >> L.ITEM_A) & 1))


def vitality_left(heroes, h):
    return int(heroes[h, L.H_VITALITY] - heroes[h, L.H_DAMAGE])


def damage_cost(heroes, h, d, w_exhaust, w_mount):
    if d <= 0:
        return 0.0
    cost = 0.0
    if heroes[h, L.H_MOUNT] >= 0:
        d = L.MOUNT_HIT
        cost += w_mount + (w_exhaust if heroes[h, L.H_EXHAUSTED] == 0 else 0.0)
    return cost + min(d, vitality_left(heroes, h)) * STD / max(1, int(heroes[h, L.H_VITALITY]))


def standing(foes, nf, pre):
    return [f for f in range(nf) if foe_left(foes, f, pre) > 0]


def red_total(foes, nf, pre, red):
    return sum(foe_hit(foes, f, red) for f in standing(foes, nf, pre))


def accept_value(nf, heroes, foes, h, white, red, pre, w):
    total = red_total(foes, nf, pre, red)
    dmg = hit_damage(heroes, h, white)
    if dmg == 0:
        return -damage_cost(heroes, h, total, w[3], w[4])
    landed = min(total, L.MOUNT_HIT) if heroes[h, L.H_MOUNT] >= 0 else total
    if red < white and landed >= vitality_left(heroes, h):
        return -damage_cost(heroes, h, total, w[3], w[4])
    first = white < red or (white == red and heroes[h, L.H_SPECIAL] == L.HS_STRIKE_FIRST
                            and heroes[h, L.H_EXHAUSTED] == 0)
    best = -1e18
    for f in standing(foes, nf, pre):
        left = foe_left(foes, f, pre)
        eff = max(0, dmg - int(foes[f, L.F_ARMOUR]))
        taken = total - (foe_hit(foes, f, red) if first and eff >= left else 0)
        best = max(best, strike_value(foes, f, eff, left, w) - damage_cost(heroes, h, taken, w[3], w[4]))
    return best


def split_value(foes, nf, pre, points, w):
    best = 0.0
    for f in standing(foes, nf, pre):
        left = foe_left(foes, f, pre)
        arm = int(foes[f, L.F_ARMOUR])
        v = strike_value(foes, f, max(0, points - arm), left, w)
        if left + arm < points:
            rest = points - left - arm
            more = 0.0
            for g in standing(foes, nf, pre):
                if g != f:
                    more = max(more, strike_value(foes, g, max(0, rest - int(foes[g, L.F_ARMOUR])),
                                                  foe_left(foes, g, pre), w))
            v += more
        best = max(best, v)
    return best


def grab_value(nf, heroes, foes, h, red, pre, w):
    wins = C.GRAB_FACES - red + (1 if heroes[h, L.H_SPECIAL] == L.HS_GRAB_EQUAL else 0)
    p = max(0, min(C.GRAB_FACES, wins)) / C.GRAB_FACES
    won = split_value(foes, nf, pre, L.GRAB_DAMAGE + int((heroes[h, L.H_ITEMS] >> L.ITEM_A) & 1), w)
    lost = damage_cost(heroes, h, red_total(foes, nf, pre, red), w[3], w[4])
    return p * won - (1.0 - p) * lost


def roll_value(nf, heroes, foes, h, pre, w):
    def double(face, reroll):
        return max(max(accept_value(nf, heroes, foes, h, face, face, pre, w),
                       grab_value(nf, heroes, foes, h, face, pre, w)), reroll)

    plain, doubles = 0.0, 0.0
    special = heroes[h, L.H_EXHAUSTED] == 0
    for white in range(1, 7):
        for red in range(1, 7):
            if white == red and special:
                doubles += double(white, -1e18)
            else:
                plain += accept_value(nf, heroes, foes, h, white, red, pre, w)
    ev = (plain + doubles) / 36.0
    if special and heroes[h, L.H_SPECIAL] == L.HS_REROLL:
        doubles = 0.0
        for face in range(1, 7):
            doubles += double(face, ev)
        ev = (plain + doubles) / 36.0
    return ev


def quick_value(nf, heroes, foes, h, pre, w):
    dmg = L.QUICK_DAMAGE + int((heroes[h, L.H_ITEMS] >> L.ITEM_A) & 1)
    ev = 0.0
    for white in range(1, 7):
        for red in range(1, 7):
            hits = {f: max(foe_hit(foes, f, white), foe_hit(foes, f, red)) for f in standing(foes, nf, pre)}
            total = sum(hits.values())
            if white + red < L.PASS_TOTAL:
                ev -= damage_cost(heroes, h, total, 0.0, w[4])
                continue
            best = -1e18
            for f, hit in hits.items():
                v = strike_value(foes, f, max(0, dmg - int(foes[f, L.F_ARMOUR])), foe_left(foes, f, pre), w)
                best = max(best, v - damage_cost(heroes, h, total - hit, 0.0, w[4]))
            ev += best
    return ev / 36.0


def attack_value(nf, heroes, foes, h, pre, w, margin):
    if not standing(foes, nf, pre):
        return 0.0, False
    normal = roll_value(nf, heroes, foes, h, pre, w)
    if heroes[h, L.H_EXHAUSTED] == 1:
        return normal, False
    quick = quick_value(nf, heroes, foes, h, pre, w) - w[3] - margin
    return (quick, True) if quick > normal else (normal, False)


def bonus_strike_value(nf, heroes, foes, h, w):
    v = 0.0
    for white in range(1, 7):
        dmg = hit_damage(heroes, h, white)
        if dmg > 0:
            v += max([0.0] + [strike_value(foes, f, max(0, dmg - int(foes[f, L.F_ARMOUR])), foe_left(foes, f, 0), w)
                              for f in standing(foes, nf, 0)])
    return v / 6.0


# ---------------------------------------------------------------- the compiled evaluators against it
def views(public: np.ndarray) -> tuple[np.ndarray, ...]:
    """(table, heroes, foes) as ``public_views`` slices them."""
    return (public[L.R_TABLE, :L.T_FIELDS], public[L.R_HEROES:L.R_FOES, :L.H_FIELDS],
            public[L.R_FOES:L.R_OPTS, :L.F_FIELDS])


def weights(rng: np.random.Generator) -> tuple[float, ...]:
    """(damage, kill, point, exhaust, mount) drawn inside the tactician's bounds, often round numbers (ties)."""
    draw = rng.uniform if rng.random() < 0.5 else (lambda low, high: float(rng.integers(low, high + 1)))
    return (draw(0.0, 5.0), draw(0.0, 10.0), draw(0.0, 5.0), draw(0.0, 6.0), draw(0.0, 6.0))


@pytest.mark.parametrize("hook", [L.HOOK_POTIONS, L.HOOK_DOUBLE])
def test_the_tabled_evaluators_give_the_definitions_numbers_bit_for_bit(hook):
    """DM-7.1–7.7, DM-8.1: on fuzzed tables (mounted, armoured, reinforcing enemies, item A, every hero's special,
    exhausted or not) the attack's worth and choice after 0 and after all potions, a double's three answers and a
    bonus strike equal the face-by-face definition exactly."""
    rng = np.random.default_rng(43 + hook)
    for _ in range(TABLES):
        public, seat, _ = fuzzed(rng, hook)
        table, heroes, foes = views(public)
        nf, w, margin = int(table[L.T_FOES]), weights(rng), float(rng.uniform(-3.0, 3.0))
        for pre in (0, int(heroes[seat, L.H_POTIONS])):
            assert C.attack_value(table, heroes, foes, seat, pre, w, margin) == attack_value(
                nf, heroes, foes, seat, pre, w, margin), (public[:L.R_OPTS].tolist(), w, margin, pre)
        assert C.bonus_strike_value(table, heroes, foes, seat, w) == bonus_strike_value(nf, heroes, foes, seat, w)
        if hook == L.HOOK_DOUBLE:
            white, red = int(table[L.T_WHITE]), int(table[L.T_RED])
            want = (accept_value(nf, heroes, foes, seat, white, red, 0, w),
                    grab_value(nf, heroes, foes, seat, red, 0, w), roll_value(nf, heroes, foes, seat, 0, w))
            assert C.double_worths(table, heroes, foes, seat, w) == want, (public[:L.R_OPTS].tolist(), w)
