"""Turn a battle's trace buffer into events: JSON-ready dicts and readable lines citing rule IDs."""

from __future__ import annotations

from typing import Any

import numpy as np

from dsim.games.dstbg.compile import Compiled
from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L

EVENTS = {
    L.EV_SETUP: ("setup", "R-7"),
    L.EV_PLACE: ("place", "R-7.8"),
    L.EV_AGGRO: ("aggro", "R-7.9"),
    L.EV_ROUND: ("round", "R-8.1"),
    L.EV_ACTIVATE: ("activate", "R-8.1"),
    L.EV_MOVE: ("move", "R-10.4"),
    L.EV_PUSH: ("push", "R-9.6"),
    L.EV_ATTACK: ("attack", "R-10.6"),
    L.EV_DEFEND: ("defend", "R-9.5"),
    L.EV_DAMAGE: ("damage", "R-9.3"),
    L.EV_CONDITION: ("condition", "R-9.10"),
    L.EV_CONDITION_END: ("condition_end", "R-9.10"),
    L.EV_DEATH: ("death", "R-3.3"),
    L.EV_ESTUS: ("estus", "R-3.5"),
    L.EV_LUCK: ("luck", "R-3.6"),
    L.EV_HEROIC: ("heroic", "R-3.7"),
    L.EV_TRAP: ("trap", "R-7.7"),
    L.EV_BARREL: ("barrel", "R-7.5"),
    L.EV_GAIN: ("gain", "R-3.4"),
    L.EV_END: ("end", "R-8.4"),
    L.EV_SWAP: ("swap", "R-10.1"),
    L.EV_ATTACK_FAIL: ("attack_fails", "R-11.9"),
    L.EV_STAMINA: ("stamina", "R-3.2"),
    L.EV_DECISION: ("decision", "§17"),
    L.EV_CARD: ("card", "R-12.7"),
    L.EV_TURN: ("turn", "R-12.14"),
    L.EV_HEATUP: ("heat_up", "R-12.6"),
    L.EV_LEAP: ("leap", "R-12.20"),
    L.EV_REVEAL: ("deck", "R-12.5"),
    L.EV_RETREAT: ("retreat", "R-13.4"),
    L.EV_ARC_SHIFT: ("round_boss", "R-12.10, R-12.11"),
}
ARCS = {L.ARC_FRONT: "front", L.ARC_RIGHT: "right", L.ARC_BACK: "back", L.ARC_LEFT: "left"}
FACINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def _arcs(mask: int) -> list[str]:
    return [name for bit, name in ARCS.items() if mask & bit]
HOOKS = {v: k[2:].lower() for k, v in vars(L).items() if k.startswith("H_")}
CONDITIONS = {L.COND_BLEED: "bleed", L.COND_POISON: "poison", L.COND_FROSTBITE: "frostbite", L.COND_STAGGER: "stagger"}
SOURCES = {L.SRC_ATTACK: "attack", L.SRC_BLEED: "bleed", L.SRC_POISON: "poison", L.SRC_TRAP: "trap", L.SRC_PUSH: "push"}
RESULTS = {L.OUT_RUNNING: "running", L.OUT_WIN: "win", L.OUT_LOSS: "loss", L.OUT_TIMEOUT: "timeout",
           L.OUT_RETREAT: "retreat"}
TERRAIN = {L.TERRAIN_NONE: None, L.TERRAIN_BARREL: "barrel", L.TERRAIN_BARREL_BROKEN: "broken_barrel",
           L.TERRAIN_CHEST: "chest", L.TERRAIN_GRAVESTONE: "gravestone"}


def _conds(mask: int) -> list[str]:
    return [name for bit, name in CONDITIONS.items() if mask & bit]


def _state(vector: np.ndarray, comp: Compiled) -> dict[str, Any]:
    """The readable state after an event: positions, cubes, tokens, conditions, wounds."""
    st = L.state_views(vector)
    coords = comp.board.coords
    chars = []
    for c, cid in enumerate(comp.char_ids):
        ch = st.chars[c]
        pos = int(ch[L.C_POS])
        chars.append({
            "id": cid, "node": pos, "rc": coords[pos].tolist() if pos >= 0 else None,
            "stamina": int(ch[L.C_STAMINA]), "damage": int(ch[L.C_DAMAGE]),
            "alive": bool(ch[L.C_ALIVE]), "conditions": _conds(int(ch[L.C_COND])),
            "estus": bool(ch[L.C_ESTUS]), "luck": bool(ch[L.C_LUCK]),
            "heroic": bool(ch[L.C_HEROIC]), "aggro": int(st.glob[L.G_AGGRO]) == c,
        })
    enemies = []
    for e, eid in enumerate(comp.enemy_ids):
        en = st.enemies[e]
        pos = int(en[L.E_POS])
        enemy = {
            "slot": e, "id": eid, "node": pos, "rc": coords[pos].tolist(),
            "wounds": int(en[L.E_WOUNDS]), "alive": bool(en[L.E_ALIVE]),
            "conditions": _conds(int(en[L.E_COND])),
        }
        if st.glob[L.G_IS_BOSS]:
            enemy["facing"] = FACINGS[int(en[L.E_FACING])]
            enemy["weak_arcs"] = _arcs(int(en[L.E_WEAK]))
        enemies.append(enemy)
    state = {"characters": chars, "enemies": enemies}
    if st.glob[L.G_IS_BOSS]:
        for c, item in enumerate(chars):
            side = int(st.chars[c, L.C_ARC])
            item["side"] = FACINGS[side - 1] if side else None
        deck = [int(x) for x in st.deck[:st.glob[L.G_DECK_LEN]]]
        pos = int(st.glob[L.G_DECK_POS])
        state["deck"] = {"discard": [comp.card_ids[k] for k in deck[:pos]], "draw_pile": len(deck) - pos,
                         "heated_up": bool(st.glob[L.G_HEATED])}
    return state


def events(b: X.Battle, comp: Compiled) -> list[dict[str, Any]]:
    """Every recorded event of a replayed battle as a JSON-ready dict."""
    out = []
    for row in b.trace[: b.cursor[1]]:
        rnd, kind, actor, ev, a, c, d, e, d0, dn = (int(x) for x in row[: L.EV_FIELDS])
        name, rule = EVENTS.get(ev, (f"event_{ev}", ""))
        if kind == L.ACTOR_ENEMY:
            rule = {"move": "R-11.6", "attack": "R-11.9", "activate": "R-11.1", "damage": "R-9.4"}.get(name, rule)
        if kind == L.ACTOR_CHAR and 0 <= actor < len(comp.char_ids):
            who = comp.char_ids[actor]
        elif kind == L.ACTOR_ENEMY and 0 <= actor < len(comp.enemy_ids):
            who = f"{comp.enemy_ids[actor]}#{actor}"
        else:
            who = "game"
        item: dict[str, Any] = {"round": rnd, "actor": who, "event": name, "rule": rule,
                                "values": [a, c, d, e], "dice": b.tdice[d0 : d0 + dn].tolist()}
        if ev == L.EV_DECISION:
            item["hook"] = HOOKS.get(a, str(a))
        item["state"] = _state(row[L.EV_FIELDS:], comp)
        out.append(item)
    return out


def _targets(comp: Compiled, mask: int) -> str:
    names = [cid for c, cid in enumerate(comp.char_ids) if mask & (1 << c)]
    return ", ".join(names) if names else "nobody (no character in its arcs and range)"


YES_NO = {"heroic": ("decline", "use the heroic action"), "estus": ("wait", "drink the estus"),
          "move_on": ("look at the next nodes", "stop here"), "defence": ("block or resist", "dodge"),
          "trap": ("take the damage", "dodge"), "retreat": ("fight on", "retreat")}
SLOTS = ("hand 1", "hand 2", "backup 1", "backup 2")


def _chosen(hook: str, row: int, first: int, comp: Compiled) -> str:
    """The option a decision took, named from its row and the row's first column (the option rows of every hook:
    policies/dstbg/README.md), e.g. ``step to (2, 3)`` rather than ``option 1``."""
    def node(n: int) -> str:
        return str(tuple(comp.board.coords[n].tolist())) if 0 <= n < len(comp.board.coords) else str(n)

    def character(k: int) -> str:
        return comp.char_ids[k] if 0 <= k < len(comp.char_ids) else str(k)

    if hook in YES_NO:
        return YES_NO[hook][min(row, 1)]
    if hook in ("first_char", "aggro", "taunt_tie", "defence_order"):
        return character(first)
    if hook in ("step", "shift"):
        return "stop here" if row == 0 else f"step to {node(first)}"
    if hook in ("place", "attack_push", "enemy_step", "move_push", "dodge_move"):
        return f"node {node(first)}"
    if hook == "attack":
        return "stop attacking" if row == 0 else f"attack with {SLOTS[first] if 0 <= first < 4 else first}"
    if hook == "swap":
        return "keep the weapons" if row == 0 else f"swap hand {first + 1}"
    if hook == "luck":
        return "keep the roll" if row == 0 else f"reroll die {first + 1}"
    if hook == "line_arc":
        return f"stand at side {FACINGS[first - 1]}" if 1 <= first <= len(FACINGS) else f"side {first}"
    if hook == "enemy_order":
        return f"{comp.enemy_ids[first]}#{first}" if 0 <= first < len(comp.enemy_ids) else str(first)
    if hook == "node_limit":
        return ("a character", "an enemy")[first] + " leaves the full node" if first in (0, 1) else str(first)
    return f"option {row + 1}"


def describe(ev: dict[str, Any], comp: Compiled) -> str:
    """One readable line for an event."""
    a, c, d, e = ev["values"]
    name = ev["event"]
    who = ev["actor"]
    rc = lambda n: tuple(comp.board.coords[n].tolist()) if n >= 0 else None  # noqa: E731
    dice = f" dice {ev['dice']}" if ev["dice"] else ""
    templates = {
        "setup": lambda: f"setup: {a} enemies, traps {'on' if c else 'off'}",
        "place": lambda: f"{who} enters at node {rc(a)}",
        "aggro": lambda: f"{who} takes the aggro token",
        "round": lambda: f"--- round {a} ---",
        "activate": lambda: f"{who} activates",
        "move": lambda: f"{who} moves {rc(a)} -> {rc(c)}",
        "push": lambda: f"{who} is pushed {rc(a)} -> {rc(c)}",
        "attack": lambda: (f"{who} attacks {_targets(comp, c)} for {e}" if "#" in who and comp.card_ids else
                           f"{who} attacks {comp.char_ids[c] if c < len(comp.char_ids) else c} for {e}"
                   if "#" in who else f"{who} attacks with {comp.line_names[a]}: total {e}"),
        "defend": lambda: f"{who} {('blocks', 'resists', 'dodges')[a]}: rolled {c}, " + (
            f"{'dodged' if c >= e and a == 2 else 'failed'} (difficulty {e})" if a == 2 else f"takes {d}"),
        "damage": lambda: f"{who} suffers {a} ({SOURCES.get(c, c)})",
        "condition": lambda: f"{who} gains {', '.join(_conds(a))}",
        "condition_end": lambda: f"{who} loses {', '.join(_conds(a))}",
        "death": lambda: f"{who} dies",
        "estus": lambda: f"{who} drinks the estus",
        "luck": lambda: f"{who} spends luck: die {a + 1} rerolled to {c}",
        "heroic": lambda: f"{who} uses the heroic action",
        "trap": lambda: f"{who} springs a trap at {rc(a)}: {c} damage, dodge {d}",
        "barrel": lambda: f"barrel at {rc(a)} destroyed",
        "gain": lambda: f"{who} gains {a} stamina, {c} health",
        "stamina": lambda: f"{who} spends {a} stamina",
        "swap": lambda: f"{who} swaps hand {a + 1} with backup {c + 1}",
        "attack_fails": lambda: f"{who}'s attack fails (out of range)",
        "end": lambda: f"=== battle ends: {RESULTS.get(a, a)} after round {c} ===",
        "decision": lambda: f"decision {ev.get('hook')}: {_chosen(ev.get('hook', ''), c, e, comp)} (choice {c + 1} of {d})",
        "card": lambda: f"boss draws {comp.card_ids[a]} ({d - c} left in the deck)",
        "turn": lambda: f"{who} turns to face {FACINGS[a]}",
        "heat_up": lambda: f"{who} heats up" + (f" (survivor heals {a})" if c else ""),
        "leap": lambda: f"{who} leaps {rc(a)} -> {rc(c)}",
        "deck": lambda: f"behaviour deck of {a} cards, {c} revealed by gravestones",
        "retreat": lambda: f"the party retreats after the enemies' turn of round {a}",
        "round_boss": lambda: (f"{who} moves round {comp.enemy_ids[d]}#{d} to its "
                               f"{' / '.join(_arcs(e))} arc (side {FACINGS[c - 1]})"),
    }
    text = templates[name]() if name in templates else name
    rule = f"  [{ev['rule']}]" if ev["rule"] else ""
    return f"{text}{dice}{rule}"
