"""The whole-run row counts its steps; the caption under the table says what its figures mean: no
speed-up where nothing ran in parallel."""

from __future__ import annotations

import math

from agents.timing import timeline_of
from dashboard.timeline_tables import stats_table, summary_table, whole_run_notes
from tests.factories import node_log_row


def _sequential() -> list[dict]:
    """Two nodes one after the other, 1 s each, with 4 s between them: task time / wall time = 2 / 6."""
    return [node_log_row(1, "propose", 0.0, 1.0, step=1), node_log_row(2, "approval", 5.0, 6.0, step=2)]


def _parallel() -> list[dict]:
    return [
        node_log_row(1, "plan", 0.0, 1.0, step=1),
        node_log_row(2, "research", 1.0, 2.0, step=2, label="a"),
        node_log_row(3, "research", 1.0, 2.0, step=2, label="b"),
    ]


def _whole(rows):
    table = stats_table(timeline_of(rows))
    return table[table["step"] == "whole run"].iloc[0]


def test_a_run_with_nothing_in_parallel_shows_no_speed_up_and_says_why():
    whole = _whole(_sequential())
    assert whole["speed-up"] is None or math.isnan(whole["speed-up"])  # never 0.33, which reads as a slowdown
    assert whole["efficiency"] is None or math.isnan(whole["efficiency"])
    assert whole["nodes"] == "supersteps: 2 · parallel: 0"  # one line: the definition is under the table
    assert whole_run_notes(timeline_of(_sequential())) == [
        "whole run: nothing ran in parallel, so no speed-up or efficiency; nodes were busy 33% of the wall time"
    ]
    compare = summary_table(timeline_of(_sequential())).iloc[0]
    assert compare["speed-up"] is None or math.isnan(compare["speed-up"])


def test_a_parallel_runs_whole_row_defines_its_speed_up_and_efficiency():
    whole = _whole(_parallel())
    assert whole["speed-up"] == 1.5  # 3 s of calls in 2 s
    assert whole["efficiency"] == 1.0
    assert whole["nodes"] == "supersteps: 2 · parallel: 1"
    assert whole_run_notes(timeline_of(_parallel())) == [
        "whole run: speed-up = all task time / wall time; efficiency = of the parallel supersteps together"
    ]


def test_the_definition_is_korean_in_korean():
    from dashboard.i18n import t

    assert "병렬로 실행된 것이 없어" in t("timeline.run_meaning.sequential", "ko", busy=33)
