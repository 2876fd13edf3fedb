"""The LangGraph server's runs: wait, create + join, and stream (server-sent events).

A run is one operation of :mod:`agents.runs`: ``command={"resume": value}`` answers the waiting
question, ``command={"resume": {interrupt_id: value, ...}}`` those of several waiting at once (the rest
stay waiting; ``resume_interrupts``, the agent's answer checks included; Agent Inbox's answer, which names
no question, answers the one it shows), ``input`` starts the agent with its start fields (``start_run``),
and neither runs the thread on from its head or from ``checkpoint_id`` (``continue_thread``, a re-run). A
start or an answer may name the thread's head as its checkpoint, as useStream does (Agent Chat UI): see
:mod:`agents.api.run_target`. A run on a thread another request or process is running is refused (409),
whatever its ``multitask_strategy``: this server does not queue, interrupt or roll back a running run, where
LangGraph's server queues it by default (``enqueue``); see :func:`agents.api.run_target.refuse_if_running`.

Bad input is refused before anything runs, with a 4xx naming the field, for every kind of run: the
background run of ``runs.create`` and the stream answer only once the run has passed its checks and
started (its first task), or has ended.
"""

from __future__ import annotations

import json
import logging
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeGuard
from urllib.parse import quote

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict

from agents import identity, lifecycle, readmodel, runs
from agents.api import inputs, shapes, streaming
from agents.api.context import Actor, ApiContext, Ctx, expected_head, now_iso
from agents.api.errors import ApiError, is_user_error, status_of
from agents.api.run_context import check_context, run_options
from agents.api.run_target import (
    OWN_MULTITASK_STRATEGY,
    check_inbox_accept,
    multitask_strategy,
    named_head,
    refuse_if_running,
    resume_answers,
)
from agents.errors import InputError, NotWaitingError, RunCancelled, RunFailedError, ThreadNotFoundError
from agents.hitl_shape import is_inbox_response
from agents.identity import LOCAL_OPERATOR, Identity
from agents.registry import get_agent
from agents.strings import STRINGS
from agents.texts import text
from agents.validation import validate_thread_id

logger = logging.getLogger("agents.api")
router = APIRouter(tags=["LangGraph: runs"])
#: Finished runs remembered for runs.get / runs.join.
RUNS_KEPT = 1000
#: Finished runs whose events are kept for runs.join_stream (a run's events may hold every state it saved).
EVENTS_KEPT = 100
#: A run's statuses (LangGraph's ``RunStatus``), which ``runs.list(status=...)`` filters by.
RUN_STATUSES = ("pending", "running", "error", "success", "timeout", "interrupted")
#: The fields of a run (:meth:`ApiRun.to_json`, LangGraph's server's ``RUN_FIELDS``) ``runs.list(select=...)`` keeps.
RUN_FIELDS = (
    "run_id",
    "thread_id",
    "assistant_id",
    "created_at",
    "updated_at",
    "status",
    "metadata",
    "multitask_strategy",
    "kwargs",
    "langsmith_session_name",
)


class Command(BaseModel):
    """LangGraph's ``Command`` as clients send it; only ``resume`` is acted on (:func:`refuse_unsupported_command`).

    ``RemoteGraph`` sends its whole ``Command`` (``goto: []`` always, ``graph``, ``update`` as ``null``
    when its SDK does not drop them), so every field is known and an empty one means none.
    """

    model_config = ConfigDict(extra="forbid")
    resume: Any = None
    update: Any = None
    goto: Any = None
    graph: Any = None


class CheckpointRef(BaseModel):
    model_config = ConfigDict(extra="ignore")
    checkpoint_id: str | None = None


class RunCreate(BaseModel):
    # The SDK sends options this server does not use (durability, stream_subgraphs...); they are let through.
    model_config = ConfigDict(extra="ignore")
    assistant_id: str
    input: Any = None
    context: Any = None
    config: Any = None
    command: Command | None = None
    stream_mode: str | list[str] = "values"
    metadata: dict[str, Any] | None = None
    checkpoint: CheckpointRef | None = None
    checkpoint_id: str | None = None
    interrupt_before: Any = None
    interrupt_after: Any = None
    if_not_exists: str | None = None
    multitask_strategy: str | None = None
    on_disconnect: str | None = None
    # Honoured by LangGraph's server, refused here when given (agents.api.run_context.run_options).
    webhook: Any = None
    after_seconds: Any = None


@dataclass
class ApiRun:
    """A run as the server remembers it (``runs.get``, ``runs.join``)."""

    run_id: str
    thread_id: str
    assistant_id: str
    created_at: str
    metadata: dict[str, Any]
    multitask_strategy: str = OWN_MULTITASK_STRATEGY
    status: str = "pending"
    updated_at: str = ""
    future: Future[dict[str, Any]] | None = None
    kwargs: dict[str, Any] = field(default_factory=dict)
    #: Every server-sent event of the run so far, ``(event, data)``: its stream, and ``join_stream``'s.
    events: list[tuple[str, Any]] = field(default_factory=list)
    ended: bool = False
    changed: threading.Condition = field(default_factory=threading.Condition)
    cancelled: threading.Event = field(default_factory=threading.Event)

    def publish(self, event: str, data: Any) -> None:
        """Adds an event to the run's stream."""
        with self.changed:
            self.events.append((event, data))
            self.changed.notify_all()

    def end(self) -> None:
        """Ends the run's stream."""
        with self.changed:
            self.ended = True
            self.changed.notify_all()

    def follow(self, start: int = 0) -> Iterator[tuple[int, str, Any]]:
        """The events from index ``start`` on, ``(index, event, data)``, waiting for new ones until the run ends."""
        index = start

        def ready() -> bool:
            return self.ended or len(self.events) > index

        while True:
            with self.changed:
                self.changed.wait_for(ready)
                found, ended = self.events[index:], self.ended
            for event, data in found:
                yield index, event, data
                index += 1
            if ended and not found:
                return

    def check_cancelled(self, *_: Any) -> None:
        """Stops the run (at the step it reached) once a cancel asked for it."""
        if self.cancelled.is_set():
            raise RunCancelled(self.run_id)

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
            "multitask_strategy": self.multitask_strategy,
            "kwargs": self.kwargs,
            "langsmith_session_name": None,  # LangSmith tracing is off here
        }


def _is_resume(command: Command | None) -> TypeGuard[Command]:
    """Whether a run's command answers a waiting question (``resume`` given, even ``null``)."""
    return command is not None and "resume" in command.model_fields_set


def refuse_unsupported_command(command: Command) -> None:
    """Refuses (422) a command that asks more than an answer: an update, a goto, or a parent graph.

    ``null`` and an empty ``goto`` (``[]``, which ``RemoteGraph`` always sends) ask nothing. An update or a
    goto would write the state or move the graph past the agents' rules (a refund's decision goes through
    its answer checks); a parent graph has no meaning here, where no agent runs inside another graph.
    """
    if command.update is not None or command.goto not in (None, []):
        raise InputError("command", "only command.resume is supported (update and goto are not)")
    if command.graph is not None:
        raise InputError("command.graph", f"must be null: no agent runs inside a parent graph; got {command.graph!r}")


def prepare(context: ApiContext, thread_id: str, body: RunCreate) -> str:
    """Checks what can be checked before a run: the options, the thread and the assistant."""
    multitask_strategy(body.multitask_strategy)
    thread_id = lifecycle.thread_named(context.store, thread_id)
    spec = get_agent(body.assistant_id)
    for name in ("interrupt_before", "interrupt_after"):
        if getattr(body, name):
            raise InputError(name, "is not supported: the agents ask where they need a human")
    if body.command is not None:
        refuse_unsupported_command(body.command)
    if body.input is not None and not isinstance(body.input, dict):
        raise InputError("input", f"must be a JSON object of the {spec.name} agent's start fields")
    check_context(context.store, context.settings, spec, body.context, body.config)
    owner = readmodel.thread_agent(context.store, thread_id)
    if owner is None:
        created = thread_id in context.created
        if not created and body.if_not_exists != "create":
            raise ThreadNotFoundError(thread_id)
        if created and _is_resume(body.command):  # it has not run, so it asks nothing (runs know saved threads only)
            raise NotWaitingError(thread_id)
    elif owner != spec.name:
        raise InputError("assistant_id", f"thread {thread_id!r} belongs to the {owner} agent, not {spec.name}")
    refuse_if_running(context.store, thread_id, body.multitask_strategy)
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
    run_id: str | None = None,
) -> dict[str, Any]:
    """Runs the operation the body asks for, as ``actor``, and returns what ``runs.wait`` answers.

    ``run_id`` (the API's run) is written in the metadata of every checkpoint the run saves, beside the
    body's ``metadata``; ``config.recursion_limit`` is the run's step limit. An option this server cannot
    honour (``webhook``, ``after_seconds``) is refused before anything runs.
    """
    store, settings = context.store, context.settings
    options = run_options(
        webhook=body.webhook, after_seconds=body.after_seconds, config=body.config, metadata=body.metadata
    )
    streaming: dict[str, Any] = {
        "on_event": on_event,
        "on_chunk": on_chunk,
        "stream_modes": modes,
        "actor": actor,
        "run_id": run_id,
        "options": options,
    }
    checkpoint_id = body.checkpoint_id or (body.checkpoint.checkpoint_id if body.checkpoint else None)
    saved = readmodel.head_checkpoint_id(store, thread_id) is not None
    if _is_resume(body.command):
        # The head's checkpoint (useStream sends it) is the head the answer expects; an older one is stale.
        expected = named_head(store, thread_id, checkpoint_id, head, start=False) or head
        ids: list[str] = []
        shown = None
        if saved:
            snapshot = runs.thread_snapshot(store, settings, thread_id)[1]
            ids = [str(i.id) for i in snapshot.interrupts]
            asked = shapes.shown_interrupt(snapshot)
            if asked is not None:
                shown = str(asked.id)
                if is_inbox_response(body.command.resume):
                    check_inbox_accept(body.command.resume, asked)
                    # Checked against this state: answered only if the thread is still as read here.
                    expected = expected or shapes.checkpoint_id_of(snapshot)
        answers = resume_answers(body.command.resume, ids, shown)
        # The thread as this run left it (read under its lease), not as another process may change it after.
        result = runs.resume_interrupts(store, settings, thread_id, answers, expected_head=expected, **streaming)
        return shapes.values_answer(result.values, result.questions)
    elif body.input is not None or not saved:
        named = named_head(store, thread_id, checkpoint_id, head, start=True)
        spec = get_agent(body.assistant_id)
        lang = (body.metadata or {}).get("lang")  # the run language, e.g. metadata={"lang": "ko"}; default en
        runs.start_run(
            store,
            settings,
            spec.name,
            inputs.start_fields(spec, body.input or {}),
            thread_id=thread_id,
            lang=lang,
            expected_head=runs.UNCHECKED if named is None else named,
            **streaming,
        )
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
        _forget_old_events(context)


def _forget_old_events(context: ApiContext, ending: ApiRun | None = None) -> None:
    """Keeps the events of the :data:`EVENTS_KEPT` latest ended runs (``ending`` among them) and no others.

    Called when a run is remembered and when one ends, so the bound holds whichever comes first (a
    short run may end before the request that started it remembers it). Holds ``context.lock``.
    """
    ended = [r for r in context.runs.values() if (r.ended or r is ending) and r.events]
    for old in ended[: max(len(ended) - EVENTS_KEPT, 0)]:
        with old.changed:
            old.events = []  # its stream is over; a rejoin gets nothing (its state is in the database)


def _api_run(thread_id: str, body: RunCreate) -> ApiRun:
    """A new run of ``body`` on the thread, not remembered yet."""
    metadata = dict(body.metadata or {})
    strategy = multitask_strategy(body.multitask_strategy)
    return ApiRun(str(uuid.uuid4()), thread_id, body.assistant_id, now_iso(), metadata, strategy)


def _new_run(context: ApiContext, thread_id: str, body: RunCreate) -> ApiRun:
    run = _api_run(thread_id, body)
    _remember(context, run)
    return run


def _finish(run: ApiRun, status: str) -> None:
    run.status, run.updated_at = status, now_iso()


@router.post("/threads/{thread_id}/runs/wait")
def wait_run(thread_id: str, body: RunCreate, request: Request, context: Ctx, actor: Actor) -> dict[str, Any]:
    """Runs until the thread finishes or asks; answers its values (``__interrupt__`` when it waits)."""
    thread_id = prepare(context, thread_id, body)
    streaming.requested(body.stream_mode)  # checked as runs.stream and runs.create check it
    run = _new_run(context, thread_id, body)
    run.status = "running"
    try:
        values = execute(
            context,
            thread_id,
            body,
            expected_head(request),
            on_event=run.check_cancelled,
            on_chunk=run.check_cancelled,
            actor=actor,
            run_id=run.run_id,
        )
    except RunFailedError as error:
        _finish(run, "error")
        return _failure(error)
    except RunCancelled:
        _finish(run, "interrupted")
        return shapes.run_values(runs.thread_snapshot(context.store, context.settings, thread_id)[1])
    except BaseException as error:
        _finish(run, "error")
        if is_user_error(error):  # refused before anything ran: no run to remember
            with context.lock:
                context.runs.pop(run.run_id, None)
        raise
    finally:
        if run.status == "running":
            _finish(run, "success")
        run.end()
    return values


def _error_event(error: BaseException, request_id: str) -> dict[str, Any]:
    """The ``error`` event of a run that failed: its reason, never an internal detail."""
    if isinstance(error, RunFailedError):
        return _failure(error)["__error__"]
    if is_user_error(error):
        status, body = status_of(error)
        return {"error": type(error).__name__, "message": body["detail"], "status": status}
    logger.error("request %s: the run failed: %s", request_id, type(error).__name__)
    return {"error": "InternalError", "message": "internal error", "request_id": request_id}


def _start_in_background(
    context: ApiContext,
    thread_id: str,
    body: RunCreate,
    head: str | None,
    modes: tuple[str, ...],
    actor: Identity = LOCAL_OPERATOR,
    request_id: str = "",
    run: ApiRun | None = None,
) -> ApiRun:
    """Starts the run on the pool; returns once it passed its checks (its first task) or ended.

    The run's events (``metadata``, then the chunks of ``modes`` as LangGraph's server names them, then
    an ``error`` event if it failed) go to :attr:`ApiRun.events`, which its stream and ``join_stream``
    follow. A run refused by its checks raises here, so the caller answers a 4xx and remembers nothing.
    ``run`` is one made by :func:`_api_run` whose answer the caller built before the run could start.
    """
    started = threading.Event()
    run = run or _api_run(thread_id, body)
    run.publish("metadata", {"run_id": run.run_id, "attempt": 1})
    writer = streaming.EventWriter(modes)

    def on_event(event: dict[str, Any]) -> None:
        run.status = "running"
        started.set()
        run.check_cancelled()

    def on_chunk(mode: str, chunk: Any) -> None:
        for event, data in writer.events(mode, chunk):
            run.publish(event, data)
        run.check_cancelled()

    def work() -> dict[str, Any]:
        status, answer = "success", None
        try:
            answer = execute(
                context,
                thread_id,
                body,
                head,
                on_event=on_event,
                on_chunk=on_chunk,
                modes=streaming.graph_modes(modes),
                actor=actor,
                run_id=run.run_id,
            )
        except RunFailedError as error:
            status, answer = "error", _failure(error)
            run.publish("error", _error_event(error, request_id))
        except RunCancelled:
            status = "interrupted"
        except BaseException as error:
            status = "error"
            run.publish("error", _error_event(error, request_id))
            raise
        finally:
            _finish(run, status)  # before the stream ends: a client that sees it end finds the run ended
            started.set()
            with context.lock:
                _forget_old_events(context, ending=run)  # before its end is seen: the bound holds then
            run.end()
        if answer is None:
            answer = shapes.run_values(runs.thread_snapshot(context.store, context.settings, thread_id)[1])
        return answer

    run.future = context.pool.submit(work)
    started.wait()
    if run.status == "error":
        error = run.future.exception()  # waits for the run to end
        if error is not None and is_user_error(error):
            raise error
    _remember(context, run)
    return run


def _request_id(request: Request) -> str:
    return str(getattr(request.state, "request_id", ""))


@router.post("/threads/{thread_id}/runs")
def create_run(thread_id: str, body: RunCreate, request: Request, context: Ctx, actor: Actor) -> dict[str, Any]:
    """Starts a run in the background (``runs.join`` waits for it, ``runs.join_stream`` follows it)."""
    thread_id = prepare(context, thread_id, body)
    modes = streaming.requested(body.stream_mode)
    run = _start_in_background(context, thread_id, body, expected_head(request), modes, actor, _request_id(request))
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
def list_runs(
    thread_id: str,
    context: Ctx,
    limit: int = 10,
    offset: int = 0,
    status: str | None = None,
    select: Annotated[list[str] | None, Query()] = None,
) -> list[dict[str, Any]]:
    """The runs this server started on the thread, newest first, as LangGraph's server lists them.

    ``status`` keeps the runs in that status, ``offset`` and ``limit`` choose the page, ``select`` the
    fields of each run. An unknown thread is a 404 (a saved thread, or one ``threads.create`` made).
    """
    if not 1 <= limit <= RUNS_KEPT:
        raise InputError("limit", f"must be from 1 to {RUNS_KEPT}; got {limit}")
    if offset < 0:
        raise InputError("offset", f"must be 0 or more; got {offset}")
    if status is not None and status not in RUN_STATUSES:
        raise InputError("status", f"must be one of {', '.join(RUN_STATUSES)}; got {status!r}")
    unknown = [name for name in select or () if name not in RUN_FIELDS]
    if unknown:
        named = ", ".join(map(repr, unknown))
        raise InputError("select", f"names no field of a run: {named}; the fields are {', '.join(RUN_FIELDS)}")
    thread_id = lifecycle.thread_named(context.store, thread_id, exact=True)
    if thread_id not in context.created and lifecycle.thread_status(context.store, thread_id) is None:
        raise ThreadNotFoundError(thread_id)
    with context.lock:
        found = [run.to_json() for run in context.runs.values() if run.thread_id == thread_id]
    kept = [run for run in found if status is None or run["status"] == status]
    page = sorted(kept, key=lambda r: r["created_at"], reverse=True)[offset : offset + limit]
    return [{key: run[key] for key in run if key in select} for run in page] if select else page


@router.get("/threads/{thread_id}/runs/{run_id}/join")
def join_run(thread_id: str, run_id: str, context: Ctx) -> dict[str, Any]:
    """Waits for a run and answers as ``runs.wait`` would."""
    run = _run_of(context, thread_id, run_id)
    if run.future is None:  # a wait or stream run: it finished before its caller had its id
        return shapes.run_values(runs.thread_snapshot(context.store, context.settings, thread_id)[1])
    return run.future.result()


@router.post("/threads/{thread_id}/runs/{run_id}/cancel", status_code=202, response_model=None)
def cancel_run(
    thread_id: str, run_id: str, context: Ctx, actor: Actor, wait: str = "0", action: str = "interrupt"
) -> Response | dict[str, Any]:
    """Stops a pending or running run at the next step boundary (202); ``wait=1`` answers once it stopped.

    The thread keeps its last saved checkpoint as its head, with the steps not run as its next ones: it
    needs attention, and a continue (a run without input) or a new start goes on from there. A run that
    already ended is left as it is and answered 404, as LangGraph's server answers it ("No matching runs
    to cancel"). Only ``action=interrupt``: a rollback would delete saved checkpoints.
    """
    if action != "interrupt":
        raise InputError("action", f"only 'interrupt' is supported (a rollback deletes saved work); got {action!r}")
    identity.check_allowed(actor, identity.START_RUN)
    run = _run_of(context, thread_id, run_id)
    if run.ended or run.status not in ("pending", "running"):
        ended = text(STRINGS, "api.error.run_ended", run=repr(run_id), status=run.status)
        raise ApiError(404, str(ended), "run_id")
    run.cancelled.set()
    if wait.strip().lower() not in ("1", "true", "yes"):
        return Response(status_code=202)
    with run.changed:
        run.changed.wait_for(lambda: run.ended)
    if run.future is not None:
        return run.future.result()
    return shapes.run_values(runs.thread_snapshot(context.store, context.settings, run.thread_id)[1])


def sse(event: str, data: Any, event_id: int | None = None) -> bytes:
    """One server-sent event (with its ``id`` when given: where a rejoin picks up)."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, ensure_ascii=False, default=str)}\n\n".encode()


def _events(run: ApiRun, start: int = 0, modes: tuple[str, ...] = ()) -> Iterator[bytes]:
    """The run's events from ``start`` on; with ``modes``, only theirs (and ``metadata`` / ``error``)."""
    for index, event, data in run.follow(start):
        base = event.split("/", 1)[0]
        if (
            not modes
            or event in ("metadata", "error")
            or base in modes
            or (base == "messages" and any(mode.startswith("messages") for mode in modes))
        ):
            yield sse(event, data, index)


def run_location(thread_id: str, run_id: str) -> str:
    """The run's path for the ``Content-Location`` header, each id percent-encoded as one path segment.

    Headers are latin-1 on the wire (Starlette encodes them so), and a thread id may be any text
    (``환불-1234``): sent raw, it failed the answer. Encoded, it is the path a client asks for the run
    (``GET`` this path, or ``/stream`` after it), as the SDK itself encodes ids in the paths it asks.
    """
    return f"/threads/{quote(thread_id, safe='')}/runs/{quote(run_id, safe='')}"


class RunStream(StreamingResponse):
    """A run's event stream; with ``cancel_on_disconnect``, a client that leaves before the run ends cancels it.

    The stream ends by itself only when the run has ended, so one that ends earlier was left by its client.
    """

    def __init__(self, run: ApiRun, events: Iterator[bytes], *, cancel_on_disconnect: bool = False) -> None:
        location = run_location(run.thread_id, run.run_id)
        headers = {"Content-Location": location, "Location": f"{location}/stream", "Cache-Control": "no-store"}
        super().__init__(events, media_type="text/event-stream", headers=headers)
        self.run = run
        self.cancel_on_disconnect = cancel_on_disconnect

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            if self.cancel_on_disconnect and not self.run.ended:
                self.run.cancelled.set()


def _on_disconnect(value: str | None, field_name: str) -> bool:
    """Whether a client that leaves the stream cancels the run (``cancel``; the default ``continue`` does not)."""
    if value in (None, "", "continue"):
        return False
    if value == "cancel":
        return True
    raise InputError(field_name, f"must be 'continue' or 'cancel'; got {value!r}")


@router.post("/threads/{thread_id}/runs/stream")
def stream_run(thread_id: str, body: RunCreate, request: Request, context: Ctx, actor: Actor) -> StreamingResponse:
    """Streams the run as server-sent events: ``metadata``, then the chunks of the asked stream modes."""
    thread_id = prepare(context, thread_id, body)
    modes = streaming.requested(body.stream_mode)
    cancel = _on_disconnect(body.on_disconnect, "on_disconnect")
    # The answer (its headers) is built before the run starts: a failure to build it must not tell the
    # client "failed" about a run that went on (a refund paid).
    run = _api_run(thread_id, body)
    answer = RunStream(run, _events(run), cancel_on_disconnect=cancel)
    _start_in_background(context, thread_id, body, expected_head(request), modes, actor, _request_id(request), run)
    return answer


@router.get("/threads/{thread_id}/runs/{run_id}/stream")
def join_stream(
    thread_id: str,
    run_id: str,
    request: Request,
    context: Ctx,
    actor: Actor,
    stream_mode: Annotated[list[str] | None, Query()] = None,
    cancel_on_disconnect: str = "false",
) -> StreamingResponse:
    """Follows a run's stream again (after a reload): its new events; with ``Last-Event-ID``, those after it.

    ``Last-Event-ID: -1`` replays the run's stream from its start. ``stream_mode`` keeps only those
    modes' events (of the modes the run was started with).
    """
    run = _run_of(context, thread_id, run_id)
    asked = [mode for mode in stream_mode or () if mode]  # the SDK sends an empty one for "all"
    modes = streaming.requested(asked) if asked else ()
    last = request.headers.get("last-event-id", "").strip()
    if last:
        try:
            start = int(last) + 1
        except ValueError:
            raise InputError(
                "Last-Event-ID", f"must be an event id this server sent (a number); got {last!r}"
            ) from None
    else:
        with run.changed:
            start = len(run.events)
    cancel = cancel_on_disconnect.strip().lower() in ("1", "true", "yes")
    if cancel:  # leaving would cancel the run: only for who may cancel it
        identity.check_allowed(actor, identity.START_RUN)
    return RunStream(run, _events(run, max(start, 0), modes), cancel_on_disconnect=cancel)
