"""The boss behaviour deck: setup, draws, recycling, heat-up (R-12.5–R-12.7, A-46) and the O&S switch.

The deck lives in the state as a card sequence ``deck[0 .. len)``: positions before ``pos`` are
the discard pile in the order drawn, the rest the face-down draw pile. An empty draw pile turns
the discard pile over without shuffling (``pos = 0``), so the boss repeats its pattern (R-12.7).
``known`` is the deck as the players know it (the policies' view): a draw shows its position's card,
a shuffle (``core.shuffle_range``) hides the positions it shuffled; after a whole cycle every position is known.
"""

from __future__ import annotations


from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.kernel.core import log, shuffle_range
from dsim.games.dstbg.kernel.jit import boss_step, kernel
from dsim.rng import randint


@kernel
def build_deck(t, b) -> None:
    """R-12.5: N random standard cards, one revealed per gravestone (card-id bits in G_REVEALED,
    policy information per A-48), then shuffled."""
    n_cards = t.cards.shape[0]
    pool = 0
    for k in range(n_cards):
        if t.cards[k, X.CARD_HEATUP] == 0:
            b.deck[pool] = k
            pool += 1
    shuffle_range(b, 0, pool)  # a random choice of N cards: the first N of a shuffled pool
    size = min(t.scen[X.SC_DECK_SIZE], pool)
    b.glob[L.G_DECK_LEN] = size
    b.glob[L.G_DECK_POS] = 0
    revealed = 0
    for g in range(min(t.scen[X.SC_GRAVESTONES], size)):
        revealed |= 1 << b.deck[g]  # a random card of the chosen set, as a card-id bit
    shuffle_range(b, 0, size)
    b.glob[L.G_REVEALED] = revealed if t.variants[L.V_GRAVESTONE_INFO] == 0 else 0
    log(b, L.ACTOR_NONE, -1, L.EV_REVEAL, size, t.scen[X.SC_GRAVESTONES], 0, 0, -1)


@kernel
def draw_card(b) -> int:
    """R-12.7: turn the next card face up onto the discard pile; rebuild an empty deck unshuffled."""
    if b.glob[L.G_DECK_POS] >= b.glob[L.G_DECK_LEN]:
        b.glob[L.G_DECK_POS] = 0
    pos = b.glob[L.G_DECK_POS]
    card = b.deck[pos]
    b.known[pos] = card  # the players see it, and where it lies in the deck's order
    b.glob[L.G_DECK_POS] = pos + 1
    b.glob[L.G_CARDS_DRAWN] += 1
    b.glob[L.G_LAST_CARD] = card
    return card


@kernel
def known_next_card(v) -> int:
    """The behaviour card the players know the boss draws next, or −1: the one place a policy's deck knowledge comes
    from. ``v`` is a battle or a policy's public view: only its globals and ``known`` (the cards seen at each deck
    position since the last shuffle) are read, never the deck's order. Known: when the draw pile is empty (the
    discard pile turns over unshuffled, its first card next, R-12.7); once every card has been drawn since the deck
    was built and no heat-up has reshuffled it (the repeat, R-12.7; after a heat-up the pattern is relearned, R-12.6:
    counted unknown, as ``core.hide_deck`` does); in the first cycle, when the one card left is a revealed one not
    yet drawn (R-12.5, A-48: reveals are card ids)."""
    size = v.glob[L.G_DECK_LEN]
    pos = v.glob[L.G_DECK_POS]
    if size <= 0:
        return -1
    if pos >= size:
        return v.known[0]
    if v.glob[L.G_HEATED] == 0 and v.glob[L.G_CARDS_DRAWN] >= size:
        return v.known[pos]
    if pos != size - 1:
        return -1
    left = v.glob[L.G_REVEALED]
    for i in range(pos):
        left &= ~(1 << v.known[i])
    for k in range(31):  # the one revealed card not drawn this cycle, if exactly one
        if left == (1 << k):
            return k
    return -1


@boss_step
def next_card_in_battle(t, b, x) -> int:
    """:func:`known_next_card` of battle ``b`` for rule code every battle runs (``x`` unused): an encounter's kernel
    compiles it as ``return 0`` and never reaches it, so the behaviour-deck code stays out of it."""
    return known_next_card(b)


@kernel
def add_heat_up_card(t, b, owner: int) -> None:
    """R-12.6: one random heat-up card joins the deck, then shuffle (A-46 scope)."""
    n = 0
    for k in range(t.cards.shape[0]):
        if t.cards[k, X.CARD_HEATUP] == 1 and (owner < 0 or t.cards[k, X.CARD_OWNER] == owner):
            n += 1
    if n == 0:
        return
    pick = randint(b.rng, n)
    for k in range(t.cards.shape[0]):
        if t.cards[k, X.CARD_HEATUP] == 1 and (owner < 0 or t.cards[k, X.CARD_OWNER] == owner):
            if pick == 0:
                size = b.glob[L.G_DECK_LEN]
                if size < L.MAX_DECK:
                    b.deck[size] = k
                    b.glob[L.G_DECK_LEN] = size + 1
                break
            pick -= 1
    reshuffle(t, b)


@kernel
def reshuffle(t, b) -> None:
    """Shuffle the whole deck, discards included (A-46 whole_deck), or only the draw pile."""
    if t.variants[L.V_HEATUP_SCOPE] == 1:
        shuffle_range(b, b.glob[L.G_DECK_POS], b.glob[L.G_DECK_LEN])
    else:
        shuffle_range(b, 0, b.glob[L.G_DECK_LEN])
        b.glob[L.G_DECK_POS] = 0
    b.glob[L.G_REVEALED] = 0  # the pattern must be relearned


@boss_step
def check_heat_up(t, b, e: int) -> None:
    """R-12.6: at or below the heat-up point the boss heats up once per battle (F-12.3 keeps the weak arc)."""
    et = b.enemies[e, L.E_TYPE]
    threshold = t.etypes[et, L.ET_HEATUP]
    if threshold < 0 or b.glob[L.G_HEATED] == 1:
        return
    if t.etypes[et, L.ET_HEALTH] - b.enemies[e, L.E_WOUNDS] <= threshold:
        b.glob[L.G_HEATED] = 1
        b.glob[L.G_HEATUP_ROUND] = b.glob[L.G_ROUND]
        log(b, L.ACTOR_ENEMY, e, L.EV_HEATUP, b.enemies[e, L.E_WOUNDS], 0, 0, 0, -1)
        add_heat_up_card(t, b, -1)


@boss_step
def pair_survivor(t, b, dead: int) -> None:
    """O&S (facts §5.3): when one dies the survivor heals and its own heat-up cards become the deck."""
    for e in range(b.glob[L.G_N_ENEMIES]):
        if e == dead or b.enemies[e, L.E_ALIVE] == 0:
            continue
        et = b.enemies[e, L.E_TYPE]
        if t.etypes[et, L.ET_SPECIAL] != L.SP_PAIR:
            continue
        b.enemies[e, L.E_WOUNDS] = max(0, b.enemies[e, L.E_WOUNDS] - t.etypes[et, L.ET_HEAL])
        size = 0
        for k in range(t.cards.shape[0]):
            if t.cards[k, X.CARD_HEATUP] == 1 and t.cards[k, X.CARD_OWNER] == e and size < L.MAX_DECK:
                b.deck[size] = k
                size += 1
        b.glob[L.G_DECK_LEN] = size
        b.glob[L.G_DECK_POS] = 0
        shuffle_range(b, 0, size)
        b.glob[L.G_HEATED] = 1
        b.glob[L.G_HEATUP_ROUND] = b.glob[L.G_ROUND]
        b.glob[L.G_REVEALED] = 0
        log(b, L.ACTOR_ENEMY, e, L.EV_HEATUP, t.etypes[et, L.ET_HEAL], 1, 0, 0, -1)
