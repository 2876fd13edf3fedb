"""A thread other software saved under an id the dashboard does not act on is never acted on as its look-alike.

LangGraph saves a thread under any id. One in decomposed Unicode (``cafe\\u0301-1``) reads, NFC-normalised
as the dashboard normalises typed ids, as another thread's id (``café-1``); one with a space cannot be
typed at all. Such a thread is shown as needing attention (never as waiting for an answer that would
land on its look-alike); reading or deleting it by its exact id acts on it alone, and every other
change is refused on every path (runs, CLI, API), changing nothing on either thread.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from langgraph.types import Command

from agents import lifecycle, runs
from agents.api.app import create_app
from agents.db import Store
from agents.errors import InputError
from agents.robot.graph import build_graph
from agents.settings import Settings
from agents.validation import is_dashboard_thread_id, validate_thread_id
from tests.factories import inbox_ids, pause_robot, thread_counts

DECOMPOSED, COMPOSED = (unicodedata.normalize(form, "café-1") for form in ("NFD", "NFC"))
SPACED = "dev 1"


def _save_as_tooling(store: Store, thread_id: str) -> None:
    """Starts the robot on ``thread_id`` as other software would: the graph itself, no id check."""
    config = {"configurable": {"thread_id": thread_id}, "metadata": {"agent": "robot"}}
    build_graph(store.saver, store=store).invoke({"messages": [("human", "Start the task")]}, config)


@pytest.fixture
def look_alikes(store: Store, settings: Settings) -> dict[str, tuple[int, int, str | None]]:
    """The dashboard's ``café-1`` and the tooling's ``cafe\\u0301-1`` and ``dev 1``, all three paused."""
    pause_robot(store, settings, COMPOSED)
    _save_as_tooling(store, DECOMPOSED)
    _save_as_tooling(store, SPACED)
    return {thread: thread_counts(store, thread) for thread in (COMPOSED, DECOMPOSED, SPACED)}


@pytest.fixture
def api(store: Store, settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(store, settings), base_url="http://127.0.0.1", raise_server_exceptions=False) as client:
        yield client


def _unchanged(store: Store, before: dict[str, tuple[int, int, str | None]]) -> bool:
    return {thread: thread_counts(store, thread) for thread in before} == before


def test_a_thread_saved_under_such_an_id_needs_attention_and_says_why(store, look_alikes):
    statuses = {s.thread_id: s for s in lifecycle.thread_statuses(store)}
    assert statuses[COMPOSED].status == "waiting"
    for thread in (DECOMPOSED, SPACED):
        found = statuses[thread]
        assert (found.status, found.reason_code, found.action) == ("attention", "foreign_id", "delete")
        assert repr(thread) in found.reason and "python -m agents delete" in found.reason
    assert repr(COMPOSED) in statuses[DECOMPOSED].reason  # the look-alike it would be read as
    assert "' '" in statuses[SPACED].reason  # the character the dashboard refuses
    assert lifecycle.thread_status(store, DECOMPOSED).reason_code == "foreign_id"
    assert sorted(inbox_ids(store)) == sorted(look_alikes)  # nothing waits unseen


def test_one_its_own_software_finished_is_done(store):
    _save_as_tooling(store, SPACED)
    config = {"configurable": {"thread_id": SPACED}, "metadata": {"agent": "robot"}}
    build_graph(store.saver, store=store).invoke(Command(resume="yes"), config)
    found = lifecycle.thread_status(store, SPACED)
    assert (found.status, found.outcome, found.reason_code) == ("done", "executed", "")


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda store, settings, t: runs.resume_thread(store, settings, t, "yes"), id="resume"),
        pytest.param(
            lambda store, settings, t: runs.resume_from_fields(store, settings, t, {"answer": "yes"}), id="fields"
        ),
        pytest.param(
            lambda store, settings, t: runs.update_thread(store, settings, t, {"decision": "yes"}, as_node="approval"),
            id="update",
        ),
        pytest.param(lambda store, settings, t: runs.continue_thread(store, settings, t), id="continue"),
        pytest.param(lambda store, settings, t: runs.start_run(store, settings, "robot", {}, thread_id=t), id="start"),
        pytest.param(
            lambda store, settings, t: runs.restore_checkpoint(
                store, settings, t, lifecycle.thread_status(store, t).head_checkpoint_id
            ),
            id="restore",
        ),
    ],
)
@pytest.mark.parametrize("thread", [DECOMPOSED, SPACED])
def test_every_change_by_its_exact_id_is_refused_and_changes_nothing(store, settings, look_alikes, change, thread):
    with pytest.raises(InputError, match="other software") as refused:
        change(store, settings, thread)
    assert refused.value.field == "thread_id" and repr(thread) in str(refused.value)
    assert _unchanged(store, look_alikes)


def test_the_cli_refuses_its_changes_and_deletes_it_alone(store, look_alikes, run_cli):
    update = ("update", DECOMPOSED, "--values", '{"decision": "yes"}')
    for args in (("resume", DECOMPOSED, "yes"), update, ("continue", SPACED)):
        result = run_cli(*args)
        assert result.code != 0 and "other software" in result.err
    head = look_alikes[DECOMPOSED][2]
    result = run_cli("rerun", DECOMPOSED, "--checkpoint", head)
    assert result.code != 0 and "other software" in result.err
    assert _unchanged(store, look_alikes)

    inspected = run_cli("inspect", DECOMPOSED, "--json")
    assert inspected.code == 0 and json.loads(inspected.out)["checkpoints"][-1]["checkpoint_id"] == head
    assert run_cli("delete", DECOMPOSED, "--yes").code == 0
    assert run_cli("delete", SPACED, "--yes").code == 0
    assert thread_counts(store, DECOMPOSED) == thread_counts(store, SPACED) == (0, 0, None)
    assert thread_counts(store, COMPOSED) == look_alikes[COMPOSED]


def test_runs_read_and_delete_it_by_its_exact_id_alone(store, settings, look_alikes):
    _spec, snapshot = runs.thread_snapshot(store, settings, DECOMPOSED)
    assert snapshot.config["configurable"]["checkpoint_id"] == look_alikes[DECOMPOSED][2]
    assert len(runs.thread_history(store, settings, SPACED, limit=10)) == look_alikes[SPACED][0]
    runs.delete_thread(store, DECOMPOSED)
    assert thread_counts(store, DECOMPOSED) == (0, 0, None)
    assert thread_counts(store, COMPOSED) == look_alikes[COMPOSED]
    # With the tooling's thread gone, the typed decomposed id names the dashboard's thread, as before.
    assert runs.resume_thread(store, settings, DECOMPOSED, "yes").thread_id == COMPOSED
    assert lifecycle.thread_status(store, COMPOSED).outcome == "executed"


def test_the_api_refuses_its_changes_and_deletes_it_alone(store, api, look_alikes):
    run = api.post(f"/threads/{DECOMPOSED}/runs/wait", json={"assistant_id": "robot", "command": {"resume": "yes"}})
    assert run.status_code == 422 and "other software" in run.text
    update = api.post(f"/threads/{DECOMPOSED}/state", json={"values": {"decision": "yes"}, "as_node": "approval"})
    assert update.status_code == 422 and "other software" in update.text
    assert _unchanged(store, look_alikes)

    state = api.get(f"/threads/{DECOMPOSED}/state").json()
    assert state["checkpoint"]["checkpoint_id"] == look_alikes[DECOMPOSED][2]
    assert api.get(f"/threads/{SPACED}").json()["thread_id"] == SPACED
    assert api.delete(f"/threads/{DECOMPOSED}").status_code == 204
    assert api.delete(f"/threads/{SPACED}").status_code == 204
    assert thread_counts(store, DECOMPOSED) == thread_counts(store, SPACED) == (0, 0, None)
    assert thread_counts(store, COMPOSED) == look_alikes[COMPOSED]


def test_an_invalid_id_that_names_no_saved_thread_keeps_its_own_message(store, settings, look_alikes):
    with pytest.raises(InputError, match="U\\+002F") as refused:
        runs.delete_thread(store, "dev/1")
    assert "other software" not in str(refused.value)
    assert _unchanged(store, look_alikes)


@given(st.text(max_size=12) | st.sampled_from(["a" * 128, "a" * 129, "cafe\u0301", " x", "x ", "-a", "건-1042"]))
def test_the_fast_check_agrees_with_the_validator(thread_id):
    try:
        expected = validate_thread_id(thread_id) == thread_id
    except InputError:
        expected = False
    assert is_dashboard_thread_id(thread_id) is expected
