"""The checkpoint graph's node labels are drawn apart: no two labels' boxes overlap in the rendered SVG; on a long
thread, at a laptop's width, the labels the plot shows stay apart and the head's ring is not cut by its edge."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import Dashboard, wait_for_app

LECTURE = (
    "--topic", "LangGraph", "--audience-level", "beginners", "--duration", "3 hours",
    "--delivery-method", "lecture", "--platform-tools", "python", "--constraints", "none",
)  # fmt: skip

#: Each label's box in the page, read from the chart's SVG text elements (writer labels and lane names).
LABEL_BOXES = """() => [...document.querySelectorAll('.js-plotly-plot .textpoint text, .js-plotly-plot .ytick text')]
  .filter(node => node.textContent.trim())
  .map(node => { const r = node.getBoundingClientRect();
                 return {text: node.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom}; })"""


def overlapping(boxes: list[dict[str, float]]) -> list[tuple[str, str]]:
    """The pairs of labels whose boxes share some area (a pixel's rounding is no overlap)."""
    pairs = []
    for index, one in enumerate(boxes):
        for other in boxes[index + 1 :]:
            wide = min(one["right"], other["right"]) - max(one["left"], other["left"])
            tall = min(one["bottom"], other["bottom"]) - max(one["top"], other["top"])
            if wide > 1 and tall > 1:
                pairs.append((one["text"], other["text"]))
    return pairs


@pytest.fixture(scope="module")
def reworked_lecture(shared_dashboard: Dashboard) -> str:
    """A lecture reworked once, on the module's dashboard: each test reads only its own thread's graph."""
    # A rework runs research, write, the three reviewers and the gate again: a chain twice as long.
    done = shared_dashboard.cli_batch(
        {"cli": ["run", "lecture", "--thread", "lec", *LECTURE]},
        {"cli": ["resume", "lec", json.dumps({"action": "rework"})]},
    )
    assert [step["code"] for step in done] == [0, 0], [step["err"] for step in done]
    return "lec"


@pytest.mark.parametrize("width,height", [(1400, 900), (1280, 720)])
def test_a_reworked_lectures_labels_do_not_overlap(
    page: Page, shared_dashboard: Dashboard, reworked_lecture: str, width: int, height: int
):
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{shared_dashboard.url}/explorer?thread={reworked_lecture}")
    wait_for_app(page)
    labels = page.locator(".js-plotly-plot .textpoint text")
    expect(labels.first).to_be_visible(timeout=30_000)
    boxes = page.evaluate(LABEL_BOXES)
    assert len(boxes) > 10, boxes
    assert overlapping(boxes) == []


def test_a_forked_threads_labels_do_not_overlap(page: Page, shared_dashboard: Dashboard):
    started, graph = shared_dashboard.cli_batch(
        {"cli": ["run", "robot", "--thread", "fork", "--answer", "yes"]}, {"cli": ["graph", "fork", "--json"]}
    )
    assert started["code"] == 0, started["err"]
    asked = next(point["checkpoint_id"] for point in json.loads(graph["out"]) if point["next"] == ["approval"])
    rerun, resumed = shared_dashboard.cli_batch(
        {"cli": ["rerun", "fork", "--checkpoint", asked]}, {"cli": ["resume", "fork", "no"]}
    )
    assert (rerun["code"], resumed["code"]) == (0, 0), (rerun["err"], resumed["err"])
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{shared_dashboard.url}/explorer?thread=fork&lang=ko")
    wait_for_app(page)
    expect(page.locator(".js-plotly-plot .textpoint text").first).to_be_visible(timeout=30_000)
    boxes = page.evaluate(LABEL_BOXES)
    assert len(boxes) > 6, boxes
    assert overlapping(boxes) == []


#: A robot thread edited at its head this many times, as a tester's was: more checkpoints than the explorer
#: draws at once (``agents.chain_layout.WINDOW_SIZE``), every other edit written as ``approval``.
LONG_EDITS = 230


def seed_long_robot(thread: str, edits: int) -> int:
    """A robot thread asked for approval, then ``edits`` times ``update_state`` at its head (alternately as
    ``approval`` and ``propose``) through the agent's compiled graph; returns its number of checkpoints.

    Called in the dashboard's database by ``Dashboard.cli_batch`` (a ``call`` step). The graph's own
    ``update_state`` writes what ``agents.runs.update_thread`` would, at a fraction of its checks' cost.
    """
    from agents import readmodel, runs, runtime
    from agents.registry import get_agent
    from agents.runs.core import run_config

    settings = runtime.load_settings()
    store = runtime.open_store(settings.db)
    try:
        runs.start_run(store, settings, "robot", {}, thread_id=thread)
        graph = runtime.graph(store, "robot", **runtime.graph_options(settings, "robot"))
        config = run_config(get_agent("robot"), thread)
        for n in range(edits):
            graph.update_state(config, {"pending_action": f"step {n}"}, as_node="propose" if n % 2 else "approval")
        return len(readmodel.checkpoint_chain(store, thread))
    finally:
        store.close()


#: The plot area's box, and each writer label's and lane name's box clipped to what the plot shows of it (a
#: label past the plot's edges is cut there; one wholly past them shows only when panned to).
SHOWN_LABELS = """plot => {
  const area = plot.querySelector('.nsewdrag').getBoundingClientRect();
  const clip = r => ({left: Math.max(r.left, area.left), right: Math.min(r.right, area.right), top: r.top,
                      bottom: r.bottom});
  const labels = [...plot.querySelectorAll('.textpoint text')].filter(node => node.textContent.trim())
    .map(node => ({text: node.textContent, ...clip(node.getBoundingClientRect())}))
    .filter(box => box.right - box.left > 1);
  const lanes = [...plot.querySelectorAll('.ytick text')].map(node => {
    const r = node.getBoundingClientRect();
    return {text: node.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom}; });
  return {area: {left: area.left, right: area.right, top: area.top, bottom: area.bottom}, labels, lanes};
}"""
#: The head ring's box: the marker of the trace named "head" (every trace is a scatter: one layer, in order).
HEAD_RING = """plot => {
  const index = plot._fullData.findIndex(trace => trace.name === 'head');
  const r = plot.querySelectorAll('.scatterlayer .trace')[index].querySelector('path.point').getBoundingClientRect();
  return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
}"""


def _labels_apart(plot: Locator) -> int:
    """Checks that no two labels the plot shows overlap, nor a label a lane name, and that the head's ring lies
    inside the plot; returns how many labels it shows."""
    shown = plot.evaluate(SHOWN_LABELS)
    assert overlapping(shown["labels"] + shown["lanes"]) == [], shown["labels"]
    ring, area = plot.evaluate(HEAD_RING), shown["area"]
    assert area["left"] <= ring["left"] and ring["right"] <= area["right"] + 0.5, (ring, area)
    return len(shown["labels"])


def test_a_long_threads_labels_stay_apart_at_a_laptops_width(page: Page, shared_dashboard: Dashboard):
    (seeded,) = shared_dashboard.cli_batch(
        {"call": "tests.browser.test_graph_labels_flow:seed_long_robot", "args": ["long-robot", LONG_EDITS]}
    )
    count = int(seeded["out"])
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{shared_dashboard.url}/explorer?thread=long-robot&lang=en")
    wait_for_app(page)
    main = page.get_by_test_id("stMain")
    window = main.get_by_text(re.compile(r"^Drawn: \d+ of "))
    expect(window).to_be_visible(timeout=30_000)  # the window around the head, opened on its last steps
    plot = main.locator(".js-plotly-plot")
    expect(plot.locator(".textpoint text").first).to_be_attached(timeout=30_000)
    assert _labels_apart(plot) >= 6  # labels where they have room, not none

    main.get_by_text(f"Show all {count:,} checkpoints", exact=True).click()
    expect(window).to_have_count(0)
    wait_for_app(page)
    expect(plot.locator(".textpoint text").first).to_be_attached()
    assert _labels_apart(plot) >= 4
