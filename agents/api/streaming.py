"""The LangGraph server's stream modes: which graph modes a run streams, and the events they become.

A client asks for the server's modes (``stream_mode``); the graph is streamed in LangGraph's own
modes (:data:`agents.runs.STREAM_MODES`) and each chunk becomes the server-sent events LangGraph's
server sends for it (its ``langgraph_api.stream.astream_state``):

- ``values``, ``updates``, ``custom``, ``tasks``: the chunk, under the mode's name;
- ``messages-tuple``: ``messages`` events, each ``[message, metadata]``;
- ``messages``: ``messages/metadata`` the first time a message id is seen (``{id: {"metadata": ...}}``),
  then ``messages/partial`` (a chunk, accumulated so far) or ``messages/complete`` (a whole message),
  each ``[message]``;
- ``debug``: LangGraph's debug events, a ``checkpoint`` one with ``checkpoint`` / ``parent_checkpoint``
  references added and its tasks' ``state`` given as ``checkpoint``;
- ``events``: LangChain's stream events (``astream_events`` version 2; :mod:`agents.event_stream`);
- ``checkpoints``: each saved checkpoint (``config``, ``parent_config``, ``values``, ``metadata``,
  ``next``, ``tasks``).

A message is JSON as in every answer of the API (:func:`agents.api.shapes.jsonable`).
A config in a payload keeps only the checkpoint's address (thread, namespace, checkpoint id): what the
run carries beside it (the acting identity) never leaves the server.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from langchain_core.messages import BaseMessageChunk, message_chunk_to_message

from agents import runs
from agents.api import shapes
from agents.errors import InputError

#: The stream modes a client may ask for (LangGraph server's names).
API_STREAM_MODES = (
    "values",
    "updates",
    "messages-tuple",
    "messages",
    "custom",
    "events",
    "debug",
    "tasks",
    "checkpoints",
)
#: What a config in a streamed payload keeps.
CONFIG_KEYS = ("thread_id", "checkpoint_ns", "checkpoint_id", "checkpoint_map")


def requested(value: str | list[str]) -> tuple[str, ...]:
    """The client's ``stream_mode``, checked: one mode or a list of them."""
    modes = (value,) if isinstance(value, str) else tuple(value)
    unknown = [mode for mode in modes if mode not in API_STREAM_MODES]
    if unknown or not modes:
        raise InputError("stream_mode", f"supported: {', '.join(API_STREAM_MODES)}; got {unknown or 'none'}")
    return tuple(dict.fromkeys(modes))


def graph_modes(modes: tuple[str, ...]) -> tuple[str, ...]:
    """The graph's stream modes for the client's: both message modes stream the graph's ``messages``."""
    wanted = {"messages" if mode.startswith("messages") else mode for mode in modes}
    return tuple(mode for mode in runs.STREAM_MODES if mode in wanted)


def _config(config: Any) -> Any:
    if not isinstance(config, dict):
        return config
    configurable = config.get("configurable") or {}
    return {"configurable": {key: configurable[key] for key in CONFIG_KEYS if key in configurable}}


def _checkpoint_payload(payload: dict[str, Any]) -> dict[str, Any]:
    """A ``checkpoints`` chunk (or a debug ``checkpoint`` payload) with only the configs' addresses."""
    data = dict(payload)
    for key in ("config", "parent_config"):
        if key in data:
            data[key] = _config(data[key])
    tasks = []
    for task in data.get("tasks") or []:
        task = dict(task)
        if "state" in task:
            task["state"] = _config(task["state"])
        tasks.append(task)
    if "tasks" in data:
        data["tasks"] = tasks
    return data


def _reference(config: Any) -> dict[str, Any] | None:
    configurable = (config or {}).get("configurable") or {}
    return shapes.checkpoint_ref(str(configurable.get("thread_id", "")), configurable.get("checkpoint_id"))


def _debug(chunk: dict[str, Any]) -> dict[str, Any]:
    """A debug event; a checkpoint one as LangGraph's server sends it (``_preprocess_debug_checkpoint``)."""
    if chunk.get("type") != "checkpoint" or not isinstance(chunk.get("payload"), dict):
        return chunk
    payload = _checkpoint_payload(chunk["payload"])
    payload["checkpoint"] = _reference(payload.get("config"))
    payload["parent_checkpoint"] = _reference(payload.get("parent_config"))
    tasks = []
    for task in payload.get("tasks") or []:
        state = task.get("state")
        if isinstance(state, dict) and state.get("configurable"):
            task = {key: value for key, value in task.items() if key != "state"}
            task["checkpoint"] = state["configurable"]
        tasks.append(task)
    payload["tasks"] = tasks
    return {**chunk, "payload": payload}


class EventWriter:
    """Turns one run's graph chunks into ``(event, data)`` pairs for the client's modes."""

    def __init__(self, modes: tuple[str, ...]) -> None:
        self.modes = modes
        self.messages: dict[str, Any] = {}  # the ``messages`` mode's messages so far, by id

    def events(self, mode: str, chunk: Any) -> Iterator[tuple[str, Any]]:
        """The events of one chunk of the graph's ``mode``."""
        if mode == "messages":
            yield from self._messages(chunk)
        elif mode == "debug":
            yield "debug", shapes.jsonable(_debug(chunk))
        elif mode == "checkpoints":
            yield "checkpoints", shapes.jsonable(_checkpoint_payload(chunk))
        elif mode in ("values", "updates"):
            yield mode, shapes.stream_chunk(chunk)
        else:
            yield mode, shapes.jsonable(chunk)

    def _messages(self, chunk: Any) -> Iterator[tuple[str, Any]]:
        message, metadata = chunk
        if "messages-tuple" in self.modes:
            yield "messages", [shapes.jsonable(message), shapes.jsonable(metadata)]
            return
        if message.id in self.messages:
            self.messages[message.id] = self.messages[message.id] + message
        else:
            self.messages[message.id] = message
            yield "messages/metadata", {message.id: {"metadata": shapes.jsonable(metadata)}}
        whole = self.messages[message.id]
        if isinstance(message, BaseMessageChunk):
            yield "messages/partial", [shapes.jsonable(whole)]
        else:
            yield "messages/complete", [shapes.jsonable(message_chunk_to_message(whole))]
