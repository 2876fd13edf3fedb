"""The approval robot as the dashboard and CLI see it."""

from __future__ import annotations

from typing import Any

from agents import deletion_record
from agents.errors import InputError
from agents.robot import AGENT_NAME, APPROVING_ANSWER
from agents.robot.answers import answer_of
from agents.robot.strings import STRINGS
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
from agents.texts import DEFAULT_LANGUAGE, Text, say, text

DEFAULT_THREAD_ID = "hitl_demo"

ANSWER_FIELD = Field(
    name="answer",
    kind="text",
    label="Answer",
    max_length=200,
    help="Only the exact lowercase answer yes executes; Yes, y, 네, yes with a space and anything else refuse.",
    trim=False,
)


def check_answer(value: Any) -> str:
    """Accepts a text answer exactly as given: case and spaces kept, so ``"yes "`` is no ``yes``.

    The value is read as the graph reads it (:func:`agents.robot.answers.answer_of`): ``{"answer": text}``
    is that text, Agent Inbox's response (its Ignore) is its type, which refuses.
    """
    if isinstance(value, dict) and set(value) != {"answer"}:
        raise InputError("answer", 'the robot takes a text answer or {"answer": "..."}')
    return ANSWER_FIELD.validate(answer_of(value))


def _acted(values: dict[str, Any]) -> bool:
    """Whether the robot acted on its decision: ``execute`` wrote the final message."""
    messages = values.get("messages") or []
    return "decision" in values and bool(messages) and getattr(messages[-1], "type", "") == "ai"


def finished_outcome(store: Any, thread_id: str, values: dict[str, Any]) -> tuple[str, str | Text]:
    """``executed`` or ``refused``; a robot that ended without its final message is inconsistent."""
    if not _acted(values):
        return "", Text("robot.problem.no_message", STRINGS["robot.problem.no_message"])
    return ("executed" if values["decision"] == APPROVING_ANSWER else "refused"), ""


def check_update(store: Any, request: UpdateRequest) -> dict[str, Any]:
    """Refuses a new ``decision`` at a checkpoint where the robot had acted: what ``execute`` did stays.

    A decision changed after the robot acted would make the thread read ``executed`` when it refused,
    or the reverse, at the head or in a fork of any checkpoint after ``execute`` (the head's own id
    named as the checkpoint included). A fork from a checkpoint before it runs ``execute`` again, so it
    is allowed.
    """
    if _acted(request.target) and "decision" in request.values:
        answer = repr(request.target.get("decision"))
        raise InputError("values", text(STRINGS, "robot.error.finished", answer=answer))
    return request.values


def start_message(lang: str = DEFAULT_LANGUAGE) -> str:
    """The human's first message, in the run language: ``Start the task`` / ``작업 시작``."""
    return say(STRINGS, "robot.say.start", lang)


def make_input(values: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The run's first message, in the run language."""
    return {"messages": [("human", start_message(lang))]}


def question_text(payload: Any) -> Text | None:
    """The robot's question in the reader's language (the inbox)."""
    if isinstance(payload, dict) and payload.get("question") in STRINGS["robot.say.question"]:
        return Text("robot.say.question", STRINGS["robot.say.question"])
    return None


def thread_for(values: dict[str, Any], requested: str | None) -> str:
    """The robot runs on ``hitl_demo`` unless another thread is named."""
    return requested or DEFAULT_THREAD_ID


#: An unfinished thread deleted is recorded, and announced (``agents.notify``).
_RECORDED = deletion_record.recorded_for(AGENT_NAME)

SPEC = AgentSpec(
    name=AGENT_NAME,
    title="Approval robot",
    description="Proposes a business trip, pauses, and acts only on an exact 'yes'.",
    run=RunPart(
        build_graph=imported_on_call("agents.robot.graph", "build_graph"),
        make_input=make_input,
        thread_for=thread_for,
        fresh_start=True,
        default_thread_id=DEFAULT_THREAD_ID,
    ),
    ask=AskPart(
        resume_fields=(ANSWER_FIELD,),
        make_resume=lambda values: values["answer"],
        check_resume=check_answer,
    ),
    show=ShowPart(
        page=AgentPage("app_pages/robot.py", ":material/smart_toy:", "robot"),
        finished_outcome=finished_outcome,
        strings=STRINGS,
        question_text=question_text,
    ),
    edit=EditPart(
        record_delete=_RECORDED[0],
        deleted_unfinished=_RECORDED[1],
        state_fields=(
            Field(
                name="decision",
                kind="text",
                label="Decision",
                max_length=200,
                help="The answer the robot will act on, exactly as given.",
                trim=False,
            ),
            Field(
                name="pending_action",
                kind="text",
                label="Pending action",
                max_length=500,
                help="The proposed action, as plain text.",
            ),
        ),
        as_nodes=("propose", "approval", "execute"),
        check_update=check_update,
    ),
)
