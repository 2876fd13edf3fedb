"""The requester of a refund is one identity however it is written: four eyes compares identities.

Kim (``kim@example.com``, ``name = "Kim Minji"`` in the roles file) requests a case through an API
token labelled ``kim-script``. The case records the person (their email and display name) and every
name the roles file gives them; a local operator who types any of them as the approver, in any case,
width, spacing or with look-alike letters, is refused (four eyes) on every path: ``runs`` as the
dashboard's local mode and the CLI call it (typed and raw answers, ``update_state``), the CLI itself,
the HTTP API and the official SDK (the operator's own token acts as the local operator), the refund
page and its sidebar forms, and LangGraph's own tooling. Nothing is paid; another person may approve.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from langgraph.types import Command
from langgraph_sdk import get_sync_client

from agents import readmodel, runs
from agents.api.app import create_app
from agents.errors import PermissionDenied
from agents.identity import LOCAL_OPERATOR, token_hash
from agents.names import same_name
from agents.refund import ledger
from agents.refund.graph import build_graph
from agents.refund.permissions import is_requester
from agents.roles_file import parse_roles
from agents.settings_values import Secret
from tests.api.conftest import start_server, stop_server
from tests.factories import button_by_key

KIM_TOKEN = "tok-kim-script-0c3f9a"
OPERATOR_TOKEN = "tok-operator-77aa01"
ROLES_TEXT = f"""
[users]
"kim@example.com" = {{ role = "approver", limit_krw = 1_000_000, name = "Kim Minji" }}
"lee@example.com" = {{ role = "approver", limit_krw = 1_000_000, name = "Lee" }}

[tokens]
"kim-script" = {{ sha256 = "{token_hash(KIM_TOKEN)}", email = "kim@example.com" }}
"""
ROLES = parse_roles(ROLES_TEXT)
#: Kim, written as a local operator might type them.
KIM_WRITTEN = [
    "Kim Minji",
    "kim minji",
    "KIM MINJI",
    "KimMinji",
    "Kim.Minji",
    "Kim\u2011Minji",  # a non-breaking hyphen
    "Kim\u00a0Minji",  # a no-break space
    "\uff2b\uff49\uff4d \uff2d\uff49\uff4e\uff4a\uff49",  # fullwidth
    "Kim M\u0456nji",  # a Cyrillic і
    "K\u0456m M\u0456nj\u0456",
    "kim-script",  # the token's label
    "Kim_Script",
    "kim@example.com",
    "KIM@EXAMPLE.COM",
]
CASE = "T1"
THREAD = f"refund-{CASE}"


def _request_with_kims_token(store, settings) -> None:
    kim = ROLES.identity_for_token(KIM_TOKEN)
    assert kim is not None
    values = {"case_id": CASE, "customer": "홍길동", "amount": 500_000, "reason": "broken"}
    assert runs.start_run(store, settings, "refund", values, actor=kim).status == "waiting"


@pytest.fixture
def kims_case(store, settings):
    _request_with_kims_token(store, settings)
    return readmodel.head_checkpoint_id(store, THREAD)


def _nothing_paid(store, head) -> None:
    assert ledger.ledger_rows(store) == []
    assert readmodel.head_checkpoint_id(store, THREAD) == head


def test_a_token_request_records_the_person_with_every_name_they_are_known_by(store, settings, kims_case):
    values = runs.current_result(store, settings, THREAD).values
    assert (values["requested_by"], values["requested_by_name"]) == ("kim@example.com", "Kim Minji")
    assert set(values["requested_by_names"]) == {"kim@example.com", "Kim Minji", "kim-script"}
    audit = {row.case_id: row for row in ledger.audit_rows(store)}
    assert audit[CASE].requested_by == "kim@example.com"


@pytest.mark.parametrize("written", KIM_WRITTEN)
def test_the_local_operator_cannot_approve_as_the_requester_written_any_way(store, settings, kims_case, written):
    fields = {"action": "approve", "approver": written}
    with pytest.raises(PermissionDenied, match="four eyes"):  # the typed form's path, and the page's
        runs.resume_from_fields(store, settings, THREAD, fields, agent="refund", actor=LOCAL_OPERATOR)
    with pytest.raises(PermissionDenied, match="four eyes"):  # the raw answer's path
        runs.resume_thread(store, settings, THREAD, {"action": "edit", "amount": 1, "approver": written})
    with pytest.raises(PermissionDenied, match="four eyes"):  # update_state
        runs.update_thread(store, settings, THREAD, {"decision": "approve", "approver": written})
    _nothing_paid(store, kims_case)


def test_another_person_may_still_approve_and_the_requester_may_reject(store, settings, kims_case):
    lee = runs.resume_thread(store, settings, THREAD, {"action": "approve", "approver": "Lee"})
    assert lee.outcome == "paid"
    assert ledger.payout_for(store, CASE)["approver"] == "Lee"


@pytest.mark.parametrize("written", ["Kim Minji", "kim-script", "K\u0456m M\u0456nj\u0456"])
def test_the_cli_refuses_the_requester_written_any_way(run_cli, store, settings, kims_case, written):
    answer = json.dumps({"action": "approve", "approver": written})
    done = run_cli("resume", THREAD, answer)
    assert done.code == 2 and "four eyes" in done.err, (done.out, done.err)
    update = run_cli("update", THREAD, "--values", json.dumps({"decision": "approve", "approver": written}))
    assert update.code == 2 and "four eyes" in update.err
    _nothing_paid(store, kims_case)


def test_the_tooling_path_refuses_the_requester_written_any_way(store, kims_case):
    graph = build_graph(store.saver, store=store)
    config = {"configurable": {"thread_id": THREAD, "checkpoint_ns": ""}, "metadata": {"agent": "refund"}}
    asked = graph.invoke(Command(resume={"action": "approve", "approver": "Kim Minji"}), config)
    assert "four eyes" in asked["__interrupt__"][0].value["error"]  # refused: the question is asked again
    graph.update_state(config, {"decision": "approve", "approver": "kim\u2011script"}, as_node="assess")
    with pytest.raises(ValueError, match="who requested the case"):
        graph.invoke(None, config)
    assert ledger.ledger_rows(store) == []


@pytest.fixture
def api(store, settings) -> Iterator[TestClient]:
    both = dataclasses.replace(settings, roles=ROLES, api_token=Secret(OPERATOR_TOKEN))
    with TestClient(create_app(store, both), raise_server_exceptions=False) as client:
        yield client


def test_over_the_api_a_token_request_cannot_be_approved_under_the_display_name(api, store):
    values = {"case_id": CASE, "customer": "홍길동", "amount": 500_000, "reason": "r"}
    requested = api.post(
        f"/threads/{THREAD}/runs/wait",
        json={"assistant_id": "refund", "input": values, "if_not_exists": "create"},
        headers={"Authorization": f"Bearer {KIM_TOKEN}"},
    )
    assert requested.status_code == 200, requested.text
    operator = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
    for written in ("Kim Minji", "kim-script", "KIM MINJI"):
        answer = {"action": "approve", "approver": written}
        refused = api.post(
            f"/threads/{THREAD}/runs/wait",
            json={"assistant_id": "refund", "command": {"resume": answer}},
            headers=operator,
        )
        assert refused.status_code == 403 and "four eyes" in refused.json()["reason"], refused.text
        update = api.post(
            f"/threads/{THREAD}/state", json={"values": {"decision": "approve", "approver": written}}, headers=operator
        )
        assert update.status_code == 403, update.text
    assert ledger.ledger_rows(store) == []


def test_the_sdk_request_by_token_cannot_be_approved_by_the_operator_as_the_requester(tmp_path: Path) -> None:
    roles_file = tmp_path / "roles.toml"
    roles_file.write_text(ROLES_TEXT, encoding="utf-8")
    server = start_server(tmp_path / "sdk", token=OPERATOR_TOKEN, HITL_ROLES_FILE=str(roles_file))
    try:
        values = {"case_id": CASE, "customer": "홍길동", "amount": 500_000, "reason": "r"}
        with get_sync_client(url=server.url, api_key=KIM_TOKEN) as kim:
            kim.threads.create(thread_id=THREAD)
            assert kim.runs.wait(THREAD, "refund", input=values)["__interrupt__"]
        with get_sync_client(url=server.url, api_key=OPERATOR_TOKEN) as operator:
            answer = {"action": "approve", "approver": "Kim Minji"}
            with pytest.raises(httpx.HTTPStatusError) as refusal:
                operator.runs.wait(THREAD, "refund", command={"resume": answer})
            assert refusal.value.response.status_code == 403
            assert operator.runs.wait(THREAD, "refund", command={"resume": {**answer, "approver": "Lee"}})
            assert operator.threads.get_state(THREAD)["values"]["approver"] == "Lee"
    finally:
        stop_server(server)


def test_the_refund_page_refuses_the_requesters_display_name(app, store, settings, kims_case):
    at = app("app_pages/refund.py")
    at.text_input(key="refund-approver").input("Kim Minji")
    button_by_key(at, "refund-approve").click().run()
    assert not at.exception, at.exception
    shown = " ".join(e.value for e in at.error)
    assert "four eyes" in shown, shown
    _nothing_paid(store, kims_case)


@pytest.mark.parametrize("raw_mode", [False, True], ids=["typed", "raw"])
def test_the_sidebar_resume_form_refuses_the_requesters_display_name(app, store, settings, kims_case, raw_mode):
    at = app("app_pages/refund.py")
    if raw_mode:
        at.sidebar.toggle(key=f"resume-raw-{THREAD}").set_value(True).run()  # raw mode redraws the form at once
        at.sidebar.text_area(key=f"resume-rawvalue-{THREAD}").input(
            '{"action": "approve", "approver": "KIM\u00a0MINJI"}'
        )
    else:
        at.sidebar.selectbox(key=f"resume-action-{THREAD}").select("approve")
        at.sidebar.text_input(key=f"resume-approver-{THREAD}").input("Kim Minji")
    next(b for b in at.sidebar.button if b.label == "Resume").click().run()
    assert not at.exception, at.exception
    assert any("four eyes" in e.value for e in at.sidebar.error), [e.value for e in at.sidebar.error]
    _nothing_paid(store, kims_case)


def test_names_are_one_name_however_they_are_written():
    assert same_name("Kim Minji", "kim\u2011minji") and same_name("update state", "update_state")
    assert same_name("AUTOMAT1C", "automatic") and same_name("\u0430utomatic", "automatic")
    assert not same_name("Kim Minji", "Kim Minjae") and not same_name("lee", "kim")
    assert not same_name("", "") and not same_name("\u200b", "\u200b") and not same_name(None, "kim")
    assert is_requester("kim-script", "kim@example.com", "Kim Minji", ["kim-script"])
    assert not is_requester("Lee", "kim@example.com", "Kim Minji", ["kim-script"])
