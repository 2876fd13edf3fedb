"""``inbox`` and ``threads`` give a thread's reason in the reader's language (``--lang``), in their text and in
their ``--json`` alike, whatever language the run asked in."""

from __future__ import annotations

import json

from agents import runs
from tests.factories import pause_robot, start_refund

KOREAN_QUESTION = "환불 C3 (이영희): 2,000,000원을 지급할까요? (요청 2,000,000원) 승인 / 거절 / 금액 수정"
ENGLISH_QUESTION = "Refund C3 for 이영희: pay 2,000,000 KRW (requested 2,000,000)? approve / reject / edit"


def _reasons(run_cli, *argv: str) -> dict[str, str]:
    return {item["thread_id"]: item["reason"] for item in json.loads(run_cli(*argv, "--json").out)}


def test_the_inbox_json_gives_the_reason_the_inbox_text_gives(store, settings, run_cli):
    start_refund(store, settings, "C3", 2_000_000, customer="이영희", lang="ko")
    pause_robot(store, settings, "hitl_demo")  # asked in English
    english, korean = _reasons(run_cli, "inbox"), _reasons(run_cli, "--lang", "ko", "inbox")
    assert english == {"refund-C3": ENGLISH_QUESTION, "hitl_demo": "Execute this? (yes/no)"}
    assert korean == {"refund-C3": KOREAN_QUESTION, "hitl_demo": "이 작업을 실행할까요? (yes/no)"}
    for lang, reasons in (("en", english), ("ko", korean)):
        lines = run_cli("--lang", lang, "inbox").out.splitlines()
        assert sorted(line.split("\t")[-1] for line in lines) == sorted(reasons.values())


def test_the_threads_json_gives_reasons_in_the_readers_language(store, settings, run_cli):
    start_refund(store, settings, "C3", 2_000_000, customer="이영희", lang="ko")
    pause_robot(store, settings, "r-edited")
    runs.update_thread(store, settings, "r-edited", {"decision": "yes"}, as_node="approval")  # needs attention
    english, korean = _reasons(run_cli, "threads"), _reasons(run_cli, "--lang", "ko", "threads")
    assert english["refund-C3"] == ENGLISH_QUESTION and korean["refund-C3"] == KOREAN_QUESTION
    assert english["r-edited"].startswith("its state was edited (update_state) and the run was not continued")
    assert korean["r-edited"].startswith("상태가 편집되었지만(update_state) 실행이 이어지지 않았습니다")


def test_a_commands_json_gives_its_reason_in_the_readers_language(store, settings, run_cli):
    pause_robot(store, settings, "r-edited")
    update = ("update", "r-edited", "--values", '{"decision": "yes"}', "--as-node", "approval")
    korean = json.loads(run_cli("--lang", "ko", *update, "--json").out)
    assert korean["status"] == "attention"
    assert korean["reason"].startswith("상태가 편집되었지만(update_state) 실행이 이어지지 않았습니다")
    start_refund(store, settings, "C3", 2_000_000, customer="이영희", lang="ko")
    shown = json.loads(run_cli("resume", "refund-C3", "--json", '{"action": "approve", "approver": "lee"}').out)
    assert shown["status"] == "done" and shown["reason"] == ""
