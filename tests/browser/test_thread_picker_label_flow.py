"""The explorer's thread picker says what the thread's head says, after a fork on the page changed it."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import Dashboard, wait_for_app

DRAWN = 30_000


def test_the_thread_pickers_label_follows_a_fork_that_made_the_head_refused(page: Page, dashboard: Dashboard):
    for command in (("run", "robot", "--thread", "fork-x"), ("resume", "fork-x", "yes")):
        done = dashboard.cli(*command)
        assert done.returncode == 0, done.stderr
    page.goto(f"{dashboard.url}/explorer?thread=fork-x")
    wait_for_app(page)
    main = page.get_by_test_id("stMain")
    picker = main.get_by_role("combobox", name="Thread", exact=True)
    expect(picker).to_have_value("fork-x · done · executed", timeout=DRAWN)

    # Fork the pause (step 1) with the answer "no" as the approval node, and run on from it.
    main.get_by_role("combobox", name="Checkpoint", exact=True).click()
    page.get_by_role("option", name="step 1 ·").first.click()
    values = main.get_by_role("textbox", name="State values to write (JSON object)")
    expect(values).not_to_have_value(re.compile("decision"))  # the pause's state, drawn: no answer in it yet
    expect(values).to_have_value(re.compile("pending_action"))
    wait_for_app(page)
    values.fill(json.dumps({"decision": "no"}))
    as_node = main.get_by_role("combobox", name="as node", exact=True)
    as_node.click()
    as_node.press_sequentially("approval")
    expect(page.get_by_role("option", name="approval", exact=True)).to_be_visible()
    as_node.press("Enter")
    expect(page.get_by_role("option", name="approval", exact=True)).to_be_hidden()
    expect(as_node).to_have_value("approval")
    main.get_by_text("Continue the run from the fork", exact=True).click()
    expect(main.get_by_role("checkbox", name="Continue the run from the fork")).to_be_checked()
    main.get_by_role("button", name="Fork", exact=True).click()
    expect(main.get_by_text("Forked fork-x at", exact=False)).to_contain_text("done · refused", timeout=DRAWN)
    expect(picker).to_have_value("fork-x · done · refused", timeout=DRAWN)
