"""Home's inbox shows its oldest page of items; "Show all" then shows every item, in a real browser, where the
button reruns the inbox's live part alone (a rerun that keeps what the part read for its page)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import Dashboard, wait_for_app

WAITING = 55  # more than the page of 50 that home shows first


def test_show_all_in_the_inbox_shows_every_waiting_item(page: Page, dashboard: Dashboard):
    started = dashboard.cli_batch(*({"cli": ["run", "robot", "--thread", f"r-{n:02d}"]} for n in range(WAITING)))
    assert all(step["code"] == 0 for step in started), [step["err"] for step in started if step["code"]]
    page.goto(dashboard.url)
    wait_for_app(page)
    main = page.get_by_test_id("stMain")
    expect(main.get_by_text(f"The oldest 50 of {WAITING} are shown.")).to_be_visible()

    main.get_by_role("button", name=f"Show all {WAITING}").click()

    # Every item is in the table now: its pager counts them all, and the page's caption is gone.
    expect(main.get_by_text(f"Rows 1–25 of {WAITING}", exact=False).first).to_be_visible()
    expect(main.get_by_text(f"The oldest 50 of {WAITING} are shown.")).to_have_count(0)
    expect(main.get_by_test_id("stException")).to_have_count(0)
