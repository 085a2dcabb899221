"""Dark Maiden's searching teams, ``expert`` and ``oracle``: one-step rollouts (:mod:`dsim.search`) over a scripted
base policy, at every hook the game has (walk or run, potions, roll or quick strike, doubles, targets, grab
splits, precipice throws, bonus-phase strike / recover / mount, goblin dice).

``expert`` redraws at each decision what the players cannot know — the order of the undrawn cards (their set is
known: what has not been seen) and every future die (``kernel.rules.hide``) — and plays each option ``rollouts``
times to the end on the same rollout streams; ``oracle`` plays each option once on the game's true deck and dice:
it sees the future, so it is a ceiling for one-step searchers over the same base, printed beside figures, never a
player. Both value a won game 1, a lost one ``shaping`` (the expert's parameter; the kernel's
``rules.SEARCH_SHAPING``, 0.25, for the oracle) times the share of the way through the sites.
They are not in the scripted registry (tuning them means nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from dsim.policy import Param, Policy
from dsim.search import base_param, rollouts_params, switch_params

BASES = ("tactician", "cautious", "bold", "random_legal")
"""The scripted policies a searcher may roll out, by the index its ``base`` parameter takes."""


@dataclass(frozen=True)
class SearchPolicy(Policy):
    """A searching team: ``fair`` (``expert``) or all-seeing (``oracle``), over the scripted ``base``."""

    fair: bool = True

    def budget_of(self, vector: np.ndarray) -> tuple[Any, str]:
        """The search budget and the base policy's name from a parameter vector."""
        from dsim.search import Budget

        values = dict(zip((p.name for p in self.params), vector))
        return Budget.from_values(values), BASES[int(values["base"])]

    def shaping_of(self, vector: np.ndarray) -> float:
        """A lost game's worth per share of the way through the sites (the oracle keeps the kernel's)."""
        from dsim.games.dark_maiden.kernel.rules import SEARCH_SHAPING

        values = dict(zip((p.name for p in self.params), vector))
        return float(values.get("shaping", SEARCH_SHAPING))


@dataclass(frozen=True)
class Valued:
    """A replayer whose lost games are worth ``shaping`` per share of the way through the sites instead of the
    kernel's ``rules.SEARCH_SHAPING`` (a won game is worth 1 either way): the kernel's values rescaled."""

    games: Any
    shaping: float

    def _value(self, values: np.ndarray) -> np.ndarray:
        from dsim.games.dark_maiden.kernel.rules import SEARCH_SHAPING

        return np.where(values >= 1.0, 1.0, values * (self.shaping / SEARCH_SHAPING))

    def advance(self, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray) -> Any:
        """The game's :meth:`advance`, valued."""
        adv = self.games.advance(plays, prefixes, lengths)
        return replace(adv, value=self._value(adv.value))

    def rollouts(self, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray, job_play: np.ndarray,
                 job_option: np.ndarray, job_key: np.ndarray, fair: bool) -> np.ndarray:
        """The game's :meth:`rollouts`, valued."""
        return self._value(self.games.rollouts(plays, prefixes, lengths, job_play, job_option, job_key, fair))

    def outcomes(self, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """The game's outcome rows."""
        return self.games.outcomes(plays, prefixes, lengths)


_ROLLOUTS, _DECISIONS = rollouts_params("game")
_BASE = base_param(BASES, 0)

SEARCHERS: dict[str, SearchPolicy] = {
    "expert": SearchPolicy(
        "expert",
        "Expert: at every decision plays each option `rollouts` times to the end under the base policy, with the "
        "undrawn cards' order and the future dice redrawn, and takes the best mean when it beats the base's answer "
        "by `z` standard errors. A fair team: it never reads the deck's order or the dice to come.",
        None,
        (_ROLLOUTS, _DECISIONS, _BASE, *switch_params(2.0, screen=0, extend=0),
         Param("shaping", 0.25, 0.0, 0.9, "a lost game's worth per share of the way through the four sites (a won "
               "game is worth 1; 0: rollouts count wins only)")),
        fair=True),
    "oracle": SearchPolicy(
        "oracle",
        "Oracle (a ceiling, not a player): the expert's search on the game's true deck order and dice, one rollout "
        "per option; it bounds one-step searchers over the same base, not every play style.",
        None, (_DECISIONS, _BASE), fair=False),
}


def searcher(name: str) -> SearchPolicy | None:
    """The searching team of that name, or ``None``."""
    return SEARCHERS.get(name)


GROUP = 64  # games searched in lockstep: a step's rollouts (~64 × options × rollouts) fill the threads


def replayer(cell: Any, base_name: str, seed: int, stream: int, hidden: tuple[int, int] | None = None) -> Any:
    """The cell's games as a :class:`dsim.search.Replayer` under the scripted policy ``base_name``."""
    from dsim.games.dark_maiden import engine
    from dsim.games.dark_maiden.policy import REGISTRY
    from dsim.policy import compiled

    base = REGISTRY.get(base_name)
    return engine.GameReplayer(cell.compiled.tables, compiled(base.decide), base.vector(), cell.variants, cell.party,
                               cell.lives, cell.items, seed, stream, hidden)


def search_games(cell: Any, policy: SearchPolicy, vector: np.ndarray, seed: int, stream: int, plays: np.ndarray,
                 record: bool = False, progress: Callable[[int], None] | None = None,
                 hidden: tuple[int, int] | None = None) -> tuple[Any, Any]:
    """The search of games ``plays`` (:func:`dsim.search.search`) and its replayer. The rollout keys hash (seed,
    stream), so a game's search is a pure function of (seed, stream, index), whatever the threads."""
    from dsim.rng import stream_key
    from dsim.search import search

    budget, base_name = policy.budget_of(vector)
    games = Valued(replayer(cell, base_name, seed, stream, hidden), policy.shaping_of(vector))
    found = search(games, plays, budget, stream_key(f"search:{seed}:{stream}"), fair=policy.fair, record=record,
                   progress=progress)
    return found, games


def play_searched(cell: Any, policy: SearchPolicy, vector: np.ndarray, seed: int, stream: int, start: int,
                  count: int, progress: Callable[[int], None] | None = None,
                  searched: np.ndarray | None = None) -> np.ndarray:
    """Games ``start .. start+count-1`` played by a searcher: outcome rows (as ``engine.play_batch``'s);
    ``searched`` (``count`` int64), if given, gets the decisions searched in each game (``dsim bench``)."""
    from dsim.games.dark_maiden.kernel import layout as L

    rows = [np.zeros((0, L.N_OUT), np.int32)]
    for lo in range(start, start + count, GROUP):  # a group's rollouts at a time: memory bounded whatever the count
        plays = np.arange(lo, min(lo + GROUP, start + count), dtype=np.int64)
        found, games = search_games(cell, policy, vector, seed, stream, plays, progress=progress)
        lengths = np.array([len(p) for p in found.prefixes], np.int64)
        prefixes = np.zeros((len(plays), max(1, int(lengths.max(initial=1)))), np.int32)
        for i, p in enumerate(found.prefixes):
            prefixes[i, :len(p)] = p
        if searched is not None:
            searched[lo - start:lo - start + len(plays)] = lengths
        rows.append(games.outcomes(plays, prefixes, lengths))
    return np.concatenate(rows)
