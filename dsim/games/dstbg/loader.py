"""Load the DS:TBG data set: the shipped ``data/dstbg`` folder plus an optional user overlay.

Every file is validated entry by entry against :mod:`dsim.games.dstbg.schema`, then the merged set is
cross-checked (references, slot limits, box contents). All problems are collected and raised as one
:class:`~dsim.validation.DataError`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ValidationError

from dsim.games.dstbg.schema import (
    HAND_KINDS,
    STATS,
    BoardSettings,
    Boss,
    Character,
    Die,
    Door,
    Encounter,
    Enemy,
    Item,
    Loadout,
    Scenario,
    Tile,
    Trap,
    TreasureDeck,
    TreasureGroup,
    TreasureGroupId,
)
from dsim.games.loading import EntriesByKind, FolderLoader
from dsim.paths import game_data_dir
from dsim.validation import Problem, display_path, entry_label, problems_from_validation

GAME = "dstbg"
LIST_FILES: dict[str, type[BaseModel]] = {
    "dice": Die,
    "characters": Character,
    "items": Item,
    "enemies": Enemy,
    "encounters": Encounter,
    "tiles": Tile,
    "traps": Trap,
    "loadouts": Loadout,
    "scenarios": Scenario,
}
"""Kinds stored as ``<kind>.yaml`` holding a list under the key ``<kind>``."""
BOSS_DIR = "bosses"
"""Bosses are stored one per file, ``bosses/<boss_id>.yaml``."""
KINDS = (
    "dice", "characters", "items", "enemies", "bosses", "encounters", "tiles", "traps", "loadouts", "scenarios"
)
TREASURE = "treasure"
"""The treasure deck is one mapping under ``treasure`` in ``treasure.yaml`` (not a list of entries); as a
``dsim data`` kind its entries are the deck's groups (:meth:`GameData.treasure_groups`)."""
TREASURE_FILE = f"{TREASURE}.yaml"
TREASURE_GROUPS: dict[TreasureGroupId, tuple[str, str, str]] = {
    "common": ("generic", "Common treasure", "all, with the Ember cards, from the start (R-1.8)"),
    "class": ("class", "Class treasure", "the 5 of each chosen character, from the start (R-1.8)"),
    "transposed": (
        "transposed", "Transposed (advanced) treasure", "the 5 of each character, after the mini boss (R-1.12)"
    ),
    "legendary": ("legendary", "Legendary treasure", "{legendary} at random, after the mini boss (R-1.12)"),
    "boss": ("boss", "Boss treasure", "never: a beaten mini boss's cards go to the inventory (R-12.27)"),
}
"""Deck group → (items' ``treasure`` value, name, when it enters the deck); starter items never do (R-1.7)."""
TRAP_TOKENS = 20  # the box holds 20 trap tokens
FIGURES_PER_NODE = 3
_WALL_NODES = {"bottom": (0, 4), "top": (0, 0), "left": (1, 0), "right": (1, 4)}
"""Door wall → (axis, index): the nodes whose coordinate on that axis (0 row, 1 col) equals index."""


@dataclass(frozen=True)
class GameData(EntriesByKind):
    """The validated DS:TBG data set: entries by id for every kind, and where each came from."""

    KINDS: ClassVar[tuple[str, ...]] = KINDS

    dice: dict[str, Die]
    characters: dict[str, Character]
    items: dict[str, Item]
    enemies: dict[str, Enemy]
    bosses: dict[str, Boss]
    encounters: dict[str, Encounter]
    tiles: dict[str, Tile]
    traps: dict[str, Trap]
    loadouts: dict[str, Loadout]
    scenarios: dict[str, Scenario]
    entry_door: Door
    treasure: TreasureDeck

    def entries(self, kind: str) -> dict[str, Any]:
        """The entries of one kind by id; ``treasure`` gives the deck's groups (one mapping in the file)."""
        if kind == TREASURE:
            return self.treasure_groups()
        return super().entries(kind)

    def origin(self, kind: str, entry_id: str) -> Path:
        """The file an entry was loaded from; every ``treasure`` group comes from the deck's file."""
        return super().origin(kind, TREASURE if kind == TREASURE else entry_id)

    def treasure_groups(self) -> dict[str, TreasureGroup]:
        """The deck by group with its cards and copies (R-1.8, R-1.12): what whole games shuffle and draw."""
        deck, groups = self.treasure, {}
        for group, (treasure, name, when) in TREASURE_GROUPS.items():
            ids = [item.id for item in self.items.values() if item.treasure == treasure]
            copies = sum(deck.copies.get(item_id, 1) for item_id in ids)
            embers = deck.embers if group == "common" else 0
            groups[group] = TreasureGroup(
                id=group, name=name, items=len(ids), copies=copies, embers=embers, cards=copies + embers,
                in_deck=when.format(legendary=deck.legendary_added), item_ids=ids, placeholder=deck.placeholder,
            )  # fmt: skip
        return groups




class _Loader(FolderLoader):
    """Reads folders in order (shipped, then overlay), collecting entries and problems."""

    def __init__(self) -> None:
        super().__init__(KINDS)
        self.entry_door: Door | None = None
        self.treasure: TreasureDeck | None = None
        self.treasure_file: Path | None = None

    def load_folder(self, root: Path, shipped: bool) -> None:
        """Load every data file in ``root``; shipped folders must be complete, overlays need not."""
        seen: dict[tuple[str, str], str] = {}
        for kind, model in LIST_FILES.items():
            path = root / f"{kind}.yaml"
            if path.exists():  # a folder in a file's place is read, and named as unreadable
                self._load_list_file(path, kind, model, shipped, seen)
            elif shipped:
                self.problems.append(Problem(display_path(path), message="file not found"))
        path = root / TREASURE_FILE
        if path.exists():
            self._load_treasure(path, shipped)
        elif shipped:
            self.problems.append(Problem(display_path(path), message="file not found"))
        boss_files = sorted((root / BOSS_DIR).glob("*.yaml"))
        if shipped and not boss_files:
            self.problems.append(Problem(display_path(root / BOSS_DIR), message="no boss files found"))
        for path in boss_files:
            ok, raw = self.read(path)
            if ok:
                label = entry_label("bosses", raw.get("id") if isinstance(raw, dict) else None)
                self.add("bosses", Boss, path, raw, label, "the file", seen)
            else:
                self.kinds["bosses"].broken = True
        if not shipped:
            self.check_overlay_names(root, [*(f"{kind}.yaml" for kind in LIST_FILES), TREASURE_FILE],
                                     {BOSS_DIR: (".yaml",)})

    def _load_list_file(
        self, path: Path, kind: str, model: type[BaseModel], shipped: bool, seen: dict[tuple[str, str], str]
    ) -> None:
        ok, raw = self.read(path)
        if not ok:
            self.kinds[kind].broken = True
            return
        file = display_path(path)
        if not isinstance(raw, dict):
            self.problems.append(Problem(file, message=f"expected a mapping with the key '{kind}'"))
            return
        allowed = {kind, "entry_door"} if kind == "tiles" else {kind}
        for key in raw.keys() - allowed:
            self.problems.append(
                Problem(file, field=str(key), message=f"unknown top-level key; expected one of {sorted(allowed)}")
            )
        if kind == "tiles":
            self._load_board_settings(file, raw, shipped)
        if kind not in raw:
            if shipped:
                self.problems.append(Problem(file, field=kind, message="required top-level key is missing"))
            return
        entries = raw[kind]
        if not isinstance(entries, list):
            self.problems.append(Problem(file, field=kind, message="expected a list of entries"))
            return
        for index, entry in enumerate(entries):
            label = entry_label(kind, entry.get("id") if isinstance(entry, dict) else None, index)
            self.add(kind, model, path, entry, label, f"entry #{index}", seen)

    def _load_board_settings(self, file: str, raw: dict[str, Any], shipped: bool) -> None:
        """The tiles file also sets the default entry door; without it tile checks are skipped."""
        if "entry_door" not in raw:
            if shipped:
                self.problems.append(Problem(file, field="entry_door", message="required top-level key is missing"))
            return
        settings = {"entry_door": raw["entry_door"]}
        try:
            self.entry_door = BoardSettings.model_validate(settings).entry_door
        except ValidationError as err:
            self.problems.extend(problems_from_validation(err, file, settings, ""))

    def _load_treasure(self, path: Path, shipped: bool) -> None:
        """The treasure deck (R-1.8): one mapping under ``treasure``; an overlay's replaces the shipped one
        whole, and a broken one leaves no deck (its cross-checks are skipped)."""
        ok, raw = self.read(path)
        file = display_path(path)
        if not ok or not isinstance(raw, dict):
            if ok:
                self.problems.append(Problem(file, message=f"expected a mapping with the key '{TREASURE}'"))
            self.treasure = self.treasure_file = None
            return
        for key in raw.keys() - {TREASURE}:
            self.problems.append(
                Problem(file, field=str(key), message=f"unknown top-level key; expected one of ['{TREASURE}']")
            )
        if TREASURE not in raw:
            if shipped:
                self.problems.append(Problem(file, field=TREASURE, message="required top-level key is missing"))
            return
        try:
            self.treasure, self.treasure_file = TreasureDeck.model_validate(raw[TREASURE]), path
        except ValidationError as err:
            self.problems.extend(problems_from_validation(err, file, raw[TREASURE], TREASURE))
            self.treasure = self.treasure_file = None

    def origins(self) -> dict[tuple[str, str], Path]:
        """The file of every valid entry, and of the treasure deck as ``("treasure", "treasure")``."""
        found = super().origins()
        if self.treasure_file is not None:
            found[(TREASURE, TREASURE)] = self.treasure_file
        return found

def load_game_data(data_dir: Path | None = None, overlay: Path | None = None) -> GameData:
    """Load, validate and cross-check the data set; ``overlay`` entries replace or add entries by id.

    Raises :class:`~dsim.validation.DataError` listing every problem found.
    """
    data_dir = data_dir or game_data_dir(GAME)
    loader = _Loader()
    loader.load(data_dir, overlay)
    # Stand-ins when a file was broken: the problems found then make ``finish`` raise, never return them.
    treasure = loader.treasure or TreasureDeck(embers=0, legendary_added=0, source="not loaded")
    data = loader.build(
        GameData, data_dir, overlay, **loader.models(), entry_door=loader.entry_door or "bottom", treasure=treasure
    )
    unread = [name for name, value in (("entry_door", loader.entry_door), (TREASURE, loader.treasure)) if value is None]
    return loader.finish(data, cross_check, unread)


def cross_check(data: GameData, known: dict[str, set[str]], broken: set[str]) -> Iterator[Problem]:
    """Problems spanning entries: references by id, slot limits, box contents.

    ``known`` holds every id seen per kind (also of invalid entries, so one bad entry does not cause
    a cascade of "unknown id" reports); checks over a whole kind skip kinds in ``broken``, and tile
    checks are skipped when ``broken`` holds ``"entry_door"`` (no valid entry door was read), treasure
    checks when it holds ``"treasure"`` (no valid deck was read).
    """
    yield from _check_dice(data, broken)
    yield from _check_characters(data, known)
    yield from _check_items(data, known)
    yield from _check_bosses(data, known)
    yield from _check_encounters(data, known)
    yield from _check_loadouts(data, known)
    yield from _check_scenarios(data, known)
    if "entry_door" not in broken:
        yield from _check_tiles(data)
    if "traps" not in broken:
        yield from _check_traps(data)
    if TREASURE not in broken:
        yield from _check_treasure(data, known, broken)


def _where(data: GameData, kind: str, entry_id: str) -> tuple[str, str]:
    return display_path(data.origin(kind, entry_id)), entry_label(kind, entry_id)


def _check_dice(data: GameData, broken: set[str]) -> Iterator[Problem]:
    """Dice letters are unique, and every letter a dice string may use has a die."""
    letters = Counter(die.letter for die in data.dice.values())
    for die in data.dice.values():
        if letters[die.letter] > 1:
            yield Problem(
                *_where(data, "dice", die.id), "letter", f"letter {die.letter!r} is used by more than one die"
            )
    if "dice" not in broken:
        for letter in sorted(set("KUOG") - set(letters)):
            yield Problem(
                display_path(data.data_dir / "dice.yaml"), field="dice", message=f"no die has the letter {letter!r}"
            )


def _unmet(
    data: GameData, where: tuple[str, str], item_id: str, field_path: str, values: dict[str, int],
    shortfall: Callable[[str], str],
) -> Iterator[Problem]:
    """Each stat requirement of an item that the character's ``values`` do not meet (R-3.10)."""
    item = data.items[item_id]
    for stat in STATS:
        need = getattr(item.requirements, stat)
        if need > values[stat]:
            yield Problem(*where, field_path, f"{item_id!r} needs {stat} {need}, {shortfall(stat)} (R-3.10)")


def _kit_problems(
    data: GameData, known: dict[str, set[str]], where: tuple[str, str], base: str, kit: Any,
    values: dict[str, int], shortfall: Callable[[str], str],
) -> Iterator[Problem]:
    """A kit (starting equipment or a loadout's) names known items of the right kind in each slot, the
    character meets every requirement at ``values`` (R-3.10; ``shortfall(stat)`` says what it has),
    and it fits two hands and three weapon cards (R-4.2)."""
    file, label = where
    slots = [(f"{base}.armour", kit.armour, True)]
    slots += [(f"{base}.hands[{i}]", item_id, False) for i, item_id in enumerate(kit.hands)]
    slots += [(f"{base}.backup[{i}]", item_id, False) for i, item_id in enumerate(kit.backup)]
    for field_path, item_id, is_armour in slots:
        item = data.items.get(item_id)
        if item is None:
            if item_id not in known["items"]:
                yield Problem(file, label, field_path, f"unknown item {item_id!r}")
            continue
        if is_armour and item.kind != "armour":
            yield Problem(file, label, field_path, f"expected an armour, got {item.kind} {item_id!r}")
        elif not is_armour and item.kind not in HAND_KINDS:
            yield Problem(
                file, label, field_path, f"expected a hand item (weapon, shield, spell), got {item.kind} {item_id!r}"
            )
        else:
            yield from _unmet(data, where, item_id, field_path, values, shortfall)
    hands = sum(data.items[i].hands or 0 for i in kit.hands if i in data.items)
    if hands > 2:
        yield Problem(file, label, f"{base}.hands", f"the items need {hands} hands, a character has 2 (R-4.2)")
    if len(kit.hands) + len(kit.backup) > 3:
        yield Problem(file, label, base, "at most three weapon cards in hands and backup (R-4.2)")


def _check_characters(data: GameData, known: dict[str, set[str]]) -> Iterator[Problem]:
    """Starting kits name existing items of the right kind that fit the slots (R-1.7, R-4.2, R-3.10)."""
    for character in data.characters.values():
        values = {stat: getattr(character.stats, stat)[0] for stat in STATS}
        yield from _kit_problems(
            data, known, _where(data, "characters", character.id), "starting_equipment",
            character.starting_equipment, values, lambda stat, v=values: f"the Base value is {v[stat]}",
        )


def _check_items(data: GameData, known: dict[str, set[str]]) -> Iterator[Problem]:
    """``class_of``/``boss_of`` name existing characters/bosses, and bosses list their treasure."""
    for item in data.items.values():
        file, label = _where(data, "items", item.id)
        if item.class_of is not None and item.class_of not in known["characters"]:
            yield Problem(file, label, "class_of", f"unknown character {item.class_of!r}")
        if item.boss_of is None:
            continue
        boss = data.bosses.get(item.boss_of)
        if boss is None and item.boss_of not in known["bosses"]:
            yield Problem(file, label, "boss_of", f"unknown boss {item.boss_of!r}")
        elif boss is not None and item.id not in boss.treasure:
            yield Problem(file, label, "boss_of", f"boss {item.boss_of!r} does not list {item.id!r} in its treasure")


def _check_bosses(data: GameData, known: dict[str, set[str]]) -> Iterator[Problem]:
    """Treasure ids, figure ids on cards, halves per card and enough cards for the deck (R-12.5)."""
    for boss in data.bosses.values():
        file, label = _where(data, "bosses", boss.id)
        for i, item_id in enumerate(boss.treasure):
            item = data.items.get(item_id)
            if item is None and item_id not in known["items"]:
                yield Problem(file, label, f"treasure[{i}]", f"unknown item {item_id!r}")
            elif item is not None and item.boss_of != boss.id:
                yield Problem(
                    file,
                    label,
                    f"treasure[{i}]",
                    f"item {item_id!r} is not boss treasure of {boss.id!r} (its boss_of is {item.boss_of!r})",
                )
        figures = [f.id for f in boss.figures]
        for name, count in Counter(figures).items():
            if count > 1:
                yield Problem(file, entry_label("figures", name), "id", "duplicate figure id in this boss")
        for name, count in Counter(card.id for card in boss.cards).items():
            if count > 1:
                yield Problem(file, entry_label("cards", name), "id", "duplicate card id in this boss")
        for card in boss.cards:
            yield from _check_card(file, card, figures)
        standard = sum(not card.heat_up for card in boss.cards)
        if standard < boss.deck_size:
            yield Problem(
                file,
                label,
                "deck_size",
                f"a deck of {boss.deck_size} needs as many standard cards, found {standard} (R-12.5)",
            )
        if any(f.heat_up is not None for f in boss.figures) and not any(card.heat_up for card in boss.cards):
            yield Problem(file, label, "cards", "the boss heats up but has no heat-up card (R-12.6)")


def _check_card(file: str, card: Any, figures: list[str]) -> Iterator[Problem]:
    """A card owned by one figure has one half of that figure; a shared card one half per figure."""
    label = entry_label("cards", card.id)
    if card.figure is not None and card.figure not in figures:
        yield Problem(file, label, "figure", f"unknown figure {card.figure!r}; expected one of {figures}")
    expected = 1 if card.figure is not None else len(figures)
    if len(card.halves) != expected:
        owner = f"owned by {card.figure!r}" if card.figure else f"shared by {len(figures)} figure(s)"
        yield Problem(file, label, "halves", f"a card {owner} needs {expected} half/halves, found {len(card.halves)}")
    for i, half in enumerate(card.halves):
        if half.figure not in figures:
            yield Problem(
                file, label, f"halves[{i}].figure", f"unknown figure {half.figure!r}; expected one of {figures}"
            )
        elif card.figure is not None and half.figure != card.figure:
            yield Problem(
                file, label, f"halves[{i}].figure", f"the card belongs to {card.figure!r}, the half to {half.figure!r}"
            )
    if card.figure is None and len({h.figure for h in card.halves}) != len(card.halves):
        yield Problem(file, label, "halves", "each figure may have only one half on a shared card")


def _check_encounters(data: GameData, known: dict[str, set[str]]) -> Iterator[Problem]:
    """Enemies exist, at most 3 per spawn node (R-2.6), no more of a kind than the box holds."""
    for encounter in data.encounters.values():
        file, label = _where(data, "encounters", encounter.id)
        spawns = {"spawn_1": encounter.spawn_1, "spawn_2": encounter.spawn_2}
        if not encounter.spawn_1 and not encounter.spawn_2:
            yield Problem(file, label, "spawn_1", "an encounter needs at least one enemy")
        for field_path, enemies in spawns.items():
            if len(enemies) > FIGURES_PER_NODE:
                yield Problem(
                    file, label, field_path, f"{len(enemies)} figures on one node, at most {FIGURES_PER_NODE} (R-2.6)"
                )
            for i, enemy_id in enumerate(enemies):
                if enemy_id not in known["enemies"]:
                    yield Problem(file, label, f"{field_path}[{i}]", f"unknown enemy {enemy_id!r}")
        for enemy_id, count in Counter(encounter.spawn_1 + encounter.spawn_2).items():
            enemy = data.enemies.get(enemy_id)
            if enemy is not None and count > enemy.models:
                yield Problem(file, label, "", f"needs {count} {enemy_id!r} figures, the box has {enemy.models}")


def _check_tiles(data: GameData) -> Iterator[Problem]:
    """Special nodes are distinct and never entry nodes of the default entry door (R-7.8)."""
    axis, index = _WALL_NODES[data.entry_door]
    for tile in data.tiles.values():
        file, label = _where(data, "tiles", tile.id)
        nodes = tile.special_nodes()
        for node, count in Counter(nodes.values()).items():
            if count > 1:
                names = [name for name, n in nodes.items() if n == node]
                yield Problem(file, label, names[-1], f"node {list(node)} is also used by {names[0]}")
        if data.entry_door in tile.doors:
            for name, node in nodes.items():
                if node[axis] == index:
                    yield Problem(
                        file, label, name, f"node {list(node)} is an entry node of the {data.entry_door} door (R-7.8)"
                    )


def _check_traps(data: GameData) -> Iterator[Problem]:
    """The token counts add up to the box's 20 trap tokens (R-7.7)."""
    total = sum(trap.count for trap in data.traps.values())
    if total != TRAP_TOKENS:
        file = display_path(data.data_dir / "traps.yaml")
        yield Problem(file, field="traps", message=f"token counts add up to {total}, the box has {TRAP_TOKENS} (R-7.7)")


def _check_treasure(data: GameData, known: dict[str, set[str]], broken: set[str]) -> Iterator[Problem]:
    """Copy counts name treasure cards, never starting equipment (R-1.7, R-1.8; GAP 4), and the random
    legendary draw after the mini boss fits the legendary cards there are (R-1.12)."""
    file, deck = display_path(data.origin(TREASURE, TREASURE)), data.treasure
    expected = "expected the id of an item in items.yaml whose treasure is not 'starter'"
    for item_id in deck.copies:
        item = data.items.get(item_id)
        if item is None and item_id not in known["items"]:
            yield Problem(file, TREASURE, f"copies.{item_id}", f"unknown item {item_id!r}; {expected}")
        elif item is not None and item.treasure == "starter":
            yield Problem(
                file, TREASURE, f"copies.{item_id}",
                f"{item_id!r} is starting equipment (R-1.7), not in the deck; {expected}",
            )  # fmt: skip
    legendary = sum(deck.copies.get(i.id, 1) for i in data.items.values() if i.treasure == "legendary")
    if "items" not in broken and deck.legendary_added > legendary:
        yield Problem(
            file, TREASURE, "legendary_added",
            f"{deck.legendary_added} legendary cards to add after the mini boss, the items hold {legendary} (R-1.12)",
        )  # fmt: skip


def _check_loadouts(data: GameData, known: dict[str, set[str]]) -> Iterator[Problem]:
    """Kits name known characters and items of the right kind, fit the slots (R-4.2), the character
    meets every requirement at the kit's stat tiers (R-3.10, R-4.5), upgrades go on items of the
    kit with free upgrade slots (R-4.7)."""
    for loadout in data.loadouts.values():
        file, label = _where(data, "loadouts", loadout.id)
        for cid, kit in loadout.characters.items():
            base = f"characters.{cid}"
            character = data.characters.get(cid)
            if character is None:
                if cid not in known["characters"]:
                    yield Problem(file, label, base, f"unknown character {cid!r}")
                continue
            values = {stat: getattr(character.stats, stat)[getattr(kit.levels, stat)] for stat in STATS}

            def shortfall(stat: str, v: dict[str, int] = values, k: Any = kit, c: str = cid) -> str:
                return f"{c} has {v[stat]} at tier {getattr(k.levels, stat)}; raise levels.{stat}"

            yield from _kit_problems(data, known, (file, label), base, kit, values, shortfall)
            in_kit = [kit.armour, *kit.hands, *kit.backup]
            for target, upgrade_ids in kit.upgrades.items():
                where = f"{base}.upgrades.{target}"
                if target not in in_kit:
                    yield Problem(file, label, where, f"{target!r} is not in this kit's armour, hands or backup")
                    continue
                item = data.items.get(target)
                if item is None:
                    continue
                if len(upgrade_ids) > item.upgrade_slots:
                    yield Problem(
                        file, label, where,
                        f"{len(upgrade_ids)} upgrade(s) on {target!r}, it has {item.upgrade_slots} upgrade slot(s) (R-4.7)",
                    )
                wanted = "armour_upgrade" if item.kind == "armour" else "weapon_upgrade"
                for j, upgrade_id in enumerate(upgrade_ids):
                    upgrade = data.items.get(upgrade_id)
                    if upgrade is None:
                        if upgrade_id not in known["items"]:
                            yield Problem(file, label, f"{where}[{j}]", f"unknown item {upgrade_id!r}")
                        continue
                    if upgrade.kind != wanted:
                        yield Problem(
                            file, label, f"{where}[{j}]",
                            f"expected a {wanted} for {item.kind} {target!r}, got {upgrade.kind} {upgrade_id!r} (R-4.7)",
                        )
                        continue
                    yield from _unmet(data, (file, label), upgrade_id, f"{where}[{j}]", values, shortfall)


def _check_scenarios(data: GameData, known: dict[str, set[str]]) -> Iterator[Problem]:
    """Every part's bosses exist; parts before the last end with mini bosses and the last part holds a
    main boss, the scenario's final boss (R-13.2, R-13.6; main bosses fight on the joined arena)."""
    expected = "expected the id of a boss file bosses/<id>.yaml"
    for scenario in data.scenarios.values():
        file, label = _where(data, "scenarios", scenario.id)
        last = len(scenario.parts) - 1
        for i, part in enumerate(scenario.parts):
            bosses = [data.bosses.get(boss_id) for boss_id in part.bosses]
            for j, (boss_id, boss) in enumerate(zip(part.bosses, bosses, strict=True)):
                field_path = f"parts[{i}].bosses[{j}]"
                if boss is None:
                    if boss_id not in known["bosses"]:
                        yield Problem(
                            file, label, field_path,
                            f"unknown boss {boss_id!r}; {expected} ({', '.join(sorted(known['bosses']))})",
                        )  # fmt: skip
                elif i < last and boss.kind != "mini":
                    yield Problem(
                        file, label, field_path,
                        f"{boss_id!r} is a {boss.kind} boss; expected a mini boss in a part before the last "
                        "(the last part's main boss ends the scenario, R-13.6)",
                    )  # fmt: skip
            if i == last and all(bosses) and not any(boss.kind == "main" for boss in bosses if boss):
                yield Problem(
                    file, label, f"parts[{i}].bosses",
                    f"no main boss among {', '.join(part.bosses)}; expected the last part to hold a main boss, "
                    "the scenario's final boss (R-13.6)",
                )  # fmt: skip
