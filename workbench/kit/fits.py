"""The fit cache: a fitted agent's parameters, fitted once per game, rule set, fitting version
and seed, and read back thereafter.

An entry is one JSON file named by the SHA-256 of its key (game, version, seed and the rules,
field by field). It carries the SHA-256 of its own content, so a damaged entry (truncated,
edited, half-copied) is detected and fitted again, never trusted. Entries are written to a
temporary file and renamed into place, and fitting holds a lock file per key, so two processes
fitting the same rules at once fit once and leave one valid entry.

Two folders are searched: the fits that ship with the workbench (``data/fits/<game>/``, the
rulebook's rules, so nothing fits on first use) and the user's cache (``WORKBENCH_FIT_CACHE``,
or the platform's user cache folder), where new fits are written.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from filelock import FileLock

from workbench.data import data_dir
from workbench.kit.store import write_atomically

#: Environment variable naming the folder where new fits are written.
CACHE_ENV = "WORKBENCH_FIT_CACHE"
#: Seconds a process waits for another that is fitting the same rules before giving up.
LOCK_TIMEOUT = 600.0


@dataclass(frozen=True)
class Fit:
    """A fitted policy's parameters (by name) and how they were found."""

    game: str
    version: str
    seed: int
    rules: dict[str, Any]
    params: dict[str, float]
    #: How the fit went: games played, seconds, objective per generation, ...
    details: dict[str, Any] = field(default_factory=dict)
    #: Equilibrium play, when the fit found one: its members, each ``{"weight": w, "params":
    #: {name: value}}`` (the parameters the equilibrium search varied; the rest are ``params``').
    mixture: list[dict[str, Any]] = field(default_factory=list)

    def vector(self, names: Sequence[str]) -> list[float]:
        """The parameters in the order ``names`` gives (a policy's parameter vector)."""
        missing = [name for name in names if name not in self.params]
        if missing:
            raise KeyError(f"this fit has no parameters {missing}; it has {sorted(self.params)}")
        return [self.params[name] for name in names]


def plain(value: Any) -> Any:
    """``value`` as JSON values: dataclasses as field dicts, tuples as lists (rules as keys)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple | frozenset | set):
        items = [plain(item) for item in value]
        return sorted(items, key=repr) if isinstance(value, frozenset | set) else items
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return value.item()
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return repr(value)


def fit_key(game: str, rules: object, *, version: str, seed: int) -> str:
    """The entry name for a fit: the SHA-256 of its key, as hex."""
    key = {"game": game, "version": version, "seed": seed, "rules": plain(rules)}
    return hashlib.sha256(_canonical(key)).hexdigest()


def shipped_folder(game: str) -> Path:
    """Where the workbench's own fits for ``game`` ship (read only)."""
    return data_dir() / "fits" / game


def cache_folder(game: str) -> Path:
    """Where new fits for ``game`` are written (module docstring)."""
    root = os.environ.get(CACHE_ENV)
    if not root:
        from platformdirs import user_cache_dir

        root = os.path.join(user_cache_dir("auction-workbench"), "fits")
    return Path(root) / game


def cached_fit(
    game: str,
    rules: object,
    *,
    version: str,
    seed: int,
    fit: Callable[[], tuple[Any, ...]],
    folders: Sequence[Path] | None = None,
) -> Fit:
    """The fit for ``rules``: read from the first folder holding a valid entry (shipped fits,
    then the cache), else made by ``fit()`` -> (params, details[, mixture]) and written to the
    cache. ``folders`` (tests) replaces (shipped, cache); new fits go to the last one."""
    folders = list(folders) if folders is not None else [shipped_folder(game), cache_folder(game)]
    name = fit_key(game, rules, version=version, seed=seed) + ".json"
    for index, folder in enumerate(folders):
        found = read_fit(folder / name, remove_damaged=index == len(folders) - 1)
        if found is not None:
            return found
    target = folders[-1]
    target.mkdir(parents=True, exist_ok=True)
    with FileLock(str(target / (name + ".lock")), timeout=LOCK_TIMEOUT):
        found = read_fit(target / name)  # another process may have fitted while we waited
        if found is not None:
            return found
        params, details, *mixture = fit()
        made = Fit(
            game, version, int(seed), plain(rules),
            {str(name): float(value) for name, value in params.items()}, plain(details),
            plain(mixture[0]) if mixture else [],
        )  # fmt: skip
        write_fit(target / name, made)
        return made


def read_fit(path: Path, *, remove_damaged: bool = True) -> Fit | None:
    """The entry at ``path``; None when there is none, or when it is damaged (a warning says
    so, and with ``remove_damaged`` the file is removed so that it is fitted again: the
    cache's, never the fits shipped with the workbench). An entry that holds another key's fit
    (a file copied or renamed) counts as damaged. An entry written before a field with a
    default existed reads with that default."""
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        stored = json.loads(text)  # a UnicodeDecodeError (a ValueError) when not UTF-8 text
        checksum = stored.pop("checksum")
        if checksum != hashlib.sha256(_canonical(stored)).hexdigest():
            raise ValueError("checksum mismatch")
        fit = Fit(**stored)  # a TypeError for a missing or unknown field
        if fit_key(fit.game, fit.rules, version=fit.version, seed=fit.seed) != path.stem:
            raise ValueError(
                "it holds the fit of another game, version, seed or rules than its name says "
                f"(game {fit.game!r}, version {fit.version!r}, seed {fit.seed})"
            )
        return fit
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        warnings.warn(f"damaged fit {path.name} ({exc}): fitting again", stacklevel=3)
        if remove_damaged:
            path.unlink(missing_ok=True)
        return None


def write_fit(path: Path, fit: Fit) -> None:
    """Write ``fit`` with its checksum, atomically (a temporary file renamed into place)."""
    content = dataclasses.asdict(fit)
    content["checksum"] = hashlib.sha256(_canonical(content)).hexdigest()
    text = json.dumps(content, indent=1, sort_keys=True) + "\n"
    write_atomically(path, text.encode())


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


__all__ = [
    "CACHE_ENV", "Fit", "cache_folder", "cached_fit", "fit_key", "plain", "read_fit",
    "shipped_folder", "write_fit",
]  # fmt: skip
