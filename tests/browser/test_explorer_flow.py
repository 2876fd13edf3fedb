"""Browser flow of the checkpoint explorer: the graph, a clicked point, the selectbox, the writes.

The tests share the module's dashboard: each writes a thread of its own and opens the explorer on it."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from agents.chain_layout import WINDOW_SIZE
from agents.runtime import open_store
from benchmarks._data import build_proposal_thread
from tests.browser.conftest import Dashboard, chart_image, ink_near, wait_for_app

#: The number of distinct checkpoints the page's figure draws, once Plotly has drawn it.
DRAWN = """() => {
  const plot = document.querySelector('.js-plotly-plot');
  if (!plot || !plot._fullData) return 0;
  return new Set(plot._fullData.filter(t => t.mode !== 'lines').flatMap(t => Array.from(t.customdata || []))).size;
}"""


def _writes_table(page: Page) -> Locator:
    """The accessible table behind the writes dataframe (the grid itself draws on a canvas)."""
    return page.get_by_test_id("stDataFrame").last.locator("table").first


def _selected_heading(page: Page) -> Locator:
    return page.get_by_test_id("stMain").get_by_role("heading", name=re.compile(r"^Checkpoint [0-9a-f]+$"))


def test_explorer_graph_click_and_select_show_writes(page: Page, shared_dashboard: Dashboard):
    dashboard = shared_dashboard
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


def _open_long_thread(page: Page, dashboard: Dashboard, checkpoints: int) -> None:
    """Writes thread ``long-<checkpoints>`` of about ``checkpoints`` checkpoints (a fork and a copy among them)
    and opens it."""
    store = open_store(dashboard.db_path)
    try:
        build_proposal_thread(store, f"long-{checkpoints}", checkpoints, agent="robot")
    finally:
        store.close()
    page.goto(f"{dashboard.url}/explorer?thread=long-{checkpoints}")
    wait_for_app(page)


def test_a_long_thread_draws_a_window_and_show_all_draws_every_checkpoint(page: Page, shared_dashboard: Dashboard):
    _open_long_thread(page, shared_dashboard, 300)
    window_note = page.get_by_text(re.compile(r"^Drawn: \d+ of 300 checkpoints"))
    expect(window_note).to_be_visible(timeout=60_000)
    points = page.locator(".js-plotly-plot .scatterlayer .point")
    expect(points.first).to_be_visible(timeout=30_000)  # Plotly's chart loads lazily
    drawn = page.wait_for_function(DRAWN).json_value()
    assert WINDOW_SIZE <= drawn < 300
    # The x axis opens on the steps around the selected head; the window's dotted link is drawn.
    low, high = page.evaluate("() => document.querySelector('.js-plotly-plot')._fullLayout.xaxis.range")
    assert high - low <= 31
    names = page.evaluate("() => document.querySelector('.js-plotly-plot')._fullData.map(t => t.name)")
    assert "checkpoints not drawn" in names

    page.get_by_text("Show all 300 checkpoints").click()
    page.wait_for_function(f"() => ({DRAWN})() === 300")
    wait_for_app(page)
    expect(window_note).to_have_count(0)


#: The parent-link trace as the browser drew it: its points, and the pieces of its line when it is SVG.
LINKS = """() => {
  const plot = document.querySelector('.js-plotly-plot');
  const at = plot._fullData.findIndex(t => t.name === 'parent link');
  const trace = plot._fullData[at];
  const gap = v => v === null || v === undefined || Number.isNaN(v);
  const pieces = plot.querySelectorAll('.scatterlayer .trace')[at]?.querySelectorAll('path.js-line') || [];
  const xa = plot._fullLayout.xaxis, ya = plot._fullLayout.yaxis;
  return {
    type: trace.type,
    x: Array.from(trace.x, v => gap(v) ? null : v),
    y: Array.from(trace.y, v => gap(v) ? null : v),
    pieces: Array.from(pieces, piece => piece.getAttribute('d')),
    px: Array.from(trace.x, v => gap(v) ? null : xa._offset + xa.l2p(v)),
    py: Array.from(trace.y, v => gap(v) ? null : ya._offset + ya.l2p(v)),
  };
}"""


def _links(drawn: dict) -> list[tuple[int, int]]:
    """The (start, end) indexes of each link in the drawn trace: two points, then a gap."""
    xs = drawn["x"]
    assert len(xs) % 3 == 0 and all(v is None for v in xs[2::3]), "every link ends in a gap"
    return [(i, i + 1) for i in range(0, len(xs), 3)]


def test_parent_links_are_drawn_apart_in_svg_and_in_webgl(page: Page, shared_dashboard: Dashboard):
    _open_long_thread(page, shared_dashboard, 2_100)  # past the figure's WebGL threshold (2,000 points); three lanes
    expect(page.locator(".js-plotly-plot .scatterlayer .point").first).to_be_visible(timeout=60_000)

    # The window is SVG: its line is one piece per link, so no link is joined to the next.
    window = page.evaluate(LINKS)
    assert window["type"] == "scatter"
    assert len(window["pieces"]) == len(_links(window)) >= 100
    assert all(piece.count("M") == 1 and piece.count("L") == 1 for piece in window["pieces"])

    # Every checkpoint is WebGL: the links are drawn, and nothing is drawn across a gap.
    page.get_by_text("Show all 2,100 checkpoints").click()
    page.wait_for_function(f"() => ({DRAWN})() === 2100")
    wait_for_app(page)
    image = chart_image(page)
    drawn = page.evaluate(LINKS)
    assert drawn["type"] == "scattergl"
    links = _links(drawn)
    px, py = drawn["px"], drawn["py"]
    lanes = sorted(set(py) - {None})
    assert len(lanes) == 3
    # The fork's link runs down from the main line to the branch; the link after the branch's last
    # one in the trace starts back on the main line, far to the right: a joined line would cross the
    # empty band between the two lanes.
    fork = next(k for k, (start, end) in enumerate(links) if py[start] == lanes[0] and py[end] == lanes[1])
    branch_end = max(k for k, (start, end) in enumerate(links) if py[end] == lanes[1])
    after = links[branch_end + 1]
    assert py[after[0]] == lanes[0] and px[after[0]] - px[links[branch_end][1]] > 100
    start, end = links[fork]
    assert ink_near(image, (px[start] + px[end]) / 2, (py[start] + py[end]) / 2)  # the fork's link
    gap_from, gap_to = links[branch_end][1], after[0]
    assert not ink_near(image, (px[gap_from] + px[gap_to]) / 2, (py[gap_from] + py[gap_to]) / 2)
