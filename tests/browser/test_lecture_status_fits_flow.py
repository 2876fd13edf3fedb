"""The lecture planner's status row on a projector's 1280×720 screen: every value reads whole, in English and
Korean, a finished thread's "saved as is" / "그대로 저장됨" included."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Dashboard
from tests.browser.opening import lecture_flags, open_page

WIDTH, HEIGHT = 1280, 720
THREAD = "lec-2"
#: The outcome of a thread saved as is at its gate, and the status row's labels, per language.
SAVED_AS_IS = {"en": ("Outcome", "saved as is"), "ko": ("결과", "그대로 저장됨")}
#: Each metric value's and label's text, and the parts of it that are cut: Streamlit keeps a value on one line
#: and hides what its column cannot hold behind an ellipsis, so a cut value is wider inside than it shows.
VALUES = """main => Array.from(main.querySelectorAll(
  '[data-testid="stMetricValue"], [data-testid="stMetricLabel"]')).map(value => ({
  text: value.innerText.trim(),
  cut: [value, ...value.querySelectorAll('*')].filter(part => part.scrollWidth > part.clientWidth)
    .map(part => [part.scrollWidth, part.clientWidth]),
}))"""


@pytest.fixture(scope="module")
def saved_as_is(shared_dashboard: Dashboard) -> Dashboard:
    """The shared dashboard with a lecture thread that reached its gate and was saved as is there."""
    seeded = shared_dashboard.cli_batch(
        {"cli": ["run", "lecture", *lecture_flags(), "--thread", THREAD]},
        {"cli": ["resume", THREAD, "save"]},
    )
    assert [step["code"] for step in seeded] == [0, 0], seeded
    assert "saved_as_is" in seeded[1]["out"], seeded[1]
    return shared_dashboard


@pytest.mark.parametrize("language", ["en", "ko"])
def test_a_saved_as_is_outcome_reads_whole_at_1280x720(page: Page, saved_as_is: Dashboard, language: str):
    main = open_page(page, saved_as_is, f"lecture?thread={THREAD}&lang={language}", (WIDTH, HEIGHT))
    label, outcome = SAVED_AS_IS[language]
    expect(main.get_by_test_id("stMetric").filter(has_text=label)).to_contain_text(outcome)
    page.evaluate("() => document.fonts.ready.then(() => true)")  # measured in the page's own font
    values = main.evaluate(VALUES)
    assert outcome in [value["text"] for value in values], values
    assert all(not value["cut"] for value in values), values  # the outcome, its neighbours and labels, whole
