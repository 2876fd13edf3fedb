"""Caches of what the save file cannot change, shared by every session of the process.

A checkpoint never changes once written, so what is decoded or derived from one is kept under a key
that names it: (thread id, checkpoint id), plus whatever else the answer depends on. A key for data that
can change (a thread's head, its writes at the head) must contain what changes with it, so that an entry
can be wrong only by being unused; nothing here is ever invalidated by hand.

Each store has its own caches (a weak reference: a closed, dropped store frees them). Each cache is
bounded (least recently used entries go first), so a process serving 10,000 threads keeps about that
many entries per cache and no more.

What they save is measured by ``python benchmarks/bench_inbox_scale.py --without caches``: home's data
(with ``--whole``, every status, as the CLI and the API list them) read again by one process, after a
write and by a new process, with the caches and with none (every call deriving its answer again), in
turn in the same run.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

V = TypeVar("V")

#: Entries per cache: a few times the threads of a large save file.
DEFAULT_SIZE = 50_000


class BoundedCache(Generic[V]):
    """A thread-safe least-recently-used mapping of at most ``size`` entries."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, compute: Callable[[], V]) -> V:
        """The value under ``key``, computed (outside the lock) and kept when missing."""
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        value = compute()
        self.put(key, value)
        return value

    def lookup(self, key: Hashable, default: Any = None) -> Any:
        """The value under ``key``, or ``default``; counts as a use."""
        with self._lock:
            if key not in self._entries:
                return default
            self._entries.move_to_end(key)
            return self._entries[key]

    def put(self, key: Hashable, value: V) -> None:
        """Keeps ``value`` under ``key``, dropping the least recently used entries beyond the size."""
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)


_BY_OWNER: weakref.WeakKeyDictionary[Any, dict[str, BoundedCache[Any]]] = weakref.WeakKeyDictionary()
_REGISTRY_LOCK = threading.Lock()


def cache_for(owner: Any, name: str, size: int = DEFAULT_SIZE) -> BoundedCache[Any]:
    """The cache called ``name`` of ``owner`` (a store), created on first use."""
    with _REGISTRY_LOCK:
        caches = _BY_OWNER.setdefault(owner, {})
        if name not in caches:
            caches[name] = BoundedCache(size)
        return caches[name]
