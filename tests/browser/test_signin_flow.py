"""Sign-in and roles in real Chromium, against a real OpenID Connect provider (``oidc-provider-mock``).

The module's tests share one dashboard with ``[auth]`` pointing at the provider and a roles file; each
person signs in in their own browser context (their own cookies). The requester and the approver, who act
in several tests, sign in once for the module; each test opens their contexts with those cookies. The
pages only hide what a role cannot do; that ``agents.runs`` refuses it anyway is tested in tests/agents.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.browser.cli_batch import run_step
from tests.browser.conftest import ARTIFACTS, table_with, wait_for_app
from tests.browser.oidc_support import (
    Person,
    Provider,
    SignedInDashboard,
    oidc_provider,
    serve_signed_in_dashboard,
    sign_in,
)

# The provider is built on Authlib's older server API, which warns of its deprecation on each sign-in.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

VIEWER = Person("vera@example.com", "Vera Viewer")
APPROVER = Person("ann@example.com", "Ann Approver")  # limit 1,000,000 KRW
REQUESTER = Person("rita@example.com", "Rita Requester")  # an approver who files the requests
SENIOR = Person("sam@example.com", "Sam Senior")
ADMIN = Person("ada@example.com", "Ada Admin")
PEOPLE = (VIEWER, APPROVER, REQUESTER, SENIOR, ADMIN)

ROLES = f"""
[users]
"{VIEWER.email}" = {{ role = "viewer" }}
"{APPROVER.email}" = {{ role = "approver", limit_krw = 1_000_000 }}
"{REQUESTER.email}" = {{ role = "approver", limit_krw = 5_000_000 }}
"{SENIOR.email}" = {{ role = "senior_approver" }}
"{ADMIN.email}" = {{ role = "admin" }}
"""


@pytest.fixture(autouse=True)
def patient_expect() -> Iterator[None]:
    """Each sign-in is several page loads on a shared machine: assertions wait up to 20 s, not 5."""
    expect.set_options(timeout=20_000)
    yield
    expect.set_options(timeout=5_000)


@pytest.fixture(scope="module")
def provider() -> Iterator[Provider]:
    with oidc_provider(PEOPLE) as running:
        yield running


@pytest.fixture(scope="module")
def signed_dashboard(tmp_path_factory: pytest.TempPathFactory, provider: Provider) -> Iterator[SignedInDashboard]:
    """One signed-in dashboard for the module: each test signs its people in in browser contexts of its
    own and acts on refund cases of its own (``v1``, ``small``, ``large``, ``gone``), so none reads what
    another wrote; what the server printed, checked for secrets, is everything it printed so far."""
    folder = tmp_path_factory.mktemp("signin")
    roles = folder / "roles.toml"
    roles.write_text(ROLES, encoding="utf-8")
    with serve_signed_in_dashboard(folder, provider, roles) as served:
        yield served


def _only_loopback(route: Route) -> None:
    """Lets a request through to the test's own loopback servers; refuses every other."""
    if urlsplit(route.request.url).hostname in ("127.0.0.1", "localhost"):
        route.continue_()
    else:
        route.abort()


@pytest.fixture
def person_page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Callable[..., Page]]:
    """Opens a page in a fresh browser context (its own cookies, or the ``storage_state`` given): one per person.

    Nothing but the test's own loopback servers is ever requested (the provider's pages name a
    stylesheet on a CDN; that request is refused here, so no page reaches the network).
    """
    contexts = []

    def open_page(storage_state: dict | None = None) -> Page:
        context = browser.new_context(viewport={"width": 1400, "height": 1000}, storage_state=storage_state)
        context.route("**/*", _only_loopback)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(30_000)
        return page

    yield open_page
    # Each person's last view, for a failure's post-mortem (or every test's with HITL_TEST_SCREENSHOTS=1, as the
    # page fixture keeps them): a full-page screenshot costs the browser about 0.2 s of CPU.
    failed = any(getattr(getattr(request.node, f"rep_{when}", None), "failed", False) for when in ("setup", "call"))
    keep = failed or os.environ.get("HITL_TEST_SCREENSHOTS") == "1"
    if keep:
        ARTIFACTS.mkdir(exist_ok=True)
    for number, context in enumerate(contexts):
        try:
            for page in context.pages if keep else ():
                page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-{number}.png"), full_page=True)
        finally:
            context.close()


def _cookies_of(browser: Browser, dashboard: SignedInDashboard, person: Person) -> dict:
    """``person``'s cookies once signed in (a browser context's storage state): a context opened with them is
    signed in as after ``sign_in``, without signing in again."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.route("**/*", _only_loopback)  # as person_page's contexts
    try:
        page = context.new_page()
        page.set_default_timeout(30_000)
        sign_in(page, dashboard, person.email)
        return dict(context.storage_state())
    finally:
        context.close()


@pytest.fixture(scope="module")
def requester_cookies(browser: Browser, signed_dashboard: SignedInDashboard) -> dict:
    """The requester's cookies, signed in once for the module: every test but the first files its cases as
    the requester."""
    return _cookies_of(browser, signed_dashboard, REQUESTER)


@pytest.fixture(scope="module")
def approver_cookies(browser: Browser, signed_dashboard: SignedInDashboard) -> dict:
    """The approver's cookies, signed in once for the module: two tests act as the approver (every other
    person signs in in the test that needs them)."""
    return _cookies_of(browser, signed_dashboard, APPROVER)


def _submit_request(page: Page, case: str, amount: str) -> None:
    form = page.get_by_test_id("stForm").filter(has_text="Submit request")
    form.get_by_label("Case id", exact=True).fill(case)
    form.get_by_label("Customer", exact=True).fill("Kim")
    form.get_by_label("Amount (KRW)", exact=True).fill(amount)
    form.get_by_label("Reason", exact=True).fill("broken on arrival")
    form.get_by_role("button", name="Submit request").click()
    expect(page.get_by_text(f"Case {case} submitted: waiting.")).to_be_visible()


def _requester(
    dashboard: SignedInDashboard, person_page: Callable[..., Page], cookies: dict, *cases: tuple[str, str]
) -> Page:
    """The requester, signed in (``cookies``) on the refund page, having submitted each (case id, amount)."""
    requester = person_page(cookies)
    _open(requester, dashboard, "refund")
    expect(requester.get_by_test_id("stSidebar").get_by_text(f"Signed in as {REQUESTER.name}")).to_be_visible()
    # The form starts folded once the (shared) database holds a case; it stays open after a request.
    form = requester.get_by_test_id("stMain").get_by_test_id("stExpander").filter(has_text="New refund request")
    if form.locator("details").get_attribute("open") is None:
        form.locator("summary").click()
    for case, amount in cases:
        _submit_request(requester, case, amount)
    return requester


def _open(page: Page, dashboard: SignedInDashboard, path: str) -> None:
    page.goto(f"{dashboard.url}/{path}")
    wait_for_app(page)


def _cli(dashboard: SignedInDashboard, *args: str) -> dict[str, Any]:
    """``python -m agents ARGS`` against the dashboard's database, through the CLI's own ``main()`` in this
    process (``cli_batch.run_step``): a read needs no interpreter of its own, which costs a second of CPU."""
    return run_step({"cli": ["--db", str(dashboard.db_path), *args]})


def _ledger(dashboard: SignedInDashboard) -> dict[str, dict]:
    done = _cli(dashboard, "ledger", "--json")
    assert done["code"] == 0, done["err"]
    return {row["case_id"]: row for row in json.loads(done["out"])}


def _no_secret_in(dashboard: SignedInDashboard, *pages: Page) -> None:
    shown = [page.content() for page in pages] + ["".join(dashboard.output or [])]
    stored = b"".join(path.read_bytes() for path in Path(dashboard.db_path).parent.glob("dashboard.sqlite*"))
    assert stored  # the database was read at all
    for secret in dashboard.secrets:
        assert all(secret not in text for text in shown)
        assert secret.encode() not in stored


def test_every_page_needs_sign_in_and_sign_out_returns_to_it(
    signed_dashboard: SignedInDashboard, person_page: Callable[..., Page]
) -> None:
    page = person_page()
    _open(page, signed_dashboard, "refund")
    main = page.get_by_test_id("stMain")
    expect(main.get_by_role("button", name="Sign in")).to_be_visible()
    expect(page.get_by_test_id("stSidebarNav")).to_have_count(0)  # no navigation, no page
    expect(main.get_by_text("Refund agent")).to_have_count(0)

    sign_in(page, signed_dashboard, VIEWER.email)
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar.get_by_text(f"Signed in as {VIEWER.name}")).to_contain_text("· viewer")
    expect(sidebar.get_by_text("local mode")).to_have_count(0)
    expect(page.get_by_test_id("stSidebarNav")).to_contain_text("Refund agent")

    sidebar.get_by_role("button", name="Sign out").click()
    page.get_by_role("button", name="End session").click()  # the provider ends its session too
    page.wait_for_url(re.compile(re.escape(signed_dashboard.url) + r"/(\?.*)?$"))
    wait_for_app(page)
    expect(page.get_by_test_id("stMain").get_by_role("button", name="Sign in")).to_be_visible()
    _open(page, signed_dashboard, "refund")  # the cookie is gone: every page asks again
    expect(page.get_by_test_id("stMain").get_by_role("button", name="Sign in")).to_be_visible()
    _no_secret_in(signed_dashboard, page)


def test_viewer_sees_the_queue_and_no_decision_controls(
    signed_dashboard: SignedInDashboard, person_page: Callable[..., Page], requester_cookies: dict
) -> None:
    requester = _requester(signed_dashboard, person_page, requester_cookies, ("v1", "300,000"))

    viewer = person_page()
    sign_in(viewer, signed_dashboard, VIEWER.email)
    _open(viewer, signed_dashboard, "refund?thread=refund-v1")
    main = viewer.get_by_test_id("stMain")
    expect(table_with(viewer, "v1")).to_be_visible()  # the queue lists the case
    expect(main.get_by_text("Waiting for an approver.")).to_be_visible()
    expect(main.get_by_text("is a viewer; rejecting a refund needs an approver or above").first).to_be_visible()
    main.get_by_test_id("stExpander").filter(has_text="New refund request").locator("summary").click()  # folded
    for control in ("Approve", "Reject", "Submit request"):
        button = main.get_by_role("button", name=control, exact=True)
        expect(button).to_have_count(0) if control != "Submit request" else expect(button).to_be_disabled()
    sidebar = viewer.get_by_test_id("stSidebar")
    expect(sidebar.get_by_role("button", name="Resume")).to_have_count(0)
    expect(sidebar.get_by_role("button", name="Delete thread")).to_have_count(0)
    _no_secret_in(signed_dashboard, requester, viewer)


def test_an_approvers_limit_a_senior_approver_and_four_eyes(
    signed_dashboard: SignedInDashboard,
    person_page: Callable[..., Page],
    requester_cookies: dict,
    approver_cookies: dict,
) -> None:
    requester = _requester(
        signed_dashboard, person_page, requester_cookies, ("small", "500,000"), ("large", "2,000,000")
    )

    # The requester cannot approve their own case (four eyes); they may reject it.
    _open(requester, signed_dashboard, "refund?thread=refund-small")
    main = requester.get_by_test_id("stMain")
    expect(main.get_by_text("you requested this refund; another person must approve it")).to_be_visible()
    expect(main.get_by_role("button", name="Approve", exact=True)).to_have_count(0)
    expect(main.get_by_role("button", name="Reject", exact=True)).to_be_visible()

    # An approver with a 1,000,000 KRW limit approves 500,000: the ledger's approver is their email.
    approver = person_page(approver_cookies)
    _open(approver, signed_dashboard, "refund?thread=refund-small")
    main = approver.get_by_test_id("stMain")
    expect(main.get_by_text(f"The decision is recorded as yours: {APPROVER.name}")).to_be_visible()
    expect(main.get_by_label("Approver", exact=True)).to_have_count(0)  # nothing typed
    main.get_by_role("button", name="Approve", exact=True).click()
    expect(approver.get_by_text("Case small: approve by")).to_be_visible()
    assert _ledger(signed_dashboard)["small"]["approver"] == APPROVER.email

    # ... and is refused 2,000,000, with the reason.
    _open(approver, signed_dashboard, "refund?thread=refund-large")
    expect(main.get_by_text("your limit is 1,000,000 KRW; this case pays 2,000,000 KRW")).to_be_visible()
    expect(main.get_by_role("button", name="Approve", exact=True)).to_have_count(0)
    assert "large" not in _ledger(signed_dashboard)

    # A senior approver approves it.
    senior = person_page()
    sign_in(senior, signed_dashboard, SENIOR.email)
    _open(senior, signed_dashboard, "refund?thread=refund-large")
    senior.get_by_test_id("stMain").get_by_role("button", name="Approve", exact=True).click()
    expect(senior.get_by_text("Case large: approve by")).to_be_visible()
    ledger = _ledger(signed_dashboard)
    assert ledger["large"]["approver"] == SENIOR.email and ledger["large"]["paid_amount"] == 2_000_000
    _no_secret_in(signed_dashboard, requester, approver, senior)


def test_an_admin_deletes_a_thread_an_approver_cannot(
    signed_dashboard: SignedInDashboard,
    person_page: Callable[..., Page],
    requester_cookies: dict,
    approver_cookies: dict,
) -> None:
    _requester(signed_dashboard, person_page, requester_cookies, ("gone", "400,000"))

    approver = person_page(approver_cookies)
    _open(approver, signed_dashboard, "refund?thread=refund-gone")
    sidebar = approver.get_by_test_id("stSidebar")
    expect(sidebar.get_by_text("deleting, forking, re-running and restoring threads is for admins")).to_be_visible()
    expect(sidebar.get_by_role("button", name="Delete thread")).to_have_count(0)
    expect(sidebar.get_by_role("button", name="Update state")).to_have_count(0)
    _open(approver, signed_dashboard, "explorer?thread=refund-gone")
    expect(approver.get_by_role("button", name="Re-run from here")).to_have_count(0)

    admin = person_page()
    sign_in(admin, signed_dashboard, ADMIN.email)
    _open(admin, signed_dashboard, "refund?thread=refund-gone")
    delete = admin.get_by_test_id("stSidebar").get_by_test_id("stForm").filter(has_text="Delete thread")
    delete.get_by_label("Type refund-gone to confirm").fill("refund-gone")
    delete.get_by_role("textbox", name="Reason (kept in the audit)").fill("entered twice")  # the case waits
    delete.get_by_role("button", name="Delete thread").click()
    expect(admin.get_by_text("Deleted thread refund-gone.")).to_be_visible()
    threads = _cli(signed_dashboard, "threads", "--json")
    assert threads["code"] == 0 and "refund-gone" not in threads["out"]
    _no_secret_in(signed_dashboard, approver, admin)
