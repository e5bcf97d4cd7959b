"""The results store keeps units as checksummed JSON: every result class of the bench comes
back equal, and nothing in a store folder from elsewhere can make it run code."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from workbench.designer.balance import GameValues
from workbench.designer.cells import CellSummary
from workbench.designer.moments import Moments
from workbench.designer.tournaments import SeatingResult
from workbench.kit.store import LAYOUT, RunStore, StoreMismatch

RESULTS = [
    CellSummary({"first_seat_advantage": Moments(3, 0.25, 1.5)}, 4, ("fitted",) * 4),
    SeatingResult({0: Moments(2, 0.5, 0.5)}, {1: Moments()}, {(0, 1): Moments(1, -2.0, 0.0)}),
    (GameValues(np.arange(3), 2, {"x": np.array([0.5, np.nan, 1e-300])}), ("a", "b")),
    {"nested": [1, 2.5, None, True, "text", (np.float64(0.1), np.int8(-3))]},
]


@pytest.mark.parametrize("result", RESULTS, ids=lambda r: type(r).__name__)
def test_every_result_class_comes_back_equal(tmp_path, result):
    store = RunStore.open(tmp_path / "units", {"run": 1})
    store.save(0, result)
    found, loaded = store.load(0)
    assert found and type(loaded) is type(result)
    assert _plain(loaded) == _plain(result)


def test_a_unit_copied_from_another_run_or_renamed_is_run_again(tmp_path):
    """A unit's checksum binds it to its run and index: a copied or renamed file, intact as a
    file, would otherwise be read as another unit's result."""
    other = RunStore.open(tmp_path / "other", {"run": 2})
    other.save(0, {"share": 0.9})
    store = RunStore.open(tmp_path / "units", {"run": 1})
    store.save(0, {"share": 0.1})
    shutil.copy(other._unit_path(0), store._unit_path(1))  # from another run
    shutil.copy(store._unit_path(0), store._unit_path(2))  # this run's unit 0 as unit 2
    assert store.load(0) == (True, {"share": 0.1})
    assert store.load(1) == (False, None) and store.load(2) == (False, None)
    assert store.recomputed == [1, 2] and store.finished() == 1


def test_what_is_not_plain_data_is_refused_when_saved(tmp_path):
    store = RunStore.open(tmp_path / "units", {"run": 1})
    with pytest.raises(TypeError, match="plain data"):
        store.save(0, {"agent": object()})
    with pytest.raises(TypeError, match="plain data"):
        store.save(0, np.array(["text"]))
    assert store.finished() == 0


def test_a_unit_naming_an_unknown_class_is_run_again_not_built(tmp_path):
    store = RunStore.open(tmp_path / "units", {"run": 1})
    store.folder.mkdir()
    for index, content in enumerate([
        {"type": "os.system", "fields": {"command": "echo no"}},
        {"type": "Popen", "fields": {}},
        {"array": ["|O", [1], "AA=="]},
        {"lambda": 1},
    ]):  # fmt: skip
        payload = json.dumps(content).encode()
        digest = store._digest(index, payload)  # intact: refused for what it names
        path = store.folder / f"unit-{index:05d}.json"
        path.write_bytes(LAYOUT.encode() + b"\n" + digest + b"\n" + payload)
        assert store.load(index) == (False, None) and not path.exists()
    assert store.recomputed == [0, 1, 2, 3]


def test_a_run_stopped_before_any_unit_finished_leaves_no_folder(tmp_path):
    store = RunStore.open(tmp_path / "units", {"run": 1})
    assert not store.folder.exists() and store.finished() == 0
    store.save(3, (1, 2))
    assert store.finished() == 1 and (store.folder / "run.json").exists()


@pytest.mark.parametrize("stored", ["[1, 2]", '"run"', "null", "3"])
def test_a_run_json_that_holds_no_identity_is_a_mismatch(tmp_path, stored):
    """Valid JSON that is not an object used to end in an AttributeError from inside."""
    folder = tmp_path / "units"
    folder.mkdir()
    (folder / "run.json").write_text(stored)
    (folder / "unit-00000.json").write_bytes(b"kept")
    with pytest.raises(StoreMismatch, match=r"not a results store .* not a run's identity"):
        RunStore.open(folder, {"run": 1}, resume=True)
    assert sorted(p.name for p in folder.iterdir()) == ["run.json", "unit-00000.json"]


def test_resume_and_overwrite_together_keep_another_runs_store(tmp_path):
    """Resume wins: a store of another run is refused, not emptied, and the message no longer
    tells to pass overwrite=True (--overwrite), which was given."""
    store = RunStore.open(tmp_path / "units", {"run": 1})
    store.save(0, (1, 2))
    with pytest.raises(StoreMismatch, match=r"overwrite=True, resume=False \(--overwrite "
                                            r"without --resume\)$"):  # fmt: skip
        RunStore.open(store.folder, {"run": 2}, resume=True, overwrite=True)
    assert RunStore.open(store.folder, {"run": 1}, resume=True).load(0) == (True, (1, 2))


@pytest.mark.parametrize(
    ("foreign", "shown"),
    [("notes.txt", "notes.txt"), ("unit-00001.json.bak", "unit-00001.json.bak"),
     ("sub/unit-00000.json", "sub")],
)  # fmt: skip
def test_overwrite_empties_only_a_store(tmp_path, foreign, shown):
    """A folder given as store= that holds anything else is refused, its files untouched
    (overwrite=True used to delete the whole folder); the store's own files, temporary ones
    left by a killed run included, are still emptied."""
    folder = tmp_path / "units"
    store = RunStore.open(folder, {"run": 1})
    store.save(0, (1, 2))
    (folder / ".unit-00001.json.x1y2.part").write_bytes(b"half")  # a write cut short
    (folder / foreign).parent.mkdir(exist_ok=True)
    (folder / foreign).write_text("mine")
    before = sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))
    with pytest.raises(FileExistsError, match=rf"not a results store's \({shown}\)"):
        RunStore.open(folder, {"run": 2}, overwrite=True)
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) == before
    (folder / foreign).unlink()
    if (folder / foreign).parent != folder:
        (folder / foreign).parent.rmdir()
    assert RunStore.open(folder, {"run": 2}, overwrite=True).finished() == 0
    assert not folder.exists()


def test_removing_a_store_leaves_what_it_did_not_write(tmp_path):
    store = RunStore.open(tmp_path / "units", {"run": 1})
    store.save(0, (1, 2))
    (store.folder / "notes.txt").write_text("mine")
    store.remove()
    assert sorted(p.name for p in store.folder.iterdir()) == ["notes.txt"]
    (store.folder / "notes.txt").unlink()
    store.save(0, (1, 2))
    store.remove()
    assert not store.folder.exists()


def _plain(value):
    """``value`` with arrays as lists and NaN as a string, for comparing equal."""
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()] + [str(value.dtype)]
    if isinstance(value, float) and np.isnan(value):
        return "nan"
    if hasattr(value, "_asdict"):
        return _plain(value._asdict())
    if hasattr(value, "__dataclass_fields__"):
        return _plain(vars(value))
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return type(value)(_plain(v) for v in value)
    return value
