"""Double submits: two sessions act on the same drawn head at the same moment; exactly one takes effect."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from agents import readmodel, runs
from agents.errors import NotWaitingError, StaleFormError, ThreadNotFoundError
from agents.leases import ThreadBusyError
from agents.nodelog import node_runs
from agents.refund import ledger

pytestmark = pytest.mark.usefixtures("backend")

REPEATS = 20


def _race(action: Callable[[int], Any]) -> list[str]:
    """Runs ``action(0)`` and ``action(1)`` in two threads released together; returns each outcome's name."""
    barrier = threading.Barrier(2)
    outcomes: list[str] = ["", ""]

    def go(index: int) -> None:
        barrier.wait()
        try:
            action(index)
            outcomes[index] = "ok"
        except (StaleFormError, NotWaitingError, ThreadNotFoundError, ThreadBusyError) as error:
            outcomes[index] = type(error).__name__
        except BaseException as error:  # noqa: BLE001 - an unexpected error is an outcome the test refuses
            outcomes[index] = f"unexpected {type(error).__name__}: {error}"

    workers = [threading.Thread(target=go, args=(i,)) for i in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=60)
    return outcomes


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_two_resumes_of_the_same_head(store, settings, repeat):
    thread = f"double-{repeat}"
    head = runs.start_run(store, settings, "robot", {}, thread_id=thread).head_checkpoint_id
    answers = ("yes", "no")
    outcomes = _race(lambda i: runs.resume_thread(store, settings, thread, answers[i], expected_head=head))
    assert sorted(outcomes) in (["StaleFormError", "ok"], ["NotWaitingError", "ok"]), outcomes
    winner = answers[outcomes.index("ok")]
    result = runs.current_result(store, settings, thread)
    assert result.status == "done" and result.values["decision"] == winner
    assert len(readmodel.checkpoint_chain(store, thread)) == 5
    assert Counter(r["node"] for r in node_runs(store, thread_id=thread) if r["status"] == "ok")["execute"] == 1


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_two_refund_approvals_pay_once(store, settings, repeat):
    case = f"dbl{repeat}"
    result = runs.start_run(
        store, settings, "refund", {"case_id": case, "customer": "lee", "amount": 500_000, "reason": "late"}
    )
    head, thread = result.head_checkpoint_id, result.thread_id
    answers = ({"action": "approve", "approver": "kim"}, {"action": "edit", "amount": 1_000, "approver": "park"})
    outcomes = _race(lambda i: runs.resume_thread(store, settings, thread, answers[i], expected_head=head))
    assert sorted(outcomes) in (["StaleFormError", "ok"], ["NotWaitingError", "ok"]), outcomes
    rows = [r for r in ledger.ledger_rows(store) if r["case_id"] == case]
    assert len(rows) == 1 and rows[0]["repeat_attempts"] == 0
    assert rows[0]["approver"] == answers[outcomes.index("ok")]["approver"]


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_two_updates_of_the_same_head(store, settings, repeat):
    thread = f"upd-{repeat}"
    head = runs.start_run(store, settings, "robot", {}, thread_id=thread).head_checkpoint_id
    before = len(readmodel.checkpoint_chain(store, thread))
    values = ("yes", "no")
    outcomes = _race(
        lambda i: runs.update_thread(
            store, settings, thread, {"decision": values[i]}, as_node="approval", expected_head=head
        )
    )
    assert sorted(outcomes) == ["StaleFormError", "ok"], outcomes
    result = runs.current_result(store, settings, thread)
    assert result.values["decision"] == values[outcomes.index("ok")]
    assert len(readmodel.checkpoint_chain(store, thread)) == before + 1  # one update, not two


@pytest.mark.parametrize("repeat", range(REPEATS))
def test_two_deletes_of_the_same_head(store, settings, repeat):
    thread = f"del-{repeat}"
    other = f"keep-{repeat}"
    head = runs.start_run(store, settings, "robot", {}, thread_id=thread).head_checkpoint_id
    runs.start_run(store, settings, "robot", {}, thread_id=other)
    outcomes = _race(lambda i: runs.delete_thread(store, thread, expected_head=head))
    # The loser is refused while the winner holds the thread, or finds it gone afterwards.
    assert outcomes.count("ok") == 1, outcomes
    assert set(outcomes) - {"ok"} <= {"ThreadBusyError", "ThreadNotFoundError"}, outcomes
    assert readmodel.checkpoint_chain(store, thread) == []
    assert len(readmodel.checkpoint_chain(store, other)) == 3  # the other thread is untouched
