"""DS:TBG's data and dice capabilities for ``dsim data`` and ``dsim dice roll``: kinds, table rows, lookup, coverage."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from dsim import dice
from dsim.games.data import BaseDataSupport, CoverageItem, Distribution
from dsim.games.dstbg import coverage as effect_coverage
from dsim.games.dstbg.loader import KINDS, TREASURE, GameData, load_game_data
from dsim.games.dstbg.schema import INF_RANGE, Boss, Item
from dsim.validation import display_path


def _rng(value: int | None) -> str:
    if value is None:
        return "–"
    return "∞" if value == INF_RANGE else str(value)


def _item_row(item: Item) -> list[str]:
    req = "/".join(
        str(getattr(item.requirements, s) or "–") for s in ("strength", "dexterity", "intelligence", "faith")
    )
    kind = f"{item.kind} ({item.school})" if item.school else item.kind
    owner = item.class_of or item.boss_of or ""
    return [
        item.id, item.name, kind, f"{item.treasure} {owner}".strip(), str(item.hands or "–"), _rng(item.range),
        req, item.block or "–", item.resist or "–", str(item.dodge), str(item.upgrade_slots), str(len(item.attacks)),
    ]  # fmt: skip


def _steps(steps: list[Any]) -> str:
    """Compact behaviour text, e.g. ``move toward nearest 1 +push; attack physical 4 @nearest``."""
    parts = []
    for s in steps:
        if s.op == "move":
            text = f"move {s.direction} {getattr(s, 'target', None) or getattr(s, 'face', None) or ''} {s.distance}"
        elif s.op == "leap":
            text = f"leap @{s.target}"
        elif s.op == "turn":
            text = f"turn {s.degrees}"
        else:
            text = f"{s.type} {s.damage} @{s.target}" + (f" {'/'.join(s.arcs)}" if getattr(s, "arcs", None) else "")
            text += " node" if s.node else ""
        if getattr(s, "push", False):
            text += f" +push{f' {s.push_damage}' if getattr(s, 'push_damage', 0) else ''}"
        parts.append(" ".join(text.split()))
    return "; ".join(parts)


def _boss_row(boss: Boss) -> list[str]:
    figures = ", ".join(
        f"{f.name} {f.health}hp" + (f" (heat up ≤{f.heat_up})" if f.heat_up is not None else "") for f in boss.figures
    )
    defence = ", ".join(f"{f.block}/{f.resist}" for f in boss.figures)
    standard = sum(not c.heat_up for c in boss.cards)
    levels = ",".join(map(str, boss.encounter_levels))
    return [
        boss.id,
        boss.kind,
        figures,
        defence,
        str(boss.deck_size),
        f"{standard}+{len(boss.cards) - standard}",
        levels,
    ]


def _node(node: tuple[int, int] | None) -> str:
    return "–" if node is None else f"({node[0]},{node[1]})"


TABLES: dict[str, tuple[list[str], Callable[[Any], list[str]]]] = {
    "dice": (["id", "letter", "faces"], lambda d: [d.id, d.letter, " ".join(map(str, d.faces))]),
    "characters": (
        ["id", "name", "taunt", "heroic action", "armour", "hands", "backup", "S/D/I/F base"],
        lambda c: [
            c.id, c.name, str(c.taunt), c.heroic_action.id, c.starting_equipment.armour,
            ", ".join(c.starting_equipment.hands), ", ".join(c.starting_equipment.backup) or "–",
            "/".join(str(getattr(c.stats, s)[0]) for s in ("strength", "dexterity", "intelligence", "faith")),
        ],
    ),
    "items": (
        [
            "id", "name", "kind", "treasure", "hands", "range",
            "req S/D/I/F", "block", "resist", "dodge", "slots", "lines",
        ],
        _item_row,
    ),
    "enemies": (
        ["id", "name", "threat", "health", "block", "resist", "range", "dodge", "models", "behaviour"],
        lambda e: [
            e.id, e.name, str(e.threat), str(e.health), str(e.block), str(e.resist), _rng(e.range), str(e.dodge),
            str(e.models), _steps(e.behaviour),
        ],
    ),
    "bosses": (["id", "kind", "figures", "block/resist", "deck", "cards std+HU", "levels"], _boss_row),
    "encounters": (
        ["id", "name", "level", "spawn 1", "spawn 2", "terrain 1", "terrain 2", "traps"],
        lambda e: [
            e.id, e.name, str(e.level), ", ".join(e.spawn_1) or "–", ", ".join(e.spawn_2) or "–",
            e.terrain_1 or "–", e.terrain_2 or "–", "yes" if e.traps else "no",
        ],
    ),
    "tiles": (
        ["id", "kind", "spawn 1", "spawn 2", "terrain 1", "terrain 2", "boss spawn", "doors"],
        lambda t: [
            t.id, t.kind, _node(t.spawn_1), _node(t.spawn_2), _node(t.terrain_1), _node(t.terrain_2),
            _node(t.boss_spawn), ", ".join(t.doors) or "–",
        ],
    ),
    "traps": (
        ["id", "name", "damage", "dodge", "count"],
        lambda t: [t.id, t.name, str(t.damage), str(t.dodge), str(t.count)],
    ),
    TREASURE: (  # the deck's groups (GameData.treasure_groups)
        ["group", "item cards", "copies", "embers", "cards", "in the deck"],
        lambda g: [g.id, str(g.items), str(g.copies), str(g.embers) if g.embers else "–", str(g.cards), g.in_deck],
    ),
}  # fmt: skip


def _loadout_row(loadout: Any) -> list[str]:
    kits = loadout.characters.items()
    tiers = ["/".join(str(getattr(k.levels, s)) for s in ("strength", "dexterity", "intelligence", "faith"))
             for _, k in kits]

    def gear(kit: Any) -> str:
        return ", ".join(f"{i}+{'+'.join(kit.upgrades[i])}" if kit.upgrades.get(i) else i
                         for i in (kit.armour, *kit.hands, *kit.backup))

    return [
        loadout.id, loadout.name, "\n".join(cid for cid, _ in kits), "\n".join(tiers),
        "\n".join(str(k.levels.souls()) for _, k in kits), "\n".join(gear(k) for _, k in kits),
    ]  # fmt: skip


TABLES["loadouts"] = (["id", "name", "class", "tiers S/D/I/F", "souls", "gear (+ upgrades)"], _loadout_row)


def _scenario_parts(scenario: Any) -> str:
    """``Undead Burg L1,L1,L2 → gargoyle ×2; Sen's Fortress L1,L1,L2,L2 → titanite_demon; …``."""
    texts = []
    for part in scenario.parts:
        runs: list[list[Any]] = []  # consecutive fights of one boss: [id, count]
        for boss_id in part.bosses:
            if runs and runs[-1][0] == boss_id:
                runs[-1][1] += 1
            else:
                runs.append([boss_id, 1])
        bosses = ", ".join(f"{boss_id} ×{n}" if n > 1 else boss_id for boss_id, n in runs)
        texts.append(f"{part.area} {','.join(f'L{level}' for level in part.levels)} → {bosses}")
    return "; ".join(texts)


TABLES["scenarios"] = (["id", "name", "parts (area, battle levels → bosses)"],
                       lambda s: [s.id, s.name, _scenario_parts(s)])


def _find(game_data: GameData, ident: str, kind: str | None) -> list[tuple[str, str, Any, Path]]:
    """Entries called ``ident`` (``boss/card`` or a bare card id also finds boss behaviour cards;
    ``treasure`` is the whole deck, a group id one of its groups)."""
    kinds = [kind] if kind else [*KINDS, TREASURE, "cards"]
    if ident == TREASURE and kind in (None, TREASURE):
        return [(TREASURE, TREASURE, game_data.treasure, game_data.origin(TREASURE, TREASURE))]
    found = [(k, ident, game_data.entries(k)[ident], game_data.origin(k, ident))
             for k in kinds if k != "cards" and ident in game_data.entries(k)]  # fmt: skip
    if "cards" in kinds:
        boss_id, _, card_id = ident.rpartition("/")
        for boss in game_data.bosses.values():
            if boss_id in ("", boss.id):
                found += [("cards", f"{boss.id}/{c.id}", c, game_data.origin("bosses", boss.id))
                          for c in boss.cards if c.id == card_id]  # fmt: skip
    return found



class DSTBGData(BaseDataSupport):
    """``dsim data`` for DS:TBG: characters, items, enemies, bosses (and their cards), encounters, tiles, traps,
    loadouts, campaign scenarios, and the treasure deck by group."""

    kinds: Sequence[str] = (*KINDS, TREASURE)
    extra_kinds: Sequence[str] = ("cards",)  # boss behaviour cards, found by ``show BOSS/CARD``

    def load(self, overlay: Path | None = None) -> GameData:
        """The shipped data with the overlay (``DataError`` listing every problem)."""
        return load_game_data(overlay=overlay)

    def columns(self, kind: str) -> Sequence[str]:
        """Headings of ``dsim data list KIND``."""
        return TABLES[kind][0]

    def row(self, kind: str, entry: Any) -> Sequence[str]:
        """One entry's cells of ``dsim data list KIND``."""
        return TABLES[kind][1](entry)

    def find(self, data: GameData, ident: str, kind: str | None) -> list[tuple[str, str, Any, Path]]:
        """Entries called ``ident``: (kind, id, entry, file)."""
        return _find(data, ident, kind)

    def notes(self, kind: str, entry: Any) -> list[str]:
        """Extra lines under ``dsim data show``: the souls a loadout's stat tiers cost, a scenario's battles."""
        if kind == "scenarios":
            battles = sum(len(part.levels) for part in entry.parts)
            bosses = sum(len(part.bosses) for part in entry.parts)
            return [f"{len(entry.parts)} parts: {battles} exploration battles and {bosses} boss battles (R-13.2); "
                    f"final boss {entry.parts[-1].bosses[-1]} (R-13.6)", _scenario_parts(entry)]
        if kind != "loadouts":
            return []
        souls = ", ".join(f"{cid} {kit.levels.souls()}" for cid, kit in entry.characters.items())
        return [f"souls spent on stat tiers (R-5.7: 2/4/8 per tier): {souls}"]

    def coverage(self, data: GameData) -> list[CoverageItem]:
        """The placeholders (the treasure deck's, whole games draw from it: GAP 4, then every entry holding
        editable defaults for a gap), then the card effects (item texts, heroic actions, boss abilities) the
        engine does not simulate."""
        deck = data.treasure
        placeholders = [CoverageItem("placeholder", TREASURE, TREASURE, "Treasure deck",
                                     display_path(data.origin(TREASURE, TREASURE)), deck.placeholder)
                        ] if deck.placeholder else []  # fmt: skip
        placeholders += [CoverageItem("placeholder", kind, entry_id, entry.name, display_path(data.origin(kind, entry_id)),
                                      entry.placeholder)
                         for kind in KINDS for entry_id, entry in data.entries(kind).items()
                         if getattr(entry, "placeholder", None)]  # the entries `data list` marks P
        return placeholders + [CoverageItem(u.effect.kind, u.owner_kind, u.owner_id, u.card, u.where, u.effect.text)
                               for u in effect_coverage.unsimulated(data)]  # fmt: skip

    def coverage_title(self, items: Sequence[CoverageItem]) -> str:
        """The coverage table's title: effect uses and kinds, then placeholders if any."""
        effects = [i for i in items if i.kind != "placeholder"]
        kinds = len({i.kind for i in effects})
        title = (f"Card effects not simulated: {len(effects)} uses of {kinds} kinds "
                 f"({len(effect_coverage.SIMULATED_EFFECTS)} kinds simulated)")
        placeholders = len(items) - len(effects)
        return title + (f"; placeholder figures: {placeholders}" if placeholders else "")


class DSTBGDice:
    """Exact totals of a pool of DS:TBG dice (``3K-1``: K black, U blue, O orange; R-4.8)."""

    def faces(self, overlay: Path | None = None) -> dict[str, tuple[int, ...]]:
        """Die faces by letter from the game data, with the overlay applied."""
        return {die.letter: tuple(die.faces) for die in load_game_data(overlay=overlay).dice.values()}

    def roll(self, pool: str, overlay: Path | None = None) -> Distribution:
        """Distribution of a pool's total (modifier included; a total below 0 counts as 0, R-4.8)."""
        faces = self.faces(overlay)
        parsed = dice.parse_pool(pool, letters=faces.keys())
        return Distribution(f"Total: {parsed}", dice.total_pmf(parsed, faces))
