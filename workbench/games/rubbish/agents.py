"""Rubbish Auction's hand-written agents, weakest to strongest. The random and heuristic agents
are compiled policies (``compiled_policy()``): both engines play the same compiled choice."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from workbench.checks import real_number, whole_number
from workbench.games.rubbish import policies
from workbench.games.rubbish.cards import bid_table, bid_weights
from workbench.games.rubbish.compiled import Positions, call_direct, standings
from workbench.games.rubbish.engine import Action, Auction, Observation
from workbench.games.rubbish.positions import (
    action_arrays,
    decisions_left,
    observed_position,
    play_positions,
    positions_of_observation,
    repeat_positions,
    tables_for,
)
from workbench.games.rubbish.sampling import destined_won_by_geek
from workbench.kit.lineup import agent_repr
from workbench.kit.policies import CompiledPolicy
from workbench.kit.responses import Parameter


class CompiledAgent:
    """A compiled policy (``kind``, ``parameters()``): the compiled loop plays it; its step call
    runs the same choice on the observed game with one uniform drawn from ``rng``."""

    name = "agent"
    kind = policies.RANDOM
    __repr__ = agent_repr

    def parameters(self) -> np.ndarray:
        """The policy's parameter vector (float64)."""
        return np.zeros(0)

    def compiled_policy(self) -> CompiledPolicy:
        """The policy as the compiled loop plays it."""
        return CompiledPolicy(self.kind, tuple(float(v) for v in self.parameters()))

    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        _require_choice(observation, legal_actions)
        return self.choose(observation, rng.random())

    def choose(self, observation: Observation, u: float) -> Action:
        """The action the compiled policy takes in ``observation`` given the uniform ``u``."""
        rules = observation.rules
        positions = observed_position(observation)
        parameters = np.ascontiguousarray(self.parameters(), dtype=np.float64)
        a, b = call_direct(
            policies.choose_one, int(self.kind), parameters, tables_for(rules), positions, float(u)
        )
        if observation.phase == "auction":
            return Auction(int(a), int(b))
        option = int(positions.lock[0, observation.player])
        return bid_table(rules.money_cards).bids[option][int(a)]


class RandomAgent(CompiledAgent):
    """Uniformly random among the legal actions (the baseline every other agent must beat)."""

    name = "random"
    kind = policies.RANDOM

    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        # The compiled choice on one game (a test checks the two agree).
        _require_choice(observation, legal_actions)
        return legal_actions[int(rng.random() * len(legal_actions))]

    def action_probabilities(
        self, observation: Observation, legal_actions: Sequence[Action]
    ) -> dict[Action, float]:
        """Exact: uniform over the legal actions."""
        return {action: 1 / len(legal_actions) for action in legal_actions}


class HeuristicAgent(CompiledAgent):
    """The rulebook's hints as a policy of four parameters (its vector, in this order):
    ``max_wanted_bid`` (15): on a wanted item, the cheapest bid that surely wins if it costs at
    most this, else its best bid up to it; ``gain_share`` (0.5): on an unwanted item, about this
    share of its usable money, below the most any opponent could bid; ``cheapskate_share``
    (0.7) after being the cheapskate, ``last_round_share`` (0.9) in the last round. Auctioneer:
    an item destined to its geek, naming itself First Bidder, else a random unwanted item."""

    name = "heuristic"
    kind = policies.HEURISTIC
    #: The constructor's parameters with their defaults and ranges, in the vector's order (what
    #: a best response re-fits, and the fitted policy's space).
    SPACE = (
        Parameter("max_wanted_bid", 15, 0, 40), Parameter("gain_share", 0.5, 0.0, 1.0),
        Parameter("cheapskate_share", 0.7, 0.0, 1.0), Parameter("last_round_share", 0.9, 0.0, 1.0),
    )  # fmt: skip
    PARAMETERS = tuple(parameter.name for parameter in SPACE)

    def __init__(
        self, max_wanted_bid: int = 15, gain_share: float = 0.5, cheapskate_share: float = 0.7,
        last_round_share: float = 0.9,
    ) -> None:  # fmt: skip
        self.max_wanted_bid = whole_number(
            "HeuristicAgent max_wanted_bid", max_wanted_bid, low=0, allowed="a whole number >= 0"
        )
        shares = (gain_share, cheapskate_share, last_round_share)
        for name, share in zip(self.PARAMETERS[1:], shares, strict=True):
            setattr(self, name, real_number(f"HeuristicAgent {name}", share, low=0, high=1))

    def parameters(self) -> np.ndarray:
        """``PARAMETERS`` as a float64 vector."""
        return np.array([float(getattr(self, name)) for name in self.PARAMETERS])

    def action_probabilities(
        self, observation: Observation, legal_actions: Sequence[Action]
    ) -> dict[Action, float]:
        """Exact: bids are deterministic; an auctioneer with no wanted item picks uniformly."""
        if observation.phase == "bid":
            return {self.choose(observation, 0.0): 1.0}
        destined = set(observation.destined)
        if any(item in destined for item in observation.remaining):
            return {self.choose(observation, 0.0): 1.0}
        first = (observation.player + 1) % observation.rules.players
        items = observation.remaining
        return {Auction(item, first): 1 / len(items) for item in items}


class FittedPolicy(HeuristicAgent):
    """The heuristic's policy with any parameter vector: what the ``fitted`` agent plays."""

    name = "fitted policy"

    def __init__(self, vector: Sequence[float]) -> None:
        values = np.asarray(vector, dtype=np.float64).ravel()
        if (
            len(values) != len(self.PARAMETERS)
            or not np.all(np.isfinite(values))
            or values[0] < 0
            or not np.all((values[1:] >= 0) & (values[1:] <= 1))
        ):
            raise ValueError(
                f"FittedPolicy vector must hold {len(self.PARAMETERS)} finite numbers "
                f"({', '.join(self.PARAMETERS)}): max_wanted_bid >= 0, the shares in [0, 1]; "
                f"got {list(vector)!r}"
            )
        self.vector = tuple(float(v) for v in values)

    def parameters(self) -> np.ndarray:
        """The parameter vector as float64."""
        return np.array(self.vector)


def _require_choice(observation: object, legal_actions: Sequence[Action]) -> None:
    """Agents choose for the seat to play, among at least one legal action."""
    if not isinstance(observation, Observation):
        raise TypeError(f"observation must be an engine Observation, got {observation!r}")
    if observation.to_play != observation.player or not len(legal_actions):
        raise ValueError(
            f"seat {observation.player} has nothing to choose (phase {observation.phase!r}, seat "
            f"{observation.to_play} to play, {len(legal_actions)} legal actions)"
        )


class SamplingAgent:
    """Plays every legal action in ``samples`` worlds drawn consistent with its observation to
    the end with ``rollout`` agents; takes the best mean win share, then score margin."""

    name = "sampling"
    __repr__ = agent_repr

    def __init__(self, samples: int = 24, rollout: CompiledAgent | None = None) -> None:
        self.samples = whole_number("SamplingAgent samples", samples, low=1)
        if rollout is None:
            rollout = HeuristicAgent()
        elif not isinstance(rollout, CompiledAgent):
            raise TypeError(
                "SamplingAgent rollout must be a compiled agent (one the fast engine plays), "
                f"e.g. HeuristicAgent(); got {rollout!r}"
            )
        self.rollout = rollout

    def __call__(
        self, observation: Observation, legal_actions: Sequence[Action], rng: np.random.Generator
    ) -> Action:
        _require_choice(observation, legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        rules, me, worlds = observation.rules, observation.player, self.samples
        candidates = len(legal_actions)
        # row = candidate * worlds + world
        positions = repeat_positions(sample_worlds(observation, worlds, rng), candidates, tile=True)
        auction, a, b = action_arrays(observation, legal_actions)
        a, b = np.repeat(a, worlds), np.repeat(b, worlds)
        if auction:
            positions.item[:], positions.first[:], positions.position[:] = a, b, 0
        else:
            positions.bid_index[:, me], positions.held[:, me] = a, b
            positions.position[:] += 1
        uniforms = rng.random((decisions_left(rules, positions), len(positions.fame)))
        play_positions(rules, positions, [self.rollout] * rules.players, uniforms)
        scores, _, share = standings(tables_for(rules), positions)
        margin = (scores[:, me] - np.delete(scores, me, axis=1).max(axis=1)).reshape(candidates, -1)
        wins = share[:, me].reshape(candidates, -1).mean(axis=1)
        return legal_actions[int(np.argmax(wins * 1000 + margin.mean(axis=1)))]


def sample_worlds(observation: Observation, worlds: int, rng: np.random.Generator) -> Positions:
    """``worlds`` copies of the observed game with the other seats' geeks (a permutation each)
    and this round's hidden bids (weighed as ``cards.bid_weights`` says) drawn."""
    rules, me = observation.rules, observation.player
    positions = repeat_positions(positions_of_observation(observation), worlds)
    pool, geek = [g for g in range(len(rules.geeks)) if g != observation.geek], observation.geek
    for w in range(worlds):
        positions.geek[w] = np.insert(rng.permutation(pool)[: rules.players - 1], me, geek)
    destined = destined_won_by_geek(observation)
    for seat in range(rules.players):
        positions.destined_won[:, seat] = destined[seat, positions.geek[:, seat]]
    if observation.phase == "bid":
        table = bid_table(rules.money_cards)
        peek = observation.peek
        for earlier in observation.order[: observation.order.index(me)]:
            option = int(positions.lock[0, earlier])
            evidence = (peek.card, peek.source) if peek and peek.target == earlier else None
            options = bid_weights(table.available[option], observation.held_out[earlier], evidence)
            weights = np.array([w for _, w in options])
            drawn = rng.choice(len(options), size=worlds, p=weights / weights.sum())
            index = np.array([table.index[option][bid] for bid, _ in options])
            positions.bid_index[:, earlier] = index[drawn]
    return positions


__all__ = [
    "CompiledAgent", "FittedPolicy", "HeuristicAgent", "RandomAgent", "SamplingAgent",
    "sample_worlds",
]  # fmt: skip
