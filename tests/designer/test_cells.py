"""Cells: seeds from the cell's parameters, value handling, line-up checks."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.designer.cells import (
    build_rules,
    cell_seed,
    check_lineup,
    lineup_key,
    plain,
    positive_count,
    rules_label,
)
from workbench.games import rubbish, shared_budget


def test_a_cell_seed_depends_on_the_cells_parameters_only():
    rules = rubbish.Rules(destined_bonus=40)
    seed = cell_seed(7, rubbish.GAME, rules, "heuristic")
    # The same rules reached another way, the line-up spelled seat by seat: the same seed.
    assert (
        cell_seed(7, rubbish.GAME, rubbish.Rules().replace(destined_bonus=40), ["heuristic"] * 4)
        == seed
    )
    assert cell_seed(np.int64(7), rubbish.GAME, rules, "heuristic") == seed
    # Anything else changes it: the base seed, a rule value, the line-up, the game.
    others = {
        cell_seed(8, rubbish.GAME, rules, "heuristic"),
        cell_seed(7, rubbish.GAME, rubbish.Rules(destined_bonus=41), "heuristic"),
        cell_seed(7, rubbish.GAME, rules, "random"),
        cell_seed(7, rubbish.GAME, rules, None),
        cell_seed(7, shared_budget.GAME, shared_budget.Rules(), "heuristic"),
    }
    assert seed not in others and len(others) == 5
    assert 0 <= seed < 2**63


def test_plain_values():
    assert plain(np.int64(3)) == 3 and type(plain(np.int64(3))) is int
    assert plain([1, np.int32(2)]) == (1, 2)
    assert plain(np.arange(3)) == (0, 1, 2)
    assert plain("rotating") == "rotating"
    geek = rubbish.Geek("Ada", (0, 1))
    assert plain(geek) is geek


def test_build_rules_returns_the_rules_own_message():
    rules, problem = build_rules(rubbish, rubbish.Rules(), {"destined_bonus": np.int64(10)})
    assert rules.destined_bonus == 10 and problem == ""
    rules, problem = build_rules(rubbish, rubbish.Rules(), {"destined_bonus": -1})
    assert rules is None and "destined_bonus must be a whole number >= 0" in problem
    rules, problem = build_rules(rubbish, rubbish.Rules(), {"players": True})
    assert rules is None and "players" in problem


def test_lineups_are_checked_against_the_rules():
    assert check_lineup(rubbish.GAME, rubbish.Rules(), "heuristic") == ""
    assert check_lineup(rubbish.GAME, rubbish.Rules(), None) == ""
    assert "4 for these rules, got 2" in check_lineup(rubbish.GAME, rubbish.Rules(), ["random"] * 2)
    assert "unknown agent 'genius'" in check_lineup(rubbish.GAME, rubbish.Rules(), "genius")
    assert lineup_key("random", 3) == "random,random,random"


def test_labels_name_what_changed():
    base = shared_budget.Rules()
    assert rules_label(shared_budget.GAME, base) == "rulebook"
    variant = shared_budget.Rules(tie_priority="fixed", budget=15)
    assert rules_label(shared_budget.GAME, variant) == "budget=15, tie_priority=fixed"
    assert rules_label(shared_budget.GAME, variant, variant) == "same as baseline"


@pytest.mark.parametrize("bad", [True, 2.0, "3", None])
def test_whole_numbers_refuse_bools_floats_and_text(bad):
    with pytest.raises(TypeError, match="games must be a whole number"):
        positive_count("games", bad)


def test_whole_numbers_accept_numpy_integers_and_check_the_minimum():
    assert positive_count("games", np.int16(5)) == 5
    with pytest.raises(ValueError, match="games must be a whole number >= 1, got 0"):
        positive_count("games", 0)
