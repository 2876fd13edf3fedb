"""What the API's routes share: :class:`ApiContext`, reached through :func:`context_of`."""

from __future__ import annotations

import datetime as dt
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Request

from agents.db import Store
from agents.identity import LOCAL_OPERATOR, Identity
from agents.leases import ThreadBusyError, live_leases, thread_lock
from agents.settings import Settings

#: Runs started by ``runs.create`` go on in the background, this many at a time.
BACKGROUND_RUNS = 8


@dataclass
class ApiContext:
    """What the routes share: the database, the settings, where the server listens, and its memory.

    Attributes:
        store: The shared database.
        settings: The process's settings.
        base_url: The server's own address, for the printed ``curl`` commands.
        token_required: Whether requests carry a bearer token (the commands then send it).
        created: Threads made by ``threads.create`` that have not run yet: ``thread_id → (created_at,
            metadata)``. They live in this process only; their first run saves them.
        runs: Runs started by ``runs.create``, by run id (see :mod:`agents.api.run_routes`).
    """

    store: Store
    settings: Settings
    base_url: str
    token_required: bool = False
    created: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    runs: dict[str, Any] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    pool: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(BACKGROUND_RUNS, "api-run"))


def now_iso() -> str:
    """The current time, ISO 8601 in UTC."""
    return dt.datetime.now(dt.UTC).isoformat()


def context_of(request: Request) -> ApiContext:
    """The app's :class:`ApiContext` (a FastAPI dependency)."""
    context: ApiContext = request.app.state.context
    return context


def refuse_if_busy(store: Store, thread_id: str) -> None:
    """Refuses at once (409) to act on a thread another request or process is running.

    LangGraph's server rejects a second run on a busy thread; ``runs`` would wait for its turn.
    The write path still decides under the thread's lock and lease: this only answers sooner.
    """
    if thread_lock(thread_id).locked() or thread_id in live_leases(store):
        raise ThreadBusyError(thread_id)


def actor_of(request: Request) -> Identity:
    """Who the request acts for: the identity its bearer token maps to (a FastAPI dependency).

    :class:`~agents.api.errors.GuardMiddleware` sets it; without tokens (loopback only) and with
    ``HITL_API_TOKEN`` it is the local operator, who may do everything.
    """
    found = getattr(request.state, "identity", None)
    return found if isinstance(found, Identity) else LOCAL_OPERATOR


def expected_head(request: Request) -> str | None:
    """The head checkpoint the caller saw, from ``If-Match`` (a stale one is refused with 409)."""
    value = request.headers.get("if-match", "").strip().strip('"')
    return value or None


#: A route's :class:`ApiContext` parameter.
Ctx = Annotated[ApiContext, Depends(context_of)]
#: A route's acting :class:`~agents.identity.Identity` parameter.
Actor = Annotated[Identity, Depends(actor_of)]
