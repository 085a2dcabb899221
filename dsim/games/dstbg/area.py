"""An area of the game from bonfire to boss, and the sparks that pay for retries (R-1.4, R-5.9, R-5.10).

A battle ends in a win or a loss; a game needs the party to win every encounter on the way to
the fog gate and then the boss, retrying after each defeat while sparks last. This module turns
per-battle win rates into that chance. It does no simulation itself: ``dsim area`` plays the
battles and passes their win counts here.

The model, with the rule behind each step:

- The boss card lists the encounter levels (R-1.6). Each tile gets a different card of its level,
  and every deal is equally likely. Tiles form a chain with the fog gate on the last (A-5
  ``tile_layout=chain``), so every tile's battle stands between the bonfire and the boss.
- A defeat sends the party to rest (R-5.9). The dial drops by 1 and the same cards are turned face
  down again (R-6.5), so the deal stays fixed across retries. At 0 sparks the next defeat loses the
  game (R-5.10): with ``s`` sparks the party has ``s + 1`` attempts.
- The gravestones on the dealt cards reveal that many behaviour cards at boss setup (R-12.5), so
  the boss's win rate depends on the deal.
- Battles are independent, and each starts with full estus, luck and heroic action. This is
  optimistic: the real party refills them only on a rest (R-5.9). Gear is fixed (no souls spent
  between attempts), and there are no voluntary rests (D-8).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from dsim.games.dstbg.loader import GameData

MAX_PARTY = 4


def starting_sparks(party_size: int) -> int:
    """R-1.4: the spark dial starts at 6 − the number of characters (5, 4, 3, 2)."""
    if not 1 <= party_size <= MAX_PARTY:
        raise ValueError(f"a party has 1 to {MAX_PARTY} characters, got {party_size}")
    return 6 - party_size


def deals(levels: Sequence[int], cards_by_level: Mapping[int, Sequence[int]]) -> np.ndarray:
    """Every deal of distinct cards to the tiles (R-1.6) as rows of card indices, one column per tile
    grouped by level. Card order within a level does not matter to the chance of winning them all."""
    per_level = []
    for level in sorted(set(levels)):
        need, have = levels.count(level), list(cards_by_level.get(level, ()))
        if len(have) < need:
            raise ValueError(f"{need} tiles of level {level} need {need} encounter cards, the data has {len(have)}")
        per_level.append(list(itertools.combinations(have, need)))
    return np.array([sum(rows, ()) for rows in itertools.product(*per_level)], dtype=np.int64)


def area_win_probability(
    card_rates: np.ndarray, boss_rates: np.ndarray, dealt: np.ndarray, revealed: np.ndarray, attempts: int,
) -> np.ndarray:
    """Chance of beating the boss within ``attempts`` runs, averaged over the deals.

    ``card_rates[..., i]`` is the win rate of encounter card ``i`` and ``boss_rates[..., g]`` the
    boss's with ``g`` cards revealed. Leading axes are kept, e.g. draws of the rates for an interval.
    ``dealt`` holds the deals (rows of card indices), ``revealed[d]`` the boss cards deal ``d``
    reveals. One run wins every dealt card then the boss, so its chance is ``q`` and
    ``1 - (1 - q) ** attempts`` is the chance to win within the attempts (R-5.10)."""
    once = np.prod(card_rates[..., dealt], axis=-1) * boss_rates[..., revealed]
    return np.mean(1.0 - (1.0 - once) ** attempts, axis=-1)


def spark_chances(
    card_wins: np.ndarray, boss_wins: np.ndarray, battles: int, dealt: np.ndarray, revealed: np.ndarray,
    sparks: Sequence[int], draws: int, rng: np.random.Generator,
) -> list[dict[str, object]]:
    """For each spark dial value ``s``: the chance to beat the area within ``s + 1`` attempts from the
    win counts (``boss_wins[g]``: with ``g`` cards revealed), and its 95% interval from :func:`rate_draws`."""
    wins = np.concatenate([card_wins, boss_wins])
    drawn = rate_draws(wins, battles, draws, rng)
    n_cards = len(card_wins)
    rows = []
    for s in sparks:
        attempts = s + 1
        point = float(area_win_probability(card_wins / battles, boss_wins / battles, dealt, revealed, attempts))
        spread = area_win_probability(drawn[:, :n_cards], drawn[:, n_cards:], dealt, revealed, attempts)
        low, high = np.quantile(spread, [0.025, 0.975])
        rows.append({"sparks": s, "attempts": attempts, "win_rate": point, "ci95": [float(low), float(high)]})
    return rows


def rate_draws(wins: np.ndarray, battles: int, draws: int, rng: np.random.Generator) -> np.ndarray:
    """Draws of each win rate from its Jeffreys posterior Beta(w + ½, n − w + ½), shape ``(draws, len(wins))``.
    Pushed through the area formula they give its interval, however many cells feed it."""
    wins = np.asarray(wins, dtype=np.float64)
    return rng.beta(wins + 0.5, battles - wins + 0.5, size=(draws, wins.size))


def encounter_plan(data: GameData, boss_id: str) -> tuple[list[int], list[str], dict[int, list[int]], np.ndarray, int]:
    """What an area before ``boss_id`` deals from: its tile levels (R-1.6), the encounter card ids of
    those levels, their indices by level, each card's gravestones (R-7.4) and the boss's deck size."""
    if boss_id not in data.bosses:
        raise ValueError(f"unknown boss {boss_id!r} (known: {', '.join(sorted(data.bosses))})")
    boss = data.bosses[boss_id]
    levels = list(boss.encounter_levels)
    cards = [e for e in data.encounters.values() if e.level in set(levels)]
    by_level: dict[int, list[int]] = {}
    for i, card in enumerate(cards):
        by_level.setdefault(card.level, []).append(i)
    graves = np.array([(card.terrain_1 == "gravestone") + (card.terrain_2 == "gravestone") for card in cards])
    return levels, [card.id for card in cards], by_level, graves, boss.deck_size
