"""Strings of the agents layer itself: bad-input messages and thread statuses, ``{key: (english, korean)}``.

Each is the template of an :class:`agents.texts.Text`; the dashboard merges them
into its catalogue, so an error or an inbox reason is shown in the reader's language.
"""

from agents.db_strings import STRINGS as DB_STRINGS
from agents.identity_strings import STRINGS as IDENTITY_STRINGS
from agents.settings_strings import STRINGS as SETTINGS_STRINGS

#: The product's Korean words for the terms people meet on every page, and the words that must not
#: stand in for them (``tests/dashboard/test_korean_wording.py`` holds the whole catalogue to it):
#: ``{english term: (korean word, words not to use for it)}``.
GLOSSARY: dict[str, tuple[str, tuple[str, ...]]] = {
    # A refund request, as the refund lesson counts it: 건 (건 번호 for its id, "3건" for three of them).
    "case": ("건", ("사례", "케이스")),
    # The list of work waiting for a person; it is a queue, not mail.
    "inbox": ("대기 목록", ("받은 편지함", "편지함")),
    # A value read back from the save file's bytes by the serializer; nothing is secret.
    "decoded": ("디코딩", ("해독",)),
    # A person's decision not to pay or not to save: always 거절.
    "reject": ("거절", ("거부",)),
    # The robot's outcome when the answer is not exactly `yes`: 거부 (the spec's 실행 거부됨). A form
    # or answer the product does not take is "받아들여지지 않음", never 거절, so 거절 stays a decision.
    "refused": ("거부", ("거절",)),
    # A thread whose run has ended, as the status shows it; explanations use the same word.
    "done": ("완료", ()),
}

STRINGS: dict[str, tuple[str, str]] = {
    "error.field": ("{field}: {message}", "{field}: {message}"),
    "error.no_thread": (
        "thread_id: no thread named {thread} in the database",
        "thread_id: 데이터베이스에 {thread:이라는/라는} 스레드가 없습니다",
    ),
    "error.no_thread_named": (
        "no thread named {thread} in the database",
        "데이터베이스에 {thread:이라는/라는} 스레드가 없습니다",
    ),
    "error.not_waiting": (
        "thread_id: {thread} is not waiting for an answer; nothing was changed",
        "thread_id: {thread:은/는} 답을 기다리고 있지 않습니다. 아무것도 바뀌지 않았습니다",
    ),
    "error.not_waiting.where": (
        "thread_id: {thread} is not waiting for an answer ({where}); nothing was changed",
        "thread_id: {thread:은/는} 답을 기다리고 있지 않습니다({where}). 아무것도 바뀌지 않았습니다",
    ),
    # The HTTP API's refusals of what a thread made by ``threads.create`` cannot do yet, and of a history's
    # ``checkpoint`` that this server cannot honour (``agents.api.threads``).
    "api.error.not_run_yet": (
        "thread_id: {thread} has not run yet, so it has no state to update; start a run on it first"
        " (runs.wait, runs.create or runs.stream with its input)",
        "thread_id: {thread:은/는} 아직 실행되지 않아 바꿀 상태가 없습니다. 먼저 입력과 함께 실행을 시작하세요"
        " (runs.wait, runs.create 또는 runs.stream)",
    ),
    "api.error.history_namespace": (
        "must be empty: the history is the root graph's (no agent has a subgraph); got {namespace}",
        "비어 있어야 합니다. 기록은 루트 그래프의 것입니다(하위 그래프가 있는 에이전트는 없습니다). "
        "받은 값: {namespace}",
    ),
    "api.error.history_thread": (
        "names thread {named}, not {thread}; leave it out or name this thread",
        "{thread:이/가} 아니라 스레드 {named:을/를} 가리킵니다. 빼거나 이 스레드를 적으세요",
    ),
    # Run and search options LangGraph's server honours and this one cannot (``agents.api.run_context``,
    # ``agents.api.threads``): refused, never dropped unseen.
    "api.error.webhook": (
        "is not supported: this server makes no outbound calls; leave it out and follow the run with"
        " runs.join, runs.join_stream or runs.get",
        "지원하지 않습니다. 이 서버는 밖으로 요청을 보내지 않습니다. 빼고 runs.join, runs.join_stream 또는"
        " runs.get으로 실행을 지켜보세요",
    ),
    "api.error.after_seconds": (
        "is not supported: a run starts at once (0 or none); got {got}",
        "지원하지 않습니다. 실행은 바로 시작합니다(0 또는 없음). 받은 값: {got}",
    ),
    "api.error.extract": (
        "is not supported: a search answers whole threads (select chooses their fields); leave it out",
        "지원하지 않습니다. 검색은 스레드를 통째로 돌려줍니다(필드는 select로 고릅니다). 빼세요",
    ),
    "api.error.select": (
        "names no field of a thread: {named}; the fields are {fields}",
        "스레드의 필드가 아닙니다: {named}. 필드: {fields}",
    ),
    # A run's own checkpoint metadata and LangGraph's step limit (``agents.runs.core.RunOptions``).
    "error.own_metadata_key": (
        "{key} is written by the run itself (the agent, its run and its batch); use another key",
        "{key:은/는} 실행이 직접 적는 키입니다(에이전트, 실행, 일괄 처리). 다른 키를 쓰세요",
    ),
    "error.recursion_limit": (
        "must be a whole number of steps, 1 or more; got {got}",
        "1 이상의 단계 수(정수)여야 합니다. 받은 값: {got}",
    ),
    # A run's ``checkpoint`` (``agents.api.run_target``): a start names the thread's head, or no checkpoint.
    "api.error.older_checkpoint": (
        "checkpoint_id: {checkpoint} is an older checkpoint of thread {thread}, whose head is {head}; a run with"
        " input starts at the head (name the head, or no checkpoint). To go on from an older checkpoint, re-run"
        " from it (a run without input, with this checkpoint_id) or fork it (threads.update_state at it)",
        "checkpoint_id: 체크포인트 {checkpoint:은/는} 스레드 {thread}의 이전 체크포인트이고, 헤드는 {head}입니다."
        " 입력이 있는 실행은 헤드에서 시작합니다(헤드를 적거나 체크포인트를 빼세요). 이전 체크포인트에서 이어 가려면"
        " 그 체크포인트에서 다시 실행하거나(입력 없이 이 checkpoint_id로 실행) 포크하세요(그 체크포인트에서"
        " threads.update_state)",
    ),
    "api.error.checkpoint_if_match": (
        "names checkpoint {checkpoint}, but If-Match names {seen}; name one head",
        "체크포인트 {checkpoint:을/를} 가리키지만 If-Match는 {seen:을/를} 가리킵니다. 헤드 하나만 적으세요",
    ),
    # Agent Inbox's accept of a question answered by someone else after Agent Inbox loaded the thread
    # (``agents.api.run_target.check_inbox_accept``): the accept carries what it showed, which is not asked now.
    "api.error.inbox_answered_meanwhile": (
        "the question Agent Inbox showed was answered by someone else after it loaded the thread: the accept is"
        " for {name} {accepted}, but the question waiting first now has {name} {asked} ({question}). Nothing was"
        " changed; reload the thread and decide again",
        "Agent Inbox가 스레드를 불러온 뒤 다른 사람이 그 질문에 이미 답했습니다. 수락한 값은 {name} {accepted}인데"
        " 지금 맨 앞에서 기다리는 질문의 값은 {name} {asked}입니다({question}). 아무것도 바뀌지 않았습니다."
        " 스레드를 새로 고친 뒤 다시 결정하세요",
    ),
    # A run's ``multitask_strategy`` (``agents.api.run_routes``): LangGraph's four are taken; none is honoured
    # on a busy thread, where this server refuses every run (LangGraph's server queues one by default).
    "api.error.multitask_strategy": (
        "must be one of 'reject', 'interrupt', 'rollback' or 'enqueue'; got {value}",
        "'reject', 'interrupt', 'rollback', 'enqueue' 중 하나여야 합니다. 받은 값: {value}",
    ),
    "api.error.thread_running": (
        "thread {thread} is being changed right now (by a run of this server, or by another session or process),"
        " and this server does not queue, interrupt or roll back a running run ({asked}); nothing was done."
        " Wait for that run to end (runs.join with its run id) and send this again",
        "스레드 {thread:은/는} 지금 바뀌는 중입니다(이 서버의 실행, 또는 다른 세션이나 프로세스). 이 서버는 실행 중인"
        " 실행을 대기열에 넣거나 중단하거나 되돌리지 않습니다({asked}). 아무것도 하지 않았습니다. 그 실행이 끝나기를"
        " 기다렸다가(그 실행 id로 runs.join) 다시 보내세요",
    ),
    "api.error.thread_running.asked": (
        "multitask_strategy {strategy} was asked",
        "요청한 multitask_strategy: {strategy}",
    ),
    "api.error.thread_running.default": (
        "no multitask_strategy was given: this server's default is 'reject', LangGraph's server's 'enqueue'",
        "multitask_strategy 없음: 이 서버의 기본값은 'reject', LangGraph 서버의 기본값은 'enqueue'",
    ),
    # ``runs.cancel`` of a run that has ended: 404, as LangGraph's server answers it.
    "api.error.run_ended": (
        "run_id: run {run} has already ended ({status}); there is nothing to cancel",
        "run_id: 실행 {run:은/는} 이미 끝났습니다({status}). 취소할 것이 없습니다",
    ),
    # ``GET /ok`` and ``python -m agents serve``'s start on a database opened read-only (``agents.api.app``).
    "api.health.read_only": (
        "the database cannot be written: {path} was opened read-only, so every run, answer, state update, new"
        " thread and delete is refused (503); make it writable, then start the server again",
        "데이터베이스에 쓸 수 없습니다. {path:은/는} 읽기 전용으로 열렸으므로 실행, 답, 상태 변경, 새 스레드, 삭제는"
        " 모두 받아들여지지 않습니다(503). 쓸 수 있게 한 뒤 서버를 다시 시작하세요",
    ),
    # ``GET /ok`` on a database a write would be refused by now (``agents.db.Store.cannot_write``): a SQLite file
    # that stopped being writable after the server opened it, a PostgreSQL server or role that cannot write.
    "api.health.not_writable.file": (
        "the database can no longer be written: {path} lost its write permission (or was made immutable, or"
        " moved) after the server opened it; a change may fail when SQLite next writes the file itself, and a"
        " restart opens it read-only; make it writable again",
        "데이터베이스에 더 이상 쓸 수 없습니다. 서버가 연 뒤 {path:이/가} 쓰기 권한을 잃었습니다(또는 변경 불가로"
        " 설정되었거나 옮겨졌습니다). SQLite가 다음에 파일 자체에 쓸 때 변경이 실패할 수 있고, 다시 시작하면 읽기"
        " 전용으로 열립니다. 다시 쓸 수 있게 하세요",
    ),
    "api.health.not_writable.server": (
        "the database cannot be written: the PostgreSQL server of {path} takes no writes (a standby, or"
        " default_transaction_read_only is on), so every run, answer, state update and delete fails",
        "데이터베이스에 쓸 수 없습니다. {path}의 PostgreSQL 서버가 쓰기를 받지 않으므로(대기 서버이거나"
        " default_transaction_read_only가 켜져 있음) 실행, 답, 상태 변경, 삭제가 모두 실패합니다",
    ),
    "api.health.not_writable.grants": (
        "the database cannot be written: the role of {path} may not insert into, update or delete from {tables},"
        " so the changes that write there fail; grant it those privileges again",
        "데이터베이스에 쓸 수 없습니다. {path}의 역할은 {tables}에 행을 넣거나 바꾸거나 지울 권한이 없으므로 그곳에"
        " 쓰는 변경은 실패합니다. 그 권한을 다시 주세요",
    ),
    "error.several_waiting": (
        "{count} questions are waiting in {thread}; answer one by its interrupt id (--interrupt ID; in the API"
        " command.resume = {{ID: answer}}) or every one with the same answer (--all). Waiting: {ids}",
        "{thread}에서 질문 {count}개가 기다립니다. interrupt id로 하나씩 답하거나 (--interrupt ID; API에서는"
        " command.resume = {{ID: 답}}) 같은 답으로 모두 답하세요 (--all). 대기 중: {ids}",
    ),
    "error.unknown_interrupt": (
        "no question {interrupt} is waiting in {thread}; waiting: {ids}",
        "{thread}에는 기다리는 질문 {interrupt:이/가} 없습니다. 대기 중: {ids}",
    ),
    "error.run_failed": (
        "A step failed in thread {thread} ({kind}: {error}). What finished before it is saved; the thread is in "
        "the inbox, needing attention.",
        "스레드 {thread}에서 단계 하나가 실패했습니다({kind}: {error}). 그 전에 끝난 것은 저장되어 있고, 스레드는 "
        "확인이 필요한 상태로 대기 목록에 있습니다.",
    ),
    "error.runs_next": ("{nodes} runs next", "다음에 {nodes} 실행"),
    # A batch item (``decide``, ``POST /decisions``, the refund queue) naming a thread that asks several questions.
    "batch.several_waiting": (
        "{count} questions are waiting in {thread}; name each one to decide as its own item, THREAD:INTERRUPT_ID: "
        "{items}",
        "{thread}에서 질문 {count}개가 기다립니다. 결정할 질문마다 THREAD:INTERRUPT_ID 형식의 항목으로 적으세요: "
        "{items}",
    ),
    # A batch item naming a question no longer waiting, whose thread's other questions the same batch answered.
    "batch.nothing_else_waiting": (
        "no question {interrupt} is waiting in {thread}; nothing else waits there",
        "{thread}에는 기다리는 질문 {interrupt:이/가} 없습니다. 다른 질문도 기다리지 않습니다",
    ),
    "batch.paid_on_record": (
        "the ledger holds it paid, {amount} KRW; the run then failed: {error}",
        "원장에 {amount}원 지급으로 기록되어 있습니다. 그 뒤 실행이 실패했습니다: {error}",
    ),
    "error.stale": (
        "thread {thread} changed since this form was drawn (checkpoint {seen} → {head}). "
        "Reload to see the current state.",
        "이 양식을 그린 뒤 스레드 {thread:이/가} 바뀌었습니다(체크포인트 {seen} → {head}). "
        "새로 고쳐 현재 상태를 보세요.",
    ),
    "error.required": ("is required", "필수 항목입니다"),
    "error.unknown_field": ("is not a known field; known: {known}", "알 수 없는 항목입니다. 알려진 항목: {known}"),
    "error.choice": ("must be one of {allowed}; got {value}", "{allowed} 중 하나여야 합니다. 입력값: {value}"),
    "error.json_object": ("must be a JSON object, got {kind}", "JSON 객체여야 합니다. 입력값의 형식: {kind}"),
    "error.json_array": ("must be a JSON array, got {kind}", "JSON 배열이어야 합니다. 입력값의 형식: {kind}"),
    "error.empty_thread_id": ("is empty; give a thread id", "비어 있습니다. 스레드 id를 입력하세요"),
    "error.too_long": (
        "is {length} characters long; the limit is {limit}",
        "{length}자입니다. 최대 {limit}자까지 입력할 수 있습니다",
    ),
    "error.thread_id_chars": (
        "may contain only letters, digits and _ . : - and must start with a letter or a digit "
        "(no spaces, quotes, slashes or other symbols); found {char} (U+{code})",
        "글자, 숫자와 _ . : - 만 쓸 수 있고 글자나 숫자로 시작해야 합니다"
        "(공백, 따옴표, 슬래시 등 다른 기호는 안 됩니다). 발견된 문자: {char} (U+{code})",
    ),
    "error.not_utf8": (
        "contains U+{code}, which is not a character (text that is not valid UTF-8, e.g. a lone "
        "surrogate or undecodable bytes)",
        "문자가 아닌 U+{code:이/가} 들어 있습니다(올바른 UTF-8이 아닌 텍스트, 예: 짝 없는 서로게이트나 "
        "UTF-8로 읽을 수 없는 바이트)",
    ),
    "error.not_text": ("must be text, got {kind}", "텍스트여야 합니다. 입력값의 형식: {kind}"),
    # A reject decision's message in LangChain's or Agent Inbox's shape (``agents.hitl_shape``), after ``decisions``:
    # the limit is that of the agent's own answer field the message becomes.
    "error.reject_message_text": (
        "a reject's message must be text, got {kind}",
        "거절 메시지는 텍스트여야 합니다. 입력값의 형식: {kind}",
    ),
    "error.reject_message_long": (
        "a reject's message is {length} characters long; the limit is {limit}",
        "거절 메시지가 {length}자입니다. 최대 {limit}자까지 쓸 수 있습니다",
    ),
    # The first line of a question asked again after its answer was refused (``agents.hitl_shape.description``).
    "hitl.refused_answer": ("The last answer was refused: {error}", "직전 답변은 받아들여지지 않았습니다: {error}"),
    "error.empty": ("is empty", "비어 있습니다"),
    "error.control_char": ("contains a control character (U+{code})", "제어 문자(U+{code})가 들어 있습니다"),
    "error.line_break": (
        "contains a line break (U+{code}); it is one line",
        "줄바꿈 문자(U+{code})가 들어 있습니다. 한 줄로 써야 합니다",
    ),
    "error.number_too_long": (
        "is {length} characters long; no whole number here needs more than 40",
        "{length}자입니다. 여기에 쓰는 정수는 40자를 넘지 않습니다",
    ),
    "error.number_grammar": (
        "must be a whole number written with the digits 0-9, plainly (500000) or grouped by commas "
        "in threes (500,000), without a sign, decimals or spaces inside; got {value}",
        "0-9 숫자로 쓴 정수여야 합니다. 그대로(500000) 또는 세 자리마다 쉼표로(500,000) 쓰고, "
        "부호, 소수점, 중간 공백은 넣지 마세요. 입력값: {value}",
    ),
    "error.number_not_bool": ("must be a whole number, not true/false", "true/false가 아니라 정수여야 합니다"),
    "error.number": ("must be a whole number, got {value}", "정수여야 합니다. 입력값: {value}"),
    "error.number_decimals": (
        "must be a whole number, written without decimals (150000, not 150000.0); got {value}",
        "소수점 없이 쓴 정수여야 합니다(150000.0이 아니라 150000). 입력값: {value}",
    ),
    "error.items_total": (
        "must be the items' total, {total:,} KRW; got {stated:,}",
        "항목 금액의 합계인 {total:,}원이어야 합니다. 입력값: {stated:,}",
    ),
    "error.number_text": (
        'must be a number, not text (500000, not "500,000"); got {value}',
        '텍스트가 아니라 숫자여야 합니다("500,000"이 아니라 500000). 입력값: {value}',
    ),
    "error.number_range": (
        "must be between {minimum:,} and {maximum:,}, got {value:,}",
        "{minimum:,}에서 {maximum:,} 사이여야 합니다. 입력값: {value:,}",
    ),
    "error.json_size": (
        "is {size:,} bytes of JSON; the limit is {limit:,}",
        "JSON이 {size:,}바이트입니다. 최대 {limit:,}바이트입니다",
    ),
    "error.json_depth": ("nests deeper than {depth} levels", "{depth}단계보다 깊이 중첩되어 있습니다"),
    "error.json_syntax": (
        "is not valid JSON ({reason} at position {position})",
        "올바른 JSON이 아닙니다({position}번째 위치: {reason})",
    ),
    # Python's json module's reasons (json.JSONDecodeError.msg), in the reader's language.
    "json.expecting_value": ("Expecting value", "값이 와야 합니다"),
    "json.expecting_name": ("Expecting property name enclosed in double quotes", "큰따옴표로 감싼 키가 와야 합니다"),
    "json.expecting_colon": ("Expecting ':' delimiter", "':' 구분자가 와야 합니다"),
    "json.expecting_comma": ("Expecting ',' delimiter", "',' 구분자가 와야 합니다"),
    "json.unterminated_string": ("Unterminated string starting at", "닫히지 않은 문자열이 시작되는 곳"),
    "json.control_character": ("Invalid control character at", "허용되지 않는 제어 문자"),
    "json.invalid_escape": ("Invalid \\escape", "잘못된 \\ 이스케이프"),
    "json.invalid_unicode_escape": ("Invalid \\uXXXX escape", "잘못된 \\uXXXX 이스케이프"),
    "json.extra_data": ("Extra data", "JSON 값 뒤에 다른 내용이 있습니다"),
    "error.json_int64": (
        "holds a whole number beyond 64 bits; the limit is ±9,223,372,036,854,775,807",
        "64비트를 넘는 정수가 들어 있습니다. 한도는 ±9,223,372,036,854,775,807입니다",
    ),
    "error.json_constant": (
        "holds {name}, which is not a finite number",
        "유한한 수가 아닌 {name:이/가} 들어 있습니다",
    ),
    "error.body_not_utf8": (
        "is not valid UTF-8: byte {offset:,} (0x{byte:02X}) cannot be decoded",
        "올바른 UTF-8이 아닙니다. {offset:,}번째 바이트(0x{byte:02X})를 디코딩할 수 없습니다",
    ),
    "error.json_key": ("has a key that is not text: {key}", "텍스트가 아닌 키가 있습니다: {key}"),
    "error.json_kind": ("holds a {kind}, which is not a JSON value", "JSON 값이 아닌 {kind:이/가} 들어 있습니다"),
    "error.json_encoded_size": (
        "is {size:,} bytes once encoded; the limit is {limit:,}",
        "인코딩하면 {size:,}바이트입니다. 최대 {limit:,}바이트입니다",
    ),
    "error.no_update": ("give at least one state key to change", "바꿀 상태 키를 하나 이상 주세요"),
    "error.unknown_state_key": (
        "is not a state key that can be updated; known: {known}",
        "업데이트할 수 있는 상태 키가 아닙니다. 알려진 키: {known}",
    ),
    "error.other_agent": (
        "thread {thread} belongs to the {owner} agent; pick another id",
        "스레드 {thread:은/는} {owner} 에이전트의 것입니다. 다른 id를 고르세요",
    ),
    "error.thread_exists": (
        "thread {thread} already exists; pick another id",
        "스레드 {thread:이/가} 이미 있습니다. 다른 id를 고르세요",
    ),
    "error.answer_instead": (
        "thread {thread} is waiting for an answer; answer it (resume) instead of continuing it",
        "스레드 {thread:은/는} 답을 기다리고 있습니다. 계속 실행하지 말고 답하세요(resume)",
    ),
    # A new start of a thread that starts over (the robot's) would delete it: refused while it is unfinished.
    "error.start_over_waiting": (
        "thread {thread} is waiting for an answer, and a new start would delete its question unseen;"
        " answer it (python -m agents resume {thread} ANSWER, or its page) or delete it"
        " (python -m agents delete {thread} --yes), then start it again",
        "스레드 {thread:은/는} 답을 기다리고 있어, 새로 시작하면 그 질문이 아무 기록 없이 지워집니다."
        " 먼저 답하거나(python -m agents resume {thread} 답, 또는 해당 페이지) 삭제한 뒤"
        "(python -m agents delete {thread} --yes) 다시 시작하세요",
    ),
    "error.start_over_attention": (
        "thread {thread} is not finished (it needs attention), and a new start would delete it unseen;"
        " run it on (python -m agents continue {thread}) or delete it (python -m agents delete {thread} --yes),"
        " then start it again",
        "스레드 {thread:은/는} 아직 끝나지 않아(확인 필요), 새로 시작하면 아무 기록 없이 지워집니다."
        " 먼저 이어서 실행하거나(python -m agents continue {thread}) 삭제한 뒤"
        "(python -m agents delete {thread} --yes) 다시 시작하세요",
    ),
    # The reason recorded for an unfinished thread deleted by a confirmed start over (the robot page's).
    "deletion.reason.start_over": ("started over", "처음부터 다시 시작함"),
    "error.no_checkpoint": (
        "no checkpoint {checkpoint} in thread {thread}",
        "스레드 {thread}에 체크포인트 {checkpoint:이/가} 없습니다",
    ),
    "error.unknown_agent": (
        "unknown agent {agent}; known: {known}",
        "알 수 없는 에이전트 {agent}. 알려진 에이전트: {known}",
    ),
    # The HTTP API's 401 (``agents.api.security``): no token sent, or one that is not accepted (never repeated).
    "api.error.token_missing": (
        "a bearer token is required: send 'Authorization: Bearer <{named}>' (or the header 'x-api-key: <{named}>')",
        "베어러 토큰이 필요합니다. 'Authorization: Bearer <{named}>' 헤더(또는 'x-api-key: <{named}>' 헤더)를 보내세요",
    ),
    "api.error.token_wrong": (
        "the token sent is not accepted: it is none of this server's tokens; send the right one as "
        "'Authorization: Bearer <{named}>'",
        "보낸 토큰은 받아들여지지 않습니다. 이 서버의 토큰이 아닙니다. 올바른 토큰을 "
        "'Authorization: Bearer <{named}>' 헤더로 보내세요",
    ),
    "api.token.yours": ("your token", "토큰"),
    "age.overdue": ("overdue", "기한 지남"),
    "rights.role.approver_limit": ("approver up to {limit} KRW", "{limit}원까지 승인자"),
    "rights.role.approver": ("approver", "승인자"),
    "rights.role.senior_approver": ("senior approver", "선임 승인자"),
    "rights.role.admin": ("admin", "관리자"),
    "rights.role.viewer": ("viewer", "조회자"),
    "rights.more": ("{count} more", "외 {count}명"),
    "rights.who": ("may decide: {people}", "결정 가능: {people}"),
    "rights.flag": ("no one may decide: {reason}", "결정할 사람 없음: {reason}"),
    "rights.no_limit_covers": (
        "no approver's limit covers {amount} KRW",
        "{amount}원을 한도로 감당하는 승인자가 없습니다",
    ),
    "rights.nobody_listed": (
        "no one in the roles file may approve it (the requester may not approve their own case)",
        "역할 파일에 승인할 수 있는 사람이 없습니다(요청자는 자기 건을 승인할 수 없음)",
    ),
    "rights.escalated": ("escalated to {people} ({reason})", "{people}에게 상신됨 ({reason})"),
    "rights.escalated_nobody": (
        "overdue, and no senior approver may decide it ({reason})",
        "기한이 지났지만 결정할 선임 승인자가 없습니다 ({reason})",
    ),
    "rights.overdue": (
        "waiting {age}, past its {deadline} deadline",
        "{age}째 대기, 기한 {deadline} 지남",
    ),
    # Who deleted a thread when no one was signed in (``agents.deletion_record.deleted_by_words``).
    "deletion.local_operator": ("local operator", "로컬 운영자"),
    "age.waiting": ("waiting {span}", "{span}째 대기"),
    "age.days": ("{days} d {hours} h", "{days}일 {hours}시간"),
    "age.hours": ("{hours} h {minutes} min", "{hours}시간 {minutes}분"),
    "age.minutes": ("{minutes} min", "{minutes}분"),
    "age.seconds": ("{seconds} s", "{seconds}초"),
    # An amount of KRW with its unit: every amount the dashboard shows (``dashboard.formats.amount``) and every
    # amount a notification states (``agents.notify.messages``).
    "format.krw": ("{amount} KRW", "{amount}원"),
    "lifecycle.running": ("a process is running it now", "지금 한 프로세스가 실행하고 있습니다"),
    "lifecycle.error": (
        "a node raised: {error}. Fix the cause, then continue it, or re-run it from an earlier checkpoint",
        "노드에서 오류가 났습니다: {error}. 원인을 고친 뒤 계속 실행하거나, 이전 체크포인트에서 다시 실행하세요",
    ),
    "lifecycle.edited": (
        "its state was edited (update_state) and the run was not continued; continue it to run {nodes}",
        "상태가 편집되었지만(update_state) 실행이 이어지지 않았습니다. 계속 실행하면 {nodes:이/가} 실행됩니다",
    ),
    # The saved state of a run cancelled (the HTTP API's runs.cancel, a stream left with on_disconnect="cancel")
    # and of a run whose process ended is the same: a head with steps left and no error. So the words name both.
    "lifecycle.stopped": (
        "its run stopped before {nodes} finished (it was cancelled, or its process ended); continue it to finish",
        "{nodes:이/가} 끝나기 전에 실행이 멈췄습니다(취소되었거나 프로세스가 끝남). 계속 실행해 마치세요",
    ),
    "lifecycle.foreign_id": (
        "other software saved it under the id {thread}, which the dashboard does not act on ({why}); answer "
        "or continue it with that software, or delete it (python -m agents delete {thread}): that deletes "
        "this thread alone",
        "다른 소프트웨어가 대시보드가 다루지 않는 id {thread}(으)로 저장했습니다({why}). 그 소프트웨어로 "
        "답하거나 계속 실행하거나, 삭제하세요(python -m agents delete {thread}). 이 스레드만 삭제됩니다",
    ),
    "lifecycle.foreign_id.normal_form": (
        "not in Unicode normal form C: the dashboard reads it as {canonical}, another id",
        "유니코드 정규형 C가 아닙니다. 대시보드는 이를 다른 id인 {canonical}(으)로 읽습니다",
    ),
    "error.foreign_thread_id": (
        "thread {thread} was saved by other software under an id the dashboard does not act on ({why}); "
        "nothing was changed. Answer or change it with that software, or delete it",
        "스레드 {thread:은/는} 다른 소프트웨어가 대시보드가 다루지 않는 id로 저장했습니다({why}). "
        "아무것도 바뀌지 않았습니다. 그 소프트웨어로 답하거나 바꾸거나, 삭제하세요",
    ),
    "lifecycle.damaged": (
        "its saved state cannot be read ({error}); delete it (python -m agents delete {thread}), "
        "or restore the file from a backup",
        "저장된 상태를 읽을 수 없습니다({error}). 스레드를 삭제하거나(python -m agents delete {thread}) "
        "백업에서 파일을 복원하세요",
    ),
    "lifecycle.unknown_agent": (
        "it belongs to {agent}, which this dashboard does not run, so whether it finished cannot be told; "
        "open it with the software that made it, or delete it (python -m agents delete {thread})",
        "이 대시보드가 실행하지 않는 {agent}의 스레드라서 끝났는지 알 수 없습니다. "
        "만든 소프트웨어로 열거나 삭제하세요(python -m agents delete {thread})",
    ),
    # update_state refused as a node the agent does not allow (``agents.spec.validate_update``); ``note`` says why
    "error.as_node": (
        "an update cannot be made as {node}; allowed: {allowed}{note}",
        "{node:으로/로}는 업데이트할 수 없습니다. 가능한 노드: {allowed}{note}",
    ),
    # settings refused at start (``agents.settings``, ``agents.settings_values``), each after the setting's name
    "error.setting.whole_number": (
        "must be a whole number from {minimum} to {maximum}; got {value}",
        "{minimum}부터 {maximum}까지의 정수여야 합니다. 입력값: {value}",
    ),
    "error.setting.range": (
        "must be from {minimum} to {maximum}; got {value}",
        "{minimum}부터 {maximum}까지여야 합니다. 입력값: {value}",
    ),
    "error.setting.number": ("must be a number, got {value}", "숫자여야 합니다. 입력값: {value}"),
    "error.setting.finite": (
        "must be a finite number of at least {minimum}, got {value}",
        "{minimum} 이상의 유한한 수여야 합니다. 입력값: {value}",
    ),
    "error.setting.on_off": (
        "must be on or off (1/0, true/false, yes/no); got {value}",
        "켜기나 끄기여야 합니다(1/0, true/false, yes/no). 입력값: {value}",
    ),
    "error.setting.secrets_toml": ("{path} is not valid TOML: {error}", "{path}: 올바른 TOML이 아닙니다: {error}"),
    "error.setting.blank_db": (
        "is blank; give a database file or URL",
        "비어 있습니다. 데이터베이스 파일이나 URL을 주세요",
    ),
    "error.setting.cors_star": (
        "'*' is refused while the API requires a token (HITL_API_TOKEN or roles-file tokens): it would let any web "
        "page send requests with a token its visitor's browser holds; name the origins, e.g. https://inbox.example.com",
        "HTTP API가 토큰을 요구하는 동안(HITL_API_TOKEN 또는 역할 파일의 토큰)에는 '*'를 쓸 수 없습니다. 어느 웹 "
        "페이지든 방문자의 브라우저가 가진 토큰으로 요청을 보낼 수 있게 되기 때문입니다. 출처를 적으세요. "
        "예: https://inbox.example.com",
    ),
    "error.setting.sla_entry": (
        "write agent=duration, e.g. refund=24h,lecture=48h; got {entry}",
        "에이전트=기한 형식으로 쓰세요. 예: refund=24h,lecture=48h. 입력값: {entry}",
    ),
    "error.setting.sla_agent": (
        "no agent named {name}; agents: {agents}",
        "{name:이라는/라는} 에이전트가 없습니다. 에이전트: {agents}",
    ),
    "error.setting.sla_twice": ("{name} is given twice", "{name:이/가} 두 번 주어졌습니다"),
    "error.setting.sla_span": (
        "{name}: a deadline is a whole number above 0 and a unit s, m, h or d; got {span}",
        "{name}: 기한은 0보다 큰 정수와 단위(s, m, h, d 중 하나)로 씁니다. 입력값: {span}",
    ),
    "error.setting.sla_long": (
        "{name}: a deadline is at most {most} of its unit; got {span}",
        "{name}: 기한은 단위마다 최대 {most}입니다. 입력값: {span}",
    ),
    "error.setting.timezone": (
        "not an IANA time zone name (e.g. Asia/Seoul, UTC); got {value}",
        "IANA 시간대 이름이 아닙니다(예: Asia/Seoul, UTC). 입력값: {value}",
    ),
    "error.setting.live_refresh": (
        "must be 0 (off) or at least {minimum}, got {value}",
        "0(끄기)이거나 {minimum} 이상이어야 합니다. 입력값: {value}",
    ),
}
STRINGS.update(DB_STRINGS)  # the refusals of the database, a catalogue of their own
STRINGS.update(SETTINGS_STRINGS)  # the refusals of the settings read at start, a catalogue of their own
STRINGS.update(IDENTITY_STRINGS)  # the refusals of a permission, a catalogue of their own
