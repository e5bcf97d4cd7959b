"""The command line for batch runs: ``python -m workbench COMMAND`` (see ``MAIN_HELP``).

Everything is checked before anything runs (the game, every rule field and value, every cell
of a sweep, the line-ups, the output paths). Results go to a temporary file beside the output
and are renamed into place only when complete, so a failed or interrupted run leaves no
half-written file. An existing output is refused unless ``--overwrite``. The commands' work is
in ``cli_commands``, the parsing and writing in ``cli_input``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.designer.cli_commands import (
    command_compare,
    command_exploitability,
    command_fit,
    command_games,
    command_ladder,
    command_robust_compare,
    command_simulate,
    command_sweep,
    command_tournament,
    command_tune,
)
from workbench.designer.cli_input import (
    VALUE_HELP,
    CommandError,
    csv_ready,
    parse_value,
    split_values,
    write_frames,
)
from workbench.designer.executors import WorkerDied

MAIN_HELP = """\
Batch runs of the workbench's games from the command line: simulate self-play, compare a rule
variant with the baseline (under one line-up, or several strengths of play), sweep a grid of
rule values, tune rules toward target bands, fit the fitted agent to a rule set, measure how
far a table of agents can be exploited, or run a tournament or a strength ladder between
agents.
Every command writes a table (parquet or CSV, by the output's extension), shows progress on
stderr and checks all of its input before it starts. Run `python -m workbench COMMAND --help`
for each command's options.

examples (one per command):
"""


# -- the commands' declarations ----------------------------------------------------------------


def _whole_number(text: str) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    return value


class _Once(argparse.Action):
    """Keep an option's value as argparse does, but refuse the option given again with another
    value (argparse would keep the last one without a word: two --out, two --games)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        given = namespace.__dict__.setdefault("_given_once", {})
        if self.dest in given and given[self.dest] != values:
            raise argparse.ArgumentError(
                self, f"given twice ({given[self.dest]} and {values}); give it once"
            )
        given[self.dest] = values
        setattr(namespace, self.dest, values)


@dataclass(frozen=True)
class Option:
    """One command-line argument: its flags and the keywords of ``add_argument``."""

    flags: tuple[str, ...]
    settings: dict[str, Any]


def option(*flags: str, **settings: Any) -> Option:
    """An argument, declared as ``parser.add_argument`` would take it; an option that takes
    one value is refused when given twice with different values."""
    if flags[0].startswith("-") and "action" not in settings:
        settings["action"] = _Once
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
    "(heuristic,random,random,random); default: fitted (fitted to the rules played, or read "
    "from the fit cache) where the game has it, else the game's default agent",
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
VARIANT = repeated(
    "--variant",
    "FIELD=VALUE",
    "what the variant changes from the baseline; repeat for several fields",
    required=True,
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
            VARIANT,
            *EXECUTOR,
            out_option("--out", "the comparison (.parquet/.csv)", required=True),
        ),
        command_compare,
    ),
    Command(
        "robust-compare",
        "Baseline vs variant under several strengths of play (default: the game's hand-written "
        "agent, fitted, search): each metric's difference and 95% interval per strength, and a "
        "verdict per metric (robust, reverses with play, unclear under a strength, no clear "
        "effect); search plays on, up to 4 times its first games, while it alone leaves a "
        "verdict unclear.",
        "python -m workbench robust-compare rubbish --variant destined_bonus=45 \\\n"
        "      --games 20000 --seed 1 --out bonus45.csv",
        (
            GAME,
            rules_option("a rule field of the baseline (default: the rulebook)"),
            *RUN,
            RESUME,
            VARIANT,
            repeated(
                "--strength",
                "LINEUP",
                "a line-up to judge the change under (like --agents); repeat for each",
            ),
            option("--margin", type=float, metavar="DELTA",
                   help="an equivalence margin: 'no effect beyond +/-DELTA' where every "
                        "strength's interval lies inside it"),
            option("--seconds", type=float, metavar="S",
                   help="a time budget for the strengths that play on until their verdict "
                        "decides (default: up to 4 times their first games)"),
            *EXECUTOR,
            out_option("--out", "the comparison (.parquet/.csv)", required=True),
        ),
        command_robust_compare,
    ),
    Command(
        "tune",
        "Rule settings that put metrics inside target bands: candidates from --space, games "
        "spent by successive halving, ranked by distance to the targets, each with its "
        "metrics' 95% intervals and the seed that reproduces it.",
        "python -m workbench tune going_gone --space starting_bucks=15:40 \\\n"
        "      --target shared_win_rate=:0.05 --budget 50000 --out tuned.csv",
        (
            GAME,
            rules_option("a rule field of the base rules the space varies"),
            option("--agents", metavar="LINEUP",
                   help="the line-up every candidate is played with (default: the game's "
                   "reference agent, fitted, where it has one; else its default agent)"),
            option("--budget", type=_whole_number, required=True, metavar="N",
                   help="games to spend in all"),
            option("--first-games", type=_whole_number, metavar="N",
                   help="games each candidate plays first (default: budget / 40, at least 50)"),
            SEED, OVERWRITE, QUIET, RESUME,
            repeated("--space", "FIELD=V1,V2|LOW:HIGH",
                     "a rule field and its values, or a numeric range; repeat for more fields",
                     required=True),
            repeated("--target", "METRIC=LOW:HIGH",
                     "a metric's target band (an empty side is open); repeat for more",
                     required=True),
            out_option("--out", "the ranking (.parquet/.csv)", required=True),
        ),
        command_tune,
    ),
    Command(
        "exploitability",
        "How far one player profits by leaving a table: each family of challengers' best "
        "response to n - 1 copies of the table's agent (hand-written and fitted policies "
        "re-fitted against it, the search modelling it), its win share alone on fresh seeds "
        "with a 95% interval and its gain over fair share (one row per family).",
        "python -m workbench exploitability rubbish --table fitted --games 2000 \\\n"
        "      --out exploitability.csv",
        (
            GAME,
            rules_option("a rule field and its value"),
            option("--table", default="fitted", metavar="AGENT",
                   help="the agent at every other seat (default: fitted)"),
            repeated("--challenger", "FAMILY",
                     "a family of challengers, by its agent's name; repeat (default: all)"),
            option("--games", type=_whole_number, default=2000, metavar="N",
                   help="fresh games each best response plays against the table (default "
                   "2000)"),
            option("--search-games", type=_whole_number, default=100, metavar="N",
                   help="games per seat and candidate while a family is searched (default "
                   "100)"),
            SEED, OVERWRITE, QUIET, RESUME, *EXECUTOR,
            out_option("--out", "the table of best responses (.parquet/.csv)", required=True),
        ),
        command_exploitability,
    ),
    Command(
        "fit",
        "Fit the game's fitted agent to a rule set (or read the fit from the cache) and print "
        "its parameters.",
        "python -m workbench fit rubbish --set destined_bonus=45",
        (
            GAME,
            rules_option("a rule field and its value"),
            SEED, OVERWRITE, QUIET,
            out_option("--out", "also write the parameters as a table (.parquet/.csv)"),
        ),
        command_fit,
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
            option("--exploitability", action="store_true",
                   help="add each agent's exploitability by every family of challengers to "
                        "the ratings (slow: see the exploitability command)"),
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
        description=MAIN_HELP + "".join(f"  {command.example}\n" for command in COMMANDS),
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
    """Run one command; 0 on success, 2 on bad input, 1 when a worker process died, 130 when
    interrupted."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except (CommandError, ValueError, TypeError, FileExistsError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except WorkerDied:
        print(
            "error: a worker process died before finishing its cell (killed: out of memory, or "
            "by a signal); no output was written. Run the command again (with --resume where it "
            "takes it, to keep the finished units), on fewer --workers, or with --workers 1 to "
            "run in this process",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        print("interrupted: no output was written", file=sys.stderr)
        return 130


__all__ = [
    "COMMANDS", "build_parser", "csv_ready", "main", "parse_value", "split_values", "write_frames",
]  # fmt: skip
