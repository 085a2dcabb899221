"""Dark Maiden on the game contract: settings → compiled cell → outcome columns of whole games.

Settings of one cell: ``party`` (1–4 hero ids, turn order, e.g. ``["amazona", "barbara"]``; default the three
basic heroes; the three extra heroes of the new edition are not in the data, so a 4-hero party repeats one),
``difficulty`` (``easy``, ``normal`` — the default — or ``hard``: the lives and how the special items behave,
DM-2.6, DM-2.9), ``policy`` and ``policy_params`` (one policy plays every hero: the game is co-operative),
``variants`` (``dsim variants list --game dark_maiden``: every reading, and the house rules ``lives``,
``lives_by_players``, ``special_items``) and ``data`` (an overlay folder).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dsim.games.base import Game, Option, Outcome, RuleSwitch, Workload, cell_settings
from dsim.paths import data_digest

if TYPE_CHECKING:  # numpy too: a game object is built to list options and must stay cheap (`dsim --help`)
    import numpy as np
    from dsim.games.dark_maiden.compile import Compiled
    from dsim.policy import Policy

KNOWN_KEYS = {"party", "difficulty", "policy", "policy_params", "variants", "data"}
BASIC_PARTY = ("amazona", "barbara", "guerrero")
MAX_HEROES = 4  # DM-1.4
ITEM_RULES = {"kept": 0, "lost_on_death": 1, "in_deck": 2}  # layout.ITEMS_*
SITES = 4  # DM-1.1: outcome columns per site (cleared_site_k, lost_at_site_k)


@dataclass(frozen=True)
class Cell:
    """A cell ready to play: tables, the party, the life counter, items, the policy and its parameters."""

    compiled: Compiled
    party: np.ndarray     # int32[heroes]: indices into the hero table, turn order
    names: tuple[str, ...]
    lives: int
    items: int            # layout.ITEMS_* of the difficulty, -1: no special items
    policy: Policy
    params: np.ndarray
    variants: np.ndarray

    def function(self) -> Any:
        """The compiled policy function."""
        from dsim.policy import compiled

        return compiled(self.policy.decide)


@lru_cache(maxsize=16)
def compiled_data(overlay: str | None) -> Compiled:
    """The shipped data (with the overlay's edits) as kernel tables, once per process."""
    from dsim.games.dark_maiden.compile import compile_tables
    from dsim.games.dark_maiden.loader import load_data
    from dsim.games.loading import held

    return compile_tables(held(overlay) or load_data(overlay=Path(overlay) if overlay else None))


def _party(value: Any, known: tuple[str, ...]) -> list[str]:
    """The party setting as hero ids (``"a,b"`` or a list), checked against the data."""
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list | tuple) or not all(isinstance(i, str) and i.strip() for i in items):
        raise ValueError('setting "party" must be hero ids, e.g. "amazona,barbara" or a list of ids')
    names = [i.strip() for i in items]
    if not 1 <= len(names) <= MAX_HEROES:
        raise ValueError(f"a party has 1 to {MAX_HEROES} heroes (DM-1.4), got {len(names)}")
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"unknown hero {unknown[0]!r} (heroes: {', '.join(known)})")
    # DM-2.4: each player picks a different hero; a 4th player repeats one only while the data lacks a 4th hero
    distinct = names if len(known) >= len(names) else names[:len(known)]
    twice = next((n for k, n in enumerate(distinct) if n in distinct[:k]), None)
    if twice is not None:
        raise ValueError(f"hero {twice!r} is in the party twice: each player picks a different hero (DM-2.4); only a "
                         f"4th player repeats one, as the data has {len(known)} heroes")
    return names


def starting_lives(variants: np.ndarray, difficulty_lives: int, heroes: int) -> int:
    """The life counter at setup (DM-2.6): the house rule ``lives`` if set, else the difficulty's, scaled by the
    heroes over 3 (half up) under the house rule ``lives_by_players=scaled``."""
    from dsim.games.dark_maiden import variants as V

    lives = int(variants[V.V_LIVES]) if variants[V.V_LIVES] >= 0 else difficulty_lives
    if variants[V.V_LIVES_BY_PLAYERS] == 1:
        lives = (2 * lives * heroes + 3) // 6
    return lives


@lru_cache(maxsize=128)
def _cell(key: str) -> Cell:
    import numpy as np
    from dsim.games.dark_maiden import variants as V
    from dsim.games.dark_maiden.policy import REGISTRY
    from dsim.games.dark_maiden.searchers import searcher
    from dsim.games.dark_maiden.variants import VARIANTS

    settings = cell_settings(key, KNOWN_KEYS)
    comp = compiled_data(settings.get("data"))
    names = _party(settings.get("party", list(BASIC_PARTY)), comp.hero_ids)
    difficulty = settings.get("difficulty", "normal")
    if difficulty not in comp.difficulties:
        raise ValueError(f"unknown difficulty {difficulty!r} (difficulties: {', '.join(sorted(comp.difficulties))})")
    variants = VARIANTS.vector(settings.get("variants"))
    name = settings.get("policy", DarkMaiden.default_policy)
    policy = searcher(name) or REGISTRY.get(name)
    difficulty_lives, item_rule = comp.difficulties[difficulty]
    lives = starting_lives(variants, difficulty_lives, len(names))
    items = ITEM_RULES[item_rule] if variants[V.V_ITEMS] == 1 else -1
    party = np.array([comp.hero_ids.index(n) for n in names], np.int32)
    return Cell(comp, party, tuple(names), lives, items, policy, policy.vector(settings.get("policy_params")),
                variants)


def prepare(settings: Mapping[str, Any]) -> Cell:
    """Validate and compile one cell (``ValueError`` with a one-line message)."""
    return _cell(json.dumps(settings, sort_keys=True, default=str))


def play_rows(cell: Cell, params: np.ndarray, seed: int, stream: int, start: int, count: int) -> np.ndarray:
    """Outcome rows of games ``start .. start+count-1`` under the cell's policy with parameters ``params``: a scripted
    one in a batch, a searcher (``expert``, ``oracle``) by its search (:mod:`dsim.games.dark_maiden.searchers`)."""
    from dsim.games.dark_maiden import engine
    from dsim.games.dark_maiden.searchers import SearchPolicy, play_searched

    if isinstance(cell.policy, SearchPolicy):
        return play_searched(cell, cell.policy, params, seed, stream, start, count)
    return engine.play_batch(cell.compiled.tables, cell.function(), params, cell.variants, cell.party, cell.lives,
                             cell.items, seed, stream, start, count)


def outcome_columns(rows: np.ndarray) -> dict[str, np.ndarray]:
    """Outcome rows (``layout.OUT_*``) as named columns: the win, turns, lives left, sites cleared, deaths
    (in all and per seat), potions drunk, the site and the card that ended the game, and per site whether
    the team cleared it (``cleared_site_k``) or lost there (``lost_at_site_k``): where do we die."""
    import numpy as np
    from dsim.games.dark_maiden.kernel import layout as L

    over = rows[:, L.OUT_OVER]
    cols: dict[str, np.ndarray] = {
        "win": rows[:, L.OUT_WIN] == 1,
        "turns": rows[:, L.OUT_TURNS].astype(np.int64),
        "lives_left": rows[:, L.OUT_LIVES].astype(np.int64),
        "sites_cleared": rows[:, L.OUT_SITES].astype(np.int64),
        "deaths": rows[:, L.OUT_DEATHS].astype(np.int64),
        "potions_used": rows[:, L.OUT_POTIONS_USED].astype(np.int64),
        "fight_rounds": rows[:, L.OUT_FIGHT_ROUNDS].astype(np.int64),
        "timeout": over == L.OVER_TIMEOUT,
        "end_site": rows[:, L.OUT_END_SITE].astype(np.int64),
        "end_card": rows[:, L.OUT_END_CARD].astype(np.int64),
    }
    for h in range(L.MAX_HEROES):
        cols[f"deaths_seat_{h}"] = rows[:, L.OUT_DEATHS_SEAT + h].astype(np.int64)
    for k in range(SITES):
        cols[f"cleared_site_{k + 1}"] = rows[:, L.OUT_SITES] > k
        cols[f"lost_at_site_{k + 1}"] = (over != L.OVER_WON) & (rows[:, L.OUT_END_SITE] == k)
    return cols


def _parse_difficulty(value: str) -> str:
    from dsim.games.base import SettingsError

    if value not in ("easy", "normal", "hard"):
        raise SettingsError(f"--difficulty: expected easy, normal or hard, got {value!r}")
    return value


class DarkMaiden(Game):
    """Dark Maiden (co-operative dice adventure, 1–4 heroes, a shared life counter)."""

    name = "dark_maiden"
    title = "Dark Maiden"
    default_policy = "tactician"
    # fresh clone, quiet host, 2026-12-08: 55 s CPU with the tactician (before numba_start.quicker_compiles, which cut
    # 5-8% of the other games'); another policy compiles only itself (the kernel takes it as a function value): the
    # tactician was 16 s of a loaded host's profile, so at most that
    compile_cpu_s = (55.0, 16.0)
    rule_tables = ("variants",)
    options = (
        Option("party", "Comma-separated hero ids in turn order, e.g. amazona,barbara (1–4, all different, DM-2.4; a 4th "
                        "repeats one: the extra heroes are not in the data).", "list"),
        Option("difficulty", "easy, normal or hard: 15, 12 or 9 lives and how special items behave (DM-2.6, DM-2.9; "
                             "default normal).", parse=_parse_difficulty),
    )
    outcome = Outcome(
        success="win", rounds="turns", unit="game",
        means=("turns", "lives_left", "sites_cleared", "deaths", "potions_used"),
        internal=("timeout", "end_site", "end_card", "fight_rounds",
                  *(f"deaths_seat_{h}" for h in range(MAX_HEROES)), *(f"lost_at_site_{k + 1}" for k in range(SITES))),
        codes=("end_site", "end_card"),  # a site's and a card's index
        shares=tuple(f"cleared_site_{k + 1}" for k in range(SITES)),  # how far the team got (DM-1.1)
    )
    workloads = (
        Workload("dm-3p-normal", "Dark Maiden: the three basic heroes on normal, tactician",
                 {"party": list(BASIC_PARTY), "difficulty": "normal", "policy": "tactician"}),
        Workload("dm-3p-random", "Dark Maiden: the three basic heroes on normal, random_legal",
                 {"party": list(BASIC_PARTY), "difficulty": "normal", "policy": "random_legal"}),
        Workload("dm-expert-3p-normal", "Dark Maiden: the three basic heroes on normal, under the expert searcher",
                 {"party": list(BASIC_PARTY), "difficulty": "normal", "policy": "expert"}, plays=64),
    )
    heatmap_axes = (("party",), ("difficulty",))

    # ------------------------------------------------------------------ cells

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """Raise ``ValueError`` if the cell cannot be played."""
        prepare(settings)

    def play(self, settings: Mapping[str, Any], seed: int, stream: int, start: int, count: int) -> dict[str, np.ndarray]:
        """Games ``start .. start+count-1`` of the cell as outcome columns."""
        import numpy as np
        from dsim.games.dark_maiden.searchers import SearchPolicy, play_searched

        cell = prepare(settings)
        if isinstance(cell.policy, SearchPolicy):  # plus the decisions searched in each game (`dsim bench`)
            searched = np.zeros(count, np.int64)
            rows = play_searched(cell, cell.policy, cell.params, seed, stream, start, count, searched=searched)
            return outcome_columns(rows) | {"searched_decisions": searched}
        return outcome_columns(play_rows(cell, cell.params, seed, stream, start, count))

    def data_hash(self, settings: Mapping[str, Any]) -> str:
        """A digest of the data files and the overlay, so a resumed sweep refuses changed data."""
        return data_digest(self.name, settings.get("data"))

    def label(self, settings: Mapping[str, Any]) -> str:
        """``amazona, barbara — normal``."""
        party = settings.get("party", list(BASIC_PARTY))
        party = party.split(",") if isinstance(party, str) else party
        return f"{', '.join(map(str, party))} — {settings.get('difficulty', 'normal')}"

    def heading(self, settings: Mapping[str, Any]) -> str:
        """The run table's heading: the party, the difficulty and the lives."""
        cell = prepare(settings)
        return f"{self.label(settings)} ({cell.lives} lives)"

    def derive(self, columns: Mapping[str, np.ndarray], settings: Mapping[str, Any]) -> dict[str, np.ndarray]:
        """Per game, the card that ended a lost game (``ended_by_<unit>``, ``ended_by_precipice``), named by the
        cell's own data (an overlay may add or reorder units)."""
        import numpy as np
        ends = np.asarray(columns["end_card"])
        comp = prepare(settings).compiled
        out = {"ended_by_precipice": ends == -1}
        out |= {f"ended_by_{uid}": ends == k for k, uid in enumerate(comp.unit_ids)}
        return out

    def summary(self, totals: Mapping[str, float], count: int, settings: Mapping[str, Any]) -> dict[str, Any]:
        """Lives used, deaths, potions; the share of games that cleared each site and that were lost at each site
        ("where do we die"); the cards that ended lost games, most often first; timeouts."""
        cell = prepare(settings)
        out: dict[str, Any] = {"lives_at_start": cell.lives,
                               "lives_used": cell.lives - totals["lives_left"] / count,
                               "deaths": totals["deaths"] / count, "potions_used": totals["potions_used"] / count}
        sites = cell.compiled.site_ids
        for k in range(SITES):
            out[f"cleared_{sites[k]}"] = totals[f"cleared_site_{k + 1}"] / count
        for k in range(SITES):
            out[f"lost_at_{sites[k]}"] = totals[f"lost_at_site_{k + 1}"] / count
        ended = {key.removeprefix("ended_by_"): totals[key] / count for key in totals if key.startswith("ended_by_")}
        for name, share in sorted(ended.items(), key=lambda kv: -kv[1])[:3]:
            if share > 0:
                out[f"lost_to_{name}"] = share
        out["timeouts"] = int(totals["timeout"])
        return out

    # ------------------------------------------------------------------ rules

    def rules(self) -> list[RuleSwitch]:
        """Every [AMBIG] reading and [GAP] default of the digest, and the house rules ``lives``,
        ``lives_by_players``, ``special_items``, ``max_turns``."""
        from dsim.games.dark_maiden.variants import VARIANTS

        return [v.switch() for v in VARIANTS.listed()]

    # ------------------------------------------------------------------ capabilities

    def policies(self) -> Any:
        """The Dark Maiden policy registry (``policies/dark_maiden``)."""
        from dsim.games.dark_maiden.policy import REGISTRY

        return REGISTRY

    def evaluator(self, settings: Mapping[str, Any], seed: int, measure: str | None = None) -> tuple[Policy, Any]:
        """The cell's policy and an evaluator of its wins (or the yes/no outcome ``measure``) under a parameter
        vector, on games whose stream ignores the policy settings (common random numbers)."""
        import numpy as np
        from dsim.rng import stream_key

        cell = prepare(settings)
        games_id = {k: v for k, v in settings.items() if k not in self.policy_keys}
        stream = stream_key(json.dumps(games_id, sort_keys=True, default=str))

        def evaluate(vector: np.ndarray, start: int, count: int) -> np.ndarray:
            rows = play_rows(cell, np.asarray(vector, np.float64), seed, stream, start, count)
            return self.measured(outcome_columns(rows), measure)

        return cell.policy, evaluate

    def searchers(self) -> tuple[str, ...]:
        """``expert`` (fair one-step rollouts) and ``oracle`` (the same seeing the true deck and dice, a ceiling)."""
        return ("expert", "oracle")

    def data(self) -> Any:
        """Heroes, enemies, bosses, mounts, goblins, sites, piles, difficulties and items (``data/dark_maiden``)."""
        from dsim.games.dark_maiden.datasupport import DarkMaidenDataSupport

        return DarkMaidenDataSupport()

    def dice(self) -> Any:
        """Plain d6: sums (``2d6``) and the damage of one die by a hero, enemy, boss or mount."""
        from dsim.games.dark_maiden.exact import DarkMaidenDice

        return DarkMaidenDice()

    def explain_header(self, settings: Mapping[str, Any]) -> list[str]:
        """The party in turn order, the lives and the policy."""
        cell = prepare(settings)
        return [f"party: {', '.join(f'{k}={n}' for k, n in enumerate(cell.names))}; {cell.lives} lives; "
                f"policy {cell.policy.name}"]

    def explain(self, settings: Mapping[str, Any], seed: int, stream: int, index: int) -> list[dict[str, Any]]:
        """Every event of game ``index``, each naming its rule."""
        from dsim.games.dark_maiden import engine
        from dsim.games.dark_maiden.kernel import layout as L
        from dsim.games.dark_maiden.trace import events

        from dsim.games.dark_maiden.policy import REGISTRY
        from dsim.games.dark_maiden.searchers import SearchPolicy, search_games
        from dsim.policy import compiled

        cell = prepare(settings)
        if not isinstance(cell.policy, SearchPolicy):
            s, _ = engine.play_one(cell.compiled.tables, cell.function(), cell.params, cell.variants, cell.party,
                                   cell.lives, cell.items, seed, stream, index)
            return events(s.trace[: s.table[L.T_NEV]], cell.compiled)
        import numpy as np

        found, _ = search_games(cell, cell.policy, cell.params, seed, stream, np.array([index], np.int64), record=True)
        base = REGISTRY.get(cell.policy.budget_of(cell.params)[1])
        s, _ = engine.play_one(cell.compiled.tables, compiled(base.decide), base.vector(), cell.variants, cell.party,
                               cell.lives, cell.items, seed, stream, index, decisions=found.prefixes[0])
        out = events(s.trace[: s.table[L.T_NEV]], cell.compiled)
        asked = iter(found.estimates)
        for item in out:
            estimate = next(asked, None) if item["event"] == "decision" else None
            if estimate is not None:  # the searched decisions, in the order the game asked them
                item["estimates"] = [{"option": k, "value": round(float(m), 4),
                                      "ci95": [round(max(float(m - h), 0.0), 4), round(min(float(m + h), 1.0), 4)]}
                                     for k, (m, h) in enumerate(zip(estimate.means, estimate.half_widths))]
                item["base_choice"] = estimate.base
        return out

    def describe_event(self, event: Mapping[str, Any], settings: Mapping[str, Any]) -> str:
        """One readable line of a game event."""
        from dsim.games.dark_maiden.trace import describe

        cell = prepare(settings)
        line = describe(dict(event), cell.compiled, list(cell.names))
        if "estimates" in event:  # a searcher's decision: every option's value with its 95% interval
            line += "; values " + ", ".join(f"{e['option']}: {e['value']:.3f} [{e['ci95'][0]:.3f}, {e['ci95'][1]:.3f}]"
                                            for e in event["estimates"]) + f" (base policy: {event['base_choice']})"
        return line

    def is_decision(self, event: Mapping[str, Any]) -> bool:
        """Policy decisions are shown by ``explain --decisions`` only."""
        return event.get("event") == "decision"

    def match_columns(self, columns: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """``won``/``lost``, plus ``timeout`` for ``--where``."""
        return super().match_columns(columns) | {"timeout": columns["timeout"]}
