"""The LangGraph server's assistants and threads, on this project's save file.

Assistants are the registered agents. Threads are the saved threads, each with its one lifecycle
status in LangGraph's words; ``threads.create`` of a thread that has not run yet is remembered by
this process until its first run saves it (the latest 1,000, for a day each:
``agents.api.context.CreatedThreads``). State, update_state (``as_node``, at a checkpoint: a fork),
history and delete go through :mod:`agents.runs`, with its validators, leases and the agents'
own rules; ``If-Match: <checkpoint id>`` refuses (409) a change to a thread that moved on. The
``metadata`` and ``values`` filters match by containment, as LangGraph's server's (:mod:`agents.api.filters`).
"""

from __future__ import annotations

import uuid
from typing import Any, Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict

from agents import ages, lifecycle, queue_rights, readmodel, runs
from agents.api import filters, shapes
from agents.api.context import Actor, ApiContext, Ctx, expected_head, now_iso, refuse_if_busy
from agents.api.errors import ApiError
from agents.damaged import DamagedValueError
from agents.db import DatabaseError, db_text
from agents.errors import InputError, ThreadNotFoundError
from agents.identity import DELETE_THREAD, START_RUN, check_allowed
from agents.registry import AGENTS, get_agent
from agents.strings import STRINGS
from agents.texts import text
from agents.validation import check_json_value, validate_thread_id

router = APIRouter(tags=["LangGraph: assistants and threads"])
HISTORY_MAX = 1000
PAGE_MAX = 1000


class _Body(BaseModel):
    # The SDK sends keys this server does not use (ttl...); they are let through.
    model_config = ConfigDict(extra="ignore")


class AssistantSearch(_Body):
    metadata: dict[str, Any] | None = None
    graph_id: str | None = None
    name: str | None = None
    limit: int = 10
    offset: int = 0


class ThreadCreate(_Body):
    thread_id: str | None = None
    metadata: dict[str, Any] | None = None
    if_exists: Literal["raise", "do_nothing"] | None = None
    supersteps: list[Any] | None = None


class ThreadSearch(_Body):
    metadata: dict[str, Any] | None = None
    values: dict[str, Any] | None = None
    ids: list[str] | None = None
    status: Literal["idle", "busy", "interrupted", "error"] | None = None
    limit: int = 10
    offset: int = 0
    sort_by: Literal["thread_id", "status", "created_at", "updated_at", "state_updated_at"] | None = None
    sort_order: Literal["asc", "desc"] | None = None
    select: list[str] | None = None
    extract: Any = None


class CheckpointRef(_Body):
    thread_id: str | None = None
    checkpoint_ns: str | None = None
    checkpoint_id: str | None = None


class StateAt(_Body):
    checkpoint: CheckpointRef
    subgraphs: bool = False


class StateUpdate(_Body):
    values: Any = None
    as_node: str | None = None
    checkpoint_id: str | None = None
    checkpoint: CheckpointRef | None = None


class CheckpointConfig(CheckpointRef):
    """A checkpoint as a run config names it, ``{"configurable": {"checkpoint_id": ...}}``, or flat."""

    configurable: CheckpointRef | None = None


class HistoryRequest(_Body):
    limit: int = 10
    # A string, or a checkpoint: as a config (the JS SDK's and LangGraph's server's form), or flat.
    before: str | CheckpointConfig | None = None
    metadata: dict[str, Any] | None = None
    checkpoint: CheckpointRef | None = None


def _before_id(before: str | CheckpointConfig | None) -> str | None:
    """The checkpoint id of ``before``; one that names none is refused, never read as no bound at all."""
    if before is None or isinstance(before, str):
        return before
    found = before.configurable.checkpoint_id if before.configurable is not None else before.checkpoint_id
    if not found:
        raise InputError("before", 'must name a checkpoint: {"configurable": {"checkpoint_id": "..."}}')
    return found


def _page(limit: int, offset: int) -> None:
    if not 1 <= limit <= PAGE_MAX:
        raise InputError("limit", f"must be from 1 to {PAGE_MAX}; got {limit}")
    if offset < 0:
        raise InputError("offset", f"must be 0 or more; got {offset}")


@router.post("/assistants/search")
def search_assistants(body: AssistantSearch) -> list[dict[str, Any]]:
    """One assistant per agent; ``assistant_id`` and ``graph_id`` are the agent's name."""
    _page(body.limit, body.offset)
    metadata = filters.checked(body.metadata, "metadata")
    found = [shapes.assistant(spec) for spec in AGENTS.values()]
    found = [
        a
        for a in found
        if (body.graph_id is None or a["graph_id"] == body.graph_id)
        and (body.name is None or a["name"] == body.name)
        and filters.contains(a["metadata"], metadata)
    ]
    return found[body.offset : body.offset + body.limit]


@router.get("/assistants/{assistant_id}")
def get_assistant(assistant_id: str) -> dict[str, Any]:
    """The agent named ``assistant_id`` (404 for another name)."""
    return shapes.assistant(get_agent(assistant_id))


def saved_thread(context: ApiContext, thread_id: str, *, with_values: bool = True) -> dict[str, Any] | None:
    """A saved thread's ``Thread`` shape, or None when the database has no such thread."""
    status = lifecycle.thread_status(context.store, thread_id)
    if status is None:
        return None
    return _thread_of(context, status, with_values)


def _thread_of(context: ApiContext, status: lifecycle.ThreadStatus, with_values: bool) -> dict[str, Any]:
    snapshot = None
    if with_values and status.agent in AGENTS:
        try:
            snapshot = runs.thread_snapshot(context.store, context.settings, status.thread_id)[1]
        except ThreadNotFoundError:  # deleted while it was read
            snapshot = None
        except DamagedValueError:  # listed with its status (error: damaged), without values
            snapshot = None
    created_at, metadata = context.created.get(status.thread_id) or (None, {})
    now, settings = ages.utc_now(), context.settings
    overdue = lifecycle.is_overdue(status, settings.deadlines, now)
    rights = queue_rights.rights_of(context.store, settings.roles, [status], settings.deadlines, now).get(
        status.thread_id
    )
    # Who may decide it, as roles and limits: the API names no people (a token may be a viewer's).
    facts = rights.to_json(settings.lang, identities=False) if rights is not None else None
    return shapes.thread(status, snapshot, created_at, metadata, overdue=overdue, decision_rights=facts)


@router.post("/threads")
def create_thread(body: ThreadCreate, context: Ctx, actor: Actor) -> dict[str, Any]:
    """A new thread; it is saved by its first run (until then it lives in this server's memory)."""
    check_allowed(actor, START_RUN)
    if body.supersteps:
        raise InputError("supersteps", "threads.create with supersteps is not supported; run the thread instead")
    metadata = check_json_value(body.metadata or {}, "metadata", max_bytes=16 * 1024)
    thread_id = str(uuid.uuid4()) if body.thread_id is None else validate_thread_id(body.thread_id)  # "" is refused
    existing = saved_thread(context, thread_id)
    with context.lock:
        remembered = context.created.get(thread_id) if existing is None else None
        if remembered is not None:
            existing = shapes.empty_thread(thread_id, *remembered)
        if existing is not None:
            if body.if_exists == "do_nothing":
                return existing
            raise ApiError(409, f"thread_id: thread {thread_id!r} already exists", "thread_id")
        if context.store.read_only:  # its first run could never save it: refused as that run would be
            raise DatabaseError(db_text("read_only_change", path=context.store.path))
        created = (now_iso(), dict(metadata))
        context.created.add(thread_id, created)
    return shapes.empty_thread(thread_id, *created)


def find_thread(context: ApiContext, thread_id: str) -> dict[str, Any]:
    """The thread, saved or created and not run yet; 404 when there is none."""
    thread_id = lifecycle.thread_named(context.store, thread_id, exact=True)
    found = saved_thread(context, thread_id)
    if found is not None:
        return found
    remembered = context.created.get(thread_id)
    if remembered is not None:
        return shapes.empty_thread(thread_id, *remembered)
    raise ThreadNotFoundError(thread_id)


@router.get("/threads/{thread_id}")
def get_thread(thread_id: str, context: Ctx) -> dict[str, Any]:
    """One thread with its status, values and waiting interrupts."""
    return find_thread(context, thread_id)


def _search(context: ApiContext, body: ThreadSearch) -> list[dict[str, Any]]:
    _page(body.limit, body.offset)
    metadata = filters.checked(body.metadata, "metadata")
    values = filters.checked(body.values, "values")
    statuses = lifecycle.thread_statuses(context.store)
    found: list[dict[str, Any]] = []
    saved = {s.thread_id for s in statuses}
    ids = set(body.ids) if body.ids is not None else None
    for status in statuses:
        if ids is not None and status.thread_id not in ids:
            continue
        if body.status is not None and shapes.THREAD_STATUS[status.status] != body.status:
            continue
        item = _thread_of(context, status, with_values=bool(values))
        if filters.contains(item["metadata"], metadata) and filters.contains(item["values"], values):
            found.append(item)
    created = [(key, value) for key, value in context.created.items() if key not in saved]
    for thread_id, (created_at, given) in created:
        item = shapes.empty_thread(thread_id, created_at, given)
        # A thread that has not run has no values (null), which no values filter matches.
        if (ids is None or thread_id in ids) and body.status in (None, "idle") and not values:
            if filters.contains(item["metadata"], metadata):
                found.append(item)
    key = body.sort_by or "updated_at"
    found.sort(key=lambda item: (str(item[key]), item["thread_id"]), reverse=(body.sort_order or "desc") == "desc")
    return found


#: The fields of a thread ``threads.search(select=...)`` may keep: LangGraph's server's (its ``THREAD_FIELDS``)
#: and this server's ``lifecycle``.
THREAD_FIELDS = (
    "thread_id",
    "created_at",
    "updated_at",
    "state_updated_at",
    "metadata",
    "config",
    "status",
    "values",
    "interrupts",
    "lifecycle",
)


def _selected(select: list[str] | None) -> list[str] | None:
    """The fields ``select`` keeps (None or empty: all of them); one a thread does not have is refused."""
    unknown = [name for name in select or () if name not in THREAD_FIELDS]
    if unknown:
        named = ", ".join(map(repr, unknown))
        raise InputError("select", text(STRINGS, "api.error.select", named=named, fields=", ".join(THREAD_FIELDS)))
    return select or None


@router.post("/threads/search")
def search_threads(body: ThreadSearch, context: Ctx) -> list[dict[str, Any]]:
    """Threads by status (``interrupted`` = the inbox's waiting threads), metadata, values and ids, paged.

    ``select`` keeps those fields of each thread, as LangGraph's server does; ``extract`` (parts of the
    values under names of the client's) is refused, not answered without them.
    """
    if body.extract:
        raise InputError("extract", text(STRINGS, "api.error.extract"))
    select = _selected(body.select)
    page = _search(context, body)[body.offset : body.offset + body.limit]
    if not body.values:  # else read with their values already
        # Only the page's threads are read with their values: the cost follows the page, not the database.
        page = [(saved_thread(context, item["thread_id"]) or item) if "lifecycle" in item else item for item in page]
    return [{key: item[key] for key in item if key in select} for item in page] if select else page


@router.post("/threads/count")
def count_threads(body: ThreadSearch, context: Ctx) -> int:
    """How many threads :func:`search_threads` would find without a limit."""
    return len(_search(context, body.model_copy(update={"limit": PAGE_MAX, "offset": 0})))


def empty_state() -> dict[str, Any]:
    """The state of a thread that has not run yet."""
    return {
        "values": {},
        "next": [],
        "checkpoint": None,
        "metadata": {},
        "created_at": None,
        "parent_checkpoint": None,
        "tasks": [],
        "interrupts": [],
    }


def state_of(context: ApiContext, thread_id: str, checkpoint_id: str | None = None) -> dict[str, Any]:
    """A thread's state at its head (or at ``checkpoint_id``)."""
    thread_id = lifecycle.thread_named(context.store, thread_id, exact=True)
    try:
        _spec, snapshot = runs.thread_snapshot(context.store, context.settings, thread_id, checkpoint_id)
    except ThreadNotFoundError:
        if thread_id in context.created and checkpoint_id is None:
            return empty_state()
        raise
    return shapes.state(thread_id, snapshot)


@router.get("/threads/{thread_id}/state")
def get_state(thread_id: str, context: Ctx) -> dict[str, Any]:
    """The head's values, next nodes, checkpoint, tasks and interrupts (with their ids)."""
    return state_of(context, thread_id)


@router.get("/threads/{thread_id}/state/{checkpoint_id}")
def get_state_at(thread_id: str, checkpoint_id: str, context: Ctx) -> dict[str, Any]:
    """The state at one checkpoint."""
    return state_of(context, thread_id, checkpoint_id)


@router.post("/threads/{thread_id}/state/checkpoint")
def post_state_at(thread_id: str, body: StateAt, context: Ctx) -> dict[str, Any]:
    """The state at ``checkpoint.checkpoint_id`` (the SDK's ``get_state(checkpoint=...)``), or at the head
    when it names no checkpoint id, as LangGraph's server answers: ``RemoteGraph.get_state`` sends
    ``{"checkpoint": {"thread_id": ...}}`` for the head. What this server cannot honour is refused as a
    history's ``checkpoint`` is (a subgraph's ``checkpoint_ns``, another thread); ``subgraphs`` changes
    nothing, since no agent has a subgraph."""
    thread_id = lifecycle.thread_named(context.store, thread_id, exact=True)
    return state_of(context, thread_id, _only_checkpoint(thread_id, body.checkpoint))


#: Why ``update_state(values=None, as_node="__end__")`` (Agent Inbox's "resolve") is refused.
RESOLVE_REFUSED = (
    "__end__ with no values would mark the thread finished without an answer to what it asks (a refund "
    "without a decision), and is refused: answer the question (approve, edit or reject), or delete the thread"
)


@router.post("/threads/{thread_id}/state")
def update_state(thread_id: str, body: StateUpdate, request: Request, context: Ctx, actor: Actor) -> dict[str, Any]:
    """``update_state`` on the head, or on an older checkpoint (a fork); the agents' rules apply."""
    thread_id = lifecycle.thread_named(context.store, thread_id)
    if body.values is None and body.as_node == "__end__":  # Agent Inbox's "resolve"
        raise InputError("as_node", RESOLVE_REFUSED)
    if not isinstance(body.values, dict):
        raise InputError("values", "must be a JSON object of state keys (a list of updates is not supported)")
    checkpoint_id = body.checkpoint_id or (body.checkpoint.checkpoint_id if body.checkpoint else None)
    refuse_if_busy(context.store, thread_id)
    if readmodel.head_checkpoint_id(context.store, thread_id) is None and thread_id in context.created:
        # LangGraph's server answers 400 too: it knows no graph of the thread before its first run.
        raise ApiError(400, str(text(STRINGS, "api.error.not_run_yet", thread=repr(thread_id))), "thread_id")
    result = runs.update_thread(
        context.store,
        context.settings,
        thread_id,
        body.values,
        as_node=body.as_node,
        checkpoint_id=checkpoint_id,
        expected_head=expected_head(request),
        actor=actor,
    )
    return shapes.state_update(thread_id, result.head_checkpoint_id)


def _only_checkpoint(thread_id: str, ref: CheckpointRef | None) -> str | None:
    """The checkpoint a history is asked of alone (``checkpoint``), or None for the whole history.

    As on LangGraph's server, a ``checkpoint`` that names no checkpoint id asks the whole history. What
    this server cannot honour is refused, never ignored: a subgraph's namespace (the history is the root
    graph's, ``checkpoint_ns`` ``""``) and another thread.
    """
    if ref is None:
        return None
    if ref.checkpoint_ns:
        namespace = repr(ref.checkpoint_ns)
        raise InputError("checkpoint.checkpoint_ns", text(STRINGS, "api.error.history_namespace", namespace=namespace))
    if ref.thread_id and not _same_thread(ref.thread_id, thread_id):
        refusal = text(STRINGS, "api.error.history_thread", named=repr(ref.thread_id), thread=repr(thread_id))
        raise InputError("checkpoint.thread_id", refusal)
    return ref.checkpoint_id or None


def _same_thread(named: str, thread_id: str) -> bool:
    """Whether ``named`` is ``thread_id``, in whichever form a client writes it (as the path is read)."""
    if named == thread_id:
        return True
    try:
        return validate_thread_id(named) == thread_id
    except InputError:
        return False


def _checkpoint_id(snapshot: Any) -> str | None:
    found: str | None = ((snapshot.config or {}).get("configurable") or {}).get("checkpoint_id")
    return found


def _history(
    context: ApiContext, thread_id: str, limit: int, before: str | None, metadata: dict[str, Any]
) -> list[dict[str, Any]]:
    """Up to ``limit`` root checkpoints older than ``before`` whose metadata contains ``metadata``, newest first.

    The filter chooses before the limit counts, as on LangGraph's server: the history is read a page at a
    time (``limit`` checkpoints, then twice as many each time, up to :data:`HISTORY_MAX`) until ``limit``
    of them match or the thread's first checkpoint is read.
    """
    found: list[dict[str, Any]] = []
    size = limit
    while True:
        page = runs.thread_history(context.store, context.settings, thread_id, limit=size, before=before)
        for snapshot in page:
            if filters.contains(shapes.jsonable(dict(snapshot.metadata or {})), metadata):
                found.append(shapes.state(thread_id, snapshot))
                if len(found) == limit:
                    return found
        if len(page) < size or not metadata:
            return found
        before = _checkpoint_id(page[-1])
        size = min(size * 2, HISTORY_MAX)


def _one_checkpoint(
    context: ApiContext, thread_id: str, only: str, before: str | None, metadata: dict[str, Any]
) -> list[dict[str, Any]]:
    """The history of checkpoint ``only`` alone: ``[its state]`` if it is one of the thread's, older than
    ``before``, with metadata containing ``metadata``; else ``[]``, as on LangGraph's server.

    Its state is the history's own (pending writes applied), read as the page whose ``before`` bound is
    the next checkpoint id after it.
    """
    ids = sorted(checkpoint_id for checkpoint_id, _parent in readmodel.chain_links(context.store, thread_id))
    if not ids:
        raise ThreadNotFoundError(thread_id)
    readmodel.check_checkpoint(context.store, thread_id, before)
    if only not in ids or (before is not None and only >= before):
        return []
    start = next((checkpoint_id for checkpoint_id in ids if checkpoint_id > only), None)
    page = runs.thread_history(context.store, context.settings, thread_id, limit=1, before=start)
    return [
        shapes.state(thread_id, snapshot)
        for snapshot in page
        if _checkpoint_id(snapshot) == only
        and filters.contains(shapes.jsonable(dict(snapshot.metadata or {})), metadata)
    ]


@router.post("/threads/{thread_id}/history")
def get_history(thread_id: str, body: HistoryRequest, context: Ctx) -> list[Any]:
    """Up to ``limit`` root checkpoints, newest first, older than ``before``, whose metadata contains
    ``metadata``; forks included. ``checkpoint``: that checkpoint alone, if it is one of the thread's and
    passes ``before`` and ``metadata`` (else none), as LangGraph's server answers."""
    thread_id = lifecycle.thread_named(context.store, thread_id, exact=True)
    if not 1 <= body.limit <= HISTORY_MAX:
        raise InputError("limit", f"must be from 1 to {HISTORY_MAX}; got {body.limit}")
    before = _before_id(body.before)
    metadata = filters.checked(body.metadata, "metadata")
    only = _only_checkpoint(thread_id, body.checkpoint)
    try:
        if only is not None:
            return _one_checkpoint(context, thread_id, only, before, metadata)
        return _history(context, thread_id, body.limit, before, metadata)
    except InputError as error:  # the only checkpoint id read is ``before``'s
        raise InputError("before", error.message) from None
    except ThreadNotFoundError:
        if thread_id in context.created:
            return []
        raise


@router.get("/threads/{thread_id}/history")
def get_history_by_query(thread_id: str, context: Ctx, limit: int = 10, before: str | None = None) -> list[Any]:
    """The same pages asked as LangGraph's server also takes them: ``?limit=&before=<checkpoint id>``."""
    return get_history(thread_id, HistoryRequest(limit=limit, before=before), context)


@router.delete("/threads/{thread_id}", status_code=204)
def delete_thread(thread_id: str, request: Request, context: Ctx, actor: Actor, reason: str | None = None) -> Response:
    """Deletes the thread's checkpoints, writes and node log (409 while it runs). Admins only.

    ``?reason=`` says why: an unfinished refund is deleted only with one (else 422 naming ``reason``),
    and its audit keeps the case, who, when and why.
    """
    check_allowed(actor, DELETE_THREAD)  # before even a thread known only to this process is forgotten
    thread_id = lifecycle.thread_named(context.store, thread_id, exact=True)
    forgotten = context.created.pop(thread_id)
    try:
        runs.delete_thread(context.store, thread_id, expected_head=expected_head(request), actor=actor, reason=reason)
    except ThreadNotFoundError:
        if forgotten is None:
            raise
    except Exception:
        if forgotten is not None:
            with context.lock:
                if thread_id not in context.created:
                    context.created.add(thread_id, forgotten)
        raise
    return Response(status_code=204)
