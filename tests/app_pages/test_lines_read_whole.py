"""What wrapped on a 1280×720 page without presenter mode reads whole: the robot's proposed amount stays with
its unit ("800,000 KRW" never wraps before "KRW"), and the lecture plan's descriptions are never cut."""

from __future__ import annotations

import json

import pytest

from agents import runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.lecture.progress import subtopic_rows
from dashboard import text_fit
from dashboard.lecture_view import PLAN_WIDTHS
from tests.factories import pause_robot


@pytest.mark.parametrize(("lang", "amount"), [("en", "800,000\u00a0KRW"), ("ko", "800,000원")])
def test_the_robots_proposed_amount_stays_with_its_unit(app, store, settings, lang: str, amount: str):
    pause_robot(store, settings, lang=lang)
    at = app("app_pages/robot.py")
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, at.exception
    action = [m.value for m in at.markdown if m.value.startswith(("**Proposed action:**", "**제안된 작업:**"))]
    assert action and amount in action[0], [m.value for m in at.markdown][:8]
    assert "800,000 KRW" not in action[0]  # no space a line may break at


@pytest.mark.parametrize(("lang", "description"), [("en", "description"), ("ko", "설명")])
def test_the_plans_descriptions_wrap_whole_in_their_column(app, store, settings, lang: str, description: str):
    result = runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lecture-p")
    at = app("app_pages/lecture.py")
    at.query_params["thread"] = "lecture-p"
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, at.exception
    plan = next(frame for frame in at.dataframe if description in frame.value.columns)
    columns = json.loads(plan.proto.columns)
    assert columns[description]["width"] == PLAN_WIDTHS["description"] == max(PLAN_WIDTHS.values())
    assert sum(PLAN_WIDTHS.values()) <= 818  # a 1280 px page's grid: nothing to scroll sideways to
    rows = subtopic_rows(result.values)
    longest = max(text_fit.lines_needed(row["description"], PLAN_WIDTHS["description"]) for row in rows)
    assert longest >= 2  # the example's descriptions are longer than a line
    assert plan.proto.row_height >= text_fit.row_height(longest) > 64  # rows tall enough, and they wrap
