"""A form's request sent twice (a double click on its submit button) is said once, as sent, its thread selected.

A browser sends every click on a form's submit button. The first click's callback starts the thread; the second
click stops that run of the page as soon as the callback touches the session again, after the start, so the
first says nothing, and the second, the same request, is refused because the thread the first started now holds
it ("case 'F2' already exists"). The request looked refused, and was entered again under a new id.

So a form records the request before it starts it, with the run id it starts it under (:func:`sending`); the same
request refused while the thread that run started has had no other run (:func:`sent_again`) is that request,
sent: the page says so and selects its thread. Any other request refused stays refused: other values, a thread
another session or command started, or one that moved on since (a case decided: "submitted" is no longer news).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from agents import nodelog, readmodel, run_index
from agents.db import Store

#: The session key of the last request a form of this session sent (:class:`Sent`).
SENT_KEY = "forms:sent"


@dataclass(frozen=True)
class Sent:
    """A request a form sent: the form, its fields as the form held them, and the run id it was started under."""

    form: str
    values: Mapping[str, Any]
    run_id: str


def sending(state: MutableMapping[str, Any], form: str, values: Mapping[str, Any]) -> str:
    """Records that ``form`` sends ``values`` now, before the run starts; returns the run id to start it under.

    The same request again keeps the run id it was first sent under: the start a double click's first click made
    is the one its second (and third) click is compared with. Such a start is refused before it runs anything
    (its thread is there), so the id never names two runs.
    """
    sent = state.get(SENT_KEY)
    if isinstance(sent, Sent) and sent.form == form and dict(sent.values) == dict(values):
        return sent.run_id
    state[SENT_KEY] = Sent(form, dict(values), uuid.uuid4().hex)
    return str(state[SENT_KEY].run_id)


def sent_again(store: Store, state: Mapping[str, Any], form: str, values: Mapping[str, Any]) -> str | None:
    """The thread the request ``values`` from ``form`` started, when it is the request this session sent last (its
    start refused now because that thread holds it) and the thread has had no run but that start; else None.

    The database is read only when the values are the same: a different request is refused without a read.
    """
    sent = state.get(SENT_KEY)
    if not isinstance(sent, Sent) or sent.form != form or dict(sent.values) != dict(values):
        return None
    started = {str(row["thread_id"]) for row in nodelog.node_runs(store, run_id=sent.run_id)}
    if len(started) != 1:
        return None
    thread_id = started.pop()
    if readmodel.head_checkpoint_id(store, thread_id) is None:  # deleted since
        return None
    return thread_id if [run.run_id for run in run_index.thread_runs(store, thread_id)] == [sent.run_id] else None
