"""The human's answers at the planner's two pauses: their shape, which ones a pause accepts, what they change.

The gate (``decide``) offers ``rework``, ``edit_plan``, ``save`` and ``reject``
while rounds remain, and only ``save`` and ``reject`` at the round limit
(:func:`gate_options`); the plan review offers ``approve`` and ``edit_plan``
(:data:`PLAN_ACTIONS`).

* :func:`check_answer` checks the shape of any answer; as the spec's
  ``check_resume``, every resume path calls it first;
* :func:`require_offered` refuses an action the pause does not offer, saying why;
  :func:`check_offered` runs it on the waiting question before the answer is sent
  (the spec's ``check_offered``), so a refused answer writes nothing, and refuses there
  an edit that changed what the question shows for reading (:func:`agents.lecture.hitl.check_shown`);
* :func:`check_plan_answer` refuses a plan edit the thread's plan cannot take, before
  anything is written (the spec's ``check_answer``);
* :func:`accept_plan_answer` and :func:`accept_gate_answer` turn an accepted
  answer into the pause's state update.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, cast

from agents.errors import InputError
from agents.lecture.hitl import SHOWN_ARGS, check_shown, plain_answer
from agents.lecture.inputs import validate_human_notes
from agents.lecture.plans import apply_plan_edit, requested_items
from agents.lecture.rounds import researched_ids
from agents.lecture.state import LectureState
from agents.lecture.strings import STRINGS
from agents.strings import STRINGS as CORE_STRINGS
from agents.texts import Text, text
from agents.validation import parse_json

#: Every answer the planner understands; which ones a pause accepts depends on the pause.
ACTIONS = ("rework", "edit_plan", "save", "reject", "approve")
PLAN_ACTIONS = ("approve", "edit_plan")


def check_answer(value: Any) -> dict[str, Any]:
    """Checks the shape of an answer and returns it as ``{"action", "notes"[, "subtopics"]}``.

    Accepted: ``rework``, ``save``, ``reject``, ``approve`` as text, or an object
    ``{"action": ..., "notes": "..."}``; ``edit_plan`` needs an object with
    ``"subtopics": [...]``. Whether the action fits the pause (and the round
    limit) is checked by the pause itself.

    LangChain's ``{"decisions": [...]}`` and Agent Inbox's responses are read as these answers first
    (:func:`agents.lecture.hitl.plain_answer`); an edit's arguments shown for reading stay as the answer's
    ``shown``, which :func:`check_offered` holds to the question.

    Raises:
        InputError: Naming ``action``, ``notes`` or ``subtopics``.
    """
    value = plain_answer(value)
    if isinstance(value, str):
        value = {"action": value}
    if not isinstance(value, Mapping):
        raise InputError("action", text(STRINGS, "lecture.error.answer_shape", actions=", ".join(ACTIONS)))
    unknown = sorted(set(value) - {"action", "notes", "subtopics", "shown"})
    shown = value.get("shown", {})
    if not isinstance(shown, Mapping) or not set(shown) <= set(SHOWN_ARGS):
        unknown.append("shown")
    if unknown:
        raise InputError(unknown[0], text(STRINGS, "lecture.error.answer_key"))
    action = value.get("action")
    action = action.strip() if isinstance(action, str) else action
    if action not in ACTIONS:
        allowed, given = ", ".join(ACTIONS), repr(value.get("action"))
        raise InputError("action", text(CORE_STRINGS, "error.choice", allowed=allowed, value=given))
    answer: dict[str, Any] = {"action": action, "notes": validate_human_notes(value.get("notes"), "notes")}
    if answer["notes"] and action not in ("rework", "edit_plan", "reject"):
        raise InputError("notes", text(STRINGS, "lecture.error.notes_with"))
    if action == "edit_plan":
        if not isinstance(value.get("subtopics"), list):
            raise InputError("subtopics", text(STRINGS, "lecture.error.edit_needs_subtopics"))
        requested_items(value["subtopics"])  # what no plan could take, refused here on every path
        answer["subtopics"] = value["subtopics"]
    elif "subtopics" in value:
        raise InputError("subtopics", text(STRINGS, "lecture.error.subtopics_with"))
    if shown:
        answer["shown"] = dict(shown)
    return answer


def gate_options(round_number: int, max_rounds: int) -> list[str]:
    """What the human may answer at the gate: rework and edit_plan only below the round limit."""
    if round_number < max_rounds:
        return ["rework", "edit_plan", "save", "reject"]
    return ["save", "reject"]


#: The gate's question for each set of options :func:`gate_options` gives (the catalogue key).
GATE_QUESTIONS = {
    ("rework", "edit_plan", "save", "reject"): "lecture.say.gate_question",
    ("save", "reject"): "lecture.say.gate_question.last",
}


def gate_question(options: Sequence[str]) -> str:
    """The catalogue key of the gate's question that asks for exactly ``options`` (a list of :func:`gate_options`)."""
    return GATE_QUESTIONS[tuple(options)]


def _refusal(action: str, options: Sequence[str], round_number: int, max_rounds: int) -> Text:
    if action in ("rework", "edit_plan") and round_number >= max_rounds:
        return text(STRINGS, "lecture.error.round_limit", action=action, round=round_number, max_rounds=max_rounds)
    return text(STRINGS, "lecture.error.not_offered", action=repr(action), options=", ".join(options))


def require_offered(action: str, options: Sequence[str], round_number: int, max_rounds: int) -> None:
    """Refuses an action the pause does not offer.

    Raises:
        InputError: Naming ``action``; the message says why (the round limit,
            or the options this pause offers).
    """
    if offered_action(action, options) not in options:
        raise InputError("action", _refusal(action, options, round_number, max_rounds))


def offered_action(action: str, options: Sequence[str]) -> str:
    """``approve`` at a pause that offers ``save`` and no approval (the gate) means ``save``.

    So LangChain's approve of the gate's ``save_lecture_plan`` request saves the draft as is.
    """
    return "save" if action == "approve" and "save" in options and "approve" not in options else action


def check_offered(question: Any, answer: dict[str, Any]) -> None:
    """Refuses an answer the waiting pause does not offer (its ``options``), before anything is written.

    Run by ``agents.runs.resume_thread`` on every path, with the question as the pause asked it; the
    pause checks again when it reads the answer (and asks again, saying why, if it is refused there).

    Raises:
        InputError: Naming ``action``, as :func:`require_offered`; or an argument shown for reading that
            the edit changed (:func:`agents.lecture.hitl.check_shown`).
    """
    check_shown(question, answer)
    if not isinstance(question, Mapping) or not isinstance(question.get("options"), list):
        return  # no list of options to hold the answer to: the pause itself decides
    round_number, max_rounds = question.get("round", 0), question.get("max_rounds", 1)  # the plan review: no limit
    require_offered(answer["action"], question["options"], int(round_number), int(max_rounds))


def check_plan_answer(values: Mapping[str, Any], answer: dict[str, Any]) -> None:
    """Refuses a plan edit the thread's plan cannot take (an unknown id, a researched subtopic redefined,
    no change), before anything is written: the spec's ``check_answer``, run by ``agents.runs`` with the
    values at the waiting head, which are the state the pause applies the edit to.

    Values without a plan (a run's input, before ``plan`` ran) are not checked here; the pause checks.

    Raises:
        InputError: Naming ``subtopics``, as the pause would refuse it.
    """
    if answer.get("action") == "edit_plan" and {"subtopics", "next_subtopic", "plan_version"} <= values.keys():
        plan_edit(cast(LectureState, values), answer)  # the head's values are the planner's state


def plan_edit(state: LectureState, answer: dict[str, Any]) -> dict[str, Any]:
    """The state update of a human's plan edit: the new plan, the next id, the next version."""
    subtopics, next_number = apply_plan_edit(
        state["subtopics"], researched_ids(state), answer["subtopics"], state["next_subtopic"]
    )
    return {"subtopics": subtopics, "next_subtopic": next_number, "plan_version": state["plan_version"] + 1}


def accept_plan_answer(state: LectureState, answer: dict[str, Any]) -> dict[str, Any]:
    """The state update of an answer at the plan review: ``approve``, or an edited plan.

    Raises:
        InputError: An action the plan review does not offer, or a refused plan edit.
    """
    require_offered(answer["action"], PLAN_ACTIONS, 0, 1)  # round 0 of 1: no round limit at the plan review
    if answer["action"] == "approve":
        return {"decision": "approve"}
    return {**plan_edit(state, answer), "decision": "edit_plan"}


def accept_gate_answer(state: LectureState, max_rounds: int, answer: dict[str, Any]) -> dict[str, Any]:
    """The state update of an answer at the gate; ``rework`` and ``edit_plan`` open the next round.

    Raises:
        InputError: An action the gate does not offer (``rework`` or
            ``edit_plan`` at the round limit), or a refused plan edit.
    """
    round_number = state["round"]
    options = gate_options(round_number, max_rounds)
    require_offered(answer["action"], options, round_number, max_rounds)
    action = offered_action(answer["action"], options)
    if action == "save":
        return {"decision": "save"}
    if action == "reject":
        return {"decision": "reject", "outcome": "rejected", "reject_reason": answer["notes"]}
    update = plan_edit(state, answer) if action == "edit_plan" else {}
    return {
        **update,
        "decision": action,
        "round": round_number + 1,
        "reworks": state.get("reworks", 0) + 1,
        "human_notes": answer["notes"],
    }


def gate_form_actions(question: Mapping[str, Any]) -> list[str]:
    """The gate form's choices: those the waiting question offers, in its order (``edit_plan`` among them
    while rounds remain, its subtopics typed in the form)."""
    return [a for a in question.get("options", []) if a in ("rework", "edit_plan", "save", "reject")]


def gate_answer(action: str, notes: str, plan: str = "") -> object:
    """The gate form's answer: its notes go with ``rework`` and ``edit_plan`` (for the rework that follows) and
    ``reject`` (its reason); ``edit_plan`` sends the edited subtopics (``plan``, JSON text) as
    :func:`plan_edit_answer` makes them for every form.

    Raises:
        InputError: Naming ``subtopics`` when an edit's plan is not JSON.
    """
    if action == "edit_plan":
        return plan_edit_answer(plan, notes)
    return {"action": action, "notes": notes} if action in ("rework", "reject") else {"action": action}


def plan_edit_answer(edited: str, notes: str = "") -> dict[str, Any]:
    """A form's plan edit: the edited subtopics (JSON text) as ``edit_plan``, the answer the CLI's and the API's
    raw value ``{"action": "edit_plan", "subtopics": [...]}`` is; sent through ``agents.runs.resume_thread``,
    it passes the checks of every path (:func:`check_answer`, :func:`check_offered`, :func:`check_plan_answer`).

    Raises:
        InputError: Naming ``subtopics`` when the edit is not JSON.
    """
    answer: dict[str, Any] = {"action": "edit_plan", "subtopics": parse_json(edited, "subtopics")}
    return answer | ({"notes": notes} if notes else {})


def plan_review_answer(approve: bool, edited: str) -> object:
    """The plan review form's answer: ``approve``, or the edited subtopics (JSON text) as an ``edit_plan``.

    Raises:
        InputError: Naming ``subtopics`` when the edit is not JSON.
    """
    if approve:
        return "approve"
    return plan_edit_answer(edited)


def editable_plan(question: Mapping[str, Any], values: Mapping[str, Any] | None = None) -> str:
    """The plan editor's starting text: the plan's subtopics (id, title, description) as JSON; those of the
    waiting plan review's question, or, for the gate's question, which names none, those of the thread's
    ``values``."""
    source = values if values is not None and "subtopics" not in question else question
    subtopics = [
        {"id": s["id"], "title": s["title"], "description": s["description"]} for s in source.get("subtopics", [])
    ]
    return json.dumps(subtopics, ensure_ascii=False, indent=2)
