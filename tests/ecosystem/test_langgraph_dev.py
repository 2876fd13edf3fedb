"""LangGraph's own development server loads ``langgraph.json`` and runs every agent's flow.

The real ``langgraph dev`` (``tests/ecosystem/conftest.py``) with the official ``langgraph-sdk``
client: the robot pauses and executes on ``yes``, a refund pauses and is paid the edited amount, the
lecture planner stops at its gate and saves after a rework. The server keeps the checkpoints in its
own storage; the agents' node log and the refund ledger are in the configured database.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langgraph_sdk import get_sync_client

from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.nodelog import node_runs
from agents.refund.ledger import ledger_rows
from agents.runtime import load_settings, open_store
from tests.ecosystem.conftest import DevServer

pytestmark = pytest.mark.slow

LECTURE_REQUEST = dict(DEFAULT_LECTURE_INPUT)


@pytest.fixture
def client(langgraph_dev: DevServer) -> Iterator[Any]:
    """The SDK's synchronous client of the development server."""
    with get_sync_client(url=langgraph_dev.url, api_key=None) as sdk:
        yield sdk


def project_database(server: DevServer) -> Any:
    """The database the served graphs write their node log and ledger to."""
    return open_store(load_settings(db_override=str(server.db), environ={}, secrets={}).db)


def test_every_agent_is_an_assistant_of_the_server(client: Any) -> None:
    assert sorted(assistant["graph_id"] for assistant in client.assistants.search()) == ["lecture", "refund", "robot"]


def test_the_server_reads_every_graphs_input_and_output_schema(client: Any) -> None:
    """What LangGraph Studio draws its input form from (a ``typing.TypedDict`` state has none on Python 3.11)."""
    schemas = {
        assistant["graph_id"]: client.assistants.get_schemas(assistant["assistant_id"])
        for assistant in client.assistants.search()
    }
    assert {"case_id", "customer", "requested_amount", "reason"} <= set(schemas["refund"]["input_schema"]["properties"])
    assert schemas["lecture"]["input_schema"]["required"] == ["request"]
    assert "messages" in schemas["robot"]["input_schema"]["properties"]
    assert all(schema["output_schema"] for schema in schemas.values())


def test_robot_pauses_then_executes_on_yes(client: Any, langgraph_dev: DevServer) -> None:
    thread_id = client.threads.create()["thread_id"]
    start = {"messages": [{"role": "human", "content": "Start the task"}]}
    waiting = client.runs.wait(thread_id, "robot", input=start)
    (interrupt,) = waiting["__interrupt__"]
    assert interrupt["value"]["question"] == "Execute this? (yes/no)"
    state = client.threads.get_state(thread_id)
    assert state["next"] == ["approval"]
    assert state["metadata"]["agent"] == "robot"  # bound to its agent, as the dashboard's runs are
    assert client.threads.get(thread_id)["status"] == "interrupted"

    done = client.runs.wait(thread_id, "robot", command={"resume": "yes"})
    assert done["decision"] == "yes"
    assert done["messages"][-1]["content"].startswith("Executed: Business trip request")
    assert client.threads.get(thread_id)["status"] == "idle"

    store = project_database(langgraph_dev)
    try:
        # The server writes a run's node-log calls before it reports the run ended.
        nodes = [row["node"] for row in node_runs(store, thread_id=thread_id)]
        assert nodes == ["propose", "approval", "approval", "execute"]  # the pause and its re-entry
        with store.read() as cursor:  # the checkpoints are the server's, not in the project's database
            cursor.execute("SELECT COUNT(*) FROM checkpoints WHERE thread_id = ?", (thread_id,))
            assert cursor.fetchone()[0] == 0
    finally:
        store.close()


def test_refund_is_paid_the_edited_amount_once(client: Any, langgraph_dev: DevServer) -> None:
    thread_id = client.threads.create()["thread_id"]
    request = {"case_id": "DEV-1", "customer": "홍길동", "requested_amount": 500_000, "reason": "파손된 상품"}
    waiting = client.runs.wait(thread_id, "refund", input=request)
    assert waiting["__interrupt__"][0]["value"]["actions"] == ["approve", "reject", "edit"]

    answer = {"action": "edit", "amount": 300_000, "approver": "kim"}
    done = client.runs.wait(thread_id, "refund", command={"resume": answer})
    assert (done["outcome"], done["paid_amount"], done["approver"]) == ("paid", 300_000, "kim")
    assert done["requested_amount"] == 500_000
    assert any("500,000 → 300,000" in line for line in done["trace"])

    store = project_database(langgraph_dev)
    try:
        (payout,) = [row for row in ledger_rows(store) if row["case_id"] == "DEV-1"]
        assert (payout["requested_amount"], payout["paid_amount"], payout["approver"]) == (500_000, 300_000, "kim")
    finally:
        store.close()


def test_lecture_stops_at_the_gate_and_saves_after_a_rework(client: Any) -> None:
    thread_id = client.threads.create()["thread_id"]
    waiting = client.runs.wait(thread_id, "lecture", input={"request": LECTURE_REQUEST})
    (gate,) = waiting["__interrupt__"]
    assert gate["value"]["stage"] == "gate"
    assert gate["value"]["score"] < gate["value"]["threshold"] == 80
    assert "rework" in gate["value"]["options"]

    done = client.runs.wait(thread_id, "lecture", command={"resume": "rework"})
    assert (done["outcome"], done["round"]) == ("saved", 2)
    assert done["final_plan"].startswith("#")
    assert client.threads.get(thread_id)["status"] == "idle"
