"""Learning a policy's choices from a stronger player's: a conditional logit fitted by maximum
likelihood, and the rounds of labelling that feed it (DAgger).

A *label* is one decision: a feature row per candidate (a float matrix, candidates x features)
and the index of the candidate the expert chose. The conditional logit gives candidate i the
probability softmax(table @ weights)_i; its weights maximise the labels' log-likelihood less an
L2 penalty (scipy's L-BFGS with the exact gradient). The policy then plays its likeliest
candidate. Labelled only in the expert's own positions, a learner meets positions the expert
never reached; DAgger (Ross, Gordon and Bagnell 2011) labels, in each further round, the
positions the learner itself reaches, and fits again on every label so far.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize

from workbench.checks import whole_number


@dataclass(frozen=True)
class Labels:
    """Decisions stacked for the likelihood: every candidate's feature row (``stacked``), the
    decision of each row (``group``) and each decision's chosen row (``chosen``)."""

    stacked: np.ndarray
    group: np.ndarray
    chosen: np.ndarray

    @classmethod
    def of(cls, tables: Sequence[np.ndarray], choices: Sequence[int]) -> Labels:
        """Labels from one feature table per decision and the chosen candidate's index."""
        if len(tables) != len(choices):
            raise ValueError(f"{len(tables)} tables but {len(choices)} choices")
        if not tables:
            raise ValueError("no labels: at least one decision is needed")
        sizes = np.array([len(table) for table in tables])
        if (sizes < 1).any():
            raise ValueError("every decision needs at least one candidate")
        index = np.asarray(choices, dtype=np.int64)
        if ((index < 0) | (index >= sizes)).any():
            raise ValueError("a chosen index is outside its decision's candidates")
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        return cls(np.concatenate(list(tables)), np.repeat(np.arange(len(sizes)), sizes),
                   starts + index)  # fmt: skip

    def __len__(self) -> int:
        return len(self.chosen)


def negative_log_likelihood(
    weights: np.ndarray, labels: Labels, penalty: float
) -> tuple[float, np.ndarray]:
    """The conditional logit's negative log-likelihood plus ``penalty`` / 2 x |weights|^2, with
    its gradient."""
    groups = len(labels)
    scores = labels.stacked @ weights
    top = np.full(groups, -np.inf)
    np.maximum.at(top, labels.group, scores)
    exps = np.exp(scores - top[labels.group])
    sums = np.zeros(groups)
    np.add.at(sums, labels.group, exps)
    log_likelihood = (scores[labels.chosen] - top - np.log(sums)).sum()
    residual = exps / sums[labels.group]
    residual[labels.chosen] -= 1.0
    value = -log_likelihood + 0.5 * penalty * weights @ weights
    return float(value), labels.stacked.T @ residual + penalty * weights


def fit_conditional_logit(labels: Labels, *, penalty: float = 1.0) -> np.ndarray:
    """The weights maximising the labels' penalised log-likelihood (a convex problem: one
    optimum, found from zero weights)."""
    start = np.zeros(labels.stacked.shape[1])
    result = minimize(negative_log_likelihood, start, args=(labels, penalty), jac=True,
                      method="L-BFGS-B")  # fmt: skip
    return result.x


def agreement(weights: np.ndarray, labels: Labels) -> float:
    """How often the logit's likeliest candidate (the first on a tie) is the chosen one."""
    scores = labels.stacked @ weights
    order = np.lexsort((np.arange(len(scores)), -scores, labels.group))
    first = np.ones(len(order), bool)
    first[1:] = labels.group[order[1:]] != labels.group[order[:-1]]
    return float(np.isin(order[first], labels.chosen).mean())


#: ``label_round(round, weights)`` -> (feature tables, chosen indices) of one round's decisions,
#: labelled in the positions the policy at ``weights`` reaches (None: before any fit).
LabelRound = Callable[[int, np.ndarray | None], tuple[list[np.ndarray], list[int]]]


def dagger(label_round: LabelRound, rounds: int, *, penalty: float = 1.0
           ) -> tuple[np.ndarray, list[dict[str, float]]]:  # fmt: skip
    """``rounds`` rounds of labelling and fitting on every label so far (module docstring): the
    final weights, and per round its labels, the total, and how often the weights before it
    agreed with its fresh labels (the held-out agreement; none for the first round)."""
    rounds = whole_number("rounds", rounds, low=1)
    tables: list[np.ndarray] = []
    choices: list[int] = []
    weights: np.ndarray | None = None
    history = []
    for round_ in range(rounds):
        new_tables, new_choices = label_round(round_, weights)
        entry = {"round": round_ + 1, "labels": len(new_choices)}
        if weights is not None and new_choices:
            entry["held_out_agreement"] = round(agreement(weights, Labels.of(new_tables,
                                                                             new_choices)), 4)
        tables += new_tables
        choices += new_choices
        labels = Labels.of(tables, choices)
        weights = fit_conditional_logit(labels, penalty=penalty)
        entry |= {"total": len(labels), "agreement": round(agreement(weights, labels), 4)}
        history.append(entry)
    assert weights is not None  # rounds >= 1
    return weights, history


__all__ = ["LabelRound", "Labels", "agreement", "dagger", "fit_conditional_logit",
           "negative_log_likelihood"]  # fmt: skip
