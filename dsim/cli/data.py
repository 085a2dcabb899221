"""``dsim data …``: validate, list and show game data, and report card effects the engine ignores."""

from __future__ import annotations

import dataclasses
import difflib
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from dsim.cli.common import DataPath, fail, game_named
from dsim.games import DEFAULT_GAME
from dsim.games.data import LoadedData
from dsim.validation import display_path, exit_on_data_error, singular


app = typer.Typer(
    help="Validate, list and inspect a game's data (--game NAME before or after the subcommand).",
    no_args_is_help=True,
)
console = Console()
SOURCES_DOC = "docs/data-sources.md"  # what the data notes' citations of the (unshipped) reference tables mean

JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON on stdout.")]
GameAfter = Annotated[str | None, typer.Option(
    "--game", help="Which game's data to use (also `dsim data --game NAME …`).", show_default=False)]


@app.callback()
def _options(
    ctx: typer.Context,
    game: Annotated[str, typer.Option("--game", help="Which game's data to use.")] = DEFAULT_GAME,
) -> None:
    """Validate, list and inspect game data."""
    support = game_named(game).data()
    if support is None:
        fail(f"{game} has no data files")
    ctx.obj = support


def _support(ctx: typer.Context, game: str | None = None) -> Any:
    """The selected game's data capability: ``--game`` after the subcommand, else before it, else the default."""
    if game is not None:
        _options(ctx, game)
    return ctx.obj if ctx.obj is not None else game_named(DEFAULT_GAME).data()


def _load(ctx: typer.Context, overlay: Path | None) -> LoadedData:
    """Load the selected game's data; data problems end the command with status 1."""
    with exit_on_data_error():
        return _support(ctx).load(overlay)


_NOTES = ("placeholder", "decision", "source")


def _dump(model: Any, compact: bool = False) -> dict[str, Any]:
    """JSON-ready form of a model, provenance notes last; ``compact`` drops fields left at their default."""
    fields = model.model_dump(mode="json", exclude_defaults=compact)
    return {k: v for k, v in fields.items() if k not in _NOTES} | {k: fields[k] for k in _NOTES if k in fields}


def _echo_json(value: Any) -> None:
    typer.echo(json.dumps(value, indent=2, ensure_ascii=False))


@app.command()
def validate(ctx: typer.Context, data: DataPath = None, game: GameAfter = None) -> None:
    """Check every data file (types, ranges, references); print one line per problem."""
    _support(ctx, game)
    game_data = _load(ctx, data)
    counts = ", ".join(f"{n} {kind}" for kind, n in game_data.counts().items())
    where = display_path(game_data.data_dir)
    if data is not None:
        where += f" + overlay {display_path(data)}"
    console.print(f"OK: {counts} ({where})", markup=False, highlight=False, soft_wrap=True)


# ---------------------------------------------------------------- list


def _flags(entry: Any) -> str:
    """P = holds placeholder values for a gap, D = a decision between conflicting sources."""
    return ("P" if getattr(entry, "placeholder", None) else "") + ("D" if getattr(entry, "decision", None) else "")


@app.command("list")
def list_entries(
    ctx: typer.Context,
    kind: Annotated[str, typer.Argument(help="What to list: a kind of the game's data (an unknown kind lists them).",
                                    show_default=False)],
    as_json: JsonOption = False,
    data: DataPath = None,
    game: GameAfter = None,
) -> None:
    """List all entries of one kind as a table (P = placeholder values, D = decided conflict)."""
    support = _support(ctx, game)
    if kind not in support.kinds:
        fail(f"unknown kind {kind!r}; expected one of: {', '.join(support.kinds)}")
    entries = _load(ctx, data).entries(kind)
    if as_json:
        _echo_json([_dump(entry) for entry in entries.values()])
        return
    rows = [[*support.row(kind, entry), _flags(entry)] for entry in entries.values()]
    console.print(_entries_table(f"{kind} ({len(entries)})", [*support.columns(kind), "notes"], rows))


def _entries_table(title: str, columns: list[str], rows: list[list[str]]) -> Table:
    """Entries side by side when every column keeps its longest word whole at the console's width, else each
    entry's fields one per row under its id (a value longer than its column folds onto the next line, never cut)."""
    table = Table(title=title, caption="P = placeholder values for a gap, D = decided conflict")
    words = [max(len(word) for text in (column, *(row[i] for row in rows)) for word in text.split() or [""])
             for i, column in enumerate(columns)]
    if sum(words) + 3 * len(columns) + 1 <= console.width:
        for column, width in zip(columns, words):
            table.add_column(column, min_width=width)
        for row in rows:
            table.add_row(*row)
        return table
    table.add_column(columns[0], no_wrap=True)
    table.add_column("field", no_wrap=True)
    table.add_column("value", overflow="fold")  # a long word (effects such as on_reveal:damage_hunters) folds, never cut
    for row in rows:
        fields = [(column, value) for column, value in zip(columns[1:], row[1:]) if value not in ("", "–")]
        for i, (column, value) in enumerate(fields or [("", "")]):
            table.add_row(row[0] if i == 0 else "", column, value, end_section=i == len(fields) - 1)
    return table


# ---------------------------------------------------------------- show


@app.command()
def show(
    ctx: typer.Context,
    ident: Annotated[str, typer.Argument(metavar="ID", help="Entry id (DS:TBG: BOSS/CARD for a boss behaviour card).")],
    second: Annotated[str | None, typer.Argument(
        metavar="ID", help="With two arguments the first is the kind, e.g. `dsim data show loadout mid_game`.",
        show_default=False)] = None,
    kind: Annotated[
        str | None, typer.Option("--kind", help="Only look in this kind (when an id exists in several).")
    ] = None,
    as_json: JsonOption = False,
    data: DataPath = None,
    game: GameAfter = None,
) -> None:
    """Show one entry (any kind, found by id) with all its fields; `show KIND ID` also works."""
    support = _support(ctx, game)
    kinds = (*support.kinds, *support.extra_kinds)
    plural = {k: k for k in kinds} | {singular(k): k for k in kinds}  # `loadout` and `loadouts` alike
    if second is not None:
        if kind is not None and plural.get(kind, kind) != plural.get(ident, ident):
            fail(f"two kinds given: {ident} (before the id) and --kind {kind}; give one")
        kind, ident = ident, second
    if kind is not None:
        if kind not in plural:
            fail(f"unknown kind {kind!r}; expected one of: {', '.join(kinds)}")
        kind = plural[kind]
    game_data = _load(ctx, data)
    found = support.find(game_data, ident, kind)
    if not found:
        searched = support.kinds if kind is None else [kind] if kind in support.kinds else []  # extra kinds: no list
        every = [i for k in searched for i in game_data.entries(k)]
        close = difflib.get_close_matches(ident, every, n=3)
        hint = (f"; did you mean {', '.join(close)}?" if close else f"; see `dsim data list {kind or 'KIND'}`"
                if searched else "; see `dsim data show --help` for how its ids are written")
        fail(f"no {singular(kind) if kind else 'entry'} with id {ident!r}{hint}")
    if len(found) > 1:
        fail(f"{ident!r} is ambiguous: {', '.join(f'{k} {i}' for k, i, _, _ in found)}; give the kind too (or --kind)")
    found_kind, found_id, entry, origin = found[0]
    if as_json:
        _echo_json(_dump(entry))
        return
    import yaml
    from rich.syntax import Syntax

    console.rule(f"{found_kind}: {found_id}  ({display_path(origin)})")
    text = yaml.safe_dump(_dump(entry, compact=True), sort_keys=False, allow_unicode=True, width=10**6)
    console.print(Syntax(text, "yaml", word_wrap=True))
    for line in support.notes(found_kind, entry):
        console.print(line, markup=False, soft_wrap=True)


# ---------------------------------------------------------------- coverage


@app.command()
def coverage(ctx: typer.Context, as_json: JsonOption = False, data: DataPath = None, game: GameAfter = None,
             doubts: Annotated[bool, typer.Option("--doubts", help="List only the figures whose doubt the data states "
                                                  "(range, confidence; `doubts:` in an entry).")] = False) -> None:
    """List every placeholder figure and card effect the engine does not simulate, then the figures whose doubt the
    data states (a plausible range, a confidence)."""
    from dsim.figures import Figures

    support = _support(ctx, game)
    loaded = _load(ctx, data)
    stated = [f.record() for f in Figures(loaded, support.kinds, support).figures.values() if f.note.doubted]
    if doubts:
        if as_json:
            _echo_json(stated)
        else:
            _doubts_table(stated)
        return
    uses = support.coverage(loaded)
    if as_json:
        _echo_json([dataclasses.asdict(use) for use in uses])
        return
    if not uses:
        console.print("Every card effect in the data is simulated.")
    else:
        _uses_listing(support, uses)
    _doubts_table(stated)


def _doubts_table(stated: list[dict[str, Any]]) -> None:
    """The figures whose doubt the data states, under the coverage table."""
    if not stated:
        console.print("No figure states its doubt (`doubts:` in an entry: range and confidence).")
        return
    import textwrap

    console.rule(f"Doubts stated in the data: {len(stated)} figures")
    width = max(console.width, 40)
    for rec in stated:  # the figure's path whole on its own line, then what the data says of it, wrapped between words
        span = "—" if rec["range"] is None else "[" + ", ".join("…" if v is None else f"{v:g}" for v in rec["range"]) + "]"
        about = (f"value {rec['value']:g} · range {span} · confidence {rec['confidence'] or '—'} · {rec['status']}"
                 + (f": {rec['doubt']}" if rec["doubt"] else ""))
        text = textwrap.wrap(about, width, initial_indent="    ", subsequent_indent="    ",
                             break_long_words=False, break_on_hyphens=False)
        console.print("\n".join([rec["path"]] + text), markup=False, highlight=False, soft_wrap=True)
    console.print("range: the values the sources allow; an open end (…) falls back to one step.",
                  markup=False, highlight=False)


def _uses_listing(support: Any, uses: list[Any]) -> None:
    """The card effects not simulated: a summary first (how many, of what kind, on which cards), then each use."""
    import textwrap

    groups: dict[str, list[Any]] = {}
    for use in uses:
        groups.setdefault(use.kind, []).append(use)
    summary = Table(title=support.coverage_title(uses))  # what matters first: how much, of what kind, on which cards
    summary.add_column("kind", no_wrap=True)
    summary.add_column("uses", justify="right")
    summary.add_column("cards")
    for effect_kind, group in groups.items():
        cards = list(dict.fromkeys(use.card for use in group))
        more = f", … ({len(cards)} cards)" if len(cards) > 3 else ""
        summary.add_row(effect_kind, str(len(group)), ", ".join(cards[:3]) + more)
    console.print(summary)
    width = max(console.width, 40)
    for effect_kind, group in groups.items():  # then each use: names and paths whole, the text wrapped between words
        console.rule(f"{effect_kind} ({len(group)})")
        for use in group:
            head = textwrap.wrap(f"{use.card} ({use.owner_id}) · {use.where}", width, subsequent_indent="  ",
                                 break_long_words=False, break_on_hyphens=False)
            text = textwrap.wrap(use.text, width, initial_indent="    ", subsequent_indent="    ",
                                 break_long_words=False, break_on_hyphens=False)
            console.print("\n".join(head + text), markup=False, highlight=False, soft_wrap=True)
    console.print(f"The notes cite the reference tables the data were transcribed from (facts.md §N, README GAP N): "
                  f"{SOURCES_DOC} says what each section and gap holds.", markup=False, highlight=False)
