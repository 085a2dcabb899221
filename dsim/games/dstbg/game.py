"""DS:TBG as a :class:`dsim.games.base.Game`: settings → compiled cell → outcome columns.

Settings of one cell: ``party`` (list of character ids), ``encounter`` or ``boss`` (id, with optional
``gravestones``), ``loadout`` (a loadout id from ``loadouts.yaml`` for every character, or a
table character id → loadout id; without it the starting equipment, R-1.7), ``policy`` (name or
``path.py:name``), ``policy_params`` (table), ``variants`` (table id → reading), ``house_rules``
(table id → value, :mod:`dsim.games.dstbg.house_rules`), ``data`` (overlay folder). Compiled
cells are cached per settings within a process.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dsim.games.base import Game, Option, Outcome, RuleSwitch, SettingsError, Workload, cell_settings, split_list
from dsim.paths import data_digest
from dsim.text import count

if TYPE_CHECKING:  # numpy too: a game object is built to list options and must stay cheap (`dsim --help`)
    import numpy as np
    from dsim.games.dstbg.compile import Compiled
    from dsim.games.dstbg.loader import GameData
    from dsim.policy import Policy

GRAVESTONES_NEED_BOSS = "--gravestones counts a boss's revealed behaviour cards: it needs --boss"
KNOWN_KEYS = {"party", "encounter", "boss", "gravestones", "policy", "policy_params", "variants", "house_rules", "data", "loadout"}


@dataclass(frozen=True)
class Cell:
    """A compiled cell ready to play: tables, policy and its parameter vector."""

    compiled: Compiled
    policy: Policy
    params: np.ndarray


def _canonical(settings: Mapping[str, Any]) -> str:
    return json.dumps(settings, sort_keys=True, default=str)


@lru_cache(maxsize=64)
def game_data(overlay: str | None = None) -> GameData:
    """The shipped game data, with the overlay folder's edits if given (loaded once per process)."""
    from dsim.games.dstbg.loader import load_game_data
    from dsim.games.loading import held

    return held(overlay) or load_game_data(overlay=Path(overlay) if overlay else None)


@lru_cache(maxsize=256)
def _cell(key: str) -> Cell:
    from dsim.games.dstbg.compile import compile_boss, compile_encounter
    from dsim.games.dstbg.house_rules import apply_house_rules
    from dsim.games.dstbg.policy import get_policy
    from dsim.games.dstbg.searchers import searcher

    settings = cell_settings(key, KNOWN_KEYS)
    party = settings.get("party")
    if isinstance(party, str):
        party = split_list("setting 'party'", party)
    if not party:
        raise ValueError("a party is required: --party knight,warrior on the command line, "
                         "party = [\"knight\", \"warrior\"] in an experiment file")
    loadout = settings.get("loadout")
    if loadout is not None and not isinstance(loadout, str | dict):
        raise ValueError("setting 'loadout' must be a loadout name or a table character id → loadout name")
    if ("encounter" in settings) == ("boss" in settings):
        raise ValueError("name exactly one of 'encounter' (see `dsim data list encounters`) or 'boss'")
    if settings.get("gravestones") is not None and "boss" not in settings:  # sweeps and compare come here too
        raise ValueError("gravestones count a boss's revealed behaviour cards (R-12.5): an encounter has none")
    data = game_data(settings.get("data"))
    if "boss" in settings:
        compiled = compile_boss(
            data, list(party), settings["boss"], settings.get("gravestones"), settings.get("variants"), loadout
        )
    else:
        compiled = compile_encounter(data, list(party), settings["encounter"], settings.get("variants"), loadout)
    compiled = apply_house_rules(compiled, settings.get("house_rules"))
    policy = searcher(settings.get("policy", "baseline")) or get_policy(settings.get("policy", "baseline"))
    params = policy.vector(settings.get("policy_params"))
    return Cell(compiled, policy, params)


def _play_cell(cell: Cell, params: np.ndarray, seed: int, stream: int, start: int, count: int) -> np.ndarray:
    """The outcome table of battles ``start .. start+count-1`` under the cell's policy: a scripted one in a batch,
    a searcher (``expert``, ``oracle``) by its search (:mod:`dsim.games.dstbg.searchers`)."""
    from dsim.games.dstbg import engine
    from dsim.games.dstbg.searchers import SearchPolicy, play_searched

    if isinstance(cell.policy, SearchPolicy):
        return play_searched(cell.compiled.tables, cell.policy, params, seed, stream, start, count)
    return engine.play_batch(cell.compiled.tables, cell.policy.decide, params, seed, stream, start, count)


def prepare(settings: Mapping[str, Any]) -> Cell:
    """Validate and compile one cell's settings (``ValueError`` with a user-facing message)."""
    return _cell(_canonical(settings))


def _named(kind: str, names: list[str], overlay: str | None) -> list[str]:
    """Expand ``all`` and ``level:N`` into ids of encounters or bosses."""
    if not any(n == "all" or n.startswith("level:") for n in names):
        return names
    table = getattr(game_data(overlay), kind)
    out: list[str] = []
    for name in names:
        if name == "all":
            out.extend(sorted(table))
        elif name.startswith("level:"):
            out.extend(sorted(k for k, v in table.items() if str(getattr(v, "level", "")) == name[6:]))
        else:
            out.append(name)
    return out


def parse_loadout(value: str | None) -> str | dict[str, str] | None:
    """``--loadout`` text → the ``loadout`` setting: ``"mid_game"`` or ``{"knight": "mid_game", …}``."""
    if value is None or not value.strip():
        return None
    if "=" not in value:
        return value.strip()
    table: dict[str, str] = {}
    for item in value.split(","):
        key, sep, name = item.partition("=")
        if not sep or not key.strip() or not name.strip():
            raise SettingsError(f"--loadout: expected NAME or character=NAME,..., got {value!r}")
        if key.strip() in table:
            raise SettingsError(f"--loadout: {key.strip()} is given twice in {value!r}")
        table[key.strip()] = name.strip()
    return table


def _check_loadout_names(loadout: str | dict[str, str] | None, parties: list[list[str]]) -> None:
    """A per-character ``--loadout`` table may only name characters of the parties it dresses."""
    if isinstance(loadout, dict):
        members = {c for party in parties for c in party}
        strangers = sorted(set(loadout) - members)
        if strangers:
            raise SettingsError(f"--loadout names {strangers[0]!r}, who is in no --party ({', '.join(sorted(members))})")


def loadout_text(loadout: str | dict[str, str] | None) -> str:
    """A loadout setting as the run heading shows it."""
    if loadout is None:
        return "starting (starting equipment)"
    if isinstance(loadout, str):
        return loadout
    return ", ".join(f"{cid}={name}" for cid, name in loadout.items())


PARTY_2 = ["knight", "warrior"]
PARTY_4 = ["knight", "warrior", "assassin", "herald"]
MEANS = {  # `dsim run` summary key -> outcome column averaged over the battles
    "mean_deaths": "deaths", "mean_damage_dealt": "damage_dealt",
    "mean_damage_taken": "damage_taken", "mean_stamina_spent": "stamina_spent", "estus_per_battle": "estus_used",
    "luck_per_battle": "luck_used", "heroic_per_battle": "heroic_used",
}
BOSS_MEANS = {"mean_boss_health_left": "boss_health_left", "mean_cards_drawn": "cards_drawn"}  # boss battles


class DSTBG(Game):
    """Dark Souls: The Board Game battles (encounters and bosses) for every generic command."""

    name = "dstbg"
    title = "Dark Souls: The Board Game"
    default_policy = "veteran"  # issue 47: the strongest scripted policy (docs/veteran-study.md), about as fast as any
    strongest_policy = "veteran"
    # fresh clone, quiet host, 2026-12-08: 44.5 s CPU for the README's first run, less the 21% that the veteran's own
    # compile and numba_start.quicker_compiles cut since (48.5 -> 38.4 s side by side on a loaded host); another
    # policy 9 s (`--boss gargoyle --policy tactician`)
    compile_cpu_s = (35.0, 9.0)
    heatmap_axes = (("party",), ("boss", "encounter"))
    options = (
        Option("party", "Comma-separated character ids, e.g. knight,warrior (`dsim data list characters`).", "list"),
        Option("encounter", "Encounter card id (see `dsim data list encounters`)."),
        Option("boss", "Boss id for a boss battle (see `dsim data list bosses`)."),
        Option("gravestones", "Behaviour cards revealed at boss setup (default: expected from the boss's encounter "
                              "levels; boss battles only).", int, minimum=0),
        Option("loadout", "Gear of the party: a loadout id for everybody (e.g. mid_game; `dsim data list loadouts`) "
                          "or per character, e.g. knight=mid_game,warrior=starting. Default: the starting equipment.",
               parse=parse_loadout),
        Option("sizes", "Party sizes, e.g. 1,2,3,4: the first N characters of each --party (grids only).",
               grid_only=True),
    )
    outcome = Outcome(
        success="win", rounds="rounds",
        means=("rounds", "damage_dealt", "damage_taken", "deaths"),
        internal=("result", "next_first_char"),
        codes=("result", "next_first_char"),  # an outcome code, a character's index
        optional=("boss_health_left", "heatup_round", "cards_drawn"),  # −1: no boss (no deck), no heat-up
    )
    workloads = tuple(
        Workload(name, text, {"party": party, place: where, "policy": "baseline"})
        for name, text, party, place, where in (
            ("l1-2p", "level-1 encounter The Forgotten, Knight + Warrior", PARTY_2, "encounter", "the_forgotten"),
            ("l1-4p", "level-1 encounter The Forgotten, four characters", PARTY_4, "encounter", "the_forgotten"),
            ("l3-2p", "level-3 encounter Cemetery of Ash (6 enemies), Knight + Warrior", PARTY_2, "encounter",
             "cemetery_of_ash"),
            ("l3-4p", "level-3 encounter Cemetery of Ash (6 enemies), four characters", PARTY_4, "encounter",
             "cemetery_of_ash"),
            ("mini-boss-2p", "mini boss Gargoyle, Knight + Warrior", PARTY_2, "boss", "gargoyle"),
            ("main-boss-4p", "main boss Ornstein & Smough, four characters", PARTY_4, "boss", "ornstein_and_smough"),
        )
    ) + (
        Workload("expert-l1-2p", "level-1 encounter The Forgotten, Knight + Warrior, under the expert searcher",
                 {"party": PARTY_2, "encounter": "the_forgotten", "policy": "expert"}, plays=256),
        Workload("expert-gargoyle-2p", "mini boss Gargoyle, Knight + Warrior, mid_game gear, under the expert searcher",
                 {"party": PARTY_2, "boss": "gargoyle", "loadout": "mid_game", "policy": "expert"}, plays=256),
    )

    # ------------------------------------------------------------------ cells

    def settings_from_options(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Party first, then the encounter or the boss (with its gravestones), then the gear."""
        if (values.get("encounter") is None) == (values.get("boss") is None):
            raise SettingsError("give exactly one of --encounter or --boss")
        if values.get("gravestones") is not None and values.get("boss") is None:
            raise SettingsError(GRAVESTONES_NEED_BOSS)
        settings = super().settings_from_options(values)
        _check_loadout_names(settings.get("loadout"), [settings.get("party") or []])
        return settings

    def grid(self, values: Mapping[str, Any], data: str | None = None) -> list[dict[str, Any]]:
        """One cell per (party, encounter or boss): ``all`` and ``level:N`` expand to ids, ``sizes`` takes
        the first N characters of each party, ``loadout`` is the gear of every cell."""
        rosters = [split_list("--party", p) for p in values.get("party") or []]
        if not rosters:
            raise SettingsError("name at least one --party")
        given = values.get("sizes") or []
        if len(given) > 1:
            raise SettingsError("--sizes: give it once, with the sizes comma-separated (e.g. --sizes 1,2,3)")
        for sizes in given:
            try:
                wanted = [int(s) for s in sizes.split(",")]
            except ValueError:
                raise SettingsError(f"--sizes: expected sizes like 1,2,3,4, got {sizes!r}") from None
            for n, roster in ((n, r) for n in wanted for r in rosters):  # no cell silently left out
                if not 1 <= n <= len(roster):
                    raise SettingsError(f"--sizes {n}: " + ("a party size is at least 1" if n < 1 else
                                        f"the party {','.join(roster)} has {len(roster)} character"
                                        f"{'s' * (len(roster) != 1)}") + " (--sizes takes the first N characters "
                                        "of each --party)")
            rosters = [r[:n] for r in rosters for n in wanted]
        places = [("encounter", e) for e in _named("encounters", values.get("encounter") or [], data)]
        places += [("boss", b) for b in _named("bosses", values.get("boss") or [], data)]
        if not places:
            raise SettingsError("name at least one --encounter or --boss")
        gear = [parse_loadout(v) for v in values.get("loadout") or []] or [None]
        for loadout in gear:  # a table may name the characters of several parties, each cell takes its own
            _check_loadout_names(loadout, rosters)
        graves = values.get("gravestones") or [None]  # one cell per value, none named: the boss's own
        if graves != [None] and any(key == "encounter" for key, _ in places):
            raise SettingsError(GRAVESTONES_NEED_BOSS)
        cells = []
        for roster in rosters:
            for key, name in places:
                for loadout in gear:  # absent = starting equipment, so earlier runs keep their cell stream
                    for k in graves:
                        cells.append({"party": roster, key: name} | ({"loadout": loadout} if loadout is not None else {})
                                     | ({"gravestones": k} if k is not None else {}))
        return cells

    def check_settings(self, settings: Mapping[str, Any]) -> None:
        """Raise ``ValueError`` if the cell cannot be compiled."""
        prepare(settings)

    def play(self, settings: Mapping[str, Any], seed: int, stream: int, start: int, count: int) -> dict[str, np.ndarray]:
        """Battles ``start .. start+count-1`` of the cell as outcome columns."""
        from dsim.games.dstbg import engine

        import numpy as np
        from dsim.games.dstbg.searchers import SearchPolicy, play_searched

        cell = prepare(settings)
        if isinstance(cell.policy, SearchPolicy):  # plus the decisions searched in each battle (`dsim bench`)
            searched = np.zeros(count, np.int64)
            table = play_searched(cell.compiled.tables, cell.policy, cell.params, seed, stream, start, count,
                                  searched=searched)
            return engine.outcome_columns(table) | {"searched_decisions": searched}
        return engine.outcome_columns(_play_cell(cell, cell.params, seed, stream, start, count))

    def data_hash(self, settings: Mapping[str, Any]) -> str:
        """SHA-256 over the shipped data files and the overlay, so resumed sweeps refuse changed data."""
        return data_digest(self.name, settings.get("data"))

    def label(self, settings: Mapping[str, Any]) -> str:
        """``knight+warrior vs gargoyle``."""
        party = settings.get("party", [])
        party = party.split(",") if isinstance(party, str) else party
        graves = settings.get("gravestones")
        return f"{'+'.join(party)} vs {settings.get('encounter') or settings.get('boss')}" + \
            (f" ({count(graves, 'gravestone')})" if isinstance(graves, int) else "")

    def heading(self, settings: Mapping[str, Any]) -> str:
        """The run table's heading: who fights what, and with which gear."""
        return f"{', '.join(settings['party'])} vs {settings.get('boss') or settings.get('encounter')}, " \
               f"loadout {loadout_text(settings.get('loadout'))}"

    def played_with(self, settings: Mapping[str, Any]) -> list[str]:
        """The policy and the gear (R-1.7: the starting equipment unless a loadout is set), and the flags that
        change them: both move a win rate as much as the party does."""
        policy, *hints = super().played_with(settings)
        gear = loadout_text(settings.get("loadout")).replace(" (starting equipment)", " equipment (default)")
        if settings.get("policy") == self.strongest_policy:
            hints.append("hint: --policy expert searches every decision: stronger, far slower (`dsim policies ladder`)")
        if settings.get("loadout") is None:
            hints.append("hint: --loadout mid_game or late_game: the gear of a later game (`dsim data list loadouts`)")
        return [f"{policy} · gear: {gear}", *hints]

    def derive(self, columns: Mapping[str, np.ndarray], settings: Mapping[str, Any]) -> dict[str, np.ndarray]:
        """Per-battle columns the run summary sums: timeouts and the heat-up round (R-12.6)."""
        import numpy as np
        from dsim.games.dstbg.kernel import layout as L

        heated = columns["heatup_round"] >= 0
        return {"timeouts": columns["result"] == L.OUT_TIMEOUT, "heated": heated,
                "heatup_rounds": np.where(heated, columns["heatup_round"], 0)}

    def summary(self, totals: Mapping[str, float], count: int, settings: Mapping[str, Any]) -> dict[str, Any]:
        """Means per battle, timeouts and, for boss battles, heat-up and boss figures (R-12.6)."""
        boss = "boss" in settings
        out: dict[str, Any] = {"loadout": settings.get("loadout", "starting"), "timeouts": int(totals["timeouts"])}
        out |= {key: totals[column] / count for key, column in (MEANS | (BOSS_MEANS if boss else {})).items()}
        if boss:
            heated = totals["heated"]
            out["heatup_rate"] = heated / count
            out["mean_heatup_round"] = totals["heatup_rounds"] / heated if heated else None
        return out

    # ------------------------------------------------------------------ rules

    def rules(self) -> list[RuleSwitch]:
        """The §16 variants, then the table-edit house rules."""
        from dsim.games.dstbg import house_rules as H
        from dsim.games.dstbg.variants import VARIANTS

        return [v.switch() for v in VARIANTS.listed()] + [r.switch() for r in H.HOUSE_RULES]

    def rules_not_simulated(self) -> dict[str, str]:
        """§16 entries and house rules the battle engine cannot express, with the reason."""
        from dsim.games.dstbg import house_rules as H
        from dsim.games.dstbg.variants import NOT_SIMULATED

        return {**NOT_SIMULATED, **H.NOT_SIMULATED}

    def parse_set(self, key: str, value: str) -> tuple[str, str, Any]:
        """House rules go to ``house_rules``, everything else to ``variants``; campaign rules are refused."""
        from dsim.games.dstbg import house_rules as H

        if key in H.NOT_SIMULATED:
            raise SettingsError(f"{key!r} is not a battle rule: {H.NOT_SIMULATED[key]}")
        return ("house_rules" if key in H.BY_ID else "variants"), key, value

    # ------------------------------------------------------------------ capabilities

    def policies(self) -> Any:
        """The DS:TBG policy registry (``policies/dstbg``)."""
        from dsim.games.dstbg.policy import REGISTRY

        return REGISTRY

    def searchers(self) -> tuple[str, ...]:
        """``expert`` (fair one-step rollouts) and ``oracle`` (the same seeing the true deck and dice, a ceiling)."""
        return ("expert", "oracle")

    def evaluator(self, settings: Mapping[str, Any], seed: int, measure: str | None = None) -> tuple[Policy, Any]:
        """The cell's policy and a win (or ``measure``) evaluator whose random stream ignores the policy and its
        parameters, so every policy and parameter vector plays the same battles (CRN)."""
        import numpy as np
        from dsim.games.dstbg import engine
        from dsim.games.dstbg.kernel import battle as K
        from dsim.games.dstbg.kernel import layout as L
        from dsim.rng import stream_key

        cell = prepare(settings)
        battles_id = {k: v for k, v in settings.items() if k not in self.policy_keys}
        stream = stream_key(json.dumps(battles_id, sort_keys=True, default=str))

        def evaluate(vector: np.ndarray, start: int, count: int) -> np.ndarray:
            table = _play_cell(cell, np.asarray(vector, np.float64), seed, stream, start, count)
            if measure is None:
                return table[:, K.OUT_RESULT] == L.OUT_WIN
            return self.measured(engine.outcome_columns(table), measure)

        return cell.policy, evaluate

    def data(self) -> Any:
        """Characters, items, enemies, bosses, encounters, tiles, traps and loadouts (``data/dstbg``)."""
        from dsim.games.dstbg.datasupport import DSTBGData

        return DSTBGData()

    def dice(self) -> Any:
        """Black, blue, orange and green dice: exact pool totals."""
        from dsim.games.dstbg.datasupport import DSTBGDice

        return DSTBGDice()

    def explain_header(self, settings: Mapping[str, Any]) -> list[str]:
        """With a loadout, each character's gear (so the replay can be read against it)."""
        if settings.get("loadout") is None:
            return []
        from dsim.games.dstbg.kernel import context as X
        from dsim.games.dstbg.kernel import layout as L

        comp = prepare(settings).compiled
        per_char = (X.SC_GRAVESTONES - X.SC_EQUIP) // L.MAX_CHARS  # armour, two hands, two backups
        equip = comp.tables.scen[X.SC_EQUIP:]
        lines = [f"loadout {loadout_text(settings.get('loadout'))}"]
        for c, cid in enumerate(comp.char_ids):
            slots = equip[per_char * c: per_char * (c + 1)]
            lines.append(f"  {cid}: {', '.join(comp.item_ids[i] for i in slots if i >= 0)}")
        return lines

    def explain(self, settings: Mapping[str, Any], seed: int, stream: int, index: int) -> list[dict[str, Any]]:
        """Every event of battle ``index`` with the state after it (rule IDs in the event names)."""
        from dsim.games.dstbg import engine
        from dsim.games.dstbg.searchers import SearchPolicy, explain_searched
        from dsim.games.dstbg.trace import events

        cell = prepare(settings)
        if not isinstance(cell.policy, SearchPolicy):
            b = engine.play_one(cell.compiled.tables, cell.policy.decide, cell.params, seed, stream, index)
            return events(b, cell.compiled)
        found, base = explain_searched(cell.compiled.tables, cell.policy, cell.params, seed, stream, index)
        b = engine.play_one(cell.compiled.tables, base.decide, base.vector(), seed, stream, index,
                            decisions=found.prefixes[0])
        out = events(b, cell.compiled)
        asked = iter(found.estimates)
        for item in out:
            estimate = next(asked, None) if item["event"] == "decision" else None
            if estimate is not None:  # the searched decisions, in the order the battle asked them
                item["estimates"] = [{"option": k, "value": round(float(m), 4), "ci95": [round(max(float(m - h), 0.0), 4),
                                      round(min(float(m + h), 1.0), 4)], "rollouts": int(n)} for k, (m, h, n) in
                                     enumerate(zip(estimate.means, estimate.half_widths, estimate.rollouts))]
                item["base_choice"] = estimate.base
        return out

    def describe_event(self, event: Mapping[str, Any], settings: Mapping[str, Any]) -> str:
        """One readable line of a battle event."""
        from dsim.games.dstbg.trace import describe

        line = describe(dict(event), prepare(settings).compiled)
        if "estimates" in event:  # a searcher's decision: every option's value with its 95% interval
            line += "; values " + ", ".join(f"{e['option']}: {e['value']:.3f} [{e['ci95'][0]:.3f}, {e['ci95'][1]:.3f}]"
                                            f"{'' if 'rollouts' not in e else ' n=' + str(e['rollouts'])}"
                                            for e in event["estimates"]) + f" (base policy: {event['base_choice']})"
        return line

    def is_decision(self, event: Mapping[str, Any]) -> bool:
        """Policy decisions are shown by ``explain --decisions`` only."""
        return event.get("event") == "decision"

    def match_columns(self, columns: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """``won``, ``lost``, ``timeout`` and ``boss_health`` for ``explain --where``."""
        from dsim.games.dstbg.kernel import layout as L

        extra = {"won": columns["result"] == L.OUT_WIN, "lost": columns["result"] == L.OUT_LOSS,
                 "timeout": columns["result"] == L.OUT_TIMEOUT}
        if "boss_health_left" in columns:
            extra["boss_health"] = columns["boss_health_left"]
        return extra

    def commands(self) -> list[tuple[str, Any]]:
        """``dsim dice attack|defend|dodge`` (``dsim area`` and ``dsim game`` belong to whole games, ``dstbg_game``)."""
        from dsim.games.dstbg.cli import attack, defend, dodge

        return [("dice attack", attack), ("dice defend", defend), ("dice dodge", dodge)]
