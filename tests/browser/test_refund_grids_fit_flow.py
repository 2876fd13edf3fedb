"""The refund page's open-cases queue and its audit at a 1280-pixel-wide window, in English and Korean:
every column of each grid is within the grid's width, so nothing is cut at its right edge or needs a
sideways scroll to be read, in local mode and signed in with a roles file (the queue's "who may decide"
then names people by email). The grids are drawn on a canvas, so a check of the page's overflow cannot
see this; the grid's own scroller element can. The queue's order, page, count and search share one line.
Every wait is on the page's state."""

from __future__ import annotations

import json
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.browser.conftest import Dashboard, table_with, wait_for_app
from tests.browser.oidc_support import Person, SignedInDashboard, oidc_provider, serve_signed_in_dashboard, sign_in
from tests.browser.opening import cli_ok, laid_out, open_page

#: Several items, two of them above the threshold (they wait), one below it (paid at once).
ITEMS = [{"item": "A-1", "amount": 300000}, {"item": "A-2", "amount": 80000}, {"item": "A-3", "amount": 200000}]
#: The case deleted while it waited: only the audit lists it.
DELETED = "C-1090"
#: How far the grid's content may reach past its visible width (rounding of fractional pixels).
SLACK = 1

#: Each grid's scroller: how wide its content is and how wide it shows.
WIDTHS = """(grid) => {
  const scroller = grid.querySelector('.dvn-scroller');
  return scroller && {scroll: scroller.scrollWidth, client: scroller.clientWidth};
}"""


@pytest.fixture(scope="module")
def cases(shared_dashboard: Dashboard) -> Dashboard:
    """Waiting cases of one amount and of several items, decided cases, and one deleted while it waited."""
    run = ("run", "refund", "--reason", "broken on arrival")
    cli_ok(shared_dashboard, *run, "--case", "C-1061", "--customer", "Kim Minsu", "--amount", "480000")
    cli_ok(shared_dashboard, *run, "--case", "C-1062", "--customer", "홍길동", "--items", json.dumps(ITEMS))
    cli_ok(shared_dashboard, *run, "--case", "건-1080", "--customer", "이영희", "--amount", "250000")
    for case, customer in (("C-1070", "Park Jisoo"), ("C-1071", "Choi Yuna")):
        cli_ok(shared_dashboard, *run, "--case", case, "--customer", customer, "--amount", "300000")
    # Decided in a batch (its id, a UUID, is in the audit), and on its own, by a signed-in-length name.
    approver = "kim.minsu@example.com"
    cli_ok(shared_dashboard, "decide", "refund-C-1070", "--action", "approve", "--approver", approver)
    cli_ok(shared_dashboard, "resume", "refund-C-1071", json.dumps({"action": "reject", "approver": approver}))
    cli_ok(shared_dashboard, *run, "--case", "C-1063", "--customer", "Jung Hana", "--amount", "200000")
    # Edited and not continued: the queue says why it needs attention, in a sentence.
    cli_ok(shared_dashboard, "update", "refund-C-1063", "--values", json.dumps({"amount": 150000}))
    cli_ok(shared_dashboard, *run, "--case", DELETED, "--customer", "Han Seojin", "--amount", "150000")
    reason = "requested twice by mistake; the customer's second request C-1091 stands"
    cli_ok(shared_dashboard, "delete", f"refund-{DELETED}", "--yes", "--reason", reason)
    return shared_dashboard


def _widths(page: Page, shown_text: str) -> dict[str, int]:
    grid = table_with(page, shown_text)
    grid.scroll_into_view_if_needed()
    expect(grid.locator(".dvn-scroller")).to_have_count(1)  # the grid is drawn
    widths = grid.evaluate(WIDTHS)
    assert widths and widths["client"] > 0, widths
    return widths


@pytest.mark.parametrize(
    ("language", "views"),
    [
        (
            "en",
            {
                "decisions": "decided in batch",
                "requests and times": "paid at",
                "deletions": "why deleted",
                "trace": "trace",
                "amounts": "executed",
            },
        ),
        (
            "ko",
            {
                "결정": "일괄 결정",
                "요청과 시각": "지급 시각",
                "삭제": "삭제 사유",
                "기록": "기록",
                "금액": "지급된 금액",
            },
        ),
    ],
)
def test_the_queue_and_every_view_of_the_audit_fit_a_1280_pixel_window(
    page: Page, cases: Dashboard, language: str, views: dict[str, str]
):
    """``views``: each view of the audit, and a column only it draws."""
    main = open_page(page, cases, f"refund?lang={language}", size=(1280, 720))
    queue = _widths(page, "C-1063")  # the queue is the first grid that lists the case needing attention
    assert queue["scroll"] <= queue["client"] + SLACK, f"the queue scrolls sideways: {queue}"
    audit = _widths(page, DELETED)  # only the audit lists a deleted case (its first view: amounts)
    assert audit["scroll"] <= audit["client"] + SLACK, f"the audit's amounts scroll sideways: {audit}"
    for view, its_column in views.items():
        main.locator(".st-key-refund-audit-view").get_by_role("radio", name=view, exact=True).click()
        expect(
            table_with(page, DELETED).get_by_role("columnheader", name=its_column, exact=True, include_hidden=True)
        ).to_have_count(1)
        wait_for_app(page)
        audit = _widths(page, DELETED)
        assert audit["scroll"] <= audit["client"] + SLACK, f"the audit's {view} scroll sideways: {audit}"


KIM = Person("kim@example.com", "Kim")
#: Who may decide a case: several people, so the queue's cell names more than fit its lines.
ROLES = f"""
[users]
"{KIM.email}" = {{ role = "approver", limit_krw = 1_000_000, name = "Kim" }}
"lee.jihoon@example.com" = {{ role = "approver", limit_krw = 3_000_000, name = "Lee" }}
"park.senior@example.com" = {{ role = "senior_approver", name = "Park" }}
"ada@example.com" = {{ role = "admin", name = "Ada" }}
"""
#: Waiting cases: more than one page of the queue (25 rows), so its page control and count are drawn.
SIGNED_IN_CASES = 27


def _only_loopback(route: Route) -> None:
    """The test's own servers only: the provider's page names a stylesheet on a CDN, never fetched."""
    (route.continue_ if urlsplit(route.request.url).hostname in ("127.0.0.1", "localhost") else route.abort)()


@pytest.fixture(scope="module")
def signed_in(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[tuple[SignedInDashboard, dict]]:
    """A dashboard that requires sign-in, with a roles file, waiting cases and one edited and not continued;
    and Kim's cookies once signed in."""
    folder = tmp_path_factory.mktemp("signed-in")
    roles = folder / "roles.toml"
    roles.write_text(ROLES, encoding="utf-8")
    with oidc_provider([KIM]) as provider, serve_signed_in_dashboard(folder, provider, roles) as served:
        run = ["run", "refund", "--customer", "Kim Minsu", "--reason", "broken on arrival"]
        steps = [
            {"cli": [*run, "--case", f"S-{n}", "--amount", str(200_000 + n * 100_000)]} for n in range(SIGNED_IN_CASES)
        ]
        steps.append({"cli": ["update", "refund-S-1", "--values", json.dumps({"amount": 150_000})]})
        done = served.cli_batch(*steps)
        assert [step["code"] for step in done] == [0] * len(steps), [step["err"] for step in done]
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        context.route("**/*", _only_loopback)
        try:
            page = context.new_page()
            page.set_default_timeout(30_000)
            sign_in(page, served, KIM.email)
            cookies = dict(context.storage_state())
        finally:
            context.close()
        yield served, cookies


# The provider is built on Authlib's older server API, which warns of its deprecation on each sign-in.
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize(("language", "rows"), [("en", "Rows 1–25 of"), ("ko", "1–25행")])
def test_signed_in_the_queue_fits_a_1280_pixel_window_with_its_controls_on_one_line(
    browser: Browser, signed_in: tuple[SignedInDashboard, dict], language: str, rows: str
):
    dashboard, cookies = signed_in
    context = browser.new_context(viewport={"width": 1280, "height": 720}, storage_state=cookies)
    context.route("**/*", _only_loopback)
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        path = f"refund?lang={language}"
        page.goto(f"{dashboard.url}/{path}")
        laid_out(page, path)
        main = page.get_by_test_id("stMain")
        # Signed in: the selected case's panel names who may decide it by email, whole.
        expect(main.get_by_test_id("stCaptionContainer").filter(has_text="ada@").first).to_be_visible()
        queue = _widths(page, "S-1")  # the queue lists the case needing attention first, on its first page
        assert queue["scroll"] <= queue["client"] + SLACK, f"the queue scrolls sideways: {queue}"
        # Its order, page, count of rows and search: one line above its rows.
        line = [
            main.locator(".st-key-refund-queue-order"),
            main.locator(".st-key-refund-queue-page input"),
            main.get_by_text(rows, exact=False).first,  # the queue's (the audit's is further down)
            main.locator(".st-key-refund-queue-search input"),
        ]
        middles = []
        for control in line:
            expect(control).to_be_visible()
            box = control.bounding_box()
            assert box is not None, control
            middles.append(box["y"] + box["height"] / 2)
        assert max(middles) - min(middles) < 6, middles
    finally:
        context.close()
