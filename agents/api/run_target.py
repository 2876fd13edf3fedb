"""What a run names beside its operation: the checkpoint it goes on from, and the questions a resume answers.

LangGraph's clients may name a run's checkpoint (``checkpoint: {"checkpoint_id"}`` or ``checkpoint_id``):
useStream (``@langchain/langgraph-sdk``, which Agent Chat UI runs on) adds the head of the history it
loaded to every submit, a new message and an interrupt's answer alike. A start or an answer that names
the thread's head is the run without it, with that head as the one it expects (``expected_head`` of
:mod:`agents.runs`, checked under the thread's lease with every other check): a thread that moved on in
the meantime is refused as a stale form is (409). A start that names an older checkpoint of the thread
is refused (409, saying how a re-run or a fork goes on from one), an answer that does is stale (409), and
a checkpoint the thread does not have is a 422. A run with neither input nor answer goes on from the
checkpoint it names (a re-run), as before.

A resume's value is turned into answers by interrupt id (:func:`resume_answers`). Agent Inbox answers
with a list of one response that names no question: it answers the one Agent Inbox shows
(:func:`agents.api.shapes.shown_interrupt`), by its id, and only while the thread is as it was when that
was read (its head). If that question was answered after Agent Inbox loaded the thread, the one shown
now is another: an accept, which carries the action request it showed, is then refused (409,
:func:`check_inbox_accept`) rather than taken for a question its person never saw.

A run's ``multitask_strategy`` says what LangGraph's server does with it while the thread runs another:
queue it (``enqueue``, its default: ``models/run.py:assign_defaults`` of langgraph_api), cancel the running
one first (``interrupt``, ``rollback``) or refuse it (``reject``). This server does not queue, interrupt or
roll back a running run: on a busy thread every run is refused (409, :func:`refuse_if_running`), naming the
strategy asked and saying to wait for the running run (``runs.join``) and send again. On an idle thread
each of the four runs at once (Agent Chat UI's client may send ``interrupt``) and the run record shows the
strategy asked (``reject``, this server's behaviour, when none is); any other value is a 422 naming
``multitask_strategy`` (:func:`multitask_strategy`), as LangGraph's server refuses it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from agents import readmodel
from agents.api.context import refuse_if_busy
from agents.api.errors import ApiError
from agents.db import Store
from agents.errors import InputError
from agents.hitl_shape import accepted_changes, is_inbox_response
from agents.leases import ThreadBusyError
from agents.strings import STRINGS
from agents.texts import text

#: What LangGraph's interrupt ids look like (32 hex digits): a resume map keyed by them answers by id.
_INTERRUPT_ID = re.compile(r"[0-9a-f]{32}")
#: LangGraph's multitask strategies (its ``MultitaskStrategy``); any of them runs at once on an idle thread.
MULTITASK_STRATEGIES = ("reject", "interrupt", "rollback", "enqueue")
#: What this server does with a run on a busy thread, whatever it asked: refuse it (LangGraph's default: enqueue).
OWN_MULTITASK_STRATEGY = "reject"


def resume_answers(value: Any, interrupt_ids: list[str], shown: str | None = None) -> dict[str | None, Any]:
    """``command.resume`` as answers by interrupt id (``runs.resume_interrupts``).

    LangGraph's ``{interrupt id: value, ...}`` answers those questions (the rest stay waiting); a
    map of the only waiting question is that answer, as before ids were needed. Agent Inbox's
    response (:func:`agents.hitl_shape.is_inbox_response`) answers ``shown``, the question Agent Inbox
    shows, by its id (so it answers no other if that one is answered before the run takes the thread).
    Anything else is one answer to the only question (refused, listing the ids, when several wait).
    """
    if isinstance(value, dict) and value and all(isinstance(key, str) for key in value):
        keyed = any(key in interrupt_ids for key in value) or all(_INTERRUPT_ID.fullmatch(key) for key in value)
        if keyed and len(interrupt_ids) == 1 and interrupt_ids == list(value):  # the only question: as before
            return {None: next(iter(value.values()))}
        if keyed:
            return dict(value)
    if shown is not None and is_inbox_response(value):
        return {shown: value}
    return {None: value}


def check_inbox_accept(value: Any, shown: Any) -> None:
    """Refuses Agent Inbox's accept of another question than ``shown``, the ``Interrupt`` it would answer.

    The accept carries the action request Agent Inbox showed; when its name or an argument is not what
    ``shown`` asks (:func:`agents.hitl_shape.accepted_changes`: e.g. another item's amount), the question
    Agent Inbox showed was answered by someone else after it loaded the thread. A response that carries no
    action request (an edit's arguments are the person's own, a ``response`` is text, an accept without
    ``args``) cannot be compared, and is not refused here.

    Raises:
        ApiError: 409 on ``command.resume``: what changed, the question waiting now, and to reload.
    """
    if not is_inbox_response(value):
        return
    question = getattr(shown, "value", None)
    changes = accepted_changes(value[0], question)
    if not changes:
        return
    name, (accepted, asked) = next(iter(changes.items()))
    waiting = question.get("question", "") if isinstance(question, dict) else ""
    refusal = text(
        STRINGS,
        "api.error.inbox_answered_meanwhile",
        name=name,
        accepted=_shown_value(accepted),
        asked=_shown_value(asked),
        question=waiting,
    )
    raise ApiError(409, str(refusal), "command.resume")


def _shown_value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def named_head(
    store: Store, thread_id: str, checkpoint_id: str | None, if_match: str | None, *, start: bool
) -> str | None:
    """The head a run that names ``checkpoint_id`` expects: that checkpoint (None when it names none).

    Args:
        store: The database.
        thread_id: The run's thread.
        checkpoint_id: The checkpoint the run names, or None.
        if_match: The head of ``If-Match``, or None; naming another checkpoint than ``checkpoint_id`` is refused.
        start: Whether the run starts the agent with input: an older checkpoint of the thread is refused
            here, saying how to go on from it (an answer's is refused as stale under the lease).

    Raises:
        InputError: Naming ``checkpoint_id``: one the thread does not have, or one ``If-Match`` does not name.
        ApiError: 409, a start naming an older checkpoint of the thread.
    """
    if not checkpoint_id:
        return None
    if if_match is not None and if_match != checkpoint_id:
        refusal = text(STRINGS, "api.error.checkpoint_if_match", checkpoint=repr(checkpoint_id), seen=repr(if_match))
        raise InputError("checkpoint_id", refusal)
    readmodel.check_checkpoint(store, thread_id, checkpoint_id)
    head = readmodel.head_checkpoint_id(store, thread_id)
    if start and head != checkpoint_id:
        older = text(
            STRINGS,
            "api.error.older_checkpoint",
            checkpoint=repr(checkpoint_id),
            thread=repr(thread_id),
            head=repr(head),
        )
        raise ApiError(409, str(older), "checkpoint_id")
    return checkpoint_id


def multitask_strategy(asked: str | None) -> str:
    """The run's ``multitask_strategy``: ``asked``, or :data:`OWN_MULTITASK_STRATEGY` when none is given.

    Raises:
        InputError: ``asked`` is none of LangGraph's :data:`MULTITASK_STRATEGIES` (a 422 naming the field).
    """
    if asked is None:
        return OWN_MULTITASK_STRATEGY
    if asked not in MULTITASK_STRATEGIES:
        raise InputError("multitask_strategy", text(STRINGS, "api.error.multitask_strategy", value=repr(asked)))
    return asked


def refuse_if_running(store: Store, thread_id: str, asked: str | None) -> None:
    """Refuses at once (409) a run on a thread that is running, whatever ``multitask_strategy`` it ``asked``.

    Raises:
        ApiError: 409 on ``thread_id``: this server does not queue, interrupt or roll back a running run;
            the message names the strategy asked and says to wait for that run and send again.
    """
    try:
        refuse_if_busy(store, thread_id)
    except ThreadBusyError:
        said = (
            text(STRINGS, "api.error.thread_running.asked", strategy=repr(asked))
            if asked is not None
            else text(STRINGS, "api.error.thread_running.default")
        )
        refusal = text(STRINGS, "api.error.thread_running", thread=repr(thread_id), asked=said)
        raise ApiError(409, str(refusal), "thread_id") from None
