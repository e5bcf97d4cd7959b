"""The command line's input and output: values, settings and line-ups parsed from text, rules
built from them, output paths checked before a run and frames written atomically after it,
and the executor the run's options choose."""

from __future__ import annotations

import argparse
import ast
import os
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import polars as pl

FORMATS = (".parquet", ".csv")

VALUE_HELP = """\
values: FIELD=VALUE is read as a Python literal when it is one (40, 2.5, 'text', (1, 2, 5),
True, None), otherwise as text (rotating); 'none' also means None. A grid's values are split
on commas outside brackets and quotes: --grid money_cards="(1,2,2,5,10),(1,2,5,10)".
"""


class CommandError(Exception):
    """A problem with the command's input, reported as 'error: ...' with exit status 2."""


# -- parsing values --------------------------------------------------------------------------


def parse_value(text: str) -> Any:
    """A rule value from the command line: a Python literal, 'none' for None, else the text."""
    stripped = text.strip()
    if stripped.lower() == "none":
        return None
    try:
        return ast.literal_eval(stripped)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return stripped


def split_values(text: str) -> list[str]:
    """'a,b,(1,2)' -> ['a', 'b', '(1,2)']: commas outside brackets and quotes separate."""
    parts, depth, quote, current = [], 0, "", []
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return [part.strip() for part in parts]


def parse_assignment(text: str, option: str) -> tuple[str, str]:
    """'field=value' -> ('field', 'value')."""
    field, sep, value = text.partition("=")
    if not sep or not field.strip():
        raise CommandError(f"{option} takes FIELD=VALUE (e.g. destined_bonus=40), got {text!r}")
    return field.strip(), value


def parse_settings(items: Sequence[str] | None, option: str) -> dict[str, Any]:
    """Repeated FIELD=VALUE options -> {field: value}; a field given twice is an error."""
    settings: dict[str, Any] = {}
    for item in items or ():
        field, value = parse_assignment(item, option)
        if field in settings:
            raise CommandError(f"{option} sets {field!r} twice")
        settings[field] = parse_value(value)
    return settings


def parse_lineup(text: str | None) -> Any:
    """'heuristic' (every seat) or 'heuristic,random,...' (one per seat); None: the default."""
    if text is None:
        return None
    names = [name.strip() for name in text.split(",")]
    if any(not name for name in names):
        raise CommandError(f"a line-up is agent names separated by commas, got {text!r}")
    return names[0] if len(names) == 1 else names


# -- rules ----------------------------------------------------------------------------------


def build_rules(game: Any, settings: dict[str, Any], option: str = "--set") -> Any:
    """The game's rules with ``settings`` applied; every problem listed at once."""
    from workbench.designer.cells import build_rules as apply_changes
    from workbench.designer.cells import check_fields

    problems = check_fields(game, list(settings))
    if problems:
        raise CommandError(f"{option}: " + "; ".join(problems))
    rules, problem = apply_changes(game, game.Rules(), settings)
    if problem:
        raise CommandError(f"{option}: {problem}")
    return rules


# -- outputs --------------------------------------------------------------------------------


def check_outputs(paths: Sequence[Path | None], overwrite: bool) -> list[Path]:
    """The output paths, checked before any run: a known format, an existing folder that takes
    new files, distinct, and not already there (unless ``overwrite``)."""
    chosen = [path for path in paths if path is not None]
    for path in chosen:
        if path.suffix.lower() not in FORMATS:
            raise CommandError(
                f"output {str(path)!r}: name it .parquet or .csv (the format follows the name)"
            )
        if not path.parent.is_dir():
            raise CommandError(
                f"output {str(path)!r}: the folder {str(path.parent)!r} does not exist"
            )
        try:  # as write_frames will: a new file beside the output
            tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.name}.").close()
        except OSError as exc:
            raise CommandError(
                f"output {str(path)!r}: no file can be written in the folder "
                f"{str(path.parent)!r} ({exc.strerror or exc}); choose another folder"
            ) from None
        if path.is_dir():
            raise CommandError(f"output {str(path)!r} is a folder; give a file name")
        if path.exists() and not overwrite:
            raise CommandError(
                f"output {str(path)!r} exists; pass --overwrite to replace it, or choose "
                "another name"
            )
    resolved = [path.resolve() for path in chosen]
    if len(set(resolved)) != len(resolved):
        raise CommandError("each output needs its own file name")
    return chosen


def csv_ready(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with every nested column (a list) as the Python literal a command line takes
    back, ``(2, 6, 12)``: CSV holds no nested data."""
    nested = [name for name, dtype in frame.schema.items() if dtype.is_nested()]
    return frame.with_columns(
        pl.Series(name, [_literal(value) for value in frame[name].to_list()], dtype=pl.String)
        for name in nested
    )


def _literal(value: Any) -> str | None:
    if value is None:
        return None
    return repr(tuple(value)) if isinstance(value, list) else repr(value)


def write_frames(outputs: Sequence[tuple[pl.DataFrame, Path]]) -> None:
    """Write every frame to a temporary file beside its output, then rename them all into
    place; on any failure (or Ctrl-C) nothing is left."""
    temporary: list[Path] = []
    try:
        for frame, path in outputs:
            partial = path.with_name(f".{path.name}.partial-{os.getpid()}")
            temporary.append(partial)
            if path.suffix.lower() == ".csv":
                csv_ready(frame).write_csv(partial)
            else:
                frame.write_parquet(partial)
        for partial, (_, path) in zip(temporary, outputs, strict=True):
            os.replace(partial, path)
    finally:
        for partial in temporary:
            partial.unlink(missing_ok=True)


# -- executors ------------------------------------------------------------------------------


def make_executor(args: argparse.Namespace) -> tuple[Executor | None, Callable[[], None]]:
    """(executor, what to call when done) from --workers / --scheduler. A Dask client is only
    disconnected at the end: the cluster is the user's and keeps running."""
    from workbench.designer.executors import SerialExecutor, local_processes

    if args.scheduler is not None and args.workers is not None:
        raise CommandError("give --workers (local processes) or --scheduler (Dask), not both")
    if args.scheduler is not None:
        if not args.scheduler.strip():
            raise CommandError("--scheduler needs the scheduler's address, e.g. tcp://host:8786")
        try:
            from distributed import Client
        except ImportError:
            raise CommandError(
                "--scheduler needs Dask: install the extra with pip install 'workbench[dask]'"
            ) from None
        try:
            client = Client(args.scheduler)
        except (OSError, ValueError) as exc:  # no answer, or not an address
            raise CommandError(
                f"--scheduler {args.scheduler!r}: no Dask scheduler reached ({exc}); give the "
                "address of a running scheduler, e.g. tcp://host:8786"
            ) from None
        return client.get_executor(), client.close
    if args.workers is None:
        return None, _nothing
    if args.workers < 1:
        raise CommandError(f"--workers must be at least 1, got {args.workers}")
    if args.workers == 1:
        return SerialExecutor(), _nothing
    pool = local_processes(args.workers)
    return pool, pool.shutdown


def _nothing() -> None:
    pass


__all__ = [
    "FORMATS", "VALUE_HELP", "CommandError", "build_rules", "check_outputs", "make_executor",
    "parse_assignment", "parse_lineup", "parse_settings", "parse_value", "split_values",
    "write_frames",
]  # fmt: skip
