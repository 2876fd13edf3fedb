"""Every stream mode of LangGraph's server, on ``python -m agents serve`` and on the real ``langgraph dev``.

The same robot flow (start, then answer "yes") is streamed through the official ``langgraph-sdk``
client in each mode on both servers; the sequence of server-sent event names must be the same, and
each event's data must have the same keys and value types (ids, times and this server's own config
keys differ on purpose). The modes and their event names are LangGraph's server's
(``langgraph_api.stream.astream_state``): ``messages-tuple`` sends ``messages`` events,
``messages`` sends ``messages/metadata`` then ``messages/complete``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from agents.lecture.inputs import DEFAULT_LECTURE_INPUT

pytestmark = pytest.mark.slow

MODES = ("values", "updates", "messages-tuple", "messages", "custom", "events", "debug", "tasks", "checkpoints")
#: What a robot run sends beside its chunks: the run's id first.
START = {"role": "human", "content": "Start the task"}


def keys(data: Any) -> Any:
    """The data's keys and value types (a list: each item's); a message id map: its values'."""
    if isinstance(data, list):
        return [keys(item) for item in data]
    if isinstance(data, dict):
        if len(data) == 1 and "metadata" in next(iter(data.values()), {}):  # messages/metadata: {id: ...}
            return keys(next(iter(data.values())))
        return sorted(f"{key}:{type(value).__name__}" for key, value in data.items())
    return type(data).__name__


def streamed(client: Any, mode: str) -> list[tuple[str, Any]]:
    """The events of a robot flow streamed in ``mode``: its start, then its answer."""
    thread_id = client.threads.create()["thread_id"]
    found = []
    for options in ({"input": {"messages": [START]}}, {"command": {"resume": "yes"}}):
        for part in client.runs.stream(thread_id, "robot", stream_mode=mode, **options):
            found.append((part.event, part.data))
    return found


#: Keys whose values are the server's own: its config and run metadata (see the README's differences).
OWN = ("config", "parent_config", "metadata", "checkpoint", "parent_checkpoint")


def comparable(event: str, data: Any) -> Any:
    """The event's data shape, without the parts each server fills with its own settings."""
    if event == "messages" and isinstance(data, list):  # [message, metadata]: the metadata is the run's
        return keys(data[0])
    if event == "events":  # LangChain's stream event: which run, which event, what it carries
        return [data["event"], data["name"], sorted(data["data"]), sorted(data)]
    if event == "messages/metadata":
        return "metadata"
    if event in ("checkpoints", "debug") and isinstance(data, dict):
        payload = data.get("payload", data)
        if isinstance(payload, dict):
            rest = {key: value for key, value in payload.items() if key not in OWN}
            return [data.get("type"), keys(rest)]
    return keys(data)


@pytest.mark.parametrize("mode", MODES)
def test_each_stream_mode_sends_the_reference_events(both: dict[str, Any], mode: str) -> None:
    ours, reference = (streamed(client, mode) for client in both.values())
    assert [event for event, _ in ours] == [event for event, _ in reference]
    assert [comparable(*item) for item in ours] == [comparable(*item) for item in reference]
    assert ours[0][0] == "metadata"
    if mode == "messages":
        assert [event for event, _ in ours][-2:] == ["messages/metadata", "messages/complete"]
    if mode.startswith("messages"):
        message = ours[-1][1][0]
        assert message["type"] == "ai" and message["id"]


def test_several_modes_at_once_interleave_as_the_reference(both: dict[str, Any]) -> None:
    modes = ["values", "messages-tuple", "custom", "updates"]
    ours, reference = (streamed(client, modes) for client in both.values())  # type: ignore[arg-type]
    assert [event for event, _ in ours] == [event for event, _ in reference]


LECTURE_REQUEST = dict(DEFAULT_LECTURE_INPUT)


def lecture_events(client: Any) -> list[tuple[str, ...]]:
    """A lecture run to its gate in the message and event modes: each event's name, and what it is about."""
    thread_id = client.threads.create()["thread_id"]
    found: list[tuple[str, ...]] = []
    modes = ["messages", "events", "updates"]
    for part in client.runs.stream(thread_id, "lecture", input={"request": LECTURE_REQUEST}, stream_mode=modes):
        data = part.data
        if part.event == "events":
            found.append((part.event, data["event"], data["name"]))
        elif part.event in ("messages/partial", "messages/complete"):
            found.append((part.event, data[0]["type"]))
        else:
            found.append((part.event,))
    return found


def test_a_lecture_run_sends_the_reference_model_and_node_events(both: dict[str, Any]) -> None:
    # The planner's reviews run in parallel, so their events interleave differently on each run: the same
    # events, with the same first and last ones.
    ours, reference = (lecture_events(client) for client in both.values())
    assert Counter(ours) == Counter(reference)
    assert ours[:3] == reference[:3] and ours[-2:] == reference[-2:]
    assert ("events", "on_chat_model_end", "EmbeddedChatModel") in ours
    assert ("messages/complete", "ai") in ours
