"""Findings you can trust: sentences written from the numbers, and checks that fail with the
sentence itself when the numbers stop supporting it.

A notebook states a finding in one of two ways (``notebooks/README.md``, "Claims as code"):
**written by code** (``leader``, ``change``, ``difference`` and ``verdict`` turn a frame with
intervals into a ``Finding``, shown as prose that nbval compares), or **written by hand and
checked** (``check(sentence, *conditions)`` raises ``FindingNotSupported`` quoting the
sentence and the condition that failed; conditions come from ``Estimate`` or ``that``).

The rules every sentence here follows:

- an estimate is quoted with its interval and its sample size, and every finding about play
  names the line-up it was measured with (``under=``);
- a difference is *measurable* when its interval excludes 0; otherwise it is "not measurable
  on n games", never "equal" (unless an equivalence margin was set and every interval lies
  within it);
- two separate estimates are *told apart* when their intervals do not overlap. For independent
  estimates that is stricter than a test at the intervals' own level, so "cannot be told apart"
  means "not shown to differ": the weaker true sentence.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import polars as pl

#: The confidence of the intervals the workbench's frames carry.
CONFIDENCE = 0.95
MINUS = "\N{MINUS SIGN}"
#: Columns tried, in order, for a row's sample size when none is named.
SAMPLE_SIZE_COLUMNS = ("n", "games", "seat_deals", "deals")


# -- numbers as text -----------------------------------------------------------------------


def number(value: float | None, digits: int = 3, *, signed: bool = False) -> str:
    """``value`` rounded to ``digits`` decimals, thousands separated, a true minus sign; a
    leading + when ``signed`` and positive; no sign on a value that rounds to 0."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "undefined"
    magnitude = f"{abs(value):,.{digits}f}"
    if float(magnitude.replace(",", "")) == 0:
        return magnitude
    if value < 0:
        return MINUS + magnitude
    return ("+" if signed else "") + magnitude


def count(value: int) -> str:
    """A whole number with thousands separators: 20,000."""
    return f"{int(value):,}"


def interval(low: float, high: float, digits: int = 3, *, signed: bool = False) -> str:
    """An interval's ends: '0.578–0.592', or '−0.093 to +0.243' when signs matter."""
    if signed or low < 0 or high < 0:
        return f"{number(low, digits, signed=True)} to {number(high, digits, signed=True)}"
    return f"{number(low, digits)}–{number(high, digits)}"


def percent(confidence: float) -> str:
    """0.95 -> '95%', 0.98333 -> '98.33%'."""
    return f"{confidence * 100:.4g}%"


# -- conditions and checks -----------------------------------------------------------------


@dataclass(frozen=True)
class Condition:
    """One requirement a sentence rests on, with what it compared (for the failure message)."""

    holds: bool
    says: str

    def __bool__(self) -> bool:
        return self.holds


def that(holds: Any, says: str) -> Condition:
    """A condition of any kind: ``holds`` is its truth, ``says`` what it requires (with the
    numbers compared, so a failure explains itself)."""
    return Condition(bool(holds), says)


class FindingNotSupported(AssertionError):
    """A hand-written sentence whose numbers no longer support it: the message quotes it."""

    def __init__(self, sentence: str, failed: list[str]) -> None:
        self.sentence, self.failed = sentence, failed
        reasons = "\n".join(f"  - {reason}" for reason in failed)
        super().__init__(
            f"The numbers no longer support this sentence:\n\n    {sentence}\n\n"
            f"It rests on what no longer holds:\n{reasons}\n"
            "Rewrite the sentence from the new numbers (or write it with workbench.findings)."
        )


def check(sentence: str, *conditions: Condition | bool) -> None:
    """Raise ``FindingNotSupported`` quoting ``sentence`` if any condition fails; nothing
    otherwise (the cell shows no output). Give one condition per claim the sentence makes."""
    if not isinstance(sentence, str) or not sentence.strip():
        raise ValueError("check needs the sentence it checks, as written in the notebook")
    if not conditions:
        raise ValueError(f"check({sentence[:40]!r}...) needs at least one condition")
    failed = []
    for position, condition in enumerate(conditions, start=1):
        if isinstance(condition, Condition):
            holds, says = condition.holds, condition.says
        elif isinstance(condition, bool) or type(condition).__name__ == "bool_":
            holds, says = bool(condition), f"condition {position} of {len(conditions)}"
        else:
            raise TypeError(
                f"check: condition {position} is a {type(condition).__name__}; give a "
                "Condition (Estimate.above(...), that(...)) or a bool"
            )
        if not holds:
            failed.append(says)
    if failed:
        raise FindingNotSupported(sentence, failed)


# -- estimates -----------------------------------------------------------------------------


def _missing(value: float | None) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


@dataclass(frozen=True)
class Estimate:
    """A value with its interval (None for an exact value) and the sample size it rests on."""

    value: float
    low: float | None = None
    high: float | None = None
    n: int | None = None
    label: str = ""
    confidence: float = CONFIDENCE

    @property
    def point(self) -> Estimate:
        """The value alone, as an exact value: to compare the point estimate, not the interval
        (``rate.point.within(0.19, 0.23)``)."""
        return Estimate(self.value, n=self.n, label=self.label, confidence=self.confidence)

    @property
    def exact(self) -> bool:
        """No interval: an exact value (or one given without its uncertainty)."""
        return _missing(self.low) or _missing(self.high)

    def _ends(self) -> tuple[float, float]:
        return (self.value, self.value) if self.exact else (self.low, self.high)

    def short(self, digits: int = 3, *, signed: bool = False) -> str:
        """'0.585 (0.578–0.592)': the value and its interval."""
        shown = number(self.value, digits, signed=signed)
        if self.exact:
            return shown
        return f"{shown} ({interval(self.low, self.high, digits, signed=signed)})"

    def text(self, digits: int = 3, *, signed: bool = False, noun: str = "games") -> str:
        """'0.585 (95% interval 0.578–0.592, 20,000 games)'."""
        shown = number(self.value, digits, signed=signed)
        parts = []
        if not self.exact:
            parts.append(f"{percent(self.confidence)} interval "
                         f"{interval(self.low, self.high, digits, signed=signed)}")  # fmt: skip
        if self.n is not None:
            parts.append(f"{count(self.n)} {noun}")
        return f"{shown} ({', '.join(parts)})" if parts else shown

    def _named(self) -> str:
        ends = "" if self.exact else f" [{self.low:.4g}, {self.high:.4g}]"
        return f"{self.label or 'the estimate'} {self.value:.4g}{ends}"

    def above(self, bound: float) -> Condition:
        """The whole interval (an exact value: the value) lies above ``bound``."""
        return Condition(self._ends()[0] > bound, f"{self._named()} lies above {bound:g}")

    def below(self, bound: float) -> Condition:
        """The whole interval lies below ``bound``."""
        return Condition(self._ends()[1] < bound, f"{self._named()} lies below {bound:g}")

    def includes(self, value: float) -> Condition:
        """The interval contains ``value`` (an exact value: equals it)."""
        low, high = self._ends()
        holds = math.isclose(self.value, value) if self.exact else low <= value <= high
        return Condition(holds, f"{self._named()} includes {value:g}")

    def excludes(self, value: float) -> Condition:
        """The interval does not contain ``value``: a measurable difference from it."""
        inside = self.includes(value)
        return Condition(not inside.holds, f"{self._named()} excludes {value:g}")

    def within(self, low: float | None = None, high: float | None = None) -> Condition:
        """The whole interval lies inside [low, high] (None: an open end)."""
        first, last = self._ends()
        holds = (low is None or first >= low) and (high is None or last <= high)
        lower = "-inf" if low is None else f"{low:g}"
        band = f"[{lower}, {'inf' if high is None else f'{high:g}'}]"
        return Condition(holds, f"{self._named()} lies within {band}")

    def higher_than(self, other: Estimate) -> Condition:
        """Told apart and higher: this interval lies wholly above the other's."""
        return Condition(self._ends()[0] > other._ends()[1],
                         f"{self._named()} lies above {other._named()}")  # fmt: skip

    def lower_than(self, other: Estimate) -> Condition:
        """Told apart and lower: this interval lies wholly below the other's."""
        return Condition(self._ends()[1] < other._ends()[0],
                         f"{self._named()} lies below {other._named()}")  # fmt: skip

    def overlaps(self, other: Estimate) -> Condition:
        """The two intervals overlap: the estimates cannot be told apart."""
        low, high = self._ends()
        other_low, other_high = other._ends()
        return Condition(low <= other_high and other_low <= high,
                         f"{self._named()} overlaps {other._named()}")  # fmt: skip

    def reads(self, written: str) -> Condition:
        """The value, rounded as ``written`` is ('0.585', '+6.2', '−0.005', '38%'), reads
        as it. A percentage is compared with the value times 100."""
        text = written.strip().replace(MINUS, "-").replace(",", "")
        scale = 100.0 if text.endswith("%") else 1.0
        text = text.rstrip("%").lstrip("+")
        decimals = len(text.split(".")[1]) if "." in text else 0
        target = float(text)
        holds = abs(self.value * scale - target) <= 0.5 * 10.0**-decimals + 1e-9
        return Condition(holds, f"{self._named()} reads as {written}")


def _column(frame: pl.DataFrame, given: str | None, *candidates: str) -> str | None:
    if given is not None:
        if given not in frame.columns:
            raise ValueError(f"no column {given!r}; the frame has {frame.columns}")
        return given
    return next((c for c in candidates if c in frame.columns), None)


def _rows(frame: pl.DataFrame, where: Mapping[str, Any]) -> pl.DataFrame:
    if not isinstance(frame, pl.DataFrame):
        raise TypeError(f"findings read polars DataFrames, got {type(frame).__name__}")
    unknown = [name for name in where if name not in frame.columns]
    if unknown:
        raise ValueError(f"no column {unknown}; the frame has {frame.columns}")
    return frame.filter(**where)


def _estimate_of(row: Mapping[str, Any], value: str, low: str | None, high: str | None,
                 n: str | None, label: str, confidence: float) -> Estimate:  # fmt: skip
    size = row[n] if n is not None else None
    return Estimate(
        value=row[value],
        low=row[low] if low is not None else None,
        high=row[high] if high is not None else None,
        n=int(size) if size is not None else None,
        label=label,
        confidence=row.get("confidence", confidence) or confidence,
    )


def _columns(frame: pl.DataFrame, value: str, low: str | None, high: str | None,
             n: str | None) -> tuple[str | None, str | None, str | None]:  # fmt: skip
    if value not in frame.columns:
        raise ValueError(f"no column {value!r}; the frame has {frame.columns}")
    found_low = _column(frame, low, f"{value}_low", "low")
    found_high = _column(frame, high, f"{value}_high", "high")
    return found_low, found_high, _column(frame, n, *SAMPLE_SIZE_COLUMNS)


def estimate(
    frame: pl.DataFrame,
    value: str,
    *,
    low: str | None = None,
    high: str | None = None,
    n: str | None = None,
    label: str | None = None,
    confidence: float = CONFIDENCE,
    **where: Any,
) -> Estimate:
    """The one row of ``frame`` matching ``where`` (column=value filters) as an Estimate of
    column ``value``. Interval columns default to ``<value>_low``/``<value>_high``, else
    ``low``/``high``; the sample size to the first of ``SAMPLE_SIZE_COLUMNS`` present."""
    low, high, n = _columns(frame, value, low, high, n)
    rows = _rows(frame, where)
    if rows.height != 1:
        raise ValueError(
            f"estimate of {value!r} needs exactly one row where {where}; found {rows.height}"
        )
    name = label or ", ".join(f"{k}={v}" for k, v in where.items()) or value
    return _estimate_of(rows.row(0, named=True), value, low, high, n, name, confidence)


def estimates(
    frame: pl.DataFrame,
    by: str,
    value: str,
    *,
    low: str | None = None,
    high: str | None = None,
    n: str | None = None,
    confidence: float = CONFIDENCE,
    **where: Any,
) -> dict[Any, Estimate]:
    """One Estimate per value of column ``by`` (in the frame's order), among the rows that
    match ``where``; each value of ``by`` must appear once."""
    low, high, n = _columns(frame, value, low, high, n)
    rows = _rows(frame, where)
    if by not in rows.columns:
        raise ValueError(f"no column {by!r}; the frame has {frame.columns}")
    keys = rows[by].to_list()
    if len(set(keys)) != len(keys):
        raise ValueError(f"column {by!r} repeats a value among the rows where {where}: "
                         "filter them to one row each")  # fmt: skip
    if not keys:
        raise ValueError(f"no rows where {where}")
    return {
        row[by]: _estimate_of(row, value, low, high, n, f"{by}={row[by]}", confidence)
        for row in rows.iter_rows(named=True)
    }


# -- findings written from the numbers -----------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """A sentence written from the numbers, shown in a notebook as prose (Markdown);
    ``under`` is the strength of play (line-up) it holds under."""

    text: str
    under: str = ""

    def __str__(self) -> str:
        return self.text

    __repr__ = _repr_markdown_ = __str__


def paragraph(*parts: Finding | str) -> Finding:
    """Findings and plain sentences joined into one paragraph."""
    unders = {p.under for p in parts if isinstance(p, Finding) and p.under}
    return Finding(" ".join(str(p) for p in parts), "; ".join(sorted(unders)))


def bullets(*parts: Finding | str) -> Finding:
    """Findings and plain sentences as a bulleted list."""
    unders = {p.under for p in parts if isinstance(p, Finding) and p.under}
    return Finding("\n".join(f"- {p}" for p in parts), "; ".join(sorted(unders)))


def _join(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _checked_under(under: str) -> str:
    if not isinstance(under, str) or not under.strip():
        raise ValueError("under= is required: name the line-up the finding holds under, "
                         "e.g. 'four heuristic players'")  # fmt: skip
    return under.strip()


def _all_defined(
    finding: str, found: Mapping[Any, Estimate], value: str, name: Callable[[Any], str]
) -> None:
    """A ValueError naming the groups whose ``value`` is undefined (null or NaN): a finding
    that ranks or compares them would say something its numbers do not."""
    undefined = [name(key) for key, e in found.items() if _missing(e.value)]
    if undefined:
        raise ValueError(
            f"{finding} cannot compare {value!r}: it is undefined (null or NaN) for "
            f"{_join(undefined)}"
        )


def leader(
    frame: pl.DataFrame,
    by: str,
    value: str,
    *,
    under: str,
    what: str | None = None,
    name: Callable[[Any], str] = str,
    highest: bool = True,
    digits: int = 3,
    low: str | None = None,
    high: str | None = None,
    n: str | None = None,
    noun: str = "games",
    **where: Any,
) -> Finding:
    """Which ``by`` has the highest (or lowest) ``value``, and whether the others can be told
    apart from it: 'With four heuristic players, seat 1 has the highest win rate: 0.336 (95%
    interval 0.330–0.343, 20,000 games), but it cannot be told apart from seat 0 (0.332
    (0.326–0.339)): their intervals overlap.' ``name`` labels a key (e.g. ``'seat {}'.format``).
    """
    under = _checked_under(under)
    found = estimates(frame, by, value, low=low, high=high, n=n, **where)
    _all_defined("leader", found, value, name)
    ranked = sorted(found.items(), key=lambda item: item[1].value, reverse=highest)
    (top_key, top), rest = ranked[0], ranked[1:]
    word = "highest" if highest else "lowest"
    head = (f"With {under}, {name(top_key)} has the {word} {what or value}: "
            f"{top.text(digits, noun=noun)}")  # fmt: skip
    if not rest:
        return Finding(head + ".", under)
    tied = [(key, e) for key, e in rest if e.overlaps(top)]
    if tied:
        others = _join([f"{name(key)} ({e.short(digits)})" for key, e in tied])
        return Finding(f"{head}, but it cannot be told apart from {others}: their intervals "
                       "overlap.", under)  # fmt: skip
    key, e = rest[0]
    side = "above" if highest else "below"
    return Finding(f"{head}, clearly {side} the next, {name(key)} ({e.short(digits)}).", under)


def _step(first: Estimate, second: Estimate) -> int:
    if second.higher_than(first):
        return 1
    if second.lower_than(first):
        return -1
    return 0


def change(
    frame: pl.DataFrame,
    x: str,
    value: str,
    *,
    under: str,
    what: str | None = None,
    x_name: str | None = None,
    digits: int = 3,
    low: str | None = None,
    high: str | None = None,
    n: str | None = None,
    **where: Any,
) -> Finding:
    """How ``value`` moves as ``x`` goes from its smallest to its largest value: 'rises from …
    to …' when the end points are told apart, else 'no change is measurable between …'; with
    three or more points, whether it moves the same way at every step, and where not."""
    under = _checked_under(under)
    found = estimates(frame, x, value, low=low, high=high, n=n, **where)
    _all_defined("change", found, value, lambda key: f"{x_name or x} {key}")
    points = sorted(found.items(), key=lambda item: item[0])
    if len(points) < 2:
        raise ValueError(f"change needs two or more values of {x!r}; found {len(points)}")
    what, x_name = what or value, x_name or x
    (first_x, first), (last_x, last) = points[0], points[-1]
    direction = _step(first, last)
    steps = [_step(a[1], b[1]) for a, b in pairwise(points)]
    if direction:
        verb = "rises" if direction > 0 else "falls"
        sentence = (f"With {under}, {what} {verb} from {first.short(digits)} at {x_name} "
                    f"{first_x} to {last.short(digits)} at {last_x}")  # fmt: skip
        if len(points) > 2 and all(s == direction for s in steps):
            return Finding(sentence + ", at every step.", under)
    else:
        sentence = (
            f"With {under}, no change in {what} is measurable between {x_name} "
            f"{first_x} ({first.short(digits)}) and {last_x} ({last.short(digits)})"
        )
    if len(points) == 2 or (not direction and not any(steps)):
        return Finding(sentence + ".", under)
    runs: list[tuple[int, Any, Any]] = []
    for ((a, _), (b, _)), step in zip(pairwise(points), steps, strict=True):
        if runs and runs[-1][0] == step:
            runs[-1] = (step, runs[-1][1], b)
        else:
            runs.append((step, a, b))
    words = {1: "rises", -1: "falls", 0: "shows no measurable change"}
    detail = _join([f"{words[step]} from {a} to {b}" for step, a, b in runs])
    return Finding(f"{sentence}; step by step it {detail}.", under)


def difference(
    effect: Estimate,
    *,
    what: str,
    under: str,
    margin: float | None = None,
    up: str = "rises",
    down: str = "falls",
    digits: int = 3,
    noun: str = "paired games",
) -> Finding:
    """A difference (variant minus baseline, say) in words: '{what} rises by +0.111 (95%
    interval +0.103 to +0.119, 20,000 paired games)', or 'no difference in {what} is
    measurable on 20,000 paired games (…)'; with an equivalence ``margin`` and the interval
    inside ±margin, 'no difference beyond ±margin'."""
    under = _checked_under(under)
    if effect.exact:
        raise ValueError("difference needs an interval; for an exact difference write it out")
    games = f" on {count(effect.n)} {noun}" if effect.n is not None else ""
    shown = effect.text(digits, signed=True, noun=noun)
    if effect.above(0):
        return Finding(f"With {under}, {what} {up} by {shown}.", under)
    if effect.below(0):
        return Finding(f"With {under}, {what} {down} by {shown}.", under)
    if margin is not None and effect.within(-margin, margin):
        return Finding(f"With {under}, {what} shows no difference beyond ±{margin:g}{games} "
                       f"({effect.short(digits, signed=True)}).", under)  # fmt: skip
    return Finding(f"With {under}, no difference in {what} is measurable{games} "
                   f"({effect.short(digits, signed=True)}).", under)  # fmt: skip


#: The kinds of ``robust_compare`` verdict, in the order a chart shows them ("unclear under"
#: and "unchanged under" name strengths, "no effect beyond" the margin).
VERDICT_KINDS = (
    "robust", "reverses with play", "unclear under", "unchanged under", "no effect beyond",
    "no change", "no clear effect",
)  # fmt: skip


def verdict_kind(verdict: str) -> str:
    """The kind of a verdict label ('unclear under search' -> 'unclear under')."""
    for kind in VERDICT_KINDS:
        if verdict.startswith(kind):
            return kind
    raise ValueError(f"{verdict!r} is not a robust_compare verdict; kinds: {VERDICT_KINDS}")


def verdict(frame: pl.DataFrame, metric: str, *, digits: int = 3,
            what: str | None = None) -> Finding:  # fmt: skip
    """A ``robust_compare`` metric's verdict in a sentence, naming every strength with its
    difference, interval and games, the games an unclear strength would need (an estimate),
    and any strengths whose effect sizes differ measurably."""
    rows = _rows(frame, {"metric": metric})
    if rows.height == 0:
        known = frame["metric"].unique(maintain_order=True).to_list()
        raise ValueError(f"no rows for metric {metric!r}; the frame has {known}")
    first = rows.row(0, named=True)
    label, kind = first["verdict"], verdict_kind(first["verdict"])
    effects = [
        (row["strength"], Estimate(row["diff"], row["low"], row["high"], row["n"],
                                   confidence=row.get("confidence") or CONFIDENCE))
        for row in rows.iter_rows(named=True)
    ]  # fmt: skip
    listed = ", ".join(
        f"{s} {number(e.value, digits, signed=True)} "
        f"({interval(e.low, e.high, digits, signed=True)}, {count(e.n)} games)"
        if not e.exact
        else f"{s} {number(e.value, digits, signed=True)} (undefined interval)"
        for s, e in effects
    )
    levels = [e.confidence for _, e in effects]
    note = f"{percent(levels[0])} intervals"
    if len(set(levels)) > 1:
        others = [f"{s}'s {percent(e.confidence)}" for s, e in effects[1:]
                  if e.confidence != levels[0]]  # fmt: skip
        note += f" ({_join(others)}: played until decided, Bonferroni over its looks)"
    subject = (
        f"{what or metric} ({first.get('variant_name', 'variant')} against "
        f"{first.get('baseline_name', 'baseline')})"
    )
    rising = [s for s, e in effects if e.above(0)]
    falling = [s for s, e in effects if e.below(0)]
    if kind == "robust":
        verb = "rises" if rising else "falls"
        text = f"{subject}: robust — it {verb} under every strength of play tried: {listed}"
    elif kind == "reverses with play":
        text = (f"{subject}: reverses with play — it rises under {_join(rising)} and falls "
                f"under {_join(falling)}: {listed}")  # fmt: skip
    elif kind in ("unclear under", "unchanged under"):
        unclear = [s for s, e in effects if not (e.above(0) or e.below(0))]
        decided, verb = (rising, "rises") if rising else (falling, "falls")
        which = (
            f"it is the same in every pair of games under {_join(unclear)}"
            if kind == "unchanged under"
            else f"the interval of {_join(unclear)} includes 0"
        )
        text = f"{subject}: {label} — it {verb} under {_join(decided)}, while {which}: {listed}"
    elif kind == "no change":
        text = (f"{subject}: no change — it is the same in every pair of games under every "
                f"strength: {listed}")  # fmt: skip
    else:
        text = f"{subject}: {label} — no strength's interval excludes 0: {listed}"
    text += f"; {note}."
    needs = [
        f"{row['strength']} about {count(row['games_to_decide'])}"
        for row in rows.iter_rows(named=True)
        if row.get("games_to_decide") is not None
    ]
    if needs:
        text += (" Games that would likely decide it (an estimate from the standard error and "
                 f"the smallest effect measured elsewhere): {_join(needs)}.")  # fmt: skip
    differ = first.get("effects_differ") or ""
    if differ:
        text += f" The effect's size differs between strengths: {differ}."
    strengths = _join([s for s, _ in effects])
    return Finding(text, f"{strengths} play")


__all__ = [
    "CONFIDENCE",
    "VERDICT_KINDS",
    "Condition",
    "Estimate",
    "Finding",
    "FindingNotSupported",
    "bullets",
    "change",
    "check",
    "count",
    "difference",
    "estimate",
    "estimates",
    "interval",
    "leader",
    "number",
    "paragraph",
    "percent",
    "that",
    "verdict",
    "verdict_kind",
]
