"""Strings of presenter mode (:mod:`dashboard.presenter`)."""

STRINGS: dict[str, tuple[str, str]] = {
    "presenter.toggle": ("Presenter mode", "발표자 모드"),
    "presenter.toggle.help": (
        "For live demos: larger type, explanations folded until opened, quiz answers hidden until clicked, "
        "the graph's current step highlighted, the save file's new rows marked. Kept in the URL (?present=1).",
        "시연용: 글자를 키우고, 설명은 펼칠 때까지 접어 두고, 퀴즈 답은 누를 때까지 숨기고, 그래프의 현재 단계와 "
        "저장 파일의 새 행을 표시합니다. 주소에 남습니다(?present=1).",
    ),
    "presenter.steps": ("Graph", "그래프"),
    "presenter.step.done": ("✓ {node}", "✓ {node}"),
    "presenter.step.current": ("▶ {node}", "▶ {node}"),
    "presenter.step.later": ("{node}", "{node}"),
    "presenter.step.finished": ("■ end", "■ 끝"),
    "presenter.new": ("● new", "● 새 행"),
    "presenter.rows.new": ("New in the save file", "저장 파일에 새로 생긴\u00a0행"),
    "presenter.rows.latest": ("Last rows of the save file", "저장 파일의 마지막\u00a0행"),
    "presenter.rows.line": ("{node} · {channel} = {value}", "{node} · {channel} = {value}"),
    "presenter.new_rows": (
        "{count} new rows since the last action are marked “● new”.",
        "마지막 동작 뒤에 새로 생긴 {count}개 행에 “● 새 행” 표시가 있습니다.",
    ),
}
