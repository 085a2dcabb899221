"""The ``dsim`` command line: one Typer app, one sub-module per command group, every command generic."""

import errno
import os
import sys

import typer

app = typer.Typer(
    name="dsim",
    help="Simulate dungeon board games (Dark Souls: The Board Game, …) and analyse balance.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    add_completion=False,
)


def main() -> None:
    """Console-script entry point: output that cannot be written (``--json > /dev/full``, a closed pipe) and any
    other system error left unhandled, and an untested Numba, end with one line on stderr and status 1, not a traceback;
    Ctrl-C exits 130."""
    from dsim import compile_notice
    from dsim.numba_version import UnsupportedNumba

    if not os.environ.get("DSIM_NO_COMPILE_NOTICE"):  # set by the test suite, which counts stderr's lines
        compile_notice.announce(_say_on_stderr)
    try:
        try:
            app()
        finally:
            sys.stdout.flush()  # buffered output fails here, not in the interpreter's exit
    except UnsupportedNumba as exc:
        sys.stderr.write(f"Error: {exc}\n")
        sys.exit(1)
    except OSError as exc:
        try:  # later writes (and the interpreter's last flush) go nowhere instead of failing again
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
        sys.stderr.write(f"Error: {_system_error(exc)}\n")
        sys.exit(1)


def _say_on_stderr(line: str) -> None:
    """A notice on stderr, above any progress bar (the console that draws it)."""
    from dsim.clikit import err

    err.print(line, markup=False, style="dim")


def _system_error(exc: OSError) -> str:
    """One line for an unhandled system error: the output's, or the file's it names."""
    reason = exc.strerror or str(exc)
    if isinstance(exc, BrokenPipeError):
        return "the output was closed before dsim finished writing (broken pipe)"
    if exc.filename is None and exc.errno in (errno.ENOSPC, errno.EFBIG, errno.EIO, errno.EDQUOT):
        return f"cannot write the output: {reason}"
    return f"{exc.filename}: {reason}" if exc.filename else reason


def _register() -> None:
    """Add every command group, then the commands that only one game has."""
    from dsim.cli import bench, data, dice, games, policies, rules, run, sensitivity, sweep, variants, warm
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
    app.command("sensitivity")(sensitivity.sensitivity_command)
    app.command("bench")(bench.bench)
    app.command("games")(games.games)
    app.command("warm")(warm.warm)
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
