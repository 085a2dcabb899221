"""DS:TBG's searching players, ``expert`` and ``oracle``: one-step rollouts (:mod:`dsim.search`) over a scripted base.

``expert`` resamples at each decision what the players cannot know (the unseen behaviour cards' order, the face-down
traps, every future die; ``core.hide``) and plays each option ``rollouts`` times on the same rollout streams;
``oracle`` plays each option once on the battle's true stream with its true hidden state: it sees the future, so it
is a ceiling for one-step searchers over the same base, to print beside figures, never a player (not a bound on
every play: a deeper fair search could beat it). Both choose by the mean rollout value: a win counts 1, a battle
not won ``SEARCH_SHAPING`` times the share of the enemies' health removed (``kernel.battle.search_value``).
They are not in the scripted registry (``dsim policies list`` lists scripted policies; tuning them means nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from dsim.policy import Policy
from dsim.search import base_param, rollouts_params, switch_params

BASES = ("baseline", "naive", "aggressive", "careful", "tactician", "random_legal", "veteran")
"""The scripted policies a searcher may roll out, by the index its ``base`` parameter takes."""


@dataclass(frozen=True)
class SearchPolicy(Policy):
    """A searching player: ``fair`` (``expert``) or all-seeing (``oracle``), over the scripted ``base``."""

    fair: bool = True

    def budget_of(self, vector: np.ndarray):
        """The search budget and the base policy's name from a parameter vector."""
        from dsim.search import Budget

        values = dict(zip((p.name for p in self.params), vector))
        budget = Budget.from_values(values)
        return budget, BASES[int(values["base"])]


_ROLLOUTS, _DECISIONS = rollouts_params("battle")
_BASE = base_param(BASES, BASES.index("tactician"))

SEARCHERS: dict[str, SearchPolicy] = {
    "expert": SearchPolicy(
        "expert",
        "Expert: at every decision plays each option `rollouts` times to the end under the base policy, with what "
        "the players cannot know resampled (unseen behaviour-card order, face-down traps, future dice), and takes "
        "the best mean. A fair player: it never reads hidden cards or the dice to come.",
        None,
        (_ROLLOUTS, _DECISIONS, _BASE, *switch_params(2.0, screen=4, extend=64)),
        fair=True),
    "oracle": SearchPolicy(
        "oracle",
        "Oracle (a ceiling, not a player): the expert's search on the battle's true hidden state and true dice, "
        "one rollout per option; it bounds one-step searchers over the same base, not every play style.",
        None, (_DECISIONS, _BASE), fair=False),
}


def searcher(name: str) -> SearchPolicy | None:
    """The searching player of that name, or ``None``."""
    return SEARCHERS.get(name)


GROUP = 256  # battles searched in lockstep: a step's rollouts (~256 × options × rollouts) fill the threads, in memory
# of tens of MB


def _search(tables, policy: SearchPolicy, vector: np.ndarray, seed: int, stream: int, plays: np.ndarray,
            record: bool = False, progress: Callable[[int], None] | None = None):
    """The search of battles ``plays`` (:func:`dsim.search.search`), its replayer and base policy. The rollout keys
    hash (seed, stream), so a battle's search is a pure function of (seed, stream, index)."""
    from dsim.games.dstbg import engine
    from dsim.games.dstbg.policy import get_policy
    from dsim.rng import stream_key
    from dsim.search import search

    budget, base_name = policy.budget_of(vector)
    base = get_policy(base_name)
    replayer = engine.BattleReplayer(tables, base.decide, base.vector(), seed, stream)
    found = search(replayer, plays, budget, stream_key(f"search:{seed}:{stream}"), fair=policy.fair, record=record,
                   progress=progress)
    return found, replayer, base


def explain_searched(tables, policy: SearchPolicy, vector: np.ndarray, seed: int, stream: int, index: int):
    """Battle ``index``'s search with every decision's estimates, and the base policy (for the traced replay)."""
    found, _, base = _search(tables, policy, vector, seed, stream, np.array([index], np.int64), record=True)
    return found, base


def play_searched(tables, policy: SearchPolicy, vector: np.ndarray, seed: int, stream: int, start: int, count: int,
                  progress: Callable[[int], None] | None = None, searched: np.ndarray | None = None) -> np.ndarray:
    """Battles ``start .. start+count-1`` played by a searcher: the outcome table (as ``engine.play_batch``'s);
    ``searched`` (``count`` int64), if given, gets the decisions searched in each battle."""
    from dsim.games.dstbg.kernel.battle import N_OUT

    tables_out = [np.zeros((0, N_OUT), np.int32)]
    for lo in range(start, start + count, GROUP):  # a group's rollouts at a time: memory bounded whatever the count
        plays = np.arange(lo, min(lo + GROUP, start + count), dtype=np.int64)
        found, replayer, _ = _search(tables, policy, vector, seed, stream, plays, progress=progress)
        lengths = np.array([len(p) for p in found.prefixes], np.int64)
        prefixes = np.zeros((len(plays), max(1, int(lengths.max(initial=1)))), np.int32)
        for i, p in enumerate(found.prefixes):
            prefixes[i, :len(p)] = p
        if searched is not None:
            searched[lo - start:lo - start + len(plays)] = lengths
        tables_out.append(replayer.outcomes(plays, prefixes, lengths))
    return np.concatenate(tables_out)
