"""LangChain's stream events (``astream_events`` version 2) of a run that the write path drives synchronously.

LangGraph's server answers ``stream_mode="events"`` with the events of ``graph.astream_events(...,
version="v2")``: ``on_chain_start`` / ``on_chain_stream`` / ``on_chain_end`` of the graph and of each
node, ``on_chat_model_*`` of a model call, ``on_custom_event``... The runs of this project go through
:func:`agents.runs._drive` on the synchronous saver, so they cannot be driven by ``astream_events``;
:class:`EventCollector` is LangChain's own handler behind it (``_AstreamEventsCallbackHandler``),
attached to the run's callbacks, whose events are handed to a function as they come instead of to
an async queue. As ``astream_events`` does (it runs each node as a stream), a node's output also
comes as one ``on_chain_stream`` chunk before its ``on_chain_end``, the first event carries the run's
input and the root's end event does not; as LangGraph's server does, the root's own
``on_chain_stream`` chunks (the stream modes' chunks) are left out.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from langchain_core.tracers.event_stream import _AstreamEventsCallbackHandler

#: The events a run sends, each LangChain's ``StreamEvent`` dict.
EventSink = Callable[[dict[str, Any]], None]


class EventCollector(_AstreamEventsCallbackHandler):
    """Hands each stream event of one run to ``sink`` (LangChain's handler, without its async queue)."""

    def __init__(self, sink: EventSink, graph_input: Any) -> None:
        super().__init__()
        self.sink = sink
        self.graph_input = graph_input
        self.root_id = uuid.uuid4()
        self.started = False

    def _send(self, event: Any, event_type: str) -> None:
        if not self.root_event_filter.include_event(event, event_type):
            return
        data = dict(event)
        data["data"] = dict(event.get("data") or {})
        is_root = data.get("run_id") == str(self.root_id)
        if is_root and data["event"] == "on_chain_stream":
            return
        if is_root and data["event"] == "on_chain_start" and not self.started:
            self.started = True
            data["data"]["input"] = self.graph_input
        elif is_root and data["event"].endswith("_end"):
            data["data"].pop("input", None)
        elif data["event"] == "on_chain_end" and _is_node(data):
            # astream runs a node as a stream, so its output also comes as one chunk before its end
            self.sink({**data, "event": "on_chain_stream", "data": {"chunk": data["data"].get("output")}})
        self.sink(data)


def _is_node(event: dict[str, Any]) -> bool:
    """Whether the event is a graph node's (LangGraph tags a node's run with its step)."""
    return any(str(tag).startswith("graph:step:") for tag in event.get("tags") or ())


def attach(config: dict[str, Any], sink: EventSink, graph_input: Any, name: str) -> EventCollector:
    """Adds a collector to the run's ``config`` (its callbacks, root run id and name) and returns it.

    The root run is named ``name`` (the agent), as LangGraph's server names it by its graph id.
    """
    collector = EventCollector(sink, graph_input)
    config["run_id"] = collector.root_id
    config["run_name"] = name
    config["callbacks"] = [*(config.get("callbacks") or []), collector]
    return collector
