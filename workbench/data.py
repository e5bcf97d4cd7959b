"""Card tables: CSV files in ``data/``, found from a checkout and from an installed wheel.

In a wheel the tables ship as ``workbench/data``; in a checkout (editable install) they sit at
the top of the repository. Tables are read with the standard library so engines stay light.
"""

from __future__ import annotations

import csv
from pathlib import Path


def data_dir() -> Path:
    """The folder holding the card tables."""
    packaged = Path(__file__).resolve().parent / "data"
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parent.parent / "data"
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(
        f"no card tables found: looked in {packaged} (installed wheel) and {checkout} (checkout)"
    )


def available_tables() -> list[str]:
    """Names of the shipped tables (file names without ``.csv``)."""
    return sorted(path.stem for path in data_dir().glob("*.csv"))


def table_path(name: str) -> Path:
    """Path of a shipped table; ``name`` is a table name or a path to the user's own CSV."""
    candidate = Path(name)
    if candidate.suffix == ".csv" and candidate.is_file():
        return candidate
    path = data_dir() / f"{name}.csv"
    if not path.is_file():
        raise ValueError(
            f"unknown table {name!r}: shipped tables are {available_tables()}, "
            "or give the path of a .csv file"
        )
    return path


def read_table(name: str) -> list[dict[str, str]]:
    """Rows of a table as dicts of strings (lines starting with ``#`` are comments)."""
    with table_path(name).open(newline="", encoding="utf-8") as handle:
        lines = [line for line in handle if line.strip() and not line.lstrip().startswith("#")]
    reader = csv.DictReader(lines)
    return [{key.strip(): (value or "").strip() for key, value in row.items()} for row in reader]
