"""Strings of the refund agent's page (and its entry on the home page)."""

STRINGS: dict[str, tuple[str, str]] = {
    # What the agent writes (trace lines, its question), in the language the run started in.
    "refund.say.assess": (
        "assess: requested {requested} KRW, threshold {threshold} → {needs} (policy {policy})",
        "assess: 요청 {requested}원, 기준 {threshold}원 → {needs} (정책 {policy})",
    ),
    "refund.say.needs_human": ("needs a human", "사람의 승인 필요"),
    "refund.say.automatic": ("settles automatically", "자동 정산"),
    "refund.say.edited_by": ("{approver} (update_state)", "{approver} (update_state)"),
    "refund.say.amount": ("amount {old} → {new} by {editor}", "금액 {old}원 → {new}원, 변경: {editor}"),
    "refund.say.recorded": (
        "review: {decision} set by update_state, recorded for {approver}; not asking again",
        "review: update_state로 정해진 {decision:을/를} {approver}의 결정으로 기록, 다시 묻지 않음",
    ),
    "refund.say.question": (
        "Refund {case_id} for {customer}: pay {amount} KRW (requested {requested})? approve / reject / edit",
        "환불 {case_id} ({customer}): {amount}원을 지급할까요? (요청 {requested}원) 승인 / 거절 / 금액 수정",
    ),
    "refund.say.note": (" (note: {note})", " (메모: {note})"),
    "refund.say.batch": (" in batch {batch}", " (일괄 결정 {batch})"),
    "refund.say.review": ("review: {decision} by {approver}{note}", "review: {decision}, 결정: {approver}{note}"),
    "refund.say.approve": ("approve", "승인"),
    "refund.say.reject": ("reject", "거절"),
    "refund.say.paid_automatic": (
        "settle: paid {paid} KRW (requested {requested}), settled automatically: at or under the threshold "
        "{threshold} (policy {policy})",
        "settle: {paid}원 지급 (요청 {requested}원), 자동 정산: 기준 {threshold}원 이하 (정책 {policy})",
    ),
    "refund.say.paid": (
        "settle: paid {paid} KRW (requested {requested}), approved by {approver}",
        "settle: {paid}원 지급 (요청 {requested}원), 승인: {approver}",
    ),
    "refund.say.already_paid": (
        "settle: already paid {paid} KRW at {paid_at}; no second payment",
        "settle: {paid_at}에 이미 {paid}원 지급됨, 두 번 지급하지 않음",
    ),
    "refund.say.rejected": ("reject: rejected by {approver}; no payout", "reject: {approver:이/가} 거절, 지급 없음"),
    "refund.error.items_shape": (
        'items must be a JSON array of 1 to 50 objects like {{"item": "A-1", "amount": 300000}}',
        'items는 {{"item": "A-1", "amount": 300000}} 형태의 객체 1~50개로 된 JSON 배열이어야 합니다',
    ),
    # An empty case id or item id (``agents.validation.validate_thread_id`` with the id's own refusal).
    "refund.error.case_id_empty": ("is empty; give a case id", "비어 있습니다. 건 번호를 입력하세요"),
    "refund.error.item_id_empty": (
        "an item's id is empty; give each item an id",
        "항목 id가 비어 있습니다. 항목마다 id를 입력하세요",
    ),
    "refund.error.item_id": (
        "item id {item} is refused (letters, digits and _ . : -, at most {limit})",
        "항목 id {item:은/는} 받을 수 없습니다 (문자, 숫자, _ . : -, 최대 {limit}자)",
    ),
    "refund.error.item_twice": ("item {item} is listed twice", "항목 {item:이/가} 두 번 있습니다"),
    "refund.error.item_amount": (
        "item {item}: the amount must be a whole number from 1 to {limit} KRW",
        "항목 {item}: 금액은 1~{limit}원의 정수여야 합니다",
    ),
    "refund.error.items_total": (
        "the items' total must be at most {limit} KRW",
        "항목 금액의 합계는 {limit}원 이하여야 합니다",
    ),
    "refund.error.amount_or_items": (
        "give either one amount or several items, not both",
        "금액 하나와 여러 항목 중 하나만 주세요",
    ),
    "refund.error.amount_or_items_missing": (
        "one amount, or several items, is required",
        "금액 하나 또는 여러 항목이 필요합니다",
    ),
    "refund.error.items_update": (
        "a refund with items is decided item by item: answer each one by its interrupt id (resume --interrupt)",
        "여러 항목 환불은 항목별로 결정합니다: interrupt id로 각각 답하세요 (resume --interrupt)",
    ),
    "refund.say.assess_items": (
        "assess: {count} items, requested {requested} KRW in total, threshold {threshold} → each item above it"
        " needs a human",
        "assess: 항목 {count}개, 요청 합계 {requested}원, 기준 {threshold}원 → 기준을 넘는 항목은 사람의 승인 필요",
    ),
    "refund.say.item_question": (
        "Refund {case_id} item {item} for {customer}: pay {amount} KRW (requested {requested})?"
        " approve / reject / edit",
        "환불 {case_id} 항목 {item} ({customer}): {amount}원을 지급할까요? (요청 {requested}원) 승인 / 거절 / 금액 수정",
    ),
    # The inbox's reason for a case whose several items wait at once (beside "waiting (2 of 3 items)").
    "refund.say.items_waiting": (
        "Refund {case_id} for {customer}: {count} items wait for a decision ({items}), {amount} KRW together;"
        " approve / reject / edit each",
        "환불 {case_id} ({customer}): 항목 {count}개({items}), 합계 {amount}원이 결정을 기다립니다."
        " 항목마다 승인 / 거절 / 금액 수정",
    ),
    "refund.say.item_paid_automatic": (
        "item {item}: paid {paid} KRW (requested {requested}), settled automatically: at or under the threshold"
        " {threshold}",
        "항목 {item}: {paid}원 지급 (요청 {requested}원), 자동 정산: 기준 {threshold}원 이하",
    ),
    "refund.say.item_paid": (
        "item {item}: paid {paid} KRW (requested {requested}), approved by {approver}{note}",
        "항목 {item}: {paid}원 지급 (요청 {requested}원), 승인: {approver}{note}",
    ),
    "refund.say.item_already_paid": (
        "item {item}: already paid {paid} KRW at {paid_at}; no second payment",
        "항목 {item}: {paid_at}에 이미 {paid}원 지급됨, 두 번 지급하지 않음",
    ),
    "refund.say.item_rejected": (
        "item {item}: rejected by {approver}{note}; no payout",
        "항목 {item}: {approver:이/가} 거절{note}, 지급 없음",
    ),
    "refund.say.items_done": (
        "items: {paid} paid ({total} KRW), {rejected} rejected",
        "항목: {paid}개 지급 ({total}원), {rejected}개 거절",
    ),
    "refund.outcome.partly_paid": ("partly paid", "일부 지급됨"),
    "refund.outcome.paid": ("paid", "지급됨"),
    "refund.outcome.already_paid": ("already paid", "이미 지급됨"),
    "refund.outcome.rejected": ("rejected", "거절됨"),
    "refund.outcome.finished": ("finished", "종료됨"),
    # How a case deleted once a person decided it had ended, in the list of deleted threads.
    "refund.deleted.outcome": ("{outcome} by {approver}{paid}{note}", "{outcome}, 결정: {approver}{paid}{note}"),
    "refund.deleted.paid": (", {amount} KRW paid", ", {amount}원 지급"),
    "refund.error.object": (
        'answer with a JSON object, e.g. {{"action": "approve", "approver": "kim"}}',
        'JSON 객체로 답하세요. 예: {{"action": "approve", "approver": "kim"}}',
    ),
    "refund.error.edit_needs_amount": (
        "is required to edit: give the amount to pay",
        "수정하려면 필요합니다. 지급할 금액을 입력하세요",
    ),
    "refund.error.amount_only_edit": (
        "is only taken with action edit, not {action}",
        "edit 조치에서만 받습니다({action}에서는 받지 않음)",
    ),
    # An edit in LangChain's or Agent Inbox's shape (``agents.refund.hitl``): of another action, or of an argument
    # the question does not take. Codes and argument names stay as they are sent.
    "refund.error.edit_name": (
        "an edit here edits {action}; got {name}",
        "여기서 edit는 {action}만 고칩니다. 입력값: {name}",
    ),
    "refund.error.edit_arg": (
        "is not an argument an edit may change; use {args}",
        "edit가 바꿀 수 있는 인자가 아닙니다. {args:을/를} 쓰세요",
    ),
    "refund.error.approver_required": ("is required: who decides?", "필수 항목입니다. 누가 결정하나요?"),
    "refund.error.approver_with_decision": (
        "is required with a decision: who decides?",
        "결정에는 필수입니다. 누가 결정하나요?",
    ),
    "refund.error.approver_without_decision": (
        "is given with a decision (or with the amount it edits): on its own it would record an approver for a case"
        " no one decided; give the decision too",
        "결정(또는 바꾸는 금액)과 함께 줍니다. 이것만 주면 아무도 결정하지 않은 건에 승인자가 기록됩니다."
        " 결정도 함께 주세요",
    ),
    "refund.error.reserved": (
        "{approver} is reserved for what the agent writes itself; give the name of the person who decides",
        "{approver:은/는} 에이전트가 스스로 쓰는 이름입니다. 결정하는 사람의 이름을 입력하세요",
    ),
    "refund.error.amount_type": (
        "must be a whole number of KRW, got {value}",
        "원 단위 정수여야 합니다. 입력값: {value}",
    ),
    "refund.error.no_requested": (
        "the case has no requested amount to compare the edit with",
        "이 건에는 수정 금액과 비교할 요청 금액이 없습니다",
    ),
    "refund.error.amount_range": (
        "must be between 1 and the requested {requested} KRW, got {value}",
        "1에서 요청 금액 {requested}원 사이여야 합니다. 입력값: {value}",
    ),
    "refund.error.approver_missing": (
        'a refund decision names its approver, and this one names no one: add "approver" (beside'
        ' "decisions" in LangChain\'s shape); for a client that sends none (Agent Inbox), sign in with a'
        " roles-file token as its API key, or, without a roles file, start the API with"
        " HITL_LOCAL_APPROVER=<your name>",
        '환불 결정에는 승인자 이름이 있어야 하는데 이 결정에는 없습니다. "approver"를 넣으세요 (LangChain 형식에서는'
        ' "decisions" 옆에). 이름을 보내지 않는 클라이언트(Agent Inbox)는 역할 파일의 토큰을 API 키로 로그인하거나,'
        " 역할 파일이 없으면 API를 HITL_LOCAL_APPROVER=<이름>으로 시작하세요",
    ),
    "refund.error.case_exists": (
        "case {case_id} already exists (thread {thread} holds it); use a new case id",
        "건 번호 {case_id:은/는} 이미 있습니다(스레드 {thread}). 새 건 번호를 쓰세요",
    ),
    "refund.error.delete_unfinished": (
        "{thread} is not finished ({status}): reject it first, or delete with a reason",
        "{thread:은/는} 아직 끝나지 않았습니다({status}). 먼저 거절하거나, 사유를 적어 삭제하세요",
    ),
    # The status of an unfinished case as that refusal names it.
    "refund.delete.status.waiting": ("waiting", "대기 중"),
    "refund.delete.status.attention": ("needs attention", "확인 필요"),
    # A case id compared as it looks (case, width, look-alike letters: agents.names.id_key).
    "refund.error.case_lookalike": (
        "case {case_id} reads as case {existing}, which already exists (thread {thread} holds it): a case id is"
        " the same case however it is written (case, width, look-alike letters); use a new case id",
        "건 번호 {case_id:은/는} 이미 있는 건 {existing:과/와} 같은 번호로 읽힙니다(스레드 {thread}). 대소문자, 전각·반각,"
        " 닮은 글자가 달라도 같은 건입니다. 새 건 번호를 쓰세요",
    ),
    "refund.error.case_lookalike_paid": (
        "case {case_id} reads as case {existing}, which was already paid (thread {thread}): a case id is the same"
        " case however it is written (case, width, look-alike letters); use a new case id",
        "건 번호 {case_id:은/는} 이미 지급된 건 {existing:과/와} 같은 번호로 읽힙니다(스레드 {thread}). 대소문자,"
        " 전각·반각, 닮은 글자가 달라도 같은 건입니다. 새 건 번호를 쓰세요",
    ),
    "refund.error.item_lookalike": (
        "items {item} and {other} read as one item (an item id is compared as a case id is: case, width,"
        " look-alike letters); list each item once",
        "항목 {item:과/와} {other:은/는} 같은 항목으로 읽힙니다(항목 번호는 건 번호처럼 대소문자, 전각·반각,"
        " 닮은 글자를 가리지 않습니다). 항목마다 한 번만 쓰세요",
    ),
    "refund.error.case_paid": (
        "case {case_id} was already paid; use a new case id",
        "{case_id:은/는} 이미 지급된 건입니다. 새 건 번호를 쓰세요",
    ),
    "refund.error.finished": (
        "the case is already {outcome}; a finished case cannot be changed",
        "이 건은 이미 {outcome} 상태입니다. 끝난 건은 바꿀 수 없습니다",
    ),
    "refund.error.paid": (
        "the case was paid; a paid case cannot be changed (continue it to record the payout)",
        "이 건은 지급되었습니다. 지급된 건은 바꿀 수 없습니다(계속 실행해 지급을 기록하세요)",
    ),
    "refund.error.same_amount": (
        "is already {amount} KRW: an edit to the same amount changes nothing",
        "이미 {amount}원입니다. 같은 금액으로 바꾸면 아무것도 바뀌지 않습니다",
    ),
    "refund.error.decided": (
        "the case was already decided ({decision} by {approver}); continue it instead of editing it",
        "이 건은 이미 결정되었습니다({decision}, 결정: {approver}). 편집하지 말고 계속 실행하세요",
    ),
    "refund.problem.payout": (
        "the case is marked {outcome} but the ledger holds a payout of {paid} KRW for it",
        "이 건은 {outcome:으로/로} 표시되어 있지만 원장에는 {paid}원 지급 기록이 있습니다",
    ),
    "refund.problem.items": (
        "the case is marked {outcome} but its items do not agree with the item ledger",
        "이 건은 {outcome:으로/로} 표시되어 있지만 항목이 항목 원장과 맞지 않습니다",
    ),
    "refund.problem.neither": (
        "the case is marked {outcome} with neither a payout nor a rejection",
        "이 건은 {outcome:으로/로} 표시되어 있지만 지급도 거절도 없습니다",
    ),
    "refund.problem.unsigned_rejection": (
        "the case is marked rejected, but no rejection by a named approver is recorded",
        "이 건은 거절로 표시되어 있지만 이름이 있는 승인자의 거절 기록이 없습니다",
    ),
    "refund.error.thread_name": (
        "a thread named refund-<case id> holds that case: use {derived}, a name that does not begin with"
        " refund-, or omit it",
        "refund-<건 번호> 이름의 스레드는 그 건을 맡습니다. {derived:을/를} 쓰거나 refund-로 시작하지 않는 이름을 쓰거나"
        " 비워 두세요",
    ),
    "refund.error.as_node": (
        "a refund update may be made as {nodes} only; payment and rejection happen only through a decision",
        "환불 업데이트는 {nodes:으로/로}만 할 수 있습니다. 지급과 거절은 결정으로만 일어납니다",
    ),
    "refund.error.not_opened": (
        "the case stopped before assess opened the case; continue it (or pick a later checkpoint) before editing it",
        "assess가 건을 열기 전에 멈췄습니다. 편집하기 전에 계속 실행하세요(또는 더 뒤의 체크포인트를 고르세요)",
    ),
    "refund.error.fork_not_opened": (
        "the checkpoint chosen is from before assess opened the case; continue it (or pick a later checkpoint) "
        "before editing it",
        "고른 체크포인트는 assess가 건을 열기 전의 것입니다. 편집하기 전에 계속 실행하세요"
        "(또는 더 뒤의 체크포인트를 고르세요)",
    ),
    "refund.say.update_decision": (
        "update_state: {decision} by {approver}",
        "update_state: {decision}, 결정: {approver}",
    ),
    "nav.refund": ("Refund agent", "환불 에이전트"),
    "agent.refund.title": ("Refund agent", "환불 에이전트"),
    "agent.refund.description": (
        "Refunds above 100,000 KRW wait for an approver, who approves, rejects or edits the amount; each payout happens exactly once.",
        "100,000원을 넘는 환불은 승인자를 기다립니다. 승인자는 승인, 거절 또는 금액 수정을 할 수 있고, 지급은 건마다 정확히 한 번만 일어납니다.",
    ),
    "field.case_id": ("Case id", "건 번호"),
    "field.customer": ("Customer", "고객"),
    "field.amount": ("Amount (KRW)", "금액 (원)"),
    "field.items": ("Items (several, instead of one amount)", "항목 (여러 개, 금액 대신)"),
    "refund.new.items_help": (
        'A JSON array, e.g. [{{"item": "A-1", "amount": 300000}}, {{"item": "A-2", "amount": 80000}}]; each item is'
        " decided on its own. Leave the amount empty.",
        '예: [{{"item": "A-1", "amount": 300000}}, {{"item": "A-2", "amount": 80000}}] 형태의 JSON 배열. 항목마다 따로'
        " 결정합니다. 금액은 비워 두세요.",
    ),
    "refund.items.decided_elsewhere": (
        "Item {item} was decided elsewhere since this page was drawn; its controls stay until you act.",
        "이 화면을 그린 뒤 항목 {item:은/는} 다른 곳에서 결정되었습니다. 조작하기 전까지 컨트롤을 남겨 둡니다.",
    ),
    "refund.items.item": ("Item {item}: {amount}", "항목 {item}: {amount}"),
    "refund.items.waiting": (
        "Items waiting for a decision: {count}. Each is decided on its own, in any order.",
        "결정을 기다리는 항목: {count}개. 항목마다 순서와 관계없이 따로 결정합니다.",
    ),
    "refund.batch.header": ("Decide several at once", "여러 항목 한 번에 결정"),
    "refund.batch.help": (
        "Select waiting items (of several cases, or several items of one case), then approve or reject them"
        " in one action. Each item is checked on its own, as a single decision is; an item not accepted never"
        " stops the others, and an item decided already is said so and pays nothing.",
        "결정을 기다리는 항목(여러 건, 또는 한 건의 여러 항목)을 고른 뒤 한 번에 승인하거나 거절하세요. 항목마다"
        " 하나씩 결정할 때와 똑같이 따로 확인합니다. 받아들여지지 않은 항목이 있어도 나머지는 처리되고, 이미 결정된"
        " 항목은 그렇다고 알려 주며 다시 지급하지 않습니다.",
    ),
    "refund.batch.none_waiting": ("No item waits for a decision.", "결정을 기다리는 항목이 없습니다."),
    "refund.batch.selected": ("{count} item(s) selected.", "항목 {count}개를 골랐습니다."),
    "refund.batch.dropped": (
        "No longer waiting, so no longer selected: {items}.",
        "더 이상 결정을 기다리지 않아 선택에서 뺐습니다: {items}.",
    ),
    "refund.batch.approver": ("Approver of the selected items", "고른 항목의 승인자"),
    "refund.batch.approver_is_you": (
        "The selected items are decided as yours: {name} ({email}).",
        "고른 항목은 본인 이름으로 결정됩니다: {name} ({email}).",
    ),
    "refund.batch.note": ("Note for the selected items", "고른 항목의 메모"),
    "refund.batch.approve": ("Approve selected", "고른 항목 승인"),
    "refund.batch.reject": ("Reject selected", "고른 항목 거절"),
    "refund.batch.select_first": (
        "Select at least one item first; nothing was decided.",
        "먼저 항목을 하나 이상 고르세요. 아무것도 결정하지 않았습니다.",
    ),
    "refund.batch.summary": (
        "{action} of {count} item(s): {paid} paid, {rejected} rejected, {not_accepted} not accepted, {already} already decided.",
        "항목 {count}개 {action}: 지급 {paid}, 거절 {rejected}, 받아들여지지 않음 {not_accepted}, 이미 결정됨 {already}.",
    ),
    "refund.batch.col.item": ("item", "항목"),
    "refund.batch.col.result": ("result", "결과"),
    "refund.batch.col.why": ("why", "이유"),
    "refund.batch.result.paid": ("paid", "지급됨"),
    "refund.batch.result.rejected": ("rejected", "거절됨"),
    "refund.batch.result.refused": ("not accepted", "받아들여지지 않음"),
    "refund.batch.result.already decided": ("already decided", "이미 결정됨"),
    "refund.batch.result.failed": ("failed: needs attention", "실패: 확인 필요"),
    "refund.batch.result.busy": ("busy: nothing done, try again", "처리 중: 아무것도 하지 않음, 다시 시도"),
    "field.reason": ("Reason", "사유"),
    "field.action": ("Action", "조치"),
    "field.approver": ("Approver", "승인자"),
    "field.note": ("Note", "메모"),
    "refund.title": ("Refund agent", "환불 에이전트"),
    "refund.intro": (
        "A refund above the threshold waits, saved, for an approver. Approve, reject, or edit the amount and approve. The payout goes to a ledger with one row per case, so it happens exactly once.",
        "기준 금액을 넘는 환불은 저장된 채로 승인자를 기다립니다. 승인, 거절, 또는 금액을 수정한 뒤 승인할 수 있습니다. 지급은 건마다 한 행만 허용하는 원장에 기록되므로 정확히 한 번만 일어납니다.",
    ),
    "refund.policy.strict": (
        "Policy `strict` (HITL_REFUND_POLICY): the route is decided on the requested amount. Above {threshold} a human decides; exactly {threshold} settles automatically. An edit never moves a case off the approval path.",
        "정책 `strict` (HITL_REFUND_POLICY): 경로는 요청 금액으로 정합니다. {threshold:을/를} 넘으면 사람이 결정하고, 정확히 {threshold:은/는} 자동 지급됩니다. 금액을 수정해도 승인 경로를 벗어나지 않습니다.",
    ),
    "refund.policy.reroute": (
        "Policy `reroute` (HITL_REFUND_POLICY): LangGraph's own behaviour. update_state counts as a write by the last node (assess), the route is evaluated again on the amount to pay, and an edit to {threshold} or less settles automatically.",
        "정책 `reroute` (HITL_REFUND_POLICY): LangGraph 기본 동작입니다. update_state는 마지막 노드(assess)의 쓰기로 간주되어 지급 금액으로 경로를 다시 정하므로, {threshold} 이하로 수정하면 자동 지급됩니다.",
    ),
    "refund.new.header": ("New refund request", "새 환불 요청"),
    "refund.new.amount_placeholder": ("e.g. 500,000", "예: 500,000"),
    "refund.new.submit": ("Submit request", "요청 제출"),
    "refund.new.done": ("Case {case} submitted: {status}.", "{case:을/를} 제출했습니다: {status}."),
    "refund.new.thread_hint": (
        "The thread id is refund-<case id>; each case id can be used once.",
        "스레드 ID는 refund-<건 번호>이며, 건 번호는 한 번만 쓸 수 있습니다.",
    ),
    "refund.queue.header": (
        "Open cases: waiting for a decision or needing attention",
        "진행 중인 건: 결정 대기 또는 확인 필요",
    ),
    "refund.queue.empty": (
        "No case is waiting for a decision or needs attention.",
        "결정을 기다리거나 확인이 필요한 건이 없습니다.",
    ),
    "refund.case.select": ("Selected case", "선택한 건"),
    "refund.case.none": (
        "No refund case yet. Submit a request below.",
        "아직 환불 건이 없습니다. 아래에서 요청을 제출하세요.",
    ),
    "refund.case.status": ("Status: {status}", "상태: {status}"),
    "refund.case.customer": ("Customer", "고객"),
    "refund.case.reason": ("Reason", "사유"),
    "refund.metric.requested": ("Requested", "요청 금액"),
    "refund.metric.amount": ("To pay", "지급할 금액"),
    "refund.metric.rejected": ("— (rejected)", "— (거절됨)"),
    "refund.metric.executed": ("Executed (ledger)", "실제 지급 (원장)"),
    "refund.metric.waiting": ("Waiting for a decision", "결정 대기 금액"),
    "refund.metric.paid_so_far": ("Paid so far (ledger)", "지금까지 지급 (원장)"),
    "refund.case.waiting": ("Waiting for an approver.", "승인자를 기다리는 중입니다."),
    "refund.case.summary": (
        "{customer} asks for {amount} back. Reason: {reason}",
        "{customer} 님이 {amount} 환불을 요청했습니다. 사유: {reason}",
    ),
    "refund.case.whole_reason": ("Show the whole reason ({count} characters)", "사유 전체 보기 ({count}자)"),
    "refund.case.moved_on": (
        "This case changed since your controls were drawn (now {status}); a decision from them will be refused,"
        " and any click on them shows the case as it is.",
        "컨트롤이 그려진 뒤 이 건이 바뀌었습니다 (현재 {status}). 이 컨트롤로 한 결정은 받아들여지지 않으며,"
        " 누르면 이 건의 현재 상태가 표시됩니다.",
    ),
    "refund.case.attention": ("This case needs attention: {reason}", "이 건은 확인이 필요합니다: {reason}"),
    "refund.case.running": (
        "A process is working on this case right now; reload in a moment.",
        "지금 다른 프로세스가 이 건을 처리하고 있습니다. 잠시 후 새로 고치세요.",
    ),
    "refund.case.open_explorer": (
        "Open it in the checkpoint explorer to re-run it",
        "체크포인트 탐색기에서 열어 다시 실행하기",
    ),
    "refund.case.unknown": (
        "There is no refund case with thread {thread}; pick one below.",
        "스레드가 {thread}인 환불 건이 없습니다. 아래에서 고르세요.",
    ),
    "refund.case.pick": ("Pick a case", "건 선택"),
    "refund.case.find": ("Find a case", "건 찾기"),
    "refund.case.find_help": (
        "Narrows the picker to cases whose id, customer, status, decision or approver contains this.",
        "건 번호, 고객, 상태, 결정 또는 승인자에 이 글자가 들어 있는 건만 고를 수 있게 합니다.",
    ),
    "refund.case.find_more": (
        "The picker offers the first {shown} of {total} matching cases; type more to narrow it.",
        "맞는 {total}건 중 처음 {shown}건만 고를 수 있습니다. 더 입력해 좁혀 보세요.",
    ),
    "refund.edit.help": (
        "A whole number of KRW from 1 up to the requested {requested}, e.g. 50,000.",
        "1원부터 요청 금액 {requested}까지의 정수(원), 예: 50,000.",
    ),
    "refund.edit.type_amount": ("Type an amount to edit and approve.", "수정 후 승인하려면 금액을 입력하세요."),
    "refund.edit.invalid": ("Cannot edit to this amount: {error}", "이 금액으로 수정할 수 없습니다: {error}"),
    "refund.action.approve": ("approve", "승인"),
    "refund.action.reject": ("reject", "거절"),
    "refund.action.edit": ("edit and approve", "수정 후 승인"),
    "refund.case.outcome": ("Outcome: {outcome}", "결과: {outcome}"),
    "refund.approve": ("Approve", "승인"),
    "refund.reject": ("Reject", "거절"),
    "refund.edit.amount": ("New amount to pay (KRW)", "새 지급 금액 (원)"),
    "refund.edit.preview": ("After the edit", "수정 후"),
    "refund.edit.submit": ("Edit amount and approve", "금액 수정 후 승인"),
    "refund.continue": ("Continue the run", "실행 계속"),
    "refund.continued": ("Continued {thread}: {status}.", "{thread:을/를} 계속 실행했습니다: {status}."),
    "refund.decided": (
        "Case {case}: {action} by {approver} → {status}.",
        "{case}: {approver}의 {action} → {status}.",
    ),
    "refund.trace": ("Trace (every step and every human edit)", "기록 (모든 단계와 사람의 수정)"),
    "refund.node_entries.once": (
        "The {node} node was entered once (node log: {statuses}). A node that pauses runs again from its start on resume.",
        "{node} 노드 진입 횟수: 1회 (노드 로그: {statuses}). 멈췄던 노드는 재개할 때 처음부터 다시 실행됩니다.",
    ),
    "refund.node_entries.many": (
        "The {node} node was entered {count} times (node log: {statuses}). A node that pauses runs again from its start on resume.",
        "{node} 노드 진입 횟수: {count}회 (노드 로그: {statuses}). 멈췄던 노드는 재개할 때 처음부터 다시 실행됩니다.",
    ),
    "refund.audit.header": ("Audit: all cases", "감사: 모든 건"),
    "refund.ledger.header": ("Ledger: payouts", "원장: 지급 내역"),
    "refund.no_rows": ("No rows.", "행이 없습니다."),
    "refund.pitfall.header": ("Pitfall: a graph without a checkpointer", "함정: 체크포인터 없는 그래프"),
    "refund.pitfall.explain": (
        "The same graph compiled with interrupt_before=['settle'] and no checkpointer (a teaching-only builder; our factory refuses to build without one). It stops before settle and returns a half-finished state: no error, and nothing to resume.",
        "같은 그래프를 interrupt_before=['settle']로, 체크포인터 없이 컴파일했습니다 (교육용 빌더이며, 우리 팩토리는 체크포인터 없이 빌드하지 않습니다). settle 앞에서 멈추고 반쯤 끝난 상태를 돌려줍니다. 오류도 없고, 재개할 것도 없습니다.",
    ),
    "refund.pitfall.run": ("Run the pitfall demo", "함정 데모 실행"),
    "refund.pitfall.unsaved": ("Unsaved run (no checkpointer)", "저장되지 않은 실행 (체크포인터 없음)"),
    "refund.pitfall.resume_error": (
        "Asking for its saved state to resume: {error}",
        "재개하려고 저장된 상태를 요청하면: {error}",
    ),
    "refund.pitfall.saved": ("Saved run waiting in the inbox", "대기 목록에서 기다리는 저장된 실행"),
    "refund.pitfall.saved_item": (
        "Thread {thread} waits at {node}, checkpoint {checkpoint}: it survives a restart and can be resumed.",
        "스레드 {thread:이/가} {node}에서 기다립니다 (체크포인트 {checkpoint}). 재시작해도 남아 있고 재개할 수 있습니다.",
    ),
    "refund.pitfall.no_saved": (
        "No saved refund is waiting now; submit a request above the threshold to see one.",
        "지금 기다리는 저장된 환불이 없습니다. 기준 금액을 넘는 요청을 제출해 보세요.",
    ),
    "refund.col.case": ("case", "건"),
    "refund.col.attention_because": ("attention because", "확인 필요 이유"),
    "refund.col.status": ("status", "상태"),
    "refund.col.customer": ("customer", "고객"),
    "refund.col.requested": ("requested", "요청 금액"),
    "refund.col.amount": ("to pay", "지급 예정 금액"),
    "refund.cell.waiting": ("{amount} waiting", "{amount} 결정 대기"),
    "refund.col.executed": ("executed", "지급된 금액"),
    "refund.col.decision": ("decision", "결정"),
    "refund.col.approver": ("approver", "승인자"),
    "refund.col.outcome": ("outcome", "결과"),
    "refund.col.requested_at": ("requested at", "요청 시각"),
    "refund.col.decided_at": ("decided at", "결정 시각"),
    "refund.col.batch": ("decided in batch", "일괄 결정"),
    "refund.col.paid_at": ("paid at", "지급 시각"),
    "refund.col.trace": ("trace", "기록"),
    "refund.col.status_at_deletion": ("status when deleted", "삭제 당시 상태"),
    "refund.col.deleted_by": ("deleted by", "삭제한 사람"),
    "refund.col.deleted_at": ("deleted at", "삭제 시각"),
    "refund.col.deletion_reason": ("why deleted", "삭제 사유"),
    "outcome.deleted": ("deleted unfinished", "미완료 상태로 삭제됨"),
    "refund.audit.view": ("View", "보기"),
    "refund.audit.view.amounts": ("amounts", "금액"),
    "refund.audit.view.decisions": ("decisions", "결정"),
    "refund.audit.view.times": ("requests and times", "요청과 시각"),
    "refund.audit.view.deletions": ("deletions", "삭제"),
    "refund.audit.view.trace": ("trace", "기록"),
    "refund.col.repeat_attempts": ("repeat attempts (no-ops)", "반복 시도 (무효)"),
    "refund.status.deleted": ("thread deleted", "스레드 삭제됨"),
    # a payout whose thread this database never held (paid by ``langgraph dev`` on the shared ledger)
    "refund.status.not_here": ("thread not in this database", "이 데이터베이스에 스레드 없음"),
    "refund.approver.automatic": ("automatic", "자동 지급"),
    # the sidebar forms: the fields' help lines (``help.<agent>.<form>.<field>``) and choices
    "help.refund.start.case_id": (
        "Letters, digits and _ . : - ; the thread is refund-<case id> unless another is named. Each case id is"
        " used once.",
        "영문자, 숫자와 _ . : - 만 쓸 수 있습니다. 다른 스레드를 정하지 않으면 스레드는 refund-<건 번호>이고, 건 번호는"
        " 한 번만 씁니다.",
    ),
    "help.refund.start.customer": ("Who asks for the refund.", "환불을 요청하는 사람."),
    "help.refund.start.amount": ("Whole KRW, 1 to {maximum}.", "1원부터 {maximum}원까지의 정수."),
    "help.refund.start.reason": ("Why the customer asks.", "고객이 요청하는 이유."),
    "help.refund.resume.action": (
        "edit = pay the amount below instead, and approve.",
        "금액 수정 = 아래 금액을 대신 지급하고 승인합니다.",
    ),
    "help.refund.resume.amount": ("Only with edit.", "금액 수정일 때만 씁니다."),
    "help.refund.resume.approver": ("Who decides.", "결정하는 사람."),
    "help.refund.resume.note": ("Optional.", "선택 사항."),
    "help.refund.state.amount": (
        "The amount to pay; the requested amount never changes.",
        "지급할 금액입니다. 요청 금액은 바뀌지 않습니다.",
    ),
    "help.refund.state.decision": (
        "Set a decision; review records it instead of asking.",
        "결정을 미리 정합니다. review 노드가 묻지 않고 이 결정을 기록합니다.",
    ),
    "help.refund.state.approver": ("Who made the change or decision.", "수정하거나 결정한 사람."),
    "choice.refund.action.approve": ("approve", "승인"),
    "choice.refund.action.reject": ("reject", "거절"),
    "choice.refund.action.edit": ("edit", "금액 수정 후 승인"),
    "choice.refund.decision.approve": ("approve", "승인"),
    "choice.refund.decision.reject": ("reject", "거절"),
    # the as_node choices of the update form: the node's name, and in Korean what it does
    "node.refund.assess": ("assess", "assess (금액 심사)"),
    "node.refund.review": ("review", "review (승인자 검토)"),
    # Why a refund action is not allowed (``agents.refund.permissions``), on every path, in the reader's language.
    "refund.denied.approve": ("approving a refund", "환불 승인"),
    "refund.denied.reject": ("rejecting a refund", "환불 거절"),
    "refund.denied.four_eyes": (
        "you requested this refund; another person must approve it (four eyes)",
        "이 환불은 본인이 요청했습니다. 다른 사람이 승인해야 합니다(4-eyes 원칙)",
    ),
    "refund.denied.limit": (
        "your limit is {limit} KRW; this case pays {amount} KRW and needs a senior approver "
        "(you may reject it, or edit it to an amount within your limit)",
        "승인 한도는 {limit}원인데 이 건은 {amount}원을 지급하므로 선임 승인자가 필요합니다. "
        "거절하거나 한도 안의 금액으로 수정할 수는 있습니다",
    ),
    "refund.denied.ambiguous_name": (
        "{name} could be more than one person of the roles file: it is what their emails have before the @"
        " ({people}); write the whole email of the one who decides",
        "{name:은/는} 역할 파일의 여러 사람일 수 있습니다. 이들 이메일의 @ 앞부분과 같습니다({people}). "
        "결정하는 사람의 이메일 전체를 적으세요",
    ),
}
