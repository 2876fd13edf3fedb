"""The lecture planner's brains: typed steps the graph nodes call.

Every step takes the chat model as a parameter, so Gemini (see
:mod:`agents.lecture.llm`) and the embedded model
(:class:`~agents.lecture.model.EmbeddedChatModel`) go through the same code:
build the prompt (:mod:`agents.lecture.prompts`), ``invoke``/``ainvoke`` the
model, parse and check the answer. A model answer that cannot be read raises
:class:`~agents.lecture.prompts.ModelOutputError` (our or the model's fault,
so it stays loud); bad user input raises :class:`InputError` naming the field.

All data types are ``TypedDict``s of plain JSON values, so they sit in
LangGraph state, pass through the checkpoint serializer and the
``update_state`` forms unchanged.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable

from agents.errors import InputError
from agents.lecture.prompts import (
    REVIEWERS,
    ModelOutputError,
    draft_messages,
    extract_json,
    plan_messages,
    research_messages,
    review_messages,
)
from agents.lecture.research import ResearchSource, SourceDocument, query_for
from agents.validation import validate_text

__all__ = [
    "DEFAULT_LECTURE_INPUT",
    "LECTURE_FIELDS",
    "PASS_THRESHOLD",
    "REVIEWERS",
    "ChatModel",
    "InputError",
    "LectureInput",
    "ModelOutputError",
    "ResearchResult",
    "Review",
    "Subtopic",
    "amake_plan",
    "aresearch_subtopic",
    "areview_draft",
    "asummarize_research",
    "awrite_draft",
    "combined_score",
    "make_plan",
    "passes_gate",
    "research_subtopic",
    "review_draft",
    "summarize_research",
    "validate_human_notes",
    "validate_lecture_input",
    "write_draft",
]

#: What the steps accept as a model: a chat model or a retry/fallback chain of them.
ChatModel = Runnable[LanguageModelInput, BaseMessage]

LECTURE_FIELDS: tuple[str, ...] = (
    "topic",
    "audience_level",
    "duration",
    "delivery_method",
    "platform_tools",
    "constraints",
)
FIELD_MAX_LENGTH = 200
CONSTRAINTS_MAX_LENGTH = 500
HUMAN_NOTES_MAX_LENGTH = 1000
MIN_SUBTOPICS = 3
MAX_SUBTOPICS = 5
PASS_THRESHOLD = 80


class LectureInput(TypedDict):
    """The six fields of a lecture request (all required, trimmed)."""

    topic: str
    audience_level: str
    duration: str
    delivery_method: str
    platform_tools: str
    constraints: str


class Subtopic(TypedDict):
    """One planned subtopic; ``id`` is its stable slug (``s1`` ... ``s5``)."""

    id: str
    title: str
    description: str


class ResearchResult(TypedDict):
    """What research found for one subtopic.

    ``sources`` lists where the key points came from (corpus paths or URLs).
    """

    subtopic_id: str
    summary: str
    key_points: list[str]
    sources: list[str]


class Review(TypedDict):
    """One reviewer's verdict on a draft: a score 0-100 and feedback items."""

    reviewer: str
    score: int
    feedback: list[str]


DEFAULT_LECTURE_INPUT: LectureInput = {
    "topic": "업무에 바로 쓰는 AI 활용법",
    "audience_level": "비개발자 직장인 초급",
    "duration": "1일 8시간",
    "delivery_method": "강의+실습 병행",
    "platform_tools": "ChatGPT, Notion",
    "constraints": "프로젝터 없음, 노트북 1인 1대",
}


# ---------------------------------------------------------------------------
# Input validation
# ---------------------------------------------------------------------------


def validate_lecture_input(raw: Mapping[str, object]) -> LectureInput:
    """Checks and trims the six lecture fields.

    Each field must be text, non-empty after trimming, at most 200 characters
    (``constraints``: 500) and free of control characters; ``constraints`` may
    span lines because it is typed into a text area.

    Raises:
        InputError: Naming the first bad field (unknown fields included).
    """
    unknown = sorted(set(raw) - set(LECTURE_FIELDS))
    if unknown:
        raise InputError(str(unknown[0]), f"is not a lecture field; expected {', '.join(LECTURE_FIELDS)}")
    values: dict[str, str] = {}
    for field in LECTURE_FIELDS:
        if raw.get(field) is None:
            raise InputError(field, "is required")
        is_constraints = field == "constraints"
        limit = CONSTRAINTS_MAX_LENGTH if is_constraints else FIELD_MAX_LENGTH
        values[field] = validate_text(raw[field], field, max_length=limit, multiline=is_constraints)
    return LectureInput(**values)  # type: ignore[typeddict-item]


def validate_human_notes(notes: object) -> str:
    """Checks the human's rework notes: optional text, at most 1000 characters.

    Raises:
        InputError: Naming ``human_notes``.
    """
    if notes is None or (isinstance(notes, str) and not notes.strip()):
        return ""
    return validate_text(notes, "human_notes", max_length=HUMAN_NOTES_MAX_LENGTH, multiline=True)


# ---------------------------------------------------------------------------
# Parsing model answers
# ---------------------------------------------------------------------------


def _text_list(value: Any) -> list[str]:
    """A list of non-empty strings from a string, a list, or nothing."""
    if value is None:
        return []
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return [str(item).strip() for item in items if str(item).strip()]


def parse_plan(answer: str) -> list[Subtopic]:
    """Reads 3 to 5 subtopics from a model answer and numbers them ``s1`` ...

    More than five are cut to the first five (a model that over-delivers
    still gives a usable plan); fewer than three, or duplicates that leave
    fewer than three, are an error.

    Raises:
        ModelOutputError: Not a plan of at least three titled subtopics.
    """
    data = extract_json(answer)
    items = data.get("subtopics") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise ModelOutputError("the plan must be a JSON list of subtopics (or {'subtopics': [...]})")
    subtopics: list[Subtopic] = []
    seen: set[str] = set()
    for item in items:
        entry = item if isinstance(item, dict) else {"title": item}
        title = str(entry.get("title") or "").strip()[:120]
        if not title or title.casefold() in seen:
            continue
        seen.add(title.casefold())
        description = str(entry.get("description") or entry.get("definition") or "").strip()
        subtopics.append(Subtopic(id=f"s{len(subtopics) + 1}", title=title, description=description))
    if len(subtopics) < MIN_SUBTOPICS:
        raise ModelOutputError(f"the plan has {len(subtopics)} usable subtopics; at least {MIN_SUBTOPICS} are needed")
    return subtopics[:MAX_SUBTOPICS]


def parse_research(answer: str, subtopic_id: str, documents: Sequence[SourceDocument]) -> ResearchResult:
    """Reads a research summary; sources the documents do not contain are dropped.

    Raises:
        ModelOutputError: Not a JSON object with a summary.
    """
    data = extract_json(answer)
    if not isinstance(data, dict) or not str(data.get("summary") or "").strip():
        raise ModelOutputError("a research summary must be a JSON object with a non-empty 'summary'")
    known = {document["source"] for document in documents}
    # A model can invent a plausible URL; only sources we handed it are kept.
    sources = [source for source in _text_list(data.get("sources")) if source in known]
    return ResearchResult(
        subtopic_id=subtopic_id,
        summary=str(data["summary"]).strip(),
        key_points=_text_list(data.get("key_points")),
        sources=list(dict.fromkeys(sources)),
    )


def parse_draft(answer: str) -> str:
    """Returns the Markdown draft, unwrapped from a whole-document code fence.

    Raises:
        ModelOutputError: The answer is empty.
    """
    text = answer.strip()
    fenced = re.fullmatch(r"```(?:markdown|md)?\s*\n(.*)\n```", text, re.DOTALL)
    if fenced:
        text = fenced.group(1).strip()
    if not text:
        raise ModelOutputError("the model returned an empty draft")
    return text + "\n"


def parse_review(answer: str, reviewer: str) -> Review:
    """Reads a review; the score is rounded and clamped to 0-100.

    Raises:
        ModelOutputError: No numeric ``score``.
    """
    data = extract_json(answer)
    if not isinstance(data, dict):
        raise ModelOutputError(f"the {reviewer} review must be a JSON object")
    try:
        score = float(data.get("score"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ModelOutputError(f"the {reviewer} review has no numeric 'score': {data.get('score')!r}") from None
    if not math.isfinite(score):
        raise ModelOutputError(f"the {reviewer} review score is not a finite number")
    clamped = max(0, min(100, math.floor(score + 0.5)))
    return Review(reviewer=reviewer, score=clamped, feedback=_text_list(data.get("feedback")))


# ---------------------------------------------------------------------------
# Steps (sync)
# ---------------------------------------------------------------------------


def make_plan(model: ChatModel, lecture_input: LectureInput) -> list[Subtopic]:
    """Plans 3 to 5 subtopics for the lecture."""
    return parse_plan(model.invoke(plan_messages(lecture_input)).text)


def summarize_research(
    model: ChatModel,
    subtopic: Subtopic,
    documents: Sequence[SourceDocument],
    lecture_input: LectureInput | None = None,
) -> ResearchResult:
    """Summarises found documents for one subtopic.

    Args:
        model: The chat model.
        subtopic: The subtopic researched.
        documents: What the research source found (may be empty).
        lecture_input: Context for the model (and the output language).
    """
    answer = model.invoke(research_messages(lecture_input, subtopic, documents)).text
    return parse_research(answer, subtopic["id"], documents)


def research_subtopic(
    model: ChatModel,
    source: ResearchSource,
    lecture_input: LectureInput,
    subtopic: Subtopic,
    k: int = 3,
) -> ResearchResult:
    """Searches the research source for one subtopic and summarises what it found."""
    documents = source.search(query_for(subtopic["title"]), k)
    return summarize_research(model, subtopic, documents, lecture_input)


def _draft_payload(
    lecture_input: LectureInput,
    subtopics: Sequence[Subtopic],
    research: Sequence[ResearchResult],
    round: int,
    feedback: Sequence[Review],
    human_notes: str,
    previous_draft: str | None,
) -> dict[str, Any]:
    if round < 1:
        raise ValueError(f"draft rounds start at 1, got {round}")
    payload: dict[str, Any] = {
        "lecture": dict(lecture_input),
        "subtopics": [dict(subtopic) for subtopic in subtopics],
        "research": [dict(result) for result in research],
        "round": round,
        "feedback": [dict(review) for review in feedback],
        "human_notes": human_notes.strip(),
    }
    if previous_draft:
        payload["previous_draft"] = previous_draft
    return payload


def write_draft(
    model: ChatModel,
    lecture_input: LectureInput,
    subtopics: Sequence[Subtopic],
    research: Sequence[ResearchResult],
    round: int = 1,
    feedback: Sequence[Review] = (),
    human_notes: str = "",
    previous_draft: str | None = None,
) -> str:
    """Writes the Markdown lecture plan, or revises it.

    Args:
        model: The chat model.
        lecture_input: The six fields.
        subtopics: The plan.
        research: One result per subtopic (any order).
        round: 1 for the first draft, 2 for the first rework, ...
        feedback: The reviews of the previous draft (empty for the first).
        human_notes: The human's rework notes ('' for none).
        previous_draft: The draft being revised, so a real model can keep
            what was fine.

    Returns:
        The Markdown document, ending in a newline.
    """
    payload = _draft_payload(lecture_input, subtopics, research, round, feedback, human_notes, previous_draft)
    return parse_draft(model.invoke(draft_messages(payload)).text)


def _review_payload(
    lecture_input: LectureInput,
    subtopics: Sequence[Subtopic],
    draft: str,
    research: Sequence[ResearchResult],
) -> dict[str, Any]:
    return {
        "lecture": dict(lecture_input),
        "subtopics": [dict(subtopic) for subtopic in subtopics],
        "research": [dict(result) for result in research],
        "draft": draft,
    }


def review_draft(
    model: ChatModel,
    reviewer: str,
    lecture_input: LectureInput,
    subtopics: Sequence[Subtopic],
    draft: str,
    research: Sequence[ResearchResult] = (),
) -> Review:
    """Has one reviewer (``content``, ``time_allocation`` or ``difficulty``) score a draft.

    Raises:
        ValueError: Unknown reviewer name.
    """
    messages = review_messages(reviewer, _review_payload(lecture_input, subtopics, draft, research))
    return parse_review(model.invoke(messages).text, reviewer)


def combined_score(reviews: Sequence[Review]) -> int:
    """The gate's score: the mean of one round's review scores, rounded half up.

    Raises:
        ValueError: No reviews.
    """
    if not reviews:
        raise ValueError("combined_score needs at least one review")
    return math.floor(sum(review["score"] for review in reviews) / len(reviews) + 0.5)


def passes_gate(reviews: Sequence[Review], threshold: int = PASS_THRESHOLD) -> bool:
    """True when the combined score reaches the threshold (default 80)."""
    return combined_score(reviews) >= threshold


# ---------------------------------------------------------------------------
# Steps (async): same prompts and parsing, ``ainvoke`` instead of ``invoke``
# ---------------------------------------------------------------------------


async def amake_plan(model: ChatModel, lecture_input: LectureInput) -> list[Subtopic]:
    """Async :func:`make_plan`."""
    return parse_plan((await model.ainvoke(plan_messages(lecture_input))).text)


async def asummarize_research(
    model: ChatModel,
    subtopic: Subtopic,
    documents: Sequence[SourceDocument],
    lecture_input: LectureInput | None = None,
) -> ResearchResult:
    """Async :func:`summarize_research`."""
    answer = (await model.ainvoke(research_messages(lecture_input, subtopic, documents))).text
    return parse_research(answer, subtopic["id"], documents)


async def aresearch_subtopic(
    model: ChatModel,
    source: ResearchSource,
    lecture_input: LectureInput,
    subtopic: Subtopic,
    k: int = 3,
) -> ResearchResult:
    """Async :func:`research_subtopic`; the (blocking) search runs in a worker thread."""
    query = query_for(subtopic["title"])
    documents = await asyncio.to_thread(source.search, query, k)
    return await asummarize_research(model, subtopic, documents, lecture_input)


async def awrite_draft(
    model: ChatModel,
    lecture_input: LectureInput,
    subtopics: Sequence[Subtopic],
    research: Sequence[ResearchResult],
    round: int = 1,
    feedback: Sequence[Review] = (),
    human_notes: str = "",
    previous_draft: str | None = None,
) -> str:
    """Async :func:`write_draft`."""
    payload = _draft_payload(lecture_input, subtopics, research, round, feedback, human_notes, previous_draft)
    return parse_draft((await model.ainvoke(draft_messages(payload))).text)


async def areview_draft(
    model: ChatModel,
    reviewer: str,
    lecture_input: LectureInput,
    subtopics: Sequence[Subtopic],
    draft: str,
    research: Sequence[ResearchResult] = (),
) -> Review:
    """Async :func:`review_draft`."""
    messages = review_messages(reviewer, _review_payload(lecture_input, subtopics, draft, research))
    return parse_review((await model.ainvoke(messages)).text, reviewer)
