"""Bloodborne's searching hunters, ``expert`` and ``oracle``: one-step rollouts (:mod:`dsim.search`) over a scripted base.

At each of its decisions (two options or more) the searcher plays every option to the game's end under its ``base``
policy, the other hunters under a **model**: ``model`` 0 assumes their actual policies (the table's own listing),
any other value one scripted policy for all of them (``MODELS``). ``expert`` is fair: at the branch it redraws what
no hunter has seen (``kernel.rules.forget_unseen``: the unrevealed dungeon cards and their order, the upgrade deck's
order, every future die, the others' own random numbers) and the picks the others made secretly before its own in
the same step (BB-5.1, BB-6.1), which the model picks again; hands, used piles, upgrades taken and the display are
public in this engine (``policy.py``), so they stand. ``oracle`` plays each option once on the game's true stream and
hidden state (the others' secret picks included): an all-seeing bound for one-step searchers over the same base and
model, printed beside figures, never a player. A rollout is worth 1 for a win plus a small score-margin term
(``layout.SEARCH_SHAPING``). They are not in the scripted registry (tuning them means nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from dsim.policy import Param, Policy
from dsim.search import base_param, rollouts_params, switch_params

if TYPE_CHECKING:
    from dsim.games.bloodborne.game import Cell

BASES = ("greedy", "banker", "aggressor", "spoiler", "random_legal")
"""The scripted policies a searcher may roll out for itself, by the index its ``base`` parameter takes."""
MODELS = ("actual",) + BASES
"""The others' model in the rollouts, by the index of ``model``: their actual policies, or one scripted policy."""


@dataclass(frozen=True)
class SearchPolicy(Policy):
    """A searching hunter: ``fair`` (``expert``) or all-seeing (``oracle``), over the scripted ``base``."""

    fair: bool = True

    def budget_of(self, vector: np.ndarray) -> tuple[Any, str, str]:
        """The search budget, the base policy's name and the model's name from a parameter vector."""
        from dsim.search import Budget

        values = dict(zip((p.name for p in self.params), vector))
        budget = Budget.from_values(values)  # no `screen` parameter: every option plays every rollout (the screen
        # pays where most decisions gain nothing, as in DS:TBG; this game's figures were measured without it)
        return budget, BASES[int(values["base"])], MODELS[int(values["model"])]


_ROLLOUTS, _DECISIONS = rollouts_params("game")
_BASE = base_param(BASES, 0, "its own policy in the rollouts")
_MODEL = Param("model", 0.0, 0, len(MODELS) - 1,
               "the other hunters in the rollouts: 0 their actual policies (assumed known), else one policy for all: "
               + ", ".join(f"{i} {n}" for i, n in enumerate(MODELS) if i), whole=True)

SEARCHERS: dict[str, SearchPolicy] = {
    "expert": SearchPolicy(
        "expert",
        "Expert: at each decision plays every option `rollouts` times to the end (itself as `base`, the others as "
        "`model`), with what no hunter has seen redrawn (unrevealed dungeon cards, the upgrade deck's order, future "
        "dice, the others' secret picks of the step), and takes the best mean. A fair player.",
        None,
        (_ROLLOUTS, _DECISIONS, _BASE, _MODEL, *switch_params(1.0)),
        fair=True),
    "oracle": SearchPolicy(
        "oracle",
        "Oracle (a ceiling, not a player): the expert's search on the game's true hidden state, dice and secret "
        "picks, one rollout per option; it bounds one-step searchers over the same base and model.",
        None, (_DECISIONS, _BASE, _MODEL), fair=False),
}


def searcher(name: str) -> SearchPolicy | None:
    """The searching hunter of that name, or ``None``."""
    return SEARCHERS.get(name)


GROUP = 128  # games searched in lockstep: a step's rollouts (~128 × options × rollouts) fill the threads


def _rows(vectors: list[np.ndarray]) -> np.ndarray:
    """Parameter vectors as one zero-padded matrix, a row per listed position."""
    rows = np.zeros((len(vectors), max(len(v) for v in vectors)), np.float64)
    for k, v in enumerate(vectors):
        rows[k, : len(v)] = v
    return rows


def replayer(cell: Cell, vector: np.ndarray, seed: int, stream: int,
             hidden: tuple[int, int] | None = None) -> tuple[Any, Any]:
    """The cell's games as a replayer for its one searching seat (vector: the searcher's parameters), and the budget;
    ``hidden`` (tests): ``engine.GameReplayer``'s disturbance of the true games."""
    from dsim.games.bloodborne import engine
    from dsim.games.bloodborne.policy import REGISTRY
    from dsim.policy import compiled

    listed = [k for k, p in enumerate(cell.policies) if isinstance(p, SearchPolicy)]
    if len(listed) != 1:
        raise ValueError("a Bloodborne table seats one searcher (expert or oracle); the others play scripted policies")
    me = listed[0]
    budget, base_name, model_name = cell.policies[me].budget_of(vector)
    base = REGISTRY.get(base_name)
    own = [base if k == me else p for k, p in enumerate(cell.policies)]
    own_vectors = [base.vector() if k == me else cell.params[k] for k in range(cell.hunters)]
    model = None if model_name == "actual" else REGISTRY.get(model_name)
    game = engine.GameReplayer(cell.compiled.tables, tuple(compiled(p.decide) for p in own), _rows(own_vectors),
                               None if model is None else compiled(model.decide),
                               None if model is None else model.vector(), cell.variants, cell.hunters, cell.seating,
                               seed, stream, me, hidden)
    return game, budget


def search_games(cell: Cell, vector: np.ndarray, seed: int, stream: int, plays: np.ndarray, record: bool = False,
                 progress: Callable[[int], None] | None = None, hidden: tuple[int, int] | None = None):
    """The search of games ``plays`` (:func:`dsim.search.search`) and its replayer. The rollout keys hash (seed,
    stream), so a game's search is a pure function of (seed, stream, index, the cell)."""
    from dsim.rng import stream_key
    from dsim.search import search

    game, budget = replayer(cell, vector, seed, stream, hidden)
    policy = next(p for p in cell.policies if isinstance(p, SearchPolicy))
    found = search(game, plays, budget, stream_key(f"search:{seed}:{stream}"), fair=policy.fair, record=record,
                   progress=progress)
    return found, game


def play_searched(cell: Cell, vector: np.ndarray, seed: int, stream: int, start: int, count: int,
                  progress: Callable[[int], None] | None = None) -> np.ndarray:
    """Games ``start .. start+count-1`` with a searching seat: outcome rows as ``engine.play_batch``'s."""
    from dsim.games.bloodborne.kernel import layout as L

    parts = [np.zeros((0, L.N_OUT), np.int32)]
    for lo in range(start, start + count, GROUP):  # a group's rollouts at a time: memory bounded whatever the count
        plays = np.arange(lo, min(lo + GROUP, start + count), dtype=np.int64)
        found, game = search_games(cell, vector, seed, stream, plays, progress=progress)
        width = max(1, max((len(p) for p in found.prefixes), default=1))
        prefixes = np.zeros((len(plays), width), np.int32)
        for i, p in enumerate(found.prefixes):
            prefixes[i, : len(p)] = p
        parts.append(game.outcomes(plays, prefixes, np.array([len(p) for p in found.prefixes], np.int64)))
    return np.concatenate(parts)
