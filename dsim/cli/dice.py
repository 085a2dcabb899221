"""``dsim dice``: exact distributions of dice pools — rolls, attacks, defence and dodges."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from dsim import dice
from dsim.games.dstbg.loader import load_game_data
from dsim.validation import exit_on_data_error

app = typer.Typer(
    help="Exact dice distributions: a pool's total, damage dealt against a block, damage taken, dodge chances.",
    no_args_is_help=True,
)

PoolArgument = Annotated[str, typer.Argument(help="Dice pool, e.g. 3K-1, K+2U, 2O+1, KKU (K black, U blue, O orange).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout instead of a table.")]
ExactOption = Annotated[bool, typer.Option("--exact", help="Show probabilities and means as exact fractions (e.g. 5/36).")]
DataOption = Annotated[
    Path | None,
    typer.Option("--data", help="Data folder overlaying the shipped game data (e.g. house-ruled dice faces)."),
]


def _fail(message: str) -> NoReturn:
    """Print a one-line error on stderr and exit with status 1."""
    typer.echo(f"Error: {message}", err=True)
    raise typer.Exit(1)


def _faces(data: Path | None) -> dict[str, tuple[int, ...]]:
    """Die faces by letter from the game data, with the ``--data`` overlay applied."""
    with exit_on_data_error():
        game = load_game_data(overlay=data)
    return {die.letter: tuple(die.faces) for die in game.dice.values()}


def _number(value: Fraction, exact: bool) -> str | float:
    """A probability or mean as a fraction string (``--exact``) or a float."""
    return str(value) if exact else float(value)


def _format(value: Fraction, exact: bool) -> str:
    """Table text of a probability or mean."""
    return str(value) if exact else f"{float(value):.6g}"


def _show(
    title: str,
    pool: dice.Pool,
    pmf: Mapping[int, Fraction],
    exact: bool,
    as_json: bool,
    params: Mapping[str, int] | None = None,
    p_success: Fraction | None = None,
) -> None:
    """Print a distribution (value, probability, P(≥ value)) and its mean, as a rich table or one JSON object."""
    params = dict(params or {})
    mean = dice.mean(pmf)
    if as_json:
        payload: dict[str, Any] = {"pool": str(pool), **params}
        payload["pmf"] = [[value, _number(p, exact)] for value, p in pmf.items()]
        payload["mean"] = _number(mean, exact)
        if p_success is not None:
            payload["p_success"] = _number(p_success, exact)
        typer.echo(json.dumps(payload))
        return
    tail = dice.survival(pmf)
    heading = ", ".join([str(pool), *(f"{key} {value}" for key, value in params.items())])
    table = Table(title=f"{title}: {heading}")
    for column in ("value", "probability", "P(≥ value)"):
        table.add_column(column, justify="right")
    for value, p in pmf.items():
        table.add_row(str(value), _format(p, exact), _format(tail[value], exact))
    console = Console()
    console.print(table)
    console.print(f"mean: {_format(mean, exact)}")
    if p_success is not None:
        console.print(f"P(success): {_format(p_success, exact)}")


@contextmanager
def _user_errors() -> Iterator[None]:
    """Turn a ``ValueError`` from a bad pool or a negative number into a one-line error and exit 1."""
    try:
        yield
    except ValueError as error:
        _fail(str(error))


def _parse(text: str, faces: Mapping[str, tuple[int, ...]]) -> dice.Pool:
    """Parse a pool against the letters of the loaded dice."""
    return dice.parse_pool(text, letters=faces.keys())


@app.command()
def roll(pool: PoolArgument, json_: JsonOption = False, exact: ExactOption = False, data: DataOption = None) -> None:
    """Distribution of a pool's total (modifier included; a total below 0 counts as 0, R-4.8)."""
    faces = _faces(data)
    with _user_errors():
        parsed = _parse(pool, faces)
        pmf = dice.total_pmf(parsed, faces)
    _show("Total", parsed, pmf, exact, json_)


@app.command()
def attack(
    pool: PoolArgument,
    block: Annotated[int, typer.Option("--block", help="The target's block (physical) or resist (magic).")] = 0,
    json_: JsonOption = False,
    exact: ExactOption = False,
    data: DataOption = None,
) -> None:
    """Damage dealt to an enemy: total minus its block or resist, never below 0 (R-9.4)."""
    faces = _faces(data)
    with _user_errors():
        parsed = _parse(pool, faces)
        pmf = dice.attack_pmf(parsed, faces, block)
    _show("Damage dealt", parsed, pmf, exact, json_, {"block": block})


@app.command()
def defend(
    pool: PoolArgument,
    damage: Annotated[int, typer.Option("--damage", help="The enemy attack's damage.")],
    json_: JsonOption = False,
    exact: ExactOption = False,
    data: DataOption = None,
) -> None:
    """Damage taken when blocking or resisting with a pool: damage minus the total, never below 0 (R-9.5)."""
    faces = _faces(data)
    with _user_errors():
        parsed = _parse(pool, faces)
        pmf = dice.defend_pmf(parsed, faces, damage)
    _show("Damage taken", parsed, pmf, exact, json_, {"damage": damage})


@app.command()
def dodge(
    n: Annotated[int, typer.Argument(help="Number of green dodge dice.")],
    difficulty: Annotated[int, typer.Option("--difficulty", help="The attack's dodge difficulty.")],
    json_: JsonOption = False,
    exact: ExactOption = False,
    data: DataOption = None,
) -> None:
    """Chance that N dodge dice show at least DIFFICULTY dodge symbols (R-9.5; 0 dice always fail, F-9.3)."""
    faces = _faces(data)
    with _user_errors():
        pool = dice.dodge_pool(n)
        pmf = dice.total_pmf(pool, faces)
        success = dice.dodge_probability(n, difficulty, faces)
    _show("Dodge symbols", pool, pmf, exact, json_, {"difficulty": difficulty}, success)
