"""Strings of the notification failures an admin sees on home (dashboard/notify_view.py)."""

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
    "notify.none": ("None.", "없음."),
}
