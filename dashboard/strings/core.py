"""Strings of the frame, the home page and the sidebar forms."""

STRINGS: dict[str, tuple[str, str]] = {
    "app.title": ("HITL Dashboard", "HITL 대시보드"),
    "app.language": ("Language", "언어"),
    "app.db_error": ("The database cannot be used: {error}", "데이터베이스를 사용할 수 없습니다: {error}"),
    "app.settings_error": ("A setting cannot be used: {error}", "설정값을 사용할 수 없습니다: {error}"),
    "app.read_only": (
        "The database is read-only: you can look, but not act.",
        "데이터베이스가 읽기 전용입니다. 볼 수는 있지만 실행할 수는 없습니다.",
    ),
    "nav.home": ("Home", "홈"),
    "status.waiting": ("waiting", "대기 중"),
    "status.done": ("done", "완료"),
    "home.intro": (
        "Three LangGraph agents that ask a human before they act, all saved in one SQLite file.",
        "사람에게 묻고 나서 행동하는 LangGraph 에이전트 세 개. 모두 하나의 SQLite 파일에 저장됩니다.",
    ),
    "home.inbox": ("Inbox: everything that needs a human", "대기 목록: 사람이 처리할 모든 항목"),
    "home.inbox_empty": (
        "Nothing is waiting for a human and nothing needs attention.",
        "사람을 기다리거나 확인이 필요한 항목이 없습니다.",
    ),
    "home.inbox_waiting": ("{count} waiting", "{count}건 대기 중"),
    "home.inbox_overdue": ("{count} overdue", "{count}건 기한 지남"),
    "home.inbox_page": (
        "The oldest {shown} of {total} are shown.",
        "전체 {total}건 중 오래된 {shown}건을 보여 줍니다.",
    ),
    "home.inbox_page_mine": (
        "{shown} of {total} are shown: the ones you may decide first, then the oldest.",
        "전체 {total}건 중 {shown}건을 보여 줍니다. 내가 결정할 수 있는 건이 먼저, 그다음은 오래된 순입니다.",
    ),
    "home.show_all": ("Show all {total}", "{total}건 모두 보기"),
    "home.threads_page": ("The newest {shown} threads are shown.", "최근 스레드 {shown}개를 보여 줍니다."),
    "home.show_all_threads": ("Show every thread", "스레드 모두 보기"),
    "col.waiting": ("waiting for", "대기 시간"),
    "col.deciders": ("who may decide", "결정권자"),
    "queue.order": ("Order", "정렬"),
    "queue.order.oldest": ("oldest first", "오래된 순"),
    "queue.order.newest": ("newest first", "최근 순"),
    "queue.order.amount": ("largest amount first", "금액 큰 순"),
    "queue.mine": (
        "My queue: {count} you may decide, shown first",
        "내 대기열: 내가 결정할 수 있는 {count}건을 먼저 보여 줍니다",
    ),
    "queue.flagged": ("{thread}: no one may decide it: {reason}", "{thread}: 결정할 사람 없음: {reason}"),
    "queue.flagged_more": ("and {count} more no one may decide", "결정할 사람이 없는 항목 {count}건 더"),
    "home.open": ("Open", "열기"),
    "home.agents": ("Agents", "에이전트"),
    "home.no_threads": ("No threads yet.", "아직 스레드가 없습니다."),
    # An agent whose every thread was deleted has had threads: "yet" would be untrue (dashboard.home_view).
    "home.no_threads_deleted": (
        "No threads now. Deleted threads on record: {count}.",
        "지금은 스레드가 없습니다. 기록된 삭제 스레드: {count}개.",
    ),
    "home.deleted_link": (
        "Deleted threads ({count}) in the checkpoint explorer",
        "체크포인트 탐색기의 삭제된 스레드 ({count})",
    ),
    "col.thread": ("thread", "스레드"),
    "col.agent": ("agent", "에이전트"),
    "col.status": ("status", "상태"),
    "col.updated": ("last update", "마지막 갱신"),
    "col.checkpoints": ("checkpoints", "체크포인트"),
    "col.node": ("node", "노드"),
    "col.step": ("step", "스텝"),
    "col.source": ("source", "출처"),
    "col.next": ("next", "다음"),
    "col.task_id": ("task id", "태스크 ID"),
    "col.channel": ("channel", "채널"),
    "col.value": ("value", "값"),
    "col.state": ("state", "상태 값"),
    "forms.refused": ("Nothing was done:", "아무것도 실행하지 않았습니다:"),
    # How a refusal of the agents layer ends when it says so itself (``error.not_waiting``): cut after
    # ``forms.refused``, which says it first.
    "forms.refused.tail": ("; nothing was changed", ". 아무것도 바뀌지 않았습니다"),
    # A stale form's or control's refusal on a page (``dashboard.forms.refused_text``): the page drawn with it shows
    # the thread as it is. The CLI and the API keep ``error.stale`` (agents/strings.py), which says to reload.
    "forms.stale": (
        "thread {thread} changed since this form was drawn (checkpoint {seen} → {head}). The page now shows the "
        "thread as it is: check it, and send again if you still want to.",
        "이 양식을 그린 뒤 스레드 {thread:이/가} 바뀌었습니다(체크포인트 {seen} → {head}). 페이지가 지금은 스레드를 "
        "현재 상태로 보여 줍니다. 확인한 뒤 그래도 원하면 다시 보내세요.",
    ),
    "forms.header": ("Act on this thread", "이 스레드에 대한 작업"),
    "forms.no_thread": ("No thread selected.", "선택된 스레드가 없습니다."),
    "forms.thread_missing": ("Thread {thread} does not exist (yet).", "스레드 {thread:이/가} 없습니다."),
    "forms.acting_on": ("Thread {thread} · checkpoint {checkpoint}", "스레드 {thread} · 체크포인트 {checkpoint}"),
    # The thread and the checkpoint named in a message, as the line above names them ("Thread: …").
    "forms.thread": ("Thread", "스레드"),
    "forms.checkpoint": ("Checkpoint", "체크포인트"),
    "forms.drawn_before": (
        "Drawn at checkpoint {drawn}, before the thread moved on to {head}: sending this form is refused, so that "
        "what was typed for the earlier state is not applied to the new one. After that it acts on {head}.",
        "이 양식은 체크포인트 {drawn}에서 그렸고, 그 뒤 스레드가 {head:으로/로} 바뀌었습니다. 이전 상태를 보고 입력한 "
        "내용이 새 상태에 적용되지 않도록 지금 보내면 거부되며, 그 뒤에는 {head}에 적용됩니다.",
    ),
    "forms.raw_mode": ("Raw mode", "원시 입력 모드"),
    "forms.raw_mode.help": (
        "Off: typed fields, checked one by one. On: one raw value instead of the fields. A submit that "
        "works turns it off again.",
        "끔: 항목별로 확인하는 입력 칸. 켬: 입력 칸 대신 원시 값 하나. 제출이 성공하면 다시 꺼집니다.",
    ),
    "forms.mode.typed": ("Sends the fields below.", "아래 입력 칸의 값을 보냅니다."),
    "forms.mode.raw": (
        "Raw mode: sends the text below as it is; the typed fields are not used.",
        "원시 입력 모드: 아래 텍스트를 그대로 보내며, 입력 칸은 쓰지 않습니다.",
    ),
    "forms.raw_value": ("Raw value (JSON object or text)", "원시 값 (JSON 객체 또는 텍스트)"),
    "forms.raw_value.help": (
        "Used only in raw mode. A JSON object is sent as an object; anything else as text.",
        "원시 모드에서만 사용합니다. JSON 객체는 객체로, 그 밖의 입력은 텍스트로 보냅니다.",
    ),
    "forms.raw_json": ("Raw JSON (state keys)", "원시 JSON (상태 키)"),
    "forms.resume.title": ("Resume", "재개 (resume)"),
    "forms.resume.interrupt": ("Question to answer", "답할 질문"),
    "forms.resume.answers": ("Question id {interrupt}", "질문 id {interrupt}"),
    "forms.resume.answers.help": (
        "The whole interrupt id, for `resume --interrupt`: {interrupt}",
        "`resume --interrupt`에 쓰는 전체 질문 id: {interrupt}",
    ),
    "forms.resume.submit": ("Resume", "재개"),
    "forms.resume.idle": (
        "Nothing waits for an answer on this thread now ({status}): a resume would be refused.",
        "이 스레드는 지금 답을 기다리지 않습니다({status}). 재개하면 거부됩니다.",
    ),
    "forms.resume.done": ("Resumed thread {thread}: {status}.", "스레드 {thread:을/를} 재개했습니다: {status}."),
    "forms.update.title": ("Update state", "상태 수정 (update_state)"),
    "forms.update.submit": ("Update state", "상태 수정"),
    "forms.update.continue": ("Continue the run after the update", "수정 후 실행 계속"),
    "forms.update.done": ("Updated thread {thread}: {status}.", "스레드 {thread}의 상태를 수정했습니다: {status}."),
    "forms.as_node": ("as node", "as_node (기록할 노드)"),
    "forms.as_node.help": (
        "Which node the update counts as written by; '—' lets LangGraph choose.",
        "이 수정을 어느 노드가 쓴 것으로 볼지 정합니다. '—'이면 LangGraph가 정합니다.",
    ),
    "forms.continue.submit": ("Continue the run", "실행 계속하기"),
    "forms.continue.help": (
        "The run stopped before it finished (a crash, or an edit): run its remaining nodes from the head.",
        "실행이 끝나기 전에 멈췄습니다(중단 또는 수정). 헤드에서 남은 노드를 실행합니다.",
    ),
    "forms.continue.done": (
        "Continued thread {thread}: {status}.",
        "스레드 {thread:을/를} 계속 실행했습니다: {status}.",
    ),
    "forms.delete.title": ("Delete thread", "스레드 삭제 (delete_thread)"),
    "forms.delete.confirm": ("Type {thread} to confirm", "확인하려면 {thread:을/를} 입력하세요"),
    "forms.delete.submit": ("Delete thread", "스레드 삭제"),
    "forms.delete.reason": ("Reason (kept in the audit)", "사유 (감사 기록에 남음)"),
    "forms.delete.reason_help": (
        "An unfinished refund is deleted only with a reason; the audit keeps the case, who, when and why.",
        "끝나지 않은 환불은 사유가 있어야 삭제됩니다. 감사 기록에 건, 삭제한 사람, 시각, 사유가 남습니다.",
    ),
    "forms.delete.mismatch": (
        "confirmation: type the thread id {thread} exactly to delete it",
        "확인: 삭제하려면 스레드 ID {thread:을/를} 정확히 입력하세요",
    ),
    "forms.delete.done": ("Deleted thread {thread}.", "스레드 {thread:을/를} 삭제했습니다."),
    "field.answer": ("Answer", "답변"),
    "field.decision": ("Decision", "결정"),
    "field.pending_action": ("Pending action", "대기 중인 작업"),
    # the robot's fields in the sidebar forms: their help lines (``help.<agent>.<form>.<field>``)
    "help.robot.resume.answer": (
        "Only the exact lowercase answer yes executes; Yes, y, 네, yes with a space and anything else refuse.",
        "소문자로 정확히 `yes`라고 답할 때만 실행합니다. `Yes`, `y`, `네`, 공백이 붙은 `yes` 등 그 밖의 답은 모두 "
        "거부합니다.",
    ),
    "help.robot.state.decision": (
        "The answer the robot will act on, exactly as given (spaces count).",
        "로봇이 따를 답 (입력한 그대로, 공백 포함).",
    ),
    "help.robot.state.pending_action": ("The proposed action, as text.", "제안된 작업 (텍스트)."),
    # the robot's nodes as as_node choices: the node's name, and in Korean what it does
    "node.outside": ("(outside a node)", "(노드 밖)"),
    "node.robot.propose": ("propose", "propose (제안)"),
    "node.robot.approval": ("approval", "approval (승인 질문)"),
    "node.robot.execute": ("execute", "execute (실행)"),
}
