"""The browser tests' Chromium applies Playwright's disabled features and ours, and opens a tab with no
address-bar popup behind it (tests/serving.py: ``CHROMIUM_ARGS``).

Read from the running browser process's own command line and from Chromium's list of targets, not from
the list the tests pass: Chromium keeps only the last ``--disable-features``, so what it applies is what
these tests look at.
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import Browser

from tests.serving import OMNIBOX_POPUPS

DISABLE = "--disable-features="


def _children() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # ended while listed
                continue
            parent = int(stat[stat.rindex(")") + 2 :].split()[1])
            children.setdefault(parent, []).append(int(entry.name))
    return children


def browser_command_line() -> list[str]:
    """The command line of the Chromium browser process this test process started (its renderers and
    helpers carry ``--type=``)."""
    children, todo, found = _children(), [os.getpid()], []
    while todo:
        for pid in children.get(todo.pop(), []):
            todo.append(pid)
            try:
                argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
            except OSError:
                continue
            # Debian's /usr/bin/chromium starts /usr/lib/chromium/chromium
            if Path(argv[0]).name == "chromium" and not any(arg.startswith("--type=") for arg in argv):
                found.append(argv)
    assert len(found) == 1, f"expected one Chromium browser process, found {len(found)}"
    return found[0]


def test_chromium_applies_playwrights_disabled_features_and_the_omnibox_popups(browser: Browser) -> None:
    lists = [arg.removeprefix(DISABLE).split(",") for arg in browser_command_line() if arg.startswith(DISABLE)]
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
