"""Packaging: the wheel carries the card tables, and environment.yml lists what pyproject does."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_wheel_ships_the_data_tables_and_loads_them(tmp_path):
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(tmp_path / "dist"),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = (tmp_path / "dist").glob("workbench-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        archive.extractall(tmp_path / "site")
    shipped = {
        name.removeprefix("workbench/data/")
        for name in names
        if name.startswith("workbench/data/") and not name.endswith("/")
    }
    in_checkout = {
        path.relative_to(ROOT / "data").as_posix()
        for path in (ROOT / "data").rglob("*")
        if path.is_file()
    }
    assert shipped == in_checkout  # the card tables and the shipped fits
    assert any(name.startswith("fits/rubbish/") for name in shipped)
    # Import the unpacked wheel (not the checkout) from a neutral directory and read a table.
    probe = (
        "import workbench, workbench.data as d; "
        "from workbench.games.rubbish import Rules; "
        "print(workbench.__file__); print(d.data_dir()); print(Rules().items[0]); "
        "from workbench.kit.fits import read_fit, shipped_folder; "
        "print(sum(read_fit(p) is not None for p in shipped_folder('rubbish').glob('*.json')))"
    )
    env = {"PYTHONPATH": str(tmp_path / "site")}
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    module_file, data_dir, first_item, fits = result.stdout.splitlines()
    assert module_file.startswith(str(tmp_path / "site"))
    assert Path(data_dir) == tmp_path / "site" / "workbench" / "data"
    assert first_item == "Chipped teapot"
    assert int(fits) >= 1  # the shipped fits are read from the installed package


def _requirement_names(lines: list[str]) -> dict[str, str]:
    found = {}
    for line in lines:
        match = re.match(r"^([A-Za-z0-9_.\-]+)\s*(.*)$", line.strip())
        if match and match.group(1) not in ("python", "pip", "-e"):
            found[match.group(1).lower().replace("_", "-")] = match.group(2).replace(" ", "")
    return found


def test_environment_yml_lists_the_same_packages_as_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = _requirement_names(project["dependencies"] + project["optional-dependencies"]["dev"])
    text = (ROOT / "environment.yml").read_text()
    dependencies = text.split("\ndependencies:\n", 1)[1]
    listed = [
        item.group(1)
        for line in dependencies.splitlines()
        if (item := re.match(r"^\s+-\s+(?!pip:)(.+)$", line))
    ]
    conda = _requirement_names(listed)
    assert conda == wanted, (
        f"environment.yml and pyproject.toml disagree: only in environment.yml "
        f"{sorted(set(conda.items()) - set(wanted.items()))}, only in pyproject.toml "
        f"{sorted(set(wanted.items()) - set(conda.items()))}"
    )


def test_lock_pins_every_direct_dependency_exactly():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    direct = _requirement_names(project["dependencies"] + project["optional-dependencies"]["dev"])
    pinned = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if "==" in line and not line.startswith("#"):
            name, version = line.split("==")
            pinned[name.lower().replace("_", "-")] = version
    assert set(direct) <= set(pinned), f"not locked: {sorted(set(direct) - set(pinned))}"
    assert {"hatchling", "editables"} <= set(pinned)  # the build backend, for offline installs
