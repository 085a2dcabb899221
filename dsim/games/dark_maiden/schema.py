"""Pydantic models of the Dark Maiden data files under ``data/dark_maiden/``.

Every model forbids unknown fields. A figure no source gives is written as a mapping
``{value: 5, placeholder: true, placeholder_reason: "..."}`` instead of the plain value; an entry
invented as a whole carries ``placeholder: true`` and ``placeholder_reason`` at its top level.
Rule IDs (DM-…) refer to ``rules/dark_maiden.md``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from dsim.figures import Doubt, check_doubts
from dsim.validation import Id

DIE_DAMAGE = 0
"""Stored damage meaning "the die's value" (written ``die`` in the files; DM-7.11 level-3 mount)."""


def _int_between(low: int, high: int, also: str = "") -> Any:
    """A before-validator accepting only whole numbers in ``low..high`` (not bools, not text)."""

    def check(value: object) -> object:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"expected an integer from {low} to {high}{also}")
        return value

    return check


def bounded(low: int, high: int) -> Any:
    """An int type limited to ``low..high`` with a one-phrase error message."""
    return Annotated[int, BeforeValidator(_int_between(low, high)), Field(ge=low, le=high)]



def _check_faces(value: tuple[int, ...]) -> tuple[int, ...]:
    """Faces are distinct; stored sorted so equal sets compare equal."""
    if len(set(value)) != len(value):
        raise ValueError("expected each face at most once")
    return tuple(sorted(value))


def _parse_damage(value: object) -> object:
    """``die`` (the die's value) becomes :data:`DIE_DAMAGE`; numbers are checked as 1..99."""
    if value == "die":
        return DIE_DAMAGE
    return _int_between(1, 99, " or 'die'")(value)


Text = Annotated[str, Field(min_length=1)]
Face = bounded(1, 6)
Faces = Annotated[tuple[Face, ...], Field(min_length=1, max_length=6), AfterValidator(_check_faces)]
Vitality = bounded(1, 99)
Level = bounded(1, 3)
Points = bounded(0, 99)
Armour = bounded(0, 9)
Damage = Annotated[int, BeforeValidator(_parse_damage), Field(ge=DIE_DAMAGE, le=99)]
Copies = bounded(1, 9)
DiceCount = bounded(1, 2)
SiteOrder = bounded(1, 9)
GoValue = bounded(-9, 9)
Target = bounded(1, 99)
CardCount = bounded(1, 99)
Lives = bounded(1, 99)

HeroSpecial = Literal["strike_first_on_double", "reroll_on_double", "grab_on_equal"]  # DM-7.5
EnemySpecial = Literal["takes_mounts", "draws_card"]  # DM-9.1, DM-9.2
BossSpecial = Literal["reinforcements_on_red_1", "heals_by_damage"]  # DM-9.4, DM-9.5
CardKind = Literal["go", "precipice", "goblin", "mount", "enemy"]  # DM-5.1
ItemRule = Literal["kept", "lost_on_death", "in_deck"]  # DM-2.9


class Mark(BaseModel):
    """The placeholder note of one figure (its value sits in the field itself)."""

    model_config = ConfigDict(extra="forbid")

    placeholder: bool
    placeholder_reason: Text

    @model_validator(mode="after")
    def _is_placeholder(self) -> Mark:
        """A mapping instead of a plain figure only makes sense as a placeholder."""
        if not self.placeholder:
            raise ValueError("a figure written as a mapping is a placeholder: set placeholder: true or write the value")
        return self


class Entry(BaseModel):
    """Fields every entry has: id, name, source note, and placeholder notes (entry-wide and per figure)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Id
    name: Text
    source: Text
    placeholder: bool = False
    placeholder_reason: Text | None = None
    placeholders: dict[str, Mark] = Field(default_factory=dict)
    doubts: dict[str, Doubt] = Field(default_factory=dict)  # figure path (or glob) → range / confidence

    @model_validator(mode="before")
    @classmethod
    def _lift_marks(cls, data: Any) -> Any:
        """``field: {value, placeholder, placeholder_reason}`` → ``field: value`` plus ``placeholders[field]``."""
        if not isinstance(data, dict):
            return data
        given = data.get("placeholders")
        plain, marks = dict(data), dict(given) if isinstance(given, dict) else {}
        for key, value in data.items():
            if key in cls.model_fields and key != "placeholders" and isinstance(value, dict) and ("value" in value or "placeholder" in value):
                mark = dict(value)
                plain.pop(key)
                if "value" in mark:
                    plain[key] = mark.pop("value")
                marks[key] = mark
        if marks and (given is None or isinstance(given, dict)):
            plain["placeholders"] = marks
        return plain

    @model_validator(mode="after")
    def _check_notes(self) -> Entry:
        """An invented entry says why; figure notes name real fields."""
        if self.placeholder != (self.placeholder_reason is not None):
            raise ValueError("placeholder: true and placeholder_reason go together")
        unknown = sorted(set(self.placeholders) - set(type(self).model_fields))
        if unknown:
            raise ValueError(f"placeholder notes for unknown fields {unknown}")
        check_doubts(self, self.doubts)
        return self


class Special(Entry):
    """An entry with an optional special: readable text, plus a machine id where the rules define one."""

    special_text: Text | None = None

    @model_validator(mode="after")
    def _text_with_id(self) -> Special:
        """A machine special id always comes with the text a reader can check."""
        if getattr(self, "special", None) is not None and self.special_text is None:
            raise ValueError("a special needs its special_text")
        return self


class Hero(Special):
    """A playable character (DM-2.4): vitality, three success faces (L15), potion maximum (DM-6.6)."""

    vitality: Vitality
    max_potions: Points
    success_faces: Annotated[Faces, Field(min_length=3, max_length=3)]
    special: HeroSpecial | None = None


class Enemy(Special):
    """A deck enemy: strikes with the red die on its faces for the die's value (DM-7.3)."""

    level: Level
    vitality: Vitality
    success_faces: Faces
    armour: Armour = 0
    advance_points: Points = 0
    special: EnemySpecial | None = None


class Boss(Special):
    """A site or final boss (DM-9.3–9.6); ``sub_boss_points`` is its worth when it returns as a sub-boss."""

    copies: Copies
    vitality: Vitality
    success_faces: Faces
    armour: Armour = 0
    sub_boss_points: Points | None = None
    special: BossSpecial | None = None


class Mount(Special):
    """A mount (DM-7.11): the rider's white die hits on ``attack_faces`` for ``damage`` (``die`` = its value)."""

    level: Level
    vitality: Vitality
    attack_faces: Faces
    damage: Damage


class Goblin(Special):
    """A goblin (DM-5.3): potion die faces that give (or, at the cap, steal) potions, heal die faces."""

    level: Level
    dice: DiceCount
    potion_faces: Faces
    steal_faces: Faces
    heal_faces: tuple[Face, ...] = ()


class Site(Special):
    """A site card (DM-1.1, DM-10): go value per side, advance target, printed goblin, bosses."""

    order: SiteOrder
    go_value: GoValue
    ability_go_value: GoValue | None = None
    advance_target: Target
    goblin: Id | None = None
    bosses: Annotated[tuple[Id, ...], Field(min_length=1)]
    alternate_bosses: tuple[Id, ...] = ()


class PileCard(BaseModel):
    """``count`` copies of one card in a pile; ``ref`` is the id of the goblin, mount or enemy."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: CardKind
    ref: Id | None = None
    count: CardCount

    @model_validator(mode="after")
    def _ref_when_needed(self) -> PileCard:
        """Goblin, mount and enemy cards name their entry; go and precipice cards are generic."""
        if (self.ref is None) != (self.kind in ("go", "precipice")):
            raise ValueError(f"a {self.kind} card {'takes no' if self.kind in ('go', 'precipice') else 'needs a'} ref")
        return self


class Pile(Entry):
    """The level-1 deck or a level-2/3 pile (DM-2.5, DM-10.3)."""

    level: Level
    cards: Annotated[tuple[PileCard, ...], Field(min_length=1)]

    def size(self) -> int:
        """Cards in the pile."""
        return sum(card.count for card in self.cards)


class Difficulty(Entry):
    """A difficulty (DM-2.6): spare lives on the shared counter, and how special items behave (DM-2.9)."""

    lives: Lives
    items: ItemRule


class Item(Special):
    """A special item for solo and 2-player games (DM-2.9); effects are a gap."""
