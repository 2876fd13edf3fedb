"""Whether a thread's head can be decoded: each head checked once per process, many at a time.

A head whose checkpoint or metadata another writer damaged (bytes rewritten, a blob cut short) cannot be
read by LangGraph; the lifecycle (:mod:`agents.lifecycle`) shows its thread as damaged rather than failing.
A checkpoint never changes under its id unless rewritten in place, which the change feed notes
(:mod:`agents.changefeed`): such a thread's head is checked again (``again``). What checking each head
once per process saves is measured with the other caches (``benchmarks/bench_inbox_scale.py --without caches``).
"""

from __future__ import annotations

import json
from collections.abc import Collection

from agents import readcache
from agents.damaged import DamagedValueError, check_blob
from agents.db import Store


def damage(store: Store, thread_id: str, head: str) -> str | None:
    """Why a head's checkpoint or metadata cannot be decoded (None: they can); read once per head."""
    return damages(store, [(thread_id, head)]).get(thread_id)


def damages(
    store: Store, heads: list[tuple[str, str]], *, blobs_only: bool = False, again: Collection[str] = ()
) -> dict[str, str]:
    """Thread id → why its head cannot be decoded, for these (thread, head) pairs; each head is read once
    per process (a checkpoint never changes), in one query per 400 where the backend keeps it as one blob.
    ``blobs_only``: a head that is not one blob has only its values checked (PostgreSQL's
    ``checkpoint_blobs``, once per head and process), rather than being read by LangGraph.
    ``again``: threads whose heads are read again (the database noted a change: maybe a rewrite in place)."""
    memo = readcache.cache_for(store, "head-damage")
    apart_memo = readcache.cache_for(store, "head-values-damage")
    unknown = [pair for pair in heads if pair[0] in again or memo.lookup(pair) is None]
    if unknown:
        with store.read() as cursor:
            rows = store.queries.head_checkpoints(cursor, unknown)
        heads_of = dict(unknown)
        apart: list[tuple[str, str]] = []
        for thread_id, type_, blob, metadata in rows:
            if type_ is None and blobs_only:
                if thread_id in again or apart_memo.lookup((thread_id, heads_of[thread_id])) is None:
                    apart.append((thread_id, heads_of[thread_id]))
                continue
            try:
                if type_ is None:  # not one blob: LangGraph's own read decodes it (with its writes)
                    config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
                    store.saver.get_tuple(
                        {"configurable": {**config["configurable"], "checkpoint_id": heads_of[thread_id]}}
                    )
                else:
                    check_blob(store.saver.serde, type_, blob)
                    json.loads(metadata or "{}")
                memo.put((thread_id, heads_of[thread_id]), "")
            except DamagedValueError as error:
                memo.put((thread_id, heads_of[thread_id]), error.detail)
            except ValueError as error:  # the metadata's JSON
                memo.put((thread_id, heads_of[thread_id]), f"metadata: {error}")
        if apart:
            check_values_apart(store, apart)
    if blobs_only:  # a head whose values are kept apart: what its values' check found
        return {
            thread_id: found
            for thread_id, head in heads
            if (found := memo.lookup((thread_id, head)) or apart_memo.lookup((thread_id, head)))
        }
    return {thread_id: found for thread_id, head in heads if (found := memo.lookup((thread_id, head)))}


def check_values_apart(store: Store, heads: list[tuple[str, str]]) -> None:
    """Checks the values PostgreSQL keeps apart from these heads' checkpoints (``checkpoint_blobs``), as
    LangGraph's read decodes them, in one query per 400 heads; remembers per head why one cannot be decoded.

    Kept apart from the full check (LangGraph's own read, which also decodes the head's writes), which a
    thread's own read still makes.
    """
    memo = readcache.cache_for(store, "head-values-damage")
    with store.read() as cursor:
        rows = store.queries.head_blobs(cursor, heads)
    found = dict.fromkeys((thread_id for thread_id, _head in heads), "")
    for thread_id, type_, blob in rows:
        if found[thread_id] or type_ == "empty":
            continue
        try:
            check_blob(store.saver.serde, type_, bytes(blob))
        except DamagedValueError as error:
            found[thread_id] = error.detail
    for thread_id, head in heads:
        memo.put((thread_id, head), found[thread_id])
