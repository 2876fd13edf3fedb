"""The lecture planner's brains: the typed steps the graph nodes call.

Every step takes the chat model as a parameter, so Gemini (see
:mod:`agents.lecture.llm`) and the embedded model
(:class:`~agents.lecture.model.chat.EmbeddedChatModel`) go through the same
code: build the prompt (:mod:`agents.lecture.prompts`), ``invoke`` the model,
read the answer (:mod:`agents.lecture.parsing`). An answer that cannot be
read raises :class:`~agents.lecture.prompts.ModelOutputError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import LanguageModelInput
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable

from agents.lecture.inputs import LectureInput
from agents.lecture.parsing import parse_draft, parse_plan, parse_research, parse_review
from agents.lecture.prompts import draft_messages, plan_messages, research_messages, review_messages
from agents.lecture.research import ResearchSource, SourceDocument, query_for
from agents.lecture.state import ResearchResult, Review, Subtopic

__all__ = [
    "ChatModel",
    "make_plan",
    "research_subtopic",
    "review_draft",
    "summarize_research",
    "write_draft",
]

#: What the steps accept as a model: a chat model or a retry/fallback chain of them.
ChatModel = Runnable[LanguageModelInput, BaseMessage]


def make_plan(model: ChatModel, lecture_input: LectureInput) -> list[Subtopic]:
    """Plans 3 to 5 subtopics for the lecture."""
    return parse_plan(model.invoke(plan_messages(lecture_input)).text)


def summarize_research(
    model: ChatModel,
    subtopic: Subtopic,
    documents: Sequence[SourceDocument],
    lecture_input: LectureInput | None = None,
) -> ResearchResult:
    """Summarises the documents found (maybe none) for one subtopic; ``lecture_input`` gives the model
    context and the output language."""
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
