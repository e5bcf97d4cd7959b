"""Test-wide settings: hypothesis runs derandomized (seeded) and keeps no example database, so
every run of the suite draws the same examples. The ``example`` fixture registers the example
game (tests/example_game) as the registry game 'example'."""

import importlib.util
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from workbench import games as registry

settings.register_profile("workbench", derandomize=True, database=None, deadline=None)
settings.load_profile("workbench")


PACKAGE = Path(__file__).parent / "example_game"
NAME = "workbench.games.example"


@pytest.fixture
def example(monkeypatch):
    """The example game as the registry game 'example', for one test: loaded under its registry
    name (so ``module.__name__`` is what a real game's would be), nothing outside tests/ edited."""
    spec = importlib.util.spec_from_file_location(
        NAME, PACKAGE / "__init__.py", submodule_search_locations=[str(PACKAGE)]
    )
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, NAME, module)
    spec.loader.exec_module(module)
    known, get = registry.available, registry.get
    monkeypatch.setattr(registry, "available", lambda: [*known(), "example"])
    monkeypatch.setattr(registry, "get", lambda g: module if g == "example" else get(g))
    yield module
    for name in [name for name in sys.modules if name.startswith(NAME + ".")]:
        del sys.modules[name]


@pytest.fixture(autouse=True, scope="session")
def _fit_cache(tmp_path_factory):
    """New fits go to a folder of this test run, never the user's own cache."""
    from workbench.kit.fits import CACHE_ENV

    folder = tmp_path_factory.mktemp("fits")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(folder))
        yield folder
