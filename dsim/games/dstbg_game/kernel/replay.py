"""A whole game replayed with its battles' decisions forced (:mod:`dsim.search`, ``engine.GameReplayer``).

A game's decisions are its battles' decisions in the order the battles ask them (the strategy's choices between
battles stay the strategy's). The search log of the battle buffers (``context.SR_*``; the tile's and the arena's
share one array in a replay) then also holds the game's part from offset ``log[SR_GAME]``: the game's forced
prefix, how much of it the battles fought so far used, and the battle where the first unforced decision came up,
with the battle's starting scenario and walk distances: a snapshot from which a rollout replays that battle alone.
"""

from __future__ import annotations

from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as BL
from dsim.games.dstbg.kernel.battle import run_battle, search_value
from dsim.games.dstbg_game import layout as G
from dsim.games.dstbg_game.kernel.jit import gk
from dsim.numba_linking import in_batch

SR_GAME = 12  # battle search-log slot (free in a battle's header): where the game's part starts (0: not a game)
GA_LEN = 0  # the game's forced decisions
GA_USED = 1  # of them, used by the battles fought so far
GA_FOUND = 2  # 1 once a battle asked a decision past the prefix (the decision the search answers next)
GA_STOP = 3  # 1: end the game after that battle (a replay for the search); 0: play it to its end
GA_START = 4  # the found battle: its first decision's position in the game's prefix,
GA_TABLE = 5  # its tables (-1 the encounters', else the boss's index in Battles.bosses),
GA_NUMBER = 6  # its number in the game (its stream's index),
GA_STREAM = 7  # the game's battle stream,
GA_HOOK = 8  # and the decision: its hook, options and the base policy's answer
GA_OPTIONS = 9
GA_BASE = 10
GA_HIDE_AT = 11  # tests: before the game's decision GA_HIDE_AT the true battle's hidden state is redrawn (-1 never)
GA_HIDE_HI = 12  # from this key (the battle kernel's SR_HIDE_*)
GA_HIDE_LO = 13
GA_PREFIX = 16  # the game's forced decisions, then the found battle's scenario (SC_LEN), then its walk distances


def game_log_len(width: int, nodes: int) -> int:
    """The search log of a game replay with up to ``width`` forced decisions, encounter boards of ``nodes`` nodes."""
    return X.SR_CHOICES + width + 1 + GA_PREFIX + width + X.SC_LEN + nodes * nodes


@gk
def battle_begin(b) -> int:
    """Before a battle of a game replay: its share of the game's remaining forced decisions into its own search
    header. Returns where the game's part of the log starts (0: not a game replay)."""
    log = b.search
    if in_batch() == 1 or log.shape[0] == 0 or log[SR_GAME] == 0:
        return 0
    a = log[SR_GAME]
    for i in range(X.SR_CHOICES):
        if i != SR_GAME:
            log[i] = 0
    used = log[a + GA_USED]
    k = log[a + GA_LEN] - used
    for i in range(k):
        log[X.SR_CHOICES + i] = log[a + GA_PREFIX + used + i]
    log[X.SR_MODE] = X.SEARCH_ADVANCE
    log[X.SR_FORCED] = k
    hide = log[a + GA_HIDE_AT]
    log[X.SR_HIDE_AT] = hide - used if hide >= used else -1
    log[X.SR_HIDE_HI] = log[a + GA_HIDE_HI]
    log[X.SR_HIDE_LO] = log[a + GA_HIDE_LO]
    return a


@gk
def battle_end(g, s, t, b, stream: int, number: int) -> None:
    """After a battle of a game replay: count the forced decisions it used; if it asked one past them (the first
    time in the game), keep the battle's snapshot and decision and, in a search replay, end the game."""
    log = b.search
    a = log[SR_GAME]
    used = log[a + GA_USED]
    forced = log[X.SR_FORCED]
    log[a + GA_USED] = used + min(log[X.SR_ASKED], forced)
    if log[a + GA_FOUND] == 1 or log[X.SR_ASKED] <= forced:
        return
    game = s.pub[G.R_GAME]
    log[a + GA_FOUND] = 1
    log[a + GA_START] = used
    log[a + GA_TABLE] = -1 if t.scen[X.SC_IS_BOSS] == 0 else g.area_bosses[game[G.G_AREA], game[G.G_FIGHT]]
    log[a + GA_NUMBER] = number
    log[a + GA_STREAM] = stream
    log[a + GA_HOOK] = log[X.SR_HOOK]
    log[a + GA_OPTIONS] = log[X.SR_OPTIONS]
    log[a + GA_BASE] = log[X.SR_BASE]
    at = a + GA_PREFIX + log[a + GA_LEN]
    for i in range(X.SC_LEN):
        log[at + i] = t.scen[i]
    if log[a + GA_TABLE] < 0:  # an encounter's walk distances were written for its card (bosses' stay as compiled)
        at += X.SC_LEN
        n = t.dwalk0.shape[0]
        for x in range(n):
            for y in range(n):
                log[at + x * n + y] = t.dwalk0[x, y]
    if log[a + GA_STOP] == 1:
        game[G.G_OVER] = G.RESULT_CAPPED  # a search replay needs no more of this game


@gk
def rollout(t, b, policy, seed: int, stream: int, number: int, prefix, length: int, option: int, mode: int,
            key_hi: int, key_lo: int, hidden, start: int, keep: float) -> float:
    """One rollout of a game's battle from its snapshot (scenario already in ``t``): its decisions so far forced,
    then ``option``, then the base policy on the rollout stream (``SEARCH_FAIR``: what the players cannot see
    redrawn) or on the true one (``SEARCH_SEEING``). Its value is the battle's (``battle.search_value``), plus in a
    battle the game asks to win keeping the tokens for the boss (``NEED_KEEP``) and won, ``keep`` times the share of
    the party's estus, luck and heroic action kept.
    ``hidden`` (tests): the game's (decision, key hi, key lo) of a redraw of the true hidden state, ``start`` the
    battle's first decision in the game."""
    log = b.search
    for i in range(X.SR_CHOICES):
        log[i] = 0
    for i in range(length):
        log[X.SR_CHOICES + i] = prefix[i]
    log[X.SR_CHOICES + length] = option
    log[X.SR_MODE] = mode
    log[X.SR_FORCED] = length + 1
    log[X.SR_KEY_HI] = key_hi
    log[X.SR_KEY_LO] = key_lo
    log[X.SR_HIDE_AT] = hidden[0] - start if hidden[0] >= start else -1
    log[X.SR_HIDE_HI] = hidden[1]
    log[X.SR_HIDE_LO] = hidden[2]
    run_battle(t, b, policy, seed, stream, number)
    value = search_value(t, b)
    if keep > 0.0 and t.scen[X.SC_NEED] == BL.NEED_KEEP and b.glob[BL.G_OUTCOME] == BL.OUT_WIN:
        held = 0
        kept = 0
        for seat in range(t.scen[X.SC_N_CHARS]):
            at = X.SC_TOKENS + X.TOKEN_FIELDS * seat
            held += t.scen[at] + t.scen[at + 1] + t.scen[at + 2]
            kept += b.chars[seat, BL.C_ESTUS] + b.chars[seat, BL.C_LUCK] + b.chars[seat, BL.C_HEROIC]
        if held > 0:
            value += keep * kept / held
    return value
