"""A whole game's log for ``dsim explain --game dstbg_game``: every event between battles, with its rule."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dsim.games.dstbg_game import layout as G
from dsim.text import count

if TYPE_CHECKING:
    from dsim.games.dstbg_game.compile import CompiledGame
    from dsim.games.dstbg_game.cell import Cell

RULES = {
    "setup": "R-1", "deal": "R-1.6", "battle": "R-8", "souls": "R-8.4", "defeat": "R-8.5", "rest": "R-5.9",
    "buy": "R-5.4", "place": "R-5.5", "level": "R-5.7", "luck": "R-5.8", "ember": "R-3.8", "chest": "R-7.6",
    "area_won": "R-12.27", "won": "R-12.27", "lost": "R-5.10", "retrieve": "R-8.6", "spark": "R-13.5",
    "sell": "R-13.8", "capped": "sim", "upgrade": "R-4.7",
}
STATS = ("strength", "dexterity", "intelligence", "faith")
SLOTS = ("armour", "hand 0", "hand 1", "backup", "backup")
BATTLE_RESULTS = {1: "won", 2: "lost", 3: "timeout (a defeat)", 4: "retreated (R-13.4)"}
ROUTE = ("battle", "rest")  # the events a route answer leads to; a spend's, a placement's
SPEND = ("buy", "level", "luck")
WHY = {  # G_WHY: the strategy's reason in words, and the events it explains
    G.WHY_EXPLORE: (ROUTE, "every face-down tile first, the lowest level first (D-6)"),
    G.WHY_REST_READY: (ROUTE, "to ready estus, luck and heroic actions for the boss (D-7)"),
    G.WHY_REST_ESTUS: (ROUTE, "the estus is spent and a spark is to spare (D-7)"),
    G.WHY_REST_FARM: (ROUTE, "to farm the map again, sparks above the floor (D-7)"),
    G.WHY_REST_WOUNDS: (ROUTE, "a retreat's wounds need the estus refilled (R-13.4)"),
    G.WHY_BOSS_READY: (ROUTE, "ready: every estus, luck and heroic action in hand"),
    G.WHY_BOSS_SPARKS: (ROUTE, "a rest would spend sparks kept for the boss"),
    G.WHY_BOSS_NO_REST: (ROUTE, "the map is cleared and the estus is full"),
    G.WHY_BOSS_RUSH: (ROUTE, "the boss as soon as its gate is open"),
    G.WHY_FOG: (ROUTE, "the way to the fog gate"),
    G.WHY_NOT_OFFERED: (ROUTE, "a rest was wanted but none is offered here"),
    G.WHY_LUCK: (SPEND, "a used luck token readied for the boss (R-5.8)"),
    G.WHY_LEVEL: (SPEND, "the level unlocks a card worth its price per tier (R-5.7)"),
    G.WHY_BUY: (SPEND, "souls left above the reserve (R-5.4)"),
    G.WHY_EQUIP: (("place",), "the slot it improves most, above the margin (R-5.5)"),
    G.WHY_INVENTORY: (("place",), "no slot gains enough"),
}


def game_events(cell: Cell, seed: int, stream: int, index: int) -> list[dict[str, Any]]:
    """The logged events of game ``index`` as records (event, rule, battle number, fields a–d, and the event
    in words: the fields' meaning differs by event)."""
    from dsim.games.dstbg_game import engine
    from dsim.games.dstbg_game.searched import battle_player

    policy, params, decisions, _ = battle_player(cell, seed, stream, index)
    s, *_ = engine.play_one(cell.compiled, policy, cell.strategy.decide, params, cell.strategy_params, seed, stream,
                            index, decisions=decisions)
    events = []
    for row in s.log[: s.cursor[0]]:
        name = G.EVENT_NAMES[row[0]]
        event = {"event": name, "rule": RULES[name], "battle": int(row[5]), "a": int(row[1]), "b": int(row[2]),
                 "c": int(row[3]), "d": int(row[4]), "why": why(name, int(row[2]), int(row[G.EV_FIELDS + G.R_GAME * G.WIDTH + G.G_WHY]))}
        # --json readers get the fields in words too, and the state after the event
        events.append(event | {"text": describe(event, cell.compiled), "state": _state(row[G.EV_FIELDS:], cell.compiled)})
    return events


def why(event: str, b: int, code: int) -> str | None:
    """The strategy's reason (``G_WHY`` when the event was logged) for an event its answer led to, in words; a rest
    forced by a defeat (R-8.5, field ``b`` 0) was nobody's choice."""
    events, text = WHY.get(code, ((), ""))
    return text if event in events and (event != "rest" or b == 1) else None


def _fields(prefix: str, width: int, skip: tuple[str, ...] = ()) -> dict[str, int]:
    """Column names of a row kind from the layout (``G_SPARKS`` → ``sparks``), every one below ``width``."""
    return {name[len(prefix):].lower(): value for name, value in vars(G).items()
            if name.startswith(prefix) and isinstance(value, int) and value < width and name not in skip}


_GAME = _fields("G_", G.G_FIELDS)
_PARTY = _fields("P_", G.P_FIELDS, ("P_TIER", "P_SLOT"))
_TILE = _fields("TL_", G.TL_FIELDS, ("TL_CARD", "TL_TRAP0"))


def _state(snapshot: Any, cg: CompiledGame) -> dict[str, Any]:
    """The game row, each character's row and each dealt tile's row after an event, named by the layout;
    cards and encounters by their ids."""
    pub = snapshot.reshape(G.R_OPTS, G.WIDTH)
    game = {name: int(pub[G.R_GAME, col]) for name, col in _GAME.items()}
    party = []
    for seat in range(game["n_chars"]):
        row = pub[G.R_PARTY + seat]
        party.append({"character": _seat(cg, seat),
                      "tiers": {stat: int(row[G.P_TIER + k]) for k, stat in enumerate(STATS)},
                      "slots": [_card(cg, int(row[G.P_SLOT + k])) if row[G.P_SLOT + k] >= 0 else None
                                for k in range(G.N_SLOTS)],
                      **{name: int(row[col]) for name, col in _PARTY.items()}})
    tiles = []
    for tile in range(game["n_tiles"]):
        row = pub[G.R_TILES + tile]
        card = int(row[G.TL_CARD])
        traps = [_trap(int(x)) for x in row[G.TL_TRAP0:G.TL_TRAP0 + G.TRAP_NODES]] if row[G.TL_TRAPS_SET] else None
        tiles.append({"encounter": cg.encounter_ids[card] if 0 <= card < len(cg.encounter_ids) else None,
                      **{name: int(row[col]) for name, col in _TILE.items()}, "traps": traps})
    return {"game": game, "party": party, "tiles": tiles}


def _trap(token: int) -> dict[str, int] | str | None:
    """A node's trap token as the players know it: ``None`` (no token), ``"?"`` (face down, never sprung) or the
    damage and dodge difficulty it showed when sprung."""
    if token < 0:
        return "?" if token == G.TRAP_HIDDEN else None
    return {"damage": token // 8, "dodge": token % 8}


def _card(cg: CompiledGame, card: int) -> str:
    return cg.card_names[card] if 0 <= card < len(cg.card_names) else "?"


def _seat(cg: CompiledGame, seat: int) -> str:
    return cg.party[seat] if 0 <= seat < len(cg.party) else "?"


def describe(event: Mapping[str, Any], cg: CompiledGame) -> str:
    """One readable line of a game event."""
    name, a, b, c, d = event["event"], event["a"], event["b"], event["c"], event["d"]
    text = {
        "setup": lambda: f"setup: {count(a, 'spark')}, {count(b, 'soul')}",
        "deal": lambda: f"tile {a + 1}: {cg.encounter_ids[b]} (level {c}){' — fog gate' if d else ''}",
        "battle": lambda: f"battle #{c} {f'against {cg.boss_ids[a - G.TILE_BOSS]}' if a >= G.TILE_BOSS else f'on tile {a + 1}'}"
                          f": {BATTLE_RESULTS.get(b, b)} after {count(d, 'round')}",
        "souls": lambda: f"+{count(a, 'soul')} (cache {b})",
        "defeat": lambda: f"defeat: {count(a, 'soul')} dropped, {count(b, 'spark')} on the dial",
        "rest": lambda: f"rest ({'chosen' if b else 'forced or free'}): {count(a, 'spark')} left",
        "buy": lambda: f"bought a treasure card for {count(b, 'soul')}",
        "place": lambda: f"{_card(cg, a)} → {_seat(cg, b)} ({SLOTS[c]})" if b >= 0 else f"{_card(cg, a)} → inventory",
        "level": lambda: f"{_seat(cg, a)}: {STATS[b]} to tier {c} for {count(d, 'soul')}",
        "luck": lambda: f"{_seat(cg, a)}: luck ready again for {count(b, 'soul')}",
        "ember": lambda: f"ember to {_seat(cg, a)}" if a >= 0 else "ember shuffled back (every character has one)",
        "chest": lambda: f"chest opened on tile {a + 1}",
        "area_won": lambda: f"area {b + 1} won: {count(a, 'boss treasure card')} to the inventory; a new map",
        "won": lambda: "main boss beaten: the game is won",
        "lost": lambda: "defeat at 0 sparks: the game is lost",
        "retrieve": lambda: f"{count(a, 'dropped soul')} picked up (cache {b})",
        "spark": lambda: f"spark bought for {count(b, 'soul')}: {count(a, 'spark')}",
        "sell": lambda: f"{_card(cg, a)} sold for 1 soul",
        "capped": lambda: "battle cap reached (house rule max_battles): game cut off",
        "upgrade": lambda: (f"{_card(cg, a)} taken off {_card(cg, b)} (to the inventory)" if d else
                            f"{_card(cg, a)} put on {_card(cg, b)}" + (f" ({_seat(cg, c)})" if c >= 0 else " (inventory)")),
    }[name]()
    return f"[{event['rule']}] {text}"


def explained(event: Mapping[str, Any], cg: CompiledGame) -> str:
    """:func:`describe`, and under it the strategy's reason for the choice behind the event, when it gave one."""
    reason = event.get("why")
    return describe(event, cg) + (f"\n    why: {reason}" if reason else "")
