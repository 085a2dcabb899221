"""The rules of Dark Maiden as small step functions over a :class:`~.state.State` (rule IDs cited).

``pol`` is the team's policy function (every hero asks it), ``params`` its parameter vector. The kernel asks
the policy at every decision the rules leave to players (``layout.HOOK_*``) and obeys its answer.
"""

from __future__ import annotations

import numpy as np

from dsim.games.dark_maiden import variants as V
from dsim.games.dark_maiden.kernel import layout as L
from dsim.games.dark_maiden.kernel.jit import jit
from dsim.rng import mix64, next_u64, randint


# ---------------------------------------------------------------- plumbing
@jit(inline=True)
def event(s, kind, seat, a, b, c):
    """Append one trace event (no-op in batch play, where the trace has no rows)."""
    k = s.table[L.T_NEV]
    if k < s.trace.shape[0]:
        row = s.trace[k]
        row[L.EV_KIND], row[L.EV_TURN], row[L.EV_SEAT] = kind, s.table[L.T_TURN], seat
        row[L.EV_A], row[L.EV_B], row[L.EV_C] = a, b, c
        s.table[L.T_NEV] = k + 1


@jit(inline=True)
def d6(s):
    """One d6: the next forced face (tests) or a fresh roll of the game's stream."""
    k = s.table[L.T_FORCED_NEXT]
    if k < s.table[L.T_FORCED_N]:
        s.table[L.T_FORCED_NEXT] = k + 1
        return s.forced[k]
    return 1 + randint(s.rng, 6)


@jit(inline=True)
def has(mask, face):
    """Whether ``face`` is one of the faces in bit mask ``mask``."""
    return (mask >> face) & 1 == 1


@jit(inline=True)
def set_opt(s, k, action):
    """Clear option row ``k`` and give it ``action`` (no foe, no mount)."""
    o = s.opts[k]
    o[:] = 0
    o[L.OPT_ACTION] = action
    o[L.OPT_FOE] = -1
    o[L.OPT_MOUNT] = -1


@jit
def ask(s, pol, params, hook, seat, n):
    """The policy picks one of ``n`` option rows for hero ``seat`` (a single row needs no policy)."""
    if n <= 1:
        return 0
    s.table[L.T_NONCE] = np.int32(next_u64(s.prng) >> np.uint64(33))
    if s.search.shape[0] > 0:  # a replay of a search (dsim.search)
        k = search_ask(s, pol, params, hook, seat, n)
    else:
        k = pol(hook, np.int64(seat), s.public, np.int64(n), params)
    if k < 0 or k >= n:
        k = 0
    event(s, L.E_DECISION, seat, hook, s.opts[k, L.OPT_ACTION], s.opts[k, L.OPT_FOE])
    return k


@jit
def hide(s, key):
    """Redraw what the players cannot know from the stream ``key``, which the game then goes on drawing from: the
    order of the undrawn cards (sorted first, so nothing of the true order survives; which cards they are is known,
    DM-2.5, DM-4.6), and every later die and shuffle. The policies' own numbers (``T_NONCE``) are re-keyed too."""
    s.rng[0], s.rng[1] = key, 0
    s.prng[0], s.prng[1] = key ^ np.uint64(0x5DEECE66D), 0
    n = s.table[L.T_DECK]
    for i in range(1, n):  # insertion sort: a deck holds a few dozen cards
        card = s.deck[i]
        j = i - 1
        while j >= 0 and s.deck[j] > card:
            s.deck[j + 1] = s.deck[j]
            j -= 1
        s.deck[j + 1] = card
    shuffle(s, s.deck, n)


@jit
def search_ask(s, pol, params, hook, seat, n):
    """A decision in a replay of a search (``layout.SR_*``): the forced answers first; after the last one a fair
    rollout redraws the hidden state from its own key (:func:`hide`), an all-seeing one plays on the true game;
    then the policy answers. The true game records its first unforced decision."""
    g = s.search
    k = g[L.SR_ASKED]
    g[L.SR_ASKED] = k + 1
    mode = g[L.SR_MODE]
    forced = g[L.SR_FORCED]
    if k == g[L.SR_HIDE_AT] and (mode == L.SEARCH_ADVANCE or k < forced):  # tests: only the hidden state differs
        key, counter, pkey, pcounter = s.rng[0], s.rng[1], s.prng[0], s.prng[1]
        hide(s, np.uint64(g[L.SR_HIDE_KEY]))
        s.rng[0], s.rng[1], s.prng[0], s.prng[1] = key, counter, pkey, pcounter
    if k < forced:
        choice = g[L.SR_CHOICES + k]
        if k == forced - 1 and mode == L.SEARCH_FAIR:
            hide(s, np.uint64(g[L.SR_KEY]))
            g[L.SR_TURN_DICE] = 1
        return choice
    choice = pol(hook, np.int64(seat), s.public, np.int64(n), params)
    if k == forced and mode == L.SEARCH_ADVANCE:
        g[L.SR_HOOK] = hook
        g[L.SR_OPTIONS] = n
        g[L.SR_BASE] = choice if 0 <= choice < n else 0
    return choice


@jit(inline=True)
def seat_at(s, k):
    """The ``k``-th hero in turn order: the holder of the turn-sequence card, then to the left (DM-2.8)."""
    return (s.table[L.T_FIRST] + k) % s.table[L.T_HEROES]


@jit(inline=True)
def heroes_in(s):
    """Heroes still in the game."""
    n = 0
    for h in range(s.table[L.T_HEROES]):
        if s.heroes[h, L.H_OUT] == 0:
            n += 1
    return n


@jit
def shuffle(s, cards, n):
    """Fisher–Yates on ``cards[0:n]`` with the game's stream."""
    for i in range(n - 1, 0, -1):
        j = randint(s.rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


@jit(inline=True)
def discard(s, card):
    """Put ``card`` on the discard pile."""
    s.discard[s.table[L.T_DISCARD]] = card
    s.table[L.T_DISCARD] += 1


@jit
def item_card(t, item):
    """The card of special item ``item``."""
    for c in range(t.cards.shape[0]):
        if t.cards[c, L.CD_KIND] == L.K_ITEM and t.cards[c, L.CD_REF] == item:
            return c
    return -1


@jit(inline=True)
def attack_bonus(s, h):
    """Item A: +1 damage on a successful attack (DM-2.9, invented placeholder)."""
    return (s.heroes[h, L.H_ITEMS] >> L.ITEM_A) & 1


# ---------------------------------------------------------------- setup (DM-2)
@jit
def enter_site(s, t, site):
    """Site ``site`` on top (DM-2.1): its target and go value (DM-10.4 side), the advance track at 0 (DM-2.2)."""
    s.table[L.T_SITE] = site
    s.table[L.T_ADVANCE] = 0
    s.table[L.T_TARGET] = t.sites[site, L.S_TARGET]
    side = L.S_ABILITY_GO if s.variants[V.V_SITE_SIDE] == 1 else L.S_GO
    s.table[L.T_GO] = t.sites[site, side]
    s.table[L.T_BOSSES_IN] = 0
    s.table[L.T_BOSSES_DUE] = 0


@jit
def gain_item(s, h, item):
    """Hero ``h`` carries special item ``item`` (DM-2.9); item B raises the potion maximum by 1."""
    s.heroes[h, L.H_ITEMS] |= 1 << item
    if item == L.ITEM_B:
        s.heroes[h, L.H_MAX_POTIONS] += 1
    event(s, L.E_ITEM, h, item, 1, 0)


@jit
def lose_items(s, t, h):
    """DM-2.9 normal and hard: the carrier's items go to the discard pile when a life is lost."""
    for item in range(L.N_ITEMS):
        if (s.heroes[h, L.H_ITEMS] >> item) & 1:
            s.heroes[h, L.H_ITEMS] &= ~(1 << item)
            if item == L.ITEM_B:
                s.heroes[h, L.H_MAX_POTIONS] -= 1
                s.heroes[h, L.H_POTIONS] = min(s.heroes[h, L.H_POTIONS], s.heroes[h, L.H_MAX_POTIONS])
            discard(s, item_card(t, item))
            event(s, L.E_ITEM, h, item, 0, 0)


@jit
def setup(s, t, party, lives, items, key):
    """DM-2: heroes with 1 potion each (DM-2.4), the shuffled level-1 deck (DM-2.5), the life counter (DM-2.6),
    the special items (DM-2.9: ``items`` is the difficulty's ITEMS_*, -1 for none), the Village on top."""
    s.rng[0], s.rng[1] = key, 0
    s.prng[0], s.prng[1] = key ^ np.uint64(0x5DEECE66D), 0
    forced_n = s.table[L.T_FORCED_N]
    s.table[:] = 0
    s.heroes[:] = 0
    s.foes[:] = 0
    s.middle[:] = 0
    s.hits[:] = 0
    s.table[L.T_FORCED_N] = forced_n
    n = party.shape[0]
    s.table[L.T_HEROES] = n
    s.table[L.T_LIVES] = lives
    s.table[L.T_ITEMS] = items
    s.table[L.T_END_CARD] = -2
    s.table[L.T_ACTOR] = -1
    for h in range(n):
        k = party[h]
        row = s.heroes[h]
        row[L.H_KIND] = k
        row[L.H_VITALITY] = t.heroes[k, L.HT_VITALITY]
        row[L.H_MAX_POTIONS] = t.heroes[k, L.HT_MAX_POTIONS]
        row[L.H_POTIONS] = min(1, row[L.H_MAX_POTIONS])
        row[L.H_FACES] = t.heroes[k, L.HT_FACES]
        row[L.H_SPECIAL] = t.heroes[k, L.HT_SPECIAL]
        unride(s, h)
    nd = 0
    for c in range(t.cards.shape[0]):
        pile = t.cards[c, L.CD_PILE]
        if pile == 1 or (pile == L.PILE_ITEMS and items == L.ITEMS_IN_DECK):  # DM-2.9 hard: items in the deck
            s.deck[nd] = c
            nd += 1
    s.table[L.T_DECK] = nd
    shuffle(s, s.deck, nd)
    if items == L.ITEMS_KEPT or items == L.ITEMS_LOST_ON_DEATH:  # DM-2.9 easy/normal: held from the start
        for item in range(L.N_ITEMS):
            gain_item(s, item % n, item)
    enter_site(s, t, 0)
    event(s, L.E_SETUP, -1, lives, n, items)


# ---------------------------------------------------------------- cards and piles
@jit
def take_top(s):
    """The deck's top card; an empty deck is refilled from the shuffled discard pile first (DM-4.6). -1: none."""
    if s.table[L.T_DECK] == 0:
        n = s.table[L.T_DISCARD]
        for i in range(n):
            s.deck[i] = s.discard[i]
        s.table[L.T_DISCARD] = 0
        shuffle(s, s.deck, n)
        s.table[L.T_DECK] = n
        event(s, L.E_RESHUFFLE, -1, n, 0, 0)
        if n == 0:
            return -1
    s.table[L.T_DECK] -= 1
    return s.deck[s.table[L.T_DECK]]


@jit
def enter_foe(s, t, card, role):
    """An enemy card goes into play as ``role`` (DM-5.5, DM-9.3); its row index, -1 if no slot is free."""
    n = s.table[L.T_FOES]
    if n >= L.MAX_FOES:
        discard(s, card)
        event(s, L.E_NO_ROOM, -1, card, 0, 0)
        return -1
    u = t.cards[card, L.CD_REF]
    row = s.foes[n]
    row[:] = 0
    row[L.F_CARD], row[L.F_UNIT], row[L.F_ROLE] = card, u, role
    row[L.F_VITALITY] = t.units[u, L.U_VITALITY]
    row[L.F_FACES] = t.units[u, L.U_FACES]
    row[L.F_ARMOUR] = t.units[u, L.U_ARMOUR]
    row[L.F_POINTS] = t.units[u, L.U_POINTS] if role <= L.ROLE_SUB_BOSS else 0  # DM-9.1, DM-9.3
    row[L.F_SPECIAL] = t.units[u, L.U_SPECIAL]
    row[L.F_MOUNT] = -1
    row[L.F_MOUNT_CARD] = -1
    # DM-7.1, seed L165: the dice of an exchange already on the table are for the enemies in play when rolled
    row[L.F_LATE] = 1 if s.table[L.T_RED] > 0 and s.variants[V.V_LATE_FOES] == 0 else 0
    s.hits[n] = 0
    s.table[L.T_FOES] = n + 1
    event(s, L.E_BOSS_ENTERS if role >= L.ROLE_BOSS else L.E_ENTERS, -1, card, u, role)
    return n


@jit
def drawn_enemy_enters(s, t, card, kind):
    """An enemy card from the deck enters play, a beaten boss as a sub-boss (DM-9.3); returns whether it is a
    skeleton, which draws another card (DM-4.4, DM-9.2)."""
    f = enter_foe(s, t, card, L.ROLE_ENEMY if kind == L.K_ENEMY else L.ROLE_SUB_BOSS)
    if (f >= 0 and s.foes[f, L.F_SPECIAL] == L.SP_TAKES_MOUNTS and s.table[L.T_MIDDLE] > 0
            and s.variants[V.V_AMAZON_TAKES_MIDDLE] == 1):  # DM-5.4.1 reading at_once
        mount, c, damage = pop_middle(s, 0)
        mount_foe(s, f, mount, c, damage)
    return f >= 0 and s.foes[f, L.F_SPECIAL] == L.SP_DRAWS_CARD


@jit(inline=True)
def remove_foe(s, f):
    """Take foe row ``f`` out of play; later rows move up one (their order of entry is kept)."""
    n = s.table[L.T_FOES]
    for g in range(f, n - 1):
        for c in range(L.F_FIELDS):
            s.foes[g, c] = s.foes[g + 1, c]
        s.hits[g] = s.hits[g + 1]
    s.table[L.T_FOES] = n - 1


@jit
def to_middle(s, mount, card, damage):
    """A free mount goes to the middle of the table, to be taken in the bonus phase (DM-5.4.2)."""
    m = s.table[L.T_MIDDLE]
    if m >= L.MAX_MIDDLE:
        discard(s, card)
        event(s, L.E_NO_ROOM, -1, card, 1, 0)
        return
    s.middle[m, L.M_MOUNT], s.middle[m, L.M_CARD], s.middle[m, L.M_DAMAGE] = mount, card, damage
    s.table[L.T_MIDDLE] = m + 1
    event(s, L.E_MOUNT_MIDDLE, -1, mount, damage, 0)


@jit
def pop_middle(s, m):
    """Take middle mount ``m`` off the table (later ones move up): its (mount, card, damage)."""
    mount, card, damage = s.middle[m, L.M_MOUNT], s.middle[m, L.M_CARD], s.middle[m, L.M_DAMAGE]
    n = s.table[L.T_MIDDLE]
    for k in range(m, n - 1):
        for c in range(L.M_FIELDS):
            s.middle[k, c] = s.middle[k + 1, c]
    s.table[L.T_MIDDLE] = n - 1
    return mount, card, damage


@jit(inline=True)
def free_amazon(s):
    """The first riding amazon in play without a mount (DM-5.4.1, DM-9.1), -1 if none."""
    for f in range(s.table[L.T_FOES]):
        if s.foes[f, L.F_SPECIAL] == L.SP_TAKES_MOUNTS and s.foes[f, L.F_MOUNT] < 0:
            return f
    return -1


@jit
def mount_foe(s, f, mount, card, damage):
    """Riding amazon ``f`` takes a mount at once (DM-5.4.1, DM-7.10)."""
    s.foes[f, L.F_MOUNT], s.foes[f, L.F_MOUNT_CARD], s.foes[f, L.F_MOUNT_DAMAGE] = mount, card, damage
    event(s, L.E_MOUNT_TAKEN, -1, mount, s.foes[f, L.F_UNIT], 0)


@jit(inline=True)
def ride(s, t, h, mount, card, damage):
    """Hero ``h`` rides ``mount`` (its card, its damage tokens); its faces and damage go on the hero's row."""
    row = s.heroes[h]
    row[L.H_MOUNT], row[L.H_MOUNT_CARD], row[L.H_MOUNT_DAMAGE] = mount, card, damage
    row[L.H_MOUNT_FACES], row[L.H_MOUNT_HIT] = t.mounts[mount, L.MT_FACES], t.mounts[mount, L.MT_DAMAGE]


@jit(inline=True)
def unride(s, h):
    """Hero ``h`` rides no mount."""
    row = s.heroes[h]
    row[L.H_MOUNT], row[L.H_MOUNT_CARD], row[L.H_MOUNT_DAMAGE], row[L.H_MOUNT_FACES], row[L.H_MOUNT_HIT] = -1, -1, 0, 0, 0


@jit
def free_foe_mount(s, t, f, mount_hit):
    """Riding amazon ``f`` loses her mount (DM-6.4, DM-9.1): it goes to the middle, or to the discard pile if
    ``mount_hit`` brings its damage to its vitality (DM-5.4.3)."""
    row = s.foes[f]
    m, card, damage = row[L.F_MOUNT], row[L.F_MOUNT_CARD], row[L.F_MOUNT_DAMAGE] + mount_hit
    row[L.F_MOUNT], row[L.F_MOUNT_CARD], row[L.F_MOUNT_DAMAGE] = -1, -1, 0
    gone = damage >= t.mounts[m, L.MT_VITALITY]
    event(s, L.E_FOE_DISMOUNT, -1, row[L.F_UNIT], m, 1 if gone else 0)
    if gone:
        discard(s, card)
    else:
        to_middle(s, m, card, damage)


# ---------------------------------------------------------------- advance and bosses (DM-4.3, DM-10)
@jit
def bosses_enter(s, t):
    """DM-10.2: the site's bosses enter from the boss pile; at the Castle the final boss(es) (DM-9.4–9.6)."""
    site = s.table[L.T_SITE]
    s.table[L.T_BOSSES_IN] = 1
    s.table[L.T_BOSSES_DUE] = 0
    if site < t.sites.shape[0] - 1:
        for k in range(L.MAX_SITE_BOSSES):
            if t.site_bosses[site, k] >= 0:
                enter_foe(s, t, t.site_bosses[site, k], L.ROLE_BOSS)
        return
    has_alt = t.alt_bosses[site, 0] >= 0
    if s.table[L.T_HEROES] == L.MAX_HEROES and has_alt:  # DM-9.6: 4 heroes face both
        enter_finals(s, t, t.site_bosses[site])
        if s.variants[V.V_FINAL_4P] == 0:
            enter_finals(s, t, t.alt_bosses[site])
        else:
            s.table[L.T_FINALS_DUE] = 1
        return
    which = s.variants[V.V_FINAL_BOSS]  # DM-9.5
    if which == V.FINAL_ROLL:
        which = V.FINAL_PALADIN if d6(s) <= 3 else V.FINAL_DARK_MAIDEN
    enter_finals(s, t, t.alt_bosses[site] if which == V.FINAL_PALADIN and has_alt else t.site_bosses[site])


@jit
def enter_finals(s, t, cards):
    """The final boss cards ``cards`` (-1 padded) enter play."""
    for k in range(cards.shape[0]):
        if cards[k] >= 0:
            enter_foe(s, t, cards[k], L.ROLE_FINAL)


@jit
def advance(s, t, points, phase1):
    """Move the advance token (DM-10.1; never below 0 by default, DM-4.3). Reaching the target calls the site's
    bosses at once (DM-4.5 a, DM-8.4) or, in phase 1 under reading ``after_cards``, after the drawn cards."""
    a = s.table[L.T_ADVANCE] + points
    if a < 0 and s.variants[V.V_ADVANCE_FLOOR] == 0:
        a = 0
    s.table[L.T_ADVANCE] = a
    event(s, L.E_ADVANCE, s.table[L.T_ACTOR], points, a, 0)
    if s.table[L.T_BOSSES_IN] == 0 and s.table[L.T_BOSSES_DUE] == 0 and a >= s.table[L.T_TARGET]:
        event(s, L.E_SITE_REACHED, -1, s.table[L.T_SITE], a, 0)
        bonus = s.variants[V.V_BONUS_AFTER_BOSSES]  # DM-8.4: L110 for enemy points; phase 1 by reading
        if bonus == V.BONUS_NEVER or (bonus == V.BONUS_AFTER_PHASE_1 and not phase1):
            s.table[L.T_NO_BONUS] = 1
        if phase1 and s.variants[V.V_BOSSES_ENTER] == 1:
            s.table[L.T_BOSSES_DUE] = 1
        else:
            bosses_enter(s, t)


@jit
def draw(s, t, h):
    """DM-4.1: hero ``h`` draws one card. A go card moves the token at once (DM-4.3), an item is gained
    (DM-2.9 hard), an enemy enters play and a skeleton draws again (DM-4.4); precipices, goblins and mounts
    wait for phase 2 (DM-5.1)."""
    while True:
        c = take_top(s)
        if c < 0:
            return
        kind = t.cards[c, L.CD_KIND]
        event(s, L.E_DRAW, h, c, kind, 0)
        if kind == L.K_GO:
            discard(s, c)
            advance(s, t, s.table[L.T_GO], True)
            return
        if kind == L.K_ITEM:
            gain_item(s, h, t.cards[c, L.CD_REF])
            return
        if kind == L.K_ENEMY or kind == L.K_BOSS:
            if drawn_enemy_enters(s, t, c, kind):
                continue
            return
        s.drawn[s.table[L.T_DRAWN]] = c
        s.table[L.T_DRAWN] += 1
        return


# ---------------------------------------------------------------- deaths and lives (DM-2.6, DM-7.9)
@jit
def hero_dies(s, t, h, cause):
    """DM-7.9: damage and exhaustion cleared; the life counter pays (DM-2.6 reading) or the hero is out of the
    game (potions lost, DM-6.5). ``cause``: the unit that dealt the last blow, -1 a precipice."""
    row = s.heroes[h]
    row[L.H_DEATHS] += 1
    s.table[L.T_DEATHS] += 1
    row[L.H_DAMAGE] = 0
    if s.variants[V.V_DEATH_CLEARS_EXHAUSTION] == 0:
        row[L.H_EXHAUSTED] = 0
    if row[L.H_MOUNT] >= 0:
        discard(s, row[L.H_MOUNT_CARD])
        unride(s, h)
    lives = s.table[L.T_LIVES]
    spare = lives - heroes_in(s) if s.variants[V.V_LIFE_COUNTER] == 1 else lives
    if spare > 0:
        s.table[L.T_LIVES] = lives - 1
    else:
        s.table[L.T_LIVES] = max(0, lives - 1) if s.variants[V.V_LIFE_COUNTER] == 1 else 0
        row[L.H_OUT] = 1
        row[L.H_POTIONS] = 0
    if s.table[L.T_ITEMS] == L.ITEMS_LOST_ON_DEATH or s.table[L.T_ITEMS] == L.ITEMS_IN_DECK:
        lose_items(s, t, h)
    s.table[L.T_END_CARD] = cause
    event(s, L.E_DEATH, h, row[L.H_DEATHS], s.table[L.T_LIVES], row[L.H_OUT])
    if heroes_in(s) == 0:  # DM-1.3
        s.table[L.T_OVER] = L.OVER_LOST


@jit
def dismount_hero(s, t, h, by_boss):
    """DM-7.10: a mounted hero hit is dismounted and exhausted; the mount (1 damage) goes to the discard pile if it
    is dead (DM-5.4.3), else to a riding amazon in play, even when a boss did it (seed L36 «A menos que …»), else to
    the discard pile if a boss or sub-boss dismounted it, else to the middle."""
    row = s.heroes[h]
    m, card, damage = row[L.H_MOUNT], row[L.H_MOUNT_CARD], row[L.H_MOUNT_DAMAGE] + L.MOUNT_HIT
    unride(s, h)
    row[L.H_EXHAUSTED] = 1
    where = 0
    f = free_amazon(s)
    if damage >= t.mounts[m, L.MT_VITALITY] or (by_boss and f < 0):
        discard(s, card)
        where = 1
    elif f >= 0:
        mount_foe(s, f, m, card, damage)
        where = 2
    else:
        to_middle(s, m, card, damage)
    event(s, L.E_DISMOUNT, h, m, damage, where)


@jit
def hurt_hero(s, t, h, amount, by_boss, cause):
    """The enemies' damage of one exchange lands on hero ``h`` (DM-7.3; mounted: 1, DM-7.10; item B ignores the
    first point each turn). Returns (died, damage taken)."""
    row = s.heroes[h]
    if amount > 0 and (row[L.H_ITEMS] >> L.ITEM_B) & 1 and row[L.H_SHIELD_USED] == 0:
        row[L.H_SHIELD_USED] = 1
        amount -= 1
    if amount <= 0:
        return False, 0
    if row[L.H_MOUNT] >= 0:
        amount = L.MOUNT_HIT
        dismount_hero(s, t, h, by_boss)
    row[L.H_DAMAGE] += amount
    event(s, L.E_FOE_HITS, h, amount, row[L.H_DAMAGE], cause)
    if row[L.H_DAMAGE] >= row[L.H_VITALITY]:
        hero_dies(s, t, h, cause)
        return True, amount
    return False, amount


@jit
def fall(s, t, h):
    """DM-5.2.1–5.2.3: hero ``h`` falls: the mount is discarded, and by default it is a death (no bonus attack);
    under reading ``life_only`` the counter pays 1 and nothing else happens."""
    row = s.heroes[h]
    event(s, L.E_FALL, h, row[L.H_MOUNT], 0, 0)
    if row[L.H_MOUNT] >= 0:  # DM-5.2.2
        discard(s, row[L.H_MOUNT_CARD])
        unride(s, h)
    if s.variants[V.V_PRECIPICE_FALL] == 0:
        hero_dies(s, t, h, -1)
        return
    s.table[L.T_LIVES] = max(0, s.table[L.T_LIVES] - 1)
    if s.table[L.T_ITEMS] == L.ITEMS_LOST_ON_DEATH or s.table[L.T_ITEMS] == L.ITEMS_IN_DECK:
        lose_items(s, t, h)


# ---------------------------------------------------------------- enemies hurt and killed
@jit
def kill_foe(s, t, f):
    """Foe ``f`` dies: its card goes to the discard pile (beaten bosses return as sub-bosses, DM-9.3; final
    bosses leave the game) and the team advances by its points (DM-10.1)."""
    row = s.foes[f]
    u, role, card, points = row[L.F_UNIT], row[L.F_ROLE], row[L.F_CARD], row[L.F_POINTS]
    if row[L.F_MOUNT] >= 0:
        discard(s, row[L.F_MOUNT_CARD])
    if role != L.ROLE_FINAL:
        discard(s, card)
    remove_foe(s, f)
    event(s, L.E_KILL, s.table[L.T_ACTOR], u, role, points)
    if points > 0:
        advance(s, t, points, False)
    if role == L.ROLE_FINAL and s.table[L.T_FINALS_DUE] == 1 and not final_in_play(s):  # DM-9.6 b
        s.table[L.T_FINALS_DUE] = 0
        enter_finals(s, t, t.alt_bosses[s.table[L.T_SITE]])


@jit(inline=True)
def final_in_play(s):
    """Whether a final boss is in play."""
    for f in range(s.table[L.T_FOES]):
        if s.foes[f, L.F_ROLE] == L.ROLE_FINAL:
            return True
    return False


@jit
def hurt_foe(s, t, f, amount, attack):
    """``amount`` damage (armour already taken off) lands on foe ``f``; a successful attack on a mounted riding
    amazon dismounts her (DM-9.1 reading). Returns whether it died."""
    row = s.foes[f]
    if attack and row[L.F_MOUNT] >= 0:
        if s.variants[V.V_MOUNTED_AMAZON] == 1:  # one_and_one: as a mounted hero
            amount = 1
            free_foe_mount(s, t, f, 1)
        else:
            free_foe_mount(s, t, f, 0)
    if amount <= 0:
        return False
    row[L.F_DAMAGE] += amount
    event(s, L.E_HERO_HITS, s.table[L.T_ACTOR], row[L.F_UNIT], amount, max(0, row[L.F_VITALITY] - row[L.F_DAMAGE]))
    if row[L.F_DAMAGE] >= row[L.F_VITALITY]:
        kill_foe(s, t, f)
        return True
    return False


@jit(inline=True)
def enemy_die(white, red, quick):
    """The die the enemies strike with: the red one (DM-7.1), in a quick strike the higher of the two (DM-7.6,
    seed L95 «siempre el de mayor valor»)."""
    return max(white, red) if quick else red


@jit(inline=True)
def calls_reinforcements(s, f, white, red, quick):
    """DM-9.4: foe ``f`` is the Dark Maiden, in this exchange (not its quick strike's target, DM-7.6, seed L94
    «este enemigo no hace daño»; not entered after the roll, DM-7.1) and her die shows 1 (in a quick strike the
    higher die: she calls only on a double 1)."""
    row = s.foes[f]
    return (row[L.F_SPECIAL] == L.SP_REINFORCEMENTS and row[L.F_STUNNED] == 0 and row[L.F_LATE] == 0
            and enemy_die(white, red, quick) == L.DARK_MAIDEN_CALL)


@jit(inline=True)
def foe_strike(s, f, white, red, quick):
    """What foe ``f`` deals this exchange (0: nothing): the red die's value on one of its faces (DM-7.3), or in a
    quick strike the higher die on its faces (DM-7.6); the Dark Maiden's 1 calls reinforcements instead (DM-9.4);
    the quick strike's target and enemies that entered after the roll (DM-7.1 reading) do not strike."""
    row = s.foes[f]
    if (row[L.F_STUNNED] == 1 or row[L.F_LATE] == 1
            or (row[L.F_SPECIAL] == L.SP_REINFORCEMENTS and enemy_die(white, red, quick) == L.DARK_MAIDEN_CALL)):
        return 0
    faces = row[L.F_FACES]
    if quick:
        best = white if has(faces, white) else 0
        if has(faces, red) and red > best:
            best = red
        return best
    return red if has(faces, red) else 0


@jit
def foe_rows(s, damage, white, red, quick, mode):
    """One option row per foe that can take the damage (``mode`` 0 every foe, 1 grab points, 2 a precipice
    fall: deck enemies and sub-bosses only, DM-5.2.4); returns the row count."""
    n = 0
    for f in range(s.table[L.T_FOES]):
        row = s.foes[f]
        if mode == 2 and row[L.F_ROLE] >= L.ROLE_BOSS:
            continue
        dealt = damage - row[L.F_ARMOUR]
        if mode == 1 and s.hits[f] > 0 and s.variants[V.V_GRAB_ARMOUR] == 0:
            dealt = damage  # DM-7.7 GAP: armour takes off only the first point an armoured enemy gets
        if mode == 2:
            dealt = row[L.F_VITALITY]
        dealt = max(0, dealt)
        left = row[L.F_VITALITY] - row[L.F_DAMAGE]
        set_opt(s, n, L.A_FOE)
        o = s.opts[n]
        o[L.OPT_FOE], o[L.OPT_DAMAGE], o[L.OPT_ROLE], o[L.OPT_LEFT] = f, dealt, row[L.F_ROLE], left
        o[L.OPT_KILLS] = 1 if dealt >= left else 0
        o[L.OPT_POINTS] = row[L.F_POINTS] if dealt >= left else 0
        o[L.OPT_STRIKES] = 1 if foe_strike(s, f, white, red, quick) > 0 else 0
        n += 1
    return n


@jit(inline=True)
def asking(s, attack, stops):
    """Say which attack asks for a target and what the choice does to the enemies' strikes (``T_ATTACK``,
    ``T_STOPS``), for the policy."""
    s.table[L.T_ATTACK], s.table[L.T_STOPS] = attack, stops


@jit
def strike_foe(s, t, pol, params, h, hook, damage, white, red, quick):
    """Hero ``h``'s ``damage`` goes to one enemy the policy picks (DM-7.2); returns the foe's card."""
    n = foe_rows(s, damage, white, red, quick, 0)
    if n == 0:
        return -1
    f = s.opts[ask(s, pol, params, hook, h, n), L.OPT_FOE]
    card = s.foes[f, L.F_CARD]
    hurt_foe(s, t, f, max(0, damage - s.foes[f, L.F_ARMOUR]), True)
    return card


# ---------------------------------------------------------------- the exchange (DM-7)
@jit
def snapshot(s, white, red, quick):
    """The enemies' side of an exchange as it stands now (DM-7.3, DM-7.4: they all use one roll, so they strike
    together): total damage, a boss or sub-boss among the strikers, the unit of the hardest striker, the
    Paladin's card and value (DM-9.5), and whether the Dark Maiden calls reinforcements (DM-9.4)."""
    total, by_boss, cause, best = 0, False, -2, 0
    paladin, healing, calls = -1, 0, False
    for f in range(s.table[L.T_FOES]):
        row = s.foes[f]
        if calls_reinforcements(s, f, white, red, quick):
            calls = True
        d = foe_strike(s, f, white, red, quick)
        if d > 0:
            total += d
            if row[L.F_ROLE] != L.ROLE_ENEMY:
                by_boss = True
            if d > best:
                best, cause = d, row[L.F_UNIT]
            if row[L.F_SPECIAL] == L.SP_HEALS:
                paladin, healing = row[L.F_CARD], d
    if calls and s.variants[V.V_REINFORCEMENT_STRIKES] == 1:  # nobody strikes on the call
        return 0, False, -2, -1, 0, calls
    return total, by_boss, cause, paladin, healing, calls


@jit
def reinforcements(s, t):
    """DM-9.4: the Dark Maiden draws a card: an enemy enters play (a skeleton draws again), anything else is
    discarded without effect."""
    while True:
        c = take_top(s)
        if c < 0:
            return
        kind = t.cards[c, L.CD_KIND]
        if kind == L.K_ENEMY or kind == L.K_BOSS:
            event(s, L.E_REINFORCE, -1, c, kind, 1)
            if drawn_enemy_enters(s, t, c, kind):
                continue
            return
        event(s, L.E_REINFORCE, -1, c, kind, 0)
        discard(s, c)
        return


@jit
def land(s, t, pol, params, h, total, by_boss, cause, paladin, healing, calls):
    """The enemies' side lands on hero ``h``: damage, the Paladin's healing (DM-9.5, never above her vitality),
    reinforcements (DM-9.4), and the bonus attack of a hero who dies in the exchange (DM-7.8). Returns died."""
    died, taken = hurt_hero(s, t, h, total, by_boss, cause)
    if paladin >= 0 and taken > 0:
        for f in range(s.table[L.T_FOES]):
            if s.foes[f, L.F_CARD] == paladin:
                healed = min(min(healing, taken), s.foes[f, L.F_DAMAGE])
                s.foes[f, L.F_DAMAGE] -= healed
                event(s, L.E_PALADIN_HEALS, -1, healed, s.foes[f, L.F_DAMAGE], 0)
    if calls:
        reinforcements(s, t)
    if died and s.table[L.T_OVER] == L.OVER_RUNNING:
        bonus_attack(s, t, pol, params, h)
    return died


@jit
def bonus_attack(s, t, pol, params, h):
    """DM-7.8: a hero who died in an exchange rolls the white die alone; a success deals its value to a chosen
    enemy, who cannot strike back."""
    if s.table[L.T_FOES] == 0:
        return
    w = d6(s)
    s.table[L.T_WHITE], s.table[L.T_RED] = w, 0
    event(s, L.E_ROLL, h, w, 0, L.ATTACK_DEATH)
    if has(s.heroes[h, L.H_FACES], w):
        asking(s, L.ATTACK_DEATH, L.STOPS_NOTHING)
        strike_foe(s, t, pol, params, h, L.HOOK_TARGET, w + attack_bonus(s, h), w, 0, False)


@jit
def drink(s, t, h):
    """DM-6: every potion at once; each deals its count to every enemy in play, armour −1 (DM-6.3); a mounted
    riding amazon loses her mount, which never takes potion damage (DM-6.4)."""
    row = s.heroes[h]
    n = row[L.H_POTIONS]
    row[L.H_POTIONS] = 0
    row[L.H_POTIONS_USED] += n
    event(s, L.E_DRINK, h, n, s.table[L.T_FOES], 0)
    for f in range(s.table[L.T_FOES] - 1, -1, -1):
        if s.foes[f, L.F_MOUNT] >= 0:
            free_foe_mount(s, t, f, 0)
        hurt_foe(s, t, f, max(0, n - s.foes[f, L.F_ARMOUR]), False)


@jit
def potion_rows(s, h):
    """HOOK_POTIONS rows: keep (0) or drink (1), the drink row with what it would do to the enemies."""
    n = s.heroes[h, L.H_POTIONS]
    set_opt(s, 0, L.A_KEEP)
    set_opt(s, 1, L.A_DRINK)
    o = s.opts[1]
    o[L.OPT_DAMAGE] = n
    for f in range(s.table[L.T_FOES]):
        row = s.foes[f]
        if n - row[L.F_ARMOUR] >= row[L.F_VITALITY] - row[L.F_DAMAGE]:
            o[L.OPT_KILLS] += 1
            o[L.OPT_POINTS] += row[L.F_POINTS]
    return 2


@jit
def quick_strike(s, t, pol, params, h):
    """DM-7.6: exhausts; 2d6 ≥ 7 deals 2 (armour −1) to a chosen enemy first, and that enemy cannot strike; every
    other enemy strikes with the higher die on its faces."""
    s.heroes[h, L.H_EXHAUSTED] = 1
    w, r = d6(s), d6(s)
    s.table[L.T_WHITE], s.table[L.T_RED] = w, r
    event(s, L.E_ROLL, h, w, r, L.ATTACK_QUICK)
    if w + r >= L.PASS_TOTAL:
        asking(s, L.ATTACK_QUICK, L.STOPS_TARGET)
        n = foe_rows(s, L.QUICK_DAMAGE + attack_bonus(s, h), w, r, True, 0)
        f = s.opts[ask(s, pol, params, L.HOOK_TARGET, h, n), L.OPT_FOE]
        s.foes[f, L.F_STUNNED] = 1
        hurt_foe(s, t, f, max(0, L.QUICK_DAMAGE + attack_bonus(s, h) - s.foes[f, L.F_ARMOUR]), True)
    total, by_boss, cause, paladin, healing, calls = snapshot(s, w, r, True)
    for f in range(s.table[L.T_FOES]):
        s.foes[f, L.F_STUNNED] = 0
    land(s, t, pol, params, h, total, by_boss, cause, paladin, healing, calls)


@jit
def grab(s, t, pol, params, h, red):
    """DM-7.7: the white die alone is rolled again; beating the red die (Guerrero: equalling it, DM-7.5) deals 3
    damage split one point at a time and cancels the red die; otherwise only the enemies strike."""
    row = s.heroes[h]
    w = d6(s)
    s.table[L.T_WHITE] = w
    ok = w > red or (row[L.H_SPECIAL] == L.HS_GRAB_EQUAL and w == red)
    if s.variants[V.V_GRAB_NEEDS_FACE] == 1 and not has(row[L.H_FACES], w):
        ok = False
    event(s, L.E_GRAB, h, w, red, 1 if ok else 0)
    if not ok:
        total, by_boss, cause, paladin, healing, calls = snapshot(s, 0, red, False)
        land(s, t, pol, params, h, total, by_boss, cause, paladin, healing, calls)
        return
    points = L.GRAB_DAMAGE + attack_bonus(s, h)
    asking(s, L.ATTACK_GRAB, L.STOPS_NOTHING)
    s.hits[:] = 0
    for p in range(points):
        if s.table[L.T_FOES] == 0:
            break
        s.table[L.T_SPLIT_LEFT] = points - p
        n = foe_rows(s, 1, 0, 0, False, 1)
        f = s.opts[ask(s, pol, params, L.HOOK_SPLIT, h, n), L.OPT_FOE]
        dealt = 1 if s.hits[f] > 0 and s.variants[V.V_GRAB_ARMOUR] == 0 else 1 - s.foes[f, L.F_ARMOUR]
        s.hits[f] += 1
        hurt_foe(s, t, f, max(0, dealt), True)
    s.table[L.T_SPLIT_LEFT] = 0


@jit
def exchange(s, t, pol, params, h, w, r):
    """DM-7.1–7.4, 7.11: the white die hits on the hero's faces (a mount's, mounted) for its value (the mount's
    damage); every enemy whose faces hold the red die strikes the attacker for its value. Lower value first,
    equal values together; Amazona's successful double lands first (DM-7.5)."""
    row = s.heroes[h]
    faces, damage = row[L.H_FACES], w
    m = row[L.H_MOUNT]
    if m >= 0:
        if s.variants[V.V_MOUNTED_FACES] == 1 and t.mounts[m, L.MT_LEVEL] == 3:
            damage = min(w, 4)
        else:
            faces = t.mounts[m, L.MT_FACES]
            damage = w if t.mounts[m, L.MT_DAMAGE] == L.DIE else t.mounts[m, L.MT_DAMAGE]
    if not has(faces, w):
        total, by_boss, cause, paladin, healing, calls = snapshot(s, w, r, False)
        land(s, t, pol, params, h, total, by_boss, cause, paladin, healing, calls)
        return
    damage += attack_bonus(s, h)
    first = w < r or (w == r and row[L.H_SPECIAL] == L.HS_STRIKE_FIRST and row[L.H_EXHAUSTED] == 0)
    asking(s, L.ATTACK_ROLL, L.STOPS_KILLED if first else L.STOPS_NOTHING)
    if first:
        strike_foe(s, t, pol, params, h, L.HOOK_TARGET, damage, w, r, False)
        total, by_boss, cause, paladin, healing, calls = snapshot(s, w, r, False)
        land(s, t, pol, params, h, total, by_boss, cause, paladin, healing, calls)
    elif r < w:
        total, by_boss, cause, paladin, healing, calls = snapshot(s, w, r, False)
        if not land(s, t, pol, params, h, total, by_boss, cause, paladin, healing, calls):
            strike_foe(s, t, pol, params, h, L.HOOK_TARGET, damage, w, r, False)
    else:  # DM-7.4: equal values land together, even from those killed by them
        total, by_boss, cause, paladin, healing, calls = snapshot(s, w, r, False)
        strike_foe(s, t, pol, params, h, L.HOOK_TARGET, damage, w, r, False)
        land(s, t, pol, params, h, total, by_boss, cause, paladin, healing, calls)


@jit(inline=True)
def specials_allowed(s, h):
    """A quick strike or a grab is open to hero ``h``: not mounted, or mounted under the default reading of DM-7.12."""
    return s.heroes[h, L.H_MOUNT] < 0 or s.variants[V.V_MOUNTED_SPECIALS] == 0


@jit
def normal_attack(s, t, pol, params, h):
    """DM-7.1: the white and the red die once; on a double a hero who is not exhausted may accept, reroll
    (Bárbara, once per attack, DM-7.5) or grab (DM-7.7)."""
    row = s.heroes[h]
    w, r = d6(s), d6(s)
    event(s, L.E_ROLL, h, w, r, L.ATTACK_ROLL)
    rerolled = False
    while w == r and row[L.H_EXHAUSTED] == 0:
        s.table[L.T_WHITE], s.table[L.T_RED] = w, r
        set_opt(s, 0, L.A_ACCEPT)
        n = 1
        if row[L.H_SPECIAL] == L.HS_REROLL and not rerolled:
            set_opt(s, n, L.A_REROLL)
            n += 1
        if specials_allowed(s, h):  # DM-7.7, DM-7.12
            set_opt(s, n, L.A_GRAB)
            n += 1
        choice = s.opts[ask(s, pol, params, L.HOOK_DOUBLE, h, n), L.OPT_ACTION]
        if choice == L.A_GRAB:
            grab(s, t, pol, params, h, r)
            return
        if choice != L.A_REROLL:
            break
        rerolled = True
        w = d6(s)
        if s.variants[V.V_BARBARA_REROLL] == 0:
            r = d6(s)
        event(s, L.E_REROLL, h, w, r, 0)
    s.table[L.T_WHITE], s.table[L.T_RED] = w, r
    exchange(s, t, pol, params, h, w, r)


@jit
def hero_attack(s, t, pol, params, h):
    """DM-5.5.1: hero ``h``'s one attack: potions first if chosen (DM-6.1), then a normal roll or, not exhausted,
    a quick strike (DM-7.6)."""
    s.table[L.T_ACTOR] = h
    if s.heroes[h, L.H_POTIONS] > 0:
        n = potion_rows(s, h)
        if s.opts[ask(s, pol, params, L.HOOK_POTIONS, h, n), L.OPT_ACTION] == L.A_DRINK:
            drink(s, t, h)
    if s.table[L.T_FOES] > 0 and s.table[L.T_OVER] == L.OVER_RUNNING:
        quick = False
        if s.heroes[h, L.H_EXHAUSTED] == 0 and specials_allowed(s, h):  # DM-7.6, DM-7.12
            set_opt(s, 0, L.A_ROLL)
            set_opt(s, 1, L.A_QUICK)
            quick = s.opts[ask(s, pol, params, L.HOOK_ATTACK, h, 2), L.OPT_ACTION] == L.A_QUICK
        if quick:
            quick_strike(s, t, pol, params, h)
        else:
            normal_attack(s, t, pol, params, h)
    s.table[L.T_WHITE], s.table[L.T_RED], s.table[L.T_ACTOR] = 0, 0, -1
    for f in range(s.table[L.T_FOES]):
        s.foes[f, L.F_LATE] = 0  # the exchange is over: every enemy in play strikes at the next roll


# ---------------------------------------------------------------- phase 2 cards (DM-5.2–5.4)
@jit
def precipice(s, t, pol, params):
    """DM-5.2: every hero in turn order passes on 2d6 ≥ 7 or falls; then, if enemies are in play, the first
    player rolls once for them and on a failure throws one (not a boss being fought) off, gaining its points."""
    for k in range(s.table[L.T_HEROES]):
        h = seat_at(s, k)
        if s.heroes[h, L.H_OUT] == 1:
            continue
        s.table[L.T_ACTOR] = h
        a, b = d6(s), d6(s)
        event(s, L.E_PRECIPICE, h, a, b, 1 if a + b >= L.PASS_TOTAL else 0)
        if a + b < L.PASS_TOTAL:
            fall(s, t, h)
            if s.table[L.T_OVER] != L.OVER_RUNNING:
                return
    first = seat_at(s, 0)
    s.table[L.T_ACTOR] = first
    if s.table[L.T_FOES] > 0:
        a, b = d6(s), d6(s)
        event(s, L.E_ENEMY_TEST, first, a, b, 1 if a + b >= L.PASS_TOTAL else 0)
        if a + b < L.PASS_TOTAL:
            n = foe_rows(s, 0, 0, 0, False, 2)
            if n > 0:
                f = s.opts[ask(s, pol, params, L.HOOK_FALL, first, n), L.OPT_FOE]
                event(s, L.E_FOE_FALLS, first, s.foes[f, L.F_UNIT], s.foes[f, L.F_POINTS], 0)
                kill_foe(s, t, f)  # a mounted amazon takes her mount with her (L43)
    s.table[L.T_ACTOR] = -1


@jit
def potion_die(s, t, h, g, face):
    """DM-5.3.1–5.3.2: a goblin's potion die gives potions up to the maximum, or steals at the maximum."""
    row = s.heroes[h]
    before = row[L.H_POTIONS]
    if before >= row[L.H_MAX_POTIONS]:
        if has(t.goblins[g, L.G_STEAL_FACES], face):
            row[L.H_POTIONS] = max(0, before - face)
    elif has(t.goblins[g, L.G_POTION_FACES], face):
        row[L.H_POTIONS] = min(row[L.H_MAX_POTIONS], before + face)
    event(s, L.E_POTIONS, h, row[L.H_POTIONS] - before, row[L.H_POTIONS], face)


@jit
def heal_die(s, t, h, g, face):
    """DM-5.3.3: the heal die of a level-2/3 goblin heals its value (reading ``one_to_four``: only on 1–4)."""
    if not has(t.goblins[g, L.G_HEAL_FACES], face) or (s.variants[V.V_GOBLIN_HEAL] == 1 and face > 4):
        return
    row = s.heroes[h]
    healed = min(face, row[L.H_DAMAGE])
    row[L.H_DAMAGE] -= healed
    event(s, L.E_HEAL, h, healed, row[L.H_DAMAGE], face)


@jit
def goblin(s, t, pol, params, g):
    """DM-5.3: every hero in turn order rolls the goblin's dice: 1d6 for potions, or 2d6 of which one gives
    potions and the other heals (white/red by default, the player's pick under reading ``choose``)."""
    dice = t.goblins[g, L.G_DICE]
    for k in range(s.table[L.T_HEROES]):
        h = seat_at(s, k)
        if s.heroes[h, L.H_OUT] == 1:
            continue
        s.table[L.T_ACTOR] = h
        p, q = d6(s), 0
        if dice == 2:
            q = d6(s)
            if s.variants[V.V_GOBLIN_DICE] == 1:
                set_opt(s, 0, L.A_WHITE_POTIONS)
                s.opts[0, L.OPT_POTIONS], s.opts[0, L.OPT_HEAL] = p, q
                set_opt(s, 1, L.A_RED_POTIONS)
                s.opts[1, L.OPT_POTIONS], s.opts[1, L.OPT_HEAL] = q, p
                if s.opts[ask(s, pol, params, L.HOOK_GOBLIN, h, 2), L.OPT_ACTION] == L.A_RED_POTIONS:
                    p, q = q, p
        event(s, L.E_GOBLIN, h, p, q, t.goblins[g, L.G_LEVEL])
        potion_die(s, t, h, g, p)
        if dice == 2:
            heal_die(s, t, h, g, q)
    s.table[L.T_ACTOR] = -1


@jit
def resolve_drawn(s, t, pol, params):
    """DM-5.1: the cards drawn this turn by priority — precipices, goblins, then mounts — each kind in draw
    order (go cards resolved in phase 1, enemies entered play when drawn)."""
    for kind in (L.K_PRECIPICE, L.K_GOBLIN, L.K_MOUNT):
        for i in range(s.table[L.T_DRAWN]):
            c = s.drawn[i]
            if t.cards[c, L.CD_KIND] != kind:
                continue
            if s.table[L.T_OVER] != L.OVER_RUNNING:
                discard(s, c)  # the game is lost: the card is not resolved, but it is not lost either
            elif kind == L.K_PRECIPICE:
                precipice(s, t, pol, params)
                discard(s, c)  # DM-5.2.5
            elif kind == L.K_GOBLIN:
                goblin(s, t, pol, params, t.cards[c, L.CD_REF])
                discard(s, c)  # DM-5.3.4
            else:
                f = free_amazon(s)  # DM-5.4.1: a riding amazon in play takes it at once
                if f >= 0:
                    mount_foe(s, f, t.cards[c, L.CD_REF], c, 0)
                else:
                    to_middle(s, t.cards[c, L.CD_REF], c, 0)  # DM-5.4.2
    s.table[L.T_DRAWN] = 0


# ---------------------------------------------------------------- the turn (DM-3)
@jit(inline=True)
def boss_in_play(s):
    """A boss, sub-boss or final boss in play (DM-5.5.2)."""
    for f in range(s.table[L.T_FOES]):
        if s.foes[f, L.F_ROLE] != L.ROLE_ENEMY:
            return True
    return False


@jit
def attack_round(s, t, pol, params):
    """DM-5.5.1: each hero in turn order makes exactly one attack while enemies are in play."""
    s.table[L.T_FIGHT_ROUNDS] += 1
    for k in range(s.table[L.T_HEROES]):
        h = seat_at(s, k)
        if s.table[L.T_FOES] == 0 or s.table[L.T_OVER] != L.OVER_RUNNING:
            return
        if s.heroes[h, L.H_OUT] == 0:
            hero_attack(s, t, pol, params, h)


@jit
def fight(s, t, pol, params):
    """DM-5.5: one round of attacks; while a boss or sub-boss is in play the rounds go on (DM-5.5.2), and so
    they do against enemies left once the site's bosses are in under reading ``fight_on`` (DM-10.3; by default
    normal enemies get one round a turn, seed L39)."""
    if s.table[L.T_FOES] > 0:
        attack_round(s, t, pol, params)
    if s.table[L.T_BOSSES_DUE] == 1 and s.table[L.T_OVER] == L.OVER_RUNNING:
        bosses_enter(s, t)  # DM-4.5 reading after_cards
    cap = s.variants[V.V_MAX_TURNS] * L.FIGHT_ROUNDS_PER_TURN
    while s.table[L.T_OVER] == L.OVER_RUNNING and s.table[L.T_FOES] > 0 and (
            boss_in_play(s) or (s.table[L.T_BOSSES_IN] == 1 and s.variants[V.V_LEFTOVER] == V.LEFTOVER_FIGHT_ON)):
        if s.table[L.T_FIGHT_ROUNDS] >= cap:
            s.table[L.T_OVER] = L.OVER_TIMEOUT
            return
        attack_round(s, t, pol, params)


@jit
def take_mount(s, t, h, m):
    """DM-8.1: hero ``h`` takes middle mount ``m`` (allowed while exhausted)."""
    mount, card, damage = pop_middle(s, m)
    ride(s, t, h, mount, card, damage)
    event(s, L.E_MOUNT_TAKEN, h, s.heroes[h, L.H_MOUNT], -1, 0)


@jit
def bonus_strike(s, t, pol, params, h):
    """DM-8.1 strike: the white die alone; a success deals its value (mounted: the mount's damage) to a chosen
    enemy; enemies never strike back in the bonus phase (DM-8.2)."""
    row = s.heroes[h]
    w = d6(s)
    s.table[L.T_WHITE], s.table[L.T_RED] = w, 0
    event(s, L.E_ROLL, h, w, 0, L.ATTACK_BONUS)
    faces, damage, m = row[L.H_FACES], w, row[L.H_MOUNT]
    if m >= 0 and not (s.variants[V.V_MOUNTED_FACES] == 1 and t.mounts[m, L.MT_LEVEL] == 3):
        faces = t.mounts[m, L.MT_FACES]
        damage = w if t.mounts[m, L.MT_DAMAGE] == L.DIE else t.mounts[m, L.MT_DAMAGE]
    elif m >= 0:
        damage = min(w, 4)
    if has(faces, w):
        asking(s, L.ATTACK_BONUS, L.STOPS_NOTHING)
        strike_foe(s, t, pol, params, h, L.HOOK_TARGET, damage + attack_bonus(s, h), w, 0, False)
    s.table[L.T_WHITE] = 0


@jit
def bonus_phase(s, t, pol, params):
    """DM-8: in turn order each hero strikes, recovers or takes a mount — not in a turn whose site bosses enemy
    points called (DM-8.4; phase 1 by reading ``bonus_after_bosses``) nor while a boss or sub-boss is in play
    (DM-8.3); a hero with nothing useful to do skips it (DM-8.5)."""
    if s.table[L.T_NO_BONUS] == 1 or boss_in_play(s):
        return
    for k in range(s.table[L.T_HEROES]):
        h = seat_at(s, k)
        row = s.heroes[h]
        if row[L.H_OUT] == 1:
            continue
        set_opt(s, 0, L.A_PASS)
        n = 1
        if s.table[L.T_FOES] > 0:
            set_opt(s, n, L.A_STRIKE)
            n += 1
        if row[L.H_EXHAUSTED] == 1:
            set_opt(s, n, L.A_RECOVER)
            n += 1
        if row[L.H_MOUNT] < 0:
            for m in range(s.table[L.T_MIDDLE]):
                set_opt(s, n, L.A_MOUNT)
                mount = s.middle[m, L.M_MOUNT]
                s.opts[n, L.OPT_MOUNT], s.opts[n, L.OPT_LEVEL] = m, t.mounts[mount, L.MT_LEVEL]
                s.opts[n, L.OPT_DAMAGE] = t.mounts[mount, L.MT_DAMAGE]
                s.opts[n, L.OPT_FACES] = t.mounts[mount, L.MT_FACES]
                s.opts[n, L.OPT_LEFT] = t.mounts[mount, L.MT_VITALITY] - s.middle[m, L.M_DAMAGE]
                n += 1
        if n == 1:
            continue
        s.table[L.T_ACTOR] = h
        k_row = ask(s, pol, params, L.HOOK_BONUS, h, n)
        action, m = s.opts[k_row, L.OPT_ACTION], s.opts[k_row, L.OPT_MOUNT]
        event(s, L.E_BONUS, h, action, s.middle[m, L.M_MOUNT] if action == L.A_MOUNT else -1, 0)
        if action == L.A_STRIKE:
            bonus_strike(s, t, pol, params, h)
        elif action == L.A_RECOVER:
            row[L.H_EXHAUSTED] = 0
        elif action == L.A_MOUNT:
            take_mount(s, t, h, m)
        if s.table[L.T_OVER] != L.OVER_RUNNING:
            return
        if boss_in_play(s):
            break  # DM-8.4: a strike's points completed the site, the bosses are in: the bonus phase ends
    s.table[L.T_ACTOR] = -1


@jit
def complete_site(s, t, pol, params):
    """DM-10.3: the site's printed goblin for everyone (DM-5.3.5), the site to the bottom, the track to 0, and the
    next deck: the deck, the discard pile (beaten bosses included) and the next level pile, shuffled."""
    site = s.table[L.T_SITE]
    if t.sites[site, L.S_GOBLIN] >= 0:
        goblin(s, t, pol, params, t.sites[site, L.S_GOBLIN])
    s.table[L.T_SITES_DONE] += 1
    nd = s.table[L.T_DECK]
    for i in range(s.table[L.T_DISCARD]):
        s.deck[nd] = s.discard[i]
        nd += 1
    s.table[L.T_DISCARD] = 0
    if s.variants[V.V_MIDDLE_MOUNTS] == 1:  # GAP reading: free mounts go into the next deck
        for m in range(s.table[L.T_MIDDLE]):
            s.deck[nd] = s.middle[m, L.M_CARD]
            nd += 1
        s.table[L.T_MIDDLE] = 0
    pile = t.sites[site + 1, L.S_PILE]
    if pile > 0:
        for c in range(t.cards.shape[0]):
            if t.cards[c, L.CD_PILE] == pile:
                s.deck[nd] = c
                nd += 1
    s.table[L.T_DECK] = nd
    shuffle(s, s.deck, nd)
    event(s, L.E_SITE_DONE, -1, site, nd, pile)
    enter_site(s, t, site + 1)
    if s.variants[V.V_CARRY_OVER] == 1:  # GAP reading: the heroes start the site unhurt and ready
        for h in range(s.table[L.T_HEROES]):
            s.heroes[h, L.H_DAMAGE] = 0
            s.heroes[h, L.H_EXHAUSTED] = 0


@jit
def check_site(s, t, pol, params):
    """Once the site's bosses are in and no enemy is left (nor a final boss still to come): at the Castle the
    team wins (DM-1.2), elsewhere the site is complete (DM-10.3)."""
    if (s.table[L.T_OVER] != L.OVER_RUNNING or s.table[L.T_BOSSES_IN] == 0 or s.table[L.T_FOES] > 0
            or s.table[L.T_FINALS_DUE] == 1):
        return
    if s.table[L.T_SITE] == t.sites.shape[0] - 1:
        s.table[L.T_SITES_DONE] += 1
        s.table[L.T_OVER] = L.OVER_WON
        return
    complete_site(s, t, pol, params)


@jit
def play_turn(s, t, pol, params):
    """DM-3.1: advance and draw (DM-4), card resolution and attacks (DM-5), bonus (DM-8); then the turn-sequence
    card passes to the left (DM-8.6)."""
    s.table[L.T_TURN] += 1
    if s.table[L.T_TURN] > s.variants[V.V_MAX_TURNS]:
        s.table[L.T_OVER] = L.OVER_TIMEOUT
        return
    if s.search.shape[0] > 0 and s.search[L.SR_TURN_DICE] == 1:
        # a fair rollout (dsim.search): each turn's dice from (rollout key, turn), so every option of a decision
        # meets the same dice from the next turn on, whatever dice it used before (common random numbers)
        s.rng[0] = mix64(np.uint64(s.search[L.SR_KEY]) ^ (np.uint64(s.table[L.T_TURN]) * np.uint64(0x9E3779B97F4A7C15)))
        s.rng[1] = 0
    s.table[L.T_NO_BONUS] = 0
    for h in range(s.table[L.T_HEROES]):
        s.heroes[h, L.H_SHIELD_USED] = 0
    event(s, L.E_TURN, seat_at(s, 0), s.table[L.T_SITE], s.table[L.T_ADVANCE], s.table[L.T_LIVES])
    for k in range(s.table[L.T_HEROES]):  # phase 1 (DM-4)
        if s.table[L.T_BOSSES_IN] == 1 or s.table[L.T_BOSSES_DUE] == 1:
            break  # DM-4.5: the site is complete, the others skip phase 1
        h = seat_at(s, k)
        if s.heroes[h, L.H_OUT] == 1:
            continue
        s.table[L.T_ACTOR] = h
        action = L.A_WALK
        if s.heroes[h, L.H_EXHAUSTED] == 0:  # DM-4.2
            set_opt(s, 0, L.A_WALK)
            set_opt(s, 1, L.A_RUN)
            action = s.opts[ask(s, pol, params, L.HOOK_MOVE, h, 2), L.OPT_ACTION]
        steps = 2 if action == L.A_RUN else 1
        event(s, L.E_MOVE, h, action, steps, 0)
        advance(s, t, steps, True)
        for _ in range(steps):
            draw(s, t, h)
    s.table[L.T_ACTOR] = -1
    resolve_drawn(s, t, pol, params)  # phase 2 (DM-5)
    if s.table[L.T_OVER] == L.OVER_RUNNING:
        fight(s, t, pol, params)
    check_site(s, t, pol, params)
    if s.table[L.T_OVER] == L.OVER_RUNNING:
        bonus_phase(s, t, pol, params)  # phase 3 (DM-8)
        check_site(s, t, pol, params)
    n = s.table[L.T_HEROES]
    for k in range(1, n + 1):  # DM-8.6: the card passes to the left (to a hero still in the game)
        h = (s.table[L.T_FIRST] + k) % n
        if s.heroes[h, L.H_OUT] == 0:
            s.table[L.T_FIRST] = h
            break


@jit
def finish(s, out):
    """The outcome row of a finished game (``layout.OUT_*``)."""
    over = s.table[L.T_OVER]
    out[L.OUT_WIN] = 1 if over == L.OVER_WON else 0
    out[L.OUT_OVER] = over
    out[L.OUT_TURNS] = min(s.table[L.T_TURN], s.variants[V.V_MAX_TURNS])
    out[L.OUT_LIVES] = s.table[L.T_LIVES]
    out[L.OUT_END_SITE] = s.table[L.T_SITE]
    out[L.OUT_END_CARD] = s.table[L.T_END_CARD] if over == L.OVER_LOST else -2
    out[L.OUT_SITES] = s.table[L.T_SITES_DONE]
    out[L.OUT_DEATHS] = s.table[L.T_DEATHS]
    out[L.OUT_FIGHT_ROUNDS] = s.table[L.T_FIGHT_ROUNDS]
    used = 0
    for h in range(L.MAX_HEROES):
        out[L.OUT_DEATHS_SEAT + h] = s.heroes[h, L.H_DEATHS] if h < s.table[L.T_HEROES] else 0
        used += s.heroes[h, L.H_POTIONS_USED] if h < s.table[L.T_HEROES] else 0
    out[L.OUT_POTIONS_USED] = used
    event(s, L.E_END, -1, over, s.table[L.T_SITE], s.table[L.T_LIVES])


SEARCH_SHAPING = 0.25
"""A lost game's worth to a searcher per share of the way to the Castle's end (a win is worth 1)."""


@jit
def search_value(s):
    """A game's value to a searcher (``dsim.search``): 1 for a win, else ``SEARCH_SHAPING`` times the share of the
    way through the four sites (DM-1.1) it got, so that among lost rollouts the one that got further counts more."""
    if s.table[L.T_OVER] == L.OVER_WON:
        return 1.0
    target = max(s.table[L.T_TARGET], 1)
    site = min(s.table[L.T_SITES_DONE] + min(s.table[L.T_ADVANCE], target) / target, 4.0)
    return SEARCH_SHAPING * site / 4.0


@jit
def play_game(s, t, pol, params, party, lives, items, key, out):
    """One whole game (DM-2 setup, turns until victory, defeat or the turn cap) and its outcome row."""
    setup(s, t, party, lives, items, key)
    while s.table[L.T_OVER] == L.OVER_RUNNING:
        play_turn(s, t, pol, params)
    finish(s, out)
