"""Dark Maiden single-rule test kit: a hand-set table, forced dice and a scripted team.

``scene(...)`` sets a game up (DM-2) and clears the table for one scenario (no enemies, an empty deck and
discard pile unless given); ``force(s, 3, 4, …)`` queues die faces that every following roll takes in order
(white before red, the hero's test before the enemies'); ``step(s, "attack", hero, script)`` plays one step of
``dsim.games.dark_maiden.engine.STEPS``; ``events(s)`` decodes the trace into dicts.

The scripted policy reads its parameter vector: ``params[hook]`` is the row to pick at that hook, matched
against the row's action (``OPT_ACTION``) or, at the target/split/fall hooks, the unit of the row's foe (an
index of ``comp().unit_ids``; the first such row). A negative entry, or a value no offered row carries, takes
row 0. ``script(move="run", target="asesino", ...)`` builds the vector from names.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from dsim.games.dark_maiden import engine
from dsim.games.dark_maiden.compile import Compiled, compile_tables
from dsim.games.dark_maiden.kernel import layout as L
from dsim.games.dark_maiden.kernel.state import State
from dsim.games.dark_maiden.loader import load_data
from dsim.games.dark_maiden.policy import policy_function, public_views
from dsim.games.dark_maiden.trace import ACTIONS, events as decode
from dsim.games.dark_maiden.variants import VARIANTS
from dsim.policy import compiled
from dsim.rng import battle_key

FORCED_CAP = 64
"""Room for forced die faces in every scene."""
FOE_HOOKS = (L.HOOK_TARGET, L.HOOK_SPLIT, L.HOOK_FALL)
_CACHE: dict[Any, Compiled] = {}


@policy_function
def scripted(hook, seat, public, n, params):
    """The row whose action (or, at the foe hooks, whose foe's unit) is ``params[hook]``; row 0 otherwise. A
    vector of several blocks of ``len(HOOK_NAMES)`` gives each seat its own: ``params[seat * HOOKS + hook]``."""
    table, heroes, foes, opts = public_views(public)
    hooks = len(L.HOOK_NAMES)
    want = params[hook] if params.shape[0] <= hooks else params[seat * hooks + hook]
    if want < 0:
        return 0
    for k in range(n):
        if hook == L.HOOK_TARGET or hook == L.HOOK_SPLIT or hook == L.HOOK_FALL:
            if foes[opts[k, L.OPT_FOE], L.F_UNIT] == want:
                return k
        elif opts[k, L.OPT_ACTION] == want:
            return k
    return 0


POLICY = compiled(scripted)


def comp(overlay: Path | None = None) -> Compiled:
    """The compiled shipped data (or with an overlay folder), loaded once per session."""
    key = None if overlay is None else str(overlay)
    if key not in _CACHE:
        _CACHE[key] = compile_tables(load_data(overlay))
    return _CACHE[key]


def unit(uid: str) -> int:
    """Index of an enemy or boss by id."""
    return comp().unit_ids.index(uid)


def card(name: str, nth: int = 0) -> int:
    """The ``nth`` card whose name is ``name`` (an enemy, boss, goblin, mount or item id, or ``go``/``precipice``)."""
    return [c for c, n in enumerate(comp().card_names) if n == name][nth]


def script(**choices: str) -> np.ndarray:
    """The scripted policy's vector: ``hook=name`` with an action name of :data:`trace.ACTIONS` (``move="run"``,
    ``double="grab"``, ``bonus="mount"``) or, at target/split/fall, a unit id (``target="asesino"``)."""
    params = np.full(len(L.HOOK_NAMES), -1.0)
    for hook_name, value in choices.items():
        hook = L.HOOK_NAMES.index(hook_name)
        params[hook] = unit(value) if hook in FOE_HOOKS else ACTIONS[hook].index(value)
    return params


def variants(**readings: Any) -> np.ndarray:
    """The variant vector with the given readings (defaults elsewhere)."""
    return VARIANTS.vector(readings)


def scene(party: tuple[str, ...] = ("amazona",), lives: int = 12, items: int = -1, site: int = 0,
          deck: tuple[int, ...] = (), vary: dict[str, Any] | None = None, first: int = 0) -> State:
    """A set-up game (DM-2) cleared for one scenario: no enemy, no middle mount, ``deck`` as the whole deck
    (its first card on top), an empty discard pile, site ``site`` at advance 0, ``first`` holding the
    turn-sequence card, nothing forced yet."""
    c = comp()
    hero = np.array([c.hero_ids.index(p) for p in party], np.int32)
    s = engine.new_game(c.tables, variants(**(vary or {})), hero, lives, items, forced=np.zeros(FORCED_CAP, np.int32))
    s.table[L.T_FORCED_N] = 0
    s.table[L.T_FOES] = 0
    s.table[L.T_MIDDLE] = 0
    s.table[L.T_DISCARD] = 0
    s.table[L.T_NEV] = 0
    s.table[L.T_FIRST] = first
    set_deck(s, deck)
    s.table[L.T_SITE] = site
    s.table[L.T_TARGET] = c.tables.sites[site, L.S_TARGET]
    s.table[L.T_GO] = c.tables.sites[site, L.S_GO]
    return s


def set_deck(s: State, cards: tuple[int, ...] | list[int]) -> None:
    """The deck holds exactly ``cards``, the first on top."""
    s.table[L.T_DECK] = len(cards)
    s.deck[: len(cards)] = list(reversed(cards))


def force(s: State, *faces: int) -> None:
    """The next rolls take ``faces`` in order (then the game's stream again)."""
    s.forced[: len(faces)] = faces
    s.table[L.T_FORCED_N] = len(faces)
    s.table[L.T_FORCED_NEXT] = 0


def add_foe(s: State, uid: str, role: int = L.ROLE_ENEMY, damage: int = 0, nth: int = 0) -> int:
    """Put the ``nth`` card of enemy or boss ``uid`` in play as ``role`` with ``damage`` on it; its row."""
    c = comp()
    u = unit(uid)
    f = int(s.table[L.T_FOES])
    row = s.foes[f]
    row[:] = 0
    row[L.F_CARD], row[L.F_UNIT], row[L.F_ROLE] = card(uid, nth), u, role
    row[L.F_VITALITY] = c.tables.units[u, L.U_VITALITY]
    row[L.F_FACES] = c.tables.units[u, L.U_FACES]
    row[L.F_ARMOUR] = c.tables.units[u, L.U_ARMOUR]
    row[L.F_POINTS] = c.tables.units[u, L.U_POINTS] if role <= L.ROLE_SUB_BOSS else 0
    row[L.F_SPECIAL] = c.tables.units[u, L.U_SPECIAL]
    row[L.F_MOUNT], row[L.F_MOUNT_CARD] = -1, -1
    row[L.F_DAMAGE] = damage
    s.table[L.T_FOES] = f + 1
    return f


def mount_hero(s: State, h: int, level: int = 1, damage: int = 0) -> None:
    """Hero ``h`` rides the level-``level`` mount."""
    c = comp()
    m = [k for k in range(c.tables.mounts.shape[0]) if c.tables.mounts[k, L.MT_LEVEL] == level][0]
    s.heroes[h, L.H_MOUNT], s.heroes[h, L.H_MOUNT_CARD] = m, card(c.mount_ids[m])
    s.heroes[h, L.H_MOUNT_DAMAGE] = damage
    s.heroes[h, L.H_MOUNT_FACES], s.heroes[h, L.H_MOUNT_HIT] = c.tables.mounts[m, L.MT_FACES], c.tables.mounts[m, L.MT_DAMAGE]


def foe_units(s: State) -> list[str]:
    """The ids of the foes in play, in order of entry."""
    return [comp().unit_ids[s.foes[f, L.F_UNIT]] for f in range(s.table[L.T_FOES])]


def step(s: State, which: str, arg: int = 0, params: np.ndarray | None = None) -> np.ndarray:
    """Play one step on ``s`` with the scripted policy (``params`` from :func:`script`)."""
    return engine.step(comp().tables, s, POLICY, script() if params is None else params, which, arg)


def events(s: State, name: str | None = None) -> list[dict[str, Any]]:
    """The decoded trace (only the events called ``name`` if given)."""
    evs = decode(s.trace[: s.table[L.T_NEV]], comp())
    return [e for e in evs if name is None or e["event"] == name]


def reseed(s: State, index: int, seed: int = 0) -> State:
    """Random dice for a hand-set scene: ``s`` rolls from game ``index``'s stream of ``seed`` (``battle_key``,
    as DM-2's setup seeds a game), so scenes reseeded with different indices roll independent dice; ``s``."""
    s.rng[0], s.rng[1] = battle_key(seed, 0, index), 0
    return s


def attack(s: State, hero: int, *faces: int, **choices: str) -> None:
    """Hero ``hero`` attacks with the forced ``faces`` and the scripted ``choices``; every forced face is used."""
    force(s, *faces)
    step(s, "attack", hero, script(**choices))
    assert s.table[L.T_FORCED_NEXT] == len(faces), "the exchange rolled another number of dice than forced"


def foe_damage(s: State) -> list[tuple[str, int]]:
    """``(unit id, damage)`` of each foe in play, in order of entry."""
    return [(u, int(s.foes[f, L.F_DAMAGE])) for f, u in enumerate(foe_units(s))]
