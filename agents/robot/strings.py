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
    "robot.error.finished": (
        "the robot has already acted on this thread (on the answer {answer}), and an edit now would not change "
        "what it did; start over, or fork from a checkpoint before execute",
        "로봇이 이 스레드에서 이미 실행을 마쳤습니다(답변 {answer}). 지금 수정해도 한 일은 바뀌지 않습니다. "
        "다시 시작하거나 execute 이전의 체크포인트에서 분기하세요",
    ),
    "robot.problem.no_message": (
        "the run ended without the robot's final message (execute did not run)",
        "로봇의 마지막 메시지 없이 실행이 끝났습니다(execute가 실행되지 않음)",
    ),
    "robot.say.refused": (
        "Refused: {action} was not executed (answer {answer} is not 'yes').",
        "실행 거부됨: {action} — 답 {answer:이/가} 정확히 'yes'가 아니어서 실행하지 않았습니다.",
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
        "Only the exact lowercase answer `yes` executes. `Yes`, `y`, `네` and anything else refuse; "
        "spaces count, so `yes` with a space before or after it refuses too.",
        "정확히 소문자 `yes`만 실행합니다. `Yes`, `y`, `네` 등 다른 답은 모두 거부입니다. "
        "공백도 답의 일부이므로 앞뒤에 공백이 있는 `yes`도 거부입니다.",
    ),
    "robot.other_agent": (
        "Thread {thread} belongs to the {agent} agent; the robot page only shows robot threads.",
        "스레드 {thread:은/는} {agent} 에이전트의 것입니다. 로봇 페이지는 로봇 스레드만 보여 줍니다.",
    ),
    "robot.no_agent": (
        "Thread {thread} records no agent, so nothing here can answer it or run it on; "
        "delete it (python -m agents delete {thread}).",
        "스레드 {thread}에는 에이전트가 기록되어 있지 않아 여기서는 답하거나 이어서 실행할 수 없습니다. "
        "삭제하세요(python -m agents delete {thread}).",
    ),
    "robot.thread": ("Thread {thread}", "스레드 {thread}"),
    "robot.start_over": ("Start over", "처음부터 다시"),
    "robot.start_over.help": (
        "Deletes this thread (delete_thread) and runs the robot until it asks. No other thread is touched.",
        "이 스레드를 삭제(delete_thread)하고 로봇이 질문할 때까지 실행합니다. 다른 스레드는 건드리지 않습니다.",
    ),
    "robot.start_over.confirm": (
        "Start over deletes thread {thread} with every checkpoint and answer it holds, then runs the robot until"
        " it asks again. No other thread is touched.",
        "처음부터 다시 하면 스레드 {thread:과/와} 그 안의 모든 체크포인트와 답이 삭제되고, 로봇이 다시 질문할 때까지"
        " 실행됩니다. 다른 스레드는 건드리지 않습니다.",
    ),
    "robot.start_over.delete": ("Delete and start over", "삭제하고 다시 시작"),
    "robot.start_over.keep": ("Keep the thread", "스레드 유지"),
    "robot.not_started": (
        "This thread has no checkpoints yet. Press Start over.",
        "이 스레드에는 아직 체크포인트가 없습니다. '처음부터 다시'를 누르세요.",
    ),
    "robot.moved_on": (
        "This thread moved on elsewhere since this question was drawn (now {status}); an answer from these"
        " controls will be refused. What it holds now is shown below.",
        "이 질문이 그려진 뒤 다른 곳에서 스레드가 진행되었습니다 (현재 {status}). 이 컨트롤로 보낸 답은"
        " 받아들여지지 않습니다. 지금 상태는 아래에 있습니다.",
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
        "이 답은 정확히 `yes`가 아니므로 작업은 거부됩니다.",
    ),
    "robot.answered": ("Answered {answer}.", "{answer:이라고/라고} 답했습니다."),
    "robot.status": ("Status", "상태"),
    "robot.next": ("`next`", "`next` (다음 노드)"),
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
        "**thread_id** names the conversation (here `{thread}`) and stays the same; **checkpoint_id** names "
        "one snapshot inside it and is new after every step.",
        "**thread_id**는 대화(여기서는 `{thread}`)의 이름으로 바뀌지 않습니다. **checkpoint_id**는 그 안의 "
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
    "robot.outcome": ("Outcome", "결과"),
    "robot.outcome.none": ("none yet", "아직 없음"),
    "robot.outcome.executed": (
        "Executed: the answer received, {answer}, was exactly `yes`, so the action ran.",
        "실행됨: 받은 답 {answer:이/가} 정확히 `yes`였으므로 작업이 실행되었습니다.",
    ),
    "robot.outcome.refused": (
        "Refused: the answer {answer} is not exactly `yes`, so the action did not run.",
        "거부됨: 답 {answer:은/는} 정확히 `yes`가 아니므로 작업이 실행되지 않았습니다.",
    ),
    "robot.outcome.apart": (
        "Status says whether the run goes on (`done` = finished); the outcome says whether the action ran. "
        '`done` is not "approved".',
        "상태는 실행이 계속되는지(완료 = 실행이 끝남)를, 결과는 작업이 실행되었는지를 말합니다. "
        '완료는 "승인됨"이 아닙니다.',
    ),
    "robot.answered.executed": ("Answered {answer}: executed.", "{answer:이라고/라고} 답했습니다: 실행됨."),
    "robot.answered.refused": ("Answered {answer}: refused.", "{answer:이라고/라고} 답했습니다: 거부됨."),
    "robot.col.short_id": ("checkpoint (short)", "체크포인트 (짧은 ID)"),
    "robot.col.parent_short": ("parent (short)", "부모 (짧은 ID)"),
    "robot.col.full_id": ("full checkpoint_id", "전체 checkpoint_id"),
    "robot.col.meaning": ("what it is", "무엇인가"),
    "robot.write_value": ("A write's whole value", "쓰기 값 전체 보기"),
    "robot.write_pick": ("Write (checkpoint · node · channel)", "쓰기 (체크포인트 · 노드 · 채널)"),
    "robot.ids.short": (
        "Both tables name a checkpoint by its short id: the first 8 characters of the id's random tail. "
        "The full id has its own column, `full checkpoint_id` (select a cell and copy it).",
        "두 표 모두 체크포인트를 짧은 ID(ID의 무작위 끝부분 앞 8글자)로 부릅니다. "
        "전체 ID는 따로 `전체 checkpoint_id` 열에 있습니다(칸을 선택해 복사하세요).",
    ),
    "robot.meaning.interrupt": ("the pause: the question", "멈춤: 질문"),
    "robot.meaning.resume_null": ("the answer, written outside any node", "답: 어느 노드 밖에서 쓰임"),
    "robot.meaning.resume_task": (
        "the answer interrupt() returned in this task",
        "이 태스크에서 interrupt()가 돌려준 답",
    ),
    "robot.meaning.branch": ("route: run {node} next", "경로: 다음에 {node} 실행"),
    "robot.meaning.internal": ("LangGraph bookkeeping", "LangGraph 내부 기록"),
    "robot.meaning.state": ("state key {name}", "상태 키 {name}"),
    "robot.q.stop": ("Where does the robot stop?", "로봇은 어디에서 멈추나요?"),
    "robot.a.stop": (
        "In the node `approval`, at its `interrupt()` call. On resume that node runs again from its start, "
        "and `interrupt()` returns the answer instead of pausing.",
        "`approval` 노드의 `interrupt()` 호출에서 멈춥니다. 재개하면 그 노드가 처음부터 다시 실행되고, "
        "`interrupt()`는 멈추는 대신 답을 돌려줍니다.",
    ),
    "robot.live.stop.waiting": (
        "Now: `next` is {next}, it waits there.",
        "지금: `next`가 {next}이며, 거기서 기다립니다.",
    ),
    "robot.live.stop.passed": (
        "Now: `next` is {next}, it is past the pause.",
        "지금: `next`가 {next}이며, 멈춤을 지났습니다.",
    ),
    "robot.q.checkpoints": ("Is a checkpoint taken only at the pause?", "체크포인트는 멈출 때만 저장되나요?"),
    "robot.a.checkpoints": (
        "No: after every step: one for the input (step -1), then one after each node (and after each `update_state`).",
        "아니요. 단계마다 저장됩니다. 입력에 하나(스텝 -1), 그다음 노드가 끝날 때마다 하나씩 "
        "(`update_state` 때도) 저장됩니다.",
    ),
    "robot.live.checkpoints": (
        "This thread took {count} so far (steps {first} to {last}).",
        "이 스레드는 지금까지 {count}개를 저장했습니다(스텝 {first}부터 {last}까지).",
    ),
    "robot.q.ids": (
        "Which id do we choose ourselves, `thread_id` or `checkpoint_id`?",
        "우리가 직접 정하는 ID는 `thread_id`와 `checkpoint_id` 중 무엇인가요?",
    ),
    "robot.a.ids": (
        "The `thread_id`: we pick it (here the page's `?thread=`, default `hitl_demo`) and it stays the same. "
        "Every `checkpoint_id` is made by LangGraph when it saves.",
        "`thread_id`입니다. 우리가 정하며(여기서는 페이지의 `?thread=`, 기본값 `hitl_demo`) 바뀌지 않습니다. "
        "`checkpoint_id`는 모두 LangGraph가 저장할 때 만듭니다.",
    ),
    "robot.live.ids": (
        "Here: `thread_id` {thread}, chosen by us; the latest `checkpoint_id` {latest}, made by LangGraph.",
        "여기서는: `thread_id` {thread:은/는} 우리가 정했고, 최신 `checkpoint_id` {latest:은/는} LangGraph가 만들었습니다.",
    ),
    "robot.q.latest": ("How is the latest checkpoint found?", "최신 체크포인트는 어떻게 찾나요?"),
    "robot.a.latest": (
        "A checkpoint id begins with the time it was taken, so sorting the ids newest first and taking the first "
        "finds it (the SQLite saver: `ORDER BY checkpoint_id DESC LIMIT 1`).",
        "체크포인트 ID는 저장된 시각으로 시작하므로, ID를 최신순으로 정렬해 첫 번째를 고르면 됩니다 "
        "(SQLite 저장소: `ORDER BY checkpoint_id DESC LIMIT 1`).",
    ),
    "robot.live.latest": (
        "Here: {short}, taken {time}, step {step}.",
        "여기서는: {short}, {time}에 저장, 스텝 {step}.",
    ),
    "robot.live.latest.other": (
        "Here: {latest} (not a LangGraph time-ordered id).",
        "여기서는: {latest} (LangGraph의 시간순 ID가 아닙니다).",
    ),
    "robot.q.pause": (
        "The paused node has no checkpoint of its own: how is the pause remembered?",
        "멈춘 노드에는 자기 체크포인트가 없습니다. 멈춤은 어떻게 기억되나요?",
    ),
    "robot.a.pause": (
        "`approval` stopped before it finished, so no checkpoint follows it. The pause is an `__interrupt__` "
        "write (the question) under the last checkpoint, the one whose `next` is `approval`; on resume the "
        "`__resume__` writes join it under that same checkpoint.",
        "`approval`은 끝나기 전에 멈췄으므로 그 뒤의 체크포인트가 없습니다. 멈춤은 마지막 체크포인트"
        "(`next`가 `approval`인 것) 아래의 `__interrupt__` 쓰기(질문)로 기억되고, 재개하면 `__resume__` "
        "쓰기들이 같은 체크포인트 아래에 더해집니다.",
    ),
    "robot.live.pause.none": ("Here: no `__interrupt__` write yet.", "여기서는: 아직 `__interrupt__` 쓰기가 없습니다."),
    "robot.live.pause.waiting": (
        "Here: {count} `__interrupt__` write under {short} (step {step}); no `__resume__` yet.",
        "여기서는: {short} (스텝 {step}) 아래에 `__interrupt__` 쓰기 {count}개, `__resume__`은 아직 없습니다.",
    ),
    "robot.live.pause.resumed": (
        "Here: {count} `__interrupt__` write under {short} (step {step}), the `__resume__` writes beside it.",
        "여기서는: {short} (스텝 {step}) 아래에 `__interrupt__` 쓰기 {count}개, 그 옆에 `__resume__` 쓰기들.",
    ),
    "robot.q.yes": ('Does "Yes" approve?', '"Yes"도 승인인가요?'),
    "robot.a.yes": (
        "No: only the exact lowercase `yes` executes; `Yes`, `y`, `네` and anything else refuse.",
        "아니요. 정확히 소문자 `yes`만 실행합니다. `Yes`, `y`, `네` 등 다른 답은 모두 거부입니다.",
    ),
    "robot.live.yes": (
        "Here the answer was {answer}: {outcome}.",
        "여기서는 답이 {answer}였고, 결과는 {outcome}입니다.",
    ),
    "robot.live.yes.none": ("Here no answer was given yet.", "여기서는 아직 답이 없습니다."),
    "robot.q.two_resumes": ("Why two `__resume__` rows?", "왜 `__resume__` 행이 두 개인가요?"),
    "robot.a.two_resumes": (
        "Resuming writes the answer twice under the paused checkpoint: once outside any node (task id "
        "`00000000-…`), the value given to resume (`Command(resume=…)`); and once for the `approval` task, the "
        "list of answers its `interrupt()` calls took, one per call, so a node with several calls replays them "
        "in order.",
        "재개하면 멈춘 체크포인트 아래에 답이 두 번 쓰입니다. 한 번은 어느 노드 밖에서(태스크 ID "
        "`00000000-…`) 재개에 주어진 값(`Command(resume=…)`)으로, 한 번은 `approval` 태스크의 것으로, "
        "그 `interrupt()` 호출들이 받은 답의 목록(호출마다 하나)으로 쓰입니다. 그래서 호출이 여럿인 노드도 "
        "답을 순서대로 다시 씁니다.",
    ),
    "robot.resume.null": (
        "under {short}, task {task} (outside a node): {value}",
        "{short} 아래, 태스크 {task} (노드 밖): {value}",
    ),
    "robot.resume.task": (
        "under {short}, task {task} (node {node}): {value}",
        "{short} 아래, 태스크 {task} (노드 {node}): {value}",
    ),
    "robot.anatomy.title": ("The latest checkpoint id, part by part", "최신 체크포인트 ID, 부분별로"),
    "robot.anatomy.other": (
        "This id is not a LangGraph (uuid6) id, so it has no time part.",
        "이 ID는 LangGraph(uuid6) ID가 아니어서 시각 부분이 없습니다.",
    ),
    "robot.anatomy.part": ("part", "부분"),
    "robot.anatomy.here": ("here", "여기서는"),
    "robot.anatomy.means": ("what it means", "뜻"),
    "robot.anatomy.time": ("time (groups 1–3)", "시각 (1–3번째 묶음)"),
    "robot.anatomy.time.means": (
        "when it was taken: {time}, in 100 ns ticks since 1582-10-15, largest first (the `6` is the uuid version). "
        "So ids sort by time.",
        "저장된 시각: {time}. 1582-10-15부터의 100나노초 단위 수를 큰 자리부터 씁니다(`6`은 UUID 버전). "
        "그래서 ID가 시각순으로 정렬됩니다.",
    ),
    "robot.anatomy.step": ("step (group 4)", "스텝 (4번째 묶음)"),
    "robot.anatomy.step.means": (
        "the step, {step}: `8000` + the step (`bfff` is step -1, `8000` step 0, `8001` step 1…)",
        "스텝 {step}: `8000` + 스텝 (`bfff`는 스텝 -1, `8000`은 스텝 0, `8001`은 스텝 1…)",
    ),
    "robot.anatomy.tail": ("random tail (group 5)", "무작위 끝부분 (5번째 묶음)"),
    "robot.anatomy.tail.means": (
        "48 random bits; its first 8 characters, {short}, are the short id in both tables",
        "무작위 48비트. 앞 8글자 {short:이/가} 두 표의 짧은 ID입니다",
    ),
    "robot.q.after_answer": (
        "You answer now. How many checkpoints will the thread hold when the run ends?",
        "지금 답하면, 실행이 끝났을 때 스레드에는 체크포인트가 몇 개 있을까요?",
    ),
    "robot.a.after_answer": (
        "Five: the three of the pause, then one after `approval` (step 2) and one after `execute` (step 3). "
        "The answer itself takes no checkpoint: it is a write.",
        "다섯 개입니다. 멈출 때까지의 세 개, 그다음 `approval` 뒤에 하나(스텝 2), `execute` 뒤에 하나(스텝 3). "
        "답 자체는 체크포인트가 아니라 쓰기입니다.",
    ),
    "robot.live.after_answer.waiting": ("Now it holds {count}.", "지금은 {count}개입니다."),
    "robot.live.after_answer.done": (
        "This thread holds {count} (steps {first} to {last}).",
        "이 스레드에는 {count}개가 있습니다(스텝 {first}부터 {last}까지).",
    ),
    "robot.q.resume_under": (
        "Under which checkpoint will your answer be stored?",
        "내 답은 어느 체크포인트 아래에 저장될까요?",
    ),
    "robot.a.resume_under": (
        "Under the paused one (its `next` is `approval`), beside the `__interrupt__` write: as two `__resume__` "
        "writes, not under a new checkpoint.",
        "멈춘 체크포인트(`next`가 `approval`인 것) 아래, `__interrupt__` 쓰기 옆입니다. 새 체크포인트가 아니라 "
        "`__resume__` 쓰기 두 개로 저장됩니다.",
    ),
    "robot.live.resume_under": ("Here: {short} (step {step}).", "여기서는: {short} (스텝 {step})."),
    "robot.q.start_over": (
        "You press Start over. Which id stays, and which are new?",
        "처음부터 다시를 누르면, 어떤 ID가 그대로이고 어떤 ID가 새로 생길까요?",
    ),
    "robot.a.start_over": (
        "The `thread_id` stays: we chose it. Start over deletes the thread's checkpoints and writes, so every "
        "`checkpoint_id` after it is new, made by LangGraph with the time it saves.",
        "`thread_id`는 그대로입니다. 우리가 정한 것이니까요. 처음부터 다시는 스레드의 체크포인트와 쓰기를 "
        "지우므로, 그 뒤의 `checkpoint_id`는 모두 LangGraph가 저장 시각으로 새로 만듭니다.",
    ),
    "robot.live.start_over": ("Here: {thread} stays.", "여기서는: {thread} 그대로."),
    "robot.q.no_saver": (
        "The same graph compiled without a checkpointer pauses at `approval`. Where is the pause kept?",
        "같은 그래프를 체크포인터 없이 컴파일하면 `approval`에서 멈춥니다. 멈춤은 어디에 남을까요?",
    ),
    "robot.a.no_saver": (
        "Nowhere: with no save file there is no `__interrupt__` write and no checkpoint to resume from; the "
        "caller gets a half-finished state and no error. The refund page's pitfall demo shows it.",
        "어디에도 남지 않습니다. 저장 파일이 없으니 `__interrupt__` 쓰기도, 재개할 체크포인트도 없고, 호출한 쪽은 "
        "오류 없이 반쯤 끝난 상태만 받습니다. 환불 페이지의 함정 데모가 이를 보여 줍니다.",
    ),
    "robot.quiz": ("Quiz", "퀴즈"),
    "robot.quiz.intro": (
        "What the lessons above let you work out: answer in your head, then click a question to see its "
        "answer, with this thread's values.",
        "위의 설명으로 알아낼 수 있는 것들입니다. 머릿속으로 답해 본 뒤 질문을 누르면, 이 스레드의 값과 함께 "
        "답이 보입니다.",
    ),
    "robot.attention": ("This thread needs attention: {reason}", "이 스레드는 확인이 필요합니다: {reason}"),
    "robot.queue": ("Other robot threads that need a human ({count})", "사람이 봐야 할 다른 로봇 스레드 ({count})"),
    "robot.queue_empty": (
        "No other robot thread waits or needs attention.",
        "기다리거나 확인이 필요한 다른 로봇 스레드가 없습니다.",
    ),
}
