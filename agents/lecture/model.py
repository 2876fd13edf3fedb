"""The embedded chat model: a deterministic, offline stand-in for Gemini.

:class:`EmbeddedChatModel` is a real LangChain chat model (``BaseChatModel``),
so the lecture planner calls it exactly as it calls Gemini: the same prompts
(:mod:`agents.lecture.prompts`), ``invoke``/``ainvoke``, callbacks and tracing.
It reads the job from the ``TASK: ...`` marker of the system message and the
JSON input of the human message, and answers in the input's language (Korean
when Hangul dominates, see :func:`~agents.lecture.prompts.detect_language`):

* ``plan``: 3 to 5 subtopics as JSON, built from the topic, the tools and
  whether the topic is about AI;
* ``research_summary``: a summary plus one key sentence per given document
  (documents in the input's language first), as JSON;
* ``draft``: a Markdown lecture plan with one schedule table per day;
* ``review_content`` / ``review_time_allocation`` / ``review_difficulty``:
  JSON ``{"score": 0-100, "feedback": [...]}`` from real checks of the draft
  text (the schedule is parsed back from the Markdown, not remembered).

Same input, same output: nothing depends on time, randomness or set order.
The simulated latency (``latency`` field, else ``HITL_MODEL_LATENCY`` seconds,
default 0.3) varies by a deterministic ±20% derived from a hash of the prompt,
so parallel tasks end at different times but a rerun waits the same.

Duration parsing (:func:`parse_duration`): ``N일``/``N days`` gives the days,
``N시간``/``N hours`` (plus ``분``/``minutes``) the *total* teaching time, unless
a per-day word (``하루``, ``매일``, ``per day``, ``a day``, ``daily``) makes it
per day. A full day is 480 teaching minutes (breaks included, the 60-minute
lunch not), so "1일 8시간" is one day of 480 minutes, 09:00-18:00. Days only
means 480 minutes a day; hours only means as many 480-minute days as needed;
more than 480 minutes a day spills onto extra days; unreadable text assumes
one full day (and says so in the review).

The demo's deliberate flaw: the *first* draft (round 1, no reviewer feedback)
plans the first two sessions of day 1 as a 120-minute lecture-only block plus
a shortened second session, the way a hurried writer would. The
``time_allocation`` reviewer finds a session over 90 minutes (score 50) and
the ``difficulty`` reviewer, for beginners, a lecture-only block over 60
minutes (score 75), so the combined score (75) fails the gate of 80 and the
human gate is shown. A revision that receives the feedback (rework) writes the
regular schedule (two 85-minute sessions with a break) and lists every
addressed feedback item and the human's notes, so the next review passes.
Courses whose first block is 90 minutes or shorter have nowhere to hide the
flaw and are written correctly at once.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import os
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from agents.errors import InputError
from agents.lecture.prompts import (
    DAY_MINUTES,
    LUNCH_MINUTES,
    MAX_SESSION_MINUTES,
    SCHEDULE_COLUMNS,
    TASK_DRAFT,
    TASK_PLAN,
    TASK_RESEARCH,
    Language,
    detect_language,
    extract_json,
    review_task,
    task_of,
)
from agents.lecture.research import tokenize

LATENCY_ENV = "HITL_MODEL_LATENCY"
DEFAULT_LATENCY = 0.3
BREAK_MINUTES = 10
HALF_DAY_MINUTES = 240
DAY_START = 9 * 60
FLAW_SESSION_MINUTES = 120

# ---------------------------------------------------------------------------
# Words the model writes, per language
# ---------------------------------------------------------------------------

_TEXT: dict[Language, dict[str, str]] = {
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
            "{tool}에서 문서 작성, 정리, 공유 같은 실제 업무를 직접 해 보며 익힙니다({constraints} 조건에 맞춰 "
            "진행)."
        ),
        "safety": "AI 도구 보안과 개인정보 보호",
        "safety_d": (
            "회사 정보와 개인정보를 입력하지 않는 기준, 결과를 검증해 환각을 걸러 내는 습관, 사내 사용 수칙을 "
            "정합니다."
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
        "notes": "사람 검토자 메모: {notes}",
        "ok_time": "문제 없음: 모든 날의 교육 시간, 점심, 휴식, 세션 길이 규칙을 지킵니다.",
        "ok_content": "문제 없음: 모든 세부 주제, 근거 자료, 도구, 제약 조건이 다루어졌습니다.",
        "ok_difficulty": "문제 없음: 대상 수준에 맞는 실습 비중과 용어 설명을 갖추었습니다.",
        "no_table": "일정표를 찾을 수 없습니다. '{columns}' 열을 가진 일정표를 날마다 하나씩 넣으세요.",
        "assumed": "기간 '{duration}'을 해석하지 못해 하루 480분으로 가정했습니다. 기간을 '1일 8시간'처럼 적어 주세요.",
        "day_count": "일정표가 {found}일치인데 기간 '{duration}'은 {expected}일입니다.",
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
        "missing_point": "근거 자료의 핵심 내용이 빠졌습니다: \"{point}\"",
        "missing_tool": "도구 '{tool}' 활용이 초안에 없습니다. 실습에 포함하세요.",
        "missing_constraint": "제약 조건 '{constraint}'에 대한 대응이 없습니다.",
        "practice_low": "실습 비중이 {share}%입니다. {level} 대상이면 최소 {minimum}%가 실습이어야 합니다.",
        "long_lecture": (
            "{day}일차 {start}–{end} 「{label}」은(는) {minutes}분 동안 설명만 합니다. {level} 대상은 "
            "{limit}분마다 실습을 넣으세요."
        ),
        "no_glossary": "{level} 대상인데 용어집이 없습니다. 본문에 쓴 용어를 쉬운 말로 풀어 주세요.",
        "undefined_term": "용어 '{term}'이(가) 본문에 쓰였지만 용어집에 없습니다.",
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
            "Sets out the basic concepts and terms of {topic} for the audience ({audience}), with "
            "workplace examples."
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
            "Each learner plans how to apply the course to one task of their own job and shares the plan with a "
            "peer."
        ),
        "wrap": "Capstone practice and assessment",
        "wrap_d": (
            "Combine the results of the course into one working flow in {tools} and assess each other with a "
            "checklist."
        ),
        "summary": (
            "Reviewed {count} documents ({titles}) to prepare \"{title}\". {points} key points feed the session "
            "content and the practice design."
        ),
        "summary_none": (
            "No documents matched \"{title}\"; the session follows general adult-learning design principles."
        ),
        "doc_title": "Lecture plan: {topic}",
        "overview": "Course overview",
        "fields": "Topic|Audience|Duration|Delivery|Platform/tools|Constraints",
        "item_value": "Item|Details",
        "objectives": "Learning objectives",
        "objective": "Explain the essentials of \"{title}\" and apply them to their own work.",
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
            "How: learners follow a step-by-step sheet on their own laptop while the trainer walks around and "
            "helps."
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
            "Example files and instructions are downloaded in advance so the session survives a dropped "
            "connection."
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
        "notes": "Human reviewer's notes: {notes}",
        "ok_time": "No issues: every day follows the teaching-time, lunch, break and session-length rules.",
        "ok_content": "No issues: every subtopic, research point, tool and constraint is covered.",
        "ok_difficulty": "No issues: practice share and explanations of terms fit the audience level.",
        "no_table": "No schedule table found. Add one table per day with the columns '{columns}'.",
        "assumed": (
            "Could not read the duration '{duration}'; assumed one day of 480 minutes. Write it like '1 day, 8 "
            "hours'."
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
            "Day {day} {start}–{end} \"{label}\" runs {minutes} minutes, over the {limit}-minute limit; split it "
            "with a break."
        ),
        "gap": "Day {day} has a gap or an overlap around {time}.",
        "stated": "Day {day}, row {start}: the minutes column ({stated}) does not match the times ({minutes}).",
        "unreadable": "Day {day}'s table has {count} row(s) whose times cannot be read.",
        "missing_subtopic": "The subtopic \"{title}\" is missing; give it a heading with that title.",
        "missing_point": "A research key point is not covered: \"{point}\"",
        "missing_tool": "The tool '{tool}' is never used; include it in the practice.",
        "missing_constraint": "Nothing addresses the constraint '{constraint}'.",
        "practice_low": "Practice is {share}% of session time; a {level} audience needs at least {minimum}%.",
        "long_lecture": (
            "Day {day} {start}–{end} \"{label}\" is {minutes} minutes of explanation only; a {level} audience "
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

_FORMATS: dict[Language, dict[str, str]] = {
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
_GLOSSARY: dict[Language, dict[str, str]] = {
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

_TOOL_DEFINITIONS: dict[str, dict[Language, str]] = {
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

_JARGON_TERMS: dict[Language, tuple[str, ...]] = {
    "ko": ("프롬프트", "토큰", "환각", "LLM", "API", "임베딩", "파인튜닝", "RAG", "생성형 AI"),
    "en": ("prompt", "token", "hallucination", "LLM", "API", "embedding", "fine-tuning", "RAG", "generative AI"),
}

_AI_TOPIC = re.compile(r"\bai\b|인공지능|생성형|chatgpt|\bgpt|llm|프롬프트|prompt|gemini|copilot|claude", re.I)
_PRACTICE = re.compile(r"실습|practice|hands-on|exercise|워크숍|workshop", re.I)
_LECTURE = re.compile(r"강의|설명|lecture|talk|presentation", re.I)
_LUNCH = re.compile(r"점심|lunch", re.I)
_BREAK = re.compile(r"휴식|쉬는|\bbreak\b|coffee|티타임", re.I)
_BEGINNER = re.compile(r"초급|입문|초보|비개발자|처음|beginner|novice|introductory|\bintro\b|non-technical|basic", re.I)
_ADVANCED = re.compile(r"고급|심화|전문가|숙련|advanced|expert|senior", re.I)
_GLOSSARY_HEADING = re.compile(r"^(#{1,6})\s*(용어집|용어 정리|용어 설명|glossary|key terms)", re.I | re.M)
_TIME = re.compile(r"(\d{1,2}):(\d{2})")

# ---------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------


def split_items(text: str) -> list[str]:
    """Splits a list written as free text ("ChatGPT, Notion", "A 및 B") into items."""
    parts = re.split(r"[,，、;/\n]|\s+(?:and|및|그리고)\s+", text)
    return [part.strip() for part in parts if part.strip()]


def audience_level(audience: str) -> str:
    """Classifies an audience description as beginner, intermediate or advanced.

    Beginner words are checked first: "비개발자" contains "개발자" and is a
    beginner audience, not an expert one.
    """
    if _BEGINNER.search(audience):
        return "beginner"
    if _ADVANCED.search(audience):
        return "advanced"
    return "intermediate"


def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _cell(text: str) -> str:
    """Table cell text: a pipe would split the cell, so it becomes a slash."""
    return text.replace("|", "/").replace("\n", " ").strip()


def _contains(haystack: str, needle: str) -> bool:
    """Case-insensitive containment; ASCII words must stand alone (plural allowed)."""
    if re.fullmatch(r"[A-Za-z][A-Za-z -]*", needle):
        pattern = r"(?<![A-Za-z])" + re.escape(needle) + r"s?(?![A-Za-z])"
        return re.search(pattern, haystack, re.I) is not None
    return needle.casefold() in haystack.casefold()


def _format_share(format_text: str) -> float:
    """Share of a session spent practising, read from its format cell."""
    practice = bool(_PRACTICE.search(format_text))
    lecture = bool(_LECTURE.search(format_text))
    if practice and lecture:
        return 0.5
    return 1.0 if practice else 0.0


# ---------------------------------------------------------------------------
# Duration
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TeachingDays:
    """Teaching minutes per day (breaks included, lunch excluded).

    Attributes:
        day_minutes: One entry per day.
        assumed: True when the duration text could not be read and one full
            day was assumed.
    """

    day_minutes: tuple[int, ...]
    assumed: bool = False


_DAY_WORDS = {"하루": 1, "이틀": 2, "사흘": 3, "나흘": 4, "one day": 1, "two days": 2, "three days": 3}
_PER_DAY = re.compile(r"하루|매일|일일|per day|a day|/day|daily|each day", re.I)


def _days_in(text: str) -> int | None:
    match = re.search(r"(\d+)\s*(?:일(?!차)|days?\b)", text, re.I)
    if match:
        return int(match.group(1))
    for word, days in _DAY_WORDS.items():
        if word in text.lower():
            return days
    return None


def _minutes_in(text: str) -> int | None:
    hours = re.search(r"(\d+(?:\.\d+)?)\s*(?:시간|hours?\b|hrs?\b|h\b)", text, re.I)
    minutes = re.search(r"(\d+)\s*(?:분|minutes?\b|mins?\b)", text, re.I)
    if not hours and not minutes:
        return None
    total = float(hours.group(1)) * 60 if hours else 0.0
    return round(total + (int(minutes.group(1)) if minutes else 0))


def parse_duration(text: str) -> TeachingDays:
    """Reads a duration such as "1일 8시간", "2 days", "3 hours", "2일, 하루 6시간".

    See the module docstring for the rules.
    """
    days = _days_in(text)
    minutes = _minutes_in(text)
    if minutes is None or minutes <= 0:
        if days:
            return TeachingDays((DAY_MINUTES,) * days)
        return TeachingDays((DAY_MINUTES,), assumed=True)
    if _PER_DAY.search(text) and days:
        minutes *= days
    days = max(days or 1, math.ceil(minutes / DAY_MINUTES))
    base = minutes // days
    return TeachingDays((base,) * (days - 1) + (minutes - base * (days - 1),))


# ---------------------------------------------------------------------------
# Schedule: writing it
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ScheduleRow:
    """One row of a schedule table.

    Attributes:
        start: Start, in minutes after midnight.
        end: End, in minutes after midnight.
        label: The session cell.
        format: The format cell as written.
        kind: ``session``, ``break`` or ``lunch``.
        stated_minutes: The minutes column, if the table has one.
    """

    start: int
    end: int
    label: str
    format: str
    kind: str
    stated_minutes: int | None = None

    @property
    def minutes(self) -> int:
        """Length from the times (the times win over the minutes column)."""
        return self.end - self.start

    @property
    def practice_share(self) -> float:
        """Share of the row spent practising (0 for breaks and lunch)."""
        return _format_share(self.format) if self.kind == "session" else 0.0


def _split_block(block: int, minimum_sessions: int) -> list[int]:
    """Splits a block into sessions of at most 90 minutes, 10-minute breaks between."""
    count = max(minimum_sessions, 1)
    while (block - BREAK_MINUTES * (count - 1)) / count > MAX_SESSION_MINUTES:
        count += 1
    teaching = block - BREAK_MINUTES * (count - 1)
    base = teaching // count // 5 * 5
    lengths = [base] * count
    extra = teaching - base * count
    index = 0
    while extra >= 5:  # hand out whole 5-minute steps, earliest sessions first
        lengths[index % count] += 5
        extra -= 5
        index += 1
    lengths[-1] += extra
    return lengths


def day_layout(minutes: int) -> list[tuple[str, int]]:
    """The (kind, minutes) sequence of one day: sessions, breaks and lunch.

    A day over four hours gets a lunch after the first 3/8 of its teaching
    time (09:00-12:00 for 480 minutes) and at least two sessions per half,
    so that each half has a break.
    """
    if minutes > HALF_DAY_MINUTES:
        morning = round(minutes * 3 / 8 / 10) * 10
        blocks = [morning, minutes - morning]
    else:
        blocks = [minutes]
    layout: list[tuple[str, int]] = []
    for block_index, block in enumerate(blocks):
        if block_index:
            layout.append(("lunch", LUNCH_MINUTES))
        for session_index, length in enumerate(_split_block(block, 2 if len(blocks) > 1 else 1)):
            if session_index:
                layout.append(("break", BREAK_MINUTES))
            layout.append(("session", length))
    return layout


def _plant_flaw(layout: list[tuple[str, int]]) -> tuple[list[tuple[str, int]], bool]:
    """Makes the first session of a day 120 minutes long (the demo's first-draft flaw).

    Returns the layout and whether a flaw could be planted: the first block
    needs two sessions; when they cannot make room for 120 + 30 minutes they
    merge with their break into one over-long session instead.
    """
    if len(layout) < 3 or [kind for kind, _ in layout[:3]] != ["session", "break", "session"]:
        return layout, False
    first, second = layout[0][1], layout[2][1]
    if first + second >= FLAW_SESSION_MINUTES + 30:
        flawed = [("session", FLAW_SESSION_MINUTES), layout[1], ("session", first + second - FLAW_SESSION_MINUTES)]
        return flawed + layout[3:], True
    merged = first + BREAK_MINUTES + second
    if merged <= MAX_SESSION_MINUTES:
        return layout, False
    return [("session", merged)] + layout[3:], True


@dataclass(frozen=True)
class _Item:
    """What a session slot teaches: a subtopic (by id) or the closing wrap-up."""

    label: str
    format_key: str
    subtopic_id: str | None


def _session_items(slots: int, subtopics: Sequence[Mapping[str, str]], lang: Language) -> list[_Item]:
    """Assigns the session slots to subtopics, a wrap-up, or merged subtopics."""
    def item_of(sub: Mapping[str, str], suffix: str = "") -> _Item:
        key = "practice" if _PRACTICE.search(sub["title"]) else "mixed"
        return _Item(f"{sub['id']}. {sub['title']}{suffix}", key, sub["id"])

    if slots < len(subtopics):  # short course: several subtopics share a slot
        bounds = [round(i * len(subtopics) / slots) for i in range(slots + 1)]
        groups = [subtopics[bounds[i] : bounds[i + 1]] for i in range(slots)]
        return [
            _Item(" / ".join(f"{sub['id']}. {sub['title']}" for sub in group), "mixed", group[0]["id"])
            for group in groups
        ]
    wrap = [_Item(_TEXT[lang]["wrap"], "practice", None)] if slots > len(subtopics) else []
    spare = slots - len(subtopics) - len(wrap)
    # Spare slots go to hands-on subtopics first: practice needs the time most.
    ranked = sorted(subtopics, key=lambda sub: not _PRACTICE.search(sub["title"]))
    parts = {sub["id"]: 1 for sub in subtopics}
    for index in range(spare):
        parts[ranked[index % len(ranked)]["id"]] += 1
    items: list[_Item] = []
    for sub in subtopics:
        count = parts[sub["id"]]
        items += [item_of(sub, f" ({n}/{count})" if count > 1 else "") for n in range(1, count + 1)]
    return items + wrap


def build_schedule(
    days: TeachingDays, subtopics: Sequence[Mapping[str, str]], lang: Language, *, plant_flaw: bool
) -> list[list[ScheduleRow]]:
    """Writes the schedule rows of every day, 09:00 onwards.

    Args:
        days: Teaching minutes per day.
        subtopics: The plan (``id``, ``title``).
        lang: Output language.
        plant_flaw: Make the first-draft flaw (see the module docstring).
    """
    layouts = [day_layout(minutes) for minutes in days.day_minutes]
    flawed = False
    if plant_flaw:
        layouts[0], flawed = _plant_flaw(layouts[0])
    slots = sum(kind == "session" for layout in layouts for kind, _ in layout)
    items = iter(_session_items(slots, subtopics, lang))
    formats = _FORMATS[lang]
    schedule: list[list[ScheduleRow]] = []
    for day_index, layout in enumerate(layouts):
        clock, rows = DAY_START, []
        for kind, minutes in layout:
            if kind == "session":
                item = next(items)
                lecture_only = flawed and day_index == 0 and not rows
                format_key = "lecture" if lecture_only else item.format_key
                rows.append(ScheduleRow(clock, clock + minutes, item.label, formats[format_key], kind, minutes))
            else:
                rows.append(ScheduleRow(clock, clock + minutes, formats[kind], formats[kind], kind, minutes))
            clock += minutes
        schedule.append(rows)
    return schedule


# ---------------------------------------------------------------------------
# Schedule: reading it back
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ScheduleTable:
    """One parsed schedule table (one day).

    Attributes:
        rows: The rows whose times could be read, in table order.
        unreadable_rows: Rows skipped because their times could not be read.
    """

    rows: tuple[ScheduleRow, ...]
    unreadable_rows: int = 0


_COLUMN_PATTERNS = {
    "start": re.compile(r"^(시작|start|from)", re.I),
    "end": re.compile(r"^(종료|끝|end|until|to$)", re.I),
    "minutes": re.compile(r"^(분|소요|minutes?|mins?|duration)", re.I),
    "session": re.compile(r"(세션|내용|주제|session|topic|activity)", re.I),
    "format": re.compile(r"(형식|방식|유형|format|type|mode)", re.I),
}


def _markdown_tables(markdown: str) -> list[list[list[str]]]:
    """Splits Markdown into tables: lists of rows of cells, separator rows dropped."""
    tables: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in markdown.splitlines() + [""]:
        stripped = line.strip()
        if stripped.startswith("|"):
            cells = [cell.strip() for cell in stripped.strip("|").split("|")]
            if not all(re.fullmatch(r":?-{2,}:?", cell) for cell in cells if cell):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    return tables


def _columns(header: list[str]) -> dict[str, int]:
    columns: dict[str, int] = {}
    for name, pattern in _COLUMN_PATTERNS.items():
        for index, cell in enumerate(header):
            if pattern.search(cell) and index not in columns.values():
                columns[name] = index
                break
    return columns


def _row_kind(format_text: str, label: str) -> str:
    text = format_text or label
    if _LUNCH.search(text):
        return "lunch"
    if _BREAK.search(text):
        return "break"
    return "session"


def _parse_row(cells: list[str], columns: dict[str, int]) -> ScheduleRow | None:
    def cell(name: str) -> str:
        index = columns.get(name)
        return cells[index] if index is not None and index < len(cells) else ""

    start, end = _TIME.search(cell("start")), _TIME.search(cell("end"))
    if not start or not end:
        return None
    start_minutes = int(start.group(1)) * 60 + int(start.group(2))
    end_minutes = int(end.group(1)) * 60 + int(end.group(2))
    if end_minutes < start_minutes:
        return None
    stated = re.search(r"\d+", cell("minutes"))
    label, format_text = cell("session"), cell("format")
    kind = _row_kind(format_text, label)
    stated_minutes = int(stated.group()) if stated else None
    return ScheduleRow(start_minutes, end_minutes, label, format_text or label, kind, stated_minutes)


def parse_schedule(markdown: str) -> list[ScheduleTable]:
    """Reads every schedule table (one per day) out of a Markdown draft.

    A table counts as a schedule when its header names a start and an end
    column (Korean or English). Times are ``H:MM`` or ``HH:MM``.
    """
    tables: list[ScheduleTable] = []
    for table in _markdown_tables(markdown):
        columns = _columns(table[0])
        if "start" not in columns or "end" not in columns:
            continue
        rows = [_parse_row(cells, columns) for cells in table[1:]]
        readable = tuple(row for row in rows if row is not None)
        tables.append(ScheduleTable(readable, len(rows) - len(readable)))
    return tables


# ---------------------------------------------------------------------------
# Reviewers
# ---------------------------------------------------------------------------


def _score(hard: int, soft: int) -> int:
    """100 minus 35 per broken rule and 10 per inconsistency.

    A broken hard rule caps the score at 50: such a schedule cannot be run as
    written, whatever else is right.
    """
    score = 100 - 35 * hard - 10 * soft
    if hard:
        score = min(score, 50)
    return max(0, min(100, score))


def _day_problems(day: int, table: ScheduleTable, expected: int, lang: Language) -> tuple[list[str], list[str]]:
    """Hard rule violations and soft inconsistencies of one day's table."""
    text, rows = _TEXT[lang], table.rows
    hard: list[str] = []
    soft: list[str] = [text["unreadable"].format(day=day, count=table.unreadable_rows)] if table.unreadable_rows else []
    for previous, row in zip(rows, rows[1:], strict=False):
        if row.start != previous.end:
            soft.append(text["gap"].format(day=day, time=_clock(row.start)))
    for row in rows:
        if row.stated_minutes is not None and row.stated_minutes != row.minutes:
            soft.append(
                text["stated"].format(day=day, start=_clock(row.start), stated=row.stated_minutes, minutes=row.minutes)
            )
    teaching = sum(row.minutes for row in rows if row.kind != "lunch")
    if teaching != expected:
        hard.append(text["teaching"].format(day=day, found=teaching, expected=expected))
    hard += _break_problems(day, rows, expected, lang)
    for row in rows:
        if row.kind == "session" and row.minutes > MAX_SESSION_MINUTES:
            hard.append(text["too_long"].format(
                day=day, start=_clock(row.start), end=_clock(row.end), label=row.label,
                minutes=row.minutes, limit=MAX_SESSION_MINUTES,
            ))
    return hard, soft


def _break_problems(day: int, rows: Sequence[ScheduleRow], expected: int, lang: Language) -> list[str]:
    """Lunch and break rules: one 60-minute lunch on a full day, breaks on both sides."""
    text = _TEXT[lang]
    lunches = [index for index, row in enumerate(rows) if row.kind == "lunch"]
    breaks = [index for index, row in enumerate(rows) if row.kind == "break"]
    if expected <= HALF_DAY_MINUTES:
        needs_break = expected > MAX_SESSION_MINUTES and not breaks
        return [text["no_break"].format(day=day)] if needs_break else []
    if not lunches:
        return [text["no_lunch"].format(day=day, minutes=LUNCH_MINUTES)]
    problems: list[str] = []
    if len(lunches) > 1:
        problems.append(text["lunch_many"].format(day=day, found=len(lunches)))
    lunch = rows[lunches[0]]
    if lunch.minutes != LUNCH_MINUTES:
        problems.append(text["lunch_len"].format(day=day, found=lunch.minutes, minutes=LUNCH_MINUTES))
    if not any(index < lunches[0] for index in breaks):
        problems.append(text["no_am_break"].format(day=day))
    if not any(index > lunches[0] for index in breaks):
        problems.append(text["no_pm_break"].format(day=day))
    return problems


def review_time_allocation(payload: Mapping[str, Any], lang: Language) -> dict[str, Any]:
    """Checks the draft's schedule tables against the timing rules."""
    text, lecture = _TEXT[lang], payload["lecture"]
    tables = parse_schedule(payload["draft"])
    if not tables:
        return {"score": 0, "feedback": [text["no_table"].format(columns=" | ".join(SCHEDULE_COLUMNS[lang]))]}
    days = parse_duration(lecture["duration"])
    hard: list[str] = []
    soft: list[str] = [text["assumed"].format(duration=lecture["duration"])] if days.assumed else []
    if len(tables) != len(days.day_minutes):
        expected_days = len(days.day_minutes)
        hard.append(text["day_count"].format(found=len(tables), duration=lecture["duration"], expected=expected_days))
    for day, (table, expected) in enumerate(zip(tables, days.day_minutes, strict=False), start=1):
        day_hard, day_soft = _day_problems(day, table, expected, lang)
        hard += day_hard
        soft += day_soft
    feedback = hard + soft or [text["ok_time"]]
    return {"score": _score(len(hard), len(soft)), "feedback": feedback}


def _point_covered(point: str, draft: str) -> bool:
    """A research point is covered when it is quoted or most of its terms appear."""
    if point.strip().casefold() in draft.casefold():
        return True
    words = [token for token in dict.fromkeys(tokenize(point)) if len(token) > 2 or not token.isascii()]
    if not words:
        return True
    draft_tokens = set(tokenize(draft))
    return sum(word in draft_tokens for word in words) / len(words) >= 0.6


def review_content(payload: Mapping[str, Any], lang: Language) -> dict[str, Any]:
    """Checks coverage: subtopics, research key points, named tools, constraints."""
    text, lecture, draft = _TEXT[lang], payload["lecture"], payload["draft"]
    penalty, feedback = 0, []
    for subtopic in payload.get("subtopics", []):
        if subtopic["title"].casefold() not in draft.casefold():
            penalty += 15
            feedback.append(text["missing_subtopic"].format(title=subtopic["title"]))
    point_penalty = 0
    for result in payload.get("research", []):
        for point in result.get("key_points", []):
            if not _point_covered(point, draft):
                point_penalty += 5
                feedback.append(text["missing_point"].format(point=point[:120]))
    penalty += min(point_penalty, 30)
    for tool in split_items(lecture["platform_tools"]):
        if not _contains(draft, tool):
            penalty += 15
            feedback.append(text["missing_tool"].format(tool=tool))
    for constraint in split_items(lecture["constraints"]):
        if constraint.casefold() not in draft.casefold():
            penalty += 10
            feedback.append(text["missing_constraint"].format(constraint=constraint))
    return {"score": max(0, 100 - penalty), "feedback": feedback or [text["ok_content"]]}


def glossary_section(draft: str) -> str:
    """The text of the draft's glossary section ('' when there is none)."""
    match = _GLOSSARY_HEADING.search(draft)
    if not match:
        return ""
    level = len(match.group(1))
    rest = draft[match.end():]
    next_heading = re.search(rf"^#{{1,{level}}}\s", rest, re.M)
    return rest[: next_heading.start()] if next_heading else rest


_DIFFICULTY_RULES = {
    # level: (minimum practice share %, longest lecture-only block in minutes)
    "beginner": (50, 60),
    "intermediate": (40, 75),
    "advanced": (30, MAX_SESSION_MINUTES),
}


def review_difficulty(payload: Mapping[str, Any], lang: Language) -> dict[str, Any]:
    """Checks the fit of practice share, lecture blocks and glossary to the audience."""
    text, draft = _TEXT[lang], payload["draft"]
    level = audience_level(payload["lecture"]["audience_level"])
    level_name = text[level]
    minimum, lecture_limit = _DIFFICULTY_RULES[level]
    sessions = [row for table in parse_schedule(draft) for row in table.rows if row.kind == "session"]
    penalty, feedback = 0, []
    if not sessions:
        penalty += 20
        feedback.append(text["no_schedule_share"])
    else:
        total = sum(row.minutes for row in sessions)
        share = round(100 * sum(row.minutes * row.practice_share for row in sessions) / total)
        if share < minimum:
            penalty += 25
            feedback.append(text["practice_low"].format(share=share, level=level_name, minimum=minimum))
    for row in sessions:
        if row.practice_share == 0 and row.minutes > lecture_limit and level != "advanced":
            penalty += 25
            feedback.append(text["long_lecture"].format(
                day=1 + _day_of(draft, row), start=_clock(row.start), end=_clock(row.end),
                label=row.label, minutes=row.minutes, level=level_name, limit=lecture_limit,
            ))
    if level == "beginner":
        penalty, feedback = _glossary_check(draft, lang, level_name, penalty, feedback)
    return {"score": max(0, 100 - penalty), "feedback": feedback or [text["ok_difficulty"]]}


def _day_of(draft: str, target: ScheduleRow) -> int:
    """Index of the table (day) a parsed row belongs to."""
    for index, table in enumerate(parse_schedule(draft)):
        if target in table.rows:
            return index
    return 0


def _glossary_check(
    draft: str, lang: Language, level_name: str, penalty: int, feedback: list[str]
) -> tuple[int, list[str]]:
    """Beginners need a glossary that defines every piece of jargon the draft uses."""
    text = _TEXT[lang]
    glossary = glossary_section(draft)
    if not glossary.strip():
        return penalty + 25, feedback + [text["no_glossary"].format(level=level_name)]
    body = draft.replace(glossary, "")
    undefined = [term for term in _JARGON_TERMS[lang] if _contains(body, term) and not _contains(glossary, term)]
    feedback = feedback + [text["undefined_term"].format(term=term) for term in undefined]
    return penalty + min(20, 5 * len(undefined)), feedback


# ---------------------------------------------------------------------------
# Writers: plan, research summary, draft
# ---------------------------------------------------------------------------


def write_plan(lecture: Mapping[str, str], lang: Language) -> dict[str, Any]:
    """Plans 3 to 5 subtopics in teaching order from the six fields."""
    text = _TEXT[lang]
    about_ai = bool(_AI_TOPIC.search(f"{lecture['topic']} {lecture['platform_tools']}"))
    values = {
        "topic": lecture["topic"],
        "audience": lecture["audience_level"],
        "constraints": lecture["constraints"],
    }
    keys = ["concepts_ai", "prompt"] if about_ai else ["concepts"]
    entries = [(text[key].format(**values), text[f"{key}_d"].format(**values)) for key in keys]
    for tool in split_items(lecture["platform_tools"])[:2]:
        entries.append((text["tool"].format(tool=tool), text["tool_d"].format(tool=tool, **values)))
    closing = "safety" if about_ai else "pitfalls"
    entries.append((text[closing], text[f"{closing}_d"].format(**values)))
    if len(entries) < 5:
        entries.append((text["apply"], text["apply_d"]))
    return {"subtopics": [{"title": title, "description": description} for title, description in entries[:5]]}


def _sentences(text: str) -> list[str]:
    """Plain sentences of a Markdown text: headings dropped, list markers and emphasis stripped."""
    plain = re.sub(r"^\s*#.*$", "", text, flags=re.M)  # a heading is a label, not a statement
    plain = re.sub(r"^\s*([-*]|\d+\.)\s*", "", plain, flags=re.M)
    plain = re.sub(r"[*_`>]", "", plain)
    pieces = re.split(r"(?<=[.!?])\s+|\n+", plain)
    return [piece.strip() for piece in pieces if 20 <= len(piece.strip()) <= 300]


def _best_sentence(document: Mapping[str, str], query_tokens: set[str]) -> str | None:
    """The sentence sharing the most query terms (the earliest on a tie)."""
    best, best_score = None, -1
    for sentence in _sentences(document["text"]):
        score = len(query_tokens.intersection(tokenize(sentence)))
        if score > best_score:
            best, best_score = sentence, score
    return best


def write_research_summary(payload: Mapping[str, Any], lang: Language) -> dict[str, Any]:
    """Summarises the given documents for one subtopic: one key sentence per document."""
    text, subtopic = _TEXT[lang], payload["subtopic"]
    query_tokens = set(tokenize(f"{subtopic['title']} {subtopic.get('description', '')}"))
    # Documents in the learners' language first: their sentences can be quoted as they are.
    documents = payload.get("documents", [])
    ordered = sorted(documents, key=lambda doc: detect_language(doc["title"] + doc["text"][:300]) != lang)
    points: list[str] = []
    sources: list[str] = []
    titles: list[str] = []
    for document in ordered[:3]:
        sentence = _best_sentence(document, query_tokens)
        if sentence and sentence not in points:
            points.append(sentence)
            sources.append(document["source"])
            titles.append(document["title"])
    if not points:
        return {"summary": text["summary_none"].format(title=subtopic["title"]), "key_points": [], "sources": []}
    summary = text["summary"].format(
        title=subtopic["title"], count=len(points), titles="; ".join(titles), points=len(points)
    )
    return {"summary": summary, "key_points": points, "sources": sources}


def _overview(lecture: Mapping[str, str], lang: Language) -> str:
    text = _TEXT[lang]
    item, value = text["item_value"].split("|")
    names = text["fields"].split("|")
    keys = ("topic", "audience_level", "duration", "delivery_method", "platform_tools", "constraints")
    rows = "\n".join(f"| {name} | {_cell(lecture[key])} |" for name, key in zip(names, keys, strict=True))
    return f"## {text['overview']}\n\n| {item} | {value} |\n| --- | --- |\n{rows}"


def _schedule_markdown(schedule: Sequence[Sequence[ScheduleRow]], lang: Language) -> str:
    text = _TEXT[lang]
    header = "| " + " | ".join(SCHEDULE_COLUMNS[lang]) + " |\n|" + " --- |" * len(SCHEDULE_COLUMNS[lang])
    parts = []
    for day, rows in enumerate(schedule, start=1):
        body = "\n".join(
            f"| {_clock(r.start)} | {_clock(r.end)} | {r.minutes} | {_cell(r.label)} | {r.format} |" for r in rows
        )
        sessions = sum(r.minutes for r in rows if r.kind == "session")
        breaks = sum(r.minutes for r in rows if r.kind == "break")
        lunch = sum(r.minutes for r in rows if r.kind == "lunch")
        lunch_note = text["lunch_note"].format(minutes=lunch) if lunch else ""
        total = text["day_total"].format(teaching=sessions + breaks, sessions=sessions, breaks=breaks, lunch=lunch_note)
        title = text["schedule"].format(day=day, start=_clock(rows[0].start), end=_clock(rows[-1].end))
        parts.append(f"## {title}\n\n{header}\n{body}\n\n{total}")
    return "\n\n".join(parts)


def _how(format_text: str, lang: Language) -> str:
    share = _format_share(format_text)
    key = "how_practice" if share == 1 else "how_mixed" if share > 0 else "how_lecture"
    return _TEXT[lang][key]


def _subtopic_section(
    subtopic: Mapping[str, str],
    rows: Sequence[tuple[int, ScheduleRow]],
    research: Mapping[str, Any] | None,
    tools: Sequence[str],
    lang: Language,
) -> str:
    """The details of one subtopic: when, how, the exercise and the evidence."""
    text = _TEXT[lang]
    lines = [f"### {subtopic['id']}. {subtopic['title']}", "", subtopic.get("description", ""), ""]
    for day, row in rows:
        when = text["slot"].format(
            day=day, start=_clock(row.start), end=_clock(row.end), minutes=row.minutes, format=row.format
        )
        lines.append(f"- {when}")
    lines.append("- " + _how(rows[0][1].format if rows else _FORMATS[lang]["mixed"], lang))
    named = [tool for tool in tools if _contains(subtopic["title"], tool)]
    exercise = text["task_tool"].format(tool=named[0]) if named else text["task_generic"].format(tools=", ".join(tools))
    lines.append("- " + exercise)
    if research and research.get("key_points"):
        lines.append("- " + text["evidence"].format(summary=research.get("summary", "")))
        lines += [f"  - {point}" for point in research["key_points"]]
        lines.append("  - " + text["sources"].format(sources=", ".join(research.get("sources", []))))
    return "\n".join(lines)


def _details(payload: Mapping[str, Any], schedule: Sequence[Sequence[ScheduleRow]], lang: Language) -> str:
    text, lecture = _TEXT[lang], payload["lecture"]
    tools = split_items(lecture["platform_tools"])
    research = {result.get("subtopic_id"): result for result in payload.get("research", [])}
    slots = [(day, row) for day, rows in enumerate(schedule, start=1) for row in rows if row.kind == "session"]
    sections = [f"## {text['details']}"]
    for subtopic in payload["subtopics"]:
        own = [(day, row) for day, row in slots if _slot_teaches(row.label, subtopic["id"])]
        sections.append(_subtopic_section(subtopic, own, research.get(subtopic["id"]), tools, lang))
    if any(row.label == text["wrap"] for _, row in slots):
        wrap_rows = [(day, row) for day, row in slots if row.label == text["wrap"]]
        wrap = {"id": "+", "title": text["wrap"], "description": text["wrap_d"].format(tools=", ".join(tools))}
        sections.append(_subtopic_section(wrap, wrap_rows, None, tools, lang).replace("### +. ", "### ", 1))
    return "\n\n".join(sections)


def _slot_teaches(label: str, subtopic_id: str) -> bool:
    return re.search(rf"(^|/ ){re.escape(subtopic_id)}\. ", label) is not None


def _constraints_section(lecture: Mapping[str, str], lang: Language) -> str:
    text = _TEXT[lang]
    tools = split_items(lecture["platform_tools"])
    notion = [tool for tool in tools if "notion" in tool.lower()]
    where = f"{notion[0]} {text['shared_page']}" if notion else text["shared_page"]
    lines = [f"## {text['constraints']}", ""]
    for constraint in split_items(lecture["constraints"]):
        lowered = constraint.lower()
        if re.search(r"프로젝터|빔|projector|screen", lowered):
            answer = text["c_projector"].format(where=where)
        elif re.search(r"노트북|laptop|pc|컴퓨터", lowered):
            answer = text["c_laptop"]
        elif re.search(r"인터넷|와이파이|wi-?fi|internet|network|offline|오프라인", lowered):
            answer = text["c_network"]
        else:
            answer = text["c_generic"]
        lines.append(f"- **{constraint}**: {answer}")
    return "\n".join(lines)


def _glossary(draft: str, lecture: Mapping[str, str], lang: Language) -> str:
    """A glossary of the tools and of every catalogued term the draft uses."""
    text = _TEXT[lang]
    entries = []
    for tool in split_items(lecture["platform_tools"]):
        definition = _TOOL_DEFINITIONS.get(tool.lower(), {}).get(lang)
        if definition:
            entries.append(f"- **{tool}**: {definition}")
    entries += [f"- **{term}**: {meaning}" for term, meaning in _GLOSSARY[lang].items() if _contains(draft, term)]
    return f"## {text['glossary']}\n\n" + "\n".join(entries)


def _revision_section(payload: Mapping[str, Any], lang: Language) -> str:
    """What this revision addressed: every flagged review item and the human's notes."""
    text = _TEXT[lang]
    lines = [f"## {text['revision'].format(round=payload.get('round', 1))}", ""]
    for review in payload.get("feedback") or []:
        if int(review.get("score", 100)) >= 100:
            continue  # a clean review flags nothing to address
        reviewer = review.get("reviewer", "?")
        lines += [f"- {text['addressed'].format(reviewer=reviewer, item=item)}" for item in review.get("feedback", [])]
    notes = (payload.get("human_notes") or "").strip()
    if notes:
        lines.append("- " + text["notes"].format(notes=notes))
    return "\n".join(lines)


def write_draft_markdown(payload: Mapping[str, Any], lang: Language) -> str:
    """Writes the Markdown lecture plan; see the module docstring for the first-draft flaw."""
    text, lecture = _TEXT[lang], payload["lecture"]
    first_draft = int(payload.get("round") or 1) <= 1 and not payload.get("feedback")
    schedule = build_schedule(parse_duration(lecture["duration"]), payload["subtopics"], lang, plant_flaw=first_draft)
    level = audience_level(lecture["audience_level"])
    objectives = "\n".join(
        f"{number}. {text['objective'].format(title=sub['title'])}"
        for number, sub in enumerate(payload["subtopics"], start=1)
    )
    tools = ", ".join(split_items(lecture["platform_tools"]))
    body = [
        f"# {text['doc_title'].format(topic=lecture['topic'])}",
        _overview(lecture, lang),
        f"## {text['objectives']}\n\n{objectives}",
        _schedule_markdown(schedule, lang),
        _details(payload, schedule, lang),
        f"## {text['assessment']}\n\n" + text["assess_beginner" if level == "beginner" else "assess_other"],
        _constraints_section(lecture, lang),
        f"## {text['materials']}\n\n" + text["materials_list"].format(tools=tools),
    ]
    revision = _revision_section(payload, lang) if payload.get("feedback") or payload.get("human_notes") else ""
    if level != "advanced":  # experts do not need the basics spelled out
        body.append(_glossary("\n\n".join(body + [revision]), lecture, lang))
    if revision:
        body.append(revision)
    return "\n\n".join(body) + "\n"


# ---------------------------------------------------------------------------
# The chat model
# ---------------------------------------------------------------------------


def _payload_language(payload: Mapping[str, Any]) -> Language:
    lecture = payload.get("lecture") or {}
    sample = " ".join(str(value) for value in lecture.values())
    if not sample.strip() and isinstance(payload.get("subtopic"), Mapping):
        sample = str(payload["subtopic"].get("title", ""))
    return detect_language(sample)


_JSON_JOBS = {
    TASK_PLAN: lambda payload, lang: write_plan(payload["lecture"], lang),
    TASK_RESEARCH: write_research_summary,
    review_task("content"): review_content,
    review_task("time_allocation"): review_time_allocation,
    review_task("difficulty"): review_difficulty,
}


def answer(messages: Sequence[BaseMessage]) -> str:
    """The embedded model's answer to a job's messages (no latency).

    Raises:
        ValueError: The messages carry no known ``TASK:`` marker.
    """
    system = "\n".join(message.text for message in messages if message.type == "system")
    humans = [message.text for message in messages if message.type == "human"]
    task = task_of(system)
    if task is None or not humans or (task not in _JSON_JOBS and task != TASK_DRAFT):
        raise ValueError(
            f"EmbeddedChatModel only does the lecture planner's jobs; no known TASK marker found (got {task!r})"
        )
    payload = extract_json(humans[-1])
    lang = _payload_language(payload)
    if task == TASK_DRAFT:
        return write_draft_markdown(payload, lang)
    return json_dumps(_JSON_JOBS[task](payload, lang))


def json_dumps(value: Any) -> str:
    """JSON as the model writes it: readable, non-ASCII kept, keys sorted."""
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)


def latency_from_env(environ: Mapping[str, str] | None = None) -> float:
    """Reads ``HITL_MODEL_LATENCY`` (seconds, default 0.3); a bad value is a loud error."""
    raw = (environ if environ is not None else os.environ).get(LATENCY_ENV, "").strip()
    if not raw:
        return DEFAULT_LATENCY
    try:
        value = float(raw)
    except ValueError:
        raise InputError(LATENCY_ENV, f"must be a number of seconds, got {raw!r}") from None
    if value < 0 or not math.isfinite(value):
        raise InputError(LATENCY_ENV, f"must be zero or more seconds (a finite number), got {raw!r}")
    return value


class EmbeddedChatModel(BaseChatModel):
    """Deterministic offline chat model for the lecture planner (see module docstring).

    Attributes:
        latency: Simulated seconds per call before jitter; ``None`` reads
            ``HITL_MODEL_LATENCY`` (default 0.3). Tests use 0.
        model_name: Shown in traces and in the dashboard.
    """

    latency: float | None = Field(default=None, ge=0)
    model_name: str = "embedded-lecture-planner"

    @property
    def _llm_type(self) -> str:
        return "embedded-lecture-planner"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name, "latency": self.latency}

    def simulated_latency(self, messages: Sequence[BaseMessage]) -> float:
        """Seconds this call waits: the base latency ±20%, fixed by the prompt's hash."""
        base = self.latency if self.latency is not None else latency_from_env()
        if base == 0:
            return 0.0
        prompt = "\n".join(message.text for message in messages)
        digest = hashlib.sha256(prompt.encode("utf-8")).digest()
        fraction = int.from_bytes(digest[:8], "big") / 2**64
        return base * (0.8 + 0.4 * fraction)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        text = answer(messages)
        delay = self.simulated_latency(messages)
        if delay:
            time.sleep(delay)  # simulated network time, so parallel timelines overlap
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        text = answer(messages)
        delay = self.simulated_latency(messages)
        if delay:
            await asyncio.sleep(delay)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])
