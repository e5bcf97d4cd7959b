"""The kit's imitation learning (``workbench.kit.imitation``): the conditional logit's
likelihood against a brute-force sum, its gradient against finite differences, weights
recovered from choices drawn from a known logit, agreement with ties, and DAgger's rounds."""

from __future__ import annotations

import math

import numpy as np
import pytest

from workbench.kit.imitation import (
    Labels,
    agreement,
    dagger,
    fit_conditional_logit,
    negative_log_likelihood,
)
from workbench.kit.seeding import generator


def random_decisions(rng: np.random.Generator, decisions: int, features: int,
                     weights: np.ndarray | None = None) -> tuple[list, list]:  # fmt: skip
    """Feature tables of 1 to 6 candidates; choices uniform, or drawn from the logit at
    ``weights``."""
    tables, choices = [], []
    for _ in range(decisions):
        table = rng.normal(size=(int(rng.integers(1, 7)), features))
        if weights is None:
            choice = int(rng.integers(len(table)))
        else:
            p = np.exp(table @ weights - (table @ weights).max())
            choice = int(rng.choice(len(table), p=p / p.sum()))
        tables.append(table)
        choices.append(choice)
    return tables, choices


def test_the_likelihood_is_the_sum_of_each_decisions_log_softmax():
    rng = generator(1)
    tables, choices = random_decisions(rng, 40, 3)
    weights, penalty = rng.normal(size=3), 0.7
    expected = 0.5 * penalty * weights @ weights
    for table, choice in zip(tables, choices, strict=True):
        scores = [float(row @ weights) for row in table]
        expected -= scores[choice] - math.log(sum(math.exp(s) for s in scores))
    value, _ = negative_log_likelihood(weights, Labels.of(tables, choices), penalty)
    assert value == pytest.approx(expected, rel=1e-12)


def test_the_gradient_matches_finite_differences():
    rng = generator(2)
    labels = Labels.of(*random_decisions(rng, 60, 4))
    weights, step = rng.normal(size=4), 1e-6
    _, gradient = negative_log_likelihood(weights, labels, 0.3)
    for i in range(4):
        up, down = weights.copy(), weights.copy()
        up[i] += step
        down[i] -= step
        numeric = (negative_log_likelihood(up, labels, 0.3)[0]
                   - negative_log_likelihood(down, labels, 0.3)[0]) / (2 * step)  # fmt: skip
        assert gradient[i] == pytest.approx(numeric, rel=1e-5, abs=1e-6)


def test_weights_are_recovered_from_choices_drawn_from_a_known_logit():
    rng = generator(3)
    truth = np.array([1.5, -0.8, 0.0, 0.4])
    labels = Labels.of(*random_decisions(rng, 20_000, 4, truth))
    fitted = fit_conditional_logit(labels, penalty=1e-6)
    # 20,000 decisions: each weight's standard error is about 0.01
    np.testing.assert_allclose(fitted, truth, atol=0.06)


def test_agreement_counts_the_likeliest_candidate_the_first_on_a_tie():
    tables = [np.array([[0.0], [1.0], [1.0]]), np.array([[2.0], [0.0]]), np.array([[5.0]])]
    weights = np.array([1.0])
    assert agreement(weights, Labels.of(tables, [1, 0, 0])) == 1.0
    assert agreement(weights, Labels.of(tables, [2, 0, 0])) == pytest.approx(2 / 3)
    assert agreement(-weights, Labels.of(tables, [0, 1, 0])) == 1.0


@pytest.mark.parametrize(
    ("tables", "choices", "message"),
    [
        ([], [], "no labels"),
        ([np.zeros((2, 1))], [0, 1], "1 tables but 2 choices"),
        ([np.zeros((2, 1))], [2], "outside"),
        ([np.zeros((0, 1))], [0], "at least one candidate"),
    ],
)
def test_bad_labels_get_a_clear_error(tables, choices, message):
    with pytest.raises(ValueError, match=message):
        Labels.of(tables, choices)


def test_dagger_labels_each_round_with_the_weights_so_far_and_fits_on_every_label():
    rng = generator(4)
    truth = np.array([1.0, -1.0])
    seen = []

    def label_round(round_, weights):
        seen.append(None if weights is None else weights.copy())
        return random_decisions(rng, 500, 2, truth)

    weights, history = dagger(label_round, 3, penalty=1e-3)
    assert seen[0] is None and all(w is not None for w in seen[1:])
    assert [entry["labels"] for entry in history] == [500, 500, 500]
    assert [entry["total"] for entry in history] == [500, 1000, 1500]
    assert "held_out_agreement" not in history[0]
    assert all(0 < entry["held_out_agreement"] <= 1 for entry in history[1:])
    np.testing.assert_allclose(weights, truth, atol=0.25)
    with pytest.raises(ValueError, match="rounds"):
        dagger(label_round, 0)
