"""Regenerate ``docs/skill-ladder.md``: random → every scripted policy → the tuned best → `expert` → `oracle`.

Every policy of a cell plays the same battles (common random numbers: play i's stream is (seed, cell, i) whatever the
policy). Outcomes are stored per cell (a JSON file each in ``docs/skill-ladder/``), per policy and per chunk, so an interrupted run
continues where it stopped, a larger ``--battles`` only plays the battles missing (the page shows each cell on the plays
all its rungs share), and ``--report-only`` rebuilds the page without playing:

    python docs/make_ladder.py [--battles 200] [--rollouts 16] [--tune-budget 20000] [--cells gargoyle-mid_game,...]
        [--searchers oracle]
    python docs/make_ladder.py --report-only
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
PAGE = Path(__file__).with_name("skill-ladder.md")
STORE = Path(__file__).with_name("skill-ladder")  # one JSON file of outcomes per cell
PARTY = ("knight", "warrior")
BOSSES = ("gargoyle", "boreal_outrider_knight", "winged_knight", "titanite_demon",
          "dancer_of_the_boreal_valley", "ornstein_and_smough")  # the six core bosses: four mini, two main
LOADOUTS = ("starting", "mid_game", "late_game")  # "starting": no --loadout, each character's starting equipment
ENCOUNTERS = (  # two of each level, each with the gear a party has at that level
    ("the_forgotten", 1, "starting"), ("hollow_cave", 1, "starting"),
    ("black_dungeon", 2, "mid_game"), ("sentinels_wrath", 2, "mid_game"),
    ("cemetery_of_ash", 3, "late_game"), ("silent_tombs", 3, "late_game"),
)
SEARCHERS = ("expert", "oracle")
SEARCH_BASE = "tactician"  # the scripted policy the searchers roll out by default (their `base` parameter)
TUNED = "tuned"  # label suffix of the best scripted policy's tuned vector
PASS_LINE = 0.95  # the acceptance asks expert to beat the best scripted policy wherever that one is below 95%
PREVIOUS_EXPERT = "expert (rollouts 16, screen 4, extend 0)"  # the default expert before 2026-12-08, kept in the store
NOBODY_WINS = 0.01  # below this for the best scripted policy and expert, a failing cell is read as one nobody wins


@dataclass(frozen=True)
class Cell:
    """One ladder cell: a game and its options (policy left out), played by every policy on the same plays."""

    name: str
    game: str
    options: Mapping[str, Any]
    title: str
    measure: str | None = None  # a yes/no outcome counted instead of the win (`dsim games --json`)
    scale: int = 1  # plays = --battles × scale (cells without searchers afford many more plays)

    def command(self) -> str:
        """The `dsim policies ladder` line that plays this cell's scripted and searching rungs."""
        flags = " ".join(f"--{k.replace('_', '-')} {','.join(v) if isinstance(v, tuple) else v}"
                         for k, v in self.options.items())
        return f"dsim policies ladder --game {self.game} {flags}" + (f" --measure {self.measure}" if self.measure else "")


def cells() -> list[Cell]:
    """Every cell of the page, the acceptance's boss cells first (they are the long ones)."""
    out = []
    def boss(name: str, loadout: str) -> Cell:
        gear = {} if loadout == "starting" else {"loadout": loadout}
        return Cell(f"{name}-{loadout}", "dstbg", {"party": PARTY, "boss": name, **gear}, f"{name} ({loadout})")

    out = [boss(name, loadout) for loadout in ("mid_game", "late_game") for name in BOSSES]
    for encounter, level, loadout in ENCOUNTERS:
        gear = {} if loadout == "starting" else {"loadout": loadout}
        out.append(Cell(f"{encounter}-{loadout}", "dstbg", {"party": PARTY, "encounter": encounter, **gear},
                        f"level-{level} encounter {encounter} ({loadout})"))
    out += [boss(name, "starting") for name in BOSSES]
    pair = {"party": PARTY, "mini_boss": "gargoyle", "main_boss": "ornstein_and_smough"}
    out.append(Cell("whole-game", "dstbg_game", pair, "whole game won: Gargoyle then Ornstein & Smough (tactician in "
                    "battles)", scale=100))
    out.append(Cell("whole-game-mini-boss", "dstbg_game", pair, "whole game, Gargoyle beaten (measure "
                    "beat_mini_boss; tactician in battles)", measure="beat_mini_boss", scale=100))
    return out


CELLS = {c.name: c for c in cells()}


# ------------------------------------------------------------------ playing and storing


def _commit() -> str:
    """The checked-out commit (provenance of stored outcomes), marked ``+uncommitted`` when the code or data that
    play differ from it."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], capture_output=True, text=True, cwd=Path(__file__).parent,
                              check=True).stdout.strip()

    try:
        dirty = git("status", "--porcelain", "--", str(REPO / "dsim"), str(REPO / "data"))
        return git("rev-parse", "--short", "HEAD") + ("+uncommitted" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _pack(won: np.ndarray) -> str:
    return np.packbits(np.asarray(won, bool)).tobytes().hex()


def _unpack(text: str, n: int) -> np.ndarray:
    return np.unpackbits(np.frombuffer(bytes.fromhex(text), np.uint8))[:n].astype(bool)


@dataclass
class Store:
    """Per cell (one JSON file each in a folder beside the page, so runs on different cells never collide), per seed
    and policy rung: the vector played and the outcomes of plays 0..n-1."""

    folder: Path
    cells: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def open(cls, folder: Path) -> Store:
        return cls(folder)

    def block(self, cell: str, seed: int) -> dict[str, Any]:
        """The stored rungs of a cell and seed (label → entry)."""
        if cell not in self.cells:
            path = self.folder / f"{cell}.json"
            self.cells[cell] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        return self.cells[cell].setdefault(f"seed{seed}", {})

    def rung(self, cell: str, seed: int, label: str) -> dict[str, Any] | None:
        return self.block(cell, seed).get(label)

    def put(self, cell: str, seed: int, label: str, entry: dict[str, Any]) -> None:
        self.block(cell, seed)[label] = entry
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"{cell}.json"
        tmp = path.with_suffix(".tmp")  # written whole, then renamed: a killed run leaves a readable store
        tmp.write_text(json.dumps(self.cells[cell], indent=1, sort_keys=True), encoding="utf-8")
        tmp.replace(path)


def _evaluator(cell: Cell, policy: str, seed: int) -> tuple[Any, Callable[[np.ndarray, int, int], np.ndarray]]:
    from dsim.registry import get_game

    game = get_game(cell.game)
    settings = game.settings_from_options({k: ",".join(v) if isinstance(v, tuple) else v for k, v in cell.options.items()})
    settings["policy"] = policy
    game.check_settings(settings)
    return game.evaluator(settings, seed, cell.measure) if cell.measure else game.evaluator(settings, seed)


def play_rung(store: Store, cell: Cell, label: str, policy: str, vector: np.ndarray | None, seed: int,
              battles: int, chunk: int, say: Callable[[str], None]) -> np.ndarray:
    """Outcomes of plays 0..battles-1 under ``policy`` (``vector``: its parameters, default ones if ``None``),
    playing only what the store lacks, chunk by chunk (each chunk stored as it ends)."""
    entry = store.rung(cell.name, seed, label)
    chosen, evaluate = _evaluator(cell, policy, seed)
    vec = chosen.vector() if vector is None else np.asarray(vector, np.float64)
    if entry is not None and entry["vector"] != [float(x) for x in vec]:
        entry = None  # another budget or tuned vector: play afresh
    won = _unpack(entry["wins"], entry["n"]) if entry else np.zeros(0, bool)
    played = _played(entry) if entry else []
    start = time.monotonic()
    have = len(won)
    while len(won) < battles:
        n = min(chunk, battles - len(won))
        lo = len(won)
        won = np.concatenate([won, np.asarray(evaluate(vec, lo, n), bool)])
        commit = _commit()
        if played and played[-1][0] == commit:
            played[-1][2] = len(won)
        else:
            played.append([commit, lo, len(won)])
        store.put(cell.name, seed, label, {"policy": policy, "vector": [float(x) for x in vec], "n": len(won),
                                           "wins": _pack(won), "commit": commit, "played": played,
                                           "params": [p.name for p in chosen.params]})
        rate = (len(won) - have) / max(time.monotonic() - start, 1e-9)
        say(f"{label}: {len(won)}/{battles} plays ({rate:.2f}/s, ETA {(battles - len(won)) / rate:.0f} s)")
    return won[:battles]


def _played(entry: dict[str, Any]) -> list[list[Any]]:
    """Which commit played which plays of a stored rung: [commit, first play, end] runs (a store written before the
    runs were kept: one run, its ``commit``)."""
    return [list(run) for run in entry.get("played") or [[entry.get("commit", "unknown"), 0, entry["n"]]]]


def provenance(entry: dict[str, Any], n: int) -> str:
    """The commits that played plays 0..n-1 of a stored rung, e.g. ``34cf6d7 (plays 0–199), 1a2b3c4 (200–599)``."""
    runs = [(c, lo, min(hi, n)) for c, lo, hi in _played(entry) if lo < n]
    if len(runs) == 1:
        return runs[0][0]
    return ", ".join(f"{c} ({'plays ' if i == 0 else ''}{lo}–{hi - 1})" for i, (c, lo, hi) in enumerate(runs))


def tune_best(store: Store, cell: Cell, policy: str, seed: int, budget: int,
              say: Callable[[str], None]) -> np.ndarray | None:
    """The tuned vector of ``policy`` (`dsim tune-policy`'s search on seed + 1: plays apart from the ladder's), from
    the store when tuned before with this budget; ``None`` when the policy has no parameters."""
    from dsim.tuning import policy_bounds, tune

    key = f"{policy}, {TUNED} ({budget})"
    entry = store.rung(cell.name, seed, key)
    if entry is not None:
        return np.asarray(entry["vector"], np.float64)
    chosen, evaluate = _evaluator(cell, policy, seed + 1)
    if not chosen.params:
        return None
    say(f"tuning {policy} (budget {budget:,} plays on seed {seed + 1})")
    result = tune(evaluate, policy_bounds(chosen), budget, seed + 1)
    vector = np.array([result.best[p.name] for p in chosen.params], np.float64)
    store.put(cell.name, seed, key, {"policy": policy, "vector": [float(x) for x in vector], "n": 0, "wins": "",
                                     "commit": _commit(), "best_is_default": result.best_is_default})
    return vector


# ------------------------------------------------------------------ the ladder of a cell


@dataclass(frozen=True)
class Rung:
    label: str
    won: np.ndarray
    searcher: bool = False
    ceiling: bool = False
    commit: str = ""  # where the stored outcomes were played


def scripted_names(cell: Cell) -> list[str]:
    from dsim.registry import get_game

    return [p.name for p in get_game(cell.game).policies().all()]


def searcher_names(cell: Cell) -> list[str]:
    from dsim.registry import get_game

    return list(get_game(cell.game).searchers())


def searcher_vector(name: str, rollouts: int | None) -> np.ndarray | None:
    """The searcher's parameters with ``rollouts`` per option (``None``: its defaults)."""
    if rollouts is None:
        return None
    from dsim.games.dstbg.searchers import searcher

    policy = searcher(name)
    return np.array([rollouts if p.name == "rollouts" else p.default for p in policy.params], np.float64)


def play_cell(store: Store, cell: Cell, seed: int, battles: int, chunk: int, rollouts: int | None,
              tune_budget: int, say: Callable[[str], None], scripted: list[str] | None = None,
              searchers: list[str] | None = None) -> list[Rung]:
    """Every rung of one cell on plays 0..battles-1: the scripted policies (``scripted``, default all), the best one
    tuned, then the searchers (``searchers``, default all)."""
    rungs = [Rung(n, play_rung(store, cell, n, n, None, seed, battles, chunk, say))
             for n in scripted or scripted_names(cell)]
    best = best_scripted(rungs)
    if tune_budget > 0 and best.label != "random_legal":
        vector = tune_best(store, cell, best.label, seed, tune_budget, say)
        if vector is not None:
            label = f"{best.label}, {TUNED} ({tune_budget})"
            rungs.append(Rung(label, play_rung(store, cell, label, best.label, vector, seed, battles, chunk, say)))
    for name in searcher_names(cell):
        if searchers is not None and name not in searchers:
            continue
        vector = searcher_vector(name, rollouts) if name == "expert" else None
        label = name if rollouts is None or name != "expert" else f"expert ({rollouts} rollouts)"
        rungs.append(Rung(label, play_rung(store, cell, label, name, vector, seed, battles, chunk, say),
                          searcher=True, ceiling=name == "oracle"))
    return rungs


def stored_cell(store: Store, cell: Cell, seed: int, battles: int, scripted: list[str] | None = None,
                keep: Callable[[str, dict[str, Any]], bool] | None = None) -> list[Rung] | None:
    """The cell's rungs from the store alone, those ``keep`` (label, entry) accepts (default all), on the plays all of
    them have stored: ``battles`` at least (``None`` unless every scripted rung, ``scripted`` or all, has them). The
    tuned rung is that of the best untuned scripted policy on those plays (as :func:`play_cell` tunes it), if stored."""
    kept = {label: entry for label, entry in store.block(cell.name, seed).items()
            if entry["n"] >= battles > 0 and (keep is None or keep(label, entry))}
    untuned = {label: entry for label, entry in kept.items() if TUNED not in label}
    played = {label for label, entry in untuned.items() if entry["policy"] not in SEARCHERS}
    if not untuned or not set(scripted or scripted_names(cell)) <= played:
        return None
    n = min(entry["n"] for entry in untuned.values())  # common plays: every comparison is paired on the same ones

    def rung(label: str, entry: dict[str, Any]) -> Rung:
        return Rung(label, _unpack(entry["wins"], entry["n"])[:n], searcher=entry["policy"] in SEARCHERS,
                    ceiling=entry["policy"] == "oracle", commit=provenance(entry, n))

    rungs = [rung(label, entry) for label, entry in untuned.items()]
    best = best_scripted([r for r in rungs if not r.searcher]).label
    return rungs + [rung(label, entry) for label, entry in kept.items()
                    if TUNED in label and entry["policy"] == best and entry["n"] >= n]


# ------------------------------------------------------------------ figures and the page


def _pct(x: float) -> str:
    """A proportion as a percentage: one decimal, two below 1% (an upper bound of 0.02% is not 0.0%)."""
    return f"{100 * x:.2f}%" if 0 < x < 0.01 else f"{100 * x:.1f}%"


def wilson(won: np.ndarray) -> tuple[float, float]:
    from dsim.stats import wilson_interval

    low, high = wilson_interval(int(won.sum()), len(won))
    return float(low), float(high)


def paired(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """a − b on the same plays and its 95% interval (Tango's, `dsim.stats`)."""
    from dsim.stats import paired_difference_interval

    low, high = paired_difference_interval(int((a & ~b).sum()), int((~a & b).sum()), len(a))
    return float(a.mean() - b.mean()), float(low), float(high)


@dataclass(frozen=True)
class Verdict:
    """The acceptance's reading of one cell (``None`` fields: the rung is missing)."""

    best: Rung
    expert: Rung | None
    oracle: Rung | None
    gain: tuple[float, float, float] | None
    ceiling_gap: tuple[float, float, float] | None

    @property
    def passes(self) -> bool | None:
        """Expert beats the best scripted beyond the paired interval (or that policy is at 95%+) and oracle is not
        below expert beyond the paired interval; ``None`` without searchers."""
        if self.gain is None or self.ceiling_gap is None:
            return None
        beats = self.best.won.mean() >= PASS_LINE or self.gain[1] > 0
        return beats and self.ceiling_gap[2] >= 0

    def why(self) -> str:
        """Why a searched cell fails, in a few words: nobody wins it (so no gain can show), the gain stays inside its
        interval, or oracle falls below expert."""
        if self.gain is None or self.ceiling_gap is None or self.passes:
            return ""
        if self.ceiling_gap[2] < 0:
            return "oracle below expert beyond the interval"
        if self.best.won.mean() < NOBODY_WINS and self.expert.won.mean() < NOBODY_WINS:
            return (f"nobody wins: best scripted and expert below {NOBODY_WINS:.0%}, the oracle's ceiling "
                    f"{_pct(self.oracle.won.mean())}")
        return f"the gain's interval reaches 0 at {len(self.best.won)} plays"


def best_scripted(rungs: list[Rung]) -> Rung:
    """The scripted rung with the highest win rate; a tie goes to the searchers' base policy (the tactician), the
    one the one-step search improves on, then to the first listed."""
    return max(rungs, key=lambda r: (r.won.mean(), r.label == SEARCH_BASE))


def verdict(rungs: list[Rung]) -> Verdict:
    best = best_scripted([r for r in rungs if not r.searcher])
    expert = next((r for r in rungs if r.searcher and not r.ceiling), None)
    oracle = next((r for r in rungs if r.ceiling), None)
    gain = paired(expert.won, best.won) if expert else None
    gap = paired(oracle.won, expert.won) if expert and oracle else None
    return Verdict(best, expert, oracle, gain, gap)


def _points(d: tuple[float, float, float]) -> str:
    return f"{100 * d[0]:+.1f} points ({100 * d[1]:+.1f} to {100 * d[2]:+.1f})"


def cell_table(rungs: list[Rung], measure: str | None = None) -> str:
    """One cell's ladder, weakest first, each searcher's paired gain over the best scripted rung."""
    v = verdict(rungs)
    lines = [f"| policy | {measure or 'win'} rate | 95% CI | paired gain over {v.best.label} (95% CI) |",
             "|---|---|---|---|"]
    for r in sorted(rungs, key=lambda r: (r.searcher, r.won.mean())):
        label = r.label + (" (ceiling: sees hidden cards and future dice)" if r.ceiling else "")
        gain = _points(paired(r.won, v.best.won)) if r.searcher else ""
        low, high = wilson(r.won)
        lines.append(f"| {label} | {_pct(r.won.mean())} | {_pct(low)} – {_pct(high)} | {gain} |")
    return "\n".join(lines)


def summary_row(cell: Cell, rungs: list[Rung]) -> str:
    v = verdict(rungs)
    rnd = next((r for r in rungs if r.label == "random_legal"), None)
    tuned = next((r for r in rungs if TUNED in r.label), None)
    pending = "searchers not played yet" if searcher_names(cell) else "no searcher (whole games)"
    mark = {True: "**pass**", False: f"fail: {v.why()}", None: pending}[v.passes]
    return (f"| {cell.title} | {len(v.best.won)} | {_pct(rnd.won.mean()) if rnd else ''} | {v.best.label} "
            f"{_pct(v.best.won.mean())} | {_pct(tuned.won.mean()) if tuned else '—'} | "
            f"{_pct(v.expert.won.mean()) if v.expert else '—'} | {_pct(v.oracle.won.mean()) if v.oracle else '—'} | "
            f"{_points(v.gain) if v.gain else '—'} | {_points(v.ceiling_gap) if v.ceiling_gap else '—'} | {mark} |")


def page(results: list[tuple[Cell, list[Rung] | None]], seed: int, rollouts: int | None, tune_budget: int) -> str:
    """The whole markdown page from the cells' rungs (``None``: not played yet)."""
    from dsim.games.dstbg.searchers import searcher

    expert = searcher("expert")
    budget = ", ".join(f"{p.name} {rollouts if p.name == 'rollouts' and rollouts else p.default:g}"
                       for p in expert.params)
    head = (
        "# The skill ladder: random, the scripted policies, the tuned best, the expert searcher and the oracle ceiling\n\n"
        "Generated by `docs/make_ladder.py` from the outcomes stored in `docs/skill-ladder/` (one JSON file per cell) (do not edit by "
        "hand). Party: Knight + Warrior. In each cell every policy plays the same plays (common random numbers, "
        f"seed {seed}): the plays all its rungs have stored, so a cell's count is its own (the close cells were "
        "played further); intervals are 95%: Wilson for a win rate, Tango's paired interval for a difference. "
        "Under each cell, the commit that played each rung's plays; the scripted rungs are the policies of that "
        "commit (the `veteran` is being retuned elsewhere: its figures here are the veteran of that commit).\n\n"
        "The rungs and their budgets:\n\n"
        "- `random_legal` and every scripted battle policy (`dsim policies list`) with its default parameters;\n"
        f"- *tuned*: the best scripted policy of the cell tuned by `dsim tune-policy` with a budget of {tune_budget:,} "
        "plays on seed + 1 (plays apart from the ladder's), then replayed on the ladder's plays;\n"
        f"- `expert` ({budget}; base index 4 = tactician): at each decision each option is played `rollouts` times "
        "to the end under the tactician with the unseen behaviour-card order, face-down traps and future dice "
        "redrawn (first `screen` rollouts of every option, then only the tactician's answer and the options that "
        "gained over it play on; a close decision, an option gained but not yet by z standard errors, plays those "
        "on to `extend` rollouts); it leaves the tactician's answer only for an option better by more than z "
        "standard errors (the default budget and its cost: `policies/dstbg/README.md`);\n"
        "- `oracle` (decisions 512, base tactician, one rollout an option on the true hidden state and dice): a "
        "ceiling for one-step searchers over the tactician, not a player.\n\n"
        f"**Acceptance** (issue 42): *expert beats the best scripted policy beyond the 95% paired interval wherever that "
        f"policy is below {PASS_LINE:.0%}; oracle ≥ expert within the intervals.* A cell passes when the paired "
        "interval of expert − best scripted lies above 0 (or the best scripted policy wins 95%+) and the paired "
        "interval of oracle − expert reaches 0 or above. The best scripted rung includes the tuned one and is "
        "chosen on the ladder's own plays, which favours it: the comparison is conservative for expert. A cell "
        f"nobody wins (best scripted and expert below {NOBODY_WINS:.0%}) cannot show a gain: it fails for want of "
        "wins, not of search, and its oracle rate is the ceiling of a one-step search over the tactician there "
        "(with starting gear the pair is outmatched by every core boss; Ornstein & Smough beat every policy with "
        "any gear). Cells were played further in rounds (the same count for every rung of a cell), first those whose "
        "interval reached 0 under the previous default expert, then the level-1 and level-2 encounters (the "
        "Forgotten's tactician sat at exactly 95% on 200 plays), then the rest; the cells nobody wins stay at "
        "200.\n\n"
        "Whole games: the rungs are the whole-game strategies (battles by the tactician), on 100 times the plays of "
        "a battle cell; beside the game's win, the share of games that beat the mini boss (`--measure "
        "beat_mini_boss`). The searcher plays a whole game's battles (`dsim game --battle-policy expert`, the "
        "strategy deciding between battles): its funnel beside the veteran's is in [game-search.md](game-search.md), "
        "generated by `docs/make_game_search.py`.\n\n"
        "Why Ornstein & Smough with `late_game` gear stays at or near 0 even for the oracle (the data, the loadout, "
        "the rules, the damage race, and the house rules that change it): [ornstein-smough.md](ornstein-smough.md), "
        "generated by `docs/make_ornstein_smough.py`.\n\n"
    )
    rows = ["| cell | plays | random_legal | best scripted | tuned | expert | oracle | expert − best scripted "
            "(paired 95% CI) | oracle − expert (paired 95% CI) | acceptance |", "|---|---|---|---|---|---|---|---|---|---|"]
    body = []
    for cell, rungs in results:
        if rungs is None:
            rows.append(f"| {cell.title} | not played yet | | | | | | | | |")
            continue
        rows.append(summary_row(cell, rungs))
        where: dict[str, list[str]] = {}
        for r in rungs:
            where.setdefault(r.commit or "unknown", []).append(r.label)
        played_on = next(iter(where)) if len(where) == 1 else "; ".join(
            f"{', '.join(labels)}: {commit}" for commit, labels in where.items())
        body.append(f"## {cell.title}\n\n```\n{cell.command()} --battles {len(rungs[0].won)} --seed {seed}\n```\n\n"
                    f"{cell_table(rungs, cell.measure)}\n\nPlayed on commit {played_on}.\n")
    played = [v for _, r in results if r is not None for v in [verdict(r)] if v.passes is not None]
    failing = [v.why().split(":")[0] for v in played if not v.passes]
    reasons = ", ".join(f"{failing.count(w)} {w}" for w in dict.fromkeys(failing))
    tally = (f"{sum(v.passes for v in played)} of {len(played)} searched cells pass"
             f"{f' (failing: {reasons})' if failing else ''}; "
             f"{sum(1 for _, r in results if r is None)} not played yet (the lead's or a later run continues them: "
             "`python docs/make_ladder.py` plays only what the store lacks).\n\n")
    return head + "## Summary\n\n" + tally + "\n".join(rows) + "\n\n" + "\n".join(body)


def budget_section(store: Store, seed: int, keep: Callable[[str, dict[str, Any]], bool]) -> str:
    """The default expert against the previous default (``PREVIOUS_EXPERT``) on the plays both have stored, per
    cell: the paired measurement behind the default budget (empty when no cell has both)."""
    rows = []
    for cell in CELLS.values():
        block = store.block(cell.name, seed)
        old, new = block.get(PREVIOUS_EXPERT), block.get("expert")
        if not old or not new or not keep("expert", new):
            continue
        n = min(old["n"], new["n"])
        a, b = _unpack(new["wins"], new["n"])[:n], _unpack(old["wins"], old["n"])[:n]
        rows.append(f"| {cell.title} | {n} | {_pct(b.mean())} | {_pct(a.mean())} | {_points(paired(a, b))} |")
    if not rows:
        return ""
    return ("## The expert's budget: the default against the previous one\n\n"
            f"`{PREVIOUS_EXPERT}` is the default expert before 2026-12-08 (its outcomes, played on commit 34cf6d7, "
            "stay in the store under that label); the default extends close decisions to 64 rollouts. Same plays, "
            "paired 95% intervals:\n\n| cell | plays | previous default | default | default − previous (paired 95% CI) |\n"
            "|---|---|---|---|---|\n" + "\n".join(rows) + "\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--battles", type=int, default=200, help="plays per policy per cell (default 200)")
    parser.add_argument("--rollouts", type=int, default=None, help="expert's rollouts per option (default: its 16)")
    parser.add_argument("--tune-budget", type=int, default=20_000, help="plays for tuning the best scripted policy "
                        "(0: no tuned rung; default 20,000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=50, help="plays per stored chunk (default 50)")
    parser.add_argument("--cells", default=None, help="comma-separated cells (default: all): " + ", ".join(CELLS))
    parser.add_argument("--searchers", default=None, help="comma-separated searchers to play (default: all; e.g. "
                        "oracle to extend the scripted and oracle rungs only)")
    parser.add_argument("--report-only", action="store_true", help="rebuild the page from the store, play nothing")
    parser.add_argument("--store", type=Path, default=STORE)
    parser.add_argument("--page", type=Path, default=PAGE)
    args = parser.parse_args(argv)
    if args.battles < 1 or args.chunk < 1 or args.tune_budget < 0 or (args.rollouts is not None and args.rollouts < 1):
        parser.error("--battles, --chunk and --rollouts take positive counts, --tune-budget 0 or more")
    names = args.cells.split(",") if args.cells else list(CELLS)
    unknown = [n for n in names if n not in CELLS]
    if unknown:
        parser.error(f"unknown cell {unknown[0]!r}; cells: {', '.join(CELLS)}")
    store = Store.open(args.store)
    began = time.monotonic()
    chosen = [CELLS[n] for n in names]
    for i, cell in enumerate(chosen):
        if args.report_only:
            break

        def say(text: str, i: int = i, cell: Cell = cell) -> None:
            print(f"[{i + 1}/{len(chosen)} {cell.name}, {time.monotonic() - began:.0f} s] {text}", file=sys.stderr,
                  flush=True)

        play_cell(store, cell, args.seed, args.battles * cell.scale, args.chunk * cell.scale, args.rollouts,
                  args.tune_budget, say, searchers=args.searchers.split(",") if args.searchers else None)
    expert = "expert" if args.rollouts is None else f"expert ({args.rollouts} rollouts)"

    from dsim.games.dstbg.searchers import searcher

    def budget(name: str) -> list[float]:
        vector = searcher_vector(name, args.rollouts) if name == "expert" else None
        return [float(x) for x in (searcher(name).vector() if vector is None else vector)]

    budgets = {name: budget(name) for name in SEARCHERS}

    def keep(label: str, entry: dict[str, Any]) -> bool:
        """Not a stale tuned rung (another tuning budget) nor a searcher of another budget than the page names."""
        stale_tuned = TUNED in label and f"({args.tune_budget})" not in label
        if entry["policy"] not in SEARCHERS:
            return not stale_tuned
        return entry["vector"] == budgets[entry["policy"]] and (entry["policy"] != "expert" or label == expert)

    results = [(cell, stored_cell(store, cell, args.seed, args.battles * cell.scale, keep=keep))
               for cell in CELLS.values()]
    text = page(results, args.seed, args.rollouts, args.tune_budget)
    args.page.write_text(text + ("\n" + budget_section(store, args.seed, keep) if args.rollouts is None else ""),
                         encoding="utf-8")
    print(f"wrote {args.page}", file=sys.stderr)


if __name__ == "__main__":
    main()
