"""What every command shares: the game lookup, the game options of cell commands, cell settings; and (from
:mod:`dsim.clikit`, the kit games use too) the error helper and common options.

Commands stay thin: they parse, call library functions and print. A user error is one line on
stderr and exit status 1 (:func:`fail`), never a traceback.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import typer

from dsim.clikit import (  # noqa: F401  (re-exported: the commands take them from here)
    DataOpt, DataPath, JsonOpt, LoggedProgress, LongRunNotice, Seed, SetOpt, console, err, fail, listed, named,
    option_parameter,
    parse_sets, say_played_with, user_errors,
)
from dsim.games import DEFAULT_GAME, game_names, get_game
from dsim.games.base import Game, SettingsError
from dsim.text import repeated

GameOpt = Annotated[str, typer.Option("--game", help="Game to simulate (`dsim games` lists them).")]
PolicyOpt = Annotated[str | None, typer.Option(
    "--policy", callback=named, help="Policy name (`dsim policies list`) or path/to/module.py:name (default: the game's).")]


def game_named(name: str) -> Game:
    """The registered game ``name``, or a one-line error listing the games."""
    try:
        return get_game(name)
    except KeyError:
        fail(f"unknown game {name!r} (available: {', '.join(game_names())})")


def cell_settings(game: Game, values: Mapping[str, Any], policy: str | None, sets: list[str] | None,
                  data: str | None) -> dict[str, Any]:
    """One cell's settings from a command line: the game's options, policy, rule tables, data overlay."""
    try:
        settings = game.settings_from_options(values)
    except SettingsError as exc:
        fail(str(exc))
    settings["policy"] = policy or game.default_policy
    settings.update(parse_sets(game, sets))
    if data:
        settings["data"] = data
    return settings


def check(game: Game, settings: Mapping[str, Any]) -> None:
    """Validate a cell (unknown ids, bad values) with a one-line error."""
    with user_errors():
        game.check_settings(settings)


def _all_options() -> dict[str, tuple[Any, list[str]]]:
    """Every registered game's options by name: (the default game's declaration, else the first; the games
    that use it)."""
    merged: dict[str, tuple[Any, list[str]]] = {}
    names = game_names()
    for name in sorted(names, key=lambda n: n != DEFAULT_GAME):
        for option in get_game(name).options:
            merged.setdefault(option.name, (option, []))[1].append(name)
    return {k: (option, sorted(users, key=names.index)) for k, (option, users) in merged.items()}


def _option_help(option: Any, users: list[str]) -> str:
    """An option's help: its declaration's text, each other game's own text where it differs, and the games
    that use it when not all do."""
    others = {name: text for name in users
              if (text := next(o.help for o in get_game(name).options if o.name == option.name)) != option.help}
    games = "" if len(users) == len(game_names()) else f" [{', '.join(users)}]"
    return option.help + "".join(f" {name}: {text}" for name, text in others.items()) + games


@dataclass
class CellArgs:
    """What a cell command got on its command line: the game, the seed, rule settings, data overlay
    and the game's own options (filled in by :func:`with_game_options`)."""

    game: str
    seed: int
    sets: list[str] | None
    data: str | None
    options: dict[str, Any]

    def chosen(self) -> Game:
        """The game named by ``--game``."""
        return game_named(self.game)

    def one(self, policy: str | None) -> tuple[Game, dict[str, Any]]:
        """The game and the checked settings of one cell."""
        game = self.chosen()
        settings = cell_settings(game, game_values(game, self.options), policy, self.sets, self.data)
        check(game, settings)
        return game, settings

    def grid(self, policy: str | None) -> tuple[Game, list[dict[str, Any]]]:
        """The game and the cells of its grid over the repeated options (``dsim compare``)."""
        game = self.chosen()
        values = game_values(game, self.options, grid=True)
        for name, given in values.items():  # a value twice would play its cells twice and count its tests twice
            twice = repeated(given) if isinstance(given, list) else None
            if twice is not None:
                fail(f"--{name.replace('_', '-')} {given[twice]}: given twice")
        try:
            cells = game.grid(values, self.data)
        except SettingsError as exc:
            fail(str(exc))
        twice = repeated(cells)  # e.g. --boss all --boss gargoyle
        if twice is not None:
            fail(f"{game.label(cells[twice])} would be played and tested twice: a value is repeated or already covered "
                 f"(--sizes 1,1; --boss all with a boss); give each once")
        common: dict[str, Any] = {"policy": policy or game.default_policy, **parse_sets(game, self.sets)}
        if self.data:
            common["data"] = self.data
        return game, [cell | common for cell in cells]


def _cell_parameters() -> list[Any]:
    """``--seed``, ``--set``, ``--data`` and ``--game``: the parameters every cell command shares."""
    import inspect

    keyword = inspect.Parameter.KEYWORD_ONLY
    return [inspect.Parameter("seed", keyword, default=1, annotation=Seed),
            inspect.Parameter("set_", keyword, default=None, annotation=SetOpt),
            inspect.Parameter("data", keyword, default=None, annotation=DataOpt),
            inspect.Parameter("game", keyword, default=DEFAULT_GAME, annotation=GameOpt)]


class _WithGameOptions:
    """``command(…, cell)`` with the shared cell parameters and a ``--flag`` for every option of every game.

    Typer reads the signature when the command line is parsed, so the signature is computed then
    (games registered after import, e.g. by ``game_module``, get their flags): the command's own
    parameters first, then the shared ones, then one per game option (help says which games use it,
    if not all). The command receives them as one :class:`CellArgs`.
    """

    def __init__(self, command: Any, repeatable: bool) -> None:
        self.command, self.repeatable = command, repeatable
        self.__name__, self.__doc__ = command.__name__, command.__doc__
        self._built: tuple[list[Game], list[Any]] | None = None  # the games the parameters were built for, and them

    def _own(self) -> list[Any]:
        import inspect

        return [p for p in inspect.signature(self.command, eval_str=True).parameters.values() if p.name != "cell"]

    def _params(self) -> list[Any]:
        """The parameters, built again only when the registered games change: Typer asks several times per
        command line, and building them evaluates every annotation (a tenth of a second over all commands)."""
        games = [get_game(name) for name in game_names()]
        if self._built is None or len(games) != len(self._built[0]) or any(
                a is not b for a, b in zip(games, self._built[0])):
            self._built = (games, self._build())
        return self._built[1]

    def _build(self) -> list[Any]:
        shared = _cell_parameters()
        taken = {p.name for p in self._own() + shared}
        extra = []
        for name, (option, users) in _all_options().items():
            if name in taken or option.grid_only and not self.repeatable:
                continue
            extra.append(option_parameter(option, _option_help(option, users), self.repeatable))
        return self._own() + shared + extra

    @property
    def __signature__(self) -> Any:
        import inspect

        return inspect.Signature(self._params())

    @property
    def __annotations__(self) -> dict[str, Any]:  # type: ignore[override]
        return {p.name: p.annotation for p in self._params()}

    def __call__(self, **kwargs: Any) -> Any:
        own = {p.name: kwargs.pop(p.name) for p in self._own()}
        cell = CellArgs(kwargs.pop("game"), kwargs.pop("seed"), kwargs.pop("set_"), kwargs.pop("data"), kwargs)
        return self.command(**own, cell=cell)


def with_game_options(command: Any, repeatable: bool = False) -> Any:
    """Wrap a command so that it takes the shared cell parameters and every registered game's options
    (see :class:`_WithGameOptions`); ``repeatable`` makes each game option a list (one grid axis)."""
    return _WithGameOptions(command, repeatable)


def game_values(game: Game, options: Mapping[str, Any], grid: bool = False) -> dict[str, Any]:
    """The given game options, refusing those the chosen game does not have (for this command: a grid
    option such as ``--sizes`` only where a grid of cells is built)."""
    usable = [o for o in game.options if grid or not o.grid_only]
    mine = {o.name for o in usable}
    given = {k: v for k, v in options.items() if v is not None and v != []}
    foreign = sorted(k for k in given if k not in mine)
    if foreign:
        flags = ", ".join("--" + k.replace("_", "-") for k in foreign)
        fail(f"{flags}: not an option of {game.name} (its options: {', '.join(o.flag for o in usable) or 'none'})")
    return given


def table(title: str, headers: Sequence[str]) -> Any:
    """A rich table whose first column (a name) is left-aligned and the others (numbers) right-aligned."""
    from rich.table import Table

    out = Table(title=title)
    for n, header in enumerate(headers):
        out.add_column(header, justify="left" if n == 0 else "right")
    return out
