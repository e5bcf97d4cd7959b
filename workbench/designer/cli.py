"""The command line for batch runs: ``python -m workbench simulate|compare|sweep|tournament``.

Everything is checked before anything runs (the game, every rule field and value, every cell
of a sweep, the line-ups, the output paths). Results go to a temporary file beside the output
and are renamed into place only when complete, so a failed or interrupted run leaves no
half-written file. An existing output is refused unless ``--overwrite``.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import os
import shutil
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import polars as pl

from workbench import games as registry

FORMATS = (".parquet", ".csv")
Result = TypeVar("Result")

MAIN_HELP = """\
Batch runs of the workbench's games from the command line: simulate self-play, compare a rule
variant with the baseline, sweep a grid of rule values, or run a tournament between agents.
Every command writes a table (parquet or CSV, by the output's extension), shows progress on
stderr and checks all of its input before it starts.

examples:
  python -m workbench games                     # the games, their rule fields and agents
  python -m workbench games rubbish
  python -m workbench simulate rubbish --agents heuristic,random,random,random \\
      --games 100000 --seed 1 --out games.parquet --rounds-out rounds.parquet
  python -m workbench compare rubbish --variant destined_bonus=40 --agents heuristic \\
      --games 100000 --seed 1 --out bonus40.csv
  python -m workbench sweep rubbish --grid destined_bonus=10,20,30,40 \\
      --lineup heuristic --lineup heuristic,random,random,random \\
      --games 100000 --seed 1 --out bonus.parquet
  python -m workbench tournament shared_budget --entrants coverage,random,equilibrium \\
      --games 2000 --seed 1 --out standings.csv --pairwise-out pairwise.csv

Run `python -m workbench COMMAND --help` for each command's options.
"""

VALUE_HELP = """\
values: FIELD=VALUE is read as a Python literal when it is one (40, 2.5, 'text', (1, 2, 5),
True, None), otherwise as text (rotating); 'none' also means None. A grid's values are split
on commas outside brackets and quotes: --grid money_cards="(1,2,2,5,10),(1,2,5,10)".
"""


class CommandError(Exception):
    """A problem with the command's input, reported as 'error: ...' with exit status 2."""


# -- parsing values --------------------------------------------------------------------------


def parse_value(text: str) -> Any:
    """A rule value from the command line: a Python literal, 'none' for None, else the text."""
    stripped = text.strip()
    if stripped.lower() == "none":
        return None
    try:
        return ast.literal_eval(stripped)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return stripped


def split_values(text: str) -> list[str]:
    """'a,b,(1,2)' -> ['a', 'b', '(1,2)']: commas outside brackets and quotes separate."""
    parts, depth, quote, current = [], 0, "", []
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return [part.strip() for part in parts]


def parse_assignment(text: str, option: str) -> tuple[str, str]:
    """'field=value' -> ('field', 'value')."""
    field, sep, value = text.partition("=")
    if not sep or not field.strip():
        raise CommandError(f"{option} takes FIELD=VALUE (e.g. destined_bonus=40), got {text!r}")
    return field.strip(), value


def parse_settings(items: Sequence[str] | None, option: str) -> dict[str, Any]:
    """Repeated FIELD=VALUE options -> {field: value}; a field given twice is an error."""
    settings: dict[str, Any] = {}
    for item in items or ():
        field, value = parse_assignment(item, option)
        if field in settings:
            raise CommandError(f"{option} sets {field!r} twice")
        settings[field] = parse_value(value)
    return settings


def parse_lineup(text: str | None) -> Any:
    """'heuristic' (every seat) or 'heuristic,random,...' (one per seat); None: the default."""
    if text is None:
        return None
    names = [name.strip() for name in text.split(",")]
    if any(not name for name in names):
        raise CommandError(f"a line-up is agent names separated by commas, got {text!r}")
    return names[0] if len(names) == 1 else names


# -- rules ----------------------------------------------------------------------------------


def build_rules(module: Any, settings: dict[str, Any], option: str = "--set") -> Any:
    """The game's rules with ``settings`` applied; every problem listed at once."""
    from workbench.designer.cells import build_rules as apply_changes
    from workbench.designer.cells import check_fields

    problems = check_fields(module, list(settings))
    if problems:
        raise CommandError(f"{option}: " + "; ".join(problems))
    rules, problem = apply_changes(module, module.Rules(), settings)
    if problem:
        raise CommandError(f"{option}: {problem}")
    return rules


# -- outputs --------------------------------------------------------------------------------


def check_outputs(paths: Sequence[Path | None], overwrite: bool) -> list[Path]:
    """The output paths, checked before any run: a known format, an existing folder, distinct,
    and not already there (unless ``overwrite``)."""
    chosen = [path for path in paths if path is not None]
    for path in chosen:
        if path.suffix.lower() not in FORMATS:
            raise CommandError(
                f"output {str(path)!r}: name it .parquet or .csv (the format follows the name)"
            )
        if not path.parent.is_dir():
            raise CommandError(
                f"output {str(path)!r}: the folder {str(path.parent)!r} does not exist"
            )
        if path.is_dir():
            raise CommandError(f"output {str(path)!r} is a folder; give a file name")
        if path.exists() and not overwrite:
            raise CommandError(
                f"output {str(path)!r} exists; pass --overwrite to replace it, or choose "
                "another name"
            )
    resolved = [path.resolve() for path in chosen]
    if len(set(resolved)) != len(resolved):
        raise CommandError("each output needs its own file name")
    return chosen


def write_frames(outputs: Sequence[tuple[pl.DataFrame, Path]]) -> None:
    """Write every frame to a temporary file beside its output, then rename them all into
    place; on any failure (or Ctrl-C) the temporary files are removed and nothing is left."""
    temporary: list[Path] = []
    try:
        for frame, path in outputs:
            partial = path.with_name(f".{path.name}.partial-{os.getpid()}")
            temporary.append(partial)
            if path.suffix.lower() == ".csv":
                frame.write_csv(partial)
            else:
                frame.write_parquet(partial)
        for partial, (_, path) in zip(temporary, outputs, strict=True):
            os.replace(partial, path)
    finally:
        for partial in temporary:
            partial.unlink(missing_ok=True)


# -- executors ------------------------------------------------------------------------------


def make_executor(args: argparse.Namespace) -> tuple[Executor | None, Callable[[], None]]:
    """(executor, what to call when done) from --workers / --scheduler. A Dask client is only
    disconnected at the end: the cluster is the user's and keeps running."""
    from workbench.designer.executors import SerialExecutor, local_processes

    if args.scheduler and args.workers is not None:
        raise CommandError("give --workers (local processes) or --scheduler (Dask), not both")
    if args.scheduler:
        try:
            from distributed import Client
        except ImportError:
            raise CommandError(
                "--scheduler needs Dask: install the extra with pip install 'workbench[dask]'"
            ) from None
        client = Client(args.scheduler)
        return client.get_executor(), client.close
    if args.workers is None:
        return None, _nothing
    if args.workers < 1:
        raise CommandError(f"--workers must be at least 1, got {args.workers}")
    if args.workers == 1:
        return SerialExecutor(), _nothing
    pool = local_processes(args.workers)
    return pool, pool.shutdown


def _nothing() -> None:
    pass


# -- commands -------------------------------------------------------------------------------


def command_games(args: argparse.Namespace) -> int:
    """List the games, or one game's rule fields (with the rulebook's values) and agents."""
    if args.game is None:
        for game in registry.available():
            module = registry.get(game)
            summary = (module.__doc__ or "").strip().splitlines()[0]
            print(f"{game}: {summary}")
        return 0
    module = registry.get(args.game)
    rules = module.Rules()
    print(f"{args.game} rule fields (the rulebook's value):")
    for field in dataclasses.fields(rules):
        if field.init:
            value = getattr(rules, field.name)
            shown = repr(value)
            if len(shown) > 70:
                shown = shown[:67] + "..."
            print(f"  {field.name} = {shown}")
    print(f"agents: {', '.join(module.AGENTS)}")
    metrics = getattr(module, "GAME_METRICS", ())
    if metrics:
        print("its own metrics: " + ", ".join(metric.name for metric in metrics))
    return 0


def command_simulate(args: argparse.Namespace) -> int:
    """Self-play: write the games frame, and the rounds frame when asked."""
    from workbench.designer.cells import check_lineup

    module, rules = _game_and_rules(args)
    agents = parse_lineup(args.agents)
    problem = check_lineup(module, rules, agents)
    if problem:
        raise CommandError(f"--agents: {problem}")
    check_outputs([args.out, args.rounds_out], args.overwrite)
    _describe(args, f"{args.games:,} games")
    games_frame, rounds_frame = module.simulate(
        rules, agents, games=args.games, seed=args.seed, progress=not args.quiet
    )
    return _write(args, [(games_frame, args.out), (rounds_frame, args.rounds_out)])


def command_compare(args: argparse.Namespace) -> int:
    """Baseline vs variant on the same seeds: write the comparison."""
    from workbench.designer.comparison import compare

    _, baseline = _game_and_rules(args)
    changes = parse_settings(args.variant, "--variant")
    agents = parse_lineup(args.agents)
    check_outputs([args.out], args.overwrite)
    _describe(args, f"baseline and variant, {args.games:,} games each")
    frame = _run(
        args,
        partial(compare, args.game, baseline, changes, agents, games=args.games, seed=args.seed),
    )
    return _write(args, [(frame, args.out)])


def command_sweep(args: argparse.Namespace) -> int:
    """Every cell of the grid: write the sweep table."""
    from workbench.designer.sweeps import plan_sweep, run_sweep

    _, base = _game_and_rules(args)
    grid: dict[str, list[Any]] = {}
    for item in args.grid:
        field, values = parse_assignment(item, "--grid")
        if field in grid:
            raise CommandError(f"--grid gives {field!r} twice; list all its values in one --grid")
        grid[field] = [parse_value(value) for value in split_values(values)]
    agents = parse_lineup(args.agents)
    if args.lineup:
        if agents is not None:
            raise CommandError("give --agents (one line-up) or --lineup (a line-up axis), not both")
        grid["agents"] = [parse_lineup(lineup) for lineup in args.lineup]
    plan = plan_sweep(args.game, base, grid, agents, games=args.games, seed=args.seed)
    check_outputs([args.out], args.overwrite)
    _describe(args, f"{len(plan.cells)} cells × {plan.games:,} games")
    frame = _run(args, partial(run_sweep, plan))
    return _write(args, [(frame, args.out)])


def command_tournament(args: argparse.Namespace) -> int:
    """Agents against each other: write the standings and, when asked, the other tables."""
    from workbench.designer.tournaments import tournament

    _, rules = _game_and_rules(args)
    entrants = parse_lineup(args.entrants)
    if isinstance(entrants, str):
        raise CommandError(
            f"--entrants needs two or more agents separated by commas, got {args.entrants!r}"
        )
    check_outputs([args.out, args.pairwise_out, args.by_seat_out], args.overwrite)
    _describe(args, f"{len(entrants)} entrants, {args.games:,} games per seating")
    result = _run(
        args, partial(tournament, args.game, rules, entrants, games=args.games, seed=args.seed)
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

    module, rules = _game_and_rules(args)
    agents = parse_lineup(args.agents) if args.agents else None
    if isinstance(agents, str):
        raise CommandError(f"--agents needs two or more agents separated by commas, got {agents!r}")
    check_outputs([args.out, args.matches_out, args.best_response_out], args.overwrite)
    count = len(agents) if agents is not None else len(module.AGENTS)
    _describe(args, f"{count} agents, {args.games:,} games per seat of each match")
    result = _run(
        args, partial(ladder, args.game, rules, agents, games=args.games, seed=args.seed)
    )
    outputs = [
        (result.ratings, args.out),
        (result.matches, args.matches_out),
        (result.best_response, args.best_response_out),
    ]
    return _write(args, outputs)


def _game_and_rules(args: argparse.Namespace) -> tuple[Any, Any]:
    """The game's module and its rules with --set applied; --games and --seed checked."""
    from workbench.designer.cells import check_seed, positive_count

    module = registry.get(args.game)
    rules = build_rules(module, parse_settings(args.set, "--set"))
    positive_count("--games", args.games)
    check_seed(args.seed)
    return module, rules


def _describe(args: argparse.Namespace, what: str) -> None:
    """The run's one-line description on stderr, naming the seed: 'sweep rubbish: ..., seed 0'."""
    _say(args, f"{args.command} {args.game}: {what}, seed {args.seed}")


def _run(args: argparse.Namespace, run: Callable[..., Result]) -> Result:
    """``run(executor=..., progress=...)`` on the executor that --workers / --scheduler choose,
    released afterwards; a command that takes --resume also keeps its finished units in
    ``units_folder(--out)`` (``store=``, ``resume=``, ``overwrite=``)."""
    executor, finish = make_executor(args)
    kept: dict[str, Any] = {}
    if _resumable(args):
        kept = {"store": units_folder(args.out), "resume": args.resume, "overwrite": args.overwrite}
    try:
        return run(executor=executor, progress=not args.quiet, **kept)
    finally:
        finish()


def _resumable(args: argparse.Namespace) -> bool:
    """Does the command keep its finished units (it declares ``RESUME``)?"""
    return hasattr(args, "resume")


def _write(args: argparse.Namespace, outputs: Sequence[tuple[pl.DataFrame, Path | None]]) -> int:
    """Write the frames that have an output path (all or none) and say so; then the run's
    store of finished units, if it kept one, is removed: its work is done. Exit status 0."""
    written = [(frame, path) for frame, path in outputs if path is not None]
    write_frames(written)
    for _, path in written:
        _say(args, f"wrote {path}")
    if _resumable(args):
        shutil.rmtree(units_folder(args.out), ignore_errors=True)
    return 0


def units_folder(out: Path) -> Path:
    """Where a run writing ``out`` keeps its finished units: ``OUT.units/`` beside it."""
    return out.with_name(out.name + ".units")


def _say(args: argparse.Namespace, text: str) -> None:
    if not args.quiet:
        print(text, file=sys.stderr)


# -- the commands' declarations ----------------------------------------------------------------


def _whole_number(text: str) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    return value


@dataclass(frozen=True)
class Option:
    """One command-line argument: its flags and the keywords of ``add_argument``."""

    flags: tuple[str, ...]
    settings: dict[str, Any]


def option(*flags: str, **settings: Any) -> Option:
    """An argument, declared as ``parser.add_argument`` would take it."""
    return Option(flags, settings)


def repeated(flag: str, metavar: str, about: str, *, required: bool = False) -> Option:
    """An option that may be given several times; its values are collected in a list."""
    return option(flag, action="append", required=required, metavar=metavar, help=about)


def rules_option(about: str) -> Option:
    """--set FIELD=VALUE, repeated; ``about`` says which rules it sets."""
    return repeated(
        "--set", "FIELD=VALUE", f"{about}; repeat for several fields (e.g. --set players=3)"
    )


def out_option(flag: str, what: str, *, required: bool = False) -> Option:
    """An output file: parquet or CSV by its name."""
    return option(flag, type=Path, required=required, help=what)


GAME = option("game", help="the game id (see `python -m workbench games`)")
AGENTS = option(
    "--agents",
    metavar="LINEUP",
    help="one agent name for every seat (heuristic) or one per seat, comma-separated "
    "(heuristic,random,random,random); default: the game's default agent",
)
GAMES = option(
    "--games",
    type=_whole_number,
    required=True,
    metavar="N",
    help="games to play (per rule set, cell or seating)",
)
SEED = option(
    "--seed",
    type=_whole_number,
    default=0,
    metavar="SEED",
    help="the base seed (a non-negative whole number; default 0): the same seed gives the "
    "same table",
)
OVERWRITE = option(
    "--overwrite", action="store_true", help="replace output files that already exist"
)
QUIET = option("--quiet", action="store_true", help="no progress or messages on stderr")
WORKERS = option(
    "--workers",
    type=_whole_number,
    metavar="N",
    help="local worker processes (default: one per core; 1 runs in this process)",
)
SCHEDULER = option(
    "--scheduler",
    metavar="ADDRESS",
    help="run the cells on a Dask cluster, e.g. tcp://scheduler:8786 "
    "(needs pip install 'workbench[dask]')",
)
RESUME = option(
    "--resume",
    action="store_true",
    help="continue a stopped run: each finished unit (cell, seating) is kept in OUT.units/ as "
    "it completes, and only the rest are run (the same command, game, rules, line-ups, games "
    "and seed are required); without it an existing OUT.units/ is refused unless --overwrite",
)
#: What every run takes after its game, rules and line-up; and where it runs.
RUN = (GAMES, SEED, OVERWRITE, QUIET)
EXECUTOR = (WORKERS, SCHEDULER)


@dataclass(frozen=True)
class Command:
    """A sub-command: its name, what it does, an example, its arguments and what runs it."""

    name: str
    summary: str
    example: str
    options: tuple[Option, ...]
    run: Callable[[argparse.Namespace], int]


COMMANDS = (
    Command(
        "games",
        "List the games; with a game id, its rule fields (the rulebook's values) and agents.",
        "python -m workbench games rubbish",
        (option("game", nargs="?", help="a game id (omit to list the games)"),),
        command_games,
    ),
    Command(
        "simulate",
        "Self-play: the games frame (one row per game × seat), and optionally the rounds frame.",
        "python -m workbench simulate rubbish --set players=3 --agents heuristic \\\n"
        "      --games 100000 --seed 1 --out games.parquet --rounds-out rounds.parquet",
        (
            GAME,
            rules_option("a rule field and its value"),
            AGENTS,
            *RUN,
            out_option("--out", "the games frame (.parquet/.csv)", required=True),
            out_option("--rounds-out", "also write the rounds frame here"),
        ),
        command_simulate,
    ),
    Command(
        "compare",
        "Baseline vs variant on the same seeds: every balance metric, each side's value, the "
        "difference and its 95% interval (one row per metric).",
        "python -m workbench compare shared_budget --variant tie_priority=fixed \\\n"
        "      --agents coverage,random --games 20000 --seed 1 --out fixed_priority.csv",
        (
            GAME,
            rules_option("a rule field of the baseline (default: the rulebook)"),
            AGENTS,
            *RUN,
            repeated(
                "--variant",
                "FIELD=VALUE",
                "what the variant changes from the baseline; repeat for several fields",
                required=True,
            ),
            *EXECUTOR,
            out_option("--out", "the comparison (.parquet/.csv)", required=True),
        ),
        command_compare,
    ),
    Command(
        "sweep",
        "Every combination of a grid of rule values (and line-ups): one row per cell × metric, "
        "with n and a 95% interval. Each cell's seed comes from the base seed and the cell's "
        "own values, so a cell re-run alone gives the same numbers.",
        "python -m workbench sweep rubbish --grid destined_bonus=10,20,30,40 \\\n"
        "      --grid players=3,4 --lineup heuristic --lineup heuristic,random \\\n"
        "      --games 100000 --seed 1 --out bonus.parquet",
        (
            GAME,
            rules_option("a rule field of the base rules the grid varies"),
            AGENTS,
            *RUN,
            RESUME,
            repeated(
                "--grid",
                "FIELD=V1,V2,...",
                "a rule field and the values to try; repeat for more fields (every combination "
                "is a cell)",
                required=True,
            ),
            repeated(
                "--lineup",
                "LINEUP",
                "a line-up to try as a grid axis (like --agents); repeat for each line-up",
            ),
            *EXECUTOR,
            out_option("--out", "the sweep table (.parquet/.csv)", required=True),
        ),
        command_sweep,
    ),
    Command(
        "tournament",
        "Agents against each other with seats rotated: standings (win rates), head-to-head "
        "results and win rate by seat, each with a 95% interval.",
        "python -m workbench tournament rubbish --entrants heuristic,random \\\n"
        "      --games 20000 --seed 1 --out standings.csv --pairwise-out pairwise.csv",
        (
            GAME,
            rules_option("a rule field and its value"),
            *RUN,
            RESUME,
            option(
                "--entrants",
                required=True,
                metavar="A,B,...",
                help="two or more agent names, comma-separated",
            ),
            *EXECUTOR,
            out_option("--out", "the standings (.parquet/.csv)", required=True),
            out_option("--pairwise-out", "also write the head-to-head table"),
            out_option("--by-seat-out", "also write win rates by seat"),
        ),
        command_tournament,
    ),
    Command(
        "ladder",
        "A strength ladder: every agent alone against a table of every other, seats rotated; "
        "a rating per agent with a 95% interval, and each agent's best-response gain.",
        "python -m workbench ladder going_gone --agents random,valuation,collector \\\n"
        "      --games 2000 --seed 1 --out ratings.csv --best-response-out best.csv",
        (
            GAME,
            rules_option("a rule field and its value"),
            *RUN,
            RESUME,
            option(
                "--agents",
                metavar="A,B,...",
                help="two or more agent names, comma-separated (default: all the game's agents)",
            ),
            *EXECUTOR,
            out_option("--out", "the ratings (.parquet/.csv)", required=True),
            out_option("--matches-out", "also write every match (challenger x table)"),
            out_option("--best-response-out", "also write each agent's best challenger"),
        ),
        command_ladder,
    ),
)


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command in ``COMMANDS``; each parse names the command's ``run``."""
    parser = argparse.ArgumentParser(
        prog="python -m workbench",
        description=MAIN_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        sub = subparsers.add_parser(
            command.name,
            help=command.summary.replace("%", "%%"),
            description=command.summary,
            epilog=f"example:\n  {command.example}\n\n{VALUE_HELP}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        for argument in command.options:
            sub.add_argument(*argument.flags, **argument.settings)
        sub.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; 0 on success, 2 on bad input, 130 when interrupted."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (CommandError, ValueError, TypeError, FileExistsError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: no output was written", file=sys.stderr)
        return 130


__all__ = ["build_parser", "main", "parse_value", "split_values"]
