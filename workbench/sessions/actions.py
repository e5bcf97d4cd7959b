"""Legal actions read as a form: which controls can express them, with what values and bounds.

Only the game contract is used: ``legal_actions()`` is a sequence (possibly lazy and large) of
plain values or ``NamedTuple``s whose fields are ints, strings or tuples of ints. Actions are
grouped by type; each group becomes buttons (a short list), one number (a run of whole
numbers), a dropdown, or a form with one control per field:

- an int or str field: a dropdown of the values it takes (a bounded number when there are many);
- a tuple-of-ints field whose length varies (cards held out): one toggle per element of the
  largest multiset the legal actions use; order does not matter;
- a tuple-of-ints field of fixed length (an allocation over cups): one bounded number per place.

A composed action is played only if it is legal (``in legal_actions()``), so the bounds only
guide; nothing here decides legality.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from workbench.checks import is_whole_number

#: Up to this many actions of one plain type are shown as buttons.
SHORT_LIST = 8
#: Up to this many distinct values, a field is a dropdown; more, a bounded number.
DROPDOWN_LIMIT = 16
#: Legal sequences up to this long are read in full; longer ones through an even sample.
SCAN_LIMIT = 50_000

Labeller = Callable[[str | None, str | None, Any], str | None]


def is_record(value: object) -> bool:
    """A NamedTuple instance (a tuple with ``_fields``)."""
    return isinstance(value, tuple) and hasattr(type(value), "_fields")


@dataclass(frozen=True)
class FieldSpec:
    """One field of a NamedTuple action and the control that expresses it.

    ``kind``: "choice" (``values``: the distinct values), "number" (``low``..``high``),
    "multiset" (``values``: the largest multiset, high to low) or "vector" (``bounds``: one
    (low, high) per place).
    """

    name: str
    kind: str
    values: tuple[Any, ...] = ()
    low: int = 0
    high: int = 0
    bounds: tuple[tuple[int, int], ...] = ()


@dataclass
class GroupSpec:
    """Legal actions of one type and how to offer them.

    ``kind``: "buttons" (``actions`` listed), "number" (plain whole numbers ``low``..``high``),
    "choice" (a dropdown over ``actions``) or "form" (a NamedTuple type, ``fields``).
    """

    label: str
    kind: str
    type: type | None = None
    actions: tuple[Any, ...] = ()
    fields: tuple[FieldSpec, ...] = ()
    low: int = 0
    high: int = 0
    complete: bool = True  # False: read from a sample of a very long legal sequence
    _lookup: dict[Any, Any] = field(default_factory=dict, repr=False)

    def compose(self, values: dict[str, Any]) -> Any:
        """The action these field values make (a form group); multiset fields are matched to a
        listed legal action regardless of order. May be illegal: check ``in legal``. A value of
        a shape the field cannot hold (one number for a tuple field, a list for one value) is a
        ValueError naming the field."""
        if self.type is None:
            raise ValueError(f"the {self.label!r} group has no fields to compose")
        missing = [f.name for f in self.fields if f.name not in values]
        if missing:
            raise ValueError(f"missing value(s) for {missing} of {self.label}")
        for spec in self.fields:
            value = values[spec.name]
            if spec.kind in ("multiset", "vector"):
                if isinstance(value, str) or not isinstance(value, Iterable):
                    raise ValueError(f"{self.label} {spec.name} takes a sequence of whole numbers, "
                                     f"got {value!r}")  # fmt: skip
            elif not isinstance(value, Hashable):
                raise ValueError(f"{self.label} {spec.name} takes one value, got {value!r}")
        key = _key(self.fields, values)
        return self._lookup[key] if key in self._lookup else self.type(*key)


def _key(fields: Sequence[FieldSpec], values: dict[str, Any]) -> tuple:
    """The field values in field order as the action holds them (multisets high to low)."""
    parts = []
    for spec in fields:
        value = values[spec.name]
        if spec.kind == "multiset":
            value = tuple(sorted(value, reverse=True))
        elif spec.kind == "vector":
            value = tuple(value)
        parts.append(value)
    return tuple(parts)


def scan(legal: Sequence[Any]) -> tuple[list[Any], bool]:
    """The legal actions to read: all of them, or an even sample (first and last included)
    of a very long lazy sequence. Returns (actions, complete)."""
    count = len(legal)
    if count <= SCAN_LIMIT:
        return list(legal), True
    step = (count - 1) / (SCAN_LIMIT - 1)
    indices = sorted({round(i * step) for i in range(SCAN_LIMIT)})
    return [legal[i] for i in indices], False


def analyse(legal: Sequence[Any]) -> list[GroupSpec]:
    """The groups of controls that offer ``legal`` (one per action type, in order of first
    appearance): a run of whole numbers is one bounded number; other plain values are buttons
    (a short list) or a dropdown; NamedTuples are buttons (short) or a form of their fields.
    ValueError for an action the contract does not allow."""
    actions, complete = scan(legal)
    groups: dict[Any, list[Any]] = {}
    for action in actions:
        groups.setdefault(_group_key(action), []).append(action)
    return [_group(key, members, complete) for key, members in groups.items()]


def _group_key(action: Any) -> Any:
    if is_record(action):
        return type(action)
    if is_whole_number(action):
        return int
    if isinstance(action, str):
        return str
    raise ValueError(
        f"an action must be a whole number, a string or a NamedTuple (the game contract), "
        f"got {action!r} ({type(action).__name__})"
    )


def _group(key: Any, members: list[Any], complete: bool) -> GroupSpec:
    if key is int:
        values = sorted(int(a) for a in members)
        low, high = values[0], values[-1]
        if not complete or values == list(range(low, high + 1)):  # bids: one bounded number
            return GroupSpec(
                "number", "number", None, tuple(members), low=low, high=high, complete=complete
            )
    if key in (int, str):
        kind = "buttons" if len(members) <= SHORT_LIST else "choice"
        return GroupSpec("choice", kind, None, tuple(members), complete=complete)
    cls = key
    label = cls.__name__
    if len(members) <= SHORT_LIST and complete:
        return GroupSpec(label, "buttons", cls, tuple(members), complete=complete)
    fields = tuple(_field(name, [getattr(a, name) for a in members]) for name in cls._fields)
    listed = tuple(members) if complete else ()
    spec = GroupSpec(label, "form", cls, listed, fields, complete=complete)
    if complete:
        spec._lookup = {_key(fields, a._asdict()): a for a in members}
    return spec


def _field(name: str, values: list[Any]) -> FieldSpec:
    if all(is_whole_number(v) for v in values):
        distinct = sorted({int(v) for v in values})
        if len(distinct) <= DROPDOWN_LIMIT:
            return FieldSpec(name, "choice", tuple(distinct))
        return FieldSpec(name, "number", low=distinct[0], high=distinct[-1])
    if all(isinstance(v, str) for v in values):
        return FieldSpec(name, "choice", tuple(sorted(set(values))))
    if all(isinstance(v, tuple) and all(is_whole_number(x) for x in v) for v in values):
        lengths = {len(v) for v in values}
        if len(lengths) > 1:
            most: Counter[int] = Counter()
            for v in values:
                most |= Counter(int(x) for x in v)
            return FieldSpec(name, "multiset", tuple(sorted(most.elements(), reverse=True)))
        (length,) = lengths
        bounds = tuple(
            (min(int(v[i]) for v in values), max(int(v[i]) for v in values)) for i in range(length)
        )
        return FieldSpec(name, "vector", bounds=bounds)
    kinds = sorted({type(v).__name__ for v in values})
    raise ValueError(
        f"action field {name!r} holds {', '.join(kinds)}: the game contract allows ints, "
        "strings or tuples of ints"
    )


def match(action: Any, legal: Sequence[Any]) -> Any | None:
    """The legal action ``action`` stands for, or None: equal, or (for a NamedTuple) equal once
    its multiset fields are compared regardless of order (``Bid((2, 5))`` is ``Bid((5, 2))``).
    Bools and floats are never whole numbers here."""
    if not (is_whole_number(action) or isinstance(action, str) or is_record(action)):
        return None
    try:
        if action in legal:
            return int(action) if is_whole_number(action) else action
    except TypeError:  # unhashable or incomparable input: not an action of this game
        return None
    if not is_record(action):
        return None
    wanted = _unordered(action)
    for candidate in itertools.islice(legal, SCAN_LIMIT):
        if type(candidate) is type(action) and _unordered(candidate) == wanted:
            return candidate
    return None


def _unordered(action: tuple) -> tuple:
    return tuple(tuple(sorted(Counter(v).items())) if isinstance(v, tuple) else v for v in action)


def value_text(
    value: Any, labeller: Labeller | None = None, group: str | None = None, name: str | None = None
) -> str:
    """A value as shown on a control: the panel's label if it gives one, else plain text."""
    if labeller is not None:
        text = labeller(group, name, value)
        if text is not None:
            return text
    if is_record(value) and type(value).__str__ is not tuple.__str__:
        return str(value)  # the game's own wording, e.g. a bid '5+2 = 7'
    if is_record(value):
        return ", ".join(
            f"{field_name} {value_text(v, labeller, type(value).__name__, field_name)}"
            for field_name, v in zip(type(value)._fields, value, strict=True)
        )
    if isinstance(value, tuple):
        return "+".join(str(v) for v in value) if value else "nothing"
    return str(value)
