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
    if candidate.suffix == ".csv":
        raise ValueError(
            f"no card table at {name!r}: there is no such file (shipped tables are "
            f"{available_tables()})"
        )
    path = data_dir() / f"{name}.csv"
    if not path.is_file():
        raise ValueError(
            f"unknown table {name!r}: shipped tables are {available_tables()}, "
            "or give the path of a .csv file"
        )
    return path


def read_table(name: str) -> list[dict[str, str]]:
    """Rows of a table as dicts of strings (lines starting with ``#`` are comments; the byte
    order mark a spreadsheet may write first is ignored). ValueError naming the table for a
    file that is not UTF-8 text, or a row with more values than the table has columns."""
    path = table_path(name)
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:
            numbered = [
                (number, line)
                for number, line in enumerate(handle, start=1)
                if line.strip() and not line.lstrip().startswith("#")
            ]
    except UnicodeDecodeError as exc:
        raise ValueError(f"card table {path} is not UTF-8 text ({exc}): save it as UTF-8") from None
    reader = csv.DictReader(line for _, line in numbered)
    rows = []
    for row in reader:
        if None in row:  # the values beyond the header's columns
            columns = reader.fieldnames or []
            raise ValueError(
                f"card table {path}, line {numbered[reader.line_num - 1][0]}: "
                f"{len(columns) + len(row[None])} values for the {len(columns)} columns {columns}"
            )
        rows.append({key.strip(): (value or "").strip() for key, value in row.items()})
    return rows


def card_rows(
    name: str, columns: tuple[str, ...], *, numbers: bool = False
) -> list[dict[str, str]]:
    """The rows of a card table in the order of its ``id`` column. ValueError naming the table
    when it lacks ``id`` or one of ``columns``, or an id is not a whole number; with
    ``numbers`` (the ids are the card numbers other tables refer to) the ids must also be 0,
    1, 2, ... each once."""
    rows = read_table(name)
    source = f"card table {table_path(name)}"
    missing = [column for column in ("id", *columns) if rows and column not in rows[0]]
    if missing:
        raise ValueError(
            f"{source} lacks the column(s) {missing}: it needs {['id', *columns]}, "
            f"has {list(rows[0])}"
        )
    ids = [whole_cell(row, "id", source) for row in rows]
    if numbers and sorted(ids) != list(range(len(rows))):
        raise ValueError(
            f"{source}: the ids must number the {len(rows)} cards 0 to {len(rows) - 1}, each "
            f"once (other tables refer to cards by id), got {ids}"
        )
    return [row for _, row in sorted(zip(ids, rows, strict=True), key=lambda pair: pair[0])]


def whole_cell(row: dict[str, str], column: str, source: str) -> int:
    """The whole number in ``row``'s ``column``; ValueError naming ``source`` and the row."""
    try:
        return int(row[column])
    except ValueError:
        raise ValueError(
            f"{source}: {column} must be a whole number, got {row[column]!r} in the row {row}"
        ) from None
