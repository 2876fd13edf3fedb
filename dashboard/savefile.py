"""The robot page's save-file tables: a thread's checkpoints and writes, a page at a time.

The rows come from the read-model's SQL (the chain, the write rows) without decoding a blob; a
checkpoint's state and a write's value are decoded only for the rows of the shown page, so a thread
of 10,000 checkpoints costs one page of decoding. Both tables are fragments (see :mod:`dashboard.tables`).

Both tables name a checkpoint by the same short id (:func:`agents.errors.short_id`, the first 8
characters of the id's random tail), so a write is matched to its checkpoint by eye; the full id has
a column of its own in each table, to select and copy.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import streamlit as st

from agents import readmodel, threadindex
from agents.db import Store
from agents.errors import short_id
from agents.readsql import NULL_TASK_ID
from dashboard import presenter
from dashboard.formats import checkpoint_source, node_name
from dashboard.i18n import t
from dashboard.tables import Column, paged_table
from dashboard.views import lazy_expander

#: The longest value preview in the writes table; the whole value is one click away.
PREVIEW_LENGTH = 60


@dataclass(frozen=True)
class WriteRow:
    """One row of the ``writes`` table, its value still encoded."""

    checkpoint_id: str
    task_id: str
    node: str
    channel: str
    type: str
    blob: bytes


def thread_write_rows(store: Store, thread_id: str) -> list[WriteRow]:
    """Every write of a thread, oldest checkpoint first, in LangGraph's order; values not decoded."""
    with store.read() as cursor:
        known = readmodel.task_nodes(cursor, thread_id)
        cursor.execute(
            "SELECT MIN(checkpoint_id), MAX(checkpoint_id) FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ''",
            (thread_id,),
        )
        low, high = cursor.fetchone()
        rows = store.queries.writes_between(cursor, thread_id, low, high) if low else []
    return [
        WriteRow(checkpoint_id, task_id, readmodel.node_of(task_id, path or "", known), channel, type_, bytes(blob))
        for checkpoint_id, task_id, path, channel, type_, blob in rows
    ]


def chain(store: Store, thread_id: str) -> list[readmodel.ChainCheckpoint]:
    """The thread's checkpoints, oldest first, shared while the database is unchanged."""
    return threadindex.while_unchanged(store, "chain", thread_id, lambda: readmodel.checkpoint_chain(store, thread_id))


def writes(store: Store, thread_id: str) -> list[WriteRow]:
    """The thread's writes (:func:`thread_write_rows`), shared while the database is unchanged."""
    return threadindex.while_unchanged(store, "writes", thread_id, lambda: thread_write_rows(store, thread_id))


def write_meaning(row: WriteRow) -> str:
    """What a write row is, in a few words (the pause, an answer, a route, a state value)."""
    if row.channel == "__interrupt__":
        return t("robot.meaning.interrupt")
    if row.channel == "__resume__":
        return t("robot.meaning.resume_null" if row.task_id == NULL_TASK_ID else "robot.meaning.resume_task")
    if row.channel.startswith("branch:to:"):
        return t("robot.meaning.branch", node=row.channel.removeprefix("branch:to:"))
    if row.channel.startswith("__"):
        return t("robot.meaning.internal")
    return t("robot.meaning.state", name=row.channel)


def decoded_value(store: Store, row: WriteRow) -> Any:
    """A write's value, decoded by LangGraph's own serializer."""
    return store.saver.serde.loads_typed((row.type, row.blob))


def value_preview(value: Any, limit: int = PREVIEW_LENGTH) -> str:
    """A decoded write value in one short line, as the walkthrough writes it (``__resume__ = yes``).

    A text is shown as it is (no JSON quotes); a message as ``type: content``; a list of messages one
    after another; past ``limit`` characters these end in ``…``. Anything else is compact JSON whose
    texts are each cut to ``limit // 2`` characters, so it stays JSON (its keys are state keys, code).
    """
    plain = readmodel.to_jsonable(value)
    if isinstance(plain, str):
        line = plain
    elif isinstance(plain, list) and plain and all(_message(item) for item in plain):
        line = " | ".join(_message(item) for item in plain)
    elif _message(plain):
        line = _message(plain)
    else:
        return json.dumps(_cut_texts(plain, limit // 2), ensure_ascii=False, separators=(", ", ": "), default=str)
    return _cut(line, limit)


def _cut(line: str, limit: int) -> str:
    line = " ".join(line.split())  # one line, however the value breaks
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _cut_texts(value: Any, limit: int) -> Any:
    if isinstance(value, str):
        return _cut(value, limit)
    if isinstance(value, dict):
        return {key: _cut_texts(item, limit) for key, item in value.items()}
    if isinstance(value, list):
        return [_cut_texts(item, limit) for item in value]
    return value


_ROLES = ("human", "user", "ai", "assistant", "system", "tool")


def _message(value: Any) -> str:
    """``type: content`` for a message (a message object, or the ``(role, text)`` pair a run starts with)."""
    if isinstance(value, dict) and isinstance(value.get("type"), str) and isinstance(value.get("content"), str):
        return f"{value['type']}: {value['content']}"
    if isinstance(value, list | tuple) and len(value) == 2 and value[0] in _ROLES and isinstance(value[1], str):
        return f"{value[0]}: {value[1]}"
    return ""


def checkpoint_key(entry: readmodel.ChainCheckpoint) -> str:
    """What names a checkpoint row."""
    return entry.checkpoint_id


def write_key(row: WriteRow) -> tuple[str, str, str, bytes]:
    """What names a write row (a task writes a channel once per checkpoint; the value tells repeats apart)."""
    return (row.checkpoint_id, row.task_id, row.channel, row.blob)


def new_row_marker(table: str, rows: list[Any], key_of: Any) -> Any:
    """In presenter mode, the mark of a row new since the previous action (see :func:`dashboard.presenter.new_keys`)."""
    if not presenter.is_on():
        return None
    new = presenter.new_keys(f"presenter-seen-{table}", (key_of(row) for row in rows))
    said = st.empty()  # drawn by every run: in a live part nothing below it moves, and no old count stays
    if new:
        said.caption(t("presenter.new_rows", count=len(new)))
    return presenter.marker(new, key_of)


def show_checkpoints(store: Store, thread_id: str) -> None:
    """The checkpoints table: step, source, short ids, next, full id, state (decoded for the shown rows only)."""

    def state(entry: readmodel.ChainCheckpoint) -> str:
        values = threadindex.head_values(store, thread_id, entry.checkpoint_id)
        return readmodel.to_json(values or {}).replace("\n", " ")

    paged_table(
        f"savefile-checkpoints-{thread_id}",
        lambda: chain(store, thread_id),
        [
            Column(t("col.step"), lambda e: e.step),
            Column(t("col.source"), lambda e: checkpoint_source(e.source)),
            Column(t("robot.col.short_id"), lambda e: short_id(e.checkpoint_id)),
            Column(
                t("robot.col.parent_short"),
                lambda e: short_id(e.parent_checkpoint_id) if e.parent_checkpoint_id else "",
            ),
            Column(t("col.next"), lambda e: ", ".join(e.next)),
            Column(t("robot.col.full_id"), lambda e: e.checkpoint_id),
            Column(t("col.state"), state),
        ],
        empty_text=t("robot.no_rows"),
        search_text=lambda e: " ".join((str(e.step), e.source, e.checkpoint_id, " ".join(e.next))),
        marked=new_row_marker(f"checkpoints-{thread_id}", chain(store, thread_id), checkpoint_key),
    )


def show_writes(store: Store, thread_id: str) -> None:
    """The writes table: short checkpoint id, task, node, channel, meaning, full id, value (shown rows decoded)."""

    paged_table(
        f"savefile-writes-{thread_id}",
        lambda: writes(store, thread_id),
        [
            Column(t("robot.col.short_id"), lambda w: short_id(w.checkpoint_id)),
            Column(t("col.node"), lambda w: node_name(w.node)),
            Column(t("col.channel"), lambda w: w.channel),
            Column(t("col.value"), lambda w: value_preview(decoded_value(store, w))),  # beside its channel
            Column(t("robot.col.meaning"), write_meaning),
            Column(t("col.task_id"), lambda w: w.task_id),
            Column(t("robot.col.full_id"), lambda w: w.checkpoint_id),
        ],
        empty_text=t("robot.no_rows"),
        search_text=lambda w: " ".join((w.checkpoint_id, w.task_id, w.node, w.channel)),
        marked=new_row_marker(f"writes-{thread_id}", writes(store, thread_id), write_key),
    )
    if (box := lazy_expander(t("robot.write_value"), f"savefile-write-value-{thread_id}")) is not None:
        with box:
            show_write_value(store, thread_id)


def show_write_value(store: Store, thread_id: str) -> None:
    """One write's whole value, decoded, picked by its checkpoint and channel."""
    rows = writes(store, thread_id)
    if not rows:
        st.caption(t("robot.no_rows"))
        return
    picked = st.selectbox(
        t("robot.write_pick"),
        range(len(rows)),
        key=f"savefile-write-pick-{thread_id}",
        format_func=lambda i: f"{short_id(rows[i].checkpoint_id)} · {node_name(rows[i].node)} · {rows[i].channel}",
    )
    st.json(readmodel.to_jsonable(decoded_value(store, rows[picked or 0])))
