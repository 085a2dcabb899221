"""Pydantic models for the DS:TBG data files under ``data/dstbg/``.

One model per entry kind; every model forbids unknown fields so typos are caught. Figures that no
source gives carry ``placeholder: "<reason>"``; values picked between conflicting sources carry
``decision: "<which and why>"``. Range ``"inf"`` (R-2.5) is stored as :data:`INF_RANGE`.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    model_validator,
)

from dsim.figures import Doubt, check_doubts
from dsim.validation import Id

INF_RANGE = 99
"""Stored value of an unlimited ("∞", ``inf``) range; larger than any distance on a board."""

STATS = ("strength", "dexterity", "intelligence", "faith")
TILE_NODE_FIELDS = ("spawn_1", "spawn_2", "terrain_1", "terrain_2", "boss_spawn")
TILE_SIZE = 5
"""A standard tile is a 5×5 checkerboard: nodes (row, col) with row + col even (13 nodes)."""


def _parse_range(value: object) -> object:
    """Accept ``"inf"`` (any case, or ``∞``) as :data:`INF_RANGE`; leave everything else to pydantic."""
    if isinstance(value, str) and value.strip().lower() in ("inf", "∞"):
        return INF_RANGE
    return value


def _dump_range(value: int) -> int | str:
    """Write :data:`INF_RANGE` back as ``"inf"`` so dumped data round-trips."""
    return "inf" if value == INF_RANGE else value


Range = Annotated[
    int,
    BeforeValidator(_parse_range),
    Field(ge=0, le=INF_RANGE, description='Distance in nodes (R-2.5); "inf" = any distance.'),
    PlainSerializer(_dump_range, return_type=int | str),
]
LIMIT = 10_000  # the largest figure a data file (or a house-rule offset) may hold: sums stay well inside int32
Count = Annotated[int, Field(ge=0, le=LIMIT)]
_DICE_RE = re.compile(r"[KUO]*")


def _check_dice(value: str) -> str:
    """Dice strings are letters of attack/defence dice only."""
    if not _DICE_RE.fullmatch(value):
        raise ValueError("expected dice letters K (black), U (blue), O (orange), e.g. 'KU' or ''")
    return value



DiceString = Annotated[
    str,
    AfterValidator(_check_dice),
    Field(description="Dice as letters: K black, U blue, O orange (e.g. 'KU'); '' = none."),
]
Condition = Literal["bleed", "poison", "frostbite", "stagger"]
Arc = Literal["front", "left", "right", "back"]
Door = Literal["bottom", "top", "left", "right"]
TerrainKind = Literal["barrel", "chest", "gravestone"]

EffectKind = Literal[
    # support and healing
    "gain_stamina",
    "gain_health",
    "self_heal_on_attack",
    "heal_per_enemy_on_node",
    "heal_end_of_activation",
    "heal_instead_of_stamina",
    "stamina_after_damage",
    "stamina_on_big_hit",
    "stamina_at_activation_start",
    # attack modifiers
    "attacks_become_magic",
    "damage_bonus",
    "damage_malus",
    "extra_die",
    "inflict_condition",
    "cost_reduction",
    "push_distance",
    # defence and movement
    "party_defence_die",
    "extra_block_die",
    "immune_condition",
    "ignore_attack_push",
    "cannot_dodge_or_run",
    "walk_extra_node",
    "dodge_extra_node",
    "usable_with_two_handed",
    "take_aggro_once",
    # heroic actions
    "free_attack_after_dodge",
    "free_move",
    "next_attack_free_node",
    # boss special abilities
    "stamina_tax_on_node",
    "reduce_big_hit",
    "block_roll_stamina_penalty",
    "shuffle_after_heat_up_card",
    "pair_survivor_heat_up",
]
EffectScope = Literal[
    "self",
    "one_in_range",
    "up_to_two_in_range",
    "all_in_range",
    "others_in_range",
    "party",
    "node",
    "weapon",
    "boss",
]

_EFFECT_NEEDS: dict[str, str] = {
    "immune_condition": "condition",
    "inflict_condition": "condition",
    "extra_die": "die",
    "extra_block_die": "die",
    "party_defence_die": "die",
}
"""Effect kinds that are meaningless without one extra field."""


class Model(BaseModel):
    """Base of every data model: unknown fields are errors; loaded data is read-only."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Annotations(Model):
    """Provenance notes every top-level entry may carry."""

    source: str = Field(description="Where the figures came from (short note).")
    placeholder: str | None = Field(None, description="If set, the entry holds editable defaults for a gap: why.")
    decision: str | None = Field(
        None, description="If set, which value was picked between conflicting sources, and why."
    )
    doubts: dict[str, Doubt] = Field(
        default_factory=dict, description="How unsure figures are: path inside the entry (or glob) → range and/or "
                                          "confidence (`dsim sensitivity`, `dsim run --uncertain`)."
    )

    @model_validator(mode="after")
    def _doubts_name_numbers(self) -> Annotations:
        """Each ``doubts`` key names numbers of this entry, and each range holds the value given."""
        check_doubts(self, self.doubts)
        return self


class Entry(Annotations):
    """A top-level entry with an id and an English display name."""

    id: Id = Field(description="snake_case of the English card name.")
    name: str = Field(min_length=1, description="English name as printed.")


class Effect(Model):
    """One card text effect in the closed effect vocabulary that ``dsim data coverage`` reports on."""

    kind: EffectKind = Field(description="What the effect does (closed list).")
    amount: Count | None = Field(None, description="How much (stamina, health, damage, nodes).")
    scope: EffectScope | None = Field(None, description="Who is affected.")
    condition: Condition | None = Field(None, description="Condition involved, if any.")
    die: Literal["K", "U", "O"] | None = Field(None, description="Die added, if any.")
    range: Range | None = Field(None, description="Effect-specific range, if the text gives one.")
    text: str = Field(min_length=1, description="Paraphrase of the card text.")

    @model_validator(mode="after")
    def _required_detail(self) -> Effect:
        needed = _EFFECT_NEEDS.get(self.kind)
        if needed and getattr(self, needed) is None:
            raise ValueError(f"effect kind '{self.kind}' needs the field '{needed}'")
        return self


# ---------------------------------------------------------------- dice


class Die(Model):
    """One die colour (facts.md §1)."""

    id: Literal["black", "blue", "orange", "green"]
    letter: Literal["K", "U", "O", "G"] = Field(description="Letter used in dice strings.")
    faces: list[Count] = Field(min_length=6, max_length=6, description="The six face values.")
    source: str


# ---------------------------------------------------------------- characters


class StatTiers(Model):
    """A stat's value at Base and tiers 1-3 (R-3.10)."""

    strength: list[Count] = Field(min_length=4, max_length=4)
    dexterity: list[Count] = Field(min_length=4, max_length=4)
    intelligence: list[Count] = Field(min_length=4, max_length=4)
    faith: list[Count] = Field(min_length=4, max_length=4)

    @model_validator(mode="after")
    def _rising(self) -> StatTiers:
        for stat in STATS:
            values = getattr(self, stat)
            if values != sorted(values):
                raise ValueError(f"{stat} tiers must not decrease, got {values}")
        return self


class HeroicAction(Model):
    """A class's limited-use heroic action (R-3.7)."""

    id: Id
    text: str = Field(min_length=1, description="Paraphrase of the board text.")
    source: str
    placeholder: str | None = None
    effects: list[Effect] = Field(default_factory=list)


class StartingEquipment(Model):
    """Starting kit (R-1.7): item ids in the armour, hand and backup slots."""

    armour: Id
    hands: list[Id] = Field(max_length=2)
    backup: list[Id] = Field(default_factory=list)


class Character(Entry):
    """One character class board (R-3.1)."""

    stats: StatTiers
    taunt: Count = Field(description="Taunt level, breaks nearest-target ties (R-3.9, R-11.4).")
    heroic_action: HeroicAction
    starting_equipment: StartingEquipment


# ---------------------------------------------------------------- items


class Requirements(Model):
    """Stat values needed to equip an item (R-3.10); 0 = no requirement."""

    strength: Count = 0
    dexterity: Count = 0
    intelligence: Count = 0
    faith: Count = 0


class AttackLine(Model):
    """One action of a hand item (R-4.9, R-4.10)."""

    stamina: Count = Field(description="Stamina cost.")
    dice: DiceString = ""
    modifier: int = Field(0, ge=-LIMIT, le=LIMIT, description="Flat damage added to the dice total (R-4.8).")
    magic: bool = Field(False, description="Magic damage: compared with resist.")
    node: bool = Field(False, description="Node attack: every enemy on one node.")
    reach: bool = Field(False, description="Reach icon: cannot target range 0.")
    range: Range | None = Field(None, description="Line-specific range overriding the card's.")
    shift_before: Count = Field(0, description="Free move of up to N nodes before rolling.")
    shift_after: Count = Field(0, description="Free move of up to N nodes after rolling.")
    repeat: int = Field(1, ge=1, le=LIMIT, description="Repeat icon N (1 = none).")
    push: bool = Field(False, description="Push icon: push the enemies hit.")
    conditions: list[Condition] = Field(default_factory=list)
    usable_from_backup: bool = Field(False, description="Usable from the backup slot (F-4.1).")
    effects: list[Effect] = Field(default_factory=list)


ItemKind = Literal["weapon", "shield", "spell", "armour", "weapon_upgrade", "armour_upgrade"]
HAND_KINDS = frozenset({"weapon", "shield", "spell"})
Treasure = Literal["starter", "class", "transposed", "generic", "legendary", "boss"]


class Item(Entry):
    """An equipment card: hand item, armour or upgrade (R-4.1)."""

    kind: ItemKind
    school: Literal["miracle", "sorcery", "pyromancy"] | None = Field(
        None, description="Spell school printed on the card."
    )
    treasure: Treasure = Field(description="Which part of the treasure deck it belongs to.")
    class_of: Id | None = Field(None, description="Character id (class/transposed treasure).")
    boss_of: Id | None = Field(None, description="Boss id (boss treasure).")
    hands: Literal[1, 2] | None = Field(None, description="Hands needed (hand items only).")
    range: Range = 0
    requirements: Requirements = Field(default_factory=Requirements)
    block: DiceString = ""
    resist: DiceString = ""
    dodge: Count = Field(0, description="Green dodge dice.")
    upgrade_slots: Count = 0
    attacks: list[AttackLine] = Field(default_factory=list, description="Actions in card order.")
    effects: list[Effect] = Field(default_factory=list, description="Passive card text.")

    @model_validator(mode="after")
    def _consistent(self) -> Item:
        is_hand = self.kind in HAND_KINDS
        if is_hand and self.hands is None:
            raise ValueError(f"a {self.kind} needs 'hands' (1 or 2)")
        if not is_hand and self.hands is not None:
            raise ValueError(f"'hands' is only for hand items, not {self.kind}")
        if self.attacks and not is_hand:
            raise ValueError(f"'attacks' is only for hand items, not {self.kind}")
        if (self.school is not None) != (self.kind == "spell"):
            raise ValueError("'school' is required for spells and only for spells")
        if (self.treasure in ("class", "transposed")) != (self.class_of is not None):
            raise ValueError("'class_of' is required for class/transposed treasure and only there")
        if (self.treasure == "boss") != (self.boss_of is not None):
            raise ValueError("'boss_of' is required for boss treasure and only there")
        return self


# ---------------------------------------------------------------- enemies

Target = Literal["nearest", "aggro"]


class EnemyMove(Model):
    """Movement icon (R-11.5-R-11.8)."""

    op: Literal["move"]
    direction: Literal["toward", "away"]
    target: Target
    distance: Count
    push: bool = False
    push_damage: Count = Field(0, description="Physical damage to characters pushed (R-11.8).")


class EnemyAttack(Model):
    """Attack icon (R-11.9-R-11.11)."""

    op: Literal["attack"]
    type: Literal["physical", "magic"]
    damage: Count
    target: Target
    node: bool = False
    push: bool = False
    conditions: list[Condition] = Field(default_factory=list)


EnemyStep = Annotated[EnemyMove | EnemyAttack, Field(discriminator="op")]


class Enemy(Entry):
    """A regular enemy data card (facts.md §4)."""

    threat: Count
    health: int = Field(ge=1, le=LIMIT)
    block: Count
    resist: Count
    range: Range | None = Field(description="Attack range; null = the enemy has no attack.")
    dodge: Count = Field(description="Dodge difficulty.")
    models: int = Field(ge=1, le=LIMIT, description="Figures in the box (caps how many can spawn).")
    behaviour: list[EnemyStep] = Field(min_length=1, description="Icons left to right (R-11.2).")


# ---------------------------------------------------------------- bosses


class BossMove(Model):
    """Boss move: optionally turn to face a target, then shift without turning (R-12.14-R-12.18)."""

    op: Literal["move"]
    direction: Literal["forward", "backward", "left", "right"]
    face: Target | None = Field(None, description="Turn to face this target first; null = no turn.")
    distance: Count = Field(description="Nodes; 0 = turn only.")
    push: bool = False
    push_damage: Count = 0


class BossLeap(Model):
    """Leap onto the target's node; every leap pushes (R-12.20)."""

    op: Literal["leap"]
    target: Target
    push: Literal[True] = True
    push_damage: Count = 0


class BossTurn(Model):
    """Turn in place (R-12.19); positive = clockwise."""

    op: Literal["turn"]
    degrees: Literal[90, -90, 180]


class BossAttack(Model):
    """Boss attack (R-12.22): area attacks hit the given arcs, others one target (or its node)."""

    op: Literal["attack"]
    type: Literal["physical", "magic"]
    damage: Count
    target: Literal["area", "aggro", "nearest"]
    node: bool = False
    push: bool = False
    arcs: list[Arc] = Field(default_factory=list, description="AoE arcs; empty for one target.")
    conditions: list[Condition] = Field(default_factory=list)

    @model_validator(mode="after")
    def _area_has_arcs(self) -> BossAttack:
        if (self.target == "area") != bool(self.arcs):
            raise ValueError("an 'area' attack needs arcs, and only area attacks have arcs")
        return self


BossStep = Annotated[BossMove | BossLeap | BossTurn | BossAttack, Field(discriminator="op")]


class CardHalf(Model):
    """What one boss figure does when a behaviour card is drawn (R-12.3, R-12.7)."""

    figure: Id = Field(description="Which boss figure resolves this half.")
    range: Range | None = Field(description="Attack range; null = the card has no attack range.")
    dodge: Count = Field(description="Dodge difficulty.")
    repeat: int = Field(1, ge=1, le=LIMIT, description="Repeat icon: resolve the half this many times.")
    weak_arcs: list[Arc] = Field(default_factory=list, description="Weak arcs (R-12.12).")
    steps: list[BossStep] = Field(min_length=1, description="Icons left to right.")


class BehaviourCard(Model):
    """A boss behaviour card; O&S dual cards have two halves, in resolution order."""

    id: Id
    name: str = Field(min_length=1)
    heat_up: bool = Field(False, description="Heat-up card (R-12.6).")
    figure: Id | None = Field(None, description="Owning figure; null = shared by all figures.")
    halves: list[CardHalf] = Field(min_length=1, max_length=2)
    decision: str | None = None
    placeholder: str | None = None


class SpecialAbility(Model):
    """A boss figure's special ability (facts.md §5.2)."""

    id: Id
    text: str = Field(min_length=1)
    placeholder: str | None = None
    effects: list[Effect] = Field(default_factory=list)


class BossFigure(Model):
    """One boss figure and its data card (R-12.2)."""

    id: Id
    name: str = Field(min_length=1)
    threat: Count
    health: int = Field(ge=1, le=LIMIT)
    heat_up: Count | None = Field(description="Heat up at health <= this; null = no threshold.")
    block: Count
    resist: Count
    special: SpecialAbility
    survivor_heal: Count | None = Field(None, description="Health gained when the partner dies.")
    decision: str | None = None

    @model_validator(mode="after")
    def _heat_up_below_health(self) -> BossFigure:
        if self.heat_up is not None and self.heat_up >= self.health:
            raise ValueError(f"heat_up {self.heat_up} must be below health {self.health}")
        return self


class Boss(Entry):
    """A boss (one file under ``bosses/``): data card(s) plus every behaviour card."""

    kind: Literal["mini", "main"]
    deck_size: int = Field(ge=1, le=LIMIT, description="Standard cards dealt into the deck (R-12.5).")
    encounter_levels: list[Annotated[int, Field(ge=1, le=3)]] = Field(min_length=1)
    treasure: list[Id] = Field(description="Boss treasure item ids (R-12.27).")
    figures: list[BossFigure] = Field(min_length=1, max_length=2)
    cards: list[BehaviourCard] = Field(min_length=1)


# ---------------------------------------------------------------- encounters and board


class Encounter(Entry):
    """An encounter card (R-7.1)."""

    level: int = Field(ge=1, le=3)
    spawn_1: list[Id] = Field(description="Enemy ids on the primary spawn node.")
    spawn_2: list[Id] = Field(description="Enemy ids on the secondary spawn node.")
    terrain_1: TerrainKind | None = None
    terrain_2: TerrainKind | None = None
    traps: bool = Field(description="Trap icon shown (R-7.7).")


def _check_node(value: tuple[int, int]) -> tuple[int, int]:
    """A node must lie on the 5×5 checkerboard (row + col even)."""
    row, col = value
    if not (0 <= row < TILE_SIZE and 0 <= col < TILE_SIZE) or (row + col) % 2:
        raise ValueError(f"expected a tile node (row, col) in 0..4 with row+col even, got {list(value)}")
    return value


Node = Annotated[
    tuple[int, int],
    AfterValidator(_check_node),
    Field(description="(row, col) on the 5×5 checkerboard."),
]


class Tile(Entry):
    """A tile's node layout (facts.md §6.2; per-tile layouts are a GAP, §6.3)."""

    kind: Literal["exploration", "mini_boss", "main_boss"]
    spawn_1: Node | None = None
    spawn_2: Node | None = None
    terrain_1: Node | None = None
    terrain_2: Node | None = None
    boss_spawn: Node | None = None
    doors: list[Door] = Field(description="Walls that have a door.")

    @model_validator(mode="after")
    def _layout(self) -> Tile:
        need = ("spawn_1", "spawn_2", "terrain_1", "terrain_2") if self.kind == "exploration" else ("boss_spawn",)
        missing = [name for name in need if getattr(self, name) is None]
        if missing:
            raise ValueError(f"a {self.kind} tile needs {', '.join(missing)}")
        return self

    def special_nodes(self) -> dict[str, tuple[int, int]]:
        """The spawn, terrain and boss-spawn nodes that are set, by field name."""
        return {n: getattr(self, n) for n in TILE_NODE_FIELDS if getattr(self, n) is not None}


class BoardSettings(Model):
    """Board-wide defaults stored at the top of ``tiles.yaml``."""

    entry_door: Door = Field(description="Door the party enters by unless a setting says otherwise.")


class Trap(Entry):
    """One kind of trap token (R-7.7); faces and mix are a GAP (facts.md §7.1)."""

    damage: int = Field(ge=0, le=3, description="Damage (0 = blank).")
    dodge: Count = Field(description="Dodge difficulty.")
    count: Count = Field(description="Tokens of this kind among the 20.")


# ---------------------------------------------------------------- treasure deck

COMMON_CARDS = 60  # the core box holds 60 common treasure cards
LEGENDARY_CARDS = 10  # ... and 10 legendary cards
MAX_COPIES = 8
"""Most copies of one card the deck may hold: a sanity bound while copy counts are a GAP (README GAP 4)."""
TreasureGroupId = Literal["common", "class", "transposed", "legendary", "boss"]


class TreasureDeck(Annotations):
    """``treasure.yaml``: what the treasure deck holds beyond one of each item card (R-1.8, R-1.12)."""

    embers: int = Field(
        ge=0, le=COMMON_CARDS, description="Ember cards shuffled into the common cards at setup (R-1.8, R-3.8)."
    )
    legendary_added: int = Field(
        ge=0, le=LEGENDARY_CARDS, description="Legendary cards drawn at random and added after the mini boss (R-1.12)."
    )
    copies: dict[Id, Annotated[int, Field(ge=1, le=MAX_COPIES)]] = Field(
        default_factory=dict, description="Item id → copies of the card in the deck; unlisted: one (GAP 4)."
    )


class TreasureGroup(Model):
    """One group of the treasure deck, derived from items and deck (rows of ``dsim data list treasure``)."""

    id: TreasureGroupId = Field(description="Group: items' ``treasure`` value, with generic items as 'common'.")
    name: str = Field(min_length=1)
    items: Count = Field(description="Distinct item cards in the group.")
    copies: Count = Field(description="Item cards in the group, copies counted.")
    embers: Count = Field(0, description="Ember cards (common group only, R-3.8).")
    cards: Count = Field(description="All cards of the group: copies plus embers.")
    in_deck: str = Field(description="When and how many of them enter the deck (rule ids).")
    item_ids: list[Id] = Field(description="The group's item ids, in data order.")
    placeholder: str | None = Field(None, description="The deck's placeholder note: its figures are a GAP.")


# ---------------------------------------------------------------- loadouts

LEVEL_SOULS = (0, 2, 6, 14)
"""Souls spent at the Firekeeper to raise one stat from Base to tier 0..3 (R-5.7: 2, 4, 8)."""

Tier = Annotated[int, Field(ge=0, le=3, description="Stat tier: 0 = Base, 1-3 = upgrade tiers (R-3.10).")]


class StatLevels(Model):
    """The tier each stat has been raised to (R-3.10, R-5.7); omitted stats stay at Base."""

    strength: Tier = 0
    dexterity: Tier = 0
    intelligence: Tier = 0
    faith: Tier = 0

    def souls(self) -> int:
        """Souls the Firekeeper charges for these tiers in a standard game (R-5.7)."""
        return sum(LEVEL_SOULS[getattr(self, stat)] for stat in STATS)


class Kit(Model):
    """One character's gear in a loadout: the slots of R-4.2, upgrades per item (R-4.7), stat tiers."""

    levels: StatLevels = Field(default_factory=StatLevels, description="Stat tiers the gear needs.")
    armour: Id
    hands: list[Id] = Field(max_length=2)
    backup: list[Id] = Field(default_factory=list, max_length=2)
    upgrades: dict[Id, list[Id]] = Field(
        default_factory=dict, description="Item id in this kit → upgrade card ids attached to it."
    )
    source: str | None = Field(None, description="Where the choice comes from.")
    decision: str | None = Field(None, description="Why these cards and tiers.")


class Loadout(Entry):
    """A named set of kits, one per character class (``dsim run --loadout``)."""

    characters: dict[Id, Kit] = Field(min_length=1, description="Character id → kit.")


# ---------------------------------------------------------------- campaign scenarios

Level = Annotated[int, Field(ge=1, le=3, description="Encounter level of one exploration battle (R-1.6).")]


class ScenarioPart(Model):
    """One part of a campaign scenario (R-13.2): an area's exploration battles, then its boss battle(s)."""

    area: str = Field(min_length=1, description="Area name as the rules give it.")
    levels: list[Level] = Field(
        min_length=1, max_length=6, description="Encounter level of each exploration battle, in the listed order."
    )
    bosses: list[Id] = Field(
        min_length=1, max_length=2,
        description="Boss ids fought in a row at the end of the part (mini bosses; the last part's: main).",
    )  # fmt: skip


class Scenario(Entry):
    """A campaign scenario (R-13.10, R-13.11): parts played in order; its final boss ends it (R-13.6)."""

    parts: list[ScenarioPart] = Field(min_length=1, max_length=3, description="The parts in play order.")
