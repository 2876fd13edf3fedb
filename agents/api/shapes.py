"""The LangGraph server's JSON shapes, built from this project's threads, statuses and snapshots.

One assistant per registered agent (``assistant_id`` = ``graph_id`` = the agent's name). A thread's
status is its lifecycle status in LangGraph's words (:data:`THREAD_STATUS`): ``interrupted`` =
waiting for a human, ``busy`` = running, ``error`` = needs attention, ``idle`` = done.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import BaseMessage

from agents import readmodel
from agents.lifecycle import ThreadStatus
from agents.loaded import is_instance
from agents.spec import AgentSpec

#: Lifecycle status → the LangGraph server's thread status.
THREAD_STATUS = {"waiting": "interrupted", "running": "busy", "attention": "error", "done": "idle"}
#: When the assistants were "created": the registry is code, so one fixed moment.
ASSISTANTS_CREATED = "2025-01-01T00:00:00+00:00"


def assistant(spec: AgentSpec) -> dict[str, Any]:
    """An agent as a LangGraph assistant."""
    return {
        "assistant_id": spec.name,
        "graph_id": spec.name,
        "name": spec.name,
        "description": spec.description,
        "config": {},
        "context": {},
        "metadata": {"created_by": "system", "title": spec.title},
        "version": 1,
        "created_at": ASSISTANTS_CREATED,
        "updated_at": ASSISTANTS_CREATED,
    }


def checkpoint_ref(thread_id: str, checkpoint_id: str | None) -> dict[str, Any] | None:
    """LangGraph's ``Checkpoint`` reference, with the keys its server sends."""
    if not checkpoint_id:
        return None
    return {"thread_id": thread_id, "checkpoint_ns": "", "checkpoint_id": checkpoint_id}


def state_update(thread_id: str, checkpoint_id: str | None) -> dict[str, Any]:
    """What ``update_state`` answers, as LangGraph's server does: the new checkpoint three ways."""
    ref = checkpoint_ref(thread_id, checkpoint_id)
    return {"checkpoint": ref, "configurable": ref, "checkpoint_id": checkpoint_id}


def _config_checkpoint(config: dict[str, Any] | None) -> str | None:
    return ((config or {}).get("configurable") or {}).get("checkpoint_id")


def checkpoint_id_of(snapshot: Any) -> str | None:
    """The checkpoint a ``StateSnapshot`` was read at (the thread's head when it was read)."""
    return _config_checkpoint(snapshot.config)


def jsonable(value: Any) -> Any:
    """Decoded state as JSON: a message in full as LangGraph's server writes it (its ``model_dump``, with
    ``id``), an interrupt as ``{"value", "id"}``, the rest as :func:`agents.readmodel.to_jsonable` has it."""
    if isinstance(value, BaseMessage):
        return readmodel.to_jsonable(value.model_dump())
    if isinstance(value, dict):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(item) for item in value]
    if is_instance(value, "langgraph.types", "Interrupt"):
        return interrupt_json(value)
    return readmodel.to_jsonable(value)


def interrupt_json(item: Any) -> dict[str, Any]:
    """An ``Interrupt`` as LangGraph's server sends it: ``{"value", "id", "response_schema"}``.

    ``response_schema`` is the JSON Schema the question was asked with (``interrupt(...,
    response_schema=...)``); None for a question that declares none, or was saved before it did.
    """
    schema = getattr(item, "response_schema", None)
    return {
        "value": jsonable(getattr(item, "value", item)),
        "id": getattr(item, "id", None),
        "response_schema": jsonable(schema) if isinstance(schema, dict) else None,
    }


def state(thread_id: str, snapshot: Any) -> dict[str, Any]:
    """A LangGraph ``StateSnapshot`` as the server's ``ThreadState``."""
    created = snapshot.created_at
    checkpoint_id, parent_id = _config_checkpoint(snapshot.config), _config_checkpoint(snapshot.parent_config)
    return {
        "values": jsonable(dict(snapshot.values or {})),
        "next": list(snapshot.next),
        "checkpoint": checkpoint_ref(thread_id, checkpoint_id),
        "metadata": jsonable(dict(snapshot.metadata or {})),
        "created_at": created.isoformat() if isinstance(created, dt.datetime) else created,
        "parent_checkpoint": checkpoint_ref(thread_id, parent_id),
        "checkpoint_id": checkpoint_id,
        "parent_checkpoint_id": parent_id,
        "tasks": [
            {
                "id": task.id,
                "name": task.name,
                "path": jsonable(list(task.path)),
                "error": None if task.error is None else f"{type(task.error).__name__}: {task.error}",
                "interrupts": [interrupt_json(i) for i in task.interrupts],
                "checkpoint": None,
                "state": None,
                "result": jsonable(task.result),
            }
            for task in snapshot.tasks
        ],
        "interrupts": [interrupt_json(i) for i in snapshot.interrupts],
    }


def waiting_by_task(snapshot: Any) -> dict[str, list[Any]]:
    """A snapshot's waiting ``Interrupt``s by task id, in the snapshot's task order: a ``Thread``'s ``interrupts``.

    The tasks come in LangGraph's order, which is fixed by the checkpoint: the ``Send`` tasks in the order
    they were sent (a refund's items in the request's order), then the nodes. Agent Inbox shows what this
    order puts first (:func:`shown_interrupt`).
    """
    return {str(task.id): list(task.interrupts) for task in snapshot.tasks if task.interrupts}


def shown_interrupt(snapshot: Any) -> Any | None:
    """The waiting ``Interrupt`` Agent Inbox shows for the thread, None when none waits.

    Agent Inbox (src/components/agent-inbox/contexts/utils.ts, ``getInterruptFromThread``) reads a
    ``Thread``'s ``interrupts`` in their order, the first interrupt of each task, and shows and answers
    the first of them (``interrupts[0]``: components/agent-inbox/utils.ts, ``createDefaultHumanResponse``):
    the first interrupt of the first task of :func:`waiting_by_task`.
    """
    return next((asked[0] for asked in waiting_by_task(snapshot).values()), None)


def thread_metadata(agent: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """A thread's metadata: what the client gave at ``threads.create``, and the agent (graph and assistant)."""
    return {**(extra or {}), "graph_id": agent, "assistant_id": agent}


def thread(
    status: ThreadStatus,
    snapshot: Any | None,
    created_at: str | None = None,
    metadata: dict[str, Any] | None = None,
    *,
    overdue: bool = False,
    decision_rights: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A saved thread as the server's ``Thread``; ``overdue``: past its agent's deadline (``HITL_SLA``);
    ``decision_rights``: who may decide a waiting item (``deciders``, ``no_decider``, ``escalated_to``,
    ``escalation_reason``; each null when the agent states none or no roles file is set)."""
    updated = status.updated_at.isoformat()
    interrupts: dict[str, list[dict[str, Any]]] = {}
    values: dict[str, Any] = {}
    if snapshot is not None:
        values = jsonable(dict(snapshot.values or {}))
        interrupts = {task: [interrupt_json(i) for i in asked] for task, asked in waiting_by_task(snapshot).items()}
    return {
        "thread_id": status.thread_id,
        "created_at": created_at or updated,
        "updated_at": updated,
        "state_updated_at": updated,
        "metadata": thread_metadata(status.agent, metadata),
        "status": THREAD_STATUS[status.status],
        "values": values,
        "interrupts": interrupts,
        "config": {},
        "error": status.reason if status.status == "attention" else None,
        # Ours, beside LangGraph's: the product's own words for where the thread stands.
        "lifecycle": {
            "status": status.status,
            "outcome": status.outcome,
            "reason": status.reason,
            "action": status.action,
            "head_checkpoint_id": status.head_checkpoint_id,
            "waiting_since": status.waiting_since.isoformat() if status.waiting_since else None,
            # How many questions wait, as ``threads --json`` says it (``threadstatus.says_count``: several, or
            # one item of several); 0 when the status says no count.
            "waiting_count": status.waiting_count,
            "overdue": overdue,
        }
        | (decision_rights or dict.fromkeys(("deciders", "no_decider", "escalated_to", "escalation_reason"))),
    }


def empty_thread(thread_id: str, created_at: str, metadata: dict[str, Any]) -> dict[str, Any]:
    """A thread created by ``threads.create`` that has not run yet (no checkpoint), as LangGraph's server has it."""
    return {
        "thread_id": thread_id,
        "created_at": created_at,
        "updated_at": created_at,
        "state_updated_at": created_at,
        "metadata": dict(metadata),
        "status": "idle",
        "values": None,
        "config": {},
    }


def run_values(snapshot: Any) -> dict[str, Any]:
    """What ``runs.wait`` and ``runs.join`` answer: the thread's values, and ``__interrupt__`` when it waits."""
    return values_answer(snapshot.values, snapshot.interrupts)


def values_answer(values: Any, interrupts: Sequence[Any]) -> dict[str, Any]:
    """:func:`run_values` of these values and waiting ``Interrupt``s (a run's result, as it left the thread)."""
    answer = jsonable(dict(values or {}))
    if interrupts:
        answer["__interrupt__"] = [interrupt_json(i) for i in interrupts]
    return dict(answer)


def stream_chunk(chunk: Any) -> Any:
    """One ``values`` or ``updates`` chunk, JSON-ready (interrupts as ``[{"value", "id"}]``)."""
    if isinstance(chunk, dict) and "__interrupt__" in chunk:
        rest = {key: value for key, value in chunk.items() if key != "__interrupt__"}
        data = jsonable(rest)
        data["__interrupt__"] = [interrupt_json(i) for i in chunk["__interrupt__"]]
        return data
    return jsonable(chunk)
