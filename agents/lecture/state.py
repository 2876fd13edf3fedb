"""State of the lecture planner, and the plain-data pieces it holds.

Every piece is a ``TypedDict`` of plain JSON values, so it sits in LangGraph
state, passes through the checkpoint serializer and the ``update_state``
forms unchanged.

Lists declared with ``operator.add`` (``research``, ``reviews``, ``scores``)
only ever receive *new* items: a research task returns its one result, a
reviewer its one review, the gate its one score. No node returns the whole
state, so nothing is counted twice. Every review and score carries the round
it belongs to, so the rounds stay apart in one list.
"""

from __future__ import annotations

import operator
from typing import Annotated, Literal

from typing_extensions import TypedDict

from agents.lecture.inputs import LectureInput

Outcome = Literal["saved", "saved_as_is", "rejected"]
#: A plan has 3 to 5 subtopics, whether the model planned it or a human edited it.
MIN_SUBTOPICS = 3
MAX_SUBTOPICS = 5


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


class RoundReview(TypedDict):
    """One reviewer's verdict on the draft of one round."""

    round: int
    reviewer: str
    score: int
    feedback: list[str]


class RoundScore(TypedDict):
    """The gate's verdict on one round: the combined score against the threshold."""

    round: int
    score: int
    threshold: int
    passed: bool


class LectureRequest(TypedDict):
    """What starts a run: the six fields, as typed (the ``validate`` node checks them)."""

    request: dict[str, str]


class ResearchTask(TypedDict):
    """The input of one ``research`` task, sent by the fan-out (``Send``)."""

    lecture: LectureInput
    subtopic: Subtopic


class LectureState(TypedDict, total=False):
    """What the planner remembers between steps.

    Attributes:
        request: The six fields as given.
        lecture: The six fields, validated and trimmed.
        subtopics: The current plan (3 to 5 subtopics).
        plan_version: 1 for the planned version, +1 for every human edit.
        next_subtopic: The number the next added subtopic's id gets (``s<n>``);
            ids are never reused, so a result can never attach to another subtopic.
        research: Every research result, one per subtopic ever researched (add-reducer;
            research runs once per subtopic, rework does not repeat it).
        round: The current draft round (1 = first draft).
        reworks: How many times a human asked for a rework.
        draft: The current Markdown draft.
        human_notes: The human's notes for the current rework ('' for none).
        reviews: Every review of every round (add-reducer).
        scores: The gate's verdict of every round (add-reducer).
        decision: The last decision: ``passed`` (by the gate) or the human's
            ``rework``, ``edit_plan``, ``save``, ``reject``.
        outcome: ``saved`` (passed), ``saved_as_is`` (a human saved below the
            threshold) or ``rejected``.
        reject_reason: Why a human rejected the draft ('' when no reason was given).
        final_plan: The saved Markdown plan.
        plan_path: Where the Markdown file was written ('' when no folder is set).
    """

    request: dict[str, str]
    lecture: LectureInput
    subtopics: list[Subtopic]
    plan_version: int
    next_subtopic: int
    research: Annotated[list[ResearchResult], operator.add]
    round: int
    reworks: int
    draft: str
    human_notes: str
    reviews: Annotated[list[RoundReview], operator.add]
    scores: Annotated[list[RoundScore], operator.add]
    decision: str
    outcome: Outcome
    reject_reason: str
    final_plan: str
    plan_path: str
