"""The checkpoint graph's node labels are drawn apart: no two labels' boxes overlap in the rendered SVG."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

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
