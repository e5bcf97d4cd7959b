"""The foundation: game registry, errors, seeding, data tables, intervals."""

from __future__ import annotations

import importlib
import math

import numpy as np
import polars as pl
import pytest

import workbench
from workbench import games
from workbench.data import available_tables, data_dir, read_table
from workbench.errors import IllegalAction
from workbench.kit.seeding import derive_seed, generator, generators
from workbench.metrics import mean_with_interval, win_rates
from workbench.stats import mean_interval, proportion_interval


def test_registry_lists_and_returns_games():
    assert "rubbish" in games.available()
    assert games.available() == sorted(games.available())
    module = games.get("rubbish")
    assert module.Rules().players == 4
    for game_id in games.available():
        module = games.get(game_id)
        for name in ("Rules", "new_game", "simulate"):
            assert hasattr(module, name), f"{game_id} lacks {name}"


def test_unknown_game_names_the_known_games():
    with pytest.raises(ValueError, match=r"unknown game 'nope'; known games: .*rubbish"):
        games.get("nope")
    with pytest.raises(ValueError, match="unknown game 3"):
        games.get(3)


def test_illegal_action_is_a_value_error_naming_action_and_legal():
    error = IllegalAction("x", "not now", ["a", "b"])
    assert isinstance(error, ValueError)
    assert str(error) == "illegal action 'x': not now; legal: 'a', 'b'"
    many = IllegalAction(1, "no", range(20))
    assert "(20 in all)" in str(many)
    assert workbench.IllegalAction is IllegalAction


def test_seeding_is_reproducible_and_streams_are_independent():
    a = generator(42, 3, 1).random(5)
    assert np.array_equal(a, generator(42, 3, 1).random(5))
    assert not np.array_equal(a, generator(42, 3, 2).random(5))
    assert not np.array_equal(a, generator(43, 3, 1).random(5))
    # Adding streams never changes earlier ones.
    assert np.array_equal(generators(5, 2)[1].random(3), generators(5, 9)[1].random(3))
    assert derive_seed(1, 2) == derive_seed(1, 2) != derive_seed(1, 3)
    assert 0 <= derive_seed(1, 2) < 2**63


@pytest.mark.parametrize(
    ("seed", "error"), [(-1, ValueError), (1.5, TypeError), ("1", TypeError), (True, TypeError)]
)
def test_bad_seeds_are_rejected(seed, error):
    with pytest.raises(error, match="seed must be a non-negative int"):
        generator(seed)


def test_data_tables_are_found():
    assert data_dir().name == "data"
    assert "rubbish_items" in available_tables()
    rows = read_table("rubbish_geeks")
    assert rows[0] == {"id": "0", "name": "Ada", "item_a": "0", "item_b": "1"}


def test_wilson_interval_matches_a_hand_computation():
    # 40 successes in 100 trials, z = 1.959964: centre (0.4 + z²/200) / (1 + z²/100).
    low, high = proportion_interval(40, 100)
    z = 1.959963984540054
    centre = (0.4 + z * z / 200) / (1 + z * z / 100)
    half = z * math.sqrt(0.4 * 0.6 / 100 + z * z / 40000) / (1 + z * z / 100)
    assert (low, high) == pytest.approx((centre - half, centre + half))
    for trials in (1, 7, 10, 1000, 2000):
        assert proportion_interval(0, trials)[0] == 0.0
        assert proportion_interval(trials, trials)[1] == 1.0
    with pytest.raises(ValueError, match="trials must be positive"):
        proportion_interval(1, 0)
    with pytest.raises(ValueError, match="confidence must be strictly between 0 and 1"):
        proportion_interval(1, 2, confidence=1.5)


def test_mean_interval_matches_scipy_free_hand_value():
    values = [1.0, 2.0, 3.0, 4.0]
    mean, low, high = mean_interval(values)
    # t(0.975, 3) = 3.182446; sd = 1.290994; sem = 0.645497
    assert mean == 2.5
    assert (low, high) == pytest.approx(
        (2.5 - 3.182446 * 0.645497, 2.5 + 3.182446 * 0.645497), 1e-5
    )
    with pytest.raises(ValueError, match="at least one value"):
        mean_interval([])


def test_win_rates_per_agent():
    frame = pl.DataFrame({"agent": ["a", "b", "a", "b"], "win_share": [1.0, 0.0, 0.5, 0.5]})
    rates = win_rates(frame)
    assert rates["agent"].to_list() == ["a", "b"]
    assert rates["win_rate"].to_list() == [0.75, 0.25]
    assert rates["n"].to_list() == [2, 2]
    with pytest.raises(ValueError, match=r"columns \['score'\] are not in the frame"):
        mean_with_interval(frame, "score", "agent")


def test_every_public_name_of_every_game_resolves():
    for game_id in games.available():
        module = importlib.import_module(f"workbench.games.{game_id}")
        for name in module.__all__:
            assert getattr(module, name) is not None, f"{game_id}.{name}"


def test_engines_load_without_the_chart_and_widget_libraries():
    import subprocess
    import sys

    probe = (
        "import sys, workbench.games.rubbish, workbench.games.shared_budget; "
        "print(sorted(m for m in ('altair', 'ipywidgets') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_welch_difference_interval_matches_scipy():
    from scipy import stats as scipy_stats

    from workbench.stats import difference_interval

    first, second = [3.0, 4.0, 6.0, 7.0, 9.0], [1.0, 2.0, 2.5, 4.0]
    shift, low, high = difference_interval(first, second)
    expected = scipy_stats.ttest_ind(first, second, equal_var=False).confidence_interval(0.95)
    assert shift == pytest.approx(5.8 - 2.375)
    assert (low, high) == pytest.approx((expected.low, expected.high))
    assert all(math.isnan(v) for v in difference_interval([1.0], [1.0, 2.0]))
    assert difference_interval([2.0, 2.0], [1.0, 1.0]) == (1.0, 1.0, 1.0)


def test_win_rates_average_a_groups_seats_within_each_game():
    # Two games; agent "r" holds two seats in each. Per game r's mean share: (0 + 0.5)/2 = 0.25
    # and (0 + 0)/2 = 0; over the two games 0.125, with n = 2 games (not 4 seats).
    frame = pl.DataFrame(
        {
            "game": [0, 0, 0, 1, 1, 1],
            "agent": ["h", "r", "r", "h", "r", "r"],
            "win_share": [0.5, 0.0, 0.5, 1.0, 0.0, 0.0],
        }
    )
    rates = win_rates(frame)
    assert rates["agent"].to_list() == ["h", "r"]
    assert rates["win_rate"].to_list() == [0.75, 0.125]
    assert rates["n"].to_list() == [2, 2]
    # t interval over the two per-game values 0.25 and 0: 0.125 ± 12.706 * 0.125.
    r = rates.row(1, named=True)
    assert (r["low"], r["high"]) == pytest.approx(
        (0.125 - 12.7062 * 0.125, 0.125 + 12.7062 * 0.125), 1e-4
    )
