"""What every operation on a thread shares: its result, its run config, its graph and state, and the
driver that runs the graph (``_drive``) under the thread's lease."""

from __future__ import annotations

import logging
import sqlite3
import uuid
from collections.abc import Callable, Mapping
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any

from agents import identity, lifecycle, readmodel, runtime, threadstatus
from agents.db import CALLERS_ERRORS, DatabaseError, Store, explain_refusal
from agents.errors import InputError, RunCancelled, RunFailedError, ThreadNotFoundError
from agents.identity import LOCAL_OPERATOR, Identity
from agents.leases import ThreadBusyError
from agents.nodelog import flush as flush_node_log
from agents.registry import get_agent
from agents.settings import Settings
from agents.spec import AgentSpec
from agents.strings import STRINGS
from agents.texts import DEFAULT_LANGUAGE, LANGUAGE_METADATA_KEY, Text, text

#: LangGraph's channel of the questions a task asked (a ``values`` event that holds it paused the run).
INTERRUPT = "__interrupt__"

logger = logging.getLogger(__name__)
#: Receives LangGraph "tasks" stream events while a run goes on (for live progress).
EventCallback = Callable[[dict[str, Any]], None]
#: Receives ``(mode, chunk)`` of the stream modes a caller asked for, as LangGraph's ``graph.stream`` yields them.
ChunkCallback = Callable[[str, Any], None]
#: The stream modes a caller may ask for (LangGraph's own); "tasks" events also drive live progress.
STREAM_MODES = ("values", "updates", "messages", "custom", "debug", "tasks", "checkpoints", "events")
#: ``start_run``'s ``expected_head`` when the caller saw no head to check against (CLI, API).
UNCHECKED = "unchecked"


@dataclass(frozen=True)
class RunResult:
    """Where a thread stands after an operation.

    ``status`` is the thread's one lifecycle status (:mod:`agents.lifecycle`):
    ``waiting``, ``attention``, ``running`` or ``done``; ``outcome`` is the
    agent's outcome when done, ``reason`` why it is not.
    """

    thread_id: str
    agent: str
    status: str
    next: tuple[str, ...]
    interrupts: tuple[Any, ...]
    values: dict[str, Any]
    head_checkpoint_id: str | None
    outcome: str = ""
    reason: str = ""
    action: str = ""
    reason_text: Text | None = None  # ``reason`` to render in the reader's language, when it has a text
    interrupt_ids: tuple[str, ...] = ()  # the id of each of ``interrupts``, in the same order
    questions: tuple[Any, ...] = ()  # ``interrupts`` as LangGraph gives them (``Interrupt``: value, id, schema)
    waiting_count: int = 0  # how many questions wait where the status says so (several, or an item of several)

    def to_json(self, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """The CLI's ``--json`` shape; ``reason`` in ``lang`` and ``waiting_count`` as ``threads --json`` gives them."""
        question = self.interrupts[0] if self.interrupts else None
        return {
            "thread_id": self.thread_id,
            "status": self.status,
            "outcome": self.outcome,
            "reason": threadstatus.reason_in(self.agent, self.status, self.reason, self.reason_text, question, lang),
            "action": self.action,
            "next": list(self.next),
            "interrupts": readmodel.to_jsonable(list(self.interrupts)),
            "interrupt_ids": list(self.interrupt_ids),
            "waiting_count": self.waiting_count,
            "values": readmodel.to_jsonable(self.values),
        }


def waiting_count(payloads: tuple[Any, ...] | list[Any]) -> str:
    """How many questions wait, in words (``2 of 5 items``; see :func:`agents.lifecycle.waiting_words`)."""
    return lifecycle.waiting_words(len(payloads), payloads[0] if payloads else None)


#: The checkpoint metadata keys a run writes itself: a caller's metadata may not name them (the read
#: model finds a thread's agent by ``agent``; the nodes record a decision's batch from ``batch_id``).
#: ``lang`` is not among them: a start's caller chooses the run language with it.
OWN_METADATA_KEYS = ("agent", "graph_id", "assistant_id", "run_id", identity.BATCH_METADATA_KEY)


@dataclass(frozen=True)
class RunOptions:
    """What a caller asks of a run beside the operation, as LangGraph's server takes it from a run request.

    Attributes:
        metadata: Added to the metadata of every checkpoint the run writes (LangGraph keeps the text,
            number and true/false values); the run's own keys stay its own (:data:`OWN_METADATA_KEYS`).
        recursion_limit: LangGraph's limit on the run's steps (its default, 25, when None); a run that
            reaches it fails at that step, as any failed step does.
    """

    metadata: Mapping[str, Any] = field(default_factory=dict)
    recursion_limit: int | None = None

    def __post_init__(self) -> None:
        for key in self.metadata:
            if key in OWN_METADATA_KEYS:
                raise InputError(f"metadata.{key}", text(STRINGS, "error.own_metadata_key", key=repr(key)))
        limit = self.recursion_limit
        if limit is not None and (type(limit) is not int or limit < 1):
            raise InputError("config.recursion_limit", text(STRINGS, "error.recursion_limit", got=repr(limit)))


#: A run with no options.
NO_OPTIONS = RunOptions()


def run_config(
    spec: AgentSpec,
    thread_id: str,
    checkpoint_id: str | None = None,
    *,
    lang: str = DEFAULT_LANGUAGE,
    run_id: str | None = None,
    batch_id: str | None = None,
    options: RunOptions = NO_OPTIONS,
) -> dict[str, Any]:
    """Thread, the run id (``run_id``, else a fresh one), agent, run language and the batch it decides in.

    LangGraph copies the metadata into each checkpoint the run writes: the agent as ``agent`` and, as
    LangGraph's server writes them, as ``graph_id`` and ``assistant_id`` (an assistant is an agent here),
    beside the caller's ``options.metadata``, as LangGraph's server merges a run's metadata in.
    """
    configurable: dict[str, Any] = {"thread_id": thread_id}
    if checkpoint_id:
        configurable.update(checkpoint_id=checkpoint_id, checkpoint_ns="")
    config: dict[str, Any] = {
        "configurable": configurable,
        "metadata": {
            **options.metadata,
            "agent": spec.name,
            "graph_id": spec.name,
            "assistant_id": spec.name,
            "run_id": run_id or uuid.uuid4().hex[:12],
            LANGUAGE_METADATA_KEY: lang,
        },
    }
    if batch_id:
        config["metadata"][identity.BATCH_METADATA_KEY] = batch_id
    if spec.run.max_concurrency:
        config["max_concurrency"] = spec.run.max_concurrency
    if options.recursion_limit is not None:
        config["recursion_limit"] = options.recursion_limit
    return config


def _graph(store: Store, settings: Settings, spec: AgentSpec) -> Any:
    return runtime.graph(store, spec.name, **runtime.graph_options(settings, spec.name))


def _snapshot(
    store: Store, settings: Settings, spec: AgentSpec, thread_id: str, checkpoint_id: str | None = None
) -> Any:
    configurable = {"thread_id": thread_id}
    if checkpoint_id:
        configurable.update(checkpoint_id=checkpoint_id, checkpoint_ns="")
    return _graph(store, settings, spec).get_state({"configurable": configurable})


def thread_snapshot(
    store: Store, settings: Settings, thread_id: str, checkpoint_id: str | None = None
) -> tuple[AgentSpec, Any]:
    """The thread's agent and LangGraph ``StateSnapshot`` at its head (or at ``checkpoint_id``).

    Raises:
        ThreadNotFoundError: No such thread.
        InputError: The thread has no checkpoint ``checkpoint_id``.
    """
    thread_id = lifecycle.thread_named(store, thread_id, exact=True)
    spec = _thread_spec(store, thread_id)
    readmodel.check_checkpoint(store, thread_id, checkpoint_id)
    return spec, _snapshot(store, settings, spec, thread_id, checkpoint_id)


def thread_history(
    store: Store, settings: Settings, thread_id: str, *, limit: int, before: str | None = None
) -> list[Any]:
    """Up to ``limit`` of the thread's root checkpoints as ``StateSnapshot``, newest first, older than ``before``."""
    thread_id = lifecycle.thread_named(store, thread_id, exact=True)
    spec = _thread_spec(store, thread_id)
    readmodel.check_checkpoint(store, thread_id, before)
    before_config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": "", "checkpoint_id": before}}
    return list(
        _graph(store, settings, spec).get_state_history(
            {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}},
            limit=limit,
            before=before_config if before else None,
        )
    )


@dataclass(frozen=True)
class Finished:
    """A run that ended its thread (no question asked, nothing left to run): its head and the state there,
    as the run's last ``values`` event gave it, so its result need not read the state again."""

    head_checkpoint_id: str
    values: dict[str, Any]


def current_result(
    store: Store, settings: Settings, thread_id: str, finished: Finished | None = None, *, held: bool = False
) -> RunResult:
    """The thread's current state, as :class:`RunResult`, with its lifecycle status.

    ``finished``: the head and state a run that ended the thread left (read under its lease), taken
    instead of a read of the state, by the result and by its status, when the thread's head is still
    that one. ``held``: the caller holds the thread's lease (see ``lifecycle.thread_status``): the
    result is the thread as the caller's run left it.
    """
    spec = _thread_spec(store, thread_id)
    ended = None if finished is None else (finished.head_checkpoint_id, finished.values)
    status = lifecycle.thread_status(store, thread_id, held=held, ended=ended)
    if status is None:
        raise ThreadNotFoundError(thread_id)
    if finished is not None and status.head_checkpoint_id == finished.head_checkpoint_id:
        # The status read the head after the run: nothing changed since, and nothing runs or waits there.
        return RunResult(
            thread_id,
            spec.name,
            status.status,
            (),
            (),
            dict(finished.values),
            finished.head_checkpoint_id,
            outcome=status.outcome,
            reason=status.reason,
            action=status.action,
            reason_text=status.reason_text,
        )
    snapshot = _snapshot(store, settings, spec, thread_id)
    head = (snapshot.config or {}).get("configurable", {}).get("checkpoint_id")
    return RunResult(
        thread_id,
        spec.name,
        status.status,
        tuple(snapshot.next),
        tuple(i.value for i in snapshot.interrupts),
        dict(snapshot.values),
        head,
        outcome=status.outcome,
        reason=status.reason,
        action=status.action,
        reason_text=status.reason_text,
        interrupt_ids=tuple(str(i.id) for i in snapshot.interrupts),
        questions=tuple(snapshot.interrupts),
        waiting_count=status.waiting_count,
    )


def _is_waiting(store: Store, settings: Settings, spec: AgentSpec, thread_id: str) -> bool:
    """Whether the head asks a question (read directly: under our own lease the status says running)."""
    return bool(_snapshot(store, settings, spec, thread_id).interrupts)


def _thread_spec(store: Store, thread_id: str) -> AgentSpec:
    agent = readmodel.thread_agent(store, thread_id)
    if agent is None:
        raise ThreadNotFoundError(thread_id)
    return get_agent(agent)


def _drive(
    store: Store,
    graph: Any,
    payload: Any,
    config: dict[str, Any],
    on_event: EventCallback | None,
    on_chunk: ChunkCallback | None = None,
    stream_modes: tuple[str, ...] = (),
    *,
    actor: Identity = LOCAL_OPERATOR,
    checked: bool = False,
) -> dict[str, Any] | None:
    """Runs the graph under the caller's lease; the state at its end when the run ended the thread.

    Returns:
        The state the run's last ``values`` event gave, when no task asked a question and nothing is left
        to run (the graph pauses before or after no node); else None.
    """
    config["configurable"][identity.ACTOR_CONFIG_KEY] = actor  # the nodes that record who acted read it
    if checked:  # the answers it resumes with were checked by the agent's hooks: the nodes need not again
        config["configurable"][identity.CHECKED_CONFIG_KEY] = identity.ANSWERS_CHECKED
    # durability="sync": each checkpoint is on disk before the next step starts,
    # so a killed process loses nothing that had finished.
    asked = [mode for mode in STREAM_MODES if mode in stream_modes]
    modes = [mode for mode in dict.fromkeys(["tasks", "values", *asked]) if mode != "events"]
    last: list[Any] = []  # the newest values event
    asked_again = bool(graph.interrupt_before_nodes or graph.interrupt_after_nodes)
    if "events" in asked and on_chunk is not None:  # LangChain's stream events, as astream_events sends them
        from agents import event_stream  # noqa: PLC0415 - LangChain's tracers load LangSmith: only when asked

        event_stream.attach(config, lambda event: on_chunk("events", event), payload, config["metadata"]["agent"])
    try:
        # closing: a callback that raises (RunCancelled) ends the graph's stream before the lock is let go.
        with closing(graph.stream(payload, config, stream_mode=modes, durability="sync")) as stream:
            for mode, event in stream:
                if mode == "tasks" and on_event is not None:
                    on_event(event)
                if on_chunk is not None and mode in asked:
                    on_chunk(mode, event)
                if mode == "tasks" and event.get("interrupts"):
                    asked_again = True
                elif mode == "values":
                    if isinstance(event, dict) and INTERRUPT in event:
                        asked_again = True
                    last[:] = [event]
    except (DatabaseError, ThreadBusyError, RunCancelled):
        raise
    except sqlite3.DatabaseError as error:  # the saver's own read or write refused (damaged, full, busy)
        if not isinstance(error, CALLERS_ERRORS):
            raise DatabaseError(explain_refusal(getattr(graph.checkpointer, "location", "?"), error)) from error
        raise RunFailedError(str(config["configurable"]["thread_id"]), error) from error
    except Exception as error:
        # A node raised. LangGraph saved what finished and the error against the head, so the
        # thread's status is now "attention" with this error as its reason (shown in every inbox).
        thread_id = str(config["configurable"]["thread_id"])
        logger.info("thread %s: a step failed: %s: %s", thread_id, type(error).__name__, error)
        raise RunFailedError(thread_id, error) from error
    finally:
        flush_node_log(store)  # the run's node-log rows are written before its lease is released
    if asked_again or not last or not isinstance(last[0], dict) or graph.output_channels != graph.stream_channels_asis:
        return None
    return dict(last[0])


def _signed(spec: AgentSpec, values: Any, actor: Identity) -> Any:
    """The values with the agent's ``signed_field`` set to a signed-in actor's email (local: as typed).

    The local operator's configured approver (``HITL_LOCAL_APPROVER``) fills the field only where the
    values leave it out or blank, as if typed. An answer given as a list (Agent Inbox's ``[response]``)
    is signed on each of its objects.
    """
    if spec.ask.signed_field is None or (actor.local and not actor.local_approver):
        return values
    if isinstance(values, list):
        return [_signed(spec, value, actor) for value in values]
    if not isinstance(values, dict):
        return values
    if actor.local:
        given = values.get(spec.ask.signed_field)
        if given is not None and not (isinstance(given, str) and not given.strip()):
            return values
        return {**values, spec.ask.signed_field: actor.local_approver}
    return {**values, spec.ask.signed_field: actor.email}
