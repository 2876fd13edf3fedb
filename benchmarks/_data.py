"""Databases the benchmarks build: a robot-like thread of many checkpoints, and mixed threads of every agent.

* :func:`build_proposal_thread`: one thread of about N checkpoints, each with writes and a node-log
  row (a logged node that proposes an action and loops on itself), an ``update_state`` fork on an
  older checkpoint that runs a few steps, and a ``__copy__`` fork. With ``agent="robot"`` its
  checkpoints name the robot in their metadata, as the robot's own runs do, so every page treats it
  as a robot thread.
* :func:`build_mixed_threads`: N threads of the three agents, round-robin, each agent's threads
  cycling through its :data:`PLANS` (waiting, done and attention, several ways), all first written
  by the real graphs (``agents.runs``). Refund threads are real runs each (a case id is unique);
  robot and lecture threads are real runs for the first of each plan and SQL copies of those
  (checkpoints, writes and node log) under new thread ids for the rest (see :data:`COPIED_AGENTS`).
* :func:`built_database`: an empty database, or mixed threads plus the big robot thread, built once
  per folder and reused.
"""

from __future__ import annotations

import os
import shutil
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph

from agents import nodelog_queue, runs
from agents.db import Store
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.nodelog import logged_node
from agents.runtime import load_settings, open_store
from agents.settings import Settings

FORK_STEPS = 3
#: The big robot thread of :func:`built_database`; built last, so it is the newest thread.
BIG_THREAD = "robot-big"
AGENT_ORDER = ("robot", "refund", "lecture")


class ProposalState(TypedDict):
    count: int
    limit: int
    pending_action: dict[str, Any]
    decision: str


def propose(state: ProposalState) -> dict[str, Any]:
    """The robot's step: a new proposed action, about the size of the real one."""
    count = state["count"] + 1
    action = {"type": "move", "target": f"shelf-{count % 97}", "speed": 0.5, "note": "로봇이 선반으로 이동합니다"}
    return {"count": count, "pending_action": action, "decision": ""}


def _again(state: ProposalState) -> str:
    return "propose" if state["count"] < state["limit"] else END


def _config(thread_id: str, agent: str | None, recursion_limit: int) -> dict[str, Any]:
    config: dict[str, Any] = {"configurable": {"thread_id": thread_id}, "recursion_limit": recursion_limit}
    if agent is not None:  # as ``agents.runs.run_config`` names the agent and the run
        config["metadata"] = {"agent": agent, "run_id": uuid.uuid4().hex[:12]}
    return config


def build_proposal_thread(store: Store, thread_id: str, checkpoints: int, *, agent: str | None = None) -> None:
    """Writes a thread of about ``checkpoints`` checkpoints with one node-log row per step."""
    builder = StateGraph(ProposalState)
    builder.add_node("propose", logged_node(store, agent or "robot", propose))
    builder.add_edge(START, "propose")
    builder.add_conditional_edges("propose", _again, ["propose", END])
    graph = builder.compile(checkpointer=store.saver)
    # input + one checkpoint per step; the fork adds FORK_STEPS + 1, the copy one.
    main_steps = checkpoints - 2 - (FORK_STEPS + 1) - 1
    config = _config(thread_id, agent, checkpoints + 100)
    graph.invoke({"count": 0, "limit": main_steps, "pending_action": {}, "decision": ""}, config)
    history = list(store.saver.list({"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}))[::-1]
    old = history[len(history) // 3]
    count = old.checkpoint["channel_values"]["count"]
    fork = _config(thread_id, agent, checkpoints + 100)
    fork["configurable"] = dict(old.config["configurable"])
    forked = graph.update_state(fork, {"limit": count + FORK_STEPS}, as_node="propose")
    graph.invoke(None, {**fork, "configurable": forked["configurable"]})
    copy = _config(thread_id, agent, 100)
    copy["configurable"] = dict(history[len(history) // 2].config["configurable"])
    graph.update_state(copy, None, as_node="__copy__")


# --- Mixed threads ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """One way a thread is written: the status it ends in and what writes it."""

    name: str
    status: str
    write: Callable[[Store, Settings, str], None]


def _stop_at_head(store: Store, thread_id: str) -> None:
    """Removes the head's unanswered interrupt: the thread reads as a run that stopped before it asked."""
    with store.transaction() as cursor:
        cursor.execute(
            "DELETE FROM writes WHERE thread_id = ? AND channel = '__interrupt__' AND checkpoint_id ="
            " (SELECT MAX(checkpoint_id) FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = '')",
            (thread_id, thread_id),
        )


def _robot(answer: str | None = None, *, edit: bool = False, stop: bool = False) -> Callable[..., None]:
    def write(store: Store, settings: Settings, thread_id: str) -> None:
        runs.start_run(store, settings, "robot", {}, thread_id=thread_id)
        if answer is not None:
            runs.resume_thread(store, settings, thread_id, answer)
        if edit:  # update_state, not continued
            runs.update_thread(store, settings, thread_id, {"decision": "no"})
        if stop:
            _stop_at_head(store, thread_id)

    return write


def _refund(amount: int, action: str | None = None, *, stop: bool = False) -> Callable[..., None]:
    def write(store: Store, settings: Settings, thread_id: str) -> None:
        case = thread_id.removeprefix("refund-")
        values = {"case_id": case, "customer": f"고객 {case}", "amount": amount, "reason": "파손된 상품 / damaged"}
        runs.start_run(store, settings, "refund", values)
        if action is not None:
            runs.resume_from_fields(store, settings, thread_id, {"action": action, "approver": "kim"})
        if stop:
            _stop_at_head(store, thread_id)

    return write


def _lecture(action: str | None = None, *, stop: bool = False) -> Callable[..., None]:
    def write(store: Store, settings: Settings, thread_id: str) -> None:
        runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id=thread_id)
        if action is not None:
            runs.resume_from_fields(store, settings, thread_id, {"action": action})
        if stop:
            _stop_at_head(store, thread_id)

    return write


#: Per agent, the plans its threads cycle through, in order.
PLANS: dict[str, tuple[Plan, ...]] = {
    "robot": (
        Plan("waiting", "waiting", _robot()),
        Plan("executed", "done", _robot("yes")),
        Plan("refused", "done", _robot("no")),
        Plan("edited", "attention", _robot(edit=True)),
        Plan("stopped", "attention", _robot(stop=True)),
    ),
    "refund": (
        Plan("waiting", "waiting", _refund(500_000)),
        Plan("automatic", "done", _refund(50_000)),
        Plan("approved", "done", _refund(300_000, "approve")),
        Plan("rejected", "done", _refund(700_000, "reject")),
        Plan("stopped", "attention", _refund(900_000, stop=True)),
    ),
    "lecture": (
        Plan("waiting", "waiting", _lecture()),
        Plan("saved", "done", _lecture("save")),
        Plan("rejected", "done", _lecture("reject")),
        Plan("stopped", "attention", _lecture(stop=True)),
    ),
}
#: Agents whose threads past the first of each plan are SQL copies: a lecture run takes a few hundred
#: milliseconds, and every run's own reads grow with the database, so 10,000 real runs take many minutes.
#: A refund is a real run each time: its case id (in its state and the ledger's key) is its own.
COPIED_AGENTS = ("robot", "lecture")


def thread_name(agent: str, number: int) -> str:
    return f"{agent}-{number:05d}" if agent != "refund" else f"refund-c{number:05d}"


def planned_threads(count: int) -> list[tuple[str, str, Plan]]:
    """(thread id, agent, plan) of ``count`` mixed threads: agents round-robin, each cycling its plans."""
    planned = []
    for index in range(count):
        agent = AGENT_ORDER[index % len(AGENT_ORDER)]
        number = index // len(AGENT_ORDER)
        planned.append((thread_name(agent, number), agent, PLANS[agent][number % len(PLANS[agent])]))
    return planned


def expected_statuses(count: int) -> Counter[tuple[str, str]]:
    """How many threads of each (agent, status) :func:`build_mixed_threads` writes."""
    return Counter((agent, plan.status) for _thread, agent, plan in planned_threads(count))


def _copy_thread(store: Store, source: str, target: str) -> None:
    """Copies a thread's checkpoints, writes and node log under another thread id."""
    with store.transaction() as cursor:
        cursor.execute(
            "INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type,"
            " checkpoint, metadata) SELECT ?, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint,"
            " metadata FROM checkpoints WHERE thread_id = ?",
            (target, source),
        )
        cursor.execute(
            "INSERT INTO writes (thread_id, checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel, type,"
            " value) SELECT ?, checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel, type, value"
            " FROM writes WHERE thread_id = ?",
            (target, source),
        )
        cursor.execute(
            "INSERT INTO node_log (agent, thread_id, run_id, node, task_id, step, label, started_at, ended_at,"
            " status, error) SELECT agent, ?, run_id, node, task_id, step, label, started_at, ended_at, status,"
            " error FROM node_log WHERE thread_id = ? ORDER BY id",
            (target, source),
        )


def build_mixed_threads(store: Store, settings: Settings, count: int) -> Counter[tuple[str, str]]:
    """Writes ``count`` mixed threads; returns the planned (agent, status) counts."""
    templates: dict[tuple[str, str], str] = {}
    for thread_id, agent, plan in planned_threads(count):
        template = templates.get((agent, plan.name))
        if agent in COPIED_AGENTS and template is not None:
            _copy_thread(store, template, thread_id)
            continue
        plan.write(store, settings, thread_id)
        templates.setdefault((agent, plan.name), thread_id)
    return expected_statuses(count)


# --- Built databases ----------------------------------------------------------------------------------


def settings_for(location: str | Path) -> Settings:
    """Settings for building: the database, the embedded model without latency, no secrets file."""
    environ = {key: value for key, value in os.environ.items() if key.startswith("HITL_")}
    environ.update(HITL_DB=str(location), HITL_MODEL_LATENCY="0")
    return load_settings(environ=environ, secrets={})


def built_database(folder: Path, threads: int, big_checkpoints: int, *, log: Callable[[str], None] = print) -> Path:
    """The database of ``threads`` mixed threads and the big robot thread (none when ``threads`` is 0: empty).

    Built once into ``folder`` under a name that says what it holds; a later call returns it as it is.
    """
    folder.mkdir(parents=True, exist_ok=True)
    name = "empty" if threads == 0 else f"threads-{threads}-big-{big_checkpoints}"
    final = folder / name / "bench.sqlite"
    if final.exists():
        return final
    building = folder / f"{name}.building"
    shutil.rmtree(building, ignore_errors=True)
    building.mkdir()
    location = building / "bench.sqlite"
    started = time.perf_counter()
    store = open_store(location)
    try:
        if threads:
            build_mixed_threads(store, settings_for(location), threads)
            mixed = time.perf_counter() - started
            build_proposal_thread(store, BIG_THREAD, big_checkpoints, agent="robot")
            nodelog_queue.flush(store)  # its graph ran outside agents.runs, which writes the node log at a run's end
            log(
                f"built {threads} mixed threads in {mixed:.0f} s and {BIG_THREAD} ({big_checkpoints} checkpoints)"
                f" in {time.perf_counter() - started - mixed:.0f} s (not measured)"
            )
    finally:
        store.close()
    building.rename(final.parent)
    return final
