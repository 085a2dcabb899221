"""``dsim dice``: exact distributions of dice pools — rolls, attacks, defence and dodges."""

from __future__ import annotations

from typing import Annotated

import typer

from dsim.cli.common import GameOpt, game_named
from dsim.clikit import DataPath, ExactOption, JsonOption, fail, show_distribution, value_errors
from dsim.games import DEFAULT_GAME
from dsim.validation import exit_on_data_error

app = typer.Typer(
    help="Exact dice distributions: a pool's total (every game), and the game's own dice questions "
         "(DS:TBG: damage dealt against a block, damage taken, dodge chances).",
    no_args_is_help=True,
)

PoolArgument = Annotated[str, typer.Argument(help="Dice pool in the game's notation; DS:TBG: 3K-1, K+2U, 2O+1, KKU (K black, U blue, O orange); "
                                                     "Dark Maiden: 2d6, or a hero, enemy, boss or mount id.")]
@app.command()
def roll(pool: PoolArgument, json_: JsonOption = False, exact: ExactOption = False, data: DataPath = None,
         game: GameOpt = DEFAULT_GAME) -> None:
    """Exact distribution of a pool's total in the game's dice notation (DS:TBG: a total below 0 counts as 0, R-4.8)."""
    support = game_named(game).dice()
    if support is None:
        fail(f"{game} has no dice")
    with exit_on_data_error(), value_errors():
        dist = support.roll(pool, data)
    title, _, heading = dist.title.partition(": ")
    show_distribution(title, heading or pool, dist.pmf, exact, json_, beyond=dist.beyond, mean=dist.mean)
    if dist.note and not json_:
        typer.echo(dist.note)
