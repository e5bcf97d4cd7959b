"""The dependency direction: data -> games -> designer/table/review -> notebooks. No game module
imports the play-along table; the table finds a game's panel through the contract's
``make_panel`` hook, and a game without one still gets the table."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import workbench
from workbench import games
from workbench.panels import Panel
from workbench.play.table import find_panel, table

PACKAGE = Path(workbench.__file__).parent
GAMES = PACKAGE / "games"
ABOVE_THE_GAMES = ("workbench.play", "workbench.designer", "workbench.reviews",
                   "workbench.sessions")


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path, root: Path = PACKAGE.parent) -> set[str]:
    """Every module name ``path`` imports (relative imports resolved, ``from a import b`` read
    as both ``a`` and ``a.b``) and every string constant that names a workbench module (as
    ``importlib.import_module`` and ``lazy_exports`` take them). ``root`` holds the package."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = _module_name(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Constant) and str(node.value).startswith("workbench."):
            names.add(node.value)
    return names


def _is_above(name: str) -> bool:
    return any(name == top or name.startswith(f"{top}.") for top in ABOVE_THE_GAMES)


def test_the_scan_sees_every_kind_of_import(tmp_path):
    # The scan itself: each way of reaching the table is caught, the shared layer is not.
    game = tmp_path / "workbench" / "games" / "toy"
    game.mkdir(parents=True)
    lines = {
        "absolute.py": "import workbench.play.table",
        "from_package.py": "from workbench import play",
        "from_module.py": "from workbench.play.render import escape",
        "relative.py": "from ...play import table",
        "dynamic.py": "import importlib\nimportlib.import_module('workbench.play.table')",
    }
    for name, source in lines.items():
        (game / name).write_text(source + "\n")
        assert any(_is_above(n) for n in _imported(game / name, tmp_path)), name
    (game / "fine.py").write_text("from workbench.panels import Panel, escape\n")
    assert not any(_is_above(n) for n in _imported(game / "fine.py", tmp_path))


def test_no_game_module_imports_the_table_or_the_designer():
    sources = sorted(GAMES.rglob("*.py"))
    assert len(sources) > 20 and GAMES / "rubbish" / "panel.py" in sources
    offending = {
        str(path.relative_to(PACKAGE.parent)): sorted(n for n in _imported(path) if _is_above(n))
        for path in sources
    }
    assert {path: names for path, names in offending.items() if names} == {}


def test_importing_every_game_module_loads_no_table():
    # The import graph as Python sees it: every module under workbench.games, panels included.
    probe = (
        "import importlib, pkgutil, sys, workbench.games as g\n"
        "names = [m.name for m in pkgutil.walk_packages(g.__path__, 'workbench.games.')]\n"
        "for name in names: importlib.import_module(name)\n"
        "assert 'workbench.games.rubbish.panel' in names\n"
        f"print(sorted(m for m in sys.modules if m.startswith({ABOVE_THE_GAMES!r})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


#: Above the games, each package imports only those after it: the table draws sessions and
#: reviews them, reviews read sessions, sessions need none of the others.
LAYERS = ("workbench.play", "workbench.reviews", "workbench.sessions")


@pytest.mark.parametrize("lower", LAYERS[1:])
def test_the_layers_above_the_games_import_downward_only(lower):
    higher = LAYERS[: LAYERS.index(lower)]
    sources = sorted((PACKAGE / lower.split(".")[1]).rglob("*.py"))
    offending = {
        str(path.relative_to(PACKAGE.parent)): sorted(
            n for n in _imported(path) if any(n == h or n.startswith(f"{h}.") for h in higher)
        )
        for path in sources
    }
    assert len(sources) >= 3
    assert {path: names for path, names in offending.items() if names} == {}


@pytest.mark.parametrize("game_id", games.available())
def test_the_table_finds_a_panel_through_the_contract(game_id):
    game = games.get(game_id)
    make_panel = find_panel(game)
    has_file = (GAMES / game_id / "panel.py").exists()
    assert (make_panel is not None) == has_file, "a panel.py must be exported as make_panel"
    t = table(game_id, seed=0, opponents="random")
    if make_panel is None:  # no panel: still the whole table
        assert t.panel is None and t.form is not None
        assert not any(isinstance(child, Panel) for child in t.children)
    else:
        assert game.panel == f"workbench.games.{game_id}.panel:make_panel"
        assert isinstance(t.panel, Panel)
