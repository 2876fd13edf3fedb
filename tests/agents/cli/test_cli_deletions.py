"""``python -m agents deletions``: the threads deleted before they finished, of every agent, where a user finds
them (the robot's and the lecture's as the refund's), with when, the agent, the status then, who and why."""

from __future__ import annotations

import json

from tests.agents.cli.test_cli_korean import english_words


def _deleted(run_cli, *options: str) -> list[dict]:
    listed = run_cli("deletions", "--json", *options)
    assert listed.code == 0, listed.err
    return json.loads(listed.out)


def test_a_deleted_unfinished_robot_thread_is_listed(run_cli):
    assert run_cli("run", "robot", "--thread", "robo-old").code == 0
    assert run_cli("run", "robot", "--thread", "robo-done", "--answer", "yes").code == 0
    assert run_cli("deletions").out.strip() == "no deleted threads"
    assert run_cli("delete", "robo-old", "--yes").code == 0
    assert run_cli("delete", "robo-done", "--yes").code == 0  # finished: news to no one, no record
    [gone] = _deleted(run_cli)
    assert {key: gone[key] for key in ("agent", "thread_id", "status", "deleted_by", "reason")} == {
        "agent": "robot",
        "thread_id": "robo-old",
        "status": "waiting",
        "deleted_by": "local operator",
        "reason": "",
    }
    assert gone["deleted_at"].endswith("+00:00")
    [line] = run_cli("deletions").out.splitlines()
    assert line.split("\t")[1:] == ["robot", "robo-old", "was waiting", "deleted by local operator", "no reason given"]


def test_every_agents_deletions_are_listed_newest_first_and_filtered_by_agent(run_cli):
    start = ("run", "refund", "--case", "D1", "--customer", "홍길동", "--amount", "300000", "--reason", "파손")
    assert run_cli(*start).code == 0
    assert run_cli("run", "robot", "--thread", "robo-old").code == 0
    assert run_cli("delete", "robo-old", "--yes", "--reason", "a test run").code == 0
    assert run_cli("delete", "refund-D1", "--yes", "--reason", "duplicate").code == 0
    listed = _deleted(run_cli)
    assert sorted((gone["agent"], gone["thread_id"], gone["reason"]) for gone in listed) == [
        ("refund", "refund-D1", "duplicate"),
        ("robot", "robo-old", "a test run"),
    ]
    times = [gone["deleted_at"] for gone in listed]
    assert times == sorted(times, reverse=True)  # newest first, whichever agent's
    assert next(gone for gone in listed if gone["agent"] == "refund")["case_id"] == "D1"
    assert [gone["thread_id"] for gone in _deleted(run_cli, "--agent", "robot")] == ["robo-old"]
    assert _deleted(run_cli, "--agent", "lecture") == []
    unknown = run_cli("deletions", "--agent", "nope")
    assert unknown.code == 2 and "nope" in unknown.err


def test_the_korean_list_has_no_english_words(run_cli):
    assert run_cli("run", "robot", "--thread", "robo-old").code == 0
    assert run_cli("delete", "robo-old", "--yes").code == 0
    shown = run_cli("--lang", "ko", "deletions")
    assert shown.code == 0
    assert "삭제 당시 대기 중\t삭제한 사람 로컬 운영자\t사유 없음" in shown.out
    assert not english_words(shown.out.replace("robo-old", ""))
    none = run_cli("--lang", "ko", "deletions", "--agent", "lecture")
    assert none.out.strip() == "삭제된 스레드가 없습니다"
