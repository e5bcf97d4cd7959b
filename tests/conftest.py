"""Test-wide settings: hypothesis runs derandomized (seeded) and keeps no example database, so
every run of the suite draws the same examples. The ``example`` fixture registers the example
game (tests/example_game) as the registry game 'example'; ``toy`` is a game the registry does
not know (tests/toy_cups.py), for the table and its sessions."""

import pytest
from hypothesis import settings

from workbench import games as registry

settings.register_profile("workbench", derandomize=True, database=None, deadline=None)
settings.load_profile("workbench")


@pytest.fixture
def example():
    """The example game (tests/example_game, a package importable from tests/) registered as
    the registry game 'example' for one test."""
    import example_game

    registry.register(example_game.GAME)
    yield example_game
    registry.unregister("example")


@pytest.fixture
def toy():
    """The toy game of tests/toy_cups.py as a package would offer it (``GAME``, ``Rules``,
    ``Split``), unregistered."""
    import toy_cups

    return toy_cups.toy_package()


@pytest.fixture(autouse=True, scope="session")
def _fit_cache(tmp_path_factory):
    """New fits go to a folder of this test run, never the user's own cache."""
    from workbench.kit.fits import CACHE_ENV

    folder = tmp_path_factory.mktemp("fits")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(folder))
        yield folder
