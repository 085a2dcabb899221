"""Pydantic models of the Bloodborne data files under ``data/bloodborne/`` (rules: ``bloodborne.md``).

Every model forbids unknown fields. An entry whose figures no source gives is shipped as an editable
default: ``placeholder: true``, ``placeholder_reason: "…"`` and optionally ``placeholder_fields`` (the
fields that are guesses). Numbers are bounded well inside int32 so the compiled tables can hold them.

Card abilities are kept twice: ``text`` as written (or paraphrased) and ``effects``, a machine form in
the small vocabulary below. Whatever part of ``text`` the effects cannot say goes in ``unexpressed``,
which ``dsim data coverage`` lists.

Effect vocabulary. An effect is ``{when, op, amount?, card_type?}``; ``when`` is the moment it applies:

================  ==========================================================================
``when``          meaning
================  ==========================================================================
on_reveal         once, when the dungeon card is flipped (BB-3.4, BB-12.3)
on_escape         once, in step 6, if the monster escapes (BB-3.4, BB-10.2); not for bosses
while_in_play     continuously while the card is the current monster (BB-3.4, BB-3.5)
whole_game        a Final Boss rule change, from setup to the end (BB-2.1, BB-3.6)
transform         round step 2 (BB-6)
instant           round step 3 (BB-7)
monster_attack    round step 4, to the player of the card (BB-8)
hunter_attack     round step 5 (BB-9)
dream_step        round step 7 (BB-11)
================  ==========================================================================

=============================  ======================  ======  ========================================
``op``                         allowed ``when``        amount  meaning
=============================  ======================  ======  ========================================
damage_hunters                 on_reveal, on_escape    ≥ 1     each hunter takes ``amount`` damage
cap_damage                     while_in_play           ≥ 0     each ``card_type`` card deals at most ``amount``
monster_attack_bonus           whole_game,             ≠ 0     every monster roll totals ``amount`` more (min 0)
                               while_in_play
dream_no_halve                 whole_game,             —       Hunter's Dream no longer halves damage (BB-8.3)
                               while_in_play
instant_damage_bonus           whole_game,             ≠ 0     instant cards deal ``amount`` more (min 0)
                               while_in_play
escape_damage_hunters          whole_game              ≥ 1     each escape deals ``amount`` to each hunter
final_boss_trophy_multiplier   whole_game              ≥ 2     Final Boss kill trophies × ``amount``
choose_weapon                  transform               —       pick a weapon from hand now (BB-6.1, BB-6.2)
clash_same_card                instant                 —       copies of this card played in one round
                                                               clash (resolution: variant of BB-7.4)
cancel_melee                   instant                 ≥ 1     cancel ``amount`` melee card(s) of others
heal_to_full                   instant, dream_step     —       the player's health back to 8 (BB-2.7)
bank_collected                 instant, dream_step     —       Collected echoes to Banked (BB-11.1)
lose_health                    instant, hunter_attack  ≥ 1     the player loses ``amount`` health
prevent_monster_damage         monster_attack          —       the player takes no monster damage
halve_monster_damage           monster_attack          —       the player takes half, rounded down (BB-8.3)
recover_used_pile              dream_step              —       the used pile back to hand (BB-11.1)
take_upgrade                   dream_step              ≥ 1     take ``amount`` Available Upgrade(s)
=============================  ======================  ======  ========================================
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationInfo,
    field_validator,
    model_validator,
)

from dsim.figures import Doubt, check_doubts
from dsim.validation import Id

MAX_AMOUNT = 99
"""Largest effect amount, die face and copy count (far inside int32)."""
MAX_HEALTH = 999
"""Largest printed health of a dungeon card."""
MAX_BONUS = 1_000_000
"""Largest trophy bonus in echoes."""
FACES_PER_DIE = 6
"""The three monster dice are custom d6 (facts.md §1)."""
HEALTH_BONUS_BY_PLAYERS: Mapping[int, int] = {3: 0, 4: 1, 5: 2}
"""Health (= Blood Echoes placed) added to the printed value by player count (BB-3.1, BB-3.6)."""

_FACE_RE = re.compile(r"\s*(\d+)\s*(\+?)\s*")



Text = Annotated[str, Field(min_length=1)]
Amount = Annotated[int, Field(ge=-MAX_AMOUNT, le=MAX_AMOUNT)]
Timing = Literal[
    "on_reveal", "on_escape", "while_in_play", "whole_game",
    "transform", "instant", "monster_attack", "hunter_attack", "dream_step",
]
CardType = Literal["melee", "ranged", "utility"]
"""Red, blue and grey action cards (BB-3.7)."""
CardStep = Literal["transform", "instant", "hunter_attack", "dream_step"]
"""The round step in which an action card resolves (BB-4.1)."""


@dataclass(frozen=True)
class OpSpec:
    """What one effect op allows: its timings and its amount (``None`` = takes no amount)."""

    whens: frozenset[str]
    amount_min: int | None = None
    nonzero: bool = False
    needs_card_type: bool = False


OPS: Mapping[str, OpSpec] = {
    "damage_hunters": OpSpec(frozenset({"on_reveal", "on_escape"}), 1),
    "cap_damage": OpSpec(frozenset({"while_in_play"}), 0, needs_card_type=True),
    "monster_attack_bonus": OpSpec(frozenset({"whole_game", "while_in_play"}), -MAX_AMOUNT, nonzero=True),
    "dream_no_halve": OpSpec(frozenset({"whole_game", "while_in_play"})),
    "instant_damage_bonus": OpSpec(frozenset({"whole_game", "while_in_play"}), -MAX_AMOUNT, nonzero=True),
    "escape_damage_hunters": OpSpec(frozenset({"whole_game"}), 1),
    "final_boss_trophy_multiplier": OpSpec(frozenset({"whole_game"}), 2),
    "choose_weapon": OpSpec(frozenset({"transform"})),
    "clash_same_card": OpSpec(frozenset({"instant"})),
    "cancel_melee": OpSpec(frozenset({"instant"}), 1),
    "heal_to_full": OpSpec(frozenset({"instant", "dream_step"})),
    "bank_collected": OpSpec(frozenset({"instant", "dream_step"})),
    "lose_health": OpSpec(frozenset({"instant", "hunter_attack"}), 1),
    "prevent_monster_damage": OpSpec(frozenset({"monster_attack"})),
    "halve_monster_damage": OpSpec(frozenset({"monster_attack"})),
    "recover_used_pile": OpSpec(frozenset({"dream_step"})),
    "take_upgrade": OpSpec(frozenset({"dream_step"}), 1),
}
"""The effect vocabulary (table in the module docstring)."""
Op = Literal[
    "damage_hunters", "cap_damage", "monster_attack_bonus", "dream_no_halve", "instant_damage_bonus",
    "escape_damage_hunters", "final_boss_trophy_multiplier", "choose_weapon", "clash_same_card",
    "cancel_melee", "heal_to_full", "bank_collected", "lose_health", "prevent_monster_damage",
    "halve_monster_damage", "recover_used_pile", "take_upgrade",
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Effect(_Model):
    """One machine-readable ability: at ``when``, do ``op`` (with ``amount``/``card_type`` if the op needs them)."""

    when: Timing
    op: Op
    amount: Amount | None = Field(default=None, validate_default=True)
    card_type: CardType | None = Field(default=None, validate_default=True)

    @field_validator("op")
    @classmethod
    def _op_fits_when(cls, op: str, info: ValidationInfo) -> str:
        """An op is only meaningful at some timings (vocabulary table)."""
        when = info.data.get("when")
        if when is not None and when not in OPS[op].whens:
            raise ValueError(f"op {op!r} applies only when {sorted(OPS[op].whens)}, not {when!r}")
        return op

    @field_validator("amount")
    @classmethod
    def _amount_fits_op(cls, amount: int | None, info: ValidationInfo) -> int | None:
        """Ops with an amount need one in their range; the others take none."""
        op = info.data.get("op")
        if op is None:
            return amount
        spec = OPS[op]
        if spec.amount_min is None:
            if amount is not None:
                raise ValueError(f"op {op!r} takes no amount")
        elif amount is None:
            raise ValueError(f"op {op!r} needs an amount ≥ {spec.amount_min}")
        elif amount < spec.amount_min or (spec.nonzero and amount == 0):
            raise ValueError(f"op {op!r} needs an amount ≥ {spec.amount_min}{' and ≠ 0' if spec.nonzero else ''}")
        return amount

    @field_validator("card_type")
    @classmethod
    def _card_type_fits_op(cls, card_type: str | None, info: ValidationInfo) -> str | None:
        """Only ``cap_damage`` names the card type it limits."""
        op = info.data.get("op")
        if op is None:
            return card_type
        if OPS[op].needs_card_type and card_type is None:
            raise ValueError(f"op {op!r} needs a card_type (melee, ranged or utility)")
        if not OPS[op].needs_card_type and card_type is not None:
            raise ValueError(f"op {op!r} takes no card_type")
        return card_type


class MonsterEffect(Effect):
    """An ability of a Chalice Dungeon monster (BB-3.4)."""

    when: Literal["on_reveal", "on_escape", "while_in_play"]


class BossEffect(Effect):
    """An ability of a Chalice Dungeon boss: bosses never escape (BB-3.5, BB-10.4)."""

    when: Literal["on_reveal", "while_in_play"]


class FinalBossEffect(Effect):
    """An ability of a Final Boss: a whole-game rule change (BB-3.6), or one while it is fought."""

    when: Literal["whole_game", "on_reveal", "while_in_play"]


class CardEffect(Effect):
    """An ability of an action card, at the round step it applies in (BB-4.1)."""

    when: Literal["transform", "instant", "monster_attack", "hunter_attack", "dream_step"]


class _Entry(_Model):
    """Fields every entry has: id, name, where the figures come from, and whether they are guesses."""

    id: Id
    name: Text
    source: Text
    placeholder: bool = False
    placeholder_reason: Text | None = Field(default=None, validate_default=True)
    placeholder_fields: list[str] = Field(default_factory=list, validate_default=True)
    doubts: dict[str, Doubt] = Field(default_factory=dict)  # figure path (or glob) → range / confidence

    @model_validator(mode="after")
    def _doubts_name_numbers(self) -> _Entry:
        """Each ``doubts`` key names numbers of this entry, and each range holds the value given."""
        check_doubts(self, self.doubts)
        return self

    @field_validator("placeholder_reason")
    @classmethod
    def _reason_iff_placeholder(cls, reason: str | None, info: ValidationInfo) -> str | None:
        """A placeholder says why; a sourced entry has no reason to give."""
        placeholder = info.data.get("placeholder")
        if placeholder and reason is None:
            raise ValueError("a placeholder needs a placeholder_reason saying what was guessed and why")
        if placeholder is False and reason is not None:
            raise ValueError("placeholder_reason given but placeholder is not true")
        return reason

    @field_validator("placeholder_fields")
    @classmethod
    def _fields_exist(cls, names: list[str], info: ValidationInfo) -> list[str]:
        """``placeholder_fields`` names real fields of this entry, and only on a placeholder."""
        if names and info.data.get("placeholder") is False:
            raise ValueError("placeholder_fields given but placeholder is not true")
        unknown = [n for n in names if n not in cls.model_fields or n in _ENTRY_FIELDS]
        if unknown:
            allowed = [n for n in cls.model_fields if n not in _ENTRY_FIELDS]
            raise ValueError(f"unknown field(s) {unknown}; expected some of {allowed}")
        return names


_ENTRY_FIELDS = frozenset(_Entry.model_fields)


def _parse_face(value: object) -> object:
    """``2`` is a plain face, ``"2+"`` a combo face (add 2 and roll again, BB-8.2)."""
    if isinstance(value, dict):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return {"value": value, "combo": False}
    match = _FACE_RE.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        raise ValueError(f"expected a face like 2 or '2+' (combo), got {value!r}")
    return {"value": int(match[1]), "combo": bool(match[2])}


class Face(_Model):
    """One die face: ``value`` damage, and ``combo`` if the die is rolled again (BB-8.2)."""

    value: int = Field(ge=0, le=MAX_AMOUNT)
    combo: bool = False


def _dump_face(face: Face) -> int | str:
    """Write a face back in the YAML notation (``2`` or ``"2+"``)."""
    return f"{face.value}+" if face.combo else face.value


FaceField = Annotated[Face, BeforeValidator(_parse_face), PlainSerializer(_dump_face, return_type=int | str)]


class Die(_Entry):
    """A monster die (BB-3.2): six faces, some of them combo faces; at least one must end the roll."""

    faces: list[FaceField] = Field(min_length=FACES_PER_DIE, max_length=FACES_PER_DIE)

    @field_validator("faces")
    @classmethod
    def _chain_ends(cls, faces: list[Face]) -> list[Face]:
        """A die of combo faces only would roll forever."""
        if all(face.combo for face in faces):
            raise ValueError("at least one face must be a plain face (not 'n+'), or the roll never ends")
        return faces


class ActionCard(_Entry):
    """A starter or upgrade card (BB-3.7): type, base damage (weapons only), the step it resolves in."""

    type: CardType
    resolves: CardStep
    damage: int | None = Field(default=None, ge=0, le=MAX_AMOUNT, validate_default=True)
    copies: int = Field(default=1, ge=1, le=MAX_AMOUNT)
    text: str = ""
    effects: list[CardEffect] = Field(default_factory=list)
    unexpressed: Text | None = None

    @field_validator("damage")
    @classmethod
    def _damage_iff_weapon(cls, damage: int | None, info: ValidationInfo) -> int | None:
        """Melee and ranged weapons deal damage (BB-9.1); utility cards are used instead (BB-3.7)."""
        card_type = info.data.get("type")
        if card_type in ("melee", "ranged") and damage is None:
            raise ValueError(f"a {card_type} weapon needs a damage (0 or more)")
        if card_type == "utility" and damage is not None:
            raise ValueError("a utility card deals no damage; leave damage out")
        return damage


class _Dungeon(_Entry):
    """A card the hunters fight: printed (3-player) health, which is also its Blood Echoes (BB-3.1)."""

    health: int = Field(ge=1, le=MAX_HEALTH)
    die: Id
    trophy: Id
    trophies: int = Field(default=1, ge=0, le=MAX_AMOUNT)
    text: str = ""
    unexpressed: Text | None = None

    def health_for(self, players: int) -> int:
        """Health and echoes placed with ``players`` hunters (BB-3.1: +1 with 4, +2 with 5)."""
        return self.health + HEALTH_BONUS_BY_PLAYERS[players]


class Monster(_Dungeon):
    """A Chalice Dungeon monster (18 in the box, BB-1.1): escapes if it survives step 5 (BB-10.1)."""

    effects: list[MonsterEffect] = Field(default_factory=list)


class Boss(_Dungeon):
    """A Chalice Dungeon boss (7 in the box): never escapes, keeps its damage (BB-3.5, BB-9.5)."""

    effects: list[BossEffect] = Field(default_factory=list)


class FinalBoss(_Dungeon):
    """A Final Boss (5 in the box): fought last; its ability holds for the whole game (BB-2.1, BB-3.6)."""

    effects: list[FinalBossEffect] = Field(default_factory=list)


class TrophyTrack(_Entry):
    """A trophy track (Kin, Humanoid, Beast; BB-2.4) and its end-of-game bonus (BB-13.1, BB-13.3).

    ``bonus[n]`` is the bonus for ``n`` trophies; past the table, ``extend`` says how it goes on:
    ``growing_step`` adds one more than the last step each time (triangular numbers continue),
    ``same_step`` adds the last step again, ``cap`` stays at the last value.
    """

    bonus: list[Annotated[int, Field(ge=0, le=MAX_BONUS)]] = Field(min_length=1, max_length=MAX_AMOUNT)
    extend: Literal["growing_step", "same_step", "cap"] = "cap"

    @field_validator("bonus")
    @classmethod
    def _starts_at_zero(cls, bonus: list[int]) -> list[int]:
        """No trophies, no bonus."""
        if bonus[0] != 0:
            raise ValueError(f"bonus[0] is the bonus for no trophies and must be 0, got {bonus[0]}")
        return bonus

    def bonus_for(self, trophies: int) -> int:
        """Bonus echoes for ``trophies`` trophies on this track."""
        table = self.bonus
        if trophies < len(table):
            return table[trophies]
        step = table[-1] - table[-2] if len(table) > 1 else 0
        extra = trophies - len(table) + 1
        if self.extend == "cap":
            return table[-1]
        if self.extend == "same_step":
            return table[-1] + step * extra
        return table[-1] + step * extra + extra * (extra + 1) // 2


KIND_MODELS: Mapping[str, type[_Entry]] = {
    "dice": Die,
    "starters": ActionCard,
    "upgrades": ActionCard,
    "monsters": Monster,
    "bosses": Boss,
    "final_bosses": FinalBoss,
    "trophy_tracks": TrophyTrack,
}
"""Each kind is one file ``<kind>.yaml`` holding a list of entries under the key ``<kind>``."""
KINDS: tuple[str, ...] = tuple(KIND_MODELS)
DUNGEON_KINDS: tuple[str, ...] = ("monsters", "bosses", "final_bosses")
CARD_KINDS: tuple[str, ...] = ("starters", "upgrades")
