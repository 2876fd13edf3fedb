"""The browser tests' Chromium applies Playwright's disabled features and ours, and opens a tab with no
address-bar popup behind it (tests/serving.py: ``CHROMIUM_ARGS``).

Read from what the running Chromium reports (its ``chrome://version`` page and its list of targets), not
from the list the tests pass: Chromium keeps only the last ``--disable-features``, so what it applies is what
these tests look at.
"""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.serving import OMNIBOX_POPUPS

DISABLE = "--disable-features="


def browser_command_line(browser: Browser) -> list[str]:
    """The command line the browser process runs with, as Chromium's own ``chrome://version`` shows it."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto("chrome://version")
        return page.locator("#command_line").inner_text().split()
    finally:
        context.close()


def test_chromium_applies_playwrights_disabled_features_and_the_omnibox_popups(browser: Browser) -> None:
    lists = [arg.removeprefix(DISABLE).split(",") for arg in browser_command_line(browser) if arg.startswith(DISABLE)]
    assert len(lists) >= 2, "Playwright's own --disable-features and ours"
    applied = set(lists[-1])
    for earlier in lists[:-1]:
        assert set(earlier) <= applied, f"Playwright disables {sorted(set(earlier) - applied)} no longer"
    assert set(OMNIBOX_POPUPS) <= applied


def test_a_new_tab_builds_no_address_bar_popup(browser: Browser) -> None:
    context = browser.new_context()
    try:
        context.new_page().goto("data:text/html,<h1>tab</h1>")
        session = browser.new_browser_cdp_session()
        targets = session.send("Target.getTargets", {"filter": [{}]})["targetInfos"]
        session.detach()
    finally:
        context.close()
    assert [target["url"] for target in targets if target["type"] == "page"] == ["data:text/html,<h1>tab</h1>"]
    assert [target["url"] for target in targets if target["type"] == "browser_ui"] == []
