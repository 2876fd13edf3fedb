"""Strings of the checkpoint explorer's *Deleted threads* (``dashboard.deleted_view``)."""

STRINGS = {
    "deleted.title": ("Deleted threads ({count})", "삭제된 스레드 ({count})"),
    "deleted.help": (
        "Threads deleted while they waited for a person or needed attention, of every agent, and refund cases"
        " deleted after a person decided them, newest first: when, whose, the status then, who deleted them and"
        " why, and how a decided case had ended. A refund's whole case (its amounts, who decided"
        " what) stays in the refund page's audit, in its *deletions* view. The command line lists the same:"
        " `python -m agents deletions`.",
        "사람을 기다리거나 확인이 필요한 채로 삭제된 모든 에이전트의 스레드와, 사람이 결정한 뒤 삭제된 환불 건입니다."
        " 최근 것부터 삭제 시각, 에이전트, 삭제 당시 상태, 삭제한 사람과 사유, 결정된 건의 결과를 보여 줍니다."
        " 환불 건의 전체 기록(금액, 누가 무엇을 결정했는지)은"
        " 환불 페이지 감사 기록의 *삭제* 보기에 남아 있습니다. 명령줄에서도 같은 목록을 볼 수 있습니다:"
        " `python -m agents deletions`.",
    ),
    "deleted.none": ("No thread was deleted before it finished.", "끝나기 전에 삭제된 스레드가 없습니다."),
    "deleted.col.deleted_at": ("deleted at", "삭제 시각"),
    "deleted.col.status": ("status when deleted", "삭제 당시 상태"),
    "deleted.col.deleted_by": ("deleted by", "삭제한 사람"),
    "deleted.col.reason": ("why deleted", "삭제 사유"),
    "deleted.col.outcome": ("how it had ended", "삭제 전 결과"),
}
