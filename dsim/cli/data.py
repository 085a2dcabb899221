"""``dsim data …``: validate, list and show game data, and report card effects the engine ignores."""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
import yaml
from rich.console import Console
from rich.syntax import Syntax
from rich.table import Table

from dsim.games.dstbg import coverage as effect_coverage
from dsim.games.dstbg.loader import KINDS, GameData, load_game_data
from dsim.games.dstbg.schema import INF_RANGE, Boss, Item
from dsim.validation import display_path, exit_on_data_error, singular

DEFAULT_GAME = "dstbg"
LOADERS: dict[str, Callable[..., GameData]] = {"dstbg": load_game_data}
"""Data loader per game name; only DS:TBG so far."""

app = typer.Typer(
    help="Validate, list and inspect game data (cards, bosses, encounters, tiles).",
    no_args_is_help=True,
)
console = Console()

DataOption = Annotated[
    Path | None,
    typer.Option(
        "--data",
        help="Your data folder (same layout as data/<game>/): its entries replace or add to the shipped ones by id.",
        show_default=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON on stdout.")]


def _fail(message: str) -> None:
    """A user error: one line on stderr, exit status 1."""
    Console(stderr=True, soft_wrap=True, highlight=False).print(f"Error: {message}", markup=False)
    raise typer.Exit(1)


@app.callback()
def _options(
    ctx: typer.Context,
    game: Annotated[str, typer.Option("--game", help="Which game's data to use.")] = DEFAULT_GAME,
) -> None:
    """Validate, list and inspect game data."""
    if game not in LOADERS:
        _fail(f"unknown game {game!r}; known: {', '.join(sorted(LOADERS))}")
    ctx.obj = game


def _load(ctx: typer.Context, overlay: Path | None) -> GameData:
    """Load the selected game's data; data problems end the command with status 1."""
    with exit_on_data_error():
        return LOADERS[ctx.obj or DEFAULT_GAME](overlay=overlay)


_NOTES = ("placeholder", "decision", "source")


def _dump(model: Any, compact: bool = False) -> dict[str, Any]:
    """JSON-ready form of a model, provenance notes last; ``compact`` drops fields left at their default."""
    fields = model.model_dump(mode="json", exclude_defaults=compact)
    return {k: v for k, v in fields.items() if k not in _NOTES} | {k: fields[k] for k in _NOTES if k in fields}


def _echo_json(value: Any) -> None:
    typer.echo(json.dumps(value, indent=2, ensure_ascii=False))


@app.command()
def validate(ctx: typer.Context, data: DataOption = None) -> None:
    """Check every data file (types, ranges, references); print one line per problem."""
    game_data = _load(ctx, data)
    counts = ", ".join(f"{n} {kind}" for kind, n in game_data.counts().items())
    where = display_path(game_data.data_dir)
    if data is not None:
        where += f" + overlay {display_path(data)}"
    console.print(f"OK: {counts} ({where})", markup=False, highlight=False, soft_wrap=True)


# ---------------------------------------------------------------- list


def _rng(value: int | None) -> str:
    if value is None:
        return "–"
    return "∞" if value == INF_RANGE else str(value)


def _flags(entry: Any) -> str:
    """P = holds placeholder values for a gap, D = a decision between conflicting sources."""
    return ("P" if getattr(entry, "placeholder", None) else "") + ("D" if getattr(entry, "decision", None) else "")


def _item_row(item: Item) -> list[str]:
    req = "/".join(
        str(getattr(item.requirements, s) or "–") for s in ("strength", "dexterity", "intelligence", "faith")
    )
    kind = f"{item.kind} ({item.school})" if item.school else item.kind
    owner = item.class_of or item.boss_of or ""
    return [
        item.id, item.name, kind, f"{item.treasure} {owner}".strip(), str(item.hands or "–"), _rng(item.range),
        req, item.block or "–", item.resist or "–", str(item.dodge), str(item.upgrade_slots), str(len(item.attacks)),
    ]  # fmt: skip


def _steps(steps: list[Any]) -> str:
    """Compact behaviour text, e.g. ``move toward nearest 1 +push; attack physical 4 @nearest``."""
    parts = []
    for s in steps:
        if s.op == "move":
            text = f"move {s.direction} {getattr(s, 'target', None) or getattr(s, 'face', None) or ''} {s.distance}"
        elif s.op == "leap":
            text = f"leap @{s.target}"
        elif s.op == "turn":
            text = f"turn {s.degrees}"
        else:
            text = f"{s.type} {s.damage} @{s.target}" + (f" {'/'.join(s.arcs)}" if getattr(s, "arcs", None) else "")
            text += " node" if s.node else ""
        if getattr(s, "push", False):
            text += f" +push{f' {s.push_damage}' if getattr(s, 'push_damage', 0) else ''}"
        parts.append(" ".join(text.split()))
    return "; ".join(parts)


def _boss_row(boss: Boss) -> list[str]:
    figures = ", ".join(
        f"{f.name} {f.health}hp" + (f" (heat up ≤{f.heat_up})" if f.heat_up is not None else "") for f in boss.figures
    )
    defence = ", ".join(f"{f.block}/{f.resist}" for f in boss.figures)
    standard = sum(not c.heat_up for c in boss.cards)
    levels = ",".join(map(str, boss.encounter_levels))
    return [
        boss.id,
        boss.kind,
        figures,
        defence,
        str(boss.deck_size),
        f"{standard}+{len(boss.cards) - standard}",
        levels,
    ]


def _node(node: tuple[int, int] | None) -> str:
    return "–" if node is None else f"({node[0]},{node[1]})"


TABLES: dict[str, tuple[list[str], Callable[[Any], list[str]]]] = {
    "dice": (["id", "letter", "faces"], lambda d: [d.id, d.letter, " ".join(map(str, d.faces))]),
    "characters": (
        ["id", "name", "taunt", "heroic action", "armour", "hands", "backup", "S/D/I/F base"],
        lambda c: [
            c.id, c.name, str(c.taunt), c.heroic_action.id, c.starting_equipment.armour,
            ", ".join(c.starting_equipment.hands), ", ".join(c.starting_equipment.backup) or "–",
            "/".join(str(getattr(c.stats, s)[0]) for s in ("strength", "dexterity", "intelligence", "faith")),
        ],
    ),
    "items": (
        [
            "id", "name", "kind", "treasure", "hands", "range",
            "req S/D/I/F", "block", "resist", "dodge", "slots", "lines",
        ],
        _item_row,
    ),
    "enemies": (
        ["id", "name", "threat", "health", "block", "resist", "range", "dodge", "models", "behaviour"],
        lambda e: [
            e.id, e.name, str(e.threat), str(e.health), str(e.block), str(e.resist), _rng(e.range), str(e.dodge),
            str(e.models), _steps(e.behaviour),
        ],
    ),
    "bosses": (["id", "kind", "figures", "block/resist", "deck", "cards std+HU", "levels"], _boss_row),
    "encounters": (
        ["id", "name", "level", "spawn 1", "spawn 2", "terrain 1", "terrain 2", "traps"],
        lambda e: [
            e.id, e.name, str(e.level), ", ".join(e.spawn_1) or "–", ", ".join(e.spawn_2) or "–",
            e.terrain_1 or "–", e.terrain_2 or "–", "yes" if e.traps else "no",
        ],
    ),
    "tiles": (
        ["id", "kind", "spawn 1", "spawn 2", "terrain 1", "terrain 2", "boss spawn", "doors"],
        lambda t: [
            t.id, t.kind, _node(t.spawn_1), _node(t.spawn_2), _node(t.terrain_1), _node(t.terrain_2),
            _node(t.boss_spawn), ", ".join(t.doors) or "–",
        ],
    ),
    "traps": (
        ["id", "name", "damage", "dodge", "count"],
        lambda t: [t.id, t.name, str(t.damage), str(t.dodge), str(t.count)],
    ),
}  # fmt: skip


def _loadout_row(loadout: Any) -> list[str]:
    kits = loadout.characters.items()
    tiers = ["/".join(str(getattr(k.levels, s)) for s in ("strength", "dexterity", "intelligence", "faith"))
             for _, k in kits]

    def gear(kit: Any) -> str:
        return ", ".join(f"{i}+{'+'.join(kit.upgrades[i])}" if kit.upgrades.get(i) else i
                         for i in (kit.armour, *kit.hands, *kit.backup))

    return [
        loadout.id, loadout.name, "\n".join(cid for cid, _ in kits), "\n".join(tiers),
        "\n".join(str(k.levels.souls()) for _, k in kits), "\n".join(gear(k) for _, k in kits),
    ]  # fmt: skip


TABLES["loadouts"] = (["id", "name", "class", "tiers S/D/I/F", "souls", "gear (+ upgrades)"], _loadout_row)


@app.command("list")
def list_entries(
    ctx: typer.Context,
    kind: Annotated[str, typer.Argument(help=f"What to list: {', '.join(KINDS)}.", show_default=False)],
    as_json: JsonOption = False,
    data: DataOption = None,
) -> None:
    """List all entries of one kind as a table (P = placeholder values, D = decided conflict)."""
    if kind not in KINDS:
        _fail(f"unknown kind {kind!r}; expected one of: {', '.join(KINDS)}")
    entries = _load(ctx, data).entries(kind)
    if as_json:
        _echo_json([_dump(entry) for entry in entries.values()])
        return
    columns, row = TABLES[kind]
    table = Table(title=f"{kind} ({len(entries)})", caption="P = placeholder values for a gap, D = decided conflict")
    for column in [*columns, "notes"]:
        table.add_column(column, overflow="fold", no_wrap=column in ("id", "notes"))
    for entry in entries.values():
        table.add_row(*row(entry), _flags(entry))
    console.print(table)


# ---------------------------------------------------------------- show


def _find(game_data: GameData, ident: str, kind: str | None) -> list[tuple[str, str, Any, Path]]:
    """Entries called ``ident`` (``boss/card`` or a bare card id also finds boss behaviour cards)."""
    kinds = [kind] if kind else [*KINDS, "cards"]
    found = [(k, ident, game_data.entries(k)[ident], game_data.origin(k, ident))
             for k in kinds if k != "cards" and ident in game_data.entries(k)]  # fmt: skip
    if "cards" in kinds:
        boss_id, _, card_id = ident.rpartition("/")
        for boss in game_data.bosses.values():
            if boss_id in ("", boss.id):
                found += [("cards", f"{boss.id}/{c.id}", c, game_data.origin("bosses", boss.id))
                          for c in boss.cards if c.id == card_id]  # fmt: skip
    return found


@app.command()
def show(
    ctx: typer.Context,
    ident: Annotated[str, typer.Argument(metavar="ID", help="Entry id, or BOSS/CARD for a boss behaviour card.")],
    second: Annotated[str | None, typer.Argument(
        metavar="[ID]", help="With two arguments the first is the kind: `dsim data show loadout mid_game`.",
        show_default=False)] = None,
    kind: Annotated[
        str | None, typer.Option("--kind", help="Only look in this kind (when an id exists in several).")
    ] = None,
    as_json: JsonOption = False,
    data: DataOption = None,
) -> None:
    """Show one entry (any kind, found by id) with all its fields; `show KIND ID` also works."""
    if second is not None:
        plural = {k: k for k in (*KINDS, "cards")} | {singular(k): k for k in (*KINDS, "cards")}
        if ident not in plural:
            _fail(f"unknown kind {ident!r}; expected one of: {', '.join((*KINDS, 'cards'))}")
        kind, ident = plural[ident], second
    if kind is not None and kind not in (*KINDS, "cards"):
        _fail(f"unknown kind {kind!r}; expected one of: {', '.join((*KINDS, 'cards'))}")
    game_data = _load(ctx, data)
    found = _find(game_data, ident, kind)
    if not found:
        every = [i for k in KINDS for i in game_data.entries(k)]
        close = difflib.get_close_matches(ident, every, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else "; see `dsim data list KIND`"
        _fail(f"no entry with id {ident!r}{hint}")
    if len(found) > 1:
        _fail(f"{ident!r} is ambiguous: {', '.join(f'{k} {i}' for k, i, _, _ in found)}; give BOSS/CARD or --kind")
    found_kind, found_id, entry, origin = found[0]
    if as_json:
        _echo_json(_dump(entry))
        return
    console.rule(f"{found_kind}: {found_id}  ({display_path(origin)})")
    text = yaml.safe_dump(_dump(entry, compact=True), sort_keys=False, allow_unicode=True, width=10**6)
    console.print(Syntax(text, "yaml", word_wrap=True))
    if found_kind == "loadouts":
        souls = ", ".join(f"{cid} {kit.levels.souls()}" for cid, kit in entry.characters.items())
        console.print(f"souls spent on stat tiers (R-5.7: 2/4/8 per tier): {souls}", markup=False, soft_wrap=True)


# ---------------------------------------------------------------- coverage


def _use_json(use: effect_coverage.EffectUse) -> dict[str, Any]:
    return {
        "kind": use.effect.kind,
        "owner_kind": use.owner_kind,
        "owner_id": use.owner_id,
        "card": use.card,
        "where": use.where,
        "text": use.effect.text,
    }


@app.command()
def coverage(ctx: typer.Context, as_json: JsonOption = False, data: DataOption = None) -> None:
    """List card effects (item texts, heroic actions, boss abilities) the engine does not simulate."""
    uses = effect_coverage.unsimulated(_load(ctx, data))
    if as_json:
        _echo_json([_use_json(use) for use in uses])
        return
    if not uses:
        console.print("Every card effect in the data is simulated.")
        return
    groups: dict[str, list[effect_coverage.EffectUse]] = {}
    for use in uses:
        groups.setdefault(use.effect.kind, []).append(use)
    table = Table(
        title=f"Card effects not simulated: {len(uses)} uses of {len(groups)} kinds "
        f"({len(effect_coverage.SIMULATED_EFFECTS)} kinds simulated)"
    )
    for column in ("effect kind", "card", "where", "text"):
        table.add_column(column, overflow="fold")
    for effect_kind, group in groups.items():
        for n, use in enumerate(group):
            table.add_row(
                effect_kind if n == 0 else "", use.card, use.where, use.effect.text, end_section=n == len(group) - 1
            )
    console.print(table)
