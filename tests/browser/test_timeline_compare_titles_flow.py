"""The timeline's text in Chromium. "Compare two runs": the two panels' titles stay apart and readable, at a
desk's width and a laptop's, however long the thread ids; a title cut to fit shows the whole label in its
hover; the time axes' tick labels never print over each other, within a panel or across the two. A thread's
chart: lanes named after a long subtopic leave the plot its room, and its step labels stay apart."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from dashboard.timeline_figure import NARROW_PLOT_PX
from tests.browser.conftest import Dashboard, wait_for_app
from tests.browser.opening import lecture_flags

#: Two lecture threads with ids near the longest a thread id may be (128): their titles must be cut to fit, and
#: the lecture's long lane names leave its panels their narrowest.
THREADS = tuple(f"tl-titles-{'long' * 25}-{side}" for side in "ab")

#: Every text the comparison chart writes over its plot (panel titles, step labels, notes): its text and
#: its box on the page.
ANNOTATIONS = """plot => Array.from(plot.querySelectorAll('g.annotation'), note => {
  const box = note.getBoundingClientRect();
  return {text: note.textContent, left: box.left, right: box.right, top: box.top, bottom: box.bottom};
})"""
#: Every tick label of the two time axes: its axis (``xtick``, ``x2tick``), text and box on the page.
TICK_LABELS = """plot => Array.from(plot.querySelectorAll('g.xtick, g.x2tick'), tick => {
  const box = tick.getBoundingClientRect();
  return {axis: tick.getAttribute('class'), text: tick.textContent, left: box.left, right: box.right,
          top: box.top, bottom: box.bottom};
})"""


@pytest.fixture(scope="module")
def long_threads(shared_dashboard: Dashboard) -> tuple[str, ...]:
    """Two lecture threads of one run each, started from the command line: the comparison opens on both."""
    for thread in THREADS:
        done = shared_dashboard.cli("run", "lecture", *lecture_flags(), "--thread", thread)
        assert done.returncode == 0, done.stderr
    return THREADS


def _apart(first: dict, second: dict, room: float = 0.0) -> bool:
    """Whether two boxes share no pixel, and are at least ``room`` pixels apart."""
    return (
        first["right"] + room <= second["left"]
        or second["right"] + room <= first["left"]
        or first["bottom"] + room <= second["top"]
        or second["bottom"] + room <= first["top"]
    )


#: The least room between two tick labels: a space, so two numbers never read as one.
TICK_ROOM_PX = 6


@pytest.mark.parametrize("size", [(1400, 900), (1280, 720)])
def test_the_two_panel_titles_stay_apart_and_whole_in_their_hover(
    browser: Browser, shared_dashboard: Dashboard, long_threads: tuple[str, ...], size: tuple[int, int]
):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = context.new_page()
        page.goto(f"{shared_dashboard.url}/timeline?lang=en&thread={long_threads[1]}")
        wait_for_app(page)
        chart = page.get_by_test_id("stPlotlyChart").last  # the comparison, after the thread's own chart
        chart.scroll_into_view_if_needed()
        expect(chart.locator("g.annotation").filter(has_text="B: ")).to_be_attached()
        plot = chart.locator(".js-plotly-plot")
        notes = plot.evaluate(ANNOTATIONS)
        titles = {note["text"][:2]: note for note in notes if note["text"].startswith(("A: ", "B: "))}
        assert set(titles) == {"A:", "B:"}, notes
        first, second = titles["A:"], titles["B:"]
        assert first["right"] <= second["left"], (first, second)  # side by side, apart
        box = plot.bounding_box()
        assert box is not None and box["x"] <= first["left"] and second["right"] <= box["x"] + box["width"]
        for index, note in enumerate(notes):  # nor does any text written over the chart print over another
            for other in notes[index + 1 :]:
                assert _apart(note, other), (note, other)
        assert "…" in first["text"] and long_threads[0] not in first["text"]  # cut to fit its panel
        ticks = plot.evaluate(TICK_LABELS)
        assert {tick["axis"] for tick in ticks} == {"xtick", "x2tick"}, ticks
        for index, tick in enumerate(ticks):  # the axes' labels: apart in a panel, and across the two
            for other in ticks[index + 1 :]:
                assert _apart(tick, other, TICK_ROOM_PX), (tick, other)

        chart.locator("g.annotation").filter(has_text="A: ").hover()
        expect(plot.locator(".hoverlayer")).to_contain_text(f"A: {long_threads[0]} · ")
    finally:
        context.close()


#: A lecture's tool with a name near the longest a field takes: a research lane is named after the subtopic
#: that teaches it.
LONG_TOOL = ("엑셀 피벗 테이블과 함수로 배우는 데이터 분석 실무 과정 " * 6)[:190].strip()


@pytest.fixture(scope="module")
def long_lanes(shared_dashboard: Dashboard) -> str:
    """A lecture thread with a research lane named after a long subtopic."""
    flags = lecture_flags()
    flags[flags.index("--platform-tools") + 1] = LONG_TOOL
    done = shared_dashboard.cli("run", "lecture", *flags, "--thread", "tl-long-lanes")
    assert done.returncode == 0, done.stderr
    return "tl-long-lanes"


#: The plot area's box and every lane name's box on the y axis.
PLOT_AREA = """plot => {
  const box = element => { const b = element.getBoundingClientRect();
    return {text: element.textContent, left: b.left, right: b.right, top: b.top, bottom: b.bottom}; };
  return {area: box(plot.querySelector('.nsewdrag')), lanes: Array.from(plot.querySelectorAll('g.ytick'), box)};
}"""


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_long_lane_names_leave_the_plot_its_room_and_the_step_labels_stay_apart(
    browser: Browser, shared_dashboard: Dashboard, long_lanes: str, lang: str
):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(f"{shared_dashboard.url}/timeline?lang={lang}&thread={long_lanes}")
        wait_for_app(page)
        chart = page.get_by_test_id("stPlotlyChart").first  # the thread's own chart
        chart.scroll_into_view_if_needed()
        expect(chart.locator("g.ytick").first).to_be_attached()
        plot = chart.locator(".js-plotly-plot")
        boxes = plot.evaluate(PLOT_AREA)
        area = boxes["area"]
        assert area["right"] - area["left"] >= NARROW_PLOT_PX, boxes  # the lanes' names leave the plot its width
        assert any("…" in lane["text"] for lane in boxes["lanes"]), boxes["lanes"]  # a long name is cut to fit
        notes = plot.evaluate(ANNOTATIONS)
        assert [note for note in notes if note["text"].startswith(("step", "스텝"))], notes
        for index, note in enumerate(notes):  # the step labels and every other text over the plot
            for other in notes[index + 1 :]:
                assert _apart(note, other), (note, other)
        ticks = plot.evaluate(TICK_LABELS)
        for index, tick in enumerate(ticks):
            for other in ticks[index + 1 :]:
                assert _apart(tick, other, TICK_ROOM_PX), (tick, other)
    finally:
        context.close()
