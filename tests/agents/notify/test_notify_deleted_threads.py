"""An unfinished robot or lecture thread deleted is announced like a refund case: through the outbox and the
deliverer, to a real webhook receiver; a finished one is news to no one."""

from __future__ import annotations

from agents import runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.notify.deliverer import Deliverer
from tests.agents.notify.conftest import PUBLIC_URL, notifying
from tests.factories import answer_robot, pause_robot


def test_unfinished_robot_and_lecture_threads_deleted_are_announced(store, settings, receiver):
    settings = notifying(settings, HITL_NOTIFY_WEBHOOK=receiver.url)
    pause_robot(store, settings, "robot-open")
    answer_robot(store, settings, "robot-done")
    runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lecture-open")
    Deliverer(store, settings).run_once()
    assert len(receiver.wait_for(2)) == 2  # both wait
    for thread_id in ("robot-open", "robot-done", "lecture-open"):
        runs.delete_thread(store, thread_id, reason="entered twice")
    Deliverer(store, settings).run_once()
    received = receiver.wait_for(4)
    deleted = {item.body["thread_id"]: item.body for item in received if item.body["event"] == "deleted"}
    assert sorted(deleted) == ["lecture-open", "robot-open"]
    assert deleted["robot-open"]["agent"] == "robot" and deleted["lecture-open"]["agent"] == "lecture"
    assert deleted["robot-open"]["status"] == "waiting" and deleted["robot-open"]["reason"] == "entered twice"
    assert "Deleted while waiting: Approval robot thread robot-open" in deleted["robot-open"]["text"]
    # Its link is where the deleted threads are listed, that thread first: the robot's page has no audit.
    assert deleted["robot-open"]["link"] == f"{PUBLIC_URL}/explorer?deleted=robot-open"
    assert deleted["robot-open"]["text"].endswith(f"Deleted threads: {PUBLIC_URL}/explorer?deleted=robot-open")
    Deliverer(store, settings).run_once()  # announced once
    assert len(receiver.keys()) == 4
