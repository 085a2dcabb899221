"""``dsim dice``: exact distributions of dice pools — rolls, attacks, defence and dodges."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from fractions import Fraction
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from dsim import dice
from dsim.games import DEFAULT_GAME
from dsim.cli.common import DataPath, GameOpt, game_named
from dsim.cli.common import fail as _fail
from dsim.validation import exit_on_data_error

app = typer.Typer(
    help="Exact dice distributions: a pool's total (every game), and the game's own dice questions "
         "(DS:TBG: damage dealt against a block, damage taken, dodge chances).",
    no_args_is_help=True,
)

PoolArgument = Annotated[str, typer.Argument(help="Dice pool in the game's notation; DS:TBG: 3K-1, K+2U, 2O+1, KKU (K black, U blue, O orange); "
                                                     "Dark Maiden: 2d6, or a hero, enemy, boss or mount id.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout instead of a table.")]
ExactOption = Annotated[bool, typer.Option("--exact", help="Show probabilities and means as exact fractions (e.g. 5/36).")]


def _number(value: Fraction, exact: bool) -> str | float:
    """A probability or mean as a fraction string (``--exact``) or a float."""
    return str(value) if exact else float(value)


def _format(value: Fraction, exact: bool) -> str:
    """Table text of a probability or mean."""
    return str(value) if exact else f"{float(value):.6g}"


def _show(
    title: str,
    pool: dice.Pool | str,
    pmf: Mapping[int, Fraction],
    exact: bool,
    as_json: bool,
    params: Mapping[str, int] | None = None,
    p_success: Fraction | None = None,
    beyond: Fraction = Fraction(0),
    mean: Fraction | None = None,
) -> None:
    """Print a distribution (value, probability, P(≥ value)) and its mean, as a rich table or one JSON object. A
    truncated pmf gives the exact mass ``beyond`` its last value (added to every P(≥ value)) and its exact mean."""
    params = dict(params or {})
    mean = dice.mean(pmf) if mean is None else mean
    if as_json:
        payload: dict[str, Any] = {"pool": str(pool), **params}
        payload["pmf"] = [[value, _number(p, exact)] for value, p in pmf.items()]
        payload["mean"] = _number(mean, exact)
        if p_success is not None:
            payload["p_success"] = _number(p_success, exact)
        typer.echo(json.dumps(payload))
        return
    tail = {value: p + beyond for value, p in dice.survival(pmf).items()}
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


@app.command()
def roll(pool: PoolArgument, json_: JsonOption = False, exact: ExactOption = False, data: DataPath = None,
         game: GameOpt = DEFAULT_GAME) -> None:
    """Exact distribution of a pool's total in the game's dice notation (DS:TBG: a total below 0 counts as 0, R-4.8)."""
    support = game_named(game).dice()
    if support is None:
        _fail(f"{game} has no dice")
    with exit_on_data_error(), _user_errors():
        dist = support.roll(pool, data)
    title, _, heading = dist.title.partition(": ")
    _show(title, heading or pool, dist.pmf, exact, json_, beyond=dist.beyond, mean=dist.mean)
    if dist.note and not json_:
        typer.echo(dist.note)
