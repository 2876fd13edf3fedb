"""Strings of :mod:`dashboard.formats`: the words of stored codes (the amount's unit, ``format.krw``, is in
:mod:`agents.strings`, which notifications share)."""

STRINGS: dict[str, tuple[str, str]] = {
    # decisions, stored as English codes (refund: approve / reject / edit; lecture: rework / save / ...)
    "decision.approve": ("approve", "승인"),
    "decision.reject": ("reject", "거절"),
    "decision.mixed": ("mixed", "승인·거절"),  # a case with items: some approved, some rejected
    "decision.edit": ("edit", "금액 수정"),
    "decision.rework": ("rework", "재작업"),
    "decision.save": ("save", "그대로 저장"),
    "decision.edit_plan": ("edit_plan", "계획 수정"),
    # the node log's statuses
    "nodelog.running": ("running", "실행 중"),
    "nodelog.ok": ("ok", "정상 종료"),
    "nodelog.error": ("error", "오류"),
    "nodelog.interrupted": ("interrupted", "인터럽트"),
}
