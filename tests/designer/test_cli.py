"""The command line, in-process (and once as a subprocess): the same tables as the library,
every problem before a run, no half-written or overwritten files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from workbench import SerialExecutor, sweep
from workbench.designer import cli
from workbench.games import rubbish

ROOT = Path(__file__).resolve().parents[2]


def run(*argv: str) -> int:
    return cli.main([str(a) for a in argv])


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("40", 40),
        ("2.5", 2.5),
        ("rotating", "rotating"),
        ("'fixed'", "fixed"),
        ("none", None),
        ("None", None),
        ("True", True),
        ("(1, 2, 5)", (1, 2, 5)),
    ],
)
def test_values_are_python_literals_or_text(text, value):
    assert cli.parse_value(text) == value


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("10,20,30", ["10", "20", "30"]),
        ("(1,2,2,5,10),(1,2,5,10)", ["(1,2,2,5,10)", "(1,2,5,10)"]),
        ("'a,b',c", ["'a,b'", "c"]),
        ("rotating", ["rotating"]),
    ],
)
def test_grid_values_split_on_top_level_commas(text, parts):
    assert cli.split_values(text) == parts


@pytest.mark.parametrize("command", ["games", "simulate", "compare", "sweep", "tournament"])
def test_every_command_explains_itself_with_an_example(command, capsys):
    with pytest.raises(SystemExit) as done:
        run(command, "--help")
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert "example:" in text and f"python -m workbench {command}" in text


def test_sweep_writes_the_librarys_table(tmp_path, capsys):
    out = tmp_path / "bonus.parquet"
    code = run(
        "sweep",
        "rubbish",
        "--grid",
        "destined_bonus=10,40",
        "--lineup",
        "heuristic",
        "--lineup",
        "heuristic,random,random,random",
        "--games",
        300,
        "--seed",
        2,
        "--workers",
        1,
        "--out",
        out,
    )
    assert code == 0
    expected = sweep(
        "rubbish",
        grid={
            "destined_bonus": [10, 40],
            "agents": ["heuristic", ["heuristic", "random", "random", "random"]],
        },
        games=300,
        seed=2,
        executor=SerialExecutor(),
        progress=False,
    )
    assert pl.read_parquet(out).equals(expected)
    err = capsys.readouterr().err
    assert "sweep rubbish: 4 cells × 300 games" in err and f"wrote {out}" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bonus.parquet"]


def test_an_existing_output_is_refused_unless_overwrite(tmp_path, capsys):
    out = tmp_path / "c.csv"
    out.write_text("keep me")
    arguments = [
        "compare",
        "rubbish",
        "--variant",
        "destined_bonus=40",
        "--games",
        50,
        "--seed",
        1,
        "--workers",
        1,
        "--quiet",
        "--out",
        out,
    ]
    assert run(*arguments) == 2
    assert "exists; pass --overwrite" in capsys.readouterr().err
    assert out.read_text() == "keep me"
    assert run(*arguments, "--overwrite") == 0
    frame = pl.read_csv(out)
    assert frame["variant_name"][0] == "destined_bonus=40" and frame["n"][0] == 50


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["sweep", "chess", "--grid", "x=1"], "unknown game 'chess'; known games:"),
        (["sweep", "rubbish", "--grid", "bonus=1,2"], "unknown rule field 'bonus' for rubbish"),
        (
            ["sweep", "rubbish", "--grid", "destined_bonus=-1,30", "--agents", "heuristic,random"],
            "2 problem(s), nothing was run",
        ),
        (
            ["sweep", "rubbish", "--grid", "players=3", "--set", "overspend=maybe"],
            "--set: overspend must be one of",
        ),
        (["sweep", "rubbish", "--grid", "destined_bonus"], "--grid takes FIELD=VALUE"),
        (
            ["sweep", "rubbish", "--grid", "players=3", "--grid", "players=4"],
            "gives 'players' twice",
        ),
        (
            ["sweep", "rubbish", "--grid", "players=3", "--agents", "random", "--lineup", "random"],
            "not both",
        ),
        # --lineup used to replace the --grid axis without a word.
        (
            ["sweep", "rubbish", "--grid", "agents=random", "--lineup", "heuristic"],
            "give the line-up axis as --lineup or --grid agents=..., not both",
        ),
        (["compare", "rubbish", "--variant", "players=9"], "variant: players must be 2–5"),
        (["simulate", "rubbish", "--agents", "random,random"], "--agents: agents must give one"),
        (["tournament", "rubbish", "--entrants", "random"], "two or more agents"),
        # The grid's values used to replace the --set value without a word.
        (
            ["sweep", "rubbish", "--grid", "destined_bonus=10,40", "--set", "destined_bonus=20"],
            "--set and --grid both give 'destined_bonus': --grid varies it",
        ),
        # An empty line-up used to mean every agent of the game, search included.
        (["ladder", "rubbish", "--agents", ""], "a line-up is agent names separated by commas"),
    ],
)
def test_bad_input_is_reported_before_anything_runs(arguments, message, tmp_path, capsys):
    out = tmp_path / "out.parquet"
    assert run(*arguments, "--games", 10, "--seed", 1, "--out", out) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(
    ("twice", "message"),
    [
        (["--games", 10, "--games", 20], "argument --games: given twice (10 and 20); give it once"),
        (["--seed", 1, "--seed", 2], "argument --seed: given twice (1 and 2)"),
        (["--agents", "heuristic", "--agents", "random"], "--agents: given twice (heuristic and"),
        (["--rounds-out", "r.csv", "--rounds-out", "s.csv"], "argument --rounds-out: given twice"),
    ],
)
def test_an_option_given_twice_with_two_values_is_refused(twice, message, tmp_path, capsys,
                                                          monkeypatch):  # fmt: skip
    """argparse kept the last value without a word (two --rounds-out: one frame lost)."""
    monkeypatch.chdir(tmp_path)
    defaults = {"--games": 10, "--agents": "heuristic", "--seed": 1}
    rest = [item for flag, value in defaults.items() if flag not in twice for item in (flag, value)]
    with pytest.raises(SystemExit) as done:
        run("simulate", "rubbish", *rest, *twice, "--out", "g.csv")
    assert done.value.code == 2 and message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
    # The same value twice is no contradiction.
    assert run("simulate", "rubbish", *rest, *twice[:2], *twice[:2], "--quiet", "--out",
               "g.csv") == 0  # fmt: skip


def test_every_bad_cell_is_listed(tmp_path, capsys):
    code = run(
        "sweep",
        "rubbish",
        "--grid",
        "destined_bonus=-1,30",
        "--grid",
        "players=2,3",
        "--agents",
        "heuristic,random",
        "--games",
        10,
        "--seed",
        1,
        "--out",
        tmp_path / "x.csv",
    )
    assert code == 2
    assert capsys.readouterr().err.splitlines() == [
        "error: 3 problem(s), nothing was run:",
        "  - cell destined_bonus=-1, players=2: destined_bonus must be a whole number >= 0, got -1",
        "  - cell destined_bonus=-1, players=3: destined_bonus must be a whole number >= 0, got -1",
        "  - cell destined_bonus=30, players=3: agents must give one agent per seat: 3 for these "
        "rules, got 2",
    ]


@pytest.mark.parametrize(
    ("name", "message"),
    [("out.txt", "name it .parquet or .csv"), ("missing/out.csv", "does not exist")],
)
def test_output_names_are_checked(name, message, tmp_path, capsys):
    assert run("simulate", "rubbish", "--games", 5, "--seed", 1, "--out", tmp_path / name) == 2
    assert message in capsys.readouterr().err


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_an_output_folder_that_takes_no_files_is_refused_before_the_run(command, capsys):
    """/proc takes no new file, even from root: the run used to play every game (a sweep, its
    first cell) and then fail with a FileNotFoundError traceback. Now the error is all there is
    on stderr: not even the run's description line, which comes before any game."""
    arguments = {"simulate": ["--set", "players=3"], "sweep": ["--grid", "players=3,4"]}
    code = run(command, "rubbish", *arguments[command], "--agents", "heuristic", "--games", 10,
               "--out", "/proc/out.csv")  # fmt: skip
    assert code == 2
    assert capsys.readouterr().err == (
        "error: output '/proc/out.csv': no file can be written in the folder '/proc' (No such "
        "file or directory); choose another folder\n"
    )


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("", "error: --scheduler needs the scheduler's address, e.g. tcp://host:8786"),
        ("foo", "error: --scheduler 'foo': no Dask scheduler reached (missing port number"),
        ("tcp://127.0.0.1:1", "error: --scheduler 'tcp://127.0.0.1:1': no Dask scheduler "
                              "reached (Timed out"),
    ],
)  # fmt: skip
def test_a_scheduler_not_reached_is_an_error(address, message, tmp_path, capsys):
    """An empty address used to run on local processes as if --scheduler were not given; one
    with no scheduler behind it ended in an OSError traceback."""
    pytest.importorskip("distributed")
    import dask

    out = tmp_path / "c.csv"
    arguments = ["compare", "rubbish", "--variant", "destined_bonus=40", "--agents", "heuristic",
                 "--games", 10, "--quiet", "--scheduler", address, "--out", out]  # fmt: skip
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        code = run(*arguments)
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and "e.g. tcp://host:8786" in err
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_an_interrupted_run_leaves_no_file(tmp_path, monkeypatch, capsys):
    from workbench.designer import sweeps

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(sweeps, "run_sweep", interrupted)
    code = run(
        "sweep",
        "rubbish",
        "--grid",
        "players=3",
        "--games",
        5,
        "--seed",
        1,
        "--out",
        tmp_path / "s.parquet",
    )
    assert code == 130 and "no output was written" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_an_interrupted_run_on_workers_stops_them_at_once(tmp_path, monkeypatch, capsys):
    """--workers N: Ctrl-C used to wait for every running cell to finish (the pool was shut
    down politely), however long the cells were; their results were not kept either."""
    import time

    from workbench.designer import sweeps

    def interrupted(plan, *, executor, **kwargs):
        running = executor.submit(time.sleep, 60)  # a long cell
        while not running.running():
            time.sleep(0.05)
        raise KeyboardInterrupt

    monkeypatch.setattr(sweeps, "run_sweep", interrupted)
    started = time.monotonic()
    code = run("sweep", "rubbish", "--grid", "players=3,4", "--agents", "random", "--games", 5,
               "--workers", 2, "--out", tmp_path / "s.parquet")  # fmt: skip
    assert code == 130 and time.monotonic() - started < 30
    assert "no output was written" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_a_dead_worker_is_an_error_line_not_a_traceback(tmp_path, monkeypatch, capsys):
    """A worker killed mid-run (the OOM killer) used to end in a RuntimeError traceback whose
    advice (the `if __name__ == '__main__':` guard) does not apply to the command line."""
    from workbench.designer import sweeps
    from workbench.designer.executors import WorkerDied

    def died(*args, **kwargs):
        raise WorkerDied("a worker process died")

    monkeypatch.setattr(sweeps, "run_sweep", died)
    code = run("sweep", "rubbish", "--grid", "players=3", "--games", 5, "--quiet", "--out",
               tmp_path / "s.parquet")  # fmt: skip
    assert code == 1
    err = capsys.readouterr().err
    assert err.startswith("error: a worker process died before finishing its cell (killed")
    assert "--resume" in err and "--workers 1" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_leaves_neither_part_nor_whole(tmp_path):
    good = pl.DataFrame({"x": [1]})
    unwritable = pl.DataFrame({"x": [object()]}, schema={"x": pl.Object})  # nor can CSV
    existing = tmp_path / "b.csv"
    existing.write_text("old")
    with pytest.raises(pl.exceptions.ComputeError):
        cli.write_frames([(good, tmp_path / "a.parquet"), (unwritable, existing)])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.csv"]
    assert existing.read_text() == "old"


def test_csv_takes_list_columns_as_literals():
    frame = pl.DataFrame({"values": [[2, 6, 12], None], "n": [1, 2]})
    assert cli.csv_ready(frame)["values"].to_list() == ["(2, 6, 12)", None]


def test_simulate_and_tournament_write_their_frames(tmp_path):
    assert (
        run(
            "simulate",
            "rubbish",
            "--set",
            "players=3",
            "--agents",
            "heuristic",
            "--games",
            40,
            "--seed",
            6,
            "--quiet",
            "--out",
            tmp_path / "g.csv",
            "--rounds-out",
            tmp_path / "r.parquet",
        )
        == 0
    )
    games, rounds = rubbish.simulate(
        rubbish.Rules(players=3), "heuristic", games=40, seed=6, progress=False
    )
    assert pl.read_parquet(tmp_path / "r.parquet").equals(rounds)
    assert pl.read_csv(tmp_path / "g.csv").height == games.height == 120
    assert (
        run(
            "tournament",
            "rubbish",
            "--entrants",
            "heuristic,random",
            "--games",
            20,
            "--seed",
            1,
            "--workers",
            1,
            "--quiet",
            "--out",
            tmp_path / "t.parquet",
            "--pairwise-out",
            tmp_path / "p.csv",
        )
        == 0
    )
    assert pl.read_parquet(tmp_path / "t.parquet")["entrant"].to_list() == ["heuristic", "random"]
    assert pl.read_csv(tmp_path / "p.csv").height == 2


def test_games_lists_the_registry_and_a_games_fields(capsys):
    assert run("games") == 0
    assert "rubbish:" in capsys.readouterr().out
    assert run("games", "shared_budget") == 0
    out = capsys.readouterr().out
    assert "  tie_priority = 'rotating'" in out
    assert "agents: random, coverage, fitted, search, equilibrium" in out


def test_as_a_subprocess(tmp_path):
    out = tmp_path / "c.csv"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "workbench",
            "compare",
            "shared_budget",
            "--variant",
            "tie_priority=fixed",
            "--agents",
            "coverage,random",
            "--games",
            "60",
            "--seed",
            "1",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert f"wrote {out}" in done.stderr and done.stdout == ""
    assert pl.read_csv(out)["variant_name"][0] == "tie_priority=fixed"


RUNS = {
    "simulate": ["simulate", "rubbish", "--set", "players=3", "--games", 30],
    "compare": ["compare", "rubbish", "--variant", "destined_bonus=40", "--games", 30],
    "sweep": ["sweep", "rubbish", "--grid", "destined_bonus=10,40", "--games", 20],
    "tournament": ["tournament", "rubbish", "--entrants", "heuristic,random", "--games", 10],
    "ladder": ["ladder", "rubbish", "--agents", "heuristic,random", "--games", 5],
    "robust-compare": ["robust-compare", "rubbish", "--variant", "destined_bonus=40",
                       "--strength", "heuristic", "--strength", "random", "--games", 20],
    "tune": ["tune", "rubbish", "--agents", "heuristic", "--space", "destined_bonus=10,40",
             "--target", "winner_cheapskate_rate=:0.2", "--budget", 100, "--first-games", 50],
    "exploitability": ["exploitability", "rubbish", "--challenger", "random", "--challenger",
                       "heuristic", "--games", 40],
}
IN_PROCESS = ("simulate", "tune")  # commands without --workers


@pytest.mark.parametrize("command", list(RUNS))
def test_the_seed_defaults_to_0_and_the_run_says_so(command, tmp_path, capsys):
    arguments = [*RUNS[command], *([] if command in IN_PROCESS else ["--workers", 1])]
    assert run(*arguments, "--out", tmp_path / "default.parquet") == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    lines = [line for line in lines if not line.startswith("fitting rubbish")]  # fits come first
    assert lines[0].startswith(f"{command} rubbish: ") and lines[0].endswith(", seed 0")
    assert run(*arguments, "--seed", 0, "--quiet", "--out", tmp_path / "zero.parquet") == 0
    timing = ["seconds"] if command == "exploitability" else []  # its one column of timings
    default = pl.read_parquet(tmp_path / "default.parquet").drop(timing)
    assert default.equals(pl.read_parquet(tmp_path / "zero.parquet").drop(timing))
    if command in ("compare", "tournament", "ladder"):  # tables that carry the game and rules
        assert default["seed"].unique().to_list() == [0]


@pytest.mark.parametrize("command", list(RUNS))
def test_a_bad_seed_is_refused_before_anything_runs(command, tmp_path, capsys):
    out = tmp_path / "out.csv"
    assert run(*RUNS[command], "--seed", -1, "--out", out) == 2
    assert capsys.readouterr().err == "error: seed must be a non-negative int, got -1\n"
    assert run(*RUNS[command], "--seed", 2**63, "--out", out) == 2  # was: played, then overflowed
    assert "seed must be at most 2**63 - 1" in capsys.readouterr().err
    with pytest.raises(SystemExit) as done:
        run(*RUNS[command], "--seed", "one", "--out", out)
    assert done.value.code == 2
    assert "argument --seed: expected a whole number, got 'one'" in capsys.readouterr().err
    assert not out.exists()


def test_each_command_is_parsed_from_its_one_declaration():
    parser = cli.build_parser()
    assert sorted(command.name for command in cli.COMMANDS) == sorted(["games", "fit", *RUNS])
    for command in [c for c in cli.COMMANDS if c.name in RUNS]:
        assert any(option is cli.SEED for option in command.options)
        args = parser.parse_args([str(a) for a in [*RUNS[command.name], "--out", "x.csv"]])
        assert args.run is command.run and args.seed == 0


def test_exploitability_writes_the_table_the_function_gives(tmp_path, capsys):
    from workbench.designer.exploitability import exploitability

    out = tmp_path / "gains.csv"
    assert run("exploitability", "rubbish", "--table", "heuristic", "--challenger", "random",
               "--games", 80, "--seed", 3, "--workers", 1, "--quiet", "--out", out) == 0
    direct = exploitability("rubbish", None, "heuristic", challengers=["random"], games=80,
                            seed=3, executor=SerialExecutor(), progress=False)  # fmt: skip
    written = pl.read_csv(out)
    assert written["win_share"].to_list() == direct["win_share"].to_list()
    assert written["family"].to_list() == ["random"] and written["fresh_games"][0] == 80
    assert run("exploitability", "rubbish", "--challenger", "oracle", "--games", 10,
               "--out", tmp_path / "x.csv") == 2  # refused, nothing written
    assert not (tmp_path / "x.csv").exists()
    capsys.readouterr()
    assert run("exploitability", "rubbish", "--search-games", 0, "--out", tmp_path / "x.csv") == 2
    assert capsys.readouterr().err == "error: --search-games must be a whole number >= 1, got 0\n"


def test_robust_compare_takes_an_equivalence_margin(tmp_path):
    """--margin reaches the verdicts as robust_compare's margin does; a bad one is refused."""
    from workbench.designer.robust import robust_compare

    out = tmp_path / "robust.csv"
    arguments = ["robust-compare", "rubbish", "--variant", "destined_bonus=32", "--strength",
                 "heuristic", "--strength", "random", "--games", 60, "--seed", 2]
    assert run(*arguments, "--margin", 0.5, "--workers", 1, "--quiet", "--out", out) == 0
    direct = robust_compare("rubbish", None, {"destined_bonus": 32},
                            strengths=["heuristic", "random"], games=60, seed=2, margin=0.5,
                            executor=SerialExecutor(), progress=False)  # fmt: skip
    assert pl.read_csv(out)["verdict"].to_list() == direct["verdict"].to_list()
    assert run(*arguments, "--margin", -1, "--out", tmp_path / "x.csv") == 2
    assert not (tmp_path / "x.csv").exists()


def test_tune_reads_ranges_and_open_bands(tmp_path):
    out = tmp_path / "tuned.csv"
    arguments = ["tune", "rubbish", "--agents", "heuristic", "--space", "destined_bonus=10:60",
                 "--target", "winner_cheapskate_rate=0.05:", "--budget", 150,
                 "--first-games", 50, "--quiet", "--out", out]  # fmt: skip
    assert run(*arguments) == 0
    frame = pl.read_csv(out)
    assert frame["destined_bonus"].is_between(10, 60).all() and frame["rank"][0] == 1
    assert not (tmp_path / "tuned.csv.units").exists()


def test_tune_takes_whole_value_charts_and_writes_them_back_as_literals(tmp_path):
    """A tuple is one choice (a whole collection value chart); CSV, which holds no nested data,
    gets it as the literal the command line reads back."""
    out = tmp_path / "charts.csv"
    charts = "(2,6,12,20,30,38,44),(3,6,9,12,15,18,21)"
    arguments = ["tune", "going_gone", "--agents", "valuation", "--space",
                 f"collection_values={charts}", "--target", "shared_win_rate=:0.05",
                 "--budget", 100, "--first-games", 50, "--quiet", "--out", out]  # fmt: skip
    assert run(*arguments) == 0
    written = pl.read_csv(out)["collection_values"].to_list()
    assert sorted(written) == ["(2, 6, 12, 20, 30, 38, 44)", "(3, 6, 9, 12, 15, 18, 21)"]
    assert run(*arguments[:-2], "--out", tmp_path / "charts.parquet") == 0
    stored = pl.read_parquet(tmp_path / "charts.parquet")["collection_values"].to_list()
    assert sorted(map(tuple, stored)) == [(2, 6, 12, 20, 30, 38, 44), (3, 6, 9, 12, 15, 18, 21)]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--space", "destined_bonus=10:x"], "a range is LOW:HIGH numbers"),
        (["--target", "winner_cheapskate_rate=0.1"], "METRIC=LOW:HIGH"),
        (["--target", "winner_cheapskate_rate=:"], "give LOW, HIGH or both"),
        (["--target", "winner_cheapskate_rate=a:b"], "LOW and HIGH are numbers"),
        (["--target", "no_such_metric=0:1"], "unknown metric 'no_such_metric'"),
        (["--set", "destined_bonus=20"], "--set and --space both give 'destined_bonus'"),
        (["--first-games", "0"], "--first-games must be a whole number >= 1, got 0"),
    ],
)
def test_tune_refuses_bad_spaces_and_targets(arguments, message, tmp_path, capsys):
    base = {"--space": "destined_bonus=10,40", "--target": "winner_cheapskate_rate=:0.2"}
    base.update(dict(zip(arguments[::2], arguments[1::2], strict=True)))
    flat = [item for pair in base.items() for item in pair]
    out = tmp_path / "tuned.csv"
    assert run("tune", "rubbish", *flat, "--budget", 100, "--out", out) == 2
    assert message in capsys.readouterr().err and not out.exists()


def test_tune_refuses_a_metric_given_two_bands(tmp_path, capsys):
    """The second band used to replace the first without a word."""
    out = tmp_path / "tuned.csv"
    code = run("tune", "rubbish", "--space", "destined_bonus=10,40", "--target",
               "winner_cheapskate_rate=:0.2", "--target", "winner_cheapskate_rate=0.3:0.5",
               "--budget", 100, "--out", out)  # fmt: skip
    assert code == 2 and not out.exists()
    assert capsys.readouterr().err == (
        "error: --target gives 'winner_cheapskate_rate' twice; give each metric one band\n"
    )


def test_fit_prints_and_writes_the_fitted_parameters(example, tmp_path, capsys):
    out = tmp_path / "fit.csv"
    arguments = ["fit", "example", "--set", "players=2", "--set", "items=3", "--quiet"]
    assert run(*arguments, "--out", out) == 0
    frame = pl.read_csv(out)
    assert frame["parameter"].to_list() == ["factor", "offset"]
    printed = capsys.readouterr().out
    assert f"factor = {frame['value'][0]:.6g}" in printed


def test_the_cli_defaults_to_fitted_players_and_quiet_hides_the_fit(tmp_path, capsys):
    """No --agents: every seat plays the fitted agent, fitted to these rules (a rule set with no
    shipped fit, so it fits here); --quiet shows neither the fit's progress nor the run's."""
    out = tmp_path / "games.parquet"
    arguments = ["simulate", "rubbish", "--set", "destined_bonus=35", "--games", 40, "--quiet"]
    assert run(*arguments, "--out", out) == 0
    assert capsys.readouterr().err == ""
    assert pl.read_parquet(out)["agent"].unique().to_list() == ["fitted"]
