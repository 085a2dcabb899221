"""The ``dsim`` command line: one Typer app, one sub-module per command group."""

import typer

app = typer.Typer(
    name="dsim",
    help="Simulate co-operative dungeon board games (Dark Souls: The Board Game) and analyse balance.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    add_completion=False,
)


def main() -> None:
    """Console-script entry point."""
    app()
from dsim.cli import dice as _dice; app.add_typer(_dice.app, name="dice")  # noqa: E402, E702
from dsim.cli import data as _data; app.add_typer(_data.app, name="data")  # noqa: E402, E702
from dsim.cli import sweep as _sweep; _sweep.register(app)  # noqa: E402, E702
from dsim.cli import battle as _battle; app.command("run")(_battle.run); app.command("explain")(_battle.explain)  # noqa: E402, E702
from dsim.cli import policies as _policies; app.add_typer(_policies.app, name="policies"); app.command("tune-policy")(_policies.tune)  # noqa: E402, E702
from dsim.cli import variants as _variants; app.add_typer(_variants.app, name="variants")  # noqa: E402, E702
from dsim.cli import rules as _rules; app.command("compare")(_rules.compare); app.command("tune")(_rules.tune)  # noqa: E402, E702
from dsim.cli import area as _area; app.command("area")(_area.area)  # noqa: E402, E702
from dsim.cli import bench as _bench; app.command("bench")(_bench.bench)  # noqa: E402, E702
