"""Strings of the approval robot's page."""

STRINGS: dict[str, tuple[str, str]] = {
    # The robot's own words, in the language its run started in (``agents.robot.graph``).
    "robot.say.start": ("Start the task", "작업 시작"),
    "robot.say.action": (
        "Business trip request: Busan, 2 days, budget 800,000 KRW",
        "출장 신청서 제출: 부산 2일, 예산 800,000원",
    ),
    "robot.say.question": ("Execute this? (yes/no)", "이 작업을 실행할까요? (yes/no)"),
    "robot.say.executed": ("Executed: {action}", "실행됨: {action}"),
    "robot.problem.no_message": (
        "the run ended without the robot's final message (execute did not run)",
        "로봇의 마지막 메시지 없이 실행이 끝났습니다(execute가 실행되지 않음)",
    ),
    "robot.say.refused": (
        "Refused: {action} was not executed (answer {answer} is not 'yes').",
        "실행 거부됨: {action} — 답 {answer}이(가) 정확히 'yes'가 아니어서 실행하지 않았습니다.",
    ),
    "nav.robot": ("Approval robot", "승인 로봇"),
    "agent.robot.title": ("Approval robot", "승인 로봇"),
    "agent.robot.description": (
        "Proposes a business trip, pauses, and acts only on an exact 'yes'.",
        "출장 신청을 제안하고 멈춘 뒤, 정확히 'yes'라고 답할 때만 실행합니다.",
    ),
    "robot.title": ("Approval robot", "승인 로봇"),
    "robot.intro": (
        "The robot proposes a business trip and asks before it acts. The question is saved, "
        "so it waits, even across a restart, until a person answers.",
        "로봇이 출장 신청을 제안하고, 실행하기 전에 묻습니다. 질문은 저장되므로 "
        "재시작하더라도 사람이 답할 때까지 기다립니다.",
    ),
    "robot.rule": (
        "Only the exact lowercase answer `yes` executes. `Yes`, `y`, `네` and anything else mean no.",
        "정확히 소문자 `yes`만 실행합니다. `Yes`, `y`, `네` 등 다른 답은 모두 거절입니다.",
    ),
    "robot.other_agent": (
        "Thread {thread} belongs to the {agent} agent; the robot page only shows robot threads.",
        "스레드 {thread}는 {agent} 에이전트의 것입니다. 로봇 페이지는 로봇 스레드만 보여 줍니다.",
    ),
    "robot.thread": ("Thread {thread}", "스레드 {thread}"),
    "robot.start_over": ("Start over", "처음부터 다시"),
    "robot.start_over.help": (
        "Deletes this thread (delete_thread) and runs the robot until it asks. No other thread is touched.",
        "이 스레드를 삭제(delete_thread)하고 로봇이 질문할 때까지 실행합니다. 다른 스레드는 건드리지 않습니다.",
    ),
    "robot.not_started": (
        "This thread has no checkpoints yet. Press Start over.",
        "이 스레드에는 아직 체크포인트가 없습니다. '처음부터 다시'를 누르세요.",
    ),
    "robot.waiting": ("Paused: the robot is waiting for your answer.", "일시 정지: 로봇이 답을 기다리고 있습니다."),
    "robot.question": ("Question", "질문"),
    "robot.action": ("Proposed action", "제안된 작업"),
    "robot.yes": ("yes", "yes"),
    "robot.no": ("no", "no"),
    "robot.free_answer": ("Or type an answer", "또는 답을 직접 입력"),
    "robot.send": ("Send answer", "답 보내기"),
    "robot.will_execute": ("This answer will execute the action.", "이 답은 작업을 실행합니다."),
    "robot.will_refuse": (
        "This answer is not exactly `yes`: the action will be refused.",
        "이 답은 정확히 `yes`가 아니므로 작업이 거절됩니다.",
    ),
    "robot.answered": ("Answered {answer!r}.", "{answer!r}라고 답했습니다."),
    "robot.status": ("Status", "상태"),
    "robot.next": ("next", "next (다음 노드)"),
    "robot.payload": ("Interrupt payload", "인터럽트 페이로드"),
    "robot.messages": ("Messages", "메시지"),
    "robot.savefile": ("Inside the save file", "저장 파일 들여다보기"),
    "robot.counts": ("checkpoints: {checkpoints} · writes: {writes}", "체크포인트: {checkpoints} · 쓰기: {writes}"),
    "robot.checkpoints": ("Checkpoints (table `checkpoints`)", "체크포인트 (테이블 `checkpoints`)"),
    "robot.writes": ("Writes (table `writes`)", "쓰기 (테이블 `writes`)"),
    "robot.no_rows": ("No rows.", "행이 없습니다."),
    "robot.explain.title": ("What am I looking at?", "무엇을 보고 있나요?"),
    "robot.explain.checkpoint": (
        "**Checkpoint**: a snapshot of the whole state, taken after every node (not only at the pause). "
        "Each one points to its parent, so the rows form a chain you can replay or fork.",
        "**체크포인트**: 전체 상태의 스냅숏입니다. 멈출 때만이 아니라 노드가 끝날 때마다 저장됩니다. "
        "각 체크포인트는 부모를 가리키므로, 행들이 되돌리거나 갈라낼 수 있는 사슬을 이룹니다.",
    ),
    "robot.explain.write": (
        "**Write**: one value a node produced for one channel (a state key, a routing `branch:to:*`, or "
        "`__interrupt__`), stored against the checkpoint the node started from.",
        "**쓰기(write)**: 노드가 한 채널(상태 키, 라우팅용 `branch:to:*`, `__interrupt__` 등)에 낸 값 하나로, "
        "노드가 시작한 체크포인트에 붙어 저장됩니다.",
    ),
    "robot.explain.ids": (
        "**thread_id** names the conversation (here `hitl_demo`) and stays the same; **checkpoint_id** names "
        "one snapshot inside it and is new after every step.",
        "**thread_id**는 대화(여기서는 `hitl_demo`)의 이름으로 바뀌지 않습니다. **checkpoint_id**는 그 안의 "
        "스냅숏 하나의 이름으로, 단계마다 새로 생깁니다.",
    ),
    "robot.explain.pause": (
        "**How the pause is remembered**: `interrupt()` in the `approval` node stores an `__interrupt__` write "
        "with the question. On resume, `approval` runs again from its start and `interrupt()` returns your "
        "answer (a `__resume__` write) instead of pausing.",
        "**멈춤은 어떻게 기억되나**: `approval` 노드의 `interrupt()`가 질문을 담은 `__interrupt__` 쓰기를 "
        "저장합니다. 재개하면 `approval`이 처음부터 다시 실행되고, `interrupt()`는 멈추는 대신 답 "
        "(`__resume__` 쓰기)을 돌려줍니다.",
    ),
    "robot.attention": ("This thread needs attention: {reason}", "이 스레드는 확인이 필요합니다: {reason}"),
    "robot.queue": ("Other robot threads that need a human ({count})", "사람이 봐야 할 다른 로봇 스레드 ({count})"),
    "robot.queue_empty": (
        "No other robot thread waits or needs attention.",
        "기다리거나 확인이 필요한 다른 로봇 스레드가 없습니다.",
    ),
}
