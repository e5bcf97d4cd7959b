"""What each command of the command line does (``workbench.designer.cli`` declares them):
check everything, describe the run, run it on the chosen executor, write its tables."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import polars as pl

from workbench import games as registry
from workbench.designer.cli_input import (
    CommandError,
    build_rules,
    check_outputs,
    make_executor,
    parse_assignment,
    parse_lineup,
    parse_settings,
    parse_value,
    split_values,
    write_frames,
)
from workbench.designer.executors import stop_processes
from workbench.kit.store import remove_store

Result = TypeVar("Result")


def command_games(args: argparse.Namespace) -> int:
    """List the games, or one game's rule fields (with the rulebook's values) and agents."""
    from workbench.designer.cells import rule_fields

    if args.game is None:
        for game in registry.available():
            print(f"{game}: {registry.get(game).summary}")
        return 0
    game = registry.get(args.game)
    rules = game.Rules()
    print(f"{args.game} rule fields (the rulebook's value):")
    for name in rule_fields(game):
        shown = repr(getattr(rules, name))
        print(f"  {name} = {shown if len(shown) <= 70 else shown[:67] + '...'}")
    print(f"agents: {', '.join(game.agents)}")
    if game.metrics:
        print("its own metrics: " + ", ".join(metric.name for metric in game.metrics))
    return 0


def command_simulate(args: argparse.Namespace) -> int:
    """Self-play: write the games frame, and the rounds frame when asked."""
    from workbench.designer.cells import check_lineup, designer_lineup

    game, rules = _game_and_rules(args)
    agents = designer_lineup(game, parse_lineup(args.agents))
    problem = check_lineup(game, rules, agents, progress=not args.quiet)
    if problem:
        raise CommandError(f"--agents: {problem}")
    check_outputs([args.out, args.rounds_out], args.overwrite)
    _describe(args, f"{args.games:,} games")
    games_frame, rounds_frame = game.simulate(
        rules, agents, games=args.games, seed=args.seed, progress=not args.quiet
    )
    return _write(args, [(games_frame, args.out), (rounds_frame, args.rounds_out)])


def command_compare(args: argparse.Namespace) -> int:
    """Baseline vs variant on the same seeds: write the comparison."""
    from workbench.designer.comparison import compare

    game, baseline = _game_and_rules(args)
    changes = parse_settings(args.variant, "--variant")
    agents = parse_lineup(args.agents)
    check_outputs([args.out], args.overwrite)
    _describe(args, f"baseline and variant, {args.games:,} games each")
    frame = _run(
        args,
        partial(compare, game, baseline, changes, agents, games=args.games, seed=args.seed),
    )
    return _write(args, [(frame, args.out)])


def command_sweep(args: argparse.Namespace) -> int:
    """Every cell of the grid: write the sweep table."""
    from workbench.designer.sweeps import plan_sweep, run_sweep

    game, base = _game_and_rules(args)
    grid: dict[str, list[Any]] = {}
    for item in args.grid:
        field, values = parse_assignment(item, "--grid")
        if field in grid:
            raise CommandError(f"--grid gives {field!r} twice; list all its values in one --grid")
        grid[field] = [parse_value(value) for value in split_values(values)]
    _not_set_too(args, grid, "--grid")
    agents = parse_lineup(args.agents)
    if args.lineup:
        if agents is not None:
            raise CommandError("give --agents (one line-up) or --lineup (a line-up axis), not both")
        if "agents" in grid:
            raise CommandError("give the line-up axis as --lineup or --grid agents=..., not both")
        grid["agents"] = [parse_lineup(lineup) for lineup in args.lineup]
    plan = plan_sweep(
        game, base, grid, agents, games=args.games, seed=args.seed, progress=not args.quiet
    )
    check_outputs([args.out], args.overwrite)
    _describe(args, f"{len(plan.cells)} cells × {plan.games:,} games")
    frame = _run(args, partial(run_sweep, plan))
    return _write(args, [(frame, args.out)])


def command_tournament(args: argparse.Namespace) -> int:
    """Agents against each other: write the standings and, when asked, the other tables."""
    from workbench.designer.tournaments import tournament

    game, rules = _game_and_rules(args)
    entrants = parse_lineup(args.entrants)
    if isinstance(entrants, str):
        raise CommandError(
            f"--entrants needs two or more agents separated by commas, got {args.entrants!r}"
        )
    check_outputs([args.out, args.pairwise_out, args.by_seat_out], args.overwrite)
    _describe(args, f"{len(entrants)} entrants, {args.games:,} games per seating")
    result = _run(
        args, partial(tournament, game, rules, entrants, games=args.games, seed=args.seed)
    )
    outputs = [
        (result.standings, args.out),
        (result.pairwise, args.pairwise_out),
        (result.by_seat, args.by_seat_out),
    ]
    return _write(args, outputs)


def command_ladder(args: argparse.Namespace) -> int:
    """Every agent alone against a table of every other: write the ratings and, when asked,
    the matches and best responses."""
    from workbench.designer.ladder import ladder

    game, rules = _game_and_rules(args)
    agents = parse_lineup(args.agents) if args.agents is not None else None
    if isinstance(agents, str):
        raise CommandError(f"--agents needs two or more agents separated by commas, got {agents!r}")
    check_outputs([args.out, args.matches_out, args.best_response_out], args.overwrite)
    count = len(agents) if agents is not None else len(game.agents)
    _describe(args, f"{count} agents, {args.games:,} games per seat of each match")
    result = _run(
        args, partial(ladder, game, rules, agents, games=args.games, seed=args.seed,
                      exploitability=args.exploitability),
    )
    outputs = [
        (result.ratings, args.out),
        (result.matches, args.matches_out),
        (result.best_response, args.best_response_out),
    ]
    return _write(args, outputs)


def _game_and_rules(args: argparse.Namespace, count: str | None = "games") -> tuple[Any, Any]:
    """The game's record and its rules with --set applied; the ``count`` option (--games,
    --budget; None: none) and --seed checked."""
    from workbench.designer.cells import check_seed, positive_count

    game = registry.get(args.game)
    rules = build_rules(game, parse_settings(args.set, "--set"))
    if count is not None:
        positive_count(f"--{count}", getattr(args, count))
    for other in ("first_games", "search_games"):  # tune's, exploitability's other counts
        if getattr(args, other, None) is not None:
            positive_count("--" + other.replace("_", "-"), getattr(args, other))
    check_seed(args.seed)
    return game, rules


def _not_set_too(args: argparse.Namespace, varied: dict[str, Any], option: str) -> None:
    """No field is both --set and varied by ``option`` (the --set value would be ignored)."""
    fixed = parse_settings(args.set, "--set")
    both = [field for field in varied if field in fixed]
    if both:
        raise CommandError(
            f"--set and {option} both give {', '.join(map(repr, both))}: {option} varies it, "
            "so the --set value would be ignored; give it in one of them"
        )


def _describe(args: argparse.Namespace, what: str) -> None:
    """The run's one-line description on stderr, naming the seed: 'sweep rubbish: ..., seed 0'."""
    _say(args, f"{args.command} {args.game}: {what}, seed {args.seed}")


def _run(args: argparse.Namespace, run: Callable[..., Result]) -> Result:
    """``run(executor=..., progress=...)`` on the executor --workers / --scheduler choose; a
    command that takes --resume also keeps its finished units in ``units_folder(--out)``."""
    executor, finish = make_executor(args)
    kept: dict[str, Any] = {}
    if _resumable(args):
        kept = {"store": units_folder(args.out), "resume": args.resume, "overwrite": args.overwrite}
    try:
        return run(executor=executor, progress=not args.quiet, **kept)
    except BaseException:
        if isinstance(executor, ProcessPoolExecutor):  # --workers N: end the running cells too
            stop_processes(executor)
        raise
    finally:
        finish()


def _resumable(args: argparse.Namespace) -> bool:
    """Does the command keep its finished units (it declares ``RESUME``)?"""
    return hasattr(args, "resume")


def _write(args: argparse.Namespace, outputs: Sequence[tuple[pl.DataFrame, Path | None]]) -> int:
    """Write the frames that have an output path (all or none) and say so, then remove the
    run's store of finished units, if it kept one. Exit status 0."""
    written = [(frame, path) for frame, path in outputs if path is not None]
    write_frames(written)
    for _, path in written:
        _say(args, f"wrote {path}")
    if _resumable(args):
        remove_store(units_folder(args.out))
    return 0


def units_folder(out: Path) -> Path:
    """Where a run writing ``out`` keeps its finished units: ``OUT.units/`` beside it."""
    return out.with_name(out.name + ".units")


def _say(args: argparse.Namespace, text: str) -> None:
    if not args.quiet:
        print(text, file=sys.stderr)


def parse_band(text: str, option: str) -> tuple[float | None, float | None]:
    """'0.05:0.2' -> (0.05, 0.2); an empty side is an open end ('0.05:', ':0.2')."""
    low, sep, high = text.partition(":")
    if not sep:
        raise CommandError(f"{option} takes METRIC=LOW:HIGH (an empty side is open), got {text!r}")
    try:
        band = tuple(float(side) if side.strip() else None for side in (low, high))
    except ValueError:
        raise CommandError(f"{option}: LOW and HIGH are numbers or empty, got {text!r}") from None
    if band == (None, None):
        raise CommandError(f"{option}: give LOW, HIGH or both, got {text!r}")
    return band  # type: ignore[return-value]


def parse_space(items: Sequence[str]) -> dict[str, Any]:
    """--space FIELD=V1,V2,... (values to try) or FIELD=LOW:HIGH (a numeric range)."""
    space: dict[str, Any] = {}
    for item in items:
        field, text = parse_assignment(item, "--space")
        if field in space:
            raise CommandError(f"--space gives {field!r} twice; list all its values in one")
        if ":" in text and not any(c in text for c in "([{'\""):
            low, high = (parse_value(side) for side in text.split(":", 1))
            if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (low, high)):
                raise CommandError(f"--space {field}: a range is LOW:HIGH numbers, got {text!r}")
            space[field] = (low, high)
        else:
            space[field] = [parse_value(value) for value in split_values(text)]
    return space


def command_tune(args: argparse.Namespace) -> int:
    """Rule settings ranked by distance to the target bands: write the ranking."""
    from workbench.designer.tuning import tune

    game, base = _game_and_rules(args, "budget")
    space = parse_space(args.space)
    _not_set_too(args, space, "--space")
    targets: dict[str, Any] = {}
    for item in args.target:
        metric, text = parse_assignment(item, "--target")
        if metric in targets:
            raise CommandError(f"--target gives {metric!r} twice; give each metric one band")
        targets[metric] = parse_band(text, "--target")
    check_outputs([args.out], args.overwrite)
    _describe(args, f"{len(space)} rule field(s), {args.budget:,} games in all")
    frame = tune(
        game, space, targets, agents=parse_lineup(args.agents),
        budget=args.budget, seed=args.seed, base_rules=base, first_games=args.first_games,
        progress=not args.quiet, store=units_folder(args.out), resume=args.resume,
        overwrite=args.overwrite,
    )  # fmt: skip
    return _write(args, [(frame, args.out)])


def command_robust_compare(args: argparse.Namespace) -> int:
    """Baseline vs variant under several strengths of play, with verdicts: write the table."""
    from workbench.designer.robust import robust_compare

    game, baseline = _game_and_rules(args)
    changes = parse_settings(args.variant, "--variant")
    strengths = [parse_lineup(text) for text in args.strength] if args.strength else None
    check_outputs([args.out], args.overwrite)
    _describe(args, f"baseline and variant, up to {args.games:,} games per strength")
    for flag, value in (("--margin", args.margin), ("--seconds", args.seconds)):
        if value is not None and not (value > 0 and value < float("inf")):
            raise CommandError(f"{flag} must be a positive number, got {value}")
    frame = _run(args, partial(robust_compare, game, baseline, changes,
                               strengths=strengths, games=args.games, seed=args.seed,
                               margin=args.margin, seconds=args.seconds))  # fmt: skip
    return _write(args, [(frame, args.out)])


def command_exploitability(args: argparse.Namespace) -> int:
    """Each family's best response to a table: write the table of gains."""
    from workbench.designer.exploitability import exploitability

    game, rules = _game_and_rules(args)
    check_outputs([args.out], args.overwrite)
    _describe(args, f"every family against {args.table}, {args.games:,} fresh games each")
    frame = _run(args, partial(exploitability, game, rules, args.table,
                               challengers=args.challenger, games=args.games,
                               search_games=args.search_games, seed=args.seed))  # fmt: skip
    return _write(args, [(frame, args.out)])


def command_fit(args: argparse.Namespace) -> int:
    """The ``fitted`` agent's fit to the rules: print its parameters, and write them with
    --out."""
    game, rules = _game_and_rules(args, None)
    if "fitted" not in game.agents:
        agents = ", ".join(game.agents)
        raise CommandError(f"{args.game} has no fitted agent; its agents: {agents}")
    check_outputs([args.out], args.overwrite)
    fit = game.make_agent("fitted", seed=args.seed).fit(rules, progress=not args.quiet)
    frame = pl.DataFrame(
        {"parameter": list(fit.params), "value": list(fit.params.values())},
        schema={"parameter": pl.String, "value": pl.Float64},
    ).with_columns(game=pl.lit(args.game), version=pl.lit(fit.version), seed=pl.lit(fit.seed))
    for name, value in fit.params.items():
        print(f"{name} = {value:.6g}")
    return _write(args, [(frame, args.out)])
