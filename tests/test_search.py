"""The search core (dsim.search) on a toy with hidden information and a known optimal policy (tests/searchtoy.py)."""

from __future__ import annotations

import numpy as np
import pytest

from dsim.search import MAX_ROLLOUTS, Budget, _choose, rollout_keys, search
from tests.searchtoy import HIGHER, LOWER, HigherLower

PLAYS = np.arange(300)


def test_expert_finds_the_counting_policy_where_it_is_clear():
    """Wherever the unseen cards favour one guess by two or more, 256 rollouts a guess, none screened out, take it
    (the chance of the wrong sign there is below 1e-5 a decision); its value matches the counting policy's within
    the interval."""
    toy = HigherLower()
    result = search(toy, PLAYS, Budget(rollouts=256, screen=0), seed=1, fair=True, record=True)
    decks = toy.decks(PLAYS)
    clear = 0
    for est in result.estimates:
        deck = decks[est.play][None, :]
        up = (deck[0, est.depth + 1:] > deck[0, est.depth]).sum()
        down = (deck[0, est.depth + 1:] < deck[0, est.depth]).sum()
        if abs(up - down) >= 2:
            clear += 1
            assert est.choice == toy.optimal(deck, est.depth)[0]
    assert clear > 500
    counting = np.array([_counting_value(toy, d) for d in decks])
    diff = result.values - counting
    assert abs(diff.mean()) <= 1.96 * diff.std(ddof=1) / np.sqrt(len(diff)) + 1e-12


def _counting_value(toy: HigherLower, deck: np.ndarray) -> float:
    """The counting policy's share of right guesses on one deck (a tie guesses lower)."""
    right = 0
    for d in range(toy.cards - 1):
        guess = toy.optimal(deck[None, :], d)[0]
        guess = LOWER if guess < 0 else guess
        right += guess == (deck[d + 1] > deck[d])
    return right / (toy.cards - 1)


def test_expert_beats_its_base_policy_and_the_oracle_is_perfect():
    toy = HigherLower()
    base = toy.advance(PLAYS, np.zeros((len(PLAYS), 1), np.int32), np.zeros(len(PLAYS), np.int64)).value
    expert = search(toy, PLAYS, Budget(rollouts=32), seed=1, fair=True).values
    oracle = search(toy, PLAYS, Budget(rollouts=1), seed=1, fair=False).values
    assert expert.mean() > base.mean() + 0.2
    assert np.all(oracle == 1.0)


def test_expert_choices_ignore_the_unseen_order():
    """Two decks that agree on the cards turned up so far get the same guess, whatever the order of the rest
    (the rollouts resample it from the sorted unseen cards); the oracle, which reads it, guesses differently."""
    toy = HigherLower()

    class Swapped(HigherLower):
        def decks(self, plays):
            decks = super().decks(plays)
            return np.concatenate([decks[:, :3], decks[:, 3:][:, ::-1]], axis=1)  # the unseen cards reversed

    other = Swapped()
    prefixes = np.zeros((len(PLAYS), 4), np.int32)
    lengths = np.full(len(PLAYS), 2)  # decision 2: cards 0, 1, 2 are up
    same_choice = []
    for fair in (True, False):
        values = {}
        for game in (toy, other):
            job_play = np.repeat(np.arange(len(PLAYS)), 2 * 64)
            job_option = np.tile(np.repeat([0, 1], 64), len(PLAYS))
            keys = rollout_keys(1, PLAYS[job_play], lengths[job_play], np.tile(np.arange(64), 2 * len(PLAYS)))
            v = game.rollouts(PLAYS, prefixes, lengths, job_play, job_option, keys, fair).reshape(len(PLAYS), 2, 64)
            values[game] = v.mean(axis=2)
        same_choice.append(np.mean(values[toy].argmax(axis=1) == values[other].argmax(axis=1)))
        if fair:
            np.testing.assert_array_equal(values[toy], values[other])
    assert same_choice[1] < 0.9  # the oracle's choices follow the hidden order


def test_search_is_a_pure_function_of_its_arguments():
    toy = HigherLower()
    a = search(toy, PLAYS[:50], Budget(rollouts=8), seed=5)
    b = search(toy, PLAYS[:50][::-1], Budget(rollouts=8), seed=5)
    np.testing.assert_array_equal(a.values, b.values[::-1])
    assert [list(p) for p in a.prefixes] == [list(p) for p in b.prefixes[::-1]]


def test_budget_bounds_and_decision_cap():
    with pytest.raises(ValueError, match="rollouts per option"):
        Budget(rollouts=0)
    with pytest.raises(ValueError, match="searched decisions"):
        Budget(decisions=10**9)
    toy = HigherLower()
    capped = search(toy, PLAYS[:20], Budget(rollouts=4, decisions=2), seed=1)
    assert all(len(p) == 2 for p in capped.prefixes)
    assert capped.decisions == 40


def test_toy_optimal_guess_is_counting():
    toy = HigherLower(cards=4)
    deck = np.array([[1, 0, 2, 3]])
    assert toy.optimal(deck, 0)[0] == HIGHER
    assert toy.optimal(deck, 1)[0] == HIGHER


def test_the_base_answer_stands_unless_another_option_is_clearly_better():
    """Paired on common rollout keys: a gain within z standard errors leaves the base policy's answer, a clear one
    takes the best mean; with z = 0 any positive mean gain switches."""
    base = np.array([1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0])
    noisy = np.array([1.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0])  # one rollout better: gain 1/8, se 1/8
    clear = np.array([1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0])  # three better, none worse
    assert _choose(np.stack([base, noisy]), 0, 2.0) == 0
    assert _choose(np.stack([base, noisy]), 0, 0.0) == 1
    assert _choose(np.stack([base, noisy, clear]), 0, 2.0) == 2
    assert _choose(np.stack([clear, base]), 1, 2.0) == 0


class _Constant(HigherLower):
    """The toy with three options whose rollout values are fixed per option (``gains`` over the base option 0),
    plus the toy's noise: what the screen sees is known."""

    def __init__(self, gains: tuple[float, ...]) -> None:
        super().__init__()
        self.gains = np.asarray(gains)

    def advance(self, plays, prefixes, lengths):
        adv = super().advance(plays, prefixes, lengths)
        asking = lengths < 2
        return type(adv)(options=np.where(asking, len(self.gains), 0), hook=np.where(asking, 0, -1),
                         base=np.where(asking, 0, -1), value=adv.value)

    def rollouts(self, plays, prefixes, lengths, job_play, job_option, job_key, fair):
        noise = (np.asarray(job_key, np.uint64) % np.uint64(7)).astype(float) / 7
        return noise + self.gains[np.asarray(job_option)]


def test_the_screen_drops_options_that_gained_nothing_and_plays_on_the_rest():
    """With 16 rollouts and a screen of 4: where no option gains over the base answer in the screen, a decision
    costs 3 options × 4 rollouts and the base answer stands; where one gains, it and the base play all 16 (12 more
    each) and the clear gain is taken; ``screen=0`` plays every option 16 times."""
    plays = np.arange(5)
    flat = search(_Constant((0.0, 0.0, -0.5)), plays, Budget(rollouts=16, screen=4), seed=1, record=True)
    assert flat.rollouts == flat.decisions * 3 * 4 and all(e.choice == 0 for e in flat.estimates)
    gain = search(_Constant((0.0, 0.25, -0.5)), plays, Budget(rollouts=16, screen=4), seed=1, record=True)
    assert gain.rollouts == gain.decisions * (3 * 4 + 2 * 12) and all(e.choice == 1 for e in gain.estimates)
    whole = search(_Constant((0.0, 0.25, -0.5)), plays, Budget(rollouts=16, screen=0), seed=1)
    assert whole.rollouts == whole.decisions * 3 * 16
    assert [list(p) for p in whole.prefixes] == [list(p) for p in gain.prefixes]
    assert Budget(rollouts=16).screening() == 4 and Budget(rollouts=3).screening() == 3
    with pytest.raises(ValueError, match="screening rollouts"):
        Budget(screen=-1)


class _Close(_Constant):
    """Option 1 gains 0.05 to 0.55 over the base option 0, rollout by rollout (mean about 0.2, spread about 0.15)."""

    def rollouts(self, plays, prefixes, lengths, job_play, job_option, job_key, fair):
        keys = np.asarray(job_key, np.uint64)
        spread = (keys % np.uint64(11)).astype(float) / 20
        return np.where(np.asarray(job_option) == 1, 0.05 + spread, 0.0)


def test_extend_plays_a_close_decision_on_and_leaves_a_clear_one():
    """With 16 rollouts (a screen of 4) and ``extend=64``: a gain within ``z`` standard errors after 16 rollouts
    plays the gaining option and the base answer on to 64; a gain beyond them stops at 16."""
    plays = np.arange(4)
    close = search(_Close((0.0, 0.0, -0.5)), plays, Budget(rollouts=16, z=10.0, extend=64), seed=1)
    assert close.rollouts == close.decisions * (3 * 4 + 2 * 12 + 2 * 48)
    clear = search(_Close((0.0, 0.0, -0.5)), plays, Budget(rollouts=16, z=1.0, extend=64), seed=1)
    assert clear.rollouts == clear.decisions * (3 * 4 + 2 * 12)
    assert all(list(p) == [1, 1] for p in clear.prefixes)
    short = search(_Close((0.0, 0.0, -0.5)), plays, Budget(rollouts=16, z=10.0, extend=16), seed=1)
    assert short.rollouts == short.decisions * (3 * 4 + 2 * 12)  # not more than rollouts: no extension
    for bad in (-1, MAX_ROLLOUTS + 1):
        with pytest.raises(ValueError, match="extended rollouts"):
            Budget(rollouts=16, extend=bad)
