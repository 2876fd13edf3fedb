"""Agent Inbox's edits of the planner's questions through LangGraph's Python SDK against ``python -m agents serve``.

Agent Inbox sends each argument of the action request back as the text of its box: the plan review's
``subtopics`` as JSON text (read as the plan), the gate's ``round``, ``score`` and ``threshold`` as they are
shown. An edit that changed one of those is a 422 naming it (it would be dropped otherwise), and writes
nothing; the same values as text are no change.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.agents.lecture.test_lecture_agent_inbox_edits import inbox_edit
from tests.api.conftest import Server, refused, start_server, stop_server
from tests.api.test_api_lecture import ORIGINAL_BODY


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose planner asks for a plan review first (``HITL_PLAN_REVIEW=on``)."""
    running = start_server(tmp_path_factory.mktemp("api-lecture-inbox"), HITL_PLAN_REVIEW="on")
    yield running
    stop_server(running)


def waiting(client: Any, thread: str) -> tuple[str, dict[str, Any]]:
    """The thread's head checkpoint and the question it waits on."""
    state = client.threads.get_state(thread)
    (question,) = state["interrupts"]
    return state["checkpoint"]["checkpoint_id"], question["value"]


def at_plan_review(client: Any) -> tuple[str, dict[str, Any]]:
    thread = client.threads.create()["thread_id"]
    client.runs.wait(thread, "lecture", input={"request": dict(ORIGINAL_BODY)})
    return thread, waiting(client, thread)[1]


def answer(client: Any, thread: str, response: Any) -> dict[str, Any]:
    return client.runs.wait(thread, "lecture", command={"resume": response})


def test_a_plan_renamed_in_agent_inbox_s_subtopics_box_is_taken(client: Any) -> None:
    thread, question = at_plan_review(client)
    assert question["stage"] == "plan_review"
    plan = question["action_requests"][0]["arguments"]["subtopics"]
    renamed = [{**plan[0], "title": "생성형 AI 한눈에 보기"}, *plan[1:]]
    typed = json.dumps(renamed, ensure_ascii=False, separators=(",", ":"))  # as Agent Inbox's box holds it
    answer(client, thread, inbox_edit(question, subtopics=typed))
    _, again = waiting(client, thread)
    assert (again["stage"], again["plan_version"]) == ("plan_review", 2)
    assert [s["title"] for s in again["subtopics"]] == [s["title"] for s in renamed]


def test_a_subtopics_text_that_is_not_json_is_a_422_naming_subtopics_and_writes_nothing(client: Any) -> None:
    thread, question = at_plan_review(client)
    head, _ = waiting(client, thread)
    response = refused(answer, client, thread, inbox_edit(question, subtopics='[{"id":"s1","title":"A"'))
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["field"] == "subtopics", body
    assert "the Subtopics text cannot be read as JSON: it is not valid JSON" in body["detail"], body
    assert waiting(client, thread) == (head, question)


def test_a_gate_edit_of_the_score_is_a_422_and_the_same_values_as_text_rework(client: Any) -> None:
    thread, _ = at_plan_review(client)
    answer(client, thread, [{"type": "accept", "args": None}])
    head, gate = waiting(client, thread)
    assert (gate["stage"], gate["round"], gate["score"], gate["threshold"]) == ("gate", 1, 75, 80)

    response = refused(answer, client, thread, inbox_edit(gate, score="95", notes=""))
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["field"] == "score", body
    assert "(the question shows 75, the edit sent 95); edit notes only" in body["detail"], body
    assert waiting(client, thread) == (head, gate), "nothing written: no rework ran"

    done = answer(client, thread, inbox_edit(gate, notes="쉬는 시간을 명시"))  # round "1", score "75", threshold "80"
    assert (done["outcome"], done["reworks"], done["human_notes"]) == ("saved", 1, "쉬는 시간을 명시")
