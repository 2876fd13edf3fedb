"""The lecture planner as the dashboard and CLI see it.

Its settings are :class:`~agents.lecture.settings.LectureSettings` (gate threshold, round
limit, plan review, model and research), read once by :func:`~agents.lecture.settings.settings_from`.
"""

from __future__ import annotations

import uuid
from typing import Any

from agents import deletion_record
from agents.errors import InputError
from agents.lecture import AGENT_NAME
from agents.lecture.answers import ACTIONS, GATE_QUESTIONS, check_answer, check_offered, check_plan_answer
from agents.lecture.inputs import (
    CONSTRAINTS_MAX_LENGTH,
    DEFAULT_LECTURE_INPUT,
    FIELD_MAX_LENGTH,
    HUMAN_NOTES_MAX_LENGTH,
    LECTURE_FIELDS,
    validate_lecture_input,
)
from agents.lecture.settings import options_from_settings, settings_from
from agents.lecture.strings import STRINGS
from agents.spec import (
    AgentPage,
    AgentSpec,
    AskPart,
    EditPart,
    Field,
    RunPart,
    ShowPart,
    UpdateRequest,
    imported_on_call,
)
from agents.texts import Text, text

THREAD_PREFIX = "lecture-"
#: Parallel tasks per superstep: above any fan-out (5 research tasks, 3 reviewers, 16 in the benchmark).
MAX_CONCURRENCY = 32

_LABELS = {
    "topic": ("Topic", "What the lecture is about."),
    "audience_level": ("Audience level", "Who attends, and how much they know."),
    "duration": ("Duration", "E.g. 1일 8시간, 2 days, 3 hours: from 30 minutes to 30 days of 8 hours."),
    "delivery_method": ("Delivery method", "E.g. lecture and hands-on practice."),
    "platform_tools": ("Platform / tools", "Comma-separated tools the lecture uses."),
    "constraints": ("Constraints", "E.g. no projector, one laptop per learner."),
}

START_FIELDS = tuple(
    Field(
        name=name,
        kind="textarea" if name == "constraints" else "text",
        label=_LABELS[name][0],
        max_length=CONSTRAINTS_MAX_LENGTH if name == "constraints" else FIELD_MAX_LENGTH,
        default=DEFAULT_LECTURE_INPUT[name],  # type: ignore[literal-required]  # name runs over its keys
        help=_LABELS[name][1],
    )
    for name in LECTURE_FIELDS
)
RESUME_FIELDS = (
    Field(
        name="action",
        kind="choice",
        label="Action",
        choices=("rework", "save", "reject", "approve"),
        help="At the gate: rework, save (as is) or reject. At the plan review: approve. "
        'To edit the plan, use the raw value {"action": "edit_plan", "subtopics": [...]}.',
    ),
    Field(
        name="notes",
        kind="textarea",
        label="Notes for the rework",
        max_length=HUMAN_NOTES_MAX_LENGTH,
        required=False,
        help="Optional, with rework: what the writer should change.",
    ),
)
STATE_FIELDS = (
    Field(
        name="human_notes",
        kind="textarea",
        label="Human notes",
        max_length=HUMAN_NOTES_MAX_LENGTH,
        help="The notes the next rework receives.",
    ),
    Field(
        name="draft", kind="textarea", label="Draft (Markdown)", max_length=100_000, help="Replace the current draft."
    ),
)


def thread_for(values: dict[str, Any], requested: str | None) -> str:
    """The requested thread id, or a new ``lecture-<8 hex>``."""
    return requested or f"{THREAD_PREFIX}{uuid.uuid4().hex[:8]}"


def check_start(store: Any, values: dict[str, Any]) -> None:
    """Refuses a request the planner cannot plan (a duration no lecture has, ...) before anything is written."""
    validate_lecture_input(values)


def make_resume(values: dict[str, Any]) -> dict[str, Any]:
    """The resume value of the typed resume fields."""
    return check_answer({key: value for key, value in values.items() if value not in (None, "")})


#: The pauses whose edges route on the human's answer there: an update as one needs that answer.
_ROUTED_ON_DECISION = ("decide", "plan_review")


def check_update(store: Any, request: UpdateRequest) -> dict[str, Any]:
    """Refuses an update as a pause that has no answer to route on yet (nothing is written, no lease)."""
    if request.as_node in _ROUTED_ON_DECISION and not request.target.get("decision"):
        raise InputError("as_node", text(STRINGS, "lecture.error.update_unrouted", node=repr(request.as_node)))
    return request.values


def finished_outcome(store: Any, thread_id: str, values: dict[str, Any]) -> tuple[str, str | Text]:
    """``saved``, ``saved_as_is`` or ``rejected``; any other end is inconsistent."""
    outcome = values.get("outcome")
    if outcome in ("saved", "saved_as_is") and values.get("final_plan"):
        return str(outcome), ""
    if outcome == "rejected":
        return "rejected", ""
    return "", Text("lecture.problem.neither", STRINGS["lecture.problem.neither"])


#: The question keys of each pause (the payload's ``stage``): the gate asks by its options (``GATE_QUESTIONS``).
_QUESTIONS = {"gate": tuple(GATE_QUESTIONS.values()), "plan_review": ("lecture.say.plan_question",)}


def question_text(payload: Any) -> Text | None:
    """The planner's question in the reader's language (the inbox): the one the pause saved, in either language.

    A question is known by its saved text, so a thread keeps the question it was asked (one saved before
    the gate asked by its options reads as it was saved).
    """
    keys = _QUESTIONS.get(str(payload.get("stage")), ()) if isinstance(payload, dict) else ()
    for key in keys:
        if payload.get("question") in STRINGS[key]:
            return Text(key, STRINGS[key])
    return None


#: An unfinished thread deleted is recorded, and announced (``agents.notify``).
_RECORDED = deletion_record.recorded_for(AGENT_NAME)

SPEC = AgentSpec(
    name=AGENT_NAME,
    title="Lecture planner",
    description="Six fields → plan → parallel research → draft → three parallel reviewers → score gate "
    "→ a human decision on a low score.",
    run=RunPart(
        build_graph=imported_on_call("agents.lecture.graph", "build_graph"),
        start_fields=START_FIELDS,
        make_input=lambda values, lang: {"request": dict(values)},
        thread_for=thread_for,
        check_start=check_start,
        settings_from=settings_from,
        options_from_settings=options_from_settings,
        max_concurrency=MAX_CONCURRENCY,
    ),
    ask=AskPart(
        resume_fields=RESUME_FIELDS,
        make_resume=make_resume,
        check_resume=check_answer,
        check_offered=check_offered,
        check_answer=check_plan_answer,
    ),
    show=ShowPart(
        page=AgentPage("app_pages/lecture.py", ":material/school:", "lecture"),
        finished_outcome=finished_outcome,
        strings=STRINGS,
        question_text=question_text,
    ),
    edit=EditPart(
        record_delete=_RECORDED[0],
        deleted_unfinished=_RECORDED[1],
        check_update=check_update,
        state_fields=STATE_FIELDS,
        as_nodes=(
            "validate",
            "plan",
            "plan_review",
            "research",
            "write",
            "review_content",
            "review_time_allocation",
            "review_difficulty",
            "gate",
            "decide",
            "save",
        ),
    ),
)

__all__ = ["ACTIONS", "SPEC", "options_from_settings", "thread_for"]
