"""Argument checks shared by the games' public entry points: one policy for bad input.

Whole numbers may be Python or numpy integers (stored as Python ints); bools, floats and
strings are refused. A value of the wrong kind raises ``TypeError``, a whole number outside
what is allowed ``ValueError`` (``Rules`` fields raise ``ValueError`` for both, as the common
contract says). Every message names the argument, what was given and what is allowed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from numbers import Integral, Real
from typing import TypeVar

T = TypeVar("T")


def is_whole_number(value: object) -> bool:
    """A Python or numpy integer, but not a bool."""
    return type(value) is int or (isinstance(value, Integral) and not isinstance(value, bool))


def whole_entries(
    values: object, error: Callable[[object, list[object] | None], str]
) -> tuple[object, ...]:
    """``values`` as a tuple, as given, if it is a sequence (not a string) of whole numbers. A
    TypeError worded by the caller's ``error(values, bad)`` otherwise: ``bad`` None when
    ``values`` is not a sequence, else its non-whole entries."""
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise TypeError(error(values, None))
    given = tuple(values)
    bad = [value for value in given if not is_whole_number(value)]
    if bad:
        raise TypeError(error(values, bad))
    return given


def instance_or_default(
    name: str, value: object, kind: type[T], default: Callable[[], T], allowed: str
) -> T:
    """``value`` if it is a ``kind``, ``default()`` if it is None; else a TypeError saying
    ``name`` must be ``allowed`` and naming the type given (with its module when it has the
    same name as ``kind``: another game's ``Rules``)."""
    if value is None:
        return default()
    if not isinstance(value, kind):
        given = type(value)
        shown = given.__name__
        if shown == kind.__name__:
            shown = f"{shown} from {given.__module__}"
        raise TypeError(f"{name} must be {allowed}, got {shown}")
    return value


def whole_number(
    name: str,
    value: object,
    *,
    low: int | None = None,
    high: int | None = None,
    allowed: str | None = None,
    type_error: type[Exception] = TypeError,
) -> int:
    """``value`` as a Python int if it is a whole number in [low, high]; else an error naming
    ``name``, the value and what is allowed (``allowed`` overrides the range's wording)."""
    if allowed is None:
        if low is not None and high is not None:
            allowed = f"a whole number from {low} to {high}"
        elif low is not None:
            allowed = f"a whole number >= {low}"
        else:
            allowed = "a whole number"
    if not is_whole_number(value):
        raise type_error(f"{name} must be {allowed}, got {value!r} ({type(value).__name__})")
    number = int(value)  # type: ignore[call-overload]
    if (low is not None and number < low) or (high is not None and number > high):
        raise ValueError(f"{name} must be {allowed}, got {number}")
    return number


def real_number(
    name: str,
    value: object,
    *,
    low: float,
    high: float,
    type_error: type[Exception] = TypeError,
) -> float:
    """``value`` as a float if it is a finite real number (not a bool) in [low, high]."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise type_error(
            f"{name} must be a number from {low:g} to {high:g}, got {value!r} "
            f"({type(value).__name__})"
        )
    number = float(value)
    if not (math.isfinite(number) and low <= number <= high):
        raise ValueError(f"{name} must be a number from {low:g} to {high:g}, got {value!r}")
    return number


def seat_or_random(name: str, value: object, players: int) -> int | str:
    """A Rules field naming a seat 0..players-1, or the string "random" (a ValueError for
    anything else, as Rules fields raise)."""
    if isinstance(value, str) and value == "random":
        return value
    return whole_number(
        name,
        value,
        low=0,
        high=players - 1,
        allowed=f"a seat 0–{players - 1} or 'random'",
        type_error=ValueError,
    )


def checked_seat(seat: object, players: int) -> int:
    """``seat`` as an int if it is a seat of a game of ``players`` (a TypeError for anything but
    a whole number, a ValueError outside 0..players-1)."""
    if not is_whole_number(seat):
        raise TypeError(f"seat must be a whole number 0–{players - 1}, got {seat!r}")
    if not 0 <= seat < players:  # type: ignore[operator]
        raise ValueError(f"seat must be 0–{players - 1} for these rules, got {seat}")
    return int(seat)  # type: ignore[call-overload]


def choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    """``value`` if it is one of the strings ``allowed``; ValueError otherwise."""
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
    return value


def flag(name: str, value: object, *, type_error: type[Exception] = TypeError) -> bool:
    """``value`` as a Python bool if it is True or False (numpy's too); else ``type_error``."""
    kind = type(value)
    if kind is bool or (kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_")):
        return bool(value)
    raise type_error(f"{name} must be True or False, got {value!r} ({kind.__name__})")
