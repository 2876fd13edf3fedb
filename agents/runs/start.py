"""Starting an agent's run, and running a thread on with no new input (after an update, or a re-run)."""

from __future__ import annotations

from typing import Any

from agents import identity, lifecycle, readmodel
from agents.db import Store
from agents.deletion import check_head, erase_thread, head_status
from agents.errors import InputError, PermissionDenied, StaleFormError
from agents.identity import LOCAL_OPERATOR, Identity, check_allowed
from agents.leases import thread_guard
from agents.registry import get_agent
from agents.runs.core import (
    NO_OPTIONS,
    UNCHECKED,
    ChunkCallback,
    EventCallback,
    RunOptions,
    RunResult,
    _drive,
    _graph,
    _is_waiting,
    _snapshot,
    _thread_spec,
    current_result,
    run_config,
)
from agents.settings import Settings
from agents.spec import DeleteRequest, validate_fields
from agents.strings import STRINGS
from agents.texts import say, text
from agents.validation import validate_language, validate_thread_id


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
    delete_unfinished: bool = False,
    options: RunOptions = NO_OPTIONS,
) -> RunResult:
    """Validates the start fields and runs the agent until it finishes or pauses, in ``lang`` (default English).

    ``on_chunk`` receives the chunks of ``stream_modes`` (:data:`STREAM_MODES`) as they come.
    ``actor`` is who starts it (a viewer may not; the agent may record them as the requester).
    ``expected_head`` is the head the user saw (None: none), so a start over never deletes newer work.
    ``options``: the run's checkpoint metadata and step limit (:class:`~agents.runs.core.RunOptions`).

    An agent that starts over (``fresh_start``, the robot) deletes a finished thread and starts it again. A
    thread of it that is not finished (a question waiting, a stopped run) is refused, naming how to answer
    or delete it: a new input (the CLI's ``run``, the API's runs) never deletes an open question unseen.
    ``delete_unfinished`` is a deletion the person confirmed (the robot page's *Delete and start over*): it
    is then an admin's, and recorded as :func:`agents.deletion.delete_thread` records one
    (``python -m agents deletions`` lists it).
    """
    check_allowed(actor, identity.START_RUN)
    language = validate_language(lang)
    spec = get_agent(agent)
    clean = validate_fields(spec.run.start_fields, values)
    # None: the agent's own thread. An empty id is bad input, never the default (a start over of hitl_demo).
    requested = None if thread_id is None else lifecycle.thread_named(store, thread_id)  # never a look-alike
    target = validate_thread_id(spec.run.thread_for(clean, requested))
    graph_input = spec.run.sign_input(spec.run.make_input(clean, language), actor)
    deleting: list[DeleteRequest] = []  # an unfinished thread a confirmed start over deletes, recorded first

    def check() -> None:
        spec.run.check_start(store, clean)  # first: the agent's refusal names its own field
        if expected_head != UNCHECKED and (head := readmodel.head_checkpoint_id(store, target)) != expected_head:
            raise StaleFormError(target, expected_head, head)
        deleting.clear()
        if spec.run.fresh_start:
            owner = readmodel.thread_agent(store, target)
            if owner not in (None, spec.name):
                raise InputError("thread_id", text(STRINGS, "error.other_agent", thread=repr(target), owner=owner))
            if unfinished := _unfinished_start_over(store, spec.name, target, actor, delete_unfinished, language):
                deleting.append(unfinished)
        elif readmodel.head_checkpoint_id(store, target) is not None:
            raise InputError("thread_id", text(STRINGS, "error.thread_exists", thread=repr(target)))

    graph = _graph(store, settings, spec)  # a bad setting is refused before anything is written
    with thread_guard(store, target, check=check):
        if spec.run.fresh_start:
            for request in deleting:  # the record outlives the thread, as a delete_thread's does
                spec.edit.record_delete(store, request)
            erase_thread(store, target)
        spec.run.claim_start(store, clean, target)  # under the lease: of two racing starts one claims
        config = run_config(spec, target, lang=language, run_id=run_id, options=options)
        _drive(store, graph, graph_input, config, on_event, on_chunk, stream_modes, actor=actor)
    return current_result(store, settings, target)


def _unfinished_start_over(
    store: Store, agent: str, thread_id: str, actor: Identity, confirmed: bool, lang: str
) -> DeleteRequest | None:
    """The deletion of the unfinished thread a start over would delete, for its record; None when there is none.

    Its status is read as :func:`agents.deletion.delete_thread` reads it (``waiting``, ``attention`` or
    ``done``). An unfinished thread is refused unless the person confirmed deleting it (``confirmed``), and
    deleting one is an admin's, as a ``delete_thread`` is. Its recorded reason says it was started over, in
    the run's language ``lang``.

    Raises:
        InputError: It is unfinished and the start did not confirm its deletion (``thread_id``).
        PermissionDenied: The deletion was confirmed by an actor who may not delete threads.
    """
    head = readmodel.head_checkpoint_id(store, thread_id)
    if head is None:
        return None
    status, values = head_status(store, agent, thread_id)
    if status == "done":  # a finished thread is deleted without a record: its outcome was news already
        return None
    if not confirmed:
        raise InputError("thread_id", text(STRINGS, f"error.start_over_{status}", thread=repr(thread_id)))
    if denied := identity.denial(actor, identity.DELETE_THREAD):
        raise PermissionDenied(identity.DELETE_THREAD, f"{thread_id!r} is not finished; starting over: {denied}")
    return DeleteRequest(thread_id, head, values, status, say(STRINGS, "deletion.reason.start_over", lang), actor)


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
    options: RunOptions = NO_OPTIONS,
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
            spec.edit.check_rerun(store, dict(_snapshot(store, settings, spec, thread_id).values))

    with thread_guard(store, thread_id, check=check):
        lang = readmodel.thread_language(store, thread_id)
        config = run_config(spec, thread_id, checkpoint_id, lang=lang, run_id=run_id, options=options)
        _drive(store, _graph(store, settings, spec), None, config, on_event, on_chunk, stream_modes, actor=actor)
    return current_result(store, settings, thread_id)
