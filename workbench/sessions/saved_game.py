"""Saved games as JSON: rules as their non-default fields, actions as plain JSON values.

Rules fields are dataclass fields, so a variant is saved as ``{field: value}`` for the fields
that differ from the defaults; tuples, NamedTuples and dataclasses (a card table's entries)
become lists, and lists come back as tuples, which every game's ``Rules`` accepts. A value
that does not come back equal is refused when saving, never discovered when loading.

An action is a whole number, a string, or ``{"type": name, "fields": {...}}`` for a NamedTuple;
it is decoded against the legal actions of the step it was played at.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

from workbench.checks import is_whole_number
from workbench.sessions.actions import is_record

#: The ``format`` field of a saved game.
FORMAT = "workbench-table"
#: Bumped when the layout of a saved game changes.
VERSION = 1


def _plain(value: Any) -> Any:
    """A rules value as JSON: tuples, NamedTuples and dataclasses as lists."""
    if value is None or isinstance(value, bool | str | float):
        return value
    if is_whole_number(value):
        return int(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [_plain(getattr(value, f.name)) for f in dataclasses.fields(value) if f.init]
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    raise ValueError(f"cannot save a rules value of type {type(value).__name__}: {value!r}")


def _tuples(value: Any) -> Any:
    """JSON lists back to tuples, recursively."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def encode_rules(rules: Any) -> dict[str, Any]:
    """The fields of ``rules`` that differ from its class's defaults, as JSON values.

    ValueError if a value would not come back equal (so a saved game always reloads)."""
    if not dataclasses.is_dataclass(rules) or isinstance(rules, type):
        raise TypeError(f"rules must be a game's Rules dataclass, got {type(rules).__name__}")
    defaults = type(rules)()  # the rulebook, as the class normalises it (money cards sorted)
    changed = {
        spec.name: _plain(getattr(rules, spec.name))
        for spec in dataclasses.fields(rules)
        if spec.init and getattr(rules, spec.name) != getattr(defaults, spec.name)
    }
    rebuilt = decode_rules(type(rules), json.loads(json.dumps(changed)))
    if rebuilt != rules:
        different = [
            spec.name
            for spec in dataclasses.fields(rules)
            if spec.compare and getattr(rebuilt, spec.name) != getattr(rules, spec.name)
        ]
        raise ValueError(f"these rules cannot be saved: field(s) {different} do not reload equal")
    return changed


def decode_rules(rules_class: type, fields: Mapping[str, Any]) -> Any:
    """``rules_class(**fields)`` with JSON lists read as tuples; bad fields raise ValueError."""
    if not isinstance(fields, Mapping):
        raise ValueError(f"saved rules must be an object of fields, got {fields!r}")
    known = {f.name for f in dataclasses.fields(rules_class) if f.init}
    unknown = sorted(set(fields) - known)
    if unknown:
        raise ValueError(
            f"saved rules name unknown field(s) {unknown}; {rules_class.__module__}.Rules has "
            f"{sorted(known)}"
        )
    try:
        return rules_class(**{name: _tuples(value) for name, value in fields.items()})
    except TypeError as exc:
        raise ValueError(f"the saved rules are not valid: {exc}") from None


def encode_action(action: Any) -> Any:
    """An action as a JSON value (see the module docstring)."""
    if is_whole_number(action):
        return int(action)
    if isinstance(action, str):
        return action
    if is_record(action):
        return {
            "type": type(action).__name__,
            "fields": {name: _plain(v) for name, v in action._asdict().items()},
        }
    raise ValueError(f"cannot save action {action!r}: not a number, string or NamedTuple")


def decode_action(encoded: Any, legal: Sequence[Any]) -> Any:
    """The action ``encoded`` stands for, built with the type the legal actions use.

    ValueError when it names a type none of the legal actions has (the game moved on)."""
    if isinstance(encoded, bool | float):
        raise ValueError(
            f"a saved action is a whole number, a string or an object, got {encoded!r}"
        )
    if isinstance(encoded, int | str):
        return encoded
    if not (isinstance(encoded, Mapping) and set(encoded) == {"type", "fields"}):
        raise ValueError(
            f"a saved action must be a number, a string or a type/fields object, got {encoded!r}"
        )
    if not isinstance(encoded["type"], str):
        raise ValueError(f"a saved action's type must be a name, got {encoded['type']!r}")
    types = {type(legal[i]).__name__: type(legal[i]) for i in {0, len(legal) - 1}} if legal else {}
    cls = types.get(encoded["type"])
    if cls is None or not is_record(legal[0] if types else None):
        offered = ", ".join(sorted(types)) or "nothing"
        raise ValueError(f"the saved action is a {encoded['type']}, but the game offers {offered}")
    fields = encoded["fields"]
    if not isinstance(fields, Mapping) or set(fields) != set(cls._fields):
        raise ValueError(
            f"a saved {cls.__name__} needs the fields {list(cls._fields)}, got {fields!r}"
        )
    try:  # a game's action may check its fields when made
        return cls(**{name: _tuples(value) for name, value in fields.items()})
    except (TypeError, ValueError) as exc:
        raise ValueError(f"the saved {cls.__name__} {dict(fields)!r} is not valid: {exc}") from None
