"""The lecture plan's rows hold every line of a description drawn in the widest letters ("WWWW…", "mmmm…").

The plan table is Streamlit's grid, drawn on a canvas: its rows are as tall as ``dashboard.text_fit`` estimates
a description's lines to need. The lines the grid draws are read from the canvas's own calls (``fillText``),
with where each is drawn; a line drawn past its row's edge is cut.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Dashboard
from tests.browser.opening import lecture_flags, open_page

THREAD = "lecture-wide-letters"
#: Each description at the plan's limit of 500 characters, in the font's widest letters.
WIDE = {
    "Wide W": " ".join(["W" * 8] * 55)[:500],
    "Wide m": " ".join(["m" * 12] * 38)[:500],
}
#: Every text the page's canvases draw, with where: ``[text, x, y]`` (y: the line's middle, in the canvas).
RECORD_DRAWN = """(() => { window.drawnTexts = []; const fill = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, x, y, ...rest) {
    window.drawnTexts.push([String(text), x, y]); return fill.call(this, text, x, y, ...rest); }; })()"""


@pytest.fixture(scope="module")
def wide_plan(shared_dashboard: Dashboard) -> Dashboard:
    """The shared dashboard with a lecture whose plan, edited at its review, holds the wide descriptions."""
    review = {"HITL_PLAN_REVIEW": "on"}
    subtopics = [{"title": title, "description": text} for title, text in WIDE.items()]
    subtopics.append({"title": "Short", "description": "one line"})  # a plan has three subtopics at least
    edit = json.dumps({"action": "edit_plan", "subtopics": subtopics})
    seeded = shared_dashboard.cli_batch(
        {"cli": ["run", "lecture", *lecture_flags(), "--thread", THREAD], "env": review},
        {"cli": ["resume", THREAD, edit], "env": review},
    )
    assert [step["code"] for step in seeded] == [0, 0], seeded
    return shared_dashboard


def test_a_description_in_the_widest_letters_is_never_cut(page: Page, wide_plan: Dashboard):
    page.add_init_script(RECORD_DRAWN)
    main = open_page(page, wide_plan, f"lecture?thread={THREAD}", (1280, 900))
    grid = main.get_by_test_id("stDataFrame").first
    expect(grid).to_be_visible()
    page.wait_for_function(
        "titles => titles.every(title => window.drawnTexts.some(([text]) => text === title))", arg=list(WIDE)
    )
    drawn = {(text, x, y) for text, x, y in page.evaluate("() => window.drawnTexts")}
    # A title is one line, drawn in the middle of its row: the rows' middles give their height and edges.
    middle = {title: next(y for text, _x, y in drawn if text == title) for title in WIDE}
    height = middle["Wide m"] - middle["Wide W"]
    for title, description in WIDE.items():
        lines = sorted(y for text, _x, y in drawn if text.strip() and text.strip() in description and text != title)
        assert len(lines) > 5, (title, lines)  # the description wraps
        pitch = lines[1] - lines[0]
        top, bottom = middle[title] - height / 2, middle[title] + height / 2
        assert top <= lines[0] - pitch / 2 and lines[-1] + pitch / 2 <= bottom, (title, top, bottom, lines)
