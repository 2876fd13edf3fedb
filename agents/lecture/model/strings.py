"""Words the embedded model writes, per language: one catalogue for the writer and the reviewers.

The writer and the reviewers look every sentence, heading and feedback item
up here by key and fill it in with ``str.format``; both languages hold the
same keys.
"""

from __future__ import annotations

from agents.lecture.prompts import Language

TEXT: dict[Language, dict[str, str]] = {
    "ko": {
        "concepts_ai": "생성형 AI 핵심 개념과 용어",
        "concepts_ai_d": (
            "{audience} 눈높이에 맞춰 생성형 AI가 잘하는 일과 못하는 일, 자주 듣는 용어를 업무 예시로 설명합니다."
        ),
        "concepts": "{topic}: 핵심 개념과 용어",
        "concepts_d": "{audience} 눈높이에서 {topic}의 기본 개념과 용어를 업무 예시로 정리합니다.",
        "prompt": "프롬프트 작성 기본",
        "prompt_d": "역할·과제·맥락·형식을 갖춘 프롬프트를 쓰고, 결과를 보며 고쳐 쓰는 방법을 익힙니다.",
        "tool": "{tool} 업무 활용 실습",
        "tool_d": (
            "{tool}에서 문서 작성, 정리, 공유 같은 실제 업무를 직접 해 보며 익힙니다({constraints} 조건에 맞춰 진행)."
        ),
        "safety": "AI 도구 보안과 개인정보 보호",
        "safety_d": (
            "회사 정보와 개인정보를 입력하지 않는 기준, 결과를 검증해 환각을 걸러 내는 습관, 사내 사용 수칙을 정합니다."
        ),
        "pitfalls": "자주 하는 실수와 해결 방법",
        "pitfalls_d": "{audience} 학습자가 처음 겪는 실수를 미리 살펴보고 스스로 해결하는 순서를 익힙니다.",
        "apply": "업무 적용 계획 세우기",
        "apply_d": "배운 내용을 자신의 업무 하나에 적용하는 계획을 세우고 동료와 공유합니다.",
        "wrap": "종합 실습과 평가",
        "wrap_d": "과정에서 만든 결과물을 모아 {tools}에서 업무 흐름 하나를 완성하고, 체크리스트로 서로 평가합니다.",
        "summary": (
            "「{title}」 수업 준비를 위해 자료 {count}건({titles})을 검토했습니다. 핵심 근거 {points}가지를 세부 "
            "내용과 실습 설계에 반영합니다."
        ),
        "summary_none": "「{title}」에 맞는 자료를 찾지 못했습니다. 일반적인 성인 교수 설계 원칙에 따라 진행합니다.",
        "doc_title": "{topic} 강의 계획서",
        "overview": "과정 개요",
        "fields": "주제|대상|기간|진행 방식|플랫폼/도구|제약 조건",
        "item_value": "항목|내용",
        "objectives": "학습 목표",
        "objective": "「{title}」의 핵심을 설명하고 자신의 업무에 적용할 수 있다.",
        "schedule": "일정표 — {day}일차 ({start}–{end})",
        "day_total": "교육 시간 {teaching}분(세션 {sessions}분 + 휴식 {breaks}분){lunch}.",
        "lunch_note": ", 점심 {minutes}분 별도",
        "details": "세부 내용",
        "slot": "일정: {day}일차 {start}–{end} ({minutes}분, {format})",
        "how_lecture": "진행: 개념 설명 위주로 진행합니다.",
        "how_mixed": "진행: 짧은 설명 뒤 바로 따라 하기 실습으로 이어 갑니다(설명은 세션의 절반 이하).",
        "how_practice": "진행: 단계별 안내문을 따라 각자 직접 해 보고, 강사는 자리를 돌며 돕습니다.",
        "task_tool": (
            "실습 과제: {tool}에서 자신의 실제 업무 하나(회의록, 보고서 초안, 할 일 목록 등)를 골라 결과물을 "
            "만들고 짝과 바꿔 검토합니다."
        ),
        "task_generic": "실습 과제: {tools}에서 방금 배운 내용을 업무 사례 하나에 적용해 보는 짧은 과제를 수행합니다.",
        "evidence": "근거 자료: {summary}",
        "sources": "출처: {sources}",
        "assessment": "평가 방법",
        "assess_beginner": (
            "- 시험 대신 실습 결과물 체크리스트(완성 여부, 업무 적용 가능성)로 확인합니다.\n- 시작과 끝에 5문항 "
            "자가진단으로 자신감 변화를 봅니다.\n- 과정 후 1주일 안에 실제 업무에 한 번 적용하고 결과를 "
            "공유합니다."
        ),
        "assess_other": (
            "- 세션마다 결과물을 제출하고 기준표로 피드백합니다.\n- 종합 실습 결과물을 동료 평가와 강사 평가로 "
            "확인합니다.\n- 과정 후 2주 안에 업무 적용 사례를 공유합니다."
        ),
        "constraints": "제약 조건 반영",
        "c_projector": (
            "슬라이드를 띄우지 않고 공유 문서 링크({where})로 교재와 단계별 안내문을 배포합니다. 시연은 짧게 "
            "하고 각자 화면에서 같은 단계를 따라 합니다."
        ),
        "c_laptop": (
            "모든 실습을 개인 노트북에서 진행합니다. 시작 전에 계정 로그인, 충전기, 와이파이 연결을 확인합니다."
        ),
        "c_network": "연결이 끊겨도 진행할 수 있도록 예제 파일과 안내문을 미리 내려받아 둡니다.",
        "c_generic": "운영 계획에 반영하고 과정 시작 전에 참가자와 다시 확인합니다.",
        "shared_page": "공유 페이지",
        "glossary": "용어집",
        "materials": "준비물",
        "materials_list": (
            "- 개인 노트북과 충전기, {tools} 계정(사전 로그인 확인)\n- 공유 교재 링크(단계별 안내문, 예제 파일)"
        ),
        "revision": "수정 사항 ({round}차 초안)",
        "addressed": "검토 의견 반영 — {reviewer}: {item}",
        "reviewer_content": "내용",
        "reviewer_time_allocation": "시간 배분",
        "reviewer_difficulty": "난이도",
        "notes": "사람 검토자 메모: {notes}",
        "ok_time": "문제 없음: 모든 날의 교육 시간, 점심, 휴식, 세션 길이 규칙을 지킵니다.",
        "ok_content": "문제 없음: 모든 세부 주제, 근거 자료, 도구, 제약 조건이 다루어졌습니다.",
        "ok_difficulty": "문제 없음: 대상 수준에 맞는 실습 비중과 용어 설명을 갖추었습니다.",
        "no_table": "일정표를 찾을 수 없습니다. '{columns}' 열을 가진 일정표를 날마다 하나씩 넣으세요.",
        "assumed": "기간('{duration}')을 해석하지 못해 하루 480분으로 가정했습니다. 기간을 '1일 8시간'처럼 적어 주세요.",
        "day_count": "일정표가 {found}일치인데 기간('{duration}')은 {expected}일입니다.",
        "teaching": "{day}일차 교육 시간이 {found}분입니다(점심 제외). {expected}분이 되도록 세션을 조정하세요.",
        "no_lunch": "{day}일차에 {minutes}분 점심시간이 없습니다.",
        "lunch_len": "{day}일차 점심시간이 {found}분입니다. {minutes}분으로 맞추세요.",
        "lunch_many": "{day}일차에 점심시간이 {found}번 있습니다. 한 번만 두세요.",
        "no_am_break": "{day}일차 오전에 휴식이 없습니다. 점심 전에 휴식을 한 번 이상 넣으세요.",
        "no_pm_break": "{day}일차 오후에 휴식이 없습니다. 점심 후에 휴식을 한 번 이상 넣으세요.",
        "no_break": "{day}일차에 휴식이 없습니다.",
        "too_long": (
            "{day}일차 {start}–{end} 「{label}」 세션이 {minutes}분으로 최대 {limit}분을 넘습니다. {limit}분 "
            "이하로 나누고 사이에 휴식을 넣으세요."
        ),
        "gap": "{day}일차 {time} 전후로 시간이 비거나 겹칩니다.",
        "stated": "{day}일차 {start} 행의 분({stated})이 시작·종료 시각과 맞지 않습니다({minutes}분).",
        "unreadable": "{day}일차 일정표에 시각을 읽을 수 없는 행이 {count}개 있습니다.",
        "missing_subtopic": "세부 주제 「{title}」이(가) 초안에 없습니다. 제목 그대로 소제목을 만들어 다루세요.",
        "missing_point": '근거 자료의 핵심 내용이 빠졌습니다: "{point}"',
        "missing_tool": "도구 '{tool}' 활용이 초안에 없습니다. 실습에 포함하세요.",
        "missing_constraint": "제약 조건 '{constraint}'에 대한 대응이 없습니다.",
        "practice_low": "실습 비중이 {share}%입니다. {level} 대상이면 최소 {minimum}%가 실습이어야 합니다.",
        "long_lecture": (
            "{day}일차 {start}–{end} 「{label}」은(는) {minutes}분 동안 설명만 합니다. {level} 대상은 "
            "{limit}분마다 실습을 넣으세요."
        ),
        "no_glossary": "{level} 대상인데 용어집이 없습니다. 본문에 쓴 용어를 쉬운 말로 풀어 주세요.",
        "undefined_term": "용어('{term}')가 본문에 쓰였지만 용어집에 없습니다.",
        "no_schedule_share": "일정표가 없어 실습 비중을 판단할 수 없습니다.",
        "beginner": "초급",
        "intermediate": "중급",
        "advanced": "고급",
    },
    "en": {
        "concepts_ai": "Core concepts and vocabulary of generative AI",
        "concepts_ai_d": (
            "Explains, for the audience ({audience}), what generative AI does well and badly and the terms "
            "people hear most, with workplace examples."
        ),
        "concepts": "{topic}: core concepts and vocabulary",
        "concepts_d": (
            "Sets out the basic concepts and terms of {topic} for the audience ({audience}), with workplace examples."
        ),
        "prompt": "Prompt writing basics",
        "prompt_d": "Write prompts with a role, task, context and format, then improve them by reading the results.",
        "tool": "{tool} at work: hands-on practice",
        "tool_d": (
            "Learn {tool} by doing real work in it: writing, organising and sharing documents (run within: "
            "{constraints})."
        ),
        "safety": "AI tool safety and data privacy",
        "safety_d": (
            "Agree what company and personal data never goes into a prompt, how to verify answers and catch "
            "hallucination, and the house rules."
        ),
        "pitfalls": "Common mistakes and how to fix them",
        "pitfalls_d": (
            "Walk through the mistakes newcomers ({audience}) make first and a routine to fix them on their own."
        ),
        "apply": "Planning how to apply it at work",
        "apply_d": (
            "Each learner plans how to apply the course to one task of their own job and shares the plan with a peer."
        ),
        "wrap": "Capstone practice and assessment",
        "wrap_d": (
            "Combine the results of the course into one working flow in {tools} and assess each other with a checklist."
        ),
        "summary": (
            'Reviewed {count} documents ({titles}) to prepare "{title}". {points} key points feed the session '
            "content and the practice design."
        ),
        "summary_none": (
            'No documents matched "{title}"; the session follows general adult-learning design principles.'
        ),
        "doc_title": "Lecture plan: {topic}",
        "overview": "Course overview",
        "fields": "Topic|Audience|Duration|Delivery|Platform/tools|Constraints",
        "item_value": "Item|Details",
        "objectives": "Learning objectives",
        "objective": 'Explain the essentials of "{title}" and apply them to their own work.',
        "schedule": "Schedule — day {day} ({start}–{end})",
        "day_total": "Teaching time {teaching} minutes ({sessions} in sessions + {breaks} in breaks){lunch}.",
        "lunch_note": ", plus a {minutes}-minute lunch",
        "details": "Session details",
        "slot": "When: day {day}, {start}–{end} ({minutes} min, {format})",
        "how_lecture": "How: mostly explanation.",
        "how_mixed": (
            "How: a short explanation, then straight into follow-along practice (explaining takes at most half "
            "the session)."
        ),
        "how_practice": (
            "How: learners follow a step-by-step sheet on their own laptop while the trainer walks around and helps."
        ),
        "task_tool": (
            "Exercise: in {tool}, pick one real task of your job (meeting notes, a report draft, a to-do list), "
            "produce the result and swap it with a partner for review."
        ),
        "task_generic": "Exercise: apply what was just taught to one work case in {tools}.",
        "evidence": "Evidence: {summary}",
        "sources": "Sources: {sources}",
        "assessment": "Assessment",
        "assess_beginner": (
            "- A checklist of practice results (finished, usable at work) instead of a test.\n- A five-question "
            "self-check at the start and the end shows the change in confidence.\n- Within a week, apply it once "
            "to real work and share the result."
        ),
        "assess_other": (
            "- Each session ends with a submitted result and rubric-based feedback.\n- The capstone result is "
            "assessed by peers and by the trainer.\n- Within two weeks, share one case of applying it at work."
        ),
        "constraints": "Constraints",
        "c_projector": (
            "No slides on a wall: course notes and step-by-step sheets go out as a shared link ({where}); "
            "demonstrations are short and everyone repeats the steps on their own screen."
        ),
        "c_laptop": (
            "All practice happens on each learner's own laptop; accounts, chargers and Wi-Fi are checked before "
            "the start."
        ),
        "c_network": (
            "Example files and instructions are downloaded in advance so the session survives a dropped connection."
        ),
        "c_generic": "Built into the running plan and confirmed with participants before the start.",
        "shared_page": "shared page",
        "glossary": "Glossary",
        "materials": "Materials",
        "materials_list": (
            "- Own laptop and charger, {tools} accounts (login checked in advance)\n- Link to the shared course "
            "notes (step-by-step sheets, example files)"
        ),
        "revision": "Changes (draft round {round})",
        "addressed": "Review addressed — {reviewer}: {item}",
        "reviewer_content": "content",
        "reviewer_time_allocation": "time_allocation",
        "reviewer_difficulty": "difficulty",
        "notes": "Human reviewer's notes: {notes}",
        "ok_time": "No issues: every day follows the teaching-time, lunch, break and session-length rules.",
        "ok_content": "No issues: every subtopic, research point, tool and constraint is covered.",
        "ok_difficulty": "No issues: practice share and explanations of terms fit the audience level.",
        "no_table": "No schedule table found. Add one table per day with the columns '{columns}'.",
        "assumed": (
            "Could not read the duration '{duration}'; assumed one day of 480 minutes. Write it like '1 day, 8 hours'."
        ),
        "day_count": "The schedule covers {found} day(s) but the duration '{duration}' means {expected}.",
        "teaching": "Day {day} has {found} teaching minutes (lunch excluded); adjust the sessions to {expected}.",
        "no_lunch": "Day {day} has no {minutes}-minute lunch.",
        "lunch_len": "Day {day}'s lunch is {found} minutes; make it {minutes}.",
        "lunch_many": "Day {day} has {found} lunches; keep one.",
        "no_am_break": "Day {day} has no morning break; add at least one before lunch.",
        "no_pm_break": "Day {day} has no afternoon break; add at least one after lunch.",
        "no_break": "Day {day} has no break.",
        "too_long": (
            'Day {day} {start}–{end} "{label}" runs {minutes} minutes, over the {limit}-minute limit; split it '
            "with a break."
        ),
        "gap": "Day {day} has a gap or an overlap around {time}.",
        "stated": "Day {day}, row {start}: the minutes column ({stated}) does not match the times ({minutes}).",
        "unreadable": "Day {day}'s table has {count} row(s) whose times cannot be read.",
        "missing_subtopic": 'The subtopic "{title}" is missing; give it a heading with that title.',
        "missing_point": 'A research key point is not covered: "{point}"',
        "missing_tool": "The tool '{tool}' is never used; include it in the practice.",
        "missing_constraint": "Nothing addresses the constraint '{constraint}'.",
        "practice_low": "Practice is {share}% of session time; a {level} audience needs at least {minimum}%.",
        "long_lecture": (
            'Day {day} {start}–{end} "{label}" is {minutes} minutes of explanation only; a {level} audience '
            "needs practice every {limit} minutes."
        ),
        "no_glossary": "A {level} audience needs a glossary explaining the terms used.",
        "undefined_term": "The term '{term}' is used but not in the glossary.",
        "no_schedule_share": "No schedule table, so the practice share cannot be judged.",
        "beginner": "beginner",
        "intermediate": "intermediate",
        "advanced": "advanced",
    },
}

FORMATS: dict[Language, dict[str, str]] = {
    "ko": {"lecture": "강의", "practice": "실습", "mixed": "강의+실습", "break": "휴식", "lunch": "점심"},
    "en": {
        "lecture": "lecture",
        "practice": "practice",
        "mixed": "lecture+practice",
        "break": "break",
        "lunch": "lunch",
    },
}

# Jargon a beginner must find explained; the writer's glossary draws on the
# same entries, so anything it writes it can also define.
GLOSSARY: dict[Language, dict[str, str]] = {
    "ko": {
        "생성형 AI": "글, 표, 그림 같은 새 결과물을 만들어 내는 인공지능.",
        "프롬프트": "AI에게 주는 요청문. 역할·과제·맥락·형식을 담을수록 결과가 좋아진다.",
        "토큰": "AI가 글을 나누어 처리하는 조각 단위. 입력과 출력 길이의 한도를 정한다.",
        "환각": "AI가 사실이 아닌 내용을 그럴듯하게 지어내는 현상(할루시네이션).",
        "LLM": "대규모 언어 모델. ChatGPT 같은 서비스의 바탕이 되는 AI.",
        "API": "프로그램끼리 기능을 주고받는 연결 창구.",
        "개인정보": "이름, 연락처처럼 특정 개인을 알아볼 수 있는 정보.",
        "템플릿": "자주 쓰는 문서 형식을 미리 만들어 둔 틀.",
        "데이터베이스": "같은 형식의 항목을 표처럼 모아 정렬·필터할 수 있게 한 목록.",
    },
    "en": {
        "generative AI": "AI that produces new text, tables or images.",
        "prompt": "The request given to an AI; a role, task, context and format make it better.",
        "token": "The small pieces an AI splits text into; they limit input and output length.",
        "hallucination": "When an AI confidently makes up something untrue.",
        "LLM": "Large language model, the kind of AI behind services such as ChatGPT.",
        "API": "A connection through which programs use each other's functions.",
        "personal data": "Information that identifies a person, such as a name or phone number.",
        "template": "A ready-made page layout for documents written again and again.",
        "database": "A list of items with the same fields that can be sorted and filtered like a table.",
    },
}

TOOL_DEFINITIONS: dict[str, dict[Language, str]] = {
    "chatgpt": {"ko": "OpenAI의 대화형 AI 서비스.", "en": "OpenAI's conversational AI service."},
    "notion": {
        "ko": "문서, 할 일, 데이터베이스를 한곳에서 관리하는 협업 도구.",
        "en": "A workspace for documents, tasks and databases.",
    },
    "gemini": {"ko": "Google의 대화형 AI 서비스.", "en": "Google's conversational AI service."},
    "copilot": {"ko": "Microsoft 제품에 들어 있는 AI 도우미.", "en": "The AI assistant built into Microsoft products."},
    "excel": {"ko": "Microsoft의 스프레드시트 프로그램.", "en": "Microsoft's spreadsheet program."},
    "slack": {"ko": "팀 메시지와 채널 기반 협업 도구.", "en": "A team messaging tool organised in channels."},
}

JARGON_TERMS: dict[Language, tuple[str, ...]] = {
    "ko": ("프롬프트", "토큰", "환각", "LLM", "API", "임베딩", "파인튜닝", "RAG", "생성형 AI"),
    "en": ("prompt", "token", "hallucination", "LLM", "API", "embedding", "fine-tuning", "RAG", "generative AI"),
}
