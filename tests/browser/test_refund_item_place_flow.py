"""An item of a refund with several items, decided by someone else while an approver's page shows it, keeps
its place on that page: a click meant for it lands on its own button and is refused, never on the next
item's button moved up under the pointer (which paid the next item before)."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import Dashboard
from tests.browser.test_refund_queue_flow import DRAWN, ITEMS, _cli_json, _open, _start

APPROVE = "[class*='st-key-refund-item-approve-']"


def _waiting_ids(dashboard: Dashboard, thread: str) -> list[str]:
    """The interrupt ids of the questions waiting, in the items' order, as a plain answer's refusal lists them."""
    done = dashboard.cli("resume", thread, '{"action": "approve", "approver": "lee"}')
    assert done.returncode == 2, done.stderr
    return re.findall(r"[0-9a-f]{32}", done.stderr.split("Waiting:")[1])


def test_an_item_decided_elsewhere_keeps_its_place_and_a_click_meant_for_it_is_refused(
    page: Page, shared_dashboard: Dashboard
):
    case = "item-place"
    thread = f"refund-{case}"
    _start(shared_dashboard, case, "--items", json.dumps(ITEMS))  # wait; A-2 pays itself
    first, _ = _waiting_ids(shared_dashboard, thread)
    main = _open(page, shared_dashboard, thread, "en")
    expect(main.locator(f"{APPROVE} button")).to_have_count(2, timeout=DRAWN)

    def approve_of(name: str) -> Locator:
        boxes = main.get_by_test_id("stVerticalBlock").filter(has_text=f"{name}:").filter(has=page.locator(APPROVE))
        return boxes.last.locator(f"{APPROVE} button")  # the innermost: the item's own bordered box

    main.locator(".st-key-refund-approver input").fill("kim")
    drawn = approve_of("A-1").bounding_box()
    assert drawn is not None
    decided = shared_dashboard.cli("decide", f"{thread}:{first}", "--action", "approve", "--approver", "park")
    assert decided.returncode == 0, decided.stderr
    notice = "Item A-1 was decided elsewhere since this page was drawn"
    expect(main.get_by_text(notice)).to_be_visible(timeout=DRAWN)  # the live case panel followed
    assert approve_of("A-1").bounding_box() == drawn  # A-1's button did not move

    page.mouse.click(drawn["x"] + drawn["width"] / 2, drawn["y"] + drawn["height"] / 2)  # where A-1's button was
    expect(main.get_by_test_id("stAlertContentError").filter(has_text="Nothing was done")).to_be_visible()
    paid = {p.get("item"): p["approver"] for p in _cli_json(shared_dashboard, "ledger") if p["case_id"] == case}
    assert paid == {"A-1": "park", "A-2": "automatic"}  # A-3 still waits: the click paid nothing
    threads = {t["thread_id"]: t for t in _cli_json(shared_dashboard, "threads")}
    assert (threads[thread]["status"], threads[thread]["waiting_count"]) == ("waiting", 1)
