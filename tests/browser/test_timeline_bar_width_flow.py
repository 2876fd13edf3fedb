"""The Timeline page in Chromium: a node call of about a millisecond (a pixel or less at scale) is a bar you can see."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from dashboard.timeline_figure import STATUS_COLORS
from tests.browser.conftest import Dashboard, wait_for_app

SLOW = 30_000  # ms: a whole run, or Plotly's lazily loaded chart, on a busy machine
#: A bar at least this many pixels wide can be seen (and hovered); at the run's scale these calls are < 0.1 px.
VISIBLE_PX = 3

#: Every bar of the thread's chart as Plotly drew it: its node, status, real length and drawn width in pixels.
DRAWN_BARS = """() => {
  const plot = document.querySelector('.js-plotly-plot');
  const groups = plot.querySelectorAll('.barlayer .trace.bars');
  const bars = plot._fullData.filter(t => t.type === 'bar');
  return bars.flatMap((trace, index) => Array.from(groups[index].querySelectorAll('.point path'), (path, i) => ({
    node: trace.customdata[i][0],
    status: trace.legendgroup,
    duration: trace.customdata[i][4],
    fill: getComputedStyle(path).fill,
    px: path.getBoundingClientRect().width,
  })));
}"""


def _hex(rgb: str) -> str:
    """``rgb(255, 127, 14)`` as ``#ff7f0e``."""
    red, green, blue = (int(part) for part in rgb.removeprefix("rgb(").removesuffix(")").split(","))
    return f"#{red:02x}{green:02x}{blue:02x}"


def test_sub_millisecond_calls_are_drawn_at_a_visible_width(page: Page, dashboard: Dashboard):
    flags = []
    for name, value in DEFAULT_LECTURE_INPUT.items():
        flags += [f"--{name.replace('_', '-')}", str(value)]
    started = dashboard.cli("run", "lecture", *flags, "--json")  # pauses at decide: interrupted
    assert started.returncode == 0, started.stderr
    thread = json.loads(started.stdout)["thread_id"]

    page.goto(f"{dashboard.url}/timeline?thread={thread}")
    wait_for_app(page)
    chart = page.locator(".js-plotly-plot").first
    expect(chart.locator(".barlayer .point path").first).to_be_attached(timeout=SLOW)
    bars = {bar["node"]: bar for bar in page.evaluate(DRAWN_BARS)}

    # gate and decide take about a millisecond (less on an idle machine, a little more beside other tests) of
    # a run of a second or so: at scale, a pixel or less. The hover gives their real length, in milliseconds.
    for node in ("gate", "decide"):
        assert bars[node]["duration"].endswith("wide so it can be seen)"), bars[node]
        assert bars[node]["duration"].split(" ")[1] == "ms", bars[node]
        assert bars[node]["px"] >= VISIBLE_PX, bars[node]
    decide = bars["decide"]
    assert decide["status"] == "interrupted"
    assert _hex(decide["fill"]) == STATUS_COLORS["interrupted"]
    assert _hex(bars["gate"]["fill"]) == STATUS_COLORS["ok"]
