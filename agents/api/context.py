"""What the API's routes share: :class:`ApiContext`, reached through :func:`context_of`."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Request

from agents.db import Store
from agents.identity import LOCAL_OPERATOR, Identity
from agents.leases import ThreadBusyError, live_leases, thread_lock
from agents.settings import Settings, current_settings

#: Runs started by ``runs.create`` go on in the background, this many at a time.
BACKGROUND_RUNS = 8
#: How many ``threads.create`` calls the server remembers, and for how long (seconds): see :class:`CreatedThreads`.
CREATED_KEPT = 1000
CREATED_TTL_SECONDS = 24 * 60 * 60

#: What ``threads.create`` recorded of a thread: when (ISO 8601) and the client's metadata.
Created = tuple[str, dict[str, Any]]


class CreatedThreads:
    """Threads made by ``threads.create``, remembered by this process: the latest ``limit``, each for ``ttl``.

    A thread created and not run yet has no checkpoint, so it exists only here; its first run saves it
    (the entry then only adds the creation time and the client's metadata to what the database says).
    Kept without a bound, every create that is never run would stay in memory for the life of the
    server; so the oldest entry is forgotten once there are ``limit`` newer ones, and any entry after
    ``ttl`` seconds. A forgotten thread that never ran is then unknown (404), as after a restart.

    Safe to use from several threads (it holds its own lock).
    """

    def __init__(
        self,
        limit: int = CREATED_KEPT,
        ttl: float = CREATED_TTL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.ttl = ttl
        self._clock = clock
        self._entries: OrderedDict[str, tuple[float, Created]] = OrderedDict()  # oldest first
        self._lock = threading.Lock()

    def _expire(self) -> None:
        oldest = self._clock() - self.ttl
        while self._entries and next(iter(self._entries.values()))[0] <= oldest:
            self._entries.popitem(last=False)

    def add(self, thread_id: str, created: Created) -> None:
        """Remembers a new thread; the oldest is forgotten when there are more than ``limit``."""
        with self._lock:
            self._expire()
            self._entries.pop(thread_id, None)
            self._entries[thread_id] = (self._clock(), created)
            while len(self._entries) > self.limit:
                self._entries.popitem(last=False)

    def get(self, thread_id: str) -> Created | None:
        """What ``threads.create`` recorded of the thread, or None (never created here, or forgotten)."""
        with self._lock:
            self._expire()
            found = self._entries.get(thread_id)
        return found[1] if found is not None else None

    def __contains__(self, thread_id: object) -> bool:
        return isinstance(thread_id, str) and self.get(thread_id) is not None

    def pop(self, thread_id: str) -> Created | None:
        """Forgets the thread; returns what was recorded, or None."""
        with self._lock:
            self._expire()
            found = self._entries.pop(thread_id, None)
        return found[1] if found is not None else None

    def items(self) -> list[tuple[str, Created]]:
        """Every remembered thread, oldest first."""
        with self._lock:
            self._expire()
            return [(thread_id, created) for thread_id, (_at, created) in self._entries.items()]

    def __len__(self) -> int:
        with self._lock:
            self._expire()
            return len(self._entries)


@dataclass
class ApiContext:
    """What the routes share: the database, the settings, where the server listens, and its memory.

    Attributes:
        store: The shared database.
        settings: The process's settings.
        base_url: The server's own address, for the printed ``curl`` commands.
        token_required: Whether requests carry a bearer token (the commands then send it).
        created: Threads made by ``threads.create`` (:class:`CreatedThreads`: the latest
            :data:`CREATED_KEPT`, for :data:`CREATED_TTL_SECONDS` each). They live in this process only;
            their first run saves them.
        runs: Runs started by ``runs.create``, by run id (see :mod:`agents.api.run_routes`).
    """

    store: Store
    settings: Settings
    base_url: str
    token_required: bool = False
    created: CreatedThreads = field(default_factory=CreatedThreads)
    runs: dict[str, Any] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    pool: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(BACKGROUND_RUNS, "api-run"))


def now_iso() -> str:
    """The current time, ISO 8601 in UTC."""
    return dt.datetime.now(dt.UTC).isoformat()


def context_of(request: Request) -> ApiContext:
    """The app's :class:`ApiContext` (a FastAPI dependency)."""
    context: ApiContext = request.app.state.context
    context.settings = current_settings(context.settings)  # the roles file as it is now (the guard read it first)
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

    :class:`~agents.api.security.GuardMiddleware` sets it; without tokens (loopback only) and with
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
