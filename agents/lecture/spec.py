"""The lecture planner as the dashboard and CLI see it.

Settings (environment or ``.streamlit/secrets.toml``):

* ``HITL_GATE_THRESHOLD``: the gate's pass mark, 0-100 (default 80);
* ``HITL_MAX_ROUNDS``: most drafts per run, 1-10 (default 3);
* ``HITL_PLAN_REVIEW``: ``on`` pauses after ``plan`` for a human plan edit (default off);
* the model and research settings of :mod:`agents.lecture.llm` and
  :mod:`agents.lecture.research` (embedded model and bundled corpus without keys).
"""

from __future__ import annotations

import uuid
from typing import Any

from agents.lecture.answers import ACTIONS, check_answer
from agents.lecture.graph import AGENT_NAME, DEFAULT_MAX_ROUNDS, DEFAULT_THRESHOLD, build_graph
from agents.lecture.inputs import (
    CONSTRAINTS_MAX_LENGTH,
    DEFAULT_LECTURE_INPUT,
    FIELD_MAX_LENGTH,
    HUMAN_NOTES_MAX_LENGTH,
    LECTURE_FIELDS,
)
from agents.lecture.services import LectureServices
from agents.lecture.settings import parse_bool_setting, parse_int_setting
from agents.settings import Settings
from agents.spec import AgentSpec, Field

THRESHOLD_SETTING = "HITL_GATE_THRESHOLD"
MAX_ROUNDS_SETTING = "HITL_MAX_ROUNDS"
PLAN_REVIEW_SETTING = "HITL_PLAN_REVIEW"
MAX_ROUNDS_LIMIT = 10
THREAD_PREFIX = "lecture-"
#: Parallel tasks per superstep: above any fan-out (5 research tasks, 3 reviewers, 16 in the benchmark).
MAX_CONCURRENCY = 32

_LABELS = {
    "topic": ("Topic", "What the lecture is about."),
    "audience_level": ("Audience level", "Who attends, and how much they know."),
    "duration": ("Duration", "E.g. 1일 8시간, 2 days, 3 hours."),
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
        default=DEFAULT_LECTURE_INPUT[name],  # type: ignore[literal-required]
        help=_LABELS[name][1],
    )
    for name in LECTURE_FIELDS
)
RESUME_FIELDS = (
    Field(name="action", kind="choice", label="Action", choices=("rework", "save", "reject", "approve"),
          help="At the gate: rework, save (as is) or reject. At the plan review: approve. "
               "To edit the plan, use the raw value {\"action\": \"edit_plan\", \"subtopics\": [...]}."),
    Field(name="notes", kind="textarea", label="Notes for the rework", max_length=HUMAN_NOTES_MAX_LENGTH,
          required=False, help="Optional, with rework: what the writer should change."),
)
STATE_FIELDS = (
    Field(name="human_notes", kind="textarea", label="Human notes", max_length=HUMAN_NOTES_MAX_LENGTH,
          help="The notes the next rework receives."),
    Field(name="draft", kind="textarea", label="Draft (Markdown)", max_length=100_000,
          help="Replace the current draft."),
)


def thread_for(values: dict[str, Any], requested: str | None) -> str:
    """The requested thread id, or a new ``lecture-<8 hex>``."""
    return requested or f"{THREAD_PREFIX}{uuid.uuid4().hex[:8]}"


def make_resume(values: dict[str, Any]) -> dict[str, Any]:
    """The resume value of the typed resume fields."""
    return check_answer({key: value for key, value in values.items() if value not in (None, "")})


def options_from_settings(settings: Settings) -> dict[str, Any]:
    """Gate threshold, round limit, plan review and the model/research choice, from the settings."""
    return {
        "threshold": parse_int_setting(settings, THRESHOLD_SETTING, DEFAULT_THRESHOLD, 0, 100),
        "max_rounds": parse_int_setting(settings, MAX_ROUNDS_SETTING, DEFAULT_MAX_ROUNDS, 1, MAX_ROUNDS_LIMIT),
        "plan_review": parse_bool_setting(settings, PLAN_REVIEW_SETTING),
        "services": LectureServices.from_settings(settings),
    }


def finished_outcome(store: Any, thread_id: str, values: dict[str, Any]) -> tuple[str, str]:
    """``saved``, ``saved_as_is`` or ``rejected``; any other end is inconsistent."""
    outcome = values.get("outcome")
    if outcome in ("saved", "saved_as_is") and values.get("final_plan"):
        return str(outcome), ""
    if outcome == "rejected":
        return "rejected", ""
    return "", "the run ended with neither a saved plan nor a rejection"


SPEC = AgentSpec(
    name=AGENT_NAME,
    title="Lecture planner",
    description="Six fields → plan → parallel research → draft → three parallel reviewers → score gate "
                "→ a human decision on a low score.",
    build_graph=build_graph,
    page="app_pages/lecture.py",
    start_fields=START_FIELDS,
    make_input=lambda values: {"request": dict(values)},
    thread_for=thread_for,
    resume_fields=RESUME_FIELDS,
    make_resume=make_resume,
    check_resume=check_answer,
    state_fields=STATE_FIELDS,
    as_nodes=("validate", "plan", "plan_review", "research", "write", "review_content",
              "review_time_allocation", "review_difficulty", "gate", "decide", "save"),
    options_from_settings=options_from_settings,
    finished_outcome=finished_outcome,
    max_concurrency=MAX_CONCURRENCY,
)

__all__ = ["ACTIONS", "SPEC", "options_from_settings", "thread_for"]
