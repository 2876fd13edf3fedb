"""The audit of payouts whose thread is not in this database says so truthfully, and makes nothing up.

``langgraph dev`` runs the refund graph on its own checkpointer while its ledger is this database's
(``agents/langgraph_app.py``): a case paid there has ledger rows here but no thread, and no deletion was ever
recorded of it. Its audit row says its thread is not in this database (not "thread deleted"), and shows what the
ledger knows (what was paid, when, by whom): a case with items neither the request rebuilt from its paid items
nor an outcome. A finished case deleted here (its start is recorded) still reads "thread deleted". Read through
the CLI (``ledger --audit``, JSON and words, English and Korean) and the refund page (AppTest).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from agents import runs
from agents.refund import ledger
from agents.refund import strings as refund_strings
from agents.registry import get_agent
from agents.spec import validate_fields
from tests.factories import start_refund

pytestmark = pytest.mark.usefixtures("backend")

PAGE = "app_pages/refund.py"
#: 900,000 requested: A-2 (100,000, at the threshold) pays itself; A-1 is approved, A-3 rejected.
ITEMS = [{"item": "A-1", "amount": 500_000}, {"item": "A-2", "amount": 100_000}, {"item": "A-3", "amount": 300_000}]


def _run_elsewhere(store: Any) -> None:
    """Runs two cases as ``langgraph dev`` would: the refund graph on a checkpointer of its own (in memory), its
    ledger this test's database. E1 has items (one rejected); E2 one amount, paid automatically."""
    spec = get_agent("refund")
    graph = spec.run.build_graph(InMemorySaver(), store=store)
    several = {"case_id": "E1", "customer": "kim", "reason": "broken", "items": ITEMS}
    config: Any = {"configurable": {"thread_id": "server-thread-1"}}
    waiting = graph.invoke(spec.run.make_input(validate_fields(spec.run.start_fields, several)), config)
    asked = {question.value["item"]: question.id for question in waiting["__interrupt__"]}
    assert set(asked) == {"A-1", "A-3"}
    answers = {
        asked["A-1"]: {"action": "approve", "approver": "lee"},
        asked["A-3"]: {"action": "reject", "approver": "lee"},
    }
    finished = graph.invoke(Command(resume=answers), config)
    assert (finished["outcome"], finished["paid_amount"]) == ("partly paid", 600_000)  # the server knows
    one = {"case_id": "E2", "customer": "park", "reason": "late", "amount": 50_000}
    other: Any = {"configurable": {"thread_id": "server-thread-2"}}
    assert graph.invoke(spec.run.make_input(validate_fields(spec.run.start_fields, one)), other)["outcome"] == "paid"


def _audit(run_cli, *args: str) -> str:
    result = run_cli("ledger", "--audit", *args)
    assert result.code == 0, result.err
    return result.out


def test_payouts_made_elsewhere_are_not_called_deleted_and_their_unknowns_stay_empty(store, settings, run_cli):
    _run_elsewhere(store)
    start_refund(store, settings, "Z1", 5_000, customer="c")  # paid here, then its thread deleted here
    runs.delete_thread(store, "refund-Z1")
    rows = {row["case_id"]: row for row in json.loads(_audit(run_cli, "--json"))}

    several = rows["E1"]
    assert (several["status"], several["thread_id"]) == (ledger.NOT_HERE, "server-thread-1")
    assert several["executed_amount"] == 600_000 and several["approver"] == "lee"  # what was paid, by whom (a person)
    # Not 600,000 requested and "paid": the ledger holds the paid items alone (A-3's rejection left no row).
    assert (several["requested_amount"], several["amount"], several["decision"], several["outcome"]) == (
        None,
        None,
        "",
        "",
    )
    assert several["deleted_by"] == several["deleted_at"] == several["status_at_deletion"] == ""

    one = rows["E2"]
    assert (one["status"], one["requested_amount"], one["executed_amount"]) == (ledger.NOT_HERE, 50_000, 50_000)
    assert (one["decision"], one["approver"], one["outcome"]) == ("approve", "automatic", "paid")  # its own row

    assert rows["Z1"]["status"] == ledger.DELETED  # started here, deleted here

    said = _audit(run_cli)
    line = next(line for line in said.splitlines() if line.startswith("E1\t"))
    assert line.split("\t")[:3] == ["E1", "thread not in this database", "requested —"], line
    assert "thread deleted" not in line and "\tpaid" not in line
    assert next(line for line in said.splitlines() if line.startswith("Z1\t")).split("\t")[1] == "thread deleted"
    korean = _audit(run_cli, "--lang", "ko")
    line = next(line for line in korean.splitlines() if line.startswith("E1\t"))
    assert line.split("\t")[1] == "이 데이터베이스에 스레드 없음" and "삭제" not in line, line


def _word(key: str, lang: str) -> str:
    return refund_strings.STRINGS[key][lang == "ko"]


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_refund_pages_audit_says_the_same(app, store, lang):
    _run_elsewhere(store)
    at = app(PAGE)
    at.query_params["lang"] = lang
    at.session_state["refund-audit-view"] = "amounts"
    at.run()
    assert not at.exception, at.exception
    case = _word("refund.col.case", lang)
    audit = next(frame for frame in at.dataframe if "E1" in set(frame.value.get(case, ())))
    row = next(row for row in audit.value.to_dict("records") if row[case] == "E1")
    assert row[_word("refund.col.status", lang)] == _word("refund.status.not_here", lang)
    assert row[_word("refund.col.requested", lang)] == "—" and row[_word("refund.col.amount", lang)] == "—"
    assert row[_word("refund.col.executed", lang)] == ("600,000 KRW" if lang == "en" else "600,000원")
    assert row[_word("refund.col.outcome", lang)] == ""
