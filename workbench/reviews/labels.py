"""A reviewed decision's label, from its loss of win chance and that loss's 95% interval.

The thresholds are on the loss: the win chance (share of a win, 0 to 1) the action taken gave
up against the best action evaluated. ``docs/review.md`` states them and why.

An estimate's interval can straddle a threshold. The label says only what the interval
supports: it is the label of the interval's low end, the mildest the playouts allow, so noise
never makes an action look worse than it is shown to be; ``label_high``, the label of the
interval's high end, is the harshest they allow. When the two agree the label is sure (at 95%);
when they differ, the truth lies between them ("good, perhaps a mistake").
"""

from __future__ import annotations

import math

#: Labels, mildest first.
LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")
#: The least loss of win chance each label after "good" needs (a share of a win).
THRESHOLDS = {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}


def label_of(loss: float) -> str:
    """The label of a loss of win chance (never "best": that is the best action's own)."""
    if not isinstance(loss, int | float) or isinstance(loss, bool) or math.isnan(loss):
        raise ValueError(f"a loss must be a number, got {loss!r}")
    found = "good"
    for name, threshold in THRESHOLDS.items():
        if loss >= threshold:
            found = name
    return found


def labels(is_best: bool, low: float, high: float) -> tuple[str, str]:
    """(label, label_high) of a decision: "best" for both when the action taken was the best
    evaluated; else the labels of the loss interval's low and high ends."""
    if is_best:
        return "best", "best"
    return label_of(low), label_of(high)


def thresholds_text() -> str:
    """The thresholds in a line (for captions and the docs' table)."""
    parts = [f"{name} >= {threshold:g}" for name, threshold in THRESHOLDS.items()]
    return "loss of win chance: good < " + f"{THRESHOLDS['inaccuracy']:g}, " + ", ".join(parts)


__all__ = ["LABELS", "THRESHOLDS", "label_of", "labels", "thresholds_text"]
