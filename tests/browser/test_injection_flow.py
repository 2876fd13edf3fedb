"""A refund reason that looks like HTML is shown as literal text on every page that shows it."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import Dashboard, table_with, wait_for_app

PAYLOAD = "<img src=x onerror=alert(1)><b>bold</b>"


def _assert_inert(page: Page, dialogs: list[str]) -> None:
    assert dialogs == []
    assert page.locator("b", has_text="bold").count() == 0
    assert page.locator("img[src='x']").count() == 0


def test_html_in_a_refund_reason_stays_text(page: Page, dashboard: Dashboard):
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))

    page.goto(f"{dashboard.url}/refund")
    wait_for_app(page)
    form = page.get_by_test_id("stForm").filter(has_text="Submit request")
    form.get_by_label("Case id", exact=True).fill("x1")
    form.get_by_label("Customer", exact=True).fill("<b>bold</b> Kim")
    form.get_by_label("Amount (KRW)", exact=True).fill("200000")
    form.get_by_label("Reason", exact=True).fill(PAYLOAD)
    form.get_by_role("button", name="Submit request").click()
    expect(page.get_by_text("Case x1 submitted: waiting.")).to_be_visible()
    main = page.get_by_test_id("stMain")
    texts = main.get_by_test_id("stText")  # st.text: the case's customer and reason
    expect(texts.filter(has_text=PAYLOAD)).to_have_text(PAYLOAD)
    expect(texts.filter(has_text="Kim")).to_have_text("<b>bold</b> Kim")
    _assert_inert(page, dialogs)

    # Home: the inbox line quotes the customer; the thread table shows the case.
    page.goto(f"{dashboard.url}/")  # home is the default page, at the root
    wait_for_app(page)
    expect(table_with(page, "<b>bold</b> Kim")).to_be_visible()
    expect(table_with(page, "refund-x1")).to_be_visible()
    _assert_inert(page, dialogs)

    # Explorer: the decoded state shows the reason as a JSON string.
    page.goto(f"{dashboard.url}/explorer?thread=refund-x1")
    wait_for_app(page)
    state = page.get_by_test_id("stJson").first
    expect(state).to_contain_text(PAYLOAD)
    _assert_inert(page, dialogs)
