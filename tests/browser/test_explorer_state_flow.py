"""The explorer's decoded state as a browser draws it: a lecture's long channel key reads whole."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from tests.browser.conftest import Dashboard
from tests.browser.opening import open_page

JOIN_KEY = "join:review_content+review_time_allocation+review_difficulty:gate"


@pytest.mark.parametrize("language", ["en", "ko"])
@pytest.mark.parametrize("size", [(1400, 900), (1280, 720)])
def test_a_long_state_key_is_drawn_whole(page: Page, shared_dashboard: Dashboard, language: str, size: tuple):
    thread = f"lec-key-{language}-{size[0]}"
    fields = [(f"--{name.replace('_', '-')}", value) for name, value in DEFAULT_LECTURE_INPUT.items()]
    started = shared_dashboard.cli("run", "lecture", "--thread", thread, *[part for pair in fields for part in pair])
    assert started.returncode == 0, started.stderr
    open_page(page, shared_dashboard, f"explorer?thread={thread}&lang={language}", size)
    state = page.get_by_test_id("stJson").first
    key = state.get_by_text(JOIN_KEY, exact=False).first
    expect(key).to_be_attached(timeout=30_000)
    key.scroll_into_view_if_needed()
    drawn, room = key.bounding_box(), state.bounding_box()
    assert drawn is not None and room is not None
    assert drawn["x"] + drawn["width"] <= room["x"] + room["width"], (drawn, room)  # not cut at the view's edge
    main = page.get_by_test_id("stMain").bounding_box()
    assert main is not None and drawn["x"] + drawn["width"] <= main["x"] + main["width"]
