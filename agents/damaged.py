"""A saved value that cannot be decoded damages its own thread, not every list that reads it.

:func:`agents.runtime.open_store` puts a :class:`GuardedSerializer` around the saver's serializer
(LangGraph's), so a garbage blob in a checkpoint or a write, or a serializer type nobody knows, raises
:class:`DamagedValueError` wherever it is read: a :class:`agents.db.DatabaseError`, so an operation on
that thread (``inspect``, ``resume``, a page's form) is refused with a message, never a traceback. What
lists many threads catches it per thread: the lifecycle shows the thread as ``attention`` with the
reason (``damaged``), the thread index leaves its question out, and the refund audit shows the case
with what the database still says (its status, its ledger row).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import ormsgpack

from agents.db import DatabaseError


class DamagedValueError(DatabaseError):
    """A saved checkpoint or write cannot be decoded; ``detail`` says why."""

    def __init__(self, detail: str) -> None:
        super().__init__(
            f"a saved value cannot be read ({detail}); the file is damaged or was written by something else"
        )
        self.detail = detail


class GuardedSerializer:
    """LangGraph's serializer, whose decoding failures are :class:`DamagedValueError`; encoding is unchanged."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        return self.inner.dumps_typed(obj)

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        try:
            return self.inner.loads_typed(data)
        except Exception as error:  # msgpack's, json's, an unknown type's: the blob, not the caller
            raise DamagedValueError(f"{type(error).__name__}: {error}") from error

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def guard(store: Any) -> Any:
    """Puts a :class:`GuardedSerializer` around ``store.saver``'s serializer (once) and returns the store.

    ``SqliteSaver`` decodes a checkpoint's metadata (JSON text) itself: its reads turn a garbled one into
    :class:`DamagedValueError` too.
    """
    saver = store.saver
    if isinstance(saver.serde, GuardedSerializer):
        return store
    saver.serde = GuardedSerializer(saver.serde)
    read_one, read_many = saver.get_tuple, saver.list

    def get_tuple(*args: Any, **kwargs: Any) -> Any:
        try:
            return read_one(*args, **kwargs)
        except json.JSONDecodeError as error:
            raise DamagedValueError(f"metadata: {error}") from error

    def list_(*args: Any, **kwargs: Any) -> Iterator[Any]:
        try:
            yield from read_many(*args, **kwargs)
        except json.JSONDecodeError as error:
            raise DamagedValueError(f"metadata: {error}") from error

    saver.get_tuple, saver.list = get_tuple, list_
    return store


def check_blob(serde: Any, type_: str, blob: bytes) -> None:
    """Raises :class:`DamagedValueError` when a saved blob cannot be decoded; cheap for a whole list.

    A ``msgpack`` blob (LangGraph's usual type) is parsed without building its objects (about a fifth of
    the cost of decoding it): what is garbled is found, not a payload its classes would refuse, which
    the thread's own read reports. Any other type is decoded by ``serde``.
    """
    if type_ != "msgpack":
        serde.loads_typed((type_, blob))
        return
    try:
        ormsgpack.unpackb(blob, ext_hook=lambda _code, _data: None, option=ormsgpack.OPT_NON_STR_KEYS)
    except Exception as error:
        raise DamagedValueError(f"{type(error).__name__}: {error}") from error
