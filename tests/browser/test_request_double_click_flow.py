"""A request sent twice from the refund page ("Submit request" clicked again before its page came back) says the
case was sent, and selects it.

The browser sends both clicks. The first click's callback starts the case; the second click stops that run of the
page at the callback's next touch of the session, after the start, so the first says nothing; the second, the
same request, was refused as a case that already exists, on the address the browser had before (the case before
selected). The request looked refused, and an approver entered it again under a new id: two payable cases.

The test waits on the page's own connection. The second click is sent once the first click's run has started:
two clicks sent before that (a ``dblclick``) may come to one run, as Streamlit folds a rerun asked while another
is only queued into it, and the page then never sees the request twice. Then it waits for both submits and a
whole run that ends after them, and checks that two runs started.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from playwright.sync_api import Locator, Page, WebSocket, expect
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from dashboard.i18n import t
from tests.browser.conftest import Dashboard, wait_for_app
from tests.browser.opening import cli_ok, open_page


class Runs:
    """What the page's connection carried, in order: each submit sent, each whole run started and ended."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self.socket: WebSocket | None = None

    def watch(self, socket: WebSocket) -> None:
        self.socket = socket
        socket.on("framesent", self._sent)
        socket.on("framereceived", self._received)

    def _sent(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes):
            message = BackMsg.FromString(payload)
            widgets = message.rerun_script.widget_states.widgets if message.HasField("rerun_script") else []
            if any(widget.trigger_value for widget in widgets):  # a button's click: the form's submit
                self.events.append("submit")

    def _received(self, payload: str | bytes) -> None:
        if isinstance(payload, bytes):
            message = ForwardMsg.FromString(payload)
            if message.HasField("new_session") and not message.metadata.run.fragment_ids:
                self.events.append("started")
            elif message.HasField("script_finished") and message.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
                self.events.append("ended")

    def after(self, start: int) -> list[str]:
        """The events since the ``start``-th."""
        return self.events[start:]

    def wait_until(self, start: int, done: Callable[[list[str]], bool]) -> None:
        """Waits, frame by frame, until ``done`` holds of the events since ``start``."""
        assert self.socket is not None
        while not done(self.after(start)):
            self.socket.wait_for_event("framereceived")  # the handlers above run while it waits

    def wait_for_a_run_after_submits(self, start: int, count: int) -> None:
        """Waits until ``count`` submits were sent since ``start`` and a whole run ended after the last of them."""

        def ended_after(since: list[str]) -> bool:
            submits = [place for place, event in enumerate(since) if event == "submit"]
            return len(submits) >= count and "ended" in since[submits[count - 1] :]

        self.wait_until(start, ended_after)


def _form(main: Locator) -> Locator:
    return main.get_by_test_id("stForm").filter(has=main.page.get_by_label(t("field.reason"), exact=True))


def _fill(main: Locator, case: str) -> None:
    form = _form(main)
    form.get_by_label(t("field.case_id"), exact=True).fill(case)
    form.get_by_label(t("field.customer"), exact=True).fill("kim")
    form.get_by_label(t("field.amount"), exact=True).fill("150000")
    form.get_by_label(t("field.reason"), exact=True).fill("broken")


def test_a_request_sent_again_before_its_page_came_back_is_said_as_sent_and_selected(
    page: Page, shared_dashboard: Dashboard
):
    runs = Runs()
    page.on("websocket", runs.watch)
    main = open_page(page, shared_dashboard, "refund")
    if not main.get_by_label(t("field.reason"), exact=True).is_visible():  # folded once a case exists
        main.get_by_text(t("refund.new.header"), exact=True).click()
    submit = _form(main).get_by_role("button", name=t("refund.new.submit"), exact=True)
    _fill(main, "DBL-F1")
    submit.click()
    expect(main.get_by_test_id("stAlertContentSuccess").filter(has_text="DBL-F1")).to_be_visible()
    wait_for_app(page)
    _form(main).get_by_label(t("field.case_id"), exact=True).fill("DBL-F2")  # only the case id changes

    start = len(runs.events)
    submit.click()
    runs.wait_until(
        start, lambda since: "started" in since
    )  # the first click's run began: the next is a run of its own
    submit.click()
    runs.wait_for_a_run_after_submits(start, 2)
    wait_for_app(page)
    assert runs.after(start).count("started") >= 2, f"one run for both clicks: {runs.after(start)}"

    said = main.get_by_test_id("stAlertContentSuccess").filter(has_text="DBL-F2")
    expect(said).to_have_text(t("refund.new.done", case="DBL-F2", status=t("status.waiting")))
    expect(main.get_by_test_id("stAlertContentError")).to_have_count(0)  # no "Nothing was done"
    expect(page).to_have_url(re.compile(r"[?&]thread=refund-DBL-F2(&|$)"))  # the new case is selected ...
    expect(page.get_by_test_id("stSidebar")).to_contain_text("refund-DBL-F2")  # ... and drawn, its forms with it
    inbox = json.loads(cli_ok(shared_dashboard, "inbox", "--json").stdout)
    assert sorted(row["thread_id"] for row in inbox if "DBL" in row["thread_id"]) == ["refund-DBL-F1", "refund-DBL-F2"]
