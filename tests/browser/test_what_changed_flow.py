"""Browser flow of "What changed": after an ``update_state``, the explorer and the robot's page say what it
changed (the key, the old and new value, the writes that made it), in English and in Korean, and the
typed value stays text (no link, no bold)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Dashboard, wait_for_app

ACTION = {
    "en": "Business trip request: Busan, 2 days, budget 800,000 KRW",
    "ko": "출장 신청서 제출: 부산 2일, 예산 800,000원",
}
TYPED = "Seoul <b>1</b> day [map](http://e.test/x)"
WORDS = {
    "en": {
        "title": "What changed",
        "changed": "changed",
        "writes": "Writes that produced it",
        "head": "What changed at the head",
    },
    "ko": {"title": "바뀐 점", "changed": "변경", "writes": "이 체크포인트를 만든 쓰기", "head": "헤드에서 바뀐 점"},
}


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_thread_opened_after_an_update_state_shows_what_it_changed(page: Page, shared_dashboard: Dashboard, lang):
    thread, words = f"diff-{lang}", WORDS[lang]
    started = shared_dashboard.cli("--lang", lang, "run", "robot", "--thread", thread)
    assert started.returncode == 0, started.stderr
    updated = shared_dashboard.cli("update", thread, "--values", json.dumps({"pending_action": TYPED}))
    assert updated.returncode == 0, updated.stderr

    page.goto(f"{shared_dashboard.url}/explorer?thread={thread}&lang={lang}")
    wait_for_app(page)
    main = page.get_by_test_id("stMain")
    expect(main.get_by_text(words["title"], exact=True)).to_be_visible()
    change = main.locator("li").filter(has_text="pending_action").first
    expect(change).to_be_visible()
    expect(change.locator("strong")).to_have_text(words["changed"])
    expect(change).to_contain_text(ACTION[lang])
    expect(change).to_contain_text(TYPED)  # the typed markup is shown as typed
    assert change.locator("a, b").count() == 0  # nothing in it became a link or bold text
    expect(main.get_by_text(words["writes"], exact=True)).to_be_visible()
    write = main.locator("li").filter(has_text="(update_state)").filter(has_text="pending_action").first
    expect(write).to_contain_text(TYPED)
    assert main.locator('a[href*="e.test"]').count() == 0

    # The robot's own page: its head's change, collapsed until opened.
    page.goto(f"{shared_dashboard.url}/robot?thread={thread}&lang={lang}")
    wait_for_app(page)
    page.get_by_test_id("stExpander").filter(has_text=words["head"]).locator("summary").click()
    box = page.get_by_test_id("stExpander").filter(has_text=words["head"])
    change = box.locator("li").first
    expect(change).to_contain_text("pending_action")
    expect(change).to_contain_text(TYPED)
    expect(change.locator("strong")).to_have_text(words["changed"])
    expect(box.get_by_text(words["writes"], exact=True)).to_be_visible()
    expect(box.locator("li").filter(has_text="(update_state)").first).to_contain_text(TYPED)
    wait_for_app(page)
