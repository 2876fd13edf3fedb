"""Browser flow of the checkpoint explorer: the graph, a clicked point, the selectbox, the writes."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import Dashboard, wait_for_app


def _writes_table(page: Page) -> Locator:
    """The accessible table behind the writes dataframe (the grid itself draws on a canvas)."""
    return page.get_by_test_id("stDataFrame").last.locator("table").first


def _selected_heading(page: Page) -> Locator:
    return page.get_by_test_id("stMain").get_by_role("heading", name=re.compile(r"^Checkpoint [0-9a-f]+$"))


def test_explorer_graph_click_and_select_show_writes(page: Page, dashboard: Dashboard):
    started = dashboard.cli("run", "robot")
    assert started.returncode == 0, started.stderr
    page.goto(f"{dashboard.url}/explorer?thread=hitl_demo")
    wait_for_app(page)
    expect(page.get_by_text("3 checkpoints · 1 lane(s)", exact=False)).to_be_visible()
    points = page.locator(".js-plotly-plot .scatterlayer .point")
    expect(points.first).to_be_visible(timeout=30_000)  # Plotly's chart loads lazily
    assert points.count() >= 3

    # The head (paused at the approval) is selected first: its writes hold the interrupt.
    head_heading = _selected_heading(page).inner_text()
    expect(_writes_table(page)).to_contain_text("__interrupt__")
    expect(_writes_table(page)).to_contain_text("Execute this? (yes/no)")

    # Clicking the input checkpoint's point selects it. Plotly picks the clicked point from its
    # hover state: hover first, wait for the hover label, then click.
    names = page.evaluate("() => document.querySelector('.js-plotly-plot')._fullData.map(t => t.name)")
    target = page.locator(".js-plotly-plot .scatterlayer .trace").nth(names.index("input")).locator(".point")
    target.hover(force=True)
    expect(page.locator(".js-plotly-plot .hoverlayer .hovertext").first).to_be_visible()
    target.click(force=True)
    expect(_selected_heading(page)).not_to_have_text(head_heading)
    wait_for_app(page)
    expect(_writes_table(page)).to_contain_text("__start__")
    expect(_writes_table(page)).not_to_contain_text("__interrupt__")

    # Choosing the waiting checkpoint in the selectbox shows the interrupt again.
    page.get_by_test_id("stMain").get_by_test_id("stSelectbox").filter(
        has=page.get_by_text("Checkpoint", exact=True)
    ).click()
    page.get_by_role("option", name="waiting").click()
    expect(_selected_heading(page)).to_have_text(head_heading)
    expect(_writes_table(page)).to_contain_text("__interrupt__")
