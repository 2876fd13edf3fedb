"""Refund rules that held on some paths and not on others, each tried on the paths that let it through.

An ``update_state`` that sets only ``approver``; ``HITL_LOCAL_APPROVER`` set to a name the agent writes
itself; amounts with decimals or written as JSON text; the short interrupt id the pages show, named in a
batch; an edit out of range told the largest request's bounds instead of the case's; ``run --json`` and
``resume --json`` without the ``waiting_count`` that ``threads --json`` has. The HTTP API's side of the
same rules is ``tests/api/test_api_refund_rules_each_path.py``.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from collections.abc import Iterator
from pathlib import Path
from unittest.mock import patch

import pytest
from streamlit.testing.v1 import AppTest

import app_pages
import dashboard
from agents import readmodel, runs
from agents.api.inputs import start_fields
from agents.errors import InputError, UserError
from agents.refund import ledger
from agents.refund.rules import is_reserved_approver
from agents.registry import get_agent
from agents.runtime import load_settings
from agents.texts import render
from dashboard.navigation import pages
from tests.conftest import APP_FILE
from tests.factories import messages, start_refund, thread_counts

PAGE = "app_pages/refund.py"
#: The page scripts of ``app_pages`` (drawn by AppTest, never imported); the rest are modules they import.
PAGE_SCRIPTS = {Path(page.path).stem for page in pages()}
ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}, {"item": "A-3", "amount": 200_000}]
START_ITEMS = ("run", "refund", "--case", "M1", "--customer", "kim", "--reason", "r", "--items", json.dumps(ITEMS))


def _waiting_ids(store, settings, thread_id: str = "refund-M1") -> dict[str, str]:
    return {i.value["item"]: str(i.id) for i in runs.thread_snapshot(store, settings, thread_id)[1].interrupts}


def _approver_in_audit(store, thread_id: str) -> str:
    return next(row.approver for row in ledger.audit_rows(store) if row.thread_id == thread_id)


# --- an approver set without a decision ----------------------------------------------------------------


def test_an_update_of_the_approver_alone_is_refused_on_the_cli_in_both_languages(run_cli, store, settings):
    start_refund(store, settings, "W1")
    before = thread_counts(store, "refund-W1")
    english = run_cli("update", "refund-W1", "--values", '{"approver": "mallory"}')
    assert english.code == 2 and "approver: is given with a decision" in english.err, english.err
    korean = run_cli("--lang", "ko", "update", "refund-W1", "--values", '{"approver": "mallory"}')
    assert korean.code == 2 and "결정(또는 바꾸는 금액)과 함께 줍니다" in korean.err, korean.err
    assert thread_counts(store, "refund-W1") == before
    audit = json.loads(run_cli("ledger", "--audit", "--json").out)
    assert [(row["case_id"], row["approver"], row["status"]) for row in audit] == [("W1", "", "waiting")]


def test_an_update_of_the_approver_alone_is_refused_by_the_one_update_path(store, settings):
    start_refund(store, settings, "W1")
    for as_node in (None, "review", "assess"):
        with pytest.raises(InputError) as refused:
            runs.update_thread(store, settings, "refund-W1", {"approver": "kim"}, as_node=as_node)
        assert refused.value.field == "approver"
    assert runs.current_result(store, settings, "refund-W1").values.get("approver") is None


def test_an_amount_edit_names_its_editor_in_the_trace_and_records_no_approver(store, settings):
    start_refund(store, settings, "W1")
    edited = runs.update_thread(store, settings, "refund-W1", {"amount": 300_000, "approver": "lee"})
    assert edited.status == "waiting" and edited.values.get("approver") is None
    assert edited.values["trace"][-1] == "amount 500,000 → 300,000 by lee (update_state)"
    assert _approver_in_audit(store, "refund-W1") == ""
    done = runs.resume_thread(store, settings, "refund-W1", {"action": "approve", "approver": "kim"})
    assert (done.values["approver"], done.outcome) == ("kim", "paid")


def _page(lang: str) -> AppTest:
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.query_params["lang"] = lang  # a link in that language: every widget is drawn in it from the start
    at.run()
    at.switch_page(PAGE)
    at.run()
    return at


@pytest.fixture
def page_language(request: pytest.FixtureRequest) -> Iterator[None]:
    """The test's ``lang`` wherever AppTest formats a selectbox's value (in the test's thread, which has no
    session); every module that imports ``current_language`` is imported before it is patched."""
    for package in (app_pages, dashboard):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if module.name.startswith("app_pages.") and module.name.split(".")[1] in PAGE_SCRIPTS:
                continue  # a page script runs on import; AppTest runs it
            importlib.import_module(module.name)
    with patch("dashboard.i18n.current_language", return_value=request.node.callspec.params["lang"]):
        yield


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Approver: is given with a decision (or with the amount it edits)"),
        ("ko", "승인자: 결정(또는 바꾸는 금액)과 함께 줍니다"),
    ],
)
def test_the_generic_update_form_refuses_an_approver_alone(store, settings, page_language, lang, said):
    start_refund(store, settings, "C1")
    before = thread_counts(store, "refund-C1")
    at = _page(lang)
    at.sidebar.text_input(key="update-approver-refund-C1").input("mallory")
    at.sidebar.button[1].click().run()
    assert not at.exception, at.exception
    assert said in messages(at), messages(at)
    assert thread_counts(store, "refund-C1") == before
    assert runs.current_result(store, settings, "refund-C1").values.get("approver") is None


# --- an amount edit to the amount the case has -------------------------------------------------------------
# It changed nothing, yet the case waited again after it: its wait and its deadline started anew, so an
# overdue case no longer looked overdue, nor escalated.


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "amount: is already 500,000 KRW: an edit to the same amount changes nothing"),
        ("ko", "이미 500,000원입니다. 같은 금액으로 바꾸면 아무것도 바뀌지 않습니다"),
    ],
)
def test_an_edit_to_the_same_amount_is_refused_on_the_cli(run_cli, store, settings, lang, said):
    start_refund(store, settings, "S1")
    before = thread_counts(store, "refund-S1")
    refused = run_cli("--lang", lang, "update", "refund-S1", "--values", '{"amount": 500000}')
    assert refused.code == 2 and said in refused.err, refused.err
    assert thread_counts(store, "refund-S1") == before


def test_an_edit_to_the_same_amount_is_refused_by_the_one_update_path_and_a_decision_with_it_is_not(store, settings):
    start_refund(store, settings, "S1")
    before = thread_counts(store, "refund-S1")
    for as_node in (None, "review", "assess"):
        with pytest.raises(InputError) as refused:
            runs.update_thread(store, settings, "refund-S1", {"amount": 500_000, "approver": "lee"}, as_node=as_node)
        assert refused.value.field == "amount" and "is already 500,000 KRW" in refused.value.message
    assert thread_counts(store, "refund-S1") == before
    decided = runs.update_thread(
        store, settings, "refund-S1", {"amount": 500_000, "decision": "approve", "approver": "kim"}
    )
    paid = [(row["case_id"], row["paid_amount"], row["approver"]) for row in ledger.ledger_rows(store)]
    assert decided.status == "done" and paid == [("S1", 500_000, "kim")], paid


def test_the_generic_update_form_refuses_an_edit_to_the_same_amount(store, settings):
    start_refund(store, settings, "C1")
    before = thread_counts(store, "refund-C1")
    at = _page("en")
    at.sidebar.text_input(key="update-amount-refund-C1").input("500,000")
    at.sidebar.button[1].click().run()
    assert not at.exception, at.exception
    assert "Nothing was done: Amount (KRW): is already 500,000 KRW: an edit to the same amount" in messages(at)
    assert thread_counts(store, "refund-C1") == before


# --- HITL_LOCAL_APPROVER -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["automatic", "update_state", "update-state", "Update State", "AUTOMAT1C"])
def test_a_local_approver_the_decision_rules_reserve_is_refused_at_start(name):
    assert is_reserved_approver(name)  # what a decision naming it is refused for
    with pytest.raises(UserError, match="HITL_LOCAL_APPROVER: .* is reserved"):
        load_settings(environ={"HITL_LOCAL_APPROVER": name}, secrets={})


def test_a_person_named_like_no_reserved_name_stays_the_local_approver():
    assert load_settings(environ={"HITL_LOCAL_APPROVER": "Automatica Kim"}, secrets={}).local_approver == (
        "Automatica Kim"
    )


def test_the_cli_refuses_to_start_with_a_reserved_local_approver(run_cli, monkeypatch):
    monkeypatch.setenv("HITL_LOCAL_APPROVER", "automatic")
    refused = run_cli("threads")
    assert refused.code == 2 and "HITL_LOCAL_APPROVER" in refused.err, refused.err


# --- whole numbers: no decimals, no JSON text ------------------------------------------------------------


def test_a_request_with_decimals_is_refused_and_typed_digits_are_read(store, settings, run_cli):
    with pytest.raises(InputError, match="without decimals") as refused:
        start_refund(store, settings, "D1", 150_000.0)
    assert refused.value.field == "amount"
    assert readmodel.head_checkpoint_id(store, "refund-D1") is None
    typed = run_cli("run", "refund", "--case", "D2", "--customer", "k", "--amount", "150,000", "--reason", "r")
    assert typed.code == 0, typed.err
    cli = run_cli("run", "refund", "--case", "D3", "--customer", "k", "--amount", "150000.0", "--reason", "r")
    assert cli.code == 2 and "amount" in cli.err
    assert readmodel.head_checkpoint_id(store, "refund-D3") is None


@pytest.mark.parametrize(
    ("command", "refusal"),
    [
        (("resume", "refund-W1", '{"action": "edit", "amount": 100000.0, "approver": "kim"}'), "without decimals"),
        (("resume", "refund-W1", '{"action": "edit", "amount": "100,000", "approver": "kim"}'), "not text"),
        (("update", "refund-W1", "--values", '{"amount": 100000.0}'), "without decimals"),
        (("update", "refund-W1", "--values", '{"amount": "100000"}'), "not text"),
    ],
    ids=["resume decimals", "resume text", "update decimals", "update text"],
)
def test_an_edit_in_json_is_a_json_whole_number_on_the_cli(run_cli, store, settings, command, refusal):
    start_refund(store, settings, "W1")
    before = thread_counts(store, "refund-W1")
    result = run_cli(*command)
    assert result.code == 2 and "amount: must be a" in result.err and refusal in result.err, result.err
    assert thread_counts(store, "refund-W1") == before and ledger.ledger_rows(store) == []


def test_an_agent_inbox_edit_typed_into_its_text_area_is_read_as_typed(store, settings):
    start_refund(store, settings, "W1")
    typed = [{"type": "edit", "args": {"action": "pay_refund", "args": {"amount": "300,000"}}, "approver": "kim"}]
    done = runs.resume_thread(store, settings, "refund-W1", typed)
    assert (done.outcome, done.values["paid_amount"]) == ("paid", 300_000)


def test_langchains_edit_carries_a_json_number(store, settings):
    start_refund(store, settings, "W1")
    edit = {"type": "edit", "edited_action": {"name": "pay_refund", "args": {"amount": "300000"}}}
    with pytest.raises(InputError, match="not text"):
        runs.resume_thread(store, settings, "refund-W1", {"decisions": [edit], "approver": "kim"})
    assert ledger.ledger_rows(store) == []


# --- an edit out of range names the case's range -------------------------------------------------------


@pytest.mark.parametrize("amount", [0, -5, 600_000, 20_000_000])
def test_an_edit_out_of_range_names_the_requested_amount_on_every_path(store, settings, amount):
    start_refund(store, settings, "W1")
    refusals = []
    with pytest.raises(InputError) as answered:
        runs.resume_thread(store, settings, "refund-W1", {"action": "edit", "amount": amount, "approver": "kim"})
    refusals.append(answered.value)
    with pytest.raises(InputError) as updated:
        runs.update_thread(store, settings, "refund-W1", {"amount": amount})
    refusals.append(updated.value)
    for refused in refusals:
        assert refused.field == "amount"
        assert f"must be between 1 and the requested 500,000 KRW, got {amount:,}" in str(refused)
        assert f"1에서 요청 금액 500,000원 사이여야 합니다. 입력값: {amount:,}" in render(refused.text, "ko")
        assert "10,000,000" not in str(refused)


def test_an_item_edit_out_of_range_names_the_items_amount(run_cli, store, settings):
    run_cli(*START_ITEMS)
    refused = run_cli(
        "resume",
        "refund-M1",
        "--interrupt",
        _waiting_ids(store, settings)["A-3"],
        '{"action": "edit", "amount": 0, "approver": "kim"}',
    )
    assert refused.code == 2 and "between 1 and the requested 200,000 KRW, got 0" in refused.err, refused.err


def test_a_stated_total_that_is_not_the_items_total_is_told_in_grouped_amounts():
    items = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}]
    graph_input = {"case_id": "G-1", "customer": "kim", "reason": "r", "items": items, "requested_amount": 500_000}
    with pytest.raises(InputError) as refused:
        start_fields(get_agent("refund"), graph_input)
    assert refused.value.field == "requested_amount"
    assert str(refused.value) == "requested_amount: must be the items' total, 380,000 KRW; got 500,000"
    assert render(refused.value.text, "ko").endswith("합계인 380,000원이어야 합니다. 입력값: 500,000")


# --- the short interrupt id the pages show -------------------------------------------------------------


def _decided(run_cli, *items: str) -> list[dict]:
    result = run_cli("decide", *items, "--action", "approve", "--approver", "kim", "--json")
    return json.loads(result.out)


def test_a_short_interrupt_id_is_refused_as_resume_interrupt_refuses_it(run_cli, store, settings):
    start_refund(store, settings, "W1")
    whole = runs.current_result(store, settings, "refund-W1").interrupt_ids[0]
    resumed = run_cli("resume", "refund-W1", "--interrupt", "deadbeef", '{"action": "approve", "approver": "kim"}')
    assert resumed.code == 2 and "no question 'deadbeef' is waiting in 'refund-W1'" in resumed.err
    for item, named in (("refund-W1:deadbeef", "deadbeef"), (f"refund-W1:{whole[:8]}…", whole[:8])):
        (decided,) = _decided(run_cli, item)
        assert (decided["thread_id"], decided["interrupt_id"], decided["result"]) == ("refund-W1", named, "refused")
        assert f"no question '{named}' is waiting in 'refund-W1'; waiting: {whole}" in decided["reason"], decided
    assert ledger.ledger_rows(store) == []
    (paid,) = _decided(run_cli, f"refund-W1:{whole}")
    assert paid["result"] == "paid"


def test_a_thread_whose_name_ends_like_a_short_id_is_still_that_thread(run_cli, store, settings):
    start_refund(store, settings, "ORD:20240101")
    (paid,) = _decided(run_cli, "refund-ORD:20240101")
    assert (paid["thread_id"], paid["interrupt_id"], paid["result"]) == ("refund-ORD:20240101", "", "paid")


# --- waiting_count in run --json and resume --json -----------------------------------------------------


def _listed_count(run_cli, thread_id: str) -> int:
    return next(t["waiting_count"] for t in json.loads(run_cli("threads", "--json").out) if t["thread_id"] == thread_id)


def test_run_and_resume_json_say_how_many_questions_wait_as_threads_does(run_cli, store, settings):
    started = json.loads(run_cli(*START_ITEMS, "--json").out)
    assert started["waiting_count"] == 2 == _listed_count(run_cli, "refund-M1")
    first = _waiting_ids(store, settings)["A-1"]
    approve = '{"action": "approve", "approver": "lee"}'
    resumed = json.loads(run_cli("resume", "refund-M1", "--interrupt", first, approve, "--json").out)
    assert resumed["waiting_count"] == 1 == _listed_count(run_cli, "refund-M1")  # one item of several left
    assert resumed["status"] == "waiting" and len(resumed["interrupt_ids"]) == 1
    single = json.loads(
        run_cli("run", "refund", "--case", "S1", "--customer", "k", "--amount", "5", "--reason", "r", "--json").out
    )
    assert (single["status"], single["waiting_count"]) == ("done", 0)
