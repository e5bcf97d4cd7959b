"""workbench.findings: sentences written from hand-made frames (the expected sentence written out
in full), checks that fail with the sentence itself, and the rules behind "told apart"."""

from __future__ import annotations

import polars as pl
import pytest

from workbench import findings
from workbench.findings import (
    Estimate,
    Finding,
    FindingNotSupported,
    change,
    check,
    difference,
    estimate,
    estimates,
    leader,
    number,
    that,
    verdict,
)

#: Win rates by seat from notebook 02 (four heuristic players, 20,000 games): seat 1 leads,
#: seat 0's interval overlaps it; seats 2 and 3 lie clearly below.
SEATS = pl.DataFrame({
    "seat": [0, 1, 2, 3],
    "n": [20_000] * 4,
    "win_rate": [0.332, 0.336, 0.230, 0.101],
    "win_low": [0.326, 0.330, 0.224, 0.097],
    "win_high": [0.339, 0.343, 0.236, 0.106],
})  # fmt: skip


def seat(number: int) -> str:
    return f"seat {number}"


def test_numbers_are_written_with_signs_and_separators():
    assert number(0.1196) == "0.120"  # rounded as polars prints it (from the binary value)
    assert number(-0.0004) == "0.000"  # no sign on what rounds to zero
    assert number(-0.093, signed=True) == "−0.093"
    assert number(0.111, signed=True) == "+0.111"
    assert number(20000.0, 0) == "20,000"
    assert findings.interval(0.578, 0.592) == "0.578–0.592"
    assert findings.interval(-0.093, 0.243) == "−0.093 to +0.243"
    assert findings.percent(1 - 0.05 / 3) == "98.33%"


def test_the_leader_cannot_be_told_apart_from_an_overlapping_second():
    found = leader(SEATS, "seat", "win_rate", low="win_low", high="win_high",
                   under="four heuristic players", what="win rate", name=seat)  # fmt: skip
    assert found.text == (
        "With four heuristic players, seat 1 has the highest win rate: 0.336 (95% interval "
        "0.330–0.343, 20,000 games), but it cannot be told apart from seat 0 (0.332 "
        "(0.326–0.339)): their intervals overlap."
    )
    assert found.under == "four heuristic players"
    assert found._repr_markdown_() == found.text == str(found)


def test_no_leader_or_change_is_read_from_undefined_values():
    """A NaN sorts anywhere: ranked, it could be named the leader ('seat 0 has the highest win
    rate: undefined'); compared, it reads as 'no change is measurable'."""
    undefined = SEATS.with_columns(win_rate=pl.when(pl.col("seat") == 0).then(float("nan"))
                                   .otherwise(pl.col("win_rate")))  # fmt: skip
    message = r"cannot compare 'win_rate': it is undefined .* for seat 0"
    with pytest.raises(ValueError, match=f"leader {message}"):
        leader(undefined, "seat", "win_rate", low="win_low", high="win_high",
               under="four heuristic players", name=seat)  # fmt: skip
    with pytest.raises(ValueError, match=r"change cannot compare 'win_rate': .* for seat 0"):
        change(undefined, "seat", "win_rate", low="win_low", high="win_high",
               under="four heuristic players")  # fmt: skip


def test_a_clear_leader_and_the_lowest():
    clear = SEATS.filter(pl.col("seat") != 0)
    found = leader(clear, "seat", "win_rate", low="win_low", high="win_high",
                   under="four heuristic players", what="win rate", name=seat)  # fmt: skip
    assert found.text.endswith("clearly above the next, seat 2 (0.230 (0.224–0.236)).")
    lowest = leader(SEATS, "seat", "win_rate", low="win_low", high="win_high",
                    under="four heuristic players", what="win rate", name=seat,
                    highest=False)  # fmt: skip
    assert lowest.text == (
        "With four heuristic players, seat 3 has the lowest win rate: 0.101 (95% interval "
        "0.097–0.106, 20,000 games), clearly below the next, seat 2 (0.230 (0.224–0.236))."
    )


#: Winner's cheapskate rate by destined bonus, four heuristic players (notebook 06): falls from
#: 0 to 15, no measurable change from 15 to 30, rises from 30 to 60.
BONUS = pl.DataFrame({
    "destined_bonus": [30, 0, 15, 45, 60],  # any order: change sorts by x
    "n": [10_000] * 5,
    "value": [0.115, 0.12153, 0.1153, 0.212, 0.233],
    "low": [0.112, 0.1191, 0.1129, 0.210, 0.230],
    "high": [0.117, 0.124, 0.1176, 0.215, 0.236],
})  # fmt: skip


def test_change_names_the_steps_that_go_the_other_way():
    found = change(BONUS, "destined_bonus", "value", under="four heuristic players",
                   what="the winner's cheapskate rate", x_name="bonus")  # fmt: skip
    assert found.text == (
        "With four heuristic players, the winner's cheapskate rate rises from 0.122 "
        "(0.119–0.124) at bonus 0 to 0.233 (0.230–0.236) at 60; step by step it falls from "
        "0 to 15, shows no measurable change from 15 to 30 and rises from 30 to 60."
    )


def test_change_at_every_step_and_no_measurable_change():
    steady = BONUS.filter(pl.col("destined_bonus") >= 30)
    found = change(steady, "destined_bonus", "value", under="fitted play", x_name="bonus")
    assert found.text == (
        "With fitted play, value rises from 0.115 (0.112–0.117) at bonus 30 to 0.233 "
        "(0.230–0.236) at 60, at every step."
    )
    flat = BONUS.filter(pl.col("destined_bonus").is_in([15, 30]))
    found = change(flat, "destined_bonus", "value", under="fitted play", x_name="bonus")
    assert found.text == (
        "With fitted play, no change in value is measurable between bonus 15 (0.115 "
        "(0.113–0.118)) and 30 (0.115 (0.112–0.117))."
    )


def test_difference_rises_falls_or_is_not_measurable():
    rise = Estimate(0.111, 0.103, 0.119, 20_000)
    assert difference(rise, what="seat 0's win rate", under="four heuristic players").text == (
        "With four heuristic players, seat 0's win rate rises by +0.111 (95% interval +0.103 "
        "to +0.119, 20,000 paired games)."
    )
    fall = Estimate(-0.064, -0.074, -0.054, 20_000)
    assert "falls by −0.064 (95% interval −0.074 to −0.054" in difference(
        fall, what="the late winner rate", under="four heuristic players").text  # fmt: skip
    flat = Estimate(-0.002, -0.014, 0.010, 4_000)
    assert difference(flat, what="the edge", under="fitted teams").text == (
        "With fitted teams, no difference in the edge is measurable on 4,000 paired games "
        "(−0.002 (−0.014 to +0.010))."
    )
    assert difference(flat, what="the edge", under="fitted teams", margin=0.02).text == (
        "With fitted teams, the edge shows no difference beyond ±0.02 on 4,000 paired games "
        "(−0.002 (−0.014 to +0.010))."
    )
    # A margin narrower than the interval says nothing more than "not measurable".
    assert "not" not in difference(flat, what="x", under="y", margin=0.01).text.split(",")[0]
    assert "no difference in x is measurable" in difference(
        flat, what="x", under="y", margin=0.01).text  # fmt: skip


def test_every_finding_names_its_line_up():
    with pytest.raises(ValueError, match="under= is required"):
        leader(SEATS, "seat", "win_rate", low="win_low", high="win_high", under=" ")


def test_estimates_read_frames_and_refuse_ambiguous_rows():
    rates = estimates(SEATS, "seat", "win_rate", low="win_low", high="win_high")
    assert rates[1] == Estimate(0.336, 0.330, 0.343, 20_000, "seat=1")
    table = pl.DataFrame({"agent": ["a", "b"], "n": [10, 10], "mean": [1.0, 2.0],
                          "mean_low": [0.5, 1.5], "mean_high": [1.5, 2.5]})  # fmt: skip
    assert estimate(table, "mean", agent="b") == Estimate(2.0, 1.5, 2.5, 10, "agent=b")
    with pytest.raises(ValueError, match="exactly one row"):
        estimate(table, "mean")
    with pytest.raises(ValueError, match="no column"):
        estimate(table, "median", agent="a")
    with pytest.raises(ValueError, match="repeats a value"):
        estimates(pl.concat([table, table]), "agent", "mean")


def test_conditions_compare_intervals():
    high, low_ = Estimate(0.336, 0.330, 0.343), Estimate(0.230, 0.224, 0.236)
    assert high.above(0.25) and not high.below(0.25) and low_.below(0.25)
    assert high.higher_than(low_) and low_.lower_than(high) and not high.overlaps(low_)
    assert Estimate(0.332, 0.326, 0.339).overlaps(high)
    assert Estimate(0.25, 0.238, 0.250).includes(0.25)
    assert not Estimate(0.252, 0.2503, 0.27).includes(0.25)
    assert high.within(0.3, 0.4) and not high.within(None, 0.34)
    assert not high.within(0.335, 0.34) and high.point.within(0.335, 0.34)  # the value alone
    assert high.excludes(0) and not Estimate(0.0, -0.1, 0.1).excludes(0)
    exact = Estimate(0.5)
    assert exact.exact and exact.includes(0.5) and exact.above(0.4) and not exact.above(0.5)
    assert high.reads("0.336") and high.reads("0.34") and not high.reads("0.332")
    assert Estimate(0.0322).reads("3.2%") and Estimate(-6.21).reads("−6.2")
    assert Estimate(20_000).reads("20,000")


def test_check_is_silent_when_the_numbers_hold():
    assert check("Seat 1 wins more than its fair share.", Estimate(0.336, 0.33, 0.343).above(
        0.25)) is None  # fmt: skip
    check("Plain truth.", True, that(2 > 1, "2 exceeds 1"))


def test_check_fails_with_the_sentence_itself():
    sentence = "With four heuristic players, seat 0 won most (0.332)."
    seat_0 = Estimate(0.332, 0.326, 0.339, label="seat 0")
    seat_1 = Estimate(0.336, 0.330, 0.343, label="seat 1")
    with pytest.raises(FindingNotSupported) as failure:
        check(sentence, seat_0.reads("0.332"), seat_0.higher_than(seat_1))
    message = str(failure.value)
    assert sentence in message
    assert "seat 0 0.332 [0.326, 0.339] lies above seat 1 0.336 [0.33, 0.343]" in message
    assert "reads as" not in message  # the condition that held is not listed
    assert failure.value.failed == [
        "seat 0 0.332 [0.326, 0.339] lies above seat 1 0.336 [0.33, 0.343]"
    ]
    assert isinstance(failure.value, AssertionError)  # pytest and nbval report it as a failure


def test_check_refuses_what_is_not_a_claim():
    with pytest.raises(ValueError, match="needs the sentence"):
        check("", True)
    with pytest.raises(ValueError, match="at least one condition"):
        check("A sentence.")
    with pytest.raises(TypeError, match="condition 1 is a float"):
        check("A sentence.", 0.5)
    with pytest.raises(FindingNotSupported, match="condition 2 of 2"):
        check("A sentence.", True, False)


def _robust(rows, verdict_text, **extra):
    return pl.DataFrame([
        {"metric": "m", "strength": s, "n": n, "diff": d, "low": lo, "high": hi,
         "confidence": c, "verdict": verdict_text, "games_to_decide": g,
         "effects_differ": extra.get("differ", ""), "baseline_name": "rulebook",
         "variant_name": "bonus=45"}
        for s, n, d, lo, hi, c, g in rows
    ])  # fmt: skip


def test_verdict_sentences():
    robust = _robust([("heuristic", 3000, 0.096, 0.090, 0.101, 0.95, None),
                      ("search", 160, 0.071, 0.039, 0.104, 0.98333, None)], "robust",
                     differ="heuristic − search +0.025 (+0.001 to +0.049)")  # fmt: skip
    assert verdict(robust, "m").text == (
        "m (bonus=45 against rulebook): robust — it rises under every strength of play tried: "
        "heuristic +0.096 (+0.090 to +0.101, 3,000 games), search +0.071 (+0.039 to +0.104, "
        "160 games); 95% intervals (search's 98.33%: played until decided, Bonferroni over "
        "its looks). The effect's size differs between strengths: heuristic − search +0.025 "
        "(+0.001 to +0.049)."
    )
    unclear = _robust([("heuristic", 3000, 0.119, 0.100, 0.139, 0.95, None),
                       ("search", 160, 0.072, -0.022, 0.166, 0.95, 638)],
                      "unclear under search")  # fmt: skip
    assert verdict(unclear, "m", what="first-seat advantage").text == (
        "first-seat advantage (bonus=45 against rulebook): unclear under search — it rises "
        "under heuristic, while the interval of search includes 0: heuristic +0.119 (+0.100 "
        "to +0.139, 3,000 games), search +0.072 (−0.022 to +0.166, 160 games); 95% intervals. "
        "Games that would likely decide it (an estimate from the standard error and the "
        "smallest effect measured elsewhere): search about 638."
    )
    unchanged = _robust([("fitted", 3000, 0.026, 0.020, 0.031, 0.95, None),
                         ("heuristic", 3000, 0.0, 0.0, 0.0, 0.95, None)],
                        "unchanged under heuristic")  # fmt: skip
    assert verdict(unchanged, "m").text.startswith(
        "m (bonus=45 against rulebook): unchanged under heuristic — it rises under fitted, "
        "while it is the same in every pair of games under heuristic: fitted +0.026")
    same = _robust([("heuristic", 3000, 0.0, 0.0, 0.0, 0.95, None)], "no change")
    assert "no change — it is the same in every pair of games under every strength" in (
        verdict(same, "m").text)  # fmt: skip
    reverses = _robust([("valuation", 2000, -0.102, -0.130, -0.075, 0.95, None),
                        ("collector", 2000, 0.477, 0.452, 0.502, 0.95, None)],
                       "reverses with play")  # fmt: skip
    assert "reverses with play — it rises under collector and falls under valuation" in (
        verdict(reverses, "m").text)  # fmt: skip
    none = _robust([("coverage", 4000, 0.001, -0.008, 0.010, 0.95, None)],
                   "no effect beyond ±0.02")  # fmt: skip
    assert verdict(none, "m").text == (
        "m (bonus=45 against rulebook): no effect beyond ±0.02 — no strength's interval "
        "excludes 0: coverage +0.001 (−0.008 to +0.010, 4,000 games); 95% intervals."
    )
    with pytest.raises(ValueError, match="no rows for metric"):
        verdict(none, "other")


def test_findings_join_into_paragraphs_and_lists():
    one = Finding("First.", "heuristic play")
    two = Finding("Second.", "fitted play")
    assert findings.paragraph(one, "Plain.", two).text == "First. Plain. Second."
    assert findings.bullets(one, two).text == "- First.\n- Second."
    assert findings.bullets(one, two).under == "fitted play; heuristic play"
