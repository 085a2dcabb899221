"""Bloodborne single-rule test kit: a hand-set table, forced monster-die faces and scripted hunters.

``scene(...)`` sets a game up (BB-2) and then clears the table for one scenario (monster, echoes, first
player, hands, forced faces); ``play(s, {seat: {...}})`` plays ONE round (BB-4.1) with the :func:`scripted`
policy; ``events(s)`` decodes the trace into dicts with names.

The scripted policy reads its seat's parameter row: ``params[hook * ROUNDS + round - 1]`` (the last of
the ``ROUNDS`` entries holds for later rounds) is the card kind (``OPT_CARD``) to pick at that hook, or
for the ``cancel`` and ``upgrade`` hooks the target seat / display slot (``OPT_SEAT``). A negative
entry, or a value no offered row carries, takes option 0 (the first row).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from dsim.games.bloodborne import engine
from dsim.games.bloodborne.compile import Compiled, compile_tables
from dsim.games.bloodborne.kernel import layout as L
from dsim.games.bloodborne.loader import load_data
from dsim.games.bloodborne.policy import policy_function, public_views
from dsim.games.bloodborne.variants import VARIANTS
from dsim.policy import compiled

ROUNDS = 16
"""Rounds a script spells out one by one (later rounds repeat the last entry)."""
HOOKS = {name: k for k, name in enumerate(L.HOOK_NAMES)}
FORCED_CAP = 32
"""Room for forced die faces in every scene (``force`` loads fewer)."""
PLAIN = "monster_yellow_3_kin"
"""A monster with no ability: what a scene's dungeon deck holds past the cards a test names."""
_CACHE: dict[Any, Compiled] = {}


@policy_function
def scripted(hook, seat, public, n, params):
    """The row the script names for this hook and round (by card kind, or by seat/slot for cancel and
    upgrade); option 0 when the script says nothing or names a row not offered."""
    table, hunters, hand, used, opts = public_views(public)
    r = min(max(table[L.T_ROUND], 1), ROUNDS) - 1
    want = params[hook * ROUNDS + r]
    if want < 0:
        return 0
    col = L.OPT_SEAT if hook == L.HOOK_CANCEL or hook == L.HOOK_UPGRADE else L.OPT_CARD
    for k in range(n):
        if opts[k, col] == want:
            return k
    return 0


POLICIES = (compiled(scripted),)


# ---------------------------------------------------------------- data
def comp(overlay: Path | None = None) -> Compiled:
    """The compiled shipped data (or with an overlay folder), loaded once per session."""
    key = None if overlay is None else str(overlay)
    if key not in _CACHE:
        _CACHE[key] = compile_tables(load_data(overlay))
    return _CACHE[key]


def card(cid: str, c: Compiled | None = None) -> int:
    """Index of an action card kind by id."""
    return (c or comp()).card_ids.index(cid)


def dungeon(did: str, c: Compiled | None = None) -> int:
    """Index of a dungeon card (monster, boss, Final Boss) by id."""
    return (c or comp()).dungeon_ids.index(did)


def track(tid: str, c: Compiled | None = None) -> int:
    """Index of a trophy track by id."""
    return (c or comp()).track_ids.index(tid)


def face(die: str, label: int | str, c: Compiled | None = None) -> int:
    """Index of the first face of ``die`` reading ``label`` (``2`` or ``"2+"`` for a combo face)."""
    c = c or comp()
    d = c.die_ids.index(die)
    text = str(label)
    value, combo = int(text.rstrip("+")), text.endswith("+")
    for i in range(c.tables.die_values.shape[1]):
        if c.tables.die_values[d, i] == value and bool(c.tables.die_combo[d, i]) == combo:
            return i
    raise ValueError(f"die {die!r} has no face {label!r}")


def variants(**settings: Any) -> np.ndarray:
    """The variant vector: defaults, overridden by ``name=reading``."""
    return VARIANTS.vector(settings)


# ---------------------------------------------------------------- scripts
def _value(hook: int, v: Any, c: Compiled) -> float:
    if v is None:
        return -1.0
    if isinstance(v, str):
        return float(card(v, c))
    return float(v)


def script(hunters: int, seats: dict[int, dict[str, Any]] | None = None, c: Compiled | None = None) -> np.ndarray:
    """Parameter rows of :func:`scripted`: ``{seat: {"play": "hunter_axe", "transform": [...], ...}}``; a
    value is a card id (or index), a seat / slot for ``cancel`` / ``upgrade``, or a list, one per round."""
    c = c or comp()
    rows = np.full((hunters, len(HOOKS) * ROUNDS), -1.0)
    for seat, hooks in (seats or {}).items():
        for name, v in hooks.items():
            hook = HOOKS[name]
            values = list(v) if isinstance(v, (list, tuple)) else [v]
            for r in range(ROUNDS):
                rows[seat, hook * ROUNDS + r] = _value(hook, values[min(r, len(values) - 1)], c)
    return rows


# ---------------------------------------------------------------- scenes
def set_monster(s: Any, did: str | int, echoes: int | None = None, c: Compiled | None = None) -> None:
    """Make ``did`` the current card with ``echoes`` on it (default: its BB-3.1 health), keeping the echo
    count conserved (the difference comes from / goes to the reserve)."""
    c = c or comp()
    t = c.tables
    d = dungeon(did, c) if isinstance(did, str) else int(did)
    n = int(s.table[L.T_HUNTERS])
    if echoes is None:
        echoes = int(t.dungeon[d, L.DG_HEALTH]) + n - 3
    old = int(s.table[L.T_ECHOES]) if s.table[L.T_MONSTER] >= 0 else 0
    s.table[L.T_RESERVE] += old - echoes
    s.table[L.T_MONSTER], s.table[L.T_ECHOES] = d, echoes
    s.table[L.T_MONSTER_CLASS] = t.dungeon[d, L.DG_CLASS]
    s.table[L.T_MONSTER_DIE] = t.dungeon[d, L.DG_DIE]
    s.table[L.T_MONSTER_TROPHY] = t.dungeon[d, L.DG_TROPHY]
    s.table[L.T_MONSTER_MEAN10] = t.die_mean10[t.dungeon[d, L.DG_DIE]]


def set_hand(s: Any, h: int, cards: dict[str, int] | list[str], c: Compiled | None = None) -> None:
    """Hunter ``h``'s hand becomes exactly ``cards`` (ids, or ``{id: copies}``); H_OWNED follows (hand + used)."""
    c = c or comp()
    s.hand[h] = 0
    items = cards.items() if isinstance(cards, dict) else [(cid, 1) for cid in cards]
    for cid, k in items:
        s.hand[h, card(cid, c)] += k
    s.hunters[h, L.H_OWNED] = s.hand[h].sum() + s.used[h].sum()


def set_used(s: Any, h: int, cards: dict[str, int] | list[str], c: Compiled | None = None) -> None:
    """Hunter ``h``'s used pile becomes exactly ``cards``; H_OWNED follows (hand + used)."""
    c = c or comp()
    s.used[h] = 0
    items = cards.items() if isinstance(cards, dict) else [(cid, 1) for cid in cards]
    for cid, k in items:
        s.used[h, card(cid, c)] += k
    s.hunters[h, L.H_OWNED] = s.hand[h].sum() + s.used[h].sum()


def set_deck(s: Any, ids: list[str], c: Compiled | None = None) -> None:
    """The dungeon deck from the next position on: ``ids`` top first (the rest left as set up)."""
    c = c or comp()
    k = int(s.table[L.T_DECK_NEXT])
    for i, did in enumerate(ids[: L.DECK_SIZE - k]):
        s.deck[k + i] = dungeon(did, c)


def set_display(s: Any, ids: list[str | None], c: Compiled | None = None) -> None:
    """The Available Upgrades, slot by slot (``None``: an empty slot; slots past the list empty)."""
    c = c or comp()
    s.display[:] = -1
    for slot, cid in enumerate(ids):
        if cid is not None:
            s.display[slot] = card(cid, c)


def set_trophies(s: Any, h: int, counts: dict[str, int], c: Compiled | None = None) -> None:
    """Hunter ``h``'s trophies, by track id (H_TROPHIES follows)."""
    c = c or comp()
    for tid, k in counts.items():
        s.trophies[h, track(tid, c)] = k
    s.hunters[h, L.H_TROPHIES] = s.trophies[h].sum()


def edited(c: Compiled | None = None, dungeon: dict[str, dict[int, int]] | None = None,
           cards: dict[str, dict[int, int]] | None = None) -> Any:
    """A copy of the tables with some columns changed: ``dungeon={"scourge_beast": {L.DG_CAP: 1}}`` (for
    effects no shipped card has)."""
    c = c or comp()
    d, k = c.tables.dungeon.copy(), c.tables.cards.copy()
    for did, cols in (dungeon or {}).items():
        for col, v in cols.items():
            d[dungeon_index(did, c), col] = v
    for cid, cols in (cards or {}).items():
        for col, v in cols.items():
            k[card(cid, c), col] = v
    return c.tables._replace(dungeon=d, cards=k)


def dungeon_index(did: str, c: Compiled | None = None) -> int:
    return dungeon(did, c)


def force(s: Any, *faces: int) -> None:
    """The next monster rolls use these face indices first (see ``roll_monster``), then the game's dice."""
    assert len(faces) <= s.forced.shape[0]
    s.forced[: len(faces)] = faces
    s.table[L.T_FORCED_N] = len(faces)
    s.table[L.T_FORCED_NEXT] = 0


def clear_trace(s: Any) -> None:
    s.trace[:] = 0
    s.table[L.T_NEV] = 0


def scene(hunters: int = 3, monster: str | None = "monster_green_3_beast", echoes: int | None = None,
          first: int = 0, variants: dict[str, Any] | np.ndarray | None = None, forced: tuple[int, ...] = (),
          hands: dict[int, Any] | None = None, health: dict[int, int] | None = None,
          collected: dict[int, int] | None = None, banked: dict[int, int] | None = None,
          display: list[str | None] | None = None, deck: list[str] | None = None,
          c: Compiled | None = None, seed: int = 0, index: int = 0) -> Any:
    """The state after BB-2 setup of game ``index``, with the table cleared for a hand-set scenario: the
    trace emptied, health 8, the current card replaced by ``monster`` (with ``echoes``), ``first`` to start,
    the given hands / health / echoes / display, ``forced`` die faces, and the dungeon deck from the next
    card on: ``deck`` then :data:`PLAIN` monsters (so the end-of-round reveal is predictable)."""
    c = c or comp()
    vec = variants if isinstance(variants, np.ndarray) else VARIANTS.vector(variants or {})
    s = engine.setup_game(c.tables, POLICIES, script(hunters, None, c), vec, hunters, seed=seed, index=index,
                          forced=np.zeros(FORCED_CAP, np.int32), trace_events=4000)
    clear_trace(s)
    s.hunters[:hunters, L.H_HEALTH] = L.START_HEALTH  # undo a setup card's on-reveal damage
    force(s, *forced)
    if monster is not None:
        set_monster(s, monster, echoes, c)
    s.table[L.T_FIRST] = first
    for h, cards in (hands or {}).items():
        set_hand(s, h, cards, c)
    for h, v in (health or {}).items():
        s.hunters[h, L.H_HEALTH] = v
    for h, v in (collected or {}).items():
        s.hunters[h, L.H_COLLECTED] = v
        s.table[L.T_RESERVE] -= v
    for h, v in (banked or {}).items():
        s.hunters[h, L.H_BANKED] = v
        s.table[L.T_RESERVE] -= v
    if display is not None:
        set_display(s, display, c)
    rest = L.DECK_SIZE - int(s.table[L.T_DECK_NEXT])
    set_deck(s, (list(deck) if deck is not None else []) + [PLAIN] * rest, c)  # past the list: plain monsters
    return s


def play(s: Any, seats: dict[int, dict[str, Any]] | None = None, c: Compiled | None = None,
         tables: Any = None) -> np.ndarray:
    """Play ONE round on ``s`` with the scripted choices (option 0 where unscripted); the outcome row."""
    c = c or comp()
    n = int(s.table[L.T_HUNTERS])
    return engine.play_round(tables if tables is not None else c.tables, s, POLICIES, script(n, seats, c))


def echo_total(s: Any) -> int:
    """Echoes on the monster + every hunter's Collected and Banked + the reserve (constant, BB-1.2)."""
    n = int(s.table[L.T_HUNTERS])
    return int(s.table[L.T_ECHOES] + s.hunters[:n, L.H_COLLECTED].sum() + s.hunters[:n, L.H_BANKED].sum()
               + s.table[L.T_RESERVE])


# ---------------------------------------------------------------- trace
EVENT_NAMES = {getattr(L, k): k[2:].lower() for k in dir(L) if k.startswith("E_")}
FIELDS = {
    "setup": ("final_boss", "hunters"), "reveal": ("monster", "echoes", "class"), "play": ("card",),
    "transform": ("card",), "clash": ("card",), "cancel": ("target",),
    "instant": ("card", "taken", "left"), "heal": ("in_dream",), "bank": ("echoes", "banked"),
    "roll": ("rolled", "damage"), "wound": ("damage", "health"), "death": ("lost",),
    "attack": ("card", "taken", "left"), "kill": ("monster",), "trophy": ("track", "count"),
    "escape": ("monster", "returned"), "recover": ("cards",), "revive": (), "upgrade": ("card",),
    "discard": ("card",), "first": (), "score": ("score", "banked", "win"), "end": ("over",),
    "decision": ("hook", "card", "target"), "lose_health": ("health",),
}


def events(s: Any, c: Compiled | None = None) -> list[dict[str, Any]]:
    """The trace as dicts: ``event`` (name), ``round``, ``seat``, the named fields (card and dungeon fields
    also as ids: ``card_id``, ``monster_id``), and the raw ``a``, ``b``, ``c``."""
    c = c or comp()
    out = []
    for row in s.trace[: s.table[L.T_NEV]]:
        name = EVENT_NAMES[int(row[L.EV_KIND])]
        ev: dict[str, Any] = {"event": name, "round": int(row[L.EV_ROUND]), "seat": int(row[L.EV_SEAT]),
                              "a": int(row[L.EV_A]), "b": int(row[L.EV_B]), "c": int(row[L.EV_C])}
        for field, v in zip(FIELDS[name], (ev["a"], ev["b"], ev["c"])):
            ev[field] = v
        if "card" in ev:
            ev["card_id"] = c.card_ids[ev["card"]] if ev["card"] >= 0 else None
        if "monster" in ev:
            ev["monster_id"] = c.dungeon_ids[ev["monster"]]
        if name == "decision":
            ev["hook"] = L.HOOK_NAMES[ev["a"]]
        out.append(ev)
    return out


def named(evs: list[dict[str, Any]], name: str, **match: Any) -> list[dict[str, Any]]:
    """The events of kind ``name`` whose fields equal ``match``."""
    return [ev for ev in evs if ev["event"] == name and all(ev.get(k) == v for k, v in match.items())]


def first(evs: list[dict[str, Any]], name: str, **match: Any) -> dict[str, Any]:
    """The first event of kind ``name`` matching ``match`` (AssertionError if none)."""
    found = named(evs, name, **match)
    assert found, f"no {name!r} event with {match} in the trace"
    return found[0]


def order(evs: list[dict[str, Any]], name: str) -> list[int]:
    """The seats of the events of kind ``name``, in trace order."""
    return [ev["seat"] for ev in evs if ev["event"] == name]
