"""The LangGraph server's runs: wait, create + join, and stream (server-sent events).

A run is one operation of :mod:`agents.runs`: ``command={"resume": value}`` answers the waiting
question, ``command={"resume": {interrupt_id: value, ...}}`` those of several waiting at once (the rest
stay waiting; ``resume_interrupts``, the agent's answer checks included), ``input`` starts the agent with its
start fields (``start_run``), and neither runs the thread on from its head or from ``checkpoint_id``
(``continue_thread``, a re-run). A run on a thread another request or process is running is refused
(409), as LangGraph's server does with its default ``multitask_strategy="reject"``.

Bad input is refused before anything runs, with a 4xx naming the field, for every kind of run: the
background run of ``runs.create`` and the stream answer only once the run has passed its checks and
started (its first task), or has ended.
"""

from __future__ import annotations

import json
import logging
import queue
import re
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict

from agents import lifecycle, readmodel, runs
from agents.api import shapes
from agents.api.context import Actor, ApiContext, Ctx, expected_head, now_iso, refuse_if_busy
from agents.api.errors import ApiError, is_user_error, status_of
from agents.errors import InputError, RunFailedError, ThreadNotFoundError
from agents.identity import LOCAL_OPERATOR, Identity
from agents.registry import get_agent
from agents.validation import validate_thread_id

logger = logging.getLogger("agents.api")
router = APIRouter(tags=["LangGraph: runs"])
#: Finished runs remembered for runs.get / runs.join.
RUNS_KEPT = 1000


class Command(BaseModel):
    model_config = ConfigDict(extra="forbid")
    resume: Any = None
    update: Any = None
    goto: Any = None


class CheckpointRef(BaseModel):
    model_config = ConfigDict(extra="ignore")
    checkpoint_id: str | None = None


class RunCreate(BaseModel):
    # The SDK sends options this server does not use (config, context, durability...); they are let through.
    model_config = ConfigDict(extra="ignore")
    assistant_id: str
    input: Any = None
    command: Command | None = None
    stream_mode: str | list[str] = "values"
    metadata: dict[str, Any] | None = None
    checkpoint: CheckpointRef | None = None
    checkpoint_id: str | None = None
    interrupt_before: Any = None
    interrupt_after: Any = None
    if_not_exists: str | None = None
    multitask_strategy: str | None = None


@dataclass
class ApiRun:
    """A run as the server remembers it (``runs.get``, ``runs.join``)."""

    run_id: str
    thread_id: str
    assistant_id: str
    created_at: str
    metadata: dict[str, Any]
    status: str = "pending"
    updated_at: str = ""
    future: Future[dict[str, Any]] | None = None
    kwargs: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """LangGraph's ``Run``."""
        return {
            "run_id": self.run_id,
            "thread_id": self.thread_id,
            "assistant_id": self.assistant_id,
            "created_at": self.created_at,
            "updated_at": self.updated_at or self.created_at,
            "status": self.status,
            "metadata": self.metadata,
            "multitask_strategy": "reject",
            "kwargs": self.kwargs,
        }


def _modes(value: str | list[str]) -> tuple[str, ...]:
    modes = (value,) if isinstance(value, str) else tuple(value)
    unknown = [mode for mode in modes if mode not in runs.STREAM_MODES]
    if unknown or not modes:
        raise InputError("stream_mode", f"supported: {', '.join(runs.STREAM_MODES)}; got {unknown or 'none'}")
    return modes


#: What LangGraph's interrupt ids look like (32 hex digits): a resume map keyed by them answers by id.
_INTERRUPT_ID = re.compile(r"[0-9a-f]{32}")


def resume_answers(value: Any, interrupt_ids: list[str]) -> dict[str | None, Any]:
    """``command.resume`` as answers by interrupt id (``runs.resume_interrupts``).

    LangGraph's ``{interrupt id: value, ...}`` answers those questions (the rest stay waiting); a
    map of the only waiting question is that answer, as before ids were needed; anything else is one
    answer to the only question (refused, listing the ids, when several wait).
    """
    if isinstance(value, dict) and value and all(isinstance(key, str) for key in value):
        keyed = any(key in interrupt_ids for key in value) or all(_INTERRUPT_ID.fullmatch(key) for key in value)
        if keyed and len(interrupt_ids) == 1 and interrupt_ids == list(value):  # the only question: as before
            return {None: next(iter(value.values()))}
        if keyed:
            return dict(value)
    return {None: value}


def prepare(context: ApiContext, thread_id: str, body: RunCreate) -> str:
    """Checks what can be checked before a run: the thread, the assistant and the options."""
    thread_id = lifecycle.thread_named(context.store, thread_id)
    spec = get_agent(body.assistant_id)
    for name in ("interrupt_before", "interrupt_after"):
        if getattr(body, name):
            raise InputError(name, "is not supported: the agents ask where they need a human")
    if body.command is not None and (body.command.update is not None or body.command.goto is not None):
        raise InputError("command", "only command.resume is supported (update and goto are not)")
    if body.input is not None and not isinstance(body.input, dict):
        raise InputError("input", f"must be a JSON object of the {spec.name} agent's start fields")
    owner = readmodel.thread_agent(context.store, thread_id)
    if owner is None:
        if thread_id not in context.created and body.if_not_exists != "create":
            raise ThreadNotFoundError(thread_id)
    elif owner != spec.name:
        raise InputError("assistant_id", f"thread {thread_id!r} belongs to the {owner} agent, not {spec.name}")
    refuse_if_busy(context.store, thread_id)
    return thread_id


def execute(
    context: ApiContext,
    thread_id: str,
    body: RunCreate,
    head: str | None,
    *,
    on_event: runs.EventCallback | None = None,
    on_chunk: runs.ChunkCallback | None = None,
    modes: tuple[str, ...] = (),
    actor: Identity = LOCAL_OPERATOR,
) -> dict[str, Any]:
    """Runs the operation the body asks for, as ``actor``, and returns what ``runs.wait`` answers."""
    store, settings = context.store, context.settings
    streaming: dict[str, Any] = {"on_event": on_event, "on_chunk": on_chunk, "stream_modes": modes, "actor": actor}
    checkpoint_id = body.checkpoint_id or (body.checkpoint.checkpoint_id if body.checkpoint else None)
    saved = readmodel.head_checkpoint_id(store, thread_id) is not None
    if body.command is not None and "resume" in body.command.model_fields_set:
        if checkpoint_id:
            raise InputError("checkpoint_id", "a resume answers the head's question; leave checkpoint_id out")
        ids: list[str] = []
        if saved:
            snapshot = runs.thread_snapshot(store, settings, thread_id)[1]
            ids = [str(i.id) for i in snapshot.interrupts]
        answers = resume_answers(body.command.resume, ids)
        runs.resume_interrupts(store, settings, thread_id, answers, expected_head=head, **streaming)
    elif body.input is not None or not saved:
        if checkpoint_id:
            raise InputError("checkpoint_id", "a new run starts from its input; leave checkpoint_id out")
        spec = get_agent(body.assistant_id)
        lang = (body.metadata or {}).get("lang")  # the run language, e.g. metadata={"lang": "ko"}; default en
        runs.start_run(store, settings, spec.name, dict(body.input or {}), thread_id=thread_id, lang=lang, **streaming)
    else:
        runs.continue_thread(store, settings, thread_id, checkpoint_id=checkpoint_id, expected_head=head, **streaming)
    return shapes.run_values(runs.thread_snapshot(store, settings, thread_id)[1])


def _failure(error: RunFailedError) -> dict[str, Any]:
    return {"__error__": {"error": type(error.error).__name__, "message": str(error)}}


def _remember(context: ApiContext, run: ApiRun) -> None:
    with context.lock:
        context.runs[run.run_id] = run
        if len(context.runs) > RUNS_KEPT:
            finished = [key for key, r in context.runs.items() if r.status not in ("pending", "running")]
            for key in finished[: len(context.runs) - RUNS_KEPT]:
                del context.runs[key]


def _new_run(context: ApiContext, thread_id: str, body: RunCreate) -> ApiRun:
    run = ApiRun(uuid.uuid4().hex, thread_id, body.assistant_id, now_iso(), dict(body.metadata or {}))
    _remember(context, run)
    return run


def _finish(run: ApiRun, status: str) -> None:
    run.status, run.updated_at = status, now_iso()


@router.post("/threads/{thread_id}/runs/wait")
def wait_run(thread_id: str, body: RunCreate, request: Request, context: Ctx, actor: Actor) -> dict[str, Any]:
    """Runs until the thread finishes or asks; answers its values (``__interrupt__`` when it waits)."""
    thread_id = prepare(context, thread_id, body)
    run = _new_run(context, thread_id, body)
    run.status = "running"
    try:
        values = execute(context, thread_id, body, expected_head(request), actor=actor)
    except RunFailedError as error:
        _finish(run, "error")
        return _failure(error)
    except BaseException as error:
        _finish(run, "error")
        if is_user_error(error):  # refused before anything ran: no run to remember
            with context.lock:
                context.runs.pop(run.run_id, None)
        raise
    _finish(run, "success")
    return values


def _start_in_background(
    context: ApiContext,
    thread_id: str,
    body: RunCreate,
    head: str | None,
    modes: tuple[str, ...] = (),
    actor: Identity = LOCAL_OPERATOR,
) -> tuple[ApiRun, queue.Queue[tuple[str, Any]]]:
    """Starts the run on the pool; returns once it passed its checks (its first task) or ended.

    The queue receives ``("chunk", (mode, data))`` items, then ``("done", values)`` or ``("error", e)``.
    A run refused by its checks raises here, so the caller answers a 4xx and remembers nothing.
    """
    events: queue.Queue[tuple[str, Any]] = queue.Queue()
    started = threading.Event()
    run = ApiRun(uuid.uuid4().hex, thread_id, body.assistant_id, now_iso(), dict(body.metadata or {}))

    def on_event(event: dict[str, Any]) -> None:
        run.status = "running"
        started.set()

    def work() -> dict[str, Any]:
        try:
            values = execute(
                context,
                thread_id,
                body,
                head,
                on_event=on_event,
                on_chunk=lambda mode, chunk: events.put(("chunk", (mode, chunk))),
                modes=modes,
                actor=actor,
            )
        except RunFailedError as error:
            _finish(run, "error")
            events.put(("error", error))
            return _failure(error)
        except BaseException as error:
            _finish(run, "error")
            events.put(("error", error))
            raise
        finally:
            started.set()
        _finish(run, "success")
        events.put(("done", values))
        return values

    run.future = context.pool.submit(work)
    started.wait()
    if run.status == "error":
        error = run.future.exception()  # waits for the run to end
        if error is not None and is_user_error(error):
            raise error
    _remember(context, run)
    return run, events


@router.post("/threads/{thread_id}/runs")
def create_run(thread_id: str, body: RunCreate, request: Request, context: Ctx, actor: Actor) -> dict[str, Any]:
    """Starts a run in the background (``runs.join`` waits for it); bad input is refused first."""
    thread_id = prepare(context, thread_id, body)
    run, _events = _start_in_background(context, thread_id, body, expected_head(request), actor=actor)
    return run.to_json()


def _run_of(context: ApiContext, thread_id: str, run_id: str) -> ApiRun:
    thread_id = validate_thread_id(thread_id)  # as the run recorded it (NFC), whatever form the client sent
    with context.lock:
        run = context.runs.get(run_id)
    if run is None or run.thread_id != thread_id:
        raise ApiError(404, f"run_id: no run {run_id!r} on thread {thread_id!r} in this server", "run_id")
    return run


@router.get("/threads/{thread_id}/runs/{run_id}")
def get_run(thread_id: str, run_id: str, context: Ctx) -> dict[str, Any]:
    """A run this server started, with its status."""
    return _run_of(context, thread_id, run_id).to_json()


@router.get("/threads/{thread_id}/runs")
def list_runs(thread_id: str, context: Ctx) -> list[dict[str, Any]]:
    """The runs this server started on the thread, newest first."""
    thread_id = validate_thread_id(thread_id)
    with context.lock:
        found = [run.to_json() for run in context.runs.values() if run.thread_id == thread_id]
    return sorted(found, key=lambda r: r["created_at"], reverse=True)


@router.get("/threads/{thread_id}/runs/{run_id}/join")
def join_run(thread_id: str, run_id: str, context: Ctx) -> dict[str, Any]:
    """Waits for a run and answers as ``runs.wait`` would."""
    run = _run_of(context, thread_id, run_id)
    if run.future is None:  # a wait or stream run: it finished before its caller had its id
        return shapes.run_values(runs.thread_snapshot(context.store, context.settings, thread_id)[1])
    return run.future.result()


def sse(event: str, data: Any) -> bytes:
    """One server-sent event."""
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False, default=str)}\n\n".encode()


def _events(run: ApiRun, events: queue.Queue[tuple[str, Any]], request_id: str) -> Iterator[bytes]:
    yield sse("metadata", {"run_id": run.run_id, "attempt": 1})
    while True:
        kind, item = events.get()
        if kind == "chunk":
            mode, chunk = item
            yield sse(mode, shapes.stream_chunk(mode, chunk))
        elif kind == "error":
            if isinstance(item, RunFailedError):
                yield sse("error", _failure(item)["__error__"])
            elif is_user_error(item):
                status, body = status_of(item)
                yield sse("error", {"error": type(item).__name__, "message": body["detail"], "status": status})
            else:
                logger.error("request %s: the streamed run failed: %s", request_id, type(item).__name__)
                yield sse("error", {"error": "InternalError", "message": "internal error", "request_id": request_id})
            return
        else:
            return


@router.post("/threads/{thread_id}/runs/stream")
def stream_run(thread_id: str, body: RunCreate, request: Request, context: Ctx, actor: Actor) -> StreamingResponse:
    """Streams the run as server-sent events: ``metadata``, then ``values`` / ``updates`` chunks."""
    thread_id = prepare(context, thread_id, body)
    modes = _modes(body.stream_mode)
    run, events = _start_in_background(context, thread_id, body, expected_head(request), modes, actor)
    request_id = str(getattr(request.state, "request_id", ""))
    headers = {"Content-Location": f"/threads/{thread_id}/runs/{run.run_id}", "Cache-Control": "no-store"}
    return StreamingResponse(_events(run, events, request_id), media_type="text/event-stream", headers=headers)
