"""The Timeline page in Chromium: a run too long for SVG bars is drawn in WebGL, each call on its lane."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from agents.runtime import open_store
from dashboard.timeline_figure import STATUS_COLORS, WEBGL_THRESHOLD
from tests.browser.conftest import Dashboard, chart_image, ink_near, wait_for_app
from tests.factories import insert_long_run

#: The WebGL segments' lanes as Plotly placed them: each lane's name and its row of pixels in the chart.
SEGMENT_LANES = """() => {
  const plot = document.querySelector('.js-plotly-plot');
  const segments = plot._fullData.filter(t => t.type === 'scattergl' && t.mode === 'lines');
  const ya = plot._fullLayout.yaxis, xa = plot._fullLayout.xaxis;
  const lanes = [...new Set(segments.flatMap(t => Array.from(t.y).filter(v => v !== null && v !== undefined)))];
  return {
    traces: segments.length,
    lanes: lanes.map(lane => [lane, ya._offset + ya.c2p(ya.d2c(lane))]),
    left: xa._offset, width: xa._length,
  };
}"""


def test_a_long_run_draws_every_call_on_its_own_lane_in_webgl(page: Page, dashboard: Dashboard):
    started = dashboard.cli("run", "robot")  # hitl_demo, so the page lists the thread
    assert started.returncode == 0, started.stderr
    store = open_store(dashboard.db_path)
    try:
        insert_long_run(store, WEBGL_THRESHOLD + 200, nodes=("propose", "execute"))  # the latest run, shown first
    finally:
        store.close()
    calls = WEBGL_THRESHOLD + 200
    page.goto(f"{dashboard.url}/timeline?thread=hitl_demo")
    wait_for_app(page)
    page.get_by_text(f"Draw all {calls:,} calls").first.click()  # the thread's chart draws the latest calls until asked
    chart = page.locator(".js-plotly-plot").first
    expect(chart.locator(".gl-canvas").first).to_be_attached(timeout=60_000)  # Plotly's chart loads lazily
    page.wait_for_function(f"() => ({SEGMENT_LANES})().lanes.length === 2")
    drawn = page.evaluate(SEGMENT_LANES)
    assert drawn["traces"] >= 1
    (first, first_y), (second, second_y) = sorted(drawn["lanes"], key=lambda lane: lane[1])
    assert (first, second) == ("propose", "execute")  # the first node's lane on top
    image = chart_image(page)
    # The calls alternate from the run's start to its end: each lane is drawn all along, and no call
    # is drawn between the two lanes (only the supersteps' light bands are).
    ok = STATUS_COLORS["ok"]
    xs = [drawn["left"] + drawn["width"] * share for share in (0.1, 0.3, 0.5, 0.7, 0.9)]
    assert all(ink_near(image, x, first_y, colour=ok) and ink_near(image, x, second_y, colour=ok) for x in xs)
    assert not any(ink_near(image, x, (first_y + second_y) / 2, colour=ok) for x in xs)
