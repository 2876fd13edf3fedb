"""A page's validation message names the field by the label the page shows, in the page's language.

Every form a page draws is tried with a value its rule refuses, in English and in Korean: the message
says "승인자: 필수 항목입니다" (the label above the input), never "approver: …" (the field's code).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path
from unittest.mock import patch

import pytest
from streamlit.testing.v1 import AppTest

import app_pages
import dashboard
from agents import readmodel, runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.refund import ledger
from app_pages.refund_batch import DRAWN_KEY, SELECTED_KEY
from dashboard.navigation import pages
from tests.conftest import APP_FILE
from tests.factories import button_by_key, messages, pause_robot, start_refund

REFUND, LECTURE = "app_pages/refund.py", "app_pages/lecture.py"
#: The page scripts of ``app_pages`` (drawn by AppTest, never imported); the rest are modules they import.
PAGE_SCRIPTS = {Path(page.path).stem for page in pages()}
#: (label in English, label in Korean, the field's code) of each field whose message is checked.
APPROVER = ("Approver", "승인자", "approver")
AMOUNT = ("Amount (KRW)", "금액 (원)", "amount")
CUSTOMER = ("Customer", "고객", "customer")
CASE_ID = ("Case id", "건 번호", "case_id")
TOPIC = ("Topic", "주제", "topic")


@pytest.fixture(autouse=True)
def _labels_in_the_pages_language(request: pytest.FixtureRequest) -> Iterator[None]:
    """AppTest labels a selectbox's value with its ``format_func`` in the test's own thread, which has no
    session and so no language; there the language is the test's too.

    Every module that imports ``current_language`` is imported first: one imported while it is patched
    would keep the stand-in for the rest of the test session.
    """
    for package in (app_pages, dashboard):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if module.name.startswith("app_pages.") and module.name.split(".")[1] in PAGE_SCRIPTS:
                continue  # a page script runs on import; AppTest runs it
            importlib.import_module(module.name)
    with patch("dashboard.i18n.current_language", return_value=request.node.callspec.params["lang"]):
        yield


def _page(path: str, lang: str) -> AppTest:
    test = AppTest.from_file(APP_FILE, default_timeout=60)
    test.query_params["lang"] = lang  # a link in that language: every widget is drawn in it from the start
    test.run()
    test.switch_page(path)
    test.run()
    return test


def _names_its_label(at: AppTest, field: tuple[str, str, str], lang: str) -> None:
    shown = messages(at)
    label = field[1] if lang == "ko" else field[0]
    assert f"{label}:" in shown, shown
    assert f"{field[2]}:" not in shown, shown  # never the code


LANGS = pytest.mark.parametrize("lang", ["en", "ko"])


@LANGS
def test_approving_with_no_approver_names_the_approver_field(store, settings, lang):
    start_refund(store, settings, "C1")
    at = _page(REFUND, lang)
    button_by_key(at, "refund-approve").click().run()
    _names_its_label(at, APPROVER, lang)
    assert runs.current_result(store, settings, "refund-C1").status == "waiting"


def _submit_request(at: AppTest, case: str, customer: str, amount: str) -> None:
    at.text_input(key="refund-new-case").input(case)
    at.text_input(key="refund-new-customer").input(customer)
    at.text_input(key="refund-new-amount").input(amount)
    at.text_area(key="refund-new-reason").input("broken")
    next(b for b in at.button if b.label in ("Submit request", "요청 제출")).click().run()


@LANGS
def test_a_refused_new_request_names_its_fields(store, settings, lang):
    at = _page(REFUND, lang)
    _submit_request(at, "C1", "kim", "")
    _names_its_label(at, AMOUNT, lang)
    if lang == "ko":  # no field's code in the words either
        assert not re.search(r"amount|items", messages(at)), messages(at)
    _submit_request(at, "C1", "kim", "abc")
    _names_its_label(at, AMOUNT, lang)
    _submit_request(at, "C1", " ", "500,000")
    _names_its_label(at, CUSTOMER, lang)
    _submit_request(at, "C1", "kim", "500,000")
    _submit_request(at, "C1", "kim", "300,000")  # the case exists already
    _names_its_label(at, CASE_ID, lang)
    assert len(ledger.audit_rows(store)) == 1


@LANGS
def test_the_sidebar_answer_form_names_the_approver_field(store, settings, lang):
    start_refund(store, settings, "C1")
    at = _page(REFUND, lang)
    at.sidebar.button[0].click().run()  # approve, with no approver typed
    _names_its_label(at, APPROVER, lang)


@LANGS
def test_a_batch_decision_with_no_approver_names_the_approver_field(store, settings, lang):
    start_refund(store, settings, "C1")
    at = _page(REFUND, lang)
    at.session_state[SELECTED_KEY] = list(at.session_state[DRAWN_KEY][1])
    at.run()
    button_by_key(at, "refund-batch-approve").click().run()
    shown = " ".join(x.value for x in [*at.error, *at.warning, *at.success, *at.caption]) + " ".join(
        str(cell) for table in at.dataframe for cell in table.value.to_numpy().ravel()
    )
    assert "approver:" not in shown, shown
    assert ("승인자:" if lang == "ko" else "Approver:") in shown, shown
    assert runs.current_result(store, settings, "refund-C1").status == "waiting"


@LANGS
def test_a_refused_lecture_names_its_field(store, lang):
    at = _page(LECTURE, lang)
    at.text_input(key="lecture-field-topic").input("   ")
    next(b for b in at.button if b.label in ("Plan the lecture", "강의 계획 시작")).click().run()
    _names_its_label(at, TOPIC, lang)


@LANGS
def test_an_amount_the_edit_refuses_names_the_edit_field(store, settings, lang):
    start_refund(store, settings, "C1")
    at = _page(REFUND, lang)
    at.text_input(key="refund-edit-amount-refund-C1").input("0").run()
    shown = " ".join(e.value for e in at.error)
    label = "새 지급 금액 (원)" if lang == "ko" else "New amount to pay (KRW)"
    assert f"{label}:" in shown and ": amount:" not in shown, shown  # never the code


def _raw_update(at: AppTest, thread_id: str, raw: str) -> None:
    """Sends ``raw`` as the sidebar's raw update_state."""
    at.sidebar.toggle(key=f"update-raw-{thread_id}").set_value(True).run()
    at.sidebar.text_area(key=f"update-rawvalue-{thread_id}").input(raw)
    next(b for b in at.sidebar.button if b.label in ("Update state", "상태 수정")).click().run()
    assert not at.exception, at.exception


@LANGS
def test_a_raw_key_no_form_of_the_agent_has_is_named_as_typed(store, settings, lang):
    pause_robot(store, settings)
    at = _page("app_pages/robot.py", lang)
    _raw_update(at, "hitl_demo", '{"amount": 5}')
    shown = messages(at)
    assert "amount: " in shown and "decision, pending_action" in shown, shown  # as typed, as the CLI says it
    assert AMOUNT[0] not in shown and AMOUNT[1] not in shown, shown  # never the refund form's label
    runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lecture-x")
    at.query_params["thread"] = "lecture-x"
    at.switch_page(LECTURE).run()
    _raw_update(at, "lecture-x", '{"customer": "x"}')
    shown = messages(at)
    assert "customer: " in shown and CUSTOMER[0] not in shown and CUSTOMER[1] not in shown, shown


@LANGS
def test_a_key_the_agents_form_has_is_still_named_by_its_label(store, settings, lang):
    start_refund(store, settings, "C1")
    at = _page(REFUND, lang)
    _raw_update(at, "refund-C1", '{"amount": -5}')
    _names_its_label(at, AMOUNT, lang)


@LANGS
def test_the_thread_a_form_acts_on_is_named_as_the_sidebar_names_it(store, settings, lang):
    pause_robot(store, settings)
    runs.resume_thread(store, settings, "hitl_demo", "yes")  # executed: nothing waits any more
    at = _page("app_pages/robot.py", lang)
    at.sidebar.text_input(key="resume-answer-hitl_demo").input("yes")
    at.sidebar.button[0].click().run()
    shown = messages(at)
    label = "스레드: 'hitl_demo'는 답을" if lang == "ko" else "Thread: 'hitl_demo' is not waiting"
    assert label in shown and "thread_id" not in shown, shown


@LANGS
def test_a_rerun_of_a_paid_case_names_the_checkpoint_as_the_page_does(store, settings, lang):
    start_refund(store, settings, "C4")
    runs.resume_thread(store, settings, "refund-C4", {"action": "approve", "approver": "kim"})  # paid
    at = _page("app_pages/explorer.py", lang)
    at.selectbox(key="explorer-agent").select("refund").run()
    first = readmodel.checkpoint_chain(store, "refund-C4")[1]
    at.selectbox(key="explorer-checkpoint-refund-C4").select(first.checkpoint_id).run()
    at.button(key="explorer-rerun-refund-C4").click().run()
    shown = messages(at)
    assert ("체크포인트: " if lang == "ko" else "Checkpoint: ") in shown and "checkpoint_id" not in shown, shown
    assert runs.current_result(store, settings, "refund-C4").outcome == "paid"
