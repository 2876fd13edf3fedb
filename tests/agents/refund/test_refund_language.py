"""The refund agent writes its trace and its question in the run's language; its codes stay English."""

from __future__ import annotations

import json

from agents import lifecycle, runs

REQUEST = {"case_id": "B8", "customer": "김민수", "amount": 500_000, "reason": "파손"}


def test_a_korean_case_is_traced_in_korean_with_english_codes(store, settings):
    waiting = runs.start_run(store, settings, "refund", REQUEST, lang="ko")
    question = "환불 B8 (김민수): 500,000원을 지급할까요? (요청 500,000원) 승인 / 거절 / 금액 수정"
    assert waiting.interrupts[0]["question"] == question
    assert waiting.interrupts[0]["actions"] == ["approve", "reject", "edit"]
    answer = {"action": "edit", "amount": 300_000, "approver": "kim", "note": "부분 환불"}
    done = runs.resume_thread(store, settings, "refund-B8", answer)  # the caller names no language
    assert done.values["trace"] == [
        "assess: 요청 500,000원, 기준 100,000원 → 사람의 승인 필요 (정책 strict)",
        "금액 500,000원 → 300,000원, 변경: kim",
        "review: 승인, 결정: kim (메모: 부분 환불)",
        "settle: 300,000원 지급 (요청 500,000원), 승인: kim",
    ]
    assert (done.values["decision"], done.values["outcome"], done.outcome) == ("approve", "paid", "paid")


def test_an_english_case_reads_as_before(store, settings):
    runs.start_run(store, settings, "refund", REQUEST)
    answer = {"action": "edit", "amount": 300_000, "approver": "kim"}
    done = runs.resume_thread(store, settings, "refund-B8", answer)
    assert done.values["trace"] == [
        "assess: requested 500,000 KRW, threshold 100,000 → needs a human (policy strict)",
        "amount 500,000 → 300,000 by kim",
        "review: approve by kim",
        "settle: paid 300,000 KRW (requested 500,000), approved by kim",
    ]


def test_a_korean_rejection_and_an_edit_by_update_state_stay_korean(store, settings):
    runs.start_run(store, settings, "refund", REQUEST, lang="ko")
    edited = runs.update_thread(store, settings, "refund-B8", {"amount": 50_000, "approver": "lee"}, as_node="assess")
    assert edited.values["trace"][-1] == "금액 500,000원 → 50,000원, 변경: lee (update_state)"
    done = runs.resume_thread(store, settings, "refund-B8", {"action": "reject", "approver": "lee"})
    assert done.values["trace"][-2:] == ["review: 거절, 결정: lee", "reject: lee가 거절, 지급 없음"]
    assert (done.values["decision"], done.values["outcome"], done.outcome) == ("reject", "rejected", "rejected")


def test_the_inbox_shows_the_question_in_the_readers_language(store, settings, run_cli):
    runs.start_run(store, settings, "refund", REQUEST, lang="ko")
    (item,) = lifecycle.inbox(store)
    assert item.reason == "환불 B8 (김민수): 500,000원을 지급할까요? (요청 500,000원) 승인 / 거절 / 금액 수정"
    assert item.reason_in("en") == "Refund B8 for 김민수: pay 500,000 KRW (requested 500,000)? approve / reject / edit"
    assert item.reason_in("ko") == item.reason
    assert "reason_text" not in item.to_json()
    english = run_cli("inbox").out
    assert english.rstrip("\n").endswith(
        "Refund B8 for 김민수: pay 500,000 KRW (requested 500,000)? approve / reject / edit"
    )
    korean = run_cli("inbox", "--lang", "ko").out
    assert korean.rstrip("\n").endswith(item.reason)
    # The JSON gives the words the text gives, in the reader's language.
    assert json.loads(run_cli("inbox", "--json").out)[0]["reason"] == item.reason_in("en")
    assert json.loads(run_cli("inbox", "--lang", "ko", "--json").out)[0]["reason"] == item.reason
