"""Starting an agent's run, and running a thread on with no new input (after an update, or a re-run)."""

from __future__ import annotations

from typing import Any

from agents import identity, lifecycle, readmodel
from agents.db import Store
from agents.deletion import check_head, erase_thread
from agents.errors import InputError, PermissionDenied, StaleFormError
from agents.identity import LOCAL_OPERATOR, Identity, check_allowed
from agents.leases import thread_guard
from agents.registry import get_agent
from agents.runs.core import (
    UNCHECKED,
    ChunkCallback,
    EventCallback,
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
from agents.spec import validate_fields
from agents.strings import STRINGS
from agents.texts import text
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
) -> RunResult:
    """Validates the start fields and runs the agent until it finishes or pauses, in ``lang`` (default English).

    ``on_chunk`` receives the chunks of ``stream_modes`` (:data:`STREAM_MODES`) as they come.
    ``actor`` is who starts it (a viewer may not; the agent may record them as the requester).
    ``expected_head`` is the head the user saw (None: none), so a start over never deletes newer work.
    """
    check_allowed(actor, identity.START_RUN)
    language = validate_language(lang)
    spec = get_agent(agent)
    clean = validate_fields(spec.run.start_fields, values)
    # None: the agent's own thread. An empty id is bad input, never the default (a start over of hitl_demo).
    requested = None if thread_id is None else lifecycle.thread_named(store, thread_id)  # never a look-alike
    target = validate_thread_id(spec.run.thread_for(clean, requested))
    graph_input = spec.run.sign_input(spec.run.make_input(clean, language), actor)

    def check() -> None:
        spec.run.check_start(store, clean)  # first: the agent's refusal names its own field
        if expected_head != UNCHECKED and (head := readmodel.head_checkpoint_id(store, target)) != expected_head:
            raise StaleFormError(target, expected_head, head)
        if spec.run.fresh_start:
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
        if spec.run.fresh_start:
            erase_thread(store, target)
        spec.run.claim_start(store, clean, target)  # under the lease: of two racing starts one claims
        config = run_config(spec, target, lang=language, run_id=run_id)
        _drive(store, graph, graph_input, config, on_event, on_chunk, stream_modes, actor=actor)
    return current_result(store, settings, target)


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
            spec.edit.check_rerun(store, dict(_snapshot(store, settings, spec, thread_id).values))

    with thread_guard(store, thread_id, check=check):
        lang = readmodel.thread_language(store, thread_id)
        config = run_config(spec, thread_id, checkpoint_id, lang=lang, run_id=run_id)
        _drive(store, _graph(store, settings, spec), None, config, on_event, on_chunk, stream_modes, actor=actor)
    return current_result(store, settings, thread_id)
