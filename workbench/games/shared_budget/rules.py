"""Rules of the shared budget auction (docs/rules.md), and ``priority_order``, ``award`` and
``standings``: the one implementation of those rules, which engine and solver build on."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from workbench.checks import choice, flag, whole_entries, whole_number
from workbench.data import read_table, table_path
from workbench.kit.frames import shares
from workbench.kit.state import standings as standings_of

#: The three required functions, in the order the rulebook lists them.
FUNCTIONS = ("welcome", "rest", "explore")
#: The shipped card table in ``data/``.
DEFAULT_TABLE = "shared_budget_projects"
#: Team letters, by seat.
TEAM_NAMES = ("A", "B", "C", "D")
#: Sealed-bid auction between teams, or one group at fixed prices.
VARIANTS = ("auction", "classroom")
#: Round r's priority starts one team later than round r-1's (rulebook), or never moves.
TIE_PRIORITIES = ("rotating", "fixed")
#: Equal scores go to the larger remaining budget, then share (rulebook), or share at once.
FINAL_TIEBREAKS = ("budget", "shared")
#: Largest budget the engine accepts (the exact solver has its own, smaller limit).
MAX_BUDGET = 1000
MAX_CARDS = 20


@dataclass(frozen=True)
class Project:
    """One project card: its name, the functions it supplies, and its classroom price."""

    name: str
    functions: tuple[str, ...]
    price: int | None = None

    @property
    def label(self) -> str:
        """'Music nook (rest+welcome)': the name with the functions it supplies."""
        return f"{self.name} ({'+'.join(self.functions) or 'nothing'})"


@dataclass(frozen=True)
class Rules:
    """Options of the shared budget auction; the defaults are the rulebook's.

    teams: competing teams, 2-4 (the classroom variant is played by the whole group as one).
    budget: credits each team starts with (the classroom group's shared budget).
    card_table: the card table in ``data/`` (or a path to a CSV) used when ``cards`` is None.
    cards: explicit cards in offer order, as (name, functions) or (name, functions, price),
        functions a '+'-joined string or a sequence of names; overrides ``card_table``.
    functions: the required functions; the score is how many of them a team covers.
    tie_priority: "rotating" (rulebook) or "fixed" priority order for tied top bids.
    first_priority: the team first in round 1's priority order (0 = A).
    final_tiebreak: "budget" (rulebook: larger remaining budget, then shared) or "shared".
    variant: "auction" (rulebook) or "classroom" (one group, fixed printed prices).
    strict_bids: False (rulebook): an over-budget, negative or unreadable bid is a pass,
        recorded in the log; True: such a bid raises ``IllegalAction``.
    """

    teams: int = 2
    budget: int = 20
    card_table: str = DEFAULT_TABLE
    cards: tuple[Project, ...] | None = None
    functions: tuple[str, ...] = FUNCTIONS
    tie_priority: str = "rotating"
    first_priority: int = 0
    final_tiebreak: str = "budget"
    variant: str = "auction"
    strict_bids: bool = False
    projects: tuple[Project, ...] = field(init=False, repr=False, compare=False)
    rounds: int = field(init=False, repr=False, compare=False)
    _masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _priorities: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Whole numbers (Python or numpy) are stored as ints; every problem is a ValueError.
        object.__setattr__(self, "teams", _check_int("teams", self.teams, 2, len(TEAM_NAMES)))
        object.__setattr__(self, "budget", _check_int("budget", self.budget, 1, MAX_BUDGET))
        functions = _check_functions(self.functions)
        object.__setattr__(self, "functions", functions)
        choice("Rules.tie_priority", self.tie_priority, TIE_PRIORITIES)
        first = _check_int("first_priority", self.first_priority, 0, self.teams - 1)
        object.__setattr__(self, "first_priority", first)
        choice("Rules.final_tiebreak", self.final_tiebreak, FINAL_TIEBREAKS)
        choice("Rules.variant", self.variant, VARIANTS)
        strict = flag("Rules.strict_bids", self.strict_bids, type_error=ValueError)
        object.__setattr__(self, "strict_bids", strict)
        if self.variant == "classroom":
            _check_classroom_fields(self)
        if not isinstance(self.card_table, str) or not self.card_table:
            raise ValueError(f"Rules.card_table must be a table name or a CSV path, got "
                             f"{self.card_table!r}")  # fmt: skip
        if self.cards is None:
            projects = _table_projects(self.card_table, functions)
        else:
            projects = _explicit_projects(self.cards, functions)
            object.__setattr__(self, "cards", projects)
        if self.variant == "classroom":
            unpriced = [p.name for p in projects if p.price is None]
            if unpriced:
                raise ValueError(f"Rules.variant='classroom' needs a fixed price on every card; "
                                 f"no price for {unpriced}")  # fmt: skip
        object.__setattr__(self, "projects", projects)
        object.__setattr__(self, "rounds", len(projects))  # one round per project card
        object.__setattr__(self, "_masks", tuple(self.mask(p.functions) for p in projects))
        orders = tuple(priority_order(self, k) for k in range(len(projects)))
        object.__setattr__(self, "_priorities", orders)

    @property
    def players(self) -> int:
        """Seats at the table: the teams, or 1 (the whole group) in the classroom variant."""
        return 1 if self.variant == "classroom" else self.teams

    def team_name(self, seat: int) -> str:
        """'A', 'B', ... ('group' in the classroom variant)."""
        return "group" if self.variant == "classroom" else TEAM_NAMES[seat]

    def mask(self, functions: Iterable[str] | str) -> int:
        """Bit mask of a set of functions (bit i = ``self.functions[i]``)."""
        names = _split_functions(functions)
        unknown = [name for name in names if name not in self.functions]
        if unknown:
            raise ValueError(f"unknown functions {unknown}; the functions are {self.functions}")
        return sum(1 << self.functions.index(name) for name in set(names))

    def names(self, mask: int) -> tuple[str, ...]:
        """The functions in a bit mask, in the rules' order."""
        return tuple(name for i, name in enumerate(self.functions) if mask >> i & 1)

    def card_masks(self) -> tuple[int, ...]:
        """Function mask of every card, in offer order."""
        return self._masks

    def remaining_masks(self) -> tuple[int, ...]:
        """Functions supplied by round k's card or a later one, for k = 0..rounds (0 at the end)."""
        remaining = [0] * (self.rounds + 1)
        for k in range(self.rounds - 1, -1, -1):
            remaining[k] = remaining[k + 1] | self._masks[k]
        return tuple(remaining)

    def priority_order(self, round_index: int) -> tuple[int, ...]:
        """Tie priority for round ``round_index`` (0-based): team seats, earliest first."""
        return self._priorities[_round_index(self, round_index)]


def priority_order(rules: Rules, round_index: int) -> tuple[int, ...]:
    """Round r (1-based) starts at team (r - 1 + first_priority) mod n when rotating, at
    ``first_priority`` every round when fixed, and runs on in team order."""
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a shared_budget Rules, got {type(rules).__name__}")
    round_index = _round_index(rules, round_index)
    n = rules.teams
    shift = round_index if rules.tie_priority == "rotating" else 0
    start = (shift + rules.first_priority) % n
    return tuple((start + i) % n for i in range(n))


def award(bids: Sequence[int], priority: Sequence[int]) -> int | None:
    """The seat winning the card: the single highest positive bid, ties to the tied team
    earliest in ``priority``; None when every bid is zero (the card stays unallocated)."""
    bids = whole_numbers("bids", bids)
    priority = whole_numbers("priority", priority)
    if not bids or sorted(priority) != list(range(len(bids))):
        raise ValueError(f"priority must list every bidding team's seat once (0–{len(bids) - 1}), "
                         f"got {priority!r} for bids {bids!r}")  # fmt: skip
    return _award(bids, priority)


def _award(bids: Sequence[int], priority: Sequence[int]) -> int | None:
    """``award`` on arguments already known to be good (the engine's and the solver's)."""
    top = max(bids)
    if top <= 0:
        return None
    for seat in priority:
        if bids[seat] == top:
            return seat
    raise ValueError(f"priority {tuple(priority)} does not list every bidding team")


def coverage_score(mask: int) -> int:
    """Score of a coverage mask: one point per distinct function covered."""
    return int(mask).bit_count()


def standings(
    scores: Sequence[int], budgets: Sequence[int], final_tiebreak: str = "budget"
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[float, ...]]:
    """(ranks, winners, shares): by score, then (the "budget" tie-break) remaining budget; equal
    teams share a rank (1 = best), the teams tied first the win."""
    scores = whole_numbers("scores", scores)
    budgets = whole_numbers("budgets", budgets)
    if not scores or len(budgets) != len(scores):
        raise ValueError(f"scores and budgets must give one number per team, got {scores!r} and "
                         f"{budgets!r}")  # fmt: skip
    choice("final_tiebreak", final_tiebreak, FINAL_TIEBREAKS)
    return _standings(scores, budgets, final_tiebreak)


def _standings(
    scores: Sequence[int], budgets: Sequence[int], final_tiebreak: str
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[float, ...]]:
    """``standings`` on arguments already known to be good (the engine's and the solver's)."""
    budgets = budgets if final_tiebreak == "budget" else [0] * len(scores)
    ranks, winners = standings_of(list(zip(scores, budgets, strict=True)))
    return ranks, winners, tuple(shares(ranks))


def _split_functions(functions: Iterable[str] | str) -> tuple[str, ...]:
    """'rest+welcome' or ['rest', 'welcome'] -> ('rest', 'welcome'); '' -> ()."""
    if isinstance(functions, str):
        parts = [part.strip() for part in functions.split("+")]
        return tuple(part for part in parts if part)
    if not isinstance(functions, Iterable):
        raise TypeError(f"functions must be a '+'-joined string or a sequence of names, got "
                        f"{functions!r}")  # fmt: skip
    parts = list(functions)
    if not all(isinstance(part, str) for part in parts):
        raise TypeError(f"function names must be strings, got {functions!r}")
    return tuple(part.strip() for part in parts)


def _check_int(name: str, value: object, low: int, high: int) -> int:
    return whole_number(f"Rules.{name}", value, low=low, high=high,
                        allowed=f"an int from {low} to {high}", type_error=ValueError)  # fmt: skip


def whole_numbers(name: str, values: object) -> tuple[int, ...]:
    """``values`` as a tuple of ints: a sequence of Python or numpy integers, else TypeError."""
    wanted = f"{name} must be a sequence of whole numbers, got"
    given = whole_entries(values, lambda _, bad: f"{wanted} {values!r}" if bad is None
                          else f"{wanted} {bad[0]!r} in {values!r}")  # fmt: skip
    return tuple(int(v) for v in given)


def _round_index(rules: Rules, round_index: object) -> int:
    last = rules.rounds - 1
    return whole_number("round_index", round_index, low=0, high=last, allowed=f"0–{last}")


#: Fields the classroom variant (one group, fixed prices) has no use for, with their defaults.
_AUCTION_ONLY = {"teams": 2, "tie_priority": "rotating", "first_priority": 0,
                 "final_tiebreak": "budget"}  # fmt: skip


def _check_classroom_fields(rules: Rules) -> None:
    """The classroom variant refuses settings it would ignore, rather than ignore them."""
    changed = {name: getattr(rules, name) for name, default in _AUCTION_ONLY.items()
               if getattr(rules, name) != default}  # fmt: skip
    if changed:
        shown = ", ".join(f"{name}={value!r}" for name, value in changed.items())
        raise ValueError(
            f"Rules.variant='classroom' is one group buying at fixed prices, so {shown} would be "
            f"ignored: leave {', '.join(changed)} at the default "
            f"({', '.join(f'{n}={_AUCTION_ONLY[n]!r}' for n in changed)}) or use "
            "variant='auction'"
        )


def _check_functions(functions: object) -> tuple[str, ...]:
    if isinstance(functions, str) or not isinstance(functions, Iterable):
        raise ValueError(f"Rules.functions must be a sequence of names, got {functions!r}")
    names = tuple(functions)
    bad = [n for n in names if not isinstance(n, str) or not n.strip() or "+" in n]
    if not 1 <= len(names) <= 8 or bad:
        raise ValueError("Rules.functions must be 1 to 8 distinct non-empty names without '+', "
                         f"got {functions!r}")  # fmt: skip
    stripped = tuple(n.strip() for n in names)
    repeated = _repeated(stripped)
    if repeated:
        raise ValueError(f"Rules.functions must be distinct names (surrounding spaces do not "
                         f"count), got {functions!r}: {repeated} repeated")  # fmt: skip
    return stripped


def _repeated(names: Sequence[str]) -> list[str]:
    """The names given more than once, sorted."""
    return sorted({name for name in names if names.count(name) > 1})


def _project(name: object, functions: object, price: object, known: tuple[str, ...]) -> Project:
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"a card name must be a non-empty string, got {name!r}")
    try:
        parsed = _split_functions(functions)  # type: ignore[arg-type]
    except TypeError as error:  # Rules report every bad field as a ValueError
        raise ValueError(f"card {name!r}: {error}") from None
    unknown = [f for f in parsed if f not in known]
    if unknown:
        raise ValueError(f"card {name!r} supplies unknown functions {unknown}; Rules.functions "
                         f"are {known}")  # fmt: skip
    if price is not None:
        allowed = "a non-negative int or None"
        price = whole_number(f"card {name!r}: price", price, low=0, allowed=allowed,
                             type_error=ValueError)  # fmt: skip
    ordered = tuple(f for f in known if f in parsed)
    return Project(name.strip(), ordered, price)


def _check_projects(projects: tuple[Project, ...], source: str) -> tuple[Project, ...]:
    if not 1 <= len(projects) <= MAX_CARDS:
        raise ValueError(f"{source} must hold 1 to {MAX_CARDS} cards, got {len(projects)}")
    repeated = _repeated([p.name for p in projects])
    if repeated:
        raise ValueError(f"{source}: card names must be distinct, repeated: {repeated}")
    return projects


def _explicit_projects(cards: object, known: tuple[str, ...]) -> tuple[Project, ...]:
    if isinstance(cards, str) or not isinstance(cards, Iterable):
        raise ValueError(f"Rules.cards must be a sequence of (name, functions) pairs, got "
                         f"{cards!r}")  # fmt: skip
    projects = []
    for card in cards:
        if isinstance(card, Project):
            projects.append(_project(card.name, card.functions, card.price, known))
        elif isinstance(card, tuple | list) and len(card) in (2, 3):
            price = card[2] if len(card) == 3 else None
            projects.append(_project(card[0], card[1], price, known))
        else:
            raise ValueError("Rules.cards entries must be (name, functions) or (name, functions, "
                             f"price), got {card!r}")  # fmt: skip
    return _check_projects(tuple(projects), "Rules.cards")


def _table_projects(card_table: str, known: tuple[str, ...]) -> tuple[Project, ...]:
    path = table_path(card_table)
    return _cached_table(str(path), os.stat(path).st_mtime_ns, known)


@lru_cache(maxsize=32)
def _cached_table(path: str, _mtime: int, known: tuple[str, ...]) -> tuple[Project, ...]:
    """Cards of a CSV table (order, name, functions[, price]), cached until the file changes."""
    rows = read_table(path)
    source = f"card table {path}"
    if not rows or not {"order", "name", "functions"} <= set(rows[0]):
        raise ValueError(f"{source} needs the columns order, name, functions (and price)")
    entries = []
    for row in rows:
        try:
            order = int(row["order"])
            price = int(row["price"]) if row.get("price") else None
        except ValueError:
            raise ValueError(f"{source}: order and price must be whole numbers in {row}") from None
        entries.append((order, _project(row["name"], row["functions"], price, known)))
    orders = [order for order, _ in entries]
    if len(set(orders)) != len(orders):
        raise ValueError(f"{source}: the order column must not repeat, got {orders}")
    return _check_projects(tuple(p for _, p in sorted(entries, key=lambda e: e[0])), source)
