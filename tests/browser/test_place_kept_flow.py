"""Browser flows that keep the user's place: refused edit amounts, a selected case that stays, missing threads.

Each behaviour was a bug on the refund or lecture page; these tests fail if it comes back. The tests share
the module's dashboard: each starts cases of its own (ids no other test uses) and reads the ledger's payouts of
those cases only.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import Dashboard, wait_for_app
from tests.browser.opening import cli_ok, lecture_flags, open_page


def _waiting_case(dashboard: Dashboard, case: str, amount: str) -> str:
    """Starts a refund case above the threshold through the CLI; it waits for an approver."""
    done = dashboard.cli(
        "run",
        "refund",
        "--case",
        case,
        "--customer",
        "Kim",
        "--amount",
        amount,
        "--reason",
        "broken on arrival",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    started = json.loads(done.stdout)
    assert started["status"] == "waiting", started
    return started["thread_id"]


def _ledger(dashboard: Dashboard, *cases: str) -> list[dict]:
    """The ledger's payouts of ``cases`` (the module's dashboard also holds the other tests' cases)."""
    done = cli_ok(dashboard, "ledger", "--json")
    return [payout for payout in json.loads(done.stdout) if payout["case_id"] in cases]


def _status_line(main: Locator) -> Locator:
    """The selected case's line ``Status: … · `refund-<case>` `` (any language)."""
    return main.get_by_test_id("stMarkdownContainer").filter(has_text=re.compile(r"^(Status|상태): "))


def _case_picker(main: Locator) -> Locator:
    """The case picker's input (a combobox): its value is the selected case's label."""
    return main.get_by_role("combobox", name=re.compile(r"^(Selected case|선택한 건)$"))


def _run_finished(page: Page) -> None:
    """Waits until no element of the previous script run is left (Streamlit marks them stale).

    Call it after seeing something the current run drew: from then on, a check that something
    is absent or unchanged is made on this run's page, not on what the previous run left.
    """
    expect(page.locator("[data-testid='stElementContainer'][data-stale='true']")).to_have_count(0)


def _open_picker(combobox: Locator) -> None:
    """Opens a selectbox's list of options.

    Streamlit's selectbox (react-aria) closes its list when the page scrolls. A plain click on a
    picker at the bottom edge of the viewport, where Playwright's own scrolling leaves it, opens the
    list and the focus then scrolls the page by a few pixels, which closes it at once. Centring the
    picker first leaves nothing to scroll, once the page is drawn: elements of a run still being
    replaced (marked stale) can move the picker after it was centred (it was seen 50 px below the
    viewport), and the list then closes as it opens. So the run's elements are waited for first.
    """
    _run_finished(combobox.page)
    combobox.evaluate("element => element.scrollIntoView({block: 'center'})")
    combobox.click()
    expect(combobox).to_have_attribute("aria-expanded", "true")


def _type(field: Locator, text: str) -> None:
    """Types into a Streamlit text input and commits it (Enter), which reruns the script."""
    field.fill(text)
    field.press("Enter")


def test_invalid_edit_amounts_are_refused_before_anything_is_paid(page: Page, shared_dashboard: Dashboard):
    dashboard = shared_dashboard
    thread = _waiting_case(dashboard, "E4", "400000")
    open_page(page, dashboard, f"refund?thread={thread}")
    main = page.get_by_test_id("stMain")
    expect(main.get_by_text("Waiting for an approver.")).to_be_visible()
    edit_button = main.get_by_role("button", name="Edit amount and approve", exact=True)
    expect(main.get_by_text("Type an amount to edit and approve.")).to_be_visible()
    expect(edit_button).to_be_enabled()  # never held back by the amount: its click's run reads and checks it

    _type(main.get_by_label("Approver", exact=True), "kim")
    amount = main.get_by_label("New amount to pay (KRW)", exact=True)
    refusal = main.get_by_text("Cannot edit to this amount:", exact=False)
    # Each refusal names the value typed, so seeing it means the rerun for that value has drawn it.
    for typed, named in [
        ("99,999,999,999", "got 99,999,999,999"),
        ("0", "got 0"),
        ("-5", "got '-5'"),
        ("500,00", "got '500,00'"),
        ("400,001", "got 400,001"),
    ]:
        _type(amount, typed)
        field = re.escape("Cannot edit to this amount: New amount to pay (KRW): ")  # named by its label
        expect(refusal).to_have_text(re.compile("^" + field + ".*" + re.escape(named) + "$"))
        _run_finished(page)
        expect(main.get_by_test_id("stMetric").filter(has_text="After the edit")).to_have_count(0)
        assert _ledger(dashboard, "E4") == [], typed
    edit_button.click()  # the last of them, sent: refused by the rules every path goes through
    expect(main.get_by_text("Nothing was done: New amount to pay (KRW):", exact=False)).to_contain_text("400,001")
    _run_finished(page)
    assert _ledger(dashboard, "E4") == []
    expect(main.get_by_text("Waiting for an approver.")).to_be_visible()

    _type(amount, "50,000")
    preview = main.get_by_test_id("stMetric").filter(has_text="After the edit")
    expect(preview).to_contain_text("50,000")
    expect(preview).to_contain_text("-350,000")  # the difference from the amount to pay now
    _run_finished(page)
    expect(refusal).to_have_count(0)
    expect(edit_button).to_be_enabled()
    assert _ledger(dashboard, "E4") == []

    edit_button.click()
    expect(page.get_by_text("Case E4: edit and approve by kim → done · paid.", exact=True)).to_be_visible()
    _run_finished(page)
    expect(main.get_by_text("Outcome: paid", exact=True)).to_be_visible()
    expect(main.get_by_test_id("stMetric").filter(has_text="Executed (ledger)")).to_contain_text("50,000")
    expect(main.get_by_test_id("stText").filter(has_text="400,000 → 50,000")).to_have_count(1)  # the trace
    payouts = _ledger(dashboard, "E4")
    assert [(p["case_id"], p["requested_amount"], p["paid_amount"]) for p in payouts] == [("E4", 400000, 50000)]


def test_selected_case_stays_after_decision_rerun_language_switch_and_reload(page: Page, shared_dashboard: Dashboard):
    dashboard = shared_dashboard
    big = _waiting_case(dashboard, "B8", "900000")
    small = _waiting_case(dashboard, "X5", "400000")
    open_page(page, dashboard, f"refund?thread={big}")
    main = page.get_by_test_id("stMain")
    sidebar = page.get_by_test_id("stSidebar")
    expect(_status_line(main)).to_have_text("Status: waiting · refund-B8")
    expect(_case_picker(main)).to_have_value("B8 · 900,000 KRW · waiting")

    # The decision: B8 stays selected, shows its outcome, loses its controls, and its label follows.
    main.get_by_label("Approver", exact=True).fill("kim")
    main.get_by_role("button", name="Approve", exact=True).click()
    expect(page.get_by_text("Case B8: approve by kim → done · paid.", exact=True)).to_be_visible()
    _run_finished(page)
    expect(main.get_by_text("Outcome: paid", exact=True)).to_be_visible()
    expect(_status_line(main)).to_have_text("Status: done · paid · refund-B8")
    expect(main.get_by_role("button", name="Approve", exact=True)).to_have_count(0)
    expect(main.get_by_role("button", name="Reject", exact=True)).to_have_count(0)
    expect(main.get_by_role("button", name="Edit amount and approve", exact=True)).to_have_count(0)
    expect(_case_picker(main)).to_have_value("B8 · 900,000 KRW · done · paid")
    expect(page).to_have_url(re.compile(r"[?&]thread=refund-B8(&|$)"))
    assert [p["case_id"] for p in _ledger(dashboard, "B8", "X5")] == ["B8"]

    # An unrelated button reruns the page; B8 (no longer first in the queue) is still the case shown.
    main.get_by_role("button", name="Run the pitfall demo", exact=True).click()
    expect(main.get_by_text("Asking for its saved state to resume:", exact=False)).to_be_visible()
    _run_finished(page)
    expect(page).to_have_url(re.compile(r"[?&]thread=refund-B8(&|$)"))
    expect(_status_line(main)).to_have_text("Status: done · paid · refund-B8")
    expect(_case_picker(main)).to_have_value("B8 · 900,000 KRW · done · paid")
    expect(sidebar.get_by_text("Thread refund-B8 · checkpoint", exact=False)).to_be_visible()
    expect(main.get_by_role("button", name="Approve", exact=True)).to_have_count(0)

    # X5 by its link: a typed approver and the case survive a language switch.
    open_page(page, dashboard, f"refund?thread={small}")
    expect(_status_line(main)).to_have_text("Status: waiting · refund-X5")
    _type(main.get_by_label("Approver", exact=True), "lee")
    _open_picker(sidebar.get_by_role("combobox", name="Language", exact=True))
    page.get_by_role("option", name="한국어").click()
    expect(main.get_by_role("heading", name="환불 에이전트")).to_be_visible()
    _run_finished(page)
    expect(_status_line(main)).to_have_text("상태: 대기 중 · refund-X5")
    expect(_case_picker(main)).to_have_value("X5 · 400,000원 · 대기 중")
    expect(main.get_by_label("승인자", exact=True)).to_have_value("lee")
    expect(main.get_by_role("button", name="승인", exact=True)).to_be_visible()
    expect(page).to_have_url(re.compile(r"[?&]thread=refund-X5(&|$)"))

    # A reload (a new session) still shows X5, in the language of the URL.
    page.reload()
    wait_for_app(page)
    expect(page).to_have_url(re.compile(r"[?&]thread=refund-X5(&|$)"))
    expect(main.get_by_role("heading", name="환불 에이전트")).to_be_visible()  # ?lang=ko came back with it
    expect(_status_line(main)).to_contain_text("refund-X5")
    expect(_case_picker(main)).to_have_value(re.compile(r"^X5 · 400,000(원| KRW) · "))
    expect(main.get_by_text(re.compile(r"^(Waiting for an approver\.|승인자를 기다리는 중입니다\.)$"))).to_be_visible()
    assert [p["case_id"] for p in _ledger(dashboard, "B8", "X5")] == ["B8"]


def test_links_to_a_missing_thread_select_nothing(page: Page, shared_dashboard: Dashboard):
    dashboard = shared_dashboard
    _waiting_case(dashboard, "M8", "900000")
    _waiting_case(dashboard, "M5", "400000")
    open_page(page, dashboard, "refund?thread=nonexistent")
    main = page.get_by_test_id("stMain")
    sidebar = page.get_by_test_id("stSidebar")
    notice = main.get_by_text("There is no refund case with thread nonexistent; pick one below.", exact=True)
    expect(notice).to_be_visible()
    expect(sidebar.get_by_text("No thread selected.", exact=True)).to_be_visible()  # drawn last
    picker = _case_picker(main)
    expect(picker).to_be_visible()
    expect(picker).to_have_attribute("placeholder", "Pick a case")
    expect(picker).to_have_value("")
    expect(_status_line(main)).to_have_count(0)
    expect(page.get_by_role("button", name="Approve", exact=True)).to_have_count(0)
    expect(page.get_by_role("button", name="Reject", exact=True)).to_have_count(0)
    expect(page.get_by_role("button", name="Edit amount and approve", exact=True)).to_have_count(0)
    expect(page.get_by_text("Waiting for an approver.", exact=True)).to_have_count(0)
    assert _ledger(dashboard, "M8", "M5") == []

    started = cli_ok(dashboard, "run", "lecture", *lecture_flags(), "--json")
    lecture_thread = json.loads(started.stdout)["thread_id"]

    open_page(page, dashboard, "lecture?thread=nonexistent")
    notice = main.get_by_text("There is no lecture thread named nonexistent; pick one below.", exact=True)
    expect(notice).to_be_visible()
    expect(sidebar.get_by_text("No thread selected.", exact=True)).to_be_visible()
    thread_picker = main.get_by_role("combobox", name="Thread", exact=True)
    expect(thread_picker).to_be_visible()
    expect(thread_picker).to_have_attribute("placeholder", "Pick a thread")
    expect(thread_picker).to_have_value("")
    expect(main.get_by_role("button", name="Send decision", exact=True)).to_have_count(0)

    # The picker still offers the lecture thread, and picking it shows that thread.
    _open_picker(thread_picker)
    page.get_by_role("option", name=re.compile("^" + re.escape(lecture_thread) + " · ")).click()
    expect(page).to_have_url(re.compile(r"[?&]thread=" + re.escape(lecture_thread) + "(&|$)"))
    expect(sidebar.get_by_text(f"Thread {lecture_thread} · checkpoint", exact=False)).to_be_visible()
    expect(main.get_by_text("There is no lecture thread named", exact=False)).to_have_count(0)
