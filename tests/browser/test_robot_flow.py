"""Browser flows of the approval robot and the language switch."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import Dashboard, wait_for_app


def _open(page: Page, dashboard: Dashboard, path: str) -> None:
    page.goto(f"{dashboard.url}/{path}")
    wait_for_app(page)


def test_robot_start_over_answer_yes_then_capital_yes(page: Page, dashboard: Dashboard):
    _open(page, dashboard, "robot")
    page.get_by_role("button", name="Start over", exact=True).click()
    expect(page.get_by_text("checkpoints: 3 · writes: 5")).to_be_visible()
    expect(page.get_by_text("Question: Execute this? (yes/no)", exact=True)).to_be_visible()  # in the waiting notice
    expect(page.get_by_text("Paused: the robot is waiting for your answer.")).to_be_visible()

    page.get_by_role("button", name="yes", exact=True).click()
    expect(page.get_by_text("checkpoints: 5 · writes: 10")).to_be_visible()
    expect(page.get_by_text("Executed: Business trip request: Busan", exact=False).first).to_be_visible()

    page.get_by_role("button", name="Start over", exact=True).click()
    page.get_by_role("button", name="Delete and start over", exact=True).click()  # a saved thread: asked first
    expect(page.get_by_text("checkpoints: 3 · writes: 5")).to_be_visible()
    answer = page.get_by_label("Or type an answer")
    answer.fill("Yes")
    answer.press("Enter")
    expect(page.get_by_text("the action will be refused", exact=False)).to_be_visible()
    page.get_by_role("button", name="Send answer").click()
    expect(page.get_by_text("Refused: Business trip request: Busan", exact=False).first).to_be_visible()


def test_language_switch_changes_navigation_and_labels(page: Page, shared_dashboard: Dashboard):
    _open(page, shared_dashboard, "robot")
    nav = page.get_by_test_id("stSidebarNav")
    expect(nav.get_by_text("Approval robot")).to_be_visible()
    expect(page.get_by_role("button", name="Start over")).to_be_visible()
    page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
    page.get_by_role("option", name="한국어").click()
    expect(nav.get_by_text("승인 로봇")).to_be_visible()
    expect(page.get_by_role("button", name="처음부터 다시")).to_be_visible()
    expect(page.get_by_text("스레드 hitl_demo", exact=False).first).to_be_visible()
    # The language is in the URL: a reload and a page change keep it.
    expect(page).to_have_url(re.compile(r"[?&]lang=ko"))
    page.reload()
    wait_for_app(page)
    expect(page.get_by_role("button", name="처음부터 다시")).to_be_visible()
    nav.get_by_text("환불 에이전트").click()
    wait_for_app(page)
    expect(page).to_have_url(re.compile(r"/refund\?(.*&)?lang=ko"))
    expect(nav.get_by_text("승인 로봇")).to_be_visible()


def test_a_link_with_lang_opens_in_that_language(page: Page, shared_dashboard: Dashboard):
    _open(page, shared_dashboard, "robot?lang=ko")
    expect(page.get_by_role("button", name="처음부터 다시")).to_be_visible()
