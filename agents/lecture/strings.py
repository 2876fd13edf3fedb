"""Strings of the lecture planner's page."""

STRINGS: dict[str, tuple[str, str]] = {
    # The planner's questions, in the language the run started in (``agents.lecture.graph``).
    "lecture.say.gate_question": (
        "The draft scored below the threshold. Rework, edit the plan, save as is, or reject?",
        "초안 점수가 기준보다 낮습니다. 다시 작업할까요, 계획을 고칠까요, 그대로 저장할까요, 아니면 거절할까요?",
    ),
    # At the round limit the gate offers save and reject only, and asks only that.
    "lecture.say.gate_question.last": (
        "The draft scored below the threshold, and the round limit is reached. Save as is, or reject?",
        "초안 점수가 기준보다 낮고 라운드 한도에 이르렀습니다. 그대로 저장할까요, 아니면 거절할까요?",
    ),
    "lecture.error.round_limit": (
        "{action} is not possible: the round limit is reached (draft {round} of {max_rounds}, "
        "HITL_MAX_ROUNDS); choose save or reject",
        "{action:은/는} 할 수 없습니다: 라운드 한도에 이르렀습니다(초안 {round}/{max_rounds}, "
        "HITL_MAX_ROUNDS). save 또는 reject를 고르세요",
    ),
    "lecture.error.not_offered": (
        "{action} is not an answer to this question; choose {options}",
        "{action:은/는} 이 질문에 대한 답이 아닙니다. {options} 중에서 고르세요",
    ),
    "lecture.error.unknown_field": (
        "is not a lecture field; expected {expected}",
        "강의 입력 항목이 아닙니다. 입력 항목: {expected}",
    ),
    "lecture.error.too_many_days": (
        "reads as {days:,} teaching days of 8 hours; a lecture plan covers at most {limit} days",
        "하루 8시간 기준 수업일 {days:,}일로 읽힙니다. 강의 계획은 최대 {limit}일까지 다룹니다",
    ),
    "lecture.error.too_short": (
        "reads as {minutes} min of teaching; a lecture of 3 to 5 subtopics needs at least {minimum} min",
        "수업 시간이 {minutes}분으로 읽힙니다. 세부 주제 3~5개를 다루려면 최소 {minimum}분이 필요합니다",
    ),
    # A refused answer or plan edit (``agents.lecture.answers``, ``plans``, ``hitl``): codes stay English.
    "lecture.error.answer_shape": (
        "answer one of {actions} (text or a JSON object)",
        "{actions} 중 하나로 답하세요(텍스트 또는 JSON 객체)",
    ),
    "lecture.error.answer_key": (
        "is not part of an answer; use action, notes, subtopics",
        "답에 들어가는 항목이 아닙니다. action, notes, subtopics를 쓰세요",
    ),
    "lecture.error.notes_with": (
        "notes go with rework, edit_plan or reject (its reason) only",
        "메모는 rework, edit_plan, reject(거절 사유)에만 붙일 수 있습니다",
    ),
    "lecture.error.edit_needs_subtopics": (
        'edit_plan needs "subtopics": a JSON list of {{id?, title, description?}}',
        'edit_plan에는 "subtopics"가 필요합니다: {{id?, title, description?}}의 JSON 목록',
    ),
    "lecture.error.subtopics_with": (
        "subtopics go with edit_plan only",
        "subtopics는 edit_plan에만 붙일 수 있습니다",
    ),
    "lecture.error.no_approver": (
        "the lecture planner records no approver; leave it out",
        "강의 계획 도우미는 승인자를 기록하지 않습니다. 빼 주세요",
    ),
    "lecture.error.edit_name": (
        "an edit here edits {gate} or {plan}; got {name}",
        "여기서 edit는 {gate} 또는 {plan}만 고칩니다. 입력값: {name}",
    ),
    "lecture.error.edit_arg": (
        "is not an argument an edit may change; use {args}",
        "edit가 바꿀 수 있는 인자가 아닙니다. {args:을/를} 쓰세요",
    ),
    # Agent Inbox's edit of an argument the request shows for reading only (round, score, threshold).
    "lecture.error.shown_arg": (
        "is shown for reading and an edit cannot change it (the question shows {asked}, the edit sent {sent}); "
        "edit {args} only",
        "읽기용으로 보여 주는 값이라 edit로 바꿀 수 없습니다(질문의 값 {asked}, 보낸 값 {sent}). {args}만 고치세요",
    ),
    # Agent Inbox's edit box of the plan sends its text, read as JSON.
    "lecture.error.subtopics_text": (
        "the Subtopics text cannot be read as JSON: it {reason}; write the plan as a JSON list of "
        "{{id?, title, description?}}",
        "세부 주제 텍스트를 JSON으로 읽을 수 없습니다: {reason}. {{id?, title, description?}}의 JSON 목록으로 쓰세요",
    ),
    "lecture.error.update_unrouted": (
        "an update as {node} cannot be routed: its edges follow the human's answer there, and there is none yet; "
        "choose another node",
        "{node:으로/로} 하는 업데이트는 경로를 정할 수 없습니다. 그 노드의 다음 단계는 사람의 답을 따르는데 아직 "
        "답이 없습니다. 다른 노드를 고르세요",
    ),
    "lecture.error.plan_list": ("must be a JSON list of subtopics", "세부 주제의 JSON 목록이어야 합니다"),
    "lecture.error.plan_item": (
        "item {position} must be an object {{id?, title, description?}} or a title",
        "{position}번 항목은 {{id?, title, description?}} 객체나 제목이어야 합니다",
    ),
    "lecture.error.plan_item_key": (
        "item {position} has an unknown key {key}; use id, title, description",
        "{position}번 항목에 알 수 없는 키 {key:이/가} 있습니다. id, title, description을 쓰세요",
    ),
    "lecture.error.plan_title_twice": ("the title {title} appears twice", "제목 {title:이/가} 두 번 나옵니다"),
    "lecture.error.plan_id_twice": ("the id {id} appears twice", "id {id:이/가} 두 번 나옵니다"),
    "lecture.error.plan_count": (
        "a plan has {minimum} to {maximum} subtopics; the edit has {count}",
        "계획의 세부 주제는 {minimum}~{maximum}개입니다. 수정안에는 {count}개가 있습니다",
    ),
    "lecture.error.plan_unknown_id": (
        "no subtopic {id} in the plan; leave the id out to add a new one",
        "계획에 세부 주제 {id:이/가} 없습니다. 새로 추가하려면 id를 빼세요",
    ),
    "lecture.error.plan_researched": (
        "subtopic {id} ({title}) was already researched; its definition cannot change under the same id. "
        "Remove it and add a new subtopic instead.",
        "세부 주제 {id}({title})의 조사가 이미 끝났습니다. 같은 id로는 정의를 바꿀 수 없습니다. "
        "지우고 새 세부 주제를 추가하세요.",
    ),
    "lecture.error.plan_unchanged": (
        "the edit changes nothing; answer approve to keep the plan",
        "수정안이 바꾸는 것이 없습니다. 계획을 그대로 두려면 approve로 답하세요",
    ),
    "lecture.problem.neither": (
        "the run ended with neither a saved plan nor a rejection",
        "저장된 계획도 거절도 없이 실행이 끝났습니다",
    ),
    "lecture.say.plan_question": (
        "Review the plan: approve it, or edit the subtopics (add, remove, rename).",
        "계획을 검토하세요: 승인하거나, 하위 주제를 고치세요(추가, 삭제, 이름 변경).",
    ),
    "nav.lecture": ("Lecture planner", "강의 계획 도우미"),
    "agent.lecture.title": ("Lecture planner", "강의 계획 도우미"),
    "agent.lecture.description": (
        "Six fields → plan → parallel research → draft → three parallel reviewers → score gate "
        "→ a human decision on a low score.",
        "여섯 가지 입력 → 계획 → 병렬 조사 → 초안 → 세 명의 병렬 검토 → 점수 관문 → 점수가 낮으면 사람이 결정합니다.",
    ),
    "lecture.title": ("Lecture planner", "강의 계획 도우미"),
    "lecture.intro": (
        "Plans a lecture from six fields: subtopics are researched in parallel, a draft is written, and three "
        "reviewers score it in parallel. Below the threshold, the run waits for your decision.",
        "여섯 가지 입력으로 강의를 계획합니다. 세부 주제를 병렬로 조사하고 초안을 쓴 뒤, 세 명의 검토자가 "
        "동시에 점수를 매깁니다. 기준 점수에 못 미치면 사람의 결정을 기다립니다.",
    ),
    "lecture.model": ("Model: {model}", "모델: {model}"),
    "lecture.research": ("Research: {source}", "조사 출처: {source}"),
    "lecture.model.embedded": (
        "Embedded offline model (deterministic, simulated latency {latency} s)",
        "내장 오프라인 모델 (결정적, 모의 지연 {latency}초)",
    ),
    "lecture.model.gemini": (
        "Gemini ({models}; retry with backoff on rate limits, then fall back)",
        "Gemini ({models}; 요청 한도에 걸리면 간격을 늘려 재시도한 뒤 다음 모델로 넘어감)",
    ),
    "lecture.research.corpus": (
        "Bundled corpus ({count} documents, BM25, offline)",
        "내장 자료 모음 (문서 {count}개, BM25, 오프라인)",
    ),
    "lecture.research.tavily": (
        "Tavily web search (falls back to the bundled corpus on errors)",
        "Tavily 웹 검색 (오류가 나면 내장 자료 모음 사용)",
    ),
    "lecture.gate_rule": (
        "Gate rule: the combined score is the mean of the three reviewers' scores (rounded half up), recomputed "
        "every round; it passes at {threshold} or more. At most {max_rounds} drafts per run.",
        "관문 규칙: 종합 점수는 세 검토자 점수의 평균(반올림)이며 매 라운드 새로 계산합니다. {threshold}점 "
        "이상이면 통과합니다. 한 실행에서 초안은 최대 {max_rounds}개입니다.",
    ),
    "lecture.new_run": ("New lecture plan", "새 강의 계획"),
    "lecture.thread_id": ("Thread id (optional)", "스레드 ID (선택)"),
    "lecture.thread_id.help": (
        "Leave empty for a new lecture-<8 hex> id.",
        "비워 두면 lecture-<16진수 8자리> ID가 새로 만들어집니다.",
    ),
    "lecture.start": ("Plan the lecture", "강의 계획 시작"),
    "lecture.bad_input": ("Nothing was started: {error}", "시작하지 않았습니다: {error}"),
    "lecture.running": ("Running…", "실행 중…"),
    "lecture.progress.running": ("▶ running", "▶ 실행 중"),
    "lecture.progress.waiting": ("⏸ waiting for a human", "⏸ 사람을 기다림"),
    "lecture.progress.failed": ("✗ failed after {seconds:.2f} s", "✗ {seconds:.2f}초 후 실패"),
    "lecture.progress.ok": ("✓ {seconds:.2f} s", "✓ {seconds:.2f}초"),
    "lecture.run_done": ("Run finished: {status}", "실행 완료: {status}"),
    "lecture.run_failed": ("The run failed", "실행 실패"),
    "lecture.run_refused": ("Not accepted: nothing was changed", "받아들여지지 않음: 아무것도 바뀌지 않았습니다"),
    "lecture.threads": ("Lecture threads", "강의 계획 스레드"),
    "lecture.pick_thread": ("Thread", "스레드"),
    "lecture.pick_more": (
        "The list offers the newest {shown} of {total} threads; open any other from home's thread table.",
        "전체 {total}개 스레드 중 최신 {shown}개만 목록에 있습니다. 다른 스레드는 홈의 스레드 표에서 여세요.",
    ),
    "lecture.no_threads": (
        "No lecture threads yet: start one above.",
        "아직 강의 계획 스레드가 없습니다. 위에서 시작하세요.",
    ),
    "lecture.queue": ("Other lecture threads that need a human ({count})", "사람이 봐야 할 다른 강의 스레드 ({count})"),
    "lecture.queue_empty": (
        "No other lecture thread waits or needs attention.",
        "기다리거나 확인이 필요한 다른 강의 스레드가 없습니다.",
    ),
    "lecture.pick_placeholder": ("Pick a thread", "스레드 선택"),
    "lecture.attention": ("This thread needs attention: {reason}", "이 스레드는 확인이 필요합니다: {reason}"),
    "lecture.thread_missing": (
        "There is no lecture thread named {thread}; pick one below.",
        "{thread:이라는/라는} 강의 스레드가 없습니다. 아래에서 고르세요.",
    ),
    "lecture.status": ("Status", "상태"),
    "lecture.outcome": ("Outcome", "결과"),
    "lecture.outcome.none": ("—", "—"),
    # The outcome's word is a metric value, which a narrow column cuts with an ellipsis: it stays short,
    # and why it is so is a caption under the row.
    "lecture.outcome.saved": ("saved", "저장됨"),
    "lecture.outcome.saved_as_is": ("saved as is", "그대로 저장됨"),
    "lecture.outcome.rejected": ("rejected", "거절됨"),
    "lecture.outcome_why.saved": ("Saved: the draft passed the gate.", "저장됨: 초안이 관문을 통과했습니다."),
    "lecture.outcome_why.saved_as_is": (
        "Saved as is: a human saved the draft below the threshold.",
        "그대로 저장됨: 기준 점수에 못 미친 초안을 사람이 그대로 저장했습니다.",
    ),
    "lecture.outcome_why.rejected": ("Rejected: a human ended the run.", "거절됨: 사람이 실행을 끝냈습니다."),
    "lecture.reject_reason": ("Reason: {reason}", "거절 사유: {reason}"),
    "lecture.round": ("Draft round", "초안 라운드"),
    "lecture.gate_reviews": ("Round {round}: what the reviewers said", "라운드 {round}: 검토자 의견"),
    "lecture.plan_version": ("Plan version", "계획 버전"),
    "lecture.plan": ("Plan (subtopics)", "계획 (세부 주제)"),
    "lecture.scores": ("Gate, per round", "라운드별 관문 결과"),
    "lecture.reviews": ("Reviews, per round", "라운드별 검토"),
    "lecture.no_reviews": ("No reviews yet.", "아직 검토가 없습니다."),
    "lecture.waiting_gate": (
        "Waiting for you: round {round} scored {score}, below the threshold {threshold}.",
        "결정을 기다립니다: {round}라운드 점수 {score}점이 기준 {threshold}점에 못 미칩니다.",
    ),
    "lecture.waiting_plan": (
        "Waiting for you: review plan version {version}.",
        "결정을 기다립니다: 계획 버전 {version:을/를} 검토하세요.",
    ),
    "lecture.refused_answer": ("The last answer was refused: {error}", "직전 답변은 받아들여지지 않았습니다: {error}"),
    "lecture.moved_on": (
        "This thread moved on elsewhere since this decision was drawn (now {status}); a decision sent from it"
        " will be refused. What it holds now is shown below.",
        "이 결정 양식이 그려진 뒤 다른 곳에서 스레드가 진행되었습니다 (현재 {status}). 이 양식으로 보낸 결정은"
        " 받아들여지지 않습니다. 지금 상태는 아래에 있습니다.",
    ),
    "lecture.moved_on.short": (
        "Decided elsewhere meanwhile (now {status}): a decision sent from this form will be refused.",
        "그사이 다른 곳에서 결정되었습니다 (현재 {status}). 이 양식으로 보낸 결정은 받아들여지지 않습니다.",
    ),
    "lecture.decision": ("Your decision", "결정"),
    "lecture.action": ("Action", "작업"),
    "lecture.action.rework": ("rework: revise the flagged items", "재작업: 지적된 항목 수정"),
    "lecture.action.edit_plan": (
        "edit the plan: the subtopics below, research the new ones, then rework",
        "계획 수정: 아래 세부 주제로 바꾸고 새 주제만 조사한 뒤 재작업",
    ),
    "lecture.action.save": ("save as is", "그대로 저장"),
    "lecture.action.reject": ("reject (the run ends)", "거절 (실행 종료)"),
    "lecture.limit_reached": (
        "The round limit is reached: only save or reject remain.",
        "라운드 한도에 도달했습니다. 저장 또는 거절만 할 수 있습니다.",
    ),
    "lecture.notes": (
        "Notes for the rework (also after a plan edit), or why you reject it (optional)",
        "재작업 메모(계획 수정 뒤에도 쓰임) 또는 거절 사유 (선택)",
    ),
    "lecture.gate_plan_edit": (
        "Subtopics for “edit the plan” (JSON list: an item with an id keeps that subtopic as researched,"
        " an item without one adds a subtopic, one left out is removed)",
        "“계획 수정”에 쓸 세부 주제 (JSON 목록: id가 있는 항목은 조사된 그대로 유지, id 없는 항목은 새로 추가,"
        " 뺀 항목은 삭제)",
    ),
    "lecture.submit_decision": ("Send decision", "결정 보내기"),
    "lecture.decided": ("Sent {action}: {status}.", "{action} 결정을 보냈습니다: {status}."),
    "lecture.plan_edit": (
        "Subtopics (JSON list; keep an id to keep or rename, leave it out to add)",
        "세부 주제 (JSON 목록: id를 남기면 유지/이름 변경, 빼면 새로 추가)",
    ),
    "lecture.approve_plan": ("Approve the plan", "계획 승인"),
    "lecture.save_plan_edit": ("Apply the edit", "수정 적용"),
    "lecture.draft": ("Current draft", "현재 초안"),
    "lecture.final_plan": ("Final plan", "최종 계획"),
    "lecture.saved_to": ("Saved to {path}", "저장 위치: {path}"),
    "lecture.download": ("Download Markdown", "Markdown 다운로드"),
    "lecture.node_log": ("Node log of this thread", "이 스레드의 노드 로그"),
    "lecture.no_rows": ("No rows.", "행이 없습니다."),
    "lecture.col.id": ("id", "ID"),
    "lecture.col.title": ("title", "제목"),
    "lecture.col.description": ("description", "설명"),
    "lecture.col.researched": ("researched", "조사 완료"),
    "lecture.col.round": ("round", "라운드"),
    "lecture.col.score": ("score", "점수"),
    "lecture.col.threshold": ("threshold", "기준 점수"),
    "lecture.col.passed": ("passed", "통과"),
    "lecture.col.reviewer": ("reviewer", "검토자"),
    "lecture.col.feedback": ("feedback", "피드백"),
    "lecture.col.node": ("node", "노드"),
    "lecture.col.label": ("label", "레이블"),
    "lecture.col.step": ("step", "스텝"),
    "lecture.col.status": ("status", "상태"),
    "lecture.col.start": ("start (s)", "시작 (초)"),
    "lecture.col.duration": ("duration (s)", "소요 (초)"),
    "field.topic": ("Topic", "주제"),
    "field.audience_level": ("Audience level", "대상 수준"),
    "field.duration": ("Duration", "기간"),
    "field.delivery_method": ("Delivery method", "진행 방식"),
    "field.platform_tools": ("Platform / tools", "플랫폼/도구"),
    "field.constraints": ("Constraints", "제약 조건"),
    "field.notes": ("Notes for the rework", "재작업 메모"),
    "field.subtopics": ("Subtopics", "세부 주제"),
    "field.human_notes": ("Human notes", "사람의 메모"),
    "field.draft": ("Draft (Markdown)", "초안 (Markdown)"),
    "lecture.reviewer.content": ("content", "내용"),
    "lecture.reviewer.time_allocation": ("time allocation", "시간 배분"),
    "lecture.reviewer.difficulty": ("difficulty", "난이도"),
    # the sidebar and start forms: the fields' help lines (``help.<agent>.<form>.<field>``) and choices
    "help.lecture.start.topic": ("What the lecture is about.", "강의에서 다룰 내용."),
    "help.lecture.start.audience_level": ("Who attends, and how much they know.", "누가 듣는지, 얼마나 알고 있는지."),
    "help.lecture.start.duration": (
        "E.g. 1일 8시간, 2 days, 3 hours: from 30 minutes to 30 days of 8 hours.",
        "예: 1일 8시간, 2일, 3시간. 30분부터 30일(하루 8시간)까지.",
    ),
    "help.lecture.start.delivery_method": ("E.g. lecture and hands-on practice.", "예: 강의와 실습."),
    "help.lecture.start.platform_tools": (
        "Comma-separated tools the lecture uses.",
        "강의에서 쓰는 도구 (쉼표로 구분).",
    ),
    "help.lecture.start.constraints": (
        "E.g. no projector, one laptop per learner.",
        "예: 프로젝터 없음, 수강생 1인 1노트북.",
    ),
    "help.lecture.resume.action": (
        "At the gate: rework, save (as is) or reject. At the plan review: approve. "
        'To edit the plan, use the raw value {{"action": "edit_plan", "subtopics": [...]}}.',
        "점수 관문에서는 재작업, 그대로 저장, 거절 중 하나를, 계획 검토에서는 승인을 고릅니다. "
        '계획을 고치려면 원시 값 {{"action": "edit_plan", "subtopics": [...]}}를 쓰세요.',
    ),
    "help.lecture.resume.notes": (
        "Optional, with rework: what the writer should change.",
        "선택 사항이며 재작업일 때 씁니다: 작성자가 고칠 점.",
    ),
    "help.lecture.state.human_notes": ("The notes the next rework receives.", "다음 재작업이 받을 메모."),
    "help.lecture.state.draft": ("Replace the current draft.", "현재 초안을 바꿉니다."),
    "choice.lecture.action.rework": ("rework", "재작업"),
    "choice.lecture.action.save": ("save", "그대로 저장"),
    "choice.lecture.action.reject": ("reject", "거절"),
    "choice.lecture.action.approve": ("approve", "계획 승인"),
    # the as_node choices of the update form: the node's name, and in Korean what it does
    "node.lecture.validate": ("validate", "validate (입력 검사)"),
    "node.lecture.plan": ("plan", "plan (계획)"),
    "node.lecture.plan_review": ("plan_review", "plan_review (계획 검토)"),
    "node.lecture.research": ("research", "research (조사)"),
    "node.lecture.write": ("write", "write (초안 작성)"),
    "node.lecture.review_content": ("review_content", "review_content (내용 검토)"),
    "node.lecture.review_time_allocation": ("review_time_allocation", "review_time_allocation (시간 배분 검토)"),
    "node.lecture.review_difficulty": ("review_difficulty", "review_difficulty (난이도 검토)"),
    "node.lecture.gate": ("gate", "gate (점수 관문)"),
    "node.lecture.decide": ("decide", "decide (사람의 결정)"),
    "node.lecture.save": ("save", "save (저장)"),
}
