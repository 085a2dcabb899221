"""The contract between the game-agnostic layer (CLI, sweeps, results, reports, plots) and one game.

A game implements :class:`Game` once: it declares its command-line options, its outcome schema
and its rule tables, validates and plays cells, and answers the optional capabilities (data,
dice, policies, explain, benchmark workloads) that the generic commands dispatch to. Nothing
outside ``dsim/games/<game>`` and ``policies/<game>`` names a game's concepts; see
``dsim/games/README.md`` for the layout a game follows.

A game object must be cheap to build (no kernel import, no compile): the CLI builds every
registered game to list its options. Heavy imports belong inside the methods.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    import numpy as np


class SettingsError(ValueError):
    """A cell's settings or a command-line value cannot be used (message is user-facing, one line)."""


MAX_PLAYS = 10**12
"""The most plays (battles, games) one ``dsim run`` or one sweep cell may ask for."""


def cell_settings(key: str, known: set[str]) -> dict[str, Any]:
    """The settings of a cell from its JSON key (games cache cells by it), refusing names outside ``known``."""
    import json

    settings = json.loads(key)
    unknown = set(settings) - known
    if unknown:
        raise ValueError(f"unknown setting(s) {', '.join(sorted(unknown))} (known: {', '.join(sorted(known))})")
    return settings


@dataclass(frozen=True)
class Option:
    """One command-line option of a game (``--name`` for ``run``, ``explain``, ``compare``, ``tune``…).

    ``setting`` is the cell-settings key it fills (default: ``name``). ``kind`` is ``str``, ``int``,
    ``float`` or ``"list"`` (comma-separated text → list of strings). Options left unset do not
    appear in the settings, so adding an option never changes the random stream of old cells.
    ``parse`` turns the text into the setting's value (may raise :class:`SettingsError`).
    """

    name: str
    help: str
    kind: Any = str
    default: Any = None
    setting: str | None = None
    parse: Callable[[Any], Any] | None = None
    minimum: int | None = None
    grid_only: bool = False  # only for commands that build a grid of cells (``dsim compare``)

    @property
    def key(self) -> str:
        """The settings key this option fills."""
        return self.setting or self.name

    @property
    def flag(self) -> str:
        """The command-line spelling, e.g. ``--mini-boss``."""
        return "--" + self.name.replace("_", "-")

    def value(self, raw: Any) -> Any:
        """The setting's value for the option's raw command-line value."""
        if self.parse is not None:
            return self.parse(raw)
        if self.kind == "list":
            return split_list(self.flag, raw)
        return raw


def split_list(flag: str, raw: Any) -> list[str]:
    """Comma-separated text → its items; an empty item (``knight,,warrior``, a trailing comma) is an error,
    never silently dropped."""
    items = [part.strip() for part in str(raw).split(",")]
    if not any(items):
        raise SettingsError(f"{flag}: expected a comma-separated list, got {raw!r}")
    if not all(items):
        raise SettingsError(f"{flag}: item {items.index('') + 1} of {raw!r} is empty (a doubled or stray comma?)")
    return items


_KIND_TEXT = {str: "a string", int: "a whole number", float: "a number", dict: "a table of name = value",
              "list": 'a list of names, e.g. ["a", "b"], or "a,b"'}


def _has_kind(value: Any, kind: Any) -> bool:
    """Whether a setting's value has an option's declared kind (``bool`` is not a number here)."""
    if kind == "list":
        return isinstance(value, str) or isinstance(value, list) and all(isinstance(item, str) for item in value)
    if kind in (int, float):
        return isinstance(value, int if kind is int else int | float) and not isinstance(value, bool)
    return isinstance(value, kind)


@dataclass(frozen=True)
class Outcome:
    """Which per-game outcome columns mean what.

    ``success`` is the boolean column whose rate gets an interval: a co-operative win (``win``).
    A competitive game sets ``success=None`` and ``seats`` (the most players) and returns ``win_seat_0 …`` booleans
    (the winner; ties may credit several) and ``score_seat_0 …``; reports then show the win share
    per seat with intervals. ``rounds`` is an integer column whose histograms drive the rounds and
    survival plots. ``means`` are the columns worth a summary mean; ``internal`` columns are never
    shown as statistics; ``codes`` (some of them) hold ids or codes, never a measure for ``compare``/``tune``.
    ``optional`` integer columns hold −1 where they do not apply (a boss's health left after an encounter): their
    mean and spread count only the plays where they apply. ``shares`` are yes/no columns that reports show as
    rates with intervals beside the success rate (e.g. how far a game got). ``unit`` names one play ("battle",
    "game").
    """

    success: str | None = "win"
    rounds: str = "rounds"
    means: tuple[str, ...] = ()
    internal: tuple[str, ...] = ()
    codes: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    seats: int = 0
    unit: str = "battle"
    success_label: str = "win rate"
    shares: tuple[str, ...] = ()

    def seat_columns(self, prefix: str = "win_seat_") -> list[str]:
        """``win_seat_0 … win_seat_{seats-1}`` (or another prefix)."""
        return [f"{prefix}{k}" for k in range(self.seats)]


@dataclass(frozen=True)
class Workload:
    """A fixed cell that ``dsim bench`` measures: name, description, settings; ``plays``: a searcher's workload,
    measured on that many plays whatever ``--battles`` and without the no-JIT run (hours of search)."""

    name: str
    description: str
    settings: dict[str, Any]
    plays: int | None = None


@dataclass(frozen=True)
class RuleSwitch:
    """One rule variant or house rule as the CLI lists it (``dsim variants``)."""

    id: str
    kind: str  # "variant" or "house_rule"
    ref: str  # rule ID of the ambiguity, "house" or "sim"
    question: str
    default: Any
    readings: tuple[tuple[str, str], ...]  # (value, effect); numeric switches have one "<whole number>" row
    seed: str = ""
    example: str | None = None
    numeric: bool = False  # takes any whole number (``dsim tune`` can search it)
    bounds: tuple[int, int] | None = None  # numeric switches: the values the kernel accepts (``dsim tune`` stays inside)

    def record(self) -> dict[str, Any]:
        """JSON-ready form (the keys of ``dsim variants list --json``)."""
        rec: dict[str, Any] = {
            "id": self.id, "kind": self.kind, "ref": self.ref, "question": self.question, "default": self.default,
            "readings": [{"value": v, "effect": e} for v, e in self.readings], "seed": self.seed,
        }
        if self.kind == "house_rule":
            rec.update(example=self.example, tunable=self.numeric)
        return rec


Evaluate = Callable[["np.ndarray", int, int], "np.ndarray"]
"""``evaluate(vector, start, count)`` → bool array of successes of plays ``start .. start+count-1``."""


class Game:
    """Base class of a game: sensible defaults for everything but :meth:`check_settings` and :meth:`play`."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    options: ClassVar[tuple[Option, ...]] = ()
    outcome: ClassVar[Outcome] = Outcome()
    rule_tables: ClassVar[tuple[str, ...]] = ("variants", "house_rules")
    policy_keys: ClassVar[tuple[str, ...]] = ("policy", "policy_params")
    policy_per_seat: ClassVar[bool] = False  # ``policy`` may list one policy per seat
    default_policy: ClassVar[str] = "random_legal"
    strongest_policy: ClassVar[str | None] = None  # the strongest scripted policy, hinted when another one plays
    # CPU seconds of the cold compile of (the first run with the default policy, each further policy) on a quiet
    # 2-core machine: what a compiling run and `dsim warm` say to expect (None: no estimate)
    compile_cpu_s: ClassVar[tuple[float, float] | None] = None
    workloads: ClassVar[tuple[Workload, ...]] = ()
    heatmap_axes: ClassVar[tuple[tuple[str, ...], tuple[str, ...]]] = ((), ())  # preferred (rows, columns) settings

    # ------------------------------------------------------------------ cells

    def settings_from_options(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Cell settings from this game's option values (unset ones are left out)."""
        settings: dict[str, Any] = {}
        for option in self.options:
            raw = values.get(option.name)
            if raw is not None:
                settings[option.key] = option.value(raw)
        return settings

    def check_types(self, settings: Mapping[str, Any]) -> None:
        """Raise :class:`SettingsError` naming the first setting of the wrong type (an experiment file's
        ``party = 5``), before :meth:`check_settings` reads the values: rule tables and ``policy_params``
        are tables, ``data`` is a path, ``policy`` a name (or a list, with :attr:`policy_per_seat`), and each option's value
        has its declared kind (options with their own ``parse`` judge their values themselves)."""
        kinds: dict[str, Any] = {key: dict for key in (*self.rule_tables, *self.policy_keys[1:])}
        kinds |= {"data": str, self.policy_keys[0]: "list" if self.policy_per_seat else str}
        kinds |= {o.key: o.kind for o in self.options if o.parse is None and not o.grid_only}
        for key, value in settings.items():
            kind = kinds.get(key)
            if kind is not None and not _has_kind(value, kind):
                raise SettingsError(f"setting {key!r}: expected {_KIND_TEXT.get(kind, 'a value')}, got {value!r}")
        known = {r.id for r in self.rules()} if any(settings.get(t) for t in self.rule_tables) else set()
        for table in self.rule_tables:  # a house rule under variants (or the reverse) was "unknown variant"
            for key in set(settings.get(table) or {}) & known:
                try:
                    home = self.parse_set(key, "0")[0]
                except SettingsError:
                    continue  # a rule the game refuses: check_settings says why
                if home != table:
                    raise SettingsError(f"setting '{table}.{key}': {key} belongs under {home} ({home} = {{{key} = …}})")

    def grid(self, values: Mapping[str, Sequence[Any]], data: str | None = None) -> list[dict[str, Any]]:
        """Cells of a grid command (``dsim compare``): every combination of the repeated option values
        (``data`` is the overlay folder, for games whose values name data entries)."""
        import itertools

        names = [name for name, given in values.items() if given]
        return [self.settings_from_options(dict(zip(names, combo)))
                for combo in itertools.product(*(values[name] for name in names))]

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """Raise ``ValueError`` (user-facing, one line) if the cell cannot be played."""
        raise NotImplementedError

    def play(self, settings: Mapping[str, Any], seed: int, stream: int, start: int, count: int) -> dict[str, np.ndarray]:
        """Plays ``start .. start+count-1`` of a cell as outcome columns of length ``count``.

        Play ``i`` uses the random stream keyed by ``(seed, stream, i)``, so results do not depend
        on chunks, threads or workers. Columns: the :attr:`outcome` success and rounds columns and
        any other boolean, integer or float outcome."""
        raise NotImplementedError

    def data_hash(self, settings: Mapping[str, Any]) -> str:
        """A hash of the data the cell reads, so a resumed sweep refuses changed data: the shipped files and the
        ``data`` overlay, nothing else of the settings (a sweep hashes once per overlay)."""
        return f"{self.name}-no-data"

    def seats(self, settings: Mapping[str, Any]) -> int:
        """Seats taken in this cell (a competitive game's table may be smaller than :attr:`Outcome.seats`)."""
        return self.outcome.seats

    def label(self, settings: Mapping[str, Any]) -> str:
        """A short human label of a cell (tables, verdicts)."""
        return ", ".join(f"{k}={v}" for k, v in settings.items() if k not in self.rule_tables)

    # ------------------------------------------------------------------ rules

    def rules(self) -> Sequence[RuleSwitch]:
        """Every rule variant and house rule a cell can switch."""
        return ()

    def rules_not_simulated(self) -> Mapping[str, str]:
        """Rule ambiguities and house rules listed but not simulated, with the reason."""
        return {}

    def parse_set(self, key: str, value: str) -> tuple[str, str, Any]:
        """``--set key=value`` → (settings table, key, value); unknown keys go to the first table."""
        by_id = {r.id: r for r in self.rules()}
        if key in self.rules_not_simulated():
            raise SettingsError(f"{key!r} is not simulated: {self.rules_not_simulated()[key]}")
        rule = by_id.get(key)
        table = "house_rules" if rule is not None and rule.kind == "house_rule" else self.rule_tables[0]
        return table, key, value

    # ------------------------------------------------------------------ capabilities (None = not offered)

    def policies(self) -> Any:
        """The game's policy registry (:class:`dsim.policy.PolicyRegistry`), or ``None``."""
        return None

    def evaluator(self, settings: Mapping[str, Any], seed: int, measure: str | None = None) -> tuple[Any, Evaluate]:
        """The cell's policy and a success evaluator over parameter vectors with common random numbers; ``measure``
        names another yes/no outcome column to count instead of the success (e.g. a whole game's
        ``beat_mini_boss``)."""
        raise SettingsError(f"{self.name} has no tunable policies")

    def measured(self, columns: Mapping[str, np.ndarray], measure: str | None) -> np.ndarray:
        """The yes/no column an evaluator counts: ``measure``, or the success column; a clear error otherwise."""
        import numpy as np
        name = measure or self.outcome.success
        if name not in columns:
            known = ", ".join(sorted(k for k, v in columns.items() if np.asarray(v).dtype == bool))
            raise SettingsError(f"--measure: {self.name} has no outcome {name!r} (yes/no outcomes: {known})")
        values = np.asarray(columns[name])
        if values.dtype != bool:
            raise SettingsError(f"--measure: {name!r} is not a yes/no outcome, so it has no rate to maximise")
        return values

    def listed_policies(self, settings: Mapping[str, Any]) -> list[str] | None:
        """A competitive game's policy names by listed position (its outcomes then hold ``win_listed_k``: did the
        policy listed ``k``-th win, wherever the seating put it), so reports can give each policy's share per seat it
        held; ``None`` for a game of one policy."""
        return None

    def searchers(self) -> tuple[str, ...]:
        """Names of the searching players :meth:`evaluator` and :meth:`play` accept beside the registry's scripted
        policies (:mod:`dsim.search`), strongest last; an all-seeing bound among them is a ceiling, not a player."""
        return ()

    search_chunk: int | None = None  # plays a chunk of a searching cell when fewer than dsim.play.SEARCH_CHUNK

    def searching(self, settings: Mapping[str, Any]) -> bool:
        """Whether a searcher plays this cell (its plays cost thousands of replays: small chunks, dsim.play)."""
        return settings.get("policy") in self.searchers()

    def data(self) -> Any:
        """The game's data capability (:class:`dsim.games.data.GameDataSupport`), or ``None``."""
        return None

    def dice(self) -> Any:
        """The game's dice capability (:class:`dsim.games.data.DiceSupport`), or ``None``."""
        return None

    def offers(self, capability: str) -> bool:
        """Whether the game implements ``capability`` (``"policies"``, ``"data"``, ``"dice"``) without building it:
        building one imports its kernel or data, which `dsim games` should not pay to list a yes."""
        return getattr(type(self), capability) is not getattr(Game, capability)

    def explain(self, settings: Mapping[str, Any], seed: int, stream: int, index: int) -> Iterator[dict[str, Any]]:
        """Events of one play (JSON-ready dicts with at least ``event``), in order."""
        raise SettingsError(f"{self.name} has no step-by-step replay")

    def describe_event(self, event: Mapping[str, Any], settings: Mapping[str, Any]) -> str:
        """One readable line for an event of :meth:`explain`."""
        return ", ".join(f"{k}={v}" for k, v in event.items())

    def commands(self) -> Sequence[tuple[str, Callable[..., Any]]]:
        """Extra commands only this game has, as (name, Typer command); ``"dice NAME"`` joins ``dsim dice``."""
        return ()

    def match_columns(self, columns: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Extra per-play columns ``explain --where`` may use (e.g. ``won``, ``lost``)."""
        import numpy as np
        success = columns.get(self.outcome.success)
        return {} if success is None else {"won": np.asarray(success, bool), "lost": ~np.asarray(success, bool)}

    def derive(self, columns: Mapping[str, np.ndarray], settings: Mapping[str, Any]) -> dict[str, np.ndarray]:
        """Extra per-play columns that ``dsim run`` sums (e.g. a timeout flag read from a result code)."""
        return {}

    def summary(self, totals: Mapping[str, float], count: int, settings: Mapping[str, Any]) -> dict[str, Any]:
        """Extra figures of ``dsim run`` from the sums of the outcome and derived columns."""
        return {}

    def heading(self, settings: Mapping[str, Any]) -> str:
        """The heading of ``dsim run``'s table."""
        return self.label(settings)

    def played_with(self, settings: Mapping[str, Any]) -> list[str]:
        """What produced the figures besides the cell, said out loud: ``policy: baseline (default)`` on the first
        line (a game adds what matters as much, e.g. gear), then a ``hint:`` line per stronger choice a flag away."""
        policy = str(settings.get("policy", self.default_policy))
        said = [f"policy: {policy}" + (" (default)" if policy == self.default_policy else "")]
        if self.strongest_policy is not None and policy != self.strongest_policy and policy not in self.searchers():
            said.append(f"hint: --policy {self.strongest_policy} plays stronger (`dsim policies compare` ranks all)")
        return said

    def compare_note(self, settings: Mapping[str, Any]) -> str | None:
        """What each policy's figure in ``dsim policies compare`` means, when not simply its win rate (a competitive
        game says which seats the policy holds and against whom)."""
        return None

    def explain_header(self, settings: Mapping[str, Any]) -> list[str]:
        """Lines printed before a replay (e.g. the gear in play)."""
        return []

    def is_decision(self, event: Mapping[str, Any]) -> bool:
        """Whether an event is a policy decision (shown by ``explain --decisions`` only)."""
        return False

