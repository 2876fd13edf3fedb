"""The approval robot: it pauses, and only an exact ``yes`` executes."""

from __future__ import annotations

import pytest

from agents import readmodel, runs
from agents.common import MissingCheckpointerError
from agents.errors import NotWaitingError, StaleFormError, ThreadNotFoundError
from agents.robot.graph import build_graph

pytestmark = pytest.mark.usefixtures("backend")


def test_run_pauses_at_approval_with_the_question(store, settings):
    result = runs.start_run(store, settings, "robot", {})
    assert result.status == "waiting"
    assert result.next == ("approval",)
    assert result.interrupts[0] == {
        "question": "Execute this? (yes/no)",
        "action": "Business trip request: Busan, 2 days, budget 800,000 KRW",
    }


def test_exact_yes_executes(store, settings):
    runs.start_run(store, settings, "robot", {})
    result = runs.resume_thread(store, settings, "hitl_demo", "yes")
    assert result.status == "done"
    assert result.values["decision"] == "yes"
    assert result.values["messages"][-1].content == "Executed: Business trip request: Busan, 2 days, budget 800,000 KRW"


@pytest.mark.parametrize("answer", ["Yes", "y", "네", "no", "YES", "yes please"])
def test_anything_but_exact_yes_refuses(store, settings, answer):
    runs.start_run(store, settings, "robot", {})
    result = runs.resume_thread(store, settings, "hitl_demo", answer)
    assert result.status == "done"
    assert result.values["messages"][-1].content.startswith("Refused")


def test_start_over_deletes_only_its_own_thread(store, settings):
    runs.start_run(store, settings, "robot", {}, thread_id="other")
    runs.start_run(store, settings, "robot", {})
    runs.resume_thread(store, settings, "hitl_demo", "yes")
    again = runs.start_run(store, settings, "robot", {})
    assert again.status == "waiting"
    assert readmodel.table_counts(store, "hitl_demo") == {"checkpoints": 3, "writes": 5}
    assert readmodel.table_counts(store, "other") == {"checkpoints": 3, "writes": 5}


def test_delete_thread_leaves_other_threads(store, settings):
    runs.start_run(store, settings, "robot", {}, thread_id="keep")
    runs.start_run(store, settings, "robot", {})
    runs.delete_thread(store, "hitl_demo")
    assert readmodel.head_checkpoint_id(store, "hitl_demo") is None
    assert readmodel.head_checkpoint_id(store, "keep") is not None


def test_factory_refuses_to_build_without_a_checkpointer():
    with pytest.raises(MissingCheckpointerError, match="needs a checkpointer"):
        build_graph(None)


def test_resume_of_a_finished_thread_is_refused(store, settings):
    runs.start_run(store, settings, "robot", {})
    runs.resume_thread(store, settings, "hitl_demo", "no")
    with pytest.raises(NotWaitingError):
        runs.resume_thread(store, settings, "hitl_demo", "yes")


def test_resume_of_an_unknown_thread_is_refused(store, settings):
    with pytest.raises(ThreadNotFoundError):
        runs.resume_thread(store, settings, "nope", "yes")


def test_stale_resume_is_refused_and_changes_nothing(store, settings):
    first = runs.start_run(store, settings, "robot", {})
    runs.update_thread(store, settings, "hitl_demo", {"decision": "maybe"}, as_node="propose")
    counts = readmodel.table_counts(store, "hitl_demo")
    with pytest.raises(StaleFormError):
        runs.resume_thread(store, settings, "hitl_demo", "yes", expected_head=first.head_checkpoint_id)
    assert readmodel.table_counts(store, "hitl_demo") == counts


def test_every_checkpoint_is_tagged_with_the_agent(store, settings):
    runs.start_run(store, settings, "robot", {})
    runs.resume_thread(store, settings, "hitl_demo", "yes")
    saved = list(store.saver.list({"configurable": {"thread_id": "hitl_demo"}}))
    assert len(saved) == 5
    assert {entry.metadata.get("agent") for entry in saved} == {"robot"}
