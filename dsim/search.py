"""One-step rollout search over any game whose plays replay from a forced prefix of decisions.

With counter-based streams a play is a pure function of (seed, stream, index, decisions taken), so a game need
not snapshot its state: it replays the play up to a decision with the decisions taken so far forced, takes one
option, and finishes the play under its base policy on a fresh rollout stream (resampling what the players do not
know, for a fair searcher; keeping the true hidden state and stream, for an all-seeing bound). At each decision the
searcher plays every option ``rollouts`` times on common rollout keys and takes the option of the best mean value:
the one-step rollout improvement of the base policy (Bertsekas' rollout algorithm; Tesauro & Galperin 1996).

Plays advance in lockstep: each step asks the game about the next decision of every live play at once and plays
all of their rollouts in one call, which the game spreads over its threads. Nothing here names a game: a game
implements :class:`Replayer`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from dsim.policy import Param

MAX_ROLLOUTS = 4096  # rollouts per option and decision
MAX_DECISIONS = 4096  # searched decisions per play (later ones are the base policy's)
MAX_JOBS = 1 << 20  # rollouts in one call: the lockstep step is cut into calls of at most this many


@dataclass(frozen=True)
class Advance:
    """Each play's next decision after its forced prefix, and its value played on under the base policy.

    ``options`` 0 means the play ended before asking again (``value`` is then its outcome); ``hook`` is the game's
    kind of decision (-1 when ended), ``base`` the option the base policy took there (the searcher's tie-break)."""

    options: np.ndarray  # int64 (plays,)
    hook: np.ndarray  # int64 (plays,)
    base: np.ndarray  # int64 (plays,)
    value: np.ndarray  # float64 (plays,)


class Replayer(Protocol):
    """What a game gives the searcher: replays of plays with a forced prefix of decisions.

    ``plays`` are play indices, ``prefixes[i, :lengths[i]]`` the decisions forced in play ``plays[i]`` (the
    answers, in the order the game asks them; a game asks only when there are two options or more)."""

    def advance(self, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray) -> Advance:
        """Replay each play on its true stream with its prefix forced; report its next decision."""
        ...

    def rollouts(self, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray, job_play: np.ndarray,
                 job_option: np.ndarray, job_key: np.ndarray, fair: bool) -> np.ndarray:
        """Values (float64) of rollouts: job ``j`` replays play ``plays[job_play[j]]`` with its prefix forced, answers
        the next decision with ``job_option[j]`` and plays on under the base policy, from the rollout stream
        ``job_key[j]`` with the hidden state resampled (``fair``) or on the true stream and hidden state."""
        ...



def job_arrays(plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray, job_play: np.ndarray,
               job_option: np.ndarray, job_key: np.ndarray) -> tuple[np.ndarray, ...]:
    """A replayer's job arguments as the contiguous arrays of the types every game's search entry takes; a batch
    with no decision forced yet still gets a prefix column (a kernel indexes a two-dimensional array)."""
    prefixes = np.ascontiguousarray(prefixes, np.int32)
    if prefixes.shape[1] == 0:
        prefixes = np.zeros((len(prefixes), 1), np.int32)
    return (np.ascontiguousarray(plays, np.int64), prefixes, np.ascontiguousarray(lengths, np.int64),
            np.ascontiguousarray(job_play, np.int64), np.ascontiguousarray(job_option, np.int64),
            np.ascontiguousarray(job_key, np.uint64))


@dataclass(frozen=True)
class Budget:
    """How hard the searcher looks: ``rollouts`` per option at each decision, up to ``decisions`` per play; it leaves
    the base policy's answer only for an option whose paired gain over it exceeds ``z`` standard errors (with few
    rollouts, following the noisiest estimate lost more Gargoyle battles than it won: 35% against the tactician's
    67.5% over 40 battles at 16 rollouts and z = 0). The first ``screen`` rollouts of every option (``None``: a
    quarter of ``rollouts``) decide which play on (0: all play every rollout): at most DS:TBG decisions no option
    gains over the base answer, and those then cost a quarter of the rollouts. ``extend``: a close decision, where an
    option gained over the base answer without yet beating it by ``z`` standard errors, plays that option and the
    base answer on up to ``extend`` rollouts (0, or not more than ``rollouts``: never)."""

    rollouts: int = 16
    decisions: int = 512
    z: float = 2.0
    screen: int | None = None
    extend: int = 0

    @classmethod
    def from_values(cls, values: Mapping[str, float]) -> Budget:
        """The budget a searching policy's parameters name (``rollouts``, ``decisions``, ``z``, ``screen``,
        ``extend``); one it does not declare reads 1 rollout, z 0, no screen and no extension (an all-seeing
        searcher plays one rollout an option on the true state)."""
        return cls(rollouts=int(values.get("rollouts", 1)), decisions=int(values["decisions"]),
                   z=float(values.get("z", 0.0)), screen=int(values.get("screen", 0)),
                   extend=int(values.get("extend", 0)))

    def __post_init__(self) -> None:
        if not 0 <= self.z <= 10:
            raise ValueError(f"the switch threshold z must be 0 to 10 standard errors, got {self.z}")
        if not 1 <= self.rollouts <= MAX_ROLLOUTS:
            raise ValueError(f"rollouts per option must be 1 to {MAX_ROLLOUTS}, got {self.rollouts}")
        if not 0 <= self.extend <= MAX_ROLLOUTS:
            raise ValueError(f"extended rollouts must be 0 to {MAX_ROLLOUTS}, got {self.extend}")
        if self.screen is not None and not 0 <= self.screen <= MAX_ROLLOUTS:
            raise ValueError(f"screening rollouts must be 0 to {MAX_ROLLOUTS}, got {self.screen}")
        if not 0 <= self.decisions <= MAX_DECISIONS:
            raise ValueError(f"searched decisions per play must be 0 to {MAX_DECISIONS}, got {self.decisions}")

    def screening(self) -> int:
        """Rollouts every option plays before the screen (``rollouts`` when there is none)."""
        screen = self.rollouts // 4 if self.screen is None else self.screen
        return screen if 0 < screen < self.rollouts else self.rollouts


def base_param(bases: tuple[str, ...], default: int, text: str = "the scripted policy rolled out") -> Param:
    """A searcher's ``base`` parameter: the index into ``bases`` of the policy its rollouts play."""
    return Param("base", float(default), 0, len(bases) - 1,
                 f"{text}: " + ", ".join(f"{i} {n}" for i, n in enumerate(bases)), whole=True)


def rollouts_params(unit: str) -> tuple[Param, Param]:
    """A searcher's ``rollouts`` and ``decisions`` parameters (read by :meth:`Budget.from_values`); ``unit``: what
    one play is (a battle, a game)."""
    return (Param("rollouts", 16, 1, 1024, "rollouts per option at each decision", whole=True),
            Param("decisions", 512, 0, MAX_DECISIONS, f"decisions searched per {unit} (later ones: the base policy)",
                  whole=True))


def switch_params(z: float, screen: int | None = None, extend: int | None = None) -> tuple[Param, ...]:
    """A searcher's ``z`` and, where the game offers them (a default given), ``screen`` and ``extend`` parameters:
    when it leaves the base policy's answer and where it spends rollouts (read by :meth:`Budget.from_values`)."""
    params = [Param("z", z, 0.0, 10.0, "leave the base policy's answer only for an option better by more than z "
                    "standard errors of the paired difference")]
    if screen is not None:
        params.append(Param("screen", screen, 0, 1024, "rollouts every option plays first; only the base policy's "
                            "answer and the options that gained over it there play on to `rollouts` (0: every option "
                            "plays every rollout)", whole=True))
    if extend is not None:
        params.append(Param("extend", extend, 0, MAX_ROLLOUTS, "on a close decision (an option gained, not yet by z "
                            "standard errors) that option and the base policy's answer play on to this many rollouts "
                            "(0, or not more than `rollouts`: never)", whole=True))
    return tuple(params)


@dataclass(frozen=True)
class Estimate:
    """One searched decision of one play: each option's mean rollout value, its 95% half-width and its rollouts (the
    screen's for an option dropped there), the choice."""

    play: int
    depth: int
    hook: int
    base: int
    choice: int
    means: np.ndarray
    half_widths: np.ndarray
    rollouts: np.ndarray


@dataclass
class Search:
    """The searched plays: the value each reached, the decisions taken, and what it cost."""

    plays: np.ndarray
    values: np.ndarray
    prefixes: list[np.ndarray]
    decisions: int = 0
    rollouts: int = 0
    replays: int = 0
    estimates: list[Estimate] = field(default_factory=list)


_GAMMA = np.uint64(0x9E3779B97F4A7C15)


def _mix(z: np.ndarray) -> np.ndarray:
    """SplitMix64 finaliser over uint64 arrays (wrapping)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def rollout_keys(seed: int, plays: np.ndarray, depths: np.ndarray, rollouts: np.ndarray) -> np.ndarray:
    """The stream key of rollout ``r`` at decision ``depth`` of play ``p``: a hash of the four, never of the play's
    own stream, so two plays that differ only in what the players cannot see get the same rollouts. Every option of
    a decision is played on the same keys (common random numbers)."""
    with np.errstate(over="ignore"):
        k = _mix(np.full(len(plays), seed, np.uint64) + _GAMMA * np.uint64(5))
        k = _mix(k ^ (plays.astype(np.uint64) + _GAMMA))
        k = _mix(k ^ (depths.astype(np.uint64) + _GAMMA * np.uint64(2)))
        return _mix(k ^ (rollouts.astype(np.uint64) + _GAMMA * np.uint64(3)))


def _choose(values: np.ndarray, base: int, z: float) -> int:
    """The option to take from its rollout values (options × rollouts, common keys by column): the base policy's
    answer unless an option's mean paired gain over it exceeds ``z`` standard errors; then the best mean."""
    means = values.mean(axis=1)
    if not 0 <= base < len(values):
        return int(np.argmax(means))
    gain = values - values[base]
    r = values.shape[1]
    se = gain.std(axis=1, ddof=1) / np.sqrt(r) if r > 1 else np.zeros(len(values))
    better = gain.mean(axis=1) > np.maximum(z * se, 0.0) + 1e-12
    if not better.any():
        return base
    return int(np.flatnonzero(better)[np.argmax(means[better])])


def _rollout_values(replayer: Replayer, plays: np.ndarray, prefixes: np.ndarray, lengths: np.ndarray, seed: int,
                    fair: bool, pair_row: np.ndarray, pair_option: np.ndarray, r_lo: int, r_hi: int) -> np.ndarray:
    """Rollouts ``r_lo .. r_hi-1`` of each (play row, option) pair: values (pairs × rollouts), in calls of at most
    ``MAX_JOBS`` rollouts."""
    m = r_hi - r_lo
    job_row = np.repeat(pair_row, m)
    job_option = np.repeat(pair_option, m).astype(np.int64)
    job_r = np.tile(np.arange(r_lo, r_hi, dtype=np.int64), len(pair_row))
    keys = rollout_keys(seed, plays[job_row], lengths[job_row], job_r)
    vals = np.empty(len(job_row), np.float64)
    for lo in range(0, len(job_row), MAX_JOBS):
        hi = min(lo + MAX_JOBS, len(job_row))
        vals[lo:hi] = replayer.rollouts(plays, prefixes, lengths, job_row[lo:hi], job_option[lo:hi], keys[lo:hi], fair)
    return vals.reshape(len(pair_row), m)


def search(replayer: Replayer, plays: np.ndarray, budget: Budget, seed: int, fair: bool = True,
           record: bool = False, progress: Callable[[int], None] | None = None) -> Search:
    """Play ``plays`` choosing every decision (up to ``budget.decisions`` a play) by rollouts of the base policy.

    At a decision every option is played ``budget.screen`` times on common rollout keys (:func:`rollout_keys`
    from ``seed``); the base policy's answer and the options whose mean gain over it is positive there are played on
    to ``budget.rollouts`` (the others are dropped: where none gained, the base answer stands at the screen's cost);
    the base policy's own answer stands unless some option beats it, rollout by rollout, by more than
    ``budget.z`` standard errors of the paired difference: then the option of the highest mean is taken. The
    result is a pure function of the arguments (whatever the threads the game plays on). ``record`` keeps each
    decision's estimates (:class:`Estimate`); ``progress`` is told how many plays ended at each step."""
    plays = np.asarray(plays, np.int64)
    n = len(plays)
    r = budget.rollouts
    r1 = budget.screening()
    prefixes = np.zeros((n, max(budget.decisions, 1)), np.int32)
    lengths = np.zeros(n, np.int64)
    values = np.zeros(n, np.float64)
    live = np.arange(n)
    out = Search(plays, values, [])
    while len(live):
        adv = replayer.advance(plays[live], prefixes[live], lengths[live])
        out.replays += len(live)
        done = (adv.options == 0) | (lengths[live] >= budget.decisions)
        values[live[done]] = adv.value[done]
        if progress is not None and done.any():
            progress(int(done.sum()))
        asking = ~done
        rows = live[asking]
        if not len(rows):
            break
        k = adv.options[asking]
        base = adv.base[asking]
        first = np.cumsum(k) - k
        pair_row = np.repeat(np.arange(len(rows)), k)
        pair_option = np.arange(k.sum()) - np.repeat(first, k)
        step = (plays[rows], prefixes[rows], lengths[rows], seed, fair)
        width = max(r, budget.extend)
        grouped = np.full((len(pair_row), width), np.nan)
        grouped[:, :r1] = _rollout_values(replayer, *step, pair_row, pair_option, 0, r1)
        played = np.full(len(pair_row), r1)
        base_pair = (first + np.maximum(base, 0))[pair_row]
        for lo, hi in ((r1, r), (r, budget.extend)):  # the screen's survivors, then the close decisions
            if hi <= lo:
                continue
            active = played == lo
            counted = np.where(active[:, None], grouped[:, :lo], 0.0)
            gain = counted - counted[base_pair]
            mean = gain.sum(axis=1) / lo
            gained = active & (mean > 1e-12)
            if lo >= r:  # already decided where the gain passed the z test (a single rollout has no spread)
                se = np.sqrt(np.maximum((gain ** 2).sum(axis=1) / lo - mean ** 2, 0.0) * lo / max(lo - 1, 1) / lo)
                close = np.bincount(pair_row, gained & (mean > budget.z * se + 1e-12), len(rows)) == 0
                gained &= close[pair_row]
            any_gained = np.bincount(pair_row, gained.astype(np.float64), len(rows)) > 0
            on = gained | any_gained[pair_row] & (pair_option == base[pair_row])
            if on.any():
                grouped[on, lo:hi] = _rollout_values(replayer, *step, pair_row[on], pair_option[on], lo, hi)
                played[on] = hi
        out.rollouts += int(played.sum())
        out.replays += int(played.sum())
        out.decisions += len(rows)
        for i, row in enumerate(rows):
            mine = slice(first[i], first[i] + k[i])
            deepest = int(played[mine].max())
            full = np.flatnonzero(played[mine] == deepest)
            if r1 < r and deepest == r1 and 0 <= base[i] < k[i]:
                choice = int(base[i])  # nothing gained over the base answer in the screen
            else:
                choice = int(full[_choose(grouped[mine][full][:, :deepest], int(np.searchsorted(full, base[i]))
                                          if base[i] in full else -1, budget.z)])
            if record:
                counts = played[mine]
                m = np.array([grouped[first[i] + o, :counts[o]].mean() for o in range(k[i])])
                sd = np.array([grouped[first[i] + o, :counts[o]].std(ddof=1) if counts[o] > 1 else 0.0
                               for o in range(k[i])])
                out.estimates.append(Estimate(int(plays[row]), int(lengths[row]), int(adv.hook[asking][i]),
                                              int(base[i]), choice, m, 1.96 * sd / np.sqrt(counts), counts.copy()))
            prefixes[row, lengths[row]] = choice
            lengths[row] += 1
        live = live[~done]
    out.prefixes = [prefixes[i, :lengths[i]].copy() for i in range(n)]
    return out
