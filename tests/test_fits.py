"""The fit cache (workbench.kit.fits) and the policy fitter (workbench.kit.fitting)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import multiprocessing
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from workbench.kit.fits import Fit, cached_fit, fit_key, read_fit
from workbench.kit.fitting import Fitting, Parameter, fit_policy


@dataclass(frozen=True)
class _Rules:
    players: int = 3
    bonus: tuple[int, ...] = (1, 2)


def _fit_once(log: Path, params: dict[str, float] | None = None):
    def fit():
        with log.open("a") as file:
            file.write("fitted\n")
        return (params or {"a": 0.25, "b": 3.0}), {"games": 10}

    return fit


def test_a_fit_is_made_once_then_read_back(tmp_path):
    log = tmp_path / "log"
    first = cached_fit("g", _Rules(), version="1", seed=0, fit=_fit_once(log),
                       folders=[tmp_path / "shipped", tmp_path / "cache"])  # fmt: skip
    again = cached_fit("g", _Rules(), version="1", seed=0, fit=_fit_once(log),
                       folders=[tmp_path / "shipped", tmp_path / "cache"])  # fmt: skip
    assert first == again
    assert first.params == {"a": 0.25, "b": 3.0}
    assert first.rules == {"players": 3, "bonus": [1, 2]}
    assert log.read_text() == "fitted\n"
    assert first.vector(["b", "a"]) == [3.0, 0.25]
    with pytest.raises(KeyError, match="no parameters"):
        first.vector(["c"])


@pytest.mark.parametrize(
    "other",
    [
        {"rules": _Rules(players=4)},
        {"rules": _Rules(bonus=(2, 1))},
        {"version": "2"},
        {"seed": 1},
        {"game": "h"},
    ],
)
def test_the_key_changes_with_rules_version_seed_and_game(other):
    base = {"game": "g", "rules": _Rules(), "version": "1", "seed": 0}
    changed = {**base, **other}
    key = fit_key(base["game"], base["rules"], version=base["version"], seed=base["seed"])
    assert key != fit_key(changed["game"], changed["rules"], version=changed["version"],
                          seed=changed["seed"])  # fmt: skip


def test_shipped_fits_come_first_and_new_fits_go_to_the_cache(tmp_path):
    shipped, cache = tmp_path / "shipped", tmp_path / "cache"
    cached_fit("g", _Rules(), version="1", seed=0, fit=_fit_once(tmp_path / "a", {"a": 1.0}),
               folders=[shipped])  # fmt: skip
    fit = cached_fit("g", _Rules(), version="1", seed=0, fit=_fit_once(tmp_path / "b"),
                     folders=[shipped, cache])  # fmt: skip
    assert fit.params == {"a": 1.0}
    assert not (tmp_path / "b").exists() and not cache.exists()


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text[: len(text) // 2],  # truncated
        lambda text: text.replace("0.25", "0.35"),  # edited: the checksum no longer matches
        lambda text: "",  # empty
        lambda text: json.dumps({"checksum": "0"}),  # not an entry
    ],
)
def test_a_damaged_entry_is_fitted_again_never_trusted(tmp_path, damage):
    log = tmp_path / "log"
    fit = cached_fit("g", _Rules(), version="1", seed=0, fit=_fit_once(log), folders=[tmp_path])
    path = tmp_path / (fit_key("g", _Rules(), version="1", seed=0) + ".json")
    path.write_text(damage(path.read_text()))
    with pytest.warns(UserWarning, match="damaged fit"):
        again = cached_fit("g", _Rules(), version="1", seed=0, fit=_fit_once(log),
                           folders=[tmp_path])  # fmt: skip
    assert again == fit
    assert log.read_text() == "fitted\n" * 2
    assert read_fit(path) == fit  # the entry written again is whole


def test_an_entry_that_is_not_text_is_fitted_again(tmp_path):
    log = tmp_path / "log"
    fit = cached_fit("g", _Rules(), version="1", seed=0, fit=_fit_once(log), folders=[tmp_path])
    path = tmp_path / (fit_key("g", _Rules(), version="1", seed=0) + ".json")
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    with pytest.warns(UserWarning, match="damaged fit"):
        again = cached_fit("g", _Rules(), version="1", seed=0, fit=_fit_once(log),
                           folders=[tmp_path])  # fmt: skip
    assert again == fit and read_fit(path) == fit
    assert log.read_text() == "fitted\n" * 2


def test_an_entry_holding_the_fit_of_other_rules_is_never_trusted(tmp_path):
    # A valid entry copied (or renamed) to the name of another key: its checksum still holds.
    log = tmp_path / "log"
    three = cached_fit("g", _Rules(), version="1", seed=0, fit=_fit_once(log, {"a": 3.0}),
                       folders=[tmp_path])  # fmt: skip
    source = tmp_path / (fit_key("g", _Rules(), version="1", seed=0) + ".json")
    four_name = fit_key("g", _Rules(players=4), version="1", seed=0) + ".json"
    (tmp_path / four_name).write_bytes(source.read_bytes())
    with pytest.warns(UserWarning, match="holds the fit of another game, version, seed or rules"):
        four = cached_fit("g", _Rules(players=4), version="1", seed=0,
                          fit=_fit_once(log, {"a": 4.0}), folders=[tmp_path])  # fmt: skip
    assert four.rules == {"players": 4, "bonus": [1, 2]} and four.params == {"a": 4.0}
    assert read_fit(tmp_path / four_name) == four  # written again, for its own key
    assert read_fit(source) == three  # the entry copied is left as it was


def test_a_damaged_shipped_entry_is_passed_over_but_never_removed(tmp_path):
    shipped, cache = tmp_path / "shipped", tmp_path / "cache"
    log = tmp_path / "log"
    fit = cached_fit("g", _Rules(), version="1", seed=0, fit=_fit_once(log), folders=[shipped])
    entry = shipped / (fit_key("g", _Rules(), version="1", seed=0) + ".json")
    entry.write_text(entry.read_text().replace('"seed": 0', '"seed": 1'))
    with pytest.warns(UserWarning, match="damaged fit"):
        again = cached_fit("g", _Rules(), version="1", seed=0, fit=_fit_once(log),
                           folders=[shipped, cache])  # fmt: skip
    assert again == fit and entry.exists()  # the shipped file is the repository's, left alone
    assert (cache / entry.name).exists()


def test_an_entry_written_before_the_mixture_field_reads_with_none(tmp_path):
    fit = cached_fit("g", _Rules(), version="1", seed=0, fit=_fit_once(tmp_path / "log"),
                     folders=[tmp_path])  # fmt: skip
    path = tmp_path / (fit_key("g", _Rules(), version="1", seed=0) + ".json")
    stored = json.loads(path.read_text())
    del stored["mixture"], stored["checksum"]
    stored["checksum"] = hashlib.sha256(
        json.dumps(stored, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    path.write_text(json.dumps(stored))
    assert read_fit(path) == fit and fit.mixture == []


def _fit_in_a_process(folder: str, log: str) -> None:
    def slow_fit():
        with open(log, "a") as file:
            file.write("fitted\n")
        time.sleep(1.0)
        return {"a": 0.5}, {}

    cached_fit("g", _Rules(), version="1", seed=0, fit=slow_fit, folders=[Path(folder)])


def test_two_processes_fitting_the_same_rules_fit_once(tmp_path):
    log = tmp_path / "log"
    context = multiprocessing.get_context("spawn")
    workers = [
        context.Process(target=_fit_in_a_process, args=(str(tmp_path), str(log)))
        for _ in range(2)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
        assert worker.exitcode == 0
    assert log.read_text() == "fitted\n"
    entries = list(tmp_path.glob("*.json"))
    assert len(entries) == 1 and read_fit(entries[0]).params == {"a": 0.5}
    assert not list(tmp_path.glob("*.part"))


# -- the fitter, on a game whose objective is known exactly ---------------------------------


class _Policy:
    def __init__(self, vector):
        self.x, self.y = (float(v) for v in vector)
        self.name = "policy"


class _Fixed(_Policy):
    def __init__(self):
        super().__init__((0.0, 0.0))
        self.name = "fixed"


class _KnownGame:
    """A stand-in for a game's SelfPlay: a seat's win share is 1 - (x - 0.3)^2 - (y - 1.5)^2/4
    when it plays the parametrised policy, plus seeded noise, and the rest share what's left.
    The fitter should find x = 0.3, y = 1.5 (within the noise)."""

    game = "known"

    def seat_win_shares(self, rules, lineup, *, games, seed):
        noise = np.random.default_rng(seed).normal(0.0, 0.02, size=games)
        shares = np.zeros((games, rules.players))
        for seat, agent in enumerate(lineup):
            if type(agent) is _Policy:
                shares[:, seat] = 1 - (agent.x - 0.3) ** 2 - (agent.y - 1.5) ** 2 / 4 + noise
        return shares


_KNOWN = Fitting(
    version="1",
    parameters=(Parameter("x", 0.9, 0.0, 1.0), Parameter("y", 0.0, -2.0, 2.0)),
    policy=lambda rules, vector: _Policy(vector),
    opponents=(_Fixed,),
    games=5,
    generations=40,
    population=8,
)


def test_the_fitter_finds_a_known_optimum_and_is_reproducible():
    params, details = fit_policy(_KnownGame(), _KNOWN, _Rules(players=2), seed=3, progress=False)
    assert params["x"] == pytest.approx(0.3, abs=0.05)
    assert params["y"] == pytest.approx(1.5, abs=0.1)
    assert details["games"] == 40 * 8 * 2 * 2 * 5  # generations x population x tables x seats
    assert details["mean_objective_by_generation"][-1] > details["mean_objective_by_generation"][0]
    again, _ = fit_policy(_KnownGame(), _KNOWN, _Rules(players=2), seed=3, progress=False)
    assert again == params
    other, _ = fit_policy(_KnownGame(), _KNOWN, _Rules(players=2), seed=4, progress=False)
    assert other != params


def test_a_parameter_starts_inside_its_range():
    with pytest.raises(ValueError, match="outside"):
        Parameter("x", 2.0, 0.0, 1.0)


def test_fit_round_trips_through_its_fields():
    fit = Fit("g", "1", 0, {"players": 3}, {"a": 1.0}, {"games": 3})
    assert Fit(**fit.__dict__) == fit


class _ExploitableGame(_KnownGame):
    """Like ``_KnownGame`` but its best x is 0.9, and a lone fixed agent against a table of the
    policy wins 0.6 x: above fair share (1/2) once x > 0.8333, so an exploitation penalty
    (slack 0.01) should hold the fit near x = 0.8167."""

    def seat_win_shares(self, rules, lineup, *, games, seed):
        noise = np.random.default_rng(seed).normal(0.0, 0.005, size=games)
        shares = np.zeros((games, rules.players))
        policies = [a for a in lineup if type(a) is _Policy]
        for seat, agent in enumerate(lineup):
            if type(agent) is _Policy and len(policies) == 1:
                shares[:, seat] = 1 - (agent.x - 0.9) ** 2 - (agent.y - 1.5) ** 2 / 4 + noise
            elif type(agent) is not _Policy and policies:
                shares[:, seat] = 0.6 * policies[0].x + noise
        return shares


def test_the_exploitation_penalty_keeps_a_lone_opponent_below_fair_share():
    free = dataclasses.replace(_KNOWN, generations=60)
    guarded = dataclasses.replace(free, penalty=3.0, slack=0.01)
    loose, _ = fit_policy(_ExploitableGame(), free, _Rules(players=2), seed=1, progress=False)
    held, details = fit_policy(_ExploitableGame(), guarded, _Rules(players=2), seed=1,
                               progress=False)  # fmt: skip
    assert loose["x"] == pytest.approx(0.9, abs=0.04)
    assert held["x"] == pytest.approx(0.8167, abs=0.03)
    assert details["penalty"] == 3.0
    assert details["games"] == 60 * 8 * (2 + 1) * 2 * 5  # tables + the lone opponent's games


class _Exploiter:
    """A best response to one policy (what a game's search is to the fitter)."""

    name = "exploiter"

    def __init__(self, policy):
        self.policy = policy


class _ReadableGame(_KnownGame):
    """Like ``_KnownGame`` (best y = 1.5), but an exploiter alone against a table of the policy
    wins 0.3 + 0.2 y: above fair share (1/2) once y > 1, so with the exploiter (penalty 3,
    slack 0.01) the fit should settle near y = 0.95; the fixed agent exploits nothing."""

    def seat_win_shares(self, rules, lineup, *, games, seed):
        shares = super().seat_win_shares(rules, lineup, games=games, seed=seed)
        noise = np.random.default_rng(seed).normal(0.0, 0.005, size=games)
        for seat, agent in enumerate(lineup):
            if isinstance(agent, _Exploiter):
                shares[:, seat] = 0.3 + 0.2 * agent.policy.y + noise
        return shares


def test_an_exploiter_pulls_the_fit_back_to_what_it_cannot_read():
    guarded = dataclasses.replace(_KNOWN, generations=60, penalty=3.0, slack=0.01)
    checked = dataclasses.replace(
        guarded, exploiter=lambda rules, policy: _Exploiter(policy), exploiter_games=2
    )
    game, rules = _ReadableGame(), _Rules(players=2)
    blind, blind_details = fit_policy(game, guarded, rules, seed=1, progress=False)
    held, details = fit_policy(game, checked, rules, seed=1, progress=False)
    assert blind["y"] == pytest.approx(1.5, abs=0.1)
    assert "finalists" not in blind_details
    assert held["y"] == pytest.approx(0.95, abs=0.05)
    assert held["x"] == pytest.approx(0.3, abs=0.05)
    # The finalists: six generations' means, evenly spaced over the second half.
    assert list(details["finalists"]) == ["30", "35", "41", "47", "53", "59"]
    assert str(details["chosen_generation"]) in details["finalists"]
    per_candidate = 2 * 2 * 5 + 2 * 5  # seats x (tables + the lone fixed agent) x games
    exploited = 2 * 2  # seats x the exploiter's games, in the second half
    # Each finalist, on fresh deals: seats x (the fixed table + the lone fixed agent + the
    # exploiter, five times as long).
    finals = 6 * 2 * (5 + 5 + 5 * 2)
    assert details["games"] == 60 * 8 * per_candidate + 30 * 8 * exploited + finals


class _RidgeGame(_KnownGame):
    """A lone challenger's share is 0.25 everywhere but on a narrow ridge: 0.25 + 0.5 within
    0.04 of x = 0.7 (whatever y), its peak at y = -1. A search from the start (x = 0.9)
    sees a flat landscape; the Sobol sweep lands on the ridge."""

    def seat_win_shares(self, rules, lineup, *, games, seed):
        noise = np.random.default_rng(seed).normal(0.0, 0.01, size=games)
        shares = np.full((games, rules.players), 0.25)
        for seat, agent in enumerate(lineup):
            if type(agent) is _Policy:
                ridge = abs(agent.x - 0.7) < 0.04
                shares[:, seat] = 0.25 + ridge * (0.5 - 0.1 * (agent.y + 1) ** 2) + noise
        return shares


def test_a_best_response_finds_a_narrow_ridge_a_local_search_misses():
    from workbench.kit.fitting import best_response

    params, details = best_response(_RidgeGame(), _Rules(players=4), _Policy,
                                    _KNOWN.parameters, _Fixed(), games=5, seed=2)  # fmt: skip
    assert params["x"] == pytest.approx(0.7, abs=0.04)
    assert params["y"] == pytest.approx(-1.0, abs=0.35)
    # the start, 64 probes, 15 generations of 8, 10 finalists: 4 seats x 5 games each
    assert details["games"] == (1 + 64 + 15 * 8 + 10) * 4 * 5
    again, _ = best_response(_RidgeGame(), _Rules(players=4), _Policy, _KNOWN.parameters,
                             _Fixed(), games=5, seed=2)  # fmt: skip
    assert again == params
