"""LangGraph's official JS client (``@langchain/langgraph-sdk``, pinned in ``tests/js/package.json``) on both servers.

``tests/js/flows.mjs`` drives one scripted flow through the JS client against one server and prints
what the client saw of each call: its status, the keys and value types of the answer, and for a
stream the event names. Each test runs a flow against ``python -m agents serve`` and against the
real ``langgraph dev`` on the same graphs, and the two traces must be the same. Node comes from the
machine (Debian's ``nodejs``); ``bash scripts/js-client-env.sh`` installs the client (``npm ci``).

The Agent Chat UI and Agent Inbox flows replay the calls those apps make, read from their source
(github.com/langchain-ai/agent-chat-ui at fdc87e6, github.com/langchain-ai/agent-inbox at f38301b):

Agent Chat UI
- ``GET /info`` to check the server: src/providers/Stream.tsx:60 (``checkGraphStatus``).
- ``threads.search({metadata: {graph_id}, limit: 100})`` for the thread list: src/providers/Thread.tsx:61.
- ``threads.create`` then ``runs.stream(thread, assistant, {input: {messages: [human]}, streamMode,
  streamSubgraphs: true, streamResumable: true, onDisconnect: "continue"})`` on submit:
  src/components/thread/index.tsx:217 through useStream (``@langchain/langgraph-sdk``
  dist/ui/orchestrator.js:685-726 adds "values" and "updates" and the tracked modes "messages-tuple",
  and "custom" for its ``onCustomEvent``: src/providers/Stream.tsx:97); the human message is
  ``{id, type: "human", content: [{type: "text", text}]}`` (src/components/thread/index.tsx:203).
- ``threads.getHistory(thread, {limit})`` (``fetchStateHistory: true``: src/providers/Stream.tsx:96;
  orchestrator.js:25).
- After a reload, ``runs.joinStream(thread, run, {lastEventId: "-1"})``: orchestrator.js:620-635.
- Stop: the stream is aborted and ``runs.cancel(thread, run)``: src/components/thread/index.tsx:522
  (``stream.stop()``), orchestrator.js:596.
- Once the history is loaded, every submit names its head as the run's ``checkpoint`` (without its
  ``thread_id``): @langchain/langgraph-sdk 1.8.10, which Agent Chat UI ships,
  dist/react/stream.lgp.js:333; an interrupt's answer is ``submit({}, {command: {resume}})``
  (src/components/thread/agent-inbox/hooks/use-interrupted-actions.tsx:87).

Agent Inbox
- ``threads.search({offset, limit, status: "interrupted", metadata})`` to list an inbox:
  src/components/agent-inbox/contexts/ThreadContext.tsx:200-208.
- ``threads.get(thread)`` then ``threads.getState(thread)`` to open one: ThreadContext.tsx:318-325
  (and :245 for a listed thread whose interrupts are not in the thread).
- The question it shows and answers is the thread's first interrupt: ``Object.values(thread.interrupts)``,
  each task's first (contexts/utils.ts, ``getInterruptFromThread``), then ``interrupts[0]`` (utils.ts,
  ``createDefaultHumanResponse``); its answer is ``command: {resume: [response]}`` with no interrupt id
  (``inbox-items``, tests/ecosystem/test_agent_inbox_decisions.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import uuid
from typing import Any

import pytest

from tests.api.conftest import Server, start_server, stop_server
from tests.conftest import PROJECT_ROOT
from tests.ecosystem.conftest import DevServer, start_dev_server, stop_dev_server

pytestmark = pytest.mark.slow

JS = PROJECT_ROOT / "tests" / "js"
MISSING_CLIENT = "the JS client is not installed: run `bash scripts/js-client-env.sh` (Node and npm ci in tests/js)"


def run_flow(url: str, flow: str, **options: Any) -> list[dict[str, Any]]:
    """The trace of ``flow`` through the JS client against the server at ``url``."""
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None or not (JS / "node_modules" / "@langchain" / "langgraph-sdk").is_dir():
        pytest.skip(MISSING_CLIENT)
    env = {key: value for key, value in os.environ.items() if not key.endswith("_API_KEY")}
    done = subprocess.run(
        [node, str(JS / "flows.mjs"), url, flow, json.dumps(options)],
        cwd=JS,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    trace: list[dict[str, Any]] = json.loads(done.stdout.strip().splitlines()[-1])["trace"]
    return trace


def both(langgraph_dev: DevServer, ours: Server, flow: str, **options: Any) -> tuple[list[Any], list[Any]]:
    """The flow's traces on our server (with ``options``) and on ``langgraph dev``."""
    reference = run_flow(langgraph_dev.url, flow)
    return run_flow(ours.url, flow, **options), reference


#: Keys only this server sends, on purpose (README, "Differences from LangGraph's server"): a thread's
#: ``lifecycle`` (the product's own status words), a refund's ``requested_at`` (stamped at the start).
OWN_KEYS = ("lifecycle", "requested_at")


def calls(trace: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    return [(entry["call"], entry["status"]) for entry in trace]


def without_own_keys(trace: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The trace without the keys only this server sends."""
    found = []
    for entry in trace:
        shape = entry.get("shape")
        if isinstance(shape, dict):
            entry = {**entry, "shape": {key: value for key, value in shape.items() if key not in OWN_KEYS}}
        found.append(entry)
    return found


@pytest.mark.parametrize("flow", ["robot", "lecture"])
def test_a_flow_looks_the_same_through_the_js_client(langgraph_dev: DevServer, ours: Server, flow: str) -> None:
    mine, reference = both(langgraph_dev, ours, flow)
    assert calls(mine) == calls(reference)
    assert without_own_keys(mine) == without_own_keys(reference)


#: The embedded model's seconds per call on the servers of the Chat UI flow. Its Stop cancels a lecture run
#: the moment the run's stream has begun; with an instant model the run could end first (then there is
#: nothing to stop, and which came first would decide the trace). A lecture asks the model in at least four
#: rounds, one after the other, so a run lasts over a second, while the cancel is one local request.
CHAT_UI_MODEL_LATENCY = "0.3"


@pytest.fixture(scope="module")
def chat_ui_servers(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """``langgraph dev`` and this project's server, each with a model that takes its time (see above)."""
    reference = start_dev_server(tmp_path_factory.mktemp("langgraph-dev-chat-ui"), CHAT_UI_MODEL_LATENCY)
    try:
        mine = start_server(tmp_path_factory.mktemp("ours-chat-ui"), HITL_MODEL_LATENCY=CHAT_UI_MODEL_LATENCY)
    except BaseException:
        stop_dev_server(reference)
        raise
    yield reference, mine
    stop_server(mine)
    stop_dev_server(reference)


def test_the_chat_ui_flow_looks_the_same_and_its_stop_cancels_a_running_lecture(chat_ui_servers: Any) -> None:
    reference_server, our_server = chat_ui_servers
    mine, reference = both(reference_server, our_server, "chat-ui")
    assert calls(mine) == calls(reference)
    assert without_own_keys(mine) == without_own_keys(reference)
    assert mine[-1] == {"call": "runs.get cancelled", "status": "ok", "shape": "interrupted"}, mine[-1]


def test_a_refund_with_an_edit_looks_the_same_through_the_js_client(langgraph_dev: DevServer, ours: Server) -> None:
    # Both servers name the thread (``threads.create()``); the case holds it on this one.
    case = f"JS-{uuid.uuid4().hex[:6]}"
    mine = run_flow(ours.url, "refund", caseId=case)
    reference = run_flow(langgraph_dev.url, "refund", caseId=case)
    # The one difference on purpose: a decided case is not answered again (the reference runs the finished
    # graph again, which does nothing); this server says so with 409.
    again = [entry for entry in mine if entry["call"] == "runs.wait answered again"]
    assert again == [{"call": "runs.wait answered again", "status": 409}]
    assert [entry for entry in reference if entry["call"] == "runs.wait answered again"][0]["status"] == "ok"
    same = [entry for entry in without_own_keys(mine) if entry not in again]
    assert same == [e for e in without_own_keys(reference) if e["call"] != "runs.wait answered again"]
    paid = {"outcome": "paid", "paid_amount": 300000, "approver": "kim"}
    assert {"call": "paid", "status": "ok", "shape": paid} in mine


def test_the_inbox_lists_and_opens_a_waiting_refund(langgraph_dev: DevServer, ours: Server) -> None:
    case = f"IN-{uuid.uuid4().hex[:6]}"
    mine = run_flow(ours.url, "inbox", caseId=case)
    reference = run_flow(langgraph_dev.url, "inbox", caseId=case)
    assert calls(mine) == calls(reference)
    assert without_own_keys(mine) == without_own_keys(reference)


def test_the_chat_ui_s_submits_naming_the_head_run_as_on_the_reference(langgraph_dev: DevServer, ours: Server) -> None:
    # useStream names the head of the loaded history as every submit's checkpoint: an interrupt's answer and
    # a new message alike. Both servers run them from that head (this one as without it).
    mine, reference = both(langgraph_dev, ours, "chat-ui-head")
    assert calls(mine) == calls(reference)
    assert all(entry["status"] == "ok" for entry in mine), mine
    answered = next(entry for entry in mine if entry["call"] == "runs.stream answer at the head")
    assert "values" in answered["events"] and "error" not in answered["events"]
    # The robot asks again after the new message (it starts over on this server, it appends on the reference).
    assert mine[-1]["shape"] == reference[-1]["shape"] == {"next": ["approval"], "waiting": 1}
