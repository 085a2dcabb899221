"""Bloodborne: The Card Game on the game contract: settings → compiled cell → per-seat outcome columns.

Settings of one cell: ``hunters`` (3–5, default 4), ``policy`` (one name for every seat, or one per
seat: ``"greedy,banker,greedy,spoiler"``; a name may be ``path.py:name``), ``opponents`` (with one
``policy``: the policies of the other seats), ``policy_params`` (parameters of the first listed
policy), ``seating`` (``rotate``, the default: game ``i`` seats the listed policies from seat
``i % hunters`` on, so each plays every seat equally often; ``permute``: every order of the seats in
turn, so each also sits beside every neighbour equally often; ``fixed``: as listed), ``variants``
(``dsim variants list --game bloodborne``), ``data`` (an overlay folder) and ``model`` (a searcher's model of the
other hunters). One seat may hold a searcher, ``expert`` or the all-seeing ``oracle`` (:mod:`.searchers`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dsim.games.base import Game, Option, Outcome, RuleSwitch, Workload, cell_settings
from dsim.games.bloodborne.kernel.layout import SEATINGS
from dsim.paths import data_digest

if TYPE_CHECKING:  # numpy too: a game object is built to list options and must stay cheap (`dsim --help`)
    import numpy as np
    from dsim.games.bloodborne.compile import Compiled
    from dsim.policy import Policy

KNOWN_KEYS = {"hunters", "policy", "opponents", "policy_params", "seating", "variants", "data", "model"}
MIN_HUNTERS, MAX_HUNTERS = 3, 5  # BB-1.3


@dataclass(frozen=True)
class Cell:
    """A cell ready to play: tables, the listed policies (one per seat) and their parameter rows."""

    compiled: Compiled
    hunters: int
    policies: tuple[Policy, ...]
    params: np.ndarray  # float64[hunters, longest parameter vector]
    variants: np.ndarray
    seating: str

    @property
    def names(self) -> tuple[str, ...]:
        """The listed policies' names, seat order."""
        return tuple(p.name for p in self.policies)

    def functions(self) -> tuple[Any, ...]:
        """The compiled policy functions, one per listed seat."""
        from dsim.policy import compiled

        return tuple(compiled(p.decide) for p in self.policies)

    @property
    def searching(self) -> bool:
        """A searcher (``expert``, ``oracle``: :mod:`.searchers`) holds a seat."""
        return any(p.decide is None for p in self.policies)

    def rows(self, params: np.ndarray, seed: int, stream: int, start: int, count: int) -> np.ndarray:
        """Outcome rows of games ``start .. start+count-1`` under parameter rows ``params``: a batch, or the search
        of a searching seat (whose parameters are its row)."""
        from dsim.games.bloodborne import engine
        from dsim.games.bloodborne.searchers import play_searched

        if self.searching:
            cell = Cell(self.compiled, self.hunters, self.policies, params, self.variants, self.seating)
            me = next(k for k, p in enumerate(self.policies) if p.decide is None)
            return play_searched(cell, params[me, : len(self.policies[me].params)], seed, stream, start, count)
        return engine.play_batch(self.compiled.tables, self.functions(), params, self.variants, self.hunters, seed,
                                 stream, start, count, self.seating)


@lru_cache(maxsize=16)
def compiled_data(overlay: str | None) -> Compiled:
    """The shipped data (with the overlay's edits) as kernel tables, once per process."""
    from dsim.games.bloodborne.compile import compile_tables
    from dsim.games.bloodborne.loader import load_data
    from dsim.games.loading import held

    return compile_tables(held(overlay) or load_data(overlay=Path(overlay) if overlay else None))


def _names(value: Any, key: str) -> list[str]:
    """A policy list setting: ``"a,b"`` or ``["a", "b"]``."""
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list | tuple) or not all(isinstance(i, str) and i.strip() for i in items):
        raise ValueError(f"setting {key!r} must be policy names, e.g. \"greedy,banker,greedy\" or a list of names")
    return [i.strip() for i in items]


def seat_policies(settings: Mapping[str, Any], hunters: int) -> list[str]:
    """The policy name of every listed seat: one ``policy`` for all, one per seat, or one plus ``opponents``."""
    listed = _names(settings.get("policy", Bloodborne.default_policy), "policy")
    if "opponents" in settings:
        others = _names(settings["opponents"], "opponents")
        if len(listed) != 1:
            raise ValueError("with 'opponents', 'policy' names one policy (the first seat's)")
        if len(others) not in (1, hunters - 1):
            raise ValueError(f"'opponents' names one policy or {hunters - 1} (one per other seat), got {len(others)}")
        listed = listed + (others * (hunters - 1) if len(others) == 1 else others)
    if len(listed) == 1:
        listed = listed * hunters
    if len(listed) != hunters:
        raise ValueError(f"'policy' names one policy or {hunters} (one per seat), got {len(listed)}")
    return listed


def _overrides(settings: Mapping[str, Any], listed: int, policy: Policy) -> dict[str, Any] | None:
    """The parameters set for the policy listed ``listed``-th: ``policy_params`` (the first), and for a searcher the
    ``model`` setting (its model of the other hunters, ``searchers.MODELS``)."""
    from dsim.games.bloodborne.searchers import MODELS

    given = dict(settings.get("policy_params") or {}) if listed == 0 else {}
    if "model" in settings and policy.decide is None:
        if settings["model"] not in MODELS:
            raise ValueError(f"model must be one of {', '.join(MODELS)}, got {settings['model']!r}")
        given["model"] = MODELS.index(settings["model"])
    return given or None


@lru_cache(maxsize=128)
def _cell(key: str) -> Cell:
    import numpy as np
    from dsim.games.bloodborne.policy import REGISTRY
    from dsim.games.bloodborne.searchers import searcher
    from dsim.games.bloodborne.variants import VARIANTS

    settings = cell_settings(key, KNOWN_KEYS)
    hunters = settings.get("hunters", 4)
    if not isinstance(hunters, int) or isinstance(hunters, bool) or not MIN_HUNTERS <= hunters <= MAX_HUNTERS:
        raise ValueError(f"hunters must be {MIN_HUNTERS}, 4 or {MAX_HUNTERS} (BB-1.3), got {hunters!r}")
    seating = settings.get("seating", "rotate")
    if seating not in SEATINGS:
        raise ValueError(f"seating must be one of {', '.join(SEATINGS)}, got {seating!r}")
    names = seat_policies(settings, hunters)
    if sum(searcher(n) is not None for n in names) > 1:
        raise ValueError("a Bloodborne table seats at most one searcher (expert or oracle)")
    policies = tuple(searcher(name) or REGISTRY.get(name) for name in names)
    vectors = [p.vector(_overrides(settings, k, p)) for k, p in enumerate(policies)]
    params = np.zeros((hunters, max(1, *(len(v) for v in vectors))), np.float64)
    for k, vector in enumerate(vectors):
        params[k, : len(vector)] = vector
    variants = VARIANTS.vector(settings.get("variants"))
    return Cell(compiled_data(settings.get("data")), hunters, policies, params, variants, seating)


def prepare(settings: Mapping[str, Any]) -> Cell:
    """Validate and compile one cell (``ValueError`` with a one-line message)."""
    return _cell(json.dumps(settings, sort_keys=True, default=str))


def _parse_model(value: str) -> str:
    from dsim.games.base import SettingsError
    from dsim.games.bloodborne.searchers import MODELS

    if value not in MODELS:
        raise SettingsError(f"--model: expected one of {', '.join(MODELS)}, got {value!r}")
    return value


def _parse_seating(value: str) -> str:
    from dsim.games.base import SettingsError

    if value not in SEATINGS:
        raise SettingsError(f"--seating: expected one of {', '.join(SEATINGS)}, got {value!r}")
    return value


class Bloodborne(Game):
    """Bloodborne: The Card Game (base game, 3–5 hunters; semi-co-operative: one hunter wins)."""

    name = "bloodborne"
    title = "Bloodborne: The Card Game"
    default_policy = "random_legal"
    # fresh clone, quiet host, 2026-12-08: 26.5 s CPU, less the 5.5% numba_start.quicker_compiles cut since (31.7 ->
    # 29.9 s side by side on a loaded host); another policy compiles only itself (the kernel takes it as a function
    # value): taken as DS:TBG's 9 s, not measured
    compile_cpu_s = (25.0, 9.0)
    rule_tables = ("variants",)
    policy_per_seat = True
    options = (
        Option("hunters", "Hunters at the table, 3 to 5 (BB-1.3; default 4).", int, minimum=MIN_HUNTERS),
        Option("opponents", "With one --policy: the other seats' policies (one name for all, or one per seat).",
               "list"),
        Option("seating", "rotate (default: each listed policy plays every seat equally often), permute (every "
                          "seat order in turn: also every neighbour; for tables of several policies) or fixed.",
               parse=_parse_seating),
        Option("model", "A searcher's (expert, oracle) model of the other hunters in its rollouts: actual (their own "
                        "policies, assumed known; the default) or one scripted policy for all of them.",
               parse=_parse_model),
    )
    outcome = Outcome(
        success=None, seats=MAX_HUNTERS, unit="game", rounds="rounds",
        means=("rounds", "killed", "escaped", "deaths", "banked", "collected", "trophies"),
        internal=("winner", "first_player", "timeout", *(f"win_listed_{k}" for k in range(MAX_HUNTERS))),
        codes=("winner", "first_player"),  # seat indices
    )
    workloads = (
        Workload("bb-4p-random", "4 hunters, random_legal in every seat", {"hunters": 4, "policy": "random_legal"}),
        Workload("bb-4p-mixed", "4 hunters: greedy, banker, aggressor, spoiler (rotating seats)",
                 {"hunters": 4, "policy": "greedy,banker,aggressor,spoiler"}),
    )

    # ------------------------------------------------------------------ cells

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """Raise ``ValueError`` if the cell cannot be played."""
        prepare(settings)

    def play(self, settings: Mapping[str, Any], seed: int, stream: int, start: int, count: int) -> dict[str, np.ndarray]:
        """Games ``start .. start+count-1`` of the cell as outcome columns (per seat and per listed policy)."""
        from dsim.games.bloodborne import engine

        cell = prepare(settings)
        return engine.outcome_columns(cell.rows(cell.params, seed, stream, start, count), cell.hunters)

    def seats(self, settings: Mapping[str, Any]) -> int:
        """The hunters at the table."""
        return prepare(settings).hunters

    def data_hash(self, settings: Mapping[str, Any]) -> str:
        """A digest of the data files and the overlay, so a resumed sweep refuses changed data."""
        return data_digest(self.name, settings.get("data"))

    def label(self, settings: Mapping[str, Any]) -> str:
        """``4 hunters: greedy, banker, banker, banker``."""
        hunters = settings.get("hunters", 4)
        try:
            names = seat_policies(settings, hunters)
        except ValueError:
            names = [str(settings.get("policy"))]
        names = names[:1] if len(set(names)) == 1 and "opponents" not in settings else names
        return f"{hunters} hunters: {', '.join(names)}"

    def heading(self, settings: Mapping[str, Any]) -> str:
        """The run table's heading: the table and its seating."""
        return f"{self.label(settings)} ({settings.get('seating', 'rotate')} seating)"

    def played_with(self, settings: Mapping[str, Any]) -> list[str]:
        """Each seat's policy and how the listed seats sit (a share is read against the rest of the table)."""
        hunters = settings.get("hunters", 4)
        try:
            names = seat_policies(settings, hunters)
        except ValueError:
            names = [str(settings.get("policy"))]
        same = len(set(names)) == 1
        said = f"policy: {names[0]} in every seat" if same else f"policies by listed seat: {', '.join(names)}"
        return [f"{said} · seating: {settings.get('seating', 'rotate')}"]

    def compare_note(self, settings: Mapping[str, Any]) -> str | None:
        """Each policy holds the first listed seat (moving round the table as the seating says) against the field of
        ``opponents``, or against copies of itself: then every figure is about one over the hunters."""
        hunters = settings.get("hunters", 4)
        names = seat_policies(settings, hunters)
        seating = settings.get("seating", "rotate")
        if "opponents" not in settings:
            return (f"Each figure: the share of games won by one seat of the policy at a table of {hunters} copies of "
                    f"itself ({seating} seating), so every policy reads about 1/{hunters}; give --opponents POLICY to "
                    f"rank the policies against one field.")
        field = ", ".join(dict.fromkeys(names[1:]))
        return (f"Each figure: the share of games won by the policy in one seat ({seating} seating) against "
                f"{hunters - 1} hunters playing {field}; 1/{hunters} is an even share.")

    def derive(self, columns: Mapping[str, np.ndarray], settings: Mapping[str, Any]) -> dict[str, np.ndarray]:
        """Timeouts (a game still running at ``max_rounds``) for the run summary."""
        return {"timeouts": columns["timeout"]}

    def summary(self, totals: Mapping[str, float], count: int, settings: Mapping[str, Any]) -> dict[str, Any]:
        """Means per game, the first player's win share, and each policy's win share per seat it held
        (``policy_share``: wins over games × seats, a Wilson interval on that count)."""
        from dsim.stats import wilson_interval

        cell = prepare(settings)
        out: dict[str, Any] = {key: totals[key] / count for key in ("killed", "escaped", "deaths", "banked", "trophies")}
        out |= {f"mean_score_seat_{k}": totals[f"score_seat_{k}"] / count for k in range(cell.hunters)}
        out["first_player_won"] = totals["first_player_won"] / count
        out["timeouts"] = int(totals["timeouts"])
        shares = []
        for name in dict.fromkeys(cell.names):
            seats = [k for k, n in enumerate(cell.names) if n == name]
            wins = int(sum(totals[f"win_listed_{k}"] for k in seats))
            low, high = wilson_interval(wins, count * len(seats))
            shares.append({"policy": name, "seats": len(seats), "wins": wins, "share": wins / (count * len(seats)),
                           "ci95": [float(low), float(high)]})
        out["policy_share"] = shares
        return out

    # ------------------------------------------------------------------ rules

    def rules(self) -> list[RuleSwitch]:
        """Every [AMBIG] reading and §14 switch of the digest, and the house rules ``final_boss_health``,
        ``max_rounds``."""
        from dsim.games.bloodborne.variants import VARIANTS

        return [v.switch() for v in VARIANTS.listed()]

    # ------------------------------------------------------------------ capabilities

    def policies(self) -> Any:
        """The Bloodborne policy registry (``policies/bloodborne``)."""
        from dsim.games.bloodborne.policy import REGISTRY

        return REGISTRY

    def evaluator(self, settings: Mapping[str, Any], seed: int, measure: str | None = None) -> tuple[Policy, Any]:
        """The first listed policy and an evaluator of its wins under a parameter vector, the other seats
        playing their defaults, on games whose stream ignores every policy setting (common random numbers)."""
        import numpy as np
        from dsim.games.base import SettingsError
        from dsim.games.bloodborne import engine
        from dsim.rng import stream_key

        if measure is not None:
            raise SettingsError("--measure: a Bloodborne policy is tuned on the wins of the seat it plays")

        cell = prepare(settings)
        games_id = {k: v for k, v in settings.items() if k not in (*self.policy_keys, "opponents", "model")}
        stream = stream_key(json.dumps(games_id, sort_keys=True, default=str))

        def evaluate(vector: np.ndarray, start: int, count: int) -> np.ndarray:
            params = cell.params.copy()
            params[0, :] = 0
            params[0, : len(vector)] = vector
            if "model" in settings and cell.searching:  # a setting, not a tuned parameter: the cell's model stands
                names = [p.name for p in cell.policies[0].params]
                params[0, names.index("model")] = cell.params[0, names.index("model")]
            return engine.outcome_columns(cell.rows(params, seed, stream, start, count), cell.hunters)["win_listed_0"]

        return cell.policies[0], evaluate

    def listed_policies(self, settings: Mapping[str, Any]) -> list[str] | None:
        """Each listed seat's policy (``win_listed_k`` in the outcomes), e.g. ``["expert", "greedy", …]``."""
        try:
            return seat_policies(settings, settings.get("hunters", 4))
        except ValueError:
            return None

    def searchers(self) -> tuple[str, ...]:
        """``expert`` (fair one-step rollouts) and ``oracle`` (the same on the true hidden state, a ceiling), for one
        seat: ``--policy expert --opponents greedy`` (:mod:`dsim.games.bloodborne.searchers`)."""
        return ("expert", "oracle")

    def data(self) -> Any:
        """Dice, starters, monsters, bosses, Final Bosses, upgrades and trophy tracks (``data/bloodborne``)."""
        from dsim.games.bloodborne.datasupport import BloodborneDataSupport

        return BloodborneDataSupport()

    def dice(self) -> Any:
        """The three monster dice with combo faces: exact pool totals."""
        from dsim.games.bloodborne.dice import BloodborneDice

        return BloodborneDice()

    def explain_header(self, settings: Mapping[str, Any]) -> list[str]:
        """The listed policies and how games seat them."""
        cell = prepare(settings)
        return [f"listed policies: {', '.join(f'{k}={n}' for k, n in enumerate(cell.names))} ({cell.seating} seating)"]

    def explain(self, settings: Mapping[str, Any], seed: int, stream: int, index: int) -> list[dict[str, Any]]:
        """Every event of game ``index``, each naming its rule."""
        from dsim.games.bloodborne import engine
        from dsim.games.bloodborne.kernel import layout as L
        from dsim.games.bloodborne.trace import events

        cell = prepare(settings)
        if cell.searching:
            from dsim.games.base import SettingsError

            raise SettingsError("explain replays tables of scripted policies; a searcher's game is not traced yet")
        s, _ = engine.play_one(cell.compiled.tables, cell.functions(), cell.params, cell.variants, cell.hunters,
                               seed, stream, index, cell.seating)
        return events(s.trace[: s.table[L.T_NEV]], cell.compiled)

    def describe_event(self, event: Mapping[str, Any], settings: Mapping[str, Any]) -> str:
        """One readable line of a game event."""
        from dsim.games.bloodborne.trace import describe

        return describe(dict(event), prepare(settings).compiled)

    def is_decision(self, event: Mapping[str, Any]) -> bool:
        """Policy decisions are shown by ``explain --decisions`` only."""
        return event.get("event") == "decision"

    def match_columns(self, columns: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """``seat_k_won``, ``first_player_won``, ``shared`` (no single winner) and ``timeout`` for ``--where``."""
        extra = {f"seat_{k}_won": columns[f"win_seat_{k}"] for k in range(MAX_HUNTERS) if f"win_seat_{k}" in columns}
        extra |= {"first_player_won": columns["first_player_won"],
                  "shared": (columns["winner"] < 0) & ~columns["timeout"],  # a tie; a timeout has no winner at all
                  "timeout": columns["timeout"]}
        return extra
