"""Strings of the command line: its help, its output and its own messages, ``{key: (english, korean)}``.

``--lang`` picks the side (:func:`agents.cli.base.say`). A count's words have two keys, ``KEY.one`` and
``KEY.other`` (:func:`agents.cli.base.say_count`): English says "1 attempt" and "2 attempts"; Korean
counts with the same words either way. Codes stay as they are stored (``approve``, ``paid``, node
names, option names); a status, outcome, decision or action shown to a person is a word of its own
here (``cli.status.*``, ``cli.outcome.*``, …), the dashboard's word for it in Korean, and the code
itself in English, as the English output has always shown it.
"""

STRINGS: dict[str, tuple[str, str]] = {
    # --- the parser: the program, argparse's own words, the options every command takes
    "cli.description": (
        "Run the agents, answer their questions and look after their threads, on the dashboard's database.",
        "대시보드와 같은 데이터베이스에서 에이전트를 실행하고, 질문에 답하고, 스레드를 관리합니다.",
    ),
    "cli.epilog": (
        "Exit codes: 0 success; 2 bad input (the message is on stderr and nothing was changed); 75 the database "
        "was busy (another process held its write lock past HITL_DB_BUSY_TIMEOUT; the refused write changed "
        "nothing, try again later); 1 an internal error. --db and --lang are also accepted after the command.",
        "종료 코드: 0 성공, 2 잘못된 입력(메시지는 표준 오류에 나오고 아무것도 바뀌지 않음), 75 데이터베이스 사용 중"
        "(다른 프로세스가 HITL_DB_BUSY_TIMEOUT보다 오래 쓰기 잠금을 쥐고 있었음. 거부된 쓰기는 아무것도 바꾸지 않았으니 "
        "나중에 다시 시도), 1 내부 오류. --db와 --lang은 명령 뒤에도 쓸 수 있습니다.",
    ),
    "cli.argparse.usage": ("usage: ", "사용법: "),
    "cli.argparse.positionals": ("positional arguments", "위치 인수"),
    "cli.argparse.options": ("options", "옵션"),
    "cli.argparse.help": ("show this help message and exit", "이 도움말을 보여 주고 끝냅니다"),
    "cli.argparse.error": ("{prog}: error: {message}", "{prog}: 오류: {message}"),
    "cli.argparse.argument": ("argument {argument}: {message}", "인수 {argument}: {message}"),
    "cli.argparse.invalid_choice": (
        "invalid choice: {value} (choose from {choices})",
        "고를 수 없는 값입니다: {value} (다음 중 하나: {choices})",
    ),
    "cli.argparse.required": (
        "the following arguments are required: {names}",
        "다음 인수가 필요합니다: {names}",
    ),
    "cli.argparse.one_required": (
        "one of the arguments {names} is required",
        "다음 인수 중 하나가 필요합니다: {names}",
    ),
    "cli.argparse.unrecognized": ("unrecognized arguments: {names}", "알 수 없는 인수입니다: {names}"),
    "cli.argparse.not_allowed_with": ("not allowed with argument {other}", "{other:과/와} 함께 쓸 수 없습니다"),
    "cli.argparse.ignored_value": ("ignored explicit argument {value}", "값을 받지 않는 옵션입니다: {value}"),
    "cli.argparse.expected_one": ("expected one argument", "값이 하나 필요합니다"),
    "cli.argparse.expected_at_most_one": ("expected at most one argument", "값은 하나까지만 줄 수 있습니다"),
    "cli.argparse.expected_at_least_one": ("expected at least one argument", "값이 하나 이상 필요합니다"),
    "cli.argparse.expected_count": ("expected {count} arguments", "값이 {count}개 필요합니다"),
    "cli.argparse.ambiguous": (
        "ambiguous option: {option} could match {matches}",
        "모호한 옵션입니다: {option:은/는} {matches} 중 어느 것인지 알 수 없습니다",
    ),
    "cli.argparse.unexpected_option": ("unexpected option string: {option}", "예상하지 못한 옵션입니다: {option}"),
    "cli.argparse.invalid_value": ("invalid {kind} value: {value}", "{kind} 값으로 쓸 수 없습니다: {value}"),
    "cli.argparse.unknown_parser": (
        "unknown parser {name} (choices: {choices})",
        "알 수 없는 명령입니다: {name} (다음 중 하나: {choices})",
    ),
    "cli.help.db": (
        "database file (default: HITL_DB or data/checkpoints.sqlite)",
        "데이터베이스 파일 (기본값: HITL_DB 또는 data/checkpoints.sqlite)",
    ),
    "cli.help.lang": (
        "language of messages and of new runs (default: HITL_LANG or en)",
        "메시지와 새 실행의 언어 (기본값: HITL_LANG 또는 en)",
    ),
    "cli.help.db_after": (
        "database file (also accepted before the command)",
        "데이터베이스 파일 (명령 앞에 써도 됩니다)",
    ),
    "cli.help.lang_after": ("language (also accepted before the command)", "언어 (명령 앞에 써도 됩니다)"),
    "cli.help.json": ("print JSON", "JSON으로 출력"),
    "cli.help.thread": ("the thread id", "스레드 id"),
    "cli.help.agent_filter": ("only this agent's threads", "이 에이전트의 스레드만"),
    "cli.blank_value": (
        "is empty; give a value, or leave the option out for its default",
        "비어 있습니다. 값을 주거나, 기본값을 쓰려면 옵션을 빼세요",
    ),
    # --- what every command may end with
    "cli.error": ("error: {message}", "오류: {message}"),
    "cli.interrupted": ("interrupted", "중단되었습니다"),
    # --- statuses, outcomes, decisions and actions in words (the codes stay in --json)
    "cli.status.waiting": ("waiting", "대기 중"),
    "cli.status.attention": ("attention", "확인 필요"),
    "cli.status.running": ("running", "실행 중"),
    "cli.status.done": ("done", "완료"),
    "cli.status.thread deleted": ("thread deleted", "스레드 삭제됨"),
    # ``ledger --audit``: a payout whose thread this database never held (paid by ``langgraph dev`` on the shared ledger)
    "cli.status.thread not in this database": ("thread not in this database", "이 데이터베이스에 스레드 없음"),
    "cli.status.with_outcome": ("{status} ({outcome})", "{status} ({outcome})"),
    "cli.outcome.executed": ("executed", "실행됨"),
    "cli.outcome.refused": ("refused", "거부됨"),
    "cli.outcome.paid": ("paid", "지급됨"),
    "cli.outcome.rejected": ("rejected", "거절됨"),
    "cli.outcome.partly paid": ("partly paid", "일부 지급됨"),
    "cli.outcome.saved": ("saved", "저장됨"),
    "cli.outcome.saved_as_is": ("saved_as_is", "그대로 저장됨"),
    "cli.outcome.finished": ("finished", "종료됨"),
    "cli.outcome.deleted": ("deleted", "미완료 상태로 삭제됨"),
    "cli.decision.approve": ("approve", "승인"),
    "cli.decision.reject": ("reject", "거절"),
    "cli.decision.mixed": ("mixed", "승인·거절"),
    "cli.decision.edit": ("edit", "금액 수정"),
    "cli.decision.rework": ("rework", "재작업"),
    "cli.decision.save": ("save", "그대로 저장"),
    "cli.decision.edit_plan": ("edit_plan", "계획 수정"),
    "cli.action.answer": ("answer", "답하기"),
    "cli.action.continue": ("continue", "계속 실행하기"),
    "cli.action.rerun": ("rerun", "체크포인트에서 다시 실행하기"),
    "cli.action.wait": ("wait", "끝날 때까지 기다리기"),
    "cli.action.delete": ("delete", "삭제하기"),
    "cli.waiting.items": ("{count} of {total} items", "항목 {total}개 중 {count}개"),
    "cli.waiting.questions": ("{count} questions", "질문 {count}개"),
    # --- core: threads, inbox, run, resume, update, continue, delete, inspect
    "cli.help.threads": ("list threads", "스레드 목록"),
    "cli.help.deletions": (
        "list the threads deleted before they finished (when, agent, status then, who, why), newest first",
        "끝나기 전에 삭제된 스레드 목록(시각, 에이전트, 삭제 당시 상태, 삭제한 사람, 사유), 최근 것부터",
    ),
    "cli.help.deletions.agent": ("only this agent's deleted threads", "이 에이전트의 삭제된 스레드만"),
    "cli.help.deletions.json": (
        "the deleted threads as JSON (status as a code, times in UTC)",
        "삭제된 스레드를 JSON으로 (상태는 코드로, 시각은 UTC)",
    ),
    "cli.help.threads.json": (
        "the threads as JSON (status and outcome as codes)",
        "스레드를 JSON으로 (상태와 결과는 코드로)",
    ),
    "cli.help.inbox": (
        "every thread that needs a human: waiting, attention, running",
        "사람이 필요한 모든 스레드: 대기 중, 확인 필요, 실행 중",
    ),
    "cli.help.inbox.overdue": (
        "only the items past their deadline (HITL_SLA); exit 3 when any",
        "처리 기한(HITL_SLA)이 지난 항목만. 하나라도 있으면 종료 코드 3",
    ),
    "cli.help.inbox.json": (
        "the items as JSON, with overdue and who may decide",
        "항목을 JSON으로 (기한 지남 여부와 결정할 수 있는 사람 포함)",
    ),
    "cli.help.run": ("start a run of an agent", "에이전트 실행 시작"),
    "cli.help.run.thread": ("thread id (default: {default})", "스레드 id (기본값: {default})"),
    "cli.help.run.derived": ("derived", "입력에서 정해짐"),
    "cli.help.run.answer": (
        "answer the first question at once (text or JSON object)",
        "첫 질문에 바로 답합니다 (텍스트나 JSON 객체)",
    ),
    "cli.help.run.json": ("where the run stopped, as JSON", "실행이 멈춘 곳을 JSON으로"),
    "cli.help.resume": ("answer a waiting thread", "기다리는 스레드에 답하기"),
    "cli.help.resume.value": ("a JSON object, or text", "JSON 객체나 텍스트"),
    "cli.help.resume.interrupt": (
        "answer the question with this interrupt id (needed when several are waiting)",
        "이 인터럽트 id의 질문에 답합니다 (질문 여러 개가 기다릴 때 필요)",
    ),
    "cli.help.resume.all": (
        "give the same answer to every question waiting",
        "기다리는 모든 질문에 같은 답을 줍니다",
    ),
    "cli.help.update": (
        "update_state on a thread (or fork an older checkpoint)",
        "스레드에 update_state 적용 (또는 예전 체크포인트에서 포크)",
    ),
    "cli.help.update.values": ("JSON object of state keys", "상태 키의 JSON 객체"),
    "cli.help.update.as_node": (
        "the node the update is made as (the agent names which may be)",
        "업데이트를 한 것으로 기록할 노드 (에이전트가 정한 노드만)",
    ),
    "cli.help.update.checkpoint": (
        "fork from this checkpoint instead of the head",
        "헤드 대신 이 체크포인트에서 포크합니다",
    ),
    "cli.help.continue": (
        "run a thread on from its head with no new input (after update)",
        "새 입력 없이 헤드에서 스레드를 이어서 실행 (업데이트 뒤)",
    ),
    "cli.help.delete": ("delete a thread", "스레드 삭제"),
    "cli.help.delete.yes": ("do not ask for confirmation", "확인을 묻지 않습니다"),
    "cli.help.delete.reason": (
        "why (an unfinished refund is deleted only with one, kept in its audit)",
        "삭제 사유 (끝나지 않은 환불은 사유가 있어야 삭제되며, 감사 기록에 남습니다)",
    ),
    "cli.help.inspect": (
        "readable dump of a thread's checkpoints and writes",
        "스레드의 체크포인트와 쓰기를 읽기 쉽게 출력",
    ),
    "cli.help.inspect.json": (
        "the checkpoints, their decoded state and writes as JSON",
        "체크포인트와 디코딩한 상태, 쓰기를 JSON으로",
    ),
    "cli.result.thread": ("thread {thread} ({agent}): {state}", "스레드 {thread} ({agent}): {state}"),
    "cli.result.reason": ("reason: {reason}", "이유: {reason}"),
    "cli.result.next": ("next: {nodes}", "다음: {nodes}"),
    "cli.result.waiting": ("waiting for a human:", "사람의 답을 기다립니다:"),
    "cli.result.waiting_interrupt": (
        "waiting for a human (interrupt {interrupt}):",
        "사람의 답을 기다립니다 (인터럽트 {interrupt}):",
    ),
    "cli.result.last_message": ("last message: {content}", "마지막 메시지: {content}"),
    "cli.prompt.answer": ("your answer> ", "답> "),
    "cli.threads.none": ("no threads", "스레드가 없습니다"),
    # --- deletions
    "cli.deletions.none": ("no deleted threads", "삭제된 스레드가 없습니다"),
    "cli.deletions.was": ("was {status}", "삭제 당시 {status}"),
    "cli.deletions.by": ("deleted by {who}", "삭제한 사람 {who}"),
    "cli.deletions.no_reason": ("no reason given", "사유 없음"),
    "cli.threads.checkpoints.one": ("{count} checkpoint", "체크포인트 {count}개"),
    "cli.threads.checkpoints.other": ("{count} checkpoints", "체크포인트 {count}개"),
    "cli.inbox.none_overdue": ("nothing is overdue", "기한이 지난 항목이 없습니다"),
    "cli.inbox.none_waiting": ("nothing is waiting for a human", "사람을 기다리는 항목이 없습니다"),
    "cli.resume.both": (
        "give --interrupt ID (one question) or --all (every one), not both",
        "--interrupt ID (질문 하나)와 --all (모든 질문) 중 하나만 주세요",
    ),
    "cli.delete.no_terminal": (
        "refusing to delete without --yes (not on a terminal)",
        "터미널이 아니어서 --yes 없이는 삭제하지 않습니다",
    ),
    "cli.delete.prompt": (
        "type the thread id to delete it ({thread}): ",
        "삭제하려면 스레드 id를 입력하세요 ({thread}): ",
    ),
    "cli.delete.not_confirmed": ("not confirmed; nothing deleted", "확인되지 않아 아무것도 삭제하지 않았습니다"),
    "cli.delete.done": ("deleted thread {thread}", "스레드 {thread:을/를} 삭제했습니다"),
    "cli.inspect.checkpoint": (
        "step {step}  source {source}  id {checkpoint}  parent {parent}  next {next}",
        "스텝 {step}  출처 {source}  id {checkpoint}  부모 {parent}  다음 {next}",
    ),
    "cli.inspect.state": ("  state: {state}", "  상태: {state}"),
    "cli.inspect.write": (
        "    write  task {task}  {channel} = {value}",
        "    쓰기  태스크 {task}  {channel} = {value}",
    ),
    "cli.inspect.counts": ("checkpoints {checkpoints}, writes {writes}", "체크포인트 {checkpoints}개, 쓰기 {writes}개"),
    # --- explorer: graph, diff, rerun
    "cli.help.graph": (
        "print a thread's parent-chained checkpoint graph",
        "스레드의 부모로 이어진 체크포인트 그래프 출력",
    ),
    "cli.help.graph.json": (
        "the chain as JSON (what the explorer's figure draws)",
        "체크포인트 사슬을 JSON으로 (탐색기 그림이 그리는 것)",
    ),
    "cli.help.diff": (
        "what a checkpoint changed: keys added, changed and removed, appends, and the writes that made it",
        "체크포인트가 바꾼 것: 추가, 변경, 삭제된 키와 덧붙은 항목, 그리고 그것을 만든 쓰기",
    ),
    "cli.help.diff.json": ("the comparison as JSON (see the README)", "비교를 JSON으로 (README 참고)"),
    "cli.help.diff.from": (
        "the checkpoint to compare with (default: --to's parent)",
        "비교 대상 체크포인트 (기본값: --to의 부모)",
    ),
    "cli.help.diff.to": ("the checkpoint compared (default: the head)", "비교할 체크포인트 (기본값: 헤드)"),
    "cli.help.rerun": (
        "re-run a thread from an older checkpoint (a new branch)",
        "예전 체크포인트에서 스레드를 다시 실행 (새 가지)",
    ),
    "cli.help.rerun.checkpoint": ("full checkpoint id (see graph THREAD)", "전체 체크포인트 id (graph THREAD 참고)"),
    "cli.help.rerun.json": ("where the re-run stopped, as JSON", "다시 실행이 멈춘 곳을 JSON으로"),
    "cli.graph.step": ("step", "스텝"),
    "cli.graph.lane": ("lane", "레인"),
    "cli.graph.source": ("source", "출처"),
    "cli.graph.checkpoint_id": ("checkpoint_id", "체크포인트 id"),
    "cli.graph.parent_checkpoint_id": ("parent_checkpoint_id", "부모 체크포인트 id"),
    "cli.graph.writers": ("writers", "쓴 노드"),
    "cli.graph.next": ("next", "다음"),
    "cli.graph.flags": ("flags", "표시"),
    "cli.graph.flag.head": ("head", "헤드"),
    "cli.graph.flag.waiting": ("waiting", "대기 중"),
    "cli.graph.total": ("{checkpoints}, {lanes}", "{checkpoints}, {lanes}"),
    "cli.graph.checkpoints.one": ("{count} checkpoint", "체크포인트 {count}개"),
    "cli.graph.checkpoints.other": ("{count} checkpoints", "체크포인트 {count}개"),
    "cli.graph.lanes.one": ("{count} lane", "레인 {count}개"),
    "cli.graph.lanes.other": ("{count} lanes", "레인 {count}개"),
    "cli.diff.between": ("thread {thread}: {before} -> {after}", "스레드 {thread}: {before} -> {after}"),
    "cli.diff.empty_state": ("(empty state)", "(빈 상태)"),
    "cli.diff.side": ("{checkpoint} (step {step}, {source})", "{checkpoint} (스텝 {step}, {source})"),
    "cli.diff.relation": ("relation: {relation}", "관계: {relation}"),
    "cli.diff.relation.parent": ("parent", "부모 → 자식"),
    "cli.diff.relation.ancestor": ("ancestor", "같은 줄기의 더 오래된 체크포인트"),
    "cli.diff.relation.descendant": ("descendant", "같은 줄기의 더 나중 체크포인트"),
    "cli.diff.relation.same": ("same", "같은 체크포인트"),
    "cli.diff.relation.branches": ("branches, common ancestor {ancestor}", "다른 가지, 공통 조상 {ancestor}"),
    "cli.diff.relation.unrelated": ("unrelated", "공통 조상 없음"),
    "cli.diff.no_changes": ("no changes", "바뀐 것이 없습니다"),
    "cli.diff.kind.added": ("added", "추가"),
    "cli.diff.kind.changed": ("changed", "변경"),
    "cli.diff.kind.removed": ("removed", "삭제"),
    "cli.diff.messages.one": ("+{count} message", "메시지 +{count}개"),
    "cli.diff.messages.other": ("+{count} messages", "메시지 +{count}개"),
    "cli.diff.items.one": ("+{count} item", "항목 +{count}개"),
    "cli.diff.items.other": ("+{count} items", "항목 +{count}개"),
    "cli.diff.left_out.one": (
        "writes of the {count} older step on the way are not listed",
        "그 앞 단계 {count}개의 쓰기는 나열하지 않습니다",
    ),
    "cli.diff.left_out.other": (
        "writes of the {count} older steps on the way are not listed",
        "그 앞 단계 {count}개의 쓰기는 나열하지 않습니다",
    ),
    "cli.diff.writes": (
        "writes ({count}), by the checkpoint they produced:",
        "쓰기 {count}개, 만든 체크포인트별:",
    ),
    "cli.diff.no_writes": ("writes: none", "쓰기: 없음"),
    # --- refund: ledger
    "cli.help.ledger": (
        "list refund payouts (requested and paid side by side)",
        "환불 지급 내역 (요청 금액과 지급 금액을 나란히)",
    ),
    "cli.help.ledger.audit": (
        "list every refund case instead, paid or not",
        "지급 여부와 관계없이 모든 환불 건을 대신 나열합니다",
    ),
    "cli.help.ledger.json": ("the rows as JSON", "행을 JSON으로"),
    "cli.ledger.none": ("no payouts", "지급 내역이 없습니다"),
    "cli.ledger.none_audit": ("no refund cases", "환불 건이 없습니다"),
    "cli.ledger.requested": ("requested {amount}", "요청 {amount}"),
    "cli.ledger.executed": ("executed {amount}", "지급 {amount}"),
    "cli.ledger.paid": ("paid {amount}", "지급 {amount}"),
    "cli.ledger.by": ("by {approver}", "승인자 {approver}"),
    "cli.ledger.repeats": ("repeat attempts {count}", "반복 시도 {count}회"),
    "cli.ledger.amount": ("{amount}", "{amount}원"),
    "cli.ledger.deletion": (
        "was {status}, deleted by {who} at {when}: {reason}",
        "삭제 당시 {status}, 삭제한 사람 {who}, 삭제 시각 {when}: {reason}",
    ),
    # --- decide
    "cli.help.decide": (
        "approve or reject several waiting refund questions, each checked and reported on its own",
        "기다리는 환불 질문 여러 개를 승인하거나 거절합니다. 하나씩 따로 확인하고 결과를 알려 줍니다",
    ),
    "cli.help.decide.items": (
        "THREAD (its only question) or THREAD:INTERRUPT_ID",
        "THREAD(질문이 하나일 때) 또는 THREAD:INTERRUPT_ID",
    ),
    "cli.help.decide.action": ("the decision for every item", "모든 항목에 내릴 결정"),
    "cli.help.decide.approver": ("who decides", "결정하는 사람"),
    "cli.help.decide.note": ("optional note for every item", "모든 항목에 붙일 메모 (선택)"),
    "cli.help.decide.json": ("each item's result as JSON", "항목별 결과를 JSON으로"),
    "cli.decide.paid": ("paid", "지급됨"),
    "cli.decide.rejected": ("rejected", "거절됨"),
    "cli.decide.waiting": ("waiting", "대기 중"),
    "cli.decide.refused": ("refused", "받아들여지지 않음"),
    "cli.decide.already decided": ("already decided", "이미 결정됨"),
    "cli.decide.busy": ("busy", "다른 작업 중"),
    "cli.decide.failed": ("failed", "실패"),
    # --- timeline
    "cli.help.timeline": (
        "a thread's node timeline with its parallelism statistics",
        "스레드의 노드 타임라인과 병렬성 통계",
    ),
    "cli.help.timeline.run": (
        "only this run id (default: every run of the thread)",
        "이 실행 id만 (기본값: 스레드의 모든 실행)",
    ),
    "cli.help.timeline.json": ("rows, supersteps and runs as JSON", "행, 슈퍼스텝, 실행을 JSON으로"),
    "cli.help.timeline.csv": (
        "START/END lines (subagent_log.csv columns first)",
        "START/END 행 (subagent_log.csv의 열이 먼저)",
    ),
    "cli.timeline.no_run": (
        "thread {thread} has no run {run}; its runs: {known}",
        "스레드 {thread}에는 실행 {run:이/가} 없습니다. 이 스레드의 실행: {known}",
    ),
    "cli.timeline.none": ("none", "없음"),
    "cli.timeline.no_calls": ("no node calls logged for this thread", "이 스레드에는 기록된 노드 호출이 없습니다"),
    "cli.timeline.open": (" (no end logged)", " (끝 미기록)"),
    "cli.timeline.calls": ("node calls ({count}; start times UTC)", "노드 호출 {count}건 (시작 시각은 UTC)"),
    "cli.timeline.supersteps": ("supersteps", "슈퍼스텝"),
    "cli.timeline.runs": ("runs", "실행"),
    "cli.timeline.col.start": ("start", "시작"),
    "cli.timeline.col.run": ("run", "실행"),
    "cli.timeline.col.step": ("step", "스텝"),
    "cli.timeline.col.node": ("node", "노드"),
    "cli.timeline.col.label": ("label", "레이블"),
    "cli.timeline.col.duration": ("duration", "소요 시간"),
    "cli.timeline.col.status": ("status", "상태"),
    "cli.timeline.col.error": ("error", "오류"),
    "cli.timeline.col.tasks": ("tasks", "태스크"),
    "cli.timeline.col.wall": ("wall", "벽시계"),
    "cli.timeline.col.summed": ("summed", "합계"),
    "cli.timeline.col.speedup": ("speed-up", "속도 향상"),
    "cli.timeline.col.efficiency": ("efficiency", "효율"),
    # A run's efficiency is that of its parallel supersteps together, as the Timeline page's whole-run row and
    # comparison give it: its calls' speed-up over all its calls would mostly count its sequential steps.
    "cli.timeline.col.parallel_efficiency": ("efficiency of parallel supersteps", "병렬 슈퍼스텝 효율"),
    "cli.timeline.col.nodes": ("nodes", "노드"),
    "cli.timeline.col.started": ("started", "시작 시각"),
    "cli.timeline.col.supersteps": ("supersteps", "슈퍼스텝"),
    "cli.timeline.col.errors": ("errors", "오류"),
    "cli.timeline.col.interrupted": ("interrupted", "인터럽트"),
    "cli.timeline.col.open": ("open", "미종료"),
    "cli.timeline.status.ok": ("ok", "정상"),
    "cli.timeline.status.error": ("error", "오류"),
    "cli.timeline.status.interrupted": ("interrupted", "인터럽트"),
    "cli.timeline.status.running": ("running", "실행 중"),
    "cli.duration.milliseconds": ("{value} ms", "{value}ms"),
    "cli.duration.seconds": ("{value} s", "{value}초"),
    "cli.duration.minutes": ("{minutes} min {seconds} s", "{minutes}분 {seconds}초"),
    "cli.duration.hours": ("{hours} h {minutes} min", "{hours}시간 {minutes}분"),
    # --- migrate
    "cli.help.migrate": (
        "copy a SQLite save file into a PostgreSQL database",
        "SQLite 저장 파일을 PostgreSQL 데이터베이스로 복사",
    ),
    "cli.help.migrate.from": ("the SQLite file to copy", "복사할 SQLite 파일"),
    "cli.help.migrate.to": (
        "the PostgreSQL database (a postgresql:// URL)",
        "PostgreSQL 데이터베이스 (postgresql:// URL)",
    ),
    "cli.help.migrate.json": ("the counts as JSON", "개수를 JSON으로"),
    "cli.db.missing": (
        "no database at {path}: check --db or HITL_DB (only run, serve and the dashboard make a new one)",
        "{path}에 데이터베이스가 없습니다. --db나 HITL_DB를 확인하세요(새 데이터베이스는 run, serve와 대시보드만 "
        "만듭니다)",
    ),
    "cli.migrate.no_file": ("no SQLite file at {path}", "{path}에 SQLite 파일이 없습니다"),
    "cli.migrate.not_postgres": ("must be a postgresql:// URL", "postgresql:// URL이어야 합니다"),
    "cli.migrate.copied.one": ("copied {count} thread to {target}", "스레드 {count}개를 {target}에 복사했습니다"),
    "cli.migrate.copied.other": ("copied {count} threads to {target}", "스레드 {count}개를 {target}에 복사했습니다"),
    "cli.migrate.row": (
        "  {table}  source {source}  target {target}  ok",
        "  {table}  원본 {source}  대상 {target}  일치",
    ),
    # --- serve
    "cli.help.serve": (
        "serve the HTTP API (the lecture planner's /generate, LangGraph's API)",
        "HTTP API 서버 실행 (강의 계획의 /generate, LangGraph의 API)",
    ),
    "cli.help.serve.host": ("address to listen on (default {host})", "들을 주소 (기본값 {host})"),
    "cli.help.serve.port": ("port (default {port})", "포트 (기본값 {port})"),
    "cli.serve.bad_port": (
        "must be a port number from 1 to 65535; got {value}",
        "1부터 65535까지의 포트 번호여야 합니다. 입력값: {value}",
    ),
    "cli.serve.no_token": (
        "refusing to listen on {host} without a token: set HITL_API_TOKEN or give tokens in the roles file (every "
        "request then needs 'Authorization: Bearer <token>'), or listen on 127.0.0.1",
        "토큰 없이는 {host}에서 듣지 않습니다. HITL_API_TOKEN을 설정하거나 역할 파일에 토큰을 주세요(그러면 모든 요청에 "
        "'Authorization: Bearer <token>'이 필요합니다). 아니면 127.0.0.1에서 들으세요",
    ),
    "cli.serve.serving": (
        "serving http://{address} (docs at /docs, token {token})",
        "http://{address}에서 서비스 중 (문서는 /docs, 토큰 {token})",
    ),
    "cli.serve.token.api": (
        "on (Authorization: Bearer $HITL_API_TOKEN)",
        "켜짐 (Authorization: Bearer $HITL_API_TOKEN)",
    ),
    "cli.serve.token.api_or_roles": (
        "on (Authorization: Bearer $HITL_API_TOKEN, or a roles-file token)",
        "켜짐 (Authorization: Bearer $HITL_API_TOKEN 또는 역할 파일의 토큰)",
    ),
    "cli.serve.token.roles": ("on (a roles-file token)", "켜짐 (역할 파일의 토큰)"),
    "cli.serve.token.off": ("off (loopback only)", "꺼짐 (루프백에서만)"),
    "cli.serve.notifying": ("delivering notifications: {channels}", "알림 전달 중: {channels}"),
    "cli.serve.warning": ("warning: {problem}", "경고: {problem}"),
    "cli.serve.cannot_listen": ("cannot listen on {address}", "{address}에서 들을 수 없습니다"),
    "cli.serve.cannot_listen.why": ("cannot listen on {address}: {why}", "{address}에서 들을 수 없습니다: {why}"),
    # --- roles and token-hash
    "cli.help.token_hash": (
        "print the roles-file entry of an API token (read from stdin)",
        "HTTP 접근 토큰의 역할 파일 항목 출력 (토큰은 표준 입력에서 읽음)",
    ),
    "cli.help.token_hash.new": (
        "make a new random token (printed on stderr)",
        "새 무작위 토큰을 만듭니다 (표준 오류에 출력)",
    ),
    "cli.help.token_hash.label": ("the entry's name under [tokens]", "[tokens] 아래 항목의 이름"),
    "cli.help.token_hash.email": (
        "the email the token acts for (its role comes from [users])",
        "토큰이 대신하는 이메일 (역할은 [users]에서 정해짐)",
    ),
    "cli.help.roles": (
        "check the roles file and list who has which role",
        "역할 파일을 확인하고 누가 어떤 역할인지 나열",
    ),
    "cli.help.roles.file": (
        "the roles file (default: HITL_ROLES_FILE or .streamlit/roles.toml)",
        "역할 파일 (기본값: HITL_ROLES_FILE 또는 .streamlit/roles.toml)",
    ),
    "cli.token.stdin": (
        'give the token on standard input, e.g. printf %s "$TOKEN" | ... token-hash',
        '토큰을 표준 입력으로 주세요. 예: printf %s "$TOKEN" | ... token-hash',
    ),
    "cli.token.new": (
        "token (give it to its owner; it is not stored anywhere): {token}",
        "토큰 (주인에게 전해 주세요. 어디에도 저장되지 않습니다): {token}",
    ),
    "cli.token.bad_email": (
        "must be an email address, e.g. kim@example.com; got {value}",
        "이메일 주소여야 합니다(예: kim@example.com). 입력값: {value}",
    ),
    "cli.token.bad_label": (
        "cannot be written as one roles-file entry: {value}",
        "역할 파일 항목 하나로 쓸 수 없습니다: {value}",
    ),
    "cli.roles.none": (
        "no roles file (looked for {path}; HITL_ROLES_FILE names another)",
        "역할 파일이 없습니다 ({path}에서 찾았습니다. 다른 파일은 HITL_ROLES_FILE로 지정합니다)",
    ),
    "cli.roles.summary": ("{source}: {people}, {tokens}", "{source}: {people}, {tokens}"),
    "cli.roles.people.one": ("{count} person", "사람 {count}명"),
    "cli.roles.people.other": ("{count} people", "사람 {count}명"),
    "cli.roles.tokens.one": ("{count} API token", "HTTP 접근 토큰 {count}개"),
    "cli.roles.tokens.other": ("{count} API tokens", "HTTP 접근 토큰 {count}개"),
    "cli.roles.user": ("  {email}: {role}", "  {email}: {role}"),
    "cli.roles.limit": ("  {email}: {role}, limit {limit} KRW", "  {email}: {role}, 한도 {limit}원"),
    "cli.role.viewer": ("viewer", "열람자"),
    "cli.role.approver": ("approver", "승인자"),
    "cli.role.senior_approver": ("senior_approver", "선임 승인자"),
    "cli.role.admin": ("admin", "관리자"),
    # --- notify
    "cli.help.notify": (
        "deliver notifications (--once, --watch) or show their --status",
        "알림 전달 (--once, --watch) 또는 상태 보기 (--status)",
    ),
    "cli.help.notify.once": (
        "record the events found now, send what is due, exit (3 if a send failed)",
        "지금 찾은 이벤트를 기록하고, 보낼 때가 된 것을 보낸 뒤 끝냅니다 (보내기에 실패하면 종료 코드 3)",
    ),
    "cli.help.notify.watch": ("keep delivering until stopped", "멈출 때까지 계속 전달합니다"),
    "cli.help.notify.status": (
        "channels, counts and failing events (exit 3 if any)",
        "채널, 개수, 실패 중인 이벤트 (하나라도 있으면 종료 코드 3)",
    ),
    "cli.help.notify.dismiss": (
        "stop trying a failing event, or stop listing its mail that some recipients refused (its id from --status)",
        "실패 중인 이벤트를 그만 시도하거나, 받는 사람 일부가 거부한 그 메일을 더는 목록에 보이지 않습니다"
        " (id는 --status에서)",
    ),
    "cli.help.notify.interval": (
        "seconds between two passes of --watch (default {seconds})",
        "--watch가 두 번 확인하는 사이의 초 (기본값 {seconds})",
    ),
    "cli.help.notify.json": ("--status as JSON", "--status를 JSON으로"),
    "cli.notify.webhook": ("webhook: {host} (HITL_NOTIFY_WEBHOOK)", "웹훅: {host} (HITL_NOTIFY_WEBHOOK)"),
    "cli.notify.email": (
        "email: {address} from {sender} to {to}",
        "이메일: {address}, 보내는 사람 {sender}, 받는 사람 {to}",
    ),
    "cli.notify.approvers": ("the approvers of the roles file", "역할 파일의 승인자"),
    "cli.notify.no_channel": (
        "no channel: set {webhook} or {smtp}",
        "채널 없음: {webhook} 또는 {smtp:을/를} 설정하세요",
    ),
    "cli.notify.counts": (
        "delivered {delivered}, pending {pending}, failing {failing}, dismissed {dismissed}",
        "전달됨 {delivered}, 대기 {pending}, 실패 중 {failing}, 시도 중단 {dismissed}",
    ),
    "cli.notify.failing.one": (
        "  {event} ({channel}): {count} attempt, next at {when}: {error}",
        "  {event} ({channel}): 시도 {count}회, 다음 시도 {when}: {error}",
    ),
    "cli.notify.failing.other": (
        "  {event} ({channel}): {count} attempts, next at {when}: {error}",
        "  {event} ({channel}): 시도 {count}회, 다음 시도 {when}: {error}",
    ),
    "cli.notify.refused": (
        "  {event} ({channel}), sent at {when}: {error}",
        "  {event} ({channel}), {when}에 보냄: {error}",
    ),
    "cli.notify.once_refused": (
        "{count} sent with some recipients refused by the mail server (notify --status lists whom)",
        "{count}건은 보냈지만 메일 서버가 받는 사람 일부를 거부했습니다 (notify --status에서 누구인지 봅니다)",
    ),
    "cli.notify.no_event": (
        "{event} is neither a failing event nor one whose mail some recipients refused: notify --status lists both",
        "{event:은/는} 실패 중인 이벤트도, 받는 사람 일부가 거부한 메일의 이벤트도 아닙니다. notify --status로 둘 다"
        " 볼 수 있습니다",
    ),
    "cli.notify.dismissed": ("dismissed {event}: it is no longer tried", "{event}: 더 이상 시도하지 않습니다"),
    "cli.notify.dismissed_refused": (
        "dismissed {event}: its mail that some recipients refused is no longer listed (it was sent to the others)",
        "{event}: 받는 사람 일부가 거부한 메일을 더는 목록에 보이지 않습니다 (나머지에게는 보냈습니다)",
    ),
    "cli.notify.not_configured": (
        "no channel is configured: set it or {smtp}",
        "설정된 채널이 없습니다. 이 설정이나 {smtp:을/를} 설정하세요",
    ),
    "cli.notify.once": (
        "recorded {recorded}, sent {sent}, failed {failed}, removed {removed}",
        "기록 {recorded}, 전송 {sent}, 실패 {failed}, 삭제 {removed}",
    ),
    "cli.notify.watching": (
        "delivering notifications every {seconds} s; {channels}",
        "{seconds}초마다 알림을 전달합니다. {channels}",
    ),
    "cli.notify.bad_interval": ("must be a number of seconds; got {value}", "초 단위 숫자여야 합니다. 입력값: {value}"),
    "cli.notify.interval_range": (
        "must be from 0.05 to 60 seconds; got {value}",
        "0.05초에서 60초 사이여야 합니다. 입력값: {value}",
    ),
}
