"""Test-wide settings: hypothesis runs derandomized (seeded) and keeps no example database, so
every run of the suite draws the same examples."""

from hypothesis import settings

settings.register_profile("workbench", derandomize=True, database=None, deadline=None)
settings.load_profile("workbench")
