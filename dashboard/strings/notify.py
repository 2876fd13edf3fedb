"""Strings of the notification failures an admin sees on home (dashboard/notify_view.py): the notifications not
delivered, and the mails some recipients refused."""

STRINGS: dict[str, tuple[str, str]] = {
    "notify.failing": (
        "{count} notification(s) could not be delivered yet; they are tried again until delivered or dismissed"
        " (python -m agents notify --status; notify --dismiss EVENT_ID).",
        "알림 {count}건을 아직 보내지 못했습니다. 보내지거나 그만둘 때까지 다시 시도합니다"
        " (python -m agents notify --status; notify --dismiss 이벤트_ID).",
    ),
    "notify.failing.details": ("Undelivered notifications", "보내지 못한 알림"),
    "notify.col.event": ("event", "이벤트"),
    "notify.col.channel": ("channel", "채널"),
    "notify.col.attempts": ("attempts", "시도 횟수"),
    "notify.col.error": ("last error", "마지막 오류"),
    "notify.col.next": ("next attempt (UTC)", "다음 시도 (UTC)"),
    "notify.refused": (
        "{count} mail(s) reached only some of their recipients: the mail server refused the others, who were not"
        " told. Put their addresses right, then dismiss (python -m agents notify --status; notify --dismiss"
        " EVENT_ID).",
        "메일 {count}건이 받는 사람 일부에게만 갔습니다. 메일 서버가 나머지를 거부해 그들은 알림을 받지 못했습니다."
        " 주소를 고친 뒤 목록에서 지우세요 (python -m agents notify --status; notify --dismiss 이벤트_ID).",
    ),
    "notify.refused.details": ("Mails some recipients did not get", "받는 사람 일부가 받지 못한 메일"),
    "notify.col.sent": ("sent at (UTC)", "보낸 시각 (UTC)"),
    "notify.col.answer": ("mail server's answer", "메일 서버의 답"),
    "notify.none": ("None.", "없음."),
}
