"""Information-set search shared by every game's ``search`` agent.

At each decision the agent fills in what it cannot see, uniformly over every filling consistent
with its observation (the game's sampler), plays each candidate action in those filled-in
positions, and lets fast playouts (the game's ``play_from`` with its ``fitted`` policy in every
seat) finish the game. Actions are compared by the agent's mean win share (ties split) and
chosen by sequential halving: the budget of playouts is spread over rounds, each round plays
every surviving action on the same fresh fillings and seeds (common random numbers) and keeps
the better half. It needs no tuning for new rules: the playouts follow the rules and the
fitted policy is fitted to them. A game with compiled search may stop its playouts earlier and
value where they stop (Auction House: the end of the deal, valued by the win chance the
scores leave).

``step_play_from`` plays continuations with the step engine: the readable reference each
game's compiled ``play_from`` is tested against, and the playouts of games without one.
``uniformity_p_value`` checks a sampler of hidden cards against exact enumeration.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from workbench.checks import whole_number
from workbench.kit.policies import resolve_mixtures
from workbench.kit.seeding import SeedLike, generator, seed_sequence
from workbench.kit.selfplay import playing_agent

#: ``play_from(states, agents, *, playouts, seed)`` -> final scores, (states, playouts, seats).
PlayFrom = Callable[..., np.ndarray]


@dataclass(frozen=True)
class Searching:
    """What a game supplies for its ``search`` agent."""

    #: ``sample_states(observation, rng, count)`` -> ``count`` States consistent with the
    #: observation, each filling of the hidden cards equally likely.
    sample_states: Callable[[Any, np.random.Generator, int], list[Any]]
    play_from: PlayFrom
    #: ``rollout_agents(rules)`` -> one agent per seat for the playouts; None: the agent's
    #: ``model`` (what it takes the other seats to play) at every seat.
    rollout_agents: Callable[[Any], list[Any]] | None
    #: ``candidates(observation, legal_actions)`` -> the actions worth searching (None: all).
    candidates: Callable[[Any, Sequence[Any]], Sequence[Any]] | None = None
    #: ``win_shares(scores)`` -> each seat's share of the win (last axis: seats).
    win_shares: Callable[[np.ndarray], np.ndarray] | None = None
    #: Playouts per decision when the agent is made without a budget.
    budget: int = 64
    #: When > 0, the search is anchored: its candidates list the playout policy's own choice
    #: first, and another replaces it only with at least this much more mean win share (the
    #: agent's ``margin`` when made without one). A table of searches, each assuming the others
    #: play the policy, then leaves the policy's play only where a deviation clearly pays.
    anchor_margin: float = 0.0


def split_wins(scores: np.ndarray) -> np.ndarray:
    """Each seat's share of the win: 1 / (number of top scores) for a top score, else 0."""
    top = scores == scores.max(axis=-1, keepdims=True)
    return top / top.sum(axis=-1, keepdims=True)


class SearchAgent:
    """Determinized search with sequential halving (see the module docstring); ``budget`` is
    the number of playouts per decision. ``model``: the agent it takes every seat to play in
    its playouts (a game's record gives it the reference agent, ``fitted``); its policy is
    made for the rules of the game being played (read from the observation), so one agent
    serves any rule set. ``margin``: the anchored search's margin (``Searching.anchor_margin``
    when None)."""

    name = "search"

    def __init__(
        self, searching: Searching, budget: int | None = None, margin: float | None = None,
        model: Any = None,
    ) -> None:  # fmt: skip
        budget = searching.budget if budget is None else budget
        self.budget = whole_number("search budget", budget, low=1, high=10**7)
        if margin is not None:
            number = isinstance(margin, int | float) and not isinstance(margin, bool)
            if not number or not 0 <= margin < math.inf:
                raise ValueError(f"search margin must be a number >= 0, got {margin!r}")
            margin = float(margin)
        self._margin = margin
        if model is None and searching.rollout_agents is None:
            raise TypeError(
                f"{type(self).__name__} needs the model it plays the other seats by: make it "
                "with the game's make_agent('search') (the reference agent) or pass model="
            )
        self.model = model
        self.searching = searching
        self._rollouts: dict[Any, list[Any]] = {}
        self._compiled_rollouts: dict[Any, Any] = {}

    @property
    def margin(self) -> float:
        """The win share another candidate must gain over the anchor to replace it."""
        return self.searching.anchor_margin if self._margin is None else self._margin

    def __repr__(self) -> str:
        return f"{type(self).__name__}(budget={self.budget})"

    def __call__(self, observation: Any, legal_actions: Sequence[Any], rng: np.random.Generator):
        actions, anchored = self.choices(observation, legal_actions, rng)
        if len(actions) == 1:
            return actions[0]
        prior = None
        if anchored and self.margin > 0:
            prior = [self.margin] + [0.0] * (len(actions) - 1)
        chosen, _values = self.evaluate(observation, actions, rng, prior)
        return actions[chosen]

    def choices(
        self, observation: Any, legal_actions: Sequence[Any], rng: np.random.Generator
    ) -> tuple[list[Any], bool]:
        """The actions to search (the game's ``candidates``; None: every legal action), and
        whether the first is the playout policy's own choice, the anchor (``anchor_margin``
        > 0). A game whose anchor is drawn (a randomised policy) overrides this."""
        searching = self.searching
        actions = list(
            legal_actions if searching.candidates is None
            else searching.candidates(observation, legal_actions)
        )  # fmt: skip
        return actions, searching.anchor_margin > 0

    def rollout_agents(self, rules: Any) -> list[Any]:
        """The playouts' agents for ``rules``: the game's ``Searching.rollout_agents`` where it
        has them (a game may adjust its model's policy for playouts), else the model's policy
        at every seat; made once per rule set."""
        if rules not in self._rollouts:
            self._rollouts[rules] = (
                self.searching.rollout_agents(rules) if self.searching.rollout_agents
                else [playing_agent(self.model, rules)] * rules.players
            )  # fmt: skip
        return self._rollouts[rules]

    def compiled_rollouts(self, rules: Any) -> Any:
        """The playouts' agents for ``rules`` as the game's compiled playouts read them
        (``compile_rollouts``), made once per rule set."""
        if rules not in self._compiled_rollouts:
            agents = self.rollout_agents(rules)
            self._compiled_rollouts[rules] = self.compile_rollouts(rules, agents)
        return self._compiled_rollouts[rules]

    def compile_rollouts(self, rules: Any, agents: Sequence[Any]) -> Any:
        """The playouts' ``agents`` in the form a game's compiled ``evaluate`` reads (its
        policies' kinds and parameters, say); a game with compiled playouts overrides it."""
        raise NotImplementedError(f"{type(self).__name__} has no compiled playouts")

    def evaluate(
        self, observation: Any, actions: Sequence[Any], rng: np.random.Generator,
        prior: Sequence[float] | None = None,
    ) -> tuple[int, np.ndarray]:  # fmt: skip
        """The index of the action sequential halving keeps (``prior``: a win-share bonus per
        action, see ``sequential_halving``), and every action's mean win share over the
        playouts it got (actions dropped early got fewer)."""
        seat, agents = observation.player, self.rollout_agents(observation.rules)
        shares = self.searching.win_shares or split_wins

        def play_round(alive: list[int], fillings: int) -> tuple[list[float], None]:
            states = self.searching.sample_states(observation, rng, fillings)
            seed = int(rng.integers(2**63))
            sums = []
            for index in alive:
                after = [state.apply(actions[index]) for state in states]
                scores = self.searching.play_from(after, agents, playouts=1, seed=seed)
                sums.append(float(shares(scores)[..., seat].sum()))
            return sums, None

        return sequential_halving(len(actions), self.budget, play_round, prior=prior)


#: ``play_round(alive, fillings)`` -> (each alive candidate's summed win share over the round's
#: ``fillings`` playouts, and optionally a summed tie-break score for each, or None).
PlayRound = Callable[[list[int], int], tuple[Sequence[float], Sequence[float] | None]]


@numba.njit(cache=True)
def halving_rounds(candidates: int) -> int:
    """Rounds of sequential halving over ``candidates``: ceil(log2 n), at least one."""
    rounds = 1
    while (1 << rounds) < candidates:
        rounds += 1
    return rounds


@numba.njit(cache=True)
def round_fillings(budget: int, alive: int, rounds_left: int) -> int:
    """Playouts each of ``alive`` candidates gets this round: its share of the ``budget`` left
    to ``rounds_left`` rounds, at least one."""
    return max(1, budget // (alive * rounds_left))


@numba.njit(cache=True)
def survivors(alive: int) -> int:
    """How many of ``alive`` candidates a round keeps: the better half, rounded up."""
    return (alive + 1) // 2


# The kit's own (Python) halving runs their plain Python (a numba call from Python costs more
# than the arithmetic); a game's compiled halving calls them compiled: one schedule for both.
_halving_rounds, _round_fillings, _survivors = (
    halving_rounds.py_func, round_fillings.py_func, survivors.py_func,
)  # fmt: skip


def prior_bonuses(prior: Sequence[float] | None, candidates: int) -> list[float]:
    """Each candidate's win-share bonus in the halving (``prior``; None: none), one per
    candidate or a ValueError."""
    bonus = [0.0] * candidates if prior is None else [float(b) for b in prior]
    if len(bonus) != candidates:
        raise ValueError(f"prior needs one bonus per candidate ({candidates}), got {len(bonus)}")
    return bonus


def sequential_halving(
    candidates: int, budget: int, play_round: PlayRound, tie_weight: float = 0.0,
    prior: Sequence[float] | None = None,
) -> tuple[int, np.ndarray]:  # fmt: skip
    """Sequential halving over ``candidates`` with ``budget`` playouts: ceil(log2 n) rounds, each
    giving every surviving candidate budget / (alive x rounds left) playouts (at least one) and
    keeping the better half by mean win share (plus ``tie_weight`` x the mean tie-break score,
    plus the candidate's ``prior`` bonus if given: another candidate must beat it by that
    much; equal means keep their order). The kept index, and every candidate's mean win share
    over the playouts it got. Plain floats: a handful of candidates, where numpy costs more than
    the sums (the same IEEE operations, and a stable sort as ``np.argsort(kind="stable")``)."""
    rounds = _halving_rounds(candidates)
    total, count, ties = [0.0] * candidates, [0] * candidates, [0.0] * candidates
    bonus = prior_bonuses(prior, candidates)
    alive = list(range(candidates))
    for round_index in range(rounds):
        fillings = _round_fillings(budget, len(alive), rounds - round_index)
        shares, tie_scores = play_round(alive, fillings)
        for j, index in enumerate(alive):
            total[index] += float(shares[j])
            count[index] += fillings
            if tie_scores is not None:
                ties[index] += float(tie_scores[j])
        mean = [(total[i] + ties[i] * tie_weight) / count[i] + bonus[i] for i in alive]
        keep = _survivors(len(alive))
        alive = [alive[j] for j in sorted(range(len(alive)), key=lambda j: -mean[j])[:keep]]
        if len(alive) == 1:
            break
    return alive[0], np.array(total) / np.maximum(count, 1)


def _iterable(value: Any) -> Iterable[Any]:
    """``value`` if it can be iterated over (not text), else nothing (a check then says so)."""
    return value if isinstance(value, Iterable) and not isinstance(value, str) else ()


def step_play_from(
    states: Any,
    agents: Sequence[Any],
    *,
    playouts: int,
    seed: SeedLike,
    scores: Callable[[Any], Sequence[float]] = lambda state: state.result().scores,
) -> np.ndarray:
    """Play ``playouts`` continuations of each State to the end with the step engine; final
    ``scores`` with shape (states, playouts, seats). Playout p of state i draws seat s's
    randomness from sub-stream (i, p, s) of ``seed``; a mixed seat plays the component of game
    p of the run (``seed``, i), as ``PolicyTable.playout_assignment`` draws it."""
    given = states
    states = [states] if hasattr(states, "legal_actions") else list(_iterable(states))
    if not states or not all(hasattr(state, "legal_actions") for state in states):
        raise TypeError(f"states must be a State or a non-empty sequence of them, got {given!r}")
    playouts = whole_number("playouts", playouts, low=1)
    out = None
    for i, start in enumerate(states):
        for p in range(playouts):
            rngs = [generator(seed_sequence(seed, i, p, s)) for s in range(len(agents))]
            seated = resolve_mixtures(agents, seed_sequence(seed, i, p))
            state = start
            while (player := state.to_play) is not None:
                action = seated[player](state.observation(player), state.legal_actions(),
                                        rngs[player])  # fmt: skip
                state = state.apply(action)
            final = np.asarray(scores(state), dtype=float)
            if out is None:
                out = np.empty((len(states), playouts, len(final)))
            out[i, p] = final
    assert out is not None
    return out


def uniformity_p_value(
    samples: Iterable[Hashable], consistent: Iterable[Hashable] | Mapping[Hashable, int]
) -> float:
    """Chi-square goodness-of-fit p-value of ``samples`` against the uniform distribution over
    every consistent filling (exact enumeration). ``consistent`` lists the fillings, or maps
    each to how many equally likely fillings it stands for (identical cards: the two 2s give
    one value-level filling two ways). A sample outside it fails at once."""
    from scipy.stats import chisquare

    weights = (
        dict(consistent) if isinstance(consistent, Mapping)
        else dict.fromkeys(consistent, 1)
    )  # fmt: skip
    counts = Counter(samples)
    stray = set(counts) - set(weights)
    if stray:
        raise AssertionError(f"the sampler drew fillings that are not consistent: {stray}")
    if len(weights) == 1:
        return 1.0
    observed = np.array([counts[key] for key in weights], dtype=float)
    expected = np.array(list(weights.values()), dtype=float)
    expected *= observed.sum() / expected.sum()
    return float(chisquare(observed, expected).pvalue)


__all__ = [
    "PlayFrom", "PlayRound", "SearchAgent", "Searching", "halving_rounds", "prior_bonuses",
    "round_fillings", "sequential_halving", "split_wins", "step_play_from", "survivors",
    "uniformity_p_value",
]  # fmt: skip
