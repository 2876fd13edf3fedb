"""A new start of a robot thread that has not finished (its question waiting, or stopped) is refused by
``runs.start_run``, the one start path, and changes nothing: its checkpoints, its question and its id stay,
and nothing is deleted unseen. ``python -m agents run robot`` (with or without ``--answer``) goes through
it. A finished thread still starts over, as README's *Command line* says; the robot page's confirmed
*Delete and start over* deletes an unfinished one as a recorded deletion (``deletions`` lists it).
"""

from __future__ import annotations

import json

import pytest

from agents import deletion_record, lifecycle, readmodel, runs
from agents.errors import InputError
from tests.factories import answer_robot, pause_robot, thread_counts


def _interrupt_ids(store, settings, thread_id: str) -> list[str]:
    return [str(asked.id) for asked in runs.thread_snapshot(store, settings, thread_id)[1].interrupts]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ((), ("is waiting for an answer", "python -m agents resume 'robo-1'", "python -m agents delete 'robo-1'")),
        (("--answer", "yes"), ("is waiting for an answer",)),
        (("--lang", "ko"), ("답을 기다리고", "python -m agents resume 'robo-1'", "삭제한 뒤")),
    ],
)
def test_cli_run_on_a_waiting_robot_is_refused_and_keeps_its_question(run_cli, store, settings, options, words):
    assert run_cli("run", "robot", "--thread", "robo-1").code == 0
    before, asked = thread_counts(store, "robo-1"), _interrupt_ids(store, settings, "robo-1")
    assert before[:2] == (3, 5) and len(asked) == 1
    refused = run_cli("run", "robot", "--thread", "robo-1", *options)
    assert refused.code == 2, refused
    assert "thread_id" in refused.err and all(word in refused.err for word in words), refused.err
    assert thread_counts(store, "robo-1") == before
    assert _interrupt_ids(store, settings, "robo-1") == asked
    assert run_cli("deletions").out.strip() == "no deleted threads"
    assert json.loads(run_cli("resume", "robo-1", "yes", "--json").out)["outcome"] == "executed"


def test_cli_run_on_a_stopped_robot_is_refused_and_says_how_to_run_it_on(run_cli, store, settings):
    pause_robot(store, settings, "robo-2")
    runs.update_thread(store, settings, "robo-2", {"decision": "yes"}, as_node="approval")  # not continued
    assert lifecycle.thread_status(store, "robo-2").status == "attention"
    before = thread_counts(store, "robo-2")
    refused = run_cli("run", "robot", "--thread", "robo-2")
    assert refused.code == 2 and "needs attention" in refused.err and "continue 'robo-2'" in refused.err
    assert thread_counts(store, "robo-2") == before
    assert deletion_record.deleted_unfinished(store, "robot") == []


def test_cli_run_on_a_finished_robot_starts_over_without_a_record(run_cli, store, settings):
    answer_robot(store, settings, "robo-3", "no")
    old = _interrupt_ids(store, settings, "robo-3")
    assert run_cli("run", "robot", "--thread", "robo-3").code == 0
    assert thread_counts(store, "robo-3")[:2] == (3, 5)  # a new run: the old one is gone
    assert _interrupt_ids(store, settings, "robo-3") != old
    assert deletion_record.deleted_unfinished(store, "robot") == []


def test_a_confirmed_start_over_of_a_waiting_robot_is_a_recorded_deletion(store, settings):
    head = pause_robot(store, settings, "robo-4", lang="ko").head_checkpoint_id
    with pytest.raises(InputError, match="is waiting for an answer"):
        runs.start_run(store, settings, "robot", {}, thread_id="robo-4", lang="ko")
    assert readmodel.head_checkpoint_id(store, "robo-4") == head
    again = runs.start_run(store, settings, "robot", {}, thread_id="robo-4", lang="ko", delete_unfinished=True)
    assert again.status == "waiting" and again.head_checkpoint_id != head
    [record] = deletion_record.deleted_unfinished(store, "robot")
    assert (record["thread_id"], record["head_checkpoint_id"], record["status"]) == ("robo-4", head, "waiting")
    assert record["reason"] == "처음부터 다시 시작함"  # in the run's language
