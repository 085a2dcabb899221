"""The ``dsim`` command line: one Typer app, one sub-module per command group, every command generic."""

import typer

app = typer.Typer(
    name="dsim",
    help="Simulate dungeon board games (Dark Souls: The Board Game, …) and analyse balance.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    add_completion=False,
)


def main() -> None:
    """Console-script entry point; an untested Numba ends any command that compiles with one line."""
    from dsim.numba_version import UnsupportedNumba

    try:
        app()
    except UnsupportedNumba as exc:
        from dsim.clikit import err

        err.print(f"Error: {exc}", markup=False)
        raise SystemExit(1) from None


def _register() -> None:
    """Add every command group, then the commands that only one game has."""
    from dsim.cli import bench, data, dice, games, policies, rules, run, sweep, variants
    from dsim.games import game_names, get_game

    app.add_typer(dice.app, name="dice")
    app.add_typer(data.app, name="data")
    sweep.register(app)
    run.register(app)
    app.add_typer(policies.app, name="policies")
    app.command("tune-policy")(policies.with_game_options(policies.tune))
    app.add_typer(variants.app, name="variants")
    app.command("compare")(rules.compare_command)
    app.command("tune")(rules.tune_command)
    app.command("bench")(bench.bench)
    app.command("games")(games.games)
    for name in game_names():
        for command, function in get_game(name).commands():
            group, _, sub = command.rpartition(" ")
            (dice.app if group == "dice" else app).command(sub)(function)
    _unwrap_help(app)


def _unwrap_help(group: typer.Typer) -> None:
    """Each command's help from its docstring with the lines of a paragraph joined: Typer keeps a docstring's
    line breaks, so a summary wrapped in the source broke mid-sentence in `--help` listings."""
    import inspect
    import re

    for info in group.registered_commands:
        doc = inspect.getdoc(info.callback) if info.help is None and info.callback else None
        if doc:
            info.help = re.sub(r"(?<=\S)\n(?=\S)", " ", doc)
    for sub in group.registered_groups:
        _unwrap_help(sub.typer_instance)


_register()
