"""A results store for long runs: each finished unit of work (a sweep cell, a tournament
seating) is kept as it completes, so a run that is stopped part-way resumes where it stopped.

The store is a folder: ``run.json`` describes the run that made it (its identity: command,
game, rules, line-ups, games, seed, one entry per unit), and each finished unit is one file,
``unit-<index>.json``: a header line, the SHA-256 of the payload with the run's identity and
the unit's index, then the result as JSON. Every file is written to a temporary name in the
folder and moved into place, so a crash leaves either the whole file or none; a unit file that
fails its checksum (truncated, corrupted, copied from another run or renamed) is removed and
its unit run again, never read as data. Readers need no lock: a unit file, once in
place, never changes.

No code runs from a store: a result is plain data (numbers, strings, lists, tuples, dicts,
numpy arrays of numbers) and instances of the result classes registered with ``unit_type``,
rebuilt from their fields; anything else is refused when saved, and a file naming another
type is treated as damaged.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

#: Where a run keeps its finished units: a folder, or None for no store.
StorePath = str | os.PathLike[str] | None

#: Changes when the file layout does: a store of another layout is refused, never misread.
LAYOUT = "workbench-units 3"
_HEADER = (LAYOUT + "\n").encode()
#: The files a store writes: run.json, the units, and their temporary files (``write_atomically``).
_STORE_FILE = re.compile(r"(run|unit-\d+)\.json|\.(run|unit-\d+)\.json\..+\.part")
#: The result classes a store may hold, by name (``unit_type``).
_UNIT_TYPES: dict[str, type] = {}
Kept = TypeVar("Kept", bound=type)


def unit_type(cls: Kept) -> Kept:
    """Class decorator registering a result class (a dataclass or NamedTuple of plain data) that
    long runs may keep in a results store."""
    if not (dataclasses.is_dataclass(cls) or hasattr(cls, "_fields")):
        raise TypeError(f"{cls.__name__} must be a dataclass or a NamedTuple to be kept")
    _UNIT_TYPES[cls.__qualname__] = cls
    return cls


class StoreMismatch(ValueError):
    """The store was made by another run (another command, game, rules, line-ups, games or
    seed): resuming from it would mix two runs' results."""


class RunStore:
    """The finished units of one run, in ``folder`` (see the module docstring)."""

    def __init__(self, folder: Path, identity: Mapping[str, Any]) -> None:
        self.folder = folder
        self.identity = dict(identity)
        self.recomputed: list[int] = []  # units whose file was damaged, run again

    @classmethod
    def open(
        cls,
        folder: str | os.PathLike[str],
        identity: Mapping[str, Any],
        *,
        resume: bool = False,
        overwrite: bool = False,
    ) -> RunStore:
        """The store for a run described by ``identity`` (JSON values). An existing store is
        continued with ``resume`` (if the same run made it), emptied with ``overwrite``, and
        otherwise refused, so no finished work is lost by accident; a folder holding anything
        but a store's files is never emptied."""
        folder = Path(folder)
        identity = json.loads(json.dumps(identity))  # as it reads back: lists, not tuples
        if folder.exists() and not folder.is_dir():
            raise FileExistsError(f"the results store {folder} is a file, not a folder")
        if folder.exists() and any(folder.iterdir()):
            if resume:
                _check_identity(folder, identity)
                return cls(folder, identity)
            if not overwrite:
                raise FileExistsError(
                    f"{folder} holds the finished units of an earlier run: continue it with "
                    "resume=True (--resume), or start again with overwrite=True (--overwrite)"
                )
            _refuse_foreign(folder)
            shutil.rmtree(folder)
        return cls(folder, identity)  # the folder is made when the first unit finishes

    def _unit_path(self, index: int) -> Path:
        return self.folder / f"unit-{index:05d}.json"

    def load(self, index: int) -> tuple[bool, Any]:
        """(True, result) for a finished unit; (False, None) for one not finished, or damaged
        (its file removed, to be run again)."""
        path = self._unit_path(index)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return False, None
        header, _, rest = data.partition(b"\n")
        digest, _, payload = rest.partition(b"\n")
        intact = header + b"\n" == _HEADER and digest == self._digest(index, payload)
        try:
            if not intact:
                raise ValueError("damaged")
            return True, _decode(json.loads(payload))
        except (ValueError, KeyError, TypeError):
            path.unlink(missing_ok=True)
            self.recomputed.append(index)
            return False, None

    def save(self, index: int, result: Any) -> None:
        """Keep a finished unit's result; the first one makes the folder, so a run stopped
        before any unit finished leaves nothing behind."""
        if not (self.folder / "run.json").exists():
            self.folder.mkdir(parents=True, exist_ok=True)
            identity = json.dumps(self.identity, indent=1).encode()
            write_atomically(self.folder / "run.json", identity)
        payload = json.dumps(_encode(result), separators=(",", ":")).encode()
        digest = self._digest(index, payload)
        write_atomically(self._unit_path(index), _HEADER + digest + b"\n" + payload)

    def _digest(self, index: int, payload: bytes) -> bytes:
        """The SHA-256 of a unit's payload with the run's identity and the unit's number, so
        that a unit file copied from another run, or renamed, reads as damaged."""
        identity = json.dumps(self.identity, sort_keys=True, separators=(",", ":")).encode()
        return hashlib.sha256(b"%s\n%d\n%s" % (identity, index, payload)).hexdigest().encode()

    def finished(self) -> int:
        """How many unit files the store holds."""
        return sum(1 for _ in self.folder.glob("unit-*.json"))

    def stopped(self, units: int | None = None) -> str:
        """What a run stopped part-way tells its user: what is kept and how to finish it."""
        kept = self.finished()
        if not kept:
            of = f" {units}" if units is not None else ""
            return f"stopped: none of the{of} units had finished; nothing was kept"
        if units is not None:
            counted = f"{kept} of {units} units are"
        else:
            counted = f"{kept} unit is" if kept == 1 else f"{kept} units are"
        return (
            f"stopped: {counted} kept in {self.folder}; run the same command again with "
            "resume=True (--resume) to finish the rest"
        )

    def remove(self) -> None:
        """Delete the store (once the run's output is written): its own files, and the folder
        if nothing else is left in it."""
        remove_store(self.folder)


def remove_store(folder: str | os.PathLike[str]) -> None:
    """Delete a store's files in ``folder``, then the folder if that empties it."""
    folder = Path(folder)
    if not folder.is_dir():
        return
    for path in folder.iterdir():
        if _STORE_FILE.fullmatch(path.name) and path.is_file():
            path.unlink(missing_ok=True)
    with contextlib.suppress(OSError):  # something else is kept there: leave it
        folder.rmdir()


def _refuse_foreign(folder: Path) -> None:
    """A FileExistsError when ``folder`` holds anything a store does not write."""
    foreign = sorted(p.name for p in folder.iterdir()
                     if not (_STORE_FILE.fullmatch(p.name) and p.is_file()))  # fmt: skip
    if foreign:
        shown = ", ".join(foreign[:5]) + (", ..." if len(foreign) > 5 else "")
        raise FileExistsError(
            f"{folder} holds files that are not a results store's ({shown}); overwrite empties "
            "only a store: choose another store folder (another --out), or move them away"
        )


def _encode(value: Any) -> Any:
    """``value`` as JSON values, tagged where JSON has no such type (see the module docstring)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":
        data = base64.b64encode(np.ascontiguousarray(value).tobytes()).decode()
        return {"array": [value.dtype.str, list(value.shape), data]}
    kind = _UNIT_TYPES.get(type(value).__qualname__)
    if kind is type(value):
        names = value._fields if hasattr(value, "_fields") else [
            f.name for f in dataclasses.fields(value)]  # fmt: skip
        return {"type": type(value).__qualname__,
                "fields": {name: _encode(getattr(value, name)) for name in names}}  # fmt: skip
    if isinstance(value, tuple):
        return {"tuple": [_encode(item) for item in value]}
    if isinstance(value, list):
        return [_encode(item) for item in value]
    if isinstance(value, dict):
        return {"dict": [[_encode(key), _encode(item)] for key, item in value.items()]}
    raise TypeError(
        f"a results store keeps plain data and registered result classes (unit_type), not "
        f"{type(value).__name__}"
    )


def _decode(value: Any) -> Any:
    """The value ``_encode`` made this from; a ValueError for anything it cannot have made."""
    if isinstance(value, list):
        return [_decode(item) for item in value]
    if not isinstance(value, dict):
        return value
    if "type" in value:
        kind = _UNIT_TYPES.get(value["type"])
        if kind is None:
            raise ValueError(f"{value['type']!r} is not a registered result class")
        return kind(**{name: _decode(item) for name, item in value["fields"].items()})
    ((tag, content),) = value.items()
    if tag == "array":
        dtype, shape, data = content
        if np.dtype(dtype).kind not in "biuf":
            raise ValueError(f"an array of {dtype} is not a result")
        return np.frombuffer(base64.b64decode(data), dtype=dtype).reshape(shape).copy()
    if tag == "tuple":
        return tuple(_decode(item) for item in content)
    if tag == "dict":
        return {_decode(key): _decode(item) for key, item in content}
    raise ValueError(f"{tag!r} is not a tag of a stored result")


#: What a resume refused for a store it cannot continue suggests (resume wins over overwrite).
_START_AGAIN = "start again with overwrite=True, resume=False (--overwrite without --resume)"


def _check_identity(folder: Path, identity: dict[str, Any]) -> None:
    try:
        stored = json.loads((folder / "run.json").read_text())
    except (OSError, ValueError) as exc:
        raise StoreMismatch(
            f"{folder} is not a results store of this workbench (no readable run.json: {exc}); "
            + _START_AGAIN
        ) from None
    if not isinstance(stored, dict):
        raise StoreMismatch(
            f"{folder} is not a results store of this workbench (its run.json holds "
            f"{_short(stored, 40)}, not a run's identity); {_START_AGAIN}"
        )
    if stored == identity:
        return
    differ = sorted(
        key for key in set(stored) | set(identity) if stored.get(key) != identity.get(key)
    )
    shown = "; ".join(
        f"{key}: stored {_short(stored.get(key))}, now {_short(identity.get(key))}"
        for key in differ
    )
    raise StoreMismatch(
        f"{folder} was made by another run ({shown}); resume only the same command, game, "
        f"rules, line-ups, games and seed, or {_START_AGAIN}"
    )


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, then rename."""
    handle, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, path)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise


__all__ = [
    "LAYOUT", "RunStore", "StoreMismatch", "StorePath", "remove_store", "unit_type",
    "write_atomically",
]  # fmt: skip
