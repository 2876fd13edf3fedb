"""A refund question's pause: asked again, with the reason, until an answer is taken.

:func:`ask` hands ``interrupt()`` the guard and the edit's amount check (:func:`agents.refund.decisions.take`)
as the question's ``response_schema`` validator. LangGraph keeps an answer only once it passed that
validator, so an answer refused there is never saved with the task, never handed back to a later run,
and never acted on under the next person's answer: the question is asked again, under the same
interrupt id, with the refusal in its payload's ``error`` (in the run's language), as the lecture
planner's pauses do. Only the graph's nodes import this module (it imports LangGraph).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any, cast

from langgraph.errors import GraphInterrupt
from langgraph.types import Interrupt, interrupt
from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler, ValidationError
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

from agents.errors import UserError
from agents.identity import Identity
from agents.refund import hitl
from agents.refund.decisions import Decision, take
from agents.refund.rules import answer_schema
from agents.texts import DEFAULT_LANGUAGE


class _Refused(ValueError):
    """A refused answer as pydantic passes a validator's refusal on (inside a ``ValidationError``)."""

    def __init__(self, refusal: UserError) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal


#: The question :func:`ask` is asking in this context: how its answer is taken, and what it accepts.
_ASKING: ContextVar[tuple[Callable[[Any], Decision], dict[str, Any]]] = ContextVar("refund_question_asked")


class _Answer:
    """An answer to the question :func:`ask` is asking, as ``interrupt()``'s ``response_schema``.

    Validated by that question's check and described by its JSON Schema (both in :data:`_ASKING`). One type
    for every question: LangGraph builds a ``TypeAdapter`` of it at each ``interrupt()`` call, which pydantic
    makes from these two hooks in about a tenth of a millisecond, where an ``Annotated`` type made for each
    question takes milliseconds, on every pause and every resume.
    """

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(lambda raw: _ASKING.get()[0](raw))

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return _ASKING.get()[1]


def ask(
    payload: dict[str, Any],
    case: Mapping[str, Any],
    actor: Identity,
    config: Mapping[str, Any],
    lang: str = DEFAULT_LANGUAGE,
) -> Decision:
    """Asks ``payload``'s question (``interrupt()``) until an answer is taken (:func:`take`), and returns it.

    The check runs inside ``interrupt()``, as the question's ``response_schema`` validator (its JSON Schema
    stays :func:`agents.refund.rules.answer_schema`'s): LangGraph saves an answer with the task only once it
    passed, so a refused answer leaves nothing a later run would be handed before its own answer. The
    question is then asked again with the refusal's reason in ``lang`` as the payload's ``error`` (beside
    LangChain's ``HITLRequest`` keys, as the lecture planner's pauses carry it), under the question's own
    interrupt id: the one its first ask had, which the next answer by id reaches (LangGraph would number a
    question asked after an answer it was handed as the task's next one, and a refused answer is not kept).

    Args:
        payload: The question's own keys (``question``, ``amount``, ``requested_amount``...).
        case: What the answer is checked against: the case's values, or an item's.
        actor: Who answers (the local operator on LangGraph's own tooling).
        config: The node's run config (its task's namespace; whether ``agents.runs`` checked the answers).
        lang: The run's language, the refusal's.
    """

    def validated(raw: Any) -> Decision:
        try:
            return take(raw, case, actor, config)
        except UserError as refused:
            raise _Refused(refused) from refused

    schema = answer_schema(payload)
    asking = _ASKING.set((validated, schema))
    try:
        error = ""
        while True:
            question = hitl.asked({**payload, "error": error} if error else payload, lang)
            try:
                decision = cast(Decision, interrupt(question, response_schema=_Answer))  # what the validator returns
            except ValidationError as invalid:
                error = _refusal_of(invalid).render(lang)
                continue
            except GraphInterrupt:
                if not error:
                    raise
                namespace = str(config["configurable"]["checkpoint_ns"])
                raise GraphInterrupt((Interrupt.from_ns(question, namespace, response_schema=schema),)) from None
            return decision
    finally:
        _ASKING.reset(asking)


def _refusal_of(invalid: ValidationError) -> UserError:
    """The refusal :func:`ask`'s validator raised; any other validation error is raised again (not ours)."""
    for detail in invalid.errors():
        cause = (detail.get("ctx") or {}).get("error")
        if isinstance(cause, _Refused):
            return cause.refusal
    raise invalid
