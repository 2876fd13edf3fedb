"""A new input on a robot thread that waits for its answer is refused through the SDK, as a waiting refund's
or lecture's is (422 naming ``thread_id``), and changes nothing: its question, its checkpoints and the
message are kept, and nothing is deleted unseen. A finished robot thread still starts over."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from tests.api.conftest import Server, refused

pytestmark = pytest.mark.slow

HELLO = {"messages": [{"type": "human", "content": "hello?"}]}


@pytest.fixture(scope="module")
def server(shared_server: Server) -> Server:
    """The worker's shared server (tests/api/conftest.py): this module's threads have ids of its own."""
    return shared_server


def _as_it_is(client: Any, thread_id: str) -> tuple[int, list[str], str]:
    """What a refused start must leave as it was: the history's length, the waiting interrupt ids, the head."""
    state = client.threads.get_state(thread_id)
    ids = [interrupt["id"] for interrupt in state["interrupts"]]
    return len(client.threads.get_history(thread_id, limit=100)), ids, state["checkpoint"]["checkpoint_id"]


STARTS: dict[str, Callable[[Any, str, str, dict[str, Any]], Any]] = {
    "wait": lambda client, thread, agent, given: client.runs.wait(thread, agent, input=given),
    "create": lambda client, thread, agent, given: client.runs.create(thread, agent, input=given),
    "stream": lambda client, thread, agent, given: list(client.runs.stream(thread, agent, input=given)),
}


@pytest.mark.parametrize("how", sorted(STARTS))
def test_a_new_input_on_a_waiting_robot_is_refused_and_keeps_its_question(client: Any, how: str) -> None:
    thread_id = f"api-robot-waits-{how}"
    client.threads.create(thread_id=thread_id)
    asked = client.runs.wait(thread_id, "robot", input={})["__interrupt__"]
    before = _as_it_is(client, thread_id)
    assert before[0] == 3 and before[1] == [asked[0]["id"]]
    for given in (HELLO, {}):
        answer = refused(STARTS[how], client, thread_id, "robot", given)
        assert answer.status_code == 422, answer.text
        said = answer.json()
        assert said["field"] == "thread_id" and "waiting for an answer" in said["detail"], said
        assert "resume" in said["detail"] and "delete" in said["detail"]
        assert _as_it_is(client, thread_id) == before
    done = client.runs.wait(thread_id, "robot", command={"resume": "yes"})  # the question is still answerable
    assert done["messages"][-1]["content"].startswith("Executed")


def test_a_lecture_thread_refuses_a_new_input_with_the_same_code(client: Any) -> None:
    thread_id = "api-robot-waits-lecture"
    client.threads.create(thread_id=thread_id)
    client.runs.wait(thread_id, "lecture", input=dict(DEFAULT_LECTURE_INPUT))
    answer = refused(client.runs.wait, thread_id, "lecture", input=dict(DEFAULT_LECTURE_INPUT))
    assert answer.status_code == 422 and answer.json()["field"] == "thread_id", answer.text


def test_a_finished_robot_thread_starts_over(client: Any) -> None:
    thread_id = "api-robot-finished"
    client.threads.create(thread_id=thread_id)
    first = client.runs.wait(thread_id, "robot", input={})["__interrupt__"][0]["id"]
    client.runs.wait(thread_id, "robot", command={"resume": "no"})
    again = client.runs.wait(thread_id, "robot", input=HELLO)["__interrupt__"]
    assert again[0]["id"] != first
    assert len(client.threads.get_history(thread_id, limit=100)) == 3  # the old run was its save file
