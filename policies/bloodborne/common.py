"""Numba helpers shared by the Bloodborne policies: standings, risk, damage estimates, hook answers.

Everything here reads only what ``decide`` receives — every hunter's public row, hand and used pile,
the shared table and the option rows — i.e. what a hunter sees at the table (BB-5.1: this round's
secret picks are not in it until revealed). Option-row columns per hook: ``policies/bloodborne/README.md``.

What a hunter does *not* get through the interface is the card texts: the kernel hands policies no
card table, so a card kind's damage is known only while a row of the current hook describes it
(:func:`kind_damage`); unknown kinds are guessed with a policy parameter.
"""

from __future__ import annotations

import math

from numba import njit

from dsim.games.bloodborne.kernel import layout as L
from dsim.games.bloodborne.policy import Param

HITTER_CARDS = (1.0, 1.5, 0.3, 0.3, 0.5)
""":func:`card_score` weights (damage, Instant, guard, utility, health cost) of the hitters (greedy, spoiler):
damage first, and an Instant is worth 1.5 damage (it lands before the monster attacks and before step 5)."""

RISK = Param("risk", 1.5, 0.2, 5.0, "scale of the roll-risk guess: P(die) = exp(-health / (risk x mean roll))")
TROPHY = Param("trophy", 4.0, 0.0, 20.0, "a trophy's worth in echoes")
SPREAD = Param("spread", 1.0, 0.1, 5.0, "uncertainty (in damage) of the kill estimate")
UPGRADE = Param("upgrade", 1.0, 0.0, 6.0, "worth of an upgrade card")
UNKNOWN = Param("unknown", 1.5, 0.0, 4.0, "damage guessed for a card kind no option row describes")
"""Parameters that mean the same in every policy that has them (:func:`p_die`, :func:`card_value`)."""


# ---------------------------------------------------------------- option rows
@njit(cache=True)
def row_of(opts, n, card):
    """The option row offering card kind ``card`` (-1 if none)."""
    for i in range(n):
        if opts[i, L.OPT_CARD] == card:
            return i
    return -1


@njit(cache=True)
def dream_row(opts, n):
    """The row of the card that takes the used pile back (Hunter's Dream), -1 if none is offered."""
    for i in range(n):
        if opts[i, L.OPT_RECOVER] > 0:
            return i
    return -1


@njit(cache=True)
def is_weapon(opts, i):
    """A melee or ranged card (Transform may pick it, BB-6.1)."""
    return opts[i, L.OPT_TYPE] != L.UTILITY


@njit(cache=True)
def strongest(opts, n):
    """The weapon row with the most printed damage (-1 if no weapon); ties go to the card that costs no
    health, then to an Instant (it lands before the monster attacks, BB-7)."""
    best = -1
    for i in range(n):
        if not is_weapon(opts, i):
            continue
        if best < 0:
            best = i
            continue
        a = opts[i, L.OPT_DAMAGE] * 4 - opts[i, L.OPT_LOSE] * 2 + (opts[i, L.OPT_STEP] == L.STEP_INSTANT)
        b = opts[best, L.OPT_DAMAGE] * 4 - opts[best, L.OPT_LOSE] * 2 + (opts[best, L.OPT_STEP] == L.STEP_INSTANT)
        if a > b:
            best = i
    return best


@njit(cache=True)
def card_score(opts, i, w_damage, w_instant, w_guard, w_utility, w_lose):
    """A policy's worth of the card in row ``i``: weighted damage, Instant timing, protection from the
    monster, utility effects (heal, bank, cancel, extra upgrade) and the health it costs. The Dream
    (the only way to get the used pile back, BB-11.3) always scores highest."""
    if opts[i, L.OPT_RECOVER] > 0:
        return 1e6
    v = w_damage * opts[i, L.OPT_DAMAGE] - w_lose * opts[i, L.OPT_LOSE]
    if opts[i, L.OPT_STEP] == L.STEP_INSTANT and opts[i, L.OPT_TYPE] != L.UTILITY:
        v += w_instant
    v += w_guard * (opts[i, L.OPT_PREVENT] > 0)
    v += w_utility * ((opts[i, L.OPT_HEAL] > 0) + (opts[i, L.OPT_BANK] > 0) + (opts[i, L.OPT_CANCEL] > 0)
                      + (opts[i, L.OPT_TYPE] == L.UTILITY and opts[i, L.OPT_STEP] == L.STEP_DREAM))
    return v


@njit(cache=True)
def pick_upgrade(opts, n, w_damage, w_instant, w_guard, w_utility, w_lose):
    """HOOK_UPGRADE: the display slot whose card scores highest (:func:`card_score`)."""
    best, top = 0, -1e18
    for i in range(n):
        v = card_score(opts, i, w_damage, w_instant, w_guard, w_utility, w_lose)
        if v > top:
            best, top = i, v
    return best


@njit(cache=True)
def pick_discard(opts, n, w_damage, w_instant, w_guard, w_utility, w_lose):
    """HOOK_DISCARD: the weakest card in hand by the same score; among equals the most duplicated."""
    best, low = 0, 1e18
    for i in range(n):
        v = card_score(opts, i, w_damage, w_instant, w_guard, w_utility, w_lose) - 0.01 * opts[i, L.OPT_COUNT]
        if v < low:
            best, low = i, v
    return best


@njit(cache=True)
def card_hook(hook, opts, n, w_damage, w_instant, w_guard, w_utility, w_lose):
    """HOOK_UPGRADE (:func:`pick_upgrade`) or HOOK_DISCARD (:func:`pick_discard`) with the same card weights."""
    if hook == L.HOOK_UPGRADE:
        return pick_upgrade(opts, n, w_damage, w_instant, w_guard, w_utility, w_lose)
    return pick_discard(opts, n, w_damage, w_instant, w_guard, w_utility, w_lose)


@njit(cache=True)
def plain_hook(hook, seat, hunters, table, opts, n, w_damage, w_instant, w_guard, w_utility, w_lose):
    """Every hook but HOOK_PLAY without a plan: Transform takes the strongest weapon, a cancel the biggest
    melee card, upgrades and discards go by the card weights (:func:`card_hook`)."""
    if hook == L.HOOK_TRANSFORM:
        return strongest(opts, n)
    if hook == L.HOOK_CANCEL:
        return cancel_target(seat, hunters, table, opts, n, 0.0)
    return card_hook(hook, opts, n, w_damage, w_instant, w_guard, w_utility, w_lose)


# ---------------------------------------------------------------- standings and risk
@njit(cache=True)
def standing(hunters, h):
    """Hunter ``h``'s points if the game ended now (BB-13.1, BB-13.2 default): Banked + Collected + trophy
    bonus (``H_BONUS``)."""
    return hunters[h, L.H_BANKED] + hunters[h, L.H_COLLECTED] + hunters[h, L.H_BONUS]


@njit(cache=True)
def leader(seat, hunters, table):
    """The other hunter with the most points (the first in seat order among ties)."""
    best, top = -1, -1
    for h in range(table[L.T_HUNTERS]):
        if h != seat and standing(hunters, h) > top:
            best, top = h, standing(hunters, h)
    return best


@njit(cache=True)
def lead(seat, hunters, table):
    """How far ``seat`` is ahead of the best other hunter (negative: behind)."""
    return standing(hunters, seat) - standing(hunters, leader(seat, hunters, table))


@njit(cache=True)
def p_die(health, table, scale, halve):
    """A guess of P(this round's monster roll kills a hunter with ``health``): the roll is read as roughly
    exponential with the die's expected total (``T_MONSTER_MEAN10`` / 10) times ``scale``; a Dream takes
    half (BB-8.3), so it needs twice the roll. The policies do not get the die faces."""
    mean = table[L.T_MONSTER_MEAN10] / 10.0 * scale
    if mean <= 0.0:
        return 0.0
    need = health * 2.0 if halve else health * 1.0
    return math.exp(-need / mean)


@njit(cache=True)
def order_of(table, h):
    """Hunter ``h``'s place in this round's resolution order (0 = first player, then clockwise, BB-7.1)."""
    nh = table[L.T_HUNTERS]
    return (h - table[L.T_FIRST] + nh) % nh


# ---------------------------------------------------------------- what the others are likely to deal
@njit(cache=True)
def kind_damage(seat, hand, opts, n, card, unknown):
    """What ``seat`` knows of card kind ``card``'s damage: the printed damage when an option row shows
    it; 0 for a card in its own hand that the rows leave out (at HOOK_TRANSFORM the rows are the weapons
    in hand, so the rest of the hand is utility); otherwise ``unknown``."""
    i = row_of(opts, n, card)
    if i >= 0:
        return opts[i, L.OPT_DAMAGE] * 1.0
    if hand[seat, card] > 0:
        return 0.0
    return unknown


@njit(cache=True)
def expected_damage(h, seat, hunters, hand, table, opts, n, unknown):
    """The damage hunter ``h`` is likely to deal this round, as ``seat`` sees it: its revealed card once
    picks are public (a Transform, ``seat``'s own played kind at HOOK_TRANSFORM, counts ``unknown``);
    before that, the mean over the distinct kinds in its hand (a player picking among kinds)."""
    played = hunters[h, L.H_PLAYED]
    if played >= 0:
        if played == hunters[seat, L.H_PLAYED]:
            return unknown
        return kind_damage(seat, hand, opts, n, played, unknown)
    kinds, total = 0, 0.0
    for card in range(hand.shape[1]):
        if hand[h, card] > 0:
            kinds += 1
            total += kind_damage(seat, hand, opts, n, card, unknown)
    return total / kinds if kinds > 0 else 0.0


@njit(cache=True)
def others_damage(seat, hunters, hand, table, opts, n, unknown):
    """(before, after): the others' likely damage resolving before and after ``seat`` this round."""
    before, after = 0.0, 0.0
    mine = order_of(table, seat)
    for h in range(table[L.T_HUNTERS]):
        if h == seat:
            continue
        d = expected_damage(h, seat, hunters, hand, table, opts, n, unknown)
        if order_of(table, h) < mine:
            before += d
        else:
            after += d
    return before, after


@njit(cache=True)
def hunter_damage_before(target, seat, hunters, hand, table, opts, n, unknown):
    """The likely damage of the hunters (``seat`` excluded) resolving before ``target``."""
    total = 0.0
    for h in range(table[L.T_HUNTERS]):
        if h != seat and h != target and order_of(table, h) < order_of(table, target):
            total += expected_damage(h, seat, hunters, hand, table, opts, n, unknown)
    return total


@njit(cache=True)
def clash_chance(seat, hand, opts, n, card):
    """P(another hunter also plays clash card ``card``, BB-7.4), each picking uniformly among its kinds."""
    miss = 1.0
    for h in range(hand.shape[0]):
        if h != seat and hand[h, card] > 0:
            kinds = 0
            for c in range(hand.shape[1]):
                kinds += hand[h, c] > 0
            miss *= 1.0 - 1.0 / kinds
    return 1.0 - miss


@njit(cache=True)
def kill_chance(surplus, spread):
    """A smooth P(kill) from the expected damage surplus over the echoes left (0.5 at a surplus of 0)."""
    return 1.0 / (1.0 + math.exp(-(surplus + 0.5) / max(spread, 0.05)))


# ---------------------------------------------------------------- the value of playing a card (HOOK_PLAY)
@njit(cache=True)
def hit_value(d, instant, before, after, table, w_trophy, spread):
    """(echoes, trophy chance) of dealing ``d`` after ``before`` and before ``after`` likely damage: the echoes
    left when it lands (BB-9.2), and the chance of damaging in the killing round (BB-9.4)."""
    echoes = table[L.T_ECHOES]
    if instant:  # Instants land in step 3, before every weapon of step 5 (BB-7)
        after += before
        before = 0.0
    left = echoes - before
    if d <= 0 or left <= 0:
        return 0.0, 0.0
    gain = min(d * 1.0, left)
    killp = kill_chance(before + d + after - echoes, spread)
    return gain, killp * w_trophy


@njit(cache=True, inline="always")
def card_value(opts, i, seat, hunters, hand, used, table, n, w, before, after, die_now):
    """Expected worth of playing row ``i`` this round, from the row's columns alone (a Transform: see
    :func:`play_value`).

    ``w`` = (w_trophy, spread, risk_scale, w_loss, w_bank, w_heal, w_recover, w_upgrade, unknown,
    w_cancel): the trophy's worth in echoes, the kill-chance spread, the roll-risk scale
    (:func:`p_die`), the weight of echoes lost at death, of banking, of each health point healed,
    of each used card recovered, of an upgrade, the damage guessed for unknown cards, and the
    worth of cancelling a melee card; ``before``, ``after``: :func:`others_damage`, and ``die_now``: :func:`p_die`
    at the seat's health (the same for every row, so the caller computes them once: :func:`seat_risk`). Inlined
    into :func:`play_value`: a call passes five arrays and the weights, about what the body costs."""
    w_trophy, spread, risk, w_loss, w_bank, w_heal, w_recover, w_upgrade, unknown, w_cancel = w
    health = hunters[seat, L.H_HEALTH]
    collected = hunters[seat, L.H_COLLECTED] * 1.0
    card_type, step = opts[i, L.OPT_TYPE], opts[i, L.OPT_STEP]
    if opts[i, L.OPT_RECOVER] > 0 or (card_type == L.UTILITY and step == L.STEP_DREAM):  # Dream / Insight
        if opts[i, L.OPT_HALVE] > 0:
            die = p_die(health, table, risk, True)
        else:
            die = die_now
        v = w_upgrade
        if opts[i, L.OPT_BANK] > 0:
            v += (1.0 - die) * collected * (w_bank + w_loss * die_now) - die * collected * w_loss
        else:
            v -= die * collected * w_loss
        if opts[i, L.OPT_HEAL] > 0:
            v += w_heal * (L.START_HEALTH - health)
        if opts[i, L.OPT_RECOVER] > 0:
            cards = 0
            for c in range(used.shape[1]):
                cards += used[seat, c]
            v += w_recover * cards
        return v
    if step == L.STEP_TRANSFORM:
        return -1e9
    # weapons and Instant utilities
    instant = step == L.STEP_INSTANT
    health_after = health - opts[i, L.OPT_LOSE] if instant else health
    if opts[i, L.OPT_HEAL] > 0:
        health_after = L.START_HEALTH
    if opts[i, L.OPT_PREVENT] > 0:
        die = 0.0
    elif health_after == health:
        die = die_now
    else:
        die = p_die(health_after, table, risk, False)
    v = 0.0
    if card_type != L.UTILITY:
        gain, trophy = hit_value(opts[i, L.OPT_DAMAGE], instant, before, after, table, w_trophy, spread)
        if opts[i, L.OPT_CLASH] > 0:
            keep = 1.0 - clash_chance(seat, hand, opts, n, opts[i, L.OPT_CARD])
            gain, trophy = gain * keep, trophy * keep
        if instant:
            v += trophy + (1.0 - die) * gain - die * gain * w_loss
        else:
            v += (1.0 - die) * (gain + trophy)
    if opts[i, L.OPT_BANK] > 0:
        v += collected * (w_bank + w_loss * die_now)
        collected = 0.0
    v -= die * collected * w_loss
    if opts[i, L.OPT_HEAL] > 0:
        v += w_heal * (L.START_HEALTH - health)
    if not instant and opts[i, L.OPT_LOSE] > 0:
        v -= w_heal * opts[i, L.OPT_LOSE]
    v += w_cancel * opts[i, L.OPT_CANCEL]
    return v


@njit(cache=True)
def play_value(opts, i, seat, hunters, hand, used, table, n, w, w_transform, before, after, die_now):
    """:func:`card_value`; a Transform is worth the best weapon still in hand (chosen once the step-1 picks
    are seen, BB-6.1) plus ``w_transform`` (that knowledge, less the second card it spends)."""
    if opts[i, L.OPT_STEP] != L.STEP_TRANSFORM:
        return card_value(opts, i, seat, hunters, hand, used, table, n, w, before, after, die_now)
    best = -1e9
    for j in range(n):
        if j != i and is_weapon(opts, j):
            best = max(best, card_value(opts, j, seat, hunters, hand, used, table, n, w, before, after, die_now))
    return best + w_transform


@njit(cache=True)
def seat_risk(seat, hunters, hand, table, opts, n, w):
    """``(before, after, die_now)`` of :func:`card_value` for every row of one HOOK_PLAY: the others' likely
    damage (:func:`others_damage`) and :func:`p_die` at the seat's health."""
    before, after = others_damage(seat, hunters, hand, table, opts, n, w[8])
    return before, after, p_die(hunters[seat, L.H_HEALTH], table, w[2], False)


@njit(cache=True)
def best_play(opts, n, seat, hunters, hand, used, table, w, w_transform):
    """HOOK_PLAY: the row of highest :func:`play_value`."""
    before, after, die_now = seat_risk(seat, hunters, hand, table, opts, n, w)
    best, top = 0, -1e18
    for i in range(n):
        v = play_value(opts, i, seat, hunters, hand, used, table, n, w, w_transform, before, after, die_now)
        if v > top:
            best, top = i, v
    return best


# ---------------------------------------------------------------- the other hooks
@njit(cache=True)
def target_reach(target, seat, hunters, hand, table, opts, n, unknown):
    """``(dt, pre)``: hunter ``target``'s likely damage this round and, if any, the likely damage of the hunters
    (``seat`` excluded) resolving before it (0 otherwise): what :func:`trophy_chance_of` reads of the others,
    the same for every row of a decision, so the caller computes it once."""
    dt = expected_damage(target, seat, hunters, hand, table, opts, n, unknown)
    if dt <= 0.0:
        return dt, 0.0
    return dt, hunter_damage_before(target, seat, hunters, hand, table, opts, n, unknown)


@njit(cache=True)
def trophy_chance_of(target, d, instant, seat, table, reach, spread, others):
    """P(hunter ``target`` damages the monster in the killing round, BB-9.4) if ``seat`` deals ``d``:
    echoes must be left when ``target`` resolves (an earlier kill leaves it nothing, BB-9.2) and the
    round's damage must reach the echoes. 0 if ``target`` is not likely to deal damage. ``reach``:
    :func:`target_reach`, ``others``: the sum of :func:`others_damage` (both computed once by the caller)."""
    dt, pre = reach
    if dt <= 0.0:
        return 0.0
    echoes = table[L.T_ECHOES]
    if instant or order_of(table, seat) < order_of(table, target):
        pre += d
    hits = 1.0 - kill_chance(pre - echoes, spread)
    return hits * kill_chance(others + d - echoes, spread)


@njit(cache=True)
def pick_weapon(seat, hunters, hand, table, opts, n, unknown, w_trophy, spread, deny, w_deny):
    """HOOK_TRANSFORM with the step-1 cards revealed: the weapon worth most in echoes plus trophy chance
    (:func:`hit_value`); with ``deny`` ≥ 0, less ``w_deny`` times the chance it leaves hunter ``deny`` a
    trophy (:func:`trophy_chance_of`)."""
    before, after = others_damage(seat, hunters, hand, table, opts, n, unknown)
    reach = target_reach(deny, seat, hunters, hand, table, opts, n, unknown) if deny >= 0 else (0.0, 0.0)
    best, top = 0, -1e18
    for i in range(n):
        instant = opts[i, L.OPT_STEP] == L.STEP_INSTANT
        d = opts[i, L.OPT_DAMAGE]
        gain, trophy = hit_value(d, instant, before, after, table, w_trophy, spread)
        v = gain + trophy - 0.5 * opts[i, L.OPT_LOSE]
        if deny >= 0:
            v -= w_deny * trophy_chance_of(deny, d, instant, seat, table, reach, spread, before + after)
        if v > top:
            best, top = i, v
    return best


@njit(cache=True)
def cancel_target(seat, hunters, table, opts, n, w_leader):
    """HOOK_CANCEL: the melee card to cancel — the most damage (the biggest threat to the echoes left),
    plus ``w_leader`` times the target's points (``w_leader`` > 0 aims at the leader)."""
    best, top = 0, -1e18
    for i in range(n):
        v = opts[i, L.OPT_DAMAGE] + w_leader * standing(hunters, opts[i, L.OPT_SEAT])
        if v > top:
            best, top = i, v
    return best
