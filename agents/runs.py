"""Run, resume, update and delete threads: the one code path for forms and CLI.

Deleting is :func:`agents.deletion.delete_thread`, re-exported here as ``delete_thread``.

Every operation that changes a thread can name the head checkpoint the user
saw (``expected_head``). The check and the change happen under one per-thread
lock (:func:`~agents.leases.thread_guard`), so of two tabs or two approvers
acting on the same view, exactly one takes effect and the other gets
:class:`~agents.errors.StaleFormError`.
"""

from __future__ import annotations

import logging
import sqlite3
import uuid
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from typing import Any

from agents import identity, lifecycle, readmodel, runtime
from agents.db import CALLERS_ERRORS, DatabaseError, Store, explain_refusal
from agents.deletion import check_head, erase_thread
from agents.deletion import delete_thread as delete_thread  # the write path's delete, kept in its own module
from agents.errors import (
    InputError,
    NotWaitingError,
    PermissionDenied,
    RunCancelled,
    RunFailedError,
    StaleFormError,
    ThreadNotFoundError,
    UserError,
)
from agents.identity import LOCAL_OPERATOR, Identity, check_allowed
from agents.leases import ThreadBusyError, thread_guard
from agents.loaded import is_instance, resume_command
from agents.nodelog import flush as flush_node_log
from agents.registry import get_agent
from agents.settings import Settings
from agents.spec import AgentSpec, UpdateRequest, validate_fields, validate_update
from agents.strings import STRINGS
from agents.texts import DEFAULT_LANGUAGE, LANGUAGE_METADATA_KEY, Text, text
from agents.validation import validate_language, validate_thread_id

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

    def to_json(self) -> dict[str, Any]:
        """The CLI's ``--json`` shape."""
        return {
            "thread_id": self.thread_id,
            "status": self.status,
            "outcome": self.outcome,
            "reason": self.reason,
            "action": self.action,
            "next": list(self.next),
            "interrupts": readmodel.to_jsonable(list(self.interrupts)),
            "interrupt_ids": list(self.interrupt_ids),
            "values": readmodel.to_jsonable(self.values),
        }


def waiting_count(payloads: tuple[Any, ...] | list[Any]) -> str:
    """How many questions wait, in words (``2 of 5 items``; see :func:`agents.lifecycle.waiting_words`)."""
    return lifecycle.waiting_words(len(payloads), payloads[0] if payloads else None)


def run_config(
    spec: AgentSpec,
    thread_id: str,
    checkpoint_id: str | None = None,
    *,
    lang: str = DEFAULT_LANGUAGE,
    run_id: str | None = None,
    batch_id: str | None = None,
) -> dict[str, Any]:
    """Thread, the run id (``run_id``, else a fresh one), agent, run language and the batch it decides in.

    LangGraph copies the metadata into each checkpoint the run writes: the agent as ``agent`` and, as
    LangGraph's server writes them, as ``graph_id`` and ``assistant_id`` (an assistant is an agent here).
    """
    configurable: dict[str, Any] = {"thread_id": thread_id}
    if checkpoint_id:
        configurable.update(checkpoint_id=checkpoint_id, checkpoint_ns="")
    config: dict[str, Any] = {
        "configurable": configurable,
        "metadata": {
            "agent": spec.name,
            "graph_id": spec.name,
            "assistant_id": spec.name,
            "run_id": run_id or uuid.uuid4().hex[:12],
            LANGUAGE_METADATA_KEY: lang,
        },
    }
    if batch_id:
        config["metadata"][identity.BATCH_METADATA_KEY] = batch_id
    if spec.max_concurrency:
        config["max_concurrency"] = spec.max_concurrency
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


def current_result(store: Store, settings: Settings, thread_id: str) -> RunResult:
    """The thread's current state, as :class:`RunResult`, with its lifecycle status."""
    spec = _thread_spec(store, thread_id)
    snapshot = _snapshot(store, settings, spec, thread_id)
    status = lifecycle.thread_status(store, thread_id)
    if status is None:
        raise ThreadNotFoundError(thread_id)
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
) -> None:
    config["configurable"][identity.ACTOR_CONFIG_KEY] = actor  # the nodes that record who acted read it
    # durability="sync": each checkpoint is on disk before the next step starts,
    # so a killed process loses nothing that had finished.
    asked = [mode for mode in STREAM_MODES if mode in stream_modes]
    modes = [mode for mode in dict.fromkeys(["tasks", *asked]) if mode != "events"]
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


def start_run(
    store: Store,
    settings: Settings,
    agent: str,
    values: dict[str, Any],
    *,
    thread_id: str | None = None,
    on_event: EventCallback | None = None,
    on_chunk: ChunkCallback | None = None,
    stream_modes: tuple[str, ...] = (),
    actor: Identity = LOCAL_OPERATOR,
    run_id: str | None = None,
    lang: str | None = None,
    expected_head: str | None = UNCHECKED,
) -> RunResult:
    """Validates the start fields and runs the agent until it finishes or pauses, in ``lang`` (default English).

    ``on_chunk`` receives the chunks of ``stream_modes`` (:data:`STREAM_MODES`) as they come.
    ``actor`` is who starts it (a viewer may not; the agent may record them as the requester).
    ``expected_head`` is the head the user saw (None: none), so a start over never deletes newer work.
    """
    check_allowed(actor, identity.START_RUN)
    language = validate_language(lang)
    spec = get_agent(agent)
    clean = validate_fields(spec.start_fields, values)
    # None: the agent's own thread. An empty id is bad input, never the default (a start over of hitl_demo).
    requested = None if thread_id is None else lifecycle.thread_named(store, thread_id)  # never a look-alike
    target = validate_thread_id(spec.thread_for(clean, requested))
    graph_input = spec.sign_input(spec.make_input(clean, language), actor)

    def check() -> None:
        spec.check_start(store, clean)  # first: the agent's refusal names its own field
        if expected_head != UNCHECKED and (head := readmodel.head_checkpoint_id(store, target)) != expected_head:
            raise StaleFormError(target, expected_head, head)
        if spec.fresh_start:
            owner = readmodel.thread_agent(store, target)
            if owner not in (None, spec.name):
                raise InputError("thread_id", text(STRINGS, "error.other_agent", thread=repr(target), owner=owner))
            # Starting over deletes the thread: one not finished (a question waiting, a stopped run) is an
            # admin's to delete. The state is read only for an actor who may not delete.
            reason = identity.denial(actor, identity.DELETE_THREAD)
            if reason and _snapshot(store, settings, spec, target).next:
                raise PermissionDenied(identity.DELETE_THREAD, f"{target!r} is not finished; starting over: {reason}")
        elif readmodel.head_checkpoint_id(store, target) is not None:
            raise InputError("thread_id", text(STRINGS, "error.thread_exists", thread=repr(target)))

    graph = _graph(store, settings, spec)  # a bad setting is refused before anything is written
    with thread_guard(store, target, check=check):
        if spec.fresh_start:
            erase_thread(store, target)
        config = run_config(spec, target, lang=language, run_id=run_id)
        _drive(store, graph, graph_input, config, on_event, on_chunk, stream_modes, actor=actor)
    return current_result(store, settings, target)


def resume_thread(
    store: Store,
    settings: Settings,
    thread_id: str,
    value: Any,
    *,
    interrupt_id: str | None = None,
    every: bool = False,
    expected_head: str | None = None,
    on_event: EventCallback | None = None,
    on_chunk: ChunkCallback | None = None,
    stream_modes: tuple[str, ...] = (),
    actor: Identity = LOCAL_OPERATOR,
    run_id: str | None = None,
    batch_id: str | None = None,
) -> RunResult:
    """Answers a waiting thread's question and runs on until the next pause or the end.

    A thread may ask several questions at once (a refund with several items), each with its own
    interrupt id: ``interrupt_id`` answers that one, ``every`` gives the same answer to every one
    waiting. Without either, the thread must be asking exactly one; with more waiting the answer is
    refused (``InputError`` on ``interrupt_id``, listing the ids), since it could be meant for any.

    ``actor`` answers: the agent decides whether they may (``AgentSpec.authorize_answer``), and a
    signed-in actor is recorded by identity, whatever name was typed (``AgentSpec.signed_field``).
    ``batch_id`` names the batch the answer is part of (:mod:`agents.batch`), recorded with the run.
    """
    key = EVERY if every else interrupt_id
    return resume_interrupts(
        store,
        settings,
        thread_id,
        {key: value},
        expected_head=expected_head,
        on_event=on_event,
        on_chunk=on_chunk,
        stream_modes=stream_modes,
        actor=actor,
        run_id=run_id,
        batch_id=batch_id,
    )


#: ``resume_interrupts``' key for "the same answer to every waiting question".
EVERY = "*"


def resume_interrupts(
    store: Store,
    settings: Settings,
    thread_id: str,
    answers: dict[str | None, Any],
    *,
    expected_head: str | None = None,
    on_event: EventCallback | None = None,
    on_chunk: ChunkCallback | None = None,
    stream_modes: tuple[str, ...] = (),
    actor: Identity = LOCAL_OPERATOR,
    run_id: str | None = None,
    batch_id: str | None = None,
) -> RunResult:
    """Answers some or all of a thread's waiting questions, by interrupt id, in one run.

    ``answers`` maps an interrupt id to its answer (the questions not named stay waiting); the key
    None answers the thread's only question, :data:`EVERY` every waiting one. Each answer is checked
    against the question it answers (``AgentSpec.question_values``) by the agent's rules and
    permissions, all before anything is written: one refused answer refuses the whole call.
    """
    if not answers:
        raise InputError("interrupt_id", text(STRINGS, "error.required"))
    thread_id = lifecycle.thread_named(store, thread_id)
    spec = _thread_spec(store, thread_id)
    checked = {key: spec.check_resume(_signed(spec, value, actor)) for key, value in answers.items()}
    targets: dict[str, Any] = {}

    def check() -> None:
        head = check_head(store, thread_id, expected_head)
        snapshot = _snapshot(store, settings, spec, thread_id)
        if not snapshot.interrupts:
            raise NotWaitingError(thread_id, _where(store, spec, thread_id, snapshot))
        waiting = {str(question.id) for question in snapshot.interrupts}
        if expected_head is not None and not {key for key in checked if key not in (None, EVERY)} <= waiting:
            # An item answered since the form was drawn: the head stays the same checkpoint while
            # other questions of its step still wait (their answers are saved as the step's writes).
            raise StaleFormError(thread_id, expected_head, head)
        targets.clear()
        targets.update(_answered(thread_id, snapshot.interrupts, checked))
        values = dict(snapshot.values)
        for question in snapshot.interrupts:
            if question.id in targets:
                answer, asked = targets[question.id], spec.question_values(values, question.value)
                spec.check_answer(asked, answer)
                spec.check_offered(question.value, answer)  # the question the answer answers
                spec.authorize_answer(actor, asked, answer)

    with thread_guard(store, thread_id, check=check):
        graph = _graph(store, settings, spec)
        lang = readmodel.thread_language(store, thread_id)
        config = run_config(spec, thread_id, lang=lang, run_id=run_id, batch_id=batch_id)
        by_id = list(checked) != [None]
        if readmodel.holds_a_taken_answer(store, thread_id):  # an earlier answer would be used instead
            asked = {str(q.id): q.value for q in _snapshot(store, settings, spec, thread_id).interrupts}
            graph.update_state(config, None, as_node="__copy__")
            if by_id:  # the copy's tasks ask afresh, under new ids: ask them, then answer the same questions
                _drive(store, graph, None, run_config(spec, thread_id, lang=lang, run_id=run_id), None, actor=actor)
                fresh = _snapshot(store, settings, spec, thread_id).interrupts
                renamed = _renamed(targets, asked, fresh)
                targets.clear()
                targets.update(renamed)
                config = run_config(spec, thread_id, lang=lang, run_id=run_id, batch_id=batch_id)
        if by_id and not targets:  # every question answered was settled by the copy's run (nothing left to ask)
            return current_result(store, settings, thread_id)
        # One question answered without its id: resumed as before ids were needed (the same writes).
        payload = resume_command(dict(targets)) if by_id else resume_command(checked[None])
        _drive(store, graph, payload, config, on_event, on_chunk, stream_modes, actor=actor)
    return current_result(store, settings, thread_id)


def _renamed(targets: dict[str, Any], asked: dict[str, Any], fresh: Any) -> dict[str, Any]:
    """The answers by interrupt id, moved to the ids the same questions have after a copy of the head."""
    renamed: dict[str, Any] = {}
    for interrupt, answer in targets.items():
        same = [str(q.id) for q in fresh if q.value == asked.get(interrupt) and str(q.id) not in renamed]
        if same:
            renamed[same[0]] = answer
    return renamed


def _answered(thread_id: str, questions: Any, checked: dict[str | None, Any]) -> dict[str, Any]:
    """Interrupt id → answer, for the waiting ``questions`` the ``checked`` answers name."""
    waiting = [str(question.id) for question in questions]
    ids = ", ".join(waiting)
    if EVERY in checked:
        return {interrupt: checked[EVERY] for interrupt in waiting}
    if None in checked:
        if len(waiting) > 1:
            thread = repr(thread_id)
            raise InputError(
                "interrupt_id", text(STRINGS, "error.several_waiting", count=len(waiting), thread=thread, ids=ids)
            )
        return {waiting[0]: checked[None]}
    for interrupt in checked:
        if interrupt not in waiting:
            found = text(STRINGS, "error.unknown_interrupt", interrupt=repr(interrupt), thread=repr(thread_id), ids=ids)
            raise InputError("interrupt_id", found)
    return {str(interrupt): answer for interrupt, answer in checked.items()}


def _signed(spec: AgentSpec, values: Any, actor: Identity) -> Any:
    """The values with the agent's ``signed_field`` set to a signed-in actor's email (local: as typed)."""
    if actor.local or spec.signed_field is None or not isinstance(values, dict):
        return values
    return {**values, spec.signed_field: actor.email}


def _where(store: Store, spec: AgentSpec, thread_id: str, snapshot: Any) -> str | Text:
    """Where a thread that asks nothing stands, in words: what runs next, or how it ended."""
    if snapshot.next:
        return text(STRINGS, "error.runs_next", nodes=", ".join(snapshot.next))
    outcome, problem = spec.finished_outcome(store, thread_id, dict(snapshot.values))
    return outcome or problem


def resume_from_fields(
    store: Store,
    settings: Settings,
    thread_id: str,
    fields: dict[str, Any],
    *,
    agent: str | None = None,
    actor: Identity = LOCAL_OPERATOR,
    **kwargs: Any,
) -> RunResult:
    """Resumes with the agent's typed resume fields (the form's typed mode, an approver's decision).

    Blank values count as not given. ``agent`` refuses a thread of another agent (a refund
    decision sent to a robot thread).
    """
    thread_id = lifecycle.thread_named(store, thread_id)
    spec = _thread_spec(store, thread_id)
    if agent is not None and spec.name != agent:
        raise InputError("thread_id", f"thread {thread_id!r} belongs to the {spec.name} agent, not {agent}")
    given = _signed(spec, {key: value for key, value in fields.items() if value not in (None, "")}, actor)
    value = spec.make_resume(validate_fields(spec.resume_fields, given))
    return resume_thread(store, settings, thread_id, value, actor=actor, **kwargs)


def update_thread(
    store: Store,
    settings: Settings,
    thread_id: str,
    values: dict[str, Any],
    *,
    as_node: str | None = None,
    checkpoint_id: str | None = None,
    expected_head: str | None = None,
    actor: Identity = LOCAL_OPERATOR,
) -> RunResult:
    """``update_state`` on the head (or, to fork, on ``checkpoint_id``); the history stays. Admins only."""
    check_allowed(actor, identity.UPDATE_STATE if checkpoint_id is None else identity.FORK)
    thread_id = lifecycle.thread_named(store, thread_id)
    spec = _thread_spec(store, thread_id)
    clean = validate_update(spec, _signed(spec, values, actor), as_node)
    prepared: dict[str, Any] = {}

    def check() -> None:
        check_head(store, thread_id, expected_head)
        readmodel.check_checkpoint(store, thread_id, checkpoint_id)
        head = dict(_snapshot(store, settings, spec, thread_id).values)
        target = (
            head if checkpoint_id is None else dict(_snapshot(store, settings, spec, thread_id, checkpoint_id).values)
        )
        if checkpoint_id is not None:
            spec.check_rerun(store, head)
        forking = checkpoint_id is not None
        request = UpdateRequest(
            head, target, dict(clean), as_node, forking, lang=readmodel.thread_language(store, thread_id)
        )
        spec.authorize_update(actor, request)
        prepared.clear()
        prepared.update(spec.check_update(store, request))

    with thread_guard(store, thread_id, check=check):
        graph = _graph(store, settings, spec)
        lang = readmodel.thread_language(store, thread_id)
        try:
            config = run_config(spec, thread_id, checkpoint_id, lang=lang)
            written = graph.update_state(config, prepared, as_node=as_node)
        except UserError:
            raise
        except (KeyError, IndexError, TypeError, ValueError) as error:
            # LangGraph evaluates the node's edges on the updated state before it saves anything: an edge
            # that reads what the node writes cannot route a state without it (an agent's check_update
            # refuses the cases it knows of before the thread's lease is taken).
            raise InputError(
                "as_node",
                f"an update as {as_node!r} cannot be routed: the edges after {as_node!r} need what that node "
                f"writes ({type(error).__name__}: {error}); choose another node",
            ) from None
        except Exception as error:  # LangGraph refuses before writing (e.g. an ambiguous writer)
            if is_instance(error, "langgraph.errors", "InvalidUpdateError"):
                raise InputError("as_node", f"LangGraph refused the update: {error}") from None
            raise
        if spec.continue_after_update:
            # The agent never rests edited and unseen: it runs on from the new checkpoint at once
            # (a refund goes straight back to its approver, or, under ``reroute``, settles).
            config = run_config(spec, thread_id, written["configurable"]["checkpoint_id"], lang=lang)
            _drive(store, graph, None, config, None, actor=actor)
    return current_result(store, settings, thread_id)


def restore_checkpoint(
    store: Store,
    settings: Settings,
    thread_id: str,
    checkpoint_id: str,
    *,
    expected_head: str | None = None,
    actor: Identity = LOCAL_OPERATOR,
) -> RunResult:
    """Makes an older checkpoint the head again, as a copy (LangGraph's ``__copy__`` update).

    The way back after a fork or re-run went wrong: the failed branch stays in
    the history, and the thread continues from the copy. The agent's re-run rule
    applies (a paid refund is final). Admins only.
    """
    check_allowed(actor, identity.RESTORE)
    thread_id = lifecycle.thread_named(store, thread_id)
    spec = _thread_spec(store, thread_id)

    def check() -> None:
        check_head(store, thread_id, expected_head)
        readmodel.check_checkpoint(store, thread_id, checkpoint_id)
        spec.check_rerun(store, dict(_snapshot(store, settings, spec, thread_id).values))

    with thread_guard(store, thread_id, check=check):
        config = run_config(spec, thread_id, checkpoint_id, lang=readmodel.thread_language(store, thread_id))
        _graph(store, settings, spec).update_state(config, None, as_node="__copy__")
    return current_result(store, settings, thread_id)


def continue_thread(
    store: Store,
    settings: Settings,
    thread_id: str,
    *,
    checkpoint_id: str | None = None,
    expected_head: str | None = None,
    on_event: EventCallback | None = None,
    on_chunk: ChunkCallback | None = None,
    stream_modes: tuple[str, ...] = (),
    actor: Identity = LOCAL_OPERATOR,
    run_id: str | None = None,
) -> RunResult:
    """Runs on with no new input: after an update (approvers), or from an older checkpoint (a re-run: admins)."""
    check_allowed(actor, identity.CONTINUE if checkpoint_id is None else identity.RERUN)
    thread_id = lifecycle.thread_named(store, thread_id)
    spec = _thread_spec(store, thread_id)

    def check() -> None:
        check_head(store, thread_id, expected_head)
        readmodel.check_checkpoint(store, thread_id, checkpoint_id)
        if checkpoint_id is None:
            if _is_waiting(store, settings, spec, thread_id):
                raise InputError("thread_id", text(STRINGS, "error.answer_instead", thread=repr(thread_id)))
        else:
            spec.check_rerun(store, dict(_snapshot(store, settings, spec, thread_id).values))

    with thread_guard(store, thread_id, check=check):
        lang = readmodel.thread_language(store, thread_id)
        config = run_config(spec, thread_id, checkpoint_id, lang=lang, run_id=run_id)
        _drive(store, _graph(store, settings, spec), None, config, on_event, on_chunk, stream_modes, actor=actor)
    return current_result(store, settings, thread_id)
