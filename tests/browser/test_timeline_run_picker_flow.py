"""The timeline's run picker shows the whole label of the run it shows, at a desk and on a projector."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from dashboard.i18n import t
from tests.browser.conftest import Dashboard, wait_for_app

#: Whether the text in the picker's box (its value element) fits it: nothing cut off at the right.
FITS = "box => box.scrollWidth <= box.clientWidth"


@pytest.fixture(scope="module")
def robot_runs(shared_dashboard: Dashboard) -> str:
    """A robot thread with two runs (the pause and the answer), started from the command line."""
    for command in (("run", "robot", "--thread", "tl-picker"), ("resume", "tl-picker", "yes")):
        done = shared_dashboard.cli(*command)
        assert done.returncode == 0, done.stderr
    return "tl-picker"


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("size", [(1400, 900), (1280, 720)])
def test_the_run_pickers_label_is_shown_whole(
    browser: Browser, shared_dashboard: Dashboard, robot_runs: str, lang: str, size: tuple[int, int]
):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = context.new_page()
        page.goto(f"{shared_dashboard.url}/timeline?lang={lang}&thread={robot_runs}")
        wait_for_app(page)
        picker = page.get_by_test_id("stMain").get_by_role("combobox", name=t("timeline.run", lang), exact=True).first
        expect(picker).to_have_value(re.compile(r" · .*\d"))  # a run's label: id, start and its calls
        label = picker.input_value()
        assert " · " in label and label.split(" · ")[-1]  # a run's label, down to its call count
        assert picker.evaluate(FITS), (label, picker.evaluate("box => [box.scrollWidth, box.clientWidth]"))
    finally:
        context.close()
