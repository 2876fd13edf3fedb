"""A parallel step that gained nothing says so in the table (speed-up under 1: under one call at a time),
and the superstep table shows a lecture run whole on a 1400×900 screen, bounded however many steps a run has."""

from __future__ import annotations

from agents.timing import timeline_of
from dashboard.i18n import t
from dashboard.timeline_tables import (
    HEADER_HEIGHT,
    SHOWN_ROWS,
    WRAPPED_ROW_HEIGHT,
    no_gain_notes,
    stats_height,
    stats_table,
)
from tests.factories import node_log_row

#: A 1280×720 screen; the table keeps under two thirds of it (an eight-row run's table was 710 px).
SCREEN_HEIGHT = 720


def _reviewers(start: float, length: float, gap: float) -> list[dict]:
    """Three reviewer calls of one step, each ``length`` s, each starting ``gap`` s after the one before."""
    names = ("review_content", "review_difficulty", "review_time_allocation")
    return [
        node_log_row(index + 2, name, start + index * gap, start + index * gap + length, step=5)
        for index, name in enumerate(names)
    ]


def _step_five(rows: list[dict]):
    table = stats_table(timeline_of([node_log_row(1, "write", 0.0, 0.001, step=4), *rows]))
    return table[table["step"] == "5"].iloc[0]


def test_a_parallel_step_of_short_calls_under_one_says_no_gain_in_its_row():
    rows = _reviewers(0.001, 0.001, 0.00106)  # each ends before the next starts: 0.003 s of calls in 0.00312 s
    step = _step_five(rows)
    assert step["speed-up"] < 1
    assert step["nodes"] == "review_content, review_difficulty, review_time_allocation · no gain"  # two lines
    (note,) = no_gain_notes(timeline_of(rows))
    assert note.startswith("Step 5: speed-up 0.96 means fewer than one of its 3 calls ran at a time on average")
    assert "1.0 ms each" in note


def test_long_calls_that_did_not_overlap_are_not_called_short():
    rows = _reviewers(1.0, 1.0, 1.1)
    assert _step_five(rows)["nodes"].endswith(" · no gain")
    (note,) = no_gain_notes(timeline_of(rows))
    assert note.endswith("they did not overlap, so running them in parallel gained nothing.")


def test_overlapping_calls_and_single_calls_carry_no_note():
    step = _step_five(_reviewers(0.001, 0.01, 0.0))
    assert step["speed-up"] > 1 and step["nodes"] == "review_content, review_difficulty, review_time_allocation"
    assert no_gain_notes(timeline_of([node_log_row(1, "write", 0.0, 0.001, step=4)])) == []


def test_the_korean_row_says_no_gain_in_korean():
    assert t("timeline.no_gain", "ko") == "이득 없음"
    assert "너무 짧아" in t("timeline.no_gain.note_short", "ko", step=5, speedup="0.91", tasks=3, ms="1.4")


def test_an_eight_row_table_is_whole_on_a_900_screen_and_a_long_one_is_bounded():
    assert stats_height(8) >= 8 * WRAPPED_ROW_HEIGHT + HEADER_HEIGHT  # every row: no scrolling inside
    assert stats_height(8) <= SCREEN_HEIGHT
    assert stats_height(2) < stats_height(8)  # a short run's table is as short as its rows
    assert stats_height(200) == stats_height(SHOWN_ROWS) <= 700  # a long run's scrolls past its first rows
