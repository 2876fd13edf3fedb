"""The agent's own approver names (``automatic``, ``update_state``) cannot be typed in look-alike form.

Names are compared on their Unicode TR39 confusable skeleton with separators folded, so a
non-breaking hyphen (``update‑state``), a space (``update state``), a dash, a dot, a mathematical
letter or a digit that reads as a letter does not pass for a person. Tried on every path a decision
takes: ``runs`` (the page's and the typed form's path, the raw answer, ``update_state``), the CLI's
``resume`` and ``update``, the HTTP API (``runs/wait`` and ``update_state``), the official SDK against
the real server, the refund page and its sidebar forms typed and raw, and LangGraph's own tooling.
Each refusal names the approver field (``approver``; on a page its label, Approver) and pays nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from langgraph.types import Command
from langgraph_sdk import get_sync_client

from agents import readmodel, runs
from agents.api.app import create_app
from agents.errors import InputError
from agents.refund import ledger
from agents.refund.graph import build_graph
from agents.refund.rules import is_reserved_approver
from tests.api.conftest import start_server, stop_server
from tests.factories import button_by_key

LOOKALIKES = [
    "update\u2011state",  # a non-breaking hyphen
    "update state",
    "update-state",
    "Update State",
    "update\u2010state",  # a hyphen
    "update\u2013state",  # an en dash
    "update\u00a0state",
    "update.state",
    "updatestate",
    "update__state",
    "update_\u0455tate",  # a Cyrillic ѕ
    "\U0001d42e\U0001d429\U0001d41d\U0001d41a\U0001d42d\U0001d41e_\U0001d42c\U0001d42d\U0001d41a\U0001d42d\U0001d41e",
    "auto-matic",
    "auto matic",
    "AUTOMAT1C",
    "aut0matic",
    "\u0251utomatic",  # a Latin alpha
]
CASE = "R1"
THREAD = f"refund-{CASE}"


@pytest.fixture
def waiting_case(store, settings) -> str | None:
    values = {"case_id": CASE, "customer": "홍길동", "amount": 500_000, "reason": "broken"}
    assert runs.start_run(store, settings, "refund", values).status == "waiting"
    return readmodel.head_checkpoint_id(store, THREAD)


def _nothing_paid(store, head) -> None:
    assert ledger.ledger_rows(store) == []
    assert readmodel.head_checkpoint_id(store, THREAD) == head


@pytest.mark.parametrize("name", LOOKALIKES)
def test_a_lookalike_of_a_reserved_name_is_reserved(name):
    assert is_reserved_approver(name)


@pytest.mark.parametrize("name", ["kim", "Update Team", "state", "update", "automation", "Lee Minji", "김민지"])
def test_a_persons_name_is_not_reserved(name):
    assert not is_reserved_approver(name)


@pytest.mark.parametrize("name", LOOKALIKES)
def test_runs_refuse_a_lookalike_approver_on_every_path(store, settings, waiting_case, name):
    with pytest.raises(InputError) as typed:
        runs.resume_from_fields(store, settings, THREAD, {"action": "approve", "approver": name}, agent="refund")
    assert typed.value.field == "approver"
    with pytest.raises(InputError) as raw:
        runs.resume_thread(store, settings, THREAD, {"action": "reject", "approver": name})
    assert raw.value.field == "approver"
    with pytest.raises(InputError) as update:
        runs.update_thread(store, settings, THREAD, {"decision": "reject", "approver": name})
    assert update.value.field == "approver"
    with pytest.raises(InputError):
        runs.update_thread(store, settings, THREAD, {"amount": 300_000, "approver": name})
    _nothing_paid(store, waiting_case)


@pytest.mark.parametrize("name", ["update\u2011state", "update state", "AUTOMAT1C"])
def test_the_cli_refuses_a_lookalike_approver(run_cli, store, waiting_case, name):
    done = run_cli("resume", THREAD, json.dumps({"action": "approve", "approver": name}))
    assert done.code == 2 and "approver" in done.err, (done.out, done.err)
    update = run_cli("update", THREAD, "--values", json.dumps({"decision": "approve", "approver": name}))
    assert update.code == 2 and "approver" in update.err
    _nothing_paid(store, waiting_case)


def test_the_tooling_path_refuses_a_lookalike_approver(store, waiting_case):
    graph = build_graph(store.saver, store=store)
    config = {"configurable": {"thread_id": THREAD, "checkpoint_ns": ""}, "metadata": {"agent": "refund"}}
    asked = graph.invoke(Command(resume={"action": "approve", "approver": "update\u2011state"}), config)
    assert asked["__interrupt__"][0].value["error"].startswith("approver: "), "refused: the question is asked again"
    graph.update_state(config, {"decision": "approve", "approver": "update state"}, as_node="assess")
    with pytest.raises(ValueError, match="agent's own name"):
        graph.invoke(None, config)
    assert ledger.ledger_rows(store) == []


def test_the_api_refuses_a_lookalike_approver_naming_the_field(store, settings, waiting_case):
    with TestClient(create_app(store, settings), base_url="http://127.0.0.1") as api:
        for name in ("update\u2011state", "update state", "aut0matic"):
            answer = {"action": "approve", "approver": name}
            body = {"assistant_id": "refund", "command": {"resume": answer}}
            refused = api.post(f"/threads/{THREAD}/runs/wait", json=body)
            assert refused.status_code == 422 and refused.json()["field"] == "approver", refused.text
            update = api.post(f"/threads/{THREAD}/state", json={"values": {"decision": "reject", "approver": name}})
            assert update.status_code == 422 and update.json()["field"] == "approver", update.text
    _nothing_paid(store, waiting_case)


def test_the_sdk_is_refused_a_lookalike_approver(tmp_path: Path) -> None:
    server = start_server(tmp_path / "sdk")
    try:
        _sdk_refused(server.url)
    finally:
        stop_server(server)


def _sdk_refused(url: str) -> None:
    values = {"case_id": "SDK-R1", "customer": "홍길동", "amount": 500_000, "reason": "r"}
    with get_sync_client(url=url, api_key=None) as sdk:
        sdk.threads.create(thread_id="refund-SDK-R1")
        assert sdk.runs.wait("refund-SDK-R1", "refund", input=values)["__interrupt__"]
        with pytest.raises(httpx.HTTPStatusError) as refusal:
            sdk.runs.wait(
                "refund-SDK-R1", "refund", command={"resume": {"action": "approve", "approver": "update state"}}
            )
        assert refusal.value.response.status_code == 422 and refusal.value.response.json()["field"] == "approver"
        state: Any = sdk.threads.get_state("refund-SDK-R1")
        assert state["next"] == ["review"] and "approver" not in state["values"]


def test_the_refund_page_refuses_a_lookalike_approver(app, store, settings, waiting_case):
    at = app("app_pages/refund.py")
    at.text_input(key="refund-approver").input("update\u2011state")
    button_by_key(at, "refund-approve").click().run()
    assert not at.exception, at.exception
    assert any("Approver:" in e.value for e in at.error), [e.value for e in at.error]
    _nothing_paid(store, waiting_case)


@pytest.mark.parametrize("raw_mode", [False, True], ids=["typed", "raw"])
def test_the_sidebar_resume_form_refuses_a_lookalike_approver(app, store, settings, waiting_case, raw_mode):
    at = app("app_pages/refund.py")
    if raw_mode:
        at.sidebar.toggle(key=f"resume-raw-{THREAD}").set_value(True).run()  # raw mode redraws the form at once
        at.sidebar.text_area(key=f"resume-rawvalue-{THREAD}").input('{"action": "approve", "approver": "update state"}')
    else:
        at.sidebar.selectbox(key=f"resume-action-{THREAD}").select("approve")
        at.sidebar.text_input(key=f"resume-approver-{THREAD}").input("update\u2011state")
    next(b for b in at.sidebar.button if b.label == "Resume").click().run()
    assert not at.exception, at.exception
    assert any("Approver:" in e.value for e in at.sidebar.error), [e.value for e in at.sidebar.error]
    _nothing_paid(store, waiting_case)


@pytest.mark.parametrize("raw_mode", [False, True], ids=["typed", "raw"])
def test_the_sidebar_update_form_refuses_a_lookalike_approver(app, store, settings, waiting_case, raw_mode):
    at = app("app_pages/refund.py")
    if raw_mode:
        at.sidebar.toggle(key=f"update-raw-{THREAD}").set_value(True).run()  # raw mode redraws the form at once
        raw = '{"decision": "reject", "approver": "update\u2011state"}'
        at.sidebar.text_area(key=f"update-rawvalue-{THREAD}").input(raw)
    else:
        at.sidebar.selectbox(key=f"update-decision-{THREAD}").select("reject")
        at.sidebar.text_input(key=f"update-approver-{THREAD}").input("update state")
    next(b for b in at.sidebar.button if b.label == "Update state").click().run()
    assert not at.exception, at.exception
    assert any("Approver:" in e.value for e in at.sidebar.error), [e.value for e in at.sidebar.error]
    _nothing_paid(store, waiting_case)
