"""The rules of Bloodborne: The Card Game as small step functions over a :class:`State` (rule IDs cited).

``pols`` is a tuple of policy functions, one per listed position and one for a searcher's model
(``layout.POLICY_SLOTS``); ``params`` holds a parameter row per slot.
"""

from __future__ import annotations

import numpy as np

from dsim.games.bloodborne.dice import roll_die
from dsim.games.bloodborne.kernel import layout as L
from dsim.games.bloodborne.kernel.jit import jit
from dsim.games.bloodborne import variants as V
from dsim.rng import next_u64, randint


@jit
def event(s, kind, seat, a, b, c):
    """Append one trace event (no-op in batch play, where the trace has no rows)."""
    k = s.table[L.T_NEV]
    if k < s.trace.shape[0]:
        row = s.trace[k]
        row[L.EV_KIND], row[L.EV_ROUND], row[L.EV_SEAT] = kind, s.table[L.T_ROUND], seat
        row[L.EV_A], row[L.EV_B], row[L.EV_C] = a, b, c
        s.table[L.T_NEV] = k + 1


@jit(inline=True)
def ask(s, pols, params, hook, seat, n):
    """The policy sitting at ``seat`` picks one of ``n`` option rows (a single row needs no policy); under a
    searcher's replay (``s.search``), :func:`searched_answer` answers instead. Inlined: its call to
    :func:`searched_answer` passes the whole state, so LLVM no longer inlined ``ask`` itself, and plain play paid a
    call per decision (mixed table: 371k -> 401k instructions a game)."""
    if n <= 1:
        return 0
    s.table[L.T_NONCE] = np.int32(next_u64(s.prng) >> np.uint64(33))
    p = s.table[L.T_LISTED + seat]  # the listed position of the policy in this seat
    if s.search[L.SR_MODE] != L.SEARCH_OFF:
        k = searched_answer(s, pols, params, hook, seat, n, p)
    else:
        k = pols[p](hook, np.int64(seat), s.public, np.int64(n), params[p])
    if k < 0 or k >= n:
        k = 0
    event(s, L.E_DECISION, seat, hook, s.opts[k, L.OPT_CARD], s.opts[k, L.OPT_SEAT])
    return k


@jit
def searched_answer(s, pols, params, hook, seat, n, p):
    """A decision in a searcher's replay (dsim.search): past the branch every seat plays its model (its own listed
    policy, or for the others the one in ``MODEL_SLOT`` when ``SR_MODEL`` says so); before it, the searcher's
    decisions take the forced prefix, then at decision ``SR_LENGTH`` an advance records the base policy's answer
    (and plays it), a rollout takes its option, and a fair one redraws what the searcher cannot know
    (:func:`forget_unseen`)."""
    q = np.int64(seat)
    if s.search[L.SR_ROLLING] == 1:
        m = L.MODEL_SLOT if s.search[L.SR_MODEL] == 1 and p != s.search[L.SR_LISTED] else p
        return pols[m](hook, q, s.public, np.int64(n), params[m])
    if p != s.search[L.SR_LISTED]:
        return pols[p](hook, q, s.public, np.int64(n), params[p])
    c = s.search[L.SR_COUNT]
    s.search[L.SR_COUNT] = c + 1
    if c == s.search[L.SR_HIDDEN_AT]:
        disturb(s, hook, seat)
    if c < s.search[L.SR_LENGTH]:
        return s.search[L.SR_PREFIX + c]
    if s.search[L.SR_MODE] == L.SEARCH_ADVANCE:
        k = pols[p](hook, q, s.public, np.int64(n), params[p])
        if k < 0 or k >= n:
            k = 0
        if c == s.search[L.SR_LENGTH]:
            s.search[L.SR_ASKED_N], s.search[L.SR_ASKED_HOOK], s.search[L.SR_ASKED_BASE] = n, hook, k
        return k
    s.search[L.SR_ROLLING] = 1
    s.search[L.SR_SEAT] = seat
    if s.search[L.SR_MODE] == L.SEARCH_FAIR:
        forget_unseen(s, np.uint64(s.search[L.SR_KEY]))
        s.search[L.SR_REPICK] = 1 if hook == L.HOOK_PLAY or hook == L.HOOK_TRANSFORM else 0
    return s.search[L.SR_OPTION]


@jit
def disturb(s, hook, seat):
    """Tests of fairness: make the true game another one the searcher cannot tell apart from it: the unseen state
    redrawn from ``SR_HIDDEN_KEY`` and, at a step-1 pick, the secret picks made before the searcher's changed to
    the next card kind in each hand."""
    forget_unseen(s, np.uint64(s.search[L.SR_HIDDEN_KEY]))
    if hook == L.HOOK_PLAY:
        kinds = s.hand.shape[1]
        for h in range(seat):
            for step in range(1, kinds + 1):
                card = (s.scratch[h] + step) % kinds
                if s.hand[h, card] > 0:
                    s.scratch[h] = card
                    break


@jit
def draw_unseen(s, lo, hi, count, at):
    """Put ``count`` of the dungeon cards ``lo .. hi-1`` not yet revealed, drawn at random, at ``s.deck[at:]``."""
    seen_to = min(s.table[L.T_DECK_NEXT], L.DECK_SIZE)
    pool = s.search[L.SR_POOL:]
    u = 0
    for card in range(lo, hi):
        seen = False
        for i in range(seen_to):
            if s.deck[i] == card:
                seen = True
        if not seen:
            pool[u] = card
            u += 1
    for i in range(count):
        j = i + randint(s.rng, u - i)
        pool[i], pool[j] = pool[j], pool[i]
        s.deck[at + i] = pool[i]


@jit
def forget_unseen(s, key):
    """A fair searcher's branch: what no hunter has seen is drawn again, from ``key``'s stream: the dungeon cards
    not yet revealed (which of the unrevealed monsters and bosses lie in the deck, and their order, BB-2.2), the
    upgrade deck's order (BB-2.3), every future die and the policies' own random numbers. Hands, used piles, the
    display, trophies and the Final Boss are public (``policy.py``); this step's secret picks are drawn again by
    the steps themselves (``SR_REPICK``)."""
    s.rng[0], s.rng[1] = key, 0
    s.prng[0], s.prng[1] = key ^ np.uint64(0x5DEECE66D), 0
    at = s.table[L.T_DECK_NEXT]
    if at < L.DECK_SIZE:
        nm, nb = s.search[L.SR_MONSTERS], s.search[L.SR_BOSSES]
        monsters = 0
        for i in range(at, L.DECK_SIZE):
            if s.deck[i] < nm:
                monsters += 1
        draw_unseen(s, 0, nm, monsters, at)
        draw_unseen(s, nm, nm + nb, L.DECK_SIZE - at - monsters, at + monsters)
        for i in range(L.DECK_SIZE - 1, at, -1):
            j = at + randint(s.rng, i - at + 1)
            s.deck[i], s.deck[j] = s.deck[j], s.deck[i]
    top = s.table[L.T_UPDECK_NEXT]
    for i in range(top + 1, s.updeck.shape[0]):  # sorted first, so the redraw ignores the order it replaces
        j = i
        while j > top and s.updeck[j - 1] > s.updeck[j]:
            s.updeck[j - 1], s.updeck[j] = s.updeck[j], s.updeck[j - 1]
            j -= 1
    for i in range(s.updeck.shape[0] - 1, top, -1):
        j = top + randint(s.rng, i - top + 1)
        s.updeck[i], s.updeck[j] = s.updeck[j], s.updeck[i]


@jit(inline=True)
def card_option(s, t, row, card, count):
    """Fill option row ``row`` with what a hunter can read off card ``card``."""
    c = t.cards[card]
    o = s.opts[row]  # every column is written
    o[L.OPT_CARD], o[L.OPT_TYPE], o[L.OPT_STEP], o[L.OPT_DAMAGE] = card, c[L.C_TYPE], c[L.C_STEP], c[L.C_DAMAGE]
    o[L.OPT_COUNT], o[L.OPT_SEAT] = count, -1
    o[L.OPT_HALVE], o[L.OPT_PREVENT], o[L.OPT_CLASH] = c[L.C_HALVE], c[L.C_PREVENT], c[L.C_CLASH]
    o[L.OPT_BANK] = c[L.C_INSTANT_BANK] + c[L.C_DREAM_BANK]
    o[L.OPT_HEAL] = c[L.C_INSTANT_HEAL] + c[L.C_DREAM_HEAL]
    o[L.OPT_CANCEL], o[L.OPT_RECOVER] = c[L.C_CANCEL_MELEE], c[L.C_DREAM_RECOVER]
    o[L.OPT_LOSE] = c[L.C_INSTANT_LOSE] + c[L.C_ATTACK_LOSE]


@jit
def hand_options(s, t, h, weapons_only):
    """One row per card kind in hand (BB-5.1), or per melee/ranged weapon in hand (BB-6.1, BB-6.2)."""
    n = 0
    for card in range(t.cards.shape[0]):
        if s.hand[h, card] > 0 and (not weapons_only or t.cards[card, L.C_TYPE] != L.UTILITY):
            card_option(s, t, n, card, s.hand[h, card])
            n += 1
    return n


@jit
def acting_card(s, h):
    """The card that acts for hunter ``h``: the Transform weapon if any, else the played card (BB-6.3)."""
    if s.hunters[h, L.H_WEAPON] >= 0:
        return s.hunters[h, L.H_WEAPON]
    return s.hunters[h, L.H_PLAYED]


@jit
def seat_at(s, k):
    """The ``k``-th hunter in resolution order: the first player, then clockwise (BB-7.1, BB-9.1)."""
    return (s.table[L.T_FIRST] + k) % s.table[L.T_HUNTERS]


# ---------------------------------------------------------------- setup (BB-2)
@jit
def shuffle_take(s, lo, n, k):
    """``k`` of the ids ``lo .. lo+n-1`` in random order, in ``scratch[0:k]`` (partial Fisher-Yates)."""
    for i in range(n):
        s.scratch[i] = lo + i
    for i in range(k):
        j = i + randint(s.rng, n - i)
        s.scratch[i], s.scratch[j] = s.scratch[j], s.scratch[i]


@jit
def setup(s, t, pols, params, hunters, seating, key):
    """BB-2: a fresh game for ``hunters`` hunters on the stream ``key``; ``seating[h]`` is the listed position
    of the policy in seat ``h``."""
    s.rng[0], s.rng[1] = key, 0
    s.prng[0], s.prng[1] = key ^ np.uint64(0x5DEECE66D), 0
    s.hunters[:] = 0
    s.hand[:] = 0
    s.used[:] = 0
    s.trophies[:] = 0
    forced_n = s.table[L.T_FORCED_N]
    s.table[:] = 0
    s.table[L.T_FORCED_N] = forced_n
    s.table[L.T_HUNTERS] = hunters
    for h in range(hunters):
        s.table[L.T_LISTED + h] = seating[h]
    s.table[L.T_HAND_LIMIT] = s.variants[V.V_HAND_LIMIT]
    s.table[L.T_RESERVE] = L.FINITE_POOL if s.variants[V.V_ECHO_POOL] == 1 else L.UNLIMITED_POOL  # BB-1.2, BB-2.6
    nm, nb, nf = t.sizes[L.Z_MONSTERS], t.sizes[L.Z_BOSSES], t.sizes[L.Z_FINALS]
    s.table[L.T_FINAL] = nm + nb + randint(s.rng, nf)  # BB-2.1: a random Final Boss
    shuffle_take(s, 0, nm, L.MONSTERS_DRAWN)  # BB-2.2: 7 of the monsters ...
    for i in range(L.MONSTERS_DRAWN):
        s.deck[i] = s.scratch[i]
    shuffle_take(s, nm, nb, L.BOSSES_DRAWN)  # ... and 3 of the bosses, shuffled together
    for i in range(L.BOSSES_DRAWN):
        s.deck[L.MONSTERS_DRAWN + i] = s.scratch[i]
    for i in range(L.DECK_SIZE - 1, 0, -1):
        j = randint(s.rng, i + 1)
        s.deck[i], s.deck[j] = s.deck[j], s.deck[i]
    nu = t.sizes[L.Z_UPGRADES]
    for i in range(nu):
        s.updeck[i] = t.upgrades[i]
    for i in range(nu - 1, 0, -1):  # BB-2.3: shuffle the upgrade deck
        j = randint(s.rng, i + 1)
        s.updeck[i], s.updeck[j] = s.updeck[j], s.updeck[i]
    s.display[:] = -1
    refill_display(s)  # BB-2.3: one Available Upgrade per hunter
    for h in range(hunters):
        for card in range(t.cards.shape[0]):  # BB-2.5: one of each starter card
            if t.cards[card, L.C_STARTER] == 1:
                s.hand[h, card] = t.cards[card, L.C_COPIES]
                s.hunters[h, L.H_OWNED] += t.cards[card, L.C_COPIES]
        s.hunters[h, L.H_HEALTH] = L.START_HEALTH  # BB-2.7
        s.hunters[h, L.H_PLAYED] = -1
        s.hunters[h, L.H_WEAPON] = -1
    s.table[L.T_FIRST] = randint(s.rng, hunters)  # BB-2.8
    s.table[L.T_START_FIRST] = s.table[L.T_FIRST]
    s.table[L.T_MONSTER] = -1
    event(s, L.E_SETUP, s.table[L.T_FIRST], s.table[L.T_FINAL], hunters, 0)
    next_monster(s, t, pols, params)  # BB-2.9


@jit
def refill_display(s):
    """Available Upgrades back to one per hunter from the upgrade deck, while it lasts (BB-2.3, BB-12.2)."""
    for slot in range(s.table[L.T_HUNTERS]):
        if s.display[slot] < 0 and s.table[L.T_UPDECK_NEXT] < s.updeck.shape[0]:
            s.display[slot] = s.updeck[s.table[L.T_UPDECK_NEXT]]
            s.table[L.T_UPDECK_NEXT] += 1


@jit
def reveal(s, t, pols, params, card):
    """BB-3.1 / BB-12.3: put echoes on the card (printed health +1 with 4, +2 with 5 hunters), fire on-reveal."""
    n = s.table[L.T_HUNTERS]
    health = t.dungeon[card, L.DG_HEALTH] + (n - 3)
    if t.dungeon[card, L.DG_CLASS] == L.FINAL_BOSS:
        health = max(1, health + s.variants[V.V_FINAL_BOSS_HEALTH])  # house rule
    echoes = min(health, s.table[L.T_RESERVE])  # BB-1.2 finite reading: only what is left
    s.table[L.T_RESERVE] -= echoes
    s.table[L.T_MONSTER], s.table[L.T_ECHOES] = card, echoes
    s.table[L.T_MONSTER_CLASS] = t.dungeon[card, L.DG_CLASS]
    s.table[L.T_MONSTER_DIE] = t.dungeon[card, L.DG_DIE]
    s.table[L.T_MONSTER_TROPHY] = t.dungeon[card, L.DG_TROPHY]
    s.table[L.T_MONSTER_MEAN10] = t.die_mean10[t.dungeon[card, L.DG_DIE]]
    event(s, L.E_REVEAL, -1, card, echoes, t.dungeon[card, L.DG_CLASS])
    amount = t.dungeon[card, L.DG_REVEAL_DAMAGE]  # BB-3.4 on reveal
    if amount > 0:
        for h in range(n):
            wound(s, h, amount)
        for k in range(n):  # GAP: a hunter killed on reveal revives at once with an upgrade (BB-8.7, BB-8.8)
            h = seat_at(s, k)
            if s.hunters[h, L.H_DEAD] == 1 and s.hunters[h, L.H_HEALTH] <= 0:  # killed by this reveal only
                s.hunters[h, L.H_DEAD] = 0
                s.hunters[h, L.H_HEALTH] = L.START_HEALTH
                event(s, L.E_REVIVE, h, 0, 0, 0)
                upgrade(s, t, pols, params, h, 1)


@jit
def next_monster(s, t, pols, params):
    """BB-12.3: the next dungeon card, or the Final Boss once the 10 are gone."""
    while s.table[L.T_MONSTER] < 0 and s.table[L.T_OVER] == L.OVER_RUNNING:
        if s.table[L.T_DECK_NEXT] < L.DECK_SIZE:
            card = s.deck[s.table[L.T_DECK_NEXT]]
            s.table[L.T_DECK_NEXT] += 1
        elif s.table[L.T_DECK_NEXT] == L.DECK_SIZE:
            card = s.table[L.T_FINAL]
            s.table[L.T_DECK_NEXT] += 1
        else:
            return
        reveal(s, t, pols, params, card)
        if s.table[L.T_ECHOES] == 0 and s.table[L.T_MONSTER] >= 0:  # finite pool ran dry: nothing to fight
            kill(s, t, 0)


# ---------------------------------------------------------------- hunters' health (BB-8.5, BB-8.6)
@jit
def wound(s, h, amount):
    """Hunter ``h`` loses ``amount`` health; at 0 or less the hunter dies (BB-8.5) and loses every
    Collected echo to the reserve (BB-8.6). Health never goes below 0. A hunter who is dead right now takes
    no more damage; one who died earlier this round and is back at 8 (step 7, BB-11.6) is wounded again
    (H_DEAD still says "died this round", so it alone does not mean "dead now")."""
    if amount <= 0 or (s.hunters[h, L.H_DEAD] == 1 and s.hunters[h, L.H_HEALTH] <= 0):
        return
    health = s.hunters[h, L.H_HEALTH] - amount
    s.hunters[h, L.H_HEALTH] = max(health, 0)
    event(s, L.E_WOUND, h, amount, s.hunters[h, L.H_HEALTH], 0)
    if health <= 0:
        lost = s.hunters[h, L.H_COLLECTED]
        s.table[L.T_RESERVE] += lost
        s.hunters[h, L.H_COLLECTED] = 0
        s.hunters[h, L.H_DEAD] = 1
        s.hunters[h, L.H_DEATHS] += 1
        event(s, L.E_DEATH, h, lost, 0, 0)


# ---------------------------------------------------------------- step 1 and 2 (BB-5, BB-6)
@jit(inline=True)
def choose_cards(s, t, pols, params):
    """BB-5.1: every hunter secretly picks one card; the picks are revealed together (BB-5.3: exactly one)."""
    n = s.table[L.T_HUNTERS]
    for h in range(n):
        rows = hand_options(s, t, h, False)
        s.scratch[h] = -1 if rows == 0 else s.opts[ask(s, pols, params, L.HOOK_PLAY, h, rows), L.OPT_CARD]
    if s.search[L.SR_REPICK] == 1:  # a fair searcher's branch: the picks made before its own are unseen, drawn again
        s.search[L.SR_REPICK] = 0
        for h in range(s.search[L.SR_SEAT]):
            rows = hand_options(s, t, h, False)
            s.scratch[h] = -1 if rows == 0 else s.opts[ask(s, pols, params, L.HOOK_PLAY, h, rows), L.OPT_CARD]
    for h in range(n):  # the reveal: only now do the picks enter the shared state
        card = s.scratch[h]
        s.hunters[h, L.H_PLAYED] = card
        if card >= 0:
            s.hand[h, card] -= 1
            event(s, L.E_PLAY, h, card, 0, 0)


@jit(inline=True)
def transform(s, t, pols, params):
    """BB-6.1/6.2: each Transform hunter secretly picks a melee or ranged weapon from hand, revealed together;
    with none in hand the Transform does nothing (BB-6.4)."""
    n = s.table[L.T_HUNTERS]
    for h in range(n):
        s.scratch[h] = -1
        card = s.hunters[h, L.H_PLAYED]
        if card >= 0 and t.cards[card, L.C_CHOOSE_WEAPON] > 0:
            rows = hand_options(s, t, h, True)
            if rows > 0:
                s.scratch[h] = s.opts[ask(s, pols, params, L.HOOK_TRANSFORM, h, rows), L.OPT_CARD]
    if s.search[L.SR_REPICK] == 1:  # as in choose_cards: the weapons picked before the searcher's, drawn again
        s.search[L.SR_REPICK] = 0
        for h in range(s.search[L.SR_SEAT]):
            card = s.hunters[h, L.H_PLAYED]
            if card >= 0 and t.cards[card, L.C_CHOOSE_WEAPON] > 0:
                rows = hand_options(s, t, h, True)
                if rows > 0:
                    s.scratch[h] = s.opts[ask(s, pols, params, L.HOOK_TRANSFORM, h, rows), L.OPT_CARD]
    for h in range(n):
        weapon = s.scratch[h]
        if weapon >= 0:
            s.hunters[h, L.H_WEAPON] = weapon
            s.hand[h, weapon] -= 1
            event(s, L.E_TRANSFORM, h, weapon, 0, 0)


# ---------------------------------------------------------------- damage to the monster (BB-7.2, BB-9.2)
@jit
def card_damage(s, t, card, instant):
    """A card's damage this round: printed, plus the Instant bonuses, capped by the current card's ability."""
    damage = t.cards[card, L.C_DAMAGE]
    m = s.table[L.T_MONSTER]
    if instant:
        damage += t.dungeon[s.table[L.T_FINAL], L.DG_GAME_INSTANT_BONUS] + t.dungeon[m, L.DG_INSTANT_BONUS]
    damage = max(damage, 0)
    if t.dungeon[m, L.DG_CAP] >= 0 and t.dungeon[m, L.DG_CAP_TYPE] == t.cards[card, L.C_TYPE]:
        damage = min(damage, t.dungeon[m, L.DG_CAP])
    return damage


@jit
def take_echoes(s, h, damage):
    """BB-9.2 / BB-7.2: damage takes echoes off the monster into Collected, capped by what is left."""
    taken = min(damage, s.table[L.T_ECHOES])
    s.table[L.T_ECHOES] -= taken
    s.hunters[h, L.H_COLLECTED] += taken
    s.hunters[h, L.H_DEALT] += taken
    s.hunters[h, L.H_HIT] = 1
    return taken


@jit
def kill(s, t, trophies_allowed):
    """BB-9.3: the last echo is taken, the card leaves the game. BB-9.4: each hunter who dealt damage this
    round gains trophies on its track (BB-13.5: the Final Boss too, times its multiplier)."""
    m = s.table[L.T_MONSTER]
    s.table[L.T_KILLED] += 1
    event(s, L.E_KILL, -1, m, 0, 0)
    count = s.variants[V.V_TROPHIES_PER_KILL]
    if count == 0:
        count = t.dungeon[m, L.DG_TROPHIES]
    if t.dungeon[m, L.DG_CLASS] == L.FINAL_BOSS:
        count *= t.dungeon[s.table[L.T_FINAL], L.DG_GAME_TROPHY_MULT]
        s.table[L.T_OVER] = L.OVER_FINAL_BOSS_DEAD
    if trophies_allowed:
        track = t.dungeon[m, L.DG_TROPHY]
        for h in range(s.table[L.T_HUNTERS]):
            dealt = s.hunters[h, L.H_DEALT] > 0
            if dealt or (s.variants[V.V_ZERO_DAMAGE_TROPHY] == 1 and s.hunters[h, L.H_HIT] == 1):
                s.trophies[h, track] += count
                s.hunters[h, L.H_TROPHIES] += count
                s.hunters[h, L.H_BONUS] = trophy_points(s, t, h)
                event(s, L.E_TROPHY, h, track, count, 0)
    s.table[L.T_MONSTER] = -1


# ---------------------------------------------------------------- step 3 (BB-7)
@jit
def clashes(s, t, k, card):
    """BB-7.4: is the clash card ``card`` of the ``k``-th hunter in order cancelled by other copies? Reading
    ``transform_cancels``: only by a copy chosen at the same moment or later (through Transform, seed L69)."""
    rule = s.variants[V.V_PISTOL_CLASH]
    if t.cards[card, L.C_CLASH] == 0 or rule == V.CLASH_NONE:
        return False
    n = s.table[L.T_HUNTERS]
    mine_later = s.hunters[seat_at(s, k), L.H_WEAPON] >= 0
    for j in range(n):
        other = seat_at(s, j)
        if j != k and acting_card(s, other) == card:
            if rule == V.CLASH_MUTUAL or s.hunters[other, L.H_WEAPON] >= 0 or not mine_later:
                return True
    return False


@jit
def cancel_melee(s, t, pols, params, h, amount):
    """cancel_melee (seed L44): cancel up to ``amount`` melee cards played by other hunters (policy picks)."""
    for _ in range(amount):
        n = 0
        for other in range(s.table[L.T_HUNTERS]):
            card = acting_card(s, other)
            if other != h and card >= 0 and t.cards[card, L.C_TYPE] == L.MELEE and s.hunters[other, L.H_CANCELLED] == 0:
                card_option(s, t, n, card, 1)
                s.opts[n, L.OPT_SEAT] = other
                n += 1
        if n == 0:
            return
        target = s.opts[ask(s, pols, params, L.HOOK_CANCEL, h, n), L.OPT_SEAT]
        s.hunters[target, L.H_CANCELLED] = 1
        event(s, L.E_CANCEL, h, target, 0, 0)


@jit(inline=True)
def resolve_instants(s, t, pols, params):
    """BB-7.1: Instant cards one hunter at a time from the first player clockwise. Returns True if the
    monster died (BB-7.5: it is removed and steps 4-6 are skipped). The instants after the killing one still
    resolve (BB-4.3 and BB-7.5 skip steps 4-6, not the rest of step 3): a Blood Vial still heals, a bank still
    banks, a damaging instant takes 0 echoes (BB-9.2 "with none left the hunter gets 0"); the kill and its
    trophies follow once every instant has resolved, so BB-9.4's zero-damage variant sees them all."""
    n = s.table[L.T_HUNTERS]
    for k in range(n):
        h = seat_at(s, k)
        card = acting_card(s, h)
        if card < 0 or t.cards[card, L.C_STEP] != L.STEP_INSTANT:
            continue
        c = t.cards[card]
        if c[L.C_CANCEL_MELEE] > 0:
            cancel_melee(s, t, pols, params, h, c[L.C_CANCEL_MELEE])
        if c[L.C_INSTANT_HEAL] > 0:
            s.hunters[h, L.H_HEALTH] = L.START_HEALTH
            event(s, L.E_HEAL, h, 0, 0, 0)
        if c[L.C_INSTANT_BANK] > 0:
            bank(s, h, False)
        if c[L.C_TYPE] != L.UTILITY:
            if clashes(s, t, k, card):
                event(s, L.E_CLASH, h, card, 0, 0)
            else:
                taken = take_echoes(s, h, card_damage(s, t, card, True))  # BB-7.2
                event(s, L.E_INSTANT, h, card, taken, s.table[L.T_ECHOES])
        if c[L.C_INSTANT_LOSE] > 0:
            event(s, L.E_LOSE_HEALTH, h, c[L.C_INSTANT_LOSE], 0, 0)
            wound(s, h, c[L.C_INSTANT_LOSE])
    if s.table[L.T_ECHOES] == 0:  # it had echoes at the start of the round (next_monster), so a hunter took them
        kill(s, t, s.variants[V.V_INSTANT_KILL_TROPHIES] == 0)  # BB-7.5
        return True
    return False


# ---------------------------------------------------------------- step 4 (BB-8)
@jit
def roll_monster(s, t):
    """BB-8.1/8.2: one roll of the current card's die, combo faces rolling again; forced faces first."""
    die = s.table[L.T_MONSTER_DIE]
    if s.table[L.T_FORCED_NEXT] >= s.table[L.T_FORCED_N]:
        return roll_die(t.die_values[die], t.die_combo[die], s.rng)
    total = 0
    while True:
        face = s.forced[s.table[L.T_FORCED_NEXT]]
        s.table[L.T_FORCED_NEXT] += 1
        total += t.die_values[die, face]
        if not t.die_combo[die, face]:
            return total
        if s.table[L.T_FORCED_NEXT] >= s.table[L.T_FORCED_N]:
            return total + roll_die(t.die_values[die], t.die_combo[die], s.rng)


@jit(inline=True)
def monster_attack(s, t, rolled):
    """BB-8.1: the one shared roll (plus attack bonuses, at least 0) hits every hunter; BB-8.3 a Dream hunter
    takes half rounded down; BB-8.4 a protecting card takes none; BB-8.5/8.6 death."""
    m = s.table[L.T_MONSTER]
    final = s.table[L.T_FINAL]
    total = max(0, rolled + t.dungeon[final, L.DG_GAME_ATTACK_BONUS] + t.dungeon[m, L.DG_ATTACK_BONUS])
    s.table[L.T_ROLL] = total
    event(s, L.E_ROLL, -1, rolled, total, 0)
    no_halve = t.dungeon[final, L.DG_GAME_NO_HALVE] + t.dungeon[m, L.DG_NO_HALVE] > 0
    for h in range(s.table[L.T_HUNTERS]):
        card = acting_card(s, h)
        damage = total
        if card >= 0:
            if t.cards[card, L.C_PREVENT] > 0:
                damage = 0
            elif t.cards[card, L.C_HALVE] > 0 and not no_halve:
                damage = total // 2
        wound(s, h, damage)


# ---------------------------------------------------------------- step 5 (BB-9)
@jit(inline=True)
def hunters_attack(s, t):
    """BB-9.1: from the first player clockwise, each living hunter with a weapon that resolves in step 5,
    not cancelled and not already damaging with an Instant (BB-7.3), takes echoes = its damage (BB-9.2).
    Returns True on a kill (BB-9.3). Hunters after the one who took the last echo still attack and get 0
    (BB-9.2 "with none left the hunter gets 0"; a card's attack cost is paid); the kill and its trophies
    follow the last attack, so BB-9.4's zero-damage variant can see who attacked for nothing."""
    n = s.table[L.T_HUNTERS]
    for k in range(n):
        h = seat_at(s, k)
        card = acting_card(s, h)
        if card < 0 or s.hunters[h, L.H_DEAD] == 1 or s.hunters[h, L.H_CANCELLED] == 1:
            continue
        if t.cards[card, L.C_STEP] != L.STEP_HUNTER_ATTACK or t.cards[card, L.C_TYPE] == L.UTILITY:
            continue
        if s.hunters[h, L.H_DEALT] > 0:
            continue  # BB-7.3
        taken = take_echoes(s, h, card_damage(s, t, card, False))
        event(s, L.E_ATTACK, h, card, taken, s.table[L.T_ECHOES])
        if t.cards[card, L.C_ATTACK_LOSE] > 0:
            event(s, L.E_LOSE_HEALTH, h, t.cards[card, L.C_ATTACK_LOSE], 0, 0)
            wound(s, h, t.cards[card, L.C_ATTACK_LOSE])
    if s.table[L.T_ECHOES] == 0:
        kill(s, t, True)
        return True
    return False


# ---------------------------------------------------------------- step 6 (BB-10)
@jit(inline=True)
def escape(s, t):
    """BB-10.1: a surviving non-boss monster escapes, no trophies; BB-10.2 its on-escape ability (and the
    Final Boss's whole-game escape damage); BB-10.3 its echoes go back to the reserve; BB-10.4 bosses stay."""
    m = s.table[L.T_MONSTER]
    if m < 0 or t.dungeon[m, L.DG_CLASS] != L.MONSTER:
        return
    left = s.table[L.T_ECHOES]
    s.table[L.T_RESERVE] += left
    s.table[L.T_ECHOES] = 0
    s.table[L.T_ESCAPED] += 1
    s.table[L.T_MONSTER] = -1
    event(s, L.E_ESCAPE, -1, m, left, 0)
    amount = t.dungeon[m, L.DG_ESCAPE_DAMAGE] + t.dungeon[s.table[L.T_FINAL], L.DG_GAME_ESCAPE_DAMAGE]
    for h in range(s.table[L.T_HUNTERS]):
        wound(s, h, amount)


# ---------------------------------------------------------------- step 7 (BB-11)
@jit
def bank(s, h, in_dream):
    """Collected echoes to Banked (BB-11.1 step 1 in the Dream; an Instant's bank in step 3, BB-3.8)."""
    amount = s.hunters[h, L.H_COLLECTED]
    s.hunters[h, L.H_BANKED] += amount
    s.hunters[h, L.H_COLLECTED] = 0
    event(s, L.E_BANK, h, amount, s.hunters[h, L.H_BANKED], 1 if in_dream else 0)


@jit
def recover(s, h, with_played):
    """The used pile back to hand (BB-11.1 step 2), this round's Dream card included when ``with_played``."""
    cards = 0
    for card in range(s.hand.shape[1]):
        cards += s.used[h, card]
        s.hand[h, card] += s.used[h, card]
        s.used[h, card] = 0
    if with_played and s.hunters[h, L.H_PLAYED] >= 0:
        s.hand[h, s.hunters[h, L.H_PLAYED]] += 1
        s.hunters[h, L.H_PLAYED] = -1
        cards += 1
    event(s, L.E_RECOVER, h, cards, 0, 0)


@jit(inline=True)
def take_upgrades(s, t, pols, params, h, count):
    """Take ``count`` Available Upgrades into hand, the policy choosing (BB-11.1 step 4); BB-11.8 variant:
    each costs ``upgrade_cost`` Banked echoes. Returns how many were taken."""
    cost = s.variants[V.V_UPGRADE_COST]
    for taken in range(count):
        if s.hunters[h, L.H_BANKED] < cost:
            return taken
        n = 0
        for slot in range(s.display.shape[0]):
            if s.display[slot] >= 0:
                card_option(s, t, n, s.display[slot], 1)
                s.opts[n, L.OPT_SEAT] = slot
                n += 1
        if n == 0:
            return taken
        slot = s.opts[ask(s, pols, params, L.HOOK_UPGRADE, h, n), L.OPT_SEAT]
        card = s.display[slot]
        s.display[slot] = -1
        s.hand[h, card] += 1
        s.hunters[h, L.H_OWNED] += 1
        s.hunters[h, L.H_UPGRADES] += 1
        s.hunters[h, L.H_BANKED] -= cost
        s.table[L.T_RESERVE] += cost
        event(s, L.E_UPGRADE, h, card, 0, 0)
    return count


@jit
def upgrade(s, t, pols, params, h, count):
    """Hunter ``h`` is due ``count`` upgrades: take them, then the hand limit (BB-11.7) if one was taken (reading
    ``upgrade_taken``) or in any case (reading ``upgrade_due``)."""
    if take_upgrades(s, t, pols, params, h, count) > 0 or s.variants[V.V_HAND_LIMIT_WHEN] == 1:
        hand_limit(s, t, pols, params, h)


@jit(inline=True)
def discard_options(s, t, h):
    """The cards hunter ``h`` may discard at the hand limit: any in hand but the last card that recovers the
    used pile (BB-5.3 [GAP]: "the hand can never be empty, because Hunter's Dream returns the used pile";
    discarding the only Dream would empty the hand for good)."""
    recovering = 0
    for card in range(t.cards.shape[0]):
        if t.cards[card, L.C_DREAM_RECOVER] > 0:
            recovering += s.hand[h, card] + s.used[h, card]
    n = 0
    for card in range(t.cards.shape[0]):
        if s.hand[h, card] > 0 and not (recovering == 1 and t.cards[card, L.C_DREAM_RECOVER] > 0):
            card_option(s, t, n, card, s.hand[h, card])
            n += 1
    return n


@jit(inline=True)
def hand_limit(s, t, pols, params, h):
    """BB-11.7: above the hand limit, discard cards of the policy's choice down to it (removed from the game)."""
    while s.hand[h].sum() > s.table[L.T_HAND_LIMIT]:
        rows = discard_options(s, t, h)
        card = s.opts[ask(s, pols, params, L.HOOK_DISCARD, h, rows), L.OPT_CARD]
        s.hand[h, card] -= 1
        s.hunters[h, L.H_OWNED] -= 1
        s.hunters[h, L.H_DISCARDED] += 1
        event(s, L.E_DISCARD, h, card, 0, 0)


@jit(inline=True)
def dream(s, t, pols, params):
    """BB-11: Dream hunters bank (not if dead, BB-11.4), recover, heal, upgrade (order BB-11.2); the dead
    heal to 8 (BB-11.6, BB-8.8) and take one upgrade (BB-11.5: one in all with a Hunter's Dream, by default;
    the Dream is the card that recovers the used pile, BB-11.3 — another step-7 upgrade card, e.g. one giving
    an "extra" upgrade, adds to the one for dying); upgrades are picked from the first player clockwise; then
    the hand limit (BB-11.7)."""
    n = s.table[L.T_HUNTERS]
    for k in range(n):
        h = seat_at(s, k)
        card = acting_card(s, h)
        dead = s.hunters[h, L.H_DEAD] == 1
        ups = 0
        hunters_dream = False
        if card >= 0 and t.cards[card, L.C_STEP] == L.STEP_DREAM:
            c = t.cards[card]
            if c[L.C_DREAM_BANK] > 0 and not dead:
                bank(s, h, True)
            if c[L.C_DREAM_RECOVER] > 0:
                recover(s, h, True)
            if c[L.C_DREAM_HEAL] > 0 and s.variants[V.V_DREAM_HEALS] == 0:
                s.hunters[h, L.H_HEALTH] = L.START_HEALTH
                event(s, L.E_HEAL, h, 1, 0, 0)
            ups = c[L.C_DREAM_UPGRADES]
            hunters_dream = c[L.C_DREAM_RECOVER] > 0
        if dead:
            if s.variants[V.V_DEAD_RECOVER_USED] == 1 and s.hunters[h, L.H_PLAYED] >= 0:
                recover(s, h, False)
            s.hunters[h, L.H_HEALTH] = L.START_HEALTH
            event(s, L.E_REVIVE, h, 0, 0, 0)
            if not hunters_dream or s.variants[V.V_DEAD_DREAM_UPGRADES] == 1:  # BB-11.5
                ups += 1
        s.scratch[h] = ups
    for k in range(n):
        h = seat_at(s, k)
        if s.scratch[h] > 0:
            upgrade(s, t, pols, params, h, s.scratch[h])


# ---------------------------------------------------------------- step 8 (BB-12)
@jit(inline=True)
def end_round(s, t, pols, params):
    """BB-12.1 played cards to the used pile; BB-12.2 refill the display; BB-12.5 the game ends with the
    Final Boss; BB-12.3 next monster (a surviving boss stays, BB-9.5); BB-12.4 pass the First Player token."""
    n = s.table[L.T_HUNTERS]
    for h in range(n):
        for col in (L.H_PLAYED, L.H_WEAPON):
            card = s.hunters[h, col]
            if card >= 0:
                s.used[h, card] += 1
                s.hunters[h, col] = -1
    if s.variants[V.V_DISPLAY_REFILL] == 0:
        refill_display(s)
    if s.table[L.T_OVER] != L.OVER_RUNNING:
        return
    step = 1 if s.variants[V.V_FIRST_PASS] == 0 else n - 1
    s.table[L.T_FIRST] = (s.table[L.T_FIRST] + step) % n
    event(s, L.E_FIRST, s.table[L.T_FIRST], 0, 0, 0)
    next_monster(s, t, pols, params)


@jit
def play_round(s, t, pols, params):
    """BB-4.1: the eight steps of one round (BB-4.3: an Instant kill skips steps 4-6)."""
    s.table[L.T_ROUND] += 1
    for h in range(s.table[L.T_HUNTERS]):
        row = s.hunters[h]
        row[L.H_PLAYED], row[L.H_WEAPON] = -1, -1
        row[L.H_DEALT], row[L.H_HIT], row[L.H_DEAD], row[L.H_CANCELLED] = 0, 0, 0, 0
    choose_cards(s, t, pols, params)        # 1
    transform(s, t, pols, params)           # 2
    if not resolve_instants(s, t, pols, params):  # 3
        monster_attack(s, t, roll_monster(s, t))  # 4
        if not hunters_attack(s, t):        # 5
            escape(s, t)                    # 6
    dream(s, t, pols, params)               # 7
    end_round(s, t, pols, params)           # 8
    if s.table[L.T_OVER] == L.OVER_RUNNING and s.table[L.T_ROUND] >= s.variants[V.V_MAX_ROUNDS]:
        s.table[L.T_OVER] = L.OVER_TIMEOUT


# ---------------------------------------------------------------- scoring (BB-13)
@jit
def trophy_points(s, t, h):
    """BB-13.3: what hunter ``h``'s trophies are worth, track by track."""
    total = 0
    for track in range(s.trophies.shape[1]):
        total += t.bonus[track, min(s.trophies[h, track], L.MAX_TROPHIES)]
    return total


@jit
def score(s, t, h):
    """BB-13.1: echoes (BB-13.2: Banked + Collected by default) plus the trophy bonuses (BB-13.3)."""
    total = s.hunters[h, L.H_BANKED] + trophy_points(s, t, h)
    if s.variants[V.V_SCORE_COLLECTED] == 0:
        total += s.hunters[h, L.H_COLLECTED]
    return total


@jit
def finish(s, t, out):
    """BB-13: scores, the winner (BB-13.4 tie-break: more Banked, else shared) and the outcome row; a game the
    ``max_rounds`` cap cut off is scored but won by nobody (it never reached BB-4.2's end)."""
    n = s.table[L.T_HUNTERS]
    out[:] = 0
    best = -1
    for h in range(n):
        s.scratch[h] = score(s, t, h)
        best = max(best, s.scratch[h])
    top_banked = -1
    for h in range(n):
        if s.scratch[h] == best:
            top_banked = max(top_banked, s.hunters[h, L.H_BANKED])
    winners, winner = 0, -1
    finished = s.table[L.T_OVER] != L.OVER_TIMEOUT  # a game cut off by the round cap has no winner
    for h in range(n):
        win = s.scratch[h] == best and finished
        if win and s.variants[V.V_TIE_BREAK] == 0:
            win = s.hunters[h, L.H_BANKED] == top_banked
        if win:
            winners += 1
            winner = h
        base = L.OUT_SEAT + h
        out[base + L.S_SCORE * L.MAX_HUNTERS] = s.scratch[h]
        out[base + L.S_WIN * L.MAX_HUNTERS] = win
        out[base + L.S_BANKED * L.MAX_HUNTERS] = s.hunters[h, L.H_BANKED]
        out[base + L.S_COLLECTED * L.MAX_HUNTERS] = s.hunters[h, L.H_COLLECTED]
        out[base + L.S_TROPHIES * L.MAX_HUNTERS] = s.trophies[h].sum()
        out[base + L.S_DEATHS * L.MAX_HUNTERS] = s.hunters[h, L.H_DEATHS]
        out[base + L.S_LISTED * L.MAX_HUNTERS] = s.table[L.T_LISTED + h]
        event(s, L.E_SCORE, h, s.scratch[h], s.hunters[h, L.H_BANKED], win)
    out[L.OUT_WINNER] = winner if winners == 1 else -1
    out[L.OUT_ROUNDS], out[L.OUT_OVER] = s.table[L.T_ROUND], s.table[L.T_OVER]
    out[L.OUT_KILLED], out[L.OUT_ESCAPED] = s.table[L.T_KILLED], s.table[L.T_ESCAPED]
    out[L.OUT_FIRST], out[L.OUT_FINAL] = s.table[L.T_START_FIRST], s.table[L.T_FINAL]
    event(s, L.E_END, out[L.OUT_WINNER], s.table[L.T_OVER], 0, 0)


@jit
def play_game(s, t, pols, params, hunters, seating, key, out):
    """One whole game (BB-2 setup, rounds until the Final Boss dies, BB-4.2, then BB-13)."""
    setup(s, t, pols, params, hunters, seating, key)
    while s.table[L.T_OVER] == L.OVER_RUNNING:
        play_round(s, t, pols, params)
    finish(s, t, out)
