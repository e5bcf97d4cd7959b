"""Game review: every decision of a seat scored by the win chance it gave up, with an interval
and a label (``review``); where players lose most over many reviewed games (``loss_by``); the
charts and the table's review view and hint build on these.

``workbench.review`` is ``review`` (this package is ``reviews``: a package named ``review``
would replace the function on ``workbench`` once imported). How a review works and the labels'
thresholds: ``docs/review.md``.
"""

from workbench.lazy import lazy_exports
from workbench.reviews.core import (
    ALL_LEGAL,
    DEFAULT_BUDGETS,
    REVIEW_STREAM,
    Review,
    default_budget,
    played_game,
    review,
    review_details,
)
from workbench.reviews.labels import LABELS, THRESHOLDS, label_of

__getattr__ = lazy_exports(
    globals(),
    {
        "workbench.reviews.summary": ("decisions_by", "loss_by", "review_games", "total_loss"),
        "workbench.reviews.hint": ("hint",),
        "workbench.reviews.charts": ("loss_chart", "track_chart", "where_lost_chart"),
    },
)

__all__ = [
    "ALL_LEGAL",
    "DEFAULT_BUDGETS",
    "LABELS",
    "REVIEW_STREAM",
    "THRESHOLDS",
    "Review",
    "decisions_by",
    "default_budget",
    "hint",
    "label_of",
    "loss_by",
    "loss_chart",
    "played_game",
    "review",
    "review_details",
    "review_games",
    "total_loss",
    "track_chart",
    "where_lost_chart",
]
