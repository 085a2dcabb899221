"""DS:TBG-only commands: `dsim dice attack|defend|dodge` (exact pool totals). `dsim area` and `dsim game` play whole
games: ``dsim/games/dstbg_game/cli.py``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from dsim import dice
from dsim.clikit import DataPath, ExactOption, JsonOption, show_distribution, value_errors
from dsim.validation import exit_on_data_error



def _faces(data: Path | None) -> dict[str, tuple[int, ...]]:
    """Die faces by letter, with the ``--data`` overlay; data problems end the command."""
    from dsim.games.dstbg.datasupport import DSTBGDice

    with exit_on_data_error():
        return DSTBGDice().faces(data)


PoolArgument = Annotated[str, typer.Argument(help="DS:TBG dice pool: 3K-1, K+2U, 2O+1, KKU (K black, U blue, "
                                                  "O orange); these commands are DS:TBG's own (no --game).")]


def _distribution(pool: str, data: Path | None, pmf_of: Any) -> tuple[dice.Pool, Any]:
    """The parsed pool of attack or defence dice and ``pmf_of(pool, faces)``; a bad pool or value, or a green
    dodge die (its symbols are not damage, R-9.5: `dsim dice dodge`), is a one-line error."""
    faces = _faces(data)
    with value_errors():
        parsed = dice.parse_pool(pool, letters=[letter for letter in faces if letter != dice.DODGE_LETTER])
        return parsed, pmf_of(parsed, faces)


def attack(
    pool: PoolArgument,
    block: Annotated[int, typer.Option("--block", help="The target's block (physical) or resist (magic).")] = 0,
    json_: JsonOption = False,
    exact: ExactOption = False,
    data: DataPath = None,
) -> None:
    """Damage dealt to an enemy: total minus its block or resist, never below 0 (R-9.4)."""
    parsed, pmf = _distribution(pool, data, lambda p, faces: dice.attack_pmf(p, faces, block))
    show_distribution("Damage dealt", parsed, pmf, exact, json_, {"block": block})


def defend(
    pool: PoolArgument,
    damage: Annotated[int, typer.Option("--damage", help="The enemy attack's damage.")],
    json_: JsonOption = False,
    exact: ExactOption = False,
    data: DataPath = None,
) -> None:
    """Damage taken when blocking or resisting with a pool: damage minus the total, never below 0 (R-9.5)."""
    parsed, pmf = _distribution(pool, data, lambda p, faces: dice.defend_pmf(p, faces, damage))
    show_distribution("Damage taken", parsed, pmf, exact, json_, {"damage": damage})


def dodge(
    n: Annotated[int, typer.Argument(help="Number of green dodge dice.")],
    difficulty: Annotated[int, typer.Option("--difficulty", help="The attack's dodge difficulty.")],
    json_: JsonOption = False,
    exact: ExactOption = False,
    data: DataPath = None,
) -> None:
    """Chance that N dodge dice show at least DIFFICULTY dodge symbols (R-9.5; difficulty 0 always succeeds,
    0 dice fail any higher one, F-9.3)."""
    faces = _faces(data)
    with value_errors():
        pool = dice.dodge_pool(n)
        pmf = dice.total_pmf(pool, faces)
        success = dice.dodge_probability(n, difficulty, faces)
    show_distribution("Dodge symbols", pool, pmf, exact, json_, {"difficulty": difficulty}, success)
