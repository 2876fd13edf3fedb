"""Every thread's status as a process last read it, in the lists pages ask for, kept up to date in place.

:mod:`agents.lifecycle` reads every status once, then after each change only the changed threads'
(:mod:`agents.changefeed`), and puts them in here: each list is kept sorted by head (then thread id), so a changed
thread's entry is moved by a binary search, at a cost that does not grow with the other threads.
Kept per process (:mod:`agents.readcache`); ``python benchmarks/bench_inbox_scale.py --whole`` measures the
lists read again after a write, ``--without caches`` what keeping them saves.
"""

from __future__ import annotations

import bisect
import threading
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar


class Listed(Protocol):
    """What a listed status has (``agents.lifecycle.ThreadStatus``)."""

    @property
    def thread_id(self) -> str: ...
    @property
    def agent(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def head_checkpoint_id(self) -> str: ...


S = TypeVar("S", bound=Listed)


@dataclass
class StatusLists(Generic[S]):
    """Every thread's status as a process last read it, and where the change feed stood before.

    Changed in place, under ``lock``, by the next read (callers get copies of its lists).

    Attributes:
        position: The change feed's position taken before the statuses were read.
        running: The threads whose leases were live then.
        statuses: Thread id → its status.
        views: Lists of statuses made so far, oldest head first: every thread's and each agent's
            (``("all", agent)``), and the unfinished ones (``("inbox", agent)``); made on first use and
            kept up to date by taking the changed threads out and putting their new statuses in.
    """

    position: int
    running: frozenset[str]
    statuses: dict[str, S]
    views: dict[tuple[str, str | None], list[S]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def view(self, agent: str | None, *, newest_first: bool, unfinished: bool) -> list[S]:
        """A copy of one list (call under ``lock``)."""
        key = ("inbox" if unfinished else "all", agent)
        found = self.views.get(key)
        if found is None:
            found = sorted((s for s in self.statuses.values() if _in_view(key, s)), key=_HEAD)
            self.views[key] = found
        return found[::-1] if newest_first else list(found)

    def update(self, position: int, running: frozenset[str], changed: set[str], fresh: list[S]) -> None:
        """Puts the ``fresh`` statuses of the ``changed`` threads in (a thread gone is left out) (under ``lock``).

        Each list keeps its order (by head): a changed thread's old entry is found by its old head and taken
        out, its new one put in at its place, so the cost is that of what changed, not of every thread.
        """
        olds = [old for thread_id in changed if (old := self.statuses.pop(thread_id, None)) is not None]
        self.statuses.update((s.thread_id, s) for s in fresh)
        for key, kept in self.views.items():
            for old in olds:
                if _in_view(key, old):
                    at = bisect.bisect_left(kept, _HEAD(old), key=_HEAD)
                    while at < len(kept) and kept[at] is not old:  # the same head id in another thread (a copy)
                        at += 1
                    del kept[at : at + 1]
            for status in fresh:
                if _in_view(key, status):
                    kept.insert(bisect.bisect(kept, _HEAD(status), key=_HEAD), status)
        self.position, self.running = position, running


def _HEAD(status: Listed) -> tuple[str, str]:  # noqa: N802 - a sort key, named as the column it reads
    """A list's order: by head, then by thread id (the copies of one thread share their heads)."""
    return (status.head_checkpoint_id, status.thread_id)


def _in_view(key: tuple[str, str | None], status: Listed) -> bool:
    kind, agent = key
    return (agent is None or status.agent == agent) and (kind == "all" or status.status != "done")
