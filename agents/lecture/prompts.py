"""Prompts for the lecture planner's jobs, shared by Gemini and the embedded model.

Every job is one system message and one human message:

* the system message starts with a task marker line (``TASK: plan``,
  ``TASK: review_time_allocation`` ...). Gemini reads it as part of the
  instructions; :class:`~agents.lecture.model.EmbeddedChatModel` uses it to know
  which job it is asked to do, so both models go through the same code path;
* the human message carries the structured input as one fenced JSON block.

Structured answers (plan, research summary, review) are asked for as JSON and
read back with :func:`extract_json`, which tolerates fences and chatter around
the JSON and raises :class:`ModelOutputError` on garbage. The draft is Markdown
with a schedule table in a fixed shape (:data:`SCHEDULE_COLUMNS`) so that the
``time_allocation`` reviewer can check it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from agents.lecture.duration import DAY_MINUTES
from agents.lecture.inputs import LectureInput
from agents.lecture.research import SourceDocument
from agents.lecture.state import Subtopic

Language = Literal["ko", "en"]

TASK_PLAN = "plan"
TASK_RESEARCH = "research_summary"
TASK_DRAFT = "draft"
REVIEWERS: tuple[str, ...] = ("content", "time_allocation", "difficulty")
TASK_MARKER_PATTERN = re.compile(r"^TASK:\s*([a-z_]+)\s*$", re.MULTILINE)
INPUT_HEADER = "INPUT (JSON):"

#: Teaching rules the writer follows and the time reviewer checks (and a day's minutes, ``DAY_MINUTES``).
LUNCH_MINUTES = 60
MAX_SESSION_MINUTES = 90

#: Column headers of the schedule table, per language (start, end, minutes, session, format).
SCHEDULE_COLUMNS: dict[Language, tuple[str, ...]] = {
    "ko": ("시작", "종료", "분", "세션", "형식"),
    "en": ("Start", "End", "Minutes", "Session", "Format"),
}

_HANGUL = re.compile(r"[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")
_LATIN = re.compile(r"[A-Za-z]")
_LANGUAGE_NAMES: dict[Language, str] = {"ko": "Korean (한국어)", "en": "English"}


class ModelOutputError(ValueError):
    """The model's answer could not be read as the structure the job asked for."""


def detect_language(text: str) -> Language:
    """Returns ``"ko"`` when Hangul makes up a fair share of the letters, else ``"en"``.

    A share (not mere presence) is used so that an English brief naming one
    Korean product still counts as English, while Korean text full of English
    tool names ("ChatGPT, Notion") still counts as Korean.
    """
    hangul = len(_HANGUL.findall(text))
    latin = len(_LATIN.findall(text))
    if hangul == 0:
        return "en"
    return "ko" if hangul / (hangul + latin) >= 0.2 else "en"


def task_of(system_text: str) -> str | None:
    """Returns the task named by the marker line of a system prompt, if any."""
    match = TASK_MARKER_PATTERN.search(system_text)
    return match.group(1) if match else None


def review_task(reviewer: str) -> str:
    """Returns the task marker value for one reviewer (``review_content`` ...)."""
    if reviewer not in REVIEWERS:
        raise ValueError(f"unknown reviewer {reviewer!r}; expected one of {REVIEWERS}")
    return f"review_{reviewer}"


def extract_json(text: str) -> Any:
    """Reads the JSON value in a model answer.

    Tries, in order: the whole text, each fenced code block, and the first
    ``{``/``[`` from which a complete JSON value decodes.

    Raises:
        ModelOutputError: No JSON value could be found; the message quotes the
            start of the answer so the cause is visible.
    """
    stripped = text.strip()
    candidates = [stripped]
    candidates += [block.strip() for block in re.findall(r"```[\w-]*\s*\n(.*?)```", text, re.DOTALL)]
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except json.JSONDecodeError:
            continue
    decoder = json.JSONDecoder()
    for match in re.finditer(r"[\[{]", stripped):
        try:
            value, _ = decoder.raw_decode(stripped, match.start())
        except json.JSONDecodeError:
            continue
        return value
    preview = stripped[:200].replace("\n", " ")
    raise ModelOutputError(f"expected a JSON answer, got: {preview!r}")


def _messages(task: str, instructions: str, payload: Mapping[str, Any]) -> list[BaseMessage]:
    """Builds the two messages of a job: marker + instructions, then the JSON input."""
    body = json.dumps(payload, ensure_ascii=False, indent=2, sort_keys=True)
    return [
        SystemMessage(content=f"TASK: {task}\n\n{instructions.strip()}"),
        HumanMessage(content=f"{INPUT_HEADER}\n```json\n{body}\n```"),
    ]


def _language_rule(language: Language) -> str:
    return f"Write every sentence in {_LANGUAGE_NAMES[language]}, the language of the input."


def plan_messages(lecture: LectureInput) -> list[BaseMessage]:
    """Messages asking for the plan: 3 to 5 subtopics as JSON."""
    language = detect_language(" ".join(str(value) for value in lecture.values()))
    instructions = f"""
You are an instructional designer planning a lecture for adult learners.
Split the lecture described in the input into 3 to 5 subtopics that follow a
sensible teaching order, fit the audience level, use the named tools and
respect the constraints. {_language_rule(language)}
Answer with JSON only, in this shape:
{{"subtopics": [{{"title": "short title", "description": "one or two sentences"}}]}}
"""
    return _messages(TASK_PLAN, instructions, {"lecture": dict(lecture)})


def research_messages(
    lecture: LectureInput | None,
    subtopic: Subtopic,
    documents: Sequence[SourceDocument],
) -> list[BaseMessage]:
    """Messages asking for a research summary of one subtopic from given documents."""
    language = detect_language(subtopic["title"] + " " + " ".join(str(value) for value in (lecture or {}).values()))
    instructions = f"""
You are a research assistant preparing material for one lecture subtopic.
Summarise only what the given documents say that is useful for teaching the
subtopic; do not invent facts or sources. {_language_rule(language)}
Key points may quote a document. List the "source" of every document you used.
Answer with JSON only, in this shape:
{{"summary": "two or three sentences", "key_points": ["..."], "sources": ["..."]}}
"""
    payload = {"lecture": dict(lecture or {}), "subtopic": dict(subtopic), "documents": [dict(d) for d in documents]}
    return _messages(TASK_RESEARCH, instructions, payload)


def draft_messages(payload: Mapping[str, Any]) -> list[BaseMessage]:
    """Messages asking for the Markdown lecture plan (first draft or a revision).

    Args:
        payload: ``lecture``, ``subtopics``, ``research``, ``round``,
            ``feedback`` (reviews of the previous draft), ``human_notes`` and,
            for a revision, ``previous_draft``.
    """
    language = detect_language(" ".join(payload["lecture"].values()))
    columns = " | ".join(SCHEDULE_COLUMNS[language])
    instructions = f"""
You are an instructional designer writing a lecture plan in Markdown.
{_language_rule(language)}
Rules the plan must follow:
- One day of teaching is {DAY_MINUTES} minutes (an "8 hours" day), not counting a
  {LUNCH_MINUTES}-minute lunch; breaks count inside the {DAY_MINUTES} minutes.
- Exactly one {LUNCH_MINUTES}-minute lunch per full day, at least one break in
  the morning and one in the afternoon, no session longer than {MAX_SESSION_MINUTES} minutes.
- Use every named tool, respect every constraint, cover every subtopic (use its
  title as a "###" heading) and every research key point.
- For beginners: mostly hands-on practice and a glossary section.
Write one schedule table per day under a "## " heading, with exactly these columns:
| {columns} |
Times as HH:MM, minutes as a number, format one of lecture / practice /
lecture+practice / break / lunch (in the output language).
If "feedback" or "human_notes" are given, this is a revision: fix every
flagged item, keep what was fine, and list what you changed in a short section.
Answer with the Markdown document only.
"""
    return _messages(TASK_DRAFT, instructions, payload)


_REVIEW_FOCUS = {
    "content": (
        "Check that every subtopic and every research key point is covered, that every "
        "named tool is used and every constraint is addressed."
    ),
    "time_allocation": (
        f"Parse the schedule tables and check: the day's non-lunch minutes add up to "
        f"{DAY_MINUTES} per day of the stated duration, one {LUNCH_MINUTES}-minute lunch per "
        f"full day, a break before and after lunch, no session over {MAX_SESSION_MINUTES} "
        "minutes, times contiguous and consistent with the minutes column."
    ),
    "difficulty": (
        "Check the fit between the audience level and the content: beginners need at least "
        "half of the session time as hands-on practice, no lecture-only block over 60 "
        "minutes, and a glossary that defines the jargon used."
    ),
}


def review_messages(reviewer: str, payload: Mapping[str, Any]) -> list[BaseMessage]:
    """Messages asking one reviewer to score a draft.

    Args:
        reviewer: One of :data:`REVIEWERS`.
        payload: ``lecture``, ``subtopics``, ``research`` and ``draft``.
    """
    task = review_task(reviewer)  # first: it refuses an unknown reviewer with a clear message
    language = detect_language(" ".join(payload["lecture"].values()))
    instructions = f"""
You are the "{reviewer}" reviewer of a lecture plan. {_REVIEW_FOCUS[reviewer]}
Score 0-100 (100 = nothing to fix; below 80 = must be reworked) and list
concrete, actionable feedback items naming what to change.
{_language_rule(language)}
Answer with JSON only, in this shape:
{{"score": 85, "feedback": ["..."]}}
"""
    return _messages(task, instructions, payload)
