"""The planner's pauses in LangChain's human-in-the-loop shape, and its decisions as the planner's answers.

Each pause carries one action request beside its own keys:

* the gate (a draft below the threshold): ``save_lecture_plan`` with the round, score, threshold and
  empty ``notes``. ``approve`` saves the draft as is, ``reject`` ends the run as rejected, and while
  rounds remain ``edit`` reworks it: its ``args`` carry the ``notes`` for the rework, or
  ``subtopics`` for a plan edit (then a rework);
* the plan review: ``approve_plan`` with the plan's ``subtopics``. ``approve`` approves it, ``edit``
  with changed ``subtopics`` edits it.

:func:`plain_answer` turns a decision into the planner's own answer (``{"action", "notes"?,
"subtopics"?}``), which every path then checks as it checks a typed answer
(:func:`agents.lecture.answers.check_answer` calls it first). Of an edit's arguments only ``notes``
and ``subtopics`` change anything; the others (:data:`SHOWN_ARGS`) are the request's own, shown for
reading. Agent Inbox shows each argument in a box of its own and sends them all back with every edit, so
they are kept as the answer's ``shown``, and :func:`check_shown` refuses an edit that changed one (the
same value as text, ``"75"`` for 75, is no change): the question it answers is at hand only there (the
pause, and ``agents.runs`` before anything is written). Agent Inbox sends what is typed in its boxes as
text, so its edit's ``subtopics`` are read from their JSON text. A reject's message (Agent Inbox's
``response`` always carries one) is the reason the run was rejected, kept as the answer's ``notes``.

A pause asked again after a refused answer says the refusal first in its description
(:func:`agents.hitl_shape.description`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from agents import hitl_shape
from agents.errors import InputError
from agents.lecture.inputs import HUMAN_NOTES_MAX_LENGTH
from agents.lecture.strings import STRINGS
from agents.texts import text
from agents.validation import parse_json

GATE_ACTION = "save_lecture_plan"
PLAN_ACTION = "approve_plan"
#: The names an edit may carry: the request's own, or the planner's answer it stands for.
EDIT_NAMES = (GATE_ACTION, PLAN_ACTION, "rework", "edit_plan")
#: What an edit's arguments may hold: what it changes, then what the request shows.
EDIT_ARGS = ("notes", "subtopics")
SHOWN_ARGS = ("round", "score", "threshold", "plan_version")


def allowed_decisions(options: list[str]) -> list[str]:
    """The decisions a pause offering the planner's ``options`` allows."""
    allowed = ["approve"]
    if "rework" in options or "edit_plan" in options:
        allowed.append("edit")
    if "reject" in options:
        allowed.append("reject")
    return allowed


def feedback_text(feedback: Any) -> str:
    """A reviewer's feedback items as one line of text, separated by "; " ("—" for none)."""
    items = [feedback] if isinstance(feedback, str) else list(feedback or [])
    return "; ".join(str(item) for item in items) or "—"


def asked(payload: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """A pause's payload with its ``HITLRequest`` keys beside its own (the reviewers named in ``lang``)."""
    options = list(payload["options"])
    if payload["stage"] == "plan_review":
        subtopics = [{key: s.get(key) for key in ("id", "title", "description")} for s in payload["subtopics"]]
        args: dict[str, Any] = {"subtopics": subtopics}
        name, description = PLAN_ACTION, hitl_shape.description(payload, lang)
    else:
        args = {key: payload[key] for key in ("round", "score", "threshold")} | {"notes": ""}
        name = GATE_ACTION
        side = 1 if lang == "ko" else 0
        feedback = [
            f"[{STRINGS.get('lecture.reviewer.' + r['reviewer'], (r['reviewer'],) * 2)[side]}] "
            f"{r['score']}/100: {feedback_text(r['feedback'])}"
            for r in payload.get("reviews", [])
        ]
        description = hitl_shape.description(payload, lang, *feedback)
    return {**payload, **hitl_shape.request(name, args, description, allowed_decisions(options))}


def plain_answer(value: Any) -> Any:
    """A decision in LangChain's or Agent Inbox's shape as the planner's own answer; any other value as it is.

    Raises:
        InputError: Naming ``decisions`` (see :func:`agents.hitl_shape.read_decision`; also an edit of
            another action), an edit's unknown argument, ``approver``, or Agent Inbox's ``subtopics`` text
            that is not JSON.
    """
    if not hitl_shape.is_decision_shaped(value):
        return value
    decision = hitl_shape.read_decision(value, HUMAN_NOTES_MAX_LENGTH)  # a reject's message is its notes
    if decision.approver is not None:
        raise InputError("approver", text(STRINGS, "lecture.error.no_approver"))
    if decision.type == "approve":
        return {"action": "approve"}
    if decision.type == "reject":
        return {"action": "reject", "notes": decision.message} if decision.message else {"action": "reject"}
    if decision.name not in EDIT_NAMES:
        edited = text(
            STRINGS, "lecture.error.edit_name", gate=repr(GATE_ACTION), plan=repr(PLAN_ACTION), name=repr(decision.name)
        )
        raise InputError("decisions", edited)
    args = decision.args
    unknown = sorted(set(args) - {*EDIT_ARGS, *SHOWN_ARGS})
    if unknown:
        raise InputError(unknown[0], text(STRINGS, "lecture.error.edit_arg", args=", ".join(EDIT_ARGS)))
    if decision.typed and isinstance(args.get("subtopics"), str) and args["subtopics"].strip():
        args = {**args, "subtopics": _typed_subtopics(args["subtopics"])}
    changes = {key: args[key] for key in EDIT_ARGS if args.get(key) not in (None, "")}
    shown = {key: args[key] for key in SHOWN_ARGS if key in args}
    action = "edit_plan" if "subtopics" in args or decision.name in (PLAN_ACTION, "edit_plan") else "rework"
    return {"action": action, **changes, **({"shown": shown} if shown else {})}


def _typed_subtopics(typed: str) -> Any:
    """The subtopics Agent Inbox's edit box sent as text, read as the JSON it holds.

    Raises:
        InputError: Naming ``subtopics``: the text is not JSON (where it fails).
    """
    try:
        return parse_json(typed, "subtopics")
    except InputError as invalid:
        reason = invalid.text.params["message"] if invalid.text is not None else invalid.message
        raise InputError("subtopics", text(STRINGS, "lecture.error.subtopics_text", reason=reason)) from None


def check_shown(question: Any, answer: Mapping[str, Any]) -> None:
    """Refuses an answer whose ``shown`` arguments (an edit's :data:`SHOWN_ARGS`) are not what ``question`` shows.

    An argument is shown for reading: an edit that changes it would have the change silently dropped.
    The same value as text (Agent Inbox's boxes send text: ``"75"`` for 75) is the same value. Run by
    :func:`agents.lecture.answers.check_offered` on every path before anything is written, and by the pause.

    Raises:
        InputError: Naming the first argument changed; the message says which arguments an edit changes.
    """
    shown = answer.get("shown")
    if not shown or not isinstance(question, Mapping):
        return
    editable = "subtopics" if question.get("stage") == "plan_review" else "notes"
    for key, sent in shown.items():
        asked = question.get(key)
        if not _same(sent, asked):
            typed = sent.strip() if isinstance(sent, str) else json.dumps(sent, ensure_ascii=False)
            refused = text(STRINGS, "lecture.error.shown_arg", asked=json.dumps(asked), sent=typed, args=editable)
            raise InputError(key, refused)


def _same(sent: Any, asked: Any) -> bool:
    """Whether a shown argument sent back is the value asked, as it was or as its JSON text."""
    if isinstance(sent, str) and not isinstance(asked, str):
        return asked is not None and sent.strip() == json.dumps(asked)
    return sent == asked and isinstance(sent, bool) == isinstance(asked, bool)


def response_schema(payload: dict[str, Any], notes_max_length: int) -> dict[str, Any]:
    """What a pause accepts, as JSON Schema: one of its options (text or object), or a ``HITLResponse``."""
    options = list(payload["options"])
    allowed = allowed_decisions(options)
    notes = {"type": "string", "maxLength": notes_max_length}
    subtopic = {
        "anyOf": [
            {"type": "string", "minLength": 1},
            {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "title": {"type": "string"},
                    "description": {"type": "string"},
                },
                "required": ["title"],
            },
        ]
    }
    subtopics = {"type": "array", "items": subtopic, "minItems": 3, "maxItems": 5}
    answer_object = {
        "type": "object",
        "properties": {"action": {"enum": options}, "notes": notes, "subtopics": subtopics},
        "required": ["action"],
        "additionalProperties": False,
    }
    if "save" in options and "approve" not in options:  # the gate reads LangChain's approve as save
        options.append("approve")
    own = {"title": "LectureAnswer", "anyOf": [{"enum": options}, answer_object]}
    name = PLAN_ACTION if payload["stage"] == "plan_review" else GATE_ACTION
    edit_args = {"type": "object", "properties": {"notes": notes, "subtopics": subtopics}}
    return hitl_shape.response_schema(name, allowed, edit_args, own, notes_max_length)
